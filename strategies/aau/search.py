"""Search: plays every legal action a round or two ahead on copies of the state, scores
the position reached, and keeps the best.

At each decision the candidates are the legal actions, the strategic bot's choice first.
Each simulation takes a copy of the state, shuffles the markers still in the bag (the
state holds their order, which no player knows: the search draws an order of its own from
its bot stream, a determinization), plays the candidate, and lets the strategic bot play
every seat until ``horizon`` round ends have passed (default 2: the end of this round and
of the next; 0: the end of the game). A simulation that reaches the end scores the
searching seat's win share (1/k for a k-way shared win, 0 when the invasion wins a
semi-cooperative game) plus a tenth per point of score margin over the best other seat.
A simulation cut off before the end scores the same way on projected scores: the score
so far, each mission's points at its current count plus the share of the way to its next
tier already covered times that tier's extra points (``credit``, default 1), global
protection by the product of its three shares, and 3 points per power not yet used
(``power``; without it the cut-off rewards spending a power at once). The cut-off buys
strength per second: heads-up against strategic (seed 7, seats rotated, one core of a
loaded machine), whole games win 0.69 at budget 16 (23 games/s) and 0.94 at budget 64
(6 games/s); two round ends at budget 16 win 0.90 at 280 games/s (see the commit
messages for the measurements).

Every candidate of one sample sees the same bag order (common random numbers). The
search allocates nothing: it plays on scratch the game loop lends it (``SCRATCH``). The budget
(``search:budget=N``, default 16) is the number of simulations per decision: below the
number of candidates only the first ``budget`` are tried; the budget is shared by the
rounds of sequential halving (Karnin et al. 2013; ``strategies/kernel.py``), each simulating the candidates still
alive on fresh orders and dropping the worse half, nothing spent on the last survivor.
When no marker is drawn before the cut-off (``horizon=1``, or the last round) a
simulation does not depend on the order: each candidate is simulated once. ``budget=1``
is the strategic bot itself (the power switches of ``strategic`` apply to the search's
own choices and to its simulations).
"""

from __future__ import annotations

from simkit.game import Number
from simkit.games.aau.board import B_SEMI
from simkit.games.aau.engine import (
    A_COVERP, A_EXTRA, A_NEIGH, A_PROTECT, BAG, BAG_N, MAX_ACTIONS, MAX_DESTROYED, MAX_SPACES, MAX_TRAPPED, P_OVER,
    P_BASES, P_BORDER_CARD, P_POWERS, P_CITY_CARD, P_LARGEST, P_PARKS, P_SCORE, P_STRIDE, P_TALLY, P_WON, PHASE, PLAYER,
    PLAYERS, MARK, NMARK, NROUNDS, ROUND, S_BAG, SIZE, SP, NSP, T_BORDER, T_HERDS, T_OTHER, T_REGIONS, _start_round, _tally_discs, apply_action,
    city_counts, current_player, herd_count, legal_actions, pget,
)
from simkit.games.aau.board import B_MIS_BASES, B_MIS_BORDER, B_MIS_CITY, B_MIS_EXPANSION, B_MIS_PARKS, B_PROTECTION, TIERS
from simkit.jit import kernel
from simkit.rng import BOT, fisher_yates
from strategies.kernel import sequential_halving

from . import strategic
from .greedy import NO_COVER, NO_EXTRA, NO_NEIGHBOURHOOD, NO_PROTECTION
from .strategic import TEAM

BUDGET = Number(lo=1, hi=4096, default=16, shift=8, help="simulations per decision (1: the strategic bot itself)")
BUDGET_SHIFT = BUDGET.shift
BUDGET_MASK = (1 << BUDGET.bits) - 1
HORIZON = Number(lo=0, hi=63, default=2, shift=BUDGET.shift + BUDGET.bits,
                 help="round ends a simulation plays through before it scores the position (0: to the end of the game)")
HORIZON_SHIFT = HORIZON.shift
HORIZON_MASK = (1 << HORIZON.bits) - 1
CREDIT = Number(lo=0, hi=20, default=10, shift=HORIZON.shift + HORIZON.bits,
                help="tenths of the partial credit a cut-off simulation gives a mission toward its next tier")
CREDIT_SHIFT = CREDIT.shift
CREDIT_MASK = (1 << CREDIT.bits) - 1
POWER = Number(lo=0, hi=20, default=3, shift=CREDIT.shift + CREDIT.bits,
               help="points a cut-off simulation counts for each power not yet used")
POWER_SHIFT = POWER.shift
POWER_MASK = (1 << POWER.bits) - 1
POWER_SWITCHES = NO_PROTECTION | NO_COVER | NO_NEIGHBOURHOOD | NO_EXTRA
MARGIN = 0.1  # win share per point of score margin


@kernel
def budget_of(flags):
    return (flags >> BUDGET_SHIFT) & BUDGET_MASK


