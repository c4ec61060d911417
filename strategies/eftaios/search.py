"""The searching bot: determinized Monte Carlo over the worlds the announcements allow.

Every decision samples ``4 x budget`` worlds (``search:budget=N``, 4 by default: 16 worlds;
``budget`` worlds where moves are played out in each: Arena, and ``classic-human``'s humans) consistent with what the seat has seen
(``belief.py``): the undecided seats' sides (exactly as many humans as are left to place,
R1.2), their characters, their sectors (drawn from their possible sectors
for that side, near their last noise with the anchor's weight), their items (as many as they
are known to hold, from the cards the seat has not seen), the decks' order. The seat's own
facts are its own. Nothing is peeked at: the bot reads only its observation and its memory.

**A human** models the table's aliens as they track (the heuristic's rule, from the public
announcements only): each attacks the sector of its reach where the expected humans are most,
if at least ``ATTACK_THRESHOLD``.

* Its move: the heuristic's score (steps to a live hatch, the aliens' possible reach, a small
  cost for dangerous sectors) plus ``risk`` steps (``search:risk=N``, 12 by default) times the
  chance, over the sampled worlds, that an alien attacks the sector before its next turn, its
  own next announcement included (quiet on a safe sector; on a dangerous one a true noise 40%,
  a bluff 40%, a silence 20%). Measured against heuristic, one searching seat (2,000 games,
  seeds 2026 and 11, ``experiments/eftaios_oracle.py``): weighing the chance in 16 worlds
  instead of 4 raised the human seats' part of the margin from +7.6/+7.3/+6.8 to
  +10.6/+10.0/+10.4 points at 4/6/8 players (seed 11: +3.6/+6.8/+9.4 to +5.3/+10.2/+9.7). Other
  ``risk``: 6, 30 and 45 did worse (seed 2026), 20 better by about a point within the noise
  (seed 2026), 16 worse by about as much (seed 11); 12 stays.
* The hatch it makes for: the nearest open one, each costing ``cede`` steps more
  (``search:cede=N``, 8 by default; 0: the nearest, as the heuristic) times the chance that
  another seat, human, is nearer to it. A hatch takes one human, and humans starting
  together would otherwise walk in file to the same hatch, the ones behind then crossing the
  ship to the next and running out of time. Measured against heuristic, one searching seat
  (2,000 games, seed 2026): the human seats' part of the margin +4.7 -> +6.8 points at 8
  players, +5.5 -> +7.3 at 6, +6.6 -> +7.6 at 4.
* Its noise in any sector (a bluff): among the sectors the others could believe it on, the one
  far from its true sector (up to ``far=N`` steps, 6 by default; ``lure=N``: steps a sure alien in reach is worth, 3) that the sampled aliens can reach most
  often, so that their attack and chase go there (``no-lure``: the heuristic's random bluff).
  Measured: a human's bluffs are worth 15.6 points of its win rate (``heuristic:no-bluff``),
  while its move's avoidance weights change it by 2 at most.

**An alien** hunts in ``4 x budget`` sampled worlds (``hunt``): it moves and attacks where a
human stands in the most worlds, if in at least a fifth of them, and otherwise moves to where the
nearest human is fewest steps away on average (an alien's steps, in each world; counting at most
4 or 8 steps instead of 30 did worse, and so did drawing a seat near its last noise with a
weight of 0.3 or 0.85 instead of the heuristic's 0.6). Measured against
heuristic, one searching seat, seats rotated (2,000 games, seed 2026,
``experiments/eftaios_oracle.py``): the alien seats' part of the margin rose from +12.7/+3.9/+3.5/-0.4
points at 2/4/6/8 players (the rollouts below) to +21.9/+9.0/+7.8/+3.1. An alien that sees
where the humans truly are gains +26.9/+19.8/+13.1 at 4/6/8: what an alien lacks is where the
humans are.

**In Arena** (every seat an alien hunting the others), a seat at a contested move (another
possibly in reach) ranks the legal moves with the
heuristic, keeps the best few and plays each out in every world, in compiled code, the
engine on a copy of the world (no events logged), with every seat on a fast rollout policy:
humans walk to the nearest live hatch, aliens close in and, when a human stands within their
reach, attack with a probability that stands for their imperfect information. The rollout
runs until the seat's next turn (option ``deep``: one more round), then a static value: the
humans eliminated or escaped; an attack that kills nobody costs a little (it shows the
attacker to be an alien). Every candidate meets the same worlds and the same chance (common
random numbers); the heuristic's choice stands unless another is better by a margin.
``classic-human`` gives humans this rollout search too (the earlier bot's human).

Options: ``budget=N``, ``risk=N``, ``cede=N``, ``no-lure``, ``lure=N``, ``far=N``, ``deep``, ``classic-human``, ``humans`` /
``aliens`` (search on one side only); the heuristic's restriction options apply to the
decisions the heuristic takes.
"""

from __future__ import annotations

import numpy as np

from simkit.game import Number
from simkit.games.eftaios import engine as E
from simkit.games.eftaios.board import (
    B_ADVANCED,
    B_CHAR_SIDE,
    B_HATCH_CARDS,
    B_HATCH_CELL,
    B_HATCH_GREEN,
    B_HDIST,
    B_HUMANS,
    B_ITEM_KIND,
    B_KIND,
    B_NCHARS,
    B_NDANGER,
    B_NHATCHCARDS,
    B_NB,
    B_NITEMS,
    B_PLAYERS,
    B_SCENARIO,
    BB_DANGER,
    BB_SAFE,
    BB_WALK,
    IT_DEFENCE,
    DANGER,
    FAR,
    NCELLS,
    SC_ARENA,
)
from simkit.games.eftaios import bits
from simkit.jit import kernel
from simkit.rng import BOT, fisher_yates, next_u64, randint, uniform

from . import belief as B
from . import common as C
from . import heuristic as H
from .heuristic import NO_BLUFF
from .belief import S_AGE_H, S_CAN_A, S_CAN_H, S_FED, W, sg, seat_set

