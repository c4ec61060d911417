"""The heuristic bots: a human that walks the shortest path to a live hatch, away from the
sectors the aliens may reach, bluffs with its noises and uses items when they pay; an alien
that follows every unknown seat's possible sectors (``belief.py``) and moves and attacks where
a human is likely. Both see only their seat's observation.

Options (bits of ``flags``) switch one item or one skill off, so that the report can measure
what it is worth: ``no-attack`` ... ``no-defence`` (never use that item), ``no-bluff`` (a noise
in any sector names the seat's own sector), ``no-avoid`` (humans ignore the aliens' reach),
``no-track`` (aliens ignore the announcements: they wander and attack at random now and then).
``guard`` is a variant, not a restriction: aliens also make for the hatch most humans are
heading to and wait a couple of steps from it (it helps the aliens in the advanced game and
hurts them in the basic one, so it is off by default).
"""

from __future__ import annotations

import numpy as np

from simkit.games.eftaios import bits
from simkit.games.eftaios import engine as E
from simkit.games.eftaios.board import (
    B_ADVANCED,
    B_HATCH_CELL,
    B_HDIST,
    B_HUMAN_START,
    B_KIND,
    B_NB,
    B_PLAYERS,
    B_SCENARIO,
    BB_DANGER,
    DANGER,
    FAR,
    IT_ADRENALINE,
    IT_ATTACK,
    IT_DEFENCE,
    IT_SEDATIVES,
    IT_SPOTLIGHT,
    IT_TELEPORT,
    NCELLS,
    SC_ARENA,
)
from simkit.jit import inline_kernel, kernel
from simkit.rng import BOT, randint, uniform

from . import belief as B
from . import common as C
from .belief import M_A, M_H, M_LA, S_AGE_A, S_FED, W, sg, seat_set

# option bits
NO_ATTACK, NO_TELEPORT, NO_ADRENALINE, NO_SEDATIVES, NO_SPOTLIGHT, NO_DEFENCE = 1, 2, 4, 8, 16, 32
NO_BLUFF, NO_AVOID, NO_TRACK, GUARD = 64, 128, 256, 1 << 16
ITEM_FLAG = (NO_ATTACK, NO_TELEPORT, NO_ADRENALINE, NO_SEDATIVES, NO_SPOTLIGHT, NO_DEFENCE)

# tuning (see docs/rules/eftaios.md "Bots")
THREAT_WEIGHT = 3.0  # steps of detour a certain alien reach is worth
DANGER_WEIGHT = 0.35  # a dangerous sector may announce where the human is
ATTACK_THRESHOLD = 0.22  # expected humans in a sector worth revealing oneself for
ANCHOR_WEIGHT = 0.6  # chance that a seat is near its last noise, when that is possible
GUARD_WEIGHT = 0.5  # an alien's move: share of guarding the humans' hatch against chasing them
GUARD_RING = 2  # steps from that hatch where it waits
# discard order (lowest first): what a human keeps longest
KEEP = (1, 3, 6, 4, 2, 5)  # attack, teleport, adrenaline, sedatives, spotlight, defence

# int scratch (ib): reach sets of the other seats, temporaries; float scratch (fb): weights
I_R = 0  # NS sets
I_T0 = I_R + B.NS * W
I_T1 = I_T0 + W
I_T2 = I_T1 + W
I_T3 = I_T2 + W
I_T4 = I_T3 + W
I_LIST = I_T4 + W  # a list of cells
F_W = 0  # weight of each seat's reach set
F_DENS = 100  # prepare_density's tables (5 per seat)
F_DENS2 = 40
F_SCORE = 160  # per legal action
F_CELL = 1000  # per sector (alien_move's densities)
F_GUARD = 90  # guard_hatch's pressure per hatch
F_PH = 80  # cache_sides: the chance each seat is human


@kernel
def cache_sides(obs, b, mem, fb):
    """The chance that each seat is human (belief.p_side), once per decision, in fb[F_PH:]."""
    for j in range(b[B_PLAYERS]):
        fb[F_PH + j] = B.p_side(obs, b, mem, j, E.HUMAN)


