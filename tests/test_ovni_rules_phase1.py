"""O.V.N.I. rules tests, phase 1 (R3-R7 of docs/rules/ovni.md; examples E3-E7, E13, E19, E22):
the turn orders of both phases, placing command tokens, resolving the areas, building UFOs,
the energy card and the force field; and the hidden bids (Information: a seat never sees
another's face-down token, hand or missions).

Positions and conventions (state-vector offsets, city / class / kind indices):
tests/ovni_rules_helpers.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.ovni import engine as E

from .ovni_rules_helpers import (
    BLD,
    CARD,
    A,
    M,
    P,
    act,
    get,
    give,
    holding,
    legal,
    neutral,
    observe,
    phase2,
    place_round,
    put,
    rank,
    receive,
    set_aliens,
    setup_done,
)


# ---- phase 1 -----------------------------------------------------------------------------------
def test_E3_phase1_order():
    """E3 / R3.1: (M, B, A, P) red 2/0/1/2, blue 2/1/0/2, green 0/2/2/1, yellow 0/2/1/2:
    blue, red, green, yellow."""
    rules, st = setup_done(4)
    red, blue, green, yellow = range(4)
    for q, (m, b, a, p) in zip((red, blue, green, yellow), [(2, 0, 1, 2), (2, 1, 0, 2), (0, 2, 2, 1), (0, 2, 1, 2)]):
        set_aliens(st, q, (p, a, b, m))
    rank(st.s, 0)
    assert st.s[E.ORDER1:E.ORDER1 + 4].tolist() == [blue, red, green, yellow]


def test_E7_phase2_order():
    """E7 / R8.1: (P, A, B, M) red 2/1/0/2, blue 2/0/1/2, green 1/2/2/0, yellow 2/1/2/0:
    yellow, red, blue, green."""
    rules, st = setup_done(4)
    red, blue, green, yellow = range(4)
    for q, counts in zip((red, blue, green, yellow), [(2, 1, 0, 2), (2, 0, 1, 2), (1, 2, 2, 0), (2, 1, 2, 0)]):
        set_aliens(st, q, counts)
    rank(st.s, 1)
    assert st.s[E.ORDER2:E.ORDER2 + 4].tolist() == [yellow, red, blue, green]


def test_turn_order_full_tie_uses_planet_distance():
    """R3.1 / R8.1 key 5: phase 1 the farther planet first, phase 2 the nearer."""
    rules, st = setup_done(4, planets="fixed")
    for q in range(4):
        set_aliens(st, q, (1, 1, 1, 1))
    rank(st.s, 0)
    rank(st.s, 1)
    # stand-in distances: Antaris 32.2, Eris 27.8, Luxor 45.6, Magnon 38.1
    assert st.s[E.ORDER1:E.ORDER1 + 4].tolist() == [2, 3, 0, 1]
    assert st.s[E.ORDER2:E.ORDER2 + 4].tolist() == [1, 0, 3, 2]


E5_STEPS = [  # (planet, area, value): green 0, red 1, blue 2, yellow 3
    (0, 0, 3), (1, 0, 5), (2, 3, 6), (3, 1, 3), (0, 1, 5), (1, 2, 3), (2, 0, 5), (3, 0, 5),
    (0, 3, 4), (1, 3, 4), (2, 2, 3), (3, 1, 4), (0, 1, 2), (1, 2, 2), (2, 2, 2), (3, 3, 2),
]


def play_e5(rules, st, upto=16):
    for q, a, v in E5_STEPS[:upto]:
        assert st.s[E.TO_MOVE] == q
        act(rules, st, "place", a, v)


def test_E4_placement_faces_and_hidden_values():
    """E4 / R4.2: slot 1 face down, slot 2 face up...; the observation hides another
    planet's face-down value and shows the seat its own."""
    rules, st = place_round(4, cards=["PAM", "PPA", "BBM", "MMP"])
    play_e5(rules, st, 2)
    assert st.s[E.SLOT_SHOWN + 0] == 0 and st.s[E.SLOT_SHOWN + 1] == 5
    red_view = observe(rules, st, 1)
    green_view = observe(rules, st, 0)
    assert red_view[E.SLOT_OWNER + 0] == 0 and red_view[E.SLOT_SHOWN + 0] == 0
    assert green_view[E.SLOT_SHOWN + 0] == 3
    # red knows green's face-down token is one of its tokens not showing
    assert red_view[E.O_UNSEEN + 0] == sum(1 << v for v in (2, 3, 4, 5, 6))
    play_e5(rules, st, 0)
    act(rules, st, "place", 3, 6)  # blue, D1
    act(rules, st, "place", 1, 3)  # yellow, B1
    assert [int(st.s[E.SLOT_OWNER + 4 * 0 + j]) for j in range(2)] == [0, 1]