@kernel
def horizon_of(flags):
    return (flags >> HORIZON_SHIFT) & HORIZON_MASK


@kernel
def credit_of(flags):
    return ((flags >> CREDIT_SHIFT) & CREDIT_MASK) / 10.0


@kernel
def power_of(flags):
    return float((flags >> POWER_SHIFT) & POWER_MASK)


@kernel
def smooth(b, off, have, credit):
    """A mission table's points at ``have``, plus ``credit`` times the share of the way
    to the next tier already covered times that tier's extra points."""
    prev_need = 0
    prev_pts = 0
    for t in range(3):
        need = b[off + t * 2]
        pts = b[off + t * 2 + 1]
        if have < need:
            return prev_pts + credit * (pts - prev_pts) * (have - prev_need) / (need - prev_need)
        prev_need = need
        prev_pts = pts
    return float(prev_pts)


@kernel
def part(need, have, credit):
    """One of global protection's three counts: 1 when reached, else its credited share."""
    if need <= 0 or have >= need:
        return 1.0
    return credit * have / need


@kernel
def projected(t, b, p, credit, power):
    """Player ``p``'s score if the game ended now, the missions smoothed (``smooth``);
    ``_tally_discs`` must have run."""
    cities, ones, _ = city_counts(t, b, p)
    base = PLAYER + p * P_STRIDE
    v = float(t[base + P_SCORE])
    v += smooth(b, B_MIS_CITY + t[base + P_CITY_CARD] * TIERS, cities, credit)
    v += smooth(b, B_MIS_BORDER + t[base + P_BORDER_CARD] * TIERS, t[base + P_TALLY + T_BORDER], credit)
    v += smooth(b, B_MIS_PARKS, t[base + P_PARKS], credit)
    v += smooth(b, B_MIS_BASES, t[base + P_BASES], credit)
    v += smooth(b, B_MIS_EXPANSION, t[base + P_LARGEST], credit)
    herds = herd_count(b, t[base + P_TALLY + T_HERDS], t[base + P_TALLY + T_REGIONS])
    f = part(b[B_PROTECTION + 1], ones, credit) * part(b[B_PROTECTION + 2], herds, credit)
    f *= part(b[B_PROTECTION + 3], t[base + P_TALLY + T_OTHER], credit)
    v += b[B_PROTECTION] * min(f, 1.0)
    used = t[base + P_POWERS]
    for k in range(4):
        if not (used >> k) & 1:
            v += power
    return v


@kernel
def allowed(a, flags):
    """Whether ``a`` uses no power the bot's switches forbid (``search:no-extra`` ...)."""
    if a == A_EXTRA:
        return not flags & NO_EXTRA
    if A_COVERP <= a < A_COVERP + MAX_DESTROYED:
        return not flags & NO_COVER
    if A_NEIGH <= a < A_NEIGH + MAX_SPACES:
        return not flags & NO_NEIGHBOURHOOD
    if A_PROTECT <= a < A_PROTECT + MAX_TRAPPED:
        return not flags & NO_PROTECTION
    return True


# Scratch: the search writes only past what the strategic bot uses (it takes fb[0:8]).
I_COPY = 256  # the state copy a simulation plays on
I_LEGAL = I_COPY + SIZE
I_CAND = I_LEGAL + MAX_ACTIONS
I_ALIVE = I_CAND + MAX_ACTIONS
I_ORDER = I_ALIVE + MAX_ACTIONS  # the bag order drawn for the current sample
I_READY = I_ORDER + MAX_SPACES  # per candidate: whether its first round is cached
N_CACHED = 8  # candidates whose first round is cached
I_PREFIX = I_READY + MAX_ACTIONS  # the cached states, SIZE each
SCRATCH = I_PREFIX + N_CACHED * SIZE
F_TOTAL = 64  # summed scores per candidate


@kernel
def draw_order(s, rng, ib):
    """An order of the markers still in the bag, drawn from the bot stream. The state's
    order is hidden from the players, so the draw starts from the bag's contents in space
    order, never from the state's order."""
    n = 0
    for x in range(s[NSP]):
        if s[SP + x] == S_BAG:
            ib[I_ORDER + n] = x
            n += 1
    fisher_yates(ib[I_ORDER:I_ORDER + n], rng, BOT)


@kernel
def first_round(s, a, rng, b, ib, fb, flags, t):
    """Plays ``a`` on ``t`` (a copy of ``s``), then the strategic bot at every seat to the
    end of the current round (or of the game)."""
    for i in range(s.shape[0]):
        t[i] = s[i]
    apply_action(t, rng, b, a)
    while t[PHASE] != P_OVER and t[ROUND] == s[ROUND]:
        apply_action(t, rng, b, strategic.choose(t, rng, b, ib, fb, flags))


