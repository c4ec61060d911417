"""Reads and checks the Escape From the Aliens data files: maps and card decks.

The files are ``data/maps/<map>.toml`` and ``data/cards.toml``; their format is described in
their own header comments, the rules they serve in docs/rules/eftaios.md. Loading gives plain
Python objects (:class:`GameMap`, :class:`Cards`). A malformed file is a one-line
:class:`~simkit.errors.UserError` naming the file, the entry and what is wrong.

The map geometry lives here too (R2 of the rules doc), so that the engine's board builder,
the bots and the tests share one tested definition of a sector's neighbours:

* a sector is named by its column letter A..W and a two-digit row 01..14 (``D09``);
* its id is ``column * 14 + (row - 1)``: 0..321, in name order (A01, A02, ..., W14);
* columns B, D, ..., V (odd 0-based index) are drawn half a hex lower than A, C, ..., W, so
  D09 touches D08, D10, C09, C10, E09 and E10 (the rulebook's example).

Which sectors a character may pass through or end on depends on the rules (start sectors,
hatches, scenario rules); :meth:`GameMap.distances` and :meth:`GameMap.reach` take those as
predicates.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ...datafiles import read
from ...errors import UserError

DATA_DIR = Path(__file__).with_name("data")
MAPS_DIR = DATA_DIR / "maps"
BUILTIN_MAPS = ("galilei", "fermi", "galvani")
BUILTIN_CARDS = DATA_DIR / "cards.toml"

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVW"
NCOLS = 23
NROWS = 14
NCELLS = NCOLS * NROWS  # 322 cell ids, void cells included
MAX_HATCHES = 4

# Cell kinds, as stored in GameMap.kind.
VOID, SAFE, DANGER, HUMAN_START, ALIEN_START, HATCH = range(6)
KIND_NAMES = ("void", "safe", "dangerous", "human start", "alien start", "hatch")
_CHAR_KIND = {".": VOID, "S": SAFE, "D": DANGER, "H": HUMAN_START, "A": ALIEN_START,
              "1": HATCH, "2": HATCH, "3": HATCH, "4": HATCH}

DANGER_KINDS = ("noise_here", "noise_any", "silence")
ITEM_KINDS = ("attack", "teleport", "adrenaline", "sedatives", "spotlight", "defence")
SIDES = ("human", "alien")


# --------------------------------------------------------------------------- geometry

def sector_id(name: str) -> int:
    """``"D09"`` -> 50. Raises ValueError on a malformed name."""
    name = name.strip().upper()
    if len(name) != 3 or name[0] not in COLUMNS or not name[1:].isdigit():
        raise ValueError(f"bad sector name {name!r}; write a column A-W and a two-digit row, e.g. D09")
    row = int(name[1:])
    if not 1 <= row <= NROWS:
        raise ValueError(f"bad sector name {name!r}; rows run from 01 to {NROWS:02d}")
    return COLUMNS.index(name[0]) * NROWS + row - 1


def sector_name(sid: int) -> str:
    """50 -> ``"D09"``."""
    if not 0 <= sid < NCELLS:
        raise ValueError(f"sector id {sid} is outside 0..{NCELLS - 1}")
    return f"{COLUMNS[sid // NROWS]}{sid % NROWS + 1:02d}"


def adjacent_cells(sid: int) -> list[int]:
    """The cells (void ones included) that share an edge with cell ``sid``, inside the grid.

    Order: same column up, same column down, then left and right columns (upper cell first).
    """
    c, r = divmod(sid, NROWS)
    if c % 2 == 1:  # B, D, F, ...: drawn half a hex lower
        cand = [(c, r - 1), (c, r + 1), (c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)]
    else:  # A, C, E, ...
        cand = [(c, r - 1), (c, r + 1), (c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)]
    return [x * NROWS + y for x, y in cand if 0 <= x < NCOLS and 0 <= y < NROWS]


@dataclass(frozen=True)
class GameMap:
    """One zone of the ship: every cell's kind and hatch number, plus the derived geometry."""

    name: str
    version: str
    path: str
    kind: tuple[int, ...]  # per cell id: VOID, SAFE, DANGER, HUMAN_START, ALIEN_START, HATCH
    hatch_number: tuple[int, ...]  # per cell id: 1..4 on a hatch, 0 elsewhere
    hatches: tuple[int, ...]  # cell id of hatch 1..4 (index 0 = hatch 1), -1 when the map lacks it
    human_start: int
    alien_start: int

    def is_sector(self, sid: int) -> bool:
        return self.kind[sid] != VOID

    def sectors(self) -> list[int]:
        return [i for i in range(NCELLS) if self.kind[i] != VOID]

    def neighbours(self, sid: int) -> list[int]:
        """The adjacent sectors (void cells left out), in :func:`adjacent_cells` order."""
        return [n for n in adjacent_cells(sid) if self.kind[n] != VOID]

    def count(self, kind: int) -> int:
        return sum(1 for k in self.kind if k == kind)

    def distances(self, start: int, passable: Callable[[int], bool],
                  enterable: Callable[[int], bool] | None = None) -> dict[int, int]:
        """Fewest steps from ``start`` to each sector a move may end on.

        A path steps from sector to adjacent sector; every sector strictly between the start
        and the end must satisfy ``passable``, the end must satisfy ``enterable`` (default:
        ``passable``). The start itself is not in the result.
        """
        enterable = enterable or passable
        dist: dict[int, int] = {}
        seen = {start}
        frontier = deque([(start, 0)])
        while frontier:
            here, d = frontier.popleft()
            for n in self.neighbours(here):
                if n in seen:
                    continue
                seen.add(n)
                if enterable(n):
                    dist[n] = d + 1
                if passable(n):
                    frontier.append((n, d + 1))
        return dist

    def reach(self, start: int, steps: int, passable: Callable[[int], bool],
              enterable: Callable[[int], bool] | None = None, exact: bool = False) -> set[int]:
        """Sectors a move of 1..``steps`` steps (exactly ``steps`` if ``exact``) can end on.

        The start is never included (a move never ends where it began, R4.3). With ``exact``
        a walk may double back, but every sector it passes must satisfy ``passable``.
        """
        enterable = enterable or passable
        if not exact:
            return {s for s, d in self.distances(start, passable, enterable).items() if d <= steps}
        frontier = {start}
        for k in range(steps):
            last = k == steps - 1
            nxt: set[int] = set()
            for here in frontier:
                for n in self.neighbours(here):
                    if (enterable(n) if last else passable(n)):
                        nxt.add(n)
            frontier = nxt
        frontier.discard(start)
        return frontier


