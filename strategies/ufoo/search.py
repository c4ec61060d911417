"""``search``: Monte Carlo rollouts with the tactical bot.

At the first movement decision of its turn it builds a few candidate movement plans (the
tactical plan, the aggressive plan, a cautious tactical plan that keeps out of the enemy's
fire lines, a bolder one that ignores risks, and staying put) and plays each out
``budget`` times with the tactical bot for both seats, the dice drawn from the bot's own
stream, to the start of its next turn (``HORIZON``), where the position is scored by a
logistic model of the win probability fitted on tactical games (``VALUE_COEF``,
experiments/fit_ufoo_value.py); a game that ends on the way scores 1 or 0. Every candidate
sees the same dice (common random numbers). In the attack phase it does the same for each
attack worth considering (the tactical bot's choice, ending the turn, and every attack or
repair with a positive expectation). Pushes are the tactical bot's.

It leaves the tactical bot's choice only for a candidate whose mean value is higher by
``Z_DEVIATE`` standard errors of the paired differences: with few rollouts the best-looking
candidate is mostly noise (a first version without this test won 45% [42, 48] of 1,000
games against tactical).

It never sees the game's chance stream: rollouts draw from the bot's stream (``rng``'s
chance and seed slots, which the game loop leaves empty for bots, are borrowed for the
rollout and cleared afterwards). Everything runs compiled on state copies in the scratch
arrays.

Budget (``search:budget=N``): rollouts per candidate (movement plan or attack), 8 by
default, at most 128 (the scratch keeps every rollout's value). The
restrictions of the heuristic bots (``laser-only``, ``ion-only``, ``no-repair``) apply to its
candidates and to its own side in the rollouts. ``tactical-moves`` searches only the attacks
(movement as tactical), ``tactical-attacks`` only the movement.
"""

from __future__ import annotations

import numpy as np

from simkit.game import Number
from simkit.games.ufoo.engine import (
    A_END_MOVE,
    A_END_TURN,
    A_ION,
    A_ION_MS,
    A_LASER,
    A_REPAIR,
    ACTIVE,
    OVER,
    PH_ATTACK,
    PH_MOVE,
    PHASE,
    S_CELL,
    S_DAMAGED,
    S_STATUS,
    S_STRUCTURE,
    SIZE,
    ST_BOARD,
    ST_READY,
    TO_MOVE,
    TURN,
    UFOS,
    WINNER,
    apply_action,
    can_attack_ms,
    can_attack_ufo,
    can_repair,
    in_fire,
    ufo,
    volley_legal,
)
from simkit.jit import kernel
from simkit.rng import BOT, CHANCE, next_u64

from . import heuristic as H
from .heuristic import (
    AGGRESSIVE,
    M_PLAN,
    M_TURN,
    MEMORY,
    N_WEIGHTS,
    NO_REPAIR,
    TACTICAL,
    W_ATTACK_MIN,
    W_RACE,
    W_SHOT,
)

NO_PLAN_SEARCH, NO_ATTACK_SEARCH = 32, 64  # option bits (after the heuristic bots' restrictions 1, 2, 4)
# two rollouts at least: a candidate must beat tactical's by standard errors of the differences
BUDGET = Number(lo=2, hi=128, default=8, shift=7, help="rollouts per candidate movement plan or attack")
BUDGET_SHIFT = BUDGET.shift
BUDGET_MASK = (1 << BUDGET.bits) - 1
MAX_ROLLOUTS = BUDGET.hi
HORIZON = 2  # turns a rollout plays: to the start of our next turn, then the value of the position
Z_DEVIATE = 2.0  # a candidate replaces the tactical bot's choice only if it beats it by this many standard errors
MAX_CAND = 12
SEED_SLOT = 2  # the rng slot restart() reads the game's seed from

# int scratch
I_STATE = 0  # the rollout's state
I_PLAN_W = I_STATE + SIZE  # the heuristic's planning copy
I_MEM = I_PLAN_W + SIZE  # the two seats' heuristic memory during a rollout
I_CAND = I_MEM + 2 * MEMORY  # candidate plans (MEMORY ints each) or actions
I_SEEDS = I_CAND + MAX_CAND * MEMORY  # two seeds per rollout, as four 32-bit halves
SCRATCH = max(I_SEEDS + 4 * MAX_ROLLOUTS + 16, 96 + MAX_CAND * MAX_ROLLOUTS)
# float scratch
F_WT = 0  # the tactical weights
F_VAR = 16  # a variant's weights
F_SCORE = 32  # candidates' summed values
F_FEAT = 64  # features of a position
F_VALS = 96  # each rollout's value: candidate c, rollout r at c * MAX_ROLLOUTS + r


