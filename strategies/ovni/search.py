"""Search: the strategic bot, with its bids chosen by sampling the hidden tokens.

At each of its own placements (PLACE), the bot takes the strategic bot's K best
placements as candidates and plays each against the same S sampled worlds
(determinization, "perfect-information Monte Carlo"):

1. a world: the values of every face-down token it cannot see and the hands of the
   other planets are dealt at random from each planet's unseen tokens (``O_UNSEEN``,
   which its observation gives); its own tokens are known; nothing else is hidden that
   matters to phase 1;
2. the candidate is placed, then the rest of the round's placements are played out
   (R4.3 / R19.7 schedule, R4.4 and A4 as the engine's own functions say) with a play-out
   policy (``pol``). The default (2) is close to the strategic bot's own bidding: each
   planet takes the placement that adds most to its expected card, the card's value
   times the gain in its chance to win the area (the strategic bot's smooth step on the
   margin, here on the world's values), minus the token's cost, the 6 only face down; one
   placement in eight is random; the dummy's token goes where the deciding seat's rivals
   want most and it least. ``pol=1`` / ``pol=0`` are the older quick policy (a high token
   on the card worth most, other tokens at random) with / without the 6-face-down rule;
3. the areas are resolved with the engine's R5.2 (``area_winner``) and the outcome is
   valued like the strategic bot values a round: the card won (a second one adds a
   quarter), or the energy card when nothing is won; minus a share of what rivals won
   (``share`` tenths; default 0.5 with 2 players, 0.2 with more), minus the tokens' costs
   (the 6 is spent for the game).

Every candidate meets the same worlds and the same random play-outs (common random
numbers), so the comparison between candidates is sharper than the samples alone. It
never looks at the state: the worlds are built from its observation (the engine's
public view at the state's own offsets) in its int scratch, which must hold a state.

**Phase 2** (``p2=N`` worlds, default 1; ``p2=0`` leaves it to the strategic bot). At a
turn's choice of group (PH_TURN: every legal activation and ending the turn) and, with 3 or
4 players, at each attack of its Military (PH_GROUP; ``p2g``: 0 with 3-4 players, 1 never,
2 always; ``p2o`` adds the Abductors' / Builders' actions, measured flat), every legal
action (at most 12) is played on in N worlds: the observation completed with what the seat
cannot see that matters here (each other seat's kept missions drawn from those it has not
seen; the deck's cards), the round's phase 2 finished by the strategic bot for every seat
(common random numbers: every candidate meets the same worlds), then valued as the seat's
score minus the best rival's as if the game ended there (``score_seat``; ``p2v=1`` the
rivals' mean, ``p2v=2`` its own score). So it attacks the leader and denies him what
score-now sees. An activation other than the strategic bot's must gain more than ``p2d``
tenths of a point (default 31): the score-now horizon misses what groups set up for
later rounds, and without that margin the search lost (30.6% below).

The rest is the strategic bot's. Options: ``budget=N`` worlds per bid (default 6),
``cand=N`` candidate bids (default 4), ``share``, ``pol`` (above), ``p2``, ``p2v``,
``p2d``, ``p2g``, ``p2o``.

Measured (seats rotated, against the strategic bot in every other seat, 2,000 games,
shares with 95% intervals; "old" is the previous default, ``budget=8+p2=0``):

* 4 players (fair 25%): seed 7 new 38.6% [36.4, 40.7], old 32.6% [30.5, 34.7]; seed 11
  new 35.5% [33.4, 37.6], old 31.0% [28.9, 33.0].
* 3 players (fair 33%): seed 7 new 49.6% [47.4, 51.8], old 43.0% [40.9, 45.2].
* 2 players: seed 7 new 62.2% [60.1, 64.3], old 63.6% [61.5, 65.7]; seed 11 new 62.3%
  [60.2, 64.4], old 62.5% [60.4, 64.6] (no Military search heads up: it lost, 58.4%).
* Speed, 4 players, every seat searching, one core of a shared machine, one invocation:
  new 130 games/s, old 124, strategic 4,092.
* Budget, 4 players, seed 7: p2=1 38.6%, p2=2 37.8%, p2=4 36.4%; budget=4 37.0%
  (p2=2), budget=8 37.9% (p2=2), budget=12+p2=6 39.0%: flat within the intervals
  (about +-2.1 points), so the cheapest was kept.
* Not kept (4 players, seed 7): phase-2 search with no margin over the strategic bot's
  activation 30.6% (p2=4 or 8), margin over the rivals' mean 30.7%, own score 30.3%;
  playing on to the game's end valued by the win 23.4% (500 games, 2 worlds); p2d=0-100
  with attacks searched 36.1-38.5%, 255 (attacks only) 36.3%; p2o (Abductors, Builders)
  37.0%.
"""

