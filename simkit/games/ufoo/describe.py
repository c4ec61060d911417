"""Readable text of a Ufo.O game (``simkit trace``, notebooks) and the invariants the
conformance suite checks after every step (docs/rules/ufo-o.md, "Invariants")."""

from __future__ import annotations

import numpy as np

from . import board as B
from . import engine as E

STATUS = {E.ST_BOARD: "board", E.ST_DESTROYED: "destroyed", E.ST_DOCKED: "docked", E.ST_READY: "ready"}
SEAT_NAMES = ("A", "B")


def _u(s: np.ndarray, p: int, field: int, k: int) -> int:
    return int(s[E.SEAT + p * E.S_STRIDE + field + k])


def _seat(s: np.ndarray, p: int, field: int) -> int:
    return int(s[E.SEAT + p * E.S_STRIDE + field])


def _cell(b: np.ndarray, c: int) -> str:
    return B.cell_name(b, int(c))


def _ufo(s: np.ndarray, b: np.ndarray, p: int, k: int) -> str:
    """``A2 (4,4) damaged``, ``B1 (docked)``: side letter, UFO number, its hex (or its status off
    the board) and its side up."""
    st = _u(s, p, E.S_STATUS, k)
    where = _cell(b, _u(s, p, E.S_CELL, k)) if st == E.ST_BOARD else f"({STATUS.get(st, f'status {st}')})"
    return f"{SEAT_NAMES[p]}{k} {where}" + (" damaged" if _u(s, p, E.S_DAMAGED, k) else "")


def describe_action(params, s: np.ndarray, b: np.ndarray, a: int) -> str:
    kind, i = E.ACTIONS.decode(a)
    p = int(s[E.ACTIVE])
    o = 1 - p
    if kind == "move":
        k, c = divmod(i, E.MAX_CELLS)
        return f"moves {_ufo(s, b, p, k)} to {_cell(b, c)}"
    if kind in ("laser", "ion"):
        k, j = divmod(i, E.UFOS)
        weapon = "lasers" if kind == "laser" else "ion cannon"
        return f"{_ufo(s, b, p, k)} fires its {weapon} at {_ufo(s, b, o, j)}"
    if kind == "ion_ms":
        return f"{_ufo(s, b, p, i)} fires its ion cannon at mothership {SEAT_NAMES[o]}"
    if kind == "repair":
        return f"{_ufo(s, b, p, i)} tries to repair"
    if kind == "push":
        ls, lk = int(s[E.PUSH_SEAT]), int(s[E.PUSH_UFO])
        return f"pushes {_ufo(s, b, ls, lk)} to {_cell(b, i)}"
    return {"end_move": "ends the movement", "volley": f"mothership {SEAT_NAMES[p]} fires its lasers",
            "end_turn": "ends the turn", "no_push": "does not push", "crash": "pushes the loser to its destruction"}[kind]


def describe_step(params, before: np.ndarray, after: np.ndarray, b: np.ndarray, a: int) -> str:
    """The action, the dice it rolled (forced steps after it included) and what changed."""
    text = describe_action(params, before, b, a)
    n = int(after[E.CHANCE_N])
    if n:
        dice = [int(x) for x in after[E.CHANCE_LOG:E.CHANCE_LOG + min(n, E.LOG_SIZE)]]
        text += f"; dice {dice}"
    changes = []
    for p in range(E.SEATS):
        for k in range(E.UFOS):
            was = (_u(before, p, E.S_STATUS, k), _u(before, p, E.S_DAMAGED, k))
            now = (_u(after, p, E.S_STATUS, k), _u(after, p, E.S_DAMAGED, k))
            if was != now and not (was[0] != E.ST_BOARD and now[0] != E.ST_BOARD):
                if now[0] != E.ST_BOARD:  # destroyed (already docked if its owner's turn began)
                    changes.append(f"{SEAT_NAMES[p]}{k} destroyed")
                elif now[0] == E.ST_BOARD and was[0] == E.ST_BOARD:
                    changes.append(f"{SEAT_NAMES[p]}{k} {'damaged' if now[1] else 'repaired'}")
        if _seat(after, p, E.S_STRUCTURE) != _seat(before, p, E.S_STRUCTURE):
            changes.append(f"mothership {SEAT_NAMES[p]} structure {_seat(after, p, E.S_STRUCTURE)}")
    if int(after[E.PHASE]) == E.PH_PUSH and int(before[E.PHASE]) != E.PH_PUSH:
        n = int(after[E.PUSH_LEN])
        changes.append(f"seat {int(after[E.PUSH_WINNER]) + 1} may push {_ufo(after, b, int(after[E.PUSH_SEAT]), int(after[E.PUSH_UFO]))} "
                       f"{n} {'hex' if n == 1 else 'hexes'}")
    return text + ("; " + ", ".join(changes) if changes else "")


def describe_state(params, s: np.ndarray, b: np.ndarray) -> str:
    """The turn, then one line per side: its mothership's structure and its UFOs."""
    if s[E.OVER]:
        head = f"game over after turn {int(s[E.TURN])}"
    else:
        head = f"turn {int(s[E.TURN])}: seat {int(s[E.ACTIVE]) + 1} ({SEAT_NAMES[int(s[E.ACTIVE])]}) to play"
    sides = [f"  {SEAT_NAMES[p]} (seat {p + 1}): structure {_seat(s, p, E.S_STRUCTURE)}; UFOs "
             + ", ".join(_ufo(s, b, p, k) for k in range(E.UFOS)) for p in range(E.SEATS)]
    return "\n".join([head] + sides)


