"""The Escape From the Aliens report on the question layer, built on a tiny sweep laid out like
experiments/eftaios.toml (grid 0: maps; 1: scenarios; 2: pairings; 3: the headline cell;
4: an item left unused; 5: the ladder)."""

import json
import re

import numpy as np
import polars as pl
import pytest

from simkit.games.eftaios import report as eftaios_report
from simkit.games.eftaios.questions import QUESTIONS, Sides
from simkit.questions import EQUIVALENT, SHOWN
from simkit.report import Report, compose
from simkit.sweep import sweep

EXPERIMENT = """
name = "eftaios-report-test"
game = "eftaios"
seed = 5
[[grid]]
games = 60
map = ["galilei", "fermi"]
players = [4, 6]
mode = ["basic", "advanced"]
bots = ["heuristic"]
rotate_seats = true
[[grid]]
games = 20
map = ["fermi"]
players = [4]
scenario = ["old_guard", "arena"]
bots = ["heuristic"]
rotate_seats = true
[[grid]]
games = 60
map = ["galilei"]
players = [6]
mode = ["basic", "advanced"]
bots = ["heuristic", "heuristic:no-track"]
rotate_seats = true
[[grid]]
games = 80
map = ["galilei"]
players = [6]
mode = ["basic", "advanced"]
bots = ["heuristic"]
rotate_seats = true
[[grid]]
games = 80
map = ["galilei"]
players = [6]
mode = ["advanced"]
bots = ["heuristic:no-bluff"]
rotate_seats = true
[[grid]]
games = 60
map = ["galilei"]
players = [6]
mode = ["basic", "advanced"]
bots = ["random", "heuristic"]
rotate_seats = true
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("eftaios")
    path = tmp / "eftaios.toml"
    path.write_text(EXPERIMENT)
    result = sweep(path, jobs=1, out_root=tmp / "runs", progress=False, report=False)
    plots = {}
    original = Report.figure

    def figure(self, fig, name, caption):  # keep what each plot draws before it becomes a PNG
        plots[name] = [(ax.get_ylabel(), [tuple(line.get_ydata()) for line in ax.get_lines()]) for ax in fig.axes]
        original(self, fig, name, caption)

    Report.figure = figure
    try:
        rep = compose(result, eftaios_report.build)
    finally:
        Report.figure = original
    rep.write(tmp / "report")
    return rep, rep.markdown(), plots, tmp / "report"


def test_answers_name_the_per_player_and_the_per_side_question(built):
    rep, md, _, _ = built
    sides = [a for a in rep.answers if a.question == "sides"]
    assert [a.group for a in sides] == [{"mode": "advanced"}, {"mode": "basic"}]
    for a in sides:
        assert a.games == 80  # the headline cell (grid 3) only: grids 0 and 2 replay its first games
        assert "fair to a player?" in a.sentence and "Which team takes the game?" in a.sentence
        assert a.estimates[0].label.startswith("fair to a player")
        assert a.estimates[1].label.startswith("which team takes the game")
        assert a.verdict == a.estimates[0].verdict  # the answer's verdict is the per-player one
    assert md.index("## Answers") < md.index("## Fair to a player")
    assert not re.search(r"\bD\b(?!\.\d)", md)  # no symbol (D.2 is a rule of Infection) for a designer to decode


def test_fair_to_a_player_even_when_one_team_takes_most_games():
    # The review's case: three humans, each for himself; some human wins 3 games in 4, so a
    # human seat wins about 25% and an alien seat 25%: fair to a player, not to the team.
    rng = np.random.default_rng(1)
    rows = []
    for g in range(3000):
        humans_win, winner = rng.random() < 0.75, rng.integers(3)
        for seat in range(6):
            side = int(seat >= 3)
            won = (side == 0 and seat == winner) if humans_win else side == 1
            rows.append({"game_index": g, "seat": seat + 1, "side": side, "won": won, "players": 6})
    a = Sides(where=None).answers(pl.DataFrame(rows))[0]
    player, team = a.estimates[:2]
    assert player.verdict == EQUIVALENT and team.verdict == SHOWN and team.estimate > 0.4
    assert "balanced within ±5 points" in a.sentence.split("Which team")[0]
    assert "favours" not in a.sentence and "The humans, who win" in a.sentence


def test_plots_compare_the_sides_against_zero_not_fifty_percent(built):
    _, _, plots, _ = built
    for name in ("maps", "balance", "ladder"):
        for ylabel, lines in plots[name]:
            assert "minus" in ylabel or not ylabel
            assert (0, 0) in lines and (50, 50) not in lines
    # the headline plot: each side's rates side by side, no reference line at 50%
    assert all((50, 50) not in lines for _, lines in plots["sides"])


def test_headline_text_and_plot_come_from_the_same_cell(built):
    rep, _, _, folder = built
    meta = json.loads((folder / "report.json").read_text())
    assert meta["headline_figure"] == "sides" and (folder / "sides.png").is_file()
    assert [a["sentence"] for a in meta["answers"]] == [a.sentence for a in rep.answers]
    games = {a["games"] for a in meta["answers"]}
    assert games == {80}


def test_two_games_per_cell_build_and_say_why_there_is_no_answer(tmp_path):
    path = tmp_path / "eftaios.toml"
    path.write_text(re.sub(r"games = \d+", "games = 2", EXPERIMENT))
    result = sweep(path, jobs=1, out_root=tmp_path / "runs", progress=False, report=False)
    rep = compose(result, eftaios_report.build)
    assert rep.markdown().startswith("# Escape From the Aliens")
    assert len(rep.answers) == 2 * len(QUESTIONS)  # each asked of both modes
    assert all("too few games (2)" in a.sentence for a in rep.answers)
