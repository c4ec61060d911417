"""O.V.N.I. rules tests, final scoring and the winner (R15, R16, R18 of docs/rules/ovni.md;
examples E14-E18): majorities, airspace, mapping and UFO points, humans, missions, tie
breaks.

Positions and conventions (state-vector offsets, city / class / kind indices):
tests/ovni_rules_helpers.py.
"""

from __future__ import annotations

import pytest

from simkit.games.ovni import Rules
from simkit.games.ovni import engine as E

from .ovni_rules_helpers import (
    CITY,
    COLOUR,
    NAMES,
    end_position,
    final_scoring,
    get,
    give,
    human_points,
    mapped,
    put,
    score_seat,
    set_aliens,
    ufos,
)


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

