"""Statistics for balance analysis, as pure functions.

Everything here is side-effect free: no I/O, no module state. Wherever scipy or
statsmodels already implements a procedure it is used (the comment on each
function names the routine); the paired-difference score interval and test
(Tango), the Bernoulli SPRT, the anytime-valid band tests, the seed-clustered
intervals, the equivalence test and the sample-size rules of thumb are written
by hand, because no installed library provides them; Holm's adjustment too,
because statsmodels' runs a full garbage collection on every call.

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

import functools
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy  # scipy's parts load on first use, statsmodels inside the functions that call
# it: commands that stop at a wrong setting answer without them. Where a command's every
# answer needs only a quantile, scipy.special's (which scipy.stats calls) is used: importing
# scipy.stats costs each command about 0.8 s, statsmodels 0.8 s more.

__all__ = [
    "Interval",
    "Difference",
    "Paired",
    "SPRT",
    "wilson",
    "clopper_pearson",
    "mean_interval",
    "pooled_rate",
    "skew_corrected_interval",
    "bernstein_half_width",
    "bernstein_p",
    "diff_independent",
    "paired_binary",
    "tango_interval",
    "tango_test",
    "design_effect",
    "clustered_rate",
    "clustered_mean",
    "equivalence_bound",
    "tost",
    "paired_numeric",
    "independent_numeric",
    "linearized",
    "ratio_estimate",
    "paired_ratio_change",
    "chi2_uniform",
    "holm",
    "holm_adjusted",
    "BandTest",
    "mixture_log_e",
    "e_boundary",
    "verdict_at",
    "band_verdicts",
    "required_n_independent",
    "required_n_paired",
]

_NAN = float("nan")


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
    """Two-sided standard-normal critical value (scipy.stats.norm.ppf's ``ndtri``)."""
    alpha = _check_level(level)
    return float(scipy.special.ndtri(1.0 - alpha / 2.0))


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

    statsmodels' ``proportion_confint(method="wilson")``, its formula written out:
    importing statsmodels would cost every command that prints a win rate about 0.8 s
    (a test checks that the two agree). With ``n == 0`` the estimate is nan and the
    interval is the whole [0, 1].
    """
    alpha = _check_level(level)
    _check_counts(successes, n)
    if n == 0:
        return Interval(_NAN, 0.0, 1.0, 0)
    p = successes / n
    z = -float(scipy.special.ndtri(alpha / 2.0))  # statsmodels' norm.isf(alpha / 2)
    denom = 1.0 + z * z / n
    center = (p + z * z / (2.0 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / denom
    return Interval(p, min(max(center - half, 0.0), 1.0), min(max(center + half, 0.0), 1.0), int(n))


def clopper_pearson(successes: int, n: int, level: float = 0.95) -> Interval:
    """Clopper-Pearson exact (conservative) interval for a binomial proportion:
    statsmodels' ``proportion_confint(method="beta")``, written out as :func:`wilson` is.
    ``n == 0`` behaves as in :func:`wilson`.
    """
    alpha = _check_level(level)
    _check_counts(successes, n)
    if n == 0:
        return Interval(_NAN, 0.0, 1.0, 0)
    lo = 0.0 if successes == 0 else float(scipy.stats.beta.ppf(alpha / 2.0, successes, n - successes + 1))
    hi = 1.0 if successes == n else float(scipy.stats.beta.isf(alpha / 2.0, successes + 1, n - successes))
    return Interval(successes / n, lo, hi, int(n))


def mean_interval(values: np.ndarray, level: float = 0.95) -> Interval:
    """Sample mean with a Student-t interval (scipy.stats.t.interval's).

    One value says nothing of the spread: its interval is unbounded. With zero
    spread the interval collapses to the mean; an empty input gives all-nan.
    """
    _check_level(level)
    x = _as_1d(values, "values")
    n = int(x.size)
    if n == 0:
        return Interval(_NAN, _NAN, _NAN, 0)
    return mean_interval_of(float(x.mean()), float(x.std(ddof=1)) if n > 1 else 0.0, n, level)


def mean_interval_of(mean: float, sd: float, n: int, level: float = 0.95) -> Interval:
    """:func:`mean_interval` from the sample's mean, standard deviation (ddof 1) and size
    (for means computed where the values are, e.g. by polars over millions of rows)."""
    _check_level(level)
    if n == 0:
        return Interval(_NAN, _NAN, _NAN, 0)
    if n < 2:
        return Interval(mean, -math.inf, math.inf, n)
    sem = sd / math.sqrt(n)
    if not sem > 0.0:
        return Interval(mean, mean, mean, n)
    # scipy.stats.t.interval's quantiles (t.ppf is stdtrit)
    lo = mean + float(scipy.special.stdtrit(n - 1, (1.0 - level) / 2.0)) * sem
    hi = mean + float(scipy.special.stdtrit(n - 1, (1.0 + level) / 2.0)) * sem
    return Interval(mean, lo, hi, n)


def bernstein_half_width(x: np.ndarray, width: float, delta: float) -> float:
    """Half-width of the two-sided ``1 - delta`` empirical Bernstein interval of the mean
    of independent values in a range ``width`` wide (Maurer & Pontil 2009, Theorem 4,
    each side at ``delta / 2``): valid at any number of values, wide at few."""
    n = x.size
    if n < 2:
        return float("inf")
    log = math.log(4 / delta)
    return math.sqrt(2 * float(x.var(ddof=1)) * log / n) + 7 * width * log / (3 * (n - 1))


def bernstein_p(x: np.ndarray, width: float) -> float:
    """The smallest ``delta`` whose :func:`bernstein_half_width` interval excludes 0: the
    bound's two-sided p-value against a mean of 0."""
    n, m = x.size, abs(float(x.mean()))
    if n < 2 or m == 0:
        return 1.0
    a, b = math.sqrt(2 * float(x.var(ddof=1)) / n), 7 * width / (3 * (n - 1))
    root = (-a + math.sqrt(a * a + 4 * b * m)) / (2 * b)  # a sqrt(L) + b L = m, L = log(4 / delta)
    return min(1.0, 4 * math.exp(-root * root))


def skew_corrected_interval(values: np.ndarray, level: float = 0.95) -> Interval:
    """Mean with Hall's (1992) skewness-corrected t interval. The t interval of skewed
    values errs on one side: with 10% of values 1 and the rest 0, its upper bound lay below
    the mean 6.1% of the time at 100 values and 3.2% at 2,000, against 2.5%; this one 0.03%
    and 2.3%. Its skewness comes from the sample, so where a few values carry it (mostly
    ties, one or two wins) it can err the other way: see :func:`simkit.strength.verdict`,
    which takes the wider of it and the t interval on each side.

    The studentized mean ``T`` is mapped by ``T + a T^2 + a^2 T^3 / 3 + a / 2`` with
    ``a = g / (3 sqrt(n))`` (``g`` the sample skewness), a monotone map whose inverse
    gives the bounds at the t quantiles; symmetric values (``g = 0``) give the t
    interval. No spread or fewer than two values: as :func:`mean_interval`."""
    _check_level(level)
    x = _as_1d(values, "values")
    n = int(x.size)
    plain = mean_interval(x, level)
    if n < 2 or not plain.hi > plain.lo:
        return plain
    a = _skewness(x) / (3.0 * math.sqrt(n))
    if a == 0.0:
        return plain
    sem = float(x.std(ddof=1)) / math.sqrt(n)
    q = float(scipy.special.stdtrit(n - 1, (1.0 + level) / 2.0))

    def inverse(y: float) -> float:
        # the map's inverse, (w - 1) / a with w = cbrt(1 + 3a (y - a/2)), written as
        # 3 (y - a/2) / (w^2 + w + 1): the same, and exact where a is rounding noise (the
        # difference form gave 0 there, an interval of no width)
        w = float(np.cbrt(1.0 + 3.0 * a * (y - a / 2.0)))
        return 3.0 * (y - a / 2.0) / (w * w + w + 1.0)

    return Interval(plain.estimate, plain.estimate - sem * inverse(q), plain.estimate - sem * inverse(-q), n)


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
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

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
        lo = scipy.optimize.brentq(f, -edge, est, args=(z,), xtol=1e-12)
    if est >= edge or f(edge, -z) >= 0.0:
        hi = 1.0
    else:
        hi = scipy.optimize.brentq(f, est, edge, args=(-z,), xtol=1e-12)
    return (float(lo), float(hi))


def tango_test(only_a: int, only_b: int, n: int) -> float:
    """Two-sided p-value of the score test of "no paired difference" that Tango's
    interval inverts (Tango 1998): ``T(0) = (only_a - only_b) / sqrt(only_a + only_b)``,
    which is McNemar's test without continuity correction. ``p < 1 - level`` exactly
    when :func:`tango_interval` at ``level`` excludes 0; 1 with no discordant pairs."""
    if only_a < 0 or only_b < 0 or only_a + only_b > n:
        raise ValueError("need 0 <= only_a, only_b and only_a + only_b <= n")
    if only_a + only_b == 0:
        return 1.0
    t = _tango_stat(0.0, only_a, only_b, n)
    return float(min(1.0, 2.0 * scipy.special.ndtr(-abs(t))))  # norm.sf


def paired_binary(a: np.ndarray, b: np.ndarray, level: float = 0.95) -> Paired:
    """Compare two variants' binary outcomes (e.g. wins) played on the same seeds.

    ``a[i]`` and ``b[i]`` are the outcomes of variant A and B on seed ``i``.

    * estimate: ``mean(a) - mean(b)``;
    * interval: Tango's score interval (:func:`tango_interval`);
    * p-value: the score test that interval inverts (:func:`tango_test`, McNemar's
      test without continuity correction), so that the test is significant exactly
      when the interval excludes 0. (McNemar's exact or corrected test and Tango's
      interval disagreed on about 3% of tables tried.)
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
    p_value = tango_test(only_a, only_b, n)
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
    difference is 0 the p-value is 1 and the interval [0, 0]. If they are one
    non-zero constant c the t-test is undefined (it gave p = 0 for two games):
    the sign test's p = 2 / 2^n decides, and the interval is [c, c] where that
    excludes no difference, [min(0, c), max(0, c)] where it does not (n < 6 at
    95%). Fewer than two pairs give p = nan and an unbounded interval.
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
        return _difference(mean, -math.inf, math.inf, _NAN, alpha)
    if np.all(d == d[0]):
        if mean == 0.0:
            return _difference(mean, mean, mean, 1.0, alpha)
        p = min(1.0, 2.0 * 0.5 ** d.size)  # every pair on one side
        return _difference(mean, *((mean, mean) if p < alpha else (min(0.0, mean), max(0.0, mean))), p, alpha)
    with warnings.catch_warnings():  # nearly equal differences: scipy warns, the figures stand
        warnings.simplefilter("ignore", RuntimeWarning)
        res = scipy.stats.ttest_rel(x, y)
        ci = res.confidence_interval(confidence_level=level)
    return _difference(mean, ci.low, ci.high, res.pvalue, alpha)


def games_for_t(values: np.ndarray) -> int:
    """How many values a t interval of their mean needs before it can be trusted, by their
    skewness: more than ``28 + 25 G1^2`` (Cochran's rule as Sugden, Smith & Jones 2000
    refined it; ``G1`` the adjusted sample skewness). Rare long games made a paired t test
    call no change a change 19% of the time in 100 games and 6.5% in 1,000 (a skewness of
    about 9, needing 2,200); symmetric values need 29 (more than 28)."""
    x = _as_1d(values, "values")
    n = x.size
    if n < 3:
        return 29
    g1 = _skewness(x) * math.sqrt(n * (n - 1)) / (n - 2)
    return int(math.floor(round(28 + 25 * g1 * g1, 9))) + 1  # more than: 128.0 needs 129 (not 127.99... + 1)


def _skewness(x: np.ndarray) -> float:
    """The sample skewness ``m3 / m2^1.5`` (central moments; 0 for values with no spread)."""
    c = x - x.mean()
    m2 = float(np.mean(c * c))
    return float(np.mean(c ** 3)) / m2 ** 1.5 if m2 > 0 else 0.0


def independent_numeric(
    a: np.ndarray, b: np.ndarray, level: float = 0.95
) -> Difference:
    """Difference of means ``mean(a) - mean(b)`` of independent samples.

    Welch's unequal-variance t-test and interval (scipy
    ``ttest_ind(equal_var=False)`` and its ``confidence_interval``). If both
    samples have zero spread the t-test is undefined: p is that of the
    permutation test (every value of one sample beyond every value of the other:
    2 / C(n_a + n_b, n_a), or 1 for equal means), and the interval is the
    difference where that p excludes no difference, else it reaches 0. Either
    sample smaller than 2 gives p = nan and an unbounded interval.
    """
    alpha = _check_level(level)
    x = _as_1d(a, "a")
    y = _as_1d(b, "b")
    if x.size == 0 or y.size == 0:
        return _difference(_NAN, _NAN, _NAN, _NAN, alpha)
    diff = float(x.mean() - y.mean())
    if x.size < 2 or y.size < 2:
        return _difference(diff, -math.inf, math.inf, _NAN, alpha)
    if np.all(x == x[0]) and np.all(y == y[0]):
        if diff == 0.0:
            return _difference(diff, diff, diff, 1.0, alpha)
        p = min(1.0, 2.0 / math.comb(x.size + y.size, x.size))
        return _difference(diff, *((diff, diff) if p < alpha else (min(0.0, diff), max(0.0, diff))), p, alpha)
    with warnings.catch_warnings():  # nearly equal values: scipy warns, the figures stand
        warnings.simplefilter("ignore", RuntimeWarning)
        res = scipy.stats.ttest_ind(x, y, equal_var=False)
        ci = res.confidence_interval(confidence_level=level)
    return _difference(diff, ci.low, ci.high, res.pvalue, alpha)


# --------------------------------------------------------------------------
# observations that share seeds (hand-written)
# --------------------------------------------------------------------------


def _wilson_float(successes: float, n: float, level: float) -> tuple[float, float]:
    """Wilson's score interval, for a possibly fractional (effective) sample size."""
    z = _z(level)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def design_effect(values: np.ndarray, clusters: np.ndarray) -> float:
    """Kish's design effect of a mean over clustered observations: the cluster-robust
    variance of the mean (linearisation, with the G / (G - 1) small-sample factor)
    over the variance the same number of independent observations would give.
    ``nan`` when the values do not vary (nothing to estimate it from)."""
    x = _as_1d(values, "values")
    groups = np.unique(np.asarray(clusters).ravel(), return_inverse=True)[1]
    if groups.size != x.size:
        raise ValueError("values and clusters must have the same length")
    n = x.size
    mean = x.mean() if n else _NAN
    var_iid = float(x.var()) / n if n else _NAN
    if not n or not var_iid > 0:
        return _NAN
    totals = np.bincount(groups, weights=x - mean)
    g = totals.size
    if g < 2:
        return _NAN
    var_cluster = g / (g - 1) * float(np.sum(totals**2)) / n**2
    return var_cluster / var_iid


def clustered_rate(values: np.ndarray, clusters: np.ndarray, level: float = 0.95) -> Interval:
    """Rate of a yes/no outcome whose observations come in correlated clusters (the
    cells of a sweep play game *i* on the same seed: cluster by seed).

    Wilson's interval at the effective sample size ``n / deff`` (:func:`design_effect`,
    never below 1; Kish 1965, Korn and Graubard 1998 for intervals at an effective
    sample size). With no success (or no failure) the design effect cannot be
    estimated, and each cluster counts once (``n_eff`` = number of clusters): the
    most a perfect correlation within clusters allows. ``Interval.n`` is the number
    of observations."""
    _check_level(level)
    x = _as_1d(values, "values")
    n = int(x.size)
    if n == 0:
        return Interval(_NAN, 0.0, 1.0, 0)
    k = float(x.sum())
    deff = design_effect(x, clusters)
    if math.isnan(deff):
        n_eff = float(np.unique(np.asarray(clusters).ravel()).size)
    else:
        n_eff = n / max(deff, 1.0)
    lo, hi = _wilson_float(k / n * n_eff, n_eff, level)
    return Interval(k / n, lo, hi, n)


def pooled_rate(num: np.ndarray, den: np.ndarray, level: float = 0.95, enough: int = 10) -> Interval:
    """Rate of events pooled over units, ``sum(num) / sum(den)`` (a unit, e.g. a game, has
    ``den`` events of which ``num`` succeed), with an interval at an effective number of
    events. With ``enough`` events and non-events or more: Wilson's at ``den / deff``, the
    design effect being the ratio's linearised variance over a binomial one's, never below
    1 (Kish 1965; Korn and Graubard 1998). Events in few units make the linearised values
    too skewed for a t interval (4.4% of 380 kept missions, in 380 of 20,000 games, had
    none), while the count of events supports Wilson's. With fewer, the variance cannot be
    estimated: each unit's events are taken as one outcome (Kish's effective size of the
    units weighted by their events, ``sum(den)^2 / sum(den^2)``) and the interval is
    Clopper-Pearson's there. Wilson's on the raw counts claimed 10-15% of the time at a
    threshold when a game's events went together, and 4-10% when they did not (a review).
    ``Interval.n`` is the number of units."""
    alpha = _check_level(level)
    x, d = _as_1d(num, "num"), _as_1d(den, "den")
    total = float(d.sum())
    if x.size == 0 or not total > 0:
        return Interval(_NAN, 0.0, 1.0, int(x.size))
    events = float(x.sum())
    rate = min(max(events / total, 0.0), 1.0)
    if events < enough or total - events < enough:
        n_eff = total * total / float(np.sum(d * d))
        k = rate * n_eff
        lo = 0.0 if k <= 0 else float(scipy.stats.beta.ppf(alpha / 2.0, k, n_eff - k + 1.0))
        hi = 1.0 if k >= n_eff else float(scipy.stats.beta.isf(alpha / 2.0, k + 1.0, n_eff - k))
        return Interval(rate, lo, hi, int(x.size))
    _, z = linearized([(1.0, x, d)])
    var = float(np.var(z, ddof=1)) / z.size if z.size > 1 else _NAN
    binomial = rate * (1.0 - rate) / total
    n_eff = total / max(var / binomial, 1.0) if var > 0 and binomial > 0 else total
    lo, hi = _wilson_float(rate * n_eff, n_eff, level)
    return Interval(rate, lo, hi, int(x.size))


def clustered_mean(values: np.ndarray, clusters: np.ndarray, level: float = 0.95) -> Interval:
    """Mean of observations that come in correlated clusters (the seats of one game),
    with a normal interval on the cluster-robust standard error (the same variance as
    :func:`design_effect`'s numerator)."""
    z = _z(level)
    x = _as_1d(values, "values")
    if x.size == 0:
        return Interval(_NAN, _NAN, _NAN, 0)
    groups = np.unique(np.asarray(clusters).ravel(), return_inverse=True)[1]
    if groups.size != x.size:
        raise ValueError("values and clusters must have the same length")
    mean = float(x.mean())
    totals = np.bincount(groups, weights=x - mean)
    g = totals.size
    if g < 2:
        return Interval(mean, mean, mean, int(x.size))
    se = math.sqrt(g / (g - 1) * float(np.sum(totals**2))) / x.size
    return Interval(mean, mean - z * se, mean + z * se, int(x.size))


def equivalence_bound(values: np.ndarray, reference: float, alpha: float = 0.05) -> float:
    """The smallest margin ``X`` for which two one-sided t-tests (TOST; Schuirmann
    1987) at level ``alpha`` show ``|mean - reference| < X``: the farther end of the
    ``1 - 2 alpha`` t-interval of the mean from ``reference``. A difference above
    ``X`` is ruled out at level ``alpha``."""
    if not 0.0 < alpha < 0.5:
        raise ValueError(f"alpha must lie in (0, 0.5), got {alpha!r}")
    ci = mean_interval(values, level=1.0 - 2.0 * alpha)
    return float(max(abs(ci.lo - reference), abs(ci.hi - reference)))


def tost(values: np.ndarray, reference: float, margin: float) -> float:
    """p-value of TOST for ``|mean - reference| < margin``: the larger of the two
    one-sided t-tests' p-values (scipy ``ttest_1samp``). Small means equivalence."""
    x = _as_1d(values, "values")
    lower = scipy.stats.ttest_1samp(x, reference - margin, alternative="greater").pvalue
    upper = scipy.stats.ttest_1samp(x, reference + margin, alternative="less").pvalue
    return float(max(lower, upper))


# --------------------------------------------------------------------------
# figures that are ratios of totals, and their paired changes (hand-written)
# --------------------------------------------------------------------------


def linearized(terms: Sequence[tuple[float, np.ndarray, np.ndarray]]) -> tuple[float, np.ndarray]:
    """A figure that is a weighted sum of ratios of totals over the same ``n`` units,
    ``value = sum_j c_j * sum(num_j) / sum(den_j)`` (``terms``: ``(c_j, num_j, den_j)``,
    each array one value per unit), and its per-unit influence values (delta method,
    linearisation of a ratio estimator; Cochran 1977, ch. 6):
    ``z_i = sum_j c_j (num_j[i] - R_j den_j[i]) / mean(den_j)``.

    The influence values have mean 0, and ``var(z) / n`` estimates the variance of the
    value. A plain mean is the term ``(1, x, ones)``, whose influence is ``x - mean(x)``.
    A term whose denominators are all 0 makes the value nan."""
    if not terms:
        raise ValueError("a figure needs at least one term")
    n = None
    value = 0.0
    z = None
    for coef, num, den in terms:
        x = _as_1d(num, "num")
        d = _as_1d(den, "den")
        if x.shape != d.shape or (n is not None and x.size != n):
            raise ValueError("every num and den must have one value per unit, the same units throughout")
        n = x.size
        total = float(d.sum())
        if n == 0 or total == 0:
            return _NAN, np.full(n, _NAN)
        ratio = float(x.sum()) / total
        value += coef * ratio
        part = coef * (x - ratio * d) / (total / n)
        z = part if z is None else z + part
    return value, z


def _t_interval(estimate: float, z: np.ndarray, level: float) -> tuple[float, float, float]:
    """``estimate`` with a t interval and two-sided p-value (against 0) from influence
    values ``z`` (standard error ``sd(z) / sqrt(n)``, n - 1 degrees of freedom)."""
    n = z.size
    if n < 2 or math.isnan(estimate):
        return _NAN, _NAN, _NAN
    se = float(np.std(z, ddof=1)) / math.sqrt(n)
    if se == 0.0:
        return estimate, estimate, 1.0 if estimate == 0.0 else 0.0
    t = float(scipy.special.stdtrit(n - 1, 0.5 + level / 2.0))  # t.ppf
    p = float(2.0 * scipy.special.stdtr(n - 1, -abs(estimate) / se))  # t.sf
    return estimate - t * se, estimate + t * se, p


def ratio_estimate(terms: Sequence[tuple[float, np.ndarray, np.ndarray]], level: float = 0.95) -> Interval:
    """A weighted sum of ratios of totals (:func:`linearized`) with a t interval on its
    linearised standard error. For a plain mean this is the usual t interval."""
    _check_level(level)
    value, z = linearized(terms)
    lo, hi, _ = _t_interval(value, z, level)
    return Interval(float(value), float(lo), float(hi), int(z.size))


def paired_ratio_change(
    terms_b: Sequence[tuple[float, np.ndarray, np.ndarray]],
    terms_a: Sequence[tuple[float, np.ndarray, np.ndarray]],
    level: float = 0.95,
) -> Difference:
    """Change ``B - A`` of a figure (:func:`linearized`) measured twice on the same units
    (e.g. the same seeds under two rule readings): the difference of the values, with a
    t interval and test on the paired differences of the influence values (delta
    method). For plain means (``den`` all ones) this is exactly the paired t-test and
    interval of :func:`paired_numeric`, a constant non-zero change included."""
    alpha = _check_level(level)
    vb, zb = linearized(terms_b)
    va, za = linearized(terms_a)
    if zb.shape != za.shape:
        raise ValueError("both figures must be measured on the same units")
    est = vb - va
    d = zb - za
    if d.size >= 2 and est != 0.0 and np.ptp(d) <= 1e-12 * max(1.0, float(np.abs(d).max())):  # (float sums leave ~1e-17)
        # every unit moved alike: the sign test, as paired_numeric (two games, each a win
        # better, were '+200 points [+200, +200], p < 1e-300')
        p = min(1.0, 2.0 * 0.5 ** d.size)
        return _difference(est, *((est, est) if p < alpha else (min(0.0, est), max(0.0, est))), p, alpha)
    lo, hi, p = _t_interval(est, d, level)
    return _difference(est, lo, hi, p, alpha)


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
    res = scipy.stats.chisquare(obs)
    return (float(res.statistic), float(res.pvalue))


def _finite_mask(p_values: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(p_values, dtype=float).ravel()
    if np.any((p < 0) | (p > 1)):
        raise ValueError("p-values must lie in [0, 1]")
    return p, ~np.isnan(p)


def _holm_adjusted(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values of finite ``p``: sorted ascending, the i-th
    (from 0) times ``m - i``, made non-decreasing, capped at 1 (Holm 1979). The same
    values as statsmodels ``multipletests(method="holm")``, without the ``gc.collect()``
    that routine runs on every call (70-150 ms in a process holding game frames)."""
    m = p.size
    order = np.argsort(p, kind="mergesort")
    adjusted = np.minimum(np.maximum.accumulate(p[order] * np.arange(m, 0, -1)), 1.0)
    out = np.empty(m)
    out[order] = adjusted
    return out


def holm(p_values: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm step-down rejections at family-wise error rate ``alpha`` (hypothesis ``i``
    is rejected when its adjusted p-value is at most ``alpha``, as statsmodels
    ``multipletests(method="holm")`` does); nan p-values are left out of the family and
    never rejected.
    """
    p, ok = _finite_mask(p_values)
    reject = np.zeros(p.shape, dtype=bool)
    if ok.any():
        reject[ok] = _holm_adjusted(p[ok]) <= alpha
    return [bool(r) for r in reject]


def holm_adjusted(p_values: Sequence[float]) -> np.ndarray:
    """Holm-adjusted p-values (the values of statsmodels ``multipletests(method="holm")``).

    Reject hypothesis ``i`` at level ``alpha`` iff ``adjusted[i] <= alpha``.
    nan inputs stay nan and do not count towards the family size.
    """
    p, ok = _finite_mask(p_values)
    out = np.full(p.shape, np.nan)
    if ok.any():
        out[ok] = _holm_adjusted(p[ok])
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


# --------------------------------------------------------------------------
# anytime-valid tests of a rate, for regression bands (hand-written: the
# libraries made for this do not install here: confseq 0.0.11, last released
# in 2023, does not build; expectation 0.6 needs Python >= 3.12)
# --------------------------------------------------------------------------

SIDES = ("below", "above")


def _log_beta_tail(a, b, x, side: str):
    """log P(Q < x) (side "below") or log P(Q > x) ("above") for Q ~ Beta(a, b);
    the upper tail is computed as a lower tail of Beta(b, a) so it keeps its digits."""
    from scipy import special

    with np.errstate(divide="ignore"):
        if side == "below":
            return np.log(special.betainc(a, b, x))
        return np.log(special.betainc(b, a, 1.0 - x))


def mixture_log_e(successes, n, p0: float, side: str, concentration: float):
    """Log of the one-sided beta-binomial mixture e-process against the rate ``p0``.

    ``side="below"`` measures evidence that the rate is below ``p0`` (null
    hypothesis ``p >= p0``); ``side="above"``, evidence that it is above (null
    ``p <= p0``). With ``S`` successes in ``n`` trials::

        E_n = integral of L_n(q) / L_n(p0) over q ~ Beta(c p0, c (1 - p0)) restricted to the alternative side

    (the conjugate mixture of Robbins 1970; Howard, Ramdas, McAuliffe and Sekhon
    2021, "Time-uniform, nonparametric, nonasymptotic confidence sequences",
    Ann. Statist. 49, section 3, one-sided beta-binomial mixture). For ``q`` on the
    alternative side, ``L_n(q) / L_n(p0)`` has expectation at most 1 under every
    rate of the null, so ``E_n`` is a non-negative supermartingale there and, by
    Ville's inequality, ``P(E_n >= 1/a for some n) <= a``: the test may be read
    after every game or every batch and stopped at any time without changing its
    error rate. ``c`` (``concentration``, a prior worth ``c`` games) sets where the
    test is most sensitive: a prior standard deviation ``sqrt(p0 (1 - p0) / c)``
    near the effect to be found. Works on arrays of ``successes`` and ``n``.
    """
    from scipy import special

    if side not in SIDES:
        raise ValueError(f"side must be one of {SIDES}, got {side!r}")
    if not 0.0 < p0 < 1.0:
        raise ValueError(f"p0 must lie in (0, 1), got {p0!r}")
    if not concentration > 0.0:
        raise ValueError(f"concentration must be positive, got {concentration!r}")
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    a0, b0 = concentration * p0, concentration * (1.0 - p0)
    a1, b1 = a0 + s, b0 + n - s
    out = (special.betaln(a1, b1) - special.betaln(a0, b0)
           + _log_beta_tail(a1, b1, p0, side) - _log_beta_tail(a0, b0, p0, side)
           - s * math.log(p0) - (n - s) * math.log1p(-p0))
    return out if out.ndim else float(out)


def e_boundary(n, p0: float, side: str, concentration: float, level: float) -> np.ndarray:
    """For each ``n``, the successes at which the test of :func:`mixture_log_e`
    rejects at ``level`` (``E_n >= 1 / level``): the largest count that rejects for
    ``side="below"`` (-1 if none), the smallest for ``"above"`` (``n + 1`` if none).
    The e-value is monotone in the count, so a bisection over integers finds it."""
    n = np.atleast_1d(np.asarray(n, dtype=np.int64))
    target = math.log(1.0 / level)
    below = side == "below"
    lo = np.full(n.shape, -1, np.int64)  # below: rejects (virtually); above: does not
    hi = n + 1  # below: does not reject; above: rejects (virtually)
    while True:
        open_ = hi - lo > 1
        if not open_.any():
            break
        mid = (lo + hi) // 2
        rejects = np.asarray(mixture_log_e(np.clip(mid, 0, n), n, p0, side, concentration)) >= target
        move_lo = open_ & (rejects if below else ~rejects)
        move_hi = open_ & ~move_lo
        lo = np.where(move_lo, mid, lo)
        hi = np.where(move_hi, mid, hi)
    return lo if below else hi


def _prior_games(p0: float, effect: float) -> float:
    """Concentration of a beta prior centred on ``p0`` whose standard deviation is ``effect``."""
    return max(p0 * (1.0 - p0) / effect**2 - 1.0, 1.0)


HOLDS, FAIL_LOW, FAIL_HIGH, CONTINUE = "holds", "fails low", "fails high", "continue"


@dataclass(frozen=True)
class BandTest:
    """The sequential check of one regression band: is the rate still in ``[lo, hi]``?

    ``centre`` is the rate the band was built around and ``detect`` the size of
    change it must catch: a rate at ``centre - detect`` or below (``centre +
    detect`` or above) must fail. After every batch the running totals ``(S, n)``
    are read by four one-sided anytime-valid tests (:func:`mixture_log_e`):

    * fails low: reject ``p >= lo`` at level ``fail_level`` (so the rate is below ``lo``);
    * fails high: reject ``p <= hi`` at level ``fail_level``;
    * holds: at the same look, reject ``p <= centre - detect`` and ``p >= centre +
      detect``, each at level ``beta / 2`` (so the rate has not moved by ``detect``);
    * otherwise play on; at the cap the verdict is "undecided".

    Error rates, for any batch size and any stopping (Ville's inequality):

    * false alarm: a rate inside the band fails with probability at most
      ``fail_level`` per edge, together ``0.9 * alpha``; it ends undecided with
      probability at most ``0.1 * alpha`` if the cap passes :meth:`cap_bounds`.
      A file of ``k`` bands gives each ``alpha = file alpha / k`` (Bonferroni), so
      the chance that anything fails, or ends undecided, while every rate is
      inside its band is at most the file's alpha;
    * miss: a rate at ``centre - detect`` or below (``+ detect`` or above) holds
      with probability at most ``beta / 2`` and, with a cap that passes
      :meth:`cap_bounds`, reaches the cap without failing with probability at most
      ``beta / 2``: it fails with probability at least ``1 - beta``.

    An edge at 0 (``lo = 0``) or 1 (``hi = 1``) cannot be crossed and has no test
    (a one-sided band). ``detect`` must exceed the distance from ``centre`` to each
    real edge; ``centre - detect`` may be negative (a rare rate that can only rise).
    """

    lo: float
    hi: float
    centre: float
    detect: float
    alpha: float  # this band's share of the file's false-alarm rate
    beta: float  # miss rate at a change of ``detect``

    def __post_init__(self) -> None:
        if not 0.0 <= self.lo <= self.centre <= self.hi <= 1.0:
            raise ValueError(f"need 0 <= lo <= centre <= hi <= 1, got lo={self.lo}, centre={self.centre}, hi={self.hi}")
        if not (0.0 < self.alpha < 0.5 and 0.0 < self.beta < 0.5):
            raise ValueError("alpha and beta must lie in (0, 0.5)")
        if not self.detect > 0.0:
            raise ValueError(f"detect must be positive, got {self.detect!r}")
        if self.lo > 0.0 and not self.centre - self.detect < self.lo:
            raise ValueError(f"detect {self.detect} must exceed centre - lo = {self.centre - self.lo:.6g}")
        if self.hi < 1.0 and not self.centre + self.detect > self.hi:
            raise ValueError(f"detect {self.detect} must exceed hi - centre = {self.hi - self.centre:.6g}")
        if self.lo <= 0.0 and self.hi >= 1.0:
            raise ValueError("a band needs at least one edge inside (0, 1)")

    # -- the four tests -----------------------------------------------------------------
    @property
    def edges(self) -> int:
        return int(self.lo > 0.0) + int(self.hi < 1.0)

    @property
    def fail_level(self) -> float:
        """Level of each edge's fail test: 90% of the band's alpha, split over its edges."""
        return 0.9 * self.alpha / self.edges

    @property
    def hold_level(self) -> float:
        return self.beta / 2.0

    @property
    def down(self) -> float:
        """The rate at or below which the band must fail (``centre - detect``)."""
        return self.centre - self.detect

    @property
    def up(self) -> float:
        """The rate at or above which the band must fail (``centre + detect``)."""
        return self.centre + self.detect

    def _c_fail(self, edge: float, target: float) -> float:
        # a prior as wide as the distance to the rate the test must catch
        return _prior_games(edge, max(abs(edge - target), 1e-6))

    @property
    def c_low(self) -> float:
        return self._c_fail(self.lo, max(self.down, 0.0)) if self.lo > 0.0 else 0.0

    @property
    def c_high(self) -> float:
        return self._c_fail(self.hi, min(self.up, 1.0)) if self.hi < 1.0 else 0.0

    def boundaries(self, n) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """For each ``n``: (fails low if S <= this, fails high if S >= this, holds if
        this <= S <= that); the last two are the hold window's ends."""
        n = np.atleast_1d(np.asarray(n, dtype=np.int64))
        fail_low = (e_boundary(n, self.lo, "below", self.c_low, self.fail_level)
                    if self.lo > 0.0 else np.full(n.shape, -1, np.int64))
        fail_high = (e_boundary(n, self.hi, "above", self.c_high, self.fail_level)
                     if self.hi < 1.0 else n + 1)
        # a side without an edge (lo = 0, hi = 1) has nothing to hold: a one-sided band
        # only has to show that its rate has not risen (or fallen) by detect
        hold_low = (e_boundary(n, self.down, "above", _prior_games(self.down, self.detect), self.hold_level)
                    if self.lo > 0.0 and self.down > 0.0 else np.zeros(n.shape, np.int64))
        hold_high = (e_boundary(n, self.up, "below", _prior_games(self.up, self.detect), self.hold_level)
                     if self.hi < 1.0 and self.up < 1.0 else n.copy())
        return fail_low, fail_high, hold_low, hold_high

    def decide(self, successes: int, n: int) -> str:
        """The verdict after ``successes`` in ``n`` games: fails low, fails high, holds or continue."""
        fl, fh, hl, hh = (int(x[0]) for x in self.boundaries([n]))
        return verdict_at(successes, fl, fh, hl, hh)

    # -- what the check may print ----------------------------------------------------------
    def interval(self, successes: int, n: int) -> Interval:
        """The anytime-valid confidence interval that the fail tests use: every rate
        that neither fail test (at ``fail_level`` on each side) rejects. A band fails
        low exactly when this interval lies below ``lo``, high when above ``hi``."""
        _check_counts(successes, n)
        if n == 0:
            return Interval(_NAN, 0.0, 1.0, 0)
        est = successes / n
        c_up = self.c_low or self.c_high  # the upper bound inverts the "below" test
        c_down = self.c_high or self.c_low
        target = math.log(1.0 / self.fail_level)
        eps = 1e-12

        def bound(side: str, conc: float) -> float:
            far = 1.0 - eps if side == "below" else eps
            if mixture_log_e(successes, n, far, side, conc) < target:
                return 1.0 if side == "below" else 0.0
            near, far_ = (min(max(est, eps), 1 - eps), far)
            for _ in range(60):  # bisection: the e-value grows with the distance from the estimate
                mid = 0.5 * (near + far_)
                if mixture_log_e(successes, n, mid, side, conc) >= target:
                    far_ = mid
                else:
                    near = mid
            return far_

        return Interval(est, bound("above", c_down), bound("below", c_up), int(n))

    def describe_detect(self) -> str:
        """The change the band is built to catch, in points, and the rates it means."""
        def pct(x: float) -> str:
            return f"{100 * x:.2f}%" if x >= 0.01 else f"{100 * x:.3f}%"

        low = self.lo > 0.0 and self.down > 0.0
        high = self.hi < 1.0 and self.up < 1.0
        sign = "+-" if low and high else ("-" if low else "+")
        rates = " or ".join(([f"<= {pct(self.down)}"] if low else []) + ([f">= {pct(self.up)}"] if high else []))
        return f"{sign}{100 * self.detect:.3g} pts ({rates})"

    # -- error rates at a cap (exact binomial sums at the cap, which bound the
    #    sequential ones from above whatever happened before it) -------------------------
    def cap_bounds(self, cap) -> dict[str, np.ndarray]:
        """Upper bounds, for each cap in ``cap``, on: ``miss_low`` / ``miss_high``, the
        chance that a rate of ``centre -+ detect`` has not failed at the cap
        (must be <= beta / 2), and ``undecided``, the chance that a rate inside the
        band has not held (must be <= 0.1 alpha)."""
        from scipy.stats import binom

        cap = np.atleast_1d(np.asarray(cap, dtype=np.int64))
        fl, fh, hl, hh = self.boundaries(cap)
        zero = np.zeros(cap.shape)
        miss_low = binom.sf(fl, cap, self.down) if self.lo > 0.0 and self.down > 0.0 else zero
        miss_high = binom.cdf(fh - 1, cap, self.up) if self.hi < 1.0 and self.up < 1.0 else zero
        # not holding: S below the window (worst at p = lo) or above it (worst at p = hi)
        undecided = (binom.cdf(hl - 1, cap, self.lo) if self.lo > 0.0 else zero) + binom.sf(hh, cap, self.hi)
        return {"miss_low": miss_low, "miss_high": miss_high, "undecided": undecided}

    def cap_ok(self, cap) -> np.ndarray:
        b = self.cap_bounds(cap)
        return (b["miss_low"] <= self.beta / 2) & (b["miss_high"] <= self.beta / 2) & (b["undecided"] <= 0.1 * self.alpha)

    def required_cap(self, step: int = 500, limit: int = 50_000_000) -> int:
        """The smallest cap (a multiple of ``step``) at which :meth:`cap_ok` holds."""
        return _required_cap(self, step, limit)

    def operating_characteristic(self, rate: float, batch: int, cap: int) -> dict[str, float]:
        """Exact chances of each verdict when the true rate is ``rate``, read after
        every ``batch`` games up to ``cap`` (the distribution of the running count of
        the undecided runs, carried from look to look), and the expected games."""
        from scipy.signal import fftconvolve
        from scipy.stats import binom

        looks = list(range(batch, cap, batch)) + [cap]
        dist = np.ones(1)
        out = {HOLDS: 0.0, FAIL_LOW: 0.0, FAIL_HIGH: 0.0}
        games = 0.0
        fl, fh, hl, hh = self.boundaries(looks)
        prev = 0
        for j, n in enumerate(looks):
            step = binom.pmf(np.arange(n - prev + 1), n - prev, rate)
            dist = np.clip(fftconvolve(dist, step) if dist.size > 1 else step * dist[0], 0.0, None)
            prev = n
            s = np.arange(dist.size)
            low = s <= fl[j]
            high = (s >= fh[j]) & ~low
            hold = (s >= hl[j]) & (s <= hh[j]) & ~low & ~high
            for key, mask in ((FAIL_LOW, low), (FAIL_HIGH, high), (HOLDS, hold)):
                mass = float(dist[mask].sum())
                out[key] += mass
                games += mass * n
            dist = np.where(low | high | hold, 0.0, dist)
        out["undecided"] = float(dist.sum())
        games += out["undecided"] * cap
        out["games"] = games
        return out


@functools.lru_cache(maxsize=1024)
def _required_cap(test: BandTest, step: int, limit: int) -> int:
    # memoised: a pure function of the band (frozen) that costs about 30 ms, asked on every
    # load of a bands file
    hi = step
    while not test.cap_ok(hi)[0]:
        hi *= 2
        if hi > limit:
            raise ValueError(f"no cap up to {limit:,} games reaches these error rates; detect {test.detect:g} "
                             f"leaves too small a gap to the band's edges")
    grid = np.arange(step, hi + step, step)
    ok = test.cap_ok(grid)
    return int(grid[np.argmax(ok)])


def verdict_at(s: int, fl: int, fh: int, hl: int, hh: int) -> str:
    """The verdict for ``s`` successes given one look's :meth:`BandTest.boundaries`."""
    if s <= fl:
        return FAIL_LOW
    if s >= fh:
        return FAIL_HIGH
    if hl <= s <= hh:
        return HOLDS
    return CONTINUE


def band_verdicts(successes: np.ndarray, bounds) -> np.ndarray:
    """Vectorised :meth:`BandTest.decide` for counts at one look: 0 continue,
    1 holds, 2 fails low, 3 fails high (for simulations of the check)."""
    fl, fh, hl, hh = bounds
    s = np.asarray(successes)
    out = np.where((s >= hl) & (s <= hh), 1, 0)
    out = np.where(s >= fh, 3, out)
    return np.where(s <= fl, 2, out)
