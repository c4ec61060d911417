"""The independent EFTAIOS model: the scenarios Old Guard, Infection, Arena (R12; T5)."""

from __future__ import annotations

import pytest

from tests.reference.eftaios_model import (
    ABOARD, P_DISCARD, P_END, P_MOVE, P_PRE, P_START, WAITING, sector_id as S,
)
from tests.reference.eftaios_model_helpers import (
    NOISE_HERE_ITEM, SILENCE, ATTACK, TELEPORT, SEDATIVES, SPOTLIGHT, DEFENCE, CAPTAIN, PILOT,
    PSYCHOLOGIST, SOLDIER, ALIEN1, PAOLO, new, place, give, refresh, kinds, NONE,
)


# ------------------------------------------------------------------ scenarios (T5)

def test_old_guard_captain_pass_first_stop():
    m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1], scenario="old_guard", danger=[SILENCE])
    assert m.seats[0].captain_pass == "unspent"
    place(m, s0="D09")
    m.apply(("move", S("D08")), NONE)
    assert kinds(m)[-2] == (0, "QUIET", None) and len(m.danger_deck) == 25
    assert m.seats[0].captain_pass == "spent"


def test_old_guard_captain_pass_first_draw_kept_by_attack():
    m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1], scenario="old_guard",
            captain_exemption="first_draw")
    place(m, s0="D09")
    give(m, 0, ATTACK)
    m.apply(("move", S("D08")), NONE)
    m.apply(("use_attack",), NONE)
    assert m.seats[0].captain_pass == "unspent"
    assert (0, "ITEM_DISCARDED", -1) in kinds(m)  # G.4: not declared


def test_old_guard_psychologist_starts_on_alien_sector():
    m = new(players=4, deal=[PSYCHOLOGIST, PAOLO, SOLDIER, ALIEN1], scenario="old_guard")
    assert m.seats[0].position == m.alien_start and m.seats[2].position == m.human_start


def test_old_guard_pilot_teleport_three_uses():
    """H.3: "Se o Piloto bisca uma carta Teletransporte, pode usá-la até 3 vezes antes de a
    descartar"."""
    m = new(players=4, deal=[PILOT, PAOLO, SOLDIER, ALIEN1], scenario="old_guard",
            danger=[SILENCE], items=[TELEPORT])
    place(m, s0="D09")
    m.apply(("move", S("D08")), NONE)
    assert m.seats[0].pilot_uses == {TELEPORT: 3}
    for k in range(3):
        assert m.phase == P_END and ("use_teleport",) in m.legal()
        m.apply(("use_teleport",), NONE)
        assert (0, "ITEM_USED", "teleport") in kinds(m)[-2:]
        assert m.seats[0].items == ([TELEPORT] if k < 2 else [])
        m.active = 0
        place(m, s0="D09")
        if m.phase == P_PRE:
            m.apply(("pre_done",), NONE)
        m.apply(("move", S("D10")), NONE)
    assert m.seats[0].used["teleport"] == 3 and m.item_discard == [TELEPORT]
    assert m.to_move() == 1  # nothing left to use: the turn passed


def test_old_guard_soldier_holds_four():
    m = new(players=4, deal=[SOLDIER, PAOLO, CAPTAIN, ALIEN1], scenario="old_guard",
            danger=[SILENCE], items=[SEDATIVES])
    place(m, s0="D09")
    give(m, 0, ATTACK, ATTACK + 1, DEFENCE)
    m.apply(("move", S("D08")), NONE)
    m.apply(("resolve",), NONE)
    assert len(m.seats[0].items) == 4 and m.phase != P_DISCARD
    assert kinds(m)[-3:-1] == [(0, "SILENCE", None), (0, "ITEM_DRAWN", 4)]


def test_old_guard_j4_icons_ignored():
    m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1], scenario="old_guard",
            danger=[NOISE_HERE_ITEM])
    m.seats[0].captain_pass = "spent"
    place(m, s0="D09")
    m.apply(("move", S("D08")), NONE)
    assert m.seats[0].items == []