DEEP, ONLY_HUMANS, ONLY_ALIENS, CLASSIC_HUMAN = 2048, 4096, 8192, 1024
# above every option bit, the heuristic's too (its GUARD is 1 << 16): the heuristic gets these flags
BUDGET = Number(lo=1, hi=4096, default=4, shift=17, help="a decision samples 4 x this many worlds (this many where moves are played out: Arena, classic-human's humans)")
BUDGET_SHIFT = BUDGET.shift
BUDGET_MASK = (1 << BUDGET.bits) - 1
RISK = Number(lo=0, hi=255, default=12, shift=32, help="a human's move: steps of detour a certain attack is worth")
RISK_SHIFT, RISK_MASK = RISK.shift, (1 << RISK.bits) - 1
LURE_W = Number(lo=0, hi=15, default=3, shift=40, help="a human's bluff: steps of distance a sure alien in reach of it is worth")
LURE_W_SHIFT, LURE_W_MASK = LURE_W.shift, (1 << LURE_W.bits) - 1
LURE_F = Number(lo=2, hi=31, default=6, shift=44, help="a human's bluff: steps from the seat that are far enough")
LURE_F_SHIFT, LURE_F_MASK = LURE_F.shift, (1 << LURE_F.bits) - 1
CEDE = Number(lo=0, hi=31, default=8, shift=49, help="a human's move: steps a hatch costs that another likely human is nearer to")
CEDE_SHIFT, CEDE_MASK = CEDE.shift, (1 << CEDE.bits) - 1
NO_LURE = 512  # a human's bluffs: the heuristic's (random among the believable sectors), not searched
MAX_CAND = 5
WORLDS_PER_BUDGET = 4  # a human's move and bluff, an alien's hunt: worlds sampled per unit of budget
REVEAL_COST = 0.035  # value an empty attack gives away
VIS_MAX = 0.6  # the most an alien is taken to know where a human is
VIS_NOISE = 0.5  # after a noise in the human's own sector (true half the time, R5.3)
VIS_DECAY = 0.6  # per turn without a noise
OVERRIDE_MARGIN = 0.02  # an alien's: mean value by which a candidate must beat the heuristic's choice
HUMAN_MARGIN = 0.25  # a human's: survival rate by which a candidate must beat the heuristic's choice  # mean value by which a candidate must beat the heuristic's choice
SIZE2 = (E.SIZE + 1) & ~1
I_WORLD = 1024  # the heuristic's scratch stays below
I_SIM = I_WORLD + SIZE2
I_LEGAL = I_SIM + SIZE2
I_POOL = I_LEGAL + ((E.MAX_ACTIONS + 1) & ~1)
I_CAND = I_POOL + 64
SCRATCH_NEEDED = I_CAND + 32
F_VAL = 400  # float scratch: candidate values
F_VIS0 = 420  # per seat: how well the others know where it is, at the root
F_VIS = 430  # the same, during a rollout
I_PREV = I_CAND + 8  # per seat: noises and bluffs announced so far in the rollout (2 x 8)


@kernel
def weighted_pick(obs, b, st, rng):
    """A sector of the set st drawn with the motion prior (common.front)."""
    dmin, z = C.front(obs, b, st)
    u = uniform(rng, BOT) * z
    last = -1
    for w in range(bits.WORDS):
        x = st[w]
        while x != 0:
            low = x & -x
            y = bits.cell_at(w, bits.lowest(low))
            x ^= low
            last = y
            u -= C.progress_weight(obs, b, y, dmin)
            if u <= 0.0:
                return y
    return last


@kernel
def pick_in(obs, b, st, rng, side):
    """A sector of the (non-empty) set st: a human's by the motion prior, an alien's uniformly."""
    if side == E.HUMAN:
        return weighted_pick(obs, b, st, rng)
    return bits.nth(st, randint(rng, BOT, bits.count(st)))


@kernel
def pick_sector(obs, b, mem, rng, j, side):
    """A sector for seat j on ``side``: its noise-anchored sectors with the anchor's weight,
    else its possible sectors (pick_in), else anywhere."""
    so, lso, age = B.side_sets(side)
    if sg(mem, j, age) >= 0 and uniform(rng, BOT) < H.ANCHOR_WEIGHT:
        ls = seat_set(mem, lso, j)
        if not bits.empty(ls):
            return pick_in(obs, b, ls, rng, side)
    st = seat_set(mem, so, j)
    if not bits.empty(st):
        return pick_in(obs, b, st, rng, side)
    walk = b[BB_WALK:BB_WALK + W].view(np.int64)
    return bits.nth(walk, randint(rng, BOT, bits.count(walk)))


@kernel
def shuffle_ib(ib, off, n, rng):
    fisher_yates(ib[off:off + n], rng, BOT)


