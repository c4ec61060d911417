"""Greedy: a one-step heuristic.

Dice are placed one at a time, grey before white (a white die rerolls the others,
so it is better kept for last) and high before low. Each die goes to the cell where
its immediate gain is largest: what its room yields this round (research cost points
climbed, ships in the jets' reach, energy, a robot, digging) plus what moving the
column's ships does (hits, mothership icons, explosions reached, ships left close to
the city). The rooms phase spends energy where it buys most, trying the orders of
the research rooms. All gains are in "research cost points".

It is the default bot, so it is written for speed: no allocation, small inlined
helpers, and only the chosen die's options are scored.
"""

from __future__ import annotations

import numpy as np

from simkit.games.ufs.board import (
    B_CELL_KIND,
    B_CELL_POS,
    B_CELL_ROOM,
    B_DMAX,
    B_EMAX,
    B_MAX_ROBOTS,
    B_NROOMS,
    B_PATH_CELL,
    B_ROBOTS_ON,
    B_ROOM_COST,
    B_ROOM_KIND,
    B_ROOM_MOD,
    B_ROOM_NCELLS,
    CELL_ROOM,
    EXPLOSION,
    LEFT,
    MSHIP,
    RIGHT,
    ROOM_ENERGY,
    ROOM_JETS,
    ROOM_RESEARCH,
    ROOM_ROBOT,
)
from simkit.games.ufs.engine import (
    A_END,
    A_EXCAVATE,
    A_PLACE,
    A_ROBOT,
    A_ROBOT_DECLINE,
    A_ROOM,
    A_SIX,
    A_SPAWN,
    AHEAD,
    CELL_DIE,
    COL_USED,
    DAMAGE,
    DIE_CELL,
    DIE_VAL,
    DIE_WHITE,
    ENERGY,
    EXCAV,
    MS,
    NSHIPS,
    P_PLACE,
    P_ROBOT,
    P_ROOMS,
    P_SPAWN,
    PENDING_ROBOT,
    PHASE,
    RCOST,
    RESEARCH,
    RLEN,
    ROBOT_EXH,
    ROBOT_VAL,
    SHIP_COL,
    SHIP_ROW,
    SKULL,
    SKY_KIND,
    SKY_NUM,
    SKY_ROWS,
    SKY_MASK,
    robot_at,
    robot_cell_ok,
    can_excavate,
    loaded_cell,
    research_after,
    robot_count,
    room_affordable,
    room_ready,
    spawn_sites,
)
from simkit.jit import inline_kernel, kernel, popcount

LOSS = -1.0e6
WIN = 1000.0

# Weights, as an array so that other bots (or a tuning run) can pass their own.
(W_HIT, W_MSHIP, W_DANGER, W_EXPLOSION, W_ENERGY, W_SHOT_PURPLE, W_SHOT_WHITE, W_ROBOT,
 W_DIG, W_PARTIAL, W_UNPAID) = range(11)
HAND_WEIGHTS = np.array([6.0, 4.0, 1.5, 0.6, 0.5, 1.5, 2.5, 0.6, 0.5, 0.35, 0.15])
# Tuned by the cross-entropy method (experiments/tune_ufs.py; objective: win rate + 0.05 x
# research progress, threat levels 0 and 1). First on Roswell alone, in two runs:
#   .venv/bin/python experiments/tune_ufs.py --from-hand --iterations 8 --population 24 --games 3000
#   .venv/bin/python experiments/tune_ufs.py --iterations 8 --population 24 --games 3000 --seed 11
# (0.056 with HAND_WEIGHTS, then 0.206, then 0.252); those weights were 2-6 points weaker in
# New York and Washington than they could be, so then over the three cities (normal sides):
#   .venv/bin/python experiments/tune_ufs.py --cities roswell,new_york,washington --games 2000 --seed 21
# (0.291 -> 0.311). On fresh seeds, paired, 20,000 games per cell: +0.6 to +6 points in New York
# and Washington at threat 0-2 (all significant after Holm), -1.7 points Roswell normal at
# threat 0 (significant), no significant change in the other Roswell cells.
DEFAULT_WEIGHTS = np.array([2.092, 4.538, 1.488, 1.478, 0.93, 2.233, 3.563, 0.705, 1.566, 0.777, 0.147])

