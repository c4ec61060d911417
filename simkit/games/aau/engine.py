"""Alien Attack USA rules, compiled: an ``int32`` state vector plus an action gives the
next state. Rule numbers (R2.4 ...) refer to docs/rules/alien-attack-usa.md.

Decision points (``s[PHASE]``), taken by ``current_player(s)``:

* ``P_COVER``   cover one of this round's attack markers: ``A_COVER + k`` (k-th marker);
* ``P_POWER``   after a placement: pass (``A_PASS``), Extra Turn (``A_EXTRA``), Cover
  one base just destroyed (``A_COVERP + i``), or Neighbourhood on a base next to one
  of your discs (``A_NEIGH + space``);
* ``P_PROTECT`` discs are about to be captured: save one of yours with Protection
  (``A_PROTECT + i``, i-th trapped disc) or not (``A_NO_PROTECT``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...jit import inline_kernel, kernel
from ...layout import ActionSpace, Layout
from ...loop import observe_state as observe  # noqa: F401 (the protocol's observe)
from ...rng import CHANCE, fisher_yates, new_streams, restart
from .board import (
    TIERS,
    B_BORDER,
    B_CANADA,
    B_CAPTURE,
    B_CITY_CLIQUE,
    B_CITY_SP,
    B_CITY_VAL,
    B_EXTRA_CAP,
    B_HERD,
    B_HERD_PLUS,
    B_HERD_SP,
    B_MIS_BASES,
    B_MIS_BORDER,
    B_MIS_CITY,
    B_MIS_EXPANSION,
    B_MIS_PARKS,
    B_NB,
    B_NCITY,
    B_NHERD,
    B_NSP,
    B_PLAYERS,
    B_PROT_HERDS,
    B_PROT_NO_CARD,
    B_PROTECTION,
    B_SEMI,
    B_SP_CITY,
    B_SP_NCITY,
    B_THRESH,
    B_TYPE,
    HERD,
    MAX_CITIES,
    MAX_SPACES,
    PARK,
)

# ---- state layout -----------------------------------------------------------------
MAX_PLAYERS = 4
MAX_MARKERS = MAX_PLAYERS + 2  # markers drawn in a round (R2.1)
MAX_DESTROYED = 6  # bases one disc can destroy: one per direction (R4.4)
MAX_TRAPPED = 64  # discs captured at the end of a round, at most
N_MISSION_CARDS = 4  # city cards 2-5, border cards Pacific, Mexico, Gulf, Atlantic
T_BORDER, T_OTHER, T_HERDS, T_REGIONS = range(4)  # a player's final-scoring tallies

STATE = Layout("aau state")
(PHASE, ROUND, NROUNDS, PLAYERS, START, TURN, ACTED, EXTRA_USERS, BAG_N, NMARK, NDESTROYED,
 NTRAPPED, PROTECTING, TOTAL_DESTROYED, EXTRA_TURN, NSP, EARTH_WON, LAST_SPACE, NBASES, STAMP) = STATE.scalars(
    "phase", "round", "nrounds", "players", "start", "turn", "acted", "extra_users", "bag_n", "nmark", "ndestroyed",
    "ntrapped", "protecting", "total_destroyed", "extra_turn", "nsp", "earth_won", "last_space", "nbases", "stamp")
SP = STATE.array("sp", MAX_SPACES)  # state of each space, see S_*
FLIP = STATE.array("flip", MAX_SPACES)  # round in which a base appeared there
BAG = STATE.array("bag", MAX_SPACES)  # markers still in the bag (drawn from the end)
MARK = STATE.array("mark", MAX_MARKERS)  # this round's attack markers (space ids)
DESTROYED = STATE.array("destroyed", MAX_DESTROYED)  # bases destroyed by the last placement (for Cover)
TRAPPED = STATE.array("trapped", MAX_TRAPPED)  # discs about to be captured, -1 once saved
PLAYER_BLOCK = STATE.seats(
    "player", MAX_PLAYERS,
    "score", "parks", "bases", "powers", "city_card", "border_card", "discs", "immediate", "city_pts",
    "border_pts", "parks_pts", "bases_pts", "expansion_pts", "protection_pts", "largest", "won", "tiebreak",
    "captured",
    "adj_bases",  # (base, own disc) adjacent pairs, so that Neighbourhood is cheap to offer
    ("city_cnt", MAX_CITIES),  # the player's discs around each city
    ("tally", 4),  # final scoring: border, other border, herd spaces, herd regions (T_*)
)
PLAYER, P_STRIDE = PLAYER_BLOCK.base, PLAYER_BLOCK.stride
(P_SCORE, P_PARKS, P_BASES, P_POWERS, P_CITY_CARD, P_BORDER_CARD, P_DISCS, P_IMMEDIATE, P_CITY_PTS,
 P_BORDER_PTS, P_PARKS_PTS, P_BASES_PTS, P_EXPANSION_PTS, P_PROTECTION_PTS, P_LARGEST, P_WON, P_TIEBREAK,
 P_CAPTURED, P_ADJ_BASES, P_CITY_CNT, P_TALLY) = PLAYER_BLOCK.fields.values()
BASES = STATE.array("bases", MAX_SPACES)  # spaces holding a base, in no particular order
WORK = STATE.array("work", 2 * MAX_SPACES)  # scratch for searches
HITS = STATE.array("hits", MAX_SPACES)  # bases a disc on each space would destroy now (R4.4), kept up to date
SIZE = STATE.size

S_BAG, S_MARKER, S_BASE, S_EMPTY, S_DISC = 0, 1, 2, 3, 10  # S_DISC + p: a disc of player p
POW_PROTECTION, POW_COVER, POW_NEIGHBOURHOOD, POW_EXTRA = 1, 2, 4, 8

P_COVER, P_POWER, P_PROTECT, P_OVER = range(4)

# ---- actions ------------------------------------------------------------------------
ACTIONS = ActionSpace("aau actions")
A_COVER = ACTIONS.range("cover", MAX_MARKERS)  # cover the k-th marker of the round
A_PASS = ACTIONS.single("pass")
A_EXTRA = ACTIONS.single("extra_turn")
A_COVERP = ACTIONS.range("cover_power", MAX_DESTROYED)  # Cover: the i-th base just destroyed
A_NEIGH = ACTIONS.range("neighbourhood", MAX_SPACES)  # Neighbourhood on a space
A_NO_PROTECT = ACTIONS.single("no_protection")
A_PROTECT = ACTIONS.range("protection", MAX_TRAPPED)  # save the i-th trapped disc
MAX_ACTIONS = ACTIONS.size

# Missions are face up and the bag's contents known (only its order is not): a bot
# sees the whole state.
PERFECT_INFORMATION = True
OBS_SIZE = SIZE


@inline_kernel
def pget(s, p, field):
    return s[PLAYER + p * P_STRIDE + field]


@inline_kernel
def padd(s, p, field, amount):
    s[PLAYER + p * P_STRIDE + field] += amount


@inline_kernel
def current_player(s):
    if s[PHASE] == P_PROTECT:
        return (s[START] + s[PROTECTING]) % s[PLAYERS]
    return s[TURN]


# ---- setup ----------------------------------------------------------------------------
@njit
def init_state(seed, b):
    """A new game: the bag shuffled, missions dealt, the first markers drawn (R1)."""
    rng = new_streams(seed)
    s = np.zeros(SIZE, np.int32)
    n = b[B_NSP]
    players = b[B_PLAYERS]
    s[NSP] = n
    s[PLAYERS] = players
    s[NROUNDS] = (n + players + 1) // (players + 2)
    restart(rng, CHANCE, 1000)  # setup draws its own stream: the bag is the same in every variant
    for i in range(n):
        s[BAG + i] = i
    fisher_yates(s[BAG:BAG + n], rng, CHANCE)
    s[BAG_N] = n
    # R1.3: city and border mission cards are shuffled separately, one of each per player
    for deck in range(2):
        cards = WORK  # scratch for the shuffle
        for i in range(N_MISSION_CARDS):
            s[cards + i] = i
        fisher_yates(s[cards:cards + N_MISSION_CARDS], rng, CHANCE)
        for p in range(players):
            s[PLAYER + p * P_STRIDE + (P_CITY_CARD if deck == 0 else P_BORDER_CARD)] = s[cards + p]
    for i in range(N_MISSION_CARDS):
        s[WORK + i] = 0
    s[START] = 0
    _start_round(s, b)
    return s, rng


@kernel
def _start_round(s, b):
    """R2.1: the start player draws players + 2 markers and places them on their spaces."""
    s[ROUND] += 1
    k = min(s[PLAYERS] + 2, s[BAG_N])
    for i in range(k):
        s[BAG_N] -= 1
        x = s[BAG + s[BAG_N]]
        s[MARK + i] = x
        s[SP + x] = S_MARKER
    s[NMARK] = k
    s[ACTED] = 0
    s[EXTRA_USERS] = 0
    s[EXTRA_TURN] = 0
    s[NDESTROYED] = 0
    s[TURN] = s[START]
    s[PHASE] = P_COVER


# ---- queries -----------------------------------------------------------------------------
@inline_kernel
def destroys(s, b, x, d):
    """R4.4: a disc on ``x`` destroys the base in direction ``d`` if a disc of any colour,
    or the Canada icon, lies directly behind it."""
    y = b[B_NB + x * 6 + d]
    if y < 0 or s[SP + y] != S_BASE:
        return False
    z = b[B_NB + y * 6 + d]
    if z < 0:
        return (b[B_CANADA + y] >> d) & 1 == 1
    return s[SP + z] >= S_DISC


@inline_kernel
def markers_left(s):
    n = 0
    for k in range(s[NMARK]):
        if s[SP + s[MARK + k]] == S_MARKER:
            n += 1
    return n


@inline_kernel
def neighbourhood_target(s, b, p, y):
    """A base next to one of player ``p``'s discs (R5.3)."""
    if s[SP + y] != S_BASE:
        return False
    for d in range(6):
        z = b[B_NB + y * 6 + d]
        if z >= 0 and s[SP + z] == S_DISC + p:
            return True
    return False


