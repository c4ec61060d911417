"""A learned estimate of the chance of winning from a position at the start of a round.

The searching bot (``search.py``) plays each candidate move out to the start of the next
round and scores the position it reaches with this estimate: a logistic model over a few
tables and linear terms (a generalized additive model), small enough to read and fast
enough to call a few thousand times per game:

* one table over the pair (mothership rows left before the skull, research cost points
  still to climb in steps of 3): how much research is left against how many rounds remain;
* tables over the damage the base can still take, the energy, and the excavator's position;
* a table over (damage left, up to 4) x (ships within one die of the city, up to 5);
* linear terms: the ships' danger (greedy's expected hits next round), ships in the sky,
  waiting ships, white ships in play and in reserve, robot pips, mothership icons within
  six rows below the ships, damage and research-loss actions still ahead on the mothership
  track, and research cost left per mothership row left.

The weights (``value_weights.py``) are fitted by ``experiments/train_ufs_value.py``: maximum
likelihood with a ridge penalty on the tables, first on games of the planner, then on games
of the searching bot itself (one round of approximate policy iteration), over every city,
side and threat level 0-4.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from simkit.games.ufs.board import ACT_DAMAGE, ACT_RESEARCH, B_DMAX, MSHIP
from simkit.games.ufs.engine import (
    DAMAGE, ENERGY, EXCAV, MS, MS_AMT, MS_KIND, NSHIPS, P_OVER, PHASE, R_WON, RCOST, RESEARCH, RESULT, RLEN,
    ROBOT_VAL, SHIP_COL, SHIP_ROW, SKULL, SKY_KIND, SKY_ROWS, WHITE_RESERVE,
)
from simkit.jit import kernel

from . import value_weights
from .greedy import DANGER_ROW

# ---- feature layout: five one-hot tables, then linear terms, then the bias ----------------
N_MS = 12  # mothership rows left, 1 .. 12
N_COST = 22  # research cost points left, in steps of 3 (the last bucket holds the rest)
T_RACE = 0  # [ms_left - 1, cost // 3]
T_DAMAGE = T_RACE + N_MS * N_COST  # damage left, 1 .. 8
T_ENERGY = T_DAMAGE + 9  # energy, 0 .. 9
T_EXCAV = T_ENERGY + 10  # excavator path position, 0 .. 25
T_THREAT = T_EXCAV + 26  # [min(damage left, 4) - 1, ships in reach of the city (0 .. 5)]
N_HOT = T_THREAT + 4 * 6
N_TABLES = 5
(L_DANGER, L_IN_SKY, L_WAITING, L_WHITES, L_RESERVE, L_ROBOTS, L_ICONS, L_DAMAGE_AHEAD, L_RESEARCH_AHEAD,
 L_PACE) = range(10)
N_LIN = 10
N_WEIGHTS = N_HOT + N_LIN + 1  # the last weight is the bias

# The fitted weights live in a Python module, not a data file: they are compiled into the
# bot, so they must count in the game's compile cache and outcome hash (which hash its .py files).
WEIGHTS_FILE = Path(__file__).with_name("value_weights.py")
WEIGHTS = np.array(value_weights.WEIGHTS, np.float64)
if WEIGHTS.shape != (N_WEIGHTS,):
    raise ValueError(f"{WEIGHTS_FILE}: {WEIGHTS.shape[0]} weights, the features need {N_WEIGHTS}")


@kernel
def features(s, b, hot, lin):
    """The position's features: ``hot[0:5]`` the cells of the five tables (indices into the
    weights), ``lin[0:N_LIN]`` the linear terms."""
    ms_left = min(max(s[SKULL] - s[MS], 1), N_MS)
    cost = 0
    for x in range(s[RESEARCH] + 1, s[RLEN] + 1):
        cost += s[RCOST + x]
    hot[0] = T_RACE + (ms_left - 1) * N_COST + min(cost // 3, N_COST - 1)
    damage_left = min(max(b[B_DMAX] - s[DAMAGE], 1), 8)
    hot[1] = T_DAMAGE + damage_left
    hot[2] = T_ENERGY + min(s[ENERGY], 9)
    hot[3] = T_EXCAV + min(s[EXCAV], 25)
    danger = 0.0
    in_sky = 0
    waiting = 0
    near = 0
    whites = 0
    icons = 0
    for i in range(NSHIPS):
        row = s[SHIP_ROW + i]
        if row >= 1:
            in_sky += 1
            if row >= DANGER_ROW:
                danger += (row - DANGER_ROW + 1) / 6.0
                near += 1
            col = s[SHIP_COL + i]
            for r in range(row + 1, min(row + 6, SKY_ROWS) + 1):
                if s[SKY_KIND + r * 5 + col] == MSHIP:
                    icons += 1
        elif row == 0 or row == -1:  # on a landing site or waiting aboard
            waiting += 1
        if i >= 5 and row >= -1:
            whites += 1
    hot[4] = T_THREAT + (min(damage_left, 4) - 1) * 6 + min(near, 5)
    damage_ahead = 0
    research_ahead = 0
    for r in range(s[MS] + 1, s[SKULL]):
        kind = s[MS_KIND + r]
        if kind == ACT_DAMAGE:
            damage_ahead += s[MS_AMT + r]
        elif kind == ACT_RESEARCH:
            research_ahead += s[MS_AMT + r]
    lin[L_DANGER] = danger
    lin[L_IN_SKY] = in_sky
    lin[L_WAITING] = waiting
    lin[L_WHITES] = whites
    lin[L_RESERVE] = s[WHITE_RESERVE]
    lin[L_ROBOTS] = s[ROBOT_VAL] + s[ROBOT_VAL + 1]
    lin[L_ICONS] = icons
    lin[L_DAMAGE_AHEAD] = damage_ahead
    lin[L_RESEARCH_AHEAD] = research_ahead
    lin[L_PACE] = cost / (ms_left + 0.5)


@kernel
def win_chance(s, b, w, hot, lin):
    """The chance of winning from ``s``: 1 or 0 once the game is over, else the model's."""
    if s[PHASE] == P_OVER:
        return 1.0 if s[RESULT] == R_WON else 0.0
    features(s, b, hot, lin)
    z = w[N_WEIGHTS - 1]
    for k in range(N_TABLES):
        z += w[hot[k]]
    for k in range(N_LIN):
        z += w[N_HOT + k] * lin[k]
    return 1.0 / (1.0 + math.exp(-z))

