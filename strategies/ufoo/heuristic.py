"""The heuristic bots of Ufo.O: ``aggressive`` and ``tactical``.

Both plan their whole movement at the turn's first movement decision: one UFO after the
other, the UFO nearest the enemy mothership first, each to the destination its score
ranks first, later UFOs seeing the earlier ones where they will stand. The plan is kept
in the seat's memory and played one MOVE at a time. In the attack phase they take one
attack at a time by its expected value, computed exactly from the dice (R6.3, R6.5, R7.1).

* ``aggressive`` rushes the enemy mothership: a destination's score is its distance over
  open terrain to the enemy's launch hexes (nearer is better, a launch hex best). It fires
  its ion cannon at the mothership whenever it can, otherwise its ion cannon at any UFO in
  its line of fire; it repairs only a UFO with nothing to shoot.
* ``tactical`` weighs, for each destination: what it can shoot from there (the best
  expected value of lasers, ion cannon, or the mothership attack, or a repair), the risk
  of being shot next turn (the destination lies in the line of fire of a hex some enemy
  UFO can reach in its move: the enemy's fire lines), the risk of an asteroid roll (1/3)
  and of the enemy mothership's lasers (1/2), and progress toward the enemy mothership.
  It attacks only when the expectation beats a threshold, picks laser or ion by their
  odds, repairs when that is worth more than any shot, and pushes duel losers where they
  roll for asteroids at once, into its other UFOs' lines of fire, or away from its
  mothership.

Values are in "hit points": a damage is worth 1, destroying a UFO 1 more for its other
side and ``W_TEMPO`` for the turns it spends coming back; a structure point is worth
``W_STRUCT`` (the last one wins the game). The weights were tuned with
experiments/tune_ufoo.py (cross-entropy method against aggressive and the previous
weights).

Speed: a destination's full score is computed only where something can be shot or the
enemy mothership attacked (the union of the enemies' fire masks and the enemy's launch
hexes); elsewhere the score is progress minus risks, so the board's cells are scanned
nearest the enemy first and the scan stops when no farther cell can win.

Options (bits of ``flags``): ``LASER_ONLY`` never fires the ion cannon at a UFO (the ion
attack on a mothership stays: it is the only way to win), ``ION_ONLY`` never fires
lasers, ``NO_REPAIR`` never repairs.
"""

from __future__ import annotations

import numpy as np

from simkit.games.ufoo.board import (
    B_AST_ADJ,
    B_AST_MOVED,
    B_BY_DIST,
    B_DIST_START,
    B_DEF_MALUS,
    B_FIRE_MASK,
    B_HOME_DIST,
    B_ION_ZERO,
    B_LAUNCH,
    B_LAUNCH_COST,
    B_LAUNCH_MASK,
    B_MS_BACKFIRE,
    B_MS_FROM_MOVED,
    B_OPEN_MASK,
    B_TIE_RANK,
    B_UFOS_BLOCK,
    MASK_WORDS,
    MAX_CELLS,
)
from simkit.games.ufoo.engine import (
    A_CRASH,
    A_END_MOVE,
    A_END_TURN,
    A_ION,
    A_ION_MS,
    A_LASER,
    A_MOVE,
    A_NO_PUSH,
    A_PUSH,
    A_REPAIR,
    A_VOLLEY,
    ACTIVE,
    MOVE_STEPS,
    PH_ATTACK,
    PH_MOVE,
    PHASE,
    PUSH_MASK,
    PUSH_SEAT,
    PUSH_UFO,
    S_CELL,
    S_DAMAGED,
    S_MOVED,
    S_STATUS,
    S_STRUCTURE,
    SEAT,
    S_STRIDE,
    SIZE,
    ST_BOARD,
    ST_READY,
    TO_MOVE,
    TURN,
    UFOS,
    can_attack_ms,
    can_attack_ufo,
    can_move,
    can_repair,
    expand,
    has,
    in_fire,
    low_cell,
    mask,
    move_destinations,
    no_push_legal,
    occupancy,
    push_option_count,
    ufo,
    volley_legal,
    word,
)
from simkit.jit import inline_kernel, kernel

