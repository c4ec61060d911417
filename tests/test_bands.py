"""The band check's error rates, verified rather than assumed: its decision procedure
(simkit.stats.BandTest, the same boundaries `simkit check` uses) is simulated on
synthetic Bernoulli sources with numpy, no games, and the family-wise false-alarm
rate and the power are asserted through Monte Carlo intervals."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import beta as beta_dist

from simkit.stats import BandTest, band_verdicts

ALPHA = BETA = 0.01
# (lo, hi, centre, detect): ordinary rates, a rare two-sided rate and a rare one-sided
# one (true rate 0.1%, hi = 0.3%), like experiments/bands.toml
FAMILY = [
    (0.2917, 0.3027, 0.2972, 0.02),
    (0.0972, 0.1042, 0.1007, 0.02),
    (0.0195, 0.0235, 0.0215, 0.01),
    (0.00208, 0.00328, 0.00268, 0.0025),
    (0.0, 0.003, 0.001, 0.004),
    (0.4969, 0.5069, 0.5019, 0.02),
    (0.9175, 0.9235, 0.9205, 0.02),
    (0.5041, 0.5151, 0.5096, 0.02),
]
HOLDS, UNDECIDED = 1, 4


def _tests():
    return [BandTest(lo, hi, c, d, ALPHA / len(FAMILY), BETA) for lo, hi, c, d in FAMILY]


def simulate(test: BandTest, rate: float, batch: int, cap: int, runs: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """Verdict codes (1 holds, 2 fails low, 3 fails high, 4 undecided) and games of
    ``runs`` independent checks of one band whose true rate is ``rate``."""
    looks = list(range(batch, cap, batch)) + [cap]
    bounds = test.boundaries(looks)
    s = np.zeros(runs, np.int64)
    verdict = np.full(runs, UNDECIDED)
    games = np.full(runs, cap)
    active = np.ones(runs, bool)
    prev = 0
    for j, n in enumerate(looks):
        s[active] += rng.binomial(n - prev, rate, int(active.sum()))
        prev = n
        v = band_verdicts(s, tuple(b[j] for b in bounds))
        done = active & (v != 0)
        verdict[done] = v[done]
        games[done] = n
        active &= ~done
        if not active.any():
            break
    return verdict, games


def clopper_pearson(k: int, n: int, level: float = 0.99) -> tuple[float, float]:
    a = (1 - level) / 2
    lo = 0.0 if k == 0 else beta_dist.ppf(a, k, n - k + 1)
    hi = 1.0 if k == n else beta_dist.ppf(1 - a, k + 1, n - k)
    return float(lo), float(hi)


def _file_false_alarms(rates, batch: int, runs: int, seed: int) -> tuple[int, int]:
    """Runs of the whole file in which any band did not hold."""
    rng = np.random.default_rng(seed)
    bad = np.zeros(runs, bool)
    for t, rate in zip(_tests(), rates):
        cap = int(np.ceil(t.required_cap() / batch) * batch)
        verdict, _ = simulate(t, rate, batch, cap, runs, rng)
        bad |= verdict != HOLDS
    return int(bad.sum()), runs


@pytest.mark.parametrize("batch", [500, 2000, 5000])
def test_false_alarm_rate_of_the_file_with_every_rate_on_an_edge(batch):
    """Every rate on the edge nearer to where it would fail: the worst case inside the
    band. The file may fail (or end undecided) at most alpha of the time, whatever the batch."""
    rates = [lo if i % 2 and lo > 0 else hi for i, (lo, hi, _, _) in enumerate(FAMILY)]
    k, n = _file_false_alarms(rates, batch, 20_000, seed=batch)
    assert clopper_pearson(k, n)[1] <= ALPHA, (k, n)


def test_false_alarm_rate_of_the_file_at_the_centres():
    k, n = _file_false_alarms([c for _, _, c, _ in FAMILY], 2000, 20_000, seed=11)
    assert clopper_pearson(k, n)[1] <= ALPHA, (k, n)


@pytest.mark.parametrize("side", ["down", "up"])
def test_power_at_a_change_of_detect(side):
    """Each band with its rate moved by its detect size fails (low or high, as it should)
    within its cap with probability at least 1 - beta; a rate that cannot move that way
    (below 0) is skipped."""
    rng = np.random.default_rng(5 if side == "down" else 6)
    for t in _tests():
        rate = t.down if side == "down" else t.up
        edge_exists = t.lo > 0 if side == "down" else t.hi < 1
        if not (0 < rate < 1 and edge_exists):
            continue
        cap = t.required_cap()
        verdict, _ = simulate(t, rate, 2000, cap, 20_000, rng)
        caught = int((verdict == (2 if side == "down" else 3)).sum())
        assert clopper_pearson(caught, verdict.size)[0] >= 1 - BETA, (t, caught)


def test_rare_one_sided_band():
    """A true rate of 0.1% under hi = 0.3%: it holds, quickly; a rise to 0.5% fails."""
    t = _tests()[4]
    rng = np.random.default_rng(8)
    cap = t.required_cap()
    verdict, games = simulate(t, 0.001, 2000, cap, 20_000, rng)
    assert clopper_pearson(int((verdict == HOLDS).sum()), verdict.size)[0] >= 1 - ALPHA / len(FAMILY)
    assert games.mean() < cap / 4
    verdict, _ = simulate(t, 0.005, 2000, cap, 20_000, rng)
    assert clopper_pearson(int((verdict == 3).sum()), verdict.size)[0] >= 1 - BETA


def test_exact_operating_characteristic_matches_simulation():
    """benchmarks/bands_oc.py prints exact chances; a simulation of the same band agrees."""
    t = _tests()[0]
    cap = t.required_cap()
    rng = np.random.default_rng(9)
    for rate in (0.285, 0.2972):
        exact = t.operating_characteristic(rate, 2000, cap)
        verdict, games = simulate(t, rate, 2000, cap, 4000, rng)
        for code, key in ((1, "holds"), (2, "fails low"), (3, "fails high")):
            lo, hi = clopper_pearson(int((verdict == code).sum()), verdict.size, 0.999)
            assert lo <= exact[key] <= hi, (rate, key)
        assert abs(games.mean() - exact["games"]) < 5 * games.std() / np.sqrt(games.size) + 1