# Integer scratch (the game loop hands each bot an int32 and a float64 array).
I_ROOMS = 0  # rooms loaded this round
I_FILL = 16  # per room: value of its filled cells
I_EMPTY = 48  # per room: cells still empty
# The ships as one decision sees them (``survey``): per column, a bit mask of the sky
# rows holding its ships; whether a ship stands on its landing site; a bit mask of the rows its white ships move
# from (a white ship on the site moves from the mothership's row). Then the ships
# standing on explosions, in ship order, with their numbers (and their value if shot,
# at F_EXPL in the float scratch).
I_ROWS = 100
I_WHITE = 110
I_SITE = 120
I_NEXPL = 170
I_EXPL = 171
I_READY = I_EXPL + NSHIPS  # per loaded room (as listed at I_ROOMS): its value if ready, else -99
F_EXPL = 100


DANGER_ROW = SKY_ROWS - 5  # the highest row from which one die (a 6) takes a ship past the sky


@inline_kernel
def danger(row):
    """Expected hits next round from a ship left on ``row`` (one die, 1-6)."""
    if row < DANGER_ROW:
        return 0.0
    return (row - DANGER_ROW + 1) / 6.0


@inline_kernel
def climbed(s, frm, to):
    """Research cost points between two spaces, plus a win bonus at the top."""
    spent = 0.0
    for x in range(frm + 1, to + 1):
        spent += s[RCOST + x]
    if to >= s[RLEN]:
        spent += WIN
    return spent


# ``danger`` summed over the ships of a sky-row mask, indexed by its bits DANGER_ROW-16:
# the row DANGER_ROW + j adds (j + 1) / 6 (summed as integers, then divided once).
DANGER_SUM = np.array([sum(j + 1 for j in range(6) if (m >> j) & 1) / 6.0 for m in range(64)])
SKY_BITS = (1 << (SKY_ROWS + 1)) - 2  # rows 1-16


@inline_kernel
def move_value(s, b, w, ib, col, k, jets_ready):
    """Value of moving the ships of column ``col`` down ``k`` rows now (``survey`` first),
    on the bit masks of the column's ship rows and sky cells.

    A ship brought onto an explosion that an already loaded jets room reaches
    (``jets_ready``) counts as shot. Equal to a ship-by-ship reading up to float rounding
    (tests/test_ufs_bots.py); the danger is summed per mask, not per ship.
    """
    start = ib[I_ROWS + col] | (ib[I_SITE + col] << s[MS])
    if k <= 0 or start == 0:
        return 0.0
    moved = start << k
    hits = popcount(moved >> (SKY_ROWS + 1))  # moved past the sky
    inside = moved & SKY_BITS
    # Ships that hit take their danger with them; the others carry it to their new row.
    score = w[W_DANGER] * (DANGER_SUM[(start >> DANGER_ROW) & 63] - DANGER_SUM[(inside >> DANGER_ROW) & 63])
    icons = popcount(inside & s[SKY_MASK + MSHIP * 5 + col])
    if icons > 0:
        if s[MS] + 1 >= s[SKULL]:
            return LOSS
        score -= w[W_MSHIP] * icons
    white = ib[I_WHITE + col] << k
    rare = inside & (s[SKY_MASK + EXPLOSION * 5 + col] | s[SKY_MASK + LEFT * 5 + col] | s[SKY_MASK + RIGHT * 5 + col])
    while rare != 0:  # explosions and arrows: at most a ship or two
        low = rare & -rare
        rare ^= low
        new = popcount(low - 1)
        cell = new * 5 + col
        kind = s[SKY_KIND + cell]
        if kind != EXPLOSION:
            t = col - 1 if kind == LEFT else col + 1
            if t < 0 or t > 4 or (ib[I_ROWS + t] >> new) & 1:
                continue  # off the board or blocked: the ship stays on the arrow
            cell = new * 5 + t
            if s[SKY_KIND + cell] != EXPLOSION:
                continue
        is_white = (white & low) != 0
        if s[SKY_NUM + cell] <= jets_ready:
            score += (w[W_SHOT_WHITE] if is_white else w[W_SHOT_PURPLE]) + w[W_DANGER] * danger(new)
        else:
            score += w[W_EXPLOSION] * (1.5 if is_white else 1.0)
    if hits > 0:
        if s[DAMAGE] + hits >= b[B_DMAX]:
            return LOSS
        score -= w[W_HIT] * hits * (1.0 + s[DAMAGE] / b[B_DMAX])
    return score


