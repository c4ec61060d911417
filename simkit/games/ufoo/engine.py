"""Ufo.O rules, compiled: an ``int32`` state vector plus an action gives the next state.
Rule numbers (R4.2 ...) and readings (A1 ...) refer to docs/rules/ufo-o.md.

Decision points (``s[PHASE]``), taken by ``to_move(s)``:

* ``PH_MOVE``    the active player moves a UFO (``A_MOVE + k * 128 + cell``), fires its
  mothership's lasers (``A_VOLLEY``) or ends the movement (``A_END_MOVE``);
* ``PH_ATTACK``  the active player attacks (``A_LASER``/``A_ION + k * 4 + j``,
  ``A_ION_MS + k``), repairs (``A_REPAIR + k``), fires its mothership (``A_VOLLEY``) or
  ends the turn (``A_END_TURN``);
* ``PH_PUSH``    the winner of a laser duel, the defender's seat when the defender won,
  pushes the loser (``A_PUSH + cell``, ``A_CRASH``) or not (``A_NO_PUSH``).

A decision with a single legal action is taken by the engine itself (R12.1): after every
action ``advance`` plays forced steps until a seat has a real choice or the game is over.

Sets of cells are 128-bit masks held as two int64 words (``lo``: cells 0-63, ``hi``:
64-127); the board vector keeps each word as two int32 entries (``mask``). Chance: every
die is drawn from the chance stream in the order of R13 and written to ``chance_log``
(cleared at the start of each ``apply_action``), so an independent model can replay a
game step by step (tests/reference/lockstep.py, docs/adding-a-game.md section 10). The chance stream restarts
at every turn (``restart(rng, CHANCE, turn)``): two bots or two readings playing the same
seed see the same dice at the start of each turn.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...jit import inline_kernel, kernel, popcount
from ...layout import ActionSpace, Layout
from ...loop import observe_state as observe  # noqa: F401 (the protocol's observe)
from ...rng import CHANCE, new_streams, randint, restart
from .board import (
    B_AST_ADJ,
    B_AST_ADJ_MASK,
    B_ASTEROID_CRASH,
    B_ATTACKS_ONE,
    B_DEF_MALUS,
    B_EDGE_MASK,
    B_FIRE_BLOCK,
    B_FIRE_MASK,
    B_FIRST_PLAYER,
    B_FIRST_TURN_STEPS,
    B_FIRST_TURN_UFOS,
    B_ION_ZERO,
    B_LAUNCH,
    B_LAUNCH_COST,
    B_LAUNCH_MASK,
    B_LINE_TGT,
    B_MS_BACKFIRE,
    B_MS_FIRE,
    B_MS_FROM_MOVED,
    B_MS_USES_ATTACK,
    B_NB,
    B_NB_MASK,
    B_NO_TARGET_ENDS,
    B_OFF_BOARD_CRASH,
    B_OFF_MID,
    B_OFF_TGT,
    B_OPEN_MASK,
    B_PUSH_NONE,
    B_PUSH_OPTIONAL,
    B_PUSH_PATH,
    B_PUSH_THROUGH,
    B_PUSH_UP_TO,
    B_AST_EACH_MOVE,
    B_AST_MOVED,
    B_RESPAWN_SAME,
    B_SECOND_STRUCTURE,
    B_STRUCTURE,
    B_TERRAIN,
    B_TURN_CAP,
    B_UFOS_BLOCK,
    B_VOLLEY_SINGLE,
    FIRE_END,
    FIRE_START,
    FIRE_ANY_TIME,
    FIRST_SEAT0,
    FIRST_SEAT1,
    MASK_WORDS,
    MAX_CELLS,
    PUSH_ANY,
    PUSH_AWAY,
    T_ASTEROID,
    THROUGH_ANY,
    THROUGH_EMPTY,
    UFOS,
)

SEATS = 2
MOVE_STEPS = 5  # R4.1
LOG_SIZE = 128  # dice one step may roll (a step with forced turns after it rolls more than one turn's dice)
MAX_PUSH = 6  # |a - d| is at most 6 (R6.3)

# UFO statuses (R1.6); 0 is never used, so a zeroed state is visibly unset.
ST_BOARD, ST_DESTROYED, ST_DOCKED, ST_READY = 1, 2, 3, 4
# What a UFO did in the attack phase this turn (bits of ``acted``).
ACT_UFO, ACT_MS, ACT_REPAIR = 1, 2, 4
PH_MOVE, PH_ATTACK, PH_PUSH, PH_OVER = 0, 1, 2, 3

# ---- state --------------------------------------------------------------------------
STATE = Layout("ufoo state")
(PHASE, ACTIVE, TO_MOVE, TURN, FIRST_SEAT, OVER, WINNER, DRAW, ATTACKS_MADE, MS_FIRED,
 PUSH_SEAT, PUSH_UFO, PUSH_WINNER, PUSH_LEN, PUSH_CRASH, CHANCE_N) = STATE.scalars(
    "phase", "active", "to_move", "turn", "first_seat", "over", "winner", "draw", "attacks_made", "ms_fired",
    "push_seat", "push_ufo", "push_winner", "push_len", "push_crash", "chance_n")
PUSH_MASK = STATE.array("push_mask", MASK_WORDS)  # the pending push's destinations (R6.4.3)
CHANCE_LOG = STATE.array("chance_log", LOG_SIZE)  # the dice of the latest step, in order (R13)
STACK = STATE.array("stack", 2 * (MAX_PUSH + 1))  # path search of a push: cell, next direction per depth
SEAT_BLOCK = STATE.seats(
    "seat", SEATS,
    "structure", "won", "first",
    "ms_hits", "kills", "ufos_lost", "lasers", "laser_wins", "defences_won", "ions", "ms_attacks", "backfires",
    "repairs", "repairs_ok", "asteroid_damage", "pushes", "volley_hits",
    ("status", UFOS), ("cell", UFOS), ("damaged", UFOS), ("moved", UFOS), ("acted", UFOS),
)
SEAT, S_STRIDE = SEAT_BLOCK.base, SEAT_BLOCK.stride
(S_STRUCTURE, S_WON, S_FIRST, S_MS_HITS, S_KILLS, S_UFOS_LOST, S_LASERS, S_LASER_WINS, S_DEFENCES_WON, S_IONS,
 S_MS_ATTACKS, S_BACKFIRES, S_REPAIRS, S_REPAIRS_OK, S_ASTEROID_DAMAGE, S_PUSHES, S_VOLLEY_HITS,
 S_STATUS, S_CELL, S_DAMAGED, S_MOVED, S_ACTED) = SEAT_BLOCK.fields.values()
SIZE = STATE.size

# ---- actions (docs/rules/ufo-o.md, "Action ids": 685 ids in this order) ----------------
ACTIONS = ActionSpace("ufoo actions")
A_MOVE = ACTIONS.range("move", UFOS * MAX_CELLS)  # k * 128 + cell
A_END_MOVE = ACTIONS.single("end_move")
A_VOLLEY = ACTIONS.single("volley")
A_LASER = ACTIONS.range("laser", UFOS * UFOS)  # k * 4 + j
A_ION = ACTIONS.range("ion", UFOS * UFOS)  # k * 4 + j
A_ION_MS = ACTIONS.range("ion_ms", UFOS)
A_REPAIR = ACTIONS.range("repair", UFOS)
A_END_TURN = ACTIONS.single("end_turn")
A_PUSH = ACTIONS.range("push", MAX_CELLS)
A_NO_PUSH = ACTIONS.single("no_push")
A_CRASH = ACTIONS.single("crash")
MAX_ACTIONS = ACTIONS.size

# Nothing is hidden but the dice still to be rolled: bots read the state itself.
PERFECT_INFORMATION = True
OBS_SIZE = SIZE


# ---- small accessors ------------------------------------------------------------------
@inline_kernel
def ufo(s, p, field, k):
    return s[SEAT + p * S_STRIDE + field + k]


@inline_kernel
def seat_add(s, p, field, amount):
    s[SEAT + p * S_STRIDE + field] += amount


@inline_kernel
def word(b, off):
    """A 64-bit word of a board mask (kept as two int32 entries, low half first)."""
    return (np.int64(b[off + 1]) << 32) | (np.int64(b[off]) & 0xFFFFFFFF)


@inline_kernel
def mask(b, off):
    """A 128-bit cell set of the board vector as ``(lo, hi)``."""
    return word(b, off), word(b, off + 2)


@inline_kernel
def put_word(s, off, w):
    lo = w & 0xFFFFFFFF
    hi = (w >> 32) & 0xFFFFFFFF
    s[off] = lo - 0x100000000 if lo >= 0x80000000 else lo
    s[off + 1] = hi - 0x100000000 if hi >= 0x80000000 else hi


@inline_kernel
def bit(c):
    if c < 64:
        return np.int64(1) << c, np.int64(0)
    return np.int64(0), np.int64(1) << (c - 64)


@inline_kernel
def has(lo, hi, c):
    if c < 64:
        return (lo >> c) & 1 != 0
    return (hi >> (c - 64)) & 1 != 0


@inline_kernel
def low_cell(w):
    """Index of the lowest set bit of a non-zero word."""
    return popcount((w & -w) - 1)


@inline_kernel
def occupancy(s, p):
    """The cells of seat ``p``'s UFOs on the board."""
    lo = np.int64(0)
    hi = np.int64(0)
    for k in range(UFOS):
        if ufo(s, p, S_STATUS, k) == ST_BOARD:
            c = ufo(s, p, S_CELL, k)
            if c < 64:
                lo |= np.int64(1) << c
            else:
                hi |= np.int64(1) << (c - 64)
    return lo, hi


