"""O.V.N.I. rules tests, each reading's effect on a position (A1-A23 of docs/rules/ovni.md,
'Readings with a setting').

Positions and conventions (state-vector offsets, city / class / kind indices):
tests/ovni_rules_helpers.py.
"""

from __future__ import annotations

import pytest

from simkit.games.ovni import Rules
from simkit.games.ovni import board as B
from simkit.games.ovni import engine as E
from simkit.jit import entry

from .ovni_rules_helpers import (
    ABIL,
    BLD,
    CITY,
    KIND,
    NAMES,
    A,
    M,
    P,
    act,
    end_position,
    get,
    give,
    holding,
    legal,
    mapped,
    mission_done,
    phase2,
    place_round,
    put,
    score_seat,
    set_aliens,
    setup_done,
    ufos,
)

# ---- each reading's effect on a position (A1-A23) ---------------------------------------------
area_winner = entry(E.area_winner)


def slots(st, a, tokens):
    s = st.s
    s[E.AREA_N + a] = len(tokens)
    for j, (q, v) in enumerate(tokens):
        s[E.SLOT_OWNER + a * 4 + j] = q
        s[E.SLOT_VAL + a * 4 + j] = v


@pytest.mark.parametrize("tie_rule, winner", [("earliest", 1), ("opener_only", -1)])
def test_A1_tie_without_the_opener(tie_rule, winner):
    """A1: opener 3; then 6 of seat 1 ties with 2 + 4 of seat 2."""
    rules, st = setup_done(4, tie_rule=tie_rule)
    slots(st, 0, [(0, 3), (1, 6), (2, 2), (2, 4)])
    assert area_winner(st.s, st.b, 0, False) == winner
    slots(st, 0, [(3, 2), (1, 5), (3, 3)])  # the opener among the tied: wins under both
    assert area_winner(st.s, st.b, 0, False) == 3


@pytest.mark.parametrize("award, picks_first", [("first", True), ("last", False)])
def test_A2_when_a_multiple_winner_picks(award, picks_first):
    """A2: seat 0 won A and C, seat 1 won B: seat 0 picks before (first) or after (last)
    seat 1 receives card B."""
    awards = entry(E._awards)
    rules, st = place_round(4, cards=["PPA", "BBM", "AAM", "MMP"], multi_award_at=award)
    s = st.s
    s[E.AREA_WINNER:E.AREA_WINNER + 4] = [0, 1, 0, -1]
    put(st, 0, E.P_WON_MASK, 0b101)
    put(st, 1, E.P_WON_MASK, 0b010)
    s[E.AWARD_AREA] = 0
    before = holding(st, 1, BLD)
    awards(s, st.b)
    assert s[E.PHASE] == E.PH_PICK and s[E.TO_MOVE] == 0
    assert (holding(st, 1, BLD) == before) == picks_first


@pytest.mark.parametrize("stuck, to_move, waived", [("waive", 0, 1), ("skip", 1, 0)])
def test_A4_stuck_placement(stuck, to_move, waived):
    """A4: seat 0's only free slot follows two of its own tokens: it places there anyway
    (waive) or its turn is skipped (skip)."""
    advance = entry(E._advance_place)
    rules, st = place_round(3, order=(0, 1, 2), stuck_placement=stuck)
    s = st.s
    slots(st, 0, [(0, 2), (0, 3)])
    slots(st, 1, [(1, 2), (2, 2), (1, 3), (2, 3)])
    slots(st, 2, [(2, 4), (1, 4), (2, 5), (1, 5)])
    s[E.NPLACED] = 10
    s[E.HAND + 0] = sum(1 << v for v in (4, 5, 6))
    s[E.HAND + 1] = 1 << 6
    s[E.HAND + 2] = 1 << 6
    s[E.PLACE_TURN] = 9  # seat 0's turn
    advance(s, st.b)
    assert s[E.TO_MOVE] == to_move and s[E.PLACE_WAIVE] == waived
    if stuck == "waive":
        assert legal(rules, st) == {("place", 0, v) for v in (4, 5, 6)}
        act(rules, st, "place", 0, 4)
        assert s[E.SLOT_WAIVED + 2] == 1


