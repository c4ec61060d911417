"""Under Falling Skies rules, compiled: an ``int32`` state vector plus an action
gives the next state (chance is drawn from the game's own random streams).

The state is one flat array so a bot can copy it cheaply to look ahead; the offsets
below name its fields. Rule numbers (R1.2 ...) refer to
docs/rules/under-falling-skies.md.

Decision points (``s[PHASE]``) and their actions:

* ``P_PLACE``  place an unplaced die on a cell: ``A_PLACE + die * 30 + cell``
  (cell = base row * 5 + column, row 0 being the AA guns);
* ``P_SIX``    Washington (damaged side): turn one die to 6 (``A_SIX + die``) or not;
* ``P_ROOMS``  use a ready room (``A_ROOM + room``), move the excavator
  (``A_EXCAVATE``) or end the phase (``A_END``, unused dice are removed);
* ``P_ROBOT``  install the robot just made: ``A_ROBOT + cell * 3 + drop`` where
  ``drop`` 1 or 2 first removes robot slot 0 or 1, or ``A_ROBOT_DECLINE``;
* ``P_SPAWN``  choose among tied landing sites: ``A_SPAWN + column``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...jit import inline_kernel, kernel
from ...layout import ActionSpace, Layout
from ...loop import observe_state as observe  # noqa: F401 (the protocol's observe)

from ...rng import CHANCE, die, new_streams, randint, restart
from .board import (
    AB_CHOOSE_SIX,
    AB_FIRST_DAMAGE_RESEARCH,
    AB_ONE_ROBOT_BONUS,
    AB_ROBOT_BONUS,
    AB_WHITE_SIX,
    ACT_DAMAGE,
    ACT_EXCAVATOR,
    ACT_RESEARCH,
    ACT_SKULL,
    ACT_WHITE,
    CELL_ROOM,
    B_ABILITY,
    B_CELL_KIND,
    B_CELL_POS,
    B_CELL_ROOM,
    B_MS_AMT,
    B_MS_KIND,
    B_NPREFIX,
    B_PREFIX,
    B_RCOST,
    B_ROOM_CELLS,
    B_ROOM_COST,
    B_ROOM_KIND,
    B_ROOM_MOD,
    B_ROOM_NCELLS,
    B_SKY_KIND,
    B_SKY_NUM,
    B_ARROW_RETRIGGER,
    B_DMAX,
    B_EMAX,
    B_EXCAV_START,
    B_MAX_ROBOTS,
    B_NROOMS,
    B_ROBOTS_ON,
    B_START_ENERGY,
    B_THREAT,
    B_WHITES_RETURN,
    EXPLOSION,
    LEFT,
    MAX_ROOMS,
    MSHIP,
    RIGHT,
    ROOM_ENERGY,
    ROOM_JETS,
    ROOM_RESEARCH,
    ROOM_ROBOT,
)

# ---- state layout -----------------------------------------------------------
SKY_ROWS = 16
NSHIPS = 9  # ships 0-4 purple, 5-8 white
MAX_TRACK = 32  # research spaces (the city's prefix and one per sky row), 1-based

STATE = Layout("ufs state")
(PHASE, ROUND, MS, SKULL, DAMAGE, ENERGY, RESEARCH, RLEN, EXCAV, RESULT,
 AHEAD, AHEAD_VAL, WHITE_RESERVE, SHOT, NPLACED, PENDING_ROBOT, FLIPS, FIRST_DAMAGE_DONE, HITS, MS_ICONS) = STATE.scalars(
    "phase", "round", "ms", "skull", "damage", "energy", "research", "rlen", "excav", "result",
    "ahead", "ahead_val", "white_reserve", "shot", "nplaced", "pending_robot", "flips", "first_damage_done", "hits", "ms_icons")
SHIP_ROW = STATE.array("ship_row", NSHIPS)
SHIP_COL = STATE.array("ship_col", NSHIPS)
DIE_VAL = STATE.array("die_val", 5)  # dice 0-2 grey, 3-4 white
DIE_WHITE = STATE.array("die_white", 5)
DIE_CELL = STATE.array("die_cell", 5)
COL_USED = STATE.array("col_used", 5)
CELL_DIE = STATE.array("cell_die", 30)  # worker die value on each excavated cell, 0 if none
ROBOT_VAL = STATE.array("robot_val", 2)  # 0 = no robot in this slot
ROBOT_CELL = STATE.array("robot_cell", 2)
ROBOT_EXH = STATE.array("robot_exh", 2)
SKY_KIND = STATE.array("sky_kind", (SKY_ROWS + 1) * 5)  # this game's sky, rows 1-16 at [row * 5 + col]
SKY_NUM = STATE.array("sky_num", (SKY_ROWS + 1) * 5)
MS_KIND = STATE.array("ms_kind", SKY_ROWS + 1)  # mothership action of each row 1-16
MS_AMT = STATE.array("ms_amt", SKY_ROWS + 1)
RCOST = STATE.array("rcost", MAX_TRACK)  # research track: cost of space i at RCOST + i, i = 1 .. RLEN
# The sky once more, as bit masks: rows (bit = row) of each kind of cell per column, at
# [kind * 5 + col]. Fixed for the game; a bot evaluates a column's move in a few word operations.
SKY_MASK = STATE.array("sky_mask", 5 * 5)
SIZE = STATE.size

# Ship rows: in the sky 1-16; special values below.
ROW_SITE, ROW_WAITING, ROW_RESERVE, ROW_GONE = 0, -1, -2, -3

P_PLACE, P_SIX, P_ROOMS, P_ROBOT, P_SPAWN, P_OVER = range(6)
R_RUNNING, R_WON, R_DAMAGE, R_MOTHERSHIP = range(4)

# ---- actions --------------------------------------------------------------------
ACTIONS = ActionSpace("ufs actions")
A_PLACE = ACTIONS.range("place", 5 * 30)  # die * 30 + base cell
A_SIX = ACTIONS.range("six", 5)  # turn die d to 6
A_SIX_SKIP = ACTIONS.single("six_skip")
A_EXCAVATE = ACTIONS.single("excavate")
A_END = ACTIONS.single("end_rooms")
A_ROOM = ACTIONS.range("room", MAX_ROOMS)
A_ROBOT_DECLINE = ACTIONS.single("robot_decline")
A_ROBOT = ACTIONS.range("robot", 30 * 3)  # cell * 3 + drop (0 none, 1/2 remove robot slot 0/1)
A_SPAWN = ACTIONS.range("spawn", 5)
MAX_ACTIONS = ACTIONS.size

# Nothing is hidden but future chance: a bot sees the whole state.
PERFECT_INFORMATION = True
OBS_SIZE = SIZE


# ---- setup --------------------------------------------------------------------
@njit
def init_state(seed, b):
    """A new game from its seed: threat tiles drawn, ships on the landing sites, first roll made."""
    rng = new_streams(seed)
    s = np.zeros(SIZE, np.int32)
    # R3.3: flip `threat` of the 4 sky tiles, chosen uniformly (partial Fisher-Yates).
    # Setup and every round draw from their own restart of the chance stream, so a
    # round's first roll is the same whatever happened before (paired comparisons).
    restart(rng, CHANCE, 1000)
    order = np.arange(4)
    flips = 0
    for k in range(b[B_THREAT]):
        j = k + randint(rng, CHANCE, 4 - k)
        t = order[k]
        order[k] = order[j]
        order[j] = t
        flips |= 1 << order[k]
    s[FLIPS] = flips
    s[SKULL] = 99
    for slot in range(4):
        side = (flips >> slot) & 1
        for r in range(4):
            row = slot * 4 + r + 1
            for c in range(5):
                s[SKY_KIND + row * 5 + c] = b[B_SKY_KIND + ((slot * 2 + side) * 4 + r) * 5 + c]
                s[SKY_NUM + row * 5 + c] = b[B_SKY_NUM + ((slot * 2 + side) * 4 + r) * 5 + c]
                s[SKY_MASK + s[SKY_KIND + row * 5 + c] * 5 + c] |= 1 << row
            s[MS_KIND + row] = b[B_MS_KIND + (slot * 2 + side) * 4 + r]
            s[MS_AMT + row] = b[B_MS_AMT + (slot * 2 + side) * 4 + r]
            if b[B_MS_KIND + (slot * 2 + side) * 4 + r] == ACT_SKULL and row < s[SKULL]:
                s[SKULL] = row
    # Research track: the city's spaces, then one space per sky row from the bottom up.
    n = 0
    for i in range(b[B_NPREFIX]):
        n += 1
        s[RCOST + n] = b[B_PREFIX + i]
    for row in range(SKY_ROWS, 0, -1):
        slot = (row - 1) // 4
        side = (flips >> slot) & 1
        n += 1
        s[RCOST + n] = b[B_RCOST + (slot * 2 + side) * 4 + (row - 1) % 4]
    s[RLEN] = n
    s[DAMAGE] = 0
    s[ENERGY] = b[B_START_ENERGY]
    s[EXCAV] = b[B_EXCAV_START]
    for i in range(NSHIPS):
        if i < 5:
            s[SHIP_ROW + i] = ROW_SITE
            s[SHIP_COL + i] = i
        else:
            s[SHIP_ROW + i] = ROW_RESERVE
            s[SHIP_COL + i] = -1
    s[WHITE_RESERVE] = 4
    for k in range(2):
        s[ROBOT_CELL + k] = -1
    s[DIE_WHITE + 3] = 1
    s[DIE_WHITE + 4] = 1
    s[ROUND] = 0
    _start_round(s, rng, b)
    return s, rng


@kernel
def _start_round(s, rng, b):
    s[ROUND] += 1
    restart(rng, CHANCE, s[ROUND])
    s[NPLACED] = 0
    s[AHEAD] = -1
    s[AHEAD_VAL] = 0
    for i in range(5):
        s[DIE_CELL + i] = -1
        s[COL_USED + i] = 0
        s[DIE_VAL + i] = die(rng)
    for c in range(30):
        s[CELL_DIE + c] = 0
    ability = b[B_ABILITY]
    if ability == AB_WHITE_SIX:
        s[DIE_VAL + 3] = 6
    s[PHASE] = P_SIX if ability == AB_CHOOSE_SIX else P_PLACE


# ---- small queries -------------------------------------------------------------
@inline_kernel
def excavated(s, b, cell):
    # (no `x or y` value expressions with the b tuple: numba makes them slow)
    if cell < 5:
        return True
    return b[B_CELL_POS + cell] <= s[EXCAV]


@inline_kernel
def robot_at(s, cell):
    # Selects, not early returns: where robots stand follows the dice, so branches
    # on it mispredict (one miss costs more than this whole scan).
    k = -1
    k = 1 if (s[ROBOT_VAL + 1] > 0) & (s[ROBOT_CELL + 1] == cell) else k
    k = 0 if (s[ROBOT_VAL] > 0) & (s[ROBOT_CELL] == cell) else k
    return k


@inline_kernel
def robot_count(s):
    # int(): numpy adds two booleans as a logical or, so plain Python would count 1.
    return int(s[ROBOT_VAL] > 0) + int(s[ROBOT_VAL + 1] > 0)


@inline_kernel
def ship_at(s, row, col):
    found = -1
    for i in range(NSHIPS - 1, -1, -1):  # backwards, so the lowest index wins (branch-free)
        found = i if (s[SHIP_ROW + i] == row) & (s[SHIP_COL + i] == col) else found
    return found


@inline_kernel
def placement_ok(s, b, d, cell):
    """R1.2/R2.1: die ``d`` may go on ``cell``."""
    if s[DIE_CELL + d] >= 0 or s[COL_USED + cell % 5] != 0:
        return False
    if excavated(s, b, cell):
        return True
    if s[AHEAD] >= 0:
        return False
    return b[B_CELL_POS + cell] - s[EXCAV] <= s[DIE_VAL + d]


@inline_kernel
def room_ready(s, b, r):
    """Value of room ``r`` if every cell holds a worker die or a fresh robot (R4.2), else -99."""
    total = 0
    robots = 0
    for j in range(b[B_ROOM_NCELLS + r]):
        cell = b[B_ROOM_CELLS + r * 3 + j]
        if s[CELL_DIE + cell] > 0:
            total += s[CELL_DIE + cell]
        else:
            k = robot_at(s, cell)
            if k < 0 or s[ROBOT_EXH + k] != 0:
                return -99
            total += s[ROBOT_VAL + k]
            robots += 1
    ability = b[B_ABILITY]
    if ability == AB_ONE_ROBOT_BONUS or ability == AB_ROBOT_BONUS:
        total += robots  # R6.3
    return total + b[B_ROOM_MOD + r]


@inline_kernel
def room_affordable(s, b, r):
    """Room ``r`` is in play and its energy cost can be paid (R4.1)."""
    if b[B_ROOM_KIND + r] == ROOM_ROBOT and b[B_ROBOTS_ON] == 0:
        return False
    return s[ENERGY] >= b[B_ROOM_COST + r]


@inline_kernel
def room_usable(s, b, r):
    return room_affordable(s, b, r) and room_ready(s, b, r) != -99


@inline_kernel
def research_after(s, pos, value):
    """Research space a research room of ``value`` moves the marker to from ``pos``:
    on while the costs of the spaces crossed add up to no more than ``value`` (R4.6)."""
    n = pos
    spent = 0
    while n < s[RLEN] and spent + s[RCOST + n + 1] <= value:
        n += 1
        spent += s[RCOST + n]
    return n


@inline_kernel
def can_excavate(s):
    """R2.3: a die waits ahead of the excavator and 1 energy pays for moving it there."""
    return s[AHEAD] >= 0 and s[ENERGY] >= 1


@inline_kernel
def robot_cell_ok(s, b, cell, ignore_slot):
    """A new robot may stand on an excavated AA or room cell without another robot
    (R5.2); a worker die still there is removed unused to make room."""
    if cell >= 5 and b[B_CELL_KIND + cell] != CELL_ROOM:
        return False
    if not excavated(s, b, cell):
        return False
    k = robot_at(s, cell)
    if k < 0:
        return True
    return k == ignore_slot


# ---- legal actions -------------------------------------------------------------
@kernel
def legal_actions(s, b, out):
    """Writes the legal actions into ``out`` and returns how many there are."""
    n = 0
    phase = s[PHASE]
    if phase == P_PLACE:
        for d in range(5):
            if s[DIE_CELL + d] >= 0:
                continue
            for cell in range(30):
                if placement_ok(s, b, d, cell):
                    out[n] = A_PLACE + d * 30 + cell
                    n += 1
    elif phase == P_SIX:
        for d in range(5):
            out[n] = A_SIX + d
            n += 1
        out[n] = A_SIX_SKIP
        n += 1
    elif phase == P_ROOMS:
        for r in range(b[B_NROOMS]):
            if room_usable(s, b, r):
                out[n] = A_ROOM + r
                n += 1
        if can_excavate(s):
            out[n] = A_EXCAVATE
            n += 1
        out[n] = A_END
        n += 1
    elif phase == P_ROBOT:
        count = robot_count(s)
        for drop in range(3):
            slot = drop - 1
            if drop == 0 and count >= b[B_MAX_ROBOTS]:
                continue
            if drop > 0 and s[ROBOT_VAL + slot] == 0:
                continue
            for cell in range(30):
                if robot_cell_ok(s, b, cell, slot):
                    out[n] = A_ROBOT + cell * 3 + drop
                    n += 1
        out[n] = A_ROBOT_DECLINE
        n += 1
    elif phase == P_SPAWN:
        mask = spawn_sites(s)
        for c in range(5):
            if (mask >> c) & 1:
                out[n] = A_SPAWN + c
                n += 1
    return n


# ---- effects -------------------------------------------------------------------
@inline_kernel
def _end(s, result):
    if s[RESULT] == R_RUNNING:
        s[RESULT] = result
    s[PHASE] = P_OVER


@inline_kernel
def _advance_research(s, spaces):
    s[RESEARCH] = min(s[RLEN], s[RESEARCH] + spaces)
    if s[RESEARCH] >= s[RLEN]:
        _end(s, R_WON)  # R7.1


@inline_kernel
def _take_damage(s, b, amount):
    s[DAMAGE] = min(s[DAMAGE] + amount, b[B_DMAX])  # the marker stops at the bottom
    if s[DAMAGE] >= b[B_DMAX]:
        _end(s, R_DAMAGE)  # R7.2
        return
    if b[B_ABILITY] == AB_FIRST_DAMAGE_RESEARCH and s[FIRST_DAMAGE_DONE] == 0:
        s[FIRST_DAMAGE_DONE] = 1
        _advance_research(s, 1)


@inline_kernel
def _mothership_down(s):
    """R3.1: the mothership descends a row; ships in that row go back aboard."""
    s[MS] += 1
    for i in range(NSHIPS):
        if s[SHIP_ROW + i] == s[MS]:
            s[SHIP_ROW + i] = ROW_WAITING
    if s[MS] >= s[SKULL]:
        _end(s, R_MOTHERSHIP)  # R7.3


@inline_kernel
def _trigger(s, b, i):
    """R1.5: the effect of the cell ship ``i`` stopped on."""
    for _ in range(8):  # bounded: arrows chain only with arrow_retrigger
        row = s[SHIP_ROW + i]
        col = s[SHIP_COL + i]
        kind = s[SKY_KIND + row * 5 + col]
        if kind == LEFT or kind == RIGHT:
            target = col - 1 if kind == LEFT else col + 1
            if ship_at(s, row, target) >= 0:
                return  # arrow blocked by a ship on its target cell
            s[SHIP_COL + i] = target
            if b[B_ARROW_RETRIGGER] == 0:
                return
        elif kind == MSHIP:
            s[MS_ICONS] += 1
            _mothership_down(s)
            return
        else:
            return


@kernel
def _move_column(s, b, col, k):
    """R1.4: every ship in the column moves ``k`` rows down together; then effects top-down."""
    moved = 0  # bit mask of the ships that moved and are still in the sky
    hits = 0
    last = -1
    ms = s[MS]
    for i in range(NSHIPS):  # branch-free: which ships are in the column is random
        row = s[SHIP_ROW + i]
        here = (row >= ROW_SITE) & (s[SHIP_COL + i] == col)
        new = (ms if row == ROW_SITE else row) + k
        hit = here & (new > SKY_ROWS)  # R1.6: below the sky, the ship hits the city
        stay = here & (new <= SKY_ROWS)
        s[SHIP_ROW + i] = ROW_WAITING if hit else (new if stay else row)
        hits += hit
        moved |= int(stay) << i
        last = i if stay else last
    if hits > 0:
        s[HITS] += hits
        _take_damage(s, b, hits)
        if s[PHASE] == P_OVER:
            return
    if moved == 0:
        return
    if moved & (moved - 1) == 0:  # one ship moved (most placements): the loop below would
        # do the same, but without its searches
        _trigger(s, b, last)
        return
    while moved != 0:  # top-down: the highest ship still in this column next
        first = -1
        for i in range(NSHIPS):
            if (moved >> i) & 1:
                if s[SHIP_ROW + i] < 1 or s[SHIP_COL + i] != col:
                    moved &= ~(1 << i)  # taken back aboard meanwhile
                elif first < 0 or s[SHIP_ROW + i] < s[SHIP_ROW + first]:
                    first = i
        if first < 0:
            return
        moved &= ~(1 << first)
        _trigger(s, b, first)
        if s[PHASE] == P_OVER:
            return


@inline_kernel
def _place(s, rng, b, d, cell):
    col = cell % 5
    v = s[DIE_VAL + d]
    s[DIE_CELL + d] = cell
    s[COL_USED + col] = 1
    s[NPLACED] += 1
    k = robot_at(s, cell)
    if k >= 0:  # R5.4: a worker die displaces the robot on its cell
        s[ROBOT_VAL + k] = 0
        s[ROBOT_CELL + k] = -1
    if excavated(s, b, cell):
        if cell >= 5 and b[B_CELL_KIND + cell] == CELL_ROOM:
            s[CELL_DIE + cell] = v  # AA and tunnel dice do nothing in the rooms phase (R4.7)
    else:
        s[AHEAD] = cell
        s[AHEAD_VAL] = v
    move = v - 1 if cell < 5 else v  # R1.3: AA guns slow the ships by one
    if move > 0:
        _move_column(s, b, col, move)
        if s[PHASE] == P_OVER:
            return
    if s[DIE_WHITE + d] != 0:  # R1.2: a white die rerolls the dice still unplaced
        for e in range(5):
            if s[DIE_CELL + e] < 0:
                s[DIE_VAL + e] = die(rng)
    if s[NPLACED] == 5:
        s[PHASE] = P_ROOMS


@kernel
def _shoot(s, b, value):
    """R4.5: every ship on an explosion numbered <= value is shot down."""
    for i in range(NSHIPS):
        row = s[SHIP_ROW + i]
        if row >= 1:
            cell = row * 5 + s[SHIP_COL + i]
            if s[SKY_KIND + cell] == EXPLOSION and s[SKY_NUM + cell] <= value:
                if i < 5:
                    s[SHIP_ROW + i] = ROW_WAITING
                elif b[B_WHITES_RETURN] != 0:
                    s[SHIP_ROW + i] = ROW_RESERVE
                    s[WHITE_RESERVE] += 1
                else:
                    s[SHIP_ROW + i] = ROW_GONE
                s[SHIP_COL + i] = -1
                s[SHOT] += 1


@kernel
def _use_room(s, b, r):
    value = room_ready(s, b, r)
    s[ENERGY] -= b[B_ROOM_COST + r]
    for j in range(b[B_ROOM_NCELLS + r]):
        cell = b[B_ROOM_CELLS + r * 3 + j]
        if s[CELL_DIE + cell] > 0:
            s[CELL_DIE + cell] = 0
        else:  # R5.3: a robot used loses a pip and rests for the round
            k = robot_at(s, cell)
            s[ROBOT_VAL + k] -= 1
            s[ROBOT_EXH + k] = 1
            if s[ROBOT_VAL + k] == 0:
                s[ROBOT_CELL + k] = -1
    kind = b[B_ROOM_KIND + r]
    if value <= 0:
        return
    if kind == ROOM_ENERGY:
        s[ENERGY] = min(b[B_EMAX], s[ENERGY] + value)
    elif kind == ROOM_JETS:
        _shoot(s, b, value)
    elif kind == ROOM_RESEARCH:
        _advance_research(s, research_after(s, s[RESEARCH], value) - s[RESEARCH])
    elif kind == ROOM_ROBOT:
        s[PENDING_ROBOT] = min(value, 6)
        s[PHASE] = P_ROBOT


@inline_kernel
def loaded_cell(s, k):
    """The base cell that worker die ``k`` (0-4) or fresh robot ``k - 5`` (5-6) loads for
    the rooms phase, or -1 (unplaced, used, on the AA guns, exhausted)."""
    if k < 5:
        cell = s[DIE_CELL + k]
        return cell if cell >= 5 and s[CELL_DIE + cell] != 0 else -1
    cell = s[ROBOT_CELL + k - 5]
    return cell if cell >= 5 and s[ROBOT_VAL + k - 5] != 0 and s[ROBOT_EXH + k - 5] == 0 else -1


@kernel
def rooms_choice_left(s, b):
    """Whether the rooms phase still offers anything but its end."""
    if can_excavate(s):
        return True
    for k in range(7):
        cell = loaded_cell(s, k)
        if cell >= 0 and b[B_CELL_ROOM + cell] >= 0 and room_usable(s, b, b[B_CELL_ROOM + cell]):
            return True
    return False


@kernel
def _rooms_continue(s, rng, b):
    """With nothing left to decide, the rooms phase ends by itself (R4.1)."""
    if s[PHASE] == P_ROOMS and not rooms_choice_left(s, b):
        _mothership_phase(s, rng, b)


@kernel
def _bury_robots(s, b):
    for k in range(2):
        cell = s[ROBOT_CELL + k]
        if s[ROBOT_VAL + k] > 0 and not excavated(s, b, cell):
            s[ROBOT_VAL + k] = 0
            s[ROBOT_CELL + k] = -1


@kernel
def spawn_sites(s):
    """R3.4: bit mask of the landing sites the next waiting ship may take (several only when tied)."""
    # One branch-free pass over the ships (ship positions are random, so branches
    # on them mispredict); the topmost sky row of each column is kept in a 5-bit
    # field of ``tops``, 31 standing for "no ship in the sky there".
    occupied = 0
    taken = 0
    tops = (1 << 25) - 1
    for i in range(NSHIPS):
        row = s[SHIP_ROW + i]
        col = s[SHIP_COL + i]
        bit = (1 << col) if row >= ROW_SITE else 0  # col is -1 off the board
        occupied |= bit
        taken |= bit if row == ROW_SITE else 0
        shift = 5 * col if row >= 1 else 0
        top = (tops >> shift) & 31
        tops -= (top - row if (row >= 1) & (row < top) else 0) << shift
    if occupied != 31:
        return 31 & ~occupied  # columns without ships come first
    best = -1
    mask = 0
    for c in range(5):  # the free site farthest from its column's topmost ship wins
        top = (tops >> (5 * c)) & 31
        if (taken >> c) & 1:
            continue
        if top > best:
            best = top
            mask = 1 << c
        elif top == best:
            mask |= 1 << c
    return mask


@kernel
def _next_waiting(s):
    for i in range(NSHIPS):  # purple ships (0-4) before white ones
        if s[SHIP_ROW + i] == ROW_WAITING:
            return i
    return -1


@kernel
def _spawn(s, rng, b):
    """Spawns waiting ships until a tie needs a choice, then starts the next round."""
    while True:
        i = _next_waiting(s)
        if i < 0:
            break
        mask = spawn_sites(s)
        if mask == 0:
            break  # all landing sites full: the rest wait a round
        if mask & (mask - 1):
            s[PHASE] = P_SPAWN  # a tie: the player chooses
            return
        c = 0
        while (mask >> c) != 1:
            c += 1
        s[SHIP_ROW + i] = ROW_SITE
        s[SHIP_COL + i] = c
    _start_round(s, rng, b)


@kernel
def _mothership_phase(s, rng, b):
    for k in range(2):  # R5.3: robots recover at the end of the rooms phase
        s[ROBOT_EXH + k] = 0
    _mothership_down(s)
    if s[PHASE] == P_OVER:
        return
    kind = s[MS_KIND + s[MS]]
    amt = s[MS_AMT + s[MS]]
    if kind == ACT_EXCAVATOR:  # R3.2
        s[EXCAV] = max(b[B_EXCAV_START], s[EXCAV] - amt)
        _bury_robots(s, b)
    elif kind == ACT_RESEARCH:
        s[RESEARCH] = max(0, s[RESEARCH] - amt)
    elif kind == ACT_WHITE:
        for i in range(5, NSHIPS):
            if amt > 0 and s[SHIP_ROW + i] == ROW_RESERVE:
                s[SHIP_ROW + i] = ROW_WAITING
                s[WHITE_RESERVE] -= 1
                amt -= 1
    elif kind == ACT_DAMAGE:
        _take_damage(s, b, amt)
        if s[PHASE] == P_OVER:
            return
    _spawn(s, rng, b)


# ---- the step ---------------------------------------------------------------------
@kernel
def apply_action(s, rng, b, a):
    """Plays action ``a`` (which must be legal) and any chance and forced steps after it."""
    phase = s[PHASE]
    if phase == P_PLACE:
        d = (a - A_PLACE) // 30
        _place(s, rng, b, d, (a - A_PLACE) % 30)
    elif phase == P_SIX:
        if a != A_SIX_SKIP:
            s[DIE_VAL + a - A_SIX] = 6
        s[PHASE] = P_PLACE
    elif phase == P_ROOMS:
        if a == A_END:
            _mothership_phase(s, rng, b)
        elif a == A_EXCAVATE:  # R2.3
            s[ENERGY] -= 1
            s[EXCAV] = b[B_CELL_POS + s[AHEAD]]
            s[AHEAD] = -1
            s[AHEAD_VAL] = 0
        else:
            _use_room(s, b, a - A_ROOM)
    elif phase == P_ROBOT:
        if a != A_ROBOT_DECLINE:
            cell = (a - A_ROBOT) // 3
            drop = (a - A_ROBOT) % 3
            if drop > 0:
                s[ROBOT_VAL + drop - 1] = 0
                s[ROBOT_CELL + drop - 1] = -1
            k = 0 if s[ROBOT_VAL] == 0 else 1
            s[CELL_DIE + cell] = 0  # an unused worker die there is removed
            s[ROBOT_VAL + k] = s[PENDING_ROBOT]
            s[ROBOT_CELL + k] = cell
            s[ROBOT_EXH + k] = 1  # R5.2: a new robot is exhausted this round
        s[PENDING_ROBOT] = 0
        s[PHASE] = P_ROOMS
    elif phase == P_SPAWN:
        i = _next_waiting(s)
        s[SHIP_ROW + i] = ROW_SITE
        s[SHIP_COL + i] = a - A_SPAWN
        _spawn(s, rng, b)
    _rooms_continue(s, rng, b)  # whichever way the rooms phase was reached


# ---- the rest of the protocol ----------------------------------------------------------
@inline_kernel
def to_move(s):
    return 0  # one seat


@inline_kernel
def is_over(s):
    return s[PHASE] == P_OVER