@kernel
def extra_turn_allowed(s, b, p):
    """R5.4: once per game, at most ``extra_turn_cap`` players a round, and never
    leaving a player still to play this round without a marker."""
    if pget(s, p, P_POWERS) & POW_EXTRA or s[EXTRA_TURN] != 0:
        return False
    if s[EXTRA_USERS] >= b[B_EXTRA_CAP]:
        return False
    waiting = 0
    for q in range(s[PLAYERS]):
        if q != p and not (s[ACTED] >> q) & 1:
            waiting += 1
    return markers_left(s) - 1 >= waiting


# ---- legal actions ------------------------------------------------------------------------
@kernel
def legal_actions(s, b, out):
    n = 0
    phase = s[PHASE]
    if phase == P_COVER:
        for k in range(s[NMARK]):
            if s[SP + s[MARK + k]] == S_MARKER:
                out[n] = A_COVER + k
                n += 1
    elif phase == P_POWER:
        p = s[TURN]
        out[n] = A_PASS
        n += 1
        powers = pget(s, p, P_POWERS)
        if extra_turn_allowed(s, b, p):
            out[n] = A_EXTRA
            n += 1
        if not powers & POW_COVER:
            for i in range(s[NDESTROYED]):
                if s[SP + s[DESTROYED + i]] == S_EMPTY:
                    out[n] = A_COVERP + i
                    n += 1
        if not powers & POW_NEIGHBOURHOOD:
            for i in range(s[NBASES]):
                y = s[BASES + i]
                if neighbourhood_target(s, b, p, y):
                    out[n] = A_NEIGH + y
                    n += 1
    elif phase == P_PROTECT:
        p = current_player(s)
        out[n] = A_NO_PROTECT
        n += 1
        for i in range(s[NTRAPPED]):
            x = s[TRAPPED + i]
            if x >= 0 and s[SP + x] == S_DISC + p:
                out[n] = A_PROTECT + i
                n += 1
    return n


