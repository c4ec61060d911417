"""Strategic: plays toward its missions, and times its powers.

A disc is worth its immediate points plus its share of the end-of-game missions it
advances: a new city of its city card's value, a disc on its border card's border,
a park or a base token toward the global missions, growth of its largest group,
progress toward global protection, and setting up bases to destroy later; minus the
risk of being captured (a line between a base and a marker that may flip). Each
share is the points of the next tier divided by what is still missing to reach it.

Powers wait for a good moment: Extra Turn when the second marker is worth it,
Cover and Neighbourhood when the space is, Protection for a valuable disc; all of
them are spent before the game ends. The ``team`` variant (semi-cooperative games)
adds the value of destroying bases when the players are behind the pace needed to
stop the invasion.
"""

from simkit.games.aau.board import (
    TIERS,
    B_BORDER,
    B_PROT_NO_CARD,
    B_CITY_VAL,
    B_MIS_BASES,
    B_MIS_BORDER,
    B_MIS_CITY,
    B_MIS_EXPANSION,
    B_MIS_PARKS,
    B_NB,
    B_PROTECTION,
    B_SEMI,
    B_SP_CITY,
    B_SP_NCITY,
    B_THRESH,
    B_TYPE,
    HERD,
    PARK,
)
from simkit.games.aau.engine import (
    A_COVER,
    A_COVERP,
    A_EXTRA,
    A_NEIGH,
    A_NO_PROTECT,
    A_PASS,
    A_PROTECT,
    DESTROYED,
    MARK,
    NDESTROYED,
    NMARK,
    NROUNDS,
    NBASES,
    BASES,
    NTRAPPED,
    P_BASES,
    P_BORDER_CARD,
    P_CITY_CNT,
    PLAYER,
    P_STRIDE,
    P_CITY_CARD,
    P_COVER,
    P_PARKS,
    P_POWER,
    P_ADJ_BASES,
    P_POWERS,
    PHASE,
    POW_COVER,
    POW_NEIGHBOURHOOD,
    ROUND,
    S_BASE,
    S_DISC,
    S_EMPTY,
    S_MARKER,
    SP,
    TOTAL_DESTROYED,
    TRAPPED,
    current_player,
    destroys,
    extra_turn_allowed,
    largest_group,
    mission_counts,
    neighbourhood_target,
    pget,
    placement_points,
)
from simkit.jit import kernel

from .greedy import NO_COVER, NO_EXTRA, NO_NEIGHBOURHOOD, NO_PROTECTION

TEAM = 16  # flag: the semi-cooperative variant

# Float scratch: per-decision marginal values.
F_CITY, F_BORDER, F_PARK, F_BASE, F_GROUP, F_ONES, F_HERDS, F_OTHER = range(8)


@kernel
def marginal(b, off, have):
    """Points per unit still needed to reach the next tier of a mission table."""
    for t in range(3):
        need = b[off + t * 2]
        if have < need:
            prev = b[off + (t - 1) * 2 + 1] if t > 0 else 0
            return (b[off + t * 2 + 1] - prev) / (need - have)
    return 0.0


@kernel
def prepare(s, b, p, fb, flags):
    """Marginal values of the missions for player ``p`` now (written to ``fb``)."""
    cities, border, ones, herds, other, _ = mission_counts(s, b, p)
    fb[F_CITY] = marginal(b, B_MIS_CITY + pget(s, p, P_CITY_CARD) * TIERS, cities)
    fb[F_BORDER] = marginal(b, B_MIS_BORDER + pget(s, p, P_BORDER_CARD) * TIERS, border)
    fb[F_PARK] = marginal(b, B_MIS_PARKS, pget(s, p, P_PARKS))
    fb[F_BASE] = marginal(b, B_MIS_BASES, pget(s, p, P_BASES)) + 0.5
    fb[F_GROUP] = marginal(b, B_MIS_EXPANSION, largest_group(s, b, p))
    # global protection: all-or-nothing, worth chasing only while all three are in reach
    missing = max(0, b[B_PROTECTION + 1] - ones) + max(0, b[B_PROTECTION + 2] - herds) + max(0, b[B_PROTECTION + 3] - other)
    rounds_left = s[NROUNDS] - s[ROUND] + 1
    share = b[B_PROTECTION] / (missing + 1.0) if missing <= rounds_left else 0.0
    fb[F_ONES] = share if ones < b[B_PROTECTION + 1] else 0.0
    fb[F_HERDS] = share if herds < b[B_PROTECTION + 2] else 0.0
    fb[F_OTHER] = share if other < b[B_PROTECTION + 3] else 0.0
    if flags & TEAM and b[B_SEMI] != 0:
        need = b[B_THRESH] - s[TOTAL_DESTROYED]
        pace = need / max(rounds_left, 1)
        if need > 0:
            fb[F_BASE] += 3.0 + 6.0 * max(0.0, pace - 0.6)