# --------------------------------------------------------------------------- cards

@dataclass(frozen=True)
class Character:
    side: str  # "human" or "alien"
    role: str
    name: str


@dataclass(frozen=True)
class DangerCard:
    kind: str  # one of DANGER_KINDS
    item: bool  # shows the item icon


@dataclass(frozen=True)
class Cards:
    """The decks in canonical order: card id = index (R1.4)."""

    version: str
    path: str
    characters: tuple[Character, ...]
    danger: tuple[DangerCard, ...]
    items: tuple[str, ...]  # item kind per item card
    hatch: tuple[str, ...]  # "green" or "red" per hatch card

    def humans(self) -> list[int]:
        return [i for i, c in enumerate(self.characters) if c.side == "human"]

    def aliens(self) -> list[int]:
        return [i for i, c in enumerate(self.characters) if c.side == "alien"]


# --------------------------------------------------------------------------- file schemas

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _MapFile(_Strict):
    version: str = Field(min_length=1, max_length=80)
    name: str = Field(min_length=1, max_length=40)
    grid: list[str]


class _CharacterEntry(_Strict):
    side: Literal["human", "alien"]
    role: str = Field(min_length=1, max_length=40, pattern=r"^[a-z][a-z0-9_]*$")
    name: str = Field(min_length=1, max_length=80)


class _DangerEntry(_Strict):
    kind: Literal["noise_here", "noise_any", "silence"]
    item: bool
    count: int = Field(ge=0, le=100)


class _ItemEntry(_Strict):
    kind: Literal["attack", "teleport", "adrenaline", "sedatives", "spotlight", "defence"]
    count: int = Field(ge=0, le=50)


class _HatchEntry(_Strict):
    green: int = Field(ge=0, le=50)
    red: int = Field(ge=0, le=50)


class _CardsFile(_Strict):
    version: str = Field(min_length=1, max_length=80)
    characters: list[_CharacterEntry] = Field(max_length=32)
    danger: list[_DangerEntry] = Field(min_length=1, max_length=32)
    items: list[_ItemEntry] = Field(max_length=32)
    hatch: _HatchEntry

    @field_validator("characters")
    @classmethod
    def _roles_unique(cls, v):
        seen = set()
        for i, c in enumerate(v):
            if c.role in seen:
                raise ValueError(f"entry {i}: role {c.role!r} appears twice")
            seen.add(c.role)
        return v


def _loc(loc) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _parse(model, doc: dict, path: Path):
    try:
        return model.model_validate(doc)
    except ValidationError as exc:
        err = exc.errors()[0]
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown key"
        elif err["type"] == "missing":
            msg = "missing"
        raise UserError(f"{path}: {_loc(err['loc'])}: {msg}") from None


# --------------------------------------------------------------------------- loaders

def map_path(name_or_path: str) -> Path:
    """A built-in map name (``galilei``) or the path of a map file."""
    key = name_or_path.strip().lower()
    if key in BUILTIN_MAPS:
        return MAPS_DIR / f"{key}.toml"
    return Path(name_or_path)


