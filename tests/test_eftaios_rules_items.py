"""Escape From the Aliens: the rules as positions the engine computes (docs/rules/eftaios.md):
the rules the issue lists as T1-T3: the spotlight (R8.11), feeding (R9) and each item
(R8.7-R8.12).

Position builders: tests/eftaios_helpers.py.
"""

from __future__ import annotations

import pytest

from simkit.games.eftaios import data_model as dm
from simkit.games.eftaios import engine as E

from .eftaios_helpers import (
    NOISE_HERE_ICON,
    S,
    alien_turn,
    begin,
    deck_left,
    events,
    get,
    give,
    human_turn,
    moves,
    nlog,
    place,
    step,
    top_danger,
)

# ------------------------------------------------------------------ T1 spotlight (R8.11)

def test_t1_spotlight_reveals_the_lit_sectors():
    r, st = human_turn({"players": 6}, at="D09", items=("spotlight",))
    place(st, 1, "D08")
    place(st, 2, "C08")
    place(st, 3, "D10")  # not adjacent to D08
    place(st, 4, "E09")
    n0 = nlog(st)
    assert st.s[E.PHASE] == E.P_PRE
    step(r, st, E.A_USE_SPOTLIGHT + S("D08"))
    ev = events(st, since=n0)
    assert ev[0] == ("ITEM_USED", 0, 4) and ev[1] == ("SPOTLIGHT", 0, S("D08"))
    seen = [(a, x) for k, a, x in ev if k == "SEEN"]
    assert seen == [(0, S("D09")), (1, S("D08")), (2, S("C08")), (4, S("E09"))]
    for seat in range(6):  # public
        assert events(st, seat)[-len(ev):] == ev



# ------------------------------------------------------------------ T2 feeding (R9)

def test_t2_killing_only_an_alien_does_not_feed():
    r, st = alien_turn({"players": 4}, at="C07")
    aliens = [q for q in range(1, 4) if get(st, q, E.P_SIDE) == 1]
    place(st, aliens[0], "D08")
    step(r, st, E.A_MOVE_ATTACK + S("D08"))
    assert get(st, aliens[0], E.P_STATUS) == E.ST_DEAD and get(st, 0, E.P_FED) == 0
    assert get(st, 0, E.P_KILLS) == 1 and get(st, 0, E.P_HUMAN_KILLS) == 0


def test_t2_no_feeding_in_the_basic_game_unless_a29():
    for setting, fed in ((False, 0), (True, 1)):
        r, st = alien_turn({"mode": "basic", "players": 4, "feeding_in_basic": setting}, at="C07")
        humans = [q for q in range(1, 4) if get(st, q, E.P_SIDE) == 0]
        place(st, humans[0], "D08")
        step(r, st, E.A_MOVE_ATTACK + S("D08"))
        assert get(st, 0, E.P_FED) == fed



# ------------------------------------------------------------------ T3 each item (R8.7-R8.12)

def test_t3_attack_item_replaces_the_draw_and_kills_everyone_there():
    r, st = human_turn({"players": 4}, at="D09", items=("attack",))
    place(st, 1, "D08")
    place(st, 2, "D08")
    before = deck_left(st)
    step(r, st, E.A_MOVE + S("D08"))
    assert st.s[E.PHASE] == E.P_POST
    n0 = nlog(st)
    step(r, st, E.A_USE_ATTACK)
    ev = events(st, since=n0)
    assert ev[0] == ("ITEM_USED", 0, 0) and ev[1] == ("ATTACK", 0, S("D08"))
    assert [k for k, a, x in ev].count("KILLED") == 2
    assert deck_left(st) == before and get(st, 0, E.P_FED) == 0  # a human is never fed


def test_t3_teleport_before_and_after_the_move():
    r, st = human_turn({}, at="D09", items=("teleport",))
    step(r, st, E.A_USE_TELEPORT)
    assert get(st, 0, E.P_POS) == S("L08")
    assert moves(r, st) == {dm.sector_name(x) for x in dm.load_map("galilei").neighbours(S("L08"))}
    # the move can never end on the turn-start sector: from L08 that is out of reach anyway;
    # at the end of the turn Teleport takes the human to the Human sector
    r, st = human_turn({}, at="D09", items=("teleport",))
    step(r, st, E.A_PRE_DONE)
    step(r, st, E.A_MOVE + S("D10"))
    assert st.s[E.PHASE] == E.P_END
    step(r, st, E.A_USE_TELEPORT)
    assert get(st, 0, E.P_POS) == S("L08")
    # a turn that began on the Human sector cannot end there (R4.3)
    r, st = human_turn({}, at="L08", items=("teleport",))
    assert st.s[E.PHASE] == E.P_MOVE  # no Teleport from the Human sector
    step(r, st, E.A_MOVE + S("L09"))
    assert E.A_USE_TELEPORT not in set(int(a) for a in r.legal(st))