@kernel
def sample_world(obs, b, mem, rng, ib):
    """A full engine state consistent with the seat's observation and belief, in ib[I_WORLD:]."""
    s = ib[I_WORLD:I_WORLD + E.SIZE]
    for i in range(E.SIZE):
        s[i] = 0
    n = b[B_PLAYERS]
    me = obs[E.O_SEAT]
    arena = b[B_SCENARIO] == SC_ARENA
    s[E.PHASE] = obs[E.O_PHASE]
    s[E.ROUND] = obs[E.O_ROUND]
    s[E.ACTIVE] = obs[E.O_ACTIVE]
    s[E.FIRST] = obs[E.O_FIRST]
    s[E.NSEATS] = n
    s[E.S0] = obs[E.O_S0]
    s[E.RSEC] = obs[E.O_RSEC]
    s[E.ADREN] = obs[E.O_ADREN]
    s[E.SEDATED] = obs[E.O_SEDATED]
    s[E.CARD_DRAWN] = obs[E.O_CARD_DRAWN]
    s[E.ITEM_ATTACKED] = obs[E.O_ITEM_ATTACKED]
    s[E.CAP_ACTIVE] = obs[E.O_CAP_ACTIVE]
    s[E.STAYED] = obs[E.O_STAYED]
    s[E.PENDING] = -1
    s[E.LOG_OFF] = 1
    s[E.TURNS] = 0
    for k in range(4):
        s[E.HATCH_STATE + k] = obs[E.O_HATCH + k]
    # sides: known ones, then exactly the humans left among the undecided seats
    pool = I_POOL
    nu = 0
    humans_left = b[B_HUMANS]
    if obs[E.O_START_SIDE] == E.HUMAN:
        humans_left -= 1
    for q in range(n):
        if q == me:
            continue
        ps = obs[E.O_PUB_SIDE + q]
        rv = obs[E.O_REVEALED + q]
        side = -1
        start = -1
        if arena:
            side = E.ALIEN
            start = E.ALIEN
        elif ps >= 0:
            side = ps
            start = b[B_CHAR_SIDE + rv] if rv >= 0 else ps
        elif sg(mem, q, S_CAN_H) != 0 and sg(mem, q, S_CAN_A) == 0:
            side = E.HUMAN
            start = E.HUMAN
        elif sg(mem, q, S_CAN_A) != 0 and sg(mem, q, S_CAN_H) == 0:
            side = E.ALIEN
            start = E.ALIEN
        if start == E.HUMAN:
            humans_left -= 1
        E.pset(s, q, E.P_SIDE, side)
        E.pset(s, q, E.P_START_SIDE, start)
        if side < 0:
            ib[pool + nu] = q
            nu += 1
    shuffle_ib(ib, pool, nu, rng)
    for i in range(nu):
        q = ib[pool + i]
        side = E.HUMAN if i < humans_left else E.ALIEN
        E.pset(s, q, E.P_SIDE, side)
        E.pset(s, q, E.P_START_SIDE, side)
    # characters
    for q in range(n):
        E.pset(s, q, E.P_CHAR, -1)
        E.pset(s, q, E.P_REVEALED, obs[E.O_REVEALED + q])
        E.pset(s, q, E.P_PUB_SIDE, obs[E.O_PUB_SIDE + q])
    if not arena:
        E.pset(s, me, E.P_CHAR, obs[E.O_CHAR])
        for q in range(n):
            if q != me and obs[E.O_REVEALED + q] >= 0:
                E.pset(s, q, E.P_CHAR, obs[E.O_REVEALED + q])
        nc = b[B_NCHARS]
        for side in range(2):
            m = 0
            for c in range(nc):
                if b[B_CHAR_SIDE + c] != side:
                    continue
                used = False
                for q in range(n):
                    if E.pf(s, q, E.P_CHAR) == c:
                        used = True
                if not used:
                    ib[pool + m] = c
                    m += 1
            shuffle_ib(ib, pool, m, rng)
            t = 0
            for q in range(n):
                if E.pf(s, q, E.P_CHAR) < 0 and E.pf(s, q, E.P_START_SIDE) == side:
                    E.pset(s, q, E.P_CHAR, ib[pool + (t % max(m, 1))])
                    t += 1
    # positions, status, what else each seat has
    for q in range(n):
        st = obs[E.O_STATUS + q]
        E.pset(s, q, E.P_STATUS, st)
        E.pset(s, q, E.P_KILLS, obs[E.O_KILLS + q])
        E.pset(s, q, E.P_ORDER, (q - obs[E.O_FIRST] + n) % n)
        E.pset(s, q, E.P_LAST_CARD, -1)
        E.pset(s, q, E.P_KILLED_BY, -1)
        E.pset(s, q, E.P_FED_ROUND, -1)
        E.pset(s, q, E.P_FATE_ROUND, -1)
        E.pset(s, q, E.P_ESCAPE_HATCH, -1)
        E.pset(s, q, E.P_CAP_PASS, 1 if obs[E.O_ROUND] > 2 else 0)
        k = randint(rng, BOT, 4)
        for t in range(4):
            h = (k + t) % 4
            if b[B_HATCH_CELL + h] >= 0:
                E.pset(s, q, E.P_START_HATCH, h + 1)
                break
        if st == E.ST_ESCAPED:
            s[E.ESCAPED] += 1
        if q == me:
            E.pset(s, q, E.P_POS, obs[E.O_POS])
            E.pset(s, q, E.P_FED, obs[E.O_FED])
            E.pset(s, q, E.P_CAP_PASS, obs[E.O_CAP_PASS])
            if obs[E.O_START_HATCH] > 0:
                E.pset(s, q, E.P_START_HATCH, obs[E.O_START_HATCH])
            E.pset(s, q, E.P_SIDE, obs[E.O_SIDE])
            E.pset(s, q, E.P_START_SIDE, obs[E.O_START_SIDE])
            continue
        E.pset(s, q, E.P_FED, sg(mem, q, S_FED))
        if st != E.ST_ABOARD:
            E.pset(s, q, E.P_POS, -1)
            continue
        E.pset(s, q, E.P_POS, pick_sector(obs, b, mem, rng, q, E.HUMAN if E.pf(s, q, E.P_SIDE) == E.HUMAN else E.ALIEN))
    # items: my own kinds; the others' cards, the deck and the discards from the rest
    ni = b[B_NITEMS] if b[B_ADVANCED] != 0 else 0
    m = 0
    for c in range(ni):
        ib[pool + m] = c
        m += 1
    for i in range(obs[E.O_NHAND]):
        kind = obs[E.O_HAND + i]
        for t in range(m):
            c = ib[pool + t]
            if c >= 0 and b[B_ITEM_KIND + c] == kind:
                E.pset(s, me, E.P_HAND + i, c)
                E.pset(s, me, E.P_HUSES + i, obs[E.O_HUSES + i])
                ib[pool + t] = ib[pool + m - 1]
                m -= 1
                break
    E.pset(s, me, E.P_NHAND, obs[E.O_NHAND])
    shuffle_ib(ib, pool, m, rng)
    t = 0
    for q in range(n):
        if q == me:
            continue
        k = min(obs[E.O_NITEMS + q], m - t)
        for i in range(E.HAND_SLOTS):
            E.pset(s, q, E.P_HAND + i, -1)
        for i in range(k):
            E.pset(s, q, E.P_HAND + i, ib[pool + t])
            E.pset(s, q, E.P_HUSES + i, 1)
            t += 1
        E.pset(s, q, E.P_NHAND, k)
    k = min(obs[E.O_IK_LEFT], m - t)
    for i in range(k):
        s[E.IK + i] = ib[pool + t]
        t += 1
    s[E.IK_LEN] = k
    k = min(obs[E.O_ID_N], m - t)
    for i in range(k):
        s[E.IDISC + i] = ib[pool + t]
        t += 1
    s[E.ID_N] = k
    s[E.REMOVED_N] = m - t
    # Dangerous Sector deck and discards
    nd = b[B_NDANGER]
    for c in range(nd):
        ib[pool + c] = c
    shuffle_ib(ib, pool, nd, rng)
    k = min(obs[E.O_DK_LEFT], nd)
    for i in range(k):
        s[E.DK + i] = ib[pool + i]
    s[E.DK_LEN] = k
    for i in range(nd - k):
        s[E.DD + i] = ib[pool + k + i]
    s[E.DD_N] = nd - k
    # hatch deck: the colours not drawn yet, in some order
    if b[B_HATCH_CARDS] != 0:
        nh = b[B_NHATCHCARDS]
        used = 0
        red = 0
        for h in range(4):
            if obs[E.O_HATCH + h] == E.HATCH_USED:
                used += 1
            elif obs[E.O_HATCH + h] == E.HATCH_DAMAGED:
                red += 1
        m = 0
        for c in range(nh):
            if b[B_HATCH_GREEN + c] != 0:
                if used > 0:
                    used -= 1
                    continue
            elif red > 0:
                red -= 1
                continue
            ib[pool + m] = c
            m += 1
        shuffle_ib(ib, pool, m, rng)
        s[E.HK_POS] = nh - m
        for i in range(m):
            s[E.HK + nh - m + i] = ib[pool + i]