@inline_kernel
def ufo_at(s, c):
    """``seat * 4 + k`` of the UFO on cell ``c``, or -1."""
    for p in range(SEATS):
        for k in range(UFOS):
            if ufo(s, p, S_STATUS, k) == ST_BOARD and ufo(s, p, S_CELL, k) == c:
                return p * UFOS + k
    return -1


@kernel
def expand(b, slo, shi, plo, phi, steps):
    """Cells reachable from the set ``s`` in at most ``steps`` steps through the
    passable set ``p`` (the start cells included): a breadth-first search, layer by
    layer, on masks."""
    seen_lo, seen_hi = slo, shi
    flo, fhi = slo, shi
    for _ in range(steps):
        nlo = np.int64(0)
        nhi = np.int64(0)
        while flo != 0:
            c = low_cell(flo)
            flo &= flo - 1
            nlo |= word(b, B_NB_MASK + c * MASK_WORDS)
            nhi |= word(b, B_NB_MASK + c * MASK_WORDS + 2)
        while fhi != 0:
            c = 64 + low_cell(fhi)
            fhi &= fhi - 1
            nlo |= word(b, B_NB_MASK + c * MASK_WORDS)
            nhi |= word(b, B_NB_MASK + c * MASK_WORDS + 2)
        flo = nlo & plo & ~seen_lo
        fhi = nhi & phi & ~seen_hi
        if flo == 0 and fhi == 0:
            break
        seen_lo |= flo
        seen_hi |= fhi
    return seen_lo, seen_hi


