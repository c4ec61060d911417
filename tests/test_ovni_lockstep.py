"""O.V.N.I.: the independent plain-Python model of the rules (``tests/reference/ovni_model.py``,
written from the rulebook without reading the engine) replays engine games step by step.

At every step the two must agree on whose decision it is, on the set of legal decisions
(the specification's D2 actions as tuples, ``simkit.games.ovni.describe.semantic``) and
on whether the game is over; at the end on the winners. The model draws no chance: it
asks a ``chance`` object for each outcome in rulebook order, which this test feeds from
the engine's ``chance_log`` of the step just applied (docs/rules/ovni.md D4;
tests/reference/lockstep.py, docs/adding-a-game.md section 10). Every variant (each value of each setting)
and every bot is replayed. Any divergence is a bug in one of the two, to be settled
from the rulebook.

The test is skipped while the model is not in the tree.
"""

from __future__ import annotations

import dataclasses
import importlib

import numpy as np
import pytest

from simkit.games import get
from simkit.games.ovni import describe as D
from simkit.games.ovni import engine as E
from simkit.games.ovni.data_model import load
from simkit.params import build, describe
from simkit.play import Table

model_mod = pytest.importorskip("tests.reference.ovni_model", reason="the independent model is not in the tree yet")

GAME = get("ovni")


class LogChance:
    """Chance outcomes read in order from the engine's chance log of one step."""

    def __init__(self, log):
        self.log = [int(x) for x in log]
        self.i = 0

    def _next(self, tag):
        if self.i >= len(self.log):
            raise AssertionError(f"the model asks for chance ({tag}) the engine did not draw")
        v = self.log[self.i]
        self.i += 1
        return v

    def die(self, tag):
        return self._next(tag)

    def choice(self, tag, k):
        v = self._next(tag)
        assert 0 <= v < k, f"{tag}: choice {v} of {k}"
        return v

    def shuffle(self, tag, items):
        out = [self._next(tag) for _ in items]
        assert sorted(out) == sorted(items), f"{tag}: the engine's order {out} is no permutation of {items}"
        return out

    def done(self):
        assert self.i == len(self.log), f"the engine drew {len(self.log) - self.i} chance outcomes the model did not use"


def _variants():
    out = [{"players": n} for n in (2, 3, 4)]
    for info in describe(GAME.params):
        if info.name in ("players", "board", "decks", "max_rounds"):
            continue
        # Compensations (docs/rules/ovni.md K1-K3) are balancing changes NOT in the rulebook:
        # the independent model checks the rulebook only, so they are left out here (their
        # effects are tested in tests/test_ovni_compensations.py).
        if info.compensation:
            continue
        values = (True, False) if info.type is bool else info.choices or ()
        for v in values:
            if v != info.default:
                for n in ((2, 4) if info.name.startswith(("dummy", "force_field")) else (3, 4)):
                    out.append({"players": n, info.name: v})
    return out


VARIANTS = _variants()


def replay(settings: dict, bot: str, seed: int, model_mod=model_mod):
    params = build(GAME.params, settings, "ovni")
    b = GAME.board(params)
    model = model_mod.Model(dataclasses.asdict(params), load(params))
    t = Table(GAME, b, seed)
    chance = LogChance(t.s[E.CHANCE_LOG:E.CHANCE_LOG + t.s[E.CHANCE_N]])
    model.setup(chance)
    chance.done()
    bots = GAME.resolve_bots([bot], params)
    steps = 0
    while not t.over():
        assert not model.over(), f"step {steps}: the model ended the game early"
        q = t.to_move()
        assert model.to_move() == q, f"step {steps}: engine seat {q}, model seat {model.to_move()}"
        engine_legal = {D.semantic(a) for a in t.legal()}
        model_legal = set(model.legal())
        assert engine_legal == model_legal, (
            f"step {steps} (round {int(t.s[E.ROUND])}): only engine {sorted(engine_legal - model_legal)}, "
            f"only model {sorted(model_legal - engine_legal)}")
        a, _ = t.decide(bots[0], 0)
        t.step(a)
        chance = LogChance(t.s[E.CHANCE_LOG:E.CHANCE_LOG + t.s[E.CHANCE_N]])
        model.apply(D.semantic(a), chance)
        chance.done()
        steps += 1
    assert model.over()
    won = [bool(t.s[E.PLAYER + p * E.P_STRIDE + E.P_WON]) for p in range(params.players)]
    assert list(model.won()) == won


@pytest.mark.parametrize("settings", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()))
def test_model_replays_engine_games(settings):
    for bot in GAME.bots:
        for seed in range(2):
            replay(settings, bot, 1000 + seed)
