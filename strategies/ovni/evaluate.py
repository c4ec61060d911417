"""Valuations shared by the O.V.N.I. bots (greedy, strategic, search).

A bot reads its observation ``x``: the engine's public view at the state's own offsets
(``x[STOCK + k]``, ``x[po(q) + P_UFO + c]`` ...) plus its hand, its missions and the
unseen tokens of every planet (``O_*``). Everything is worth "points at the end of the
game", estimated:

* an alien of class ``k`` for planet ``q`` (``class_value``): the change of its standing
  in the race for that class's majority (10 points), what the group can do with one
  more token over the rounds left (a Pilot move, an Abductor pair = an abduction a
  round, a Builder pair = a UFO now, a Military trio = an attack a round), and for the
  seat itself its missions' needs;
* a human (``human_value``): the change of the R15.5 human score, plus missions;
* a UFO count in a city (``city_value``): the airspace (4), the chance to abduct the
  human there, a mission's airspace; mapping is an event (``map_gain``);
* an area's card (``card_value``) and the energy card (``energy_value``).

``greedy`` (``mode == GREEDY``) keeps only what would score if the game ended now:
majorities, airspace, mappings, humans, UFOs; no capabilities, no missions, no
potential. ``strategic`` uses everything.

Float scratch ``fb`` holds the per-decision tables (``F_*``); nothing allocates.
"""

from __future__ import annotations

from simkit.games.ovni.board import (
    B_CARD,
    B_DUMMY_BLOCKS,
    B_EVEN,
    B_MIS,
    B_PAD,
    B_SC_FIVE,
    B_SC_MAJORITY,
    B_SC_SAME,
    B_SC_SIX,
    M_AIR_N,
    M_AIR_PAR,
    M_ALI,
    M_CAP,
    M_HUM,
    M_MAP_N,
    M_MAP_PAR,
    M_UFOS,
    MIS_STRIDE,
    PARITY_ANY,
    PARITY_EVEN,
)
from simkit.games.ovni.engine import (
    ABDUCTORS,
    ACTIVATED,
    AREA_CARD,
    AREA_N,
    BUILDERS,
    CITY_HUMAN,
    DUMMY,
    EFF_ABDUCT_WITHOUT_MAJORITY,
    GROUP,
    LIMIT,
    MAP_COUNT,
    MILITARY,
    N_CITIES,
    N_CLASSES,
    N_KINDS,
    NACT,
    NAREAS,
    NPLANETS,
    O_HAND,
    O_KEPT,
    O_MISSIONS,
    O_SEAT,
    O_UNSEEN,
    P_CAPT,
    P_FF,
    P_HUMANS,
    P_LAUNCHED,
    P_MAP_PTS,
    P_MAP_THR,
    P_MAPPED,
    P_ON_BOARD,
    P_OWN,
    P_PAD,
    P_PARKED,
    P_RESERVE,
    P_UFO,
    P_UFO_PTS,
    PH_GROUP,
    PH_TURN,
    PHASE,
    PILOTS,
    PLAYERS,
    SLOT_OWNER,
    SLOT_SHOWN,
    SLOTS,
    STOCK,
    has_eff,
    held,
    human_points,
    po,
)
from simkit.jit import inline_kernel, kernel

GREEDY, STRATEGIC = 0, 1
# Value of (nearly) leading phase 1 for the rounds left (Military decide the phase-1 order,
# R3.1: the opener's tie-breaks, the first face-down token, the first choice of area).
# Tuned head to head: 2 beats none (56% / 35% / 27% at 2 / 3 / 4 players), 4 beats 2,
# 7 beats 4, 12 beats 7 and holds 20 (8,000 games each).
TURN_LEAD = 12.0

# ---- float scratch (per decision) ------------------------------------------------------
F_CV = 0  # class value of one more alien: [planet * 4 + class]
F_AV = 16  # card value of each area: [planet * 4 + area]
F_HV = 32  # value of a human of each kind for the seat
F_MCLS = 38  # mission value of one more alien of each class
F_MCAP = 42  # mission value of capturing each class
F_MAIR = 46  # mission value of controlling a city: [0] odd-numbered, [1] even-numbered
F_MMAP = 48  # mission value of mapping a city: [0] odd, [1] even
F_MUFO = 50  # mission value of one more UFO on the board
F_R = 51  # rounds of play left, estimated
F_E = 52  # the energy card's value for the seat
F_P = 56  # the seat's chance to win each area now
F_MODE = 60
F_WDENY = 61  # weight of an opponent's loss
F_CAP = 62  # the seat's abduction capacity (abduct_capacity)
F_HBASE = 63  # the seat's human score now
F_OEND = 64  # per city: most UFOs of another planet that counts at the end (A23)
F_OALL = 76  # per city: most UFOs of another planet (abduction majority, R10.1)
F_TOP1 = 88  # per class: the most any competing planet holds,
F_TOP1W = 92  # which planet holds it (the first one),
F_TOP2 = 96  # and the most the others hold
F_FREE = 100  # first free float for a bot's own use