@kernel
def power_options(s, b, p):
    """Whether player ``p`` has any power to consider after a placement."""
    powers = pget(s, p, P_POWERS)
    if extra_turn_allowed(s, b, p):
        return True
    if not powers & POW_COVER and s[NDESTROYED] > 0:
        return True
    if not powers & POW_NEIGHBOURHOOD and pget(s, p, P_ADJ_BASES) > 0:
        return True
    return False


# ---- placing a disc and its immediate scoring (R4) ----------------------------------------
@inline_kernel
def adjacent(b, x, y):
    for d in range(6):
        if b[B_NB + x * 6 + d] == y:
            return True
    return False


@kernel
def herd_group(s, b, p, x):
    """R4.2: discs of player ``p`` in ``x``'s herd region connected to ``x`` within the
    region (``x`` itself not counted)."""
    h = b[B_HERD + x]
    group = 0
    for k in range(3):
        if b[B_HERD_SP + h * 3 + k] == x:
            group = 1 << k
    for _ in range(2):  # a region has at most 3 spaces: two rounds of growth suffice
        for k in range(3):
            y = b[B_HERD_SP + h * 3 + k]
            if y < 0 or (group >> k) & 1 or s[SP + y] != S_DISC + p:
                continue
            for j in range(3):
                z = b[B_HERD_SP + h * 3 + j]
                if (group >> j) & 1 and adjacent(b, z, y):
                    group |= 1 << k
    n = 0
    for k in range(3):
        if (group >> k) & 1:
            n += 1
    return n - 1