# ---- movement (R4) ------------------------------------------------------------------------
@inline_kernel
def first_turn_of(s, p):
    """Whether it is turn 1 and ``p`` is its player (the first player's first turn), when
    the compensations K1 and K2 apply."""
    return s[TURN] == 1 and p == s[FIRST_SEAT]


@kernel
def move_destinations(s, b, p, k):
    """R4.3, R4.4: where seat ``p``'s UFO ``k`` may end its move (ignoring whether it
    moved already): empty hexes within 5 steps through hexes without enemies."""
    st = ufo(s, p, S_STATUS, k)
    olo, ohi = mask(b, B_OPEN_MASK)
    elo, ehi = occupancy(s, 1 - p)
    flo, fhi = occupancy(s, p)
    plo = olo & ~elo
    phi = ohi & ~ehi
    if st == ST_BOARD:
        slo, shi = bit(ufo(s, p, S_CELL, k))
        steps = MOVE_STEPS
    elif st == ST_READY:  # R4.4: from a launch hex not held by an enemy
        llo, lhi = mask(b, B_LAUNCH_MASK + p * MASK_WORDS)
        slo = llo & ~elo
        shi = lhi & ~ehi
        steps = MOVE_STEPS - b[B_LAUNCH_COST]
    else:
        return np.int64(0), np.int64(0)
    if first_turn_of(s, p):  # K2 (a compensation, not in the rulebook)
        steps = min(steps, b[B_FIRST_TURN_STEPS])
    rlo, rhi = expand(b, slo, shi, plo, phi, steps)
    return rlo & plo & ~flo, rhi & phi & ~fhi


@inline_kernel
def can_move(s, b, p, k):
    """R4.1: a UFO on the board or ready that has not moved this turn; in the first
    player's first turn at most ``first_turn_ufos`` of his UFOs move (K1, a compensation)."""
    st = ufo(s, p, S_STATUS, k)
    if not ((st == ST_BOARD or st == ST_READY) and ufo(s, p, S_MOVED, k) == 0):
        return False
    if b[B_FIRST_TURN_UFOS] < UFOS and first_turn_of(s, p):
        moved = 0
        for q in range(UFOS):
            moved += ufo(s, p, S_MOVED, q)
        return moved < b[B_FIRST_TURN_UFOS]
    return True


@kernel
def has_destination(s, b, p, k, free_lo, free_hi):
    """Whether UFO ``k`` has a destination (``free``: the empty hexes of play); a free
    neighbour, or a free launch hex, answers at once."""
    if ufo(s, p, S_STATUS, k) == ST_BOARD:
        c = ufo(s, p, S_CELL, k)
        nlo = word(b, B_NB_MASK + c * MASK_WORDS)
        nhi = word(b, B_NB_MASK + c * MASK_WORDS + 2)
    else:
        nlo, nhi = mask(b, B_LAUNCH_MASK + p * MASK_WORDS)
    if (nlo & free_lo) != 0 or (nhi & free_hi) != 0:
        return True
    dlo, dhi = move_destinations(s, b, p, k)
    return dlo != 0 or dhi != 0


# ---- line of fire (R5) --------------------------------------------------------------------
@inline_kernel
def blocks_fire(s, b, c):
    """R5.3: a hex in between blocks when it is an asteroid (or a picture, A3), or holds a
    UFO with ``ufos_block_fire`` (A2). A hex off the grid (``c`` -1, beside an edge) is
    empty space."""
    if c < 0:
        return False
    return b[B_FIRE_BLOCK + c] != 0 or (b[B_UFOS_BLOCK] != 0 and ufo_at(s, c) >= 0)


@kernel
def in_fire(s, b, src, dst):
    """R5.1-R5.3: whether a UFO on ``src`` has cell ``dst`` in its line of fire. The board's
    fire mask holds the cells at distance 2 whose line terrain does not block; UFOs in
    between are checked here when they block (A2)."""
    if not has(word(b, B_FIRE_MASK + src * MASK_WORDS), word(b, B_FIRE_MASK + src * MASK_WORDS + 2), dst):
        return False
    if b[B_UFOS_BLOCK] == 0:
        return True
    for d in range(6):
        if b[B_LINE_TGT + src * 6 + d] == dst:  # one hex in between
            return not blocks_fire(s, b, b[B_NB + src * 6 + d])
    for i in range(6):  # fire_lines=any: along the edge between two hexes, blocked if both block
        if b[B_OFF_TGT + src * 6 + i] == dst:
            m1 = b[B_OFF_MID + src * 12 + 2 * i]
            m2 = b[B_OFF_MID + src * 12 + 2 * i + 1]
            return not (blocks_fire(s, b, m1) and blocks_fire(s, b, m2))
    return False


# ---- who may do what in the attack phase (R6.1, R7.1, R9) ------------------------------------
@inline_kernel
def can_attack_ufo(s, b, p, k):
    """LASER/ION by UFO ``k``: on the board, no attack or repair yet, no mothership attack
    when that counts as the attack (A20), the player's one attack unused (A4)."""
    if ufo(s, p, S_STATUS, k) != ST_BOARD:
        return False
    acted = ufo(s, p, S_ACTED, k)
    if acted & (ACT_UFO | ACT_REPAIR):
        return False
    if b[B_MS_USES_ATTACK] != 0 and acted & ACT_MS:
        return False
    return b[B_ATTACKS_ONE] == 0 or s[ATTACKS_MADE] == 0


@inline_kernel
def on_enemy_launch(s, b, p, k):
    c = ufo(s, p, S_CELL, k)
    o = 1 - p
    for i in range(UFOS):
        if b[B_LAUNCH + o * UFOS + i] == c:
            return True
    return False


