"""Comparing two rule variants or two bots on the same seeds (common random numbers).

Game *i* of both runs gets the same seed, so the two runs see the same dice as far as
their play allows, and each metric's difference is estimated from paired games: Tango's
score interval and the score test it inverts (McNemar's, uncorrected) for win/lose, a
paired t for numbers; each test is significant exactly when its interval excludes 0. The same data analysed as
two independent samples show how many more games an unpaired design would need.

Every seat is compared (or one, with ``seat``; a game's own columns, such as who took the
game or its length, once for the game), or the seats of each value of one of their columns
(``by="first"``: Ufo.O's first player and the other), or every bot (``by="bot"``: the rows of
each bot of the table, averaged over its seats in each game, so that with rotated seats
the answer to "does variant B change who wins?" is one table). Each row also gives the
ratio B / A (a ratio of totals over the same games, with a delta-method interval that
keeps the pairing), A and B each with their own interval, and the p-values of all rows
are Holm-adjusted together.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from .errors import UserError
from .game import GameSpec
from .runner import RunSpec, run_many
from .fmt import fmt_p
from .stats import (Difference, Interval, diff_independent, games_for_t, holm_adjusted, independent_numeric, mean_interval, paired_binary, paired_numeric,
                    ratio_estimate, wilson)


@dataclasses.dataclass(frozen=True)
class MetricComparison:
    metric: str
    binary: bool
    a: float
    b: float
    paired: Difference
    independent: Difference
    agreement: float | None  # binary metrics: share of games with the same outcome
    n: int
    group: str = "seat 1"  # the seat or bot compared
    p_holm: float = float("nan")  # p-value Holm-adjusted over every row of the comparison
    a_ci: Interval | None = None  # A and B with their own 95% intervals (Wilson's for a rate)
    b_ci: Interval | None = None
    ratio_ci: Interval | None = None  # B / A, paired (delta method on the games); None where A is 0 or a value negative
    t_needs: int = 0  # numeric metrics: the games the paired t interval needs, by the differences' skewness

    @property
    def too_skewed(self) -> bool:
        """A numeric metric whose paired differences are too skewed for a t test on these games."""
        return not self.binary and self.n < self.t_needs

    @property
    def ratio(self) -> float:
        """B / A (nan when A is 0 or either is negative)."""
        return self.b / self.a if self.a > 0 and self.b >= 0 else float("nan")

    @property
    def games_ratio(self) -> float:
        """How many times more games two independent runs would need for the paired precision."""
        wp = (self.paired.hi - self.paired.lo) / 2
        wi = (self.independent.hi - self.independent.lo) / 2
        if not (wp > 0 and np.isfinite(wi)):
            return float("nan")
        return (wi / wp) ** 2


@dataclasses.dataclass
class Comparison:
    game: GameSpec
    label_a: str
    label_b: str
    seed: int
    n_games: int
    seat: int | None  # the one seat compared, or None: every seat (or every bot)
    metrics: list[MetricComparison]
    frames: tuple[pl.DataFrame, pl.DataFrame]


def describe_side(params_overrides: dict[str, Any], bots: list[str]) -> str:
    sets = " ".join(f"{k}={v}" for k, v in params_overrides.items())
    return (sets + " " if sets else "") + "bots " + ",".join(bots)


def compare(
    game: GameSpec,
    spec_a: RunSpec,
    spec_b: RunSpec,
    *,
    label_a: str = "A",
    label_b: str = "B",
    seat: int | None = None,
    by: str = "seat",
    jobs: int = 1,
    out: Path | None = None,
    progress: bool = True,
    metrics: list[str] | None = None,
) -> Comparison:
    """Plays both variants on the same seeds and compares each metric for every seat
    (``by="seat"``; only ``seat`` if given) or every bot (``by="bot"``)."""
    if spec_a.n_games != spec_b.n_games or spec_a.seed != spec_b.seed:
        raise UserError("a comparison plays both variants on the same games: same -n and --seed")
    per_seat = [c for c in game.columns if c not in game.game_columns and c not in metrics_of(game, metrics)]
    if by not in ("seat", "bot") and by not in per_seat:
        raise UserError(f"--by {by}: compare by seat, by bot, or by a column of each seat's own: {', '.join(per_seat)}")
    if by != "seat" and seat is not None:
        raise UserError(f"--seat and {'--by-bot' if by == 'bot' else '--by'} contradict each other: compare one seat, or every group")
    seats = min(game.seats(spec_a.params), game.seats(spec_b.params))
    if seat is not None and not 1 <= seat <= seats:
        raise UserError(f"--seat {seat} does not exist in both variants (seats are 1..{seats})")
    if by == "bot":
        names_a = sorted({b.name for b in spec_a.bots})
        if names_a != sorted({b.name for b in spec_b.bots}):
            raise UserError("--by-bot compares each bot of the table: both variants need the same bots (leave out --by-bot to compare each seat when the bots differ)")
    outs = (out / "a", out / "b") if out else (None, None)
    res_a, res_b = run_many([(spec_a, outs[0]), (spec_b, outs[1])], jobs=jobs, progress=progress, label=f"{game.name} compare")
    if by == "bot":
        groups = [(f"bot {name}", pl.col("bot").cast(pl.Utf8) == name) for name in names_a]
    elif by != "seat":  # e.g. Ufo.O's "first": the first player of each game, and the other
        groups = [(f"{by}={_text(v)}", pl.col(by) == v) for v in sorted(res_a.frame[by].unique().to_list())]
    else:
        groups = [(f"seat {k}", pl.col("seat") == k) for k in (range(1, seats + 1) if seat is None else [seat])]
    names = metrics_of(game, metrics)
    # A game's own columns (who took the game, its length) hold one value for all its seats:
    # compared once, not once per seat (each copy also counted in Holm's family).
    shared = [n for n in names if n in game.game_columns] if len(groups) > 1 else []
    if shared:
        groups = [("the game", pl.col("seat") == 1, shared)] + [(label, cond, [n for n in names if n not in shared]) for label, cond in groups]
    else:
        groups = [(label, cond, names) for label, cond in groups]
    results = []
    for label, cond, wanted in groups:
        fa = _per_game(res_a.frame.filter(cond))
        fb = _per_game(res_b.frame.filter(cond))
        if not np.array_equal(fa["game_index"].to_numpy(), fb["game_index"].to_numpy()):
            if by not in ("seat", "bot"):
                raise UserError(f"--by {by}: {label} is not in every game of both variants, so its games cannot be paired; "
                                "choose a column that every game holds each value of (such as Ufo.O's first)")
            raise AssertionError("paired runs must share their games")
        for name in wanted:
            if name not in fa.columns or name not in fb.columns:
                continue
            results.append(_metric(name, fa[name].to_numpy(), fb[name].to_numpy(), label))
    adjusted = holm_adjusted([m.paired.p_value for m in results]) if results else []
    results = [dataclasses.replace(m, p_holm=float(p)) for m, p in zip(results, adjusted)]
    return Comparison(game, label_a, label_b, spec_a.seed, spec_a.n_games, seat, results, (res_a.frame, res_b.frame))


def metrics_of(game: GameSpec, metrics: list[str] | None) -> list[str]:
    """The columns compared: those asked for, or won and the game's main numbers."""
    return list(dict.fromkeys(metrics or ["won", *game.analysis.compare_metrics, *game.analysis.summary_means]))


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _per_game(frame: pl.DataFrame) -> pl.DataFrame:
    """One row per game: a group holding one seat per game keeps its values (and dtypes);
    a bot on several seats of a game is averaged over them."""
    frame = frame.sort("game_index", "seat")
    if frame["game_index"].n_unique() == frame.height:
        return frame
    numeric = [c for c, t in frame.schema.items() if c not in ("game_index", "seat", "seed") and (t.is_numeric() or t == pl.Boolean)]
    return frame.group_by("game_index", maintain_order=True).agg([pl.col(c).cast(pl.Float64).mean() for c in numeric])


