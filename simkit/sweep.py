"""Experiment files: a grid over parameters and bots, one run per cell, one report.

An experiment file is TOML::

    name = "ufs-threat"          # runs go to runs/sweeps/<name>/
    game = "ufs"
    seed = 2026                  # root seed shared by every cell (common random numbers)
    report = "reports/under-falling-skies"   # optional: write the game's report there
    chunk_size = 20000           # optional
    sensitivity = 20000          # optional: games per cell and reading of the report's section on
                                 # the readings of unclear rules (simkit.sensitivity); kept in runs/sensitivity/

    [fixed]                      # optional: parameters for every cell
    robots = true

    [[grid]]                     # one or more grids; each cell of each grid is a run
    games = 100000               # games per cell
    threat = [0, 1, 2, 3, 4]     # any parameter: a list of values
    bots = ["greedy"]            # a list of bots: a name fills every seat, a list gives one per seat
    rotate_seats = false         # optional

Cells already finished are not played again (each cell is a resumable run).
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import re
import time
from pathlib import Path
from typing import Any, Sequence

import polars as pl
from pydantic import BaseModel, ConfigDict, Field
from typing import Annotated

from .datafiles import data_error as _fail
from .datafiles import read, validated
from .errors import UserError
from .games import get
from .params import as_dict, build, describe
from .runner import (MAX_CHUNK, MAX_GAMES, RunSpec, _check_writable, library_versions, part_span, refuse_if_edited,
                     run_many, write_with_manifest)
from .workers import processes, worker_count



@dataclasses.dataclass(frozen=True)
class Cell:
    spec: RunSpec
    settings: dict[str, Any]  # the grid values of this cell (parameters, and bots)
    grid: int = 0  # which [[grid]] of the file it comes from

    @property
    def key(self) -> str:
        """A readable folder name; cells of one sweep whose names coincide get a hash of
        their settings as well (see :func:`folders`)."""
        parts = [f"{k}={'+'.join(v) if isinstance(v, list) else v}" for k, v in self.settings.items()]
        if self.spec.rotate_seats:
            parts.append("rotated")
        key = re.sub(r"[^A-Za-z0-9=+_.,-]", "_", ",".join(parts))
        if len(key) > 120:  # file names stop at 255 bytes: keep the start readable, a hash tells the rest apart
            key = f"{key[:100]}-{hashlib.sha1(key.encode()).hexdigest()[:12]}"
        return key

    @property
    def game(self) -> str:
        """What decides the cell's games: two cells with the same are the same games."""
        return json.dumps([as_dict(self.spec.params), [b.name for b in self.spec.bots], self.spec.rotate_seats],
                          sort_keys=True, default=str)


def folders(cells: list[Cell]) -> dict[str, str]:
    """Each distinct cell's folder name (by :attr:`Cell.game`): its key, or, when distinct
    cells' keys coincide (``W/die 1.toml`` and ``W/die_1.toml`` both clean to
    ``W_die_1.toml``), the key and a hash of the cell, so that no two share a folder."""
    first: dict[str, Cell] = {}
    for c in cells:
        first.setdefault(c.game, c)
    taken: dict[str, int] = {}
    for c in first.values():
        taken[c.key] = taken.get(c.key, 0) + 1
    return {g: c.key if taken[c.key] == 1 else f"{c.key[:100]}-{hashlib.sha1(g.encode()).hexdigest()[:12]}"
            for g, c in first.items()}


@dataclasses.dataclass
class Experiment:
    path: Path
    name: str
    game: Any
    seed: int
    report: Path | None
    chunk_size: int
    cells: list[Cell]
    description: str
    sensitivity: int | None = None  # games per cell and reading for the report's sensitivity section
    tunes: list[dict] = dataclasses.field(default_factory=list)  # [[tune]] tables: the report's "How to fix it"
    larger: str | None = None  # the experiment file playing this report's tables at research sizes
    ladder: dict | None = None  # [ladder]: the report's "How strong are the bots?" (simkit.strength)
    games_cap: int | None = None  # --games: each cell capped at this many games (a quick look)