@inline_kernel
def survey(s, w, ib, fb):
    """Where the ships are, in the forms ``move_value`` and ``shot_value`` read."""
    for c in range(5):
        ib[I_ROWS + c] = 0
        ib[I_SITE + c] = 0
        ib[I_WHITE + c] = 0
    n = 0
    for i in range(NSHIPS):
        row = s[SHIP_ROW + i]
        if row < 0:
            continue
        col = s[SHIP_COL + i]
        if row == 0:
            ib[I_SITE + col] = 1
            if i >= 5:
                ib[I_WHITE + col] |= 1 << s[MS]
            continue
        ib[I_ROWS + col] |= 1 << row
        if i >= 5:
            ib[I_WHITE + col] |= 1 << row
        cell = row * 5 + col
        if s[SKY_KIND + cell] == EXPLOSION:
            ib[I_EXPL + n] = s[SKY_NUM + cell]
            fb[F_EXPL + n] = (w[W_SHOT_WHITE] if i >= 5 else w[W_SHOT_PURPLE]) + w[W_DANGER] * danger(row)
            n += 1
    ib[I_NEXPL] = n


@inline_kernel
def shot_value(ib, fb, value, already):
    """Value of the ships a jets room of ``value`` shoots that one of ``already`` would not
    (``survey`` first)."""
    gain = 0.0
    for j in range(ib[I_NEXPL]):
        if already < ib[I_EXPL + j] <= value:
            gain += fb[F_EXPL + j]
    return gain


@inline_kernel
def loaded_rooms(s, b, ib):
    """Rooms holding a worker die or a fresh robot this round: their ids at
    ``ib[I_ROOMS:]``; per room (every room, so lookups need no search) the value of its
    filled cells and its empty cells."""
    for r in range(b[B_NROOMS]):
        ib[I_FILL + r] = 0
        ib[I_EMPTY + r] = b[B_ROOM_NCELLS + r]
    n = 0
    for k in range(7):
        cell = loaded_cell(s, k)
        if cell < 0:
            continue
        v = s[CELL_DIE + cell] if k < 5 else s[ROBOT_VAL + k - 5]
        r = b[B_CELL_ROOM + cell]
        if r < 0:
            continue
        if ib[I_EMPTY + r] == b[B_ROOM_NCELLS + r]:  # first loaded cell of this room
            ib[I_ROOMS + n] = r
            n += 1
        ib[I_FILL + r] += v
        ib[I_EMPTY + r] -= 1
    return n


@inline_kernel
def room_gain(s, b, w, ib, fb, r, value, energy, research, jets_ready):
    """Gain of using room ``r`` at ``value`` this round, with ``energy`` projected."""
    kind = b[B_ROOM_KIND + r]
    cost = b[B_ROOM_COST + r]
    if kind == ROOM_ENERGY:
        room = b[B_EMAX] - energy
        if room < 0:
            room = 0
        if value < room:
            room = value
        if room < 0:
            room = 0
        return w[W_ENERGY] * room
    if kind == ROOM_RESEARCH:
        g = climbed(s, research, research_after(s, research, value))
    elif kind == ROOM_JETS:
        g = shot_value(ib, fb, value, jets_ready)
    else:
        if b[B_ROBOTS_ON] == 0 or value <= 0:
            return 0.0
        g = w[W_ROBOT] * min(value, 6)
    g -= w[W_ENERGY] * cost
    if energy < cost:
        g *= w[W_UNPAID]
    return g


@inline_kernel
def dig_value(s, b, w, target_pos):
    """Value of moving the excavator to ``target_pos``: the room cells it opens."""
    gain = 0.0
    for p in range(s[EXCAV] + 1, target_pos + 1):
        cell = b[B_PATH_CELL + p]
        if b[B_CELL_KIND + cell] == CELL_ROOM:
            gain += 2.0 if b[B_ROOM_KIND + b[B_CELL_ROOM + cell]] == ROOM_RESEARCH else 1.0
    return w[W_DIG] * gain - w[W_ENERGY]


@inline_kernel
def next_die(s):
    """The die to place now: grey before white, then the highest."""
    best = -1
    for d in range(5):
        if s[DIE_CELL + d] >= 0:
            continue
        if best < 0:
            best = d
        elif s[DIE_WHITE + d] < s[DIE_WHITE + best]:
            best = d
        elif s[DIE_WHITE + d] == s[DIE_WHITE + best] and s[DIE_VAL + d] > s[DIE_VAL + best]:
            best = d
    return best


