"""Pig: on your turn roll a die as often as you like, adding up the pips; a 1 ends the
turn with nothing, holding banks the turn's total. First to the target wins."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...jit import entry, kernel
from ...rng import die, new_streams

TURN, TURN_TOTAL, TURNS, OVER, WINNER = range(5)
SCORE = 8  # one per player
SIZE = SCORE + 4
A_ROLL, A_HOLD = 0, 1
MAX_ACTIONS = 2


@njit
def init_state(seed, b):
    rng = new_streams(seed)
    s = np.zeros(SIZE, np.int32)
    s[WINNER] = -1
    return s, rng


@kernel
def legal_actions(s, b, out):
    out[0] = A_ROLL
    out[1] = A_HOLD
    return 2


@kernel
def _next_turn(s, b):
    s[TURN_TOTAL] = 0
    s[TURN] = (s[TURN] + 1) % b[0]
    s[TURNS] += 1


@kernel
def apply_action(s, rng, b, a):
    p = s[TURN]
    if a == A_ROLL:
        v = die(rng)
        if v == 1:
            _next_turn(s, b)
        else:
            s[TURN_TOTAL] += v
    else:
        s[SCORE + p] += s[TURN_TOTAL]
        if s[SCORE + p] >= b[1]:
            s[OVER] = 1
            s[WINNER] = p
        else:
            _next_turn(s, b)


new_game = entry(init_state)
legal = entry(legal_actions)
step = entry(apply_action)
