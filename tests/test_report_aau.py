"""The Alien Attack USA report on the question layer, built on a tiny sweep laid out like
experiments/aau-balance.toml (grid 0: the headline bots; grid 1: both modes on the same
seeds; grid 2: a power)."""

import re

import pytest

from simkit.games.aau import report as aau_report
from simkit.report import compose
from simkit.sweep import sweep

EXPERIMENT = """
name = "aau-report-test"
game = "aau"
seed = 11
[[grid]]
games = 80
players = [2, 3]
semi_coop = [false]
bots = ["strategic", "greedy"]
rotate_seats = true
[[grid]]
games = 60
players = [2, 3]
semi_coop = [true, false]
bots = ["team", "strategic"]
rotate_seats = true
[[grid]]
games = 40
players = [2]
semi_coop = [false]
bots = [["strategic", "strategic:no-cover"]]
rotate_seats = true
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("aau")
    path = tmp / "aau.toml"
    path.write_text(EXPERIMENT)
    result = sweep(path, jobs=1, out_root=tmp / "runs", progress=False, report=False)
    rep = compose(result, aau_report.build)
    return result, rep, rep.markdown()


def test_answers_open_the_report_with_seats_by_player_count(built):
    _, rep, md = built
    assert md.index("## Answers") < md.index("## First-player advantage")
    seats = [a for a in rep.answers if a.question == "seat_fairness"]
    assert [a.group for a in seats] == [{"players": 2}, {"players": 3}]
    assert all("win share" in a.estimand for a in seats)  # shared wins split, not counted whole
    assert all(a.games == 80 for a in seats)  # the headline cell only: grid 1's replay of it is not counted twice


def test_city_cards_ranked_by_the_adjusted_payoff_only(built):
    _, rep, md = built
    city = [a for a in rep.answers if a.question == "city_mission"]
    assert len(city) == 1 and "adjusted for players and seat" in city[0].estimand
    assert "win share" in city[0].estimand
    by_payoff = [e.label.split(" (")[0].rsplit(" ", 1)[1] for e in sorted(city[0].estimates, key=lambda e: -e.estimate)]
    ranked = md.split("City mission cards ranked by their payoff")[1].split("\n\n")[1]
    assert [row.split("|")[2].strip() for row in ranked.splitlines()[2:]] == by_payoff
    # the points each card scores are printed in the cards' own order, labelled as not a ranking
    points = md.split("Points scored by each mission card (not a ranking)")[1].split("*City cards: points scored")[1]
    cards = [row.split("|")[1].strip() for row in points.split("\n\n")[1].splitlines()[2:]]
    assert cards == ["2", "3", "4", "5"]
    assert "rank" not in points.split("\n\n")[1].splitlines()[0]
    assert "missions" in rep.figures and rep.headline_figure == "missions"


def test_semi_cooperative_mode_is_a_paired_variant_effect(built):
    result, rep, _ = built
    semi = [a for a in rep.answers if a.question == "semi_coop"]
    assert [a.group for a in semi] == [{"players": 2}, {"players": 3}]
    assert all(a.method == "paired by seed" and a.games == 60 for a in semi)
    assert all(re.search(r"points \[[-+]\d", a.sentence) for a in semi)


def test_no_rank_correlation_with_a_bootstrap_interval(built):
    _, _, md = built
    assert "Kendall" not in md and "bootstrap" not in md and "tau" not in md


def test_tiny_runs_do_not_crash(tmp_path):
    path = tmp_path / "aau.toml"
    path.write_text(re.sub(r"games = \d+", "games = 2", EXPERIMENT))
    result = sweep(path, jobs=1, out_root=tmp_path / "runs", progress=False, report=False)
    assert compose(result, aau_report.build).markdown().startswith("# Alien Attack USA")
