"""The table ``simkit run`` prints: win rates with intervals, per seat and bot."""

from __future__ import annotations

import polars as pl

from .game import GameSpec
from .fmt import pct
from .stats import Interval, mean_interval_of, wilson


def _mean_of(x: pl.Series) -> Interval:
    """A column's mean with its 95% t interval, from polars' mean and deviation (no copy)."""
    return mean_interval_of(float(x.mean()), float(x.std(ddof=1) or 0.0) if x.len() > 1 else 0.0, x.len())


def summary_data(frame: pl.DataFrame, game: GameSpec) -> list[dict]:
    """One row per (seat, bot) for multi-seat games, per bot for solo games, as numbers:
    games, wins, the win rate with its 95% Wilson interval, and each main column's mean
    with its 95% interval."""
    keys = ["seat", "bot"] if frame["seat"].max() > 1 else ["bot"]
    means = game.analysis.summary_means
    # Where a game can have several winners, each seat's win share beside its win rate (the
    # rates of a run's seats added up to 101% above an answer about shares).
    share = "win_share" in frame.columns and bool((frame["win_share"].cast(pl.Float64) != frame["won"].cast(pl.Float64)).any())
    # Group by group, a few narrow columns at a time: a run of millions of games answers in
    # little memory (a grouped std() gathers every value of every group at once).
    rows = []
    for key in frame.group_by(keys, maintain_order=True).agg(pl.len()).select(keys).iter_rows():
        part = frame.select(*keys, "won", *(["win_share"] if share else []), *means).filter(*[pl.col(k) == v for k, v in zip(keys, key)])
        row: dict = {k: (int(v) if k == "seat" else str(v)) for k, v in zip(keys, key)}
        n, wins = part.height, int(part["won"].sum())
        ci = wilson(wins, n)
        row.update(games=n, wins=wins, win_rate=ci.estimate, win_rate_lo=ci.lo, win_rate_hi=ci.hi)
        if share:  # shared wins: the seat answers are about win shares (k winners: 1/k each)
            m = _mean_of(part["win_share"])
            row.update(win_share=m.estimate, win_share_lo=max(m.lo, 0.0), win_share_hi=min(m.hi, 1.0))
        for col in means:
            m = _mean_of(part[col])
            row.update({f"mean_{col}": m.estimate, f"mean_{col}_lo": m.lo, f"mean_{col}_hi": m.hi})
        rows.append(row)
    rows.sort(key=lambda r: tuple(r[k] for k in keys))
    return rows


MEANS_NOTE = "mean X ± Y: Y is the half width of the mean's 95% interval"


def _per_game_means(frame: pl.DataFrame, game: GameSpec) -> list[str]:
    """The summary's means of the game's own columns (who took the game, its length): the
    same for every seat of a game, so said once, not on each seat's row."""
    return [c for c in game.analysis.summary_means if c in game.game_columns] if frame["seat"].max() > 1 else []


def _mean_text(m: Interval) -> str:
    return f"{m.estimate:.2f} ± {(m.hi - m.lo) / 2:.2f}"  # "± the 95% interval's half width": MEANS_NOTE


def summarize(frame: pl.DataFrame, game: GameSpec) -> list[dict[str, str]]:
    """:func:`summary_data` as the table ``simkit run`` prints."""
    rows = []
    once = _per_game_means(frame, game)
    for d in summary_data(frame, game):
        row = {k: str(d[k]) for k in ("seat", "bot") if k in d}
        row["games"] = f"{d['games']:,}"
        # in percent, as the answer lines under the table give it (it was 0.017 [0.016, 0.019] above "1.75% [1.64, 1.87]")
        row["win rate [95% CI]"] = pct(Interval(d["win_rate"], d["win_rate_lo"], d["win_rate_hi"], d["games"]))
        if "win_share" in d:
            row["win share [95% CI]"] = pct(Interval(d["win_share"], d["win_share_lo"], d["win_share_hi"], d["games"]))
        for col in game.analysis.summary_means:
            if col not in once:
                row[f"mean {col}"] = _mean_text(Interval(d[f"mean_{col}"], d[f"mean_{col}_lo"], d[f"mean_{col}_hi"], d["games"]))
        rows.append(row)
    return rows


def per_game_line(frame: pl.DataFrame, game: GameSpec) -> str | None:
    """The line under the table with the means of the game's own columns, once per game."""
    once = _per_game_means(frame, game)
    if not once:
        return None
    games = frame.filter(pl.col("seat") == 1).select(once)
    return f"per game ({games.height:,}): " + ", ".join(f"mean {col} {_mean_text(_mean_of(games[col]))}" for col in once)
