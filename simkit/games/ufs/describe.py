"""Readable text of a state and an action (for ``simkit trace`` and notebooks), and the
invariants the conformance suite checks after every step."""

from __future__ import annotations

import numpy as np

from . import engine as E
from .board import (
    B_CELL_ROOM, B_DMAX, B_EMAX, B_EXCAV_START, B_MAX_ROBOTS, B_ROOM_COST, B_ROOM_KIND, B_ROOM_MOD, EXPLOSION, LEFT, MSHIP, RIGHT,
)

_KIND = {EXPLOSION: "X", LEFT: "<", RIGHT: ">", MSHIP: "M"}
_ROOM = "EJRB"


def describe_action(params, s: np.ndarray, b: np.ndarray, a: int) -> str:
    kind, k = E.ACTIONS.decode(a)
    if kind == "place":
        d, cell = divmod(k, 30)
        row, col = divmod(cell, 5)
        colour = "white" if s[E.DIE_WHITE + d] else "grey"
        where = "AA gun row" if row == 0 else f"row {row}"
        r = int(b[B_CELL_ROOM + cell]) if row else -1
        # (a trace showed the next die with a value the roll never had)
        left = sum(1 for i in range(5) if i != d and s[E.DIE_CELL + i] < 0)
        rest = "the die not yet placed is" if left == 1 else f"the {left} dice not yet placed are"
        reroll = f"; {rest} rerolled (R1.2)" if colour == "white" and left else ""
        return f"place {colour} {s[E.DIE_VAL + d]} on column {col + 1} {where}{_room(b, r) if r >= 0 else ''}{reroll}"
    if kind == "six":
        return f"turn die {k} to 6"
    if kind == "room":
        return f"use room {k}{_room(b, k)}"
    if kind == "robot":
        cell, drop = divmod(k, 3)
        return f"robot on cell {cell}" + (f" replacing robot {drop - 1}" if drop else "")
    if kind == "spawn":
        return f"spawn on column {k + 1}"
    return {"six_skip": "no six", "excavate": "move the excavator", "end_rooms": "end the rooms phase",
            "robot_decline": "no robot"}[kind]


def _room(b: np.ndarray, r: int) -> str:
    return f" ({_ROOM[b[B_ROOM_KIND + r]]}{int(b[B_ROOM_MOD + r]):+d} c{b[B_ROOM_COST + r]})"


def describe_state(params, s: np.ndarray, b: np.ndarray) -> str:
    ships = {}
    for i in range(E.NSHIPS):
        row = int(s[E.SHIP_ROW + i])
        if row >= 0:
            ships[(row if row > 0 else int(s[E.MS]), int(s[E.SHIP_COL + i]))] = "w" if i >= 5 else "p"
    lines = [
        f"round {s[E.ROUND]}  mothership row {s[E.MS]} (skull {s[E.SKULL]})  damage {s[E.DAMAGE]}  "
        f"energy {s[E.ENERGY]}  research {s[E.RESEARCH]}/{s[E.RLEN]}  excavator {s[E.EXCAV]}  shot {s[E.SHOT]}"
    ]
    waiting = sum(1 for i in range(E.NSHIPS) if s[E.SHIP_ROW + i] == E.ROW_WAITING)
    lines.append(f"  landing row {s[E.MS]}: " + " ".join(ships.get((int(s[E.MS]), c), ".") for c in range(5)) + f"   waiting {waiting}")
    for row in range(int(s[E.MS]) + 1, E.SKY_ROWS + 1):
        cells = []
        for c in range(5):
            k = int(s[E.SKY_KIND + row * 5 + c])
            txt = _KIND.get(k, ".") + (str(s[E.SKY_NUM + row * 5 + c]) if k == EXPLOSION else "")
            if (row, c) in ships:
                txt = ships[(row, c)].upper() + txt
            cells.append(f"{txt:>4}")
        lines.append(f"  {row:2d} " + "".join(cells))
    dice = " ".join(("W" if s[E.DIE_WHITE + d] else "g") + str(s[E.DIE_VAL + d]) + ("*" if s[E.DIE_CELL + d] >= 0 else "") for d in range(5))
    lines.append(f"  dice {dice}")
    return "\n".join(lines)