@dataclasses.dataclass
class SweepResult:
    """A finished sweep: every cell's games in ``out/all.parquet`` (``frame`` reads them on
    first use), its manifest, and how it was played (for the report's own runs)."""

    experiment: Experiment
    out: Path
    manifest: dict[str, Any]
    jobs: int = 1
    progress: bool = False
    _frame: pl.DataFrame | None = None

    @property
    def frame(self) -> pl.DataFrame:
        if self._frame is None:
            self._frame = self.read()
        return self._frame

    def read(self, columns: Sequence[str] | None = None) -> pl.DataFrame:
        """The sweep's games, only ``columns`` of them (all when None): a report reads its own."""
        names = self.schema if columns is None else [c for c in self.schema if c in set(columns)]
        if self._frame is not None:
            return self._frame.select(names)
        # text columns as categories: a sweep's settings repeat on every row (EFTAIOS: 3.8 M
        # rows, 390 MB of text; its report's peak 2.0 GB -> 1.2 GB, the same report)
        return (pl.scan_parquet(self.out / "all.parquet", glob=False).select(names)
                .with_columns(pl.col(pl.String).cast(pl.Categorical)).collect(engine="streaming"))

    @property
    def schema(self) -> list[str]:
        if self._frame is not None:
            return self._frame.columns
        return pl.scan_parquet(self.out / "all.parquet", glob=False).collect_schema().names()

    @property
    def sensitivity_runs(self) -> Path:
        """Where the report's sensitivity runs are kept: ``runs/sensitivity`` beside ``runs/sweeps``."""
        return beside(self.out.parent, "sensitivity")


NAME = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"  # a folder name under runs/sweeps: no "..", no "/"
BESIDE = ("sensitivity", "ladder", "tune", "reports")  # a report's other runs and quick-look pages (see beside)


def beside(out_root: Path, kind: str) -> Path:
    """Where a report keeps its other runs and pages (``kind``: one of ``BESIDE``): beside
    the sweeps folder in the default layout (runs/sweeps -> runs/sensitivity, runs/ladder,
    runs/tune, runs/reports), and inside any other ``--out`` folder, so that nothing is
    written outside the folder a user named (``--out /tmp/x`` wrote /tmp/sensitivity)."""
    root = Path(out_root)
    return root.parent / kind if root.name == "sweeps" else root / kind


class _Grid(BaseModel):
    """One [[grid]] table: parameter axes (any parameter: a list of values) besides these."""

    model_config = ConfigDict(extra="allow", strict=True)
    games: int = Field(ge=1, le=MAX_GAMES)
    bots: list[Annotated[str, Field(min_length=1)] | Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)]] | None = Field(default=None, min_length=1)
    rotate_seats: bool = False


class _Tune(BaseModel):
    """One [[tune]] table: a `simkit tune` search whose result the report shows."""

    model_config = ConfigDict(extra="forbid", strict=True)
    goal: str = Field(min_length=1)
    knobs: list[Annotated[str, Field(min_length=1)]] = []
    set: dict[str, Any] = {}
    bots: list[Annotated[str, Field(min_length=1)]] = []
    budget: int = Field(default=200_000, ge=1_000, le=MAX_GAMES)
    margin: float | None = Field(default=None, gt=0, lt=1)
    seed: int = Field(default=0, ge=0)
    target: float | None = Field(default=None, ge=0, le=1)  # a win-rate goal's rate, or
    curve: str | None = Field(default=None, min_length=3)  # its difficulty curve, as simkit tune --curve
    length_within: float | None = Field(default=None, gt=0, lt=10)  # constraints, as simkit tune's options
    keep_seats: bool = False


class _Ladder(BaseModel):
    """The [ladder] table: the report's bot ladder (simkit.strength), per player count."""

    model_config = ConfigDict(extra="forbid", strict=True)
    games: int = Field(ge=2, le=MAX_GAMES)  # games per pairing
    players: list[int] = []  # default: the game's default settings only
    bots: list[Annotated[str, Field(min_length=1)]] = Field(default=[], max_length=20)  # weakest first; default the game's ladder
    set: dict[str, Any] = {}  # settings every pairing is played with
    budgets: bool = True  # the top bot against the next at 1/4, 1/2, 1 and 2 times its default budget