@inline_kernel
def side_p(fb, j, side):
    return fb[F_PH + j] if side == E.HUMAN else 1.0 - fb[F_PH + j]


@kernel
def has_action(legal, a):
    for i in range(legal.shape[0]):
        if legal[i] == a:
            return True
    return False


@kernel
def open_hatch_at(obs, b, y):
    for k in range(4):
        if obs[E.O_HATCH + k] == E.HATCH_OPEN and b[B_HATCH_CELL + k] == y:
            return True
    return False


@kernel
def threat_sets(obs, b, mem, ib, fb):
    """For every other seat that may be an alien: the sectors it could attack on its next
    turn (its possible or likely sectors grown by its range), kept in memory until a new
    event arrives, and a weight (the chance it is an alien, discounted when it could be in
    many places) in fb[F_W + j]."""
    n = b[B_PLAYERS]
    stamp = obs[E.O_NSEEN] + 1
    if mem[B.M_THREAT_STAMP] == stamp:
        for j in range(n):
            fb[F_W + j] = mem[B.M_THREAT_W + j] * 1e-6
        return
    mem[B.M_THREAT_STAMP] = stamp
    wo = B.walk_of(b)
    walk = b[wo:wo + W].view(np.int64)
    f = ib[I_T0:I_T0 + W].view(np.int64)
    nx = ib[I_T1:I_T1 + W].view(np.int64)
    # the sectors within 6 steps of the seat: an alien whose possible sectors miss them cannot
    # threaten any sector the seat may reach this turn (range 3 + the seat's 2 + margin)
    near = ib[I_T2:I_T2 + W].view(np.int64)
    bits.clear(near)
    pos = obs[E.O_POS]
    if pos >= 0:
        bits.add(near, pos)
        for _ in range(6):
            bits.expand(near, nx)
            bits.or_into(near, nx)
    for j in range(n):
        fb[F_W + j] = 0.0
        mem[B.M_THREAT_W + j] = 0
        if not B.in_play(obs, mem, j):
            continue
        a = seat_set(mem, M_A, j)
        if pos >= 0 and not bits.intersects(a, near):
            continue
        pa = side_p(fb, j, E.ALIEN)
        if pa <= 0.0:
            continue
        la = seat_set(mem, M_LA, j)
        size = bits.count(a)
        if size == 0:
            continue
        w = pa * min(1.0, 5.0 / size)
        src = a
        if sg(mem, j, S_AGE_A) >= 0:
            lsize = bits.count(la)
            if lsize > 0:
                w = pa * (ANCHOR_WEIGHT * min(1.0, 5.0 / lsize) + (1.0 - ANCHOR_WEIGHT) * min(1.0, 5.0 / size))
                if lsize * 2 < size:
                    src = la
        r = seat_set(mem, B.M_THREAT, j)
        steps = 3 if sg(mem, j, S_FED) != 0 else 2
        B.step_sets(src, r, f, nx, steps, walk)
        bits.or_into(r, src)
        fb[F_W + j] = w
        mem[B.M_THREAT_W + j] = int(w * 1e6)
        fb[F_W + j] = mem[B.M_THREAT_W + j] * 1e-6


@kernel
def threat_at(obs, b, mem, fb, y):
    n = b[B_PLAYERS]
    t = 0.0
    for j in range(n):
        w = fb[F_W + j]
        if w > 0.0:
            if bits.has(seat_set(mem, B.M_THREAT, j), y):
                t += w
    return t


