"""O.V.N.I. rules tests, phase 2 (R8-R12 of docs/rules/ovni.md; examples E8-E12, readings A8,
A24): Pilots and mapping, Abductors, Builders, Military, the group rules.

Positions and conventions (state-vector offsets, city / class / kind indices):
tests/ovni_rules_helpers.py.
"""

from __future__ import annotations

from simkit.games.ovni import Rules
from simkit.games.ovni import engine as E
from simkit.jit import entry

from .ovni_rules_helpers import (
    BLD,
    CITY,
    KIND,
    A,
    M,
    P,
    act,
    get,
    give,
    holding,
    legal,
    mapped,
    neutral,
    phase2,
    put,
    receive,
    set_aliens,
    ufos,
)


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