class _ExperimentFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(pattern=NAME)
    game: str = Field(min_length=1)
    seed: int = Field(default=0, ge=0)
    report: str | None = Field(default=None, min_length=1)
    chunk_size: int = Field(default=10_000, ge=1, le=MAX_CHUNK)
    fixed: dict[str, Any] = {}
    grid: list[_Grid] = Field(min_length=1, max_length=100)
    description: str = ""
    title: str = ""
    sensitivity: int | None = Field(default=None, ge=1, le=MAX_GAMES)  # games per cell and reading of the report's section on readings
    tune: list[_Tune] = Field(default=[], max_length=20)
    larger: str | None = Field(default=None, min_length=1)  # a quick experiment's research-size counterpart (its file name)
    ladder: _Ladder | None = None


MAX_CELLS = 10_000


def _check_games_cap(games: int | None) -> None:
    """``--games``, a quick look's cap on each cell: none, or a size a run may have."""
    if games is not None and not 1 <= games <= MAX_GAMES:
        raise UserError(f"--games must be from 1 to {MAX_GAMES:,}")


def load(path: Path, games_override: int | None = None) -> Experiment:
    """Reads and validates an experiment file, every cell's parameters and bots
    included; the first problem is one line naming the file and the entry."""
    path = Path(path)
    _check_games_cap(games_override)
    doc, _ = read(str(path), "experiment file")
    exp = validated(_ExperimentFile, doc, path, "see experiments/*.toml for the format")
    game = get(exp.game)
    if exp.name in BESIDE:  # (its cells' folder would be a report's other runs in an --out folder)
        raise _fail(path, "name", f"{exp.name!r} is the name of a report's own folder ({', '.join(BESIDE)}); choose another")
    names = {i.name for i in describe(game.params)}
    # The report folder of an experiment file shipped with simkit is in simkit's own
    # folder, wherever the command runs (simkit report GAME); data paths find simkit's
    # folder by themselves (simkit.datafiles).
    from ._cache import ROOT

    base = ROOT if path.resolve().is_relative_to(ROOT / "experiments") else None
    for key in exp.fixed:
        if key not in names:
            raise _fail(path, f"fixed.{key}", f"{game.name} has no parameter {key!r}; known: {', '.join(sorted(names))}")
    cells = []
    for gi, grid in enumerate(exp.grid):
        where = f"grid[{gi}]"
        games = min(grid.games, games_override) if games_override else grid.games  # --games caps a cell, never enlarges it
        axes: dict[str, list] = {}
        for key, values in (grid.model_extra or {}).items():
            if key not in names:
                raise _fail(path, f"{where}.{key}", f"{game.name} has no parameter {key!r}; known: {', '.join(sorted(names))}")
            if not isinstance(values, list) or not values:
                raise _fail(path, f"{where}.{key}", "must be a non-empty list of values")
            axes[key] = values
        bots_axis = grid.bots or [game.default_bot]
        count = len(bots_axis)
        for values in axes.values():
            count *= len(values)
        if len(cells) + count > MAX_CELLS:
            raise _fail(path, where, f"the grid has more than {MAX_CELLS:,} cells in all")
        seen: dict[str, tuple] = {}
        for combo in itertools.product(*axes.values(), bots_axis):
            values = dict(zip(axes, combo[:-1]))
            try:
                params = build(game.params, {**exp.fixed, **values}, game.name)
                bot_texts = combo[-1] if isinstance(combo[-1], list) else [combo[-1]]
                bots = tuple(game.resolve_bots(bot_texts, params))
                game.validate(params)
            except UserError as exc:
                raise _fail(path, where, str(exc)) from None
            settings = {**values, "bots": [b.name for b in bots] if len(set(b.name for b in bots)) > 1 else bots[0].name}
            cell = Cell(RunSpec(game, params, bots, games, exp.seed, grid.rotate_seats), settings, gi)
            if cell.game in seen:  # e.g. target = [20, "20"]: its games would be counted twice
                raise _fail(path, where, _twice(dict(zip([*axes, "bots"], seen[cell.game])), dict(zip([*axes, "bots"], combo)),
                                                {**axes, "bots": bots_axis}))
            plays = json.dumps([as_dict(params), [[b.code, b.flags] if b.fn is None else b.name for b in bots], grid.rotate_seats],
                               sort_keys=True, default=str)
            if plays in seen:  # e.g. bots = ["search", "search:budget=16"] (its default): the same games twice
                raise _fail(path, where, f"bots {json.dumps(seen[plays][-1])} and {json.dumps(combo[-1])} are the same bot "
                                         "with these settings; give it once")
            seen[cell.game] = seen[plays] = combo
            cells.append(cell)
    report = Path(exp.report) if exp.report else None
    if report is not None and base is not None and not report.is_absolute():
        report = base / report
    sens = exp.sensitivity
    if sens is not None:
        if not game.analysis.sensitivity:
            raise _fail(path, "sensitivity", f"{game.name} declares no readings (GameSpec.analysis.sensitivity)")
        sens = min(sens, games_override) if games_override else sens
    tunes = []
    for ti, t in enumerate(exp.tune):
        from .tune import goal as tune_goal, knobs as tune_knobs, least_budget

        try:
            build(game.params, t.set, game.name)
            levels = max(1, len(tune_goal(game, t.goal, t.margin, t.target, t.curve).curve))
            least = least_budget(tune_knobs(game, t.knobs), levels=levels)
        except UserError as exc:
            raise _fail(path, f"tune[{ti}]", str(exc)) from None
        if t.budget < least:  # refused now, not after every cell has been played
            raise _fail(path, f"tune[{ti}].budget", f"{t.budget:,} games cannot find and prove a fix over these knobs; give at least {least:,}")
        # a quick look (--games) shrinks the search with the cells, never below what it needs
        tunes.append({**t.model_dump(), "budget": min(t.budget, max(20 * games_override, least)) if games_override else t.budget})
    ladder = None
    if exp.ladder is not None:
        lad = exp.ladder
        bots = lad.bots or list(game.analysis.ladder or game.bots)
        try:
            for n in lad.players or [None]:
                p = build(game.params, {**exp.fixed, **lad.set, **({"players": n} if n is not None else {})}, game.name)
                game.validate(p)
                for b in bots:
                    game.resolve_bot(b)
        except UserError as exc:
            raise _fail(path, "ladder", str(exc)) from None
        if len(bots) < 2:
            raise _fail(path, "ladder.bots", "a ladder needs at least two bots, weakest first")
        games = min(lad.games, games_override) if games_override else lad.games
        ladder = {**lad.model_dump(), "set": {**exp.fixed, **lad.set}, "bots": bots, "games": max(games, 2)}
    return Experiment(path, exp.name, game, exp.seed, report, exp.chunk_size, cells, exp.description, sens, tunes, exp.larger,
                      ladder)