from __future__ import annotations

import numpy as np

from simkit.game import Number
from simkit.games.ovni.board import B_NCARDS, B_NMIS
from simkit.games.ovni.engine import (
    ABDUCTORS,
    BUILDERS,
    GROUP,
    MILITARY,
    CARD_LOC,
    DECK,
    DECK_LEN,
    DECK_POS,
    KEPT,
    LOC_DECK,
    MAX_ACTIONS,
    MAX_PLANETS,
    MISSIONS,
    N_SLOTS,
    O_KEPT,
    O_MISSIONS,
    OBS_SIZE,
    OVER,
    P_NKEPT,
    P_SCORE,
    PH_GROUP,
    PH_SHIELD,
    PH_TURN,
    TO_MOVE,
    apply_action,
    legal_actions,
    observe,
    po,
    score_seat,
    A_PLACE,
    A_PLACE_DUMMY,
    AREA_N,
    DUMMY,
    HAND,
    NAREAS,
    NPLACED,
    NPLANETS,
    O_HAND,
    O_SEAT,
    O_UNSEEN,
    PH_PLACE,
    PHASE,
    PLACE_TURN,
    PLAYERS,
    SIZE,
    SLOT_OWNER,
    SLOT_SHOWN,
    SLOT_VAL,
    SLOTS,
    TOKENS,
    VIEW_SIZE,
    _turn_planet,
    area_winner,
    placement_areas,
)
from simkit.jit import inline_kernel, kernel, popcount
from simkit.rng import BOT, next_u64, randint

from . import strategic
from .evaluate import F_AV, F_E, GREEDY, STRATEGIC
from .strategic import F_CAND, F_SIXCOST, F_TOKCOST, MAX_CAND, place_choice, prepare_place

BUDGET = Number(lo=1, hi=4096, default=6, shift=8, help="worlds sampled per bid")  # above the strategic bot's option bits
BUDGET_SHIFT = BUDGET.shift
BUDGET_MASK = (1 << BUDGET.bits) - 1
CANDS = Number(lo=1, hi=12, default=4, shift=BUDGET.shift + BUDGET.bits, help="candidate bids")
SHARE = Number(lo=0, hi=15, default=0, shift=CANDS.shift + CANDS.bits,
               help="rivals' share of the outcome in tenths (0: 5 with 2 players, 2 with more)")
POLICY = Number(lo=0, hi=2, default=2, shift=SHARE.shift + SHARE.bits,
                help="play-out policy: 0 the old quick one, 1 with the 6 face down only, 2 value x win chance")
CANDS_SHIFT, CANDS_MASK = CANDS.shift, (1 << CANDS.bits) - 1
SHARE_SHIFT, SHARE_MASK = SHARE.shift, (1 << SHARE.bits) - 1
POLICY_SHIFT, POLICY_MASK = POLICY.shift, (1 << POLICY.bits) - 1
P2 = Number(lo=0, hi=63, default=1, shift=POLICY.shift + POLICY.bits,
            help="worlds per phase-2 activation choice (0: the strategic bot's choice)")
P2_SHIFT, P2_MASK = P2.shift, (1 << P2.bits) - 1
P2V = Number(lo=0, hi=2, default=0, shift=P2.shift + P2.bits,
             help="phase-2 value: 0 margin over the best rival, 1 over the rivals' mean, 2 own score")
P2D = Number(lo=0, hi=255, default=31, shift=P2V.shift + P2V.bits,
             help="phase 2: tenths of a point an activation must gain over the strategic bot's")
P2G = Number(lo=0, hi=2, default=0, shift=P2D.shift + P2D.bits,
             help="phase 2: search the Military group's attacks too: 0 with 3 or 4 players, 1 never, 2 always")