@inline_kernel
def placement_points(s, b, p, x):
    """Points a disc of ``p`` on ``x`` scores at once (cities and herds), without placing it."""
    pts = 0
    for k in range(b[B_SP_NCITY + x]):
        c = b[B_SP_CITY + x * 3 + k]
        cnt = s[PLAYER + p * P_STRIDE + P_CITY_CNT + c]
        if cnt == 1 or cnt == 2:  # R4.1: the 2nd and 3rd disc around a city score it...
            if b[B_CITY_CLIQUE + c] != 0:  # (its spaces all touch: any earlier disc is adjacent)
                pts += b[B_CITY_VAL + c]
                continue
            for j in range(3):  # ...when it touches one of your discs around that city
                y = b[B_CITY_SP + c * 3 + j]
                if y >= 0 and y != x and s[SP + y] == S_DISC + p and adjacent(b, x, y):
                    pts += b[B_CITY_VAL + c]
                    break
    if b[B_TYPE + x] == HERD:  # R4.2
        g = herd_group(s, b, p, x)
        pts += 2 + 2 * g
        if g > 0 and b[B_HERD_PLUS] != 0:  # herd_points=2-6-8: 2 + 2 x the whole group once it has company
            pts += 2
    return pts


@kernel
def _place(s, b, p, x):
    """Puts a disc of ``p`` on ``x`` and scores it (R4.1-R4.4)."""
    pts = placement_points(s, b, p, x)
    s[SP + x] = S_DISC + p
    _touching(s, b, x, S_DISC + p, 1)
    _disc_hits(s, b, x, 1)
    s[LAST_SPACE] = x
    padd(s, p, P_DISCS, 1)
    padd(s, p, P_SCORE, pts)
    padd(s, p, P_IMMEDIATE, pts)
    for k in range(b[B_SP_NCITY + x]):
        s[PLAYER + p * P_STRIDE + P_CITY_CNT + b[B_SP_CITY + x * 3 + k]] += 1
    if b[B_TYPE + x] == PARK:
        padd(s, p, P_PARKS, 1)
    s[NDESTROYED] = 0
    if s[HITS + x] == 0:
        return
    for d in range(6):  # R4.4: every base with a disc (or Canada) behind it falls
        if destroys(s, b, x, d):
            y = b[B_NB + x * 6 + d]
            _destroy(s, b, p, y)
            s[DESTROYED + s[NDESTROYED]] = y
            s[NDESTROYED] += 1


