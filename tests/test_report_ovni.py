"""The O.V.N.I. report on the question layer, built on a tiny sweep laid out like
experiments/ovni.toml (grid 0: the headline bots; then a card switched off in the same
games, and a seat that always keeps two missions)."""

import re

import polars as pl
import pytest

from simkit.games.ovni import board as ovni_board
from simkit.games.ovni import report as ovni_report
from simkit.games.ovni.params import OVNIParams
from simkit.games.ovni.questions import ShareEffect
from simkit.report import compose
from simkit.sweep import sweep

EXPERIMENT = """
name = "ovni-report-test"
game = "ovni"
seed = 5
[[grid]]
games = 80
players = [2, 3]
bots = ["strategic"]
[[grid]]
games = 40
players = [3]
bots = ["strategic:no-shield"]
[[grid]]
games = 40
players = [3]
bots = [["strategic:two-missions", "strategic", "strategic"]]
rotate_seats = true
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ovni")
    path = tmp / "ovni.toml"
    path.write_text(EXPERIMENT)
    result = sweep(path, jobs=1, out_root=tmp / "runs", progress=False, report=False)
    rep = compose(result, ovni_report.build)
    return result, rep, rep.markdown()


def test_seats_answered_per_player_count_on_the_headline_games(built):
    _, rep, md = built
    assert md.index("## Answers") < md.index("## Seat advantage")
    seats = [a for a in rep.answers if a.question == "seat_fairness"]
    assert [a.group for a in seats] == [{"players": 2}, {"players": 3}]
    assert all("win share" in a.estimand and a.games == 80 for a in seats)


def test_abilities_are_an_adjusted_payoff_not_holders_against_non_holders(built):
    _, rep, md = built
    [ab] = [a for a in rep.answers if a.question == "abilities"]
    assert "win share" in ab.estimand
    assert "adjusted for players and seat and the other ability cards held" in ab.sentence
    names = set(ovni_board.names(OVNIParams())["abilities"])
    held = {e.label.split(" (")[0].rsplit(" ", 1)[1] for e in ab.estimates}
    assert held <= names and len(held) == len(names)  # card names, not decks-file indices; the force field from 3 players
    assert "not held" not in md and "non-holders" not in md.replace("not compared with non-holders", "")
    assert rep.headline_figure == "abilities" and "abilities" in rep.figures


def test_switched_off_and_mission_choice_are_paired(built):
    _, _, md = built
    switched = md.split("### Each card switched off, game by game")[1].split("\n\n")
    row = next(line for part in switched for line in part.splitlines() if line.startswith("| 3 | force_field"))
    assert "strategic:no-shield" in row and re.search(r"points \[[-+]", row)
    assert "| 3 | two | 40 |" in md


def test_tiny_runs_do_not_crash(tmp_path):
    path = tmp_path / "ovni.toml"
    path.write_text(re.sub(r"games = \d+", "games = 2", EXPERIMENT))
    result = sweep(path, jobs=1, out_root=tmp_path / "runs", progress=False, report=False)
    assert compose(result, ovni_report.build).markdown().startswith("# O.V.N.I.")


def test_a_shared_win_keeps_the_effect_in_points():
    base = pl.DataFrame({"game_index": range(40), "seat": [1] * 40, "share": [0.0, 1.0] * 20})
    variant = base.with_columns(pl.Series("share", [1.0, 1.0, 0.5, 0.0] * 10))
    a = ShareEffect(label="the card", metric="share").answer(base, variant, {"players": 4})
    assert a.estimates[0].unit == "pts" and "+12.5 points [" in a.sentence