# options
LASER_ONLY, ION_ONLY, NO_REPAIR = 1, 2, 4

# modes
AGGRESSIVE, TACTICAL = 0, 1

# Weights of the tactical bot (indices into a float array, so that a tuning script can
# try others without recompiling); values in hit points unless said otherwise.
(W_RACE, W_STRUCT, W_TEMPO, W_SHOT, W_AST, W_VOLLEY, W_LAUNCH, W_ATTACK_MIN, W_REPAIR,
 W_PUSH_AST, W_PUSH_FOLLOW, W_PUSH_HOME) = range(12)
N_WEIGHTS = 12
WEIGHT_NAMES = ("W_RACE", "W_STRUCT", "W_TEMPO", "W_SHOT", "W_AST", "W_VOLLEY", "W_LAUNCH", "W_ATTACK_MIN", "W_REPAIR",
                "W_PUSH_AST", "W_PUSH_FOLLOW", "W_PUSH_HOME")
DEFAULT_WEIGHTS = (
    0.455,  # W_RACE: per step nearer the enemy's launch hexes
    4.59,  # W_STRUCT: a structure point of the enemy mothership (the last one wins: WIN_VALUE)
    0.03,  # W_TEMPO: the turns a destroyed UFO spends coming back
    0.1,  # W_SHOT: chance an enemy that can reach a firing position next turn takes the shot
    0.94,  # W_AST: multiplies the 1/3 chance of an asteroid damage
    0.26,  # W_VOLLEY: multiplies the 1/2 chance of the enemy mothership's lasers
    0.0,  # W_LAUNCH: standing on an enemy launch hex, beyond this turn's shot
    0.15,  # W_ATTACK_MIN: the least expected value an attack must promise
    0.74,  # W_REPAIR: a repair (a 4-6 heals one side)
    1.16,  # W_PUSH_AST: multiplies the 1/3 chance a loser pushed beside an asteroid is damaged
    0.41,  # W_PUSH_FOLLOW: pushing the loser into another attacker's line of fire
    0.09,  # W_PUSH_HOME: per step the loser is pushed away from our launch hexes
)
WIN_VALUE = 100.0

# memory of each seat: the turn its plan was made for, then a destination per UFO (-1: stay)
M_TURN, M_PLAN = 0, 1
MEMORY = 1 + UFOS


@kernel
def load_weights(fb):
    for i in range(N_WEIGHTS):
        fb[i] = DEFAULT_WEIGHTS[i]


# ---- odds ---------------------------------------------------------------------------------------
@inline_kernel
def p_laser_win(dk, dd):
    """P(attacker's result >= defender's) for a -1 of ``dk`` on the attacker and ``dd`` on
    the defender (R6.3, R6.7): P(ra - rd >= dk - dd)."""
    delta = dk - dd
    if delta <= -1:
        return 26.0 / 36.0
    if delta == 0:
        return 21.0 / 36.0
    return 15.0 / 36.0


@inline_kernel
def loss_value(wt, damaged):
    """What a damage costs a UFO: its side, or, if already damaged, the UFO (R6.6)."""
    return 1.0 if damaged == 0 else 1.0 + wt[W_TEMPO]


@inline_kernel
def kill_value(wt, damaged):
    """What destroying a UFO outright is worth (ion cannon, R6.5)."""
    return 2.0 - damaged + wt[W_TEMPO]


@inline_kernel
def ion_odds(b, dk):
    """(P(hit), P(backfire)) of an ion-cannon roll by a UFO with -``dk`` (R6.5, A6)."""
    hit = (3.0 - dk) / 6.0
    if dk == 0:
        return hit, 2.0 / 6.0
    return hit, (3.0 if b[B_ION_ZERO] != 0 else 2.0) / 6.0


@inline_kernel
def ion_ev(b, wt, dk, dj):
    hit, back = ion_odds(b, dk)
    return hit * kill_value(wt, dj) - back * loss_value(wt, dk)


@inline_kernel
def laser_ev(b, wt, dk, dj):
    dd = dj if b[B_DEF_MALUS] != 0 else 0
    w = p_laser_win(dk, dd)
    return w * loss_value(wt, dj) - (1.0 - w) * loss_value(wt, dk)


