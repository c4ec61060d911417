"""Text for traces and notebooks, and the invariants checked after every step."""

from __future__ import annotations

import numpy as np

from . import engine as E
from .board import B_PLAYERS, B_TARGET


def _scores(s: np.ndarray, b: np.ndarray) -> list[int]:
    return [int(s[E.PLAYER + p * E.P_STRIDE + E.P_SCORE]) for p in range(b[B_PLAYERS])]


def describe_action(params, s: np.ndarray, b: np.ndarray, a: int) -> str:
    return {E.A_ROLL: "rolls", E.A_HOLD: f"holds {s[E.TURN_TOTAL]}"}[int(a)]


def describe_step(params, before: np.ndarray, after: np.ndarray, b: np.ndarray, a: int) -> str:
    if a == E.A_ROLL:
        bust = after[E.TURN] != before[E.TURN]
        return f"rolls {after[E.LAST_ROLL]}" + (": bust" if bust else f", turn total {after[E.TURN_TOTAL]}")
    return f"holds {before[E.TURN_TOTAL]}: score {_scores(after, b)[int(before[E.TURN])]}"


def describe_state(params, s: np.ndarray, b: np.ndarray) -> str:
    if s[E.OVER]:
        return f"over after {s[E.TURNS] + 1} turns; scores {_scores(s, b)}"
    return f"turn {s[E.TURNS] + 1}: seat {s[E.TURN] + 1} to play; scores {_scores(s, b)} (target {b[B_TARGET]})"


def invariants(s: np.ndarray, b: np.ndarray) -> list[str]:
    bad = []
    scores = _scores(s, b)
    if min(scores) < 0:
        bad.append("negative score")
    if not s[E.OVER] and max(scores) >= b[B_TARGET]:
        bad.append("a player reached the target but the game goes on")
    winners = sum(int(s[E.PLAYER + p * E.P_STRIDE + E.P_WON]) for p in range(b[B_PLAYERS]))
    if winners != (1 if s[E.OVER] else 0):
        bad.append(f"{winners} winners")
    return bad
