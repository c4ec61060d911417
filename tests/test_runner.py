"""Seeded, reproducible, resumable runs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import polars as pl
import pytest

from simkit.errors import UserError
from simkit.games import get
from simkit.params import build
from simkit.runner import RunSpec, plan_chunks, run
from simkit.seeding import game_seeds


def spec(n=60, seed=11, bot="greedy", **overrides):
    g = get("ufs")
    p = build(g.params, overrides, g.name)
    return RunSpec(g, p, tuple(g.resolve_bots([bot], p)), n, seed)


def test_game_seeds_depend_only_on_root_and_index():
    a = game_seeds(5, 0, 100)
    assert np.array_equal(a[40:60], game_seeds(5, 40, 60))
    assert len(set(a.tolist())) == 100
    assert not np.array_equal(a, game_seeds(6, 0, 100))


def test_plan_chunks_fills_the_gaps_lazily():
    assert list(plan_chunks(25, 10, [])) == [(0, 10), (10, 20), (20, 25)]
    assert list(plan_chunks(25, 10, [(0, 10), (20, 25)])) == [(10, 20)]
    assert list(plan_chunks(25, 10, [(0, 7)])) == [(7, 10), (10, 20), (20, 25)]
    assert list(plan_chunks(5, 10, [(0, 10)])) == []
    first = next(plan_chunks(10**18, 10_000, []))  # no list of every chunk is built
    assert first == (0, 10_000)


def test_outcomes_do_not_depend_on_chunking_or_jobs():
    s = spec(n=90)
    base = run(s, None, chunk_size=90, progress=False).frame
    assert base.height == 90
    assert base.equals(run(s, None, chunk_size=7, progress=False).frame)
    assert base.equals(run(s, None, chunk_size=20, jobs=2, progress=False).frame)
    # game i alone gives the same row as inside the batch
    one = run(RunSpec(s.game, s.params, s.bots, 90, s.seed), None, chunk_size=1000, progress=False).frame
    assert one.row(57) == base.row(57)


def test_threading_backend_gives_the_same_games():
    s = spec(n=40)
    assert run(s, None, chunk_size=10, progress=False).frame.equals(
        run(s, None, chunk_size=10, jobs=2, backend="threading", progress=False).frame
    )


def test_output_files_and_manifest(tmp_path):
    s = spec(n=30)
    res = run(s, tmp_path / "r", chunk_size=10, progress=False)
    frame = pl.read_parquet(tmp_path / "r" / "games.parquet")
    assert frame.equals(res.frame)
    m = json.loads((tmp_path / "r" / "manifest.json").read_text())
    for key in ("simkit_version", "git_commit", "game", "data_version", "params", "bots", "seed", "n_games", "wall_time_s", "libraries"):
        assert key in m
    assert m["n_games"] == 30 and m["params"]["threat"] == 1 and m["bots"] == ["greedy"]
    assert set(frame.columns) >= {"game_index", "seed", "seat", "bot", "won", "rounds", "loss_cause", "research_reached", "damage_taken", "ships_shot"}
    lost = frame.filter(~pl.col("won"))
    assert set(lost["loss_cause"].to_list()) <= {"damage", "mothership"}
    assert frame.filter(pl.col("won"))["loss_cause"].null_count() == frame["won"].sum()


def test_resume_plays_only_missing_games(tmp_path):
    s = spec(n=30)
    out = tmp_path / "r"
    first = run(s, out, chunk_size=10, progress=False)
    parts = sorted((out / "parts").glob("*.parquet"))
    assert len(parts) == 3
    parts[1].unlink()
    again = run(s, out, chunk_size=10, progress=False)
    assert again.manifest["resumed_games"] == 20
    assert again.frame.equals(first.frame)
    played = []  # a progress callback counts the games played now (a tune's bar counted resumed ones again)
    bigger = run(RunSpec(s.game, s.params, s.bots, 45, s.seed), out, chunk_size=10, progress=played.append)
    assert bigger.manifest["resumed_games"] == 30 and sum(played) == 15
    assert bigger.frame.head(30).equals(first.frame)


def test_a_different_run_in_the_same_folder_is_refused(tmp_path):
    run(spec(n=10), tmp_path / "r", progress=False)
    with pytest.raises(UserError, match="different run"):
        run(spec(n=10, seed=99), tmp_path / "r", progress=False)


def _children(pid):
    import psutil

    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _wait_parts(out, k, proc, timeout=180):
    deadline = time.time() + timeout
    while time.time() < deadline and len(list((out / "parts").glob("games-*.parquet"))) < k:
        assert proc.poll() is None, proc.stderr.read()
        time.sleep(0.2)


def test_interrupted_run_keeps_finished_chunks_and_resumes(tmp_path, simkit_cmd):
    """Ctrl-C (to the whole process group, as a terminal sends it) with two workers:
    one line saying how many games are kept and how to resume, exit 130, no traceback,
    no worker left behind; the rerun gives the uninterrupted run's games. The workers
    started with Ctrl-C blocked, so that one pressed while they import prints nothing:
    the standard library's resource tracker, which loky starts with the first pool,
    unblocked it in the main process first (1 traceback in 30 early Ctrl-C)."""
    import os
    import psutil

    out = tmp_path / "run"
    cmd = simkit_cmd + ["run", "ufs", "-n", "40000", "--chunk-size", "2000", "--bot", "planner", "--seed", "3", "--out", str(out), "--no-progress", "--jobs", "2"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    _wait_parts(out, 2, proc)
    workers = _children(proc.pid)
    players = [w for w in workers if "LokyProcess" in " ".join(w.cmdline())]
    blocked = [next(int(x.split()[1], 16) for x in open(f"/proc/{w.pid}/status") if x.startswith("SigBlk")) >> (signal.SIGINT - 1) & 1
               for w in players]
    assert blocked == [1, 1], blocked
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    lines = [x for x in err.strip().splitlines() if x.strip()]
    assert len(lines) == 1 and "kept" in lines[0] and "resume" in lines[0] and "Traceback" not in err, err
    gone, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, f"{len(alive)} worker processes left behind"
    kept = list((out / "parts").glob("games-*.parquet"))
    assert kept and not list((out / "parts").glob(".*.tmp"))
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    m = json.loads((out / "manifest.json").read_text())
    kept_games = sum(int(p.stem.split("-")[2]) - int(p.stem.split("-")[1]) for p in kept)  # parts: games-A-B
    assert m["resumed_games"] >= kept_games > 0
    whole = run(spec(n=40000, seed=3, bot="planner"), None, chunk_size=40000, progress=False).frame
    assert pl.read_parquet(out / "games.parquet").equals(whole)


@pytest.mark.parametrize("stop", ["ctrl-c", "sigterm", "sigterm, Ctrl-C ignored"])
def test_ctrl_c_ends_a_run_whose_user_bot_never_returns(tmp_path, simkit_cmd, stop):
    """The main process waits for a chunk in steps: a wait without a timeout was not ended
    by Ctrl-C, and a stuck user bot (or a slow one, in a long chunk) held it for ever. A
    SIGTERM to the main process alone (a scheduler's time limit) stops it the same way, in
    one line and exit 143 (it ended silently, exit 143, leaving the line unsaid)."""
    import os
    import psutil

    (tmp_path / "stuck.py").write_text("import pathlib, time\n"
                                       "def choose(observation, legal, rng):\n"
                                       "    pathlib.Path('called').touch()\n"
                                       "    time.sleep(1000)\n")
    cmd = simkit_cmd + ["run", "ufs", "--bot", "stuck:choose", "-n", "4", "--no-progress", "--jobs", "2", "--chunk-size", "2",
                        "--out", str(tmp_path / "r")]
    # (a script's background job starts with Ctrl-C ignored: a SIGTERM raised as a SIGINT was lost there)
    ignored = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if "ignored" in stop else None
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=ignored)
    deadline = time.time() + 120
    while not (tmp_path / "called").exists() and time.time() < deadline:
        assert proc.poll() is None, proc.stderr.read()
        time.sleep(0.1)
    workers = _children(proc.pid)
    if stop == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)  # (a terminal's Ctrl-C reaches every process of the group)
    else:
        os.kill(proc.pid, signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError(f"{stop} did not end the run within 15 s") from None
    code, said = (130, "interrupted") if stop == "ctrl-c" else (143, "stopped by SIGTERM")
    assert proc.returncode == code and len(err.strip().splitlines()) == 1 and err.startswith(said), err
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, f"{len(alive)} processes left behind"


def test_kept_workers_play_on_in_the_same_processes_and_are_released_at_its_end():
    """Within kept_workers (a check's looks) the plays in a row share their worker
    processes; at its end none is left, and the games are those of a run on its own."""
    import psutil

    from simkit.runner import kept_workers

    def workers():
        return {p.pid for p in psutil.Process().children(recursive=True) if "LokyProcess" in " ".join(p.cmdline())}

    frames, seen = [], []
    with kept_workers():
        for seed in (1, 2):
            frames.append(run(spec(n=400, seed=seed, bot="random"), None, jobs=2, chunk_size=100, progress=False).frame)
            seen.append(workers())
    assert len(seen[0]) == 2 and seen[0] == seen[1]
    assert not workers()
    assert frames[1].equals(run(spec(n=400, seed=2, bot="random"), None, progress=False).frame)


def test_workers_exit_when_the_main_process_is_killed(tmp_path, simkit_cmd):
    import psutil

    out = tmp_path / "run"
    cmd = simkit_cmd + ["run", "ufs", "-n", "400000", "--chunk-size", "2000", "--bot", "planner", "--out", str(out), "--no-progress", "--jobs", "2"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_parts(out, 1, proc)
    # (a first part may come before the workers: with no speed known, the main process plays a
    # short chunk while they start, and under load the test looked before they existed)
    deadline = time.time() + 60
    while not any("LokyProcess" in " ".join(w.cmdline()) for w in _children(proc.pid)) and time.time() < deadline:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    workers = _children(proc.pid)
    assert any("LokyProcess" in " ".join(w.cmdline()) for w in workers)
    proc.kill()
    proc.wait()
    gone, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, f"{len(alive)} worker processes outlived the main process"


def test_overlapping_parts_never_duplicate_games(tmp_path):
    """A 1,500-game run in chunks of 1,000, then 3,000 games in the same folder: each
    game exactly once (the reviewer found 3,500 rows)."""
    s = spec(n=1500, seed=99, bot="random")
    out = tmp_path / "r"
    run(s, out, chunk_size=1000, progress=False)
    # a stale part overlapping the others, as an older layout could leave behind
    first = sorted((out / "parts").glob("games-*.parquet"))[0]  # chunks are sized by time: the first may be short
    (out / "parts" / "games-000000000500-000000001200.parquet").write_bytes(first.read_bytes())
    res = run(RunSpec(s.game, s.params, s.bots, 3000, s.seed), out, progress=False)
    assert res.frame.height == 3000 and res.frame["game_index"].n_unique() == 3000
    assert res.frame.equals(run(RunSpec(s.game, s.params, s.bots, 3000, s.seed), None, progress=False).frame)


@pytest.mark.parametrize("damage", [b"", b"garbage, not parquet", "truncate"])
def test_a_damaged_part_is_set_aside_and_replayed(tmp_path, damage):
    s = spec(n=30)
    out = tmp_path / "r"
    first = run(s, out, chunk_size=10, progress=False)
    part = sorted((out / "parts").glob("games-*.parquet"))[1]
    data = part.read_bytes()
    part.write_bytes(data[: len(data) // 2] if damage == "truncate" else damage)
    again = run(s, out, chunk_size=10, progress=False)
    assert again.frame.equals(first.frame)
    assert again.manifest["resumed_games"] == 20
    assert list((out / "parts").glob("*.bad"))


@pytest.mark.parametrize("edit", ["text", "dropped", "renamed", "shifted"])
def test_a_part_whose_columns_were_edited_is_one_line_and_no_games_file(tmp_path, edit):
    """Parts are combined strictly: a part with a column turned to text made the whole column
    text in games.parquet (then a traceback), one without a column or with a renamed one a
    wrong "free some space", one holding other games' indexes a traceback ("a bug")."""
    s = spec(n=30)
    out = tmp_path / "r"
    run(s, out, chunk_size=10, progress=False)
    part = sorted((out / "parts").glob("games-*.parquet"))[1]
    frame = pl.read_parquet(part)
    {"text": frame.with_columns(pl.col("won").cast(pl.Utf8)), "dropped": frame.drop("won"), "renamed": frame.rename({"won": "lost"}),
     "shifted": frame.with_columns(pl.col("game_index") + 1000)}[edit].write_parquet(part)
    for name in ("games.parquet", "manifest.json"):
        (out / name).unlink()
    with pytest.raises(UserError, match="do not hold this run's games" if edit == "shifted" else "do not all have this run's columns") as exc:
        run(s, out, chunk_size=10, progress=False)
    assert "\n" not in str(exc.value) and not (out / "games.parquet").exists() and not list(out.glob(".*.tmp"))


def test_a_full_disk_is_one_line_and_leaves_nothing_half_written(tmp_path, monkeypatch):
    import errno

    s = spec(n=30)
    out = tmp_path / "r"
    real = pl.DataFrame.write_parquet
    calls = []

    def full(self, path, *a, **k):
        calls.append(path)
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, path, *a, **k)

    monkeypatch.setattr(pl.DataFrame, "write_parquet", full)
    with pytest.raises(UserError, match="No space left on device") as exc:
        run(s, out, chunk_size=10, progress=False)
    assert "\n" not in str(exc.value)
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]
    monkeypatch.undo()
    again = run(s, out, chunk_size=10, progress=False)  # resumes from the part that was written
    assert again.manifest["resumed_games"] == 10 and again.frame.height == 30