@inline_kernel
def projection(s, b, ib):
    """What the dice already placed will do in the rooms phase: the energy left, the
    research reached, the best jets value (and the loaded rooms, listed in ``ib``)."""
    n = loaded_rooms(s, b, ib)
    energy = s[ENERGY]
    research = s[RESEARCH]
    jets = 0
    for j in range(n):
        r = ib[I_ROOMS + j]
        if ib[I_EMPTY + r] > 0 or (b[B_ROOM_KIND + r] == ROOM_ROBOT and b[B_ROBOTS_ON] == 0):
            continue
        value = ib[I_FILL + r] + b[B_ROOM_MOD + r]
        kind = b[B_ROOM_KIND + r]
        if kind == ROOM_ENERGY:
            energy += max(value, 0)
        else:
            energy -= b[B_ROOM_COST + r]
            if kind == ROOM_JETS and value > jets:
                jets = value
            elif kind == ROOM_RESEARCH:
                research = research_after(s, research, value)
    if s[AHEAD] >= 0:
        energy -= 1
    if energy > b[B_EMAX]:
        energy = b[B_EMAX]
    return energy, research, jets


@kernel
def column_best(s, b, w, ib, fb, v, col, energy, research, jets):
    """Best cell of column ``col`` for a die of value ``v``, and its immediate value."""
    # R1.3: on the AA guns the ships move one less.
    best = move_value(s, b, w, ib, col, v - 1, jets)
    best_cell = col
    move = move_value(s, b, w, ib, col, v, jets)
    for row in range(1, 6):
        cell = row * 5 + col
        dist = b[B_CELL_POS + cell] - s[EXCAV]
        if dist > 0:  # ahead of the excavator: dig there (R2.1)
            if s[AHEAD] >= 0 or dist > v or energy < 1:
                continue
            score = move + dig_value(s, b, w, b[B_CELL_POS + cell])
        else:
            r = b[B_CELL_ROOM + cell]
            score = move
            if r >= 0:
                total = v + b[B_ROOM_MOD + r] + ib[I_FILL + r]
                missing = ib[I_EMPTY + r] - 1
                k = robot_at(s, cell)
                if k >= 0 and s[ROBOT_EXH + k] == 0:  # the die displaces a fresh robot standing here
                    total -= s[ROBOT_VAL + k]
                    missing += 1
                if missing > 0:  # the room needs more dice: credit a share of it
                    score += w[W_PARTIAL] * room_gain(s, b, w, ib, fb, r, total + 4 * missing, energy, research, jets) / (missing + 1)
                else:
                    score += room_gain(s, b, w, ib, fb, r, total, energy, research, jets)
        if score > best:
            best = score
            best_cell = cell
    return best, best_cell


@kernel
def best_placement(s, b, w, ib, fb, d):
    """The cell with the highest immediate value for die ``d``, as an action."""
    v = s[DIE_VAL + d]
    survey(s, w, ib, fb)
    energy, research, jets = projection(s, b, ib)
    best = -1.0e18
    best_cell = -1
    for col in range(5):
        if s[COL_USED + col] != 0:
            continue
        score, cell = column_best(s, b, w, ib, fb, v, col, energy, research, jets)
        if score > best:
            best = score
            best_cell = cell
    return A_PLACE + d * 30 + best_cell


@kernel
def research_reach(s, b, ib, n, first, energy):
    """Research reached using loaded room number ``first`` now, then up to two more
    loaded research rooms in their best order, as far as ``energy`` pays."""
    n0 = research_after(s, s[RESEARCH], ib[I_READY + first])
    energy -= b[B_ROOM_COST + ib[I_ROOMS + first]]
    best = n0
    for a in range(n):
        ra = ib[I_ROOMS + a]
        if a == first or b[B_ROOM_KIND + ra] != ROOM_RESEARCH:
            continue
        va = ib[I_READY + a]
        ea = energy - b[B_ROOM_COST + ra]
        if va == -99 or ea < 0:
            continue
        pa = research_after(s, n0, va)
        best = max(best, pa)
        for c in range(n):
            rc = ib[I_ROOMS + c]
            if c == a or c == first or b[B_ROOM_KIND + rc] != ROOM_RESEARCH:
                continue
            vc = ib[I_READY + c]
            if vc == -99 or ea - b[B_ROOM_COST + rc] < 0:
                continue
            best = max(best, research_after(s, pa, vc))
    return best


