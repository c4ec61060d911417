"""Statistics for balance analysis, as pure functions.

Everything here is side-effect free: no I/O, no module state. Wherever scipy or
statsmodels already implements a procedure it is used (the comment on each
function names the routine); only the paired-difference score interval
(Tango), the Bernoulli SPRT and the sample-size rules of thumb are written by
hand, because no installed library provides them.

Conventions
-----------
* ``level`` is a two-sided confidence level in (0, 1); tests use
  ``alpha = 1 - level`` to set ``Difference.significant``.
* Results are small frozen dataclasses holding plain Python floats/ints.
* A p-value of ``nan`` means "not computable" (too little data); it is never
  significant, and :func:`holm` / :func:`holm_adjusted` leave it out of the
  family.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import optimize
from scipy import stats as sps
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import (
    confint_proportions_2indep,
    proportion_confint,
    test_proportions_2indep,
)

__all__ = [
    "Interval",
    "Difference",
    "Paired",
    "SPRT",
    "wilson",
    "clopper_pearson",
    "mean_interval",
    "diff_independent",
    "paired_binary",
    "tango_interval",
    "paired_numeric",
    "independent_numeric",
    "chi2_uniform",
    "holm",
    "holm_adjusted",
    "band_sprt",
    "required_n_independent",
    "required_n_paired",
]

_NAN = float("nan")
_PROB_EPS = 1e-9


# --------------------------------------------------------------------------
# result types
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Interval:
    """A point estimate with a two-sided confidence interval from ``n`` observations."""

    estimate: float
    lo: float
    hi: float
    n: int

    def __str__(self) -> str:
        return f"{self.estimate:.3f} [{self.lo:.3f}, {self.hi:.3f}]"

    @property
    def half_width(self) -> float:
        """Half the interval width."""
        return (self.hi - self.lo) / 2.0


@dataclass(frozen=True)
class Difference:
    """An estimated difference (A - B), its interval, a two-sided p-value and
    whether that p-value is below ``alpha = 1 - level``."""

    estimate: float
    lo: float
    hi: float
    p_value: float
    significant: bool

    def __str__(self) -> str:
        return f"{self.estimate:+.3f} [{self.lo:+.3f}, {self.hi:+.3f}] p={self.p_value:.3g}"


@dataclass(frozen=True)
class Paired(Difference):
    """Paired binary comparison: a :class:`Difference` plus the 2x2 table of
    outcomes over ``n`` pairs (``only_a`` = A succeeded and B failed, etc.)
    and the fraction of pairs on which both variants agree."""

    n: int
    both: int
    only_a: int
    only_b: int
    neither: int
    agreement: float


# --------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------


def _check_level(level: float) -> float:
    """Validate a confidence level and return ``alpha = 1 - level``."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    return 1.0 - level


def _z(level: float) -> float:
    """Two-sided standard-normal critical value (scipy.stats.norm.ppf)."""
    alpha = _check_level(level)
    return float(sps.norm.ppf(1.0 - alpha / 2.0))


def _check_counts(successes: int, n: int) -> None:
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got successes={successes}, n={n}")


def _as_1d(values: np.ndarray | Sequence[float], name: str) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    return arr


def _difference(
    estimate: float, lo: float, hi: float, p_value: float, alpha: float
) -> Difference:
    p = float(p_value)
    return Difference(float(estimate), float(lo), float(hi), p, bool(p < alpha))


# --------------------------------------------------------------------------
# one-sample intervals
# --------------------------------------------------------------------------


def wilson(successes: int, n: int, level: float = 0.95) -> Interval:
    """Wilson score interval for a binomial proportion.

    Uses statsmodels ``proportion_confint(method="wilson")``. With ``n == 0``
    the estimate is nan and the interval is the whole [0, 1].
    """
    alpha = _check_level(level)
    _check_counts(successes, n)
    if n == 0:
        return Interval(_NAN, 0.0, 1.0, 0)
    lo, hi = proportion_confint(successes, n, alpha=alpha, method="wilson")
    return Interval(successes / n, float(lo), float(hi), int(n))


