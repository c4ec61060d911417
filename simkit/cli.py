"""The ``simkit`` command: a thin layer over the library (every command is a function
a notebook can call: simkit.runner.run, simkit.report..., simkit.compare...)."""

from __future__ import annotations

import errno
import functools
import inspect
import json
import math
import os
import sys
import textwrap
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .errors import Interrupted, UserError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode="rich",
    help="Monte Carlo balance analysis for tabletop games: seeded batch simulation, bots, statistics and reports.\n\n"
    "Start with [bold]simkit games[/] to see the games, their parameters and bots.",
)
# User text (bot and band names, paths, values) is never read as console markup.
# On a terminal (or with COLUMNS set) text wraps between words to fit it; piped or
# redirected there is no terminal to fit, so lines and tables keep their natural width (up to 220).
if os.environ.get("HOME") == "":
    del os.environ["HOME"]  # ~ then is the account's home (an empty HOME put the compile cache in /.cache)
if os.environ.get("COLUMNS", "").strip().lstrip("-").isdigit() and int(os.environ["COLUMNS"]) <= 0:
    del os.environ["COLUMNS"]  # rich printed nothing at all, errors included, at a width of 0
out = Console(soft_wrap=False, markup=False, highlight=False, emoji=False)
if not out.is_terminal and "COLUMNS" not in os.environ:
    out = Console(soft_wrap=True, markup=False, highlight=False, width=220, emoji=False)
err = Console(stderr=True, soft_wrap=True, markup=False, highlight=False, emoji=False)  # an error stays one line



def _version(value: bool) -> None:
    if value:
        from . import __version__

        out.print(f"simkit {__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit.")) -> None:
    """Monte Carlo balance analysis for tabletop games."""


SET_HELP = "Override a game parameter, e.g. --set threat=2 (repeatable; see 'simkit games')."
BOT_HELP = "Bot name (see 'simkit games'), NAME:OPTION+OPTION, or module:function or file.py:function for your own bot. One --bot fills every seat; otherwise give one per seat in seat order."


def _game_params(game_name: str, sets: list[str]):
    from .games import get
    from .params import parse_assignments

    game = get(game_name)
    return game, _params(game, parse_assignments(sets))


def _params(game, overrides: dict):
    from .params import build

    params = build(game.params, overrides, game.name)
    if game.validate is not None:
        game.validate(params)  # data files are read now, before anything is written
    return params


@app.command("games")
def games_cmd(game_name: Optional[str] = typer.Argument(None, metavar="GAME", help="Only this game.")) -> None:
    """List the games: player counts, parameters (defaults and allowed values) and bots;
    for one game, also the columns of its results.

    Example: simkit games ovni
    """
    from .games import all_games, get
    from .params import describe

    games = all_games() if game_name is None else [get(game_name)]
    if game_name is None:
        for g in games:
            if not g.checks.template:
                out.print(f"{g.name:8} {g.title}")
        out.print("'simkit games GAME' shows one game only.\n")
    for game in [g for g in games if not g.checks.template or game_name is not None]:
        lo, hi = game.seat_range
        players = f"{lo}" if lo == hi else f"{lo}-{hi}"
        out.rule(Text(f"{game.name}  {game.title}  ({players} player{'s' if hi > 1 else ''})", style="bold"))
        # One block per setting and bot: the name whole (it is what users type), the
        # text wrapped to the terminal, so that nothing is cut at any width.
        width = max(40, min(out.width, 100))
        wrap = functools.partial(textwrap.fill, width=width, initial_indent="    ", subsequent_indent="    ")
        infos = describe(game.params)
        for heading, group in (("settings (--set NAME=VALUE)", [i for i in infos if not i.compensation]),
                               ("compensations, NOT in the rulebook (--set NAME=VALUE; simkit tune searches them)",
                                [i for i in infos if i.compensation])):
            if not group:
                continue
            out.print(Text(heading, style="bold"), overflow="fold")
            for info in group:
                default = json.dumps(info.default) if not isinstance(info.default, str) else (info.default or '""')
                out.print(Text(f"  {info.name} = {default}", style="bold") + Text(f"   {info.allowed()}"), overflow="fold")
                out.print(wrap(info.help), markup=False, highlight=False)
        out.print(Text("bots (--bot NAME or NAME:OPTION)", style="bold"))
        for name, info in game.bots.items():
            mark = " (default)" if name == game.default_bot else ""
            out.print(Text(f"  {name}{mark}", style="bold"), overflow="fold")
            if info.options:  # (folded at the terminal's edge, the last options looked like a heading)
                out.print(textwrap.fill("options: " + ", ".join(info.options), width=width, initial_indent="    ",
                                        subsequent_indent="      "), markup=False, highlight=False)
            out.print(wrap(info.help), markup=False, highlight=False)
        if game_name is not None:  # (the full list would bury the games)
            from .runner import BASE_COLUMNS

            out.print(Text("columns of a run's games.parquet (one row per game and seat; also in manifest.json)", style="bold"),
                      overflow="fold")
            for name, text in {**BASE_COLUMNS, **game.columns}.items():
                out.print(Text(f"  {name}", style="bold"), overflow="fold")
                out.print(wrap(text), markup=False, highlight=False)
    for game in [g for g in games if g.checks.template and game_name is None]:
        out.print(f"\n{game.name}: {game.title}, for contributors (docs/adding-a-game.md).")


FORMATS = ("table", "json", "csv", "parquet")
FORMAT_HELP = "How to print the summary: table, json or csv (to stdout, or to --output), or parquet (needs --output)."


def _table(rows: list[dict], title: str, left: tuple[str, ...] = ("bot", "seat", "metric", "band", "verdict", "seat or bot")) -> Table:
    """A table whose cells fold onto more lines rather than being cut."""
    t = Table(title=title, header_style="bold")
    for col in rows[0].keys():
        t.add_column(col, justify="left" if col in left else "right", overflow="fold")
    for r in rows:
        t.add_row(*[str(v) for v in r.values()])
    return t


def _fits(rows: list[dict], width: int) -> bool:
    """Whether a table of ``rows`` fits ``width`` columns with no cell wrapped or cut."""
    return sum(max(len(c), *(len(str(r[c])) for r in rows)) + 3 for c in rows[0]) + 1 <= width


def _print_rows(rows: list[dict], title: str) -> None:
    """A table when it fits the terminal; otherwise one block per row (its first
    column, then one "name: value" line per cell), which reads at any width."""
    if not rows:
        return
    if _fits(rows, out.width):
        out.print(_table(rows, title))
        return
    cols = list(rows[0])
    out.print(Text(title, style="bold"))
    for r in rows:
        head, *rest = cols
        out.print(Text(f"{head}: {r[head]}", style="bold"), overflow="fold")
        for c in rest:
            out.print(f"  {c}: {r[c]}", markup=False, highlight=False, overflow="fold")


