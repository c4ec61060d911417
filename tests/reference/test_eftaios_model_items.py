"""The independent EFTAIOS model: the items of the advanced game (R8; the interface's T1, T3)."""

from __future__ import annotations

import pytest

from tests.reference.eftaios_model import (
    ABOARD, ELIMINATED, P_DEFEND, P_DISCARD, P_END, P_MOVE, P_NOISE, P_POST, P_PRE, RandomChance,
    sector_id as S, sector_name as N,
)
from tests.reference.eftaios_model_helpers import (
    NOISE_HERE_ITEM, NOISE_ANY_ITEM, SILENCE, ATTACK, TELEPORT, SEDATIVES, SPOTLIGHT, DEFENCE,
    CAPTAIN, PILOT, PSYCHOLOGIST, SOLDIER, ALIEN1, ALIEN2, PAOLO, new, place, give, kinds, moves,
    NONE,
)


# ------------------------------------------------------------------ items (T1, T3)

def test_t1_spotlight():
    """Spotlight: every player on the sector or its six neighbours, the user included,
    announces its sector."""
    m = new(players=4, deal=[PSYCHOLOGIST, PAOLO, CAPTAIN, ALIEN1])
    place(m, s0="D09", s1="C08", s2="D10", s3="E09")
    give(m, 0, SPOTLIGHT)
    assert m.phase == P_PRE
    n = len(m.log)
    m.apply(("use_spotlight", S("D08")), NONE)
    assert kinds(m, n) == [(0, "ITEM_USED", "spotlight"), (0, "SPOTLIGHT", S("D08")),
                           (0, "SEEN", S("D09")), (1, "SEEN", S("C08")), (3, "SEEN", S("E09"))]
    assert all(e[4] == 0b1111 for e in m.log[n:])
    assert m.phase == P_MOVE and m.item_discard == [SPOTLIGHT]


def test_t3_attack_item_replaces_the_draw():
    m = new(players=4, deal=[SOLDIER, PAOLO, CAPTAIN, ALIEN1], danger=[SILENCE])
    place(m, s0="D09", s1="D08")
    give(m, 0, ATTACK)
    m.apply(("move", S("D08")), NONE)
    assert m.phase == P_POST and ("use_attack",) in m.legal()
    n = len(m.log)
    m.apply(("use_attack",), NONE)
    assert kinds(m, n)[:4] == [(0, "ITEM_USED", "attack"), (0, "ATTACK", S("D08")),
                               (1, "PRESENT", S("D08")), (1, "KILLED", PAOLO)]
    assert len(m.danger_deck) == 25 and m.seats[1].status == ELIMINATED
    assert not m.seats[0].fed and m.seats[0].kills == 1


def test_t3_teleport_before_and_after():
    m = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1])
    place(m, s0="L09")  # next to the Human sector L08
    give(m, 0, TELEPORT, TELEPORT)
    assert ("use_teleport",) in m.legal()
    m.apply(("use_teleport",), NONE)
    assert m.seats[0].position == m.human_start and kinds(m)[-1] == (0, "ITEM_USED", "teleport")
    assert m.phase == P_MOVE  # no usable pre-move item left (Teleport needs position != H)
    assert "L09" not in moves(m)  # never end on the turn-start sector
    assert moves(m) == {N(x) for x in m._neighbours(m.human_start)} - {"L09", "L06"} - {
        N(x) for x in m._neighbours(m.human_start) if m.kind[x] not in (1, 2)}
    m.apply(("move", S("K08")), RandomChance(0))
    while m.phase in (P_NOISE, P_DISCARD):
        m.apply(m.legal()[0], NONE)
    # s0 (L09) is not the Human sector: a Teleport is offered at the end of the turn.
    assert m.phase == P_END and ("use_teleport",) in m.legal()
    m.apply(("use_teleport",), NONE)
    assert m.seats[0].position == m.human_start and m.to_move() == 1


def test_t3_teleport_never_ends_on_the_start_sector():
    m = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1])
    give(m, 0, TELEPORT, SPOTLIGHT)  # on the Human sector at the start
    assert m.phase == P_PRE and ("use_teleport",) not in m.legal()
    m.apply(("pre_done",), NONE)
    m.apply(("move", S("L09")), NONE)  # safe
    assert m.phase == P_POST
    m.apply(("resolve",), NONE)
    assert m.phase == P_END and ("use_teleport",) not in m.legal()  # s0 is H