def clopper_pearson(successes: int, n: int, level: float = 0.95) -> Interval:
    """Clopper-Pearson exact (conservative) interval for a binomial proportion.

    Uses statsmodels ``proportion_confint(method="beta")``. ``n == 0`` behaves
    as in :func:`wilson`.
    """
    alpha = _check_level(level)
    _check_counts(successes, n)
    if n == 0:
        return Interval(_NAN, 0.0, 1.0, 0)
    lo, hi = proportion_confint(successes, n, alpha=alpha, method="beta")
    # statsmodels returns nan for the degenerate ends in some versions.
    lo = 0.0 if successes == 0 else float(lo)
    hi = 1.0 if successes == n else float(hi)
    return Interval(successes / n, lo, hi, int(n))


def mean_interval(values: np.ndarray, level: float = 0.95) -> Interval:
    """Sample mean with a Student-t interval (scipy.stats.t.interval).

    For fewer than two values (or zero spread) the interval collapses to the
    mean; an empty input gives all-nan.
    """
    _check_level(level)
    x = _as_1d(values, "values")
    n = int(x.size)
    if n == 0:
        return Interval(_NAN, _NAN, _NAN, 0)
    mean = float(x.mean())
    if n < 2:
        return Interval(mean, mean, mean, n)
    sem = float(sps.sem(x))
    if not sem > 0.0:
        return Interval(mean, mean, mean, n)
    lo, hi = sps.t.interval(level, df=n - 1, loc=mean, scale=sem)
    return Interval(mean, float(lo), float(hi), n)


# --------------------------------------------------------------------------
# two-sample comparisons
# --------------------------------------------------------------------------


def diff_independent(
    x1: int, n1: int, x2: int, n2: int, level: float = 0.95
) -> Difference:
    """Difference ``p1 - p2`` of two independent binomial proportions.

    * interval: Newcombe's hybrid score interval (statsmodels
      ``confint_proportions_2indep(method="newcomb")``);
    * p-value: two-sided score test of ``p1 == p2`` (statsmodels
      ``test_proportions_2indep(method="score", correction=False)``), which
      for a zero difference is the classic pooled two-proportion z-test,
      i.e. Pearson's chi-square test of the 2x2 table without Yates
      correction. The score test is preferred over the Wald test because its
      variance is evaluated under the null, so it stays sane when one
      proportion is 0 or 1.

    If both samples are all-success or all-failure there is no evidence of a
    difference and the p-value is 1. An empty sample gives an nan estimate,
    interval [-1, 1] and p = nan.
    """
    alpha = _check_level(level)
    _check_counts(x1, n1)
    _check_counts(x2, n2)
    if n1 == 0 or n2 == 0:
        return _difference(_NAN, -1.0, 1.0, _NAN, alpha)
    est = x1 / n1 - x2 / n2
    lo, hi = confint_proportions_2indep(
        x1, n1, x2, n2, method="newcomb", compare="diff", alpha=alpha
    )
    pooled = (x1 + x2) / (n1 + n2)
    if pooled in (0.0, 1.0):
        p_value = 1.0
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            res = test_proportions_2indep(
                x1, n1, x2, n2, method="score", compare="diff", correction=False
            )
        p_value = float(res.pvalue)
    return _difference(est, lo, hi, p_value, alpha)


def _tango_stat(delta: float, b: int, c: int, n: int) -> float:
    """Tango's score statistic for H0: p_A - p_B = delta (b = only_a, c = only_b)."""
    # Constrained MLE of the (B-only) discordant cell probability under delta,
    # the positive root of a quadratic (Tango 1998, eq. 4).
    qa = 2.0 * n
    qb = -b - c + (2.0 * n - b + c) * delta
    qc = -c * delta * (1.0 - delta)
    disc = max(qb * qb - 4.0 * qa * qc, 0.0)
    p21 = (math.sqrt(disc) - qb) / (2.0 * qa)
    num = b - c - n * delta
    var = n * (2.0 * p21 + delta * (1.0 - delta))
    if num == 0.0:
        return 0.0
    if var <= 0.0:
        return math.copysign(math.inf, num)
    return num / math.sqrt(var)