@kernel
def prepare_density(obs, b, mem, fb, off, target_side, prior):
    """Per seat j, in fb[off + 5j ...]: the chance it is on ``target_side`` (0 when it is not
    a candidate), then (least hatch distance, total weight) of its possible sectors and of its
    noise-anchored ones (weight 0 if none). A sector weighs 1, or with ``prior`` (the searching
    bot's, for humans) its motion prior (common.front)."""
    so, lso, age = B.side_sets(target_side)
    for j in range(b[B_PLAYERS]):
        fb[off + 5 * j] = 0.0
        fb[off + 5 * j + 4] = 0.0
        if not B.in_play(obs, mem, j):
            continue
        p = side_p(fb, j, target_side)
        st = seat_set(mem, so, j)
        if p <= 0.0 or bits.empty(st):
            continue
        fb[off + 5 * j] = p
        fb[off + 5 * j + 1], fb[off + 5 * j + 2] = C.front(obs, b, st) if prior else (0, float(bits.count(st)))
        ls = seat_set(mem, lso, j)
        if sg(mem, j, age) >= 0 and not bits.empty(ls):
            fb[off + 5 * j + 3], fb[off + 5 * j + 4] = C.front(obs, b, ls) if prior else (0, float(bits.count(ls)))


@kernel
def seat_density(obs, b, fb, o, ls, y, prior):
    """The chance that a seat is on y, one of its possible sectors, from its entries fb[o:o + 5]
    (prepare_density) and its noise-anchored sectors ``ls``."""
    d = (C.progress_weight(obs, b, y, fb[o + 1]) if prior else 1.0) / fb[o + 2]
    if fb[o + 4] > 0.0:
        dl = 0.0
        if bits.has(ls, y):
            dl = (C.progress_weight(obs, b, y, fb[o + 3]) if prior else 1.0) / fb[o + 4]
        d = (1.0 - ANCHOR_WEIGHT) * d + ANCHOR_WEIGHT * dl
    return d


@kernel
def density_at(obs, b, mem, fb, off, y, target_side, prior):
    """The expected number of seats of ``target_side`` on sector y (after prepare_density)."""
    so, lso, _ = B.side_sets(target_side)
    total = 0.0
    for j in range(b[B_PLAYERS]):
        p = fb[off + 5 * j]
        if p <= 0.0 or not bits.has(seat_set(mem, so, j), y):
            continue
        total += p * seat_density(obs, b, fb, off + 5 * j, seat_set(mem, lso, j), y, prior)
    return total


@kernel
def add_density(obs, b, mem, fb, off, cells, target_side, scale, ib):
    """fb[F_CELL + y] += scale x the expected seats of ``target_side`` on y, for y in ``cells``."""
    so, lso, _ = B.side_sets(target_side)
    x = ib[I_T4:I_T4 + W].view(np.int64)
    for j in range(b[B_PLAYERS]):
        p = fb[off + 5 * j]
        if p <= 0.0:
            continue
        st = seat_set(mem, so, j)
        hit = np.int64(0)
        for w in range(bits.WORDS):
            x[w] = st[w] & cells[w]
            hit |= x[w]
        if hit == 0:
            continue
        ls = seat_set(mem, lso, j)
        for w in range(bits.WORDS):
            xw = x[w]
            while xw != 0:
                low = xw & -xw
                y = bits.cell_at(w, bits.lowest(low))
                xw ^= low
                fb[F_CELL + y] += scale * p * seat_density(obs, b, fb, off + 5 * j, ls, y, False)


@kernel
def density(obs, b, mem, fb, y, target_side):
    """The expected number of seats of ``target_side`` on sector y (humans for an alien)."""
    prepare_density(obs, b, mem, fb, F_DENS2, target_side, False)
    return density_at(obs, b, mem, fb, F_DENS2, y, target_side, False)


# ---- the move ------------------------------------------------------------------------------------------
@kernel
def human_move(flags, obs, legal, rng, b, mem, ib, fb):
    if (flags & NO_AVOID) == 0:
        threat_sets(obs, b, mem, ib, fb)
    else:
        for j in range(B.NS):
            fb[F_W + j] = 0.0
    best = legal[0]
    best_score = 1e18
    for i in range(legal.shape[0]):
        a = legal[i]
        if a >= E.A_MOVE + NCELLS:
            continue
        y = a - E.A_MOVE
        if open_hatch_at(obs, b, y):
            return a  # R10.1: reach it
        score = 1.0 * C.hatch_distance(obs, E.O_HATCH, b, y)
        score += THREAT_WEIGHT * threat_at(obs, b, mem, fb, y)
        if b[B_KIND + y] == DANGER:
            score += DANGER_WEIGHT
        score += 0.01 * uniform(rng, BOT)
        if score < best_score:
            best_score = score
            best = a
    return best