def _twice(prev: dict, combo: dict, lists: dict) -> str:
    """What makes two cells of one grid the same games: two values of an axis that mean
    the same (20 and "20"), or a value listed twice."""
    for k in combo:
        if prev[k] != combo[k]:
            return f"{k}: {json.dumps(prev[k])} and {json.dumps(combo[k])} are the same setting; give each value once"
    k = next(k for k in combo if [json.dumps(v) for v in lists[k]].count(json.dumps(combo[k])) > 1)
    return f"{k}: {json.dumps(combo[k])} is listed twice; give each value once"


def _claim(out: Path, exp: Experiment) -> None:
    """A sweep folder belongs to one experiment file: another file with the same name
    is refused (it would replace the first one's finished cells)."""
    owner = out / "experiment.json"
    me = str(exp.path.resolve())
    if owner.exists():
        try:
            claimed = json.loads(owner.read_text()).get("file")
        except (OSError, ValueError, AttributeError):
            claimed = None
        if claimed != me:
            raise UserError(f"{out} holds the cells of experiment file {claimed or 'unknown'}; give {exp.path} another name, or delete {out}")
    elif out.exists() and any(out.iterdir()) and not _simkits_manifest(out / "manifest.json"):
        raise UserError(f"{out} exists and is not a simkit sweep folder; choose another --out folder")
    out.mkdir(parents=True, exist_ok=True)
    (out / "experiment.json").write_text(json.dumps({"file": me, "name": exp.name}, indent=1))


def _simkits_manifest(path: Path) -> bool:
    """Whether ``path`` reads as a sweep manifest simkit wrote (a sweep folder from before
    experiment.json): any other manifest.json there is a user's, and would be replaced."""
    try:
        m = json.loads(path.read_text())
    except (OSError, ValueError):
        return False
    types = {"experiment": str, "name": str, "game": str, "seed": int, "cells": list}
    return isinstance(m, dict) and all(isinstance(m.get(k), t) for k, t in types.items())


