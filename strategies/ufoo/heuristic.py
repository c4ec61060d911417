"""The heuristic bots of Ufo.O: ``aggressive`` and ``tactical``.

Both plan their whole movement at the turn's first movement decision (one UFO after the
other, each to the destination its score ranks first, later UFOs seeing the earlier ones
where they will stand), keep the plan in the seat's memory and play it out one MOVE at a
time. In the attack phase they take one attack at a time by its expected value, computed
exactly from the dice (R6.3, R6.5, R7.1).

* ``aggressive`` rushes the enemy mothership: it scores a destination by its distance over
  open terrain to the enemy's launch hexes, fires its ion cannon at the mothership whenever
  it can, and otherwise its ion cannon at any UFO in its line of fire.
* ``tactical`` scores a destination by what it can shoot from there (the best expected
  value of lasers, ion cannon, or the mothership attack), the risk of being shot next turn
  (the cells enemies can hit after a move of 5: their fire lines), asteroid and mothership
  laser risk and a little progress toward the enemy mothership. It picks laser or ion by
  their odds, attacks only when the expectation is positive, repairs damaged UFOs instead
  of weak attacks, and pushes duel losers next to asteroids (where they roll at once) or
  into its other UFOs' lines of fire.

Values are in "hit points": a damage is worth 1, destroying a UFO 1 more for its
remaining side and ``TEMPO`` for the turns it spends coming back; a structure point is
worth ``STRUCTURE_VALUE`` (the last one wins the game).

Options (bits of ``flags``): ``LASER_ONLY`` never fires the ion cannon at a UFO (the ion
attack on a mothership stays: it is the only way to win), ``ION_ONLY`` never fires
lasers, ``NO_REPAIR`` never repairs.
"""

from __future__ import annotations

import numpy as np