@kernel
def visibility(obs, b, mem, fb):
    """How well the table knows where each seat is: about 1.5 / the number of sectors its
    public belief allows (its noise-anchored sectors when it has an anchor), at most 0.9.
    Rollout aliens attack a human in reach with this chance."""
    n = b[B_PLAYERS]
    me = obs[E.O_SEAT]
    for q in range(n):
        side = obs[E.O_SIDE] if q == me else E.HUMAN
        if q != me and sg(mem, q, S_CAN_H) == 0:
            side = E.ALIEN
        so, lso, age = B.side_sets(side)
        k = bits.count(seat_set(mem, so, q))
        if sg(mem, q, age) >= 0:
            kl = bits.count(seat_set(mem, lso, q))
            if kl > 0 and kl < k:
                k = kl
        fb[F_VIS0 + q] = min(VIS_MAX, 1.0 / max(k, 1))


@kernel
def hex_distance(a, c):
    """Hex distance ignoring walls (columns B, D, ... shifted down: "odd-q" offset layout)."""
    ca = a // 14
    ra = a - ca * 14 - (ca - (ca & 1)) // 2
    cc = c // 14
    rc = c - cc * 14 - (cc - (cc & 1)) // 2
    dq = ca - cc
    dr = ra - rc
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@kernel
def rollout_policy(s, b, legal, k, rng, fb):
    """A fast, deterministic policy on the (sampled) state, so that the candidates differ
    only by what they cause: humans walk to the nearest live hatch; an alien attacks a
    target in its reach whose position the table knows well enough (visibility >= 0.5,
    see ``visibility``), else closes in on the target it knows best."""
    ph = s[E.PHASE]
    p = E.to_move(s)
    if ph == E.P_MOVE:
        human = E.pf(s, p, E.P_SIDE) == E.HUMAN and b[B_SCENARIO] != SC_ARENA
        if human:
            best = legal[0]
            bd = FAR + 1
            for i in range(k):
                a = legal[i]
                if a >= E.A_MOVE + NCELLS:
                    continue
                d = C.hatch_distance(s, E.HATCH_STATE, b, a - E.A_MOVE)
                if d < bd:
                    bd = d
                    best = a
            return best
        target = E.ALIEN if b[B_SCENARIO] == SC_ARENA else E.HUMAN
        n = b[B_PLAYERS]
        nm = 0
        best_att = -1
        best_vis = 0.0
        for i in range(k):
            a = legal[i]
            if a < E.A_MOVE + NCELLS:
                nm += 1
            elif a >= E.A_MOVE_ATTACK and a < E.A_MOVE_ATTACK + NCELLS:
                y = a - E.A_MOVE_ATTACK
                for q in range(n):
                    if q != p and E.pf(s, q, E.P_STATUS) == E.ST_ABOARD and E.pf(s, q, E.P_POS) == y \
                            and E.pf(s, q, E.P_SIDE) == target and fb[F_VIS + q] >= best_vis:
                        best_vis = fb[F_VIS + q]
                        best_att = a
        if best_att >= 0 and uniform(rng, BOT) < best_vis:
            return best_att
        if nm == 0:
            return legal[0]
        pos = E.pf(s, p, E.P_POS)
        tgt = -1
        td = 1e9
        for q in range(n):
            if q != p and E.pf(s, q, E.P_STATUS) == E.ST_ABOARD and E.pf(s, q, E.P_SIDE) == target:
                d = hex_distance(pos, E.pf(s, q, E.P_POS)) / (0.2 + fb[F_VIS + q])
                if d < td:
                    td = d
                    tgt = E.pf(s, q, E.P_POS)
        if tgt < 0:
            return legal[0]
        best = legal[0]
        bd = 1e9
        for i in range(nm):
            d = hex_distance(legal[i] - E.A_MOVE, tgt)
            if d < bd:
                bd = d
                best = legal[i]
        return best
    if ph == E.P_NOISE:  # a bluff most of the time (legal[] lists the allowed sectors)
        if uniform(rng, BOT) < 0.3:
            return E.A_NOISE_AT + s[E.RSEC]
        return legal[randint(rng, BOT, k)]
    if ph == E.P_PRE:
        if H.has_action(legal[:k], E.A_USE_ADRENALINE) and C.hatch_distance(s, E.HATCH_STATE, b, E.pf(s, p, E.P_POS)) == 2:
            return E.A_USE_ADRENALINE
        return E.A_PRE_DONE
    if ph == E.P_POST:
        return E.A_RESOLVE
    if ph == E.P_END:
        return E.A_END_TURN
    if ph == E.P_DEFEND:
        return E.A_DEFEND
    return legal[0]


@kernel
def track_exposure(s, b, ib, fb, p):
    """A true noise shows where p is (rollout noises are true unless counted as bluffs)."""
    noises = E.pf(s, p, E.P_NOISES)
    bl = E.pf(s, p, E.P_BLUFFS)
    if noises > ib[I_PREV + p]:
        if bl == ib[I_PREV + 8 + p]:
            fb[F_VIS + p] = VIS_NOISE
        else:
            fb[F_VIS + p] *= 0.7
        ib[I_PREV + p] = noises
        ib[I_PREV + 8 + p] = bl
    elif s[E.ACTIVE] != p:  # p's turn went by without a noise: the others lose track a little
        fb[F_VIS + p] *= VIS_DECAY


@kernel
def evaluate(s, b, fb, me, attacked, kills_before):
    """The value of a (sampled, played-out) state for the seat ``me``."""
    if b[B_SCENARIO] == SC_ARENA:
        v = 0.5 + 0.2 * (E.pf(s, me, E.P_KILLS) - kills_before)
        if E.pf(s, me, E.P_STATUS) != E.ST_ABOARD:
            v -= 0.3
        return v
    if s[E.OVER] != 0 and b[B_ADVANCED] == 0:
        return 1.0 * E.pf(s, me, E.P_WON)
    if E.pf(s, me, E.P_START_SIDE) == E.HUMAN and E.pf(s, me, E.P_SIDE) == E.HUMAN:
        # a human: survival (the heuristic's ranking already prefers the shorter way)
        st = E.pf(s, me, E.P_STATUS)
        if st == E.ST_ESCAPED:
            return 1.0
        if st != E.ST_ABOARD:
            return 0.0
        pos = E.pf(s, me, E.P_POS)
        n = b[B_PLAYERS]
        near = 0.0
        for q in range(n):
            if q != me and E.pf(s, q, E.P_STATUS) == E.ST_ABOARD and E.pf(s, q, E.P_SIDE) == E.ALIEN:
                if hex_distance(pos, E.pf(s, q, E.P_POS)) <= 3:
                    near = 1.0
        return 1.0 - 0.5 * near * fb[F_VIS + me]
    n = b[B_PLAYERS]
    v = 0.0
    for q in range(n):
        if E.pf(s, q, E.P_START_SIDE) != E.HUMAN:
            continue
        st = E.pf(s, q, E.P_STATUS)
        if st == E.ST_DEAD or E.pf(s, q, E.P_SIDE) == E.ALIEN:
            v += 1.0
        elif st == E.ST_ESCAPED:
            v -= 0.5
    v = 0.5 + 0.5 * v / max(b[B_HUMANS], 1)
    if attacked and E.pf(s, me, E.P_KILLS) == kills_before:
        v -= REVEAL_COST
    return v


