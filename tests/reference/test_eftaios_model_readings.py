"""The independent EFTAIOS model: each reading with a setting on its own (A1-A28)."""

from __future__ import annotations

import pytest

from tests.reference.eftaios_model import (
    P_DISCARD, P_MOVE, P_POST, P_PRE, WAITING, Model, RandomChance, sector_id as S,
    sector_name as N,
)
from tests.reference.eftaios_model_helpers import (
    NOISE_HERE_ITEM, NOISE_ANY, SILENCE, ATTACK, TELEPORT, ADRENALINE, SEDATIVES, SPOTLIGHT,
    DEFENCE, CAPTAIN, PILOT, PSYCHOLOGIST, SOLDIER, ALIEN1, PAOLO, new, place, give, refresh, kinds,
    moves, NONE, _julia_at_t13,
)


# ------------------------------------------------------------------ one reading at a time (A1-A28)

def _reach_at(m: Model, seat: int, cell: int) -> set[int]:
    m.seats[seat].position = cell
    m.turn.start_sector = cell
    return m.reach(seat)


@pytest.mark.parametrize("mp", ["galilei", "fermi", "galvani"])
def test_a1_alien_hatch_transit(mp):
    plain = new(players=2, map=mp)
    transit = new(players=2, map=mp, alien_hatch_transit=True)
    hatches = set(plain.hatch_cell.values())
    differ = 0
    for c in plain.map.sectors():
        if plain.kind[c] in (3, 4):
            continue
        for fed in (False, True):
            plain.seats[1].fed = transit.seats[1].fed = fed
            a, b = _reach_at(plain, 1, c), _reach_at(transit, 1, c)
            assert a <= b and not (b & hatches)
            differ += a != b
    assert differ > 0


def test_a2_human_hatch_transit():
    m = _julia_at_t13(human_hatch_transit=True)
    m.apply(("use_adrenaline",), NONE)
    m2 = _julia_at_t13()
    m2.apply(("use_adrenaline",), NONE)
    assert moves(m2) < moves(m) or moves(m2) == moves(m)
    assert "V13" in moves(m)
    # With transit, V13's far side is reachable through the hatch: W13 / W14 from T13 need 3.
    m3 = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1], human_hatch_transit=True)
    place(m3, s0="U13")
    give(m3, 0, ADRENALINE)
    m3.apply(("use_adrenaline",), NONE)
    m4 = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1])
    place(m4, s0="U13")
    give(m4, 0, ADRENALINE)
    m4.apply(("use_adrenaline",), NONE)
    through = {N(x) for x in m3.reach(0)} - {N(x) for x in m4.reach(0)}
    assert through and all(S(x) in m3._neighbours(S("V13")) for x in through)


@pytest.mark.parametrize("flag", [False, True])
def test_a3_used_hatch(flag):
    m = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1], used_hatch_enterable=flag)
    m.hatch_state[3] = "used"
    place(m, s0="U13")
    assert ("V13" in moves(m)) is flag
    if flag:
        n = len(m.log)
        m.apply(("move", S("V13")), NONE)
        assert kinds(m, n)[0] == (0, "QUIET", None)
    assert not m._enterable(1, S("V13"))


def test_a6_overflow_use():
    for flag in (False, True):
        m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1], danger=[NOISE_HERE_ITEM],
                items=[DEFENCE], overflow_use=flag)
        place(m, s0="D09")
        give(m, 0, SPOTLIGHT, TELEPORT, ATTACK)
        if m.phase == P_PRE:
            m.apply(("pre_done",), NONE)
        m.apply(("move", S("D08")), NONE)
        m.apply(("resolve",), NONE)
        assert m.phase == P_DISCARD
        acts = {a[0] for a in m.legal()}
        assert ({"use_spotlight", "use_teleport"} <= acts) is flag
        if flag:
            m.apply(("use_teleport",), NONE)
            assert m.seats[0].position == m.human_start and m.phase != P_DISCARD


def test_a7_a8_adrenaline_range():
    def after(**over):
        m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1], **over)
        place(m, s0="D09")
        give(m, 0, ADRENALINE, ADRENALINE + 1)
        m.apply(("use_adrenaline",), NONE)
        return m
    up_to = after()
    assert up_to.phase == P_MOVE  # a second copy is not offered (A8 default)
    exact = after(adrenaline_exact=True)
    assert exact.reach(0) <= up_to.reach(0) and S("D09") not in exact.reach(0)
    assert S("D10") in up_to.reach(0)
    stack = after(adrenaline_stacks=True)
    assert stack.phase == P_PRE and ("use_adrenaline",) in stack.legal()
    stack.apply(("use_adrenaline",), NONE)
    assert stack._move_range(0) == (3, False) and up_to.reach(0) < stack.reach(0)


@pytest.mark.parametrize("mode", ["coordinates", "dangerous", "any"])
def test_a9_noise_targets(mode):
    m = new(players=2, deal=[CAPTAIN, PAOLO], danger=[NOISE_ANY], noise_targets=mode)
    place(m, s0="D09")
    m.apply(("move", S("D08")), NONE)
    if m.phase == P_POST:
        m.apply(("resolve",), NONE)
    kinds_named = {m.kind[a[1]] for a in m.legal()}
    want = {"coordinates": {1, 2}, "dangerous": {2}, "any": {1, 2, 3, 4, 5}}[mode]
    assert kinds_named == want