@inline_kernel
def can_attack_ms(s, b, p, k):
    """R7.1: ION_MS by UFO ``k`` (A18, A20)."""
    if ufo(s, p, S_STATUS, k) != ST_BOARD or not on_enemy_launch(s, b, p, k):
        return False
    if b[B_MS_FROM_MOVED] != 0 and ufo(s, p, S_MOVED, k) == 0:
        return False
    if b[B_MS_USES_ATTACK] != 0:
        return can_attack_ufo(s, b, p, k)
    return ufo(s, p, S_ACTED, k) & (ACT_MS | ACT_REPAIR) == 0


@inline_kernel
def can_repair(s, p, k):
    """R9.1: a damaged UFO that has made no attack of any kind and no repair."""
    return ufo(s, p, S_STATUS, k) == ST_BOARD and ufo(s, p, S_DAMAGED, k) != 0 and ufo(s, p, S_ACTED, k) == 0


@inline_kernel
def volley_targets(s, b, p):
    """Enemy UFOs on seat ``p``'s launch hexes (R7.2)."""
    n = 0
    o = 1 - p
    for j in range(UFOS):
        if ufo(s, o, S_STATUS, j) == ST_BOARD:
            c = ufo(s, o, S_CELL, j)
            for i in range(UFOS):
                if b[B_LAUNCH + p * UFOS + i] == c:
                    n += 1
    return n


@inline_kernel
def volley_legal(s, b):
    return b[B_MS_FIRE] == FIRE_ANY_TIME and s[MS_FIRED] == 0 and volley_targets(s, b, s[ACTIVE]) > 0


@kernel
def ufo_target_exists(s, b, p):
    """Whether some LASER/ION of seat ``p`` is legal now (the fire masks answer at once
    unless UFOs may block lines)."""
    o = 1 - p
    elo, ehi = occupancy(s, o)
    for k in range(UFOS):
        if not can_attack_ufo(s, b, p, k):
            continue
        src = ufo(s, p, S_CELL, k)
        flo = word(b, B_FIRE_MASK + src * MASK_WORDS) & elo
        fhi = word(b, B_FIRE_MASK + src * MASK_WORDS + 2) & ehi
        if flo == 0 and fhi == 0:
            continue
        if b[B_UFOS_BLOCK] == 0:
            return True
        for j in range(UFOS):
            if ufo(s, o, S_STATUS, j) == ST_BOARD and in_fire(s, b, src, ufo(s, o, S_CELL, j)):
                return True
    return False


@kernel
def attack_options(s, b):
    """Whether the attack phase offers anything besides END_TURN."""
    p = s[ACTIVE]
    if volley_legal(s, b):
        return True
    for k in range(UFOS):
        if can_attack_ms(s, b, p, k) or can_repair(s, p, k):
            return True
    return ufo_target_exists(s, b, p)


@kernel
def move_options(s, b):
    """Whether the movement phase offers anything besides END_MOVE."""
    p = s[ACTIVE]
    if volley_legal(s, b):
        return True
    free_lo, free_hi = mask(b, B_OPEN_MASK)
    for q in range(SEATS):
        olo, ohi = occupancy(s, q)
        free_lo &= ~olo
        free_hi &= ~ohi
    for k in range(UFOS):
        if can_move(s, b, p, k) and has_destination(s, b, p, k, free_lo, free_hi):
            return True
    return False


# ---- chance ---------------------------------------------------------------------------------
@inline_kernel
def roll(s, rng):
    """One die from the chance stream, written to the step's chance log (R1.8, R13)."""
    v = randint(rng, CHANCE, 6) + 1
    n = s[CHANCE_N]
    if n < LOG_SIZE:
        s[CHANCE_LOG + n] = v
    s[CHANCE_N] = n + 1
    return v


# ---- damage (R6.6) ------------------------------------------------------------------------
@inline_kernel
def destroy(s, p, k):
    """The UFO leaves the board (R6.6, R8.1)."""
    base = SEAT + p * S_STRIDE
    s[base + S_STATUS + k] = ST_DESTROYED
    s[base + S_CELL + k] = -1
    s[base + S_DAMAGED + k] = 0
    s[base + S_UFOS_LOST] += 1


@inline_kernel
def damage(s, p, k):
    """R6.6: a healthy UFO turns damaged, a damaged one is destroyed. True if destroyed."""
    if ufo(s, p, S_DAMAGED, k) != 0:
        destroy(s, p, k)
        return True
    s[SEAT + p * S_STRIDE + S_DAMAGED + k] = 1
    return False


@kernel
def asteroid_roll(s, rng, p, k):
    """R10.2, R10.3: one die; 1-2 is a damage. True if the UFO was destroyed."""
    if roll(s, rng) <= 2:
        seat_add(s, p, S_ASTEROID_DAMAGE, 1)
        return damage(s, p, k)
    return False


# ---- the turn (R3) -----------------------------------------------------------------------------
@kernel
def volley(s, rng, b):
    """R7.2: the active player's mothership lasers every enemy UFO on its launch hexes
    (A23: a die each, or one die for all); no push, no -1."""
    p = s[ACTIVE]
    o = 1 - p
    s[MS_FIRED] = 1
    if volley_targets(s, b, p) == 0:
        return
    single = b[B_VOLLEY_SINGLE] != 0
    hit = False
    if single:
        hit = roll(s, rng) >= 4
    for j in range(UFOS):
        if ufo(s, o, S_STATUS, j) != ST_BOARD:
            continue
        c = ufo(s, o, S_CELL, j)
        target = False
        for i in range(UFOS):
            if b[B_LAUNCH + p * UFOS + i] == c:
                target = True
        if not target:
            continue
        if not single:
            hit = roll(s, rng) >= 4
        if hit:
            seat_add(s, p, S_VOLLEY_HITS, 1)
            if damage(s, o, j):
                seat_add(s, p, S_KILLS, 1)