@kernel
def heat_layers(obs, b, mem, ib, fb, target_side, cells):
    """Sets of the sectors at distance 0, 1, 2, ... from where targets likely are: layer k in
    ib[I_LIST + k*W] for k < 6, stopping once every sector of ``cells`` (the candidate moves)
    lies in some layer. Returns the number of layers made."""
    so, lso, age = B.side_sets(target_side)
    heat = ib[I_LIST:I_LIST + W].view(np.int64)
    bits.clear(heat)
    for j in range(b[B_PLAYERS]):
        if not B.in_play(obs, mem, j) or side_p(fb, j, target_side) < 0.2:
            continue
        src = seat_set(mem, so, j)
        if sg(mem, j, age) >= 0:
            ls = seat_set(mem, lso, j)
            if not bits.empty(ls):
                src = ls
        bits.or_into(heat, src)
    if bits.empty(heat):
        return 0
    wo = B.walk_of(b)
    walk = b[wo:wo + W].view(np.int64)
    seen = ib[I_T2:I_T2 + W].view(np.int64)
    bits.copy(seen, heat)
    layers = 1
    for k in range(1, 6):
        prev = ib[I_LIST + (k - 1) * W:I_LIST + k * W].view(np.int64)
        cur = ib[I_LIST + k * W:I_LIST + (k + 1) * W].view(np.int64)
        bits.expand(prev, cur)
        bits.and_into(cur, walk)
        bits.andnot_into(cur, seen)
        bits.or_into(seen, cur)
        layers += 1
        left = np.int64(0)
        for w in range(bits.WORDS):
            left |= cells[w] & ~seen[w]
        if left == 0:
            break
    return layers


@kernel
def guard_hatch(obs, b, mem, fb):
    """The open hatch most humans are heading for: each seat that may be human counts, with
    its chance of being human, for the hatch nearest the front of its possible sectors (the
    sector nearest any hatch). -1 if no human can be placed."""
    for k in range(4):
        fb[F_GUARD + k] = 0.0
    any_ = False
    for j in range(b[B_PLAYERS]):
        if not B.in_play(obs, mem, j):
            continue
        p = side_p(fb, j, E.HUMAN)
        if p <= 0.0:
            continue
        st = seat_set(mem, M_H, j)
        best_d = FAR
        best_k = -1
        for w in range(bits.WORDS):
            x = st[w]
            while x != 0:
                low = x & -x
                y = bits.cell_at(w, bits.lowest(low))
                x ^= low
                d, k = C.nearest_hatch(obs, E.O_HATCH, b, y)
                if d < best_d:
                    best_d = d
                    best_k = k
        if best_k >= 0:
            fb[F_GUARD + best_k] += p
            any_ = True
    if not any_:
        return -1
    pos = obs[E.O_POS]
    best = -1
    best_v = 0.0
    for k in range(4):
        if obs[E.O_HATCH + k] != E.HATCH_OPEN:
            continue
        # closer hatches count a little more: the alien must get there first
        v = fb[F_GUARD + k] / (1.0 + 0.05 * min(b[B_HDIST + k * NCELLS + pos], 30))
        if v > best_v:
            best_v = v
            best = k
    return best


