"""Ufo.O: the engine replayed step by step against the independent plain-Python model of the
rules (``tests/reference/ufoo_model.py``, written from the rulebook alone without reading the
engine; tests/reference/lockstep.py, docs/adding-a-game.md section 10).

Every built-in bot plays engine games under every test variant (and each non-default
reading of every setting with the tactical bot); after each step the model is given the
engine's action and the dice of the engine's ``chance_log``, and must (a) consume exactly
those dice, (b) agree on the seat to move and the legal decisions, (c) agree on the
position (turn, phase, structures, every UFO's status, hex and side) and, at the end, on
every output column. A divergence is a bug in one of the two, settled from the rulebook.

The model lives on its own branch until both are merged; without it this test is skipped.
"""

from __future__ import annotations

import numpy as np
import pytest

M = pytest.importorskip("tests.reference.ufoo_model")

from simkit.datafiles import variants  # noqa: E402
from simkit.games import get  # noqa: E402
from simkit.games.ufoo import board as B  # noqa: E402
from simkit.games.ufoo import data_model as D  # noqa: E402
from simkit.games.ufoo import engine as E  # noqa: E402
from simkit.params import as_dict, build, describe  # noqa: E402
from simkit.play import Table  # noqa: E402
from simkit.seeding import game_seeds  # noqa: E402
from simkit.rules import Rules

GAME = get("ufoo")
STATUS = {E.ST_BOARD: "board", E.ST_DESTROYED: "destroyed", E.ST_DOCKED: "waiting", E.ST_READY: "ready"}
PHASES = {E.PH_MOVE: "move", E.PH_ATTACK: "attack", E.PH_PUSH: "push"}


def _engine_view(s: np.ndarray, cols: int) -> dict:
    ufos = []
    for p in range(2):
        side = []
        for k in range(4):
            base = E.SEAT + p * E.S_STRIDE
            st = int(s[base + E.S_STATUS + k])
            c = int(s[base + E.S_CELL + k])
            side.append((STATUS[st], None if c < 0 else (c % cols, c // cols), bool(s[base + E.S_DAMAGED + k])))
        ufos.append(side)
    over = bool(s[E.OVER])
    return {
        "turn": int(s[E.TURN]),
        "active": int(s[E.ACTIVE]),
        "phase": None if over else PHASES[int(s[E.PHASE])],
        "to_move": -1 if over else int(s[E.TO_MOVE]),
        "structure": [int(s[E.SEAT + p * E.S_STRIDE + E.S_STRUCTURE]) for p in range(2)],
        "ufos": ufos,
        "over": over,
        "winner": int(s[E.WINNER]),
    }


def _model_view(m) -> dict:
    snap = m.snapshot()
    return {
        "turn": snap["turn"],
        "active": snap["active"],
        "phase": None if snap["over"] else snap["phase"],
        "to_move": snap["to_move"],
        "structure": list(snap["structure"]),
        "ufos": [[(u["status"], None if u["cell"] is None else tuple(u["cell"]), bool(u["damaged"])) for u in side]
                 for side in snap["ufos"]],
        "over": snap["over"],
        "winner": snap["winner"],
    }


def _dice(s: np.ndarray) -> list[int]:
    n = int(s[E.CHANCE_N])
    assert n <= E.LOG_SIZE
    return [int(x) for x in s[E.CHANCE_LOG:E.CHANCE_LOG + n]]


def replay(sets: dict, bot: str, seed: int, max_steps: int = 5000) -> int:
    """One engine game against the model; returns the number of steps compared."""
    params = build(GAME.params, sets, GAME.name)
    b = GAME.board(params)
    cols = int(b[B.B_COLS])
    bots = GAME.resolve_bots([bot], params)
    t = Table(GAME, b, seed)
    model = M.Model(as_dict(params), B.load(params))
    chance = M.ScriptedChance(_dice(t.s))
    model.setup(chance)
    assert chance.exhausted(), f"seed {seed}: the model used {chance.used} of the setup dice {_dice(t.s)}"
    steps = 0
    where = f"{sets} {bot} seed {seed}"
    while True:
        ev, mv = _engine_view(t.s, cols), _model_view(model)
        assert ev == mv, f"{where}, step {steps}: engine {ev}\n model {mv}"
        if t.over():
            break
        legal = {M.action_of_id(int(a), cols) for a in t.legal()}
        assert legal == set(model.legal()), f"{where}, step {steps}: legal actions differ: engine only {sorted(legal - set(model.legal()))}, " \
                                            f"model only {sorted(set(model.legal()) - legal)}"
        a, _ = t.decide(bots[0], 0)
        t.step(a)
        chance = M.ScriptedChance(_dice(t.s))
        model.apply(M.action_of_id(int(a), cols), chance)
        assert chance.exhausted(), f"{where}, step {steps} ({M.action_of_id(int(a), cols)}): engine dice {_dice(t.s)}, model used {chance.used}"
        steps += 1
        assert steps < max_steps
    out = Rules(GAME, params).results(_state(t))
    for col in ("first_seat", "winner"):  # the output table numbers seats from 1, the model from 0
        out[col] = int(out[col]) - 1
    got = model.outcome()
    for col in got:
        assert out[col] == got[col] or (isinstance(out[col], list) and [int(x) for x in out[col]] == got[col]) \
            or int(out[col]) == got[col], f"{where}: output column {col}: engine {out[col]}, model {got[col]}"
    return steps


def _state(t):
    from simkit.rules import State

    return State(t.s, t.rng, t.b)


# The model is the rulebook only: compensations (ParamInfo.compensation, docs/rules/ufo-o.md
# K1-K3, not in the rulebook) are left at their defaults here, so a test variant that sets one
# is not replayed against the model (tests/test_ufoo_compensations.py covers them).
COMPENSATIONS = {i.name for i in describe(GAME.params) if i.compensation}
VARIANTS = [dict(v) for v in GAME.checks.variants if not COMPENSATIONS & set(v)]
CASES = [(v, bot) for v in VARIANTS for bot in GAME.bots if bot != "search"] + [({}, "search")]


@pytest.mark.parametrize("sets, bot", CASES, ids=[f"{i}-{b}" for i, (_, b) in enumerate(CASES)])
def test_engine_and_model_agree_step_by_step(sets, bot):
    games = 4 if bot in ("random", "search") else 20
    sets = dict(sets, turn_cap=60) if bot == "random" else sets
    for seed in game_seeds(21, 0, games):
        replay(sets, bot, int(seed))


def _readings():
    out = []
    for info in describe(GAME.params):
        values = (True, False) if info.type is bool else info.choices or ()
        for v in values:
            if v != info.default and info.name != "board" and not info.compensation:  # see COMPENSATIONS
                out.append({info.name: v})
    return out


@pytest.mark.parametrize("sets", _readings(), ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
def test_every_reading_agrees(sets):
    for seed in game_seeds(22, 0, 6):
        replay(sets, "tactical", int(seed))
    for seed in game_seeds(23, 0, 2):
        replay(dict(sets, turn_cap=40), "random", int(seed))


@pytest.mark.parametrize("name", sorted(variants(D.BUILTIN)))
def test_every_builtin_board_variant_agrees(name):
    """The built-in board variants (C1b, C7b, C9): the model reads the same board file."""
    for seed in game_seeds(24, 0, 4):
        replay({"board": name}, "tactical", int(seed))
