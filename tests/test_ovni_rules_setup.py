"""O.V.N.I. rules tests, set-up (R1; examples E1, E2, E19 of docs/rules/ovni.md): UFOs, humans
and reserves, the starting pairs and triple, the missions kept.

Positions and conventions (state-vector offsets, city / class / kind indices):
tests/ovni_rules_helpers.py.
"""

from __future__ import annotations

import pytest

from simkit.games.ovni import Rules
from simkit.games.ovni import engine as E

from .ovni_rules_helpers import BLD, A, M, P, act, get, give, holding, legal, neutral


# ---- set-up (R1) -------------------------------------------------------------------------------
@pytest.mark.parametrize("players, per_seat", [(4, 3), (3, 4)])
def test_E1_setup_ufos_humans_and_reserves(players, per_seat):
    """E1 / R1.6 / R1.7: city c gets a UFO of seat (c - 1) mod n; 3 each with 4 players,
    4 each with 3; one human per city, one of each kind on the track; nothing mapped."""
    rules = Rules(players=players)
    st = rules.new(11)
    for q in range(players):
        cities = [c + 1 for c in range(12) if get(st, q, E.P_UFO, c)]
        assert cities == [c for c in range(1, 13) if (c - 1) % players == q]
        assert get(st, q, E.P_RESERVE) == 8 - per_seat
        assert get(st, q, E.P_MAPPED) == 0
    assert all(st.s[E.CITY_HUMAN + c] >= 0 for c in range(12))
    assert sorted(st.s[E.TRACK:E.TRACK + 6].tolist()) == list(range(6))
    assert sorted(st.s[E.CITY_HUMAN:E.CITY_HUMAN + 12].tolist()) == sorted(list(range(6)) * 2)
    assert st.s[E.STOCK:E.STOCK + 4].tolist() == [20 if players == 4 else 16] * 4


def test_E2_starting_pairs_are_never_repeated():
    """E2 / R1.11: after (A, M), a later seat has the other five pairs; with 4 players the
    last seat has three pairs left."""
    rules = Rules(players=4)
    st = rules.new(5)
    neutral(st)
    for q in range(4):
        act(rules, st, "keep", 0)
    act(rules, st, "start_pair", A, M)
    pairs = {t for t in legal(rules, st)}
    assert len(pairs) == 5 and ("start_pair", A, M) not in pairs
    assert ("start_pair", A, BLD) in pairs and ("start_pair", P, M) in pairs
    act(rules, st, "start_pair", P, A)
    act(rules, st, "start_pair", BLD, M)
    assert len(legal(rules, st)) == 3
    assert holding(st, 0, A) == 1 and holding(st, 0, M) == 1


def test_E19_three_starting_aliens_and_prebuilt_ufo():
    """E19 / R17.1, R17.3: the triple 'one Pilot, one Builder, one Military' is
    START_TRIPLE without Abductors; the prebuilt UFO is on the pad after set-up."""
    rules = Rules(players=3)
    st = rules.new(2)
    neutral(st)
    give(st, 0, "three_starting_aliens")
    give(st, 1, "prebuilt_ufo")
    for q in range(3):
        act(rules, st, "keep", 5)  # keep slots 0 and 1
    assert legal(rules, st) == {("start_triple", k) for k in range(4)}
    act(rules, st, "start_triple", A)  # every class but the Abductors
    assert [holding(st, 0, k) for k in range(4)] == [1, 0, 1, 1]
    reserve = get(st, 1, E.P_RESERVE)
    act(rules, st, "start_pair", P, A)
    act(rules, st, "start_pair", P, BLD)
    assert get(st, 1, E.P_PAD) == 1 and get(st, 1, E.P_RESERVE) == reserve - 1
    assert st.s[E.PHASE] == E.PH_PLACE and st.s[E.ROUND] == 1


def test_missions_keep_one_or_two():
    """R1.10: KEEP ids 0-2 keep one slot, 3-5 keep the two other slots."""
    rules = Rules(players=3)
    st = rules.new(3)
    act(rules, st, "keep", 2)
    act(rules, st, "keep", 4)  # both slots other than slot 1
    assert st.s[E.KEPT + 0] == 0b100 and st.s[E.KEPT + 1] == 0b101
    assert get(st, 0, E.P_NKEPT) == 1 and get(st, 1, E.P_NKEPT) == 2