def _metric(name: str, a: np.ndarray, b: np.ndarray, group: str) -> MetricComparison:
    binary = a.dtype == np.bool_ and b.dtype == np.bool_
    fa, fb = a.astype(np.float64), b.astype(np.float64)
    if binary:
        pr = paired_binary(b, a)  # B - A
        ind = diff_independent(int(b.sum()), len(b), int(a.sum()), len(a))
        agreement, a_ci, b_ci = pr.agreement, wilson(int(a.sum()), len(a)), wilson(int(b.sum()), len(b))
    else:
        pr = paired_numeric(fb, fa)
        ind = independent_numeric(fb, fa)
        agreement, a_ci, b_ci = float(np.mean(a == b)), mean_interval(fa), mean_interval(fb)
    # B / A as a ratio of totals over the same games: its interval keeps the pairing
    ratio = ratio_estimate([(1.0, fb, fa)]) if fa.sum() > 0 and (fa >= 0).all() and (fb >= 0).all() else None
    return MetricComparison(name, binary, float(fa.mean()), float(fb.mean()), pr, ind, agreement, len(a), group,
                            a_ci=a_ci, b_ci=b_ci, ratio_ci=ratio, t_needs=0 if binary else games_for_t(fb - fa))


def rows(c: Comparison) -> list[dict[str, str]]:
    """The comparison as table rows (B minus A)."""
    out = []
    groups = {m.group for m in c.metrics}
    for m in c.metrics:
        rate = m.binary or (m.metric in ("won", "win_share") and 0 <= m.a <= 1 and 0 <= m.b <= 1)
        fmt = (lambda x: f"{100 * x:.2f}%") if rate else (lambda x: f"{x:.3f}")
        bounds = (lambda ci: f" [{100 * ci.lo:.2f}, {100 * ci.hi:.2f}]") if rate else (lambda ci: f" [{ci.lo:.3f}, {ci.hi:.3f}]")
        dfmt = (lambda x: f"{100 * x:+.2f}") if rate else (lambda x: f"{x:+.3f}")
        p = m.paired
        row = {"group" if any("=" in g for g in groups) else "seat or bot": m.group} if len(groups) > 1 else {}
        out.append({
            **row,
            "metric": m.metric + (" (points)" if rate else ""),
            "A": fmt(m.a) + (bounds(m.a_ci) if m.a_ci else ""),
            "B": fmt(m.b) + (bounds(m.b_ci) if m.b_ci else ""),
            "B - A [95% CI, paired]": f"{dfmt(p.estimate)} [{dfmt(p.lo)}, {dfmt(p.hi)}]",
            "B / A": (f"{m.ratio:.3f} [{m.ratio_ci.lo:.3f}, {m.ratio_ci.hi:.3f}]" if m.ratio_ci and np.isfinite(m.ratio_ci.lo)
                      else f"{m.ratio:.3f}" if np.isfinite(m.ratio) else "-"),
            "p": fmt_p(p.p_value, 3) + (" (score)" if m.binary else " (paired t)"),
            "significant (Holm)": f"skewed: needs {m.t_needs:,}" if m.too_skewed else "yes" if m.p_holm < 0.05 else "no",
            "same outcome": f"{100 * m.agreement:.1f}%" if m.agreement is not None else "",
            "independent CI": f"[{dfmt(m.independent.lo)}, {dfmt(m.independent.hi)}]",
            "games saved": f"{m.games_ratio:.1f}x" if np.isfinite(m.games_ratio) else "-",
        })
    return out