@inline_kernel
def mp(d):
    """Majority potential (points expected from a class's majority) at lead ``d``."""
    if d >= 2:
        return 10.0
    if d == 1:
        return 8.5
    if d == 0:
        return 5.0
    if d == -1:
        return 2.5
    if d == -2:
        return 1.0
    return 0.0


@inline_kernel
def competes(x, b, r):
    """Whether planet ``r`` counts in end-of-game comparisons (A23)."""
    return r != x[DUMMY] or b[B_DUMMY_BLOCKS] != 0


@kernel
def prepare_tops(x, b, fb):
    """F_TOP1 / F_TOP1W / F_TOP2: per class, the largest holding among the competing
    planets, who has it, and the largest among the others."""
    for k in range(N_CLASSES):
        t1 = -1
        w = -1
        t2 = -1
        for r in range(x[NPLANETS]):
            if not competes(x, b, r):
                continue
            h = held(x, r, k)
            if h > t1:
                t2 = t1
                t1 = h
                w = r
            elif h > t2:
                t2 = h
        fb[F_TOP1 + k] = t1
        fb[F_TOP1W + k] = w
        fb[F_TOP2 + k] = t2 if t2 > 0 else 0


@inline_kernel
def top_other(x, b, fb, q, k):
    """The most aliens of class ``k`` any other competing planet holds (after prepare)."""
    if fb[F_TOP1W + k] == q:
        return int(fb[F_TOP2 + k])
    return int(fb[F_TOP1 + k])


