"""Hex geometry of the Ufo.O board (docs/rules/ufo-o.md, R1.2): plain Python.

Cells are ``(col, row)`` pairs on a ``cols x rows`` grid of pointy-top hexes whose odd
rows are shifted half a hex east ("odd-r" offset coordinates). Row 0 is the top edge
(mothership A's side on the stand-in board), column 0 the west edge. A cell's index is
``row * cols + col``.

The six directions are numbered E, NE, NW, W, SW, SE (0-5); the opposite of ``d`` is
``(d + 3) % 6``. Distances are measured in cube coordinates.

This module is the single source of the geometry for the data loader and the engine's
board builder; the tests check it against the stand-in board (tests/test_ufoo_data.py).
"""

from __future__ import annotations

Cell = tuple[int, int]

E, NE, NW, W, SW, SE = range(6)
DIRECTIONS = ("E", "NE", "NW", "W", "SW", "SE")

# (dcol, drow) of one step in each direction, by row parity (R1.2)
STEPS: dict[int, tuple[Cell, ...]] = {
    0: ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)),  # even rows
    1: ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)),  # odd rows (shifted east)
}


def step(cell: Cell, d: int) -> Cell:
    """The cell one step from ``cell`` in direction ``d`` (it may lie off the grid)."""
    col, row = cell
    dc, dr = STEPS[row & 1][d]
    return col + dc, row + dr


def on_grid(cell: Cell, cols: int, rows: int) -> bool:
    return 0 <= cell[0] < cols and 0 <= cell[1] < rows


def index(cell: Cell, cols: int) -> int:
    """The cell's index, ``row * cols + col`` (action ids use it, R12.2)."""
    return cell[1] * cols + cell[0]


def cell_of(i: int, cols: int) -> Cell:
    return i % cols, i // cols


def to_cube(cell: Cell) -> tuple[int, int, int]:
    """Cube coordinates (x, y, z) with x + y + z = 0 (odd-r offset conversion)."""
    col, row = cell
    x = col - (row - (row & 1)) // 2
    z = row
    return x, -x - z, z


def distance(a: Cell, b: Cell) -> int:
    """Hex distance: the fewest steps from ``a`` to ``b`` on an unbounded grid."""
    ax, ay, az = to_cube(a)
    bx, by, bz = to_cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def neighbours(cell: Cell, cols: int, rows: int) -> list[Cell]:
    """The on-grid neighbours of ``cell``, in direction order E, NE, NW, W, SW, SE."""
    out = []
    for d in range(6):
        n = step(cell, d)
        if on_grid(n, cols, rows):
            out.append(n)
    return out


def adjacent(a: Cell, b: Cell) -> bool:
    return distance(a, b) == 1


def straight(a: Cell, b: Cell) -> bool:
    """True when ``b`` lies on one of the six straight hex lines from ``a`` (a != b)."""
    ax, ay, az = to_cube(a)
    bx, by, bz = to_cube(b)
    return a != b and (ax == bx or ay == by or az == bz)


def line2(cell: Cell, cols: int, rows: int) -> list[tuple[int, Cell, Cell]]:
    """Targets exactly 2 hexes away on a straight line (R5.1, ``fire_lines=straight``).

    Each entry is ``(direction, middle, target)``: the target is two steps in that
    direction and ``middle`` the hex in between. Only targets on the grid are listed; on a
    rectangular grid the middle of two on-grid cells is always on the grid.
    """
    out = []
    for d in range(6):
        mid = step(cell, d)
        tgt = step(mid, d)
        if on_grid(tgt, cols, rows):
            out.append((d, mid, tgt))
    return out


def ring2(cell: Cell, cols: int, rows: int) -> list[Cell]:
    """Every on-grid cell at distance exactly 2 (12 on an open board)."""
    col, row = cell
    out = []
    for r in range(row - 2, row + 3):
        for c in range(col - 3, col + 4):
            if on_grid((c, r), cols, rows) and distance(cell, (c, r)) == 2:
                out.append((c, r))
    return out


def between(a: Cell, b: Cell) -> list[Cell]:
    """The hexes a line of fire from ``a`` to ``b`` at distance 2 passes (R5.3).

    On a straight line this is the single middle hex; for an off-line target (used only
    with ``fire_lines=any``) it is the two hexes adjacent to both, whose shared edge the
    line runs along. For an off-line pair at the west or east edge one of the two may lie off
    the grid, e.g. (0,2) and (0,0) have (0,1) and (-1,1) in between: empty space, which the
    engine treats as never blocking (docs/rules/ufo-o.md, R5.3).
    """
    if distance(a, b) != 2:
        raise ValueError(f"{a} and {b} are not 2 hexes apart")
    return [step(a, d) for d in range(6) if distance(step(a, d), b) == 1]


def direction(a: Cell, b: Cell) -> int:
    """The direction d with ``b`` on the straight line from ``a`` in direction d."""
    if not straight(a, b):
        raise ValueError(f"{b} is not on a straight line from {a}")
    k = distance(a, b)
    for d in range(6):
        c = a
        for _ in range(k):
            c = step(c, d)
        if c == b:
            return d
    raise AssertionError("unreachable")  # pragma: no cover


def mirror(cell: Cell, rows: int) -> Cell:
    """Top-bottom reflection (row r -> rows - 1 - r). A symmetry of the grid when ``rows``
    is odd, because it keeps every row's parity and so the east shift of odd rows."""
    return cell[0], rows - 1 - cell[1]