def test_never_more_workers_than_chunks(monkeypatch):
    import simkit.runner as R

    seen = {}
    real = R._loky

    def spy(tasks, runs, jobs, advance):
        seen["jobs"] = jobs
        return real(tasks, runs, jobs, advance)

    monkeypatch.setattr(R, "_loky", spy)
    # chunks as asked: with no speed of ufs greedy on record (a fresh machine) a pilot would
    # play the first chunk in this process, leaving one chunk and no pool
    monkeypatch.setattr(R, "_plan_by_speed", lambda pending, cores, **_: None)
    res = run(spec(n=20), None, jobs=8, chunk_size=10, progress=False)
    assert seen["jobs"] == 2 and res.frame.height == 20


def test_each_game_is_combined_once_preferring_parts_that_continue():
    from simkit.runner import _each_game_once

    assert _each_game_once([(0, 10), (10, 30)], 25) == [((0, 10), 0, 10), ((10, 30), 10, 25)]
    # a stale part overlapping the others is skipped when a part continues exactly
    assert _each_game_once([(0, 10), (5, 12), (10, 20)], 20) == [((0, 10), 0, 10), ((10, 20), 10, 20)]
    # and used for the rest of its games when nothing else covers them
    assert _each_game_once([(0, 10), (5, 20)], 20) == [((0, 10), 0, 10), ((5, 20), 10, 20)]
    assert _each_game_once([(0, 10), (12, 20)], 20) == [((0, 10), 0, 10)]  # a gap: the count check fails the run