@kernel
def _touching(s, b, x, what, delta):
    """Adds ``delta`` to the base/disc pair count of every player whose disc (when
    ``what`` is a base) touches ``x``, or to player ``what - S_DISC`` for each base
    touching ``x``."""
    for d in range(6):
        y = b[B_NB + x * 6 + d]
        if y < 0:
            continue
        v = s[SP + y]
        if what == S_BASE and v >= S_DISC:
            s[PLAYER + (v - S_DISC) * P_STRIDE + P_ADJ_BASES] += delta
        elif what >= S_DISC and v == S_BASE:
            s[PLAYER + (what - S_DISC) * P_STRIDE + P_ADJ_BASES] += delta


@kernel
def _base_hits(s, b, y, delta):
    """A base appears on (``delta`` 1) or leaves (-1) ``y``: update HITS of the spaces
    from which a disc would destroy it."""
    for e in range(6):
        x = b[B_NB + y * 6 + e]
        if x < 0:
            continue
        d = e + 3 if e < 3 else e - 3  # from x, y lies in direction d
        z = b[B_NB + y * 6 + d]
        if z < 0:
            if (b[B_CANADA + y] >> d) & 1:
                s[HITS + x] += delta
        elif s[SP + z] >= S_DISC:
            s[HITS + x] += delta


@kernel
def _disc_hits(s, b, z, delta):
    """A disc appears on (1) or leaves (-1) ``z``: a base beside it becomes (stops
    being) destroyable from its far side."""
    for e in range(6):
        y = b[B_NB + z * 6 + e]
        if y >= 0 and s[SP + y] == S_BASE:
            x = b[B_NB + y * 6 + e]
            if x >= 0:
                s[HITS + x] += delta


@kernel
def _destroy(s, b, p, y):
    """The base on ``y`` is destroyed by player ``p``, who keeps its token."""
    _touching(s, b, y, S_BASE, -1)
    _base_hits(s, b, y, -1)
    s[SP + y] = S_EMPTY
    padd(s, p, P_BASES, 1)
    s[TOTAL_DESTROYED] += 1
    for i in range(s[NBASES]):
        if s[BASES + i] == y:
            s[NBASES] -= 1
            s[BASES + i] = s[BASES + s[NBASES]]
            break


@kernel
def _end_turn(s, b):
    s[EXTRA_TURN] = 0
    s[NDESTROYED] = 0
    players = s[PLAYERS]
    # R2.7.1: a short last round (a board whose size is not a multiple of players + 2)
    # ends when its markers run out
    if s[ACTED] == (1 << players) - 1 or markers_left(s) == 0:
        _end_round(s, b)
        return
    p = s[TURN]
    for _ in range(players):  # R2.2: clockwise from the start player
        p = (p + 1) % players
        if not (s[ACTED] >> p) & 1:
            break
    s[TURN] = p
    s[PHASE] = P_COVER


@kernel
def _after_placement(s, b):
    if power_options(s, b, s[TURN]):
        s[PHASE] = P_POWER
    else:
        _end_turn(s, b)


# ---- end of the round: bases and captures (R2.4, R2.5) -----------------------------------
@kernel
def _trapped(s, b, x):
    flipped = 0
    if b[B_CAPTURE] != 1:
        for a in range(3):  # R3.3: two bases on opposite sides along one hex axis
            y = b[B_NB + x * 6 + a]
            z = b[B_NB + x * 6 + a + 3]
            if y >= 0 and z >= 0 and s[SP + y] == S_BASE and s[SP + z] == S_BASE:
                new_y = s[FLIP + y] == s[ROUND]
                new_z = s[FLIP + z] == s[ROUND]
                if (new_y and new_z) if b[B_CAPTURE] == 2 else (new_y or new_z):  # line_new: both new
                    return True
        return False
    for d in range(6):
        y = b[B_NB + x * 6 + d]
        if y >= 0 and s[SP + y] == S_BASE and s[FLIP + y] == s[ROUND]:
            flipped += 1
    return flipped >= 2