@kernel
def majority_points(x, b, q, k, h):
    """R15.1 points of ``q`` for class ``k`` if it held ``h`` now."""
    if h <= 0:
        return 0.0
    tied = 1
    for r in range(x[NPLANETS]):
        if r != q and competes(x, b, r):
            hr = held(x, r, k)
            if hr > h:
                return 0.0
            if hr == h:
                tied += 1
    return float(b[B_SC_MAJORITY] // tied)


@inline_kernel
def class_value(x, b, fb, q, k, extra):
    """Value for planet ``q`` of one more alien of class ``k``, when it already holds
    ``extra`` more than now (see the module docstring)."""
    h = held(x, q, k) + extra
    if fb[F_MODE] == GREEDY:
        return majority_points(x, b, q, k, h + 1) - majority_points(x, b, q, k, h)
    top = top_other(x, b, fb, q, k)
    v = mp(h + 1 - top) - mp(h - top)
    r = fb[F_R]
    if r > 5.0:
        r = 5.0
    o = po(q)
    if k == PILOTS:
        v += 0.7 * r
    elif k == ABDUCTORS:
        v += (2.4 * r) if h % 2 == 1 else 0.5 * r
    elif k == BUILDERS:
        if h % 2 == 1:
            v += 4.5 if (x[o + P_PAD] < b[B_PAD] and x[o + P_RESERVE] > 0) else 1.0
        else:
            v += 1.2
    else:
        m = h - x[o + P_PARKED]
        v += (2.2 * r) if m % 3 == 2 else 0.5 * r
        if h + 1 >= top and h < top + 1:  # catching up with or passing the leader of phase 1 (R3.1)
            v += TURN_LEAD * (r - 1.0) / 4.0
    if q == x[O_SEAT]:
        need = fb[F_MCLS + k]
        if need > 0.0:
            v += need
    return v


@kernel
def card_value(x, b, fb, q, card):
    """The aliens of an alien card for planet ``q``, one after the other."""
    v = 0.0
    for k in range(N_CLASSES):
        for i in range(b[B_CARD + 4 * card + k]):
            if x[STOCK + k] > i:
                v += class_value(x, b, fb, q, k, i)
    return v


@inline_kernel
def human_value(x, b, fb, q, kind):
    """R15.5 points a human of ``kind`` adds to ``q``'s abducted humans."""
    o = po(q)
    n = x[o + P_HUMANS + kind]
    v = float(b[B_SC_SAME + min(n, 2)] - (b[B_SC_SAME + n - 1] if n > 0 else 0)) if n < 3 else 0.0
    if n == 0:
        kinds = 0
        for j in range(N_KINDS):
            if x[o + P_HUMANS + j] > 0:
                kinds += 1
        if kinds == 4:
            v += b[B_SC_FIVE]
        elif kinds == 5:
            v += b[B_SC_SIX] - b[B_SC_FIVE]
    return v


@kernel
def rounds_left(x, b):
    """Rounds of play left including this one: the smallest stock over what a round
    takes from one class."""
    per = x[NAREAS] * 0.75 + 0.4
    m = 99
    for k in range(N_CLASSES):
        if x[STOCK + k] < m:
            m = x[STOCK + k]
    r = m / per + 0.5
    if r < 1.0:
        r = 1.0
    return r


@inline_kernel
def parity_index(b, c):
    return 1 if b[B_EVEN + c] == 1 else 0


@inline_kernel
def controlled(x, b, q, c, mine):
    """Whether ``q`` with ``mine`` UFOs in ``c`` has the airspace (R15.3)."""
    if mine <= 0:
        return False
    for r in range(x[NPLANETS]):
        if r != q and competes(x, b, r) and x[po(r) + P_UFO + c] >= mine:
            return False
    return True


@inline_kernel
def majority_with(x, q, c, mine):
    """R10.1 with ``mine`` UFOs of ``q`` in ``c`` (every planet counts)."""
    if mine <= 0:
        return False
    for r in range(x[NPLANETS]):
        if r != q and x[po(r) + P_UFO + c] >= mine:
            return False
    return True


@kernel
def abduct_capacity(x, b, q):
    """Abductions ``q`` can still make: 0, 1 if it has a pair and can use it."""
    if held(x, q, ABDUCTORS) < 2:
        return 0.0
    if x[PHASE] == PH_TURN or x[PHASE] == PH_GROUP:
        if (x[ACTIVATED] >> ABDUCTORS) & 1:
            return 0.5  # used this round: next round
        if x[NACT] < x[LIMIT] and x[GROUP] != ABDUCTORS:
            return 0.9
    return 0.6


@kernel
def prepare_cities(x, b, fb, q):
    """Per city, the most UFOs another planet has there (F_OEND, F_OALL) and the seat's
    abduction capacity (F_CAP)."""
    for c in range(N_CITIES):
        oe = 0
        oa = 0
        for r in range(x[NPLANETS]):
            if r == q:
                continue
            u = x[po(r) + P_UFO + c]
            if u > oa:
                oa = u
            if u > oe and competes(x, b, r):
                oe = u
        fb[F_OEND + c] = oe
        fb[F_OALL + c] = oa
    fb[F_CAP] = abduct_capacity(x, b, q) if fb[F_MODE] != GREEDY else 0.0


@inline_kernel
def city_value(x, b, fb, q, c, mine):
    """Value for the seat ``q`` of holding ``mine`` UFOs in city ``c`` (others as they are,
    after ``prepare_cities``): the airspace, and the chance to abduct the human there."""
    v = 0.0
    if mine > fb[F_OEND + c]:
        v += 4.0
        if fb[F_MODE] != GREEDY:
            v += fb[F_MAIR + parity_index(b, c)]
    cap = fb[F_CAP]
    if cap > 0.0 and mine > 0:
        kind = x[CITY_HUMAN + c]
        if kind >= 0 and (mine > fb[F_OALL + c] or has_eff(x, q, EFF_ABDUCT_WITHOUT_MAJORITY)):
            v += cap * fb[F_HV + kind]
    return v


@inline_kernel
def map_gain(x, b, fb, q, c, mine):
    """Value of ``q`` having ``mine`` UFOs in ``c`` for mapping (R9.4): the mapping's
    points once the threshold is reached, a share of them one UFO short."""
    o = po(q)
    if (x[o + P_MAPPED] >> c) & 1:
        return 0.0
    thr = x[o + P_MAP_THR]
    if thr <= 0:
        thr = 2 if x[MAP_COUNT + c] == 0 else 3
    pts = float(x[o + P_MAP_PTS])
    if fb[F_MODE] != GREEDY:
        pts += fb[F_MMAP + parity_index(b, c)]
    if mine >= thr:
        return pts
    if fb[F_MODE] != GREEDY and mine == thr - 1:
        return 0.25 * pts
    return 0.0


@kernel
def mission_tables(x, b, fb):
    """The seat's kept missions as values per unit of progress (F_MCLS, F_MCAP, F_MAIR,
    F_MMAP, F_MUFO, and human bonuses added into F_HV): a mission swings 13 points
    (+8 or -5), shared over what it still misses."""
    for i in range(F_MCLS, F_MUFO + 1):
        fb[i] = 0.0
    if fb[F_MODE] == GREEDY:
        return
    me = x[O_SEAT]
    o = po(me)
    kept = x[O_KEPT]
    if kept == 0:
        return
    for slot in range(3):
        if not (kept >> slot) & 1:
            continue
        m = x[O_MISSIONS + slot]
        if m < 0:
            continue
        r = B_MIS + m * MIS_STRIDE
        missing = 0
        for j in range(N_KINDS):
            d = b[r + M_HUM + j] - x[o + P_HUMANS + j]
            if d > 0:
                missing += d
        for k in range(N_CLASSES):
            d = b[r + M_ALI + k] - held(x, me, k)
            if d > 0:
                missing += d
            d = b[r + M_CAP + k] - x[o + P_CAPT + k]
            if d > 0:
                missing += d
        air_missing = 0
        if b[r + M_AIR_N] > 0:
            n = 0
            for c in range(N_CITIES):
                if _parity_ok(b, r + M_AIR_PAR, c) and controlled(x, b, me, c, x[o + P_UFO + c]):
                    n += 1
            air_missing = b[r + M_AIR_N] - n
            if air_missing > 0:
                missing += air_missing
        map_missing = 0
        if b[r + M_MAP_N] > 0:
            n = 0
            for c in range(N_CITIES):
                if _parity_ok(b, r + M_MAP_PAR, c) and (x[o + P_MAPPED] >> c) & 1:
                    n += 1
            map_missing = b[r + M_MAP_N] - n
            if map_missing > 0:
                missing += map_missing
        ufo_missing = b[r + M_UFOS] - x[o + P_ON_BOARD]
        if ufo_missing > 0:
            missing += ufo_missing
        unit = 13.0 / (missing + 1.0)
        for j in range(N_KINDS):
            if b[r + M_HUM + j] > x[o + P_HUMANS + j]:
                fb[F_HV + j] += unit
        for k in range(N_CLASSES):
            if b[r + M_ALI + k] > held(x, me, k):
                fb[F_MCLS + k] += unit
            if b[r + M_CAP + k] > x[o + P_CAPT + k]:
                fb[F_MCAP + k] += unit
        if b[r + M_AIR_N] > 0:
            w = unit if air_missing > 0 else 1.0  # keep what is held
            par = b[r + M_AIR_PAR]
            if par == PARITY_ANY:
                fb[F_MAIR + 0] += w
                fb[F_MAIR + 1] += w
            else:
                fb[F_MAIR + (1 if par == PARITY_EVEN else 0)] += w
        if map_missing > 0:
            par = b[r + M_MAP_PAR]
            if par == PARITY_ANY:
                fb[F_MMAP + 0] += unit
                fb[F_MMAP + 1] += unit
            else:
                fb[F_MMAP + (1 if par == PARITY_EVEN else 0)] += unit
        if b[r + M_UFOS] > 0:
            fb[F_MUFO] += unit if ufo_missing > 0 else 0.5


@inline_kernel
def _parity_ok(b, off, c):
    par = b[off]
    return par == PARITY_ANY or (b[B_EVEN + c] == 1) == (par == PARITY_EVEN)


@kernel
def prepare(x, b, fb, mode):
    """Fill the per-decision tables for the seat of observation ``x``."""
    me = x[O_SEAT]
    fb[F_MODE] = mode
    fb[F_R] = 1.0 if mode == GREEDY else rounds_left(x, b)
    fb[F_WDENY] = 1.0 if x[PLAYERS] == 2 else 0.5
    prepare_tops(x, b, fb)
    for j in range(N_KINDS):
        fb[F_HV + j] = human_value(x, b, fb, me, j)
    mission_tables(x, b, fb)


@kernel
def prepare_classes(x, b, fb):
    """F_CV: one more alien of each class for every planet (after ``prepare``)."""
    for q in range(x[NPLANETS]):
        for k in range(N_CLASSES):
            fb[F_CV + q * 4 + k] = class_value(x, b, fb, q, k, 0)


@kernel
def prepare_areas(x, b, fb):
    """Card values of this round's areas for every planet (after ``prepare``)."""
    for q in range(x[NPLANETS]):
        for a in range(x[NAREAS]):
            fb[F_AV + q * 4 + a] = card_value(x, b, fb, q, x[AREA_CARD + a])


@kernel
def energy_value(x, b, fb, q):
    """What the energy card would give ``q`` (bonus 1: its best alien and a force field
    against the opponents able to attack; bonus 2: a third group)."""
    best = 0.0
    for k in range(N_CLASSES):
        if x[STOCK + k] > 0:
            v = class_value(x, b, fb, q, k, 0)
            if v > best:
                best = v
    if fb[F_MODE] == GREEDY:
        return best
    threat = 0.0
    for r in range(x[PLAYERS]):
        if r != q and held(x, r, MILITARY) >= 3:
            threat += 2.0
    third = 1.5 + 0.5 * _groups_ready(x, q)
    return max(best + threat, third)


@kernel
def _groups_ready(x, q):
    n = 0
    o = po(q)
    if held(x, q, PILOTS) >= 2:
        n += 1
    if held(x, q, ABDUCTORS) >= 2:
        n += 1
    if x[o + P_PAD] > 0:
        n += 1
    if held(x, q, MILITARY) >= 3:
        n += 1
    return n


@kernel
def threat_to(x, q):
    """How many opponents could attack ``q`` this round (3+ active Military)."""
    n = 0
    for r in range(x[PLAYERS]):
        if r != q and held(x, r, MILITARY) - x[po(r) + P_PARKED] >= 3:
            n += 1
    return n


# ---- bidding (R4, R5.2) ---------------------------------------------------------------------
F_AS = F_FREE  # per area: AS_STRIDE floats of area statistics (area_stats)
AS_SUM, AS_FIRST, AS_CNT, AS_SINGLE = 0, 4, 8, 15  # per planet sums / first slots; per value: known count, owner
AS_STRIDE = 22
F_BOT = F_AS + 4 * AS_STRIDE  # first float free for a bot


@inline_kernel
def _mean_unseen(x, r):
    u = x[O_UNSEEN + r]
    s = 0.0
    n = 0
    for v in range(2, 7):
        if (u >> v) & 1:
            s += v
            n += 1
    return s / n if n > 0 else 3.5


@inline_kernel
def area_stats(x, b, fb, a):
    """What the seat knows of area ``a``: each planet's sum so far (known values that
    appear once, plus 0.85 x the mean of its unseen tokens for each face-down token it
    cannot see), each planet's first slot, and per value the known tokens of it."""
    o = F_AS + a * AS_STRIDE
    for i in range(AS_STRIDE):
        fb[o + i] = 0.0
    for r in range(4):
        fb[o + AS_FIRST + r] = SLOTS
        fb[o + AS_SUM + r] = 0.0
    for v in range(7):
        fb[o + AS_SINGLE + v] = -1.0
    n = x[AREA_N + a]
    base = a * SLOTS
    for j in range(n):
        v = x[SLOT_SHOWN + base + j]
        if v > 0:
            fb[o + AS_CNT + v] += 1.0
            fb[o + AS_SINGLE + v] = x[SLOT_OWNER + base + j]
    for j in range(n):
        r = x[SLOT_OWNER + base + j]
        if fb[o + AS_FIRST + r] > j:
            fb[o + AS_FIRST + r] = j
        v = x[SLOT_SHOWN + base + j]
        if v == 0:
            fb[o + AS_SUM + r] += 0.85 * _mean_unseen(x, r)
        elif fb[o + AS_CNT + v] == 1.0:
            fb[o + AS_SUM + r] += v


@inline_kernel
def win_chance(x, b, fb, me, a, extra):
    """The seat's chance to win area ``a`` (after ``area_stats``) if it adds a token of
    value ``extra`` (0: none): a value already known once cancels with it, each slot
    still free adds 1.6 to the best rival, the earlier first token wins ties (A1)."""
    o = F_AS + a * AS_STRIDE
    n = x[AREA_N + a]
    mine = fb[o + AS_SUM + me]
    my_first = fb[o + AS_FIRST + me]
    loser = -1
    if extra > 0:
        c = fb[o + AS_CNT + extra]
        if c == 0.0:
            mine += extra
        elif c == 1.0:
            loser = int(fb[o + AS_SINGLE + extra])
        if my_first > n:
            my_first = n
    if mine <= 0.0:
        return 0.0
    best = 0.0
    best_first = 9.0
    for r in range(x[NPLANETS]):
        if r == me:
            continue
        t = fb[o + AS_SUM + r]
        if r == loser:
            t -= extra
        f = fb[o + AS_FIRST + r]
        if t > best or (t == best and f < best_first):
            best = t
            best_first = f
    free = SLOTS - n - (1 if extra > 0 else 0)
    margin = mine - best - 1.6 * free
    if my_first < best_first:
        margin += 0.5
    else:
        margin -= 0.5
    # a smooth step close to the logistic curve 1 / (1 + exp(-margin / 1.8)), cheaper
    z = margin / 1.8
    if z <= -3.0:
        return 0.0
    if z >= 3.0:
        return 1.0
    u = (z + 3.0) / 6.0
    return u * u * (3.0 - 2.0 * u)
