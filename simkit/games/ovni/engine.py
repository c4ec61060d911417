"""O.V.N.I. rules, compiled: an ``int32`` state vector plus an action gives the next state.
Rule numbers (R4.4, A3 ...) refer to docs/rules/ovni.md; the decision points, action
ids and the order of chance events are its section "Decision points, actions and
chance" (D1-D5).

The state has two parts. The **public view** (offsets ``0 .. VIEW_SIZE - 1``) is what
every seat may see; ``observe`` copies it and adds what only the observing seat sees
(its hand, its missions, its own face-down tokens) and, for every planet, the set of
its tokens not showing face up. The **hidden tail** holds the rest: the hands, the
values of face-down tokens, the dummy's token queue, the order of the alien deck, the
missions and the chance log. ``hidden_variants`` changes only the tail.

Decision points (``s[PHASE]``), taken by ``to_move(s)``:

* ``PH_KEEP``, ``PH_START``, ``PH_DUMMY_START``: set-up (R1.10, R1.11, R19.4);
* ``PH_PLACE``: a command token (``A_PLACE``) or a dummy token (``A_PLACE_DUMMY``), R4, R19.7;
* ``PH_PICK``: a winner of several areas takes one of its three aliens (R5.3.2);
* ``PH_ENERGY``: the energy card (R7.2), or the dummy's energy alien (R19.9);
* ``PH_SHIELD``: the force-field card (R17.6);
* ``PH_TURN``: activate a group or end the turn (R8.3);
* ``PH_GROUP``: the actions of the active group (R9-R12).

Every step with no decision (resolution, awards, refills, scoring, forced ends of
groups and turns) runs inside ``apply_action`` after the action that leads to it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...jit import inline_kernel, kernel
from ...layout import ActionSpace, Layout
from ...rng import CHANCE, fisher_yates, new_streams, restart
from .board import (
    B_ABIL_EFFECT,
    B_ABIL_P1,
    B_ABIL_P2,
    B_ABIL_PLAY,
    B_ADJ,
    B_ATTACKS_DYNAMIC,
    B_AWARD_LAST,
    B_CAP_DRAW,
    B_CAPTURED_SCORING,
    B_CARD,
    B_DIST_RANK,
    B_DUMMY,
    B_DUMMY_BLOCKS,
    B_DUMMY_ENERGY_LAST,
    B_DUMMY_FREE,
    B_EMPTY_GROUP,
    B_ENERGY_EMPTY_WIN,
    B_EVEN,
    B_LAST_OWN,
    B_MAP_END_GROUP,
    B_MAX_ROUNDS,
    B_MIS,
    B_MISSION_LAUNCHED,
    B_NABIL_PLAY,
    B_NAREAS,
    B_NB,
    B_NCARDS,
    B_NDEG,
    B_NMIS,
    B_NOMAJ_PRESENCE,
    B_NPLANETS,
    B_OVERLAP_ADDITIVE,
    B_PAD,
    B_PARITY_ANY,
    B_PLANETS_RANDOM,
    B_PLAYERS,
    B_SC_AIRSPACE,
    B_SC_DONE,
    B_SC_FAILED,
    B_SC_FIVE,
    B_SC_MAJORITY,
    B_SC_MAPPING,
    B_SC_SAME,
    B_SC_SIX,
    B_SC_UFO_BOARD,
    B_SC_UFO_PAD,
    B_SEAT_BONUS,
    B_SHUFFLE_ALL,
    B_SIX_RETURNS,
    B_START_REVERSED,
    B_START_TRIPLES,
    B_STOCK,
    B_STUCK_SKIP,
    B_SWAP_EMPTY,
    B_TARGETS_ALL_DIFFERENT,
    B_TIE_OPENER_ONLY,
    B_UFOS,
    EFF_ABDUCT_WITHOUT_MAJORITY,
    EFF_EXTRA_MOVES,
    EFF_FORCE_FIELD,
    EFF_MAP_THRESHOLD,
    EFF_MAPPING_POINTS,
    EFF_PREBUILT_UFO,
    EFF_SIX_USES,
    EFF_STARTING_ALIENS,
    EFF_SWAP_HUMAN,
    EFF_UFO_POINTS,
    M_AIR_N,
    M_AIR_PAR,
    M_ALI,
    M_CAP,
    M_HUM,
    M_MAP_N,
    M_MAP_PAR,
    M_UFOS,
    MAX_CARDS,
    MAX_DEGREE,
    MIS_STRIDE,
    PARITY_ANY,
    PARITY_EVEN,
)

# ---- sizes fixed by the rulebook ----------------------------------------------------
MAX_PLANETS = 4  # seats, or two seats and the dummy (planet 2)
N_CITIES = 12
N_CLASSES = 4
PILOTS, ABDUCTORS, BUILDERS, MILITARY = range(N_CLASSES)
N_KINDS = 6
MAX_AREAS = 4
SLOTS = 4  # per area
N_SLOTS = MAX_AREAS * SLOTS
TOKENS = 5  # command tokens 2-6 (C13); a hand is a bit mask, bit v for value v
ALL_TOKENS = (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5) | (1 << 6)
SIX = 1 << 6
N_CATEGORIES = 6  # majorities, UFOs, airspace, mapping, humans, missions (R15)
CHANCE_LOG_SIZE = 4 + MAX_CARDS + 6 + N_CITIES + 40 + MAX_CARDS + 8  # the largest step: set-up
NONE = -1

# phases (decision points)
PH_KEEP, PH_START, PH_DUMMY_START, PH_PLACE, PH_PICK, PH_ENERGY, PH_SHIELD, PH_TURN, PH_GROUP, PH_OVER = range(10)
# card locations
LOC_DECK, LOC_AREA, LOC_DISCARD = 0, 1, 2

# ---- state: the public view ----------------------------------------------------------
STATE = Layout("ovni state")
(PLAYERS, NPLANETS, NAREAS, DUMMY, ROUND, PHASE, TO_MOVE, OVER, CAPPED, DRAWN,
 SETUP_IDX, PAIRS_TAKEN, DUMMY_FIRST, FIRST_SEAT, SECOND_SEAT,
 PLACE_TURN, NPLACED, PLACE_PLANET, PLACE_WAIVE,
 AWARD_AREA, PICK_PLANET, PICKS_LEFT,
 ENERGY_IDX, ENERGY_DUMMY, SHIELD_IDX,
 TURN_IDX, ACTIVATED, NACT, LIMIT, GROUP, BUDGET, LAUNCHES, LAST_TARGET, TARGETS, ATTACKS, MOVES_MADE, GROUP_BASE,
 DECK_N, TRACK_POS, DQ_POS, END_CLASS, RESHUFFLES, AREAS_UNCLAIMED, DUMMY_AREAS, DUMMY_ALIENS, WINNERS) = STATE.scalars(
    "players", "nplanets", "nareas", "dummy", "round", "phase", "to_move", "over", "capped", "drawn",
    "setup_idx", "pairs_taken", "dummy_first", "first_seat", "second_seat",
    "place_turn", "nplaced", "place_planet", "place_waive",
    "award_area", "pick_planet", "picks_left",
    "energy_idx", "energy_dummy", "shield_idx",
    "turn_idx", "activated", "nact", "limit", "group", "budget", "launches", "last_target", "targets", "attacks",
    "moves_made", "group_base",
    "deck_n", "track_pos", "dq_pos", "end_class", "reshuffles", "areas_unclaimed", "dummy_areas", "dummy_aliens",
    "winners")
ORDER1 = STATE.array("order1", MAX_PLANETS)  # phase-1 order (R3.1), planet indices
ORDER2 = STATE.array("order2", MAX_PLANETS)  # phase-2 order (R8.1)
AREA_CARD = STATE.array("area_card", MAX_AREAS)  # alien card shown in each area this round
AREA_N = STATE.array("area_n", MAX_AREAS)  # tokens placed in each area
AREA_WINNER = STATE.array("area_winner", MAX_AREAS)  # planet, or -1 (R5.2)
SLOT_OWNER = STATE.array("slot_owner", N_SLOTS)  # area * 4 + slot: planet, or -1
SLOT_SHOWN = STATE.array("slot_shown", N_SLOTS)  # the value if face up (or revealed), else 0
SLOT_CANCEL = STATE.array("slot_cancel", N_SLOTS)  # cancelled at the reveal (R5.2)
SLOT_WAIVED = STATE.array("slot_waived", N_SLOTS)  # placed under A4's waiver of R4.4
POOL = STATE.array("pool", N_CLASSES)  # aliens still to pick by a winner of several areas (R5.3.2)
STOCK = STATE.array("stock", N_CLASSES)  # the general alien stock (R1.4)
CITY_HUMAN = STATE.array("city_human", N_CITIES)  # human kind in each city, or -1
TRACK = STATE.array("track", N_KINDS)  # refill track, position 1 first (R1.6, R13.1)
MAP_COUNT = STATE.array("map_count", N_CITIES)  # mapping tokens on each city (R9.4)
CARD_LOC = STATE.array("card_loc", MAX_CARDS)  # LOC_DECK, LOC_AREA or LOC_DISCARD
PLAYER_BLOCK = STATE.seats(
    "planet", MAX_PLANETS,
    "planet_id", "dist_rank",
    ("own", N_CLASSES), ("capt", N_CLASSES),  # aliens held: never captured / captured by this planet (R12.3)
    "captured_from",
    ("ufo", N_CITIES), ("frozen", N_CITIES), "pad", "reserve", "on_board", "launched",
    "mapped", "nmapped", ("humans", N_KINDS), "nhumans",
    "nhand", "six_uses", "six_max", "six_spent",
    "energy", "ff", "parked",
    ("abil", 2), "eff", "start_n", "map_thr", "prebuilt", "extra_moves", "extra_min", "ff_mil", "map_pts", "ufo_pts",
    "nkept", "won_mask", "got_round",
    # outputs
    "score", "won", ("pts", N_CATEGORIES), "first1", "first2", "areas_won", "recruited", "energy1", "energy2",
    "sixes_played", "shield_rounds", "swaps", "extra_used", "nomaj_abd", "destroyed", "lost", "controlled",
    "m1", "m2", "m1_done", "m2_done", "mdone", "captures", ("held_end", N_CLASSES), "kinds",
)
PLAYER, P_STRIDE = PLAYER_BLOCK.base, PLAYER_BLOCK.stride
(P_PLANET_ID, P_DIST_RANK, P_OWN, P_CAPT, P_CAPTURED_FROM, P_UFO, P_FROZEN, P_PAD, P_RESERVE, P_ON_BOARD,
 P_LAUNCHED, P_MAPPED, P_NMAPPED, P_HUMANS, P_NHUMANS, P_NHAND, P_SIX_USES, P_SIX_MAX, P_SIX_SPENT, P_ENERGY, P_FF,
 P_PARKED, P_ABIL, P_EFF, P_START_N, P_MAP_THR, P_PREBUILT, P_EXTRA_MOVES, P_EXTRA_MIN, P_FF_MIL, P_MAP_PTS, P_UFO_PTS,
 P_NKEPT, P_WON_MASK, P_GOT_ROUND,
 P_SCORE, P_WON, P_PTS, P_FIRST1, P_FIRST2, P_AREAS_WON, P_RECRUITED, P_ENERGY1, P_ENERGY2, P_SIXES_PLAYED,
 P_SHIELD_ROUNDS, P_SWAPS, P_EXTRA_USED, P_NOMAJ_ABD, P_DESTROYED, P_LOST, P_CONTROLLED, P_M1, P_M2, P_M1_DONE,
 P_M2_DONE, P_MDONE, P_CAPTURES, P_HELD_END, P_KINDS) = PLAYER_BLOCK.fields.values()
VIEW_SIZE = STATE.size  # everything above is public

# ---- state: the hidden tail ----------------------------------------------------------
HAND = STATE.array("hand", MAX_PLANETS)  # command tokens in hand, bit v for value v (R4.7)
SLOT_VAL = STATE.array("slot_val", N_SLOTS)  # the value of every placed token
DQ = STATE.array("dq", TOKENS)  # the dummy's shuffled tokens this round (R19.7)
DQ_LEN = STATE.scalar("dq_len")
DECK = STATE.array("deck", MAX_CARDS)  # alien deck order, DECK[DECK_POS] is the top (D4)
DECK_POS, DECK_LEN = STATE.scalars("deck_pos", "deck_len")
MISSIONS = STATE.array("missions", MAX_PLANETS * 3)  # mission slots 0-2 of each seat (R1.10)
KEPT = STATE.array("kept", MAX_PLANETS)  # bit i: mission slot i kept
CHANCE_N = STATE.scalar("chance_n")
CHANCE_LOG = STATE.array("chance_log", CHANCE_LOG_SIZE)  # this step's chance outcomes (D4)
SIZE = STATE.size

# ---- actions (D2) ----------------------------------------------------------------------
ACTIONS = ActionSpace("ovni actions")
A_KEEP = ACTIONS.range("keep", 6)  # i < 3: keep only slot i; 3 + i: keep both slots other than i
A_START_PAIR = ACTIONS.range("start_pair", 6)  # PAIRS[i]
A_START_TRIPLE = ACTIONS.range("start_triple", 4)  # every class except k
A_DUMMY_ALIEN = ACTIONS.range("dummy_alien", 4)  # the dummy gets one alien of class k
A_PLACE = ACTIONS.range("place", MAX_AREAS * TOKENS)  # area * 5 + (value - 2)
A_PLACE_DUMMY = ACTIONS.range("place_dummy", MAX_AREAS)  # area
A_PICK = ACTIONS.range("pick", N_CLASSES)
A_ENERGY_ALIEN = ACTIONS.range("energy_alien", N_CLASSES)  # bonus 1 with class k
A_ENERGY_THREE = ACTIONS.single("energy_three")  # bonus 2
A_SHIELD = ACTIONS.range("shield", 2)  # 0: do not park, 1: park
A_ACTIVATE = ACTIONS.range("activate", N_CLASSES)
A_END_TURN = ACTIONS.single("end_turn")
A_MOVE = ACTIONS.range("move", N_CITIES * N_CITIES)  # from * 12 + to
A_ABDUCT = ACTIONS.range("abduct", N_CITIES * N_CITIES)  # city * 12 + swap city (= city: no swap)
A_LAUNCH = ACTIONS.range("launch", N_CITIES)
A_CAPTURE = ACTIONS.range("capture", MAX_PLANETS * N_CLASSES)  # target * 4 + class
A_DESTROY = ACTIONS.range("destroy", MAX_PLANETS * N_CITIES)  # target * 12 + city
A_END_GROUP = ACTIONS.single("end_group")
MAX_ACTIONS = ACTIONS.size

# START_PAIR ids -> classes: (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
PAIR_A = np.array([0, 0, 0, 1, 1, 2], np.int64)
PAIR_B = np.array([1, 2, 3, 2, 3, 3], np.int64)

# ---- observation -------------------------------------------------------------------------
OBS = Layout("ovni observation")
O_VIEW = OBS.array("view", VIEW_SIZE)  # the public view; offset 0, so obs[X] == s[X] for its fields
O_SEAT, O_HAND, O_KEPT = OBS.scalars("seat", "hand", "kept")
O_MISSIONS = OBS.array("my_missions", 3)  # the seat's mission slots (dealt during KEEP, kept ones after; -1 else)
O_UNSEEN = OBS.array("unseen", MAX_PLANETS)  # per planet: its tokens not showing face up (hand + face down)
OBS_SIZE = OBS.size
PERFECT_INFORMATION = False
assert O_VIEW == 0


@inline_kernel
def po(q):
    """Offset of planet ``q``'s record."""
    return PLAYER + q * P_STRIDE