@kernel
def start_turn(s, rng, b, p):
    """R3.1: the turn counter, respawn (R8.2, R8.3), cleared flags, and with
    ``mothership_fire=start`` the volley (A22)."""
    s[TURN] += 1
    s[ACTIVE] = p
    s[TO_MOVE] = p
    s[PHASE] = PH_MOVE
    restart(rng, CHANCE, s[TURN])
    base = SEAT + p * S_STRIDE
    for k in range(UFOS):
        if s[base + S_STATUS + k] == ST_DOCKED:
            s[base + S_STATUS + k] = ST_READY
    for k in range(UFOS):
        if s[base + S_STATUS + k] == ST_DESTROYED:
            s[base + S_STATUS + k] = ST_READY if b[B_RESPAWN_SAME] != 0 else ST_DOCKED
    for q in range(SEATS):
        for k in range(UFOS):
            s[SEAT + q * S_STRIDE + S_MOVED + k] = 0
            s[SEAT + q * S_STRIDE + S_ACTED + k] = 0
    s[ATTACKS_MADE] = 0
    s[MS_FIRED] = 0
    if b[B_MS_FIRE] == FIRE_START:
        volley(s, rng, b)


@kernel
def end_turn(s, rng, b):
    """R3.5: the volley of ``mothership_fire=end``, then the turn cap (R11.2) or the other
    seat's turn."""
    if b[B_MS_FIRE] == FIRE_END:
        volley(s, rng, b)
    if s[TURN] >= b[B_TURN_CAP]:
        s[DRAW] = 1
        s[OVER] = 1
        s[PHASE] = PH_OVER
        return
    start_turn(s, rng, b, 1 - s[ACTIVE])


@kernel
def end_move(s, rng, b):
    """R3.3, R10.2: the movement's asteroid dice in UFO order (A15, A16), then the attack
    phase, or with ``no_target_ends_turn`` and no UFO in any line of fire the turn's end (A37)."""
    p = s[ACTIVE]
    each = b[B_AST_EACH_MOVE] != 0
    only_moved = b[B_AST_MOVED] != 0
    for k in range(UFOS):
        if ufo(s, p, S_STATUS, k) != ST_BOARD or b[B_AST_ADJ + ufo(s, p, S_CELL, k)] == 0:
            continue
        moved = ufo(s, p, S_MOVED, k) != 0
        if each:
            must = not moved and not only_moved  # the movers rolled after their moves
        else:
            must = moved or not only_moved
        if must:
            asteroid_roll(s, rng, p, k)
    if b[B_NO_TARGET_ENDS] != 0 and not ufo_target_exists(s, b, p):
        end_turn(s, rng, b)
    else:
        s[PHASE] = PH_ATTACK


@kernel
def do_move(s, rng, b, k, c):
    """R4: UFO ``k`` of the active player goes to ``c`` (leaving its mothership if READY)."""
    p = s[ACTIVE]
    base = SEAT + p * S_STRIDE
    s[base + S_STATUS + k] = ST_BOARD
    s[base + S_CELL + k] = c
    s[base + S_MOVED + k] = 1
    if b[B_AST_EACH_MOVE] != 0 and b[B_AST_ADJ + c] != 0:  # A16
        asteroid_roll(s, rng, p, k)


# ---- pushes (R6.4) --------------------------------------------------------------------------------
@inline_kernel
def push_passable(s, b, ls):
    """R6.4.2 (A10): hexes a push of one of seat ``ls``'s UFOs may pass."""
    olo, ohi = mask(b, B_OPEN_MASK)
    through = b[B_PUSH_THROUGH]
    if through == THROUGH_ANY:
        return olo, ohi
    elo, ehi = occupancy(s, 1 - ls)
    if through == THROUGH_EMPTY:
        flo, fhi = occupancy(s, ls)
        return olo & ~elo & ~flo, ohi & ~ehi & ~fhi
    return olo & ~elo, ohi & ~ehi


@kernel
def simple_paths(s, b, c0, m, plo, phi, elo, ehi):
    """D(m) of R6.4.3 for ``push_path=any``: the empty cells ending a path of exactly
    ``m`` steps from ``c0`` through passable cells that never enters a cell twice. A
    depth-first search over paths; the stack lives in the state (``STACK``)."""
    rlo = np.int64(0)
    rhi = np.int64(0)
    s[STACK] = c0
    s[STACK + 1] = 0
    depth = 0
    while depth >= 0:
        cur = s[STACK + 2 * depth]
        if depth == m - 1:
            # last step: every empty neighbour not on the path
            qlo = np.int64(0)
            qhi = np.int64(0)
            for i in range(depth + 1):
                blo, bhi = bit(s[STACK + 2 * i])
                qlo |= blo
                qhi |= bhi
            rlo |= word(b, B_NB_MASK + cur * MASK_WORDS) & elo & ~qlo
            rhi |= word(b, B_NB_MASK + cur * MASK_WORDS + 2) & ehi & ~qhi
            depth -= 1
            continue
        d = s[STACK + 2 * depth + 1]
        if d >= 6:
            depth -= 1
            continue
        s[STACK + 2 * depth + 1] = d + 1
        nxt = b[B_NB + cur * 6 + d]
        if nxt < 0 or not has(plo, phi, nxt):
            continue
        seen = False
        for i in range(depth):
            if s[STACK + 2 * i] == nxt:
                seen = True
        if seen:
            continue
        depth += 1
        s[STACK + 2 * depth] = nxt
        s[STACK + 2 * depth + 1] = 0
    return rlo, rhi