@pytest.mark.parametrize("mode", ["any", "coordinates"])
def test_a10_spotlight_targets(mode):
    m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1], spotlight_targets=mode)
    give(m, 0, SPOTLIGHT)
    named = {m.kind[a[1]] for a in m.legal() if a[0] == "use_spotlight"}
    assert named == ({1, 2, 3, 4, 5} if mode == "any" else {1, 2})


@pytest.mark.parametrize("flag", [True, False])
def test_a13_item_reshuffle(flag):
    m = new(players=2, deal=[CAPTAIN, PAOLO], first=1, danger=[NOISE_HERE_ITEM], item_reshuffle=flag)
    m.item_discard, m.item_deck = m.item_deck, []
    place(m, s1="D10")
    m.apply(("move", S("D08")), RandomChance(4))
    assert len(m.seats[1].items) == (1 if flag else 0)
    assert m.stats["item_reshuffles"] == (1 if flag else 0)


def test_a14_discard_revealed():
    m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1], danger=[NOISE_HERE_ITEM],
            items=[DEFENCE], discard_revealed=True)
    place(m, s0="D09")
    give(m, 0, SEDATIVES, SEDATIVES + 1, ATTACK)
    m.apply(("move", S("D08")), NONE)
    m.apply(("resolve",), NONE)
    m.apply(("discard", "attack"), NONE)
    assert (0, "ITEM_DISCARDED", "attack") in kinds(m)


@pytest.mark.parametrize("flag", [False, True])
def test_a15_escaped_items(flag):
    m = _julia_at_t13(escaped_items_discarded=flag)
    m.seats[0].items.append(SEDATIVES)
    m.apply(("use_adrenaline",), NONE)
    m.apply(("move", S("V13")), NONE)
    assert (SEDATIVES in m.item_discard) is flag


@pytest.mark.parametrize("flag", [True, False])
def test_a16_dead_aliens_win(flag):
    m = new(players=3, deal=[PAOLO, PSYCHOLOGIST, ALIEN1], dead_aliens_win=flag)
    place(m, s0="D10", s1="D08", s2="D08")
    m.apply(("move_attack", S("D08")), NONE)
    assert m.over() and m.won() == [True, False, flag]


@pytest.mark.parametrize("a20,a21", [(True, False), (False, True)])
def test_a20_a21_infected(a20, a21):
    m = new(players=4, deal=[PAOLO, PSYCHOLOGIST, CAPTAIN, ALIEN1], scenario="infection",
            infected_win_with_aliens=a20, infected_keep_items=a21)
    m.seats[1].items.append(SEDATIVES)
    m.seats[2].position = S("D08")
    place(m, s0="D10", s1="D08")
    m.apply(("move_attack", S("D08")), NONE)
    assert (m.seats[1].items == [SEDATIVES]) is a21
    assert m.over() and m.end_reason == 2
    assert m.won() == [True, a20, a20, True]


def test_a22_arena_safe_sectors_open():
    closed = new(players=2, scenario="arena", arena_start="random")
    opened = new(players=2, scenario="arena", arena_start="random", arena_safe_sectors="open")
    c, o = _reach_at(closed, 0, S("D09")), _reach_at(opened, 0, S("D09"))
    assert c < o and all(closed.kind[x] == 2 for x in c) and any(opened.kind[x] == 1 for x in o)


def test_a24_respawn_on_alien_sector():
    m = new(players=2, scenario="arena", arena_start="random", arena_respawn="alien_sector")
    m.seats[1].position = S("D08")
    place(m, s0="D09")
    m.apply(("move_attack", S("D08")), NONE)
    assert m.seats[1].position == m.alien_start


def test_a25_a26_arena_threshold_cap():
    m = new(players=2, scenario="arena", arena_start="random", arena_kills=1, max_rounds=1)
    m.seats[1].position = S("D08")
    place(m, s0="D09")
    m.apply(("move_attack", S("D08")), NONE)
    assert not m.over()  # cap: play on
    while not m.over():
        m.apply(m.legal()[0], NONE)
    assert m.end_reason == 3 and m.won() == [True, False]
    r = m.results()["game"]
    assert r["draw"] == 0 and r["aliens_killed"] == 1


def test_a28_stay_quiet_and_stay_draw():
    for rule, quiet in (("stay_quiet", True), ("stay_draw", False)):
        m = new(players=2, scenario="arena", map="fermi", arena_start="random", stuck_rule=rule,
                danger=[SILENCE])
        dang = next(c for c in m.map.sectors() if m.kind[c] == 2 and not
                    any(m.kind[x] == 2 for x in m._neighbours(c)))
        m.seats[0].position = dang
        refresh(m)
        assert m.legal() == [("stay",), ("stay_attack",)]
        n = len(m.log)
        m.apply(("stay",), NONE)
        assert kinds(m, n)[0] == ((0, "QUIET", None) if quiet else (0, "SILENCE", None))


def test_stay_attack_hits_the_seats_on_the_same_sector():
    m = new(players=3, scenario="arena", map="fermi", arena_start="random")
    assert len({st.position for st in m.seats}) == 1  # everyone on hatch 1
    refresh(m)
    m.apply(("stay_attack",), NONE)
    assert m.seats[0].kills == 2 and m.seats[2].status == WAITING
    assert kinds(m)[-2:] == [(1, "RESPAWN", None), (1, "TURN", None)]