@kernel
def play_out(b, rng, ib, fb, me, a, rounds):
    """The candidate action ``a`` on the world, then the rollout policy until the seat's
    next turn (plus ``rounds - 1`` rounds); returns the value for the seat."""
    s = ib[I_SIM:I_SIM + E.SIZE]
    legal = ib[I_LEGAL:I_LEGAL + E.MAX_ACTIONS]
    kills_before = E.pf(s, me, E.P_KILLS)
    attacked = (a >= E.A_MOVE_ATTACK and a < E.A_MOVE_ATTACK + NCELLS) or a == E.A_STAY_ATTACK
    n = b[B_PLAYERS]
    for q in range(n):
        fb[F_VIS + q] = fb[F_VIS0 + q]
        ib[I_PREV + q] = E.pf(s, q, E.P_NOISES)
        ib[I_PREV + 8 + q] = E.pf(s, q, E.P_BLUFFS)
    E.apply_action(s, rng, b, a)
    track_exposure(s, b, ib, fb, me)
    seen_me = 0
    for _ in range(600):
        if s[E.OVER] != 0:
            break
        if s[E.TURNS] >= n * rounds + 1:
            break
        if E.to_move(s) == me and s[E.ACTIVE] == me and s[E.TURNS] > 0 and (s[E.PHASE] == E.P_PRE or s[E.PHASE] == E.P_MOVE):
            seen_me += 1
            if seen_me >= rounds:
                break
        k = E.legal_actions(s, b, legal)
        if k == 0:
            break
        act = rollout_policy(s, b, legal, k, rng, fb)
        p = s[E.ACTIVE]
        E.apply_action(s, rng, b, act)
        track_exposure(s, b, ib, fb, p)
    return evaluate(s, b, fb, me, attacked, kills_before)


# ---- the human's move: the aliens' next attacks, modelled from the public belief ----------------
ATTACK_AT = H.ATTACK_THRESHOLD  # the table's aliens attack a sector holding this many expected humans
P_NOISE_HERE = 0.4  # Dangerous Sector deck: noise in your sector 10/25, any sector 10/25, silence 5/25
P_NOISE_ANY = 0.4
P_SILENCE = 0.2
F_DOTHER = 2000  # per sector: the expected humans other than the seat, as an alien sees them
F_RISK = 2400  # per legal action: the chance of being attacked before the next turn
F_LURE = 2600  # per sector: the chance an alien can reach it (a bluff there draws it away)
I_H1 = 400  # bit sets (even offsets): the seat's public sectors after its move, per outcome
I_L1 = I_H1 + W
I_HQ = I_L1 + W
I_LQ = I_HQ + W
I_HD = I_LQ + W
I_LD = I_HD + W
I_R = I_LD + W
I_F = I_R + W
I_NX = I_F + W
I_ONE = I_NX + W
I_KILL = I_ONE + W  # per legal action
DEFENDED_RISK = 0.3  # a Defence card saves the seat from the first attack (what it costs later)


@kernel
def map_density(fb, hs, ls, has_l, y):
    """The chance the table puts the seat on y, its public sectors hs (and anchored ones ls)."""
    kh = bits.count(hs)
    d = 0.0
    if kh > 0 and bits.has(hs, y):
        d = 1.0 / kh
    if has_l:
        kl = bits.count(ls)
        dl = 1.0 / kl if bits.has(ls, y) else 0.0
        d = (1.0 - H.ANCHOR_WEIGHT) * d + H.ANCHOR_WEIGHT * dl
    return d


@kernel
def alien_reach(world, q, me, one, r, f, nx, walk):
    """Whether seat ``q`` of a sampled ``world`` is an alien aboard other than the seat ``me``
    with a sector; if so ``one`` holds its sector and ``r`` the sectors it can reach next
    (2 steps, 3 when fed; ``f``, ``nx`` scratch)."""
    if q == me or E.pf(world, q, E.P_STATUS) != E.ST_ABOARD or E.pf(world, q, E.P_SIDE) != E.ALIEN:
        return False
    pos = E.pf(world, q, E.P_POS)
    if pos < 0:
        return False
    bits.clear(one)
    bits.add(one, pos)
    B.step_sets(one, r, f, nx, 3 if E.pf(world, q, E.P_FED) != 0 else 2, walk)
    return True


@kernel
def human_chance(obs, b, mem):
    """How likely an alien takes an undecided seat to be human (from the public
    announcements), and whether the seat itself is undecided as the others see it."""
    n = b[B_PLAYERS]
    me = obs[E.O_SEAT]
    hl = b[B_HUMANS]
    und = 0
    for q in range(n):
        if q == me:
            continue
        ps = obs[E.O_PUB_SIDE + q]
        if ps >= 0:
            rv = obs[E.O_REVEALED + q]
            if ps == E.HUMAN or (rv >= 0 and b[B_CHAR_SIDE + rv] == E.HUMAN):
                hl -= 1
            continue
        qh = sg(mem, q, S_CAN_H)
        qa = sg(mem, q, S_CAN_A)
        if qh != 0 and qa == 0:
            hl -= 1
        elif qh != 0 and qa != 0:
            und += 1
    me_und = sg(mem, me, S_CAN_A) != 0 and obs[E.O_PUB_SIDE + me] < 0
    if me_und:
        und += 1  # the seat itself, as the others see it
    else:
        hl -= 1
    return min(1.0, max(0.0, hl / max(und - 1, 1))), me_und  # an undecided alien leaves und - 1 seats


@kernel
def target_hatch(flags, obs, b, mem):
    """The open hatch a human makes for (-1: the nearest, as the heuristic): each costs its
    steps from the seat, plus ``cede`` steps times the chance that another seat, human, is
    nearer to it (from that seat's possible sectors): a hatch takes one human (R7.1,
    R11.2), so the one behind walks on to the next."""
    cede = 1.0 * ((flags >> CEDE_SHIFT) & CEDE_MASK)
    if cede == 0.0:
        return -1
    y0 = obs[E.O_RSEC]
    pa, _ = human_chance(obs, b, mem)
    best = -1
    best_v = 1e18
    for k in range(4):
        if obs[E.O_HATCH + k] != E.HATCH_OPEN:
            continue
        d = b[B_HDIST + k * NCELLS + y0]
        if d >= FAR:
            continue
        ahead = 0.0
        for j in range(b[B_PLAYERS]):
            if not B.in_play(obs, mem, j) or sg(mem, j, S_CAN_H) == 0:
                continue
            pj = pa if sg(mem, j, S_CAN_A) != 0 and obs[E.O_PUB_SIDE + j] < 0 else 1.0
            if pj <= ahead:
                continue
            hs = seat_set(mem, B.M_H, j)
            dj = FAR
            for w in range(bits.WORDS):
                x = hs[w]
                while x != 0:
                    low = x & -x
                    y = bits.cell_at(w, bits.lowest(low))
                    x ^= low
                    dj = min(dj, b[B_HDIST + k * NCELLS + y])
            if dj < d:
                ahead = pj
        v = d + cede * ahead
        if v < best_v:
            best_v = v
            best = k
    return best