def data(c: Comparison) -> list[dict]:
    """The comparison as numbers (B minus A; rates as fractions), for --format json/csv/parquet."""
    def num(x: float | None) -> float | None:
        return float(x) if x is not None and np.isfinite(x) else None

    return [{
        "group": m.group, "metric": m.metric, "games": m.n, "a": num(m.a), "b": num(m.b),
        "difference": num(m.paired.estimate), "lo": num(m.paired.lo), "hi": num(m.paired.hi),
        "p": num(m.paired.p_value), "test": "score" if m.binary else "paired t", "p_holm": num(m.p_holm), "t_needs": m.t_needs or None,
        "a_lo": num(m.a_ci.lo) if m.a_ci else None, "a_hi": num(m.a_ci.hi) if m.a_ci else None,
        "b_lo": num(m.b_ci.lo) if m.b_ci else None, "b_hi": num(m.b_ci.hi) if m.b_ci else None,
        "ratio": num(m.ratio), "ratio_lo": num(m.ratio_ci.lo) if m.ratio_ci else None,
        "ratio_hi": num(m.ratio_ci.hi) if m.ratio_ci else None, "same_outcome": num(m.agreement),
        "independent_lo": num(m.independent.lo), "independent_hi": num(m.independent.hi), "games_saved": num(m.games_ratio),
    } for m in c.metrics]
