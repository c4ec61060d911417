"""Readable text of a state and an action, for debugging and ``simkit trace``."""

from __future__ import annotations

import numpy as np

from . import engine as E
from .board import B_CELL_ROOM, B_ROOM_COST, B_ROOM_KIND, B_ROOM_MOD, EXPLOSION, LEFT, MSHIP, RIGHT

_KIND = {EXPLOSION: "X", LEFT: "<", RIGHT: ">", MSHIP: "M"}
_ROOM = "EJRB"


def describe_action(s: np.ndarray, b: np.ndarray, a: int) -> str:
    a = int(a)
    if a < E.A_SIX:
        d, cell = divmod(a - E.A_PLACE, 30)
        row, col = divmod(cell, 5)
        colour = "white" if s[E.DIE_WHITE + d] else "grey"
        where = "AA" if row == 0 else f"row {row}"
        r = int(b[B_CELL_ROOM + cell]) if row else -1
        room = f" ({_ROOM[b[B_ROOM_KIND + r]]}{int(b[B_ROOM_MOD + r]):+d} c{b[B_ROOM_COST + r]})" if r >= 0 else ""
        return f"place {colour} {s[E.DIE_VAL + d]} on column {col + 1} {where}{room}"
    if a < E.A_EXCAVATE:
        return "no six" if a == E.A_SIX_SKIP else f"turn die {a - E.A_SIX} to 6"
    if a == E.A_EXCAVATE:
        return "move the excavator"
    if a == E.A_END:
        return "end the rooms phase"
    if a < E.A_ROBOT_DECLINE:
        r = a - E.A_ROOM
        return f"use room {r} ({_ROOM[b[B_ROOM_KIND + r]]}{int(b[B_ROOM_MOD + r]):+d} c{b[B_ROOM_COST + r]})"
    if a == E.A_ROBOT_DECLINE:
        return "no robot"
    if a < E.A_SPAWN:
        cell, drop = divmod(a - E.A_ROBOT, 3)
        return f"robot on cell {cell}" + (f" replacing robot {drop - 1}" if drop else "")
    return f"spawn on column {a - E.A_SPAWN + 1}"


def describe_state(s: np.ndarray) -> str:
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


def trace_game(params, bots, seed: int, index: int):
    """Lines describing game ``index`` of a run with root ``seed``, move by move."""
    from ...seeding import game_seeds
    from . import board as board_mod
    from .play import choose_one
    from strategies.ufs import SCRATCH

    b = board_mod.build(params)
    game_seed = game_seeds(seed, index, index + 1)[0]
    s, rng = E.new_game(game_seed, b)
    bot = bots[0]
    ib = np.zeros(SCRATCH, np.int32)
    fb = np.zeros(SCRATCH)
    buf = np.zeros(E.MAX_ACTIONS, np.int32)
    user_rng = np.random.default_rng(int(rng[1]))
    yield f"Under Falling Skies, game {index} of seed {seed} (game seed {game_seed}), bot {bot.name}"
    last = -1
    while s[E.PHASE] != E.P_OVER:
        if s[E.ROUND] != last:
            yield describe_state(s)
            last = s[E.ROUND]
        if bot.fn is None:
            a = choose_one(bot.code, bot.flags, s, rng, b, ib, fb)
        else:
            n = E.legal(s, b, buf)
            a = int(bot.fn(s.copy(), buf[:n].copy(), b, user_rng))
        yield "    " + describe_action(s, b, a)
        E.step(s, rng, b, a)
    yield describe_state(s)
    result = {1: "won", 2: "lost: damage", 3: "lost: the mothership reached the skull"}[int(s[E.RESULT])]
    yield f"{result} in round {s[E.ROUND]}"
