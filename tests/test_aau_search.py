"""The AAU search bot (strategies/aau/search.py): what its speed-ups must not change."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games import get
from simkit.games.aau import engine as E
from simkit.params import build
from simkit.play import Table


@pytest.mark.parametrize("players", [2, 4])
def test_search_ignores_the_bag_order(players):
    """The bag's order is hidden from the players: the search draws orders of its own, and
    it keeps each candidate's rest of the round (played on the state's own order, which
    draws the next round's markers) only to redraw that round. Shuffling the state's bag
    must change none of its choices, and the search must leave the state untouched."""
    g = get("aau")
    p = build(g.params, {"players": players}, "aau")
    b = g.board(p)
    strategic, search = g.resolve_bot("strategic"), g.resolve_bot("search")
    t = Table(g, b, seed=11)
    perm = np.random.default_rng(5)
    checked = 0
    step = 0
    while not t.over():
        if step % 5 == 0 and t.s[E.BAG_N] > 1 and len(t.legal()) > 1:
            before = t.s.copy()
            brng = t.brng.copy()
            a, _ = t.decide(search, 0)
            assert np.array_equal(t.s, before)
            n = t.s[E.BAG_N]
            t.s[E.BAG:E.BAG + n] = perm.permutation(t.s[E.BAG:E.BAG + n])
            after = t.brng.copy()
            t.brng[:] = brng
            shuffled, _ = t.decide(search, 0)
            assert shuffled == a, f"step {step}: {a} with the state's bag order, {shuffled} with it shuffled"
            assert np.array_equal(t.brng, after)
            checked += 1
        t.step(t.decide(strategic, 0)[0])
        step += 1
    assert checked > 10
