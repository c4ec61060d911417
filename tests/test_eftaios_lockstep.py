"""Lockstep replay of engine games against the independent plain-Python model of the rules
(tests/reference/eftaios_model.py, written from the rulebook alone by another engineer; see
tests/reference/lockstep.py, docs/adding-a-game.md section 10). Skipped until that model is in the tree.

For every variant and bot: the engine plays a game; after set-up and after every step the
model is fed the chance outcomes the engine logged (``chance_log``), and must agree on who
decides, on the legal decisions (as semantic tuples), on the end and on the winners. Any
divergence is a bug in one of the two, to be settled from the rulebook."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

from simkit.games import get
from simkit.games.eftaios import board as B
from simkit.games.eftaios import data_model as dm
from simkit.games.eftaios import engine as E
from simkit.params import build
from simkit.play import Table

model_mod = pytest.importorskip("tests.reference.eftaios_model")

GAME = get("eftaios")
VARIANTS = [dict(v) for v in GAME.checks.variants] + [
    {"mode": "basic", "players": 6, "noise_targets": "any"},
    {"players": 7, "defence_scope": "attack", "adrenaline_stacks": True, "overflow_use": True},
    {"players": 4, "reshuffle": "on_empty", "item_before_noise": True, "adrenaline_exact": True},
    {"scenario": "old_guard", "captain_exemption": "first_draw", "old_guard_spotlight": "private"},
    {"scenario": "arena", "players": 4, "arena_end": "first", "arena_kills": 2, "arena_respawn": "alien_sector"},
]
SECTOR = re.compile(r"^[A-W][0-9]{2}$")


def engine_tuple(a: int) -> tuple:
    """An engine action id as a semantic tuple: (range name, argument...)."""
    name, k = E.ACTIONS.decode(int(a))
    if name in ("move", "move_attack", "use_spotlight", "noise_at"):
        return (name, k)
    if name == "discard":
        return (name, dm.ITEM_KINDS[k])
    if name == "start_hatch":
        return (name, k + 1)
    return (name,)


def normal(t: tuple) -> tuple:
    """A model tuple in the engine's terms: lower-case names, sectors as ids, kinds as names."""
    out = [str(t[0]).lower()]
    for x in t[1:]:
        if isinstance(x, str) and SECTOR.match(x.upper()):
            out.append(dm.sector_id(x))
        else:
            out.append(x)
    return tuple(out)


class LoggedChance:
    """Chance outcomes read from one step's ``chance_log``, in order."""

    def __init__(self, log):
        self.log = [int(x) for x in log]
        self.i = 0

    def _take(self, k):
        if self.i + k > len(self.log):
            raise AssertionError(f"the model asks for more chance than the engine drew ({len(self.log)})")
        out = self.log[self.i:self.i + k]
        self.i += k
        return out

    def die(self, tag):
        return self._take(1)[0]

    def choice(self, tag, k):
        v = self._take(1)[0]
        assert 0 <= v < k, f"{tag}: logged choice {v} outside 0..{k - 1}"
        return v

    def shuffle(self, tag, items):
        perm = self._take(len(items))
        assert sorted(perm) == sorted(items), f"{tag}: logged order {perm} is not a permutation of {list(items)}"
        return perm

    def done(self):
        assert self.i == len(self.log), f"the engine drew {len(self.log) - self.i} chance outcomes the model did not use"


def _data(params):
    return dm.load_map(params.map_data or params.map), dm.load_cards(params.card_data)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "defaults")
@pytest.mark.parametrize("bot", ["random", "heuristic", "search"])
def test_engine_and_model_agree_step_by_step(variant, bot):
    params = build(GAME.params, variant, GAME.name)
    b = GAME.board(params)
    player = GAME.resolve_bots([bot], params)[0]
    for seed in range(3):
        t = Table(GAME, b, 1000 + seed)
        model = model_mod.Model(dataclasses.asdict(params), _data(params))
        ch = LoggedChance(t.s[E.CHANCE_LOG:E.CHANCE_LOG + int(t.s[E.CHANCE_N])])
        model.setup(ch)
        ch.done()
        step = 0
        while not t.over():
            assert not model.over(), f"seed {seed} step {step}: the model ended the game early"
            assert model.to_move() == t.to_move(), f"seed {seed} step {step}: who decides"
            legal = sorted(engine_tuple(a) for a in t.legal())
            assert sorted(normal(x) for x in model.legal()) == legal, f"seed {seed} step {step}: legal decisions"
            a, _ = t.decide(player, 0)
            t.step(a)
            ch = LoggedChance(t.s[E.CHANCE_LOG:E.CHANCE_LOG + int(t.s[E.CHANCE_N])])
            want = engine_tuple(a)
            move = next(x for x in model.legal() if normal(x) == want)
            model.apply(move, ch)
            ch.done()
            step += 1
        assert model.over()
        won = [bool(t.s[E.PLAYER + p * E.P_STRIDE + E.P_WON]) for p in range(params.players)]
        assert list(model.won()) == won, f"seed {seed}: winners"
    assert b[B.B_PLAYERS] == params.players and np is not None
