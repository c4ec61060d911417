"""Greedy: the most immediate points.

Covers the marker that scores most at once (cities and herds); parks and bases break
ties. A power is used as soon as it scores points now; Protection saves the first
disc it can.
"""

from simkit.games.aau.board import B_SP_NCITY, B_TYPE, HERD, PARK
from simkit.games.aau.engine import (
    A_COVER,
    A_COVERP,
    A_EXTRA,
    A_NEIGH,
    A_NO_PROTECT,
    A_PASS,
    A_PROTECT,
    DESTROYED,
    HITS,
    MARK,
    NDESTROYED,
    NMARK,
    NBASES,
    BASES,
    NTRAPPED,
    P_COVER,
    P_POWER,
    P_ADJ_BASES,
    P_POWERS,
    PHASE,
    POW_COVER,
    POW_NEIGHBOURHOOD,
    S_EMPTY,
    S_MARKER,
    SP,
    TRAPPED,
    TURN,
    S_DISC,
    current_player,
    extra_turn_allowed,
    neighbourhood_target,
    pget,
    placement_points,
)
from simkit.jit import inline_kernel, kernel

NO_PROTECTION, NO_COVER, NO_NEIGHBOURHOOD, NO_EXTRA = 1, 2, 4, 8


@inline_kernel
def immediate(s, b, p, x):
    """Points now, then a tie-breaker: a park and each base destroyed count one tenth
    of a point (as an integer key in tenths; at most 7 tenths, so never a point)."""
    v = 10 * placement_points(s, b, p, x) + s[HITS + x]
    if b[B_TYPE + x] == PARK:
        v += 1
    return v


@kernel
def best_marker(s, b, p):
    best = -1
    best_k = -1
    for k in range(s[NMARK]):
        x = s[MARK + k]
        if s[SP + x] == S_MARKER:
            v = immediate(s, b, p, x)
            if v > best:
                best = v
                best_k = k
    return best_k


@kernel
def scores_now(s, b, p):
    """Whether a marker left scores points for ``p`` now."""
    for k in range(s[NMARK]):
        x = s[MARK + k]
        if s[SP + x] == S_MARKER and placement_points(s, b, p, x) > 0:
            return True
    return False


@kernel
def choose(s, rng, b, ib, fb, flags):
    phase = s[PHASE]
    if phase == P_COVER:
        k = best_marker(s, b, s[TURN])
        return A_COVER + k
    if phase == P_POWER:
        p = s[TURN]
        powers = pget(s, p, P_POWERS)
        if not powers & POW_COVER and not flags & NO_COVER:
            for i in range(s[NDESTROYED]):
                x = s[DESTROYED + i]
                if s[SP + x] == S_EMPTY and placement_points(s, b, p, x) > 0:
                    return A_COVERP + i
        if not powers & POW_NEIGHBOURHOOD and not flags & NO_NEIGHBOURHOOD and pget(s, p, P_ADJ_BASES) > 0:
            best = 0.0
            best_y = -1
            for i in range(s[NBASES]):
                y = s[BASES + i]
                if b[B_SP_NCITY + y] == 0 and b[B_TYPE + y] != HERD:
                    continue  # a space that can score nothing now
                v = placement_points(s, b, p, y)  # usually 0: cheaper to ask first
                if v > best and neighbourhood_target(s, b, p, y):
                    best = v
                    best_y = y
            if best_y >= 0:
                return A_NEIGH + best_y
        if not flags & NO_EXTRA and extra_turn_allowed(s, b, p):  # (false once Extra Turn is used)
            if scores_now(s, b, p):
                return A_EXTRA
        return A_PASS
    if not flags & NO_PROTECTION:  # P_PROTECT
        p = current_player(s)
        for i in range(s[NTRAPPED]):
            x = s[TRAPPED + i]
            if x >= 0 and s[SP + x] == S_DISC + p:
                return A_PROTECT + i
    return A_NO_PROTECT
