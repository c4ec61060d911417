"""Mirror images of Ufo.O positions, for checking that nothing favours one seat by its side
of the board (tests/test_ufoo_mirror.py).

The mirror of a position swaps the two seats and reflects the board top <-> bottom
(``geometry.mirror``: row r -> rows - 1 - r, column kept), so that seat 0's side becomes
seat 1's. On a grid with an odd number of rows the reflection keeps every row's parity, so
it maps neighbours to neighbours (directions E, NE, NW, W, SW, SE go to E, SE, SW, W, NW,
NE) and distances to distances. It is a symmetry of the game when the board is its own
mirror image with the seats swapped: :func:`asymmetries` lists what is not (empty for the
built-in boards).

UFO ``k`` of a seat maps to UFO ``k`` of the other seat (launch hex k of one mothership is
the mirror of launch hex k of the other), so action ids change only in their cell:
``MOVE(k, c)`` -> ``MOVE(k, mirror(c))``, ``PUSH(c)`` -> ``PUSH(mirror(c))``; every other
action keeps its id. Plain Python (numpy): it is for tests and analysis, not for the
compiled loop.
"""

from __future__ import annotations

import numpy as np

from . import board as B
from . import data_model as D
from . import engine as E
from . import geometry as G


def asymmetries(board: D.Board) -> list[str]:
    """Why ``board`` is not its own mirror image with the seats swapped: one line per
    difference, naming the cells; empty when it is."""
    out: list[str] = []
    cols, rows = board.cols, board.rows
    if rows % 2 == 0:
        out.append(f"the grid has {rows} rows: the top-bottom reflection of an odd-r grid needs an odd number of rows")
        return out
    m = lambda cell: G.mirror(cell, rows)  # noqa: E731
    for a in sorted(board.asteroids, key=lambda c: (c[1], c[0])):
        if m(a) not in board.asteroids:
            out.append(f"asteroid {a} has no asteroid at its mirror cell {m(a)}")
    one, two = board.motherships
    for x, y in ((one, two), (two, one)):
        for c in x.cells:
            if m(c) not in y.cells:
                out.append(f"mothership {x.name} covers {c}, mothership {y.name} does not cover its mirror cell {m(c)}")
    for k, (a, b) in enumerate(zip(one.launch, two.launch)):
        if m(a) != b:
            out.append(f"launch hex {k}: {one.name}'s is {a}, {two.name}'s is {b}, not the mirror cell {m(a)}")
    if one.structure != two.structure:
        out.append(f"structure: {one.name} starts at {one.structure}, {two.name} at {two.structure}")
    return out


def cell_map(b: np.ndarray) -> np.ndarray:
    """``out[c]``: the index of the mirror cell of cell index ``c`` (``MAX_CELLS`` entries;
    -1 past the grid)."""
    cols, rows = int(b[B.B_COLS]), int(b[B.B_ROWS])
    out = np.full(B.MAX_CELLS, -1, np.int64)
    for i in range(cols * rows):
        out[i] = G.index(G.mirror(G.cell_of(i, cols), rows), cols)
    return out


def _mirror_mask(s: np.ndarray, off: int, cm: np.ndarray) -> int:
    bits = 0
    for w in range(B.MASK_WORDS):
        bits |= (int(s[off + w]) & 0xFFFF_FFFF) << (32 * w)
    out = 0
    for c in range(B.MAX_CELLS):
        if bits >> c & 1:
            out |= 1 << int(cm[c])
    return out


def mirror_state(s: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The mirror image of state ``s``: seats swapped, every cell reflected. Scratch
    (the push search's stack) and the latest step's dice (the chance log) are copied
    unchanged."""
    cm = cell_map(b)
    m = s.copy()
    for f in (E.ACTIVE, E.TO_MOVE, E.FIRST_SEAT):
        m[f] = 1 - s[f]
    if s[E.WINNER] >= 0:
        m[E.WINNER] = 1 - s[E.WINNER]
    if s[E.PHASE] == E.PH_PUSH:  # outside a push these are 0 (end_push)
        m[E.PUSH_SEAT] = 1 - s[E.PUSH_SEAT]
        m[E.PUSH_WINNER] = 1 - s[E.PUSH_WINNER]
    pm = _mirror_mask(s, E.PUSH_MASK, cm)
    for w in range(B.MASK_WORDS):
        word = (pm >> (32 * w)) & 0xFFFF_FFFF
        m[E.PUSH_MASK + w] = word - (1 << 32) if word >= 1 << 31 else word
    for p in range(E.SEATS):
        src = E.SEAT + p * E.S_STRIDE
        dst = E.SEAT + (1 - p) * E.S_STRIDE
        m[dst:dst + E.S_STRIDE] = s[src:src + E.S_STRIDE]
        for k in range(E.UFOS):
            c = int(s[src + E.S_CELL + k])
            m[dst + E.S_CELL + k] = -1 if c < 0 else cm[c]
    return m


def mirror_action(a: int, b: np.ndarray) -> int:
    """The mirror image of action id ``a`` (its cell reflected; UFO numbers kept)."""
    a = int(a)
    cm = cell_map(b)
    if E.A_MOVE <= a < E.A_END_MOVE:
        k, c = divmod(a - E.A_MOVE, B.MAX_CELLS)
        return E.A_MOVE + k * B.MAX_CELLS + int(cm[c])
    if E.A_PUSH <= a < E.A_NO_PUSH:
        return E.A_PUSH + int(cm[a - E.A_PUSH])
    return a


def mirror_memory(mem: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A heuristic bot's memory (the turn of its plan, then a destination cell per UFO,
    -1 to stay) as the mirrored seat would hold it."""
    from strategies.ufoo.heuristic import M_PLAN

    cm = cell_map(b)
    out = mem.copy()
    for k in range(E.UFOS):
        c = int(mem[M_PLAN + k])
        out[M_PLAN + k] = -1 if c < 0 else cm[c]
    return out