def default_experiment(game, games: int | None = None, out_root: Path = Path("runs/sweeps")) -> Experiment:
    """The experiment of a game that ships none (``simkit report GAME``): its default
    settings and bot at every seat, seats rotated, ``games`` games (20,000 by default), its
    readings when it declares them; the report goes to ``runs/reports/<slug>/``."""
    _check_games_cap(games)  # (0 played the full 20,000 as "a quick look")
    params = build(game.params, {}, game.name)
    n = 20_000 if games is None else games
    bots = tuple(game.resolve_bots([], params))
    cell = Cell(RunSpec(game, params, bots, n, 0, True), {"bots": game.default_bot}, 0)
    sens = min(n, 4_000) if game.analysis.sensitivity else None
    return Experiment(Path(f"(default experiment of {game.name})"), f"{game.name}-default", game, 0,
                      beside(out_root, "reports") / game.slug, 10_000, [cell], f"{game.title}: default experiment", sens)


def sweep(path: "Path | Experiment", *, jobs: int = 1, games: int | None = None, out_root: Path = Path("runs/sweeps"),
          progress: bool = True, backend: str = "loky", scheduler: str | None = None, report: bool = True) -> SweepResult:
    """Runs every cell of an experiment (resuming finished ones), combines the results
    and, if the file names a report folder, writes the game's report there. With
    ``games`` (a quick look) the report goes under ``out_root/../reports/`` instead, so
    that a committed report is never replaced by a smaller run."""
    exp = path if isinstance(path, Experiment) else load(path, games)
    if games is not None and exp.report is not None and not isinstance(path, Experiment):
        exp.report = beside(out_root, "reports") / f"{exp.report.name}-{games}-games"
        exp.games_cap = games
    out = Path(out_root) / exp.name
    if out.exists() and not out.is_dir():
        raise UserError(f"{out} is not a folder; choose another --out folder")
    _check_writable(out, "--out")
    t0 = time.perf_counter()
    total = sum(c.spec.n_games for c in exp.cells)
    # A cell that two grids share is played once, with the larger number of games.
    unique: dict[str, Cell] = {}
    for c in exp.cells:
        if c.game not in unique or c.spec.n_games > unique[c.game].spec.n_games:
            unique[c.game] = c
    folder = folders(exp.cells)
    if exp.report is not None and report:
        _check_report_target(exp.report)
    _claim(out, exp)
    refuse_if_edited(out, "all.parquet")  # before any game: it is written again at the end
    cell_runs = [(c.spec, out / folder[g]) for g, c in unique.items()]
    if report and exp.report is not None and progress is True:
        try:
            _say_report_time(exp, out, cell_runs, processes(worker_count(jobs), backend))
        except (OSError, UserError, ValueError):
            pass  # only an estimate: whatever it met, the step that meets it says so in its own line
    results = run_many(cell_runs, jobs=jobs, backend=backend, scheduler=scheduler,
                       chunk_size=exp.chunk_size, progress=progress, replace_stale=True, label=exp.name)
    by_key = dict(zip(unique, results))
    cells = []
    for cell in exp.cells:
        games = pl.scan_parquet(by_key[cell.game].path / "games.parquet", glob=False).filter(pl.col("game_index") < cell.spec.n_games)
        names = by_key[cell.game].schema
        bots = cell.settings["bots"]
        cells.append(games.with_columns(  # every row carries its cell: grid, all parameters, bots
            pl.lit(cell.grid).alias("grid"),
            *[pl.lit(v).alias(k) for k, v in as_dict(cell.spec.params).items() if k not in names],
            pl.lit(json.dumps(bots) if isinstance(bots, list) else bots).alias("table"),
        ))
    def combine(tmp: Path) -> None:  # streamed cell by cell: memory does not grow with the sweep
        pl.concat(cells, how="diagonal_relaxed").sink_parquet(tmp)
        manifest["rows"] = pl.scan_parquet(tmp, glob=False).select(pl.len()).collect().item()

    manifest = {
        "experiment": str(exp.path),
        "name": exp.name,
        "game": exp.game.name,
        "seed": exp.seed,
        "cells": [{"key": folder[c.game], "grid": c.grid, "settings": c.settings, "games": c.spec.n_games} for c in exp.cells],
        "games": total,
        "rows": None,
        "wall_time_s": round(time.perf_counter() - t0, 2),
        "libraries": library_versions(),
    }
    write_with_manifest(out / "all.parquet", combine, manifest)  # the next sweep replaces it only unedited
    result = SweepResult(exp, out, manifest, jobs, bool(progress))
    if report and exp.report is not None:
        if progress is True:  # (a rerun of make run said nothing for its first 7 s)
            from .progress import warn

            warn(f"{exp.name}: {total:,} games ready; writing the report (answers, sections, plots) to {exp.report}")
        write_report(result)
    return result