@kernel
def choose_rooms(s, b, w, ib, fb):
    """Rooms phase: energy first unless it would overflow, then the best gain per use."""
    emax = b[B_EMAX]
    energy = s[ENERGY]
    n = loaded_rooms(s, b, ib)
    for j in range(n):  # each loaded room's value if ready, once (R4.2)
        ib[I_READY + j] = room_ready(s, b, ib[I_ROOMS + j])
    for j in range(n):
        r = ib[I_ROOMS + j]
        if b[B_ROOM_KIND + r] == ROOM_ENERGY and ready_usable(s, b, ib, j):
            v = ib[I_READY + j]
            if v > 0 and energy - b[B_ROOM_COST + r] + v <= emax:
                return A_ROOM + r
    best = 0.0
    best_a = A_END
    surveyed = False
    for j in range(n):
        r = ib[I_ROOMS + j]
        kind = b[B_ROOM_KIND + r]
        if kind == ROOM_ENERGY or not ready_usable(s, b, ib, j):
            continue
        if kind == ROOM_RESEARCH:
            reach = research_reach(s, b, ib, n, j, energy)
            gain = climbed(s, s[RESEARCH], reach) - w[W_ENERGY] * b[B_ROOM_COST + r]
        else:
            if kind == ROOM_JETS and not surveyed:
                survey(s, w, ib, fb)
                surveyed = True
            gain = room_gain(s, b, w, ib, fb, r, ib[I_READY + j], energy, s[RESEARCH], 0)
        if gain > best:
            best = gain
            best_a = A_ROOM + r
    if can_excavate(s):
        g = dig_value(s, b, w, b[B_CELL_POS + s[AHEAD]])
        if g > best:
            best = g
            best_a = A_EXCAVATE
    if best_a != A_END:
        return best_a
    for j in range(n):  # leftover energy rooms, even if they overflow
        r = ib[I_ROOMS + j]
        if b[B_ROOM_KIND + r] == ROOM_ENERGY and energy < emax and ready_usable(s, b, ib, j):
            return A_ROOM + r
    return A_END


@inline_kernel
def ready_usable(s, b, ib, j):
    """``room_usable`` for loaded room number ``j``, from its value in ``ib``."""
    return room_affordable(s, b, ib[I_ROOMS + j]) and ib[I_READY + j] != -99


@kernel
def robot_cell_value(s, b, cell):
    if cell < 5:
        return 0.0
    r = b[B_CELL_ROOM + cell]
    kind = b[B_ROOM_KIND + r]
    base = 3.0 if kind == ROOM_RESEARCH else 2.0 if kind == ROOM_JETS else 1.0 if kind == ROOM_ENERGY else 0.5
    if b[B_ROOM_NCELLS + r] > 1:
        base *= 0.5
    if s[CELL_DIE + cell] > 0:
        base -= 5.0  # a die still waiting there would be lost
    return base + 0.1 * b[B_ROOM_MOD + r] - 0.2 * b[B_ROOM_COST + r]


@kernel
def choose_robot(s, b):
    """A new robot goes to the best free research, jets or energy cell; when two robots
    already stand, it replaces the weaker one if it is stronger."""
    from_slot = -1
    if robot_count(s) >= b[B_MAX_ROBOTS]:
        weakest = 99
        for k in range(2):
            if s[ROBOT_VAL + k] > 0 and s[ROBOT_VAL + k] < weakest:
                weakest = s[ROBOT_VAL + k]
                from_slot = k
        if weakest >= s[PENDING_ROBOT]:
            return A_ROBOT_DECLINE
    best = -1e9
    best_a = A_ROBOT_DECLINE
    for cell in range(30):
        if robot_cell_ok(s, b, cell, from_slot):
            v = robot_cell_value(s, b, cell)
            if v > best:
                best = v
                best_a = A_ROBOT + cell * 3 + (from_slot + 1)
    return best_a


@kernel
def choose_spawn(s):
    """Among tied landing sites, the column with the fewest mothership icons in reach."""
    mask = spawn_sites(s)
    best = 1e9
    best_c = 0
    for c in range(5):
        if not (mask >> c) & 1:
            continue
        bad = 0.0
        for d in range(1, 7):
            row = s[MS] + d
            if row <= SKY_ROWS and s[SKY_KIND + row * 5 + c] == MSHIP:
                bad += 1.0
        if bad < best:
            best = bad
            best_c = c
    return A_SPAWN + best_c


@kernel
def choose_six(s):
    """Washington (damaged side): turn the lowest die to 6."""
    best_d = 0
    for d in range(5):
        if s[DIE_VAL + d] < s[DIE_VAL + best_d]:
            best_d = d
    return A_SIX + best_d


@kernel
def choose_with(s, b, w, ib, fb):
    phase = s[PHASE]
    if phase == P_PLACE:
        return best_placement(s, b, w, ib, fb, next_die(s))
    if phase == P_ROOMS:
        return choose_rooms(s, b, w, ib, fb)
    if phase == P_ROBOT:
        return choose_robot(s, b)
    if phase == P_SPAWN:
        return choose_spawn(s)
    return choose_six(s)


@kernel
def choose(s, rng, b, ib, fb, flags):
    return choose_with(s, b, DEFAULT_WEIGHTS, ib, fb)
