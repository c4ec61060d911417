"""Search: plays every legal action out to the end of the game on copies of the state, and
keeps the one that wins most.

At each decision the candidates are the legal actions, the strategic bot's choice first.
Each simulation takes a copy of the state, shuffles the markers still in the bag (the
state holds their order, which no player knows: the search draws an order of its own from
its bot stream, a determinization), plays the candidate, and lets the strategic bot play
every seat to the end of the game. A simulation scores the searching seat's win share
(1/k for a k-way shared win, 0 when the invasion wins a semi-cooperative game) plus a
tenth per point of score margin over the best other seat: the margin varies less from
one bag order to the next than the win does, so candidates separate with fewer
simulations (heads-up against strategic at budget 64, 200 games each: 0.001 per point
won a share of 0.37 at budget 16, 0.03 won 0.63 and 0.1 won 0.72, +-0.06).

Every candidate of one sample sees the same bag order (common random numbers). The
search allocates nothing: it plays on scratch the game loop lends it (``SCRATCH``). The budget
(``search:budget=N``) is the number of simulations per decision: below the number of
candidates only the first ``budget`` are tried; budget left over goes to sequential
halving (Karnin et al. 2013; ``strategies/kernel.py``, shared with the other searching
bots), the better half simulated again on fresh orders until the budget is spent. ``budget=1`` is the strategic bot itself (the power switches of
``strategic`` apply to the search's own choices and to its simulations).
"""

from __future__ import annotations

from simkit.game import Number
from simkit.games.aau.board import B_SEMI
from simkit.games.aau.engine import (
    A_COVERP, A_EXTRA, A_NEIGH, A_PROTECT, BAG, BAG_N, MAX_ACTIONS, MAX_DESTROYED, MAX_SPACES, MAX_TRAPPED, P_OVER,
    P_SCORE, P_WON, PHASE, PLAYERS, S_BAG, SIZE, SP, NSP, apply_action, current_player, legal_actions, pget,
)
from simkit.jit import kernel
from simkit.rng import BOT, randint
from strategies.kernel import sequential_halving

from . import strategic
from .greedy import NO_COVER, NO_EXTRA, NO_NEIGHBOURHOOD, NO_PROTECTION
from .strategic import TEAM

BUDGET = Number(lo=1, hi=4096, default=64, shift=8, help="simulations per decision (1: the strategic bot itself)")
BUDGET_SHIFT = BUDGET.shift
BUDGET_MASK = (1 << BUDGET.bits) - 1
POWER_SWITCHES = NO_PROTECTION | NO_COVER | NO_NEIGHBOURHOOD | NO_EXTRA
MARGIN = 0.1  # win share per point of score margin


@kernel
def budget_of(flags):
    return (flags >> BUDGET_SHIFT) & BUDGET_MASK


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
SCRATCH = I_ORDER + MAX_SPACES
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
    for i in range(n - 1, 0, -1):
        j = randint(rng, BOT, i + 1)
        x = ib[I_ORDER + i]
        ib[I_ORDER + i] = ib[I_ORDER + j]
        ib[I_ORDER + j] = x


@kernel
def simulate(s, a, rng, b, ib, fb, me, flags):
    """Plays ``a`` on a copy of ``s`` with the bag in the drawn order, then the strategic
    bot at every seat to the end; ``me``'s win share plus the margin tie-breaker. (The
    rules draw no chance after the setup shuffle: ``rng`` is passed to them unused.)"""
    t = ib[I_COPY:I_COPY + s.shape[0]]
    for i in range(s.shape[0]):
        t[i] = s[i]
    for i in range(s[BAG_N]):
        t[BAG + i] = ib[I_ORDER + i]
    apply_action(t, rng, b, a)
    while t[PHASE] != P_OVER:
        apply_action(t, rng, b, strategic.choose(t, rng, b, ib, fb, flags))
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
    s, rng, b, ib, fb, me, flags = ctx
    draw_order(s, rng, ib)


@kernel
def play(ctx, c):
    """Candidate ``c`` simulated on the current bag order."""
    s, rng, b, ib, fb, me, flags = ctx
    return simulate(s, ib[I_CAND + c], rng, b, ib, fb, me, flags)


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
    ctx = (s, rng, b, ib, fb, me, rollout_flags)
    best = halve(k, budget, fb[F_TOTAL:F_TOTAL + MAX_ACTIONS], ib[I_ALIVE:I_ALIVE + MAX_ACTIONS], ctx)
    return ib[I_CAND + best]