@inline_kernel
def ufo_attack_ev(b, wt, flags, mode, dk, dj):
    """(value, 1 for the ion cannon / 0 for lasers): the better weapon against a UFO (the
    ion cannon for the aggressive bot), within the bot's options; -1e9 if none."""
    ion = -1e9 if flags & LASER_ONLY else ion_ev(b, wt, dk, dj)
    las = -1e9 if flags & ION_ONLY else laser_ev(b, wt, dk, dj)
    if mode == AGGRESSIVE and ion > -1e8:
        return ion, 1
    if ion >= las:
        return ion, 1
    return las, 0


@inline_kernel
def ms_ev(s, b, wt, o, dk):
    hit, back = ion_odds(b, dk)
    if b[B_MS_BACKFIRE] == 0:
        back = 0.0
    value = WIN_VALUE if ufo(s, o, S_STRUCTURE, 0) <= 1 else wt[W_STRUCT]
    return hit * value - back * loss_value(wt, dk)


@inline_kernel
def home_dist(b, seat, c):
    return b[B_HOME_DIST + seat * MAX_CELLS + c]


@inline_kernel
def tie_rank(b, seat, c):
    """The cell's place in seat ``seat``'s order for ties (board.py ``_tie_ranks``: the rows
    nearest the enemy first, seen from the seat's own side, so both seats break ties alike)."""
    return b[B_TIE_RANK + seat * MAX_CELLS + c]


@inline_kernel
def better(sc, best, b, seat, c, pick):
    """Whether cell ``c`` scoring ``sc`` beats the choice so far (``pick``, scoring ``best``;
    a negative ``pick`` is staying or not pushing, which keeps its ties): a higher score, or
    an equal one earlier in the seat's tie order, whatever order the cells were looked at."""
    if sc > best:
        return True
    return sc == best and pick >= 0 and tie_rank(b, seat, c) < tie_rank(b, seat, pick)


@inline_kernel
def fire_lo(b, c):
    return word(b, B_FIRE_MASK + c * MASK_WORDS)


@inline_kernel
def fire_hi(b, c):
    return word(b, B_FIRE_MASK + c * MASK_WORDS + 2)


# ---- movement -------------------------------------------------------------------------------------------
@kernel
def enemy_reach(s, b, o):
    """Cells seat ``o``'s UFOs can stand on after their next move (their cells included):
    one breadth-first search from all of them, through hexes without our UFOs (R4)."""
    olo, ohi = mask(b, B_OPEN_MASK)
    mlo, mhi = occupancy(s, 1 - o)
    slo, shi = occupancy(s, o)
    ready = False
    for j in range(UFOS):
        if ufo(s, o, S_STATUS, j) == ST_READY:
            ready = True
    if ready:
        llo, lhi = mask(b, B_LAUNCH_MASK + o * MASK_WORDS)
        slo |= llo & ~mlo
        shi |= lhi & ~mhi
    return expand(b, slo, shi, olo & ~mlo, ohi & ~mhi, MOVE_STEPS)


@kernel
def shot_value(s, b, wt, flags, mode, p, dk, c):
    """The best expected value of a LASER/ION from cell ``c`` at the enemy UFOs as they stand."""
    o = 1 - p
    best = -1e9
    flo = fire_lo(b, c)
    fhi = fire_hi(b, c)
    for j in range(UFOS):
        if ufo(s, o, S_STATUS, j) != ST_BOARD:
            continue
        cj = ufo(s, o, S_CELL, j)
        if not has(flo, fhi, cj):
            continue
        if b[B_UFOS_BLOCK] != 0 and not in_fire(s, b, c, cj):
            continue
        ev, _ = ufo_attack_ev(b, wt, flags, mode, dk, ufo(s, o, S_DAMAGED, j))
        best = max(best, ev)
    return best