@kernel
def rollouts(flags):
    """The number of rollouts per candidate (the budget)."""
    return (flags >> BUDGET_SHIFT) & BUDGET_MASK


@kernel
def draw_seeds(rng, ib, n):
    """Two 64-bit seeds per rollout from the bot stream, kept as 32-bit halves."""
    for r in range(2 * n):
        x = next_u64(rng, BOT)
        ib[I_SEEDS + 2 * r] = np.int32(np.int64(x & np.uint64(0x7FFFFFFF)))
        ib[I_SEEDS + 2 * r + 1] = np.int32(np.int64((x >> np.uint64(33)) & np.uint64(0x7FFFFFFF)))


@kernel
def seed_of(ib, r, which):
    lo = np.uint64(ib[I_SEEDS + 4 * r + 2 * which])
    hi = np.uint64(ib[I_SEEDS + 4 * r + 2 * which + 1])
    return (hi << np.uint64(31)) | lo


@kernel
def play_out(s, rng, b, ib, fb, flags, me):
    """Plays the state copy in ``ib[I_STATE:]`` to the end (or the horizon) with the
    tactical bot for both seats and the dice of the rollout's stream (set by the caller
    in ``rng``); 1 if ``me`` won, 0 if it lost, otherwise the fitted value of the
    position at the start of our next turn. ``s`` is the real state (only read). The
    borrowed rng slots are cleared."""
    w = ib[I_STATE:I_STATE + SIZE]
    stop = s[TURN] + HORIZON
    wt = fb[F_WT:F_WT + N_WEIGHTS]
    plan_w = ib[I_PLAN_W:I_PLAN_W + SIZE]
    while w[OVER] == 0 and w[TURN] < stop:
        p = w[TO_MOVE]
        mem = ib[I_MEM + p * MEMORY:I_MEM + (p + 1) * MEMORY]
        a = H.choose_with(w, b, wt, flags if p == me else 0, TACTICAL, mem, plan_w)
        apply_action(w, rng, b, a)
    rng[CHANCE] = np.uint64(0)
    rng[SEED_SLOT] = np.uint64(0)
    return value(w, b, me, fb)


@kernel
def pick_best(fb, n, reps):
    """The candidate with the highest mean value if it beats the first (the tactical bot's
    choice) by ``Z_DEVIATE`` standard errors of their paired differences (the rollouts of
    all candidates share their dice); else the first."""
    best = 0
    for c in range(1, n):
        if fb[F_SCORE + c] > fb[F_SCORE + best]:
            best = c
    if best == 0:
        return 0
    mean = (fb[F_SCORE + best] - fb[F_SCORE]) / reps
    var = 0.0
    for r in range(reps):
        d = fb[F_VALS + best * MAX_ROLLOUTS + r] - fb[F_VALS + r] - mean
        var += d * d
    se = np.sqrt(var / max(reps - 1, 1) / reps)
    if mean > Z_DEVIATE * se:
        return best
    return 0


@kernel
def start_rollout(s, ib):
    for i in range(SIZE):
        ib[I_STATE + i] = s[i]
    for i in range(2 * MEMORY):
        ib[I_MEM + i] = 0


# ---- the value of a position -------------------------------------------------------------------
N_FEATURES = 15
# Logistic regression of the seat to move's win on FEATURES at the start of its turn, fitted
# on tactical-against-tactical games (experiments/fit_ufoo_value.py).
VALUE_COEF = (0.2415, 0.7996, -0.8385, -0.3138, 0.7134, 0.07427, -0.2132, 0.05648, 0.2646, -0.1224, 0.2421, -0.04505, 0.03766,
              0.2142, 0.02994)