def test_A4_skip_ends_when_nobody_can_place():
    advance = entry(E._advance_place)
    rules, st = place_round(3, order=(0, 1, 2), stuck_placement="skip")
    s = st.s
    slots(st, 0, [(0, 2), (0, 3)])
    slots(st, 1, [(1, 2), (2, 2), (1, 3), (2, 3)])
    slots(st, 2, [(2, 4), (1, 4), (2, 5), (1, 5)])
    s[E.NPLACED] = 10
    s[E.HAND + 0] = sum(1 << v for v in (4, 5, 6))
    s[E.HAND + 1] = 0
    s[E.HAND + 2] = 0
    s[E.PLACE_TURN] = 9
    advance(s, st.b)
    assert s[E.PHASE] != E.PH_PLACE and s[E.AREA_N + 0] == 2  # resolved with two slots empty


@pytest.mark.parametrize("reshuffle", ["draw_then_shuffle", "shuffle_all"])
def test_A5_deck_running_out(reshuffle):
    """A5: two cards left for four areas: drawn first, then the discards shuffled
    (draw_then_shuffle), or all shuffled together first (shuffle_all)."""
    start_round = entry(E._start_round)
    rules, st = setup_done(4, reshuffle=reshuffle)
    s = st.s
    nc = int(st.b[B.B_NCARDS])
    left = [int(s[E.DECK + s[E.DECK_LEN] - 2]), int(s[E.DECK + s[E.DECK_LEN] - 1])]
    for c in range(nc):
        s[E.CARD_LOC + c] = E.LOC_DISCARD
    for c in left:
        s[E.CARD_LOC + c] = E.LOC_DECK
    s[E.DECK_POS] = s[E.DECK_LEN] - 2
    s[E.DECK_N] = 2
    s[E.CHANCE_N] = 0
    start_round(s, st.rng, st.b)
    cards = s[E.AREA_CARD:E.AREA_CARD + 4].tolist()
    assert s[E.RESHUFFLES] == 1 and len(set(cards)) == 4
    if reshuffle == "draw_then_shuffle":
        assert cards[:2] == left and s[E.DECK_N] == nc - 4 and s[E.CHANCE_N] >= nc - 2
    else:
        assert s[E.DECK_N] == nc - 4 and s[E.CHANCE_N] >= nc


@pytest.mark.parametrize("flag", [False, True])
def test_A6_energy_after_an_empty_win(flag):
    """A6: seat 0 won area A but its card's classes are out of stock: the energy card only
    with energy_after_empty_win."""
    energy = entry(E._energy)
    rules, st = place_round(4, energy_after_empty_win=flag)
    s = st.s
    for q in range(4):
        put(st, q, E.P_WON_MASK, 1 << q)
        put(st, q, E.P_GOT_ROUND, 3 if q else 0)
    s[E.ENERGY_IDX] = 0
    energy(s, st.b)
    assert (s[E.PHASE] == E.PH_ENERGY and s[E.TO_MOVE] == 0) == flag


@pytest.mark.parametrize("flag", [False, True])
def test_A9_empty_group(flag):
    """A9: a prebuilt UFO and no Builder: the Builders may be activated only with
    empty_group."""
    rules, st = phase2(4, seat=0, empty_group=flag)
    set_aliens(st, 0, (1, 0, 0, 0))
    put(st, 0, E.P_PAD, 1)
    put(st, 0, E.P_RESERVE, get(st, 0, E.P_RESERVE) - 1)
    assert (("activate", BLD) in legal(rules, st)) == flag


@pytest.mark.parametrize("flag, budget", [(False, 0), (True, 1)])
def test_A10_captured_military_add_attacks(flag, budget):
    """A10: 5 Military (one attack) capture a Military: 6 give a second attack only with
    attacks_dynamic."""
    rules, st = phase2(4, seat=0, attacks_dynamic=flag)
    set_aliens(st, 0, (0, 1, 0, 5))
    set_aliens(st, 1, (0, 0, 0, 3))
    set_aliens(st, 2, (0, 0, 0, 3))
    act(rules, st, "activate", M)
    act(rules, st, "capture", 1, M)
    assert st.s[E.BUDGET] == budget