def test_a_remembered_speed_is_a_positive_finite_number():
    """Infinity (JSON's, which Python reads) ended a run in a traceback sizing its chunks;
    true counted as 1 game per second."""
    from simkit import runner

    s = spec()
    key = runner._speed_key(s)[0]
    for bad in (float("inf"), True, 0, -3.0, float("nan"), "fast", None):
        assert runner._known_speed({key: bad}, s) is None, bad
    assert runner._known_speed({key: 2.5}, s) == 2.5


def test_speeds_are_kept_per_game_bots_and_settings_and_size_the_chunks(tmp_path, monkeypatch):
    """A run remembers its speed under its game, bots and settings; a later run of the same
    bots under other settings uses their mean, and its chunks last about CHUNK_SECONDS."""
    from simkit import runner

    monkeypatch.setattr(runner, "_speeds_file", lambda: tmp_path / "speeds.json")
    monkeypatch.setattr(runner, "MIN_TIMED", 0.0)  # a fast machine may play these games in less
    a, b = spec(n=400, bot="random"), spec(n=400, bot="random", threat=3)
    run(a, None, progress=False)
    speeds = runner._read_speeds()
    exact, same_bots = runner._speed_key(a)
    assert exact in speeds and speeds[exact] > 0 and exact.startswith(same_bots)
    assert runner._known_speed(speeds, b) == pytest.approx(speeds[exact])  # other settings: the same bots' mean
    assert runner._known_speed(speeds, spec(bot="greedy")) is None  # other bots: unknown (a pilot decides)
    (tmp_path / "speeds.json").write_text(json.dumps({exact: 10.0}))
    p = runner.prepare(a, None, chunk_size=1000)
    runner._plan_by_speed([p], 1)
    assert p.chunk_size == int(10.0 * runner.CHUNK_SECONDS)