def describe_result(params, s: np.ndarray, b: np.ndarray) -> str:
    result = {E.R_WON: "won", E.R_DAMAGE: "lost: damage", E.R_MOTHERSHIP: "lost: the mothership reached the skull"}[int(s[E.RESULT])]
    return f"{result} in round {s[E.ROUND]}"


def invariants(s: np.ndarray, b: np.ndarray) -> list[str]:
    """Broken invariants (empty when all hold): pieces conserved, tracks in range."""
    bad = []
    rows = s[E.SHIP_ROW:E.SHIP_ROW + E.NSHIPS]
    cols = s[E.SHIP_COL:E.SHIP_COL + E.NSHIPS]
    if (rows[:5] < E.ROW_WAITING).any():
        bad.append("a purple ship left the game")
    whites = rows[5:]
    if int((whites == E.ROW_RESERVE).sum()) != s[E.WHITE_RESERVE]:
        bad.append("white reserve count differs from the white ships in reserve")
    if (rows > E.SKY_ROWS).any():
        bad.append("a ship is below the sky")
    on_board = [(int(r), int(c)) for r, c in zip(rows, cols) if r >= 1]
    if len(set(on_board)) != len(on_board):
        bad.append("two ships share a sky cell")
    sites = [int(c) for r, c in zip(rows, cols) if r == E.ROW_SITE]
    if len(set(sites)) != len(sites):
        bad.append("two ships share a landing site")
    if any(r <= s[E.MS] for r in rows if r >= 1) and s[E.PHASE] != E.P_OVER:
        bad.append("a ship is in a row the mothership covers")
    if not 0 <= s[E.DAMAGE] <= b[B_DMAX]:
        bad.append(f"damage {s[E.DAMAGE]} out of range")
    if not 0 <= s[E.ENERGY] <= b[B_EMAX]:
        bad.append(f"energy {s[E.ENERGY]} out of 0..{b[B_EMAX]}")
    if not 0 <= s[E.RESEARCH] <= s[E.RLEN]:
        bad.append("research marker off its track")
    if not b[B_EXCAV_START] <= s[E.EXCAV] <= 25:
        bad.append("excavator off its path")
    robots = [k for k in range(2) if s[E.ROBOT_VAL + k] > 0]
    if len(robots) > b[B_MAX_ROBOTS]:
        bad.append("too many robots")
    for k in robots:
        if not 1 <= s[E.ROBOT_VAL + k] <= 6:
            bad.append("a robot die shows an impossible value")
    if s[E.PHASE] != E.P_OVER:
        if s[E.MS] >= s[E.SKULL]:
            bad.append("the mothership reached the skull but the game goes on")
        if s[E.DAMAGE] >= b[B_DMAX]:
            bad.append("damage reached the limit but the game goes on")
        if s[E.RESEARCH] >= s[E.RLEN]:
            bad.append("research reached the top but the game goes on")
    kinds = s[E.SKY_KIND + 5:E.SKY_KIND + (E.SKY_ROWS + 1) * 5].reshape(E.SKY_ROWS, 5)  # sky rows 1-16
    row_bits = 1 << np.arange(1, E.SKY_ROWS + 1)
    masks = np.array([row_bits @ (kinds == kind) for kind in range(5)]).ravel()  # [kind * 5 + col]
    wrong = np.flatnonzero(masks != s[E.SKY_MASK:E.SKY_MASK + 25])
    if wrong.size:
        kind, c = divmod(int(wrong[0]), 5)
        bad.append(f"the sky masks differ from the sky (kind {kind}, column {c + 1})")
    if (s[E.DIE_VAL:E.DIE_VAL + 5] < 1).any() or (s[E.DIE_VAL:E.DIE_VAL + 5] > 6).any():
        bad.append("a die shows an impossible value")
    return bad
