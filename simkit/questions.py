"""Balance questions, each defined once: its estimand, its interval, its verdict and the
error rate of that verdict. A game declares which questions it asks (in its
``questions.py``, named by ``GameSpec.analysis.questions``) with a few lines: which
columns, which seats or sides, which setting. Reports, ``simkit run`` and ``simkit tune``
all answer the same declarations, so a figure means the same thing everywhere.

Every verdict is one of three kinds, and never a claim from a lack of evidence:

* **shown** (a difference): a test at level ``alpha``, with Holm's correction over the
  family the answer names (the seats of one game, the cards of one deck);
* **equivalent within ±m** (no difference that matters): every estimate's
  ``1 - 2 alpha`` interval lies inside ``(-m, m)``; an intersection-union test, so its
  level is ``alpha`` with no correction (Berger 1982);
* **not shown**: neither; the sentence says how large a difference is still possible.

The error rates are verified by simulation on synthetic data with a known truth in
``tests/test_questions.py``. Everything here is a pure function of polars frames.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
from statistics import NormalDist
from typing import Any, Iterator, Sequence

import numpy as np
import polars as pl

from .stats import bernstein_half_width, bernstein_p, games_for_t, holm_adjusted, paired_binary, paired_numeric, wilson

ALPHA = 0.05
_NORMAL = NormalDist()
Z95 = _NORMAL.inv_cdf(0.975)

SHOWN, EQUIVALENT, NOT_SHOWN = "shown", "equivalent", "not shown"


# ---- answers -------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Estimate:
    """One named figure with its 95% interval (``unit``: ``rate`` prints as a percentage,
    ``pts`` as signed points of a rate, ``num`` plainly)."""

    label: str
    estimate: float
    lo: float
    hi: float
    unit: str = "rate"
    p: float | None = None  # two-sided p-value against no difference (Holm-adjusted where a family is named)
    n: int | None = None
    verdict: str = ""  # SHOWN / EQUIVALENT / NOT_SHOWN for a contrast

    def text(self) -> str:
        return fmt_interval(self.estimate, self.lo, self.hi, self.unit)

    @property
    def se(self) -> float:
        """The standard error behind the normal 95% interval."""
        return (self.hi - self.lo) / (2 * Z95)

    def as_dict(self) -> dict:
        """As numbers, to 10 significant digits: sums in another order (parallel
        aggregation) change the last bits, and a saved report should not."""
        return {k: (None if not math.isfinite(v) else float(f"{v:.10g}")) if isinstance(v, float) else v
                for k, v in dataclasses.asdict(self).items()}


@dataclasses.dataclass(frozen=True)
class Answer:
    """A question's answer on one group of games: the plain sentence (number, interval,
    verdict), the verdict, the estimand in words, and the evidence as numbers."""

    question: str  # the question's id
    title: str  # the question as a designer asks it
    group: dict  # the cell or group of games answered (e.g. {"players": 2})
    sentence: str
    verdict: str  # SHOWN, EQUIVALENT or NOT_SHOWN
    estimand: str
    method: str
    estimates: tuple[Estimate, ...]
    games: int

    def as_dict(self) -> dict:
        return {"question": self.question, "title": self.title, "group": self.group, "sentence": self.sentence,
                "verdict": self.verdict, "estimand": self.estimand, "method": self.method, "games": self.games,
                "estimates": [e.as_dict() for e in self.estimates]}

    def rows(self) -> list[dict[str, str]]:
        """The evidence as a table a report prints."""
        return [{"": e.label, "estimate [95% CI, its own]": e.text(), "p (adjusted)": "" if e.p is None else fmt_p(e.p),
                 "verdict": e.verdict} for e in self.estimates]


def fmt_interval(est: float, lo: float, hi: float, unit: str = "rate") -> str:
    if not all(map(math.isfinite, (est, lo, hi))):
        return "n/a"
    if unit == "rate":
        digits = 2 if hi - lo < 0.02 or est < 0.01 else 1
        return f"{100 * est:.{digits}f}% [{100 * lo:.{digits}f}, {100 * hi:.{digits}f}]"
    if unit == "pts":
        pts = [round(100 * x, 1) + 0.0 for x in (est, lo, hi)]  # + 0.0: no "-0.0"
        return f"{pts[0]:+.1f} points [{pts[1]:+.1f}, {pts[2]:+.1f}]"
    return f"{est:.2f} [{lo:.2f}, {hi:.2f}]"


def fmt_p(p: float) -> str:
    if p is None or not math.isfinite(p):
        return ""
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def _pts(x: float) -> str:
    return f"{100 * x:.1f}"


def _pct(x: float) -> str:
    """A level as a percentage: 0.05 -> '5%', 0.9 -> '90%'."""
    return f"{100 * x:.3g}%"


# ---- the core estimators (pure functions of arrays) ----------------------------------------
def contrast_verdict(est: float, se: float, margin: float | None, p_adj: float, alpha: float = ALPHA) -> str:
    """SHOWN when the (adjusted) test rejects no difference; EQUIVALENT when the
    ``1 - 2 alpha`` interval lies inside ``(-margin, margin)``; else NOT_SHOWN."""
    if p_adj < alpha:
        return SHOWN
    if margin is not None and equivalent(est, se, margin, alpha):
        return EQUIVALENT
    return NOT_SHOWN


def equivalent(est: float, se: float, margin: float, alpha: float = ALPHA) -> bool:
    """The ``1 - 2 alpha`` interval lies inside ``(-margin, margin)`` (two one-sided tests at
    ``alpha``); a standard error of 0 or unknown is no evidence."""
    if not (se > 0 and math.isfinite(se)):
        return False
    z = _NORMAL.inv_cdf(1 - alpha)
    return est - z * se > -margin and est + z * se < margin


def mean_se(x: np.ndarray) -> tuple[float, float]:
    """Mean of independent values and its standard error (``inf`` with one value, ``nan``
    with none)."""
    n = x.size
    if n == 0:
        return float("nan"), float("nan")
    m = float(x.mean())
    if n > 1 and x.min() == x.max():
        return m, 0.0  # (the float sum leaves a spread of about 1e-20, which tested as certain)
    return m, (float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else float("inf"))


def mean_se_bounded(x: np.ndarray, width: float, alpha: float = ALPHA) -> tuple[float, float]:
    """:func:`mean_se` of values that lie in a range ``width`` wide, except when every value
    is the same (no spread, a standard error of 0): then an exact bound stands in. If a
    share q of games could go otherwise, all n alike has chance (1 - q)^n, at most
    ``alpha`` once q >= 1 - alpha^(1/n) (about 3/n: the rule of three), and each such game
    moves the mean by at most ``width``. The standard error returned puts that bound at
    z(1 - alpha) standard errors, the half-width an equivalence test keeps inside its
    margin; the 95% interval and the test of a difference, at 1.96 of them, are then a
    little wider than the bound (conservative). So a handful of games that ended alike
    shows nothing, and thousands do (a side that never won in 3,000 games: its gap of 33
    points was "not shown"; a seat that won all of them)."""
    m, se = mean_se(x)
    if se == 0:
        se = width * (1 - alpha ** (1 / x.size)) / _NORMAL.inv_cdf(1 - alpha)
    return m, se


def two_sided_p(est: float, se: float) -> float:
    """Normal two-sided p-value of ``est`` against 0; ``nan`` for an estimate that is not a
    number (an effect the design cannot identify: left out of Holm's family), 1 when the
    standard error is 0 or unknown: games that all ended alike (a handful of them) are no
    evidence of anything."""
    if not math.isfinite(est):
        return float("nan")
    if not math.isfinite(se) or se <= 0:
        return 1.0
    return math.erfc(abs(est) / se / math.sqrt(2))  # 2 * (1 - Phi(|z|))


# The normal interval of a mean of bounded values is trusted once every column of a
# games x columns table of values in [0, 1] sums to ENOUGH and so do their complements
# (the success-failure condition; wins and games not won, for 0/1). Short of that it was
# wrong far more often than it said: a seat that won 8 of 10 two-player games was
# "favoured", and 4 fair seats of 100 games with 2% wins each were unfair 26% of the time.
ENOUGH = 10


def normal_holds(columns: np.ndarray) -> bool:
    """Whether every column of ``columns`` (games x columns, values in [0, 1]) sums to
    :data:`ENOUGH` and so do its complements."""
    total = columns.sum(axis=0)
    return bool(total.min() >= ENOUGH and (columns.shape[0] - total).min() >= ENOUGH)


# The method an answer names where the normal interval is not trusted (:func:`normal_holds`).
BOUNDS_METHOD = "bounds valid at any number of games (empirical Bernstein; the rule of three where all games ended alike)"


def fewest(columns: np.ndarray) -> tuple[int, float, bool]:
    """The column with the smallest sum or sum of complements, that sum, and whether it
    is the complements' (games not won)."""
    total = columns.sum(axis=0)
    rest = columns.shape[0] - total
    k_won, k_not = int(total.argmin()), int(rest.argmin())
    if total[k_won] <= rest[k_not]:
        return k_won, float(total[k_won]), False
    return k_not, float(rest[k_not]), True


@dataclasses.dataclass(frozen=True)
class MeanTest:
    """A mean of bounded values tested against 0: the estimate, the standard error behind
    its 95% interval (``estimate ± 1.96 se``), the raw two-sided p-value, and the
    half-width of its ``1 - 2 alpha`` interval (the equivalence test's)."""

    estimate: float
    se: float
    p: float
    half: float


def mean_test(x: np.ndarray, width: float, normal: bool, alpha: float = ALPHA) -> MeanTest:
    """The mean of ``x`` (values in a range ``width`` wide) against 0: the normal interval
    and test (:func:`mean_se_bounded`) when ``normal`` (see :data:`ENOUGH`) or every value
    is the same, else the empirical Bernstein bound (:func:`bernstein_half_width`)."""
    m, se = mean_se_bounded(x, width, alpha)
    if normal or x.min() == x.max():
        return MeanTest(m, se, two_sided_p(m, se), _NORMAL.inv_cdf(1 - alpha) * se if se > 0 else float("nan"))
    return MeanTest(m, bernstein_half_width(x, width, 0.05) / Z95, bernstein_p(x, width), bernstein_half_width(x, width, 2 * alpha))


def deviations_from_mean(matrix: np.ndarray, alpha: float = ALPHA) -> list[MeanTest]:
    """Per column k of ``matrix`` (games x positions, values in [0, 1]: a win or a win
    share): the mean of ``x_gk - mean_j x_gj`` (how far position k is from the average
    position, within ±(1 - 1/positions)) tested against 0 by :func:`mean_test` over games
    (games are independent; positions of one game are not)."""
    centred = matrix - matrix.mean(axis=1, keepdims=True)
    width = 2 * (1 - 1 / matrix.shape[1])
    normal = normal_holds(matrix)
    return [mean_test(centred[:, k], width, normal, alpha) for k in range(matrix.shape[1])]


def adjusted_effects(y: np.ndarray, holds: np.ndarray, strata: np.ndarray, clusters: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Effects of holding each item on ``y`` relative to an average item, adjusted for the
    strata and, when a row holds several items, for the others it holds: least squares of
    ``y ~ stratum + sum_c b_c holds_c`` with the ``b`` centred on their holder-weighted mean,
    and standard errors the larger of the cluster-robust (CR1, by game) and the
    conventional one. ``holds``: rows x items, 0/1.

    Every item has its own column. When every row of a stratum holds the same number of
    items the design is rank-deficient (the items sum to a constant of the stratum), but
    the centred effects are estimable and a generalised inverse gives them; when some rows
    hold fewer items (or none) the columns are identified and rows holding none are not
    mistaken for holders of some item. An effect that the design cannot identify (e.g.
    items dealt one from each of two suits, compared across suits) is ``nan``."""
    n, k = holds.shape
    _, s_idx = np.unique(strata, return_inverse=True)
    S = np.zeros((n, s_idx.max() + 1))
    S[np.arange(n), s_idx] = 1.0
    X = np.hstack([S, holds.astype(float)])
    XtX = X.T @ X
    vals, vecs = np.linalg.eigh(XtX)
    keep = vals > vals.max() * 1e-10
    rank = int(keep.sum())
    XtX_inv = (vecs[:, keep] / vals[keep]) @ vecs[:, keep].T  # Moore-Penrose inverse
    beta = XtX_inv @ (X.T @ y)
    resid = y - X @ beta
    _, c_idx = np.unique(clusters, return_inverse=True)
    G = c_idx.max() + 1
    scores = np.zeros((G, X.shape[1]))
    np.add.at(scores, c_idx, X * resid[:, None])
    meat = scores.T @ scores
    corr = G / max(G - 1, 1) * (n - 1) / max(n - rank, 1)
    cov = corr * XtX_inv @ meat @ XtX_inv
    # The robust variance of an item comes from its holders' residuals alone: an item
    # whose holders (nearly) never won has almost none, and was "shown" to pay less 64%
    # of the time in fair games with rare wins. The conventional variance pools every
    # row's; the larger of the two is kept (Angrist & Pischke 2009, 8.2.3).
    conventional = float(resid @ resid) / max(n - rank, 1) * XtX_inv
    # b_c minus the holder-weighted mean of the b: L maps beta to it
    w = holds.sum(axis=0).astype(float)
    w = w / w.sum()
    ns = S.shape[1]
    L = np.zeros((k, X.shape[1]))
    L[:, ns:] = np.eye(k) - w[None, :]
    eff = L @ beta
    se = np.sqrt(np.clip(np.maximum(np.einsum("ij,jk,ik->i", L, cov, L), np.einsum("ij,jk,ik->i", L, conventional, L)), 0, None))
    null = vecs[:, ~keep]  # directions the data cannot tell apart
    if null.size:
        lost = np.abs(L @ null).max(axis=1) > 1e-6
        eff[lost] = np.nan
        se[lost] = np.nan
    return eff, se


# ---- the verdict rules (pure functions of arrays; tests/test_questions.py simulates them) ----
@dataclasses.dataclass(frozen=True)
class Tested:
    """One contrast as a verdict reads it: the estimate, its standard error, the two-sided
    p-value (adjusted over the family it was tested in) and the verdict."""

    estimate: float
    se: float
    p: float
    verdict: str


def overall(verdicts: Sequence[str]) -> str:
    """A family's verdict: SHOWN when some contrast is shown, EQUIVALENT when every one is
    (intersection-union), otherwise NOT_SHOWN."""
    if any(v == SHOWN for v in verdicts):
        return SHOWN
    if verdicts and all(v == EQUIVALENT for v in verdicts):
        return EQUIVALENT
    return NOT_SHOWN


def _worst_deviation(est: list[Estimate]) -> float:
    """The largest deviation an answer's intervals leave possible: no position can be more
    than 1 - 1/positions from the average (a handful of games that ended alike leaves a
    bound wider than that)."""
    return min(max(max(abs(e.lo), abs(e.hi)) for e in est), 1 - 1 / len(est))


def _verdict(t: MeanTest, p_adj: float, margin: float | None, alpha: float) -> str:
    if p_adj < alpha:
        return SHOWN
    if margin is not None and math.isfinite(t.half) and abs(t.estimate) + t.half < margin:
        return EQUIVALENT
    return NOT_SHOWN


def _judged(tests: list[MeanTest], p_adj, margin: float | None, alpha: float) -> list[Tested]:
    return [Tested(t.estimate, t.se, float(p), _verdict(t, p, margin, alpha)) for t, p in zip(tests, p_adj)]


def judge_deviations(matrix: np.ndarray, margin: float | None, alpha: float = ALPHA) -> tuple[list[Tested], int]:
    """Each position's deviation from the average position (:func:`deviations_from_mean`)
    judged with Holm over the positions, and the size of that family: the number of
    positions, or 1 with two positions (their deviations are one hypothesis, ``d_2 = -d_1``)."""
    devs = deviations_from_mean(matrix, alpha)
    raw = np.array([d.p for d in devs], dtype=float)
    family = len(devs) if len(devs) > 2 else 1
    return _judged(devs, holm_adjusted(raw) if family > 1 else raw, margin, alpha), family


def judge_sides(pa: np.ndarray, pb: np.ndarray, ga: np.ndarray, gb: np.ndarray, margin: float | None,
                alpha: float = ALPHA) -> list[Tested]:
    """Per player (``pa - pb``: per game, the mean ``won`` of side A's seats minus side B's)
    and per side (``ga - gb``: whether some seat of A won minus some seat of B), Holm over
    the two; each by :func:`mean_test`."""
    tests = [mean_test(pa - pb, 2.0, normal_holds(np.column_stack([pa, pb])), alpha),
             mean_test(ga - gb, 2.0, normal_holds(np.column_stack([ga, gb])), alpha)]
    return _judged(tests, holm_adjusted([t.p for t in tests]), margin, alpha)


def judge_effects(y: np.ndarray, holds: np.ndarray, strata: np.ndarray, clusters: np.ndarray, margin: float | None,
                  alpha: float = ALPHA) -> list[Tested]:
    """Each item's adjusted effect (:func:`adjusted_effects`) judged with Holm over the items."""
    eff, se = adjusted_effects(y, holds, strata, clusters)
    p_adj = holm_adjusted([two_sided_p(e, s) for e, s in zip(eff, se)])
    return [Tested(float(e), float(s), float(p), contrast_verdict(e, s, margin, p, alpha)) for e, s, p in zip(eff, se, p_adj)]


def judge_step(later: np.ndarray, earlier: np.ndarray, alpha: float = ALPHA):
    """Whether the later level is harder than the earlier one, on the same games (0/1 wins):
    the paired difference ``later - earlier`` (Tango's interval) and McNemar's score test,
    one-sided (SHOWN when the later level's win rate is significantly lower)."""
    d = paired_binary(later, earlier)
    if not math.isfinite(d.p_value):
        one_sided = float("nan")
    else:
        one_sided = d.p_value / 2 if d.estimate < 0 else 1 - d.p_value / 2
    se = (d.hi - d.lo) / (2 * Z95)
    return d, Tested(d.estimate, se, float(one_sided), SHOWN if one_sided < alpha else NOT_SHOWN)


def judge_variant(b: np.ndarray, a: np.ndarray, margin: float | None, alpha: float = ALPHA):
    """``b - a`` on the same games: Tango's interval and McNemar's score test for a 0/1 metric,
    the paired t interval and test otherwise. SHOWN when the test rejects no change at
    ``alpha``; EQUIVALENT (0/1 metric with a margin) when the same interval at level
    ``1 - 2 alpha`` lies inside ``(-margin, margin)`` (two one-sided tests); else NOT_SHOWN,
    as for differences too skewed for their number (:func:`~simkit.stats.games_for_t`).
    Returns the 95% difference, the verdict and whether the metric is 0/1."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    binary = set(np.unique(np.concatenate([a, b]))) <= {0.0, 1.0}
    pair = (lambda level: paired_binary(b.astype(int), a.astype(int), level)) if binary else \
        (lambda level: paired_numeric(b, a, level))
    d = pair(0.95)
    se = (d.hi - d.lo) / (2 * Z95)
    if not binary and b.size < games_for_t(b - a):
        verdict = NOT_SHOWN
    elif d.p_value < alpha:
        verdict = SHOWN
    elif binary and margin is not None and (eq := pair(1 - 2 * alpha)).lo > -margin and eq.hi < margin:
        verdict = EQUIVALENT
    else:
        verdict = NOT_SHOWN
    return d, Tested(d.estimate, se, float(d.p_value), verdict), binary


# ---- the questions --------------------------------------------------------------------------
Where = dict[str, Any]


def _filter(frame: pl.DataFrame, where: Where | None) -> pl.DataFrame:
    for k, v in (where or {}).items():
        if k not in frame.columns:
            return frame.clear()
        frame = frame.filter(pl.col(k).is_in(list(v)) if isinstance(v, (list, tuple)) else pl.col(k) == v)
    return frame


def _groups(frame: pl.DataFrame, by: Sequence[str]):
    # select(...) keeps a setting's constant column unmaterialized (frame[c] would not)
    by = [c for c in by if c in frame.columns and frame.select(pl.col(c).n_unique()).item() > 1]
    if not by:
        yield {}, frame
        return
    for key, part in frame.group_by(by, maintain_order=False):
        yield dict(zip(by, key if isinstance(key, tuple) else (key,))), part


def _group_text(group: dict) -> str:
    """'With 2 players, ' for {"players": 2}; settings otherwise."""
    if not group:
        return ""
    parts = []
    for k, v in sorted(group.items()):
        parts.append(f"{v} players" if k == "players" else f"{k} = {v}")
    return "With " + ", ".join(parts) + ", "


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


@dataclasses.dataclass(frozen=True)
class Question:
    """Base: ``id`` names the question, ``title`` asks it in a designer's words; ``where``
    picks the games it is asked of in a report (column -> value); ``by`` answers it
    separately for each value of these columns (e.g. the player count)."""

    id: str = ""
    title: str = ""
    where: Where | None = None
    by: tuple[str, ...] = ("players",)
    alpha: float = ALPHA

    def applies(self, frame: pl.DataFrame) -> bool:
        return True

    def answer_group(self, frame: pl.DataFrame, group: dict) -> Answer | None:
        raise NotImplementedError

    def answers(self, frame: pl.DataFrame, use_where: bool = True) -> list[Answer]:
        """One answer per group of ``frame`` (games of one cell, or a sweep's frame)."""
        if use_where:
            frame = _filter(frame, self.where)
        if frame.height == 0 or not self.applies(frame):
            return []
        out = []
        for group, part in sorted(_groups(frame, self.by), key=lambda gp: tuple(str(v) for v in gp[0].values())):
            a = self.answer_group(part, group)
            if a is not None:
                out.append(a)
        return out


def bots_fixed_by_seat(frame: pl.DataFrame) -> bool:
    """Whether each seat kept one bot in every game while the seats' bots differ (not
    rotated): a seat's effect and its bot's are then one, and no answer about seats, or
    about bots head to head, can tell them apart."""
    if "bot" not in frame.columns or frame.height == 0:
        return False
    per = frame.group_by("seat").agg(pl.col("bot").n_unique().alias("bots"), pl.col("bot").first().cast(pl.Utf8).alias("first"))
    return bool(per["bots"].max() == 1 and per["first"].n_unique() > 1)


def _per_game_matrix(frame: pl.DataFrame, position: str | pl.Expr, value: str) -> tuple[np.ndarray, list]:
    """Games x positions matrix of ``value`` (one row per game and position)."""
    pos = position if isinstance(position, pl.Expr) else pl.col(position)
    f = frame.select(pl.col("game_index"), pos.alias("_pos"), pl.col(value).cast(pl.Float64).alias("_v"))
    if "run" not in frame.columns and f.height:
        # One run's games: filled in by index, in a matrix of one row per game (a pivot
        # of millions of games takes several times the memory); the same rows, in game order.
        at, hi = f["game_index"].to_numpy(), int(f["game_index"].max())
        if at.min() >= 0 and hi < 2 * f.height:
            codes = f["_pos"].to_numpy()
            positions = np.unique(codes)
            m = np.full((hi + 1, positions.size), np.nan)
            m[at[::-1], np.searchsorted(positions, codes)[::-1]] = f["_v"].to_numpy()[::-1]  # the first row of a pair wins
            return m[~np.isnan(m).any(axis=1)], positions.tolist()
    if "run" in frame.columns:
        f = f.with_columns(frame["run"].alias("_run"))
    positions = sorted(f["_pos"].unique().to_list())
    keys = ["_run", "game_index"] if "_run" in f.columns else ["game_index"]
    wide = f.pivot(on="_pos", index=keys, values="_v", aggregate_function="first").drop_nulls()
    return wide.select([pl.col(str(p)) for p in positions]).to_numpy(), positions


@dataclasses.dataclass(frozen=True)
class SeatFairness(Question):
    """Does any seat (or turn position) win more often than the others?

    Estimand, per position k: ``r_k - mean_j r_j``, its rate of ``value`` (``won``, or
    ``win_share`` where shared wins are split) minus the average position's: the fair
    share. Each game is one observation of the vector of positions (positions of one game
    are dependent, games are not), so the interval is a normal one over games. Verdicts:
    a position is *favoured* or *disfavoured* when its deviation is significant after Holm
    over the positions; the game is *fair within ±margin* when every position's
    ``1 - 2 alpha`` interval lies inside ±margin (intersection-union test); otherwise not
    shown, with the largest deviation still possible."""

    id: str = "seat_fairness"
    title: str = "Does any seat win more often than the others?"
    position: str | Any = "seat"
    position_name: str = "seat"
    names: dict | None = None  # position value -> name ("first player")
    value: str = "won"
    margin: float = 0.02

    def applies(self, frame: pl.DataFrame) -> bool:
        return frame["seat"].max() > 1 and self.value in frame.columns

    def answer_group(self, frame: pl.DataFrame, group: dict) -> Answer | None:
        if isinstance(self.position, str) and self.position == "seat" and bots_fixed_by_seat(frame):
            return None  # a seat's bot is its seat: nothing to say of the seats (simkit run says so)
        matrix, positions = _per_game_matrix(frame, self.position, self.value)
        n = matrix.shape[0]
        if n < 2 or matrix.shape[1] < 2:
            return None
        judged, family = judge_deviations(matrix, self.margin, self.alpha)
        rates = matrix.mean(axis=0)
        fair = float(matrix.mean())
        z, reach = Z95, 1 - 1 / len(positions)  # no position is farther than reach from the average
        est = []
        for k, pos in enumerate(positions):
            t = judged[k]
            est.append(Estimate(f"{self._name(pos)}: {_pts(rates[k])}% (fair share {_pts(fair)}%)", t.estimate,
                                max(t.estimate - z * t.se, -reach), min(t.estimate + z * t.se, reach), "pts", t.p, n, t.verdict))
        shown = [e for e in est if e.verdict == SHOWN]
        what = "win share" if self.value == "win_share" else "win rate"
        lead = _group_text(group)
        # (EFTAIOS: "a fair share of 51.0%" beside six seats read as an error without this)
        several = f" (the average {self.position_name}'s: several can win one game)" if fair > 1 / len(positions) + 0.005 else ""
        if shown:
            top = max(shown, key=lambda e: abs(e.estimate))
            k = est.index(top)
            word = lambda e: "favoured" if e.estimate > 0 else "disfavoured"  # noqa: E731 (not "disfavoured by -6 points")
            sentence = (f"{lead}{self._name(positions[k])} has a {what} of {_pts(rates[k])}% against a fair share of "
                        f"{_pts(fair)}%{several}: {word(top)}, {top.text()} ({self._family(family)}, {_pct(self.alpha)}).")
            also = [f"{self._name(positions[est.index(e)])} {word(e)}, {e.text()}" for e in shown if e is not top]
            if also and family > 1:  # (a run's answer named seat 1 alone where seat 4 was shown too; two are mirrors)
                sentence += f" Also shown: {'; '.join(also)}."
            verdict = SHOWN
        elif all(e.verdict == EQUIVALENT for e in est):
            worst = _worst_deviation(est)
            sentence = (f"{lead}every {self.position_name}'s {what} is within ±{_pts(self.margin)} points of the fair share "
                        f"of {_pts(fair)}%{several} (equivalence, 5%; largest deviation {_pts(max(abs(e.estimate) for e in est))} points, "
                        f"at most {_pts(worst)}).")
            verdict = EQUIVALENT
        else:
            worst = _worst_deviation(est)
            sentence = (f"{lead}no {self.position_name} differs significantly from the fair share of {_pts(fair)}%{several}, but "
                        f"deviations up to {_pts(worst)} points are not ruled out: fairness within ±{_pts(self.margin)} "
                        f"points is not shown ({n:,} games).")
            verdict = NOT_SHOWN
        interval = "normal interval"
        if not normal_holds(matrix):
            k, count, lost = fewest(matrix)
            amount = f"{count:,.0f}" if count == int(count) else f"{count:,.1f}"  # win shares may sum to halves
            won = f"did not win {amount}" if lost else f"won {amount}"
            sentence += (f" Few games: {self._name(positions[k])} {won} of {n:,}, so the intervals are bounds valid at "
                         f"any number of games, but wide (the normal ones need {ENOUGH} wins and {ENOUGH} games not won at "
                         f"every {self.position_name}).")
            interval = BOUNDS_METHOD
        return Answer(self.id, self.title, group, _cap(sentence), verdict,
                      f"per {self.position_name}: its {what} minus the average {self.position_name}'s (the fair share)",
                      f"{interval} over games (each game one vector of {self.position_name}s); {self._family(family)}; "
                      f"fair = every {_pct(1 - 2 * self.alpha)} interval within ±{_pts(self.margin)} points",
                      tuple(est), n)

    def _family(self, family: int) -> str:
        if family > 1:
            return f"Holm over {family} {self.position_name}s"
        return f"one test: two {self.position_name}s' deviations are one hypothesis"

    def _name(self, pos) -> str:
        if self.names and pos in self.names:
            return self.names[pos]
        return f"{self.position_name} {pos}"


def sides_per_game(frame: pl.DataFrame, side: str, sides: tuple) -> pl.DataFrame:
    """Per game that seats both sides: ``pa``/``pb``, the mean of ``won`` over side A's and
    side B's seats, and ``ga``/``gb``, whether some seat of A (of B) won. Plain sums per
    game, not per-game lists: a run of millions of games answers in little memory."""
    a, b = sides
    won = pl.col("won").cast(pl.Float64)
    in_a, in_b = (pl.col(side) == a).cast(pl.Float64), (pl.col(side) == b).cast(pl.Float64)
    sums = per_game_sums(frame, {"wa": won * in_a, "na": in_a, "wb": won * in_b, "nb": in_b})
    keep = (sums["na"] > 0) & (sums["nb"] > 0)
    wa, na, wb, nb = (sums[k][keep] for k in ("wa", "na", "wb", "nb"))
    return pl.DataFrame({"pa": wa / na, "pb": wb / nb, "ga": (wa > 0).astype(np.float64), "gb": (wb > 0).astype(np.float64)})


def per_game_sums(frame: pl.DataFrame, values: dict[str, pl.Expr]) -> dict[str, np.ndarray]:
    """Each expression summed over each game's rows (games in no particular order). One
    run's games (``game_index`` 0 .. n-1) are counted with numpy's bincount, in a few
    arrays of one value per game; a sweep's frame (a ``run`` column) by polars' group_by."""
    if "run" not in frame.columns and frame.height:
        lo, hi = frame.select(pl.col("game_index").min().alias("lo"), pl.col("game_index").max().alias("hi")).row(0)
        if lo >= 0 and hi < 2 * frame.height:
            at = frame["game_index"].to_numpy()
            rows = np.bincount(at, minlength=hi + 1) > 0
            return {k: np.bincount(at, weights=frame.select(e.cast(pl.Float64)).to_series().to_numpy(), minlength=hi + 1)[rows]
                    for k, e in values.items()}
    keys = ["run", "game_index"] if "run" in frame.columns else ["game_index"]
    per = frame.group_by(keys).agg(e.cast(pl.Float64).sum().alias(k) for k, e in values.items())
    return {k: per[k].to_numpy() for k in values}


@dataclasses.dataclass(frozen=True)
class SideBalance(Question):
    """Team games: does one side win more? Asked two ways, each named for its question.

    * **per player**: a seat on side A against a seat on side B: per game, the mean of
      ``won`` over A's seats minus the mean over B's seats (what a player is dealt);
    * **per side**: the share of games some A seat wins minus the share some B seat wins
      (which team takes the game; both can win the same game in some modes).

    Normal intervals over games; each is *shown* at ``alpha`` (two estimands, Holm over
    the two), *balanced within ±margin* by the intersection-union test, or not shown."""

    id: str = "side_balance"
    title: str = "Does one side win more often than the other?"
    side: str = "side"
    sides: tuple[str, str] = ("A", "B")
    names: tuple[str, str] = ("A", "B")  # plural names for sentences ("the humans", "the aliens")
    seat_name: tuple[str, str] = ("a seat on side A", "a seat on side B")
    margin: float = 0.05

    def applies(self, frame: pl.DataFrame) -> bool:
        return self.side in frame.columns and frame["seat"].max() > 1

    def answer_group(self, frame: pl.DataFrame, group: dict) -> Answer | None:
        return self.answer_games(sides_per_game(frame, self.side, self.sides), group)

    def answer_games(self, per: pl.DataFrame, group: dict) -> Answer | None:
        """The answer from :func:`sides_per_game`'s table of the group's games."""
        n = per.height
        if n < 2:
            return None
        pa, pb, ga, gb = (per[c].to_numpy() for c in ("pa", "pb", "ga", "gb"))
        z = Z95
        t1, t2 = judge_sides(pa, pb, ga, gb, self.margin, self.alpha)
        v1, v2 = t1.verdict, t2.verdict
        e1 = Estimate(f"per player: {self.seat_name[0]} wins {_pts(pa.mean())}%, {self.seat_name[1]} {_pts(pb.mean())}%",
                      t1.estimate, max(t1.estimate - z * t1.se, -1.0), min(t1.estimate + z * t1.se, 1.0), "pts", t1.p, n, v1)
        e2 = Estimate(f"per side: {self.names[0]} win {_pts(ga.mean())}% of games, {self.names[1]} {_pts(gb.mean())}%",
                      t2.estimate, max(t2.estimate - z * t2.se, -1.0), min(t2.estimate + z * t2.se, 1.0), "pts", t2.p, n, v2)
        lead = _group_text(group)

        def says(e, v, who_a, who_b):
            if v == SHOWN:
                return f"favours {who_a if e.estimate > 0 else who_b} by {e.text()}"
            if v == EQUIVALENT:
                return f"is balanced within ±{_pts(self.margin)} points ({e.text()}, equivalence)"
            return f"shows no significant difference ({e.text()}), and balance within ±{_pts(self.margin)} points is not shown"

        sentence = (f"{lead}per player, {self.seat_name[0]} wins {_pts(pa.mean())}% and {self.seat_name[1]} {_pts(pb.mean())}%: "
                    f"the game {says(e1, v1, self.names[0], self.names[1])}; per side, {self.names[0]} win {_pts(ga.mean())}% "
                    f"of games and {self.names[1]} {_pts(gb.mean())}%: the side count {says(e2, v2, self.names[0], self.names[1])}.")
        verdict = v1
        interval = "normal intervals"
        if not normal_holds(np.column_stack([pa, pb, ga, gb])):
            sentence += (f" Few games: one side won fewer than {ENOUGH} of {n:,} games or lost fewer than {ENOUGH}, so "
                         "the intervals are bounds valid at any number of games, but wide.")
            interval = BOUNDS_METHOD
        return Answer(self.id, self.title, group, _cap(sentence), verdict,
                      "per player: mean win rate of a seat on each side (difference); per side: share of games each side wins "
                      "(difference)", f"{interval} over games; Holm over the two estimands; balanced = 90% interval "
                      f"within ±{_pts(self.margin)} points", (e1, e2), n)


@dataclasses.dataclass(frozen=True)
class Payoff(Question):
    """Does a card, mission or ability pay? For each value of the ``items`` columns (a seat
    may hold several, e.g. two abilities): the ``value`` (win rate or win share) of a seat
    holding it minus that of a seat holding an average one, **adjusted** for the seat and
    the player count and, when a seat holds several items, for the other items it holds
    (a linear model with those terms; errors clustered by game). Each item is *shown* to
    pay more or less (Holm over the items), *within ±margin of average* (equivalence), or
    not shown.

    The reference is the average item, so when one item is dominant (worth ``delta``) an
    item with no effect of its own sits ``w delta`` below average (``w``: the dominant
    item's share of the holdings), and is rightly reported so; when every seat holds the
    same number of items no data can tell an item's absolute effect (against holding
    nothing), only items against each other. Holders against non-holders is biased where
    the adjusted effect is not (a card's non-holders hold the dominant card more often;
    a card dealt only at some player counts): tests/test_questions.py."""

    id: str = "payoff"
    title: str = "Which cards pay more than others?"
    items: tuple[str, ...] = ()
    item_name: str = "card"
    value: str = "won"
    adjust: tuple[str, ...] = ("players", "seat")
    margin: float = 0.02
    skip: tuple = ()  # item values that are not items (e.g. "" for no card)

    def applies(self, frame: pl.DataFrame) -> bool:
        return all(c in frame.columns for c in self.items) and self.value in frame.columns

    def answer_group(self, frame: pl.DataFrame, group: dict) -> Answer | None:
        values = sorted({v for c in self.items for v in frame[c].unique().to_list() if v not in self.skip and v is not None},
                        key=str)
        if len(values) < 2:
            return None
        holds = np.zeros((frame.height, len(values)))
        rows = np.arange(frame.height)
        for c in self.items:
            index = pl.Series(values, dtype=frame[c].dtype) if frame[c].dtype != pl.Categorical else pl.Series(values)
            at = frame[c].cast(index.dtype).replace_strict(index, pl.Series(range(len(values))), default=-1, return_dtype=pl.Int64).to_numpy()
            held = at >= 0
            holds[rows[held], at[held]] = 1.0
        strata_cols = [c for c in self.adjust if c in frame.columns]
        strata = (frame.select(pl.concat_str([pl.col(c).cast(pl.Utf8) for c in strata_cols], separator="|")).to_series().to_numpy()
                  if strata_cols else np.zeros(frame.height))
        clusters = frame.select(pl.concat_str([pl.col(c).cast(pl.Utf8) for c in (["run"] if "run" in frame.columns else []) + ["game_index"]],
                                              separator="|")).to_series().to_numpy()
        y = frame[self.value].cast(pl.Float64).to_numpy()
        judged = judge_effects(y, holds, strata, clusters, self.margin, self.alpha)
        z = Z95
        raw = holds.T @ y / np.maximum(holds.sum(axis=0), 1)
        est = []
        for i, (v, t) in enumerate(zip(values, judged)):
            est.append(Estimate(f"{self.item_name} {v} (held {int(holds[:, i].sum()):,} times, raw {_pts(raw[i])}%)", t.estimate,
                                t.estimate - z * t.se, t.estimate + z * t.se, "pts", t.p, int(holds[:, i].sum()), t.verdict))
        n = int(np.unique(clusters).size)
        shown = sorted([e for e in est if e.verdict == SHOWN], key=lambda e: -e.estimate)
        lead = _group_text(group)
        adj = " and ".join(strata_cols) if strata_cols else "nothing"
        if len(self.items) > 1:
            adj += f" and the other {self.item_name}s held"
        what = "win share" if self.value == "win_share" else "win rate"
        if shown:
            best, worst = shown[0], shown[-1]
            parts = []
            if best.estimate > 0:
                parts.append(f"{best.label.split(' (')[0]} pays most ({best.text()} of {what} against an average {self.item_name})")
            if worst.estimate < 0:
                parts.append(f"{worst.label.split(' (')[0]} pays least ({worst.text()})")
            sentence = (f"{lead}" + "; ".join(parts) + f"; {len(shown)} of {len(est)} {self.item_name}s differ significantly "
                        f"(Holm, 5%; adjusted for {adj}).")
            verdict = SHOWN
        elif all(e.verdict == EQUIVALENT for e in est):
            sentence = (f"{lead}every {self.item_name} pays within ±{_pts(self.margin)} points of {what} of an average one "
                        f"(equivalence, 5%; adjusted for {adj}).")
            verdict = EQUIVALENT
        else:
            big = max(max(abs(e.lo), abs(e.hi)) for e in est)
            sentence = (f"{lead}no {self.item_name} pays significantly more or less than an average one, but differences up to "
                        f"{_pts(big)} points are not ruled out (adjusted for {adj}).")
            verdict = NOT_SHOWN
        return Answer(self.id, self.title, group, _cap(sentence), verdict,
                      f"per {self.item_name}: {what} of a seat holding it minus a seat holding an average {self.item_name}, "
                      f"adjusted for {adj}",
                      "linear model; standard errors the larger of the cluster-robust (by game) and the conventional; Holm over the "
                      f"{self.item_name}s; equivalence = 90% interval within ±{_pts(self.margin)} points", tuple(est), n)


@dataclasses.dataclass(frozen=True)
class WinRate(Question):
    """Solo games: how often does the player win? The rate with its Wilson interval."""

    id: str = "win_rate"
    title: str = "How often does the player win?"
    by: tuple[str, ...] = ()

    def applies(self, frame: pl.DataFrame) -> bool:
        return frame["seat"].max() == 1

    def answer_group(self, frame: pl.DataFrame, group: dict) -> Answer | None:
        won = frame["won"].cast(pl.Int64).to_numpy()
        ci = wilson(int(won.sum()), won.size)
        e = Estimate("win rate", ci.estimate, ci.lo, ci.hi, "rate", None, won.size, "")
        return Answer(self.id, self.title, group, _cap(f"{_group_text(group)}the player wins {e.text()} of {won.size:,} games."),
                      "", "share of games won", "Wilson interval", (e,), won.size)


@dataclasses.dataclass(frozen=True)
class Difficulty:
    """How hard is each level of a setting (``setting``: e.g. threat)? Win rate per value
    (Wilson), and each step to the next value as a paired difference when the cells share
    their seeds (Tango's interval with McNemar's test), else independent (Newcombe).
    *Each level is harder than the one before* is shown only when every step is
    significant one-sided at ``alpha`` (an intersection-union test: no correction needed);
    otherwise the answer names the steps that are not shown."""

    setting: str
    id: str = "difficulty"
    title: str = "How much harder is each level?"
    where: Where | None = None
    alpha: float = ALPHA

    def answers(self, frame: pl.DataFrame, use_where: bool = True) -> list[Answer]:
        f = _filter(frame, self.where) if use_where else frame
        if self.setting not in f.columns or f[self.setting].n_unique() < 2:
            return []
        levels = sorted(f[self.setting].unique().to_list())
        won = {v: f.filter(pl.col(self.setting) == v).sort("game_index") for v in levels}
        est = []
        for v in levels:
            w = won[v]["won"].cast(pl.Int64).to_numpy()
            ci = wilson(int(w.sum()), w.size)
            est.append(Estimate(f"{self.setting} {v}", ci.estimate, ci.lo, ci.hi, "rate", None, w.size, ""))
        steps = []
        for a, b in zip(levels, levels[1:]):
            fa, fb = won[a], won[b]
            ia, ib = fa["game_index"].to_numpy(), fb["game_index"].to_numpy()
            common = np.intersect1d(ia, ib)
            xa = fa.filter(pl.col("game_index").is_in(common))["won"].cast(pl.Int64).to_numpy()
            xb = fb.filter(pl.col("game_index").is_in(common))["won"].cast(pl.Int64).to_numpy()
            d, t = judge_step(xb, xa, self.alpha)  # later level minus earlier
            steps.append(Estimate(f"{self.setting} {a} -> {b}", d.estimate, d.lo, d.hi, "pts", t.p, len(common), t.verdict))
        not_shown = [s.label for s in steps if s.verdict != SHOWN]
        lo, hi = est[0], est[-1]
        if not not_shown:
            tail = "each level is harder than the one before (every step paired and significant, 5%)"
            verdict = SHOWN
        else:
            tail = f"that each level is harder is not shown for {', '.join(not_shown)}"
            verdict = NOT_SHOWN
        sentence = (f"The win rate falls from {lo.text()} at {self.setting} {levels[0]} to {hi.text()} at {self.setting} "
                    f"{levels[-1]}; {tail}.")
        return [Answer(self.id, self.title, {}, sentence, verdict, f"win rate per {self.setting}; steps: paired differences",
                       "Wilson intervals; Tango's paired interval and McNemar's test per step, one-sided; all steps must be "
                       "significant (intersection-union)", tuple(est + steps), int(est[0].n or 0))]


@dataclasses.dataclass(frozen=True)
class VariantEffect:
    """What does a rule variant change? ``metric`` in the variant's games minus the same
    games (same seeds) under the base rules: Tango's paired interval for a 0/1 metric,
    a paired t interval otherwise. *Shown* at ``alpha``; *no change beyond ±margin* by
    equivalence (90% interval); otherwise not shown."""

    label: str
    metric: str = "won"
    margin: float = 0.02
    id: str = "variant_effect"
    title: str = "What does this rule variant change?"
    alpha: float = ALPHA

    def answer(self, base: pl.DataFrame, variant: pl.DataFrame, group: dict | None = None) -> Answer:
        keys = [c for c in ("game_index", "seat") if c in base.columns]
        j = base.select(*keys, pl.col(self.metric).cast(pl.Float64).alias("a")).join(
            variant.select(*keys, pl.col(self.metric).cast(pl.Float64).alias("b")), on=keys)
        a, b = j["a"].to_numpy(), j["b"].to_numpy()
        d, t, binary = judge_variant(b, a, self.margin, self.alpha)
        verdict = t.verdict
        unit = "pts" if binary else "num"
        e = Estimate(f"{self.label}: {self.metric}", d.estimate, d.lo, d.hi, unit, float(d.p_value), a.size, verdict)
        if verdict == SHOWN:
            tail = f"{'raises' if d.estimate > 0 else 'lowers'} {self.metric}: {e.text()} (paired, 5%)"
        elif verdict == EQUIVALENT:
            tail = f"changes {self.metric} by less than ±{_pts(self.margin)} points ({e.text()}, equivalence)"
        elif not binary and a.size < (need := games_for_t(b - a)):
            tail = (f"changes {self.metric} by {e.text()}: not judged, the changes are too skewed for {a.size:,} games "
                    f"(a t interval needs {need:,})")
        else:
            tail = (f"changes {self.metric} by {e.text()}: neither a change nor its absence (within ±{_pts(self.margin)} "
                    "points) is shown")
        return Answer(self.id, self.title, group or {}, _cap(f"{_group_text(group or {})}{self.label} {tail}."), verdict,
                      f"{self.metric} under the variant minus the same games under the base rules", "paired by seed",
                      (e,), a.size)


# ---- a game's declarations ----------------------------------------------------------------------
def declared(game) -> list:
    """The questions a game declares (``GameSpec.analysis.questions``), or the default:
    seat fairness for a game of several seats, the win rate for a solo game."""
    spec = game.analysis.questions
    if spec:
        module, _, attr = spec.partition(":")
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            mod = None
        if mod is not None:
            return list(getattr(mod, attr or "QUESTIONS"))
    lo, hi = game.seat_range
    return [WinRate()] if hi == 1 else [SeatFairness()]


# Columns every question may read without naming them (keys, who played, who won).
COMMON_COLUMNS = ("run", "grid", "table", "game_index", "seat", "bot", "players", "won", "win_share")


def _names(x: Any) -> Iterator[str]:
    """Every string and every column an expression reads, found in a question's fields."""
    if isinstance(x, str):
        yield x
    elif isinstance(x, pl.Expr):
        yield from x.meta.root_names()
    elif isinstance(x, dict):
        for k, v in x.items():
            yield from _names(k)
            yield from _names(v)
    elif isinstance(x, (tuple, list, set, frozenset)):
        for v in x:
            yield from _names(v)
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        for f in dataclasses.fields(x):
            yield from _names(getattr(x, f.name))


def columns_read(questions: Sequence, schema: Sequence[str], extra: Sequence[str] = ()) -> list[str]:
    """The columns of ``schema`` that ``questions`` may read: the common ones, and those
    their fields name (a column, a ``where`` key, an expression's inputs). A column read
    only inside a method is declared in the class's ``reads``. Reading just these keeps a
    large run's answers in little memory (tests/test_questions.py: same answers)."""
    wanted = set(COMMON_COLUMNS) | set(extra) | set(_names(list(questions)))
    for q in questions:
        wanted |= set(getattr(q, "reads", ()))
    return [c for c in schema if c in wanted]


def answer_frame(game, frame: pl.DataFrame, *, use_where: bool = False) -> list[Answer]:
    """Every declared single-frame question answered on ``frame`` (one run: `simkit run`),
    each answer once: questions that a report asks of two cells (e.g. UFS's normal game for
    two bots) are one question of a run's games."""
    out = []
    for q in declared(game):
        if isinstance(q, Question):
            out += [a for a in q.answers(frame, use_where=use_where) if a.sentence not in {b.sentence for b in out}]
    return out


def answer_by(frame: pl.DataFrame, column: str, value: str = "won", alpha: float = ALPHA, margin: float = 0.02,
              adjust: tuple[str, ...] = ("players", "seat")) -> Answer | None:
    """``simkit run --by COLUMN``: the rate per value of a column with intervals, and the
    payoff question's verdict on it (adjusted for seat and player count)."""
    if column not in frame.columns:
        raise KeyError(column)
    q = Payoff(id=f"by_{column}", title=f"Does {column} change who wins?", items=(column,), item_name=column, value=value,
               adjust=adjust, margin=margin, by=(), alpha=alpha)
    got = q.answers(frame, use_where=False)
    return got[0] if got else None
