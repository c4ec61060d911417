"""O.V.N.I. rules tests, two players: the dummy planet (R19 of docs/rules/ovni.md; example E20,
readings A7, A22): its set-up, its tokens in the placement schedule, its awards and energy,
its UFOs.

Positions and conventions (state-vector offsets, city / class / kind indices):
tests/ovni_rules_helpers.py.
"""

from __future__ import annotations

import pytest

from simkit.games.ovni import Rules
from simkit.games.ovni import engine as E
from simkit.jit import entry

from .ovni_rules_helpers import (
    ABIL,
    BLD,
    CITY,
    A,
    M,
    P,
    act,
    get,
    holding,
    legal,
    neutral,
    observe,
    phase2,
    place_round,
    put,
    receive,
    set_aliens,
    ufos,
)


# ---- two players: the dummy planet (R19) ---------------------------------------------------------
def test_E20_two_player_setup():
    """E20 / R19.1-R19.5: 16 aliens a class, the dummy's two UFOs and mapping token on
    cities 3, 6, 9, 12; reserves 4, 4, 0; two starting pairs, then one dummy alien chosen
    by each seat; 9 ability cards (no force_field); 3 areas."""
    rules = Rules(players=2)
    st = rules.new(8)
    s = st.s
    assert s[E.STOCK:E.STOCK + 4].tolist() == [16] * 4
    assert [c + 1 for c in range(12) if get(st, 0, E.P_UFO, c)] == [1, 4, 7, 10]
    assert [c + 1 for c in range(12) if get(st, 1, E.P_UFO, c)] == [2, 5, 8, 11]
    assert [get(st, 2, E.P_UFO, c) for c in range(12)] == [0, 0, 2] * 4
    assert get(st, 2, E.P_MAPPED) == sum(1 << (c - 1) for c in (3, 6, 9, 12))
    assert [get(st, q, E.P_RESERVE) for q in range(3)] == [4, 4, 0]
    assert s[E.NAREAS] == 3
    neutral(st)
    act(rules, st, "keep", 0)
    act(rules, st, "keep", 0)
    act(rules, st, "start_pair", A, M)
    act(rules, st, "start_pair", P, BLD)
    assert s[E.PHASE] == E.PH_DUMMY_START and s[E.TO_MOVE] == 0
    assert len(legal(rules, st)) == 4
    act(rules, st, "dummy_alien", A)
    assert s[E.TO_MOVE] == 1
    assert legal(rules, st) == {("dummy_alien", P), ("dummy_alien", BLD)}  # not A again, not (A, M)
    act(rules, st, "dummy_alien", BLD)
    assert [holding(st, 2, k) for k in range(4)] == [0, 1, 1, 0]
    assert s[E.PHASE] == E.PH_PLACE
    ff = ABIL["force_field"]
    for seed in range(40):
        t = Rules(players=2).new(seed)
        dealt = [get(t, q, E.P_ABIL, k) for q in range(2) for k in range(2)]
        assert ff not in dealt and get(t, 2, E.P_EFF) == 0


def test_A22_free_dummy_start():
    rules = Rules(players=2, dummy_start="free")
    st = rules.new(8)
    neutral(st)
    for t in [("keep", 0), ("keep", 0), ("start_pair", A, M), ("start_pair", P, BLD), ("dummy_alien", A)]:
        act(rules, st, *t)
    assert len(legal(rules, st)) == 4


def two_player_round(dq, **settings):
    rules, st = place_round(2, order=(0, 2, 1), cards=["PPA", "BBM", "AAM"], **settings)
    st.s[E.DQ:E.DQ + 5] = dq
    st.s[E.DQ_LEN] = 5
    st.s[E.DQ_POS] = 0
    return rules, st


def play_schedule(rules, st, steps):
    """Steps of the R19.7 schedule: (seat, area, value) or (seat, area, None) for a dummy token."""
    for q, a, v in steps:
        assert st.s[E.TO_MOVE] == q
        if v is None:
            assert all(t[0] == "place_dummy" for t in legal(rules, st))
            act(rules, st, "place_dummy", a)
        else:
            assert all(t[0] == "place" for t in legal(rules, st))
            act(rules, st, "place", a, v)


