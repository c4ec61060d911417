"""Search: tries its best dice placements out on copies of the state, and keeps the one
whose round ends best.

At each die to place, the candidates are every distinct die (value and colour) in every
free column, on the cell the planner's table rates best for it there; the planner's own
choice comes first, the others follow in the order of their immediate value. Each
candidate is played on a copy of the state, and the round is finished by the planner
(the remaining dice), greedy's rooms phase, the mothership phase and the spawn, down to
the start of the next round. The position reached is scored by a learned estimate of the
chance of winning from it (``value.py``), or 1 / 0 if the game ended.

The dice the copy needs (white dice reroll the dice not yet placed; the next round's roll)
are drawn from a stream seeded from the bot's own stream: the search never sees the
game's chance stream (determinization). Every candidate of one sample sees the same dice
(common random numbers), so candidates are compared as pairs.

The budget (``search:budget=N``) is the number of such simulations per die placed:
with a budget below the number of candidates only the first ``budget`` candidates are
tried, one simulation each; otherwise the budget is shared by the rounds of sequential
halving (Karnin et al. 2013; ``strategies/kernel.py``, shared with the other searching
bots), each simulating the candidates still alive on fresh dice and dropping the worse
half. ``budget=1`` is the planner itself. The other decisions (rooms, robots, spawn ties,
Washington's six) are the planner's: searching them with this estimate lost strength in
trials.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.game import Number
from simkit.games.ufs.engine import A_PLACE, COL_USED, DIE_CELL, DIE_VAL, DIE_WHITE, MAX_ACTIONS, P_OVER, P_PLACE, PHASE, ROUND, apply_action
from simkit.rng import BOT, next_u64
from strategies.kernel import sequential_halving

from . import planner
from .greedy import DEFAULT_WEIGHTS
from .planner import F_CELL, F_SCORE
from .value import N_LIN, N_TABLES, WEIGHTS, win_chance

BUDGET = Number(lo=1, hi=4096, default=16, shift=0, help="simulations per die placed (1: the planner itself)")
BUDGET_SHIFT = BUDGET.shift
BUDGET_MASK = (1 << BUDGET.bits) - 1


@njit
def budget_of(flags):
    return (flags >> BUDGET_SHIFT) & BUDGET_MASK


@njit
def candidates(s, b, ib, fb, cand, prior):
    """The placements to try, best first: the planner's, then the best cell of every other
    distinct die in every free column by its immediate value. Returns how many."""
    first = planner.plan_roll(s, b, DEFAULT_WEIGHTS, ib, fb)  # also fills the planner's table in fb
    cand[0] = first
    prior[0] = np.inf
    n = 1
    for d in range(5):
        if s[DIE_CELL + d] >= 0:
            continue
        same = False
        for e in range(d):  # a die like an earlier unplaced one offers the same moves
            if s[DIE_CELL + e] < 0 and s[DIE_VAL + e] == s[DIE_VAL + d] and s[DIE_WHITE + e] == s[DIE_WHITE + d]:
                same = True
        if same:
            continue
        for col in range(5):
            if s[COL_USED + col] != 0:
                continue
            a = A_PLACE + d * 30 + int(fb[F_CELL + d * 5 + col])
            if a == first:
                continue
            cand[n] = a
            prior[n] = fb[F_SCORE + d * 5 + col]
            n += 1
    for i in range(1, n):  # insertion sort, stable: best prior first
        j = i
        while j > 1 and prior[j] > prior[j - 1]:
            prior[j], prior[j - 1] = prior[j - 1], prior[j]
            cand[j], cand[j - 1] = cand[j - 1], cand[j]
            j -= 1
    return n


@njit
def simulate(s, a, t, r, seed0, seed2, b, ib, fb, w, hot, lin):
    """Plays ``a`` on a copy of ``s``, the planner to the start of the next round, on dice
    drawn from (``seed0``, ``seed2``); the chance of winning from there."""
    for i in range(s.shape[0]):
        t[i] = s[i]
    r[0] = seed0  # the copy's chance stream ...
    r[1] = 0
    r[2] = seed2  # ... and the seed its round restarts draw from
    this_round = s[ROUND]
    apply_action(t, r, b, a)
    while t[PHASE] != P_OVER and t[ROUND] == this_round:
        apply_action(t, r, b, planner.choose(t, r, b, ib, fb, 0))
    return win_chance(t, b, w, hot, lin)


@njit
def new_dice(ctx):
    """Fresh dice for the next candidates: the seeds of the copy's chance stream and of its
    round restarts, drawn from the bot stream (``ctx``: see ``choose_with``)."""
    s, cand, t, r, seeds, rng, b, ib, fb, w, hot, lin = ctx
    seeds[0] = next_u64(rng, BOT)
    seeds[1] = next_u64(rng, BOT)


@njit
def play(ctx, c):
    """Candidate ``c`` simulated on the current dice."""
    s, cand, t, r, seeds, rng, b, ib, fb, w, hot, lin = ctx
    return simulate(s, cand[c], t, r, seeds[0], seeds[1], b, ib, fb, w, hot, lin)


halve = sequential_halving(new_dice, play)


@njit
def choose_with(s, rng, b, ib, fb, w, budget):
    if s[PHASE] != P_PLACE or budget <= 1:
        return planner.choose(s, rng, b, ib, fb, 0)
    cand = np.empty(MAX_ACTIONS, np.int32)
    prior = np.empty(MAX_ACTIONS, np.float64)
    n = candidates(s, b, ib, fb, cand, prior)
    if n == 1:
        return cand[0]
    k = min(n, budget)
    total = np.empty(k, np.float64)
    alive = np.empty(k, np.int32)
    t = np.empty(s.shape[0], np.int32)
    r = np.zeros(3, np.uint64)
    seeds = np.empty(2, np.uint64)
    hot = np.empty(N_TABLES, np.int32)
    lin = np.empty(N_LIN, np.float64)
    ctx = (s, cand, t, r, seeds, rng, b, ib, fb, w, hot, lin)
    return cand[halve(n, budget, total, alive, ctx)]


@njit
def choose(s, rng, b, ib, fb, flags):
    return choose_with(s, rng, b, ib, fb, WEIGHTS, budget_of(flags))