@kernel
def features(s, b, me, out):
    """What the value of a position looks at, for seat ``me`` (see ``VALUE_COEF``)."""
    o = 1 - me
    for i in range(N_FEATURES):
        out[i] = 0.0
    out[0] = 1.0
    sm = ufo(s, me, S_STRUCTURE, 0)
    so = ufo(s, o, S_STRUCTURE, 0)
    out[1] = sm
    out[2] = so
    out[3] = 1.0 if sm == 1 else 0.0
    out[4] = 1.0 if so == 1 else 0.0
    for side in range(2):
        p = me if side == 0 else o
        q = 1 - p
        for k in range(UFOS):
            st = ufo(s, p, S_STATUS, k)
            if st == ST_BOARD:
                c = ufo(s, p, S_CELL, k)
                if ufo(s, p, S_DAMAGED, k) != 0:
                    out[6 + 2 * side] += 1.0
                else:
                    out[5 + 2 * side] += 1.0
                if H.home_dist(b, q, c) == 0:
                    out[9 + side] += 1.0
                out[11 + side] += min(H.home_dist(b, q, c), 12)
            else:
                out[11 + side] += 12.0
                if st == ST_READY:
                    out[13 + side] += 1.0


@kernel
def value(s, b, me, fb):
    """P(seat ``me`` wins) by the fitted logistic model; exact at the end of the game."""
    if s[OVER] != 0:
        return 1.0 if s[WINNER] == me else (0.5 if s[WINNER] < 0 else 0.0)
    features(s, b, me, fb[F_FEAT:F_FEAT + N_FEATURES])
    z = 0.0
    for i in range(N_FEATURES):
        z += VALUE_COEF[i] * fb[F_FEAT + i]
    return 1.0 / (1.0 + np.exp(-z))


# ---- movement ------------------------------------------------------------------------------------------
@kernel
def add_plan(ib, n, mem):
    """Adds the plan in ``mem`` as candidate ``n`` unless an equal one is there; the count."""
    for c in range(n):
        same = True
        for k in range(UFOS):
            if ib[I_CAND + c * MEMORY + M_PLAN + k] != mem[M_PLAN + k]:
                same = False
        if same:
            return n
    for i in range(MEMORY):
        ib[I_CAND + n * MEMORY + i] = mem[i]
    return n + 1


@kernel
def plan_search(s, rng, b, ib, fb, flags, mem):
    """Chooses the turn's movement plan by rollouts and leaves it in ``mem``."""
    me = s[ACTIVE]
    plan_w = ib[I_PLAN_W:I_PLAN_W + SIZE]
    tmp = ib[I_MEM:I_MEM + MEMORY]
    n = 0
    for variant in range(5):
        for i in range(N_WEIGHTS):
            fb[F_VAR + i] = fb[F_WT + i]
        mode = TACTICAL
        if variant == 1:
            mode = AGGRESSIVE
        elif variant == 2:  # cautious: slower, keeps out of the enemy's fire lines
            fb[F_VAR + W_RACE] *= 0.5
            fb[F_VAR + W_SHOT] = 1.0
        elif variant == 3:  # bolder: races, ignores risks
            fb[F_VAR + W_RACE] *= 2.0
            fb[F_VAR + W_SHOT] = 0.0
        if variant == 4:  # nobody moves
            tmp[M_TURN] = s[TURN]
            for k in range(UFOS):
                tmp[M_PLAN + k] = -1
        else:
            H.plan_moves(s, b, fb[F_VAR:F_VAR + N_WEIGHTS], flags, mode, tmp, plan_w)
        n = add_plan(ib, n, tmp)
    if n == 1:
        for i in range(MEMORY):
            mem[i] = ib[I_CAND + i]
        return
    reps = rollouts(flags)
    draw_seeds(rng, ib, reps)
    for c in range(n):
        fb[F_SCORE + c] = 0.0
    for r in range(reps):
        for c in range(n):
            start_rollout(s, ib)
            for i in range(MEMORY):  # our side starts the rollout with candidate c's plan
                ib[I_MEM + me * MEMORY + i] = ib[I_CAND + c * MEMORY + i]
            rng[CHANCE] = seed_of(ib, r, 0)
            rng[SEED_SLOT] = seed_of(ib, r, 1)
            v = play_out(s, rng, b, ib, fb, flags, me)
            fb[F_VALS + c * MAX_ROLLOUTS + r] = v
            fb[F_SCORE + c] += v
    best = pick_best(fb, n, reps)
    for i in range(MEMORY):
        mem[i] = ib[I_CAND + best * MEMORY + i]


