"""The command line: bad input is one clear line and exit code 2, nothing written."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

BAD = [
    (["run", "nosuchgame"], "unknown game"),
    (["run", "ufs", "--set", "colour=red"], "has no parameter 'colour'"),
    (["run", "ufs", "--set", "threat=9"], "out of range"),
    (["run", "ufs", "--set", "threat=two"], "not an integer"),
    (["run", "ufs", "--set", "city=paris"], "roswell, new_york, washington"),
    (["run", "ufs", "--set", "robots=maybe"], "true or false"),
    (["run", "ufs", "--set", "threat"], "key=value"),
    (["run", "ufs", "--bot", "nosuchbot"], "unknown bot"),
    (["run", "ufs", "--bot", "greedy", "--bot", "greedy"], "has 1 seat but 2 bots"),
    (["compare", "ufs", "--vs", "threat=2", "--vs", "threat=3"], "--vs threat is given twice"),  # it named --set
    (["run", "ufs", "-n", "0"], "positive integer"),
    (["run", "ufs", "--backend", "carrier-pigeon"], "unknown backend"),
    (["bench", "nosuchgame"], "unknown game"),
    # hostile input (issue 10): each one line, exit 2, nothing written
    (["run", "ufs", "--seed", "-1"], "non-negative"),
    (["run", "ufs", "--seed", "abc"], "--seed"),
    (["run", "ufs", "-n", "100000000000000000000"], "at most"),
    (["run", "ufs", "--jobs", "-3"], "--jobs must be 0"),
    (["run", "ufs", "--chunk-size", "0"], "--chunk-size"),
    (["run", "ufs", "--bot", "[/bold]"], "unknown bot '[/bold]'"),
    (["run", "ufs", "--set", "city=[/x]"], "city='[/x]'"),
    (["run", "ufs", "--format", "xml"], "--format"),
    (["run", "ufs", "--format", "parquet"], "--output"),
    (["trace", "ufs", "--seed", "-5"], "non-negative"),
    (["trace", "ufs", "--game-index", "-1"], "game index"),
    (["trace", "ufs", "--game-index", str(2**64)], "game index"),
    (["bench", "ufs", "-n", "0"], "-n"),
    (["bench", "ufs", "--repeat", "0"], "--repeat"),
    (["compare", "ufs", "--vs", "threat=2", "--metric", "nosuch"], "no output column 'nosuch'"),
    (["compare", "ufs", "--vs", "threat=2", "--metric", "loss_cause"], "not a number"),
    (["nosuchcommand"], "No such command"),
    # issue 21: one name per meaning; the old spellings are gone, not aliases
    (["run", "ufs", "--json"], "No such option: --json"),
    (["compare", "ufs", "--vs", "threat=2", "--json"], "No such option: --json"),
    (["bench", "ufs", "--json", "b.json"], "No such option: --json"),
    (["check", "bands.toml", "--json", "c.json"], "No such option: --json"),
    (["sensitivity", "ufs", "--json", "s.json"], "No such option: --json"),
    (["sensitivity", "ufs", "--runs", "r"], "No such option: --runs"),
    (["sweep", "x.toml", "--runs", "r"], "No such option: --runs"),
    (["run", "ufoo", "--bot", "search:x4"], "no option 'x4'"),
    (["bench", "template", "--ladder", "-n", "1"], "--ladder needs 2 <= -n"),
    (["bench", "template", "--ladder", "--bot", "count"], "a ladder needs at least two bots"),
]


@pytest.mark.parametrize("args, message", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path, simkit_cli):
    out = tmp_path / "out"
    proc = simkit_cli(args + ["--out", str(out)] if args[0] == "run" else args, tmp_path)
    assert proc.returncode == 2, proc.stderr
    lines = [line for line in proc.stderr.strip().splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert message in lines[0]
    assert "Traceback" not in proc.stderr
    assert not out.exists()


def test_malformed_data_file(tmp_path, simkit_cli):
    bad = tmp_path / "bad.toml"
    bad.write_text('version = "x"\n[sky.4.easy]\nrows = [[".", "Q"]]\n')
    proc = simkit_cli(["run", "ufs", "--set", f"data={bad}", "--out", str(tmp_path / "o")], tmp_path)
    assert proc.returncode == 2 and "bad.toml" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()
    broken = tmp_path / "broken.toml"
    broken.write_text("this is = = not toml")
    proc = simkit_cli(["run", "ufs", "--set", f"data={broken}"], tmp_path)
    assert proc.returncode == 2 and "not valid TOML" in proc.stderr


def test_missing_argument_is_a_usage_error(tmp_path, simkit_cli):
    proc = simkit_cli(["run"], tmp_path)
    assert proc.returncode == 2


def test_every_game_loads_without_the_statistics_libraries(tmp_path):
    """scipy.stats and statsmodels (about 1 s of imports) load when a statistic is first
    computed: a command stopped by a wrong setting answers without them."""
    code = ("import sys; from simkit.games import REGISTRY, get\n"
            "for name in REGISTRY: get(name)\n"
            "print(sorted(m for m in ('scipy.stats', 'scipy.optimize', 'statsmodels', 'pandas') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_run_prints_a_summary_and_writes_results(tmp_path, simkit_cli):
    out = tmp_path / "r"
    proc = simkit_cli(["run", "ufs", "-n", "300", "--seed", "4", "--out", str(out), "--no-progress", "--set", "threat=0"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "win rate" in proc.stdout and "answer: The player wins" in proc.stdout
    # the settings played, where they differ from the game's (a newcomer found them nowhere)
    assert proc.stdout.splitlines()[0].strip() == "Under Falling Skies: 300 games, seed 4, greedy; threat=0"
    m = json.loads((out / "manifest.json").read_text())
    assert m["n_games"] == 300 and m["params"]["threat"] == 0
    # a game's own columns (its length, the escapes) are said once per game, not on every seat's row
    proc = simkit_cli(["run", "eftaios", "-n", "60", "--out", str(tmp_path / "e"), "--no-progress"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("mean rounds") == 1 and "per game (60): mean escaped" in proc.stdout, proc.stdout
    # where a game has several winners, each seat's win share stands beside its win rate (the answers are about shares)
    proc = simkit_cli(["run", "aau", "-n", "60", "--out", str(tmp_path / "a"), "--no-progress", "--format", "json"], tmp_path)
    rows = json.loads(proc.stdout)["rows"]
    assert all(0 <= r["win_share_lo"] <= r["win_share"] <= r["win_share_hi"] <= 1 for r in rows)
    assert sum(r["win_share"] for r in rows) <= 1 + 1e-9 < sum(r["win_rate"] for r in rows)  # shared wins in 60 games


def test_user_bot_from_a_module_in_the_current_folder(tmp_path, simkit_cmd):
    """fn(observation, legal, rng): found in the current folder without PYTHONPATH."""
    (tmp_path / "mybot.py").write_text(
        "def first(observation, legal, rng):\n"
        "    legal[:] = -1  # a copy: this cannot change what the game accepts\n"
        "    observation[:] = 0\n"
        "    return 0\n"
        "def last(observation, legal, rng):\n"
        "    return int(legal[-1])\n"
    )
    env = {k: v for k, v in __import__("os").environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        simkit_cmd + ["run", "aau", "--set", "players=2", "-n", "6", "--bot", "mybot:last", "--bot", "random", "--out", str(tmp_path / "o"), "--no-progress"],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "mybot:last" in proc.stdout
    proc = subprocess.run(
        simkit_cmd + ["run", "ufs", "-n", "5", "--bot", "mybot:first", "--out", str(tmp_path / "o2"), "--no-progress"],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300,
    )
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "mybot:first" in proc.stderr and "game 0" in proc.stderr and "not legal" in proc.stderr


def test_user_bot_from_a_file_path(tmp_path, simkit_cmd):
    """--bot path/to/file.py:function, as a user types it, in the main process and in the
    workers (it was refused: 'cannot import ...'); a path to no file is one line."""
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "pathbot_by_file.py").write_text("def last(observation, legal, rng):\n    return int(legal[-1])\n")
    cmd = simkit_cmd + ["run", "aau", "--set", "players=2", "-n", "8", "--chunk-size", "2", "--jobs", "2", "--no-progress",
                        "--bot", "bots/pathbot_by_file.py:last", "--bot", "random", "--out", str(tmp_path / "o")]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0 and "bots/pathbot_by_file.py:last" in proc.stdout, proc.stderr
    proc = subprocess.run(simkit_cmd + ["run", "ufs", "-n", "2", "--bot", "nowhere/bot.py:f", "--no-progress"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "nowhere/bot.py is no file" in proc.stderr, proc.stderr


def test_bot_files_of_one_name_in_two_folders_are_two_bots(tmp_path, monkeypatch):
    """a/bot.py and b/bot.py: the second was the first (imported by its module name), and a
    bot file named json.py was the standard library's json (a hostile review). A file is its
    own module. A bot module that ignores SIGTERM or Ctrl-C when imported does not take
    them from the command."""
    import signal

    from simkit.bots import load_user_bot

    for folder, pick in (("a", "0"), ("b", "-1")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "bot.py").write_text(f"def f(observation, legal, rng):\n    return int(legal[{pick}])\n")
    (tmp_path / "json.py").write_text("import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                                      "def f(observation, legal, rng):\n    return 7\n")
    monkeypatch.chdir(tmp_path)
    a, b = load_user_bot("a/bot.py", "f", "a/bot.py:f"), load_user_bot("b/bot.py", "f", "b/bot.py:f")
    assert a.fn([], [1, 2, 3], None) == 1 and b.fn([], [1, 2, 3], None) == 3
    before = signal.getsignal(signal.SIGTERM)
    mine = load_user_bot("json.py", "f", "json.py:f")
    assert mine.fn([], [7], None) == 7 and signal.getsignal(signal.SIGTERM) is before
    import json

    assert callable(json.loads)  # (the standard library's, still)


def test_games_lists_parameters_and_bots(tmp_path, simkit_cli):
    proc = simkit_cli(["games"], tmp_path)
    assert proc.returncode == 0
    for word in ("ufs", "threat", "city", "greedy", "planner", "random"):
        assert word in proc.stdout
    one = simkit_cli(["games", "ufoo"], tmp_path)  # the README says it describes every column; it did not
    assert one.returncode == 0 and "columns of a run's games.parquet" in one.stdout
    assert all(f"  {c}\n" in one.stdout for c in ("game_index", "won", "ms_hits", "kills", "turns"))


def test_help_explains_each_command(tmp_path, simkit_cli):
    for cmd in ("run", "games", "bench", "trace", "compare", "sensitivity", "sweep", "report", "check", "tune"):
        proc = simkit_cli([cmd, "--help"], tmp_path)
        assert proc.returncode == 0 and "Example" in proc.stdout


def test_help_fits_80_columns_and_cuts_nothing():
    """'simkit tune --help' at 80 columns cut 'threat=0:0.5,1:0.3,2:…' and 'runs/tune/<game>-<goa…'."""
    from typer.testing import CliRunner

    from simkit.cli import app

    for command in app.registered_commands:
        res = CliRunner().invoke(app, [command.name or command.callback.__name__, "--help"], env={"COLUMNS": "80"}, terminal_width=80)
        assert res.exit_code == 0 and "…" not in res.output and max(map(len, res.output.splitlines())) <= 80, command.name


def test_help_paragraphs_are_reflowed_not_broken_where_the_docstring_was():
    """typer's rich help keeps line breaks inside a paragraph and rewraps it too, which
    broke 'simkit bench --help' mid-sentence: each paragraph reaches it as one line. An
    example keeps its lines, each a whole part of the command that fits 100 columns (a long
    one rewrapped at 100 columns broke when copied line by line)."""
    from simkit.cli import app

    for command in app.registered_commands:
        paragraphs = command.help.split("\n\n")
        assert len(paragraphs) >= 2 and not [p for p in paragraphs if "\n" in p and not p.startswith("Example:")], command.callback.__name__
        for p in paragraphs:
            if p.startswith("Example:"):
                lines = p.splitlines()
                assert all(len(x) <= 96 for x in lines) and all(x.endswith(" \\") for x in lines[:-1]), p


def test_trace_prints_a_game(tmp_path, simkit_cli):
    for game in ("ufs", "aau"):
        proc = simkit_cli(["trace", game, "--seed", "1"], tmp_path)
        assert proc.returncode == 0 and ("won" in proc.stdout or "lost" in proc.stdout or "final scores" in proc.stdout)


def test_summaries_take_format_and_output_everywhere(tmp_path, simkit_cli):
    """run, compare and bench: --format json [--output FILE]; the JSON holds numbers."""
    run = simkit_cli(["run", "template", "-n", "20", "--no-progress", "--out", str(tmp_path / "r"), "--format", "json"], tmp_path)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["rows"][0]["games"] == 20
    out = tmp_path / "c.json"
    compare = simkit_cli(["compare", "template", "--set", "wild=1", "--vs", "wild=0", "-n", "30", "--no-progress",
                          "--out", str(tmp_path / "c"), "--format", "json", "--output", str(out)], tmp_path)
    assert compare.returncode == 0, compare.stderr
    assert json.loads(out.read_text())["rows"] and (tmp_path / "c").is_dir() and not compare.stdout.strip()
    out = tmp_path / "b.csv"
    bench = simkit_cli(["bench", "template", "-n", "50", "--repeat", "1", "--python-games", "0", "--format", "csv",
                        "--output", str(out)], tmp_path)
    assert bench.returncode == 0, bench.stderr
    assert out.read_text().startswith("bot,") and "games_per_s" in out.read_text()


def test_json_of_one_game_is_strict_json(tmp_path, simkit_cli):
    """One game bounds no mean: its interval is unbounded, written as null (it was
    '-Infinity', which strict JSON readers refuse)."""
    run = simkit_cli(["run", "template", "-n", "1", "--no-progress", "--out", str(tmp_path / "r"), "--format", "json"], tmp_path)
    assert run.returncode == 0, run.stderr

    def refuse(constant):
        raise ValueError(constant)

    rows = json.loads(run.stdout, parse_constant=refuse)["rows"]
    assert any(k.endswith("_lo") and v is None for k, v in rows[0].items())
    table = simkit_cli(["run", "template", "-n", "1", "--no-progress", "--out", str(tmp_path / "r")], tmp_path)
    assert "one game answers no balance question" in table.stdout  # (it left them out without a word)


TINY = 'name = "tiny"\ngame = "template"\nseed = 1\n[[grid]]\ngames = 20\nbots = ["count"]\n'


def test_every_folder_of_runs_is_out(tmp_path, simkit_cli):
    """sweep and report keep their runs under --out, like run, compare and sensitivity."""
    exp = tmp_path / "tiny.toml"
    exp.write_text(TINY)
    proc = simkit_cli(["sweep", str(exp), "--out", str(tmp_path / "runs"), "--no-progress", "--jobs", "1"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "runs" / "tiny" / "all.parquet").exists()
    proc = simkit_cli(["report", "template", "--games", "40", "--jobs", "1", "--no-progress", "--out", str(tmp_path / "r" / "sweeps")],
                      tmp_path)
    assert proc.returncode == 0, proc.stderr  # the template ships no experiment: its default one, under --out
    assert proc.stdout.index("answer: ") < proc.stdout.index("report: ")  # the report's answers, then where it is
    assert (tmp_path / "r" / "sweeps" / "template-default" / "all.parquet").exists()
    assert (tmp_path / "r" / "reports" / "template" / "README.md").exists()
    for games in ("0", "-5"):  # 0 played the full 20,000 games as "a quick look"; -5 blamed -n
        bad = simkit_cli(["report", "template", f"--games={games}", "--no-progress", "--out", str(tmp_path / "r0" / "sweeps")], tmp_path)
        assert bad.returncode == 2 and bad.stderr.strip() == "error: --games must be from 1 to 1,000,000,000,000", bad.stderr
    assert not (tmp_path / "r0").exists()


FRESH = {
    "trace": ["trace", "template", "--seed", "1"],
    "bench": ["bench", "template", "-n", "50", "--repeat", "1", "--python-games", "0"],
    "compare": ["compare", "template", "--set", "wild=1", "--vs", "wild=0", "-n", "30", "--no-progress", "--out", "c"],
    "sweep": ["sweep", "tiny.toml", "--out", "runs", "--no-progress", "--jobs", "1"],
    "report": ["report", "template", "--games", "20", "--jobs", "1", "--no-progress", "--out", "r"],
    "tune": ["tune", "template", "--goal", "seat_fairness", "--knob", "dice", "--budget", "4000", "--jobs", "1"],
}


@pytest.mark.parametrize("command", FRESH)
def test_each_command_answers_from_a_fresh_process(command, tmp_path, simkit_cmd):
    """The other command tests run simkit's main in the test's process (simkit_cli); here
    the installed command starts each one as a user would, importing only what it needs."""
    (tmp_path / "tiny.toml").write_text(TINY)
    proc = subprocess.run(simkit_cmd + FRESH[command], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() and "Traceback" not in proc.stderr, proc.stderr


def test_a_table_too_wide_for_the_terminal_is_printed_a_block_per_row(monkeypatch):
    """Nothing is cut at 80 columns (the sensitivity and check tables cut 'aggressive' to
    'aggres…' and '9.50-10.5%' to '9.50-10.5…'): a table when it fits, else a block per row."""
    import io

    from rich.console import Console

    from simkit import cli

    rows = [{"band": "ufs-washington-damaged-threat1", "range": "25.47-26.47%", "catches (power 99%)": "+-2 pts (<= 23.97% or >= 27.97%)",
             "games": "10,000/52,000", "rate (anytime 99.9% interval)": "26.17% [24.31, 28.09]", "verdict": "holds"}]
    for width, table in ((80, False), (200, True)):
        buf = io.StringIO()
        monkeypatch.setattr(cli, "out", Console(file=buf, width=width, markup=False, highlight=False))
        cli._print_rows(rows, "bands")
        text = buf.getvalue()
        assert cli._fits(rows, width) is table and ("┃" in text) is table and "…" not in text
        assert all(str(v) in text for v in rows[0].values())
        # each block opens with its first column as "name: value", as its other lines
        # (a compare's block read "seat or bot bot greedy")
        assert table or "band: ufs-washington-damaged-threat1" in text


def test_a_reader_that_goes_away_ends_the_command_quietly(simkit_cmd, tmp_path):
    """`simkit trace ufs | head -1`: the command ends with 0 and says nothing (typer's own
    answer to the broken pipe exited with 1)."""
    proc = subprocess.Popen(simkit_cmd + ["trace", "ufs"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline()
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and err == b"", err


@pytest.mark.parametrize("code, line", [
    (28, "error: writing the output: No space left on device; free some space or write it elsewhere"),  # ENOSPC
    (24, "error: Too many open files; raise the limit (ulimit -n) or use fewer --jobs"),  # EMFILE
    (5, "error: Input/output error"),  # EIO: said as it is
])
def test_an_os_error_without_a_file_is_named_for_what_it_is(monkeypatch, capsys, code, line):
    """A system error with no file name was all said to come from "writing the output"
    (a run out of file descriptors said "writing the output: Too many open files")."""
    import errno
    import os

    from simkit import cli

    assert (errno.ENOSPC, errno.EMFILE, errno.EIO) == (28, 24, 5)

    def failing(**kwargs):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(cli, "app", failing)
    with pytest.raises(SystemExit) as exit_:
        cli.main()
    assert exit_.value.code == 2 and capsys.readouterr().err.strip() == line


def test_names_are_printed_as_given_never_as_emoji():
    """rich turned a user's bot ubots:ok into "ubots🆗" in bench's lines (a hostile review)."""
    from simkit.cli import err, out

    for console in (out, err):
        with console.capture() as got:
            console.print("ubots:ok: and ubots:smile:")
        assert got.get().strip() == "ubots:ok: and ubots:smile:"


def test_a_bot_file_changed_during_a_run_is_said_when_a_worker_asks_it(tmp_path, monkeypatch):
    """A worker that loads a user's bot again finds its file changed: it said so while
    unpickling its task, which ended the worker ('a worker process died ... out of memory?',
    a hostile review); the bot now says it when first asked, as the chunk's one-line error."""
    import numpy as np
    import pytest

    from simkit.bots import call_user_bot, load_user_bot, reload_user_bot
    from simkit.errors import UserError

    (tmp_path / "edited_bot_file.py").write_text("def f(observation, legal, rng):\n    return int(legal[0])\n")
    monkeypatch.chdir(tmp_path)
    bot = load_user_bot("edited_bot_file.py", "f", "edited_bot_file.py:f")
    again = reload_user_bot(bot.name, bot.path, "0" * 12)  # (the source hash of another version)
    with pytest.raises(UserError, match="changed during the run; the finished games are kept"):
        call_user_bot(again.name, again.fn, np.zeros(3, np.int32), np.array([4]), np.random.default_rng(0), 0, 0)
