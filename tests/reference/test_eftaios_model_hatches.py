"""The independent EFTAIOS model: hatches, game end (R3, R7, R10, R11; T4), reshuffles (R5, A12)."""

from __future__ import annotations

import pytest

from tests.reference.eftaios_model import ELIMINATED, P_MOVE, P_NOISE, RandomChance, sector_id as S
from tests.reference.eftaios_model_helpers import (
    GREEN, RED, CAPTAIN, PILOT, ALIEN1, PAOLO, new, place, kinds, NONE,
)


# ------------------------------------------------------------------ hatches (T4)

@pytest.mark.parametrize("a17", [True, False])
def test_t4_last_hatch_strands_the_humans(a17):
    m = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1], hatch=[GREEN], stranded_alien_win=a17)
    for k in (1, 2, 4):
        m.hatch_state[k] = "damaged"
    place(m, s0="U13")
    n = len(m.log)
    m.apply(("move", S("V13")), NONE)
    assert kinds(m, n) == [(0, "HATCH", 3), (0, "ESCAPED", 3), (2, "STRANDED", None), (-1, "GAME_OVER", 2)]
    assert m.over() and m.won() == [True, a17, False, a17]


def test_t4_three_reds_then_green():
    m = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1], hatch=[RED, RED + 1, RED + 2, GREEN])
    for k, (before, cell) in zip((1, 2, 4), (("A02", "B02"), ("W02", "V02"), ("A13", "B13"))):
        m.active = 0
        place(m, s0=before)
        m.apply(("move", S(cell)), NONE)
        assert kinds(m)[-2:][0] == (0, "HATCH_RED", k) or (0, "HATCH_RED", k) in kinds(m)
    assert [m.hatch_state[k] for k in (1, 2, 3, 4)] == ["damaged", "damaged", "open", "damaged"]
    m.active = 0
    place(m, s0="U13")
    m.apply(("move", S("V13")), NONE)
    assert m.over() and m.won()[0] and m.end_reason == 2


def test_basic_escape_wins_at_once():
    m = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1], mode="basic")
    place(m, s0="U13")
    m.apply(("move", S("V13")), NONE)
    assert kinds(m)[-2:] == [(0, "ESCAPED", 3), (-1, "GAME_OVER", 0)]
    assert m.won() == [True, False, False, False]


def test_time_limit():
    m = new(players=2, deal=[CAPTAIN, PAOLO], max_rounds=2, mode="advanced")
    while not m.over():
        m.apply(m.legal()[-1] if m.phase != P_MOVE else m.legal()[0], RandomChance(1))
    assert m.end_reason == 3 and m.round == 2 and m.won() == [False, True]
    assert m.seats[0].fate == 4 and m.seats[0].status == ELIMINATED


# ------------------------------------------------------------------ deck reshuffles (A12, A13)

@pytest.mark.parametrize("rule,size", [("on_draw", 25), ("on_empty", 24)])
def test_a12_reshuffle(rule, size):
    m = new(players=2, deal=[CAPTAIN, PAOLO], mode="basic", reshuffle=rule)
    m.danger_discard = m.danger_deck[1:]
    m.danger_deck = m.danger_deck[:1]
    place(m, s0="D09")
    m.apply(("move", S("D08")), RandomChance(0))  # dangerous: the last card
    if m.phase == P_NOISE:
        m.apply(m.legal()[0], NONE)
    if rule == "on_draw":
        assert len(m.danger_deck) == 0 and len(m.danger_discard) == 25
        m.active = 0
        place(m, s0="D08")
        m.apply(("move", S("D09")), RandomChance(0))
        assert len(m.danger_deck) + len(m.danger_discard) + (m.card_in_play >= 0) == 25
        assert len(m.danger_deck) == 24 or m.phase == P_NOISE
    else:
        assert len(m.danger_deck) == size and m.danger_discard == [0]
    assert m.stats["danger_reshuffles"] == 1