def test_an_estimate_counts_the_games_kept_and_the_remembered_speed(tmp_path, monkeypatch):
    """Before anything plays, an estimate counts the games a folder already keeps of the very
    same run (none of another run's) and prices the rest at the remembered speed."""
    from simkit import runner

    monkeypatch.setattr(runner, "_speeds_file", lambda: tmp_path / "speeds.json")
    a = spec(n=300, bot="random")
    run(a, tmp_path / "r", chunk_size=100, progress=False)
    (tmp_path / "r" / "parts" / "games-000000000200-000000000300.parquet").unlink()  # as if stopped after 200 games
    assert runner.stored_games(a, tmp_path / "r") == 200
    assert runner.stored_games(spec(n=300, bot="random", seed=9), tmp_path / "r") == 0  # another run: played again
    assert runner.stored_games(a, tmp_path / "none") == runner.stored_games(a, None) == 0
    (tmp_path / "speeds.json").write_text(json.dumps({runner._speed_key(a)[0]: 50.0}))
    assert runner.estimate([(a, tmp_path / "r"), (a, None)], cores=2) == (400, pytest.approx(4.0))  # 400 games at 50/s on 2 cores
    assert runner.estimate([(spec(n=10, bot="greedy"), None)], cores=1) == (10, None)  # a speed not known


def test_the_cores_other_work_keeps_busy_stretch_an_estimate(monkeypatch):
    """Estimates were at a quiet machine's speed and ran 2 to 4 times short beside another
    heavy job: the busy share of the machine is read from /proc/stat and stretches them."""
    import io

    from simkit import runner

    readings = iter(["cpu  100 0 100 800 0 0 0 0 0 0\n", "cpu  200 0 200 1000 0 0 0 0 0 0\n"])  # half the ticks idle
    monkeypatch.setattr("builtins.open", lambda *a, **k: io.StringIO(next(readings)))
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    assert runner.busy_cores(sample=0) == pytest.approx(1.0)
    assert runner.sharing(60.0, 2, 1.0) == (pytest.approx(90.0), ", other work keeping 1.0 of its 2 cores busy")
    assert runner.sharing(60.0, 1, 1.0)[0] == 60.0  # one worker beside one busy core: a core each
    assert runner.sharing(60.0, 2, 0.2) == (60.0, "")  # a quiet machine says nothing