@kernel
def straight_paths(s, b, c0, m, d_only, plo, phi, elo, ehi):
    """D(m) for ``push_path=straight`` (every direction) or ``away`` (``d_only``)."""
    rlo = np.int64(0)
    rhi = np.int64(0)
    for d in range(6):
        if d_only >= 0 and d != d_only:
            continue
        cur = c0
        ok = True
        for _ in range(m):
            nxt = b[B_NB + cur * 6 + d]
            if nxt < 0 or not has(plo, phi, nxt):
                ok = False
                break
            cur = nxt
        if ok and has(elo, ehi, cur):
            blo, bhi = bit(cur)
            rlo |= blo
            rhi |= bhi
    return rlo, rhi


@kernel
def crash_available(s, b, c0, n, d_only, plo, phi):
    """R6.4.4: a path of fewer than ``n`` passable steps continued by a step off the grid
    (A12) or into an asteroid (A13)."""
    off = b[B_OFF_BOARD_CRASH] != 0
    ast = b[B_ASTEROID_CRASH] != 0
    if b[B_PUSH_PATH] == PUSH_ANY:
        slo, shi = bit(c0)
        rlo, rhi = expand(b, slo, shi, plo, phi, n - 1)  # shortest paths are simple
        if off:
            glo, ghi = mask(b, B_EDGE_MASK)
            if (rlo & glo) != 0 or (rhi & ghi) != 0:
                return True
        if ast:
            alo, ahi = mask(b, B_AST_ADJ_MASK)
            if (rlo & alo) != 0 or (rhi & ahi) != 0:
                return True
        return False
    for d in range(6):
        if d_only >= 0 and d != d_only:
            continue
        cur = c0
        for _ in range(n):
            nxt = b[B_NB + cur * 6 + d]
            if nxt < 0:
                if off:
                    return True
                break
            if b[B_TERRAIN + nxt] == T_ASTEROID:
                if ast:
                    return True
                break
            if not has(plo, phi, nxt):
                break
            cur = nxt
    return False


@kernel
def setup_push(s, b, ws, wcell, ls, lk, n):
    """R6.4: the winner's seat ``ws`` may push the loser (seat ``ls``, UFO ``lk``) by ``n``:
    its destinations (R6.4.3) and whether a crash is available (R6.4.4)."""
    c0 = ufo(s, ls, S_CELL, lk)
    plo, phi = push_passable(s, b, ls)
    olo, ohi = mask(b, B_OPEN_MASK)
    alo, ahi = occupancy(s, 0)
    blo, bhi = occupancy(s, 1)
    elo = olo & ~alo & ~blo
    ehi = ohi & ~ahi & ~bhi
    path = b[B_PUSH_PATH]
    d_only = -1
    if path == PUSH_AWAY:  # the line of fire's direction, from the winner's hex to the loser's
        for d in range(6):
            if b[B_LINE_TGT + wcell * 6 + d] == c0:
                d_only = d
    rlo = np.int64(0)
    rhi = np.int64(0)
    if b[B_PUSH_UP_TO] != 0:
        if path == PUSH_ANY:  # D(1) u ... u D(n): cells at most n steps away
            slo, shi = bit(c0)
            xlo, xhi = expand(b, slo, shi, plo, phi, n)
            rlo = xlo & elo
            rhi = xhi & ehi
        else:
            for m in range(1, n + 1):
                xlo, xhi = straight_paths(s, b, c0, m, d_only, plo, phi, elo, ehi)
                rlo |= xlo
                rhi |= xhi
    else:
        m = n
        while m >= 1:  # exact length, shortened to the longest possible (A11)
            if path == PUSH_ANY:
                rlo, rhi = simple_paths(s, b, c0, m, plo, phi, elo, ehi)
            else:
                rlo, rhi = straight_paths(s, b, c0, m, d_only, plo, phi, elo, ehi)
            if rlo != 0 or rhi != 0 or b[B_PUSH_NONE] != 0:
                break
            m -= 1
    put_word(s, PUSH_MASK, rlo)
    put_word(s, PUSH_MASK + 2, rhi)
    s[PUSH_CRASH] = 1 if b[B_OFF_BOARD_CRASH] + b[B_ASTEROID_CRASH] > 0 and crash_available(s, b, c0, n, d_only, plo, phi) else 0
    s[PUSH_SEAT] = ls
    s[PUSH_UFO] = lk
    s[PUSH_WINNER] = ws
    s[PUSH_LEN] = n
    s[PHASE] = PH_PUSH
    s[TO_MOVE] = ws


@kernel
def end_push(s):
    s[PHASE] = PH_ATTACK
    s[TO_MOVE] = s[ACTIVE]
    s[PUSH_SEAT] = 0
    s[PUSH_UFO] = 0
    s[PUSH_WINNER] = 0
    s[PUSH_LEN] = 0
    s[PUSH_CRASH] = 0
    for w in range(MASK_WORDS):
        s[PUSH_MASK + w] = 0


@kernel
def push_to(s, rng, b, c):
    """R6.4.6, R10.3: the loser goes to ``c`` and, beside an asteroid, rolls at once."""
    ls = s[PUSH_SEAT]
    lk = s[PUSH_UFO]
    ws = s[PUSH_WINNER]
    s[SEAT + ls * S_STRIDE + S_CELL + lk] = c
    seat_add(s, ws, S_PUSHES, 1)
    if b[B_AST_ADJ + c] != 0 and asteroid_roll(s, rng, ls, lk):
        seat_add(s, ws, S_KILLS, 1)
    end_push(s)