@kernel
def value(s, b, p, x, fb):
    """What a disc of ``p`` on ``x`` is worth: now and toward the missions."""
    v = float(placement_points(s, b, p, x))
    card_value = 2 + pget(s, p, P_CITY_CARD)
    for k in range(b[B_SP_NCITY + x]):
        c = b[B_SP_CITY + x * 3 + k]
        if s[PLAYER + p * P_STRIDE + P_CITY_CNT + c] == 0:
            cv = b[B_CITY_VAL + c]
            if cv == card_value:
                v += fb[F_CITY]
            if cv == 1:
                v += fb[F_ONES]
    mask = b[B_BORDER + x]
    border_bit = 1 << pget(s, p, P_BORDER_CARD)
    if mask & border_bit:
        v += fb[F_BORDER]
    if mask & ~border_bit and not (b[B_PROT_NO_CARD] != 0 and mask & border_bit):  # R6.6.3 as set (A25)
        v += fb[F_OTHER]
    if b[B_TYPE + x] == PARK:
        v += fb[F_PARK]
    if b[B_TYPE + x] == HERD:
        v += fb[F_HERDS]
    own = 0
    risk = 0.0
    for d in range(6):
        y = b[B_NB + x * 6 + d]
        if y < 0:
            continue
        state = s[SP + y]
        if state == S_DISC + p:
            own += 1
        if destroys(s, b, x, d):
            v += fb[F_BASE]
        elif state == S_BASE:
            v += 0.3 * fb[F_BASE]  # a disc beside a base prepares its destruction
        if d < 3:  # capture risk: a base on one side, a marker that may flip on the other
            z = b[B_NB + x * 6 + d + 3]
            if z >= 0:
                sz = s[SP + z]
                if (state == S_BASE and sz == S_MARKER) or (state == S_MARKER and sz == S_BASE):
                    risk += 1.0
                elif state == S_MARKER and sz == S_MARKER:
                    risk += 0.3
    if own > 0:
        v += fb[F_GROUP] * (1.0 if own == 1 else 1.3)
    return v - risk * (1.0 + 0.5 * v)


@kernel
def best_marker(s, b, p, fb):
    best = -1.0e9
    best_k = -1
    second = -1.0e9
    for k in range(s[NMARK]):
        x = s[MARK + k]
        if s[SP + x] == S_MARKER:
            v = value(s, b, p, x, fb)
            if v > best:
                second = best
                best = v
                best_k = k
            elif v > second:
                second = v
    return best_k, best, second


@kernel
def disc_worth(s, b, p, x):
    """What losing the disc on ``x`` would cost (cities it holds, its group)."""
    w = 1.0
    for k in range(b[B_SP_NCITY + x]):
        c = b[B_SP_CITY + x * 3 + k]
        if s[PLAYER + p * P_STRIDE + P_CITY_CNT + c] == 1:
            w += 3.0 if b[B_CITY_VAL + c] == 2 + pget(s, p, P_CITY_CARD) else 1.0
    if b[B_BORDER + x] & (1 << pget(s, p, P_BORDER_CARD)):
        w += 2.0
    for d in range(6):
        y = b[B_NB + x * 6 + d]
        if y >= 0 and s[SP + y] == S_DISC + p:
            w += 0.7
    return w


@kernel
def choose(s, rng, b, ib, fb, flags):
    phase = s[PHASE]
    p = current_player(s)
    last = s[ROUND] >= s[NROUNDS]
    if phase == P_COVER:
        prepare(s, b, p, fb, flags)
        k, _, _ = best_marker(s, b, p, fb)
        return A_COVER + k
    if phase == P_POWER:
        prepare(s, b, p, fb, flags)
        powers = pget(s, p, P_POWERS)
        late = s[ROUND] >= s[NROUNDS] - 1
        if not powers & POW_COVER and not flags & NO_COVER:
            for i in range(s[NDESTROYED]):
                x = s[DESTROYED + i]
                if s[SP + x] == S_EMPTY and (value(s, b, p, x, fb) >= 4.0 or late):
                    return A_COVERP + i
        if not powers & POW_NEIGHBOURHOOD and not flags & NO_NEIGHBOURHOOD and pget(s, p, P_ADJ_BASES) > 0:
            best = -1.0e9
            best_y = -1
            for i in range(s[NBASES]):
                y = s[BASES + i]
                if neighbourhood_target(s, b, p, y):
                    v = value(s, b, p, y, fb) + fb[F_BASE]
                    if v > best:
                        best = v
                        best_y = y
            if best_y >= 0 and (best >= 6.0 or late):
                return A_NEIGH + best_y
        if not flags & NO_EXTRA and extra_turn_allowed(s, b, p):  # (false once Extra Turn is used)
            _, v, _ = best_marker(s, b, p, fb)
            if v >= 5.0 or last:
                return A_EXTRA
        return A_PASS
    # P_PROTECT: save the most valuable disc if it is worth it (always in the last rounds)
    best = -1.0
    best_i = -1
    if not flags & NO_PROTECTION:
        for i in range(s[NTRAPPED]):
            x = s[TRAPPED + i]
            if x >= 0 and s[SP + x] == S_DISC + p:
                w = disc_worth(s, b, p, x)
                if w > best:
                    best = w
                    best_i = i
    if best_i >= 0 and (best >= 3.0 or s[ROUND] * 3 >= s[NROUNDS] * 2):
        return A_PROTECT + best_i
    return A_NO_PROTECT