@pytest.mark.parametrize("targets, allowed", [("not_consecutive", True), ("all_different", False)])
def test_A11_three_attacks(targets, allowed):
    """A11: 9 Military: A, B, A is allowed (not_consecutive) or not (all_different)."""
    rules, st = phase2(4, seat=0, military_targets=targets)
    set_aliens(st, 0, (0, 1, 0, 9))
    for q in (1, 2):
        set_aliens(st, q, (3, 3, 0, 0))
    act(rules, st, "activate", M)
    act(rules, st, "capture", 1, P)
    assert ("capture", 1, A) not in legal(rules, st)
    act(rules, st, "capture", 2, P)
    assert (("capture", 1, A) in legal(rules, st)) == allowed


@pytest.mark.parametrize("rule, capturable", [("all", True), ("own", False)])
def test_A12_the_only_token_of_a_class(rule, capturable):
    """A12: the victim holds one own Builder and one it captured."""
    capture_ok = entry(E.capture_ok)
    rules, st = phase2(4, last_of_class=rule)
    set_aliens(st, 1, (0, 0, 1, 0), captured=(0, 0, 1, 0))
    assert capture_ok(st.s, st.b, 1, BLD) == capturable


@pytest.mark.parametrize("presence, legal_there", [(True, False), (False, True)])
def test_A13_abduct_without_majority_and_no_ufo(presence, legal_there):
    rules, st = phase2(4, seat=0, no_majority_presence=presence)
    give(st, 0, "abduct_without_majority")
    set_aliens(st, 0, (0, 2, 0, 0))
    st.s[E.CITY_HUMAN + 5] = 1
    ufos(st, 0, 0, 1)
    st.s[E.CITY_HUMAN + 0] = 2
    act(rules, st, "activate", A)
    assert (("abduct", 5, 5) in legal(rules, st)) == legal_there


@pytest.mark.parametrize("flag", [False, True])
def test_A14_swap_into_an_empty_city(flag):
    rules, st = phase2(4, seat=0, swap_into_empty=flag)
    give(st, 0, "swap_human")
    set_aliens(st, 0, (1, 2, 0, 0))
    paris, berlin = CITY["Paris"], CITY["Berlin"]
    st.s[E.CITY_HUMAN + berlin] = KIND["atleta"]
    ufos(st, 0, paris, 1)
    ufos(st, 0, CITY["Tokyo"], 1)
    st.s[E.CITY_HUMAN + CITY["Tokyo"]] = 0  # something else to abduct, so the group opens
    act(rules, st, "activate", A)
    assert (("abduct", paris, berlin) in legal(rules, st)) == flag
    if flag:
        act(rules, st, "abduct", paris, berlin)
        assert st.s[E.CITY_HUMAN + berlin] == -1 and get(st, 0, E.P_HUMANS, KIND["atleta"]) == 1


@pytest.mark.parametrize("flag, points", [(True, 10), (False, 5)])
def test_A15_captured_aliens_at_scoring(flag, points):
    """A15: seat 0 holds 3 Pilots, one of them captured; seat 1 holds 2."""
    rules, st = end_position(4, captured_in_scoring=flag)
    set_aliens(st, 0, (2, 0, 0, 0), captured=(1, 0, 0, 0))
    set_aliens(st, 1, (2, 0, 0, 0))
    score_seat(st.s, st.b, 0)
    assert get(st, 0, E.P_PTS, 0) == points