@pytest.mark.parametrize("mode", ["public", "private"])
def test_a19_old_guard_spotlight(mode):
    m = new(players=4, deal=[SOLDIER, PAOLO, CAPTAIN, ALIEN1], scenario="old_guard", old_guard_spotlight=mode)
    place(m, s0="D09", s1="C08")
    give(m, 0, SPOTLIGHT)
    n = len(m.log)
    m.apply(("use_spotlight", S("D08")), NONE)
    ev = m.log[n:n + 4]
    assert [e[2] for e in ev] == ["ITEM_DISCARDED", "SPOTLIGHT", "SEEN", "SEEN"]
    if mode == "private":
        assert [e[4] for e in ev] == [0b1111, 0b0001, 0b0001, 0b0011]
        assert not any(e[2] == "SEEN" for e in m.observation(2)["log"])
    else:
        assert all(e[4] == 0b1111 for e in ev)


def test_infection():
    m = new(players=4, deal=[PAOLO, PSYCHOLOGIST, CAPTAIN, ALIEN1], scenario="infection")
    assert m.hatch_deck == []
    place(m, s0="D10", s1="D08")
    m.apply(("move_attack", S("D08")), NONE)
    assert kinds(m)[-3:] == [(1, "KILLED", PSYCHOLOGIST), (1, "INFECTED", S("D08")), (1, "TURN", None)]
    assert m.seats[1].side == "alien" and m.seats[1].status == ABOARD and m.seats[1].position == S("D08")
    assert not m.seats[0].fed  # C.3
    # The infected seat now moves as an alien.
    assert m.to_move() == 1 and ("move_attack", S("D10")) in m.legal()
    # D.2: a hatch opens without a card.
    m.active = 2
    place(m, s2="U13")
    n = len(m.log)
    m.apply(("move", S("V13")), NONE)
    assert kinds(m, n) == [(2, "ESCAPED", 3), (-1, "GAME_OVER", 2)]
    assert m.hatch_state[3] == "used"
    # The last human escaped: the aliens did not eliminate the last human.
    assert m.won() == [False, False, True, False]


def test_arena_choose_start_and_respawn():
    m = new(players=3, scenario="arena", first=1)
    assert m.phase == P_START and m.to_move() == 1
    assert m.legal() == [("start_hatch", k) for k in (1, 2, 3, 4)]
    for seat, k in ((1, 1), (2, 1), (0, 3)):
        assert m.to_move() == seat
        m.apply(("start_hatch", k), NONE)
    assert m.round == 1 and m.active == 1 and m.seats[1].position == S("B02")
    assert all(m.seats[i].character == -1 for i in range(3))
    # Closed safe sectors: B02's reach holds dangerous sectors only.
    assert all(m.kind[x] == 2 for x in m.reach(1))
    # Seat 1 attacks seat 2 on the hatch it stands on.
    m.apply(("stay_attack",) if not m.reach(1) else ("move_attack", sorted(m.reach(1))[0]), NONE)
    m2 = new(players=3, scenario="arena", arena_start="random", arena_end="first", arena_kills=1)
    m2.seats[1].position = m2.seats[0].position = S("D08")
    m2.seats[m2.active].position = S("D09")
    refresh(m2)
    seat = m2.active
    victims = [i for i in range(3) if i != seat]
    for v in victims:
        m2.seats[v].position = S("D08")
    m2.apply(("move_attack", S("D08")), NONE)
    assert m2.over() and m2.end_reason == 4 and m2.won()[seat]
    assert all(m2.seats[v].status == WAITING for v in victims)


def test_arena_respawn_at_start_hatch():
    m = new(players=2, scenario="arena", arena_start="random", first=0)
    assert m.phase == P_MOVE
    m.seats[1].position = S("D08")
    place(m, s0="D09")
    m.apply(("move_attack", S("D08")), NONE)
    assert kinds(m)[-4:-2] == [(1, "PRESENT", S("D08")), (1, "KILLED", -1)]
    assert m.seats[0].kills == 1
    assert m.active == 1 and m.seats[1].status == ABOARD
    assert m.seats[1].position == m.hatch_cell[m.seats[1].start_hatch]
    assert kinds(m)[-2:] == [(1, "RESPAWN", None), (1, "TURN", None)]


def test_a28_stuck_seat_stays():
    """Arena on Fermi with closed safe sectors: most seats cannot move (A28)."""
    m = new(players=2, scenario="arena", map="fermi", arena_start="random")
    m.seats[0].position = m.hatch_cell[1]
    refresh(m)
    assert m.legal() == [("stay",), ("stay_attack",)]
