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
import itertools
import json
import re
import time
from pathlib import Path
from typing import Any

import polars as pl

from .datafiles import data_error as _fail
from .datafiles import read
from .errors import UserError
from .games import get
from .params import as_dict, build, describe
from .runner import RunSpec, library_versions, run_many

RESERVED = {"games", "bots", "rotate_seats"}
TOP_KEYS = {"name", "game", "seed", "report", "chunk_size", "fixed", "grid", "description", "title", "sensitivity"}


@dataclasses.dataclass(frozen=True)
class Cell:
    spec: RunSpec
    settings: dict[str, Any]  # the grid values of this cell (parameters, and bots)
    grid: int = 0  # which [[grid]] of the file it comes from

    @property
    def key(self) -> str:
        parts = [f"{k}={'+'.join(v) if isinstance(v, list) else v}" for k, v in self.settings.items()]
        if self.spec.rotate_seats:
            parts.append("rotated")
        return re.sub(r"[^A-Za-z0-9=+_.,-]", "_", ",".join(parts))


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


@dataclasses.dataclass
class SweepResult:
    experiment: Experiment
    frame: pl.DataFrame
    out: Path
    manifest: dict[str, Any]
    jobs: int = 1
    progress: bool = False

    @property
    def sensitivity_runs(self) -> Path:
        """Where the report's sensitivity runs are kept: ``runs/sensitivity`` beside ``runs/sweeps``."""
        return self.out.parent.parent / "sensitivity"


def load(path: Path, games_override: int | None = None) -> Experiment:
    """Reads and validates an experiment file (every cell's parameters are checked)."""
    path = Path(path)
    doc, _ = read(str(path), "experiment file")
    unknown = set(doc) - TOP_KEYS
    if unknown:
        raise _fail(path, "top level", f"unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(TOP_KEYS))}")
    for key in ("name", "game"):
        if not isinstance(doc.get(key), str):
            raise _fail(path, key, "missing or not text")
    game = get(doc["game"])
    seed = doc.get("seed", 0)
    if not isinstance(seed, int) or seed < 0:
        raise _fail(path, "seed", "must be a non-negative integer")
    chunk = doc.get("chunk_size", 10_000)
    if not isinstance(chunk, int) or chunk < 1:
        raise _fail(path, "chunk_size", "must be a positive integer")
    fixed = doc.get("fixed", {})
    if not isinstance(fixed, dict):
        raise _fail(path, "fixed", "must be a table of parameters")
    grids = doc.get("grid")
    if not isinstance(grids, list) or not grids:
        raise _fail(path, "grid", "needs at least one [[grid]] table")
    names = {i.name for i in describe(game.params)}
    cells = []
    for gi, grid in enumerate(grids):
        where = f"grid #{gi + 1}"
        games = games_override or grid.get("games")
        if not isinstance(games, int) or games < 1:
            raise _fail(path, where, "needs games = a positive integer (games per cell)")
        bots_axis = grid.get("bots", [game.default_bot])
        if not isinstance(bots_axis, list) or not bots_axis:
            raise _fail(path, where + ".bots", "must be a list of bots")
        rotate = grid.get("rotate_seats", False)
        axes: dict[str, list] = {}
        for key, values in grid.items():
            if key in RESERVED:
                continue
            if key not in names:
                raise _fail(path, f"{where}.{key}", f"{game.name} has no parameter {key!r}; known: {', '.join(sorted(names))}")
            if not isinstance(values, list) or not values:
                raise _fail(path, f"{where}.{key}", "must be a non-empty list of values")
            axes[key] = values
        for combo in itertools.product(*axes.values(), bots_axis):
            values = dict(zip(axes, combo[:-1]))
            try:
                params = build(game.params, {**fixed, **values}, game.name)
                bot_texts = combo[-1] if isinstance(combo[-1], list) else [combo[-1]]
                bots = tuple(game.resolve_bots(bot_texts, params))
            except UserError as exc:
                raise _fail(path, where, str(exc)) from None
            if game.validate is not None:
                game.validate(params)
            settings = {**values, "bots": [b.name for b in bots] if len(set(b.name for b in bots)) > 1 else bots[0].name}
            cells.append(Cell(RunSpec(game, params, bots, games, seed, bool(rotate)), settings, gi))
    report = doc.get("report")
    sens = doc.get("sensitivity")
    if sens is not None:
        if not isinstance(sens, int) or isinstance(sens, bool) or sens < 1:
            raise _fail(path, "sensitivity", "must be a positive integer (games per cell and reading)")
        if not game.sensitivity:
            raise _fail(path, "sensitivity", f"{game.name} declares no readings (GameSpec.sensitivity)")
        sens = min(sens, games_override) if games_override else sens
    return Experiment(path, doc["name"], game, seed, Path(report) if report else None, chunk, cells, doc.get("description", ""), sens)


def sweep(path: Path, *, jobs: int = 1, games: int | None = None, out_root: Path = Path("runs/sweeps"),
          progress: bool = True, backend: str = "loky", scheduler: str | None = None, report: bool = True) -> SweepResult:
    """Runs every cell of an experiment (resuming finished ones), combines the results
    and, if the file names a report folder, writes the game's report there."""
    exp = load(path, games)
    out = out_root / exp.name
    t0 = time.perf_counter()
    total = sum(c.spec.n_games for c in exp.cells)
    # A cell that two grids share is played once, with the larger number of games.
    unique: dict[str, Cell] = {}
    for c in exp.cells:
        if c.key not in unique or c.spec.n_games > unique[c.key].spec.n_games:
            unique[c.key] = c
    results = run_many([(c.spec, out / key) for key, c in unique.items()], jobs=jobs, backend=backend, scheduler=scheduler,
                       chunk_size=exp.chunk_size, progress=progress, replace_stale=True, label=exp.name)
    by_key = dict(zip(unique, results))
    frames = []
    for cell in exp.cells:
        frame = by_key[cell.key].frame.filter(pl.col("game_index") < cell.spec.n_games)
        bots = cell.settings["bots"]
        frames.append(frame.with_columns(  # every row carries its cell: grid, all parameters, bots
            pl.lit(cell.grid).alias("grid"),
            *[pl.lit(v).alias(k) for k, v in as_dict(cell.spec.params).items() if k not in frame.columns],
            pl.lit(json.dumps(bots) if isinstance(bots, list) else bots).alias("table"),
        ))
    frame = pl.concat(frames, how="diagonal_relaxed")
    manifest = {
        "experiment": str(exp.path),
        "name": exp.name,
        "game": exp.game.name,
        "seed": exp.seed,
        "cells": [{"key": c.key, "grid": c.grid, "settings": c.settings, "games": c.spec.n_games} for c in exp.cells],
        "games": total,
        "wall_time_s": round(time.perf_counter() - t0, 2),
        "libraries": library_versions(),
    }
    out.mkdir(parents=True, exist_ok=True)
    frame.write_parquet(out / "all.parquet")
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, default=str))
    result = SweepResult(exp, frame, out, manifest, jobs, bool(progress))
    if report and exp.report is not None:
        write_report(result)
    return result


def write_report(result: SweepResult) -> Path:
    import importlib

    game = result.experiment.game
    if not game.report:
        raise UserError(f"{game.name} has no report builder")
    module, _, func = game.report.partition(":")
    builder = getattr(importlib.import_module(module), func)
    target = result.experiment.report
    target.mkdir(parents=True, exist_ok=True)
    builder(result, target)
    from .report import write_index

    write_index(target.parent)
    return target