@inline_kernel
def held(s, q, k):
    """Aliens of class ``k`` under planet ``q``'s board, captured ones included (R12.3)."""
    o = PLAYER + q * P_STRIDE
    return s[o + P_OWN + k] + s[o + P_CAPT + k]


@inline_kernel
def start_position(b, players, seat):
    """How many seats choose their starting aliens before ``seat`` (R1.11: seat 0 first;
    K1, a compensation not in the rulebook, may reverse the order). K2 and K3 read it."""
    return players - 1 - seat if b[B_START_REVERSED] else seat


@inline_kernel
def has_eff(s, q, e):
    return (s[PLAYER + q * P_STRIDE + P_EFF] >> e) & 1


@kernel
def _log(s, v):
    s[CHANCE_LOG + s[CHANCE_N]] = v
    s[CHANCE_N] += 1


@kernel
def _shuffle_logged(s, rng, arr):
    """Fisher-Yates on ``arr`` from the chance stream (D4), logged as the result."""
    fisher_yates(arr, rng, CHANCE)
    for i in range(arr.shape[0]):
        _log(s, arr[i])


@kernel
def _shuffle(s, rng, start, m):
    """Fisher-Yates on s[start:start+m], logged (:func:`_shuffle_logged`)."""
    _shuffle_logged(s, rng, s[start:start + m])


# ---- receiving aliens and building UFOs (R5.3.4, R6) -------------------------------------
@kernel
def _builders_gained(s, b, q, before):
    """R6.1-R6.2: each new Builder pair builds one UFO onto the pad, if it has room and the
    reserve a UFO; a blocked build is lost. The dummy never builds (R6.4)."""
    if q == s[DUMMY]:
        return
    o = po(q)
    builds = held(s, q, BUILDERS) // 2 - before // 2
    for _ in range(builds):
        if s[o + P_PAD] < b[B_PAD] and s[o + P_RESERVE] > 0:
            s[o + P_PAD] += 1
            s[o + P_RESERVE] -= 1


@kernel
def _receive(s, b, q, k):
    """One alien of class ``k`` from the stock to planet ``q``; nothing when the stock of
    that class is empty (R5.3.4). Returns 1 if received."""
    if s[STOCK + k] <= 0:
        return 0
    s[STOCK + k] -= 1
    if s[STOCK + k] == 0 and s[END_CLASS] < 0:
        s[END_CLASS] = k  # R14.1: the game ends after this round
    before = held(s, q, BUILDERS)
    s[po(q) + P_OWN + k] += 1
    if k == BUILDERS:
        _builders_gained(s, b, q, before)
    return 1