def tango_interval(
    only_a: int, only_b: int, n: int, level: float = 0.95
) -> tuple[float, float]:
    """Tango's (1998) asymptotic score interval for a paired difference of proportions.

    ``only_a``/``only_b`` are the discordant counts of ``n`` pairs; the interval
    is for ``(only_a - only_b) / n``. Hand-written (not in scipy/statsmodels):
    the score statistic uses the closed-form constrained MLE and its two roots
    are found with ``scipy.optimize.brentq``. Unlike the Wald interval it does
    not collapse to a point when there are no discordant pairs.
    """
    z = _z(level)
    if n <= 0:
        return (-1.0, 1.0)
    if only_a < 0 or only_b < 0 or only_a + only_b > n:
        raise ValueError("need 0 <= only_a, only_b and only_a + only_b <= n")
    est = (only_a - only_b) / n
    edge = 1.0 - 1e-12

    def f(delta: float, target: float) -> float:
        return _tango_stat(delta, only_a, only_b, n) - target

    # The statistic decreases in delta: lower limit solves T = z, upper T = -z.
    if est <= -edge or f(-edge, z) <= 0.0:
        lo = -1.0
    else:
        lo = optimize.brentq(f, -edge, est, args=(z,), xtol=1e-12)
    if est >= edge or f(edge, -z) >= 0.0:
        hi = 1.0
    else:
        hi = optimize.brentq(f, est, edge, args=(-z,), xtol=1e-12)
    return (float(lo), float(hi))


def paired_binary(a: np.ndarray, b: np.ndarray, level: float = 0.95) -> Paired:
    """Compare two variants' binary outcomes (e.g. wins) played on the same seeds.

    ``a[i]`` and ``b[i]`` are the outcomes of variant A and B on seed ``i``.

    * estimate: ``mean(a) - mean(b)``;
    * p-value: McNemar's test (statsmodels ``contingency_tables.mcnemar``),
      exact binomial version when there are fewer than 25 discordant pairs,
      otherwise the chi-square version with continuity correction; p = 1 when
      there are no discordant pairs;
    * interval: Tango's score interval (:func:`tango_interval`).
    """
    alpha = _check_level(level)
    av = np.asarray(a).astype(bool).ravel()
    bv = np.asarray(b).astype(bool).ravel()
    if av.shape != bv.shape:
        raise ValueError(
            f"a and b must have the same length, got {av.size} and {bv.size}"
        )
    n = int(av.size)
    both = int(np.count_nonzero(av & bv))
    only_a = int(np.count_nonzero(av & ~bv))
    only_b = int(np.count_nonzero(~av & bv))
    neither = n - both - only_a - only_b
    if n == 0:
        return Paired(_NAN, -1.0, 1.0, _NAN, False, 0, 0, 0, 0, 0, _NAN)
    est = (only_a - only_b) / n
    discordant = only_a + only_b
    if discordant == 0:
        p_value = 1.0
    else:
        table = [[both, only_a], [only_b, neither]]
        res = mcnemar(table, exact=discordant < 25, correction=True)
        p_value = min(1.0, float(res.pvalue))
    lo, hi = tango_interval(only_a, only_b, n, level)
    return Paired(
        estimate=float(est),
        lo=lo,
        hi=hi,
        p_value=p_value,
        significant=bool(p_value < alpha),
        n=n,
        both=both,
        only_a=only_a,
        only_b=only_b,
        neither=neither,
        agreement=(both + neither) / n,
    )


def paired_numeric(a: np.ndarray, b: np.ndarray, level: float = 0.95) -> Difference:
    """Mean of paired differences ``a - b`` with a t interval and the paired t-test.

    Uses scipy ``ttest_rel`` (and its ``confidence_interval``). If every
    difference is 0 the p-value is 1 and the interval [0, 0]; if the
    differences are a non-zero constant the interval collapses to it and
    p = 0. Fewer than two pairs give p = nan.
    """
    alpha = _check_level(level)
    x = _as_1d(a, "a")
    y = _as_1d(b, "b")
    if x.shape != y.shape:
        raise ValueError(
            f"a and b must have the same length, got {x.size} and {y.size}"
        )
    d = x - y
    if d.size == 0:
        return _difference(_NAN, _NAN, _NAN, _NAN, alpha)
    mean = float(d.mean())
    if d.size < 2:
        return _difference(mean, mean, mean, _NAN, alpha)
    if np.all(d == d[0]):
        return _difference(mean, mean, mean, 1.0 if mean == 0.0 else 0.0, alpha)
    res = sps.ttest_rel(x, y)
    ci = res.confidence_interval(confidence_level=level)
    return _difference(mean, ci.low, ci.high, res.pvalue, alpha)