@pytest.mark.parametrize("tie_rule", ["earliest", "opener_only"])
def test_E5_resolution_of_areas_A_to_D(tie_rule):
    """E5 / R5.2 / R5.3 / R7.1: A green (three 5s cancel), B yellow (7-7, the opener),
    C nobody (2s and 3s cancel), D blue (the 4s cancel); green gets P, A, M; only red
    may use its energy card; blue's 6 is spent; every card is discarded."""
    rules, st = place_round(4, cards=["PAM", "PPA", "BBM", "MMP"], tie_rule=tie_rule)
    before = [[holding(st, q, k) for k in range(4)] for q in range(4)]
    play_e5(rules, st)
    assert st.s[E.AREA_WINNER:E.AREA_WINNER + 4].tolist() == [0, 3, -1, 2]
    assert [holding(st, 0, k) - before[0][k] for k in range(4)] == [1, 1, 0, 1]
    assert [holding(st, 3, k) - before[3][k] for k in range(4)] == [2, 1, 0, 0]
    assert [holding(st, 2, k) - before[2][k] for k in range(4)] == [1, 0, 0, 2]
    assert st.s[E.PHASE] == E.PH_ENERGY and st.s[E.TO_MOVE] == 1
    for c in (CARD["PAM"], CARD["PPA"], CARD["BBM"], CARD["MMP"]):
        assert st.s[E.CARD_LOC + c] == E.LOC_DISCARD
    act(rules, st, "energy_three")
    assert st.s[E.PHASE] != E.PH_ENERGY  # red was the only eligible planet
    assert get(st, 2, E.P_SIX_SPENT) == 1 and not (st.s[E.HAND + 2] >> 6) & 1
    assert all(get(st, q, E.P_SIX_SPENT) == 0 for q in (0, 1, 3))


def test_E6_building_a_ufo_for_each_new_pair():
    """E6 / R6.1-R6.2: the second Builder builds, the third not, the fourth builds the
    second UFO; with a full pad the fifth and sixth build nothing."""
    rules, st = setup_done(4)
    neutral(st)
    red = 1
    set_aliens(st, red, (0, 0, 0, 0))
    put(st, red, E.P_PAD, 0)
    reserve = get(st, red, E.P_RESERVE)
    pads = []
    for _ in range(6):
        receive(st.s, st.b, red, BLD)
        pads.append(get(st, red, E.P_PAD))
    assert pads == [0, 1, 1, 2, 2, 2]
    assert get(st, red, E.P_RESERVE) == reserve - 2


def test_E22_empty_stock_gives_no_token_and_ends_the_game():
    """E22 / R5.3.4 / R14.1: one Military left; green wins an MMP card and receives one
    Military and one Pilot; the game ends after this round."""
    rules, st = place_round(4, cards=["MMP", "PPA", "BBM", "AAB"])
    green = 0
    st.s[E.STOCK + M] = 1
    before = [holding(st, green, k) for k in range(4)]
    for q, a, v in [(0, 0, 6), (1, 1, 2), (2, 2, 2), (3, 3, 2), (0, 1, 5), (1, 2, 3), (2, 3, 3), (3, 0, 3),
                    (0, 2, 4), (1, 3, 4), (2, 0, 4), (3, 1, 4), (0, 3, 2), (1, 0, 5), (2, 1, 5), (3, 2, 5)]:
        assert st.s[E.TO_MOVE] == q
        act(rules, st, "place", a, v)
    assert st.s[E.AREA_WINNER + 0] == green
    assert [holding(st, green, k) - before[k] for k in range(4)] == [1, 0, 0, 1]
    assert st.s[E.STOCK + M] == 0 and st.s[E.END_CLASS] == M
    rnd = int(st.s[E.ROUND])
    while not rules.over(st):
        rules.step(st, int(rules.legal(st)[0]))
    assert st.s[E.ROUND] == rnd


