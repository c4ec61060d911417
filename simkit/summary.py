"""The table ``simkit run`` prints: win rates with intervals, per seat and bot."""

from __future__ import annotations

import numpy as np
import polars as pl

from .game import GameSpec
from .stats import mean_interval, wilson


def summarize(frame: pl.DataFrame, game: GameSpec) -> list[dict[str, str]]:
    """One row per (seat, bot) for multi-seat games, per bot for solo games."""
    keys = ["seat", "bot"] if frame["seat"].max() > 0 else ["bot"]
    rows = []
    for key, part in frame.group_by(keys, maintain_order=True):
        key = key if isinstance(key, tuple) else (key,)
        row = {k: str(v) for k, v in zip(keys, key)}
        won = part["won"].to_numpy()
        ci = wilson(int(won.sum()), len(won))
        row["games"] = f"{len(won):,}"
        row["win rate [95% CI]"] = f"{ci.estimate:.3f} [{ci.lo:.3f}, {ci.hi:.3f}]"
        for col in game.summary_means:
            m = mean_interval(part[col].to_numpy().astype(np.float64))
            row[f"mean {col}"] = f"{m.estimate:.2f} ± {(m.hi - m.lo) / 2:.2f}"
        rows.append(row)
    rows.sort(key=lambda r: tuple(r[k] for k in keys))
    return rows
