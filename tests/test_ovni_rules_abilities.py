"""O.V.N.I. rules tests, the ability cards (R17 of docs/rules/ovni.md; examples E19, E21):
extra moves, abducting without a majority, swapping a human, the token six.

Positions and conventions (state-vector offsets, city / class / kind indices):
tests/ovni_rules_helpers.py.
"""

from __future__ import annotations

import pytest

from simkit.games.ovni import engine as E
from simkit.jit import entry

from .ovni_rules_helpers import (
    CITY,
    KIND,
    A,
    P,
    act,
    get,
    give,
    legal,
    neutral,
    phase2,
    set_aliens,
    setup_done,
    ufos,
)


# ---- ability cards (R17) ------------------------------------------------------------------------
def test_E19_extra_moves_and_abduct_without_majority():
    """E19 / R17.5 / R17.9: three Pilots give up to five moves; with 0 Pilots no extra;
    in Madrid blue 1 red 1, blue with the card may abduct, without it may not."""
    rules, st = phase2(4, seat=0)
    give(st, 0, "extra_moves")
    set_aliens(st, 0, (3, 0, 0, 0))
    ufos(st, 0, 0, 1)
    act(rules, st, "activate", P)
    assert st.s[E.BUDGET] == 5
    rules, st = phase2(4, seat=0, empty_group=True)
    give(st, 0, "extra_moves")
    set_aliens(st, 0, (0, 1, 0, 0))
    ufos(st, 0, 0, 1)
    act(rules, st, "activate", P)
    assert st.s[E.GROUP] == -1  # budget 0: nothing to do
    madrid = CITY["Madrid"]
    for card in (True, False):
        rules, st = phase2(4, seat=1)
        blue, red = 1, 0
        if card:
            give(st, blue, "abduct_without_majority")
        set_aliens(st, blue, (0, 2, 0, 1))
        st.s[E.CITY_HUMAN + madrid] = 0
        ufos(st, blue, madrid, 1)
        ufos(st, red, madrid, 1)
        act(rules, st, "activate", A)
        assert (("abduct", madrid, madrid) in legal(rules, st)) == card


def test_E19_swap_human_before_abducting():
    """R17.4: swap the target city's human with one in an adjacent city, then abduct."""
    rules, st = phase2(4, seat=0)
    give(st, 0, "swap_human")
    set_aliens(st, 0, (1, 2, 0, 0))
    paris, berlin, madrid = CITY["Paris"], CITY["Berlin"], CITY["Madrid"]
    st.s[E.CITY_HUMAN + paris] = KIND["politico"]
    st.s[E.CITY_HUMAN + berlin] = KIND["atleta"]
    ufos(st, 0, paris, 1)
    act(rules, st, "activate", A)
    options = legal(rules, st)
    assert ("abduct", paris, berlin) in options and ("abduct", paris, madrid) not in options
    act(rules, st, "abduct", paris, berlin)
    assert get(st, 0, E.P_HUMANS, KIND["atleta"]) == 1 and st.s[E.CITY_HUMAN + berlin] == KIND["politico"]
    assert st.s[E.CITY_HUMAN + paris] == -1 and get(st, 0, E.P_SWAPS) == 1


@pytest.mark.parametrize("returns", [False, True])
def test_E21_token_six_spent_and_six_twice(returns):
    """E21 / R4.8 / A3 / R17.7: a 6 placed is gone for the game (a cancelled one comes
    back with six_cancelled=returns); with six_twice it comes back once."""
    tokens_back = entry(E._tokens_back)
    rules, st = setup_done(4, six_cancelled="returns" if returns else "spent")
    neutral(st)
    s = st.s

    def play_six(cancelled):
        s[E.AREA_N] = 2
        s[E.SLOT_OWNER:E.SLOT_OWNER + 2] = [0, 1]
        s[E.SLOT_VAL:E.SLOT_VAL + 2] = [6, 6 if cancelled else 5]
        s[E.SLOT_CANCEL:E.SLOT_CANCEL + 2] = [1, 1] if cancelled else [0, 0]
        s[E.HAND + 0] &= ~(1 << 6)
        tokens_back(s, st.b)

    play_six(True)
    for q in (0, 1):  # both 6s were placed and cancelled
        assert bool(get(st, q, E.P_SIX_SPENT)) == (not returns) and get(st, q, E.P_SIXES_PLAYED) == 1
    assert get(st, 2, E.P_SIX_SPENT) == 0
    rules, st = setup_done(4)
    neutral(st)
    s = st.s
    give(st, 0, "six_twice")
    play_six(False)
    assert get(st, 0, E.P_SIX_SPENT) == 0 and (s[E.HAND] >> 6) & 1
    play_six(False)
    assert get(st, 0, E.P_SIX_SPENT) == 1 and not (s[E.HAND] >> 6) & 1