# ---- turn orders (R3.1, R8.1) --------------------------------------------------------------
@inline_kernel
def _order_key(s, q, phase2):
    o = po(q)
    p = s[o + P_OWN + 0] + s[o + P_CAPT + 0]
    a = s[o + P_OWN + 1] + s[o + P_CAPT + 1]
    bb = s[o + P_OWN + 2] + s[o + P_CAPT + 2]
    m = s[o + P_OWN + 3] + s[o + P_CAPT + 3]
    if phase2:  # Pilots, Abductors, Builders, Military, then the nearer planet
        return (((p * 256 + a) * 256 + bb) * 256 + m) * 8 + (7 - s[o + P_DIST_RANK])
    # Military, Builders, Abductors, Pilots, then the farther planet
    return (((m * 256 + bb) * 256 + a) * 256 + p) * 8 + s[o + P_DIST_RANK]


@kernel
def _rank(s, phase2):
    base = ORDER2 if phase2 else ORDER1
    n = s[NPLANETS]
    for i in range(n):
        s[base + i] = i
    for i in range(1, n):  # insertion sort, best first
        q = s[base + i]
        kq = _order_key(s, q, phase2)
        j = i - 1
        while j >= 0 and _order_key(s, s[base + j], phase2) < kq:
            s[base + j + 1] = s[base + j]
            j -= 1
        s[base + j + 1] = q


# ---- set-up (R1) ------------------------------------------------------------------------
@njit
def init_state(seed, b):
    """A new game: planets, decks, humans and cards dealt (chance S1-S6), UFOs placed;
    seat 0 then decides which missions to keep (R1)."""
    rng = new_streams(seed)
    s = np.zeros(SIZE, np.int32)
    players = b[B_PLAYERS]
    n = b[B_NPLANETS]
    s[PLAYERS] = players
    s[NPLANETS] = n
    s[NAREAS] = b[B_NAREAS]
    s[DUMMY] = b[B_DUMMY]
    s[END_CLASS] = -1
    s[GROUP] = -1
    s[LAST_TARGET] = -1
    s[PICK_PLANET] = -1
    s[DUMMY_FIRST] = -1
    for i in range(MAX_PLANETS):
        s[ORDER1 + i] = -1
        s[ORDER2 + i] = -1
    for a in range(MAX_AREAS):
        s[AREA_CARD + a] = -1
        s[AREA_WINNER + a] = -1
    for i in range(N_SLOTS):
        s[SLOT_OWNER + i] = -1
    restart(rng, CHANCE, 1000)
    # S1: home planets
    perm = np.arange(4)
    if b[B_PLANETS_RANDOM]:
        _shuffle_logged(s, rng, perm)
    for q in range(n):
        o = po(q)
        s[o + P_PLANET_ID] = perm[q]
        s[o + P_DIST_RANK] = b[B_DIST_RANK + perm[q]]
    # S2: the alien deck
    nc = b[B_NCARDS]
    for i in range(nc):
        s[DECK + i] = i
    _shuffle(s, rng, DECK, nc)
    s[DECK_POS] = 0
    s[DECK_LEN] = nc
    s[DECK_N] = nc
    # S3: the refill track; S4: the humans in the cities (R1.6)
    for j in range(N_KINDS):
        s[TRACK + j] = j
    _shuffle(s, rng, TRACK, N_KINDS)
    for c in range(N_CITIES):
        s[CITY_HUMAN + c] = c // 2
    _shuffle(s, rng, CITY_HUMAN, N_CITIES)
    # S5: ability cards, two per seat (R1.9, R19.5)
    na = b[B_NABIL_PLAY]
    deck = np.empty(na, np.int64)
    for i in range(na):
        deck[i] = b[B_ABIL_PLAY + i]
    _shuffle_logged(s, rng, deck)
    # S6: missions, three per seat (R1.10)
    nm = b[B_NMIS]
    mis = np.arange(nm)
    _shuffle_logged(s, rng, mis)
    # pieces (R1.3, R1.4)
    for k in range(N_CLASSES):
        s[STOCK + k] = b[B_STOCK]
    for q in range(n):
        o = po(q)
        s[o + P_RESERVE] = b[B_UFOS]
        s[o + P_SIX_MAX] = 1
        s[o + P_START_N] = 2
        s[o + P_FF_MIL] = -1
        s[o + P_MAP_PTS] = b[B_SC_MAPPING]
        s[o + P_UFO_PTS] = b[B_SC_UFO_BOARD]
        s[o + P_M1] = -1
        s[o + P_M2] = -1
        s[o + P_M1_DONE] = -1
        s[o + P_M2_DONE] = -1
        s[HAND + q] = ALL_TOKENS
        s[o + P_NHAND] = TOKENS
    for seat in range(players):
        o = po(seat)
        c0 = deck[2 * seat]
        c1 = deck[2 * seat + 1]
        s[o + P_ABIL + 0] = min(c0, c1)  # in decks-file order (output columns)
        s[o + P_ABIL + 1] = max(c0, c1)
        for k in range(2):
            card = deck[2 * seat + k]
            e = b[B_ABIL_EFFECT + card]
            s[o + P_EFF] |= 1 << e
            p1 = b[B_ABIL_P1 + card]
            p2 = b[B_ABIL_P2 + card]
            if e == EFF_STARTING_ALIENS:
                s[o + P_START_N] = p1
            elif e == EFF_MAP_THRESHOLD:
                s[o + P_MAP_THR] = p1
            elif e == EFF_PREBUILT_UFO:
                s[o + P_PREBUILT] = p1
            elif e == EFF_EXTRA_MOVES:
                s[o + P_EXTRA_MOVES] = p1
                s[o + P_EXTRA_MIN] = p2
            elif e == EFF_FORCE_FIELD:
                s[o + P_FF_MIL] = p1 if players >= p2 else -1  # A21: unusable below min_players
            elif e == EFF_SIX_USES:
                s[o + P_SIX_MAX] = p1
            elif e == EFF_MAPPING_POINTS:
                s[o + P_MAP_PTS] = p1
            elif e == EFF_UFO_POINTS:
                s[o + P_UFO_PTS] = p1
        if start_position(b, players, seat) >= players - b[B_START_TRIPLES]:
            s[o + P_START_N] = 3  # K2 (compensation, not in the rulebook): the last choosers take a triple
        for k in range(3):
            s[MISSIONS + seat * 3 + k] = mis[3 * seat + k]
    # R1.7 / R19.3: UFOs around the table from Sao Paulo
    if players >= 3:
        for c in range(N_CITIES):
            q = c % players
            _put_ufo(s, q, c)
    else:
        d = s[DUMMY]
        for c in range(N_CITIES):
            if c % 3 == 2:
                for _ in range(2):
                    _put_ufo(s, d, c)
                o = po(d)
                s[o + P_MAPPED] |= 1 << c
                s[o + P_NMAPPED] += 1
                s[MAP_COUNT + c] += 1
            else:
                _put_ufo(s, c % 3, c)
    s[PHASE] = PH_KEEP
    s[SETUP_IDX] = 0
    s[TO_MOVE] = 0
    return s, rng


@kernel
def _put_ufo(s, q, c):
    o = po(q)
    if s[o + P_RESERVE] > 0:
        s[o + P_RESERVE] -= 1
        s[o + P_UFO + c] += 1
        s[o + P_ON_BOARD] += 1


@kernel
def _finish_setup(s, rng, b):
    """R1.12, then round 1 (R1.13)."""
    for seat in range(s[PLAYERS]):
        o = po(seat)
        for _ in range(s[o + P_PREBUILT]):
            if s[o + P_PAD] < b[B_PAD] and s[o + P_RESERVE] > 0:
                s[o + P_PAD] += 1
                s[o + P_RESERVE] -= 1
    _start_round(s, rng, b)


# ---- phase 1 (R3-R7) ----------------------------------------------------------------------
@kernel
def _start_round(s, rng, b):
    """R2.1, R3.1, R4.1 (cards, chance R1), R19.7 (dummy queue, chance R2)."""
    s[ROUND] += 1
    restart(rng, CHANCE, s[ROUND])
    _rank(s, 0)
    n = s[NPLANETS]
    d = s[DUMMY]
    first = -1
    second = -1
    for i in range(n):
        q = s[ORDER1 + i]
        if q != d:
            if first < 0:
                first = q
            elif second < 0:
                second = q
    s[FIRST_SEAT] = first
    s[SECOND_SEAT] = second
    if s[ORDER1] != d:
        s[po(s[ORDER1]) + P_FIRST1] += 1
    # R4.1 / A5: one card per area from the top of the deck
    nareas = s[NAREAS]
    nc = b[B_NCARDS]
    if b[B_SHUFFLE_ALL] and s[DECK_N] < nareas:
        m = 0
        for c in range(nc):
            if s[CARD_LOC + c] == LOC_DECK or s[CARD_LOC + c] == LOC_DISCARD:
                s[DECK + m] = c
                s[CARD_LOC + c] = LOC_DECK
                m += 1
        _shuffle(s, rng, DECK, m)
        s[DECK_POS] = 0
        s[DECK_LEN] = m
        s[DECK_N] = m
        s[RESHUFFLES] += 1
    for a in range(nareas):
        if s[DECK_N] == 0:  # draw_then_shuffle: the discards become the deck
            m = 0
            for c in range(nc):
                if s[CARD_LOC + c] == LOC_DISCARD:
                    s[DECK + m] = c
                    s[CARD_LOC + c] = LOC_DECK
                    m += 1
            _shuffle(s, rng, DECK, m)
            s[DECK_POS] = 0
            s[DECK_LEN] = m
            s[DECK_N] = m
            s[RESHUFFLES] += 1
        c = s[DECK + s[DECK_POS]]
        s[DECK_POS] += 1
        s[DECK_N] -= 1
        s[CARD_LOC + c] = LOC_AREA
        s[AREA_CARD + a] = c
    for a in range(MAX_AREAS):
        s[AREA_N + a] = 0
        s[AREA_WINNER + a] = -1
    for i in range(N_SLOTS):
        s[SLOT_OWNER + i] = -1
        s[SLOT_SHOWN + i] = 0
        s[SLOT_CANCEL + i] = 0
        s[SLOT_WAIVED + i] = 0
        s[SLOT_VAL + i] = 0
    for q in range(n):
        o = po(q)
        s[o + P_WON_MASK] = 0
        s[o + P_GOT_ROUND] = 0
    # R19.7: the dummy's tokens, shuffled face down
    if d >= 0:
        m = 0
        for v in range(2, 7):
            if (s[HAND + d] >> v) & 1:
                s[DQ + m] = v
                m += 1
        _shuffle(s, rng, DQ, m)
        s[DQ_LEN] = m
        s[DQ_POS] = 0
    s[PLACE_TURN] = 0
    s[NPLACED] = 0
    s[PHASE] = PH_PLACE
    _advance_place(s, b)


