"""Escape From the Aliens: the rules as positions the engine computes (docs/rules/eftaios.md):
movement (R4), the time limit (R3) and the end of the basic game (R7).

Position builders: tests/eftaios_helpers.py.
"""

from __future__ import annotations

from simkit.games.eftaios import Rules
from simkit.games.eftaios import data_model as dm
from simkit.games.eftaios import engine as E

from .eftaios_helpers import BASIC, S, alien_turn, human_turn, moves, step

# ------------------------------------------------------------------ movement rules (R4)

def test_r4_start_sectors_are_closed_and_the_turn_start_is_never_a_destination():
    r, st = alien_turn(BASIC, at="L07")  # next to both start sectors (L06 A, L08 H)
    m = moves(r, st)
    assert "L06" not in m and "L08" not in m and "L07" not in m
    # an alien two steps away never passes through the Human sector
    r, st = alien_turn(BASIC, at="L09")
    assert "L07" not in moves(r, st) or dm.load_map("galilei").distances(S("L09"), lambda x: x not in (S("L08"), S("L06")))[S("L07")] <= 2


def test_r4_aliens_never_enter_hatches_humans_do():
    r, st = alien_turn(BASIC, at="T13")
    assert "V13" not in moves(r, st) and "U13" in moves(r, st)
    r, st = human_turn(BASIC, at="U13")
    assert "V13" in moves(r, st)


def test_r7_basic_first_escape_wins_alone():
    r, st = human_turn({"mode": "basic"}, at="U13")
    step(r, st, E.A_MOVE + S("V13"))
    assert r.over(st)
    won = r.results(st)["won"]
    assert won[0] and sum(won) == 1 and r.results(st)["end_reason"] == E.END_ESCAPED


def test_r3_time_limit_aliens_win():
    for mode in ("basic", "advanced"):
        r = Rules(mode=mode, max_rounds=2, players=4)
        st = r.new(1)
        while not r.over(st):
            legal = r.legal(st)
            # humans never reach a hatch in 2 rounds; nobody attacks
            step(r, st, next((a for a in legal if a in (E.A_PRE_DONE, E.A_RESOLVE, E.A_END_TURN)), legal[0]))
        res = r.results(st)
        assert res["end_reason"] == E.END_TIME and res["rounds"] == 2 and res["alien_win"]
        sides = res["side"]
        assert all(res["won"][p] == (sides[p] == 1) for p in range(4))
        if mode == "advanced":
            assert res["time_eliminated"] == sides.count(0)