def test_a_process_first_chunk_is_no_measure_of_speed(tmp_path, monkeypatch):
    """The first chunk a process plays of some game and bots also loads (or compiles) their
    loop: its time is kept out of the remembered speed, which a later run's estimate and
    chunk sizes read (one such chunk once made UFS greedy 19 games/s, not 30,000)."""
    import time

    from simkit import runner

    monkeypatch.setattr(runner, "_speeds_file", lambda: tmp_path / "speeds.json")
    monkeypatch.setattr(runner, "MIN_TIMED", 0.0)
    monkeypatch.setattr(runner, "_WARM", set())
    real = runner.play_range

    def loading_first(s, a, b, secret=None):
        if (s.game.name, tuple(x.name for x in s.bots)) not in runner._WARM:
            time.sleep(1.0)  # what loading the compiled loop costs
        return real(s, a, b, secret)

    monkeypatch.setattr(runner, "play_range", loading_first)
    a = spec(n=400, bot="random")
    run(a, None, progress=False)
    speed = runner._read_speeds()[runner._speed_key(a)[0]]
    assert speed > 400  # with the first chunk's second counted it would be at most 400 games/s


def test_compiling_for_a_run_of_another_player_count_fills_every_seat(monkeypatch):
    """compile_loop plays one game at the default settings: the run's bots (one per seat of
    its own player count, e.g. 2 of O.V.N.I.'s default 4) must fill every default seat. A
    narrower table was read past its end by the compiled loop (a report crashed with
    'double free or corruption')."""
    from simkit import compiled

    seen = []
    monkeypatch.setattr(compiled, "simulate", lambda game, params, seeds, table, bots, **kw: seen.append((table.shape, len(bots))))
    monkeypatch.setattr(compiled._cache, "mark_compiled", lambda *a: None)
    game = get("ovni")
    compiled.compile_loop(game, game.resolve_bots(["search", "strategic"], build(game.params, {"players": 2}, "ovni")))
    compiled.compile_loop(game, [game.resolve_bot("strategic")] * 3)
    assert seen == [((1, 4), 2), ((1, 4), 1)]


def test_a_folder_left_by_a_run_killed_before_its_run_json_is_reused(tmp_path):
    """A process killed while replacing a stale cell leaves an empty parts/ alone: nothing to
    lose, so the next run takes the folder (it used to refuse it as not simkit's)."""
    out = tmp_path / "cell"
    (out / "parts").mkdir(parents=True)
    res = run(spec(n=20, bot="random"), out, progress=False)
    assert res.frame.height == 20 and (out / "run.json").exists()
    other = tmp_path / "theirs"
    (other / "parts").mkdir(parents=True)
    (other / "parts" / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match="not a simkit run folder"):
        run(spec(n=20, bot="random"), other, progress=False)


def _cold(tmp_path) -> dict:
    """An empty compile cache, and the loop of the run's own bots (not the suite's loop of
    every bot, which the suite's set-up compiled)."""
    env = dict(os.environ, SIMKIT_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("SIMKIT_EVERY_BOT_LOOP", None)
    return env


# playing while compiling needs a core beside the compiler's
needs_a_spare_core = pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="playing while compiling needs a second core")