def describe_setup(params, s: np.ndarray, b: np.ndarray) -> str:
    first = int(s[E.FIRST_SEAT])
    how = "by the die roll" if params.first_player == "roll" else "set by first_player"
    return (f"seat 1 plays side {SEAT_NAMES[0]}, seat 2 side {SEAT_NAMES[1]}; "
            f"seat {first + 1} ({SEAT_NAMES[first]}) plays first ({how})")


def describe_result(params, s: np.ndarray, b: np.ndarray) -> str:
    if s[E.DRAW]:
        return f"draw: the turn cap ({int(b[B.B_TURN_CAP])} turns) ended the game"
    w = int(s[E.WINNER])
    return f"seat {w + 1} ({SEAT_NAMES[w]}) destroyed mothership {SEAT_NAMES[1 - w]} in turn {int(s[E.TURN])}"


def invariants(s: np.ndarray, b: np.ndarray) -> list[str]:
    bad = []
    ncells = int(b[B.B_NCELLS])
    seen: dict[int, str] = {}
    active = int(s[E.ACTIVE])
    for p in range(E.SEATS):
        for k in range(E.UFOS):
            st, c = _u(s, p, E.S_STATUS, k), _u(s, p, E.S_CELL, k)
            name = f"{SEAT_NAMES[p]}{k}"
            if st not in STATUS:
                bad.append(f"{name}: unknown status {st}")
            elif st == E.ST_BOARD:
                if not 0 <= c < ncells or b[B.B_TERRAIN + c] != B.T_OPEN:
                    bad.append(f"{name} on cell {c}, which is not a hex of play")
                if c in seen:
                    bad.append(f"{name} shares {_cell(b, c)} with {seen[c]}")
                seen[c] = name
            elif c != -1 or _u(s, p, E.S_DAMAGED, k):
                bad.append(f"{name} is off the board but has a cell or is damaged")
            if p != active and (_u(s, p, E.S_MOVED, k) or _u(s, p, E.S_ACTED, k)):
                bad.append(f"{name} has turn flags outside its turn")
            acted = _u(s, p, E.S_ACTED, k)
            if acted & E.ACT_REPAIR and acted & E.ACT_UFO:
                bad.append(f"{name} both attacked and repaired")
    structures = [_seat(s, p, E.S_STRUCTURE) for p in range(E.SEATS)]
    first = int(s[E.FIRST_SEAT])
    for p in range(E.SEATS):
        bonus = int(b[B.B_SECOND_STRUCTURE]) if p != first else 0  # K3 (a compensation)
        if not 0 <= structures[p] <= int(b[B.B_STRUCTURE + p]) + bonus:
            bad.append(f"mothership {SEAT_NAMES[p]} structure {structures[p]} out of range")
    zero = [p for p in range(E.SEATS) if structures[p] == 0]
    over, draw, winner = int(s[E.OVER]), int(s[E.DRAW]), int(s[E.WINNER])
    if over != (1 if zero or draw else 0):
        bad.append("the game is over exactly when a structure is 0 or the turn cap drew it")
    if zero and (draw or winner != 1 - zero[0]):
        bad.append("a destroyed mothership but the winner is not its opponent")
    if not zero and winner != -1:
        bad.append("a winner without a destroyed mothership")
    won = [_seat(s, p, E.S_WON) for p in range(E.SEATS)]
    if won != [int(winner == p) for p in range(E.SEATS)]:
        bad.append("won flags differ from the winner")
    if not 1 <= int(s[E.TURN]) <= int(b[B.B_TURN_CAP]):
        bad.append(f"turn {int(s[E.TURN])} outside 1..turn_cap")
    phase = int(s[E.PHASE])
    if phase == E.PH_PUSH:
        if int(s[E.TO_MOVE]) != int(s[E.PUSH_WINNER]):
            bad.append("a push is pending but its winner is not to move")
        ls, lk = int(s[E.PUSH_SEAT]), int(s[E.PUSH_UFO])
        if _u(s, ls, E.S_STATUS, lk) != E.ST_BOARD or int(s[E.PUSH_WINNER]) != 1 - ls:
            bad.append("the pending push's loser is not on the board or the winner is its own side")
    elif not over and int(s[E.TO_MOVE]) != active:
        bad.append("the seat to move is not the active player")
    if not over and phase not in (E.PH_MOVE, E.PH_ATTACK, E.PH_PUSH):
        bad.append(f"unknown phase {phase}")
    if over and phase != E.PH_OVER:
        bad.append("the game is over but the phase is not")
    if int(s[E.TURN]) == 1 and not over:  # K1 (a compensation): the first player's first turn
        moved = sum(_u(s, first, E.S_MOVED, k) for k in range(E.UFOS))
        if moved > int(b[B.B_FIRST_TURN_UFOS]):
            bad.append(f"{moved} UFOs moved in turn 1 with first_turn_ufos={int(b[B.B_FIRST_TURN_UFOS])}")
    if b[B.B_ATTACKS_ONE]:
        attacks = sum(1 for k in range(E.UFOS) if _u(s, active, E.S_ACTED, k) & E.ACT_UFO)
        if attacks > 1 or int(s[E.ATTACKS_MADE]) > 1:
            bad.append("more than one attack this turn with attacks_per_turn=one")
    if int(s[E.CHANCE_N]) > E.LOG_SIZE:
        bad.append("a step rolled more dice than the chance log holds")
    if int(s[E.FIRST_SEAT]) not in (0, 1) or [_seat(s, p, E.S_FIRST) for p in range(E.SEATS)] != [int(s[E.FIRST_SEAT]) == p for p in range(E.SEATS)]:
        bad.append("first-player flags are inconsistent")
    return bad
