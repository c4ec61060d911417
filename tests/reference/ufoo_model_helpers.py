"""Shared helpers for the tests of the independent Ufo.O model (tests/reference/ufoo_model.py),
tests/reference/test_ufoo_model_*.py: the stand-in boards, games after set-up, positions put by
hand, and actions played with scripted dice. The rulebook's figures are lost, so its examples
are the sentences themselves, replayed on small positions. Rule numbers (R1, A1 ...) refer to
docs/rules/ufo-o.md.
"""

from __future__ import annotations

from pathlib import Path

from simkit.games.ufoo import data_model as D
from tests.reference import ufoo_model as M
from tests.reference.ufoo_model import ATTACK, BOARD, MOVE, WAITING, Model, ScriptedChance


STANDIN = D.load()
NO_OUTLIERS = D.load(D.NO_OUTLIERS)


def open_board(asteroids=()):
    """The stand-in's grid and motherships with the given asteroids only."""
    doc = {
        "version": "test",
        "grid": {"cols": 9, "rows": 11},
        "motherships": [
            {"seat": 1, "name": "A", "cells": [[4, 0]], "launch": [[3, 0], [5, 0], [3, 1], [4, 1]], "structure": 5},
            {"seat": 2, "name": "B", "cells": [[4, 10]], "launch": [[3, 10], [5, 10], [3, 9], [4, 9]], "structure": 5},
        ],
        "asteroids": [list(a) for a in asteroids],
    }
    return D.parse(doc, Path("test-board.toml"))


OPEN = open_board()
NO_DICE = ScriptedChance([])


def fresh(board=OPEN, **settings):
    """A game after set-up with seat 0 to start (no dice)."""
    settings.setdefault("first_player", "seat1")
    m = Model(settings, board)
    m.setup(ScriptedChance([]))
    return m


def arrange(m, pieces, active=0, phase=MOVE, structure=None):
    """Put the pieces: ``pieces`` maps (seat, k) to a cell, (cell, damaged), or a status
    ("ready", "waiting", "destroyed"). Unlisted UFOs wait on their mothership's picture."""
    for seat in range(2):
        for k in range(4):
            u = M.Ufo(status=WAITING)
            spec = pieces.get((seat, k))
            if isinstance(spec, str):
                u = M.Ufo(status=spec)
            elif spec is not None:
                cell, dmg = spec if isinstance(spec[0], tuple) else (spec, False)
                u = M.Ufo(status=BOARD, cell=cell, damaged=dmg)
            m.ufos[seat][k] = u
    m.active = active
    m.phase = phase
    m.push = None
    m.attacks_made = 0
    m.volley_fired = False
    if structure is not None:
        m.structure = list(structure)
    m._legal_cache = None
    return m


def kinds(m, kind):
    return [a for a in m.legal() if a[0] == kind]


def cells_of(m, kind="push", k=None):
    if kind == "move":
        return {(a[2], a[3]) for a in m.legal() if a[0] == "move" and a[1] == k}
    return {(a[1], a[2]) for a in m.legal() if a[0] == kind}


def play(m, actions, faces=(), tags=None):
    """Apply actions with scripted dice; every die must be used."""
    ch = ScriptedChance(faces, tags)
    for a in actions:
        m.apply(a, ch)
    assert ch.exhausted(), f"unused dice {ch.faces}"
    return ch


def board_cells():
    return {(c, r) for r in range(11) for c in range(9)}


def path_len(a, b, blocked):
    """Shortest path length from a to b avoiding ``blocked`` (a test-side BFS)."""
    from collections import deque
    seen = {a: 0}
    q = deque([a])
    while q:
        c = q.popleft()
        if c == b:
            return seen[c]
        for n in M.all_neighbours(c):
            if n in seen or n in blocked or not (0 <= n[0] < 9 and 0 <= n[1] < 11):
                continue
            seen[n] = seen[c] + 1
            q.append(n)
    return 99


ANCHOR = {(0, 3): ((8, 0), True)}  # a damaged seat-0 UFO far away: its REPAIR keeps the attack phase open


def duel(board=OPEN, att=(4, 4), dfd=(6, 4), att_dmg=False, dfd_dmg=False, extra=None, **settings):
    pieces = {(0, 0): (att, att_dmg), (1, 0): (dfd, dfd_dmg), **ANCHOR, **(extra or {})}
    return arrange(fresh(board, **settings), pieces, phase=ATTACK)