@kernel
def full_score(s, b, wt, flags, mode, p, k, c, moved, on_launch, rlo, rhi):
    """How good it is for seat ``p``'s UFO ``k`` to end its movement on ``c``, with what it
    can shoot from there (``on_launch``: ``c`` is an enemy launch hex; ``r``: the enemy's
    reach, for the risk of being shot)."""
    o = 1 - p
    dk = ufo(s, p, S_DAMAGED, k)
    shot = shot_value(s, b, wt, flags, mode, p, dk, c)
    if mode == AGGRESSIVE:
        score = -1.0 * home_dist(b, o, c)
        if on_launch:
            score += 5.0
        if shot > 0.0:
            score += 0.5 * shot
        return score
    act = shot
    if on_launch and (moved or b[B_MS_FROM_MOVED] == 0):
        act = max(act, ms_ev(s, b, wt, o, dk))
    if dk != 0 and not (flags & NO_REPAIR):
        act = max(act, wt[W_REPAIR])
    act = max(act, 0.0)
    loss = loss_value(wt, dk)
    score = act - wt[W_RACE] * home_dist(b, o, c) - plain_risk(b, wt, c, moved, loss, rlo, rhi)
    if on_launch:
        score += wt[W_LAUNCH] - wt[W_VOLLEY] * 0.5 * loss  # the enemy mothership's lasers next turn
    return score


@inline_kernel
def plain_risk(b, wt, c, moved, loss, rlo, rhi):
    """Risks of standing on ``c``: an enemy shot next turn (``c`` in the line of fire of a
    cell the enemy can reach) and an asteroid roll (R10.2, A15)."""
    risk = 0.0
    if (fire_lo(b, c) & rlo) != 0 or (fire_hi(b, c) & rhi) != 0:
        risk += wt[W_SHOT] * loss
    if b[B_AST_ADJ + c] != 0 and (moved or b[B_AST_MOVED] == 0):
        risk += wt[W_AST] * loss / 3.0
    return risk


@kernel
def best_destination(s, b, wt, flags, mode, p, k, alo, ahi, rlo, rhi):
    """The destination of UFO ``k`` with the best score, or -1 to stay."""
    o = 1 - p
    dk = ufo(s, p, S_DAMAGED, k)
    llo, lhi = mask(b, B_LAUNCH_MASK + o * MASK_WORDS)
    if ufo(s, p, S_STATUS, k) == ST_BOARD:
        here = ufo(s, p, S_CELL, k)
        best = full_score(s, b, wt, flags, mode, p, k, here, False, has(llo, lhi, here), rlo, rhi)
    else:  # staying on the mothership: safe, but far
        best = -(home_dist(b, o, b[B_LAUNCH + p * UFOS]) + 2) * (1.0 if mode == AGGRESSIVE else wt[W_RACE])
    pick = -1
    dlo, dhi = move_destinations(s, b, p, k)
    # where something can be shot or the mothership attacked: the full score
    xlo = dlo & (alo | llo)
    xhi = dhi & (ahi | lhi)
    for half in range(2):
        x = xlo if half == 0 else xhi
        while x != 0:
            c = 64 * half + low_cell(x)
            x &= x - 1
            sc = full_score(s, b, wt, flags, mode, p, k, c, True, has(llo, lhi, c), rlo, rhi)
            if better(sc, best, b, p, c, pick):
                best = sc
                pick = c
    # elsewhere: progress minus risks; cells nearest the enemy first, until none can win
    plo = dlo & ~xlo
    phi = dhi & ~xhi
    if plo == 0 and phi == 0:
        return pick
    race = 1.0 if mode == AGGRESSIVE else wt[W_RACE]
    base = 0.0
    if mode == TACTICAL and dk != 0 and not (flags & NO_REPAIR):
        base = wt[W_REPAIR]
    loss = loss_value(wt, dk)
    order = B_BY_DIST + o * MAX_CELLS
    # every destination is at most MOVE_STEPS from the UFO's hex (or its launch hexes), so no
    # nearer cell can be one: start the scan there
    if ufo(s, p, S_STATUS, k) == ST_BOARD:
        near = home_dist(b, o, ufo(s, p, S_CELL, k))
    else:
        near = 1 << 20
        for i in range(UFOS):
            near = min(near, home_dist(b, o, b[B_LAUNCH + p * UFOS + i]))
    start = b[B_DIST_START + o * MAX_CELLS + min(max(near - MOVE_STEPS, 0), MAX_CELLS - 1)]
    for i in range(start, MAX_CELLS):
        c = b[order + i]
        if c < 0:
            break
        upper = base - race * home_dist(b, o, c)
        if upper < best:  # an equal score may still win a tie (``better``)
            break
        if not has(plo, phi, c):
            continue
        sc = upper
        if mode == TACTICAL:
            sc -= plain_risk(b, wt, c, True, loss, rlo, rhi)
        if better(sc, best, b, p, c, pick):
            best = sc
            pick = c
    return pick


