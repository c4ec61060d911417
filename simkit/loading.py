"""Reading finished runs back: ``simkit.load("runs/ufs-*")``.

Every ``games.parquet`` carries its run's parameters as columns, but two runs with
different seeds, bots or code would still stack silently in a plain
``pl.read_parquet`` of a glob; ``load`` refuses that unless asked (``mix=True``), and
then tells the runs apart with a ``run`` column.
"""

from __future__ import annotations

import glob
import json
from pathlib import Path

import polars as pl

from .errors import UserError


def _files(paths: tuple[str | Path, ...]) -> list[Path]:
    found: list[Path] = []
    for p in paths:
        matches = sorted(glob.glob(str(p))) or [str(p)]
        for m in matches:
            m = Path(m)
            if m.is_dir() and len(matches) > 1 and not (m / "games.parquet").exists():
                continue  # a run a glob matched that has not finished (no games.parquet yet)
            found.append(m / "games.parquet" if m.is_dir() else m)
    missing = [f for f in found if not f.exists()]
    if missing:
        raise UserError(f"{missing[0]}: no such file (give run folders, games.parquet files or globs)")
    if not found:
        raise UserError("no runs given")
    return found


def _identity(path: Path) -> dict:
    for name in ("run.json", "manifest.json"):
        f = path.parent / name
        if f.exists():
            try:
                doc = json.loads(f.read_text())
            except (OSError, ValueError):
                continue
            keys = ("game", "data_version", "params", "bots", "seed", "rotate_seats", "code")
            return {k: doc.get(k) for k in keys if k in doc}
    return {"file": str(path)}


def load(*paths: str | Path, mix: bool = False) -> pl.DataFrame:
    """The games of one run, or of several runs of the same settings split over
    folders. Runs with different settings are refused unless ``mix=True``, which adds a
    ``run`` column (the folder name) to tell them apart."""
    files = _files(paths)
    idents = [_identity(f) for f in files]
    distinct = {json.dumps(i, sort_keys=True) for i in idents}
    if len(distinct) > 1 and not mix:
        a, b = idents[0], next(i for i in idents if i != idents[0])
        differ = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
        raise UserError(f"these runs differ in {', '.join(differ)}: load them one by one, or pass mix=True to keep them apart in a 'run' column")
    frames = []
    for f in files:
        try:
            frame = pl.read_parquet(f, glob=False)
        except Exception as exc:  # noqa: BLE001 - any unreadable file
            raise UserError(f"{f}: cannot be read as a games table ({type(exc).__name__})") from None
        frames.append(frame.with_columns(pl.lit(f.parent.name).alias("run")) if mix else frame)
    frame = pl.concat(frames, how="diagonal_relaxed")
    keys = ["run", "game_index", "seat"] if mix else ["game_index", "seat"]
    if frame.select(keys).is_duplicated().any():
        raise UserError("the same games appear more than once (the same run given twice?)")
    return frame