def test_several_areas_give_exactly_three_aliens():
    """R5.3.2: a winner of two areas picks three aliens from both cards, one at a time."""
    rules, st = place_round(4, cards=["PPA", "BBM", "AAM", "MMP"])
    steps = [(0, 0, 6), (1, 2, 2), (2, 3, 2), (3, 2, 3), (0, 1, 5), (1, 3, 3), (2, 2, 4), (3, 3, 4),
             (0, 0, 4), (1, 2, 5), (2, 3, 5), (3, 0, 2), (0, 1, 2), (1, 0, 4), (2, 1, 3), (3, 1, 6)]
    before = [holding(st, 0, k) for k in range(4)]
    for q, a, v in steps:
        assert st.s[E.TO_MOVE] == q
        act(rules, st, "place", a, v)
    assert st.s[E.AREA_WINNER + 0] == 0 and st.s[E.AREA_WINNER + 1] == 0
    assert st.s[E.PHASE] == E.PH_PICK and st.s[E.TO_MOVE] == 0
    assert legal(rules, st) == {("pick", P), ("pick", A), ("pick", BLD), ("pick", M)}
    act(rules, st, "pick", BLD)
    act(rules, st, "pick", BLD)
    assert legal(rules, st) == {("pick", P), ("pick", A), ("pick", M)}
    act(rules, st, "pick", M)
    assert [holding(st, 0, k) - before[k] for k in range(4)] == [0, 0, 2, 1]



# ---- the energy card (R7) and the force field -----------------------------------------------
def test_E13_energy_bonuses():
    """E13 / R7: red and blue won nothing; red takes bonus 1 (a Builder completes a pair
    and builds; a force field), blue bonus 2 (three groups); at the end of the round both
    cards are neutral and the force field is gone."""
    rules, st = place_round(4, cards=["PAM", "PPA", "BBM", "MMP"])
    red, blue = 1, 2
    set_aliens(st, red, (0, 0, 1, 0))
    set_aliens(st, blue, (5, 2, 0, 3))
    # E5's round, but yellow's 6 cancels blue's 6 in D: red and blue win nothing
    steps = [(0, 0, 3), (1, 0, 5), (2, 3, 6), (3, 1, 3), (0, 1, 5), (1, 2, 3), (2, 0, 5), (3, 0, 5),
             (0, 3, 4), (1, 3, 4), (2, 2, 3), (3, 1, 4), (0, 1, 2), (1, 2, 2), (2, 2, 2), (3, 3, 6)]
    for q, a, v in steps:
        assert st.s[E.TO_MOVE] == q
        act(rules, st, "place", a, v)
    winners = st.s[E.AREA_WINNER:E.AREA_WINNER + 4].tolist()
    assert red not in winners and blue not in winners
    assert st.s[E.PHASE] == E.PH_ENERGY and st.s[E.TO_MOVE] == red
    pad = get(st, red, E.P_PAD)
    act(rules, st, "energy_alien", BLD)
    assert holding(st, red, BLD) == 2 and get(st, red, E.P_PAD) == pad + 1 and get(st, red, E.P_FF) == 1
    assert st.s[E.TO_MOVE] == blue
    act(rules, st, "energy_three")
    assert get(st, blue, E.P_ENERGY) == 2
    # phase 2: nobody may attack red; blue activates three groups
    while st.s[E.PHASE] != E.PH_TURN or st.s[E.TO_MOVE] != blue:
        if st.s[E.PHASE] == E.PH_TURN:
            act(rules, st, "end_turn")
        elif st.s[E.PHASE] == E.PH_SHIELD:
            act(rules, st, "shield", 0)
        else:
            act(rules, st, "end_group")
    assert st.s[E.LIMIT] == 3
    for k in (P, A, M):
        act(rules, st, "activate", k)
        assert not any(t[0] in ("capture", "destroy") and t[1] == red for t in legal(rules, st))
        if st.s[E.PHASE] == E.PH_GROUP:
            act(rules, st, "end_group")
    assert st.s[E.TO_MOVE] != blue or st.s[E.PHASE] != E.PH_TURN
    while st.s[E.ROUND] == 1:
        rules.step(st, int(rules.legal(st)[-1] if st.s[E.PHASE] == E.PH_TURN else rules.legal(st)[0]))
    assert get(st, red, E.P_FF) == 0 and get(st, red, E.P_ENERGY) == 0 and get(st, blue, E.P_ENERGY) == 0