@inline_kernel
def _turn_planet(s, t):
    """Who places at placement turn ``t``: (planet, seat deciding). R4.3, R19.7."""
    if s[PLAYERS] >= 3:
        q = s[ORDER1 + t % s[NPLANETS]]
        return q, q
    if t < 8:
        r = t % 4  # F, F.d, S, S.d
        seat = s[FIRST_SEAT] if r < 2 else s[SECOND_SEAT]
        return (s[DUMMY] if r % 2 == 1 else seat), seat
    seat = s[FIRST_SEAT] if (t - 8) % 2 == 0 else s[SECOND_SEAT]
    return seat, seat


@inline_kernel
def slot_ok(s, q, a):
    """R4.4: planet ``q`` may fill the next slot of area ``a`` (which has a free slot)."""
    j = s[AREA_N + a]
    if j < 2:
        return True
    i = a * SLOTS + j
    return not (s[SLOT_OWNER + i - 1] == q and s[SLOT_OWNER + i - 2] == q)


@kernel
def _strict_areas(s, q):
    """Bit mask of the areas where ``q`` may place without breaking R4.4."""
    m = 0
    for a in range(s[NAREAS]):
        if s[AREA_N + a] < SLOTS and slot_ok(s, q, a):
            m |= 1 << a
    return m


@kernel
def _free_areas(s):
    m = 0
    for a in range(s[NAREAS]):
        if s[AREA_N + a] < SLOTS:
            m |= 1 << a
    return m


@kernel
def placement_areas(s, b, q):
    """(areas where ``q`` may place now, 1 if under A4's waiver); 0 areas: a skipped turn."""
    if s[HAND + q] == 0:
        return 0, 0
    m = _strict_areas(s, q)
    if m != 0:
        return m, 0
    if b[B_STUCK_SKIP]:
        return 0, 0
    return _free_areas(s), 1


@kernel
def _advance_place(s, b):
    """Find the next placement turn that has a placement, skipping stuck turns (A4); end
    the placement when every slot is full or nobody with a turn to come can place (R4.6)."""
    total = s[NAREAS] * SLOTS
    while True:
        if s[NPLACED] >= total:
            _resolve(s, b)
            return
        q, seat = _turn_planet(s, s[PLACE_TURN])
        m, waive = placement_areas(s, b, q)
        if m != 0:
            s[PLACE_PLANET] = q
            s[PLACE_WAIVE] = waive
            s[TO_MOVE] = seat
            return
        s[PLACE_TURN] += 1
        # nothing changes between turns that place nothing: a full cycle places nothing
        # exactly when nobody who still has a turn to come can place now
        anyone = False
        for r in range(s[NPLANETS]):
            if r == s[DUMMY] and s[PLACE_TURN] >= 8:
                continue  # the dummy's last turn is turn 8 of the 2-player schedule (R19.7)
            mm, _ = placement_areas(s, b, r)
            if mm != 0:
                anyone = True
        if not anyone:
            _resolve(s, b)
            return


@kernel
def _place(s, b, q, a, v, waived):
    """R4.2: token ``v`` of planet ``q`` into the next slot of area ``a``; slots 1 and 3
    lie face down, 2 and 4 face up."""
    j = s[AREA_N + a]
    i = a * SLOTS + j
    s[SLOT_OWNER + i] = q
    s[SLOT_VAL + i] = v
    s[SLOT_SHOWN + i] = v if j % 2 == 1 else 0
    s[SLOT_WAIVED + i] = waived
    s[AREA_N + a] = j + 1
    s[NPLACED] += 1
    s[HAND + q] &= ~(1 << v)
    s[po(q) + P_NHAND] -= 1


@kernel
def area_winner(s, b, a, cancel_out):
    """R5.2 on the values in SLOT_VAL: cancel every value that appears twice or more,
    sum each planet's remaining tokens, the highest sum wins; a tie (A1) goes to the
    tied planet whose first token lies earliest, or only to the opener. Returns the
    planet or -1; marks cancelled slots in SLOT_CANCEL when ``cancel_out``."""
    n = s[AREA_N + a]
    base = a * SLOTS
    best = 0
    winner = -1
    tied = False
    for q in range(s[NPLANETS]):
        total = 0
        first = SLOTS
        for j in range(n):
            if s[SLOT_OWNER + base + j] != q:
                continue
            if j < first:
                first = j
            v = s[SLOT_VAL + base + j]
            dup = False
            for k in range(n):
                if k != j and s[SLOT_VAL + base + k] == v:
                    dup = True
            if dup:
                if cancel_out:
                    s[SLOT_CANCEL + base + j] = 1
            else:
                total += v
        if total > best:
            best = total
            winner = q
            tied = False
        elif total == best and total > 0:
            tied = True
            if first < _first_slot(s, a, winner):
                winner = q
    if winner >= 0 and tied and b[B_TIE_OPENER_ONLY]:
        # only the opener can win a tie
        if s[SLOT_OWNER + base] != winner:
            return -1
    return winner


@inline_kernel
def _first_slot(s, a, q):
    for j in range(s[AREA_N + a]):
        if s[SLOT_OWNER + a * SLOTS + j] == q:
            return j
    return SLOTS


@kernel
def _resolve(s, b):
    """R5.1 reveal, R5.2 winners, then the awards (R5.3)."""
    for i in range(N_SLOTS):
        if s[SLOT_OWNER + i] >= 0:
            s[SLOT_SHOWN + i] = s[SLOT_VAL + i]
    d = s[DUMMY]
    for a in range(s[NAREAS]):
        w = area_winner(s, b, a, True)
        s[AREA_WINNER + a] = w
        if w < 0:
            s[AREAS_UNCLAIMED] += 1
        else:
            o = po(w)
            s[o + P_WON_MASK] |= 1 << a
            s[o + P_AREAS_WON] += 1
            if w == d:
                s[DUMMY_AREAS] += 1
    s[AWARD_AREA] = 0
    s[TO_MOVE] = -1
    _awards(s, b)


@kernel
def _receive_card(s, b, q, c):
    got = 0
    for k in range(N_CLASSES):
        for _ in range(b[B_CARD + 4 * c + k]):
            got += _receive(s, b, q, k)
    o = po(q)
    s[o + P_GOT_ROUND] += got
    s[o + P_RECRUITED] += got


@kernel
def _awards(s, b):
    """R5.3: areas in letter order; a planet that won several areas picks three aliens
    (PICK decisions) when its first (A2: or last) area is handled; the dummy takes the
    card of its first area (R19.8)."""
    d = s[DUMMY]
    while s[AWARD_AREA] < s[NAREAS]:
        a = s[AWARD_AREA]
        s[AWARD_AREA] = a + 1
        w = s[AREA_WINNER + a]
        if w < 0:
            continue
        mask = s[po(w) + P_WON_MASK]
        low = mask & -mask
        if w == d:
            if low == (1 << a):
                _receive_card(s, b, w, s[AREA_CARD + a])
            continue
        if mask == (1 << a):
            _receive_card(s, b, w, s[AREA_CARD + a])
            continue
        if b[B_AWARD_LAST]:
            turn = (mask >> (a + 1)) == 0
        else:
            turn = low == (1 << a)
        if turn:
            for k in range(N_CLASSES):
                s[POOL + k] = 0
            for x in range(s[NAREAS]):
                if (mask >> x) & 1:
                    c = s[AREA_CARD + x]
                    for k in range(N_CLASSES):
                        s[POOL + k] += b[B_CARD + 4 * c + k]
            s[PICK_PLANET] = w
            s[PICKS_LEFT] = 3
            s[PHASE] = PH_PICK
            s[TO_MOVE] = w
            return
    # R5.4: every card to the discard pile
    for a in range(s[NAREAS]):
        s[CARD_LOC + s[AREA_CARD + a]] = LOC_DISCARD
    for k in range(N_CLASSES):
        s[POOL + k] = 0
    s[PICK_PLANET] = -1
    s[ENERGY_IDX] = 0
    _energy(s, b)


