"""Escape From the Aliens: the rules as positions the engine computes (docs/rules/eftaios.md):
the rulebook's examples with its own sectors and characters (E1-E7), and the set-up (R1).

Position builders: tests/eftaios_helpers.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.eftaios import Rules
from simkit.games.eftaios import data_model as dm
from simkit.games.eftaios import engine as E

from .eftaios_helpers import (
    BASIC,
    NOISE_ANY,
    NOISE_HERE,
    S,
    alien_turn,
    begin,
    deal,
    deck_left,
    events,
    get,
    human_turn,
    moves,
    nlog,
    place,
    step,
    top_danger,
    top_hatch,
)

# ------------------------------------------------------------------ E1-E7: the rulebook's examples

@pytest.mark.parametrize("mode", ["basic", "advanced"])
def test_e1_d09_neighbours(mode):
    # "Silvano Porpora (um Humano) está ... no Sector D09 ... Pode mover-se para D08, D10, C09,
    # C10, E10 ou E09" (ES; PT omits D10, S7).
    r, st = human_turn({"mode": mode})
    assert get(st, 0, E.P_CHAR) == 2 and st.s[E.PHASE] == E.P_MOVE
    assert moves(r, st) == {"D08", "D10", "C09", "C10", "E09", "E10"}
    assert sorted(int(a) for a in r.legal(st)) == [36, 37, 49, 51, 64, 65]


def test_e2_dangerous_sector_draws_a_card_safe_does_not():
    r, st = human_turn(BASIC)
    before = deck_left(st)
    top_danger(st, NOISE_HERE)
    n0 = nlog(st)
    step(r, st, E.A_MOVE + S("D08"))
    assert deck_left(st) == before - 1
    assert events(st, since=n0)[0] == ("NOISE", 0, S("D08"))
    r, st = human_turn(BASIC)
    n0 = nlog(st)
    step(r, st, E.A_MOVE + S("D10"))
    assert deck_left(st) == before
    assert events(st, since=n0)[0] == ("QUIET", 0, -1)


def test_e3_noise_in_any_sector_is_a_bluff_nobody_can_tell():
    # "Silvano bisca uma carta Ruído em Qualquer Sector. Anuncia 'Ruído no Sector N10'".
    r, st = human_turn(BASIC, at="D09")
    top_danger(st, NOISE_ANY)
    step(r, st, E.A_MOVE + S("D08"))
    assert st.s[E.PHASE] == E.P_NOISE
    legal = set(int(a) for a in r.legal(st))
    assert E.A_NOISE_AT + S("N10") in legal and E.A_NOISE_AT + S("D08") in legal
    assert E.A_NOISE_AT + S("L08") not in legal  # the Human sector has no coordinates (A9)
    step(r, st, E.A_NOISE_AT + S("N10"))
    # the twin: a noise-here card, and Silvano really on N10 (from N09)
    r2, tw = human_turn(BASIC, at="N09")
    top_danger(tw, NOISE_HERE)
    step(r2, tw, E.A_MOVE + S("N10"))
    assert events(st, 1)[-2] == events(tw, 1)[-2] == ("NOISE", 0, S("N10"))
    for seat in range(1, r.seats):
        assert np.array_equal(r.observe(st, seat), r2.observe(tw, seat))
    assert get(st, 0, E.P_BLUFFS) == 1 and get(tw, 0, E.P_BLUFFS) == 0


@pytest.mark.parametrize("start", ["C07", "D10"])
def test_e4_attack_example(start):
    # "Paolo Landon, o Quarto Extraterrestre ... Move-se para o Sector D08 ... anuncia 'Ataco no
    # Sector D08'. Pobre Silvano! ... eliminado."
    r, st = alien_turn({"mode": "basic", "players": 2}, at=start)
    deal(st, 1, "psychologist")
    place(st, 1, "D08")
    before = deck_left(st)
    n0 = nlog(st)
    assert E.A_MOVE_ATTACK + S("D08") in set(int(a) for a in r.legal(st))
    step(r, st, E.A_MOVE_ATTACK + S("D08"))
    ev = events(st, since=n0)
    assert ev[:3] == [("ATTACK", 0, S("D08")), ("PRESENT", 1, S("D08")), ("KILLED", 1, 2)]
    assert deck_left(st) == before  # no card when attacking
    assert get(st, 1, E.P_STATUS) == E.ST_DEAD and get(st, 1, E.P_REVEALED) == 2
    assert r.over(st) and r.results(st)["won"] == [True, False]  # R7.2
    assert r.results(st)["end_reason"] == E.END_HUMANS_DEAD


def test_e4_advanced_attack_feeds_the_alien():
    r, st = alien_turn({"players": 4}, at="C07")
    deal(st, 1, "psychologist")
    place(st, 1, "D08")
    step(r, st, E.A_MOVE_ATTACK + S("D08"))
    assert get(st, 0, E.P_FED) == 1 and get(st, 0, E.P_FED_ROUND) == int(st.s[E.ROUND])
    # R9: from its next move the alien reaches 3 sectors
    place(st, 0, "L04")
    begin(st, 0)
    m = dm.load_map("galilei")
    open_ = lambda x: m.kind[x] in (dm.SAFE, dm.DANGER)  # noqa: E731
    assert moves(r, st) == {dm.sector_name(x) for x in m.reach(S("L04"), 3, open_)}
    assert any(m.distances(S("L04"), open_)[S(x)] == 3 for x in moves(r, st))


def _julia_on_t13(**extra):
    settings = {"mode": "advanced", **extra}
    r, st = human_turn(settings, role="pilot", at="T13", items=("adrenaline",))
    return r, st


def test_e5_adrenaline_reaches_hatch_3():
    # "Julia Niguloti está no sector T13 ... tem uma carta Adrenalina ... alcança a Escotilha de Saída 3."
    r, st = _julia_on_t13()
    assert st.s[E.PHASE] == E.P_PRE
    step(r, st, E.A_PRE_DONE)
    assert "V13" not in moves(r, st)
    r, st = _julia_on_t13()
    n0 = nlog(st)
    step(r, st, E.A_USE_ADRENALINE)
    assert events(st, since=n0) == [("ITEM_USED", 0, 2)]
    assert "V13" in moves(r, st) and "U13" in moves(r, st)
    top_hatch(st, "green")
    step(r, st, E.A_MOVE + S("V13"))
    assert ("HATCH", 0, 3) in events(st, since=n0)


def test_e6_green_hatch_escapes_and_closes_it():
    r, st = _julia_on_t13()
    step(r, st, E.A_USE_ADRENALINE)
    top_hatch(st, "green")
    n0 = nlog(st)
    step(r, st, E.A_MOVE + S("V13"))
    assert events(st, since=n0)[:2] == [("HATCH", 0, 3), ("ESCAPED", 0, 3)]
    assert get(st, 0, E.P_STATUS) == E.ST_ESCAPED and get(st, 0, E.P_POS) == -1
    assert st.s[E.HATCH_STATE + 2] == E.HATCH_USED
    # a later human on U13 cannot enter V13 (A3), an alien never could
    humans = [q for q in range(1, r.seats) if get(st, q, E.P_SIDE) == 0]
    q = humans[0]
    place(st, q, "U13")
    begin(st, q)
    if st.s[E.PHASE] == E.P_PRE:
        step(r, st, E.A_PRE_DONE)
    assert "V13" not in moves(r, st) and "U12" in moves(r, st)
    # the escaped human wins at the end, whatever the aliens do (R11.2)
    while not r.over(st):
        step(r, st, r.legal(st)[0])
    assert r.results(st)["won"][0]


def test_e6_red_hatch_damages_it_and_the_human_stays():
    r, st = _julia_on_t13()
    step(r, st, E.A_USE_ADRENALINE)
    top_hatch(st, "red")
    n0 = nlog(st)
    step(r, st, E.A_MOVE + S("V13"))
    assert events(st, since=n0)[:2] == [("HATCH", 0, 3), ("HATCH_RED", 0, 3)]
    assert get(st, 0, E.P_POS) == S("V13") and st.s[E.HATCH_STATE + 2] == E.HATCH_DAMAGED
    begin(st, 0)  # her next turn must leave it, and V13 is closed to everyone
    if st.s[E.PHASE] == E.P_PRE:
        step(r, st, E.A_PRE_DONE)
    assert moves(r, st) and "V13" not in moves(r, st)


@pytest.mark.parametrize("n, humans", [(2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (7, 3), (8, 4)])
def test_e7_sides_and_deal(n, humans):
    r = Rules(players=n)
    for seed in range(20):
        st = r.new(seed)
        chars = [get(st, p, E.P_CHAR) for p in range(n)]
        sides = [get(st, p, E.P_SIDE) for p in range(n)]
        assert len(set(chars)) == n
        assert sides.count(0) == humans and sides.count(1) == n - humans
        assert all((c < 4) == (s == 0) for c, s in zip(chars, sides))
        assert 0 <= int(st.s[E.FIRST]) < n


def test_setup_positions_and_first_turn():
    r = Rules(players=6, mode="basic")
    st = r.new(3)
    for p in range(6):
        want = "L08" if get(st, p, E.P_SIDE) == 0 else "L06"
        assert dm.sector_name(get(st, p, E.P_POS)) == want
    assert int(st.s[E.ACTIVE]) == int(st.s[E.FIRST]) and events(st) == [("TURN", int(st.s[E.FIRST]), -1)]