@kernel
def human_risks(flags, obs, legal, rng, b, mem, ib, fb, worlds):
    """fb[F_RISK + i]: the chance that move legal[i] is attacked before the seat's next turn,
    over ``worlds`` worlds sampled from the belief. The aliens are modelled as the table's
    trackers are: each attacks the sector of its reach where the expected humans are most
    (at least ATTACK_AT), from the public announcements, the seat's own next one included
    (quiet on a safe sector; on a dangerous one a true noise, a bluff or a silence)."""
    n = b[B_PLAYERS]
    me = obs[E.O_SEAT]
    nl = legal.shape[0]
    wo = B.walk_of(b)
    walk = b[wo:wo + W].view(np.int64)
    safe = b[BB_SAFE:BB_SAFE + W].view(np.int64)
    danger = b[BB_DANGER:BB_DANGER + W].view(np.int64)
    pa, me_und = human_chance(obs, b, mem)
    p_me = pa if me_und else 1.0
    # the other seats' expected humans per sector
    for y in range(NCELLS):
        fb[F_DOTHER + y] = 0.0
    for j in range(n):
        if not B.in_play(obs, mem, j):
            continue
        ch = sg(mem, j, S_CAN_H)
        if ch == 0:
            continue
        pj = pa if sg(mem, j, S_CAN_A) != 0 and obs[E.O_PUB_SIDE + j] < 0 else 1.0
        hs = seat_set(mem, B.M_H, j)
        ls = seat_set(mem, B.M_LH, j)
        has_l = sg(mem, j, S_AGE_H) >= 0 and not bits.empty(ls)
        for w in range(bits.WORDS):
            x = hs[w]
            while x != 0:
                low = x & -x
                y = bits.cell_at(w, bits.lowest(low))
                x ^= low
                fb[F_DOTHER + y] += pj * map_density(fb, hs, ls, has_l, y)
    # the seat's public sectors after its move: grown by its range, cut by the announcement
    f = ib[I_F:I_F + W].view(np.int64)
    nx = ib[I_NX:I_NX + W].view(np.int64)
    h1 = ib[I_H1:I_H1 + W].view(np.int64)
    l1 = ib[I_L1:I_L1 + W].view(np.int64)
    steps = 1 if obs[E.O_ADREN] == 0 else 2
    B.step_sets(seat_set(mem, B.M_H, me), h1, f, nx, steps, walk)
    age = sg(mem, me, S_AGE_H)
    has_l1 = age >= 0 and age + 1 <= B.ANCHOR_TURNS
    bits.clear(l1)
    if has_l1:
        B.step_sets(seat_set(mem, B.M_LH, me), l1, f, nx, steps, walk)
    hq = ib[I_HQ:I_HQ + W].view(np.int64)
    lq = ib[I_LQ:I_LQ + W].view(np.int64)
    hd = ib[I_HD:I_HD + W].view(np.int64)
    ld = ib[I_LD:I_LD + W].view(np.int64)
    bits.copy(hq, h1)
    bits.and_into(hq, safe)
    bits.copy(lq, l1)
    bits.and_into(lq, safe)
    bits.copy(hd, h1)
    bits.and_into(hd, danger)
    bits.copy(ld, l1)
    bits.and_into(ld, danger)
    has_lq = has_l1 and not bits.empty(lq)
    has_ld = has_l1 and not bits.empty(ld)
    for i in range(nl):
        fb[F_RISK + i] = 0.0
    defended = obs[E.O_ITEMS + IT_DEFENCE] > 0
    r = ib[I_R:I_R + W].view(np.int64)
    one = ib[I_ONE:I_ONE + W].view(np.int64)
    world = ib[I_WORLD:I_WORLD + E.SIZE]
    for _ in range(worlds):
        sample_world(obs, b, mem, rng, ib)
        # per outcome, did some alien attack the move's sector: bits of (quiet, silence, noise, bluff)
        for i in range(nl):
            ib[I_KILL + i] = 0
        for q in range(n):
            if not alien_reach(world, q, me, one, r, f, nx, walk):
                continue
            # the densest sector of its reach under each outcome map
            mq = 0.0
            ms = 0.0
            mb = 0.0
            for w in range(bits.WORDS):
                x = r[w]
                while x != 0:
                    low = x & -x
                    y = bits.cell_at(w, bits.lowest(low))
                    x ^= low
                    do = fb[F_DOTHER + y]
                    v = do + p_me * map_density(fb, hq, lq, has_lq, y)
                    if v > mq:
                        mq = v
                    v = do + p_me * map_density(fb, hd, ld, has_ld, y)
                    if v > ms:
                        ms = v
                    v = do + p_me * map_density(fb, hd, ld, False, y)
                    if v > mb:
                        mb = v
            for i in range(nl):
                a = legal[i]
                if a >= E.A_MOVE + NCELLS:
                    continue
                y = a - E.A_MOVE
                if not bits.has(r, y):
                    continue
                do = fb[F_DOTHER + y]
                k = ib[I_KILL + i]
                if b[B_KIND + y] == DANGER:
                    v = do + p_me * map_density(fb, hd, ld, has_ld, y)
                    if v >= ATTACK_AT and v >= ms:
                        k |= 2
                    v = do + p_me * ((1.0 - H.ANCHOR_WEIGHT) * map_density(fb, hd, ld, False, y) + H.ANCHOR_WEIGHT)
                    if v >= ATTACK_AT and v >= mb:
                        k |= 4
                else:
                    v = do + p_me * map_density(fb, hq, lq, has_lq, y)
                    if v >= ATTACK_AT and v >= mq:
                        k |= 1
                ib[I_KILL + i] = k
        for i in range(nl):
            k = ib[I_KILL + i]
            if k == 0:
                continue
            p = 0.0
            if (k & 1) != 0:
                p += 1.0
            if (k & 2) != 0:
                p += P_SILENCE
            if (k & 4) != 0:
                p += P_NOISE_HERE
            fb[F_RISK + i] += p
    for i in range(nl):
        fb[F_RISK + i] /= max(worlds, 1)
        if defended:
            fb[F_RISK + i] *= DEFENDED_RISK