def _say_report_time(exp: Experiment, out: Path, cell_runs: list, cores: int) -> None:
    """Before any game: what the whole report plays and how long it should take, step by
    step, at the remembered speeds of the same game, bots and settings (each step still
    says its own estimate when it starts). The first estimate a newcomer saw was of the
    cells alone: "about 42 s" for a report that took 2 min 28 s."""
    from .progress import warn
    from .runner import _duration, busy_cores, estimate, sharing
    from . import sensitivity, strength

    game = exp.game
    steps = [("its cells", *estimate(cell_runs, cores))]
    if exp.sensitivity:
        runs = sensitivity.plan(game, sensitivity.declaration(game), exp.sensitivity, exp.seed, beside(out.parent, "sensitivity") / game.name)
        steps.append(("the readings of unclear rules", *estimate([(spec, o) for _, _, spec, o in runs], cores)))
    if exp.ladder:
        lad = exp.ladder
        runs = [(spec, o) for _, params, folder in strength.report_cases(exp, beside(out.parent, "ladder") / exp.name)
                for _, spec, o in strength.ladder_runs(game, params, lad["bots"], lad["games"], exp.seed, curve=lad["budgets"], out=folder)]
        steps.append(("the ladder", *estimate(runs, cores)))
    for i, t in enumerate(exp.tunes):  # about its budget of new games (its rounds round up), at the rules' speed as written
        params = build(game.params, t["set"], game.name)
        kept = sum(span[1] - span[0] for p in (beside(out.parent, "tune") / f"{exp.name}-{i}").glob("**/parts/games-*.parquet")
                   if (span := part_span(p)))
        if kept < t["budget"]:
            spec = RunSpec(game, params, tuple(game.resolve_bots(list(t["bots"]), params)), t["budget"] - kept, exp.seed, True)
            steps.append((f"how to fix it{f' ({i + 1})' if len(exp.tunes) > 1 else ''}", *estimate([(spec, None)], cores)))
    steps = [(what, games, secs) for what, games, secs in steps if games]
    if not steps:
        return
    busy = busy_cores()
    steps = [(what, games, None if secs is None else sharing(secs, cores, busy)[0]) for what, games, secs in steps]
    known = [secs for _, _, secs in steps if secs is not None]
    total = sum(known)
    if total < 30 and len(known) == len(steps):
        return
    parts = [f"{what} {games:,} games ({'about ' + _duration(secs) if secs is not None else 'time not known yet'})"
             for what, games, secs in steps]
    on = f"on {cores} core{'s' if cores > 1 else ''}{sharing(0, cores, busy)[1]}"
    when = f"about {_duration(total)} {on}" if len(known) == len(steps) else f"more than {_duration(total)} {on}" if known else on
    warn(f"this report plays {sum(g for _, g, _ in steps):,} games, {when}: " + ", ".join(parts))


def _check_report_target(target: Path) -> None:
    """Before any game: the report folder must be simkit's or new (its files are
    checked again, one by one, when the report is written)."""
    from .report import _present, owned_files

    target = Path(target)
    if target.exists() and not target.is_dir():
        raise UserError(f"report = {target} is not a folder")
    ours = owned_files(target)
    for name in ("README.md", "index.html", "report.json"):
        if _present(target / name) and name not in ours:
            raise UserError(f"{target / name} exists and was not written by simkit, or was edited since; "
                            "choose another report folder or move the file")
    _check_writable(target, "report =")


def write_report(result: SweepResult) -> Path:
    """Writes the game's report (:func:`simkit.report.compose`: its declared questions'
    answers first, then the game's own sections, if it has a builder) and the overview."""
    import importlib

    from .report import compose, write_index

    game = result.experiment.game
    builder = None
    if game.analysis.report:
        module, _, func = game.analysis.report.partition(":")
        builder = getattr(importlib.import_module(module), func)
    target = result.experiment.report
    compose(result, builder).write(target)
    write_index(target.parent)
    return target
