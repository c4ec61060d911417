"""The ``simkit`` command: a thin layer over the library (every command is a function
a notebook can call: simkit.runner.run, simkit.report..., simkit.compare...)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.table import Table

from .errors import UserError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode="rich",
    help="Monte Carlo balance analysis for tabletop games: seeded batch simulation, bots, statistics and reports.\n\n"
    "Start with [bold]simkit games[/] to see the games, their parameters and bots.",
)
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

SET_HELP = "Override a game parameter, e.g. --set threat=2 (repeatable; see 'simkit games')."
BOT_HELP = "Bot name (see 'simkit games'), NAME:OPTION+OPTION, or package.module:function for your own bot. One --bot fills every seat; otherwise give one per seat in seat order."


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
def games_cmd() -> None:
    """List the games: player counts, parameters (defaults and allowed values) and bots.

    Example: simkit games
    """
    from .games import all_games
    from .params import describe

    games = all_games()
    for game in [g for g in games if not g.template]:
        lo, hi = game.seat_range
        players = f"{lo}" if lo == hi else f"{lo}-{hi}"
        out.rule(f"[bold]{game.name}[/]  {game.title}  ({players} player{'s' if hi > 1 else ''})")
        t = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        t.add_column("parameter")
        t.add_column("default")
        t.add_column("allowed")
        t.add_column("meaning")
        for info in describe(game.params):
            default = json.dumps(info.default) if not isinstance(info.default, str) else (info.default or '""')
            t.add_row(info.name, default, info.allowed(), info.help)
        out.print(t)
        bt = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        bt.add_column("bot")
        bt.add_column("options")
        bt.add_column("plays")
        for name, info in game.bots.items():
            mark = " (default)" if name == game.default_bot else ""
            bt.add_row(name + mark, ", ".join(info.options) or "-", info.help)
        out.print(bt)
    for game in [g for g in games if g.template]:
        out.print(f"\n[bold]{game.name}[/]: {game.title}, for contributors: copy it to add a game (docs/adding-a-game.md).")


def _summary_table(frame, game, title: str) -> Table:
    from .summary import summarize

    rows = summarize(frame, game)
    t = Table(title=title, header_style="bold")
    for col in rows[0].keys():
        t.add_column(col, justify="right" if col not in ("bot", "seat") else "left")
    for r in rows:
        t.add_row(*[str(v) for v in r.values()])
    return t


@app.command("run")
def run_cmd(
    game: str = typer.Argument(..., help="Game name, e.g. ufs."),
    n: int = typer.Option(10_000, "-n", "--games", help="Number of games."),
    seed: int = typer.Option(0, "--seed", help="Root seed: game i always gets the seed derived from (seed, i)."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes (0 = all cores)."),
    bot: List[str] = typer.Option([], "--bot", "-b", help=BOT_HELP),
    set_: List[str] = typer.Option([], "--set", "-s", help=SET_HELP),
    out_dir: Optional[Path] = typer.Option(None, "--out", "-o", help="Output folder (default: runs/<game>-<hash of the run>). Rerunning resumes."),
    chunk_size: int = typer.Option(10_000, "--chunk-size", help="Games per chunk (a chunk is the unit of parallel work and of resumption)."),
    backend: str = typer.Option("loky", "--backend", help="joblib backend: loky (processes), threading, dask or ray."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Address of a dask scheduler or ray cluster (default: a local one)."),
    rotate_seats: bool = typer.Option(False, "--rotate-seats", help="Game i shifts the bots i seats, so that bots and seats are not confounded."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
) -> None:
    """Simulate N seeded games and print a summary; results go to Parquet with a JSON manifest.

    Example: simkit run ufs -n 1000000 --jobs 2 --set threat=2 --bot greedy
    """
    from .runner import RunSpec, default_out, run

    g, params = _game_params(game, set_)
    bots = tuple(g.resolve_bots(bot, params))
    spec = RunSpec(g, params, bots, n, seed, rotate_seats)
    path = out_dir or default_out(spec)
    res = run(spec, path, jobs=jobs, backend=backend, scheduler=scheduler, chunk_size=chunk_size, progress=progress)
    m = res.manifest
    out.print(_summary_table(res.frame, g, f"{g.title}: {n:,} games, seed {seed}, {', '.join(sorted(set(m['bots'])))}"))
    if g.summarize:
        for line in g.summarize(res.frame):
            out.print(line)
    speed = m["simulated_games_per_s"]
    resumed = f", {m['resumed_games']:,} resumed from disk" if m["resumed_games"] else ""
    out.print(f"wall {m['wall_time_s']:.1f} s{f', {speed:,.0f} games/s' if speed else ''}{resumed}")
    out.print(f"results: {path / 'games.parquet'}  manifest: {path / 'manifest.json'}")


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
    g, params = _game_params(game, set_)
    bots = g.resolve_bots(bot, params)
    if g.trace is None:
        raise UserError(f"{g.name} has no trace printer yet")
    for line in g.trace(params, bots, seed, index):
        out.print(line, highlight=False, markup=False)


@app.command("bench")
def bench_cmd(
    game: str = typer.Argument(..., help="Game name."),
    bot: List[str] = typer.Option([], "--bot", "-b", help="Bots to time (default: every built-in bot)."),
    set_: List[str] = typer.Option([], "--set", "-s", help=SET_HELP),
    n: int = typer.Option(50_000, "-n", "--games", help="Games per timing."),
    python_games: int = typer.Option(40, "--python-games", help="Games for the pure-Python timing (0 to skip)."),
    repeat: int = typer.Option(3, "--repeat", help="Timings per bot; the best is kept."),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Also write the figures to this JSON file."),
) -> None:
    """Games per second per bot on one core, and the speed-up over the same rules run as plain Python.

    Example: simkit bench ufs --bot greedy -n 100000
    """
    from .bench import bench, fmt_rate, rows_as_dicts

    g, params = _game_params(game, set_)
    texts = bot or list(g.bots)
    rows = bench(g, params, texts, n, python_games, repeat)
    t = Table(title=f"{g.title}: one core, best of {repeat} x {n:,} games", header_style="bold")
    for c in ("bot", "games/s", "pure Python games/s", "speed-up"):
        t.add_column(c, justify="right")
    for r in rows:
        t.add_row(r.bot, fmt_rate(r.games_per_s), fmt_rate(r.python_games_per_s), f"{r.speedup:,.0f}x" if r.speedup else "-")
    out.print(t)
    if json_out:
        json_out.write_text(json.dumps({"game": g.name, "params": params.__dict__, "rows": rows_as_dicts(rows)}, indent=2))


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
    rotate_seats: bool = typer.Option(False, "--rotate-seats", help="Game i shifts the bots i seats in both variants, so that bots and seats are not confounded."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes (0 = all cores)."),
    metric: List[str] = typer.Option([], "--metric", "-m", help="Only these output columns (default: won and the game's main numbers)."),
    out_dir: Optional[Path] = typer.Option(None, "--out", "-o", help="Keep both runs under this folder (resumable)."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
) -> None:
    """Compare two parameter sets or two bots on the same seeds: paired differences with 95% intervals and tests, and ratios, for every seat (or every bot with --by-bot).

    Example: simkit compare ufs --set threat=1 --vs threat=2 -n 50000

    Example: simkit compare aau --set players=3 --vs semi_coop=true --bot strategic --bot greedy --bot greedy --rotate-seats --by-bot --metric win_share
    """
    from .compare import compare, describe_side, rows
    from .games import get
    from .params import parse_assignments
    from .runner import RunSpec

    g = get(game)
    sets_a = parse_assignments(set_)
    sets_vs = parse_assignments(vs)
    params_a = _params(g, sets_a)
    params_b = _params(g, {**sets_a, **sets_vs})
    bots_a = g.resolve_bots(bot, params_a)
    bots_b = g.resolve_bots(vs_bot or bot, params_b)
    if params_a == params_b and [b.name for b in bots_a] == [b.name for b in bots_b]:
        raise UserError("both variants are the same; change B with --vs key=value or --vs-bot NAME")
    label_a = describe_side(sets_a, [b.name for b in bots_a])
    label_b = describe_side(sets_vs, [b.name for b in bots_b])
    c = compare(g, RunSpec(g, params_a, tuple(bots_a), n, seed, rotate_seats), RunSpec(g, params_b, tuple(bots_b), n, seed, rotate_seats),
                label_a=label_a, label_b=label_b, seat=seat, by="bot" if by_bot else "seat", jobs=jobs, out=out_dir,
                progress=progress, metrics=metric or None)
    who = f"seat {seat}" if seat is not None else "each bot" if by_bot else "each seat"
    t = Table(title=f"{g.title}: B minus A over {n:,} paired games (seed {seed}, {who}{', seats rotated' if rotate_seats else ''})", header_style="bold")
    table_rows = rows(c)
    for col in table_rows[0]:
        t.add_column(col, justify="left" if col in ("metric", "seat or bot") else "right")
    for r in table_rows:
        t.add_row(*r.values())
    out.print(f"A: {label_a}\nB: {label_b}")
    out.print(t)
    out.print("'B / A': the ratio of the two means; 'significant (Holm)': p-values Holm-adjusted over every row; "
              "'games saved': how many times more games two independent runs would need for the same precision.")


@app.command("sensitivity")
def sensitivity_cmd(
    game: str = typer.Argument(..., help="Game name, e.g. ufs."),
    n: Optional[int] = typer.Option(None, "-n", "--games", help="Games per cell and reading (default: the game's declared size)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Root seed shared by every run (default: the declared one)."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes (0 = all cores)."),
    out_dir: Path = typer.Option(Path("runs/sensitivity"), "--runs", help="Where the runs are kept (resumable)."),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Also write the changes and verdicts to this JSON file."),
    plot: Optional[Path] = typer.Option(None, "--plot", help="Also write the tornado plot to this PNG file."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
) -> None:
    """How the headline figures move when each reading of an unclear rule is switched: paired changes on the same seeds, Holm over the family, each claim robust or depending on a reading.

    Example: simkit sensitivity ufs -n 2000
    """
    from .games import get
    from .sensitivity import change_rows, declaration, sensitivity, to_json, tornado, verdict_rows

    g = get(game)
    decl = declaration(g)
    for path in (json_out, plot):
        if path is not None:
            _writable(path)
    s = sensitivity(g, games=n, seed=seed, jobs=jobs, out_root=out_dir, progress=progress, decl=decl)
    for title, rows in ((f"{g.title}: claims ({s.games:,} games per cell and reading)", verdict_rows(s)),
                        (f"changes significant after Holm over {len(s.changes)} ({s.games:,} paired games each)", change_rows(s, True))):
        if not rows:
            out.print(f"{title}: none")
            continue
        t = Table(title=title, header_style="bold")
        for col in rows[0]:
            t.add_column(col, justify="left" if col in ("claim", "verdict", "evidence", "figure", "reading") else "right")
        for r in rows:
            t.add_row(*r.values())
        out.print(t)
    if json_out is not None:
        json_out.write_text(json.dumps(to_json(s), indent=1))
        out.print(f"changes and verdicts: {json_out}")
    if plot is not None:
        tornado(s).savefig(plot, bbox_inches="tight")
        out.print(f"tornado plot: {plot}")


@app.command("check")
def check_cmd(
    bands: Path = typer.Argument(..., help="Bands file (TOML), e.g. experiments/bands.toml."),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Worker processes (0 = all cores)."),
    band: List[str] = typer.Option([], "--band", help="Only these bands (by name)."),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Also write the verdicts to this JSON file."),
) -> None:
    """Check that rates stay inside their bands, with anytime-valid sequential tests
    (exit 0 all hold, 1 a band fails or is undecided at its cap, 2 bad file).

    Example: simkit check experiments/bands.toml --jobs 2
    """
    from .check import check, describe, message

    if json_out is not None:
        _writable(json_out)
    verdicts = check(bands, jobs=jobs, only=band or None)  # validates the whole file before playing
    rows = [describe(v) for v in verdicts]
    first = verdicts[0].band
    t_title = (f"{bands}: {len(rows)} of {first.family} bands. alpha = {first.family * first.test.alpha:.2g}: chance that any band "
               f"fails or ends undecided while every rate is inside its band; beta = {first.test.beta:.2g}: chance that a band "
               f"whose rate moved by its 'catches' size does not fail within its cap")
    table = Table(title=t_title, header_style="bold")
    for col in rows[0]:
        table.add_column(col, justify="left" if col in ("band", "verdict") else "right")
    for r in rows:
        style = "red" if not r["verdict"].startswith("holds") else None
        table.add_row(*r.values(), style=style)
    wide = out if out.is_terminal else Console(width=170)  # CI logs: one line per band
    wide.print(table)
    wide.print("holds: the rate was shown to be within the 'catches' distance of the band's centre; FAIL: its interval "
               "left the band; UNDECIDED: neither by the cap (treated as a failure).")
    if json_out:
        json_out.write_text(json.dumps(rows, indent=2))
    failed = [v for v in verdicts if v.failed]
    for v in failed:
        err.print(message(v), soft_wrap=True, highlight=False)
    if failed:
        raise typer.Exit(1)


def _writable(path: Path) -> None:
    """An output file must be writable before games are played for it."""
    import os

    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir() or not parent.is_dir() or not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UserError(f"cannot write {path}: choose a writable file in an existing folder")


@app.command("sweep")
def sweep_cmd(
    experiment: Path = typer.Argument(..., help="Experiment file (TOML), e.g. experiments/ufs-threat.toml."),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Worker processes (0 = all cores)."),
    games: Optional[int] = typer.Option(None, "--games", help="Override the games per cell (e.g. a quick look)."),
    out_root: Path = typer.Option(Path("runs/sweeps"), "--runs", help="Where the cells' runs are kept."),
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

    check_backend(backend)
    res = sweep(experiment, jobs=jobs, games=games, out_root=out_root, progress=progress, backend=backend,
                scheduler=scheduler, report=report)
    out.print(f"{len(res.experiment.cells)} cells, {res.frame.height:,} rows in {res.manifest['wall_time_s']:.1f} s: {res.out / 'all.parquet'}")
    if report and res.experiment.report:
        out.print(f"report: {res.experiment.report / 'README.md'} and {res.experiment.report / 'index.html'}")


@app.command("compile")
def compile_cmd(
    game: List[str] = typer.Argument(None, help="Games to compile (default: every game)."),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Processes (0 = all cores)."),
) -> None:
    """Compile games' rules and bots ahead of their first run (make install does this).

    The compiled code is cached per game; a game is compiled again only after its own
    code changes.

    Example: simkit compile ufs aau
    """
    from .compiled import compile_games
    from .games import REGISTRY, get

    names = [get(g).name for g in game] if game else list(REGISTRY)
    compile_games(names, jobs, say=lambda text: out.print(text, highlight=False, markup=False))


@app.command("report")
def report_cmd(
    game: str = typer.Argument(..., help="Game name, e.g. ufs."),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Worker processes (0 = all cores)."),
    games: Optional[int] = typer.Option(None, "--games", help="Override the games per cell (quick look; the committed report uses the file's counts)."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
) -> None:
    """Write a game's balance report (runs the game's default experiment, reusing finished cells).

    Example: simkit report ufs
    """
    from .games import get
    from .sweep import sweep

    g = get(game)
    path = experiment_path(g)
    res = sweep(path, jobs=jobs, games=games, progress=progress)
    out.print(f"report: {res.experiment.report / 'README.md'} and {res.experiment.report / 'index.html'}")


def experiment_path(game) -> Path:
    root = Path(__file__).resolve().parent.parent
    if not game.experiment:
        raise UserError(f"{game.name} has no default experiment")
    path = Path(game.experiment)
    return path if path.exists() else root / game.experiment


def main() -> None:
    try:
        code = app(standalone_mode=False)
    except UserError as exc:
        from rich.markup import escape

        err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)  # "[[band]]" is text
        sys.exit(2)
    except KeyboardInterrupt:
        err.print("interrupted: finished chunks are kept; rerun the same command to resume")
        sys.exit(130)
    except Exception as exc:
        # usage errors of the command-line parser: it prints them, they carry exit code 2
        show, code = getattr(exc, "show", None), getattr(exc, "exit_code", None)
        if callable(show) and isinstance(code, int):
            show()
            sys.exit(code)
        if type(exc).__name__ == "Abort":
            sys.exit(1)
        raise
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
