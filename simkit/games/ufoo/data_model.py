"""Reads and checks a Ufo.O board file (TOML or JSON) into plain Python objects.

The file format is described in ``data/board.toml`` and docs/rules/ufo-o.md (R1, C1-C12).
Any problem is a :class:`~simkit.errors.UserError` of one line naming the file, the entry
and what is wrong: wrong types, unknown keys, absurd sizes, cells off the grid, clashes
between asteroids, mothership pictures and launch hexes, or two fleets that cannot reach
each other.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from ...datafiles import data_error, read
from ...errors import UserError
from . import geometry as G

DATA = Path(__file__).with_name("data")
BUILTIN = DATA / "board.toml"
NO_OUTLIERS = DATA / "board-no-outliers.toml"

MIN_SIDE = 3
MAX_SIDE = 16
MAX_CELLS = 128  # action ids reserve one id per cell (docs/rules/ufo-o.md, R12.2)
SEATS = 2
UFOS = 4  # UFOs per player = launch hexes per mothership (rulebook)
MAX_STRUCTURE = 20
HINT = "check --set board=PATH"

Coord = Annotated[list[StrictInt], Field(min_length=2, max_length=2)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _Grid(_Strict):
    cols: StrictInt = Field(ge=MIN_SIDE, le=MAX_SIDE)
    rows: StrictInt = Field(ge=MIN_SIDE, le=MAX_SIDE)
    layout: Literal["pointy-odd-r"] = "pointy-odd-r"


class _Mothership(_Strict):
    seat: StrictInt = Field(ge=1, le=SEATS)  # the seat playing it, numbered from 1
    name: StrictStr = Field(min_length=1, max_length=20)
    cells: list[Coord] = Field(default_factory=list, max_length=8)
    launch: list[Coord] = Field(min_length=UFOS, max_length=UFOS)
    structure: StrictInt = Field(default=5, ge=1, le=MAX_STRUCTURE)


class _BoardFile(_Strict):
    version: StrictStr = Field(min_length=1)
    about: StrictStr = ""
    grid: _Grid
    motherships: list[_Mothership] = Field(min_length=SEATS, max_length=SEATS)
    asteroids: list[Coord] = Field(default_factory=list)


@dataclass(frozen=True)
class Mothership:
    """One side's mothership: its picture's cells, its 4 launch hexes (UFO k starts on
    ``launch[k]``) and its starting structure. ``index`` is the engine's index of the seat
    that plays it: 0 for the file's ``seat = 1``, 1 for ``seat = 2``."""

    index: int
    name: str
    cells: tuple[G.Cell, ...]
    launch: tuple[G.Cell, ...]
    structure: int


@dataclass(frozen=True)
class Board:
    """A checked board: grid size, the two motherships (seat 1's first), the asteroids."""

    path: str
    version: str
    about: str
    cols: int
    rows: int
    motherships: tuple[Mothership, Mothership]
    asteroids: frozenset[G.Cell]

    @property
    def n_cells(self) -> int:
        return self.cols * self.rows

    def on_grid(self, cell: G.Cell) -> bool:
        return G.on_grid(cell, self.cols, self.rows)

    def mothership_cells(self) -> frozenset[G.Cell]:
        return frozenset(c for m in self.motherships for c in m.cells)

    def blocked(self, cell: G.Cell) -> bool:
        """Off the grid, an asteroid or a mothership picture: no UFO may enter it (R1.3, R10.1)."""
        return not self.on_grid(cell) or cell in self.asteroids or cell in self.mothership_cells()

    def neighbours(self, cell: G.Cell) -> list[G.Cell]:
        return G.neighbours(cell, self.cols, self.rows)

    def next_to_asteroid(self, cell: G.Cell) -> bool:
        """R10.2: the cell touches at least one asteroid."""
        return any(n in self.asteroids for n in self.neighbours(cell))