@kernel
def crash(s):
    """R6.4.4: the loser is pushed off the board or into an asteroid, and destroyed."""
    ws = s[PUSH_WINNER]
    destroy(s, s[PUSH_SEAT], s[PUSH_UFO])
    seat_add(s, ws, S_KILLS, 1)
    seat_add(s, ws, S_PUSHES, 1)
    end_push(s)


@inline_kernel
def push_option_count(s):
    """Legal options of the pending push: destinations, a crash, declining (R6.4.5)."""
    n = 0
    for w in range(MASK_WORDS):
        n += popcount(np.int64(s[PUSH_MASK + w]) & 0xFFFFFFFF)
    crash_ok = s[PUSH_CRASH]
    return n, crash_ok


@inline_kernel
def no_push_legal(s, b, ndest, crash_ok):
    return b[B_PUSH_OPTIONAL] != 0 or (ndest == 0 and crash_ok == 0)


# ---- attacks (R6, R7.1, R9) ------------------------------------------------------------------------
@kernel
def laser(s, rng, b, k, j):
    """R6.3: both roll (attacker first), higher wins, a tie goes to the attacker; the loser
    takes a damage; unless tied, the winner may push it by the difference."""
    p = s[ACTIVE]
    o = 1 - p
    s[SEAT + p * S_STRIDE + S_ACTED + k] |= ACT_UFO
    s[ATTACKS_MADE] += 1
    seat_add(s, p, S_LASERS, 1)
    ra = roll(s, rng)
    rd = roll(s, rng)
    a = ra - ufo(s, p, S_DAMAGED, k)  # R6.7
    d = rd - (ufo(s, o, S_DAMAGED, j) if b[B_DEF_MALUS] != 0 else 0)  # A5
    if a >= d:
        ws, wk, ls, lk = p, k, o, j
        seat_add(s, p, S_LASER_WINS, 1)
    else:
        ws, wk, ls, lk = o, j, p, k
        seat_add(s, o, S_DEFENCES_WON, 1)
    if damage(s, ls, lk):
        seat_add(s, ws, S_KILLS, 1)
    elif a != d:
        setup_push(s, b, ws, ufo(s, ws, S_CELL, wk), ls, lk, a - d if a > d else d - a)


@kernel
def ion(s, rng, b, k, j):
    """R6.5: 4-6 destroys the target; 1-2 (and 0, A6) damages the attacker."""
    p = s[ACTIVE]
    o = 1 - p
    s[SEAT + p * S_STRIDE + S_ACTED + k] |= ACT_UFO
    s[ATTACKS_MADE] += 1
    seat_add(s, p, S_IONS, 1)
    a = roll(s, rng) - ufo(s, p, S_DAMAGED, k)
    if a >= 4:
        destroy(s, o, j)
        seat_add(s, p, S_KILLS, 1)
    elif a <= 2 and (a >= 1 or b[B_ION_ZERO] != 0):
        seat_add(s, p, S_BACKFIRES, 1)
        damage(s, p, k)


@kernel
def ion_ms(s, rng, b, k):
    """R7.1: the ion cannon at the enemy mothership: 4-6 is structure -1 (0 ends the game,
    R11.1); 1-2 backfires (A19)."""
    p = s[ACTIVE]
    o = 1 - p
    s[SEAT + p * S_STRIDE + S_ACTED + k] |= ACT_MS
    if b[B_MS_USES_ATTACK] != 0:
        s[ATTACKS_MADE] += 1
    seat_add(s, p, S_MS_ATTACKS, 1)
    a = roll(s, rng) - ufo(s, p, S_DAMAGED, k)
    if a >= 4:
        seat_add(s, o, S_STRUCTURE, -1)
        seat_add(s, p, S_MS_HITS, 1)
        if ufo(s, o, S_STRUCTURE, 0) <= 0:
            s[OVER] = 1
            s[WINNER] = p
            s[PHASE] = PH_OVER
            s[SEAT + p * S_STRIDE + S_WON] = 1
    elif a <= 2 and (a >= 1 or b[B_ION_ZERO] != 0) and b[B_MS_BACKFIRE] != 0:
        seat_add(s, p, S_BACKFIRES, 1)
        damage(s, p, k)


@kernel
def repair(s, rng, k):
    """R9: instead of attacking, 4-6 turns the UFO healthy."""
    p = s[ACTIVE]
    s[SEAT + p * S_STRIDE + S_ACTED + k] |= ACT_REPAIR
    seat_add(s, p, S_REPAIRS, 1)
    if roll(s, rng) >= 4:
        s[SEAT + p * S_STRIDE + S_DAMAGED + k] = 0
        seat_add(s, p, S_REPAIRS_OK, 1)


# ---- forced decisions (R12.1) ------------------------------------------------------------------------
@kernel
def advance(s, rng, b):
    """Plays every decision that has a single legal action, until a seat has a choice
    or the game is over."""
    while s[OVER] == 0:
        ph = s[PHASE]
        if ph == PH_MOVE:
            if move_options(s, b):
                return
            end_move(s, rng, b)
        elif ph == PH_ATTACK:
            if attack_options(s, b):
                return
            end_turn(s, rng, b)
        else:
            ndest, crash_ok = push_option_count(s)
            nopush = no_push_legal(s, b, ndest, crash_ok)
            if ndest + crash_ok + (1 if nopush else 0) >= 2:
                return
            if crash_ok != 0:
                crash(s)
            elif ndest == 1:
                push_to(s, rng, b, single_push_cell(s))
            else:
                end_push(s)