@kernel
def human_pick(flags, obs, legal, rng, b, mem, ib, fb, worlds):
    """The human's move: the heuristic's score (steps to a live hatch, the aliens' possible
    reach, a dangerous sector's exposure) plus RISK_STEPS x the modelled chance of being
    attacked before its next turn (human_risks)."""
    H.threat_sets(obs, b, mem, ib, fb)
    nl = legal.shape[0]
    for i in range(nl):
        a = legal[i]
        if a < E.A_MOVE + NCELLS and H.open_hatch_at(obs, b, a - E.A_MOVE):
            return a
    human_risks(flags, obs, legal, rng, b, mem, ib, fb, worlds)
    target = target_hatch(flags, obs, b, mem)
    best = legal[0]
    best_score = 1e18
    for i in range(nl):
        a = legal[i]
        if a >= E.A_MOVE + NCELLS:
            continue
        y = a - E.A_MOVE
        if target >= 0:
            score = 1.0 * b[B_HDIST + target * NCELLS + y]
        else:
            score = 1.0 * C.hatch_distance(obs, E.O_HATCH, b, y)
        score += H.THREAT_WEIGHT * H.threat_at(obs, b, mem, fb, y)
        if b[B_KIND + y] == DANGER:
            score += H.DANGER_WEIGHT
        score += 1.0 * ((flags >> RISK_SHIFT) & RISK_MASK) * fb[F_RISK + i]
        score += 0.01 * uniform(rng, BOT)
        if score < best_score:
            best_score = score
            best = a
    return best


@kernel
def human_noise(flags, obs, legal, rng, b, mem, ib, fb, worlds):
    """A human's noise in any sector (R5.3): a bluff among the sectors the table could believe
    (its public sectors after the move, as the heuristic's), the one farthest from its true
    sector (up to ``far`` steps, 6 by default) and likeliest in some alien's reach over ``worlds`` sampled
    worlds, so that the aliens' attack and chase go there."""
    me = obs[E.O_SEAT]
    own = obs[E.O_RSEC]
    n = b[B_PLAYERS]
    wo = B.walk_of(b)
    walk = b[wo:wo + W].view(np.int64)
    danger = b[BB_DANGER:BB_DANGER + W].view(np.int64)
    f = ib[I_F:I_F + W].view(np.int64)
    nx = ib[I_NX:I_NX + W].view(np.int64)
    pub = ib[I_H1:I_H1 + W].view(np.int64)
    steps = 1 if obs[E.O_ADREN] == 0 else 2
    B.step_sets(seat_set(mem, B.M_H, me), pub, f, nx, steps, walk)
    bits.and_into(pub, danger)
    if bits.count(pub) == 0:
        return H.noise(flags, obs, legal, rng, b, mem, ib, fb)
    for y in range(NCELLS):
        fb[F_LURE + y] = 0.0
    r = ib[I_R:I_R + W].view(np.int64)
    one = ib[I_ONE:I_ONE + W].view(np.int64)
    world = ib[I_WORLD:I_WORLD + E.SIZE]
    for _ in range(worlds):
        sample_world(obs, b, mem, rng, ib)
        for q in range(n):
            if not alien_reach(world, q, me, one, r, f, nx, walk):
                continue
            bits.or_into(r, one)
            for w in range(bits.WORDS):
                x = r[w] & pub[w]
                while x != 0:
                    low = x & -x
                    y = bits.cell_at(w, bits.lowest(low))
                    x ^= low
                    fb[F_LURE + y] += 1.0
    best = -1
    best_v = -1e18
    far = (flags >> LURE_F_SHIFT) & LURE_F_MASK
    lw = 1.0 * ((flags >> LURE_W_SHIFT) & LURE_W_MASK)
    for w in range(bits.WORDS):
        x = pub[w]
        while x != 0:
            low = x & -x
            y = bits.cell_at(w, bits.lowest(low))
            x ^= low
            d = hex_distance(y, own)
            if d < 2:
                continue
            v = min(d, far) + lw * fb[F_LURE + y] / max(worlds, 1) + 0.01 * uniform(rng, BOT)
            if v > best_v and H.has_action(legal, E.A_NOISE_AT + y):
                best_v = v
                best = y
    if best < 0:
        return H.noise(flags, obs, legal, rng, b, mem, ib, fb)
    return E.A_NOISE_AT + best


F_KILL = 3000  # per sector: the share of sampled worlds with a human there (an alien's hunt)
F_FAR = 3400  # per sector: the mean steps from there to the nearest human in those worlds
HUNT_ATTACK_AT = 0.2  # an alien attacks a sector holding a human in at least this share of the worlds


@kernel
def nearest_human_steps(world, b, dist, queue):
    """dist[y]: an alien's steps from sector y to the nearest human aboard in ``world`` (a
    breadth-first walk over the sectors aliens may cross; FAR where none is reachable)."""
    walk = b[BB_WALK:BB_WALK + W].view(np.int64)
    for y in range(NCELLS):
        dist[y] = FAR
    tail = 0
    for p in range(b[B_PLAYERS]):
        if E.pf(world, p, E.P_SIDE) == E.HUMAN and E.pf(world, p, E.P_STATUS) == E.ST_ABOARD:
            y = E.pf(world, p, E.P_POS)
            if dist[y] != 0:
                dist[y] = 0
                queue[tail] = y
                tail += 1
    head = 0
    while head < tail:
        y = queue[head]
        head += 1
        for k in range(6):
            z = b[B_NB + y * 6 + k]
            if z >= 0 and dist[z] == FAR and bits.has(walk, z):
                dist[z] = dist[y] + 1
                queue[tail] = z
                tail += 1