@kernel
def simulate(s, c, a, rng, b, ib, fb, me, flags, horizon, credit, power):
    """Plays candidate ``c`` (action ``a``) on a copy of ``s`` with the bag in the drawn
    order, then the strategic bot at every seat until ``horizon`` rounds have ended (0: the
    end of the game), and scores the position reached as if the game ended there; ``me``'s
    win share plus the margin tie-breaker. (The rules draw no chance after the setup
    shuffle: ``rng`` is passed to them unused.)

    Nothing is drawn from the bag before the current round ends: that part of the
    simulation is the same for every order. It is played once per candidate (the first
    ``N_CACHED``) and kept; each order then puts the markers the next round drew back in
    the bag and draws that round again (the same state as playing it all on that order)."""
    t = ib[I_COPY:I_COPY + s.shape[0]]
    if c < N_CACHED:
        cached = ib[I_PREFIX + c * SIZE:I_PREFIX + c * SIZE + s.shape[0]]
        if ib[I_READY + c] == 0:
            first_round(s, a, rng, b, ib, fb, flags, cached)
            ib[I_READY + c] = 1
        for i in range(s.shape[0]):
            t[i] = cached[i]
    else:
        first_round(s, a, rng, b, ib, fb, flags, t)
    if t[PHASE] != P_OVER:  # the next round: undo its draw, redraw it from this sample's order
        for k in range(t[NMARK]):
            t[SP + t[MARK + k]] = S_BAG
        t[BAG_N] += t[NMARK]
        for i in range(t[BAG_N]):
            t[BAG + i] = ib[I_ORDER + i]
        t[ROUND] -= 1
        _start_round(t, b)
    stop = s[ROUND] + horizon if horizon > 0 else 1 << 30
    while t[PHASE] != P_OVER and t[ROUND] < stop:
        apply_action(t, rng, b, strategic.choose(t, rng, b, ib, fb, flags))
    if t[PHASE] != P_OVER:  # cut off: the projected scores (missions as they stand, smoothed)
        _tally_discs(t, b)
        mine = projected(t, b, me, credit, power)
        best_other = -1.0e9
        for q in range(t[PLAYERS]):
            if q != me:
                best_other = max(best_other, projected(t, b, q, credit, power))
        share = 1.0 if mine > best_other else (0.5 if mine == best_other else 0.0)
        return share + MARGIN * (mine - best_other)
    winners = 0
    best_other = -1
    for q in range(t[PLAYERS]):
        winners += pget(t, q, P_WON)
        if q != me and pget(t, q, P_SCORE) > best_other:
            best_other = pget(t, q, P_SCORE)
    share = pget(t, me, P_WON) / winners if winners > 0 else 0.0
    return share + MARGIN * (pget(t, me, P_SCORE) - best_other)


@kernel
def new_sample(ctx):
    """A fresh bag order for the next candidates (``ctx``: see ``choose``)."""
    s, rng, b, ib, fb, me, flags, horizon, credit, power = ctx
    draw_order(s, rng, ib)


@kernel
def play(ctx, c):
    """Candidate ``c`` simulated on the current bag order."""
    s, rng, b, ib, fb, me, flags, horizon, credit, power = ctx
    return simulate(s, c, ib[I_CAND + c], rng, b, ib, fb, me, flags, horizon, credit, power)


halve = sequential_halving(new_sample, play)


@kernel
def choose(s, rng, b, ib, fb, flags):
    rollout_flags = flags & POWER_SWITCHES
    if b[B_SEMI] != 0:
        rollout_flags |= TEAM  # in a semi-cooperative game the table must also save Earth to win
    t = ib[I_COPY:I_COPY + s.shape[0]]
    for i in range(s.shape[0]):  # the strategic bot writes its searches' scratch into the state: give it a copy
        t[i] = s[i]
    first = strategic.choose(t, rng, b, ib, fb, rollout_flags)
    budget = budget_of(flags)
    if budget <= 1:
        return first
    me = current_player(s)
    n_legal = legal_actions(s, b, ib[I_LEGAL:I_LEGAL + MAX_ACTIONS])
    ib[I_CAND] = first
    k = 1
    for i in range(n_legal):
        a = ib[I_LEGAL + i]
        if a != first and allowed(a, flags):
            ib[I_CAND + k] = a
            k += 1
    if k == 1:
        return first
    horizon = horizon_of(flags)
    if horizon == 1 or s[ROUND] >= s[NROUNDS] or s[BAG_N] == 0:
        budget = min(budget, k)  # no marker is drawn before the cut-off: one simulation per candidate tells all
    for c in range(min(k, N_CACHED)):
        ib[I_READY + c] = 0
    ctx = (s, rng, b, ib, fb, me, rollout_flags, horizon, credit_of(flags), power_of(flags))
    best = halve(k, budget, fb[F_TOTAL:F_TOTAL + MAX_ACTIONS], ib[I_ALIVE:I_ALIVE + MAX_ACTIONS], ctx)
    return ib[I_CAND + best]