def test_t3_teleport_before_the_move_never_ends_on_the_turn_start():
    r, st = human_turn({}, at="L09", items=("teleport",))
    step(r, st, E.A_USE_TELEPORT)
    assert "L09" not in moves(r, st) and "K09" in moves(r, st)


def test_t3_sedatives_skip_the_draw():
    r, st = human_turn({}, at="D09", items=("sedatives",))
    step(r, st, E.A_MOVE + S("D08"))
    assert st.s[E.PHASE] == E.P_POST
    before = deck_left(st)
    n0 = nlog(st)
    step(r, st, E.A_USE_SEDATIVES)
    assert deck_left(st) == before
    assert events(st, since=n0)[:2] == [("ITEM_USED", 0, 3), ("QUIET", 0, -1)]


@pytest.mark.parametrize("scope, survivors", [("self", 1), ("attack", 2)])
def test_t3_defence_saves_its_holder_or_the_whole_sector(scope, survivors):
    r, st = alien_turn({"players": 4, "defence_scope": scope}, at="C07")
    humans = [q for q in range(1, 4) if get(st, q, E.P_SIDE) == 0]
    for q in humans:
        place(st, q, "D08")
    give(st, humans[0], "defence")
    step(r, st, E.A_MOVE_ATTACK + S("D08"))
    assert st.s[E.PHASE] == E.P_DEFEND and r.to_move(st) == humans[0]
    step(r, st, E.A_DEFEND)
    alive = [q for q in humans if get(st, q, E.P_STATUS) == E.ST_ABOARD]
    assert len(alive) == survivors and humans[0] in alive
    assert ("DEFENDED", humans[0], -1) in events(st)


def test_t3_defence_may_be_declined():
    r, st = alien_turn({"players": 4}, at="C07")
    h = next(q for q in range(1, 4) if get(st, q, E.P_SIDE) == 0)
    place(st, h, "D08")
    give(st, h, "defence")
    step(r, st, E.A_MOVE_ATTACK + S("D08"))
    step(r, st, E.A_NO_DEFEND)
    assert get(st, h, E.P_STATUS) == E.ST_DEAD


def test_t3_fourth_item_must_be_discarded_face_down():
    r, st = human_turn({}, at="D09", items=("attack", "sedatives", "spotlight"))
    step(r, st, E.A_PRE_DONE)
    top_danger(st, NOISE_HERE_ICON)
    step(r, st, E.A_MOVE + S("D10"))  # safe: nothing
    r, st = human_turn({}, at="D09", items=("attack", "attack", "spotlight"))
    step(r, st, E.A_PRE_DONE)
    top_danger(st, NOISE_HERE_ICON)
    step(r, st, E.A_MOVE + S("D08"))
    step(r, st, E.A_RESOLVE)
    assert st.s[E.PHASE] == E.P_DISCARD and get(st, 0, E.P_NHAND) == 4
    kinds = {int(a) - E.A_DISCARD for a in r.legal(st)}
    assert 0 in kinds and 4 in kinds
    n0 = nlog(st)
    step(r, st, E.A_DISCARD + 0)
    assert get(st, 0, E.P_NHAND) == 3 and events(st, since=n0)[0] == ("ITEM_DISCARDED", 0, -1)


def test_r8_item_icon_draws_an_item_after_the_announcement():
    for first, order in ((False, ["NOISE", "ITEM_DRAWN"]), (True, ["ITEM_DRAWN", "NOISE"])):
        r, st = human_turn({"item_before_noise": first}, at="D09")
        top_danger(st, NOISE_HERE_ICON)
        n0 = nlog(st)
        step(r, st, E.A_MOVE + S("D08"))
        assert [k for k, a, x in events(st, since=n0)][:2] == order
        assert get(st, 0, E.P_NHAND) == 1


def test_r8_aliens_collect_items_but_never_use_them():
    r, st = alien_turn({}, at="C07")
    give(st, 0, "spotlight", "teleport")
    begin(st, 0)
    assert st.s[E.PHASE] == E.P_MOVE
    legal = set(int(a) for a in r.legal(st))
    assert not legal & {E.A_USE_TELEPORT, E.A_USE_ADRENALINE, E.A_PRE_DONE}