def load_map(name_or_path: str) -> GameMap:
    """A map by built-in name or path, checked (R2)."""
    path = map_path(name_or_path)
    doc, _ = read(str(path), "map file", "check --set map=NAME or --set map_data=PATH")
    f = _parse(_MapFile, doc, path)
    if len(f.grid) != NROWS:
        raise UserError(f"{path}: grid: {len(f.grid)} rows, expected {NROWS} (rows 01..{NROWS:02d})")
    kind = [VOID] * NCELLS
    hatch_number = [0] * NCELLS
    hatches = [-1] * MAX_HATCHES
    starts = {"H": -1, "A": -1}
    for r, line in enumerate(f.grid):
        if len(line) != NCOLS:
            raise UserError(f"{path}: grid row {r + 1:02d}: {len(line)} characters, expected {NCOLS} (columns A..W)")
        for c, ch in enumerate(line):
            sid = c * NROWS + r
            if ch not in _CHAR_KIND:
                raise UserError(f"{path}: grid sector {sector_name(sid)}: unknown character {ch!r}; use . S D H A 1 2 3 4")
            kind[sid] = _CHAR_KIND[ch]
            if ch in starts:
                if starts[ch] >= 0:
                    what = "human" if ch == "H" else "alien"
                    raise UserError(f"{path}: grid sector {sector_name(sid)}: a second {what} start sector "
                                    f"(the first is {sector_name(starts[ch])})")
                starts[ch] = sid
            elif ch.isdigit():
                k = int(ch)
                if hatches[k - 1] >= 0:
                    raise UserError(f"{path}: grid sector {sector_name(sid)}: hatch {k} appears twice "
                                    f"(also at {sector_name(hatches[k - 1])})")
                hatches[k - 1] = sid
                hatch_number[sid] = k
    for ch, what in (("H", "human"), ("A", "alien")):
        if starts[ch] < 0:
            raise UserError(f"{path}: grid: no {what} start sector ({ch})")
    if all(h < 0 for h in hatches):
        raise UserError(f"{path}: grid: no escape hatch (1-4)")
    m = GameMap(name=f.name, version=f.version, path=str(path), kind=tuple(kind),
                hatch_number=tuple(hatch_number), hatches=tuple(hatches),
                human_start=starts["H"], alien_start=starts["A"])
    # Every start sector must have a way out, and every hatch must be reachable by a human
    # walking from the human start over safe and dangerous sectors (R2.6).
    open_sector = lambda s: m.kind[s] in (SAFE, DANGER)  # noqa: E731
    for sid, what in ((m.human_start, "human"), (m.alien_start, "alien")):
        if not any(open_sector(n) for n in m.neighbours(sid)):
            raise UserError(f"{path}: grid sector {sector_name(sid)}: the {what} start sector has no safe or dangerous neighbour")
    reach = m.distances(m.human_start, open_sector, lambda s: m.kind[s] in (SAFE, DANGER, HATCH))
    for k, h in enumerate(hatches):
        if h >= 0 and h not in reach:
            raise UserError(f"{path}: grid sector {sector_name(h)}: hatch {k + 1} cannot be reached from the human start")
    return m


def load_cards(path_str: str = "") -> Cards:
    """The card decks (built-in file by default), checked (R1, C7-C12)."""
    path = Path(path_str) if path_str else BUILTIN_CARDS
    doc, _ = read(str(path), "card file", "check --set card_data=PATH")
    f = _parse(_CardsFile, doc, path)
    chars = tuple(Character(c.side, c.role, c.name) for c in f.characters)
    for side in SIDES:
        n = sum(1 for c in chars if c.side == side)
        if n < 4:
            raise UserError(f"{path}: characters: {n} {side} cards; 8 players need at least 4 of each side")
    kinds = [e.kind for e in f.items]
    for k in ITEM_KINDS:
        if kinds.count(k) > 1:
            raise UserError(f"{path}: items: kind {k!r} listed twice; give one entry with its count")
    danger = tuple(DangerCard(e.kind, e.item) for e in f.danger for _ in range(e.count))
    if not danger:
        raise UserError(f"{path}: danger: the Dangerous Sector deck is empty")
    items = tuple(e.kind for e in f.items for _ in range(e.count))
    if f.hatch.green + f.hatch.red < MAX_HATCHES:
        raise UserError(f"{path}: hatch: {f.hatch.green + f.hatch.red} cards; at least {MAX_HATCHES} "
                        f"are needed (one per hatch, so the deck never runs out)")
    hatch = ("green",) * f.hatch.green + ("red",) * f.hatch.red
    return Cards(version=f.version, path=str(path), characters=chars, danger=danger, items=items, hatch=hatch)