def test_t3_sedatives_skip_the_draw():
    m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1])
    place(m, s0="D09")
    give(m, 0, SEDATIVES)
    m.apply(("move", S("D10")), NONE)  # safe: nothing to offer, resolves at once
    assert kinds(m)[-2][1] == "QUIET"
    m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1])
    place(m, s0="D09")
    give(m, 0, SEDATIVES)
    m.apply(("move", S("D08")), NONE)
    assert m.phase == P_POST and m.legal() == [("use_sedatives",), ("resolve",)]
    n = len(m.log)
    m.apply(("use_sedatives",), NONE)
    assert kinds(m, n)[:2] == [(0, "ITEM_USED", "sedatives"), (0, "QUIET", None)]
    assert len(m.danger_deck) == 25


@pytest.mark.parametrize("scope", ["self", "attack"])
def test_t3_defence(scope):
    m = new(players=6, deal=[PAOLO, PSYCHOLOGIST, CAPTAIN, ALIEN1, SOLDIER, ALIEN2], defence_scope=scope)
    place(m, s0="D10", s1="D08", s2="D08", s4="D08")
    m.seats[2].items.append(DEFENCE)
    m.item_deck.remove(DEFENCE)
    m.apply(("move_attack", S("D08")), NONE)
    assert m.phase == P_DEFEND and m.to_move() == 2
    assert m.legal() == [("defend",), ("no_defend",)]
    n = len(m.log)
    m.apply(("defend",), NONE)
    if scope == "self":
        assert kinds(m, n)[:4] == [(2, "ITEM_USED", "defence"), (2, "DEFENDED", None),
                                   (1, "KILLED", PSYCHOLOGIST), (4, "KILLED", SOLDIER)]
        assert [m.seats[i].status for i in (1, 2, 4)] == [ELIMINATED, ABOARD, ELIMINATED]
        assert m.seats[0].fed
    else:
        assert kinds(m, n)[:2] == [(2, "ITEM_USED", "defence"), (2, "DEFENDED", None)]
        assert all(m.seats[i].status == ABOARD for i in (1, 2, 4)) and not m.seats[0].fed


def test_a5_defence_against_a_human_attack():
    for flag in (True, False):
        m = new(players=4, deal=[SOLDIER, PAOLO, CAPTAIN, ALIEN1], defence_vs_human_attack=flag)
        place(m, s0="D09", s2="D08")
        give(m, 0, ATTACK)
        m.seats[2].items.append(DEFENCE)
        m.apply(("move", S("D08")), NONE)
        m.apply(("use_attack",), NONE)
        assert (m.phase == P_DEFEND) is flag
        if not flag:
            assert m.seats[2].status == ELIMINATED


def test_t3_fourth_item_is_discarded():
    m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1], danger=[NOISE_HERE_ITEM], items=[DEFENCE])
    place(m, s0="D09")
    give(m, 0, SEDATIVES, SEDATIVES + 1, ATTACK)
    m.apply(("move", S("D08")), NONE)
    m.apply(("resolve",), NONE)
    assert kinds(m)[-2:] == [(0, "NOISE", S("D08")), (0, "ITEM_DRAWN", 4)]
    assert m.phase == P_DISCARD
    assert m.legal() == [("discard", "attack"), ("discard", "sedatives"), ("discard", "defence")]
    m.apply(("discard", "sedatives"), NONE)
    assert kinds(m)[-2] == (0, "ITEM_DISCARDED", -1)
    assert m.item_discard == [SEDATIVES] and len(m.seats[0].items) == 3
    assert m.danger_discard == [NOISE_HERE_ITEM]


def test_aliens_draw_items_too():
    m = new(players=2, deal=[CAPTAIN, PAOLO], first=1, danger=[NOISE_ANY_ITEM], items=[SPOTLIGHT])
    place(m, s1="D10")
    m.apply(("move", S("D08")), NONE)
    m.apply(("noise_at", S("N10")), NONE)
    assert m.seats[1].items == [SPOTLIGHT] and m.log[-2][2] == "ITEM_DRAWN"
    assert not m._items_usable(1)


def test_a11_item_before_noise():
    m = new(players=2, deal=[CAPTAIN, PAOLO], danger=[NOISE_ANY_ITEM], item_before_noise=True)
    place(m, s0="D09")
    m.apply(("move", S("D08")), NONE)
    assert m.phase == P_POST or m.phase == P_NOISE
    if m.phase == P_POST:
        m.apply(("resolve",), NONE)
    assert m.phase == P_NOISE and kinds(m)[-1] == (0, "ITEM_DRAWN", 1)
