"""Tests for simkit.stats against published / hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simkit.stats import (
    linearized,
    paired_ratio_change,
    ratio_estimate,
    BandTest,
    e_boundary,
    mixture_log_e,
    SPRT,
    Difference,
    Interval,
    Paired,
    chi2_uniform,
    clopper_pearson,
    diff_independent,
    holm,
    holm_adjusted,
    independent_numeric,
    mean_interval,
    paired_binary,
    paired_numeric,
    required_n_independent,
    required_n_paired,
    tango_interval,
    tango_test,
    clustered_mean,
    clustered_rate,
    design_effect,
    equivalence_bound,
    tost,
    wilson,
)


def _pairs(
    both: int, only_a: int, only_b: int, neither: int
) -> tuple[np.ndarray, np.ndarray]:
    """Outcome vectors for variants A and B realising a given 2x2 paired table."""
    a = np.array([True] * both + [True] * only_a + [False] * only_b + [False] * neither)
    b = np.array([True] * both + [False] * only_a + [True] * only_b + [False] * neither)
    return a, b


# ---------------------------------------------------------------- intervals


def test_interval_str():
    assert str(Interval(0.512, 0.49, 0.534, 100)) == "0.512 [0.490, 0.534]"


def test_wilson_8_of_10():
    # Published Wilson 95% interval for 8/10: 0.4902 to 0.9433 (e.g. Newcombe 1998).
    iv = wilson(8, 10)
    assert iv.estimate == pytest.approx(0.8)
    assert iv.lo == pytest.approx(0.4902, abs=5e-4)
    assert iv.hi == pytest.approx(0.9433, abs=5e-4)
    assert iv.n == 10


def test_wilson_zero_successes():
    iv = wilson(0, 10)
    assert iv.lo == pytest.approx(0.0, abs=1e-12)
    # Closed form for x = 0: upper = z^2 / (n + z^2).
    z = 1.959963984540054
    assert iv.hi == pytest.approx(z * z / (10 + z * z), abs=1e-9)


def test_wilson_empty():
    iv = wilson(0, 0)
    assert math.isnan(iv.estimate)
    assert (iv.lo, iv.hi, iv.n) == (0.0, 1.0, 0)


def test_clopper_pearson_8_of_10():
    iv = clopper_pearson(8, 10)
    assert iv.lo == pytest.approx(0.4439, abs=5e-4)
    assert iv.hi == pytest.approx(0.9748, abs=5e-4)


@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
def test_wilson_and_clopper_pearson_are_statsmodels_intervals(level):
    """The two intervals are statsmodels' proportion_confint, written out (importing
    statsmodels costs a command about 0.8 s): equal to it on every count of small and
    large samples."""
    from statsmodels.stats.proportion import proportion_confint

    for n in (1, 2, 7, 30, 101, 2000, 1_000_000):
        for x in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            for ours, method in ((wilson, "wilson"), (clopper_pearson, "beta")):
                iv = ours(x, n, level)
                lo, hi = proportion_confint(x, n, alpha=1 - level, method=method)
                assert (iv.lo, iv.hi) == (pytest.approx(float(lo), abs=1e-12), pytest.approx(float(hi), abs=1e-12)), (method, x, n)


def test_clopper_pearson_extremes():
    # x = 0: upper = 1 - (alpha/2)^(1/n); x = n: lower = (alpha/2)^(1/n).
    assert clopper_pearson(0, 10).lo == 0.0
    assert clopper_pearson(0, 10).hi == pytest.approx(1 - 0.025 ** (1 / 10), abs=1e-9)
    assert clopper_pearson(10, 10).hi == 1.0
    assert clopper_pearson(10, 10).lo == pytest.approx(0.025 ** (1 / 10), abs=1e-9)


def test_invalid_arguments():
    with pytest.raises(ValueError):
        wilson(11, 10)
    with pytest.raises(ValueError):
        wilson(1, 10, level=1.0)


def test_mean_interval_known():
    # mean 2.5, sd sqrt(5/3), se = sd/2, t_{0.975,3} = 3.182446305
    iv = mean_interval(np.array([1.0, 2.0, 3.0, 4.0]))
    half = 3.182446305284263 * math.sqrt(5 / 3) / 2
    assert iv.estimate == pytest.approx(2.5)
    assert iv.lo == pytest.approx(2.5 - half, abs=1e-9)
    assert iv.hi == pytest.approx(2.5 + half, abs=1e-9)
    assert iv.n == 4


def test_mean_interval_small():
    one = mean_interval(np.array([3.0]))  # one value says nothing of the spread (it said 3 [3, 3])
    assert (one.estimate, one.lo, one.hi, one.n) == (3.0, -math.inf, math.inf, 1)
    empty = mean_interval(np.array([]))
    assert empty.n == 0 and math.isnan(empty.estimate) and math.isnan(empty.lo)


# ---------------------------------------------------------------- two proportions


def test_diff_independent_newcombe_published():
    # Newcombe (1998), example 56/70 vs 48/80, method 10: 0.0524 to 0.3339.
    d = diff_independent(56, 70, 48, 80)
    assert isinstance(d, Difference)
    assert d.estimate == pytest.approx(0.2)
    assert d.lo == pytest.approx(0.0524, abs=5e-4)
    assert d.hi == pytest.approx(0.3339, abs=5e-4)


def test_diff_independent_score_p_value():
    # Table [[8, 2], [2, 8]]: Pearson chi-square 7.2 on 1 df -> p = erfc(sqrt(3.6)).
    d = diff_independent(8, 10, 2, 10)
    assert d.p_value == pytest.approx(math.erfc(math.sqrt(3.6)), rel=1e-9)
    assert d.significant
    assert not diff_independent(8, 10, 2, 10, level=0.999).significant


def test_diff_independent_degenerate():
    for x in (0, 10):
        d = diff_independent(x, 10, x, 10)
        assert d.estimate == 0.0
        assert d.p_value == 1.0
        assert not d.significant
        assert d.lo < 0 < d.hi


# ---------------------------------------------------------------- paired binary


def test_paired_binary_score_test_small():
    # only_a = 8, only_b = 2: the score test Tango's interval inverts is McNemar's
    # without correction, chi-square (8 - 2)^2 / 10 = 3.6, p = 0.05778.
    a, b = _pairs(both=20, only_a=8, only_b=2, neither=10)
    r = paired_binary(a, b)
    assert isinstance(r, Paired)
    assert (r.n, r.both, r.only_a, r.only_b, r.neither) == (40, 20, 8, 2, 10)
    assert r.agreement == pytest.approx(30 / 40)
    assert r.estimate == pytest.approx(6 / 40)
    assert r.p_value == pytest.approx(math.erfc(math.sqrt(3.6 / 2)), abs=1e-12)
    assert r.p_value == pytest.approx(0.05778, abs=1e-5)
    assert not r.significant and r.lo < 0 < r.hi


def test_paired_binary_tango_published():
    # Cavo et al. (2012) table [[59, 6], [16, 80]] from Fagerland, Lydersen & Laake,
    # "Statistical Analysis of Contingency Tables": Tango score CI -0.0621 (-0.1240 to -0.0054),
    # asymptotic McNemar (the score test the interval inverts) P = 0.033; the exact
    # conditional McNemar test (P = 0.0525) would contradict the interval, which excludes 0.
    a, b = _pairs(both=59, only_a=6, only_b=16, neither=80)
    r = paired_binary(a, b)
    assert r.estimate == pytest.approx(-0.0621, abs=5e-5)
    assert r.lo == pytest.approx(-0.1240, abs=5e-5)
    assert r.hi == pytest.approx(-0.0054, abs=5e-5)
    assert r.p_value == pytest.approx(0.0330, abs=5e-5)
    assert r.significant


def test_tango_second_published_example():
    # Bentur et al. (2009) table [[1, 1], [7, 12]]: Tango CI -0.517 to -0.026.
    lo, hi = tango_interval(1, 7, 21)
    assert lo == pytest.approx(-0.517, abs=5e-4)
    assert hi == pytest.approx(-0.026, abs=5e-4)


def test_tango_no_discordant_pairs():
    # With b = c = 0 the score equation solves to +-z^2 / (n + z^2).
    z = 1.959963984540054
    lo, hi = tango_interval(0, 0, 20)
    assert hi == pytest.approx(z * z / (20 + z * z), abs=1e-8)
    assert lo == pytest.approx(-hi, abs=1e-8)


def test_paired_binary_no_discordant():
    a, b = _pairs(both=5, only_a=0, only_b=0, neither=5)
    r = paired_binary(a, b)
    assert r.p_value == 1.0
    assert r.estimate == 0.0
    assert r.agreement == 1.0
    assert r.lo < 0 < r.hi


def test_paired_binary_large_score_test():
    # 30 vs 10 discordant: chi-square (30 - 10)^2 / 40 = 10 on 1 df.
    a, b = _pairs(both=50, only_a=30, only_b=10, neither=60)
    r = paired_binary(a, b)
    assert r.p_value == pytest.approx(math.erfc(math.sqrt(10 / 2)), rel=1e-9)
    assert r.significant


def test_paired_test_and_interval_agree_on_every_table():
    """The p-value is below 1 - level exactly when the interval excludes 0 (McNemar's
    exact or corrected test and Tango's interval disagreed on 342 of 12,126 tables)."""
    rng = np.random.default_rng(3)
    tables = [(b, c, n) for n in (10, 25, 60) for b in range(0, n + 1, 3) for c in range(0, n - b + 1, 3)]
    tables += [(int(b), int(c), 100_000) for b, c in rng.integers(0, 3000, (300, 2))]
    for level in (0.95, 0.99):
        for b, c, n in tables:
            lo, hi = tango_interval(b, c, n, level)
            p = tango_test(b, c, n)
            assert (p < 1 - level) == (lo > 0 or hi < 0), (b, c, n, level, p, lo, hi)


# ---------------------------------------------------------------- numeric


def test_paired_numeric_known():
    # differences [1, 1, 3]: mean 5/3, sd 2/sqrt(3), t = 2.5 on 2 df, p = 1 - 2.5/sqrt(8.25)
    d = paired_numeric(np.array([1.0, 2.0, 5.0]), np.array([0.0, 1.0, 2.0]))
    assert d.estimate == pytest.approx(5 / 3)
    assert d.p_value == pytest.approx(1 - 2.5 / math.sqrt(2 + 2.5**2), rel=1e-9)
    half = 4.302652729911275 * (2 / math.sqrt(3)) / math.sqrt(3)  # t_{0.975,2} * se
    assert d.lo == pytest.approx(5 / 3 - half, abs=1e-9)
    assert d.hi == pytest.approx(5 / 3 + half, abs=1e-9)


def test_paired_numeric_all_zero_differences():
    x = np.array([1.0, 2.0, 3.0])
    d = paired_numeric(x, x.copy())
    assert (d.estimate, d.lo, d.hi, d.p_value, d.significant) == (
        0.0,
        0.0,
        0.0,
        1.0,
        False,
    )


def test_paired_numeric_one_constant_difference_is_a_sign_test():
    """Two games that each lost one round gave p = 0 ("significant") and [-1, -1]: the
    t-test is undefined there. Every pair on one side: p = 2 / 2^n, and the interval
    reaches 0 until that excludes no difference."""
    two = paired_numeric(np.array([9.0, 10.0]), np.array([10.0, 11.0]))
    assert (two.estimate, two.lo, two.hi, two.p_value, two.significant) == (-1.0, -1.0, 0.0, 0.5, False)
    five, six = (paired_numeric(np.full(n, 3.0), np.full(n, 1.0)) for n in (5, 6))
    assert (five.p_value, five.lo, five.hi, five.significant) == (0.0625, 0.0, 2.0, False)
    assert (six.p_value, six.lo, six.hi, six.significant) == (0.03125, 2.0, 2.0, True)


def test_paired_numeric_nearly_equal_differences_warn_nobody():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = paired_numeric(np.array([10.5, 10.5 + 1e-15]), np.array([0.0, 0.0]))
        w = independent_numeric(np.array([10.5, 10.5 + 1e-15]), np.array([2.0, 2.0 + 1e-15]))  # (compare -n 2 printed it)
    assert d.lo <= d.estimate <= d.hi and w.lo <= w.estimate <= w.hi


def test_numeric_differences_of_one_game_have_no_interval():
    """compare -n 1 printed '-1.000 [-1.000, -1.000]' for one game's difference."""
    for d in (paired_numeric(np.array([10.0]), np.array([11.0])), independent_numeric(np.array([10.0]), np.array([11.0, 12.0]))):
        assert d.lo == -math.inf and d.hi == math.inf and math.isnan(d.p_value)


def test_independent_numeric_constant_samples_are_a_permutation_test():
    """Two samples each of one value: the t-test is undefined (it said p = 0 for 2 games
    against 2). Every value of one beyond every value of the other has chance
    2 / C(n_a + n_b, n_a) when the samples are exchangeable: 1/3 for 2 and 2, 1/126 for 5 and 5."""
    two = independent_numeric(np.full(2, 11.0), np.full(2, 10.0))
    assert two.p_value == pytest.approx(1 / 3) and (two.lo, two.hi) == (0.0, 1.0)
    five = independent_numeric(np.full(5, 11.0), np.full(5, 10.0))
    assert five.p_value == pytest.approx(1 / 126) and (five.lo, five.hi) == (1.0, 1.0)
    same = independent_numeric(np.full(3, 4.0), np.full(2, 4.0))
    assert same.p_value == 1.0 and (same.lo, same.hi) == (0.0, 0.0)


def test_games_for_t_known_values():
    """28 + 25 G1^2 (Sugden, Smith & Jones 2000), G1 the adjusted sample skewness
    (scipy.stats.skew with bias=False): 2 for 0, 0, 0, 10, hence more than 128 values."""
    from scipy.stats import skew

    from simkit.stats import games_for_t

    x = np.array([0.0, 0.0, 0.0, 10.0])
    assert skew(x, bias=False) == pytest.approx(2.0) and games_for_t(x) == 129
    assert games_for_t(np.array([1.0, 2.0, 3.0, 4.0, 5.0])) == 29 and games_for_t(np.full(9, 2.0)) == 29


def test_a_constant_change_of_a_figure_is_a_sign_test():
    """Two games under two readings, each a win better under B: the t-test is undefined
    (it said p = 0 and [+1, +1], which sensitivity printed as '+200 pp, p < 1e-300,
    significant'). As paired_numeric: p = 2 / 2^n, and the interval reaches 0 until then."""
    from simkit.stats import paired_ratio_change

    ones = np.ones(2)
    two = paired_ratio_change([(1.0, np.ones(2), ones)], [(1.0, np.zeros(2), ones)])
    assert two.p_value == pytest.approx(0.5) and (two.lo, two.hi) == (0.0, 1.0) and not two.significant
    ones = np.ones(8)
    eight = paired_ratio_change([(1.0, np.ones(8), ones)], [(1.0, np.zeros(8), ones)])
    assert eight.p_value == pytest.approx(2 / 256) and (eight.lo, eight.hi) == (1.0, 1.0) and eight.significant


def test_independent_numeric_welch():
    # a: mean 2, var 1, n 3; b: mean 5, var 1, n 3 -> se = sqrt(2/3), t = -3/se,
    # Welch df = 4 (equal variances and sizes).
    a = np.array([1.0, 2.0, 3.0])
    b = np.array([4.0, 5.0, 6.0])
    d = independent_numeric(a, b)
    se = math.sqrt(2 / 3)
    t4 = 2.7764451051977987  # t_{0.975, 4}
    assert d.estimate == pytest.approx(-3.0)
    assert d.lo == pytest.approx(-3 - t4 * se, abs=1e-9)
    assert d.hi == pytest.approx(-3 + t4 * se, abs=1e-9)
    # two-sided t-test p for t on 4 df: 1 - t*(t^2+6)/(t^2+4)^{3/2}
    t = 3 / se
    assert d.p_value == pytest.approx(
        1 - t * (t * t + 6) / (t * t + 4) ** 1.5, rel=1e-9
    )
    assert d.significant


# ---------------------------------------------------------------- chi-square and Holm


def test_chi2_uniform_equal_counts():
    stat, p = chi2_uniform(np.array([10, 10, 10]))
    assert stat == pytest.approx(0.0)
    assert p == pytest.approx(1.0)


def test_chi2_uniform_extreme():
    stat, p = chi2_uniform(np.array([30, 0, 0]))
    assert stat == pytest.approx(60.0)
    # chi-square survival with 2 df is exp(-x / 2)
    assert p == pytest.approx(math.exp(-30), rel=1e-9)


def test_chi2_uniform_fractional_counts():
    # expected 2 each: (0.25 + 0.25 + 0) / 2 = 0.25; p = exp(-0.125)
    stat, p = chi2_uniform(np.array([2.5, 1.5, 2.0]))
    assert stat == pytest.approx(0.25)
    assert p == pytest.approx(math.exp(-0.125), rel=1e-9)


def test_holm():
    p = [0.01, 0.04, 0.03, 0.005]
    assert holm(p, alpha=0.05) == [True, False, False, True]
    # sorted: 0.005*4=0.02, 0.01*3=0.03, 0.03*2=0.06, max(0.04, 0.06)=0.06
    np.testing.assert_allclose(holm_adjusted(p), [0.03, 0.06, 0.06, 0.02])


def test_holm_matches_statsmodels(monkeypatch):
    import gc

    from statsmodels.stats.multitest import multipletests

    # multipletests runs a full garbage collection on every call: 0.25 s each in a test worker's heap
    monkeypatch.setattr(gc, "collect", lambda *args: 0)
    rng = np.random.default_rng(0)
    for m in (1, 2, 5, 30):
        for _ in range(20):
            p = rng.random(m) ** 3
            p[rng.random(m) < 0.2] = p[0]  # ties
            reject, adjusted, _, _ = multipletests(p, alpha=0.05, method="holm")
            np.testing.assert_allclose(holm_adjusted(p), adjusted, rtol=1e-12)
            assert holm(p, alpha=0.05) == [bool(r) for r in reject]


def test_holm_ignores_nan():
    assert holm([0.01, float("nan"), 0.02]) == [True, False, True]
    adj = holm_adjusted([0.01, float("nan"), 0.02])
    assert (
        adj[0] == pytest.approx(0.02)
        and math.isnan(adj[1])
        and adj[2] == pytest.approx(0.02)
    )


# ---------------------------------------------------------------- sample sizes


def test_required_n():
    z = 1.959963984540054
    assert required_n_independent(0.5, 0.05) == math.ceil(z * z * 0.5 / 0.0025)  # 769
    assert required_n_paired(0.2, 0.05) == math.ceil(z * z * 0.2 / 0.0025)  # 308
    assert required_n_paired(0.2, 0.05) < required_n_independent(0.5, 0.05)


# ---------------------------------------------------------------- SPRT


def test_sprt_bounds_and_llr_hand_computed():
    s = SPRT(p0=0.5, p1=0.6, alpha=0.05, beta=0.05)
    assert s.upper == pytest.approx(math.log(19))
    assert s.lower == pytest.approx(-math.log(19))
    # 7 of 10: 7 ln(0.6/0.5) + 3 ln(0.4/0.5) = 1.2762509 - 0.6694307
    assert s.llr(7, 10) == pytest.approx(0.6068202, abs=1e-7)
    assert s.llr(0, 0) == 0.0


def test_sprt_decide_thresholds():
    # Each success adds ln(11/9) = 0.2007, each failure subtracts it; ln(19) = 2.944
    s = SPRT(0.45, 0.55, 0.05, 0.05)
    assert s.decide(14, 14) == "continue"  # 2.809
    assert s.decide(15, 15) == "H1"  # 3.010
    assert s.decide(0, 15) == "H0"
    assert s.decide(50, 100) == "continue"


def test_sprt_rejects_bad_parameters():
    with pytest.raises(ValueError):
        SPRT(0.5, 0.5, 0.05, 0.05)
    with pytest.raises(ValueError):
        SPRT(0.0, 0.5, 0.05, 0.05)


def _run_sprt(s: SPRT, draws: np.ndarray) -> str:
    successes = np.cumsum(draws)
    for i in range(draws.size):
        verdict = s.decide(int(successes[i]), i + 1)
        if verdict != "continue":
            return verdict
    return "continue"


@pytest.mark.parametrize(("truth", "correct"), [(0.45, "H0"), (0.55, "H1")])
def test_sprt_error_rates(truth, correct):
    s = SPRT(0.45, 0.55, 0.05, 0.05)
    rng = np.random.default_rng(20240611 if correct == "H0" else 7)
    draws = rng.random((400, 3000)) < truth
    verdicts = [_run_sprt(s, row) for row in draws]
    undecided = verdicts.count("continue")
    wrong = sum(v not in (correct, "continue") for v in verdicts)
    assert undecided <= 4
    assert wrong / len(verdicts) < 0.09


# ---------------------------------------------------------------- anytime-valid band tests


def test_mixture_e_value_hand_computed():
    # c = 2, p0 = 1/2: the prior is Beta(1, 1), truncated to one side, density 2 there.
    # One failure, evidence below 1/2: integral_0^1/2 (1 - q) / (1/2) * 2 dq = 1.5
    assert mixture_log_e(0, 1, 0.5, "below", 2.0) == pytest.approx(math.log(1.5))
    # two failures: integral_0^1/2 (1 - q)^2 / (1/4) * 2 dq = 7/3
    assert mixture_log_e(0, 2, 0.5, "below", 2.0) == pytest.approx(math.log(7 / 3))
    # one success, evidence above 1/2: integral_1/2^1 q / (1/2) * 2 dq = 1.5
    assert mixture_log_e(1, 1, 0.5, "above", 2.0) == pytest.approx(math.log(1.5))


@pytest.mark.parametrize(("s", "n", "p0", "side", "c"), [
    (30, 200, 0.25, "below", 150.0), (70, 200, 0.25, "above", 150.0),
    (2, 5000, 0.003, "below", 400.0), (40, 5000, 0.003, "above", 400.0),
])
def test_mixture_e_value_matches_the_integral(s, n, p0, side, c):
    from scipy import integrate
    from scipy import stats as sps

    prior = sps.beta(c * p0, c * (1 - p0))
    lo, hi = (0.0, p0) if side == "below" else (p0, 1.0)
    mass = prior.cdf(hi) - prior.cdf(lo)
    lr = lambda q: np.exp(s * np.log(q / p0) + (n - s) * np.log((1 - q) / (1 - p0)))  # noqa: E731
    value, _ = integrate.quad(lambda q: lr(q) * prior.pdf(q) / mass, lo, hi, points=[s / n], limit=200)
    assert mixture_log_e(s, n, p0, side, c) == pytest.approx(math.log(value), rel=1e-6, abs=1e-6)


def test_e_boundary_is_the_last_count_that_rejects():
    n = np.array([1000, 20000])
    for side in ("below", "above"):
        b = e_boundary(n, 0.3, side, 300.0, 0.001)
        step = -1 if side == "below" else 1
        assert (np.asarray(mixture_log_e(b, n, 0.3, side, 300.0)) >= math.log(1000)).all()
        assert (np.asarray(mixture_log_e(b - step, n, 0.3, side, 300.0)) < math.log(1000)).all()
    # 100 games cannot show a rate below 0.3 at level 0.001 with this prior: no count rejects
    assert e_boundary([100], 0.3, "below", 300.0, 0.001)[0] == -1
    assert mixture_log_e(0, 100, 0.3, "below", 300.0) < math.log(1000)


def test_band_test_verdicts_and_interval_agree():
    t = BandTest(0.28, 0.31, 0.295, 0.02, 0.001, 0.01)
    assert t.decide(1000, 10000) == "fails low"
    assert t.decide(4000, 10000) == "fails high"
    assert t.decide(2950, 10000) == "holds"
    assert t.decide(29, 100) == "continue"
    # the printed interval lies below lo exactly when the band fails low (above hi: fails high)
    for n in (500, 5000, 40000):
        for s in range(0, n + 1, max(1, n // 400)):
            ci, v = t.interval(s, n), t.decide(s, n)
            assert (ci.hi < t.lo) == (v == "fails low"), (s, n)
            assert (ci.lo > t.hi) == (v == "fails high"), (s, n)
            assert ci.lo <= s / n <= ci.hi


def test_band_test_one_sided_rare_rate():
    # only an upper edge: 0.1% is inside, the band must catch 0.5%
    t = BandTest(0.0, 0.003, 0.001, 0.004, 0.001, 0.01)
    assert t.edges == 1
    assert t.decide(0, 20000) == "holds"
    assert t.decide(150, 20000) == "fails high"
    assert t.interval(0, 20000).lo == 0.0
    # a one-sided band with centre - detect above 0: a rate of 0 is inside and must hold
    t = BandTest(0.0, 0.06, 0.05, 0.02, 0.001, 0.01)
    assert t.decide(0, 2000) == "holds"
    assert t.cap_bounds(t.required_cap())["undecided"][0] <= 0.1 * t.alpha


def test_band_test_rejects_inconsistent_designs():
    with pytest.raises(ValueError, match="detect"):
        BandTest(0.2, 0.4, 0.3, 0.05, 0.001, 0.01)  # a change of 5 points stays inside
    with pytest.raises(ValueError):
        BandTest(0.3, 0.2, 0.25, 0.1, 0.001, 0.01)


def test_required_cap_meets_its_bounds_and_is_the_smallest():
    t = BandTest(0.29, 0.30, 0.295, 0.02, 0.01 / 13, 0.01)
    cap = t.required_cap()
    assert t.cap_ok(cap)[0] and not t.cap_ok(cap - 500)[0]
    b = t.cap_bounds(cap)
    assert b["miss_low"][0] <= 0.005 and b["miss_high"][0] <= 0.005 and b["undecided"][0] <= 0.1 * t.alpha


# ---------------------------------------------------------------- shared seeds, equivalence


def test_clustered_rate_without_clustering_is_wilson():
    x = np.array([1] * 30 + [0] * 70)
    iv = clustered_rate(x, np.arange(100))
    w = wilson(30, 100)
    assert design_effect(x, np.arange(100)) == pytest.approx(100 / 99)  # only the G/(G-1) factor
    assert iv.estimate == 0.3 and iv.n == 100
    assert iv.lo == pytest.approx(w.lo, abs=2e-3) and iv.hi == pytest.approx(w.hi, abs=2e-3)


def test_clustered_rate_of_copies_counts_each_cluster_once():
    # six identical copies of 200 outcomes (six cells sharing every seed): the design
    # effect is 6 * 200 / 199 and the interval is Wilson's on 199 observations.
    base = np.array([1] * 50 + [0] * 150)
    x, seeds = np.tile(base, 6), np.tile(np.arange(200), 6)
    assert design_effect(x, seeds) == pytest.approx(6 * 200 / 199)
    iv = clustered_rate(x, seeds)
    z = 1.959963984540054
    p, n = 0.25, 199.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert iv.lo == pytest.approx(centre - half) and iv.hi == pytest.approx(centre + half)


def test_clustered_rate_with_no_success_counts_clusters():
    # 30 cells x 10,000 seeds, no win: the bound is Wilson's for 0 of 10,000 (0.038%),
    # not for 0 of 300,000 (0.0013%).
    seeds = np.tile(np.arange(10_000), 30)
    iv = clustered_rate(np.zeros(seeds.size), seeds)
    assert iv.hi == pytest.approx(wilson(0, 10_000).hi)
    assert iv.hi == pytest.approx(0.000384, abs=1e-6)


def test_equivalence_bound_and_tost():
    # mean 0.5, sample sd 0.5 (values 0 and 1), n = 400: the 90% t-interval is
    # 0.5 -+ t(0.95, 399) * 0.5 / sqrt(400) = 0.5 -+ 0.04122
    x = np.array([0.0, 1.0] * 200)
    sd = float(np.std(x, ddof=1))
    half = float(__import__("scipy").stats.t.ppf(0.95, 399)) * sd / 20
    assert equivalence_bound(x, 0.5, 0.05) == pytest.approx(half)
    assert equivalence_bound(x, 0.48, 0.05) == pytest.approx(half + 0.02)
    # TOST at that margin is exactly at 5%
    assert tost(x, 0.5, half) == pytest.approx(0.05)
    assert tost(x, 0.5, 2 * half) < 0.001 and tost(x, 0.5, half / 2) > 0.1


def test_clustered_mean_of_copies():
    # each value twice (two seats of one game that always agree): the standard error is
    # that of the 100 distinct values, sd / sqrt(100) with the G / (G - 1) factor
    base = np.arange(100, dtype=float)
    iv = clustered_mean(np.repeat(base, 2), np.repeat(np.arange(100), 2))
    se = math.sqrt(100 / 99 * np.sum((base - base.mean()) ** 2)) / 100
    assert iv.estimate == pytest.approx(49.5)
    assert iv.hi - iv.estimate == pytest.approx(1.959963984540054 * se)


# ---- ratio figures and their paired changes (delta method) ----------------------------


def test_linearized_plain_mean_is_the_mean_and_its_deviations():
    x = np.array([1.0, 0.0, 1.0, 1.0])
    value, z = linearized([(1.0, x, np.ones(4))])
    assert value == pytest.approx(0.75)
    assert z == pytest.approx(x - 0.75)


def test_linearized_ratio_known_values():
    # R = (1+2+3+4) / (1+1+2+0) = 2.5; mean(den) = 1; z_i = num_i - 2.5 den_i
    num = np.array([1.0, 2.0, 3.0, 4.0])
    den = np.array([1.0, 1.0, 2.0, 0.0])
    value, z = linearized([(1.0, num, den)])
    assert value == pytest.approx(2.5)
    assert z == pytest.approx([-1.5, -0.5, -2.0, 4.0])
    assert z.sum() == pytest.approx(0.0)


def test_ratio_estimate_matches_the_textbook_ratio_variance():
    # Cochran (1977) 6.9: v(R) = sum (y - R x)^2 / (n (n - 1) xbar^2)
    rng = np.random.default_rng(1)
    x = rng.integers(0, 3, 50).astype(float)
    y = x * 0.4 + rng.normal(0, 0.3, 50)
    r = y.sum() / x.sum()
    v = np.sum((y - r * x) ** 2) / (50 * 49 * x.mean() ** 2)
    ci = ratio_estimate([(1.0, y, x)])
    t = 2.009575234489209  # t(0.975, 49)
    assert ci.estimate == pytest.approx(r)
    assert ci.half_width == pytest.approx(t * math.sqrt(v), rel=1e-6)


def test_linearized_difference_of_means():
    a = np.array([1.0, 0.0, 1.0])
    b = np.array([0.0, 0.0, 1.0])
    value, z = linearized([(1.0, a, np.ones(3)), (-1.0, b, np.ones(3))])
    assert value == pytest.approx(2 / 3 - 1 / 3)
    assert z == pytest.approx((a - a.mean()) - (b - b.mean()))


def test_linearized_empty_denominator_is_nan():
    value, z = linearized([(1.0, np.zeros(3), np.zeros(3))])
    assert math.isnan(value) and np.isnan(z).all()
    with pytest.raises(ValueError):
        linearized([])
    with pytest.raises(ValueError):
        linearized([(1.0, np.zeros(3), np.zeros(2))])


def test_paired_ratio_change_of_plain_means_is_the_paired_t_test():
    rng = np.random.default_rng(7)
    a = rng.normal(0, 1, 40)
    b = a + rng.normal(0.3, 0.5, 40)
    ones = np.ones(40)
    got = paired_ratio_change([(1.0, b, ones)], [(1.0, a, ones)])
    want = paired_numeric(b, a)
    assert got.estimate == pytest.approx(want.estimate)
    assert got.lo == pytest.approx(want.lo)
    assert got.hi == pytest.approx(want.hi)
    assert got.p_value == pytest.approx(want.p_value)
    assert got.significant == want.significant


def test_paired_ratio_change_degenerate():
    ones = np.ones(5)
    x = np.array([1.0, 0, 1, 0, 1])
    same = paired_ratio_change([(1.0, x, ones)], [(1.0, x, ones)])
    assert (same.estimate, same.lo, same.hi, same.p_value, same.significant) == (0.0, 0.0, 0.0, 1.0, False)
    shifted = paired_ratio_change([(1.0, x + 1, ones)], [(1.0, x, ones)])
    assert shifted.estimate == pytest.approx(1.0) and shifted.p_value == pytest.approx(2 / 32)  # the sign test: not shown at 5


def test_skew_corrected_interval_on_known_values():
    """Symmetric values: the t interval. Skewed 0/1 values: shifted up as the exact
    (Clopper-Pearson) interval is, where the t interval is not (5 of 100: t [0.7, 9.3]%,
    exact [1.6, 11.3]%, corrected [1.6, 12.4]%). No spread, one value: as the t interval."""
    from simkit.stats import clopper_pearson, mean_interval, skew_corrected_interval

    x = np.r_[np.ones(30), -np.ones(30), np.zeros(40)]
    assert skew_corrected_interval(x) == mean_interval(x)
    rare = skew_corrected_interval(np.r_[np.ones(5), np.zeros(95)])
    exact, t = clopper_pearson(5, 100), mean_interval(np.r_[np.ones(5), np.zeros(95)])
    assert rare.estimate == 0.05 and abs(rare.lo - exact.lo) < 0.002 and exact.hi < rare.hi < exact.hi + 0.015 and t.hi < exact.hi
    mirrored = skew_corrected_interval(-np.r_[np.ones(5), np.zeros(95)])  # left skew: the mirror image
    assert (mirrored.lo, mirrored.hi) == pytest.approx((-rare.hi, -rare.lo))
    assert skew_corrected_interval(np.full(10, 0.3)) == mean_interval(np.full(10, 0.3))
    # a third moment of rounding noise: the t interval (the inverse's difference form gave [0.1, 0.1])
    noise = np.r_[-1.0, np.zeros(77), np.full(22, 0.5)]
    iv, t = skew_corrected_interval(noise), mean_interval(noise)
    assert (iv.lo, iv.hi) == pytest.approx((t.lo, t.hi), abs=1e-6) and iv.hi > iv.lo + 0.05
    assert skew_corrected_interval(np.array([1.0])) == mean_interval(np.array([1.0]))


def test_pooled_rate_on_known_values():
    """One event in each of some units: Wilson's interval on the counts. Events that come in
    pairs within a unit, both alike: half as many effective events, Wilson's at half the
    counts. Fewer than 10 successes: Clopper-Pearson's with each unit's events as one."""
    from simkit.stats import clopper_pearson, pooled_rate, wilson

    den = np.r_[np.ones(400), np.zeros(19600)]
    num = np.r_[np.ones(20), np.zeros(19980)]
    p, w = pooled_rate(num, den), wilson(20, 400)
    assert p.estimate == 0.05 and p.n == 20000 and (p.lo, p.hi) == pytest.approx((w.lo, w.hi), abs=2e-4)
    pairs = pooled_rate(2 * num, 2 * den)
    half = wilson(20, 400)  # 40 of 800 events, 20 of 400 effectively
    assert (pairs.lo, pairs.hi) == pytest.approx((half.lo, half.hi), abs=2e-4)
    # fewer than 10 events (or non-events): each unit's events as one outcome, Clopper-Pearson's
    none = pooled_rate(np.zeros(20000), den)
    assert none.estimate == 0 and none.lo == 0 and none.hi == pytest.approx(clopper_pearson(0, 400).hi)
    few = pooled_rate(2 * np.r_[np.ones(3), np.zeros(19997)], 2 * den)  # 6 of 800 events, in 3 of 400 pairs
    assert few.estimate == 6 / 800 and (few.lo, few.hi) == pytest.approx((clopper_pearson(3, 400).lo, clopper_pearson(3, 400).hi))