@kernel
def plan_moves(s, b, wt, flags, mode, mem, w):
    """Each UFO's destination, one UFO after the other, the UFOs nearest the enemy
    mothership first; the plan's moves are played in that order, so each later UFO sees
    the earlier ones where they will stand. ``w`` is a scratch copy of the state the
    planning moves are made on."""
    for i in range(SIZE):
        w[i] = s[i]
    p = w[ACTIVE]
    o = 1 - p
    mem[M_TURN] = w[TURN]
    alo = np.int64(0)  # cells from which an enemy UFO can be shot (fire lines are symmetric)
    ahi = np.int64(0)
    for j in range(UFOS):
        if ufo(w, o, S_STATUS, j) == ST_BOARD:
            alo |= fire_lo(b, ufo(w, o, S_CELL, j))
            ahi |= fire_hi(b, ufo(w, o, S_CELL, j))
    rlo = np.int64(0)
    rhi = np.int64(0)
    if mode == TACTICAL and wt[W_SHOT] != 0.0:
        rlo, rhi = enemy_reach(w, b, o)
    for i in range(UFOS):
        mem[M_PLAN + i] = -1
    done = 0
    for _ in range(UFOS):
        k = next_to_plan(w, b, p, done)
        if k < 0:
            break
        done |= 1 << k
        pick = best_destination(w, b, wt, flags, mode, p, k, alo, ahi, rlo, rhi)
        mem[M_PLAN + k] = pick
        if pick >= 0:  # the next UFOs plan around this one's new cell
            w[SEAT + p * S_STRIDE + S_CELL + k] = pick
            w[SEAT + p * S_STRIDE + S_STATUS + k] = ST_BOARD
            w[SEAT + p * S_STRIDE + S_MOVED + k] = 1


@inline_kernel
def next_to_plan(s, b, p, done):
    """The movable UFO not yet planned that stands nearest the enemy's launch hexes."""
    o = 1 - p
    k = -1
    kd = 1 << 20
    for q in range(UFOS):
        if (done >> q) & 1 or not can_move(s, b, p, q):
            continue
        d = home_dist(b, o, ufo(s, p, S_CELL, q)) if ufo(s, p, S_STATUS, q) == ST_BOARD else 1000
        if d < kd:
            kd = d
            k = q
    return k


@kernel
def move_decision(s, b, wt, flags, mode, mem, w):
    """The movement decision: the volley first if it can hit, then the plan's moves in the
    order they were planned, then the end of the movement."""
    if volley_legal(s, b):
        return A_VOLLEY
    p = s[ACTIVE]
    if mem[M_TURN] != s[TURN]:
        plan_moves(s, b, wt, flags, mode, mem, w)
    o = 1 - p
    k = -1
    kd = 1 << 20
    for q in range(UFOS):
        if mem[M_PLAN + q] < 0 or not can_move(s, b, p, q):
            continue
        d = home_dist(b, o, ufo(s, p, S_CELL, q)) if ufo(s, p, S_STATUS, q) == ST_BOARD else 1000
        if d < kd:
            kd = d
            k = q
    if k >= 0:
        c = mem[M_PLAN + k]
        mem[M_PLAN + k] = -1
        return A_MOVE + k * MAX_CELLS + c
    return A_END_MOVE