P2O = Number(lo=0, hi=3, default=0, shift=P2G.shift + P2G.bits,
             help="phase 2: search other groups' actions too: 1 Abductors, 2 Builders, 3 both")
P2V_SHIFT, P2D_SHIFT, P2G_SHIFT, P2O_SHIFT = P2V.shift, P2D.shift, P2G.shift, P2O.shift
P2_MAXK = 12  # most legal actions of a decision searched
K_CANDIDATES = 12

# int scratch: [0, SIZE) a world (the engine's state layout); then the sample's tokens
# (slot values and hands), restored before each candidate's play-out; then candidates.
I_SAVE = SIZE  # slot values (16), hands (4)
I_CAND = I_SAVE + 32  # candidate actions
SCRATCH_NEEDED = I_CAND + K_CANDIDATES + 8
# float scratch past the strategic bot's
F_SUM = F_CAND + MAX_CAND  # summed values of the candidates
F_PCOST = F_SUM + K_CANDIDATES  # per planet: a token's cost per point in the play-outs
F_ST_SUM = F_PCOST + 4  # an area of the world (_area_stats): sums per planet
F_ST_FIRST = F_ST_SUM + 4  # first slot per planet
F_ST_CNT = F_ST_FIRST + 4  # count per value
F_ST_OWN = F_ST_CNT + 7  # owner per value (when it appears once)
F_END = F_ST_OWN + 7