@kernel
def alien_move(flags, obs, legal, rng, b, mem, ib, fb):
    target = E.ALIEN if b[B_SCENARIO] == SC_ARENA else E.HUMAN
    nmoves = 0
    for i in range(legal.shape[0]):
        if legal[i] < E.A_MOVE + NCELLS:
            nmoves += 1
    if nmoves == 0:
        return legal[0]  # R4.2, A28: stay
    if (flags & NO_TRACK) != 0:
        # no tracking: a random move, attacking now and then
        a = legal[randint(rng, BOT, nmoves)]
        if uniform(rng, BOT) < 0.15 and has_action(legal, a - E.A_MOVE + E.A_MOVE_ATTACK):
            return a - E.A_MOVE + E.A_MOVE_ATTACK
        return a
    best_att = -1
    best_d = 0.0
    # the expected targets on each reachable sector: only the seats whose possible sectors
    # meet the reach contribute (most do not), so work set by set, not sector by sector
    reach = ib[I_T3:I_T3 + W].view(np.int64)
    bits.clear(reach)
    for i in range(nmoves):
        y = legal[i] - E.A_MOVE
        bits.add(reach, y)
        fb[F_CELL + y] = 0.0
    prepare_density(obs, b, mem, fb, F_DENS, target, False)
    add_density(obs, b, mem, fb, F_DENS, reach, target, 1.0, ib)
    if target == E.HUMAN:
        prepare_density(obs, b, mem, fb, F_DENS2, E.ALIEN, False)
        add_density(obs, b, mem, fb, F_DENS2, reach, E.ALIEN, -0.5, ib)  # fellow aliens would die too
    for i in range(nmoves):
        y = legal[i] - E.A_MOVE
        d = fb[F_CELL + y] + 0.001 * uniform(rng, BOT)
        if d > best_d:
            best_d = d
            best_att = y
    if best_att >= 0 and best_d >= ATTACK_THRESHOLD and has_action(legal, E.A_MOVE_ATTACK + best_att):
        return E.A_MOVE_ATTACK + best_att
    layers = heat_layers(obs, b, mem, ib, fb, target, reach)
    guard = -1
    if target == E.HUMAN and (flags & GUARD) != 0:
        guard = guard_hatch(obs, b, mem, fb)
    best = legal[randint(rng, BOT, nmoves)]
    best_score = 1e18
    for i in range(nmoves):
        y = legal[i] - E.A_MOVE
        dist = 9.0
        for k in range(layers):
            lay = ib[I_LIST + k * W:I_LIST + (k + 1) * W].view(np.int64)
            if bits.has(lay, y):
                dist = 1.0 * k
                break
        if layers == 0:
            dist = 0.1 * C.hatch_distance(obs, E.O_HATCH, b, y)  # nobody to chase: stay between humans and hatches
        if guard >= 0:
            # wait for them on the way in: hover about GUARD_RING steps from the hatch they make for
            gd = b[B_HDIST + guard * NCELLS + y]
            dist = (1.0 - GUARD_WEIGHT) * dist + GUARD_WEIGHT * abs(min(gd, 20) - GUARD_RING)
        score = dist + 0.2 * (1.0 if b[B_KIND + y] == DANGER else 0.0) + 0.3 * uniform(rng, BOT)
        if score < best_score:
            best_score = score
            best = legal[i]
    return best


