"""Escape From the Aliens: the rules as positions the engine computes (docs/rules/eftaios.md):
the hatch cards, escaping and stranding (R10, R11; the issue's T4).

Position builders: tests/eftaios_helpers.py.
"""

from __future__ import annotations

from simkit.games.eftaios import board as B
from simkit.games.eftaios import engine as E

from .eftaios_helpers import (
    S,
    begin,
    events,
    fresh,
    get,
    nlog,
    park,
    place,
    put,
    step,
    top_hatch,
)

# ------------------------------------------------------------------ T4 hatches (R10, R11)

def test_t4_three_reds_then_green_strands_the_rest():
    r, st = fresh(0, players=6)
    humans = [q for q in range(6) if get(st, q, E.P_SIDE) == 0]
    aliens = [q for q in range(6) if get(st, q, E.P_SIDE) == 1]
    park(st, aliens, "A10")
    near = {1: "B03", 2: "V03", 3: "U13", 4: "C13"}
    top_hatch(st, "red", "red", "red", "green")
    h0 = humans[0]
    for k in (1, 2, 3):
        place(st, h0, near[k])
        begin(st, h0)
        step(r, st, E.A_MOVE + int(st.b[B.B_HATCH_CELL + k - 1]))
        assert st.s[E.HATCH_STATE + k - 1] == E.HATCH_DAMAGED
        if not r.over(st) and st.s[E.PHASE] == E.P_END:
            step(r, st, E.A_END_TURN)
    h1 = humans[1]
    place(st, h0, "A10")
    place(st, h1, near[4])
    begin(st, h1)
    n0 = nlog(st)
    step(r, st, E.A_MOVE + S("B13"))
    ev = events(st, since=n0)
    assert ("ESCAPED", h1, 4) in ev
    stranded = [a for k, a, x in ev if k == "STRANDED"]
    assert sorted(stranded) == sorted(q for q in humans if q != h1)
    res = r.results(st)
    assert r.over(st) and res["end_reason"] == E.END_NO_HUMAN
    assert res["won"][h1] and all(res["won"][a] for a in aliens)  # A17 (a): both sides win
    assert res["stranded"] == 2 and res["hatches_red"] == 3 and res["hatches_used"] == 1


def test_t4_stranded_humans_do_not_give_the_aliens_the_win_under_a17b():
    r, st = fresh(0, players=6, stranded_alien_win=False)
    humans = [q for q in range(6) if get(st, q, E.P_SIDE) == 0]
    park(st, [q for q in range(6) if q not in humans], "A10")
    for k in (1, 2, 3):
        st.s[E.HATCH_STATE + k - 1] = E.HATCH_DAMAGED
    top_hatch(st, "green")
    place(st, humans[0], "C13")
    begin(st, humans[0])
    step(r, st, E.A_MOVE + S("B13"))
    res = r.results(st)
    assert r.over(st) and not res["alien_win"] and res["won"][humans[0]] and sum(res["won"]) == 1


def test_r11_last_human_escaping_means_the_aliens_lose():
    r, st = fresh(0, players=4)
    humans = [q for q in range(4) if get(st, q, E.P_SIDE) == 0]
    put(st, humans[1], E.P_STATUS, E.ST_DEAD)
    place(st, humans[1], -1)
    top_hatch(st, "green")
    place(st, humans[0], "U13")
    begin(st, humans[0])
    step(r, st, E.A_MOVE + S("V13"))
    res = r.results(st)
    assert r.over(st) and res["won"][humans[0]] and not res["alien_win"]