def independent_numeric(
    a: np.ndarray, b: np.ndarray, level: float = 0.95
) -> Difference:
    """Difference of means ``mean(a) - mean(b)`` of independent samples.

    Welch's unequal-variance t-test and interval (scipy
    ``ttest_ind(equal_var=False)`` and its ``confidence_interval``). If both
    samples have zero spread the interval collapses to the difference and
    p is 1 (equal means) or 0. Either sample smaller than 2 gives p = nan.
    """
    alpha = _check_level(level)
    x = _as_1d(a, "a")
    y = _as_1d(b, "b")
    if x.size == 0 or y.size == 0:
        return _difference(_NAN, _NAN, _NAN, _NAN, alpha)
    diff = float(x.mean() - y.mean())
    if x.size < 2 or y.size < 2:
        return _difference(diff, diff, diff, _NAN, alpha)
    if np.all(x == x[0]) and np.all(y == y[0]):
        return _difference(diff, diff, diff, 1.0 if diff == 0.0 else 0.0, alpha)
    res = sps.ttest_ind(x, y, equal_var=False)
    ci = res.confidence_interval(confidence_level=level)
    return _difference(diff, ci.low, ci.high, res.pvalue, alpha)


# --------------------------------------------------------------------------
# goodness of fit and multiplicity
# --------------------------------------------------------------------------


def chi2_uniform(counts: np.ndarray) -> tuple[float, float]:
    """Chi-square goodness-of-fit of ``counts`` against equal shares.

    Uses ``scipy.stats.chisquare`` (default expected = equal split of the
    total). Counts may be fractional (e.g. shared wins split between seats).
    Returns ``(statistic, p_value)``; fewer than two categories or a zero total
    give ``(0.0, 1.0)`` (nothing to test).
    """
    obs = _as_1d(counts, "counts")
    if np.any(obs < 0):
        raise ValueError("counts must be non-negative")
    if obs.size < 2 or not obs.sum() > 0:
        return (0.0, 1.0)
    res = sps.chisquare(obs)
    return (float(res.statistic), float(res.pvalue))