@kernel
def _end_round(s, b):
    for k in range(s[NMARK]):  # R2.4: uncovered markers become permanent bases
        x = s[MARK + k]
        if s[SP + x] == S_MARKER:
            s[SP + x] = S_BASE
            _touching(s, b, x, S_BASE, 1)
            _base_hits(s, b, x, 1)
            s[FLIP + x] = s[ROUND]
            s[BASES + s[NBASES]] = x
            s[NBASES] += 1
    s[NTRAPPED] = 0
    for k in range(s[NMARK]):  # only discs beside a base flipped this round can be trapped
        y = s[MARK + k]
        if s[SP + y] != S_BASE or s[FLIP + y] != s[ROUND]:
            continue
        for d in range(6):
            x = b[B_NB + y * 6 + d]
            if x < 0 or s[SP + x] < S_DISC or not _trapped(s, b, x):
                continue
            seen = False
            for i in range(s[NTRAPPED]):
                if s[TRAPPED + i] == x:
                    seen = True
            if not seen:
                s[TRAPPED + s[NTRAPPED]] = x
                s[NTRAPPED] += 1
    s[PROTECTING] = -1
    _next_protection(s, b)


@kernel
def _next_protection(s, b):
    """R5.1: each player about to lose a disc, in turn order, may save one with Protection."""
    players = s[PLAYERS]
    while s[PROTECTING] + 1 < players:
        s[PROTECTING] += 1
        p = (s[START] + s[PROTECTING]) % players
        if pget(s, p, P_POWERS) & POW_PROTECTION:
            continue
        for i in range(s[NTRAPPED]):
            x = s[TRAPPED + i]
            if x >= 0 and s[SP + x] == S_DISC + p:
                s[PHASE] = P_PROTECT
                return
    _captures(s, b)


@kernel
def _captures(s, b):
    for i in range(s[NTRAPPED]):  # R2.5: captured discs leave the game; their points stay
        x = s[TRAPPED + i]
        if x < 0:
            continue
        p = s[SP + x] - S_DISC
        _touching(s, b, x, S_DISC + p, -1)
        _disc_hits(s, b, x, -1)
        s[SP + x] = S_EMPTY
        padd(s, p, P_CAPTURED, 1)
        for k in range(b[B_SP_NCITY + x]):
            s[PLAYER + p * P_STRIDE + P_CITY_CNT + b[B_SP_CITY + x * 3 + k]] -= 1
    s[NTRAPPED] = 0
    s[START] = (s[START] + 1) % s[PLAYERS]  # R2.6: the bag passes to the left
    if s[ROUND] >= s[NROUNDS]:
        _final_scoring(s, b)
    else:
        _start_round(s, b)


# ---- end of the game (R6, R7) -----------------------------------------------------------------
@inline_kernel
def tier_points(b, off, count):
    pts = 0
    for t in range(3):
        if count >= b[off + t * 2]:
            pts = b[off + t * 2 + 1]
    return pts


@inline_kernel
def _group(s, b, x, stamp):
    """The discs connected to ``x`` through discs of its colour (R6.5), listed at
    ``WORK + MAX_SPACES``; each is marked with ``stamp`` at ``WORK + space``, so
    searches need no clearing. Returns how many there are."""
    v = s[SP + x]
    queue = WORK + MAX_SPACES
    s[queue] = x
    s[WORK + x] = stamp
    size = 1
    head = 0
    while head < size:
        y = s[queue + head]
        head += 1
        for d in range(6):
            z = b[B_NB + y * 6 + d]
            if z >= 0 and s[SP + z] == v and s[WORK + z] != stamp:
                s[WORK + z] = stamp
                s[queue + size] = z
                size += 1
    return size


@kernel
def largest_group(s, b, p):
    """R6.5: size of the largest group of ``p``'s discs connected through ``p``'s discs."""
    s[STAMP] += 1
    stamp = s[STAMP]
    best = 0
    for x in range(s[NSP]):
        if s[SP + x] == S_DISC + p and s[WORK + x] != stamp:
            best = max(best, _group(s, b, x, stamp))
    return best