@inline_kernel
def energy_eligible(s, b, q):
    """R7.1 / A6: won no area (or, with energy_after_empty_win, received no alien)."""
    o = po(q)
    if s[o + P_WON_MASK] == 0:
        return True
    return b[B_ENERGY_EMPTY_WIN] != 0 and s[o + P_GOT_ROUND] == 0


@kernel
def _energy(s, b):
    """R7.2: eligible planets in phase-1 order; the dummy's alien is chosen by the first
    seat, at its place (A7 in_order) or after the seats (last)."""
    n = s[NPLANETS]
    d = s[DUMMY]
    while s[ENERGY_IDX] <= n:
        i = s[ENERGY_IDX]
        if i < n:
            q = s[ORDER1 + i]
            if q == d:
                if not b[B_DUMMY_ENERGY_LAST] and energy_eligible(s, b, d):
                    s[PHASE] = PH_ENERGY
                    s[ENERGY_DUMMY] = 1
                    s[TO_MOVE] = s[FIRST_SEAT]
                    return
            elif energy_eligible(s, b, q):
                s[PHASE] = PH_ENERGY
                s[ENERGY_DUMMY] = 0
                s[TO_MOVE] = q
                return
        elif d >= 0 and b[B_DUMMY_ENERGY_LAST] and energy_eligible(s, b, d):
            s[PHASE] = PH_ENERGY
            s[ENERGY_DUMMY] = 1
            s[TO_MOVE] = s[FIRST_SEAT]
            return
        s[ENERGY_IDX] = i + 1
    s[ENERGY_DUMMY] = 0
    _tokens_back(s, b)
    _start_phase2(s, b)


@kernel
def _energy_alien(s, b, q, k):
    """R7.2 bonus 1: one alien of class ``k`` (nothing if its stock is empty, A36) and a
    force field this round (R7.4)."""
    got = _receive(s, b, q, k)
    o = po(q)
    s[o + P_GOT_ROUND] += got
    s[o + P_RECRUITED] += got
    s[o + P_ENERGY] = 1
    s[o + P_FF] = 1
    s[o + P_ENERGY1] += 1


@kernel
def _tokens_back(s, b):
    """R5.6: tokens back to their owners; a 6 placed this round is used up (R4.8, A3,
    R17.7, R19.12)."""
    returns = b[B_SIX_RETURNS]
    for i in range(s[NAREAS] * SLOTS):
        q = s[SLOT_OWNER + i]
        if q < 0:
            continue
        v = s[SLOT_VAL + i]
        o = po(q)
        if v == 6:
            s[o + P_SIXES_PLAYED] += 1
            if not (returns and s[SLOT_CANCEL + i]):
                s[o + P_SIX_USES] += 1
                if s[o + P_SIX_USES] >= s[o + P_SIX_MAX]:
                    s[o + P_SIX_SPENT] = 1
        s[SLOT_OWNER + i] = -1
    for q in range(s[NPLANETS]):
        o = po(q)
        s[HAND + q] = ALL_TOKENS & ~SIX if s[o + P_SIX_SPENT] else ALL_TOKENS
        s[o + P_NHAND] = TOKENS - 1 if s[o + P_SIX_SPENT] else TOKENS
    for i in range(N_SLOTS):
        s[SLOT_SHOWN + i] = 0
        s[SLOT_VAL + i] = 0
        s[SLOT_CANCEL + i] = 0
        s[SLOT_WAIVED + i] = 0
    for a in range(MAX_AREAS):
        s[AREA_N + a] = 0


# ---- phase 2 (R8-R12) --------------------------------------------------------------------
@kernel
def _start_phase2(s, b):
    """R8.1 order, then the force-field decisions (R8.2) and the turns."""
    _rank(s, 1)
    if s[ORDER2] != s[DUMMY]:
        s[po(s[ORDER2]) + P_FIRST2] += 1
    s[SHIELD_IDX] = 0
    _shields(s, b)


@inline_kernel
def shield_eligible(s, q):
    o = po(q)
    return s[o + P_FF_MIL] >= 0 and s[o + P_FF] == 0 and held(s, q, MILITARY) >= s[o + P_FF_MIL]


@kernel
def _shields(s, b):
    n = s[NPLANETS]
    while s[SHIELD_IDX] < n:
        q = s[ORDER2 + s[SHIELD_IDX]]
        if q != s[DUMMY] and shield_eligible(s, q):
            s[PHASE] = PH_SHIELD
            s[TO_MOVE] = q
            return
        s[SHIELD_IDX] += 1
    s[TURN_IDX] = 0
    _next_turn(s, b)


@inline_kernel
def can_activate(s, b, q, k):
    """R8.3 / R8.4 / A9."""
    if (s[ACTIVATED] >> k) & 1 or s[NACT] >= s[LIMIT]:
        return False
    return held(s, q, k) >= 1 or b[B_EMPTY_GROUP] != 0


@kernel
def _any_activation(s, b, q):
    for k in range(N_CLASSES):
        if can_activate(s, b, q, k):
            return True
    return False


@kernel
def _next_turn(s, b):
    """R8.3: the next seat in phase-2 order takes its turn; the dummy is skipped (R19.10);
    a turn with no activation possible ends at once (R8.8)."""
    n = s[NPLANETS]
    while s[TURN_IDX] < n:
        q = s[ORDER2 + s[TURN_IDX]]
        if q != s[DUMMY]:
            s[ACTIVATED] = 0
            s[NACT] = 0
            s[LIMIT] = 3 if s[po(q) + P_ENERGY] == 2 else 2
            s[GROUP] = -1
            if _any_activation(s, b, q):
                s[PHASE] = PH_TURN
                s[TO_MOVE] = q
                return
        s[TURN_IDX] += 1
    _end_round(s, b)


@inline_kernel
def strict_majority(s, q, c):
    """R10.1: planet ``q`` has more UFOs in city ``c`` than every other planet."""
    mine = s[PLAYER + q * P_STRIDE + P_UFO + c]
    for r in range(s[NPLANETS]):
        if r != q and s[PLAYER + r * P_STRIDE + P_UFO + c] >= mine:
            return False
    return mine > 0


@inline_kernel
def can_abduct_in(s, b, q, c):
    """R10.1 / R17.9 / A13: may ``q`` abduct in city ``c`` (ignoring whether a human is there)."""
    if strict_majority(s, q, c):
        return True
    if has_eff(s, q, EFF_ABDUCT_WITHOUT_MAJORITY):
        return b[B_NOMAJ_PRESENCE] == 0 or s[PLAYER + q * P_STRIDE + P_UFO + c] > 0
    return False


@inline_kernel
def target_ok(s, q, t):
    """R12.2: another planet at the table, no force field, not the previous target (A11:
    or no earlier target)."""
    if t == q or t >= s[NPLANETS] or s[PLAYER + t * P_STRIDE + P_FF] != 0:
        return False
    return not ((s[TARGETS] >> t) & 1)


@inline_kernel
def capture_ok(s, b, t, k):
    """R12.3 / A12: a never-captured token of class ``k``, and not the only one."""
    o = PLAYER + t * P_STRIDE
    own = s[o + P_OWN + k]
    if own < 1:
        return False
    count = own if b[B_LAST_OWN] else own + s[o + P_CAPT + k]
    return count >= 2


@kernel
def _any_group_action(s, b, q):
    """Whether the active group has any action besides END_GROUP (R8.7)."""
    g = s[GROUP]
    o = po(q)
    if g == PILOTS:
        if s[BUDGET] <= 0:
            return False
        for c in range(N_CITIES):
            if s[o + P_UFO + c] > s[o + P_FROZEN + c] and b[B_NDEG + c] > 0:
                return True
        return False
    if g == ABDUCTORS:
        if s[BUDGET] <= 0:
            return False
        swap = has_eff(s, q, EFF_SWAP_HUMAN)
        for c in range(N_CITIES):
            if not can_abduct_in(s, b, q, c):
                continue
            if s[CITY_HUMAN + c] >= 0:
                return True
            if swap and b[B_SWAP_EMPTY]:
                for k in range(b[B_NDEG + c]):
                    if s[CITY_HUMAN + b[B_NB + c * MAX_DEGREE + k]] >= 0:
                        return True
        return False
    if g == BUILDERS:
        return s[LAUNCHES] < 2 and s[o + P_PAD] > 0
    if s[BUDGET] <= 0:
        return False
    for t in range(s[NPLANETS]):
        if not target_ok(s, q, t):
            continue
        for k in range(N_CLASSES):
            if capture_ok(s, b, t, k):
                return True
        ot = po(t)
        for c in range(N_CITIES):
            if s[o + P_UFO + c] > 0 and s[ot + P_UFO + c] > 0:
                return True
    return False


