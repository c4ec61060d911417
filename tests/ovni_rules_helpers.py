"""Shared helpers for the O.V.N.I. rules tests (tests/test_ovni_rules_*.py): names of the
stand-in components, the compiled engine functions the tests call directly, and the
position builders.

Positions are written into the engine's state vector (built-in stand-in board and
decks), then the compiled step function plays the actions. Rule numbers refer to
docs/rules/ovni.md. Cities are the engine's indices (number - 1); classes P, A, B, M
are 0-3; human kinds follow decks.toml (politico 0 ... superdotado 5).
"""

from __future__ import annotations

from simkit.games.ovni import Rules
from simkit.games.ovni import board as B
from simkit.games.ovni import describe as D
from simkit.games.ovni import engine as E
from simkit.games.ovni.params import OVNIParams
from simkit.jit import entry

NAMES = B.names(OVNIParams())
CITY = {name: i for i, name in enumerate(NAMES["cities"])}
KIND = {k: i for i, k in enumerate(NAMES["kinds"])}
COLOUR = {c: i for i, c in enumerate(NAMES["colours"])}
CARD = {label: i for i, label in enumerate(NAMES["cards"])}
ABIL = {name: i for i, name in enumerate(NAMES["abilities"])}
P, A, BLD, M = range(4)

rank = entry(E._rank)
receive = entry(E._receive)
score_seat = entry(E.score_seat)
human_points = entry(E.human_points)
final_scoring = entry(E._final_scoring)
mission_done = entry(E.mission_done)


# ---- helpers ---------------------------------------------------------------------------------
def off(q, field, k=0):
    return E.PLAYER + q * E.P_STRIDE + field + k


def get(st, q, field, k=0):
    return int(st.s[off(q, field, k)])


def put(st, q, field, value, k=0):
    st.s[off(q, field, k)] = value


def act(rules, st, *t):
    rules.step(st, D.action_id(tuple(t)))


def legal(rules, st):
    return {D.semantic(a) for a in rules.legal(st)}


def holding(st, q, k):
    return get(st, q, E.P_OWN, k) + get(st, q, E.P_CAPT, k)


def set_aliens(st, q, counts, captured=(0, 0, 0, 0)):
    """Planet ``q`` holds ``counts`` (P, A, B, M) never-captured aliens plus ``captured``;
    the stock absorbs the difference."""
    for k in range(4):
        before = get(st, q, E.P_OWN, k) + get(st, q, E.P_CAPT, k)
        put(st, q, E.P_OWN, counts[k], k)
        put(st, q, E.P_CAPT, captured[k], k)
        st.s[E.STOCK + k] -= counts[k] + captured[k] - before


def neutral(st):
    """No ability card effects (tests give the ones they need)."""
    for q in range(int(st.s[E.NPLANETS])):
        put(st, q, E.P_EFF, 0)
        put(st, q, E.P_START_N, 2)
        put(st, q, E.P_MAP_THR, 0)
        put(st, q, E.P_PREBUILT, 0)
        put(st, q, E.P_EXTRA_MOVES, 0)
        put(st, q, E.P_FF_MIL, -1)
        put(st, q, E.P_SIX_MAX, 1)
        put(st, q, E.P_MAP_PTS, 3)
        put(st, q, E.P_UFO_PTS, 2)


def give(st, q, name):
    """Seat ``q`` holds the ability card ``name`` (its effect and numbers)."""
    card = ABIL[name]
    b = st.b
    e = int(b[B.B_ABIL_EFFECT + card])
    p1 = int(b[B.B_ABIL_P1 + card])
    p2 = int(b[B.B_ABIL_P2 + card])
    put(st, q, E.P_EFF, get(st, q, E.P_EFF) | (1 << e))
    field = {B.EFF_STARTING_ALIENS: E.P_START_N, B.EFF_MAP_THRESHOLD: E.P_MAP_THR, B.EFF_EXTRA_MOVES: E.P_EXTRA_MOVES,
             B.EFF_PREBUILT_UFO: E.P_PREBUILT,
             B.EFF_FORCE_FIELD: E.P_FF_MIL, B.EFF_SIX_USES: E.P_SIX_MAX, B.EFF_MAPPING_POINTS: E.P_MAP_PTS,
             B.EFF_UFO_POINTS: E.P_UFO_PTS}.get(e)
    if field is not None:
        put(st, q, field, p1)
    if e == B.EFF_EXTRA_MOVES:
        put(st, q, E.P_EXTRA_MIN, p2)