PLOT_FORMATS = (".png", ".svg", ".pdf")


def _check_output(fmt: str, output: Optional[Path]) -> None:
    """Before any game: the format is known and the output file can be written."""
    if fmt not in FORMATS:
        raise UserError(f"--format {fmt!r} is not known; use one of {', '.join(FORMATS)}")
    if fmt == "parquet" and output is None:
        raise UserError("--format parquet writes a file: give --output PATH")
    if output is not None:
        from .owned import check_target

        check_target(output, "--output")


def _finite(x: Any) -> Any:
    """``x`` with every float that is not a number (an interval one game cannot bound)
    as ``None``: JSON has no Infinity or NaN, and strict readers refuse them."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


# What an answer's numbers are, in a file (its ``unit`` only says how a page prints them: a
# "pts" row held 0.012, a share difference, not 0.012 points).
UNITS = {"rate": "share (0-1)", "pts": "difference of shares (-1 to 1)", "num": "number"}


def _emit(rows: list[dict], title: str, fmt: str, output: Optional[Path], extra: list[str] = (), data: list[dict] | None = None,
          run: dict | None = None, answers: list | None = None, meta: dict | None = None) -> None:
    """Prints (or writes) rows as a table, JSON, CSV or Parquet: nothing is cut. The table
    shows ``rows`` (formatted text); the machine-readable formats ``data`` (numbers) when
    given, ``run`` (the settings, bots, seed and size it came from) and ``answers`` (the
    questions' answers, :class:`simkit.questions.Answer`) as numbers: in JSON under their
    own keys, in CSV and Parquet as rows of their own (``row`` says which); the JSON document
    also carries ``meta`` (what is not one row per line)."""
    answers = list(answers or [])
    if fmt == "table" and output is None:
        _print_rows(rows, title)
        for line in extra:
            out.print(line, markup=False, highlight=False)
        return
    import polars as pl

    from .owned import write

    if data is None:
        data = [{k: str(v) for k, v in r.items()} for r in rows]
    frame = pl.DataFrame(data)
    if run is not None or answers:
        # flat rows: every summary row carries the run's settings; each answer estimate is a row
        settings = {f"set_{k}": str(v) for k, v in (run or {}).get("settings", {}).items()}
        flat = [{"row": "summary", **{k: v for k, v in r.items()}, **settings} for r in data]
        for a in answers:
            for e in a.estimates:
                flat.append({"row": "answer", "question": a.question, "group": json.dumps(a.group, default=str), "label": e.label,
                             "estimate": e.estimate, "lo": e.lo, "hi": e.hi, "unit": UNITS.get(e.unit, e.unit), "p": e.p, "verdict": e.verdict,
                             "answer_verdict": a.verdict, **settings})
        frame = pl.DataFrame(flat, infer_schema_length=None) if fmt != "json" else frame
    if fmt == "parquet":
        write(output, lambda tmp: frame.write_parquet(tmp), "--output")
    elif fmt == "csv":
        text = frame.write_csv()
        write(output, lambda tmp: tmp.write_text(text), "--output") if output else out.print(text, end="", markup=False, highlight=False, soft_wrap=True)
    elif fmt == "table":
        from rich.console import Console

        def put(tmp: Path) -> None:
            with tmp.open("w") as fh:
                console = Console(file=fh, width=250, markup=False, highlight=False, soft_wrap=True, emoji=False)
                console.print(_table(rows, title))
                for line in extra:
                    console.print(line)

        write(output, put, "--output")
    else:
        doc = {"title": title, **(meta or {}), "rows": data, "notes": list(extra)}
        if run is not None:
            doc["run"] = run
        if answers:
            doc["answers"] = [a.as_dict() for a in answers]
        text = json.dumps(_finite(doc), indent=2, default=str)
        write(output, lambda tmp: tmp.write_text(text + "\n"), "--output") if output else out.print(text, markup=False, highlight=False, soft_wrap=True)
    if output is not None:
        err.print(f"written: {output}")


@app.command("run")
def run_cmd(
    game: str = typer.Argument(..., help="Game name, e.g. ufs."),
    n: int = typer.Option(10_000, "-n", "--games", help="Number of games."),
    seed: int = typer.Option(0, "--seed", help="Root seed: game i always gets the seed derived from (seed, i)."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes (0 = all cores; never more than the cores). While a loop compiles for the first time, one more process plays the first games as plain Python."),
    bot: List[str] = typer.Option([], "--bot", "-b", help=BOT_HELP),
    set_: List[str] = typer.Option([], "--set", "-s", help=SET_HELP),
    out_dir: Optional[Path] = typer.Option(None, "--out", "-o", help="Output folder (default: runs/<game>-<hash of the run>). Rerunning resumes."),
    chunk_size: int = typer.Option(10_000, "--chunk-size", help="Games per chunk (a chunk is the unit of parallel work and of resumption)."),
    backend: str = typer.Option("loky", "--backend", help="joblib backend: loky (processes), threading, dask or ray."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Address of a dask scheduler or ray cluster (default: a local one)."),
    rotate_seats: bool = typer.Option(False, "--rotate-seats", help="Game i shifts the bots i seats, so that bots and seats are not confounded."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
    fmt: str = typer.Option("table", "--format", help=FORMAT_HELP),
    output: Optional[Path] = typer.Option(None, "--output", help="Write the summary to this file instead of printing it."),
    by: Optional[str] = typer.Option(None, "--by", help="A column (e.g. city_mission): the win rate per value with intervals, and whether any value pays more than an average one (adjusted for seat and player count)."),
) -> None:
    """Simulate N seeded games and print a summary and the game's balance answers (each
    with its 95% interval and verdict); results go to Parquet with a JSON manifest.

    Example: simkit run ufs -n 1000000 --jobs 2 --set threat=2 --bot greedy

    Example: simkit run aau --set players=4 --bot strategic --rotate-seats --by city_mission

    Example: simkit run ufs --set threat=3 --format json --output threat3.json
    """
    from .params import as_dict
    from .questions import answer_by, answer_frame, columns_read, declared
    from .runner import RunSpec, default_out, run
    from .summary import summarize, summary_data

    _check_output(fmt, output)
    g, params = _game_params(game, set_)
    if by is not None and by not in g.columns:
        raise UserError(f"--by {by!r}: {g.name} has no column {by!r}; its columns: {', '.join(g.columns)}")
    bots = tuple(g.resolve_bots(bot, params))
    spec = RunSpec(g, params, bots, n, seed, rotate_seats)
    path = out_dir or default_out(spec)
    if output is not None:
        from .runner import SIMKIT_FILES

        where, folder = Path(output).resolve(), Path(path).resolve()
        if where in {folder / name for name in SIMKIT_FILES} or where.is_relative_to(folder / "parts"):
            # (it was refused after every game was played, as a file simkit did not write)
            raise UserError(f"--output {output} is one of the run folder's own files; choose another path")
    res = run(spec, path, jobs=jobs, backend=backend, scheduler=scheduler, chunk_size=chunk_size, progress=progress)
    m = res.manifest
    # Only the columns the summary and the questions read: a run of millions of games fits.
    frame = res.read(columns_read(declared(g), res.schema, ["seat", "bot", "won", *g.analysis.summary_means, *([by] if by else [])]))
    answers = answer_frame(g, frame)
    if by is not None:
        by_answer = answer_by(frame, by, value="win_share" if "win_share" in frame.columns else "won")
        answers += [by_answer] if by_answer is not None else []
    extra = [f"answer: {a.sentence}" for a in answers]
    if not answers and spec.n_games < 2:
        extra.append("note: one game answers no balance question (each needs a spread over games); play more with -n")
    if by is not None:
        extra += _by_lines(frame, by)
    if g.analysis.summary_means:
        from .summary import MEANS_NOTE, per_game_line

        extra += [line for line in [per_game_line(frame, g)] if line] + [MEANS_NOTE]
    names = [b.name for b in spec.bots]
    if len(set(names)) > 1 and not spec.rotate_seats:
        extra.append("note: the seats have different bots and are not rotated, so seat and bot effects are mixed: no answer about the seats or head to head (use --rotate-seats)")
    speed = m["simulated_games_per_s"]
    resumed = f", {m['resumed_games']:,} resumed from disk" if m["resumed_games"] else ""
    plain = m.get("plain_python_games", 0)
    resumed += f", {plain:,} played as plain Python while compiling" if plain else ""
    # the manifest's wall time is of playing: compiling, which the first run of a loop waits for, is not in it
    extra.append(f"played in {m['wall_time_s']:.1f} s{f', {speed:,.0f} games/s' if speed else ''}{resumed}")
    extra.append(f"results: {path / 'games.parquet'}  manifest: {path / 'manifest.json'}")
    settings = {k: (str(v) if isinstance(v, Path) else v) for k, v in as_dict(params).items()}
    run_info = {"game": g.name, "settings": settings, "bots": [b.name for b in bots], "seed": seed, "games": n,
                "rotate_seats": rotate_seats, "folder": str(path)}
    # the bots in seat order, and the settings that differ from the game's defaults (they were said nowhere)
    defaults = as_dict(g.params())
    changed = [f"{k}={v}" for k, v in settings.items() if v != defaults.get(k)]
    title = f"{g.title}: {n:,} games, seed {seed}, {', '.join(dict.fromkeys(m['bots']))}" + (f"; {', '.join(changed)}" if changed else "")
    _emit(summarize(frame, g), title, fmt, output, extra,
          data=summary_data(frame, g), run=run_info, answers=answers)


def _by_lines(frame, column: str) -> list[str]:
    """``--by``: the rate per value of a column, each with its Wilson interval."""
    import polars as pl

    from .questions import fmt_interval
    from .stats import wilson

    lines = [f"win rate by {column}:"]
    for value, part in sorted(frame.group_by(column), key=lambda kv: str(kv[0][0])):
        won = part["won"].cast(pl.Int64)
        ci = wilson(int(won.sum()), won.len())
        lines.append(f"  {column} = {value[0]}: {fmt_interval(ci.estimate, ci.lo, ci.hi)} of {won.len():,} seats")
    return lines


@app.command("trace")
def trace_cmd(
    game: str = typer.Argument(..., help="Game name."),
    seed: int = typer.Option(0, "--seed", help="Root seed."),
    index: int = typer.Option(0, "--game-index", help="Which game of the run (its seed is derived from --seed and this index)."),
    bot: List[str] = typer.Option([], "--bot", "-b", help=BOT_HELP),
    set_: List[str] = typer.Option([], "--set", "-s", help=SET_HELP),
) -> None:
    """Print one game move by move: the same game as game INDEX of a run with this seed.

    Example: simkit trace ufs --seed 3 --game-index 17 --bot greedy
    """
    from .progress import status
    from .trace import trace_game

    g, params = _game_params(game, set_)
    bots = g.resolve_bots(bot, params)
    # played whole, then printed: the first trace of a game compiles its rules and bots (up to
    # a minute, after which a trace takes a moment), silently until the spinner said so
    lines: list[str] = []
    try:
        with status() as say:
            say(f"playing game {index} of {g.name} (the first trace compiles its rules and bots: up to a minute, once)")
            lines.extend(trace_game(g, params, bots, seed, index))
    finally:  # the moves up to a failing bot's are shown too
        for line in lines:
            out.print(line, highlight=False, markup=False)


@app.command("bench")
def bench_cmd(
    game: str = typer.Argument(..., help="Game name."),
    bot: List[str] = typer.Option([], "--bot", "-b", help="Bots to time (default: every built-in bot)."),
    set_: List[str] = typer.Option([], "--set", "-s", help=SET_HELP),
    n: Optional[int] = typer.Option(None, "-n", "--games", help="Games per compiled timing (default: about 1 s of games)."),
    python_games: Optional[int] = typer.Option(None, "--python-games", help="At most this many games for the pure-Python timing, "
                                               "which stops after 3 s anyway (0 to skip)."),
    repeat: int = typer.Option(3, "--repeat", help="Timings per bot; the best is kept."),
    fmt: str = typer.Option("table", "--format", help=FORMAT_HELP),
    output: Optional[Path] = typer.Option(None, "--output", help="Write the figures to this file instead of printing them."),
    ladder: bool = typer.Option(False, "--ladder", help="Instead of speed: how much stronger each bot is than the one before it "
                                "(head to head, seats rotated; -n games each, default 1,000), and the top bot's strength against its budget."),
    seed: int = typer.Option(0, "--seed", help="Root seed of the ladder's games."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes for the ladder's games (0 = all cores)."),
) -> None:
    """Games per second per bot on one core, and the speed-up over the same rules run as plain Python.

    Without -n every timing is bounded (a minute in all for a game's own bots; a bot of yours,
    deciding in Python, takes as long as its games, at least one each timing). A bot that finishes no
    game in 3 s of plain Python is timed on its first decisions, against the same decisions
    compiled; the last column says what was timed. Progress goes to stderr.

    With --ladder: each bot (weakest first: --bot in order, default the game's ladder) plays one
    seat against the bot before it in every other seat, seats rotated, paired with that bot's
    self-play on the same seeds: the margin is the share one seat gains by the swap (heads up,
    the share minus 50%), with its 95% interval; then the top bot at 1/4, 1/2, 1 and 2 times its
    default budget against the next strongest.

    Example: simkit bench ufs --bot greedy -n 100000

    Example: simkit bench ovni --format json --output benchmarks/ovni.json

    Example: simkit bench ufoo --ladder -n 2000 --jobs 2
    """
    from .bench import bench, fmt_rate, rows_as_dicts

    if (n is not None and not 1 <= n <= 10**9) or not 1 <= repeat <= 100 or (python_games is not None and not 0 <= python_games <= 10**6):
        raise UserError("bench needs 1 <= -n <= 1e9, 1 <= --repeat <= 100 and 0 <= --python-games <= 1e6")
    _check_output(fmt, output)
    g, params = _game_params(game, set_)
    texts = bot or (list(g.analysis.ladder or g.bots) if ladder else list(g.bots))
    users = [text for text in texts if g.resolve_bot(text).fn is not None]  # (an unknown bot is refused before any timing)
    if ladder:
        return _ladder(g, params, texts, n or 1000, seed, jobs, fmt, output)
    rows = bench(g, params, texts, n, python_games, repeat, say=lambda text: err.print(f"{g.name} {text}"))
    table = [{"bot": r.bot, "games/s": fmt_rate(r.games_per_s), "games timed": f"{r.games:,}",
              "pure Python games/s": fmt_rate(r.python_games_per_s),
              "speed-up": "-" if not r.speedup else f"{r.speedup:,.0f}x" if r.speedup >= 10 else f"{r.speedup:.2g}x",
              "pure Python timed": r.python_timed} for r in rows]
    each = f"{n:,} games" if n else "about 1 s of games"
    notes = [f"{', '.join(users)}: a bot of yours decides in Python; 'games/s' plays the game's rules compiled around it, "
             "calling it at every decision"] if users else []
    _emit(table, f"{g.title}: one core, compiled best of {repeat} x {each}", fmt, output, notes, data=rows_as_dicts(rows),
          meta={"game": g.name, "params": params.__dict__})


def _ladder(g, params, texts: list[str], n: int, seed: int, jobs: int, fmt: str, output: Optional[Path]) -> None:
    import dataclasses

    from . import strength
    from .workers import MAX_GAMES, worker_count

    if n < 2 or n > MAX_GAMES:
        raise UserError(f"--ladder needs 2 <= -n <= {MAX_GAMES:,} games per pairing")
    say = lambda text: err.print(f"{g.name} ladder {text}")  # noqa: E731
    rows = strength.play_ladder(g, params, texts, n, seed, jobs=worker_count(jobs), progress=True, say=say)
    notes = [f"Each row: {n:,} games, seed {seed}; the bot plays one seat against 'against' in every other seat, seats rotated.",
             strength.NOTES, strength.summary(rows, texts)]
    notes += [f"{m.strong} against {m.weak}, by the side its seat was dealt: "
              + "; ".join(f"as {name} {100 * e[0]:+.1f} points [{100 * e[1]:+.1f}, {100 * e[2]:+.1f}] ({k:,} games)"
                          for name, k, e in m.sides) + " (descriptive, no verdict)." for m in rows if m.sides]
    _emit([m.row() for m in strength.shown_once(rows)], f"{g.title}: the bot ladder, {g.seats(params)} seat(s)", fmt, output,
          extra=notes, data=[dataclasses.asdict(m) for m in rows], meta={"game": g.name, "params": params.__dict__, "notes": notes})


def _check_metrics(game, metrics: list[str]) -> None:
    """Before any game: each metric is an output column holding numbers or yes/no."""
    import numpy as np

    cols = {c.name: c for c in game.outputs.columns}
    for m in metrics:
        if m not in cols:
            raise UserError(f"--metric: {game.name} has no output column {m!r}; columns: {', '.join(cols)}")
        dtype = cols[m].dtype
        if dtype is object or (dtype is not None and not (np.issubdtype(np.dtype(dtype), np.number) or np.dtype(dtype) == np.bool_)):
            raise UserError(f"--metric {m}: not a number or yes/no column, so it has no mean to compare")


def _compare_by(by: str | None, by_bot: bool) -> str:
    if by is not None and by_bot:
        raise UserError("--by and --by-bot contradict each other: compare by a column, or by bot")
    return by if by is not None else "bot" if by_bot else "seat"


@app.command("compare")
def compare_cmd(
    game: str = typer.Argument(..., help="Game name."),
    set_: List[str] = typer.Option([], "--set", "-s", help="Parameters of variant A (and the base of B)."),
    vs: List[str] = typer.Option([], "--vs", help="Parameters that variant B changes, e.g. --vs threat=2."),
    bot: List[str] = typer.Option([], "--bot", "-b", help="Bots of variant A (" + BOT_HELP + ")"),
    vs_bot: List[str] = typer.Option([], "--vs-bot", help="Bots of variant B (default: A's)."),
    n: int = typer.Option(20_000, "-n", "--games", help="Games per variant (the same seeds for both)."),
    seed: int = typer.Option(0, "--seed", help="Root seed shared by both variants."),
    seat: Optional[int] = typer.Option(None, "--seat", help="Compare only this seat's per-seat results (default: every seat)."),
    by_bot: bool = typer.Option(False, "--by-bot", help="Compare each bot of the table (its seats averaged per game) instead of each seat."),
    by: Optional[str] = typer.Option(None, "--by", help="Compare the seats of each value of this column of theirs instead of each seat, e.g. --by first (Ufo.O: the first player, and the other)."),
    rotate_seats: bool = typer.Option(False, "--rotate-seats", help="Game i shifts the bots i seats in both variants, so that bots and seats are not confounded."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes (0 = all cores; never more than the cores)."),
    metric: List[str] = typer.Option([], "--metric", "-m", help="Only these output columns (default: won and the game's main numbers)."),
    out_dir: Optional[Path] = typer.Option(None, "--out", "-o", help="Keep both runs under this folder (resumable)."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
    fmt: str = typer.Option("table", "--format", help=FORMAT_HELP),
    output: Optional[Path] = typer.Option(None, "--output", help="Write the comparison to this file instead of printing it."),
) -> None:
    """Compare two parameter sets or two bots on the same seeds: paired differences with 95% intervals and tests, and ratios, for every seat (or every bot with --by-bot).

    Example: simkit compare ufs --set threat=1 --vs threat=2 -n 50000

    Example: simkit compare aau --set players=3 --vs semi_coop=true \\
      --bot strategic --bot greedy --bot greedy --rotate-seats --by-bot --metric win_share

    Example: simkit compare ufoo --vs second_player_structure=1 --by first -m won
    """
    from .compare import compare, data, describe_side, rows
    from .games import get
    from .params import parse_assignments
    from .runner import RunSpec

    _check_output(fmt, output)
    g = get(game)
    _check_metrics(g, metric)
    sets_a = parse_assignments(set_)
    sets_vs = parse_assignments(vs, "--vs")
    params_a = _params(g, sets_a)
    params_b = _params(g, {**sets_a, **sets_vs})
    bots_a = g.resolve_bots(bot, params_a)
    bots_b = g.resolve_bots(vs_bot or bot, params_b)
    if params_a == params_b and [b.name for b in bots_a] == [b.name for b in bots_b]:
        raise UserError("both variants are the same; change B with --vs key=value or --vs-bot NAME")
    label_a = describe_side(sets_a, [b.name for b in bots_a])
    label_b = describe_side({**sets_a, **sets_vs}, [b.name for b in bots_b])  # all of B: it was "semi_coop=true" for players=3 semi_coop=true
    c = compare(g, RunSpec(g, params_a, tuple(bots_a), n, seed, rotate_seats), RunSpec(g, params_b, tuple(bots_b), n, seed, rotate_seats),
                label_a=label_a, label_b=label_b, seat=seat, by=_compare_by(by, by_bot), jobs=jobs, out=out_dir,
                progress=progress, metrics=metric or None)
    who = f"seat {seat}" if seat is not None else "each bot" if by_bot else f"each value of {by}" if by else "each seat"
    title = f"{g.title}: B minus A over {n:,} paired games (seed {seed}, {who}{', seats rotated' if rotate_seats else ''})"
    notes = [f"A: {label_a}", f"B: {label_b}",
             "A and B with their own 95% intervals; 'B / A': the ratio of the two means, its interval paired by game (the delta "
             "method's: near 1 it may leave out 1 where the difference's includes 0, or the reverse; the verdict is the "
             "difference's); 'p': the difference's test (the score test for a rate, a paired t for a number); 'same outcome': "
             "games whose value is the same in A and B; 'significant (Holm)': p-values Holm-adjusted over every row; "
             + ("'skewed: needs N': the differences are too skewed for a t test on this many games (more than 28 + 25 x skewness^2); "
                if any(m.too_skewed for m in c.metrics) else "")
             + "'games saved': how many times more games two independent runs would need for the same precision."]
    if fmt == "table" and output is None:
        out.print(notes[0] + "\n" + notes[1])
        _emit(rows(c), title, fmt, output, notes[2:])
    else:
        _emit(rows(c), title, fmt, output, notes, data=data(c))


@app.command("sensitivity")
def sensitivity_cmd(
    game: str = typer.Argument(..., help="Game name, e.g. ufs."),
    n: Optional[int] = typer.Option(None, "-n", "--games", help="Games per cell and reading (default: the game's declared size)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Root seed shared by every run (default: the declared one)."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes (0 = all cores; never more than the cores)."),
    out_dir: Path = typer.Option(Path("runs/sensitivity"), "--out", "-o", help="Folder of the runs (resumable)."),
    fmt: str = typer.Option("table", "--format", help=FORMAT_HELP + " JSON also holds the headline figures and the claims' verdicts."),
    output: Optional[Path] = typer.Option(None, "--output", help="Write the changes (and, in JSON, the verdicts) to this file instead of printing them."),
    plot: Optional[Path] = typer.Option(None, "--plot", help="Also write the tornado plot to this file (PNG, SVG or PDF, by its extension)."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
) -> None:
    """How the headline figures move when each reading of an unclear rule is switched: paired changes on the same seeds, Holm over the family, each claim holding under every reading, depending on a reading, or not shown.

    Example: simkit sensitivity ufs -n 2000

    Example: simkit sensitivity ovni --format json --output ovni-readings.json \\
      --plot ovni-readings.png
    """
    from .games import get
    from .owned import check_target, write
    from .sensitivity import change_rows, declaration, sensitivity, to_json, tornado, verdict_rows

    g = get(game)
    decl = declaration(g)
    if n is not None and n < 1:
        raise UserError("-n must be at least 1 (leave it out for the game's declared size)")
    _check_output(fmt, output)
    if plot is not None:
        if plot.suffix.lower() not in PLOT_FORMATS:
            raise UserError(f"--plot {plot}: end the file's name in .png, .svg or .pdf (the plot's format)")
        if output is not None and plot.resolve() == output.resolve():
            raise UserError(f"--plot and --output both name {plot}; give each its own file")
        check_target(plot, "--plot")
    s = sensitivity(g, games=n, seed=seed, jobs=jobs, out_root=out_dir, progress=progress, decl=decl)
    if fmt == "table" and output is None:
        for title, rows in ((f"{g.title}: claims ({s.games:,} games per cell and reading)", verdict_rows(s)),
                            (f"changes significant after Holm over {len(s.changes)} ({s.games:,} paired games each)", change_rows(s, True))):
            if not rows:
                out.print(f"{title}: none")
                continue
            if not any(r.get("ratio", "x") for r in rows):  # no figure here is a rate: a column of blanks
                rows = [{k: v for k, v in r.items() if k != "ratio"} for r in rows]
            _print_rows(rows, title)  # a block per row where the table would not fit (it cut "aggressive" to "aggres…")
    else:  # every change, one row each; JSON also holds the headline figures and the claims
        doc = to_json(s)
        _emit(change_rows(s), f"{g.title}: changes under each reading ({s.games:,} paired games each)", fmt, output,
              [f"{r['claim']}: {r['verdict']}" for r in verdict_rows(s)], data=doc.pop("changes"), meta=doc)
    if plot is not None:
        fig = tornado(s)
        write(plot, lambda tmp: fig.savefig(tmp, bbox_inches="tight", format=plot.suffix.lower()[1:]), "--plot")
        err.print(f"written: {plot}")  # stderr: stdout may carry the JSON


@app.command("check")
def check_cmd(
    bands: Path = typer.Argument(..., help="Bands file (TOML), e.g. experiments/bands.toml."),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Worker processes (0 = all cores; never more than the cores)."),
    band: List[str] = typer.Option([], "--band", help="Only these bands (by name)."),
    fmt: str = typer.Option("table", "--format", help=FORMAT_HELP + " The machine-readable forms hold numbers: rate, lo, hi, successes, games..."),
    output: Optional[Path] = typer.Option(None, "--output", help="Write the verdicts to this file instead of printing them."),
) -> None:
    """Check that rates stay inside their bands, with anytime-valid sequential tests
    (exit 0 all hold, 1 a band fails or is undecided at its cap, 2 bad file).

    Example: simkit check experiments/bands.toml --jobs 2

    Example: simkit check experiments/bands.toml --format json --output verdicts.json
    """
    from .check import check, describe, message, numbers
    from .errors import printable

    _check_output(fmt, output)
    verdicts = check(bands, jobs=jobs, only=band or None)  # validates the whole file before playing
    rows = [describe(v) for v in verdicts]
    first = verdicts[0].band
    t_title = (f"{bands}: {len(rows)} of {first.family} bands. alpha = {first.family * first.test.alpha:.2g}: chance that any band "
               f"fails or ends undecided while every rate is inside its band; beta = {first.test.beta:.2g}: chance that a band "
               f"whose rate moved by its 'catches' size does not fail within its cap")
    legend = ("holds: the rate was shown to be within the 'catches' distance of the band's centre; FAIL: its interval "
              "left the band; UNDECIDED: neither by the cap (treated as a failure).")
    if fmt == "table" and output is None:
        wide = out if out.is_terminal else Console(width=170, markup=False, highlight=False, emoji=False)  # CI logs: one line per band
        if not _fits(rows, wide.width):  # a narrow terminal: a block per band (the table cut '9.50-10.5…')
            _print_rows([{k: printable(str(v)) for k, v in r.items()} for r in rows], t_title)
        else:
            table = Table(title=t_title, header_style="bold")
            for col in rows[0]:
                table.add_column(col, justify="left" if col in ("band", "verdict") else "right")
            for r in rows:
                table.add_row(*(printable(str(v)) for v in r.values()), style="red" if not r["verdict"].startswith("holds") else None)
            wide.print(table)
        wide.print(legend)
    else:
        _emit(rows, t_title, fmt, output, [legend], data=[numbers(v) for v in verdicts],
              meta={"alpha": first.family * first.test.alpha, "beta": first.test.beta})
    failed = [v for v in verdicts if v.failed]
    for v in failed:
        err.print(Text(printable(message(v))), soft_wrap=True, highlight=False)
    if failed:
        raise typer.Exit(1)


@app.command("sweep")
def sweep_cmd(
    experiment: Path = typer.Argument(..., help="Experiment file (TOML), e.g. experiments/ufs-threat.toml."),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Worker processes (0 = all cores; never more than the cores)."),
    games: Optional[int] = typer.Option(None, "--games", help="At most this many games per cell, for a quick look (the report then goes under runs/reports/)."),
    out_root: Path = typer.Option(Path("runs/sweeps"), "--out", "-o", help="Folder of the cells' runs (one folder per experiment inside); the report's other runs (sensitivity, ladder, tune) go beside a folder named sweeps, as runs/sweeps's go in runs/, and inside any other."),
    backend: str = typer.Option("loky", "--backend", help="joblib backend: loky, threading, dask or ray."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Address of a dask scheduler or ray cluster."),
    report: bool = typer.Option(True, "--report/--no-report", help="Write the report the experiment names."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
) -> None:
    """Run every cell of an experiment grid (finished cells are not rerun) and write its report.

    Example: simkit sweep experiments/ufs-threat.toml --jobs 2
    """
    from .runner import check_backend
    from .sweep import sweep

    check_backend(backend, scheduler)
    res = sweep(experiment, jobs=jobs, games=games, out_root=out_root, progress=progress, backend=backend,
                scheduler=scheduler, report=report)
    out.print(f"{len(res.experiment.cells)} cells, {res.manifest['rows']:,} rows ready in {res.manifest['wall_time_s']:.1f} s: {res.out / 'all.parquet'}")
    if report and res.experiment.report:
        _say_report(res.experiment.report)


def _say_report(folder: Path) -> None:
    """The report's answers, as `simkit run` prints its own (make run printed only the
    paths), then where it is."""
    for a in json.loads((folder / "report.json").read_text()).get("answers", []):
        out.print(f"answer: {a['sentence']}", markup=False, highlight=False)
    out.print(f"report: {folder / 'README.md'} and {folder / 'index.html'}")


@app.command("compile")
def compile_cmd(
    game: List[str] = typer.Argument(None, help="Games to compile (default: every game)."),
    bot: List[str] = typer.Option([], "--bot", "-b", help="Bots to compile the loop for, together (default: each game's default bot)."),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Processes (0 = all cores)."),
) -> None:
    """Compile games' rules and bots ahead of their first run.

    A run compiles what it plays by itself (a line says so); this does it ahead, e.g.
    before going offline. The compiled code is cached per game and set of bots, and
    compiled again only after the game's own code changes.

    Examples: simkit compile ufs | simkit compile ufoo --bot search --bot tactical
    """
    from .compiled import compile_games
    from .games import REGISTRY, get

    names = [get(g).name for g in game] if game else list(REGISTRY)
    if bot and len(names) > 1:
        raise UserError("--bot names one game's bots: give one game, e.g. simkit compile ufs --bot search")
    if bot:
        g = get(names[0])
        g.resolve_bots(list(bot), g.params())  # an unknown bot is one line before anything starts
    compile_games(names, tuple(bot), jobs, say=lambda text: out.print(text, highlight=False, markup=False))


@app.command("report")
def report_cmd(
    game: str = typer.Argument(..., help="Game name, e.g. ufs."),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Worker processes (0 = all cores; never more than the cores)."),
    games: Optional[int] = typer.Option(None, "--games", help="At most this many games per cell, for a quick look: the report then goes under runs/reports/, never over the committed one."),
    out_root: Path = typer.Option(Path("runs/sweeps"), "--out", "-o", help="Folder of the cells' runs, the report's other runs inside it or, for a folder named sweeps, beside it (as in sweep)."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
) -> None:
    """Write a game's balance report (runs the game's default experiment, reusing finished cells).

    Example: simkit report ufs
    """
    from .games import get
    from .sweep import default_experiment, sweep

    g = get(game)
    # a game that ships no experiment file gets a default one: its declared questions still answer
    path = experiment_path(g) if g.analysis.experiment else default_experiment(g, games, out_root)
    res = sweep(path, jobs=jobs, games=games, out_root=out_root, progress=progress)
    _say_report(res.experiment.report)
    if games is not None:
        out.print("(a quick look with fewer games: the committed report is unchanged)")


@app.command("tune")
def tune_cmd(
    game: str = typer.Argument(..., help="Game name, e.g. ufoo."),
    goal: str = typer.Option(..., "--goal", "-g", help="The question to make fair: one the game declares (e.g. first_player, seat_fairness, city_mission; a wrong name lists them)."),
    knob: List[str] = typer.Option([], "--knob", "-k", help="A setting the search may change (default: every compensation of the game; 'simkit games GAME' lists them)."),
    set_: List[str] = typer.Option([], "--set", "-s", help=SET_HELP + " Fixed in every candidate, e.g. --set players=2."),
    bot: List[str] = typer.Option([], "--bot", "-b", help=BOT_HELP),
    budget: str = typer.Option("200k", "--budget", help="Games to spend in all (200000, 200k) or minutes on this machine (10min)."),
    margin: Optional[float] = typer.Option(None, "--margin", help="Fair means within this many points of fair, as a fraction (default: the question's, usually 0.02)."),
    target: Optional[float] = typer.Option(None, "--target", help="For a win-rate goal: the rate to reach, e.g. 0.5."),
    curve: Optional[str] = typer.Option(None, "--curve", help="For a win-rate goal: a difficulty curve, the rate to reach at each value of a setting, e.g. threat=0:0.5,1:0.3."),
    seed: int = typer.Option(0, "--seed", help="Root seed of the search (the proof plays fresh seeds derived from it)."),
    length_within: Optional[float] = typer.Option(None, "--length-within", help="Constraint: leave out a fix shown to change the mean game length by more than this fraction (e.g. 0.1). Reported as a cost either way."),
    keep_seats: bool = typer.Option(False, "--keep-seats", help="Constraint: leave out a fix under which another seat question is shown unfair where the rules as written are not."),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Worker processes (0 = all cores; never more than the cores)."),
    out_dir: Optional[Path] = typer.Option(None, "--out", "-o", help="Folder of the candidates' runs (default: one under runs/tune/ named after the game, goal and settings). Rerunning resumes."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
    fmt: str = typer.Option("table", "--format", help="How to print the result: table or json (to stdout, or to --output)."),
    output: Optional[Path] = typer.Option(None, "--output", help="Write the result to this file instead of printing it."),
) -> None:
    """Find the smallest rule change that makes a question fair, and prove it on fresh games.

    Candidates are the game's compensations (rule changes not in the rulebook) or the
    settings named with --knob; all play the same seeds, successive halving drops the
    worse half round by round, optuna searches numeric knobs together, and the best few
    are replayed on fresh seeds: a fix is claimed only if that proof shows it fair within
    the margin (equivalence test, Bonferroni over the candidates proven).

    Example: simkit tune ufoo --goal first_player --budget 10min

    Example: simkit tune ovni --goal seat_fairness --set players=2 --budget 300k

    Example: simkit tune aau --goal city_mission \\
      --knob city_mission_5_points --knob city_mission_2_points

    Example: simkit tune ufs --goal normal_game --set city=new_york \\
      --knob robots --curve threat=0:0.6,1:0.3,2:0.1
    """
    from .params import parse_assignments
    from .progress import bar
    from .runner import _duration
    from .workers import worker_count
    from .tune import check_budget, goal as make_goal, interrupted_in, knobs, parse_budget, tune

    if fmt not in ("table", "json"):
        raise UserError(f"--format {fmt!r}: use table or json")
    if length_within is not None and not 0 < length_within < 10:
        raise UserError(f"--length-within is a fraction of the mean length, e.g. 0.1 for ±10%, not {length_within}")
    _check_output(fmt, output)
    from .games import get

    g = get(game)
    sets = parse_assignments(set_)
    _params(g, sets)
    goal_ = make_goal(g, goal, margin, target, curve)
    ks = knobs(g, knob)
    if goal_.over and (goal_.over in sets or goal_.over in {k.name for k in ks}):
        raise UserError(f"{goal_.over} runs along the curve; it cannot also be fixed with --set or searched as a knob")
    games, minutes = parse_budget(budget)
    n_jobs = worker_count(jobs)
    if out_dir is None:
        import hashlib

        key = json.dumps([sets, bot, [k.name for k in ks], seed, curve], sort_keys=True, default=str)  # the games, not the goal
        out_dir = Path("runs/tune") / f"{g.name}-{goal}-{hashlib.blake2b(key.encode(), digest_size=5).hexdigest()}"
    from .owned import check_target, write

    if games is not None:
        check_budget(games, ks, levels=max(1, len(goal_.curve)))  # (before a progress bar of -5 games is drawn)
    if out_dir.is_dir():  # its tune.json was refused after the whole budget was played
        check_target(out_dir / "tune.json", "--out")
    what = f"{len(ks)} knob{'s' if len(ks) > 1 else ''} ({', '.join(k.name for k in ks)})"
    err.print(f"tune {g.name}: making {goal!r} fair within ±{100 * goal_.margin:g} points by changing {what}; "
              f"budget {budget}; runs in {out_dir}", markup=False, highlight=False)
    try:
        with bar(f"{g.name} tune", games, enabled=progress) as advance:  # minutes: the games are known after the pilot
            res = tune(g, goal_, ks, base=sets, bots=bot, budget=games or 0, minutes=minutes, seed=seed, jobs=n_jobs,
                       out=out_dir, progress=advance, length_tolerance=length_within, keep_seats=keep_seats)
    except (Interrupted, KeyboardInterrupt):
        raise interrupted_in(out_dir) from None  # one line for the whole tune

    doc = json.dumps(_finite(res.as_dict()), indent=2, default=str)
    write(out_dir / "tune.json", lambda tmp: tmp.write_text(doc), "--out")
    if fmt == "json":
        write(output, lambda tmp: tmp.write_text(doc), "--output") if output else out.print(doc, markup=False, highlight=False, soft_wrap=True)
        return
    lines = [f"answer: {res.sentence()}",
             *[f"what it changes: {m}" for m in res.meanings()],
             f"searched {len(res.searched)} candidates on {res.search_games:,} games (seed {res.seed}), proved the best "
             f"{len(res.confirmed)} and the rules as written on {res.confirm_games:,} fresh games in all (seed {res.confirm_seed}); "
             f"{_duration(res.seconds)}",  # (a short tune said "0.0 min")
             *([f"budget {budget}: {res.budget:,} games on this machine (--budget {res.budget} plays the same games anywhere)"]
               if minutes is not None else []),
             f"result: {out_dir / 'tune.json'}"]
    _emit(res.rows(), f"{g.title}: how to make {goal!r} fair (proof on fresh games)", "table", output, lines)


def experiment_path(game) -> Path:
    from ._cache import ROOT as root

    if not game.analysis.experiment:
        raise UserError(f"{game.name} has no default experiment")
    path = Path(game.analysis.experiment)
    return path if path.exists() else root / game.analysis.experiment


# Set when a SIGTERM (a scheduler's time limit, `kill`) asked the command to stop; a second
# one before the line is given is not answered again.
_terminated = False


def _stop_as_ctrl_c(signum, frame) -> None:
    """A SIGTERM stops the command as Ctrl-C does: finished games kept, the resume line, no
    worker left behind (it ended the process at once and silently, exit 143). It is raised as
    a SIGINT, so that the places that hold a Ctrl-C (while a worker starts) hold it too;
    where Ctrl-C is ignored (a script's background job starts so), as the KeyboardInterrupt
    itself: the raised SIGINT was lost and the SIGTERM with it (a hostile review)."""
    import signal

    global _terminated
    if _terminated:  # (one is being answered)
        return
    _terminated = True
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        raise KeyboardInterrupt
    signal.raise_signal(signal.SIGINT)


def _fail(text: str, code: int) -> None:
    import signal

    from .errors import printable

    if code == 130 and _terminated:  # the shell's code for a SIGTERM, and its name in the line
        code, text = 143, text.replace("interrupted", "stopped by SIGTERM", 1)
    stop = (signal.SIGINT, signal.SIGTERM)
    if code in (130, 143):
        # A Ctrl-C (or SIGTERM) is answered once: one pressed again, or one held back while a
        # worker started and delivered now, printed a traceback from the middle of this line or
        # from loky's exit handler (4 in 16 early Ctrl-C of a two-worker run). Ignored while the
        # line is printed; after it, one ends the process at once (nothing is left to save).
        for s in stop:
            signal.signal(s, signal.SIG_IGN)
    text = printable(text)
    err.print(Text("error: ", style="bold red") + Text(text) if code not in (130, 143) else Text(text))
    if code in (130, 143):
        for s in stop:
            signal.signal(s, lambda *_: os._exit(code))
    sys.exit(code)


def _finish_compiling() -> None:
    """After the answer: the compilation a run left running once it had played its games
    as plain Python (Ctrl-C skips it)."""
    from .compiled import finish_compiling
    from .progress import warn

    try:
        finish_compiling(warn)  # (nothing to wait for, unless a run played while compiling)
    except KeyboardInterrupt:
        raise Interrupted("interrupted: the results are complete; the compilation stopped (the next run compiles again)") from None


def _quiet_resource_tracker() -> None:
    """loky's resource tracker (a process of its own, started with the first pool) warns at
    exit of semaphores it still counts but cannot unlink because they are gone already
    (``FileNotFoundError``): after a Ctrl-C, now and then, two warnings under the resume
    line about nothing left behind (1 to 4 Ctrl-C in 60 during a run of the random bot in
    200,000-game chunks, before and after the send lock of ``stop_workers``).
    Its environment, inherited from here, filters them; the user's own filters stay."""
    ours = "ignore:resource_tracker:UserWarning"
    theirs = os.environ.get("PYTHONWARNINGS", "")
    if ours not in theirs.split(","):
        os.environ["PYTHONWARNINGS"] = f"{theirs},{ours}" if theirs else ours


def _enough_open_files(least: int = 64) -> None:
    """Refuses to start under a limit of open files too low to start worker processes: at 16
    (ulimit -n 16) loky's start of a worker ended in a traceback, at 10-14 a chunk's file
    failed. Systems allow 1,024 or more by default."""
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < least:
        _fail(f"only {soft} files may be open at once (ulimit -n); simkit needs {least} or more: raise the limit "
              f"(ulimit -n 1024) and run again", 2)


def _reader_gone() -> None:
    """The reader of standard output went away (``| head``): nothing to say, nothing wrong.
    What is still buffered goes nowhere, so that Python's flush at exit fails no more."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.stderr = open(os.devnull, "w")
    sys.exit(0)


def _current_folder_gone() -> bool:
    try:
        os.getcwd()
        return False
    except FileNotFoundError:
        return True


def main() -> None:
    """The ``simkit`` command: bad input, a misbehaving bot, a full disk or Ctrl-C end in
    one line on stderr (exit 2; 130 for Ctrl-C, 143 for a SIGTERM), never a traceback."""
    from typer._click import exceptions as click_errors  # typer's own copy of click

    import signal

    global _terminated
    _terminated = False  # (main may run again in one process: a notebook, the tests)
    _quiet_resource_tracker()
    _enough_open_files()
    signal.signal(signal.SIGTERM, _stop_as_ctrl_c)
    if sys.stdout is None:  # (started with >&-: every answer was dropped without a word, exit 0)
        _fail("the standard output is closed, so no answer could be shown; run the command again with it open, "
              "or send it to a file (> answers.txt)", 2)
    try:
        code = app(standalone_mode=False)
        if code in (0, None):
            _finish_compiling()
    except UserError as exc:
        _fail(str(exc), 2)
    except Interrupted as exc:
        _fail(str(exc), 130)
    except (KeyboardInterrupt, typer.Abort):
        _fail("interrupted", 130)
    except SystemError as exc:  # Ctrl-C inside compiled code reaches here wrapped by numba
        from .runner import _interrupted

        if not _interrupted(exc):
            raise
        _fail("interrupted", 130)
    except click_errors.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx is not None else "simkit"
        text = " ".join(exc.format_message().split()) or "a command is missing"
        _fail(f"{text} (see '{where} --help')", 2)
    except click_errors.ClickException as exc:
        _fail(" ".join(exc.format_message().split()), 2)
    except BrokenPipeError:
        _reader_gone()
    except SystemExit as exc:
        if isinstance(exc.__context__, BrokenPipeError):  # typer's own answer to one: exit 1 (`simkit trace | head -1`)
            _reader_gone()
        raise
    except OSError as exc:
        if exc.errno == errno.ENOENT and _current_folder_gone():  # (it said only "No such file or directory")
            _fail("the current folder no longer exists (deleted or moved); cd to a folder that exists and run the "
                  "command again, or give --out an absolute path", 2)
        full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
        # (a full device without a file name: the terminal or wherever standard output was sent)
        where = f"{exc.filename}: " if exc.filename else ("writing the output: " if full else "")
        hint = "free some space or write it elsewhere" if full else \
            "raise the limit (ulimit -n) or use fewer --jobs" if exc.errno == errno.EMFILE else None
        _fail(f"{where}{exc.strerror or exc}" + (f"; {hint}" if hint else ""), 2)
    except MemoryError:
        _fail("out of memory: play fewer games per chunk (--chunk-size) or use fewer --jobs", 2)
    if code == 130:  # typer returns a Ctrl-C outside a run (reading files, compiling) as 130, silently
        _fail("interrupted", 130)
    sys.exit(code if isinstance(code, int) else 0)


# A flag takes no value: its help shows none (typer showed "--by-bot <bool>", which reads as
# if it wanted one).
for _callback in [c.callback for c in app.registered_commands] + [app.registered_callback.callback]:
    for _param in inspect.signature(_callback).parameters.values():
        if _param.annotation in (bool, "bool") and isinstance(_param.default, typer.models.OptionInfo) and _param.default.metavar is None:
            _param.default.metavar = ""


# Help text from the docstrings, each paragraph on one line: typer's rich help keeps a
# paragraph's line breaks, which broke its lines mid-sentence once it rewrapped them. An
# example keeps its lines (a long command continues with "\\" on a line that fits 100 columns).
for _command in app.registered_commands:
    if _command.help is None and _command.callback is not None and _command.callback.__doc__:
        _command.help = "\n\n".join(p if p.startswith("Example:") else " ".join(p.split())
                                     for p in inspect.cleandoc(_command.callback.__doc__).split("\n\n"))


if __name__ == "__main__":
    main()