# ---- attacks ----------------------------------------------------------------------------------------------
@kernel
def attack_decision(s, b, wt, flags, mode):
    """The attack with the best expected value, if it is worth making (R6, R7.1, R9)."""
    if volley_legal(s, b):
        return A_VOLLEY
    p = s[ACTIVE]
    o = 1 - p
    elo, ehi = occupancy(s, o)
    best = wt[W_ATTACK_MIN] if mode == TACTICAL else -1e8
    pick = A_END_TURN
    for k in range(UFOS):
        if ufo(s, p, S_STATUS, k) != ST_BOARD:
            continue
        dk = ufo(s, p, S_DAMAGED, k)
        if can_attack_ms(s, b, p, k):
            ev = ms_ev(s, b, wt, o, dk) if mode == TACTICAL else 1000.0
            if ev > best:
                best = ev
                pick = A_ION_MS + k
        src = ufo(s, p, S_CELL, k)
        if ((fire_lo(b, src) & elo) != 0 or (fire_hi(b, src) & ehi) != 0) and can_attack_ufo(s, b, p, k):
            for j in range(UFOS):
                cj = ufo(s, o, S_CELL, j)
                if ufo(s, o, S_STATUS, j) != ST_BOARD or not in_fire(s, b, src, cj):
                    continue
                ev, weapon = ufo_attack_ev(b, wt, flags, mode, dk, ufo(s, o, S_DAMAGED, j))
                if ev < -1e8:
                    continue
                if mode == AGGRESSIVE:
                    ev = 100.0 + ev
                if ev > best:
                    best = ev
                    pick = (A_ION if weapon == 1 else A_LASER) + k * UFOS + j
        if not (flags & NO_REPAIR) and can_repair(s, p, k):
            ev = wt[W_REPAIR] if mode == TACTICAL else 0.0
            if ev > best:
                best = ev
                pick = A_REPAIR + k
    return pick


# ---- pushes -----------------------------------------------------------------------------------------------
@kernel
def push_score(s, b, wt, me, ls, lk, c, moved):
    """How good it is for seat ``me`` that the enemy UFO it beat ends on ``c`` (``moved``:
    pushed there, so it rolls for asteroids at once, R10.3)."""
    score = 0.0
    if moved and b[B_AST_ADJ + c] != 0:
        score += wt[W_PUSH_AST] * loss_value(wt, ufo(s, ls, S_DAMAGED, lk)) / 3.0
    score += wt[W_PUSH_HOME] * min(home_dist(b, me, c), 12)  # away from our mothership
    if s[ACTIVE] == me:  # our UFOs that may still attack can finish it off
        for k in range(UFOS):
            if can_attack_ufo(s, b, me, k) and in_fire(s, b, ufo(s, me, S_CELL, k), c):
                score += wt[W_PUSH_FOLLOW]
                break
    else:
        llo, lhi = mask(b, B_LAUNCH_MASK + me * MASK_WORDS)
        if has(llo, lhi, c):
            score += 0.5 * wt[W_PUSH_FOLLOW]  # our mothership's lasers next turn
    return score


@kernel
def push_decision(s, b, wt):
    """The winner's push: the best destination, or none if staying is better (R6.4)."""
    me = s[TO_MOVE]
    ls = s[PUSH_SEAT]
    lk = s[PUSH_UFO]
    ndest, crash_ok = push_option_count(s)
    if crash_ok != 0:
        return A_CRASH
    best = -1e9
    pick = A_NO_PUSH
    if no_push_legal(s, b, ndest, crash_ok):
        best = push_score(s, b, wt, me, ls, lk, ufo(s, ls, S_CELL, lk), False)
    for half in range(2):
        x = word(s, PUSH_MASK + 2 * half)
        while x != 0:
            c = 64 * half + low_cell(x)
            x &= x - 1
            sc = push_score(s, b, wt, me, ls, lk, c, True)
            if better(sc, best, b, me, c, pick - A_PUSH if pick != A_NO_PUSH else -1):
                best = sc
                pick = A_PUSH + c
    return pick


@kernel
def choose_with(s, b, wt, flags, mode, mem, w):
    """The heuristic bot's action with weights ``wt`` (``w``: int scratch, a state's size)."""
    ph = s[PHASE]
    if ph == PH_MOVE:
        return move_decision(s, b, wt, flags, mode, mem, w)
    if ph == PH_ATTACK:
        return attack_decision(s, b, wt, flags, mode)
    return push_decision(s, b, wt)


@kernel
def choose(s, b, flags, mode, mem, ib, fb):
    load_weights(fb)
    return choose_with(s, b, fb, flags, mode, mem, ib)
