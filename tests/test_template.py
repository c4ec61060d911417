"""The template game (Pig) is a real game written to the contract: it plays, its
observation path works, and its heuristic beats random as Pig's theory says."""

import numpy as np

from simkit.games.template import SPEC, Rules
from simkit.games.template import engine as E
from simkit.params import build
from simkit.runner import RunSpec, run


def test_hold20_beats_random_with_seats_rotated():
    params = build(SPEC.params, {}, SPEC.name)
    bots = tuple(SPEC.resolve_bots(["hold20", "random"], params))
    res = run(RunSpec(SPEC, params, bots, 2000, 3, rotate_seats=True), None, progress=False)
    hold = res.frame.filter(res.frame["bot"] == "hold20")["won"].mean()
    assert hold > 0.9


def test_a_seat_sees_the_scores_and_the_turn_total_by_name():
    rules = Rules(players=3, target=40)
    st = rules.new(5)
    while rules.view(st)["turn_total"] == 0 or rules.to_move(st) != 0:
        rules.step(st, E.A_ROLL if rules.view(st)["turn_total"] < 8 else E.A_HOLD)
    obs = rules.observe(st, 2)
    assert obs[E.O_SEAT] == 2 and obs[E.O_TURN_TOTAL] == rules.view(st)["turn_total"]
    assert list(obs[E.O_SCORES:E.O_SCORES + 3]) == [p["score"] for p in rules.view(st)["player"][:3]]


def test_engine_and_model_agree_step_by_step():
    """A second hand: Pig written from its rules alone (tests/reference/template_model.py)
    replays the engine's games with the engine's dice (its chance log), step by step."""
    from tests.reference.lockstep import replay
    from tests.reference.template_model import HOLD, ROLL, Pig

    for players, target in ((2, 30), (4, 50)):
        params = build(SPEC.params, {"players": players, "target": target}, SPEC.name)
        bots = SPEC.resolve_bots(["random"] + ["hold20"] * (players - 1), params)

        def project(view, s, players=players):
            return {"scores": [p["score"] for p in view["player"][:players]], "turn": view["turn"],
                    "turn_total": view["turn_total"]}

        steps = replay(SPEC, params, bots, lambda: Pig(players, target), lambda a: ROLL if a == E.A_ROLL else HOLD, project,
                       games=20)
        assert steps > 200
