"""Classing a conclusion along the ladder of bots (simkit.ladder)."""

import numpy as np
import pytest
from scipy import stats as sps

from simkit.ladder import ALPHA, FLIPS_CAVEAT, Contrast, Means, boot_taus, classify, difference, family

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
    assert "Bonferroni over 2 tests" in why and "97.5%" in why
    if expected == "fades":
        # the difference search - greedy, -5 points, with both uncertainties
        assert "search - greedy = -5.0" in why and "up to 2.3 points is not ruled out" in why
    if expected == "undecided":
        assert "neither confirm the claim" in why


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


def test_the_family_counts_bots_above_the_reference_and_claims():
    c = {"random": REF, "greedy": REF, "planner": REF, "search": REF}
    assert family(c, "greedy") == 3  # two bots above, and the strongest's difference from greedy
    assert family(c, "greedy", claims=4) == 12
    assert family(c, "search") == 1
    cls, why = classify(c, "greedy", claims=4)
    assert "Bonferroni over 12 tests: 3 per claim x 4 claims" in why


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
    assert taus[("a", "b")].estimate == 1.0 and np.isnan(taus[("a", "b")].lo) and np.isnan(taus[("a", "b")].hi)
    assert str(taus[("a", "b")]) == "+1.00"  # no interval: the table says so once
    assert taus[("a", "c")].estimate == -1.0
    # all ties: no correlation to report
    d = Means(games, groups, np.ones(n * k), k)
    assert str(boot_taus({"a": a, "d": d}, [("a", "d")], replicates=20)[("a", "d")]) == "n/a (ties)"


def test_boot_taus_claims_no_interval_for_an_uncertain_order():
    """Too close to order with 200 games: the percentile bootstrap would print an interval
    that does not keep its level; only the estimate is printed."""
    rng = np.random.default_rng(2)
    n, k = 200, 3
    p = np.array([0.50, 0.52, 0.54])
    games = np.repeat(np.arange(n), k)
    groups = np.tile(np.arange(k), n)
    a = Means(games, groups, rng.random(n * k) < p[groups], k)
    b = Means(games, groups, rng.random(n * k) < p[groups], k)
    t = boot_taus({"a": a, "b": b}, [("a", "b")], replicates=200)[("a", "b")]
    assert np.isfinite(t.estimate) and np.isnan(t.lo) and str(t) == f"{t.estimate:+.2f}"


def test_a_weaker_bot_is_noted_but_cannot_flip_a_claim():
    cls, why = classify({"greedy": Contrast(-0.03, -0.05, -0.01), "strategic": REF, "search": Contrast(0.04, 0.01, 0.07)},
                        "strategic")
    assert cls == "survives" and "the weaker `greedy` finds the opposite" in why


def test_a_claim_the_reference_does_not_separate_never_flips():
    cls, why = classify({"strategic": Contrast(0.004, -0.002, 0.01), "search": Contrast(-0.06, -0.09, -0.03)}, "strategic")
    assert cls == "undecided" and "`search` finds the opposite" in why
    # a dissent that the correction does not keep is not reported as one (the claim fades)
    cls, why = classify({"strategic": REF, "search": Contrast(-0.06, -0.11, -0.003)}, "strategic")
    assert cls == "fades" and "finds the opposite" not in why


# ---- error rates, by simulation ---------------------------------------------------------------
def _draw(rng, truth: dict[str, float], se: float = 0.01) -> dict[str, Contrast]:
    """Each bot's contrast: its true value plus normal noise, with its 95% interval."""
    out = {}
    for b, mu in truth.items():
        e = mu + se * rng.standard_normal()
        out[b] = Contrast(e, e - 1.96 * se, e + 1.96 * se)
    return out


def _rate(rng, truth: dict[str, float], reference: str, cls: str, reps: int, **kw) -> int:
    return sum(classify(_draw(rng, truth), reference, **kw)[0] == cls for _ in range(reps))


def at_most_alpha(count: int, n: int) -> bool:
    return count <= sps.binom.ppf(0.999, n, ALPHA)