@inline_kernel
def city_counts(s, b, p):
    """City-mission cities, value-1 cities and the best city of player ``p``."""
    card_value = 2 + pget(s, p, P_CITY_CARD)
    cities = 0
    ones = 0
    top_city = 0
    for c in range(b[B_NCITY]):
        if s[PLAYER + p * P_STRIDE + P_CITY_CNT + c] > 0:
            v = b[B_CITY_VAL + c]
            if v == card_value:
                cities += 1
            if v == 1:
                ones += 1
            top_city = max(top_city, v)
    return cities, ones, top_city


@inline_kernel
def herd_count(b, herd_spaces, regions):
    """Global protection's herds: spaces, or regions (a bit mask) when so set."""
    if b[B_PROT_HERDS] != 1:
        return herd_spaces
    nregions = 0
    for h in range(b[B_NHERD]):
        if (regions >> h) & 1:
            nregions += 1
    return nregions


@inline_kernel
def space_counts(b, x, border_bit):
    """What a disc on ``x`` adds to the end-of-game counts: border-mission discs
    (``border_bit``: the card's border), discs on another border (R6.6: a space whose
    borders include one not on the card), herd spaces, and its herd region as a bit."""
    mask = b[B_BORDER + x]
    on_border = 1 if mask & border_bit else 0
    on_other = 1 if mask & ~border_bit else 0
    if on_border and b[B_PROT_NO_CARD] != 0:  # protection_borders=no_card_label (A25)
        on_other = 0
    if b[B_TYPE + x] == HERD:
        return on_border, on_other, 1, 1 << b[B_HERD + x]
    return on_border, on_other, 0, 0


@kernel
def mission_counts(s, b, p):
    """City-mission cities, border-mission discs and the three global-protection counts."""
    cities, ones, top_city = city_counts(s, b, p)
    border_bit = 1 << pget(s, p, P_BORDER_CARD)
    border = 0
    other = 0
    herd_spaces = 0
    regions = 0
    for x in range(s[NSP]):
        if s[SP + x] != S_DISC + p:
            continue
        on_border, on_other, herd, region = space_counts(b, x, border_bit)
        border += on_border
        other += on_other
        herd_spaces += herd
        regions |= region
    return cities, border, ones, herd_count(b, herd_spaces, regions), other, top_city


@kernel
def _tally_discs(s, b):
    """What mission_counts and largest_group give, for every player in one sweep of
    the board (four sweeps each were a tenth of a greedy game): the per-space counts
    go to TALLY, the largest group to P_LARGEST."""
    for q in range(s[PLAYERS]):
        s[PLAYER + q * P_STRIDE + P_LARGEST] = 0
        for i in range(4):
            s[PLAYER + q * P_STRIDE + P_TALLY + i] = 0
    s[STAMP] += 1
    stamp = s[STAMP]
    for x in range(s[NSP]):
        v = s[SP + x]
        if v < S_DISC or s[WORK + x] == stamp:
            continue
        q = v - S_DISC
        size = _group(s, b, x, stamp)
        border_bit = 1 << pget(s, q, P_BORDER_CARD)
        t = PLAYER + q * P_STRIDE + P_TALLY
        for i in range(size):
            on_border, on_other, herd, region = space_counts(b, s[WORK + MAX_SPACES + i], border_bit)
            s[t + T_BORDER] += on_border
            s[t + T_OTHER] += on_other
            s[t + T_HERDS] += herd
            s[t + T_REGIONS] |= region
        if size > pget(s, q, P_LARGEST):
            s[PLAYER + q * P_STRIDE + P_LARGEST] = size


