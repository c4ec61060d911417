"""O.V.N.I.: the compensations (docs/rules/ovni.md, "Compensations (not in the rulebook)",
K1-K3), balancing changes for `simkit tune` that the rulebook does not have.

Each one is checked on real positions of the compiled engine (who decides, the legal
actions, the state after the action), and each default is checked to leave the rules as
written (the golden digests, tests/test_golden.py, check the outcomes of whole games).
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.ovni import Rules
from simkit.games.ovni import board as B
from simkit.games.ovni import describe as D
from simkit.games.ovni import engine as E
from simkit.games.ovni.params import OVNIParams
from simkit.jit import entry
from simkit.params import build, describe

P, A, BLD, M = range(4)
COMPENSATIONS = {"start_order": "seat_order", "start_triples": 0, "seat_bonus_points": 0}


def off(q, field, k=0):
    return E.PLAYER + q * E.P_STRIDE + field + k


def get(st, q, field, k=0):
    return int(st.s[off(q, field, k)])


def legal(rules, st):
    return {D.semantic(a) for a in rules.legal(st)}


def act(rules, st, *t):
    rules.step(st, D.action_id(tuple(t)))


def to_start(rules, st, pairs_only=True):
    """Every seat keeps its first mission; with ``pairs_only`` no seat holds the
    three-aliens card (so K1 is seen on pairs alone)."""
    if pairs_only:
        for q in range(int(st.s[E.PLAYERS])):
            st.s[off(q, E.P_START_N)] = 2
    while int(st.s[E.PHASE]) == E.PH_KEEP:
        act(rules, st, "keep", 0)
    assert int(st.s[E.PHASE]) == E.PH_START


def holding(st, q):
    return [get(st, q, E.P_OWN, k) + get(st, q, E.P_CAPT, k) for k in range(4)]


# ---- declared as compensations, defaults as written ---------------------------------------
def test_the_compensations_are_declared_apart_with_neutral_defaults():
    infos = {i.name: i for i in describe(OVNIParams)}
    assert {n for n, i in infos.items() if i.compensation} == set(COMPENSATIONS)
    for name, default in COMPENSATIONS.items():
        assert infos[name].default == default
        assert infos[name].help.startswith("Compensation (not in the rulebook): ")
    b = B.build(OVNIParams())
    assert (b[B.B_START_REVERSED], b[B.B_START_TRIPLES], b[B.B_SEAT_BONUS]) == (0, 0, 0)


@pytest.mark.parametrize("players", (2, 3, 4))
def test_defaults_give_the_same_board_and_set_up(players):
    explicit = build(OVNIParams, {"players": players, **COMPENSATIONS}, "ovni")
    assert explicit == OVNIParams(players=players)
    plain = Rules(players=players)
    st = plain.new(7)
    assert np.array_equal(B.build(explicit), B.build(OVNIParams(players=players)))
    # R1.11 as written: seat 0 chooses first, then clockwise
    to_start(plain, st)
    order = []
    while int(st.s[E.PHASE]) == E.PH_START:
        order.append(plain.to_move(st))
        plain.step(st, plain.legal(st)[0])
    assert order == list(range(players))


# ---- K1 start_order=reversed ----------------------------------------------------------------
def test_k1_reversed_four_players_last_seat_chooses_first():
    rules = Rules(players=4, start_order="reversed")
    st = rules.new(3)
    to_start(rules, st)
    assert rules.to_move(st) == 3
    assert legal(rules, st) == {("start_pair", a, b) for a in range(4) for b in range(a + 1, 4)}
    act(rules, st, "start_pair", BLD, M)
    assert holding(st, 3) == [0, 0, 1, 1]
    # the no-repeat rule follows the choosing order: seat 2 may not take (B, M)
    assert rules.to_move(st) == 2
    assert ("start_pair", BLD, M) not in legal(rules, st) and len(legal(rules, st)) == 5
    act(rules, st, "start_pair", A, M)
    assert rules.to_move(st) == 1
    act(rules, st, "start_pair", A, BLD)
    # seat 0 chooses last, from the three pairs left (E2 mirrored)
    assert rules.to_move(st) == 0
    assert legal(rules, st) == {("start_pair", P, A), ("start_pair", P, BLD), ("start_pair", P, M)}
    act(rules, st, "start_pair", P, M)
    assert holding(st, 0) == [1, 0, 0, 1]
    assert int(st.s[E.PHASE]) == E.PH_PLACE and int(st.s[E.ROUND]) == 1
    # round 1's phase-1 order (R3.1) now starts with the last seat's (B, M)
    assert int(st.s[E.ORDER1]) == 3
    assert rules.invariants(st) == []


def test_k1_reversed_two_players_then_the_dummy_as_written():
    rules = Rules(players=2, start_order="reversed")
    st = rules.new(11)
    to_start(rules, st)
    assert rules.to_move(st) == 1
    act(rules, st, "start_pair", BLD, M)
    assert rules.to_move(st) == 0
    assert ("start_pair", BLD, M) not in legal(rules, st)
    act(rules, st, "start_pair", P, A)
    # R19.4 unchanged: seat 0, then seat 1, each give the dummy one alien
    assert int(st.s[E.PHASE]) == E.PH_DUMMY_START and rules.to_move(st) == 0
    act(rules, st, "dummy_alien", P)
    assert rules.to_move(st) == 1
    assert ("dummy_alien", A) not in legal(rules, st)  # (P, A) was taken by seat 0
    act(rules, st, "dummy_alien", M)
    assert holding(st, 2) == [1, 0, 0, 1]
    assert int(st.s[E.PHASE]) == E.PH_PLACE


def test_k1_reversed_a_seat_with_the_card_still_takes_a_triple():
    rules = Rules(players=3, start_order="reversed")
    st = rules.new(5)
    to_start(rules, st)
    st.s[off(2, E.P_START_N)] = 3
    assert legal(rules, st) == {("start_triple", k) for k in range(4)}
    act(rules, st, "start_triple", P)
    assert holding(st, 2) == [0, 1, 1, 1]
    assert rules.to_move(st) == 1 and len(legal(rules, st)) == 6  # a triple takes no pair


# ---- K2 start_triples ---------------------------------------------------------------------------
@pytest.mark.parametrize("players,n,order,expect", [
    (4, 1, "seat_order", (3,)), (4, 2, "seat_order", (2, 3)), (4, 3, "seat_order", (1, 2, 3)),
    (3, 1, "seat_order", (2,)), (3, 3, "seat_order", (1, 2)), (2, 1, "seat_order", (1,)), (2, 3, "seat_order", (1,)),
    # with K1 the last choosers are the first seats
    (4, 1, "reversed", (0,)), (4, 2, "reversed", (0, 1)), (3, 3, "reversed", (0, 1)), (2, 2, "reversed", (0,)),
])
def test_k2_the_last_choosers_take_three_starting_aliens(players, n, order, expect):
    for seed in range(6):
        plain = Rules(players=players).new(seed)
        st = Rules(players=players, start_triples=n, start_order=order).new(seed)
        for q in range(players):
            want = 3 if q in expect else get(plain, q, E.P_START_N)  # the first chooser never (unless its card)
            assert get(st, q, E.P_START_N) == want
        # nothing else at set-up differs
        diff = np.flatnonzero(st.s != plain.s)
        assert set(diff) <= {off(q, E.P_START_N) for q in range(players)}


def test_k2_triple_is_a_legal_start_and_takes_three_classes():
    rules = Rules(players=4, start_triples=2)
    st = rules.new(9)
    to_start(rules, st, pairs_only=False)
    for q in range(2):  # seats 0 and 1 as dealt (a pair, or a triple with the card)
        st.s[off(q, E.P_START_N)] = 2
    stock = [int(st.s[E.STOCK + k]) for k in range(4)]
    act(rules, st, "start_pair", BLD, M)
    act(rules, st, "start_pair", A, M)
    assert rules.to_move(st) == 2
    assert legal(rules, st) == {("start_triple", k) for k in range(4)}
    act(rules, st, "start_triple", BLD)  # every class but Builders
    assert holding(st, 2) == [1, 1, 0, 1]
    act(rules, st, "start_triple", P)
    assert holding(st, 3) == [0, 1, 1, 1]
    assert [int(st.s[E.STOCK + k]) for k in range(4)] == [stock[0] - 1, stock[1] - 3, stock[2] - 2, stock[3] - 4]
    assert int(st.s[E.PHASE]) == E.PH_PLACE
    # R3.1: the (A, B, M) triple leads round 1's phase 1
    assert int(st.s[E.ORDER1]) == 3
    assert rules.invariants(st) == []


# ---- K3 seat_bonus_points -------------------------------------------------------------------------
def _play(rules, seed, pick_seed):
    st = rules.new(seed)
    rng = np.random.default_rng(pick_seed)
    steps = 0
    while not rules.over(st):
        acts = rules.legal(st)
        rules.step(st, int(acts[rng.integers(len(acts))]))
        steps += 1
        assert steps < 20_000
    return st


@pytest.mark.parametrize("players", (2, 3, 4))
@pytest.mark.parametrize("order", ("seat_order", "reversed"))
def test_k3_each_seat_adds_the_bonus_per_earlier_chooser(players, order):
    bonus = 4
    plain_rules = Rules(players=players, start_order=order)
    rules = Rules(players=players, start_order=order, seat_bonus_points=bonus)
    plain = _play(plain_rules, 21, 1)
    st = _play(rules, 21, 1)  # the same decisions: K3 changes nothing before the final scoring
    for q in range(players):
        earlier = q if order == "seat_order" else players - 1 - q  # seats choosing before q (R1.11, K1)
        assert [get(st, q, E.P_PTS, k) for k in range(6)] == [get(plain, q, E.P_PTS, k) for k in range(6)]
        assert get(st, q, E.P_SCORE) == get(plain, q, E.P_SCORE) + earlier * bonus
    # R16's winners on the new scores, tie-breaks unchanged (UFOs on the board, then humans)
    keys = [(get(st, q, E.P_SCORE), get(st, q, E.P_ON_BOARD), get(st, q, E.P_NHUMANS)) for q in range(players)]
    assert [get(st, q, E.P_WON) for q in range(players)] == [int(k == max(keys)) for k in keys]
    assert rules.invariants(st) == []
    text = D.describe_result(rules.params, st.s, rules.b)
    assert f"seat bonus (K3" in text and "seat bonus" not in D.describe_result(plain_rules.params, plain.s, plain_rules.b)


def test_k3_the_bonus_can_decide_the_winner():
    """Seat 0 ahead of seat 1 by d points: a bonus of d ties them (R16's tie-breaks decide),
    d + 1 gives seat 1 the win."""
    final_scoring = entry(E._final_scoring)
    for seed in range(50):
        rules = Rules(players=2)
        st = rules.new(seed)
        while int(st.s[E.PHASE]) != E.PH_PLACE:
            rules.step(st, rules.legal(st)[0])
        s = st.s.copy()
        final_scoring(s, rules.b)
        d = int(s[off(0, E.P_SCORE)]) - int(s[off(1, E.P_SCORE)])
        if d > 0:
            break
    assert d > 0 and bool(s[off(0, E.P_WON)]) and not s[off(1, E.P_WON)]
    for bonus in (d, d + 1):
        b = B.build(OVNIParams(players=2, seat_bonus_points=bonus))
        t = st.s.copy()
        final_scoring(t, b)
        assert int(t[off(1, E.P_SCORE)]) == int(s[off(1, E.P_SCORE)]) + bonus
        assert int(t[off(0, E.P_SCORE)]) == int(s[off(0, E.P_SCORE)])
        if bonus == d + 1:
            assert list(t[[off(0, E.P_WON), off(1, E.P_WON)]]) == [0, 1]
        else:  # equal scores: more UFOs on the board, then more humans (R16)
            k0 = (int(t[off(0, E.P_ON_BOARD)]), int(t[off(0, E.P_NHUMANS)]))
            k1 = (int(t[off(1, E.P_ON_BOARD)]), int(t[off(1, E.P_NHUMANS)]))
            assert list(t[[off(0, E.P_WON), off(1, E.P_WON)]]) == [int(k0 >= k1), int(k1 >= k0)]
