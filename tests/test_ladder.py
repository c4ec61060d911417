"""Classing a conclusion along the ladder of bots (simkit.ladder)."""

import numpy as np
import pytest

from simkit.ladder import Contrast, Means, boot_taus, classify, difference

REF = Contrast(0.05, 0.03, 0.07)  # the reference bot separates the claim: +5 [+3, +7] points


@pytest.mark.parametrize("strong, expected", [
    (Contrast(0.04, 0.01, 0.07), "survives"),  # the strongest bot separates it too
    (Contrast(-0.04, -0.07, -0.01), "flips"),  # ... the opposite
    (Contrast(0.00, -0.02, 0.02), "fades"),  # contains 0, rules out the reference's +5
    (Contrast(0.02, -0.03, 0.07), "undecided"),  # contains 0 and +5: too few games to tell
])
def test_the_strongest_bot_decides_against_the_reference(strong, expected):
    cls, why = classify({"greedy": REF, "search": strong}, "greedy")
    assert cls == expected
    if expected == "fades":
        assert "ruled out" in why and "up to 2.0 points" in why
    if expected == "undecided":
        assert "neither confirm nor rule out" in why


def test_a_middle_bot_that_finds_the_opposite_flips_the_claim():
    cls, why = classify({"greedy": REF, "planner": Contrast(-0.03, -0.05, -0.01), "search": Contrast(0.04, 0.01, 0.07)}, "greedy")
    assert cls == "flips" and "`planner` finds the opposite" in why


def test_another_separated_answer_flips_the_claim():
    cls, why = classify({"greedy": REF, "search": Contrast(0.01, -0.01, 0.03)}, "greedy", {"search": "New York as the hardest"})
    assert cls == "flips" and "`search` separates New York as the hardest" in why


def test_a_claim_the_reference_does_not_separate_is_undecided_unless_the_strongest_does():
    weak = Contrast(0.01, -0.01, 0.03)
    assert classify({"greedy": weak, "search": Contrast(0.0, -0.02, 0.02)}, "greedy")[0] == "undecided"
    assert classify({"greedy": weak, "search": Contrast(0.05, 0.02, 0.08)}, "greedy")[0] == "survives"


def test_difference_of_independent_estimates():
    d = difference(0.6, 0.5, 0.7, 0.4, 0.3, 0.5)
    assert d.estimate == pytest.approx(0.2)
    assert d.lo == pytest.approx(0.2 - 1.96 * np.hypot(0.2 / 3.92, 0.2 / 3.92))
    assert d.text().endswith("points") and d.text().startswith("+20.0")


def test_boot_taus_same_and_reversed_orders():
    rng = np.random.default_rng(1)
    n, k = 4000, 4
    p = np.array([0.2, 0.4, 0.6, 0.8])
    games = np.repeat(np.arange(n), k)
    groups = np.tile(np.arange(k), n)
    a = Means(games, groups, rng.random(n * k) < p[groups], k)
    b = Means(games, groups, rng.random(n * k) < p[groups], k)
    c = Means(games, groups, rng.random(n * k) < p[::-1][groups], k)
    taus = boot_taus({"a": a, "b": b, "c": c}, [("a", "b"), ("a", "c")], replicates=100)
    assert taus[("a", "b")].estimate == 1.0 and taus[("a", "b")].lo == 1.0
    assert taus[("a", "c")].estimate == -1.0
    # all ties: no correlation to report
    d = Means(games, groups, np.ones(n * k), k)
    assert str(boot_taus({"a": a, "d": d}, [("a", "d")], replicates=20)[("a", "d")]) == "n/a (ties)"


def test_boot_taus_interval_covers_an_uncertain_order():
    rng = np.random.default_rng(2)
    n, k = 200, 3
    p = np.array([0.50, 0.52, 0.54])  # too close to order with 200 games
    games = np.repeat(np.arange(n), k)
    groups = np.tile(np.arange(k), n)
    a = Means(games, groups, rng.random(n * k) < p[groups], k)
    b = Means(games, groups, rng.random(n * k) < p[groups], k)
    t = boot_taus({"a": a, "b": b}, [("a", "b")], replicates=200)[("a", "b")]
    assert t.lo < 0 < t.hi


def test_a_weaker_bot_is_noted_but_cannot_flip_a_claim():
    cls, why = classify({"greedy": Contrast(-0.03, -0.05, -0.01), "strategic": REF, "search": Contrast(0.04, 0.01, 0.07)},
                        "strategic")
    assert cls == "survives" and "the weaker `greedy` finds the opposite" in why


def test_a_claim_the_reference_does_not_separate_never_flips():
    cls, why = classify({"strategic": Contrast(0.004, -0.002, 0.01), "search": Contrast(-0.06, -0.11, -0.003)}, "strategic")
    assert cls == "undecided" and "`search` finds the opposite" in why