def test_E20_dummy_wins_two_areas_and_takes_the_first():
    """R19.7 / R19.8: the schedule F, F.d, S, S.d, F, F.d, S, S.d, F, S, F, S; the dummy's
    face-down token is hidden from both seats; the dummy wins A and C and receives card
    A's aliens; card C's aliens stay in the stock."""
    rules, st = two_player_round([6, 5, 4, 3, 2])
    F, S, d = 0, 1, 2
    play_schedule(rules, st, [(F, 0, 2), (F, 0, None), (S, 2, 2), (S, 2, None), (F, 1, 6), (F, 1, None)])
    play_schedule(rules, st, [(S, 1, 5)])
    # the dummy's next token goes to A slot 3, face down: nobody sees it
    play_schedule(rules, st, [(S, 0, None)])
    for seat in (F, S):
        assert observe(rules, st, seat)[E.SLOT_SHOWN + 2] == 0
    stock = st.s[E.STOCK:E.STOCK + 4].copy()
    before = [holding(st, d, k) for k in range(4)]
    play_schedule(rules, st, [(F, 2, 3), (S, 0, 4), (F, 1, 4), (S, 2, 3)])
    assert st.s[E.AREA_WINNER:E.AREA_WINNER + 3].tolist() == [d, F, d]
    assert [holding(st, d, k) - before[k] for k in range(4)] == [2, 1, 0, 0]
    assert (stock - st.s[E.STOCK:E.STOCK + 4]).tolist() == [2, 1, 2, 1]  # PPA to the dummy, BBM to F
    assert st.s[E.PHASE] == E.PH_ENERGY and st.s[E.TO_MOVE] == S and not st.s[E.ENERGY_DUMMY]


@pytest.mark.parametrize("dummy_energy", ["in_order", "last"])
def test_E20_dummy_wins_nothing_first_seat_chooses_its_alien(dummy_energy):
    """R19.9 / A7: the dummy takes bonus 1, the first seat chooses the class; the dummy
    then has a force field: it cannot be attacked this round; it never takes a turn."""
    rules, st = two_player_round([2, 3, 4, 5, 6], dummy_energy=dummy_energy)
    F, S, d = 0, 1, 2
    play_schedule(rules, st, [(F, 0, 6), (F, 0, None), (S, 0, 2), (S, 1, None), (F, 1, 3), (F, 2, None),
                              (S, 2, 4), (S, 0, None), (F, 1, 5), (S, 1, 6), (F, 2, 2), (S, 2, 3)])
    assert st.s[E.AREA_WINNER:E.AREA_WINNER + 3].tolist() == [F, S, S]
    for _ in range(3):
        act(rules, st, "pick", sorted(t[1] for t in legal(rules, st))[0])
    assert st.s[E.PHASE] == E.PH_ENERGY and st.s[E.ENERGY_DUMMY] and st.s[E.TO_MOVE] == F
    act(rules, st, "dummy_alien", M)
    assert get(st, d, E.P_FF) == 1 and get(st, d, E.P_ENERGY1) == 1
    seen = set()
    while st.s[E.ROUND] == 1:
        if st.s[E.PHASE] in (E.PH_TURN, E.PH_GROUP):
            seen.add(int(st.s[E.TO_MOVE]))
            assert not any(t[0] in ("capture", "destroy") and t[1] == d for t in legal(rules, st))
        rules.step(st, int(rules.legal(st)[0]))
    assert d not in seen


def test_A7_dummy_energy_order():
    """A7: with the dummy first in the phase-1 order and a seat also eligible, in_order
    resolves the dummy's alien first, last resolves it after the seats."""
    energy = entry(E._energy)
    for mode, first_dummy in (("in_order", True), ("last", False)):
        rules, st = two_player_round([2, 3, 4, 5, 6], dummy_energy=mode)
        s = st.s
        s[E.ORDER1:E.ORDER1 + 3] = [2, 1, 0]
        for q in range(3):
            put(st, q, E.P_WON_MASK, 0 if q != 0 else 1)
        s[E.ENERGY_IDX] = 0
        energy(s, st.b)
        assert bool(s[E.ENERGY_DUMMY]) == first_dummy
        assert s[E.TO_MOVE] == (0 if first_dummy else 1)


def test_dummy_ufos_destroyed_never_come_back():
    """R19.10 / R19.11: the dummy's UFOs can be destroyed; they go to its reserve for good."""
    rules, st = phase2(2, seat=0)
    d = 2
    madrid = CITY["Madrid"]
    ufos(st, d, madrid, 2)
    ufos(st, 0, madrid, 1)
    set_aliens(st, 0, (0, 1, 0, 3))
    set_aliens(st, d, (0, 0, 3, 0))
    act(rules, st, "activate", M)
    reserve = get(st, d, E.P_RESERVE)
    act(rules, st, "destroy", d, madrid)
    assert get(st, d, E.P_UFO, madrid) == 1 and get(st, d, E.P_RESERVE) == reserve + 1
    receive(st.s, st.b, d, BLD)  # a new Builder pair builds nothing for the dummy
    assert get(st, d, E.P_PAD) == 0 and get(st, d, E.P_RESERVE) == reserve + 1

