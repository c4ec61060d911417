"""Escape From the Aliens: the rules as positions the engine computes (docs/rules/eftaios.md):
each scenario rule: Old Guard, Infection, Arena (R12; the issue's T5).

Position builders: tests/eftaios_helpers.py.
"""

from __future__ import annotations

import pytest

from simkit.games.eftaios import Rules
from simkit.games.eftaios import board as B
from simkit.games.eftaios import data_model as dm
from simkit.games.eftaios import engine as E

from .eftaios_helpers import (
    NOISE_HERE_ICON,
    SILENCE,
    S,
    alien_turn,
    begin,
    deal,
    deck_left,
    events,
    fresh,
    get,
    human_turn,
    moves,
    nlog,
    park,
    place,
    step,
    top_danger,
)

# ------------------------------------------------------------------ T5 scenarios (R12)

def test_t5_old_guard_psychologist_starts_on_the_alien_sector():
    r = Rules(scenario="old_guard", players=8)
    st = r.new(0)
    p = next(q for q in range(8) if get(st, q, E.P_CHAR) == 2)
    assert dm.sector_name(get(st, p, E.P_POS)) == "L06"


@pytest.mark.parametrize("reading", ["first_stop", "first_draw"])
def test_t5_old_guard_captain_first_dangerous_sector_is_quiet(reading):
    r, st = human_turn({"scenario": "old_guard", "captain_exemption": reading}, role="captain")
    before = deck_left(st)
    n0 = nlog(st)
    step(r, st, E.A_MOVE + S("D08"))
    assert deck_left(st) == before and ("QUIET", 0, -1) in events(st, since=n0)
    assert get(st, 0, E.P_CAP_PASS) == 1
    place(st, 0, "D09")
    begin(st, 0)
    step(r, st, E.A_MOVE + S("D08"))
    assert deck_left(st) == before - 1


def test_t5_old_guard_captain_pass_spent_by_sedatives_under_first_stop_only():
    for reading, spent in (("first_stop", 1), ("first_draw", 0)):
        r, st = human_turn({"scenario": "old_guard", "captain_exemption": reading}, role="captain", items=("sedatives",))
        step(r, st, E.A_MOVE + S("D08"))
        step(r, st, E.A_USE_SEDATIVES)
        assert get(st, 0, E.P_CAP_PASS) == spent


def test_t5_old_guard_pilot_teleports_three_times():
    r, st = fresh(0, scenario="old_guard")
    deal(st, 0, "pilot")
    park(st, range(1, 6), "A10")
    from .eftaios_helpers import empty_hands
    empty_hands(st)
    # draw the Teleport the way the rules do (J.4: with a silence; H.3 gives it 3 uses)
    top_danger(st, SILENCE)
    ik = [int(x) for x in st.s[E.IK:E.IK + int(st.s[E.IK_LEN])]]
    pos = int(st.s[E.IK_POS])
    i = next(j for j in range(pos, len(ik)) if int(st.b[B.B_ITEM_KIND + ik[j]]) == 1)
    st.s[E.IK + i], st.s[E.IK + pos] = st.s[E.IK + pos], st.s[E.IK + i]
    place(st, 0, "D09")
    begin(st, 0)
    step(r, st, E.A_MOVE + S("D08"))
    assert get(st, 0, E.P_HUSES) == 3
    for k in range(3):
        place(st, 0, "D09")
        begin(st, 0)
        step(r, st, E.A_USE_TELEPORT)
        assert ("ITEM_USED", 0, 1) in events(st, since=nlog(st) - 3)
    assert get(st, 0, E.P_NHAND) == 0


def test_t5_old_guard_soldier_holds_four_items_and_g4_hides_uses():
    r, st = human_turn({"scenario": "old_guard"}, role="soldier", items=("attack", "sedatives", "spotlight"))
    step(r, st, E.A_PRE_DONE)
    top_danger(st, NOISE_HERE_ICON)
    step(r, st, E.A_MOVE + S("D08"))
    step(r, st, E.A_RESOLVE)  # J.4: the icon is ignored
    assert get(st, 0, E.P_NHAND) == 3
    place(st, 0, "D09")
    begin(st, 0)
    step(r, st, E.A_PRE_DONE)
    top_danger(st, SILENCE)
    step(r, st, E.A_MOVE + S("D08"))
    n0 = nlog(st)
    step(r, st, E.A_USE_SEDATIVES)
    step(r, st, E.A_RESOLVE)
    assert events(st, since=n0)[:2] == [("ITEM_DISCARDED", 0, -1), ("QUIET", 0, -1)]  # G.4
    assert get(st, 0, E.P_NHAND) == 2
    place(st, 0, "D09")
    begin(st, 0)
    step(r, st, E.A_PRE_DONE)
    top_danger(st, SILENCE + 1)
    step(r, st, E.A_MOVE + S("D08"))
    step(r, st, E.A_RESOLVE)
    assert get(st, 0, E.P_NHAND) == 3  # J.4: an item with each silence
    place(st, 0, "D09")
    begin(st, 0)
    step(r, st, E.A_PRE_DONE)
    top_danger(st, SILENCE + 2)
    step(r, st, E.A_MOVE + S("D08"))
    step(r, st, E.A_RESOLVE)
    assert get(st, 0, E.P_NHAND) == 4 and st.s[E.PHASE] != E.P_DISCARD  # H.4