def test_E19_force_field_card_parks_two_military():
    """E19 / R17.6: with 2+ Military the seat may park two: it cannot be attacked this
    round, and its own Military budget counts held - 2."""
    rules, st = phase2(4, seat=0)
    give(st, 1, "force_field")
    set_aliens(st, 1, (0, 0, 0, 6))
    set_aliens(st, 0, (0, 0, 0, 3))
    st.s[E.PHASE] = E.PH_SHIELD
    st.s[E.TO_MOVE] = 1
    st.s[E.ORDER2:E.ORDER2 + 4] = [1, 0, 2, 3]
    st.s[E.SHIELD_IDX] = 0
    assert legal(rules, st) == {("shield", 0), ("shield", 1)}
    act(rules, st, "shield", 1)
    assert get(st, 1, E.P_PARKED) == 2 and get(st, 1, E.P_FF) == 1
    assert st.s[E.TO_MOVE] == 1 and st.s[E.PHASE] == E.PH_TURN
    act(rules, st, "activate", M)
    assert st.s[E.BUDGET] == 1  # (6 - 2) // 3, not 6 // 3
    act(rules, st, "end_group")  # no other group: the turn ends (R8.8)
    assert st.s[E.TO_MOVE] == 0
    act(rules, st, "activate", M)
    assert not any(t[0] in ("capture", "destroy") and t[1] == 1 for t in legal(rules, st))



# ---- hidden bids ----------------------------------------------------------------------------------
def test_hidden_bids_a_seat_does_not_see_another_face_down_token():
    """Information: another seat's face-down value and hand are not in the observation;
    changing them leaves it unchanged; after the reveal (R5.1) every value shows."""
    rules, st = place_round(4, cards=["PAM", "PPA", "BBM", "MMP"])
    play_e5(rules, st, 3)  # green A1 (3, down), red A2 (5, up), blue D1 (6, down)
    for seat in (0, 1, 3):
        view = observe(rules, st, seat)
        assert view[E.SLOT_SHOWN + 12] == 0  # blue's 6 in D1
        assert view[E.O_HAND] == st.s[E.HAND + seat]
    twin = st.copy()
    twin.s[E.SLOT_VAL + 12] = 4
    twin.s[E.HAND + 2] = sum(1 << v for v in (2, 3, 5, 6))
    for seat in (0, 1, 3):
        assert np.array_equal(observe(rules, st, seat), observe(rules, twin, seat))
    assert not np.array_equal(observe(rules, st, 2), observe(rules, twin, 2))
    # missions of others are not shown either
    twin = st.copy()
    twin.s[E.MISSIONS + 3:E.MISSIONS + 6] = [15, 14, 13]
    assert np.array_equal(observe(rules, st, 0), observe(rules, twin, 0))
    play_e5(rules, st, 0)
    for q, a, v in E5_STEPS[3:]:
        act(rules, st, "place", a, v)
    assert observe(rules, st, 0)[E.SLOT_SHOWN + 12] == 6 or st.s[E.PHASE] != E.PH_PLACE


def test_observation_is_the_public_view_at_the_state_offsets():
    rules, st = setup_done(3)
    obs = observe(rules, st, 1)
    assert obs[E.STOCK:E.STOCK + 4].tolist() == st.s[E.STOCK:E.STOCK + 4].tolist()
    assert obs[E.O_SEAT] == 1 and obs.shape == (E.OBS_SIZE,)