def _finite_mask(p_values: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(p_values, dtype=float).ravel()
    if np.any((p < 0) | (p > 1)):
        raise ValueError("p-values must lie in [0, 1]")
    return p, ~np.isnan(p)


def holm(p_values: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm step-down rejections at family-wise error rate ``alpha``.

    statsmodels ``multipletests(method="holm")``; nan p-values are left out of
    the family and never rejected.
    """
    p, ok = _finite_mask(p_values)
    reject = np.zeros(p.shape, dtype=bool)
    if ok.any():
        reject[ok] = multipletests(p[ok], alpha=alpha, method="holm")[0]
    return [bool(r) for r in reject]


def holm_adjusted(p_values: Sequence[float]) -> np.ndarray:
    """Holm-adjusted p-values (statsmodels ``multipletests(method="holm")``).

    Reject hypothesis ``i`` at level ``alpha`` iff ``adjusted[i] <= alpha``.
    nan inputs stay nan and do not count towards the family size.
    """
    p, ok = _finite_mask(p_values)
    out = np.full(p.shape, np.nan)
    if ok.any():
        out[ok] = multipletests(p[ok], method="holm")[1]
    return out


# --------------------------------------------------------------------------
# sequential testing (hand-written: not in scipy/statsmodels)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class SPRT:
    """Wald's sequential probability ratio test for a Bernoulli rate.

    H0: p = p0 versus H1: p = p1, with type I error ``alpha`` and type II
    error ``beta``. Feed cumulative ``(successes, n)`` after each game (or
    batch) and stop at the first answer other than ``"continue"``.
    """

    p0: float
    p1: float
    alpha: float
    beta: float

    def __post_init__(self) -> None:
        for name in ("p0", "p1", "alpha", "beta"):
            v = getattr(self, name)
            if not 0.0 < v < 1.0:
                raise ValueError(f"{name} must lie in (0, 1), got {v!r}")
        if self.p0 == self.p1:
            raise ValueError("p0 and p1 must differ")

    @property
    def lower(self) -> float:
        """Accept-H0 boundary: log(beta / (1 - alpha))."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept-H1 boundary: log((1 - beta) / alpha)."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, successes: float, n: float) -> float:
        """Log-likelihood ratio log L(p1) / L(p0) of ``successes`` out of ``n`` trials."""
        if n < 0 or successes < 0 or successes > n:
            raise ValueError(
                f"need 0 <= successes <= n, got successes={successes}, n={n}"
            )
        return successes * math.log(self.p1 / self.p0) + (n - successes) * math.log(
            (1.0 - self.p1) / (1.0 - self.p0)
        )

    def decide(self, successes: float, n: float) -> str:
        """``"H1"`` if the LLR reached ``upper``, ``"H0"`` if it reached ``lower``, else ``"continue"``."""
        llr = self.llr(successes, n)
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return "continue"


def _clip_p(p: float) -> float:
    return min(max(p, _PROB_EPS), 1.0 - _PROB_EPS)


def band_sprt(
    successes: float,
    n: float,
    lo: float,
    hi: float,
    margin: float,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> str:
    """Decide sequentially whether a Bernoulli rate lies inside ``[lo, hi]``.

    Two one-sided SPRTs (see :class:`SPRT`) are run on the same cumulative
    data, one per edge of the band, each with an indifference zone of
    ``+-margin`` around its edge:

    * lower edge: H0 "outside" p = lo - margin vs H1 "inside" p = lo + margin;
    * upper edge: H0 "outside" p = hi + margin vs H1 "inside" p = hi - margin.

    Hypothesised rates are clipped into (1e-9, 1 - 1e-9). An edge at 0
    (``lo <= 0``) or 1 (``hi >= 1``) cannot be crossed, so its test is treated
    as already having accepted "inside"; such a band has one real edge.

    Returns ``"outside-low"`` when the lower test accepts "outside",
    ``"outside-high"`` when the upper test accepts "outside", ``"inside"``
    when both accept "inside", else ``"continue"``. ``alpha`` bounds the
    chance of calling a rate inside when it is at least ``margin`` beyond an
    edge; ``beta`` bounds the chance of calling it outside when it is at
    least ``margin`` inside. The function is stateless: call it with the
    running totals after each batch and stop at the first decision.
    """
    if not 0.0 <= lo <= hi <= 1.0:
        raise ValueError(f"need 0 <= lo <= hi <= 1, got lo={lo}, hi={hi}")
    if not margin > 0.0:
        raise ValueError(f"margin must be positive, got {margin!r}")

    low_verdict = "H1"
    if lo > 0.0:
        low_verdict = SPRT(
            _clip_p(lo - margin), _clip_p(lo + margin), alpha, beta
        ).decide(successes, n)
    high_verdict = "H1"
    if hi < 1.0:
        high_verdict = SPRT(
            _clip_p(hi + margin), _clip_p(hi - margin), alpha, beta
        ).decide(successes, n)

    if low_verdict == "H0":
        return "outside-low"
    if high_verdict == "H0":
        return "outside-high"
    if low_verdict == "H1" and high_verdict == "H1":
        return "inside"
    return "continue"


# --------------------------------------------------------------------------
# rough sample sizes (normal approximation, hand-written)
# --------------------------------------------------------------------------


def _check_half_width(half_width: float) -> None:
    if not half_width > 0.0:
        raise ValueError(f"half_width must be positive, got {half_width!r}")


def required_n_independent(p: float, half_width: float, level: float = 0.95) -> int:
    """Games per variant so that the Wald interval for ``p1 - p2`` of two
    independent samples, both with rate about ``p``, has the given half-width:
    ``n = z^2 * 2 p (1 - p) / half_width^2`` (rounded up, at least 1)."""
    _check_half_width(half_width)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must lie in [0, 1], got {p!r}")
    z = _z(level)
    return max(1, math.ceil(z * z * 2.0 * p * (1.0 - p) / half_width**2))


def required_n_paired(
    discordant_rate: float, half_width: float, level: float = 0.95
) -> int:
    """Seeds (pairs) so that the interval for a paired difference of
    proportions has the given half-width, when a fraction ``discordant_rate``
    of pairs have different outcomes and the true difference is near 0:
    ``n = z^2 * discordant_rate / half_width^2`` (rounded up, at least 1).

    Compare with :func:`required_n_independent`: for p near 1/2 independent
    samples need ``0.5 z^2 / h^2`` games per variant, so pairing saves games
    whenever fewer than half of the seeds are discordant.
    """
    _check_half_width(half_width)
    if not 0.0 <= discordant_rate <= 1.0:
        raise ValueError(f"discordant_rate must lie in [0, 1], got {discordant_rate!r}")
    z = _z(level)
    return max(1, math.ceil(z * z * discordant_rate / half_width**2))
