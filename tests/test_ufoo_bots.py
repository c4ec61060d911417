"""Ufo.O bots: legal and seeded, leave the state they read untouched, honour their
restrictions, and make the choices their descriptions promise on set positions."""

from __future__ import annotations

import numpy as np
import pytest

import strategies.ufoo as bots
from simkit.games import get
from simkit.games.ufoo import engine as E
from simkit.params import build
from simkit.play import Table
from simkit.bots import bot_table
from simkit.seeding import game_seeds
from strategies.ufoo import heuristic as H
from tests.test_ufoo_rules import A, SPARE, Bs, cell, dice, make, position, setf
from simkit.play import simulate
from simkit.protocol import entries

GAME = get("ufoo")
PARAMS = build(GAME.params, {}, "ufoo")


def play(names, n=40, seed=4, sets=None):
    params = build(GAME.params, sets or {}, "ufoo")
    chosen = GAME.resolve_bots(names, params)
    return simulate(GAME, params, game_seeds(seed, 0, n), bot_table(len(chosen), 0, n, True), chosen)


@pytest.mark.parametrize("name", list(GAME.bots))
def test_bots_are_seeded(name):
    a = play([name], n=6 if name == "search" else 30)
    b = play([name], n=6 if name == "search" else 30)
    for col in a:
        assert np.array_equal(a[col], b[col])


@pytest.mark.parametrize("name", list(GAME.bots))
def test_bots_leave_the_state_and_the_chance_stream_alone(name):
    """Bots read the state itself (perfect information): it must be unchanged after their
    choice, and the search bot gives back the rng slots it borrows for its rollouts."""
    bot = GAME.resolve_bot(name)
    for seed in game_seeds(8, 0, 2):
        t = Table(GAME, GAME.board(PARAMS), int(seed))
        steps = 0
        while not t.over() and steps < 300:
            before = t.s.copy()
            brng = t.brng.copy()
            a, legal = t.decide(bot, 0)
            assert np.array_equal(before, t.s)
            assert t.brng[0] == brng[0] == 0 and t.brng[2] == brng[2] == 0
            assert a in legal
            t.step(a)
            steps += 1


@pytest.mark.parametrize("name", ["aggressive", "tactical", "search"])
def test_restricted_bots_never_use_what_they_give_up(name):
    n = 8 if name == "search" else 200
    laser_only = play([f"{name}:laser-only"], n=n)
    assert laser_only["ions"].sum() == 0 and laser_only["lasers"].sum() > 0
    assert laser_only["ms_attacks"].sum() > 0  # the ion attack on a mothership stays
    ion_only = play([f"{name}:ion-only"], n=n)
    assert ion_only["lasers"].sum() == 0 and ion_only["ions"].sum() > 0
    no_repair = play([f"{name}:no-repair"], n=n)
    assert no_repair["repairs"].sum() == 0
    full = play([name], n=n)
    assert full["repairs"].sum() > 0


def choice(rules, st, name):
    bot = GAME.resolve_bot(name)
    mem = np.zeros(bots.MEMORY, np.int32)
    ib = np.zeros(bots.SCRATCH, np.int32)
    fb = np.zeros(bots.SCRATCH, np.float64)
    rng = np.zeros(3, np.uint64)
    rng[1] = 12345
    a = entries(GAME).choose(bot.code, bot.flags, st.s, np.zeros(0, np.int32), rng, st.b, mem, ib, fb)
    assert a in set(rules.legal(st).tolist())
    return int(a)


def test_tactical_chooses_the_weapon_by_the_odds():
    """Against a healthy UFO the ion cannon (1/2 to destroy) is worth more than lasers; a
    damaged target is finished more surely by lasers (26/36 to win with the -1)."""
    rules, st = make()
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): (6, 4)})
    assert choice(rules, st, "tactical") == E.A_ION + 0
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): ((6, 4), True)})
    assert choice(rules, st, "tactical") == E.A_LASER + 0
    assert choice(rules, st, "tactical:ion-only") == E.A_ION + 0
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): (6, 4)})
    assert choice(rules, st, "tactical:laser-only") in (E.A_LASER + 0, E.A_END_TURN)
    assert choice(rules, st, "aggressive") == E.A_ION + 0


def test_tactical_repairs_rather_than_taking_a_poor_shot():
    rules, st = make()
    position(rules, st, {(A, 0): ((4, 4), True), (Bs, 0): (6, 4)})
    assert choice(rules, st, "tactical") == E.A_REPAIR + 0
    assert choice(rules, st, "tactical:no-repair") != E.A_REPAIR + 0


def test_mothership_first():
    """On an enemy launch hex with an enemy UFO also in line, both bots fire at the
    mothership (structure is what wins)."""
    rules, st = make()
    position(rules, st, {(A, 0): (4, 9), (Bs, 0): (5, 7)})
    assert choice(rules, st, "aggressive") == E.A_ION_MS + 0
    assert choice(rules, st, "tactical") == E.A_ION_MS + 0


def test_tactical_pushes_the_loser_beside_an_asteroid():
    """R10.3: a loser pushed beside an asteroid rolls at once (1/3 to be damaged again)."""
    rules, st = make()
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): (6, 4), SPARE[0]: SPARE[1]})
    dice(st, 5, 4)
    rules.step(st, E.A_LASER + 0)
    assert st.s[E.PHASE] == E.PH_PUSH
    a = choice(rules, st, "tactical")
    assert E.A_PUSH <= a < E.A_NO_PUSH
    from simkit.games.ufoo import board as B

    assert st.b[B.B_AST_ADJ + (a - E.A_PUSH)] == 1


def test_the_defender_decides_its_push():
    """The push after a lost attack is decided by the defender's bot (to_move is not the
    active player)."""
    rules, st = make()
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): (6, 4), SPARE[0]: SPARE[1]})
    dice(st, 1, 6)
    rules.step(st, E.A_LASER + 0)
    assert rules.to_move(st) == Bs and st.s[E.ACTIVE] == A
    a = choice(rules, st, "tactical")
    assert E.A_PUSH <= a <= E.A_NO_PUSH
    rules.step(st, a)
    assert rules.to_move(st) == A


def test_aggressive_rushes_the_enemy_mothership():
    rules, st = make()
    position(rules, st, {(A, 0): (4, 6), (Bs, 0): (0, 10)}, phase=E.PH_MOVE)
    setf(st, Bs, E.S_STATUS, 0, E.ST_BOARD)
    a = choice(rules, st, "aggressive")
    assert a < E.A_END_MOVE and cell(a % E.MAX_CELLS) in [(3, 9), (4, 9), (3, 10), (5, 10)]


def test_bot_strength_order():
    """The heuristic bots beat random; with the fast bots and a fixed seed this is a sure
    thing, not a statistical claim (the ladder with intervals is in the report)."""
    r = play(["tactical", "random"], n=40)
    assert r["won"][:, 0][::2].mean() + r["won"][:, 1][1::2].mean() > 1.8


def test_weights_and_value_tables_have_their_sizes():
    assert len(H.DEFAULT_WEIGHTS) == H.N_WEIGHTS == len(H.WEIGHT_NAMES)
    from strategies.ufoo import search

    assert len(search.VALUE_COEF) == search.N_FEATURES
    assert bots.SCRATCH >= search.SCRATCH and bots.SCRATCH >= 2 * E.SIZE
