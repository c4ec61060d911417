"""Tests for simkit.stats against published / hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simkit.stats import (
    SPRT,
    Difference,
    Interval,
    Paired,
    band_sprt,
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
    one = mean_interval(np.array([3.0]))
    assert (one.estimate, one.lo, one.hi, one.n) == (3.0, 3.0, 3.0, 1)
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


def test_paired_binary_mcnemar_exact():
    # only_a = 8, only_b = 2: exact McNemar = two-sided binomial test, p = 0.109375.
    a, b = _pairs(both=20, only_a=8, only_b=2, neither=10)
    r = paired_binary(a, b)
    assert isinstance(r, Paired)
    assert (r.n, r.both, r.only_a, r.only_b, r.neither) == (40, 20, 8, 2, 10)
    assert r.agreement == pytest.approx(30 / 40)
    assert r.estimate == pytest.approx(6 / 40)
    assert r.p_value == pytest.approx(0.109375, abs=1e-12)
    assert not r.significant


def test_paired_binary_tango_published():
    # Cavo et al. (2012) table [[59, 6], [16, 80]] from Fagerland, Lydersen & Laake,
    # "Statistical Analysis of Contingency Tables": Tango score CI -0.0621 (-0.1240 to -0.0054),
    # exact conditional McNemar P = 0.0525.
    a, b = _pairs(both=59, only_a=6, only_b=16, neither=80)
    r = paired_binary(a, b)
    assert r.estimate == pytest.approx(-0.0621, abs=5e-5)
    assert r.lo == pytest.approx(-0.1240, abs=5e-5)
    assert r.hi == pytest.approx(-0.0054, abs=5e-5)
    assert r.p_value == pytest.approx(0.0525, abs=5e-5)


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


def test_paired_binary_large_uses_chi2_with_correction():
    # 30 vs 10 discordant: corrected chi-square (|30-10|-1)^2 / 40 = 9.025 on 1 df.
    a, b = _pairs(both=50, only_a=30, only_b=10, neither=60)
    r = paired_binary(a, b)
    assert r.p_value == pytest.approx(math.erfc(math.sqrt(9.025 / 2)), rel=1e-9)
    assert r.significant


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


def _run_band(
    draws: np.ndarray, lo: float, hi: float, margin: float
) -> tuple[str, int]:
    successes = np.cumsum(draws)
    for i in range(draws.size):
        verdict = band_sprt(int(successes[i]), i + 1, lo, hi, margin, 0.05, 0.05)
        if verdict != "continue":
            return verdict, i + 1
    return "continue", draws.size


def test_band_sprt_far_band_rejected_quickly():
    rng = np.random.default_rng(1)
    results = [_run_band(row, 0.6, 0.7, 0.02) for row in rng.random((200, 2000)) < 0.2]
    assert all(v == "outside-low" for v, _ in results)
    assert np.mean([k for _, k in results]) < 200


def test_band_sprt_band_around_truth_accepted():
    rng = np.random.default_rng(2)
    results = [_run_band(row, 0.4, 0.6, 0.02) for row in rng.random((200, 3000)) < 0.5]
    inside = sum(v == "inside" for v, _ in results)
    assert inside / len(results) > 0.95


def test_band_sprt_high_side_and_open_edges():
    # 90 of 100 is far above [0.4, 0.6].
    assert band_sprt(90, 100, 0.4, 0.6, 0.02, 0.05, 0.05) == "outside-high"
    # A band with lo = 0 only has an upper edge: 10 of 300 is clearly below 0.3.
    assert band_sprt(10, 300, 0.0, 0.3, 0.02, 0.05, 0.05) == "inside"
    # ... and a band with hi = 1 only has a lower edge.
    assert band_sprt(290, 300, 0.7, 1.0, 0.02, 0.05, 0.05) == "inside"
    assert band_sprt(5, 10, 0.4, 0.6, 0.02, 0.05, 0.05) == "continue"
