"""O.V.N.I.: the rulebook's examples (docs/rules/ovni.md E1-E22), each reading's effect
on a position, the 2-player dummy planet and the hidden bids.

Positions are written into the engine's state vector (built-in stand-in board and
decks), then the compiled step function plays the actions. Rule numbers refer to
docs/rules/ovni.md. Cities are the engine's indices (number - 1); classes P, A, B, M
are 0-3; human kinds follow decks.toml (politico 0 ... superdotado 5).
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
from simkit.rules import IllegalAction

NAMES = B.names(OVNIParams())
CITY = {name: i for i, name in enumerate(NAMES["cities"])}
KIND = {k: i for i, k in enumerate(NAMES["kinds"])}
COLOUR = {c: i for i, c in enumerate(NAMES["colours"])}
CARD = {label: i for i, label in enumerate(NAMES["cards"])}
ABIL = {name: i for i, name in enumerate(NAMES["abilities"])}
P, A, BLD, M = range(4)

rank = entry(E._rank)
receive = entry(E._receive)
score_seat = entry(E.score_seat)
human_points = entry(E.human_points)
final_scoring = entry(E._final_scoring)
mission_done = entry(E.mission_done)


# ---- helpers ---------------------------------------------------------------------------------
def off(q, field, k=0):
    return E.PLAYER + q * E.P_STRIDE + field + k


def get(st, q, field, k=0):
    return int(st.s[off(q, field, k)])


def put(st, q, field, value, k=0):
    st.s[off(q, field, k)] = value


def act(rules, st, *t):
    rules.step(st, D.action_id(tuple(t)))


def legal(rules, st):
    return {D.semantic(a) for a in rules.legal(st)}


def holding(st, q, k):
    return get(st, q, E.P_OWN, k) + get(st, q, E.P_CAPT, k)


def set_aliens(st, q, counts, captured=(0, 0, 0, 0)):
    """Planet ``q`` holds ``counts`` (P, A, B, M) never-captured aliens plus ``captured``;
    the stock absorbs the difference."""
    for k in range(4):
        before = get(st, q, E.P_OWN, k) + get(st, q, E.P_CAPT, k)
        put(st, q, E.P_OWN, counts[k], k)
        put(st, q, E.P_CAPT, captured[k], k)
        st.s[E.STOCK + k] -= counts[k] + captured[k] - before


def neutral(st):
    """No ability card effects (tests give the ones they need)."""
    for q in range(int(st.s[E.NPLANETS])):
        put(st, q, E.P_EFF, 0)
        put(st, q, E.P_START_N, 2)
        put(st, q, E.P_MAP_THR, 0)
        put(st, q, E.P_PREBUILT, 0)
        put(st, q, E.P_EXTRA_MOVES, 0)
        put(st, q, E.P_FF_MIL, -1)
        put(st, q, E.P_SIX_MAX, 1)
        put(st, q, E.P_MAP_PTS, 3)
        put(st, q, E.P_UFO_PTS, 2)


def give(st, q, name):
    """Seat ``q`` holds the ability card ``name`` (its effect and numbers)."""
    card = ABIL[name]
    b = st.b
    e = int(b[B.B_ABIL_EFFECT + card])
    p1 = int(b[B.B_ABIL_P1 + card])
    p2 = int(b[B.B_ABIL_P2 + card])
    put(st, q, E.P_EFF, get(st, q, E.P_EFF) | (1 << e))
    field = {B.EFF_STARTING_ALIENS: E.P_START_N, B.EFF_MAP_THRESHOLD: E.P_MAP_THR, B.EFF_EXTRA_MOVES: E.P_EXTRA_MOVES,
             B.EFF_PREBUILT_UFO: E.P_PREBUILT,
             B.EFF_FORCE_FIELD: E.P_FF_MIL, B.EFF_SIX_USES: E.P_SIX_MAX, B.EFF_MAPPING_POINTS: E.P_MAP_PTS,
             B.EFF_UFO_POINTS: E.P_UFO_PTS}.get(e)
    if field is not None:
        put(st, q, field, p1)
    if e == B.EFF_EXTRA_MOVES:
        put(st, q, E.P_EXTRA_MIN, p2)


def clear_board(st):
    """Every UFO back in its reserve, no pads, no mapping, no human in any city."""
    s = st.s
    ufos = int(st.b[B.B_UFOS])
    for q in range(int(s[E.NPLANETS])):
        for c in range(12):
            put(st, q, E.P_UFO, 0, c)
            put(st, q, E.P_FROZEN, 0, c)
        put(st, q, E.P_ON_BOARD, 0)
        put(st, q, E.P_PAD, 0)
        put(st, q, E.P_RESERVE, ufos)
        put(st, q, E.P_MAPPED, 0)
        put(st, q, E.P_NMAPPED, 0)
    s[E.MAP_COUNT:E.MAP_COUNT + 12] = 0
    s[E.CITY_HUMAN:E.CITY_HUMAN + 12] = -1


def ufos(st, q, city, n):
    put(st, q, E.P_RESERVE, get(st, q, E.P_RESERVE) - (n - get(st, q, E.P_UFO, city)))
    put(st, q, E.P_ON_BOARD, get(st, q, E.P_ON_BOARD) + n - get(st, q, E.P_UFO, city))
    put(st, q, E.P_UFO, n, city)


def mapped(st, q, city):
    put(st, q, E.P_MAPPED, get(st, q, E.P_MAPPED) | (1 << city))
    put(st, q, E.P_NMAPPED, get(st, q, E.P_NMAPPED) + 1)
    st.s[E.MAP_COUNT + city] += 1


def setup_done(players=4, seed=1, **settings):
    """A game after its set-up decisions (each seat keeps its first mission, takes the
    first legal pair or triple; the dummy's aliens are the first legal)."""
    rules = Rules(players=players, **settings)
    st = rules.new(seed)
    while st.s[E.PHASE] in (E.PH_KEEP, E.PH_START, E.PH_DUMMY_START):
        rules.step(st, int(rules.legal(st)[0]))
    return rules, st


def phase2(players=4, seed=1, seat=0, limit=2, **settings):
    """A real position at the start of phase 2 of round 1, then rewritten: no ability
    effects, an empty board, ``seat`` to activate groups."""
    rules, st = setup_done(players, seed, **settings)
    while st.s[E.PHASE] != E.PH_TURN:
        rules.step(st, int(rules.legal(st)[-1 if st.s[E.PHASE] == E.PH_ENERGY else 0]))
    neutral(st)
    clear_board(st)
    s = st.s
    n = int(s[E.NPLANETS])
    for q in range(n):
        put(st, q, E.P_FF, 0)
        put(st, q, E.P_ENERGY, 0)
        set_aliens(st, q, (0, 0, 0, 0))
    order = [seat] + [q for q in range(n) if q != seat]
    s[E.ORDER2:E.ORDER2 + n] = order
    s[E.TURN_IDX] = 0
    s[E.TO_MOVE] = seat
    s[E.ACTIVATED] = 0
    s[E.NACT] = 0
    s[E.LIMIT] = limit
    s[E.GROUP] = -1
    return rules, st


def place_round(players=4, seed=1, order=(0, 1, 2, 3), cards=None, **settings):
    """Round 1's placement with a chosen phase-1 order and chosen cards (labels)."""
    rules, st = setup_done(players, seed, **settings)
    neutral(st)
    s = st.s
    n = int(s[E.NPLANETS])
    s[E.ORDER1:E.ORDER1 + n] = order
    seats = [q for q in order if q != int(s[E.DUMMY])]
    s[E.FIRST_SEAT], s[E.SECOND_SEAT] = seats[0], seats[1]
    if cards:
        for a, label in enumerate(cards):
            old = int(s[E.AREA_CARD + a])
            s[E.CARD_LOC + old] = E.LOC_DECK
        for a, label in enumerate(cards):
            s[E.AREA_CARD + a] = CARD[label]
            s[E.CARD_LOC + CARD[label]] = E.LOC_AREA
    s[E.PLACE_TURN] = 0
    q, seat = entry(E._turn_planet)(s, 0)
    s[E.PLACE_PLANET] = q
    s[E.TO_MOVE] = seat
    return rules, st


def observe(rules, st, seat):
    return rules.observe(st, seat)


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


# ---- phase 2: Pilots and mapping (R9) -------------------------------------------------------
def pilots_position(**settings):
    """E8: blue (seat 1) has 4 Pilots, two UFOs in Berlin and one in Moscow."""
    rules, st = phase2(4, seat=1, **settings)
    blue = 1
    set_aliens(st, blue, (4, 1, 0, 0))  # an Abductor keeps the turn open after the Pilots
    ufos(st, blue, CITY["Berlin"], 2)
    ufos(st, blue, CITY["Moscow"], 1)
    act(rules, st, "activate", P)
    assert st.s[E.BUDGET] == 4
    return rules, st, blue


def test_E8_pilots_map_tokyo_and_freeze():
    """E8 / R9.1 / R9.4 / R9.5: Moscow->Tokyo, Berlin->Paris, Berlin->Moscow, Moscow->Tokyo;
    blue is the first with two UFOs in Tokyo and maps it; both Tokyo UFOs freeze; the
    spent budget ends the group."""
    rules, st, blue = pilots_position()
    tokyo, moscow = CITY["Tokyo"], CITY["Moscow"]
    act(rules, st, "move", moscow, tokyo)
    act(rules, st, "move", CITY["Berlin"], CITY["Paris"])
    act(rules, st, "move", CITY["Berlin"], moscow)
    assert st.s[E.BUDGET] == 1
    act(rules, st, "move", moscow, tokyo)
    assert (get(st, blue, E.P_MAPPED) >> tokyo) & 1 and st.s[E.MAP_COUNT + tokyo] == 1
    assert get(st, blue, E.P_FROZEN, tokyo) == 2
    assert get(st, blue, E.P_MAPPED) == 1 << tokyo  # Moscow never held two blue UFOs
    assert st.s[E.GROUP] == -1 and st.s[E.PHASE] == E.PH_TURN  # the budget is spent


def test_E8_frozen_ufos_cannot_move():
    rules, st, blue = pilots_position()
    put(st, blue, E.P_UFO, 0, CITY["Berlin"])
    ufos(st, blue, CITY["Berlin"], 2)
    tokyo = CITY["Tokyo"]
    act(rules, st, "move", CITY["Moscow"], tokyo)
    act(rules, st, "move", CITY["Berlin"], CITY["Moscow"])
    act(rules, st, "move", CITY["Moscow"], tokyo)  # maps Tokyo, freezes 2
    assert st.s[E.BUDGET] == 1
    assert not any(t[0] == "move" and t[1] == tokyo for t in legal(rules, st))


def test_A8_each_move_maps_intermediate_stops():
    """A8 each_move: Berlin->Moscow first gives blue two UFOs in Moscow: it maps Moscow
    and both freeze."""
    rules, st, blue = pilots_position()
    moscow = CITY["Moscow"]
    act(rules, st, "move", CITY["Berlin"], moscow)
    assert get(st, blue, E.P_MAPPED) == 1 << moscow and get(st, blue, E.P_FROZEN, moscow) == 2


def test_A8_end_of_group_maps_when_the_group_ends():
    rules, st, blue = pilots_position(map_check="end_of_group")
    tokyo, moscow = CITY["Tokyo"], CITY["Moscow"]
    act(rules, st, "move", moscow, tokyo)
    act(rules, st, "move", CITY["Berlin"], CITY["Paris"])
    act(rules, st, "move", CITY["Berlin"], moscow)
    assert get(st, blue, E.P_MAPPED) == 0
    act(rules, st, "move", moscow, tokyo)
    assert get(st, blue, E.P_MAPPED) == 1 << tokyo  # checked when the spent budget ended the group


def test_E9_mapping_thresholds():
    """E9 / R9.4 / R9.6 / R17.2 / A31: after blue's mapping, red needs three UFOs in Tokyo;
    a seat with map_with_two maps with two; blue never maps Tokyo again."""
    rules, st = phase2(4, seat=0)
    red, blue, green = 0, 1, 2
    tokyo, hk = CITY["Tokyo"], CITY["Hong Kong"]
    mapped(st, blue, tokyo)
    ufos(st, blue, tokyo, 2)
    set_aliens(st, red, (3, 0, 0, 0))
    ufos(st, red, tokyo, 1)
    ufos(st, red, hk, 2)
    act(rules, st, "activate", P)
    act(rules, st, "move", hk, tokyo)
    assert not (get(st, red, E.P_MAPPED) >> tokyo) & 1  # two UFOs: not enough
    act(rules, st, "move", hk, tokyo)
    assert (get(st, red, E.P_MAPPED) >> tokyo) & 1 and st.s[E.MAP_COUNT + tokyo] == 2
    # map_with_two
    rules, st = phase2(4, seat=2)
    mapped(st, blue, tokyo)
    give(st, green, "map_with_two")
    set_aliens(st, green, (1, 0, 0, 0))
    ufos(st, green, tokyo, 1)
    ufos(st, green, hk, 1)
    act(rules, st, "activate", P)
    act(rules, st, "move", hk, tokyo)
    assert (get(st, green, E.P_MAPPED) >> tokyo) & 1
    # blue never maps twice
    try_map = entry(E.try_map)
    ufos(st, blue, tokyo, 5)
    try_map(st.s, st.b, blue, tokyo)
    assert get(st, blue, E.P_NMAPPED) == 1 and st.s[E.MAP_COUNT + tokyo] == 2


def test_E9_two_players_need_three_ufos_on_the_dummy_cities():
    """E9 / R19.3: the dummy's mapping tokens lie on cities 3, 6, 9 and 12."""
    rules = Rules(players=2)
    st = rules.new(4)
    try_map = entry(E.try_map)
    neutral(st)
    madrid = CITY["Madrid"]
    ufos(st, 0, madrid, 2)
    try_map(st.s, st.b, 0, madrid)
    assert get(st, 0, E.P_MAPPED) == 0
    ufos(st, 0, madrid, 3)
    try_map(st.s, st.b, 0, madrid)
    assert get(st, 0, E.P_MAPPED) == 1 << madrid


# ---- Abductors, Builders, Military (R10-R12) --------------------------------------------------
def test_E10_abduction_needs_a_majority():
    """E10 / R10.1: red (3 Abductors: one abduction) may not abduct in Dubai (1 against
    1) but may in Buenos Aires (2 against 1); the budget is then spent."""
    rules, st = phase2(4, seat=1)
    red, blue, green = 1, 2, 0
    dubai, ba = CITY["Dubai"], CITY["Buenos Aires"]
    st.s[E.CITY_HUMAN + dubai] = KIND["atleta"]
    st.s[E.CITY_HUMAN + ba] = KIND["artista"]
    ufos(st, red, dubai, 1)
    ufos(st, blue, dubai, 1)
    ufos(st, red, ba, 2)
    ufos(st, green, ba, 1)
    set_aliens(st, red, (0, 3, 0, 0))
    act(rules, st, "activate", A)
    assert st.s[E.BUDGET] == 1
    assert ("abduct", dubai, dubai) not in legal(rules, st)
    act(rules, st, "abduct", ba, ba)
    assert st.s[E.CITY_HUMAN + ba] == -1 and get(st, red, E.P_HUMANS, KIND["artista"]) == 1
    assert st.s[E.GROUP] == -1  # budget spent, the group ended
    # with 4 Abductors, two abductions
    rules, st = phase2(4, seat=1)
    for c in (dubai, ba):
        st.s[E.CITY_HUMAN + c] = KIND["atleta"]
        ufos(st, red, c, 1)
    set_aliens(st, red, (0, 4, 0, 0))
    act(rules, st, "activate", A)
    act(rules, st, "abduct", dubai, dubai)
    act(rules, st, "abduct", ba, ba)
    assert get(st, red, E.P_NHUMANS) == 2


def test_E11_builders_launch_anywhere_and_map():
    """E11 / R11.1 / R9.4: two UFOs on the pad: one to Sao Paulo, one to Hong Kong where
    yellow is the first with two UFOs: it maps Hong Kong; one UFO and 3 Builders: one
    launch, to any city."""
    rules, st = phase2(4, seat=3)
    yellow = 3
    hk, sp = CITY["Hong Kong"], CITY["São Paulo"]
    set_aliens(st, yellow, (0, 0, 4, 0))
    ufos(st, yellow, hk, 1)
    put(st, yellow, E.P_PAD, 2)
    put(st, yellow, E.P_RESERVE, get(st, yellow, E.P_RESERVE) - 2)
    act(rules, st, "activate", BLD)
    assert legal(rules, st) == {("launch", c) for c in range(12)} | {("end_group",)}
    act(rules, st, "launch", sp)
    act(rules, st, "launch", hk)
    assert get(st, yellow, E.P_PAD) == 0 and get(st, yellow, E.P_MAPPED) == 1 << hk
    assert get(st, yellow, E.P_LAUNCHED) == 2
    rules, st = phase2(4, seat=3)
    set_aliens(st, yellow, (0, 0, 3, 0))
    put(st, yellow, E.P_PAD, 1)
    put(st, yellow, E.P_RESERVE, get(st, yellow, E.P_RESERVE) - 1)
    act(rules, st, "activate", BLD)
    act(rules, st, "launch", CITY["Sydney"])
    assert st.s[E.GROUP] == -1 and get(st, yellow, E.P_UFO, CITY["Sydney"]) == 1


def test_E12_military_two_attacks_on_different_opponents():
    """E12 / R12: green (6 Military, 1 Builder) captures one of blue's Builders, completes
    a pair and builds a UFO; blue may not be the second target; green destroys red's UFO
    in Sydney, which goes back to red's reserve."""
    rules, st = phase2(4, seat=0)
    green, red, blue = 0, 1, 2
    sydney = CITY["Sydney"]
    set_aliens(st, green, (0, 0, 1, 6))
    set_aliens(st, blue, (0, 0, 2, 0))
    set_aliens(st, red, (1, 0, 0, 0))
    ufos(st, green, sydney, 1)
    ufos(st, red, sydney, 1)
    ufos(st, blue, sydney, 1)
    act(rules, st, "activate", M)
    assert st.s[E.BUDGET] == 2
    assert ("capture", red, P) not in legal(rules, st)  # red's only Pilot
    act(rules, st, "capture", blue, BLD)
    assert get(st, green, E.P_CAPT, BLD) == 1 and holding(st, green, BLD) == 2
    assert get(st, green, E.P_PAD) == 1 and holding(st, blue, BLD) == 1
    options = legal(rules, st)
    assert not any(t[0] in ("capture", "destroy") and t[1] == blue for t in options)
    assert ("destroy", red, sydney) in options
    reserve = get(st, red, E.P_RESERVE)
    act(rules, st, "destroy", red, sydney)
    assert get(st, red, E.P_UFO, sydney) == 0 and get(st, red, E.P_RESERVE) == reserve + 1
    assert get(st, green, E.P_DESTROYED) == 1 and get(st, red, E.P_LOST) == 1
    # the captured Builder is never captured again; blue's last Builder is safe
    capture_ok = entry(E.capture_ok)
    assert not capture_ok(st.s, st.b, blue, BLD)
    put(st, green, E.P_OWN, 0, BLD)
    assert not capture_ok(st.s, st.b, green, BLD)
    # when blue regains a pair it builds again (R6.3)
    pad = get(st, blue, E.P_PAD)
    receive(st.s, st.b, blue, BLD)
    assert get(st, blue, E.P_PAD) == pad + 1


def test_destroy_takes_an_unfrozen_ufo_first():
    """A24: a destroyed UFO is an unfrozen one when the victim has one there."""
    rules, st = phase2(4, seat=0)
    tokyo = CITY["Tokyo"]
    set_aliens(st, 0, (0, 1, 0, 3))  # an Abductor keeps the turn (and the round) open
    ufos(st, 0, tokyo, 1)
    ufos(st, 1, tokyo, 3)
    put(st, 1, E.P_FROZEN, 2, tokyo)
    act(rules, st, "activate", M)
    act(rules, st, "destroy", 1, tokyo)
    assert get(st, 1, E.P_UFO, tokyo) == 2 and get(st, 1, E.P_FROZEN, tokyo) == 2


def test_group_rules_two_groups_never_twice_and_optional():
    """R8.3 / R8.4: up to two different groups, each once; a group needs a token (A9);
    ending the turn is always possible."""
    rules, st = phase2(4, seat=0)
    set_aliens(st, 0, (1, 1, 0, 1))
    assert legal(rules, st) == {("activate", P), ("activate", A), ("activate", M), ("end_turn",)}
    act(rules, st, "activate", A)  # nothing to do: the activation is used
    assert st.s[E.PHASE] == E.PH_TURN and st.s[E.NACT] == 1
    assert legal(rules, st) == {("activate", P), ("activate", M), ("end_turn",)}
    act(rules, st, "activate", M)
    assert st.s[E.TO_MOVE] != 0 or st.s[E.PHASE] != E.PH_TURN  # two groups: the turn ended


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


# ---- scoring (R15, R16) -------------------------------------------------------------------------
@pytest.mark.parametrize("pieces, points", [
    ({"brown": 1, "black": 1, "white": 1}, 3),
    ({"orange": 2, "grey": 2, "lilac": 1}, 7),
    ({"white": 2, "orange": 1, "black": 1, "brown": 1, "lilac": 1}, 17),
    ({"brown": 2, "lilac": 3, "black": 1, "white": 1, "orange": 1, "grey": 1}, 28),
])
def test_E18_human_scoring_examples(pieces, points):
    """E18 / R15.5: the rulebook's four examples, 3, 7, 17 and 28 points."""
    h = [0] * 6
    for colour, n in pieces.items():
        h[COLOUR[colour]] = n
    b = Rules(players=4).b
    assert human_points(b, *h) == points


def end_position(players=4, **settings):
    rules, st = phase2(players, **settings)
    for q in range(int(st.s[E.PLAYERS])):
        st.s[E.KEPT + q] = 0
    return rules, st


def test_E14_majorities_split_rounding_down():
    """E14 / R15.1: three players with 5 Pilots each (the most) score 3 each."""
    rules, st = end_position(4)
    for q in range(3):
        set_aliens(st, q, (5, 0, 0, 0))
    set_aliens(st, 3, (4, 1, 0, 0))
    for q in range(4):
        score_seat(st.s, st.b, q)
    assert [get(st, q, E.P_PTS, 0) for q in range(4)] == [3, 3, 3, 10]


def test_E15_airspace_strict_plurality():
    """E15 / R15.3: Washington blue 3, red 2, green 2, yellow 1: blue scores 4; one more red
    UFO makes a tie and nobody scores."""
    rules, st = end_position(4)
    red, blue, green, yellow = range(4)
    wa = CITY["Washington"]
    for q, n in ((blue, 3), (red, 2), (green, 2), (yellow, 1)):
        ufos(st, q, wa, n)
    score_seat(st.s, st.b, blue)
    assert get(st, blue, E.P_PTS, 2) == 4 and get(st, blue, E.P_CONTROLLED) == 1
    ufos(st, red, wa, 3)
    for q in range(4):
        score_seat(st.s, st.b, q)
        assert get(st, q, E.P_PTS, 2) == 0


def test_E16_E17_mapping_and_ufo_points_with_their_cards():
    """E16 / E17 / R15.2 / R15.4 / R17.8 / R17.10: five mappings score 15 (20 with
    mapping_worth_4); 4 UFOs on the board and 1 on the pad score 9 (13 with ufo_worth_3)."""
    rules, st = end_position(4)
    for c in range(5):
        mapped(st, 0, c)
        ufos(st, 1, c, 1) if c < 4 else None
    put(st, 1, E.P_PAD, 1)
    put(st, 1, E.P_RESERVE, get(st, 1, E.P_RESERVE) - 1)
    score_seat(st.s, st.b, 0)
    score_seat(st.s, st.b, 1)
    assert get(st, 0, E.P_PTS, 3) == 15 and get(st, 1, E.P_PTS, 1) == 9
    give(st, 0, "mapping_worth_4")
    give(st, 1, "ufo_worth_3")
    score_seat(st.s, st.b, 0)
    score_seat(st.s, st.b, 1)
    assert get(st, 0, E.P_PTS, 3) == 20 and get(st, 1, E.P_PTS, 1) == 13


def test_R16_tie_breaks_ufos_then_humans_then_shared():
    rules, st = end_position(3)
    s = st.s
    for q in range(3):
        ufos(st, q, q, 1)  # one UFO each, 2 points, the airspace of its city
    final_scoring(s, st.b)
    assert [get(st, q, E.P_WON) for q in range(3)] == [1, 1, 1] and s[E.DRAWN] == 1
    rules, st = end_position(3)
    ufos(st, 0, 0, 2)
    ufos(st, 1, 1, 1)
    put(st, 1, E.P_PAD, 2)  # same score: 4 + 4 = 2 + 4 + 2, fewer UFOs on the board
    put(st, 1, E.P_RESERVE, get(st, 1, E.P_RESERVE) - 2)
    final_scoring(st.s, st.b)
    assert get(st, 0, E.P_SCORE) == get(st, 1, E.P_SCORE) and [get(st, q, E.P_WON) for q in range(3)] == [1, 0, 0]


def test_R18_missions_plus_8_minus_5():
    """R15.6 / R18.2: M13 (4 even cities mapped, 7 UFOs on the board) completed scores 8;
    a second kept mission failed scores -5."""
    rules, st = end_position(4)
    m13 = NAMES["missions"].index("M13")
    m01 = NAMES["missions"].index("M01")
    st.s[E.MISSIONS:E.MISSIONS + 3] = [m13, m01, 0]
    st.s[E.KEPT] = 0b011
    for c in (1, 3, 5, 7):  # cities 2, 4, 6, 8
        mapped(st, 0, c)
    for c in range(7):
        ufos(st, 0, c, 1)
    score_seat(st.s, st.b, 0)
    assert get(st, 0, E.P_M1_DONE) == 1 and get(st, 0, E.P_M2_DONE) == 0
    assert get(st, 0, E.P_PTS, 5) == 8 - 5


# ---- ability cards (R17) ------------------------------------------------------------------------
def test_E19_extra_moves_and_abduct_without_majority():
    """E19 / R17.5 / R17.9: three Pilots give up to five moves; with 0 Pilots no extra;
    in Madrid blue 1 red 1, blue with the card may abduct, without it may not."""
    rules, st = phase2(4, seat=0)
    give(st, 0, "extra_moves")
    set_aliens(st, 0, (3, 0, 0, 0))
    ufos(st, 0, 0, 1)
    act(rules, st, "activate", P)
    assert st.s[E.BUDGET] == 5
    rules, st = phase2(4, seat=0, empty_group=True)
    give(st, 0, "extra_moves")
    set_aliens(st, 0, (0, 1, 0, 0))
    ufos(st, 0, 0, 1)
    act(rules, st, "activate", P)
    assert st.s[E.GROUP] == -1  # budget 0: nothing to do
    madrid = CITY["Madrid"]
    for card in (True, False):
        rules, st = phase2(4, seat=1)
        blue, red = 1, 0
        if card:
            give(st, blue, "abduct_without_majority")
        set_aliens(st, blue, (0, 2, 0, 1))
        st.s[E.CITY_HUMAN + madrid] = 0
        ufos(st, blue, madrid, 1)
        ufos(st, red, madrid, 1)
        act(rules, st, "activate", A)
        assert (("abduct", madrid, madrid) in legal(rules, st)) == card


def test_E19_swap_human_before_abducting():
    """R17.4: swap the target city's human with one in an adjacent city, then abduct."""
    rules, st = phase2(4, seat=0)
    give(st, 0, "swap_human")
    set_aliens(st, 0, (1, 2, 0, 0))
    paris, berlin, madrid = CITY["Paris"], CITY["Berlin"], CITY["Madrid"]
    st.s[E.CITY_HUMAN + paris] = KIND["politico"]
    st.s[E.CITY_HUMAN + berlin] = KIND["atleta"]
    ufos(st, 0, paris, 1)
    act(rules, st, "activate", A)
    options = legal(rules, st)
    assert ("abduct", paris, berlin) in options and ("abduct", paris, madrid) not in options
    act(rules, st, "abduct", paris, berlin)
    assert get(st, 0, E.P_HUMANS, KIND["atleta"]) == 1 and st.s[E.CITY_HUMAN + berlin] == KIND["politico"]
    assert st.s[E.CITY_HUMAN + paris] == -1 and get(st, 0, E.P_SWAPS) == 1


@pytest.mark.parametrize("returns", [False, True])
def test_E21_token_six_spent_and_six_twice(returns):
    """E21 / R4.8 / A3 / R17.7: a 6 placed is gone for the game (a cancelled one comes
    back with six_cancelled=returns); with six_twice it comes back once."""
    tokens_back = entry(E._tokens_back)
    rules, st = setup_done(4, six_cancelled="returns" if returns else "spent")
    neutral(st)
    s = st.s

    def play_six(cancelled):
        s[E.AREA_N] = 2
        s[E.SLOT_OWNER:E.SLOT_OWNER + 2] = [0, 1]
        s[E.SLOT_VAL:E.SLOT_VAL + 2] = [6, 6 if cancelled else 5]
        s[E.SLOT_CANCEL:E.SLOT_CANCEL + 2] = [1, 1] if cancelled else [0, 0]
        s[E.HAND + 0] &= ~(1 << 6)
        tokens_back(s, st.b)

    play_six(True)
    for q in (0, 1):  # both 6s were placed and cancelled
        assert bool(get(st, q, E.P_SIX_SPENT)) == (not returns) and get(st, q, E.P_SIXES_PLAYED) == 1
    assert get(st, 2, E.P_SIX_SPENT) == 0
    rules, st = setup_done(4)
    neutral(st)
    s = st.s
    give(st, 0, "six_twice")
    play_six(False)
    assert get(st, 0, E.P_SIX_SPENT) == 0 and (s[E.HAND] >> 6) & 1
    play_six(False)
    assert get(st, 0, E.P_SIX_SPENT) == 1 and not (s[E.HAND] >> 6) & 1


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