@inline_kernel
def _rand(state):
    """A small xorshift generator kept in a uint64 (returns the new state)."""
    state ^= (state << np.uint64(13)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    state ^= state >> np.uint64(7)
    state ^= (state << np.uint64(17)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    return state


@inline_kernel
def _below(state, n):
    return int((state >> np.uint64(33)) % np.uint64(n))


@kernel
def _pick_bit(mask, r):
    """The r-th set bit of ``mask`` (r < popcount)."""
    for v in range(32):
        if (mask >> v) & 1:
            if r == 0:
                return v
            r -= 1
    return -1


@kernel
def _deal_world(x, ib, state):
    """Fill the world's hidden tokens: each other planet's face-down values and hand are
    a random split of its unseen tokens; the seat's own are known."""
    me = x[O_SEAT]
    for i in range(16):
        ib[SLOT_VAL + i] = x[SLOT_SHOWN + i]
    for q in range(x[NPLANETS]):
        if q == me:
            ib[HAND + q] = x[O_HAND]
            continue
        pool = x[O_UNSEEN + q]
        for i in range(x[NAREAS] * SLOTS):
            if x[SLOT_OWNER + i] == q and x[SLOT_SHOWN + i] == 0:
                state = _rand(state)
                v = _pick_bit(pool, _below(state, popcount(pool)))
                ib[SLOT_VAL + i] = v
                pool &= ~(1 << v)
        ib[HAND + q] = pool
    return state


@kernel
def _quick_place(ib, b, fb, q, areas, state, me, policy):
    """The play-out policy for planet ``q``: mostly the card worth most to it among the
    open ``areas``, a high token on it when it is that planet's best card, otherwise a
    random token; the dummy's tokens go to a random open area."""
    hand = ib[HAND + q]
    state = _rand(state)
    n = popcount(areas)
    if q == ib[DUMMY]:
        a = _pick_bit(areas, _below(state, n))
        state = _rand(state)
        v = _pick_bit(hand, _below(state, popcount(hand)))
        return a, v, state
    best = -1
    bv = -1e9
    top = -1e9
    for a in range(ib[NAREAS]):
        w = fb[F_AV + 4 * q + a]
        if w > top:
            top = w
        if (areas >> a) & 1 and w > bv:
            bv = w
            best = a
    a = best
    if _below(state, 4) == 0:
        state = _rand(state)
        a = _pick_bit(areas, _below(state, n))
    state = _rand(state)
    if fb[F_AV + 4 * q + a] >= top and _below(state, 2) == 0:
        v = 6
        while v > 2 and not (hand >> v) & 1:
            v -= 1
    else:
        state = _rand(state)
        v = _pick_bit(hand, _below(state, popcount(hand)))
    if policy == 1 and v == 6 and ib[AREA_N + a] % 2 == 1 and hand != (1 << 6):
        # the 6 only face down: another token
        h = hand & ~(1 << 6)
        state = _rand(state)
        v = _pick_bit(h, _below(state, popcount(h)))
    return a, v, state


@inline_kernel
def _step(margin):
    """The strategic bot's smooth step for a margin (evaluate.win_chance)."""
    z = margin / 1.8
    if z <= -3.0:
        return 0.0
    if z >= 3.0:
        return 1.0
    u = (z + 3.0) / 6.0
    return u * u * (3.0 - 2.0 * u)


@kernel
def _area_stats(ib, fb, a):
    """The world's area ``a``: per planet the sum of its tokens left after R5.2's
    cancelling (F_ST_SUM) and its first slot (F_ST_FIRST); per value its count (F_ST_CNT)
    and its owner when it appears once (F_ST_OWN)."""
    n = ib[AREA_N + a]
    base = a * SLOTS
    for r in range(4):
        fb[F_ST_SUM + r] = 0.0
        fb[F_ST_FIRST + r] = SLOTS
    for v in range(7):
        fb[F_ST_CNT + v] = 0.0
        fb[F_ST_OWN + v] = -1.0
    for j in range(n):
        v = ib[SLOT_VAL + base + j]
        r = ib[SLOT_OWNER + base + j]
        fb[F_ST_CNT + v] += 1.0
        fb[F_ST_OWN + v] = r
        if fb[F_ST_FIRST + r] > j:
            fb[F_ST_FIRST + r] = j
    for j in range(n):
        v = ib[SLOT_VAL + base + j]
        if fb[F_ST_CNT + v] == 1.0:
            fb[F_ST_SUM + ib[SLOT_OWNER + base + j]] += v


@kernel
def _win_p(ib, fb, q, n, v):
    """Planet ``q``'s chance to win the area of the last ``_area_stats`` (``n`` tokens
    placed) if it adds token ``v`` (0: none), on the world's values: each slot still free
    adds 1.6 to the best rival, the earlier first token wins ties (as win_chance)."""
    mine = fb[F_ST_SUM + q]
    my_first = fb[F_ST_FIRST + q]
    loser = -1
    if v > 0:
        c = fb[F_ST_CNT + v]
        if c == 0.0:
            mine += v
        elif c == 1.0:
            loser = int(fb[F_ST_OWN + v])
            if loser == q:
                mine -= v
        if my_first > n:
            my_first = n
    if mine <= 0.0:
        return 0.0
    best = 0.0
    best_first = 9.0
    for r in range(ib[NPLANETS]):
        if r == q:
            continue
        t = fb[F_ST_SUM + r]
        if r == loser:
            t -= v
        f = fb[F_ST_FIRST + r]
        if t > best or (t == best and f < best_first):
            best = t
            best_first = f
    free = SLOTS - n - (1 if v > 0 else 0)
    margin = mine - best - 1.6 * free + (0.5 if my_first < best_first else -0.5)
    return _step(margin)


@kernel
def _smart_place(ib, b, fb, q, seat, areas, state):
    """A play-out policy closer to the strategic bot: planet ``q`` takes the placement
    that adds most to its expected card (card value x gain in win chance, on the world's
    values) minus the token's cost, the 6 only face down; one in eight is random. The
    dummy's token goes where the deciding seat's rivals want most and it least."""
    hand = ib[HAND + q]
    state = _rand(state)
    if q == ib[DUMMY]:
        best = -1
        bv = -1e9
        for a in range(ib[NAREAS]):
            if not (areas >> a) & 1:
                continue
            w = -fb[F_AV + 4 * seat + a]
            for r in range(ib[PLAYERS]):
                if r != seat:
                    w += fb[F_AV + 4 * r + a]
            if w > bv:
                bv = w
                best = a
        state = _rand(state)
        v = _pick_bit(hand, _below(state, popcount(hand)))
        return best, v, state
    if _below(state, 8) == 0:
        state = _rand(state)
        a = _pick_bit(areas, _below(state, popcount(areas)))
        state = _rand(state)
        v = _pick_bit(hand, _below(state, popcount(hand)))
        return a, v, state
    cost = fb[F_PCOST + q]
    best = -1
    bvv = -1
    bv = -1e9
    for a in range(ib[NAREAS]):
        if not (areas >> a) & 1:
            continue
        va = fb[F_AV + 4 * q + a]
        n = ib[AREA_N + a]
        _area_stats(ib, fb, a)
        p0 = _win_p(ib, fb, q, n, 0)
        for v in range(2, 7):
            if not (hand >> v) & 1:
                continue
            w = va * (_win_p(ib, fb, q, n, v) - p0) - cost * v
            if v == 6:
                w -= fb[F_SIXCOST]
                if n % 2 == 1:
                    w -= 1000.0
            if w > bv:
                bv = w
                best = a
                bvv = v
    return best, bvv, state


@kernel
def _put(ib, q, a, v):
    j = ib[AREA_N + a]
    i = a * SLOTS + j
    ib[SLOT_OWNER + i] = q
    ib[SLOT_VAL + i] = v
    ib[AREA_N + a] = j + 1
    ib[NPLACED] += 1
    ib[HAND + q] &= ~(1 << v)


@kernel
def _play_out(ib, b, fb, me, state, policy):
    """Play the round's remaining placements; returns the rng state."""
    total = ib[NAREAS] * SLOTS
    t = ib[PLACE_TURN] + 1
    idle = 0
    while ib[NPLACED] < total and idle < 8:
        q, seat = _turn_planet(ib, t)
        areas, _ = placement_areas(ib, b, q)
        t += 1
        if areas == 0:
            idle += 1
            continue
        idle = 0
        if policy == 2:
            a, v, state = _smart_place(ib, b, fb, q, seat, areas, state)
        else:
            a, v, state = _quick_place(ib, b, fb, q, areas, state, me, policy)
        _put(ib, q, a, v)
    return state


@kernel
def _outcome(ib, b, fb, me, share):
    """The round's value for the seat (see the module docstring)."""
    mine = 0.0
    best = 0.0
    won = 0
    rivals = 0.0
    for a in range(ib[NAREAS]):
        w = area_winner(ib, b, a, False)
        if w < 0:
            continue
        if w == me:
            v = fb[F_AV + 4 * me + a]
            mine += v
            won += 1
            if v > best:
                best = v
        elif w < ib[PLAYERS]:
            rivals += fb[F_AV + 4 * w + a]
    if won == 0:
        value = fb[F_E]
    else:
        value = best + 0.25 * (mine - best)
    return value - share * rivals


@kernel
def choose(x, legal, rng, b, mem, ib, fb, flags):
    p2g = (flags >> P2G_SHIFT) & 3
    attacks = p2g == 2 or (p2g == 0 and x[PLAYERS] > 2)
    p2o = (flags >> P2O_SHIFT) & 3
    grp = x[GROUP]
    if (x[PHASE] == PH_TURN or (x[PHASE] == PH_GROUP and ((grp == MILITARY and attacks) or (grp == ABDUCTORS and p2o & 1)
                                                         or (grp == BUILDERS and p2o & 2)))) \
            and legal.shape[0] > 1 and legal.shape[0] <= P2_MAXK:
        p2 = (flags >> P2_SHIFT) & P2_MASK
        if p2 > 0:
            return turn_choice(x, legal, rng, b, mem, ib, fb, flags, p2)
    if x[PHASE] != PH_PLACE or legal[0] >= A_PLACE_DUMMY or legal.shape[0] == 1:
        return strategic.choose(x, legal, rng, b, mem, ib, fb, flags, STRATEGIC)
    me = x[O_SEAT]
    prepare_place(x, b, mem, fb, STRATEGIC)
    first = place_choice(x, b, fb, legal, flags, False)
    # the K best placements by the strategic bot's score
    n = min(legal.shape[0], MAX_CAND)
    kk = (flags >> CANDS_SHIFT) & CANDS_MASK
    if kk == 0:
        kk = 4
    k = min(min(kk, K_CANDIDATES), n)
    sh = (flags >> SHARE_SHIFT) & SHARE_MASK
    share = 0.1 * sh
    if sh == 0:
        share = 0.5 if x[PLAYERS] == 2 else 0.2
    policy = (flags >> POLICY_SHIFT) & POLICY_MASK
    for c in range(k):
        bi = -1
        bv = -1e18
        for i in range(n):
            taken = False
            for j in range(c):
                if ib[I_CAND + j] == i:
                    taken = True
            if not taken and fb[F_CAND + i] > bv and (fb[F_CAND + i] > -500.0 or c == 0):
                bv = fb[F_CAND + i]
                bi = i
        if bi < 0:  # only placements the strategic bot rules out (a 6 face up) are left
            k = c
            break
        ib[I_CAND + c] = bi
        fb[F_SUM + c] = 0.0
    if k <= 1:
        return first
    samples = (flags >> BUDGET_SHIFT) & BUDGET_MASK
    for q in range(4):
        avg = 0.0
        for a in range(x[NAREAS]):
            avg += fb[F_AV + 4 * q + a]
        fb[F_PCOST + q] = 0.04 * avg / x[NAREAS] + 0.1
    for i in range(VIEW_SIZE):
        ib[i] = x[i]
    state = next_u64(rng, BOT) | np.uint64(1)
    for _ in range(samples):
        state = _deal_world(x, ib, state)
        for i in range(16):
            ib[I_SAVE + i] = ib[SLOT_VAL + i]
        for q in range(4):
            ib[I_SAVE + 16 + q] = ib[HAND + q]
        seed = state
        for c in range(k):
            # restore the world, place the candidate, play out with the same randomness
            for i in range(16):
                ib[SLOT_VAL + i] = ib[I_SAVE + i]
                ib[SLOT_OWNER + i] = x[SLOT_OWNER + i]
            for q in range(4):
                ib[HAND + q] = ib[I_SAVE + 16 + q]
            for a in range(4):
                ib[AREA_N + a] = x[AREA_N + a]
            ib[NPLACED] = x[NPLACED]
            act = legal[ib[I_CAND + c]]
            a = (act - A_PLACE) // TOKENS
            v = (act - A_PLACE) % TOKENS + 2
            _put(ib, me, a, v)
            _play_out(ib, b, fb, me, seed, policy)
            cost = fb[F_TOKCOST] * v + (fb[F_SIXCOST] if v == 6 else 0.0)
            fb[F_SUM + c] += _outcome(ib, b, fb, me, share) - cost
        state = _rand(seed)
    best = 0
    for c in range(1, k):
        if fb[F_SUM + c] > fb[F_SUM + best]:
            best = c
    return legal[ib[I_CAND + best]]


# ---- phase 2: the group to activate, by play-outs of the round's phase 2 ------------------
P2_W = 0  # int scratch: a world (state layout)
P2_SAVE = 1024  # the sampled world, restored before each candidate
P2_OBS = 2048  # an observation of the world, for the play-out policy
P2_LEGAL = 2752  # legal actions in the world
P2_MEM = 3200  # per planet: the play-out policy's memory
P2_MEMSZ = strategic.MEMORY
P2_CAND = P2_MEM + 4 * P2_MEMSZ  # candidate actions
P2_END = P2_CAND + 16
F_P2SUM = F_END  # float scratch: the candidates' summed values
F_P2END = F_P2SUM + 16


@kernel
def _p2_world(x, b, w, rng):
    """A world for phase 2 from the observation: hands as seen (every token is back), the
    deck's cards in some order (only the next round's start draws them), the seat's own
    missions and, for every other seat, as many missions as it keeps, drawn from those the
    seat has not seen."""
    me = x[O_SEAT]
    for i in range(VIEW_SIZE):
        w[i] = x[i]
    for i in range(VIEW_SIZE, SIZE):
        w[i] = 0
    for q in range(MAX_PLANETS):
        w[HAND + q] = x[O_UNSEEN + q]
    for i in range(N_SLOTS):
        w[SLOT_VAL + i] = x[SLOT_SHOWN + i]
    m = 0
    for c in range(b[B_NCARDS]):
        if x[CARD_LOC + c] == LOC_DECK:
            w[DECK + m] = c
            m += 1
    w[DECK_POS] = 0
    w[DECK_LEN] = m
    nm = b[B_NMIS]
    used = 0
    for i in range(3):
        w[MISSIONS + me * 3 + i] = x[O_MISSIONS + i]
        if x[O_MISSIONS + i] >= 0:
            used |= 1 << x[O_MISSIONS + i]
    w[KEPT + me] = x[O_KEPT]
    for q in range(x[PLAYERS]):
        if q == me:
            continue
        nk = x[po(q) + P_NKEPT]
        kept = 0
        for i in range(3):
            w[MISSIONS + q * 3 + i] = -1
            if i < nk:
                free = nm - popcount(used)
                if free <= 0:
                    continue
                r = randint(rng, BOT, free)
                for mm in range(nm):
                    if not (used >> mm) & 1:
                        if r == 0:
                            w[MISSIONS + q * 3 + i] = mm
                            used |= 1 << mm
                            kept |= 1 << i
                            break
                        r -= 1
        w[KEPT + q] = kept


@kernel
def _p2_margin(w, b, me, mode):
    """The seat's score minus the best rival's (mode 0) or the rivals' mean (1), or its own
    score (2), as if the game ended now (or at its end)."""
    if w[OVER] == 0:
        for q in range(w[PLAYERS]):
            score_seat(w, b, q)
    mine = w[po(me) + P_SCORE]
    best = -1000
    tot = 0.0
    for q in range(w[PLAYERS]):
        if q != me:
            tot += w[po(q) + P_SCORE]
            if w[po(q) + P_SCORE] > best:
                best = w[po(q) + P_SCORE]
    if mode == 1:
        return mine - tot / (w[PLAYERS] - 1)
    if mode == 2:
        return float(mine)
    return float(mine - best)


@kernel
def _p2_playout(ib, b, fb, erng, me, cap):
    """Plays the world on with the strategic bot until this round's phase 2 is over (or
    ``cap`` decisions)."""
    w = ib[P2_W:P2_W + SIZE]
    obs = ib[P2_OBS:P2_OBS + OBS_SIZE]
    steps = 0
    while w[OVER] == 0 and (w[PHASE] == PH_TURN or w[PHASE] == PH_GROUP or w[PHASE] == PH_SHIELD) and steps < cap:
        q = w[TO_MOVE]
        observe(w, b, q, obs)
        n = legal_actions(w, b, ib[P2_LEGAL:P2_LEGAL + MAX_ACTIONS])
        a = strategic.choose(obs, ib[P2_LEGAL:P2_LEGAL + n], erng, b, ib[P2_MEM + q * P2_MEMSZ:P2_MEM + (q + 1) * P2_MEMSZ],
                             ib, fb, 0, STRATEGIC)
        apply_action(w, erng, b, a)
        steps += 1


@kernel
def turn_choice(x, legal, rng, b, mem, ib, fb, flags, samples):
    """PH_TURN: every legal activation (and ending the turn) is played on in ``samples``
    worlds, the round's phase 2 finished by the strategic bot; the best mean margin wins."""
    me = x[O_SEAT]
    k = legal.shape[0]
    mode = (flags >> P2V_SHIFT) & 3
    delta = 0.1 * ((flags >> P2D_SHIFT) & 255)
    if x[PHASE] == PH_GROUP:
        delta = 0.0
    sc = 0
    if delta > 0.0:
        a0 = strategic.choose(x, legal, rng, b, mem, ib, fb, flags & 127, STRATEGIC)
        for c in range(k):
            if legal[c] == a0:
                sc = c
    # the engine's steps draw from the chance stream only when the next round starts
    # (after the horizon); it is put back as it was
    chance = rng[0]
    for c in range(k):
        fb[F_P2SUM + c] = 0.0
    for _ in range(samples):
        w = ib[P2_W:P2_W + SIZE]
        _p2_world(x, b, w, rng)
        for i in range(SIZE):
            ib[P2_SAVE + i] = w[i]
        for c in range(k):
            for i in range(SIZE):
                w[i] = ib[P2_SAVE + i]
            for q in range(4):
                for i in range(P2_MEMSZ):
                    ib[P2_MEM + q * P2_MEMSZ + i] = mem[i] if q == me else 0
            apply_action(w, rng, b, legal[c])
            _p2_playout(ib, b, fb, rng, me, 400)
            fb[F_P2SUM + c] += _p2_margin(w, b, me, mode)
    rng[0] = chance
    best = 0
    for c in range(1, k):
        if fb[F_P2SUM + c] > fb[F_P2SUM + best] + 1e-9:
            best = c
    if fb[F_P2SUM + best] - fb[F_P2SUM + sc] < delta * samples:
        best = sc
    return legal[best]