@kernel
def _activate(s, b, q, k):
    """R8.6: the group's budget is fixed at activation."""
    o = po(q)
    s[ACTIVATED] |= 1 << k
    s[NACT] += 1
    s[GROUP] = k
    s[LAUNCHES] = 0
    s[LAST_TARGET] = -1
    s[TARGETS] = 0
    s[ATTACKS] = 0
    s[MOVES_MADE] = 0
    h = held(s, q, k)
    s[GROUP_BASE] = h
    if k == PILOTS:
        extra = 0
        if s[o + P_EXTRA_MOVES] > 0 and h >= s[o + P_EXTRA_MIN]:
            extra = s[o + P_EXTRA_MOVES]
        s[BUDGET] = h + extra
    elif k == ABDUCTORS:
        s[BUDGET] = h // 2
    elif k == BUILDERS:
        s[BUDGET] = min(2, s[o + P_PAD])
    else:
        s[BUDGET] = (h - s[o + P_PARKED]) // 3
    s[PHASE] = PH_GROUP
    s[TO_MOVE] = q
    if not _any_group_action(s, b, q):
        _end_group(s, b, q)


@kernel
def try_map(s, b, q, c):
    """R9.4-R9.6: ``q`` maps ``c`` if it never did and has at least the threshold of UFOs
    there (2 on an unmapped city, 3 on a mapped one, the card's number with map_threshold);
    its UFOs there freeze for the round."""
    o = po(q)
    if (s[o + P_MAPPED] >> c) & 1:
        return
    thr = s[o + P_MAP_THR]
    if thr <= 0:
        thr = 2 if s[MAP_COUNT + c] == 0 else 3
    if s[o + P_UFO + c] >= thr:
        s[o + P_MAPPED] |= 1 << c
        s[o + P_NMAPPED] += 1
        s[MAP_COUNT + c] += 1
        s[o + P_FROZEN + c] = s[o + P_UFO + c]


@kernel
def _end_group(s, b, q):
    """R8.7; with map_check=end_of_group (A8) the Pilots' cities are checked now, in
    number order. Then the next activation, or the end of the turn (R8.8)."""
    if s[GROUP] == PILOTS and b[B_MAP_END_GROUP]:
        for c in range(N_CITIES):
            try_map(s, b, q, c)
    s[GROUP] = -1
    s[BUDGET] = 0
    if _any_activation(s, b, q):
        s[PHASE] = PH_TURN
        s[TO_MOVE] = q
        return
    s[TURN_IDX] += 1
    _next_turn(s, b)


@kernel
def _after_group_action(s, b, q):
    if not _any_group_action(s, b, q):
        _end_group(s, b, q)


@kernel
def _end_round(s, b):
    """R13: refill the cities from the track, reset the round's marks; R14: end?"""
    for c in range(N_CITIES):
        if s[CITY_HUMAN + c] < 0 and s[TRACK_POS] < N_KINDS:
            s[CITY_HUMAN + c] = s[TRACK + s[TRACK_POS]]
            s[TRACK + s[TRACK_POS]] = -1
            s[TRACK_POS] += 1
    for q in range(s[NPLANETS]):
        o = po(q)
        s[o + P_ENERGY] = 0
        s[o + P_FF] = 0
        s[o + P_PARKED] = 0
        for c in range(N_CITIES):
            s[o + P_FROZEN + c] = 0
    s[ACTIVATED] = 0
    s[NACT] = 0
    s[GROUP] = -1
    s[BUDGET] = 0
    s[TURN_IDX] = 0
    ended = False
    for k in range(N_CLASSES):
        if s[STOCK + k] == 0:
            ended = True
    if not ended and s[ROUND] >= b[B_MAX_ROUNDS]:
        s[CAPPED] = 1
        ended = True
    if ended:
        _final_scoring(s, b)
    else:
        s[PHASE] = -1  # the next round is started by apply_action (it needs the chance stream)


# ---- final scoring (R15, R16, R18) ----------------------------------------------------------
@inline_kernel
def scoring_count(s, b, q, k):
    """Aliens of class ``k`` that count at the end (A15)."""
    o = po(q)
    if b[B_CAPTURED_SCORING]:
        return s[o + P_OWN + k] + s[o + P_CAPT + k]
    return s[o + P_OWN + k]


@inline_kernel
def counts_at_end(s, b, r):
    """Whether planet ``r`` takes part in end-of-game comparisons (A23)."""
    return r != s[DUMMY] or b[B_DUMMY_BLOCKS] != 0


@kernel
def controls(s, b, q, c):
    """R15.3: strictly more UFOs in ``c`` than every other planet (the dummy per A23)."""
    mine = s[po(q) + P_UFO + c]
    if mine <= 0:
        return False
    for r in range(s[NPLANETS]):
        if r != q and counts_at_end(s, b, r) and s[po(r) + P_UFO + c] >= mine:
            return False
    return True


@kernel
def human_points(b, h0, h1, h2, h3, h4, h5):
    """R15.5: 1/3/6 per kind for 1/2/3 pieces, plus 10 for 5 kinds or 15 for 6."""
    pts = 0
    kinds = 0
    for n in (h0, h1, h2, h3, h4, h5):
        if n > 0:
            kinds += 1
            pts += b[B_SC_SAME + min(n, 3) - 1]
    if kinds == 6:
        pts += b[B_SC_SIX]
    elif kinds == 5:
        pts += b[B_SC_FIVE]
    return pts


@kernel
def mission_state_ok(s, b, q, m):
    """R18.2, the requirements that are states (airspace, holdings, mappings, UFOs)."""
    o = po(q)
    r = B_MIS + m * MIS_STRIDE
    any_parity = b[B_PARITY_ANY]
    if b[r + M_AIR_N] > 0:
        n = 0
        for c in range(N_CITIES):
            if (any_parity or b[r + M_AIR_PAR] == PARITY_ANY or (b[B_EVEN + c] == 1) == (b[r + M_AIR_PAR] == PARITY_EVEN)) \
                    and controls(s, b, q, c):
                n += 1
        if n < b[r + M_AIR_N]:
            return False
    for k in range(N_CLASSES):
        if scoring_count(s, b, q, k) < b[r + M_ALI + k]:
            return False
    if b[r + M_MAP_N] > 0:
        n = 0
        for c in range(N_CITIES):
            if (s[o + P_MAPPED] >> c) & 1 and (any_parity or b[r + M_MAP_PAR] == PARITY_ANY
                                               or (b[B_EVEN + c] == 1) == (b[r + M_MAP_PAR] == PARITY_EVEN)):
                n += 1
        if n < b[r + M_MAP_N]:
            return False
    if b[r + M_UFOS] > 0:
        have = s[o + P_LAUNCHED] if b[B_MISSION_LAUNCHED] else s[o + P_ON_BOARD]
        if have < b[r + M_UFOS]:
            return False
    return True


@kernel
def mission_pieces_ok(s, b, q, m, m2):
    """R18.2 humans and captures; with a second mission ``m2`` >= 0, both needs added (A20)."""
    o = po(q)
    r = B_MIS + m * MIS_STRIDE
    r2 = B_MIS + m2 * MIS_STRIDE
    for j in range(N_KINDS):
        need = b[r + M_HUM + j] + (b[r2 + M_HUM + j] if m2 >= 0 else 0)
        if s[o + P_HUMANS + j] < need:
            return False
    for k in range(N_CLASSES):
        need = b[r + M_CAP + k] + (b[r2 + M_CAP + k] if m2 >= 0 else 0)
        if s[o + P_CAPT + k] < need:
            return False
    return True


@kernel
def mission_done(s, b, q, m):
    return mission_state_ok(s, b, q, m) and mission_pieces_ok(s, b, q, m, -1)


@kernel
def score_seat(s, b, q):
    """R15.1-R15.7 for seat ``q``, written into its point categories; returns the score."""
    o = po(q)
    n = s[NPLANETS]
    # R15.1 majorities
    maj = 0
    for k in range(N_CLASSES):
        top = 0
        for r in range(n):
            if counts_at_end(s, b, r):
                top = max(top, scoring_count(s, b, r, k))
        if top > 0 and scoring_count(s, b, q, k) == top:
            tied = 0
            for r in range(n):
                if counts_at_end(s, b, r) and scoring_count(s, b, r, k) == top:
                    tied += 1
            maj += b[B_SC_MAJORITY] // tied
    # R15.2 UFOs, R17.10
    ufos = s[o + P_ON_BOARD] * s[o + P_UFO_PTS] + s[o + P_PAD] * b[B_SC_UFO_PAD]
    # R15.3 airspace
    ctrl = 0
    for c in range(N_CITIES):
        if controls(s, b, q, c):
            ctrl += 1
    air = ctrl * b[B_SC_AIRSPACE]
    # R15.4 mapping, R17.8
    mapping = s[o + P_NMAPPED] * s[o + P_MAP_PTS]
    # R15.5 humans
    hum = human_points(b, s[o + P_HUMANS + 0], s[o + P_HUMANS + 1], s[o + P_HUMANS + 2], s[o + P_HUMANS + 3],
                       s[o + P_HUMANS + 4], s[o + P_HUMANS + 5])
    # R15.6 missions (R18.3 / A20)
    kept = s[KEPT + q]
    m1 = -1
    m2 = -1
    for i in range(3):
        if (kept >> i) & 1:
            if m1 < 0:
                m1 = s[MISSIONS + q * 3 + i]
            else:
                m2 = s[MISSIONS + q * 3 + i]
    d1 = 0
    d2 = 0
    if m1 >= 0:
        d1 = 1 if mission_done(s, b, q, m1) else 0
    if m2 >= 0:
        d2 = 1 if mission_done(s, b, q, m2) else 0
        if b[B_OVERLAP_ADDITIVE] and d1 == 1 and d2 == 1 and not mission_pieces_ok(s, b, q, m1, m2):
            d2 = 0  # only the first in slot order
    mis = 0
    if m1 >= 0:
        mis += b[B_SC_DONE] if d1 else b[B_SC_FAILED]
    if m2 >= 0:
        mis += b[B_SC_DONE] if d2 else b[B_SC_FAILED]
    s[o + P_M1] = m1
    s[o + P_M2] = m2
    s[o + P_M1_DONE] = d1 if m1 >= 0 else -1
    s[o + P_M2_DONE] = d2 if m2 >= 0 else -1
    s[o + P_MDONE] = d1 + d2
    s[o + P_CONTROLLED] = ctrl
    kinds = 0
    for j in range(N_KINDS):
        if s[o + P_HUMANS + j] > 0:
            kinds += 1
    s[o + P_KINDS] = kinds
    for k in range(N_CLASSES):
        s[o + P_HELD_END + k] = held(s, q, k)
    s[o + P_PTS + 0] = maj
    s[o + P_PTS + 1] = ufos
    s[o + P_PTS + 2] = air
    s[o + P_PTS + 3] = mapping
    s[o + P_PTS + 4] = hum
    s[o + P_PTS + 5] = mis
    # K3 (compensation, not in the rulebook): seat_bonus_points per seat that chose its
    # starting aliens before this one
    total = maj + ufos + air + mapping + hum + mis + start_position(b, s[PLAYERS], q) * b[B_SEAT_BONUS]
    s[o + P_SCORE] = total
    return total