# ---- announcements, items ---------------------------------------------------------------------------
@kernel
def noise(flags, obs, legal, rng, b, mem, ib, fb):
    """A noise in any sector (R5.3): a bluff where the others could believe the seat is (its
    public sectors after this move), away from its true sector; ``no-bluff`` tells the truth."""
    me = obs[E.O_SEAT]
    own = obs[E.O_RSEC]
    if (flags & NO_BLUFF) != 0:
        return E.A_NOISE_AT + own
    wo = B.walk_of(b)
    walk = b[wo:wo + W].view(np.int64)
    pub = ib[I_T3:I_T3 + W].view(np.int64)
    f = ib[I_T0:I_T0 + W].view(np.int64)
    nx = ib[I_T1:I_T1 + W].view(np.int64)
    h = seat_set(mem, M_H, me)
    steps = 1 if obs[E.O_ADREN] == 0 else 2
    if obs[E.O_SIDE] == E.ALIEN and bits.empty(h):
        a = seat_set(mem, M_A, me)
        B.step_sets(a, pub, f, nx, 3 if obs[E.O_FED] != 0 else 2, walk)
    else:
        B.step_sets(h, pub, f, nx, steps, walk)
    danger = b[BB_DANGER:BB_DANGER + W].view(np.int64)
    bits.and_into(pub, danger)
    near = ib[I_T4:I_T4 + W].view(np.int64)
    bits.clear(near)
    bits.add(near, own)
    for d in range(6):
        x = b[B_NB + own * 6 + d]
        if x >= 0:
            bits.add(near, x)
    bits.andnot_into(pub, near)
    k = bits.count(pub)
    if k > 0:
        x = bits.nth(pub, randint(rng, BOT, k))
        if has_action(legal, E.A_NOISE_AT + x):
            return E.A_NOISE_AT + x
    # nowhere plausible: any legal sector away from the seat
    for _ in range(8):
        a = legal[randint(rng, BOT, legal.shape[0])]
        x = a - E.A_NOISE_AT
        if not bits.has(near, x) and b[B_KIND + x] == DANGER:
            return a
    return E.A_NOISE_AT + own


@kernel
def discard(flags, obs, legal, rng, b):
    best = legal[0]
    best_keep = 99
    for i in range(legal.shape[0]):
        a = legal[i]
        if a < E.A_DISCARD or a >= E.A_DISCARD + 6:
            continue
        k = a - E.A_DISCARD
        keep = KEEP[k]
        if (flags & ITEM_FLAG[k]) != 0:
            keep = -1
        if keep < best_keep:
            best_keep = keep
            best = a
    return best


@kernel
def spotlight_target(obs, b, mem, ib, fb):
    """The sector whose light covers the most of the likely aliens' possible sectors, at least
    two steps from the user (so the user stays dark); -1 if none covers enough."""
    pos = obs[E.O_POS]
    best = -1
    best_cov = 0.35
    ring = ib[I_T3:I_T3 + W].view(np.int64)
    lit = ib[I_T4:I_T4 + W].view(np.int64)
    bits.clear(lit)
    bits.add(lit, pos)
    bits.expand(lit, ring)
    tmp = ib[I_T2:I_T2 + W].view(np.int64)
    bits.expand(ring, tmp)
    bits.expand(tmp, ring)  # radius 3 around the user
    for w in range(bits.WORDS):
        xw = ring[w]
        while xw != 0:
            low = xw & -xw
            t = bits.cell_at(w, bits.lowest(low))
            xw ^= low
            if t >= NCELLS or b[B_KIND + t] == 0:
                continue
            near_me = t == pos
            for d in range(6):
                if b[B_NB + t * 6 + d] == pos:
                    near_me = True
            if near_me:
                continue
            bits.clear(lit)
            bits.add(lit, t)
            for d in range(6):
                y = b[B_NB + t * 6 + d]
                if y >= 0:
                    bits.add(lit, y)
            cov = 0.0
            for j in range(b[B_PLAYERS]):
                if not B.in_play(obs, mem, j):
                    continue
                pa = side_p(fb, j, E.ALIEN)
                if pa <= 0.0:
                    continue
                a = seat_set(mem, M_A, j)
                size = bits.count(a)
                if size == 0:
                    continue
                inter = 0
                for ww in range(bits.WORDS):
                    inter += bits.popcount(a[ww] & lit[ww])
                cov += pa * inter / size
            if cov > best_cov:
                best_cov = cov
                best = t
    return best