from simkit.games.ufoo.board import (
    B_AST_ADJ,
    B_AST_MOVED,
    B_DEF_MALUS,
    B_FIRE_MASK,
    B_HOME_DIST,
    B_ION_ZERO,
    B_LAUNCH,
    B_LAUNCH_MASK,
    B_MS_BACKFIRE,
    B_MS_FROM_MOVED,
    B_OPEN_MASK,
    MASK_WORDS,
    MAX_CELLS,
)
from simkit.games.ufoo.engine import (
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
    A_CRASH,
    SIZE,
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
(W_RACE, W_STRUCT, W_TEMPO, W_SHOT, W_AST, W_VOLLEY, W_DEFEND, W_HOME, W_ATTACK_MIN, W_REPAIR,
 W_PUSH_AST, W_PUSH_FOLLOW, W_PUSH_HOME, W_HOME_RADIUS) = range(14)
N_WEIGHTS = 14
DEFAULT_WEIGHTS = (
    0.35,  # W_RACE: per step nearer the enemy's launch hexes
    4.0,  # W_STRUCT: a structure point of the enemy mothership (the last one wins: WIN_VALUE)
    1.0,  # W_TEMPO: the turns a destroyed UFO spends coming back
    0.3,  # W_SHOT: chance an enemy that can reach a firing position next turn takes the shot
    1.0,  # W_AST: multiplies the 1/3 chance of an asteroid damage
    1.0,  # W_VOLLEY: multiplies the 1/2 chance of the enemy mothership's lasers
    0.5,  # W_DEFEND: extra value of shooting an enemy UFO near our launch hexes
    0.2,  # W_HOME: per step nearer our launch hexes while enemies threaten them
    0.05,  # W_ATTACK_MIN: the least expected value an attack must promise
    0.5,  # W_REPAIR: a repair (a 4-6 heals one side)
    1.0,  # W_PUSH_AST: multiplies the 1/3 chance a loser pushed beside an asteroid is damaged
    0.5,  # W_PUSH_FOLLOW: pushing the loser into another attacker's line of fire
    0.1,  # W_PUSH_HOME: per step the loser is pushed away from our launch hexes
    3.0,  # W_HOME_RADIUS: enemy UFOs this close to our launch hexes threaten them
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
def on_launch(b, seat, c):
    for i in range(UFOS):
        if b[B_LAUNCH + seat * UFOS + i] == c:
            return True
    return False


@inline_kernel
def home_dist(b, seat, c):
    return b[B_HOME_DIST + seat * MAX_CELLS + c]


@inline_kernel
def fire_word(b, c, half):
    return word(b, B_FIRE_MASK + c * MASK_WORDS + 2 * half)


# ---- the enemy's reach ----------------------------------------------------------------------------
@kernel
def danger_mask(s, b, o):
    """Cells enemy seat ``o`` can fire at next turn: those in the line of fire (as far as
    terrain goes) of some cell one of its UFOs can reach in a move (R4, R5)."""
    dlo = np.int64(0)
    dhi = np.int64(0)
    for j in range(UFOS):
        st = ufo(s, o, S_STATUS, j)
        if st != ST_BOARD and st != ST_READY:
            continue
        rlo, rhi = move_destinations(s, b, o, j)
        if st == ST_BOARD:
            c = ufo(s, o, S_CELL, j)
            dlo |= fire_word(b, c, 0)
            dhi |= fire_word(b, c, 1)
        while rlo != 0:
            c = low_cell(rlo)
            rlo &= rlo - 1
            dlo |= fire_word(b, c, 0)
            dhi |= fire_word(b, c, 1)
        while rhi != 0:
            c = 64 + low_cell(rhi)
            rhi &= rhi - 1
            dlo |= fire_word(b, c, 0)
            dhi |= fire_word(b, c, 1)
    return dlo, dhi


@kernel
def threat_near_home(s, b, wt, p):
    """Enemy UFOs within ``W_HOME_RADIUS`` steps of seat ``p``'s launch hexes."""
    o = 1 - p
    n = 0
    for j in range(UFOS):
        if ufo(s, o, S_STATUS, j) == ST_BOARD and home_dist(b, p, ufo(s, o, S_CELL, j)) <= wt[W_HOME_RADIUS]:
            n += 1
    return n


# ---- movement -------------------------------------------------------------------------------------------
@kernel
def best_shot(s, b, wt, flags, mode, p, dk, c, alo, ahi, home_threat):
    """The best expected value of a LASER/ION from cell ``c`` at the enemy UFOs as they
    stand (``a``: the cells from which some enemy can be fired at, a quick filter)."""
    if not has(alo, ahi, c):
        return -1e9
    o = 1 - p
    best = -1e9
    for j in range(UFOS):
        if ufo(s, o, S_STATUS, j) != ST_BOARD:
            continue
        cj = ufo(s, o, S_CELL, j)
        if not in_fire(s, b, c, cj):
            continue
        ev, _ = ufo_attack_ev(b, wt, flags, mode, dk, ufo(s, o, S_DAMAGED, j))
        if mode == TACTICAL and home_threat > 0 and home_dist(b, p, cj) <= wt[W_HOME_RADIUS]:
            ev += wt[W_DEFEND]
        best = max(best, ev)
    return best


@kernel
def cell_score(s, b, wt, flags, mode, p, k, c, moved, alo, ahi, dlo, dhi, home_threat):
    """How good it is for seat ``p``'s UFO ``k`` to end its movement on ``c``."""
    o = 1 - p
    dk = ufo(s, p, S_DAMAGED, k)
    shot = best_shot(s, b, wt, flags, mode, p, dk, c, alo, ahi, home_threat)
    if mode == AGGRESSIVE:
        score = -1.0 * home_dist(b, o, c)
        if on_launch(b, o, c):
            score += 5.0
        if shot > 0.0:
            score += 0.5 * shot
        return score
    act = 0.0
    if on_launch(b, o, c) and (moved or b[B_MS_FROM_MOVED] == 0):
        act = max(act, ms_ev(s, b, wt, o, dk))
    act = max(act, shot)
    if dk != 0 and not (flags & NO_REPAIR):
        act = max(act, wt[W_REPAIR])
    loss = loss_value(wt, dk)
    score = act - wt[W_RACE] * home_dist(b, o, c)
    if has(dlo, dhi, c):
        score -= wt[W_SHOT] * loss
    if b[B_AST_ADJ + c] != 0 and (moved or b[B_AST_MOVED] == 0):
        score -= wt[W_AST] * loss / 3.0
    if on_launch(b, o, c):
        score -= wt[W_VOLLEY] * 0.5 * loss  # the enemy mothership's lasers next turn
    if home_threat > 0:
        score -= wt[W_HOME] * home_dist(b, p, c)
    return score


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
    alo = np.int64(0)
    ahi = np.int64(0)
    for j in range(UFOS):
        if ufo(w, o, S_STATUS, j) == ST_BOARD:
            alo |= fire_word(b, ufo(w, o, S_CELL, j), 0)
            ahi |= fire_word(b, ufo(w, o, S_CELL, j), 1)
    dlo = np.int64(0)
    dhi = np.int64(0)
    home_threat = 0
    if mode == TACTICAL:
        if wt[W_SHOT] != 0.0:
            dlo, dhi = danger_mask(w, b, o)
        home_threat = threat_near_home(w, b, wt, p)
    for i in range(UFOS):
        mem[M_PLAN + i] = -1
    done = 0
    for _ in range(UFOS):
        # the unplanned UFO nearest the enemy's launch hexes plans next
        k = -1
        kd = 1 << 20
        for q in range(UFOS):
            if (done >> q) & 1 or not can_move(w, p, q):
                continue
            st = ufo(w, p, S_STATUS, q)
            d = home_dist(b, o, ufo(w, p, S_CELL, q)) if st == ST_BOARD else 1000
            if d < kd:
                kd = d
                k = q
        if k < 0:
            break
        done |= 1 << k
        if ufo(w, p, S_STATUS, k) == ST_BOARD:
            best = cell_score(w, b, wt, flags, mode, p, k, ufo(w, p, S_CELL, k), False, alo, ahi, dlo, dhi, home_threat)
        else:  # staying on the mothership: safe, but far
            best = -(home_dist(b, o, b[B_LAUNCH + p * UFOS]) + 2) * (1.0 if mode == AGGRESSIVE else wt[W_RACE])
        lo, hi = move_destinations(w, b, p, k)
        pick = -1
        for half in range(2):
            x = lo if half == 0 else hi
            while x != 0:
                c = 64 * half + low_cell(x)
                x &= x - 1
                sc = cell_score(w, b, wt, flags, mode, p, k, c, True, alo, ahi, dlo, dhi, home_threat)
                if sc > best:
                    best = sc
                    pick = c
        mem[M_PLAN + k] = pick
        if pick >= 0:  # the next UFOs plan around this one's new cell
            w[SEAT + p * S_STRIDE + S_CELL + k] = pick
            w[SEAT + p * S_STRIDE + S_STATUS + k] = ST_BOARD
            w[SEAT + p * S_STRIDE + S_MOVED + k] = 1


@kernel
def move_decision(s, b, wt, flags, mode, mem, w):
    """The movement decision: the volley first if it can hit, then the plan's moves,
    then the end of the movement."""
    if volley_legal(s, b):
        return A_VOLLEY
    p = s[ACTIVE]
    if mem[M_TURN] != s[TURN]:
        plan_moves(s, b, wt, flags, mode, mem, w)
    # the plan's moves, nearest the enemy first (the order they were planned in)
    o = 1 - p
    k = -1
    kd = 1 << 20
    for q in range(UFOS):
        if mem[M_PLAN + q] < 0 or not can_move(s, p, q):
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
    home_threat = threat_near_home(s, b, wt, p) if mode == TACTICAL else 0
    best = wt[W_ATTACK_MIN] if mode == TACTICAL else -1e8
    pick = A_END_TURN
    for k in range(UFOS):
        if ufo(s, p, S_STATUS, k) != ST_BOARD:
            continue
        dk = ufo(s, p, S_DAMAGED, k)
        if can_attack_ms(s, b, p, k):
            ev = ms_ev(s, b, wt, o, dk)
            if mode == AGGRESSIVE:
                ev = 1000.0
            if ev > best:
                best = ev
                pick = A_ION_MS + k
        if can_attack_ufo(s, b, p, k):
            src = ufo(s, p, S_CELL, k)
            for j in range(UFOS):
                cj = ufo(s, o, S_CELL, j)
                if ufo(s, o, S_STATUS, j) != ST_BOARD or not in_fire(s, b, src, cj):
                    continue
                ev, weapon = ufo_attack_ev(b, wt, flags, mode, dk, ufo(s, o, S_DAMAGED, j))
                if ev < -1e8:
                    continue
                if mode == AGGRESSIVE:
                    ev = 100.0 + ev
                elif home_threat > 0 and home_dist(b, p, cj) <= wt[W_HOME_RADIUS]:
                    ev += wt[W_DEFEND]
                if ev > best:
                    best = ev
                    pick = (A_ION if weapon == 1 else A_LASER) + k * UFOS + j
        if can_repair(s, p, k) and not (flags & NO_REPAIR):
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
    elif on_launch(b, me, c):
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
            if sc > best:
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