@kernel
def _final_scoring(s, b):
    """R15 for every seat, R16 winners: score, then UFOs on the board, then humans; a
    remaining tie shares the win (A37); a capped game with cap_result=draw has none."""
    players = s[PLAYERS]
    for q in range(players):
        score_seat(s, b, q)
    if s[DUMMY] >= 0:
        d = s[DUMMY]
        s[DUMMY_ALIENS] = held(s, d, 0) + held(s, d, 1) + held(s, d, 2) + held(s, d, 3)
    winners = 0
    if not (s[CAPPED] and b[B_CAP_DRAW]):
        best = -1
        for q in range(players):
            o = po(q)
            key = (s[o + P_SCORE] + 1000) * 1_000_000 + s[o + P_ON_BOARD] * 1000 + s[o + P_NHUMANS]
            if key > best:
                best = key
        for q in range(players):
            o = po(q)
            key = (s[o + P_SCORE] + 1000) * 1_000_000 + s[o + P_ON_BOARD] * 1000 + s[o + P_NHUMANS]
            if key == best:
                s[o + P_WON] = 1
                winners += 1
    s[WINNERS] = winners
    s[DRAWN] = 1 if winners != 1 else 0
    s[OVER] = 1
    s[PHASE] = PH_OVER
    s[TO_MOVE] = 0


# ---- the protocol -------------------------------------------------------------------------
@kernel
def legal_actions(s, b, out):
    """The legal actions of the seat to move (D3)."""
    n = 0
    ph = s[PHASE]
    q = s[TO_MOVE]
    if ph == PH_PLACE:
        p = s[PLACE_PLANET]
        m, _ = placement_areas(s, b, p)
        if p == s[DUMMY]:
            for a in range(s[NAREAS]):
                if (m >> a) & 1:
                    out[n] = A_PLACE_DUMMY + a
                    n += 1
            return n
        hand = s[HAND + p]
        for a in range(s[NAREAS]):
            if (m >> a) & 1:
                for v in range(2, 7):
                    if (hand >> v) & 1:
                        out[n] = A_PLACE + a * TOKENS + v - 2
                        n += 1
        return n
    if ph == PH_GROUP:
        o = po(q)
        g = s[GROUP]
        if g == PILOTS:
            if s[BUDGET] > 0:
                for f in range(N_CITIES):
                    if s[o + P_UFO + f] > s[o + P_FROZEN + f]:
                        for k in range(b[B_NDEG + f]):
                            out[n] = A_MOVE + f * N_CITIES + b[B_NB + f * MAX_DEGREE + k]
                            n += 1
        elif g == ABDUCTORS:
            if s[BUDGET] > 0:
                swap = has_eff(s, q, EFF_SWAP_HUMAN)
                for c in range(N_CITIES):
                    if not can_abduct_in(s, b, q, c):
                        continue
                    here = s[CITY_HUMAN + c] >= 0
                    if here:
                        out[n] = A_ABDUCT + c * N_CITIES + c
                        n += 1
                    if swap and (here or b[B_SWAP_EMPTY]):
                        for k in range(b[B_NDEG + c]):
                            dd = b[B_NB + c * MAX_DEGREE + k]
                            if s[CITY_HUMAN + dd] >= 0:
                                out[n] = A_ABDUCT + c * N_CITIES + dd
                                n += 1
        elif g == BUILDERS:
            if s[LAUNCHES] < 2 and s[o + P_PAD] > 0:
                for c in range(N_CITIES):
                    out[n] = A_LAUNCH + c
                    n += 1
        else:
            if s[BUDGET] > 0:
                for t in range(s[NPLANETS]):
                    if not target_ok(s, q, t):
                        continue
                    for k in range(N_CLASSES):
                        if capture_ok(s, b, t, k):
                            out[n] = A_CAPTURE + t * N_CLASSES + k
                            n += 1
                    ot = po(t)
                    for c in range(N_CITIES):
                        if s[o + P_UFO + c] > 0 and s[ot + P_UFO + c] > 0:
                            out[n] = A_DESTROY + t * N_CITIES + c
                            n += 1
        out[n] = A_END_GROUP
        return n + 1
    if ph == PH_TURN:
        for k in range(N_CLASSES):
            if can_activate(s, b, q, k):
                out[n] = A_ACTIVATE + k
                n += 1
        out[n] = A_END_TURN
        return n + 1
    if ph == PH_PICK:
        for k in range(N_CLASSES):
            if s[POOL + k] > 0:
                out[n] = A_PICK + k
                n += 1
        return n
    if ph == PH_ENERGY:
        if s[ENERGY_DUMMY]:
            for k in range(N_CLASSES):
                out[n] = A_DUMMY_ALIEN + k
                n += 1
            return n
        for k in range(N_CLASSES):
            out[n] = A_ENERGY_ALIEN + k
            n += 1
        out[n] = A_ENERGY_THREE
        return n + 1
    if ph == PH_SHIELD:
        out[0] = A_SHIELD
        out[1] = A_SHIELD + 1
        return 2
    if ph == PH_KEEP:
        for i in range(6):
            out[i] = A_KEEP + i
        return 6
    if ph == PH_START:
        if s[po(q) + P_START_N] == 3:
            for k in range(N_CLASSES):
                out[k] = A_START_TRIPLE + k
            return N_CLASSES
        for i in range(6):
            if not (s[PAIRS_TAKEN] >> i) & 1:
                out[n] = A_START_PAIR + i
                n += 1
        return n
    if ph == PH_DUMMY_START:
        first = s[DUMMY_FIRST]
        for k in range(N_CLASSES):
            if first >= 0 and not b[B_DUMMY_FREE]:
                if k == first or (s[PAIRS_TAKEN] >> _pair_id(first, k)) & 1:
                    continue
            out[n] = A_DUMMY_ALIEN + k
            n += 1
        return n
    return 0


@inline_kernel
def _pair_id(x, y):
    lo = min(x, y)
    hi = max(x, y)
    if lo == 0:
        return hi - 1
    if lo == 1:
        return hi + 1
    return 5