@kernel
def _final_scoring(s, b):
    players = s[PLAYERS]
    best = -1
    _tally_discs(s, b)
    for p in range(players):
        cities, ones, top_city = city_counts(s, b, p)
        t = PLAYER + p * P_STRIDE + P_TALLY
        border = s[t + T_BORDER]
        other = s[t + T_OTHER]
        herds = herd_count(b, s[t + T_HERDS], s[t + T_REGIONS])
        city_pts = tier_points(b, B_MIS_CITY + pget(s, p, P_CITY_CARD) * TIERS, cities)
        border_pts = tier_points(b, B_MIS_BORDER + pget(s, p, P_BORDER_CARD) * TIERS, border)
        parks_pts = tier_points(b, B_MIS_PARKS, pget(s, p, P_PARKS))
        bases_pts = tier_points(b, B_MIS_BASES, pget(s, p, P_BASES))
        largest = pget(s, p, P_LARGEST)
        exp_pts = tier_points(b, B_MIS_EXPANSION, largest)
        prot_pts = 0
        if ones >= b[B_PROTECTION + 1] and herds >= b[B_PROTECTION + 2] and other >= b[B_PROTECTION + 3]:
            prot_pts = b[B_PROTECTION]
        s[PLAYER + p * P_STRIDE + P_CITY_PTS] = city_pts
        s[PLAYER + p * P_STRIDE + P_BORDER_PTS] = border_pts
        s[PLAYER + p * P_STRIDE + P_PARKS_PTS] = parks_pts
        s[PLAYER + p * P_STRIDE + P_BASES_PTS] = bases_pts
        s[PLAYER + p * P_STRIDE + P_EXPANSION_PTS] = exp_pts
        s[PLAYER + p * P_STRIDE + P_PROTECTION_PTS] = prot_pts
        s[PLAYER + p * P_STRIDE + P_TIEBREAK] = top_city
        padd(s, p, P_SCORE, city_pts + border_pts + parks_pts + bases_pts + exp_pts + prot_pts)
        best = max(best, pget(s, p, P_SCORE))
    top = -1
    for p in range(players):  # R7.2: equal scores: the highest-valued city defended
        if pget(s, p, P_SCORE) == best:
            top = max(top, pget(s, p, P_TIEBREAK))
    earth = 1 if s[TOTAL_DESTROYED] >= b[B_THRESH] else 0
    s[EARTH_WON] = earth
    for p in range(players):
        won = pget(s, p, P_SCORE) == best and pget(s, p, P_TIEBREAK) == top
        if b[B_SEMI] != 0 and earth == 0:  # R7.3: the invasion succeeded: everybody loses
            won = False
        s[PLAYER + p * P_STRIDE + P_WON] = 1 if won else 0
    s[PHASE] = P_OVER


# ---- the step ------------------------------------------------------------------------------------
@kernel
def apply_action(s, rng, b, a):
    """Plays action ``a`` (which must be legal) and any forced steps after it."""
    phase = s[PHASE]
    if phase == P_COVER:
        p = s[TURN]
        if s[EXTRA_TURN] == 0:
            s[ACTED] |= 1 << p
        _place(s, b, p, s[MARK + a - A_COVER])
        _after_placement(s, b)
    elif phase == P_POWER:
        p = s[TURN]
        if a == A_PASS:
            _end_turn(s, b)
        elif a == A_EXTRA:  # R5.4
            padd(s, p, P_POWERS, POW_EXTRA)
            s[EXTRA_USERS] += 1
            s[EXTRA_TURN] = 1
            s[NDESTROYED] = 0
            s[PHASE] = P_COVER
        elif a < A_COVERP + MAX_DESTROYED:  # R5.2: Cover the space of a base just destroyed
            padd(s, p, P_POWERS, POW_COVER)
            _place(s, b, p, s[DESTROYED + a - A_COVERP])
            _after_placement(s, b)
        else:  # R5.3: Neighbourhood
            y = a - A_NEIGH
            padd(s, p, P_POWERS, POW_NEIGHBOURHOOD)
            _destroy(s, b, p, y)
            _place(s, b, p, y)
            _after_placement(s, b)
    elif phase == P_PROTECT:
        if a != A_NO_PROTECT:  # R5.1
            padd(s, current_player(s), P_POWERS, POW_PROTECTION)
            s[TRAPPED + a - A_PROTECT] = -1
        _next_protection(s, b)


# ---- the rest of the protocol ----------------------------------------------------------
@inline_kernel
def to_move(s):
    return current_player(s)


@inline_kernel
def is_over(s):
    return s[PHASE] == P_OVER
