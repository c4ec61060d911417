"""Named layouts of the flat int32 vectors compiled game code works on, and named
action spaces.

The hot path stays "array state + action -> array state" so that numba compiles it,
but nothing is addressed by a literal offset: an engine declares its fields once,

    S = Layout("state")
    PHASE, ROUND = S.scalars("phase", "round")
    SHIP_ROW = S.array("ship_row", NSHIPS)
    PLAYER = S.seats("player", 4, "score", "parks", "won")   # a per-seat block
    SIZE = S.size

and gets plain ``int`` constants (numba freezes module-level ints into the machine
code, so a named offset costs nothing). A per-seat block gives its base, its stride
(derived from the fields) and each field's offset inside a seat's record:
``s[PLAYER.base + p * PLAYER.stride + PLAYER.score]``, or the same through the
constants the engine takes from it. ``S.view(s)`` turns a vector into a dict of named
fields for traces, notebooks and tests.

An :class:`ActionSpace` hands out contiguous ranges of action ids by name, so ranges
never overlap and ``MAX_ACTIONS`` (the size of the space) is derived, and it can say
which range an action id falls in.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

MAX_SEATS = 8


@dataclasses.dataclass(frozen=True)
class Field:
    name: str
    offset: int
    length: int  # 1 for a scalar
    scalar: bool


class SeatBlock:
    """A record of named int fields repeated once per seat.

    ``base`` is where seat 0's record starts, ``stride`` the record length; each field
    name is an attribute holding its offset inside the record."""

    def __init__(self, name: str, base: int, seats: int, fields: dict[str, int], lengths: dict[str, int]):
        self.name = name
        self.base = base
        self.seats = seats
        self.fields = dict(fields)
        self.lengths = dict(lengths)
        self.stride = sum(lengths.values())
        for f, off in fields.items():
            setattr(self, f, off)

    def __repr__(self) -> str:
        return f"SeatBlock({self.name!r}, base={self.base}, seats={self.seats}, stride={self.stride})"

    def offset(self, seat: int, field: str) -> int:
        return self.base + seat * self.stride + self.fields[field]


class Layout:
    """Declares the named fields of one flat int32 vector (a state, a board, an observation)."""

    def __init__(self, name: str):
        self.name = name
        self.size = 0
        self.fields: dict[str, Field] = {}
        self.blocks: dict[str, SeatBlock] = {}

    def _take(self, name: str, length: int, scalar: bool) -> int:
        if not name.isidentifier() or name != name.lower():
            raise ValueError(f"{self.name}: field name {name!r} must be a lower-case identifier")
        if name in self.fields or name in self.blocks:
            raise ValueError(f"{self.name}: field {name!r} declared twice")
        if length < 1:
            raise ValueError(f"{self.name}: field {name!r} needs a positive length")
        off = self.size
        self.fields[name] = Field(name, off, int(length), scalar)
        self.size += int(length)
        return off

    def scalar(self, name: str) -> int:
        """One int; returns its offset."""
        return self._take(name, 1, True)

    def scalars(self, *names: str) -> tuple[int, ...]:
        return tuple(self.scalar(n) for n in names)

    def array(self, name: str, length: int) -> int:
        """``length`` consecutive ints; returns the offset of the first."""
        return self._take(name, length, False)

    def seats(self, name: str, seats: int, *fields: str | tuple[str, int]) -> SeatBlock:
        """One record per seat (``seats`` <= 8). A field is a name, or ``(name, length)``."""
        if not 1 <= seats <= MAX_SEATS:
            raise ValueError(f"{self.name}: {name} must have 1 to {MAX_SEATS} seats")
        offs: dict[str, int] = {}
        lengths: dict[str, int] = {}
        pos = 0
        for f in fields:
            fname, flen = (f, 1) if isinstance(f, str) else f
            if fname in offs:
                raise ValueError(f"{self.name}: {name}.{fname} declared twice")
            offs[fname], lengths[fname] = pos, int(flen)
            pos += int(flen)
        base = self._take(name, pos * seats, False)
        block = SeatBlock(name, base, seats, offs, lengths)
        self.blocks[name] = block
        return block

    def offsets(self) -> dict[str, int]:
        """Upper-case constant name -> offset, for every field (a test checks an engine's
        module constants against these)."""
        return {f.name.upper(): f.offset for f in self.fields.values() if f.name not in self.blocks}

    def view(self, vec: np.ndarray, seats: int | None = None) -> dict[str, Any]:
        """A dict of named fields: ints for scalars, arrays for arrays, and for a seat
        block a list (one dict per seat, the first ``seats`` seats)."""
        vec = np.asarray(vec)
        if vec.shape[0] < self.size:
            raise ValueError(f"{self.name}: vector of {vec.shape[0]} ints, layout needs {self.size}")
        out: dict[str, Any] = {}
        for f in self.fields.values():
            if f.name in self.blocks:
                blk = self.blocks[f.name]
                n = blk.seats if seats is None else min(seats, blk.seats)
                recs = []
                for p in range(n):
                    rec = {}
                    for fname, off in blk.fields.items():
                        start = blk.base + p * blk.stride + off
                        ln = blk.lengths[fname]
                        rec[fname] = int(vec[start]) if ln == 1 else vec[start:start + ln].copy()
                    recs.append(rec)
                out[f.name] = recs
            elif f.scalar:
                out[f.name] = int(vec[f.offset])
            else:
                out[f.name] = vec[f.offset:f.offset + f.length].copy()
        return out


@dataclasses.dataclass(frozen=True)
class ActionRange:
    name: str
    start: int
    size: int

    def __contains__(self, a: int) -> bool:
        return self.start <= a < self.start + self.size


class ActionSpace:
    """Named, non-overlapping ranges of action ids: ``A_MOVE = ACTIONS.range("move", 396)``."""

    def __init__(self, name: str = "actions"):
        self.name = name
        self.ranges: dict[str, ActionRange] = {}
        self.size = 0

    def range(self, name: str, size: int) -> int:
        """``size`` consecutive ids; returns the first."""
        if name in self.ranges:
            raise ValueError(f"{self.name}: range {name!r} declared twice")
        if size < 1:
            raise ValueError(f"{self.name}: range {name!r} needs a positive size")
        r = ActionRange(name, self.size, int(size))
        self.ranges[name] = r
        self.size += int(size)
        return r.start

    def single(self, name: str) -> int:
        return self.range(name, 1)

    def decode(self, a: int) -> tuple[str, int]:
        """``(range name, index inside the range)`` of action id ``a``."""
        a = int(a)
        for r in self.ranges.values():
            if a in r:
                return r.name, a - r.start
        raise ValueError(f"{self.name}: {a} is no action id (0 .. {self.size - 1})")