@inline_kernel
def single_push_cell(s):
    lo = word(s, PUSH_MASK)
    hi = word(s, PUSH_MASK + 2)
    if lo != 0:
        return low_cell(lo)
    return 64 + low_cell(hi)


# ---- the protocol ----------------------------------------------------------------------------------------
@njit
def init_state(seed, b):
    """R2: motherships at their structure, UFO k of each seat healthy on launch hex k;
    the first player by die roll, rerolling ties (R2.3, chance R13.1); then turn 1."""
    rng = new_streams(seed)
    s = np.zeros(SIZE, np.int32)
    s[WINNER] = -1
    for p in range(SEATS):
        base = SEAT + p * S_STRIDE
        s[base + S_STRUCTURE] = b[B_STRUCTURE + p]
        for k in range(UFOS):
            s[base + S_STATUS + k] = ST_BOARD
            s[base + S_CELL + k] = b[B_LAUNCH + p * UFOS + k]
    first = 0
    fp = b[B_FIRST_PLAYER]
    if fp == FIRST_SEAT0:
        first = 0
    elif fp == FIRST_SEAT1:
        first = 1
    else:
        while True:
            r0 = roll(s, rng)
            r1 = roll(s, rng)
            if r0 != r1:
                first = 0 if r0 > r1 else 1
                break
    s[FIRST_SEAT] = first
    s[SEAT + first * S_STRIDE + S_FIRST] = 1
    s[SEAT + (1 - first) * S_STRIDE + S_STRUCTURE] += b[B_SECOND_STRUCTURE]  # K3 (a compensation)
    start_turn(s, rng, b, first)
    advance(s, rng, b)
    return s, rng


@kernel
def legal_actions(s, b, out):
    """The legal actions, in increasing id order (docs/rules/ufo-o.md, "Legality")."""
    if s[OVER] != 0:
        return 0
    n = 0
    p = s[ACTIVE]
    o = 1 - p
    ph = s[PHASE]
    if ph == PH_MOVE:
        for k in range(UFOS):
            if not can_move(s, b, p, k):
                continue
            lo, hi = move_destinations(s, b, p, k)
            while lo != 0:
                out[n] = A_MOVE + k * MAX_CELLS + low_cell(lo)
                lo &= lo - 1
                n += 1
            while hi != 0:
                out[n] = A_MOVE + k * MAX_CELLS + 64 + low_cell(hi)
                hi &= hi - 1
                n += 1
        out[n] = A_END_MOVE
        n += 1
        if volley_legal(s, b):
            out[n] = A_VOLLEY
            n += 1
    elif ph == PH_ATTACK:
        if volley_legal(s, b):
            out[n] = A_VOLLEY
            n += 1
        for weapon in range(2):
            for k in range(UFOS):
                if not can_attack_ufo(s, b, p, k):
                    continue
                src = ufo(s, p, S_CELL, k)
                for j in range(UFOS):
                    if ufo(s, o, S_STATUS, j) == ST_BOARD and in_fire(s, b, src, ufo(s, o, S_CELL, j)):
                        out[n] = (A_LASER if weapon == 0 else A_ION) + k * UFOS + j
                        n += 1
        for k in range(UFOS):
            if can_attack_ms(s, b, p, k):
                out[n] = A_ION_MS + k
                n += 1
        for k in range(UFOS):
            if can_repair(s, p, k):
                out[n] = A_REPAIR + k
                n += 1
        out[n] = A_END_TURN
        n += 1
    else:
        for w in range(2):
            x = word(s, PUSH_MASK + 2 * w)
            while x != 0:
                out[n] = A_PUSH + 64 * w + low_cell(x)
                x &= x - 1
                n += 1
        ndest, crash_ok = push_option_count(s)
        if no_push_legal(s, b, ndest, crash_ok):
            out[n] = A_NO_PUSH
            n += 1
        if crash_ok != 0:
            out[n] = A_CRASH
            n += 1
    return n


@kernel
def apply_action(s, rng, b, a):
    """Plays legal action ``a``, then every forced decision after it (R12.1); the dice
    rolled are in ``chance_log[:chance_n]``."""
    s[CHANCE_N] = 0
    ph = s[PHASE]
    if ph == PH_MOVE:
        if a < A_END_MOVE:
            do_move(s, rng, b, (a - A_MOVE) // MAX_CELLS, (a - A_MOVE) % MAX_CELLS)
        elif a == A_END_MOVE:
            end_move(s, rng, b)
        else:
            volley(s, rng, b)
    elif ph == PH_ATTACK:
        if a == A_VOLLEY:
            volley(s, rng, b)
        elif a < A_ION:
            laser(s, rng, b, (a - A_LASER) // UFOS, (a - A_LASER) % UFOS)
        elif a < A_ION_MS:
            ion(s, rng, b, (a - A_ION) // UFOS, (a - A_ION) % UFOS)
        elif a < A_REPAIR:
            ion_ms(s, rng, b, a - A_ION_MS)
        elif a < A_END_TURN:
            repair(s, rng, a - A_REPAIR)
        else:
            end_turn(s, rng, b)
    else:
        if a < A_NO_PUSH:
            push_to(s, rng, b, a - A_PUSH)
        elif a == A_NO_PUSH:
            end_push(s)
        else:
            crash(s)
    advance(s, rng, b)


@inline_kernel
def to_move(s):
    return s[TO_MOVE]


@inline_kernel
def is_over(s):
    return s[OVER] != 0