def _where(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (("." if out else "") + str(part))
    return out or "top level"


def _pydantic_error(path: Path, exc: ValidationError) -> UserError:
    err = exc.errors()[0]
    where = _where(tuple(err["loc"]))
    kind = err["type"]
    if kind == "extra_forbidden":
        what = "unknown key (see the comments in simkit/games/ufoo/data/board.toml for the format)"
    elif kind == "missing":
        what = "missing"
    elif where.endswith(".seat") and kind in ("greater_than_equal", "less_than_equal"):
        what = f"must be 1 or 2 (the seat that plays this mothership; seats are numbered from 1), got {err['input']!r}"
    elif kind in ("too_short", "too_long") and where.endswith("launch"):
        what = f"needs exactly {UFOS} launch hexes"
    elif kind in ("too_short", "too_long") and where.endswith("motherships"):
        what = f"needs exactly {SEATS} motherships"
    elif kind in ("too_short", "too_long"):
        what = "a cell is written [col, row]" if err["ctx"].get("max_length") == 2 or err["ctx"].get("min_length") == 2 else err["msg"]
    else:
        what = err["msg"]
        if "input" in err and not isinstance(err["input"], (dict, list)):
            what += f", got {err['input']!r}"
    more = len(exc.errors()) - 1
    return data_error(path, where, what + (f" (and {more} more problem{'s' * (more > 1)})" if more else ""))


def _cell(path: Path, where: str, raw: list[int], cols: int, rows: int) -> G.Cell:
    cell = (raw[0], raw[1])
    if not G.on_grid(cell, cols, rows):
        raise data_error(path, where, f"[{cell[0]}, {cell[1]}] is off the {cols} x {rows} grid (cols 0-{cols - 1}, rows 0-{rows - 1})")
    return cell


def _reachable(start: set[G.Cell], board: Board) -> set[G.Cell]:
    seen = set(start)
    todo = deque(start)
    while todo:
        c = todo.popleft()
        for n in board.neighbours(c):
            if n not in seen and not board.blocked(n):
                seen.add(n)
                todo.append(n)
    return seen


def parse(doc: dict, path: Path) -> Board:
    """Check an already-read document; ``path`` is only used in error messages."""
    try:
        raw = _BoardFile.model_validate(doc)
    except ValidationError as exc:
        raise _pydantic_error(path, exc) from None
    cols, rows = raw.grid.cols, raw.grid.rows
    if cols * rows > MAX_CELLS:
        raise data_error(path, "grid", f"{cols} x {rows} = {cols * rows} cells; at most {MAX_CELLS} are allowed")

    asteroids: dict[G.Cell, int] = {}
    for i, a in enumerate(raw.asteroids):
        cell = _cell(path, f"asteroids[{i}]", a, cols, rows)
        if cell in asteroids:
            raise data_error(path, f"asteroids[{i}]", f"[{cell[0]}, {cell[1]}] is listed twice (also asteroids[{asteroids[cell]}])")
        asteroids[cell] = i

    seats = sorted(m.seat for m in raw.motherships)
    if seats != list(range(1, SEATS + 1)):
        raise data_error(path, "motherships", f"needs one mothership for seat 1 and one for seat 2, got seats {seats}")
    owner: dict[G.Cell, str] = {}  # cell -> which entry uses it (picture or launch hex)
    ships = {}
    for m_i, m in enumerate(raw.motherships):
        base = f"motherships[{m_i}]"
        cells = []
        for i, c in enumerate(m.cells):
            where = f"{base}.cells[{i}]"
            cell = _cell(path, where, c, cols, rows)
            if cell in asteroids:
                raise data_error(path, where, f"[{cell[0]}, {cell[1]}] is also an asteroid")
            if cell in owner:
                raise data_error(path, where, f"[{cell[0]}, {cell[1]}] is already used by {owner[cell]}")
            owner[cell] = where
            cells.append(cell)
        ships[m.seat - 1] = (m_i, m, tuple(cells))
    for m_i, m, cells in ships.values():
        base = f"motherships[{m_i}]"
        launch = []
        for i, c in enumerate(m.launch):
            where = f"{base}.launch[{i}]"
            cell = _cell(path, where, c, cols, rows)
            if cell in asteroids:
                raise data_error(path, where, f"[{cell[0]}, {cell[1]}] is also an asteroid")
            if cell in owner:
                raise data_error(path, where, f"[{cell[0]}, {cell[1]}] is already used by {owner[cell]}")
            if cells and not any(G.adjacent(cell, p) for p in cells):
                raise data_error(path, where, f"[{cell[0]}, {cell[1]}] does not touch the mothership's cells")
            owner[cell] = where
            launch.append(cell)
        ships[m.seat - 1] = Mothership(m.seat - 1, m.name, cells, tuple(launch), m.structure)

    board = Board(str(path), raw.version, raw.about, cols, rows, (ships[0], ships[1]), frozenset(asteroids))
    reach = _reachable(set(board.motherships[0].launch), board)
    if not reach & set(board.motherships[1].launch):
        raise data_error(path, "asteroids", "no path of open hexes joins the two motherships' launch hexes, so the fleets can never meet")
    return board


def load(path: str | Path | None = None) -> Board:
    """The board in ``path`` (TOML, or JSON by its ending); the built-in stand-in by default."""
    p = Path(path) if path else BUILTIN
    doc, _ = read(str(p), "Ufo.O board file", HINT)
    return parse(doc, p)