def test_t5_infection_converts_the_victim_and_opens_hatches_without_cards():
    r, st = alien_turn({"scenario": "infection", "players": 4}, at="C07")
    h = next(q for q in range(1, 4) if get(st, q, E.P_SIDE) == 0)
    place(st, h, "D08")
    n0 = nlog(st)
    step(r, st, E.A_MOVE_ATTACK + S("D08"))
    ev = events(st, since=n0)
    assert ("INFECTED", h, S("D08")) in ev and get(st, h, E.P_SIDE) == 1
    assert get(st, h, E.P_STATUS) == E.ST_ABOARD and get(st, h, E.P_POS) == S("D08")
    assert get(st, 0, E.P_FED) == 0  # C.3
    other = next(q for q in range(1, 4) if get(st, q, E.P_SIDE) == 0)
    place(st, other, "U13")
    begin(st, other)
    if st.s[E.PHASE] == E.P_PRE:
        step(r, st, E.A_PRE_DONE)
    n0 = nlog(st)
    step(r, st, E.A_MOVE + S("V13"))
    ev = events(st, since=n0)
    assert ("ESCAPED", other, 3) in ev and not any(k == "HATCH" for k, a, x in ev)
    assert st.s[E.HATCH_STATE + 2] == E.HATCH_USED
    res = r.results(st)
    assert r.over(st) and res["won"][other] and not res["alien_win"]  # the last human escaped


def test_t5_arena_start_hatches_closed_safe_sectors_respawn_threshold():
    r = Rules(scenario="arena", players=4, arena_kills=1, arena_end="first")
    st = r.new(0)
    assert st.s[E.PHASE] == E.P_START
    hatches = [int(st.b[B.B_HATCH_CELL + k]) for k in range(4)]
    for _ in range(4):
        step(r, st, E.A_START_HATCH + 2)  # everyone on hatch 3 (V13)
    assert all(get(st, q, E.P_POS) == hatches[2] for q in range(4))
    p = int(st.s[E.ACTIVE])
    m = dm.load_map("galilei")
    assert all(m.kind[S(x)] == dm.DANGER for x in moves(r, st))  # A22 closed safe sectors
    assert E.A_STAY_ATTACK not in set(int(a) for a in r.legal(st))
    # an attack on the hatch's neighbour with another seat there
    q = (p + 1) % 4
    place(st, q, "U13")
    step(r, st, E.A_MOVE_ATTACK + S("U13"))
    assert r.over(st) and r.results(st)["won"][p] and sum(r.results(st)["won"]) == 1


def test_t5_arena_killed_seat_comes_back_on_its_start_hatch():
    r = Rules(scenario="arena", players=4, arena_start="random")
    st = r.new(5)
    p = int(st.s[E.ACTIVE])
    q = (p + 1) % 4
    start_q = get(st, q, E.P_START_HATCH)
    place(st, q, "U13")
    place(st, p, "T13")
    begin(st, p)
    n0 = nlog(st)
    step(r, st, E.A_MOVE_ATTACK + S("U13"))
    # q was off the board until its turn, which comes next: it is back on its start hatch
    assert events(st, since=n0)[2:5] == [("KILLED", q, -1), ("RESPAWN", q, -1), ("TURN", q, -1)]
    assert int(st.s[E.ACTIVE]) == q and get(st, q, E.P_STATUS) == E.ST_ABOARD
    assert get(st, q, E.P_POS) == int(st.b[B.B_HATCH_CELL + start_q - 1]) == int(st.s[E.S0])
    assert get(st, p, E.P_KILLS) == 1 and get(st, q, E.P_FATE) == E.FATE_KILLED