@kernel
def move_decision(s, rng, b, ib, fb, flags, mem):
    if volley_legal(s, b):
        return H.A_VOLLEY
    if mem[M_TURN] != s[TURN]:
        if flags & NO_PLAN_SEARCH:
            H.plan_moves(s, b, fb[F_WT:F_WT + N_WEIGHTS], flags, TACTICAL, mem, ib[I_PLAN_W:I_PLAN_W + SIZE])
        else:
            plan_search(s, rng, b, ib, fb, flags, mem)
    # play the plan (the heuristic's own execution: planned order, then END_MOVE)
    return H.move_decision(s, b, fb[F_WT:F_WT + N_WEIGHTS], flags, TACTICAL, mem, ib[I_PLAN_W:I_PLAN_W + SIZE])


# ---- attacks -----------------------------------------------------------------------------------------
@kernel
def attack_candidates(s, b, ib, fb, flags):
    """The tactical bot's choice, ending the turn, and every attack or repair with a
    positive expectation; their count (in ``ib[I_CAND:]``)."""
    wt = fb[F_WT:F_WT + N_WEIGHTS]
    n = 0
    ib[I_CAND + n] = H.attack_decision(s, b, wt, flags, TACTICAL)
    n += 1
    if ib[I_CAND] != A_END_TURN:
        ib[I_CAND + n] = A_END_TURN
        n += 1
    p = s[ACTIVE]
    o = 1 - p
    for k in range(UFOS):
        if ufo(s, p, S_STATUS, k) != ST_BOARD:
            continue
        dk = ufo(s, p, S_DAMAGED, k)
        if can_attack_ms(s, b, p, k):
            n = add_action(ib, n, A_ION_MS + k)
        if can_attack_ufo(s, b, p, k):
            src = ufo(s, p, S_CELL, k)
            for j in range(UFOS):
                if ufo(s, o, S_STATUS, j) != ST_BOARD or not in_fire(s, b, src, ufo(s, o, S_CELL, j)):
                    continue
                dj = ufo(s, o, S_DAMAGED, j)
                if not (flags & H.LASER_ONLY) and H.ion_ev(b, wt, dk, dj) > 0.0:
                    n = add_action(ib, n, A_ION + k * UFOS + j)
                if not (flags & H.ION_ONLY) and H.laser_ev(b, wt, dk, dj) > 0.0:
                    n = add_action(ib, n, A_LASER + k * UFOS + j)
        if not (flags & NO_REPAIR) and can_repair(s, p, k):
            n = add_action(ib, n, A_REPAIR + k)
    return n


@kernel
def add_action(ib, n, a):
    if n >= MAX_CAND:
        return n
    for c in range(n):
        if ib[I_CAND + c] == a:
            return n
    ib[I_CAND + n] = a
    return n + 1


@kernel
def attack_search(s, rng, b, ib, fb, flags, mem):
    if volley_legal(s, b):
        return H.A_VOLLEY
    n = attack_candidates(s, b, ib, fb, flags)
    if n == 1 or flags & NO_ATTACK_SEARCH:
        return ib[I_CAND]
    me = s[ACTIVE]
    reps = rollouts(flags)
    draw_seeds(rng, ib, reps)
    for c in range(n):
        fb[F_SCORE + c] = 0.0
    for r in range(reps):
        for c in range(n):
            start_rollout(s, ib)
            w = ib[I_STATE:I_STATE + SIZE]
            # our side's memory: the plan of this turn is spent
            ib[I_MEM + me * MEMORY + M_TURN] = s[TURN]
            for k in range(UFOS):
                ib[I_MEM + me * MEMORY + M_PLAN + k] = -1
            rng[CHANCE] = seed_of(ib, r, 0)
            rng[SEED_SLOT] = seed_of(ib, r, 1)
            apply_action(w, rng, b, ib[I_CAND + c])
            v = play_out(s, rng, b, ib, fb, flags, me)
            fb[F_VALS + c * MAX_ROLLOUTS + r] = v
            fb[F_SCORE + c] += v
    return ib[I_CAND + pick_best(fb, n, reps)]


@kernel
def choose(s, rng, b, ib, fb, flags, mem):
    H.load_weights(fb[F_WT:F_WT + N_WEIGHTS])
    ph = s[PHASE]
    if ph == PH_MOVE:
        return move_decision(s, rng, b, ib, fb, flags, mem)
    if ph == PH_ATTACK:
        return attack_search(s, rng, b, ib, fb, flags, mem)
    return H.push_decision(s, b, fb[F_WT:F_WT + N_WEIGHTS])