@pytest.mark.parametrize("ufo_rule, done", [("on_board", 0), ("launched", 1)])
def test_A16_A17_mapping_mission_ufos_and_parity(ufo_rule, done):
    """A16: M13 counts UFOs on the board or UFOs launched; A17: its even-city parity."""
    rules, st = end_position(4, mission_ufos=ufo_rule)
    m13 = NAMES["missions"].index("M13")
    for c in (1, 3, 5, 7):
        mapped(st, 0, c)
    ufos(st, 0, 0, 3)
    put(st, 0, E.P_LAUNCHED, 7)
    assert mission_done(st.s, st.b, 0, m13) == done
    rules, st = end_position(4, mission_parity="any")
    for c in (0, 2, 4, 6):  # odd-numbered cities
        mapped(st, 0, c)
    for c in range(7):
        ufos(st, 0, c, 1)
    assert mission_done(st.s, st.b, 0, m13) == 1
    rules, st = end_position(4)
    for c in (0, 2, 4, 6):
        mapped(st, 0, c)
    for c in range(7):
        ufos(st, 0, c, 1)
    assert mission_done(st.s, st.b, 0, m13) == 0


@pytest.mark.parametrize("overlap, done", [("shared", 2), ("additive", 1)])
def test_A20_two_missions_and_the_same_humans(overlap, done):
    """A20: M01 and M03 each need 4 controlled even cities and 2 humans of a kind; with
    2 politicos and 2 atletas both need them separately: shared completes both,
    additive needs 2 + 2 of each multiset, so only the first."""
    rules, st = end_position(4, mission_overlap=overlap)
    m01 = NAMES["missions"].index("M01")
    m05 = NAMES["missions"].index("M05")
    st.s[E.MISSIONS:E.MISSIONS + 3] = [m01, m01, 0]  # the same card twice: the clearest overlap
    st.s[E.KEPT] = 0b011
    for c in (1, 3, 5, 7):
        ufos(st, 0, c, 1)
    put(st, 0, E.P_HUMANS, 2, KIND["politico"])
    put(st, 0, E.P_NHUMANS, 2)
    score_seat(st.s, st.b, 0)
    assert get(st, 0, E.P_MDONE) == done
    assert m05 >= 0


def test_A18_fixed_planets():
    st = Rules(players=4, planets="fixed").new(3)
    assert [get(st, q, E.P_PLANET_ID) for q in range(4)] == [0, 1, 2, 3]
    st = Rules(players=4).new(3)
    assert sorted(get(st, q, E.P_PLANET_ID) for q in range(4)) == [0, 1, 2, 3]


@pytest.mark.parametrize("cap, winners", [("score", True), ("draw", False)])
def test_A19_capped_games(cap, winners):
    rules = Rules(players=3, max_rounds=1, cap_result=cap)
    st = rules.new(4)
    while not rules.over(st):
        rules.step(st, int(rules.legal(st)[0]))
    res = rules.results(st)
    assert st.s[E.ROUND] == 1 and res["capped"] and res["end_class"] == "none"
    assert any(res["won"]) == winners
    assert res["draw"] == (not winners) or sum(res["won"]) > 1


@pytest.mark.parametrize("mode", ["remove", "dead"])
def test_A21_force_field_with_two_players(mode):
    ff = ABIL["force_field"]
    dealt = 0
    for seed in range(60):
        rules = Rules(players=2, force_field_2p=mode)
        st = rules.new(seed)
        for q in range(2):
            if ff in (get(st, q, E.P_ABIL, 0), get(st, q, E.P_ABIL, 1)):
                dealt += 1
                assert get(st, q, E.P_FF_MIL) == -1  # never usable with 2 players
    assert (dealt > 0) == (mode == "dead")


@pytest.mark.parametrize("mode, points, air", [("ignored", 10, 4), ("blocks", 5, 0)])
def test_A23_the_dummy_at_final_scoring(mode, points, air):
    """A23: the dummy ties seat 0's 3 Pilots and seat 0's 2 UFOs in Madrid."""
    rules, st = end_position(2, dummy_in_scoring=mode)
    set_aliens(st, 0, (3, 0, 0, 0))
    set_aliens(st, 2, (3, 0, 0, 0))
    ufos(st, 0, 2, 2)
    ufos(st, 2, 2, 2)
    score_seat(st.s, st.b, 0)
    assert get(st, 0, E.P_PTS, 0) == points and get(st, 0, E.P_PTS, 2) == air

