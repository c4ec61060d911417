"""Text for traces and notebooks, and the invariants checked after every step."""

from __future__ import annotations

import numpy as np

from . import engine as E
from .board import B_DICE, B_NFACES, B_PLAYERS, B_WILD

NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
           "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]


def _seats(b: np.ndarray) -> range:
    return range(int(b[B_PLAYERS]))


def _dice(s: np.ndarray, p: int) -> int:
    return int(s[E.PLAYER + p * E.P_STRIDE + E.P_DICE])


def _faces(s: np.ndarray, p: int) -> list[int]:
    at = E.PLAYER + p * E.P_STRIDE + E.P_FACES
    return [int(x) for x in s[at:at + _dice(s, p)]]


def _bid(q: int, f: int) -> str:
    return f"{NUMBERS[q] if q < len(NUMBERS) else q} {f}" + ("s" if q != 1 else "")


def describe_action(params, s: np.ndarray, b: np.ndarray, a: int) -> str:
    name, i = E.ACTIONS.decode(int(a))
    if name == "liar":
        return f"calls liar on {_bid(int(s[E.BID_Q]), int(s[E.BID_F]))}"
    return f"bid {_bid(i // E.MAX_FACES + 1, i % E.MAX_FACES + 1)}"


def describe_step(params, before: np.ndarray, after: np.ndarray, b: np.ndarray, a: int) -> str:
    if a != E.A_LIAR:
        return describe_action(params, before, b, a)
    q, f = int(before[E.BID_Q]), int(before[E.BID_F])
    count = sum(x == f or (b[B_WILD] and f != 1 and x == 1) for p in _seats(b) for x in _faces(before, p))
    loser = next(p for p in _seats(b) if _dice(after, p) < _dice(before, p))
    what = f"{f} or 1" if b[B_WILD] and f != 1 else f"{f}"
    rolled = "; ".join(f"seat {p + 1} {' '.join(map(str, _faces(before, p)))}" for p in _seats(b) if _dice(before, p))
    verdict = "the bid stands" if count >= q else "the bid was a lie"
    out = (f"calls liar on {_bid(q, f)}: {count} {'die shows' if count == 1 else 'dice show'} {what}, {verdict}; "
           f"seat {loser + 1} loses a die" + (" and is out" if _dice(after, loser) == 0 else ""))
    return f"{out}; revealed: {rolled}"


def describe_state(params, s: np.ndarray, b: np.ndarray) -> str:
    counts = ", ".join(str(_dice(s, p)) for p in _seats(b))
    if s[E.OVER]:
        winner = next(p for p in _seats(b) if s[E.PLAYER + p * E.P_STRIDE + E.P_WON])
        return f"over after {s[E.ROUNDS]} rounds: seat {winner + 1} wins; dice {counts}"
    bid = f"standing bid {_bid(int(s[E.BID_Q]), int(s[E.BID_F]))} by seat {s[E.BIDDER] + 1}" if s[E.BID_Q] else "no bid yet"
    lines = [f"round {s[E.ROUNDS]}: seat {s[E.TURN] + 1} to play; dice {counts}; {bid}"
             + ("; ones wild" if b[B_WILD] else "")]
    lines += [f"  seat {p + 1} holds {' '.join(map(str, _faces(s, p)))}" for p in _seats(b) if _dice(s, p)]
    return "\n".join(lines)


def invariants(s: np.ndarray, b: np.ndarray) -> list[str]:
    bad = []
    seats = _seats(b)
    dice = [_dice(s, p) for p in seats]
    if any(not 0 <= d <= b[B_DICE] for d in dice):
        bad.append(f"dice counts {dice} outside 0..{b[B_DICE]}")
    # every seat's losses are its starting dice minus what it has: one die per call (R4.3)
    lost = sum(int(b[B_DICE]) - d for d in dice)
    if lost != s[E.ROUNDS] - (0 if s[E.OVER] else 1):
        bad.append(f"{lost} dice lost after {s[E.ROUNDS]} rounds")
    winners = sum(int(s[E.PLAYER + p * E.P_STRIDE + E.P_WON]) for p in seats)
    alive = [p for p in seats if dice[p] > 0]
    if s[E.OVER]:
        if winners != 1 or len(alive) != 1 or not s[E.PLAYER + alive[0] * E.P_STRIDE + E.P_WON]:
            bad.append(f"over with {winners} winners and {len(alive)} seats with dice")
    else:
        if winners:
            bad.append(f"{winners} winners before the end")
        if len(alive) < 2:
            bad.append("the game goes on with fewer than two seats holding dice")
        if not 0 <= s[E.TURN] < len(dice) or dice[s[E.TURN]] == 0:
            bad.append(f"seat {s[E.TURN] + 1} to move has no dice")
    for p in seats:
        faces = s[E.PLAYER + p * E.P_STRIDE + E.P_FACES:E.PLAYER + p * E.P_STRIDE + E.P_FACES + E.MAX_DICE]
        rolled = faces[:dice[p]]
        if s[E.OVER]:
            if faces.any():
                bad.append(f"seat {p + 1} shows faces after the end")
        elif rolled.size and not ((rolled >= 1) & (rolled <= b[B_NFACES])).all() or faces[dice[p]:].any():
            bad.append(f"seat {p + 1} holds faces {faces.tolist()} with {dice[p]} dice")
        if s[E.PLAYER + p * E.P_STRIDE + E.P_CALLS_WON] > s[E.PLAYER + p * E.P_STRIDE + E.P_CALLS]:
            bad.append(f"seat {p + 1} won more calls than it made")
    q, f = int(s[E.BID_Q]), int(s[E.BID_F])
    if q == 0:
        if f != 0 or s[E.BIDDER] != -1:
            bad.append("a bidder or face with no standing bid")
    elif not (q <= sum(dice) and (2 if b[B_WILD] else 1) <= f <= b[B_NFACES] and 0 <= s[E.BIDDER] < len(dice)
              and dice[s[E.BIDDER]] > 0 and s[E.BIDDER] != s[E.TURN]):
        bad.append(f"standing bid ({q}, {f}) by seat {s[E.BIDDER] + 1} is not a legal bid")
    if not 0 <= s[E.CHANCE_N] <= sum(dice):
        bad.append(f"{s[E.CHANCE_N]} chance values logged with {sum(dice)} dice in play")
    return bad