@kernel
def apply_action(s, rng, b, a):
    """One decision of the seat to move, then every automatic step up to the next
    decision. Chance (D4) is drawn only when a round starts."""
    s[CHANCE_N] = 0
    q = s[TO_MOVE]
    ph = s[PHASE]
    if ph == PH_PLACE:
        p = s[PLACE_PLANET]
        if a >= A_PLACE_DUMMY:
            area = a - A_PLACE_DUMMY
            v = s[DQ + s[DQ_POS]]
            s[DQ_POS] += 1
        else:
            area = (a - A_PLACE) // TOKENS
            v = (a - A_PLACE) % TOKENS + 2
        _place(s, b, p, area, v, s[PLACE_WAIVE])
        s[PLACE_TURN] += 1
        _advance_place(s, b)
    elif ph == PH_GROUP:
        o = po(q)
        if a == A_END_GROUP:
            _end_group(s, b, q)
        elif a < A_ABDUCT:  # MOVE (R9.1)
            f = (a - A_MOVE) // N_CITIES
            t = (a - A_MOVE) % N_CITIES
            s[o + P_UFO + f] -= 1
            s[o + P_UFO + t] += 1
            s[BUDGET] -= 1
            s[MOVES_MADE] += 1
            if s[MOVES_MADE] > s[GROUP_BASE]:
                s[o + P_EXTRA_USED] += 1
            if not b[B_MAP_END_GROUP]:
                try_map(s, b, q, t)
            _after_group_action(s, b, q)
        elif a < A_LAUNCH:  # ABDUCT (R10.1, R17.4, R17.9)
            c = (a - A_ABDUCT) // N_CITIES
            dd = (a - A_ABDUCT) % N_CITIES
            if not strict_majority(s, q, c):
                s[o + P_NOMAJ_ABD] += 1
            if dd != c:
                h = s[CITY_HUMAN + c]
                s[CITY_HUMAN + c] = s[CITY_HUMAN + dd]
                s[CITY_HUMAN + dd] = h
                s[o + P_SWAPS] += 1
            k = s[CITY_HUMAN + c]
            s[CITY_HUMAN + c] = -1
            s[o + P_HUMANS + k] += 1
            s[o + P_NHUMANS] += 1
            s[BUDGET] -= 1
            _after_group_action(s, b, q)
        elif a < A_CAPTURE:  # LAUNCH (R11.1)
            c = a - A_LAUNCH
            s[o + P_PAD] -= 1
            s[o + P_UFO + c] += 1
            s[o + P_ON_BOARD] += 1
            s[o + P_LAUNCHED] += 1
            s[LAUNCHES] += 1
            s[BUDGET] -= 1
            try_map(s, b, q, c)
            _after_group_action(s, b, q)
        else:  # CAPTURE (R12.3) or DESTROY (R12.4)
            if a < A_DESTROY:
                t = (a - A_CAPTURE) // N_CLASSES
                k = (a - A_CAPTURE) % N_CLASSES
                ot = po(t)
                before = held(s, q, BUILDERS)
                s[ot + P_OWN + k] -= 1
                s[o + P_CAPT + k] += 1
                s[ot + P_CAPTURED_FROM] += 1
                s[o + P_CAPTURES] += 1
                if k == BUILDERS:
                    _builders_gained(s, b, q, before)
            else:
                t = (a - A_DESTROY) // N_CITIES
                c = (a - A_DESTROY) % N_CITIES
                ot = po(t)
                if s[ot + P_UFO + c] <= s[ot + P_FROZEN + c]:
                    s[ot + P_FROZEN + c] -= 1  # A24: an unfrozen UFO goes first
                s[ot + P_UFO + c] -= 1
                s[ot + P_ON_BOARD] -= 1
                s[ot + P_RESERVE] += 1
                s[o + P_DESTROYED] += 1
                s[ot + P_LOST] += 1
            s[LAST_TARGET] = t
            s[ATTACKS] += 1
            if b[B_TARGETS_ALL_DIFFERENT]:
                s[TARGETS] |= 1 << t
            else:
                s[TARGETS] = 1 << t
            s[BUDGET] -= 1
            if b[B_ATTACKS_DYNAMIC] and a < A_DESTROY and (a - A_CAPTURE) % N_CLASSES == MILITARY:
                s[BUDGET] = max(0, (held(s, q, MILITARY) - s[o + P_PARKED]) // 3 - s[ATTACKS])
            _after_group_action(s, b, q)
    elif ph == PH_TURN:
        if a == A_END_TURN:
            s[TURN_IDX] += 1
            _next_turn(s, b)
        else:
            _activate(s, b, q, a - A_ACTIVATE)
    elif ph == PH_PICK:
        k = a - A_PICK
        s[POOL + k] -= 1
        got = _receive(s, b, q, k)
        o = po(q)
        s[o + P_GOT_ROUND] += got
        s[o + P_RECRUITED] += got
        s[PICKS_LEFT] -= 1
        if s[PICKS_LEFT] == 0:
            s[PHASE] = PH_ENERGY  # transitional; _awards sets the next decision
            _awards(s, b)
    elif ph == PH_ENERGY:
        if s[ENERGY_DUMMY]:
            _energy_alien(s, b, s[DUMMY], a - A_DUMMY_ALIEN)
        elif a == A_ENERGY_THREE:
            o = po(q)
            s[o + P_ENERGY] = 2
            s[o + P_ENERGY2] += 1
        else:
            _energy_alien(s, b, q, a - A_ENERGY_ALIEN)
        s[ENERGY_IDX] += 1
        _energy(s, b)
    elif ph == PH_SHIELD:
        if a == A_SHIELD + 1:
            o = po(q)
            s[o + P_PARKED] = s[o + P_FF_MIL]
            s[o + P_FF] = 1
            s[o + P_SHIELD_ROUNDS] += 1
        s[SHIELD_IDX] += 1
        _shields(s, b)
    elif ph == PH_KEEP:
        i = a - A_KEEP
        s[KEPT + q] = (1 << i) if i < 3 else (7 & ~(1 << (i - 3)))
        s[po(q) + P_NKEPT] = 1 if i < 3 else 2
        if q + 1 < s[PLAYERS]:
            s[TO_MOVE] = q + 1
        else:
            s[PHASE] = PH_START
            # K1 (compensation, not in the rulebook): the last seat chooses first
            s[TO_MOVE] = s[PLAYERS] - 1 if b[B_START_REVERSED] else 0
    elif ph == PH_START:
        if a >= A_START_TRIPLE:
            skip = a - A_START_TRIPLE
            for k in range(N_CLASSES):
                if k != skip:
                    _receive(s, b, q, k)
        else:
            i = a - A_START_PAIR
            _receive(s, b, q, PAIR_A[i])
            _receive(s, b, q, PAIR_B[i])
            s[PAIRS_TAKEN] |= 1 << i
        if b[B_START_REVERSED] and q > 0:  # K1: from the last seat back to seat 0
            s[TO_MOVE] = q - 1
        elif not b[B_START_REVERSED] and q + 1 < s[PLAYERS]:
            s[TO_MOVE] = q + 1
        elif s[DUMMY] >= 0:
            s[PHASE] = PH_DUMMY_START
            s[TO_MOVE] = 0
        else:
            _finish_setup(s, rng, b)
    elif ph == PH_DUMMY_START:
        k = a - A_DUMMY_ALIEN
        _receive(s, b, s[DUMMY], k)
        if q == 0:
            s[DUMMY_FIRST] = k
            s[TO_MOVE] = 1
        else:
            _finish_setup(s, rng, b)
    if s[PHASE] == -1:
        _start_round(s, rng, b)


@inline_kernel
def to_move(s):
    return s[TO_MOVE]


@inline_kernel
def is_over(s):
    return s[OVER] != 0


@kernel
def observe(s, b, seat, out):
    """What ``seat`` may see (Information): the public view, its hand, its missions and
    its own face-down tokens; for every planet, its tokens not showing face up."""
    for i in range(VIEW_SIZE):
        out[i] = s[i]
    out[O_SEAT] = seat
    out[O_HAND] = s[HAND + seat]
    placing = s[PHASE] == PH_PLACE
    for q in range(MAX_PLANETS):
        out[O_UNSEEN + q] = s[HAND + q]
    if placing:
        for i in range(N_SLOTS):
            q = s[SLOT_OWNER + i]
            if q >= 0 and i % 2 == 0:
                out[O_UNSEEN + q] |= 1 << s[SLOT_VAL + i]
                if q == seat:
                    out[SLOT_SHOWN + i] = s[SLOT_VAL + i]
    kept = s[KEPT + seat]
    out[O_KEPT] = kept
    for i in range(3):
        m = -1
        if seat < s[PLAYERS] and (kept == 0 or (kept >> i) & 1):
            m = s[MISSIONS + seat * 3 + i]
        out[O_MISSIONS + i] = m


def hidden_variants(s, b, seat, rng):
    """Copies of ``s`` that differ only in what ``seat`` may not see: other planets'
    face-down values and hands (and the dummy's queue), the deck order, other seats'
    missions, the chance log (for the conformance suite)."""
    s = np.asarray(s)
    for _ in range(3):
        t = s.copy()
        players = int(t[PLAYERS])
        n = int(t[NPLANETS])
        if t[PHASE] == PH_PLACE:
            for q in range(n):
                if q == seat and q != t[DUMMY]:
                    continue
                slots = [i for i in range(N_SLOTS) if t[SLOT_OWNER + i] == q and i % 2 == 0]
                values = [int(t[SLOT_VAL + i]) for i in slots]
                hand = [v for v in range(2, 7) if (t[HAND + q] >> v) & 1]
                if q == t[DUMMY]:
                    hand = [int(t[DQ + k]) for k in range(int(t[DQ_POS]), int(t[DQ_LEN]))]
                pool = values + hand
                rng.shuffle(pool)
                for i, v in zip(slots, pool):
                    t[SLOT_VAL + i] = v
                rest = pool[len(slots):]
                t[HAND + q] = sum(1 << v for v in rest)
                if q == t[DUMMY]:
                    for k, v in enumerate(rest):
                        t[DQ + int(t[DQ_POS]) + k] = v
        lo, hi = int(t[DECK_POS]), int(t[DECK_LEN])
        t[DECK + lo:DECK + hi] = rng.permutation(t[DECK + lo:DECK + hi])
        nm = int(b[B_NMIS])
        for q in range(players):
            if q == seat:
                continue
            ids = rng.choice(nm, size=3, replace=False)
            t[MISSIONS + 3 * q:MISSIONS + 3 * q + 3] = ids
            if t[KEPT + q]:
                keep = int(t[po(q) + P_NKEPT])
                slots = rng.choice(3, size=keep, replace=False)
                t[KEPT + q] = sum(1 << int(i) for i in slots)
        t[CHANCE_LOG:CHANCE_LOG + CHANCE_LOG_SIZE] = rng.integers(0, 16, CHANCE_LOG_SIZE)
        t[CHANCE_N] = rng.integers(0, CHANCE_LOG_SIZE)
        yield t