@pytest.mark.parametrize("mu", [0.02, 0.03, 0.05])
def test_no_false_fades_when_nothing_changes(mu):
    """Every bot finds the same effect (2 to 5 standard errors): 'fades' is false. The old
    rule (the strongest bot's interval below the reference's estimate) said it 7.7% of the
    time at 2 standard errors; the difference with both uncertainties is needed."""
    rng = np.random.default_rng(int(mu * 1000))
    reps = 3000
    for truth in ({"greedy": mu, "search": mu}, {"greedy": mu, "planner": mu, "search": mu}):
        assert at_most_alpha(_rate(rng, truth, "greedy", "fades", reps), reps)
    # power: the strongest bot finds nothing where the reference finds 5 standard errors
    assert _rate(rng, {"greedy": 0.05, "search": 0.0}, "greedy", "fades", 500) / 500 > 0.5


@pytest.mark.parametrize("mu", [0.0, 0.02, 0.04])
def test_no_false_flips_when_nothing_changes(mu):
    rng = np.random.default_rng(10 + int(mu * 1000))
    reps = 3000
    assert at_most_alpha(_rate(rng, {"greedy": mu, "planner": mu, "search": mu}, "greedy", "flips", reps), reps)
    # the stronger bots' true contrast is exactly 0 (the edge of 'the opposite') while greedy's is clear
    assert at_most_alpha(_rate(rng, {"greedy": 0.04, "planner": 0.0, "search": 0.0}, "greedy", "flips", reps), reps)
    assert _rate(rng, {"greedy": 0.04, "search": -0.04}, "greedy", "flips", 500) / 500 > 0.5


@pytest.mark.parametrize("ref", [0.0, 0.04])
def test_no_false_survives_when_the_strongest_bot_finds_nothing(ref):
    rng = np.random.default_rng(20 + int(ref * 1000))
    reps = 3000
    for truth in ({"greedy": ref, "search": 0.0}, {"greedy": ref, "planner": 0.04, "search": 0.0}):
        assert at_most_alpha(_rate(rng, truth, "greedy", "survives", reps), reps)
    for claims in (1, 10):
        assert _rate(rng, {"greedy": ref, "search": 0.05}, "greedy", "survives", 500, claims=claims) / 500 > 0.5


def test_a_claim_stronger_play_reverses_or_a_reading_decides_is_said_beside_the_answers(tmp_path):
    """A designer's review: an answer whose claim the stronger-play section calls 'flips', or
    the readings section 'depends on A16', read as the game's own at the top of the report,
    the caveat pages below. Both are now said beside the answers (and kept in report.json)."""
    import json

    from simkit.ladder import classed_line
    from simkit.report import Report

    rep = Report("t", "t")
    rep.answer([])
    cls, _ = classed_line(rep, "card 5 pays more", {"greedy": REF, "search": Contrast(-0.04, -0.07, -0.01)}, "greedy")
    classed_line(rep, "card 2 pays less", {"greedy": REF, "search": Contrast(0.04, 0.01, 0.07)}, "greedy")
    rep.caveat("Depends on a reading of the rules", "Tile 2 is the hardest (depends on G3 tile2_threat_research=conradoza)")
    rep.write(tmp_path)
    text = (tmp_path / "README.md").read_text()
    assert cls == "flips" and "- **Flips under stronger play (found by the default bot, not by a stronger one)** (sections below): card 5 pays more." in text
    assert "card 2 pays less" not in text.split("## ")[1]  # (survives: no caveat)
    assert "- **Depends on a reading of the rules** (sections below): Tile 2 is the hardest (depends on G3" in text
    assert json.loads((tmp_path / "report.json").read_text())["caveats"][FLIPS_CAVEAT] == ["card 5 pays more"]
    from simkit.report import write_index  # the overview page of every report lists them too

    rep.write(tmp_path / "reports" / "game")
    assert f"{FLIPS_CAVEAT}: card 5 pays more." in write_index(tmp_path / "reports").read_text()
