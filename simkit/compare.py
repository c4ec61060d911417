"""Comparing two rule variants or two bots on the same seeds (common random numbers).

Game *i* of both runs gets the same seed, so the two runs see the same dice as far as
their play allows, and each metric's difference is estimated from paired games: Tango's
score interval and the score test it inverts (McNemar's, uncorrected) for win/lose, a
paired t for numbers; each test is significant exactly when its interval excludes 0. The same data analysed as
two independent samples show how many more games an unpaired design would need.
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
from .stats import Difference, diff_independent, independent_numeric, paired_binary, paired_numeric


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
    seat: int
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
    seat: int = 0,
    jobs: int = 1,
    out: Path | None = None,
    progress: bool = True,
    metrics: list[str] | None = None,
) -> Comparison:
    if spec_a.n_games != spec_b.n_games or spec_a.seed != spec_b.seed:
        raise UserError("a comparison plays both variants on the same games: same -n and --seed")
    if not 0 <= seat < min(game.seats(spec_a.params), game.seats(spec_b.params)):
        raise UserError(f"--seat {seat} does not exist in both variants")
    outs = (out / "a", out / "b") if out else (None, None)
    res_a, res_b = run_many([(spec_a, outs[0]), (spec_b, outs[1])], jobs=jobs, progress=progress, label=f"{game.name} compare")
    fa = res_a.frame.filter(pl.col("seat") == seat)
    fb = res_b.frame.filter(pl.col("seat") == seat)
    if not np.array_equal(fa["seed"].to_numpy(), fb["seed"].to_numpy()):
        raise AssertionError("paired runs must share their seeds")
    names = metrics or ["won", *game.compare_metrics, *game.summary_means]
    results = []
    for name in dict.fromkeys(names):
        if name not in fa.columns or name not in fb.columns:
            continue
        a = fa[name].to_numpy()
        b = fb[name].to_numpy()
        if a.dtype == np.bool_:
            pr = paired_binary(b, a)  # B - A
            ind = diff_independent(int(b.sum()), len(b), int(a.sum()), len(a))
            results.append(MetricComparison(name, True, float(a.mean()), float(b.mean()), pr, ind, pr.agreement, len(a)))
        else:
            a = a.astype(np.float64)
            b = b.astype(np.float64)
            pr = paired_numeric(b, a)
            ind = independent_numeric(b, a)
            results.append(MetricComparison(name, False, float(a.mean()), float(b.mean()), pr, ind, float(np.mean(a == b)), len(a)))
    return Comparison(game, label_a, label_b, spec_a.seed, spec_a.n_games, seat, results, (res_a.frame, res_b.frame))


def rows(c: Comparison) -> list[dict[str, str]]:
    """The comparison as table rows (B minus A)."""
    out = []
    for m in c.metrics:
        fmt = (lambda x: f"{100 * x:.2f}%") if m.binary else (lambda x: f"{x:.3f}")
        dfmt = (lambda x: f"{100 * x:+.2f}") if m.binary else (lambda x: f"{x:+.3f}")
        p = m.paired
        out.append({
            "metric": m.metric + (" (points)" if m.binary else ""),
            "A": fmt(m.a),
            "B": fmt(m.b),
            "B - A [95% CI, paired]": f"{dfmt(p.estimate)} [{dfmt(p.lo)}, {dfmt(p.hi)}]",
            "p": fmt_p(p.p_value, 3) + (" (score)" if m.binary else " (paired t)"),
            "significant": "yes" if p.significant else "no",
            "same outcome": f"{100 * m.agreement:.1f}%" if m.agreement is not None else "",
            "independent CI": f"[{dfmt(m.independent.lo)}, {dfmt(m.independent.hi)}]",
            "games saved": f"{m.games_ratio:.1f}x" if np.isfinite(m.games_ratio) else "-",
        })
    return out
