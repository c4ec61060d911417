"""Planner: assigns the whole roll at once.

For every unplaced die and free column it finds the column's best cell with the
greedy bot's evaluation, then searches all assignments of the dice to the free
columns (at most 5! = 120) for the best total, instead of placing dice one by one.
It then places a grey die of the best assignment (a white die rerolls the others,
so whites go last) and plans again at the next decision. The rooms phase, robots
and spawning are the greedy bot's.
"""

from __future__ import annotations

from simkit.games.ufs.engine import A_PLACE, COL_USED, DIE_CELL, DIE_VAL, DIE_WHITE, P_PLACE, PHASE
from simkit.jit import kernel

from . import greedy
from .greedy import DEFAULT_WEIGHTS, column_best, projection, survey

# Float scratch: score[d * 5 + col] and cell[d * 5 + col] of the (die, column) table.
F_SCORE = 0
F_CELL = 32
# Int scratch past the greedy bot's: dice to assign, the current and best column orders.
I_DICE, I_PERM, I_BEST, I_C = 200, 210, 220, 230


@kernel
def plan_roll(s, b, w, ib, fb):
    """The action placing the next die of the best assignment of the current roll."""
    energy, research, jets = projection(s, b, ib)
    survey(s, w, ib, fb)
    dice = 0
    cols = 0
    for d in range(5):
        if s[DIE_CELL + d] < 0:
            dice |= 1 << d
        if s[COL_USED + d] == 0:
            cols |= 1 << d
    for d in range(5):
        if not (dice >> d) & 1:
            continue
        same = -1
        for e in range(d):  # a die like an earlier one has the same options
            if (dice >> e) & 1 and s[DIE_VAL + e] == s[DIE_VAL + d]:
                same = e
        for col in range(5):
            if not (cols >> col) & 1:
                continue
            if same >= 0:
                fb[F_SCORE + d * 5 + col] = fb[F_SCORE + same * 5 + col]
                fb[F_CELL + d * 5 + col] = fb[F_CELL + same * 5 + col]
            else:
                score, cell = column_best(s, b, w, ib, fb, s[DIE_VAL + d], col, energy, research, jets)
                fb[F_SCORE + d * 5 + col] = score
                fb[F_CELL + d * 5 + col] = cell
    # All assignments of the dice to the free columns (Heap's algorithm, iterative).
    k = 0
    for d in range(5):
        if (dice >> d) & 1:
            ib[I_DICE + k] = d
            k += 1
    k = 0
    for col in range(5):
        if (cols >> col) & 1:
            ib[I_PERM + k] = col
            ib[I_C + k] = 0
            k += 1
    best_total = _total(fb, ib, k)
    for j in range(k):
        ib[I_BEST + j] = ib[I_PERM + j]
    i = 1
    while i < k:
        if ib[I_C + i] < i:
            j = 0 if i % 2 == 0 else ib[I_C + i]
            t = ib[I_PERM + j]
            ib[I_PERM + j] = ib[I_PERM + i]
            ib[I_PERM + i] = t
            total = _total(fb, ib, k)
            if total > best_total:
                best_total = total
                for x in range(k):
                    ib[I_BEST + x] = ib[I_PERM + x]
            ib[I_C + i] += 1
            i = 1
        else:
            ib[I_C + i] = 0
            i += 1
    # Play a grey die of the best assignment first (whites reroll the others), the
    # one whose placement is worth most.
    pick = -1
    pick_col = -1
    for x in range(k):
        d = ib[I_DICE + x]
        col = ib[I_BEST + x]
        if pick < 0 or s[DIE_WHITE + d] < s[DIE_WHITE + pick] or (
            s[DIE_WHITE + d] == s[DIE_WHITE + pick] and fb[F_SCORE + d * 5 + col] > fb[F_SCORE + pick * 5 + pick_col]
        ):
            pick = d
            pick_col = col
    return A_PLACE + pick * 30 + int(fb[F_CELL + pick * 5 + pick_col])


@kernel
def _total(fb, ib, k):
    total = 0.0
    for x in range(k):
        total += fb[F_SCORE + ib[I_DICE + x] * 5 + ib[I_PERM + x]]
    return total


@kernel
def choose(s, rng, b, ib, fb, flags):
    if s[PHASE] == P_PLACE:
        return plan_roll(s, b, DEFAULT_WEIGHTS, ib, fb)
    return greedy.choose_with(s, b, DEFAULT_WEIGHTS, ib, fb)