def clear_board(st):
    """Every UFO back in its reserve, no pads, no mapping, no human in any city."""
    s = st.s
    ufos = int(st.b[B.B_UFOS])
    for q in range(int(s[E.NPLANETS])):
        for c in range(12):
            put(st, q, E.P_UFO, 0, c)
            put(st, q, E.P_FROZEN, 0, c)
        put(st, q, E.P_ON_BOARD, 0)
        put(st, q, E.P_PAD, 0)
        put(st, q, E.P_RESERVE, ufos)
        put(st, q, E.P_MAPPED, 0)
        put(st, q, E.P_NMAPPED, 0)
    s[E.MAP_COUNT:E.MAP_COUNT + 12] = 0
    s[E.CITY_HUMAN:E.CITY_HUMAN + 12] = -1


def ufos(st, q, city, n):
    put(st, q, E.P_RESERVE, get(st, q, E.P_RESERVE) - (n - get(st, q, E.P_UFO, city)))
    put(st, q, E.P_ON_BOARD, get(st, q, E.P_ON_BOARD) + n - get(st, q, E.P_UFO, city))
    put(st, q, E.P_UFO, n, city)


def mapped(st, q, city):
    put(st, q, E.P_MAPPED, get(st, q, E.P_MAPPED) | (1 << city))
    put(st, q, E.P_NMAPPED, get(st, q, E.P_NMAPPED) + 1)
    st.s[E.MAP_COUNT + city] += 1


def setup_done(players=4, seed=1, **settings):
    """A game after its set-up decisions (each seat keeps its first mission, takes the
    first legal pair or triple; the dummy's aliens are the first legal)."""
    rules = Rules(players=players, **settings)
    st = rules.new(seed)
    while st.s[E.PHASE] in (E.PH_KEEP, E.PH_START, E.PH_DUMMY_START):
        rules.step(st, int(rules.legal(st)[0]))
    return rules, st


def phase2(players=4, seed=1, seat=0, limit=2, **settings):
    """A real position at the start of phase 2 of round 1, then rewritten: no ability
    effects, an empty board, ``seat`` to activate groups."""
    rules, st = setup_done(players, seed, **settings)
    while st.s[E.PHASE] != E.PH_TURN:
        rules.step(st, int(rules.legal(st)[-1 if st.s[E.PHASE] == E.PH_ENERGY else 0]))
    neutral(st)
    clear_board(st)
    s = st.s
    n = int(s[E.NPLANETS])
    for q in range(n):
        put(st, q, E.P_FF, 0)
        put(st, q, E.P_ENERGY, 0)
        set_aliens(st, q, (0, 0, 0, 0))
    order = [seat] + [q for q in range(n) if q != seat]
    s[E.ORDER2:E.ORDER2 + n] = order
    s[E.TURN_IDX] = 0
    s[E.TO_MOVE] = seat
    s[E.ACTIVATED] = 0
    s[E.NACT] = 0
    s[E.LIMIT] = limit
    s[E.GROUP] = -1
    return rules, st


def place_round(players=4, seed=1, order=(0, 1, 2, 3), cards=None, **settings):
    """Round 1's placement with a chosen phase-1 order and chosen cards (labels)."""
    rules, st = setup_done(players, seed, **settings)
    neutral(st)
    s = st.s
    n = int(s[E.NPLANETS])
    s[E.ORDER1:E.ORDER1 + n] = order
    seats = [q for q in order if q != int(s[E.DUMMY])]
    s[E.FIRST_SEAT], s[E.SECOND_SEAT] = seats[0], seats[1]
    if cards:
        for a, label in enumerate(cards):
            old = int(s[E.AREA_CARD + a])
            s[E.CARD_LOC + old] = E.LOC_DECK
        for a, label in enumerate(cards):
            s[E.AREA_CARD + a] = CARD[label]
            s[E.CARD_LOC + CARD[label]] = E.LOC_AREA
    s[E.PLACE_TURN] = 0
    q, seat = entry(E._turn_planet)(s, 0)
    s[E.PLACE_PLANET] = q
    s[E.TO_MOVE] = seat
    return rules, st


def observe(rules, st, seat):
    return rules.observe(st, seat)


def end_position(players=4, **settings):
    rules, st = phase2(players, **settings)
    for q in range(int(st.s[E.PLAYERS])):
        st.s[E.KEPT + q] = 0
    return rules, st