@kernel
def pre(flags, obs, legal, rng, b, mem, ib, fb):
    """Before the move (R8.4): Adrenaline to reach a hatch or to run, Teleport as a
    shortcut or an escape, Spotlight when aliens are likely near."""
    pos = obs[E.O_POS]
    d = C.hatch_distance(obs, E.O_HATCH, b, pos)
    threat_sets(obs, b, mem, ib, fb)
    danger_here = threat_at(obs, b, mem, fb, pos)
    if has_action(legal, E.A_USE_ADRENALINE) and (flags & NO_ADRENALINE) == 0:
        if d == 2 or (danger_here >= 0.6 and d > 1):
            return E.A_USE_ADRENALINE
    if has_action(legal, E.A_USE_TELEPORT) and (flags & NO_TELEPORT) == 0:
        dh = C.hatch_distance(obs, E.O_HATCH, b, b[B_HUMAN_START])
        if dh + 3 < d or (danger_here >= 0.9 and dh <= d + 2):
            return E.A_USE_TELEPORT
    if obs[E.O_ITEMS + IT_SPOTLIGHT] > 0 and (flags & NO_SPOTLIGHT) == 0 and danger_here >= 0.15:
        t = spotlight_target(obs, b, mem, ib, fb)
        if t >= 0 and has_action(legal, E.A_USE_SPOTLIGHT + t):
            return E.A_USE_SPOTLIGHT + t
    return E.A_PRE_DONE


@kernel
def post(flags, obs, legal, rng, b, mem, ib, fb):
    """After the move: the Attack item where an alien is likely, Sedatives to stay silent
    near the aliens or the hatches."""
    pos = obs[E.O_POS]
    if has_action(legal, E.A_USE_ATTACK) and (flags & NO_ATTACK) == 0:
        if density(obs, b, mem, fb, pos, E.ALIEN) >= 0.5 and density(obs, b, mem, fb, pos, E.HUMAN) < 0.2:
            return E.A_USE_ATTACK
    if has_action(legal, E.A_USE_SEDATIVES) and (flags & NO_SEDATIVES) == 0:
        threat_sets(obs, b, mem, ib, fb)
        if threat_at(obs, b, mem, fb, pos) >= 0.3 or C.hatch_distance(obs, E.O_HATCH, b, pos) <= 3:
            return E.A_USE_SEDATIVES
    return E.A_RESOLVE


@kernel
def end(flags, obs, legal, rng, b, mem, ib, fb):
    pos = obs[E.O_POS]
    if has_action(legal, E.A_USE_TELEPORT) and (flags & NO_TELEPORT) == 0:
        threat_sets(obs, b, mem, ib, fb)
        dh = C.hatch_distance(obs, E.O_HATCH, b, b[B_HUMAN_START])
        d = C.hatch_distance(obs, E.O_HATCH, b, pos)
        if threat_at(obs, b, mem, fb, pos) >= 0.9 and threat_at(obs, b, mem, fb, b[B_HUMAN_START]) < 0.3 and dh <= d + 3:
            return E.A_USE_TELEPORT
    return E.A_END_TURN


@kernel
def choose(flags, obs, legal, rng, b, mem, ib, fb):
    """The heuristic's action for the seat whose observation is ``obs``."""
    if mem[B.M_INIT] == 0:
        B.init(obs, b, mem, False)
    B.update(obs, b, mem)
    cache_sides(obs, b, mem, fb)
    ph = obs[E.O_PHASE]
    if ph == E.P_MOVE:
        if obs[E.O_SIDE] == E.HUMAN and b[B_SCENARIO] != SC_ARENA:
            return human_move(flags, obs, legal, rng, b, mem, ib, fb)
        return alien_move(flags, obs, legal, rng, b, mem, ib, fb)
    if ph == E.P_NOISE:
        return noise(flags, obs, legal, rng, b, mem, ib, fb)
    if ph == E.P_DISCARD:
        return discard(flags, obs, legal, rng, b)
    if ph == E.P_DEFEND:
        return E.A_NO_DEFEND if (flags & NO_DEFENCE) != 0 else E.A_DEFEND
    if ph == E.P_PRE:
        return pre(flags, obs, legal, rng, b, mem, ib, fb)
    if ph == E.P_POST:
        return post(flags, obs, legal, rng, b, mem, ib, fb)
    if ph == E.P_END:
        return end(flags, obs, legal, rng, b, mem, ib, fb)
    return legal[randint(rng, BOT, legal.shape[0])]