@kernel
def hunt(obs, legal, rng, b, mem, ib, fb, worlds, attack_at):
    """An alien's move: over ``worlds`` worlds sampled from its belief, attack the sector of
    its reach that most often holds a human, if in at least a share ``attack_at`` of them;
    otherwise move to where the nearest human is fewest steps away on average."""
    dist = ib[I_SIM:I_SIM + NCELLS]
    queue = ib[I_SIM + NCELLS:I_SIM + 2 * NCELLS]
    world = ib[I_WORLD:I_WORLD + E.SIZE]
    nl = legal.shape[0]
    for i in range(nl):
        a = legal[i]
        if a < E.A_MOVE_ATTACK + NCELLS:
            fb[F_KILL + (a - E.A_MOVE) % NCELLS] = 0.0
            fb[F_FAR + (a - E.A_MOVE) % NCELLS] = 0.0
    for _ in range(worlds):
        sample_world(obs, b, mem, rng, ib)
        nearest_human_steps(world, b, dist, queue)
        for i in range(nl):
            a = legal[i]
            if a >= E.A_MOVE_ATTACK and a < E.A_MOVE_ATTACK + NCELLS:
                if dist[a - E.A_MOVE_ATTACK] == 0:
                    fb[F_KILL + a - E.A_MOVE_ATTACK] += 1.0
            elif a >= E.A_MOVE and a < E.A_MOVE + NCELLS:
                fb[F_FAR + a - E.A_MOVE] += min(dist[a - E.A_MOVE], 30)
    best = -1
    most = attack_at * worlds
    for i in range(nl):
        a = legal[i]
        if a >= E.A_MOVE_ATTACK and a < E.A_MOVE_ATTACK + NCELLS and fb[F_KILL + a - E.A_MOVE_ATTACK] >= most:
            most = fb[F_KILL + a - E.A_MOVE_ATTACK]
            best = a
    if best >= 0:
        return best
    near = 1e18
    for i in range(nl):
        a = legal[i]
        if a >= E.A_MOVE and a < E.A_MOVE + NCELLS and fb[F_FAR + a - E.A_MOVE] < near:
            near = fb[F_FAR + a - E.A_MOVE]
            best = a
    return best


@kernel
def choose(flags, obs, legal, rng, b, mem, ib, fb):
    """The searching bot's action (the heuristic's where nothing is contested)."""
    if mem[B.M_INIT] == 0:
        B.init(obs, b, mem, True)
    B.update(obs, b, mem)
    H.cache_sides(obs, b, mem, fb)
    budget = (flags >> BUDGET_SHIFT) & BUDGET_MASK
    ph = obs[E.O_PHASE]
    if ph == E.P_NOISE and (flags & NO_LURE) == 0 and obs[E.O_SIDE] == E.HUMAN and b[B_SCENARIO] != SC_ARENA \
            and (flags & NO_BLUFF) == 0 and (flags & ONLY_ALIENS) == 0:
        return human_noise(flags, obs, legal, rng, b, mem, ib, fb, WORLDS_PER_BUDGET * budget)
    if ph != E.P_MOVE:
        return H.choose(flags, obs, legal, rng, b, mem, ib, fb)
    me = obs[E.O_SEAT]
    human = obs[E.O_SIDE] == E.HUMAN and b[B_SCENARIO] != SC_ARENA
    if (human and (flags & ONLY_ALIENS) != 0) or (not human and (flags & ONLY_HUMANS) != 0):
        return H.choose(flags, obs, legal, rng, b, mem, ib, fb)
    if human and (flags & CLASSIC_HUMAN) == 0:
        return human_pick(flags, obs, legal, rng, b, mem, ib, fb, WORLDS_PER_BUDGET * budget)
    if not human and b[B_SCENARIO] != SC_ARENA:
        a = hunt(obs, legal, rng, b, mem, ib, fb, WORLDS_PER_BUDGET * budget, HUNT_ATTACK_AT)
        if a >= 0:
            return a
    # rank the legal moves with the heuristic's measures
    nl = legal.shape[0]
    contested = False
    if human:
        H.threat_sets(obs, b, mem, ib, fb)
        for i in range(nl):
            a = legal[i]
            if a >= E.A_MOVE + NCELLS:
                fb[H.F_SCORE + i] = 1e9
                continue
            y = a - E.A_MOVE
            if H.open_hatch_at(obs, b, y):
                return a
            t = H.threat_at(obs, b, mem, fb, y)
            if t > 0.02:
                contested = True
            sc = C.hatch_distance(obs, E.O_HATCH, b, y) + H.THREAT_WEIGHT * t + 0.01 * uniform(rng, BOT)
            if b[B_KIND + y] == DANGER:
                sc += H.DANGER_WEIGHT
            fb[H.F_SCORE + i] = sc
    else:
        target = E.ALIEN if b[B_SCENARIO] == SC_ARENA else E.HUMAN
        prior = target == E.HUMAN  # humans make for the hatches (common.front)
        H.prepare_density(obs, b, mem, fb, H.F_DENS, target, prior)
        for i in range(nl):
            a = legal[i]
            if a >= E.A_MOVE_ATTACK and a < E.A_MOVE_ATTACK + NCELLS:
                y = a - E.A_MOVE_ATTACK
                d = H.density_at(obs, b, mem, fb, H.F_DENS, y, target, prior)
                if d > 0.04:
                    contested = True
                fb[H.F_SCORE + i] = -d
            else:
                fb[H.F_SCORE + i] = 1e9
        # plain moves: ranked by the heuristic's chase
        heur = H.alien_move(flags, obs, legal, rng, b, mem, ib, fb)
        for i in range(nl):
            if legal[i] == heur:
                fb[H.F_SCORE + i] = -1e9
        if not contested:
            return heur
    if not contested:
        return H.human_move(flags, obs, legal, rng, b, mem, ib, fb)
    # the candidates: the best-ranked few
    kc = 0
    for _ in range(MAX_CAND):
        bi = -1
        bs = 1e8
        for i in range(nl):
            if fb[H.F_SCORE + i] < bs:
                bs = fb[H.F_SCORE + i]
                bi = i
        if bi < 0:
            break
        ib[I_CAND + kc] = legal[bi]
        fb[H.F_SCORE + bi] = 1e18
        kc += 1
    if kc == 1:
        return ib[I_CAND]
    worlds = budget  # (played out: each world costs a rollout per candidate)
    rounds = 2 if (flags & DEEP) != 0 else 1
    for c in range(kc):
        fb[F_VAL + c] = 0.0
    world = ib[I_WORLD:I_WORLD + E.SIZE]
    sim = ib[I_SIM:I_SIM + E.SIZE]
    visibility(obs, b, mem, fb)
    for w in range(worlds):
        sample_world(obs, b, mem, rng, ib)
        seed = next_u64(rng, BOT)
        for c in range(kc):
            for i in range(E.SIZE):
                sim[i] = world[i]
            rng[0] = seed
            fb[F_VAL + c] += play_out(b, rng, ib, fb, me, ib[I_CAND + c], rounds)
    # the heuristic's choice (candidate 0) stands unless another is clearly better: for a
    # human, survives clearly more often (the candidates come in the heuristic's order, so
    # the first such is the shortest way among them); for an alien, a better mean value
    best = 0
    if human:
        for c in range(1, kc):
            if fb[F_VAL + c] >= fb[F_VAL] + HUMAN_MARGIN * worlds:
                best = c
                break
        return ib[I_CAND + best]
    margin = OVERRIDE_MARGIN * worlds
    for c in range(1, kc):
        if fb[F_VAL + c] > fb[F_VAL + best] + (margin if best == 0 else 1e-9):
            best = c
    return ib[I_CAND + best]