@needs_a_spare_core
def test_a_first_run_plays_while_it_compiles(tmp_path, simkit_cmd):
    """On an empty compile cache (and a spare core) a run plays its first games as plain
    Python while its loop compiles: the answer comes first, then the compilation finishes
    for the next run, which compiles nothing; the games are the compiled loop's."""
    env = _cold(tmp_path)
    g = get("template")
    cmd = simkit_cmd + ["run", "template", "-n", "300", "--seed", "5"]
    first = subprocess.run(cmd + ["--out", str(tmp_path / "a")], env=env, capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    assert "playing meanwhile as plain Python" in first.stderr and "answer:" in first.stdout, first.stderr
    plain = tmp_path / "a" / "parts" / "games-000000000000-000000000001.parquet"  # the first plain chunk: one game
    assert plain.exists()
    again = subprocess.run(cmd + ["--out", str(tmp_path / "b")], env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and "compiling" not in again.stderr, again.stderr
    p = g.params()
    whole = run(RunSpec(g, p, tuple(g.resolve_bots(["count"], p)), 300, 5), None, progress=False).frame
    for folder in ("a", "b"):
        assert pl.read_parquet(tmp_path / folder / "games.parquet").equals(whole), folder


def test_ctrl_c_while_compiling_several_games_is_one_line(tmp_path, simkit_cmd):
    """`simkit compile` of two games on two processes: the compilers start with Ctrl-C
    blocked (joblib's pool started them open, and one pressed while they imported printed
    their tracebacks: 3 in 12 under strace); Ctrl-C ends the command in one line, no
    process left."""
    import psutil

    proc = subprocess.Popen(simkit_cmd + ["compile", "template", "ufs", "--jobs", "2"], env=_cold(tmp_path), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.time() + 60
    compilers = []
    while len(compilers) < 2 and time.time() < deadline and proc.poll() is None:
        compilers = [w for w in _children(proc.pid) if "LokyProcess" in " ".join(w.cmdline())]
        time.sleep(0.05)
    blocked = [next(int(x.split()[1], 16) for x in open(f"/proc/{w.pid}/status") if x.startswith("SigBlk")) >> (signal.SIGINT - 1) & 1
               for w in compilers]
    workers = _children(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert blocked == [1, 1], blocked
    lines = [x for x in err.strip().splitlines() if x.strip()]
    assert proc.returncode == 130 and lines == ["interrupted"] and "Traceback" not in err, err
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, f"{len(alive)} processes left behind"


@needs_a_spare_core
def test_a_user_bots_error_while_compiling_is_one_line_at_once(tmp_path, simkit_cmd):
    """A user's bot that fails in the plain games played while the loop compiles fails
    the same way in the compiled loop's: one line at once. It printed a note, waited for
    the compiler (25 s), then printed the same error."""
    (tmp_path / "bad.py").write_text("def choose(observation, legal, rng):\n    return -5\n")
    cmd = simkit_cmd + ["compare", "ufs", "--bot", "bad:choose", "--vs-bot", "greedy", "-n", "50", "--jobs", "2", "--no-progress"]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=tmp_path, env=_cold(tmp_path), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1 and "chose -5" in proc.stderr, proc.stderr
    assert time.perf_counter() - t0 < 15


@needs_a_spare_core
def test_ctrl_c_while_compiling_stops_at_once(tmp_path, simkit_cmd):
    """Ctrl-C while the loop compiles and the first games are played as plain Python: exit
    130 within seconds, one line, the finished games kept, no process left behind."""
    import psutil

    out = tmp_path / "run"
    cmd = simkit_cmd + ["run", "template", "-n", "100000", "--out", str(out), "--no-progress"]
    proc = subprocess.Popen(cmd, env=_cold(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    _wait_parts(out, 1, proc)  # a plain chunk is stored: the compiler is still at work
    workers = _children(proc.pid)
    t0 = time.perf_counter()
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and time.perf_counter() - t0 < 5, err
    lines = [x for x in err.strip().splitlines() if x.strip() and not x.startswith("note: compiling")]
    assert len(lines) == 1 and "kept" in lines[0] and "Traceback" not in err, err
    gone, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, f"{len(alive)} processes left behind"


def _compiles_slowly(name, bot_names, checked):
    time.sleep(4)
    return name, 4.0


def _plain_play_fails(*args):
    raise RuntimeError("a rule that plain Python cannot play")


def test_plain_python_failing_while_compiling_leaves_the_run_to_the_compiled_loop(monkeypatch, capsys, tmp_path):
    """If playing as plain Python fails, the run says so in one line and waits for the
    compiler (whose loop then plays every game) instead of failing; also when another run
    of the same command has a user's bot (whose own failure would end it at once: the
    check once looked at every run, not the one that failed)."""
    import simkit.runner as R

    monkeypatch.setattr(R, "compile_by_name", _compiles_slowly)
    monkeypatch.setattr(R, "_tagged_job", _plain_play_fails)
    (tmp_path / "mine.py").write_text("def choose(observation, legal, rng):\n    return int(legal[0])\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    s = spec(n=50, bot="random")
    theirs = spec(n=50, bot="mine:choose")
    pending = [R.prepare(s, None), R.prepare(theirs, None)]
    R._play_while_compiling(pending, [(s.game, list(s.bots))], lambda n: None)
    assert pending[0].remaining == 50 and pending[1].remaining == 50
    err = capsys.readouterr().err
    assert "playing as plain Python failed" in err and "a rule that plain Python cannot play" in err and "waiting for the compiler" in err


@needs_a_spare_core
def test_ctrl_c_skips_the_compilation_after_the_answer(tmp_path, simkit_cmd):
    """A first run that played every game before its loop compiled waits for the compiler
    after its answer; Ctrl-C then ends it at once (exit 130, one line saying the results
    are complete) and stops the compiler."""
    import psutil

    out = tmp_path / "run"
    cmd = simkit_cmd + ["run", "template", "-n", "3", "--out", str(out)]
    proc = subprocess.Popen(cmd, env=_cold(tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if "finishing the compilation" in line:
            break
    assert proc.poll() is None, "".join(seen)
    workers = _children(proc.pid)
    t0 = time.perf_counter()
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and time.perf_counter() - t0 < 3, "".join(seen) + err
    assert "the results are complete" in err.strip().splitlines()[-1] and "Traceback" not in err, err
    assert (out / "games.parquet").exists()
    gone, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, f"{len(alive)} processes left behind"


def _busy_pool():
    """A loky pool whose two workers are busy for ten minutes, and their processes."""
    import psutil
    from joblib.externals.loky import get_reusable_executor

    executor = get_reusable_executor(max_workers=2, timeout=30, reuse=False)
    busy = [executor.submit(time.sleep, 600) for _ in range(2)]
    while not all(f.running() for f in busy):
        time.sleep(0.05)
    return executor, [psutil.Process(pid) for pid in executor._processes]


def test_stopping_a_pool_kills_its_workers_itself():
    """On Ctrl-C a pool's workers are killed by the runner, not only by loky's own thread,
    which now and then left them blocked sending a result nobody read (the command then
    never ended): busy workers are gone at once."""
    import psutil

    from simkit.workers import stop_workers

    executor, workers = _busy_pool()
    t0 = time.perf_counter()
    stop_workers(executor)
    gone, alive = psutil.wait_procs(workers, timeout=5)
    assert not alive and time.perf_counter() - t0 < 5


def test_a_second_ctrl_c_while_stopping_a_pool_still_kills_its_workers():
    """Stopping a pool waits up to 2 s for its send lock; a Ctrl-C pressed meanwhile still
    leaves no worker behind."""
    import psutil

    from simkit.workers import stop_workers

    class PressedWhileWaiting:
        def __init__(self, real):
            self.real = real  # kept alive: freed, the real lock is unlinked and the workers die of it

        def acquire(self, timeout):
            raise KeyboardInterrupt

        def release(self):
            raise AssertionError("released a lock never taken")

    executor, workers = _busy_pool()
    executor._result_queue._wlock = PressedWhileWaiting(executor._result_queue._wlock)
    with pytest.raises(KeyboardInterrupt):
        stop_workers(executor)
    gone, alive = psutil.wait_procs(workers, timeout=5)
    assert not alive


def _big_result(n):
    return b"x" * n


def test_stopping_a_pool_never_cuts_a_result_in_half():
    """A worker killed while it sends a result left half of it in the pool's pipe, and the
    pool's thread waited for the rest for ever (the command's exit with it: 1 Ctrl-C in 120
    on a loaded machine, once in a whole test suite). Stopped while its thread reads a
    large result, the pool's thread still ends."""
    from joblib.externals.loky.process_executor import ProcessPoolExecutor

    from simkit.workers import stop_workers

    def reading(thread):
        frame = sys._current_frames().get(thread.ident)
        while frame is not None:
            if frame.f_code.co_name == "_recv" and frame.f_locals.get("size", 0) > 10**6:
                return True
            frame = frame.f_back
        return False

    executor = ProcessPoolExecutor(max_workers=1)
    results, thread = executor._result_queue, None
    try:
        for _ in range(5):  # (a result read between two looks is sent again)
            future = executor.submit(_big_result, 200_000_000)
            thread = executor._executor_manager_thread
            while not future.done() and not reading(thread):
                time.sleep(0.001)
            if not future.done():
                break
        else:
            pytest.fail("the pool's thread was never seen reading a result")
        stop_workers(executor)
        thread.join(timeout=10)
        assert not thread.is_alive(), "the pool's thread waits for the rest of a result for ever"
    finally:
        if thread is not None and thread.is_alive():
            results._writer.close()  # (the old way out, so that this test's process can end)


def test_a_stopped_pools_thread_is_quiet_and_other_threads_are_not(monkeypatch):
    """loky's thread of a pool being stopped now and then trips over its own state (a
    KeyError, an InvalidStateError): not shown under the resume line. Any other thread's
    error still is."""
    import threading

    from simkit.workers import _quiet_when_stopped

    seen = []
    monkeypatch.setattr(threading, "excepthook", lambda args: seen.append(args.thread))

    def fail():
        raise KeyError(5)

    stopped, other = threading.Thread(target=fail), threading.Thread(target=fail)
    _quiet_when_stopped(stopped)
    for thread in (stopped, other):
        thread.start()
        thread.join()
    assert seen == [other]


def test_the_resource_trackers_warnings_of_semaphores_already_gone_are_not_shown():
    """After a Ctrl-C, loky's resource tracker now and then warned at exit of a semaphore it
    still counted but could not unlink, being gone already: two warnings under the resume
    line. The simkit command filters them in the tracker's environment (a fake semaphore
    here stands for the one it miscounted)."""
    script = ("import sys; from simkit.cli import _quiet_resource_tracker; "
              "_quiet_resource_tracker() if sys.argv[1] == 'quiet' else None; "
              "from joblib.externals.loky.backend import resource_tracker; "
              "resource_tracker.register('/loky-simkit-test-gone', 'semlock')")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    loud, quiet = (subprocess.run([sys.executable, "-c", script, how], env=env, capture_output=True, text=True, timeout=60)
                   for how in ("loud", "quiet"))
    assert "leaked semlock" in loud.stderr  # what the command would show without the filter
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr


def test_ctrl_c_in_the_compiled_loop_is_raised_when_it_returns():
    """A Ctrl-C during a chunk played in simkit's own process is held until the compiled
    loop returns (raised inside numba's wrapper, it ended the process with a segmentation
    fault in about 1 of 5 early Ctrl-C), then raised; where Ctrl-C is ignored, nothing."""
    from simkit.play import ctrl_c_deferred

    reached = []
    with pytest.raises(KeyboardInterrupt):
        with ctrl_c_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # (the handler runs here: it only takes note)
            reached.append(True)
    assert reached and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with ctrl_c_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


def test_ctrl_c_before_any_game_finished_says_so(tmp_path, monkeypatch):
    """It said "0 finished games are kept in 116 folders" (a sweep stopped early)."""
    import simkit.runner as R
    from simkit.errors import Interrupted

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(R, "_chunk_job", stopped)  # also a pilot's (no speed known on a fresh machine)
    with pytest.raises(Interrupted, match="^interrupted before any game had finished; run the same command again"):
        run(spec(n=10), tmp_path / "r", progress=False)


def test_ctrl_c_names_only_the_folders_that_keep_games(tmp_path, monkeypatch):
    """Of two runs, one resumed from 10 stored games and one not started: the games are
    kept in the first folder (it said 'in 2 folders', counting the empty one)."""
    import simkit.runner as R
    from simkit.errors import Interrupted

    run(spec(n=10), tmp_path / "a", progress=False)

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(R, "_chunk_job", stopped)
    with pytest.raises(Interrupted, match=f"10 finished games are kept in {tmp_path / 'a'};"):
        R.run_many([(spec(n=20), tmp_path / "a"), (spec(n=10, seed=5), tmp_path / "b")], progress=False)


def test_a_part_whose_text_column_has_no_value_combines_with_the_others(tmp_path):
    """A chunk whose games all lack a text value (UFS's loss_cause when every game was won)
    was stored with polars' Null type, and the strict combine then refused to extend the
    run ("a part was edited or copied in; delete ... and run again"). Parts stored so still
    combine; new ones store text."""
    s = spec(n=20)
    out = tmp_path / "r"
    run(s, out, chunk_size=10, progress=False)
    first = sorted((out / "parts").glob("games-*.parquet"))[0]
    frame = pl.read_parquet(first)
    text = [c for c, t in frame.schema.items() if t == pl.Utf8]
    assert text, frame.schema
    frame.with_columns(pl.lit(None).alias(c) for c in text).write_parquet(first)  # as stored before
    bigger = run(RunSpec(s.game, s.params, s.bots, 30, s.seed), out, chunk_size=10, progress=False)
    assert bigger.manifest["resumed_games"] == 20 and all(pl.read_parquet(out / "games.parquet").schema[c] == pl.Utf8 for c in text)
    empty = pl.DataFrame({"x": [None, None]})
    from simkit.runner import _text_not_null

    assert _text_not_null(empty).schema["x"] == pl.Utf8 and _text_not_null(empty.lazy()).collect().schema["x"] == pl.Utf8


@pytest.mark.parametrize("at", [1, 2])
def test_a_ctrl_c_while_a_run_is_written_leaves_a_folder_that_resumes(tmp_path, monkeypatch, at):
    """games.parquet and the manifest that records its hash go in place together: a Ctrl-C
    after the file and before its manifest (found by a hostile review, 3 of 3 times) left a
    folder the next run refused as edited by the user. Ctrl-C after each write of finishing."""
    import simkit.runner as R

    out = tmp_path / "r"
    run(spec(n=20), out, chunk_size=10, progress=False)
    real, calls = R._write_atomic, []

    def then_ctrl_c(path, write, *args, **kwargs):
        done = real(path, write, *args, **kwargs)
        if path.name in ("games.parquet", "manifest.json"):
            calls.append(path.name)
            if len(calls) == at:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.1)  # (Python's handler runs here, or when a held Ctrl-C is let go)
        return done

    monkeypatch.setattr(R, "_write_atomic", then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        run(spec(n=30), out, chunk_size=10, progress=False)
    monkeypatch.undo()
    assert not list(out.glob(".*.tmp"))
    again = run(spec(n=30), out, chunk_size=10, progress=False)
    assert again.manifest["resumed_games"] == 30


def test_a_worker_whose_main_process_died_while_it_started_exits():
    """A worker took its parent at start as the process to watch: when the main process was
    killed while its workers were still starting (a fresh machine's run: a pilot stores the
    first part before the pool is up), they watched the new parent and never exited."""
    code = "import time; from simkit.runner import _worker_init; _worker_init(1); time.sleep(30)"
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20)
    assert done.returncode == 1 and not done.stderr and time.perf_counter() - started < 15
