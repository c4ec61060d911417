"""Position-building helpers for the Escape From the Aliens tests: deal a character, place a
seat, give items, stack a deck, start a turn, read the events. They edit the engine's state
through its layout names, keeping every card in exactly one place (the invariants hold)."""

from __future__ import annotations

import numpy as np

from simkit.games.eftaios import Rules
from simkit.games.eftaios import board as B
from simkit.games.eftaios import data_model as dm
from simkit.games.eftaios import engine as E

S = dm.sector_id
CHAR = {"captain": 0, "pilot": 1, "psychologist": 2, "soldier": 3, "alien1": 4, "alien2": 5, "alien3": 6, "alien4": 7}
ITEM = {k: i for i, k in enumerate(dm.ITEM_KINDS)}
# Dangerous Sector card ids in canonical order (cards.toml): noise here with icon 0-3, noise
# here 4-9, noise anywhere with icon 10-13, noise anywhere 14-19, silence 20-24.
NOISE_HERE_ICON, NOISE_HERE, NOISE_ANY_ICON, NOISE_ANY, SILENCE = 0, 4, 10, 14, 20


def field(seat: int, f: int) -> int:
    return E.PLAYER + seat * E.P_STRIDE + f


def get(st, seat, f) -> int:
    return int(st.s[field(seat, f)])


def put(st, seat, f, value) -> None:
    st.s[field(seat, f)] = value


def deal(st, seat: int, role: str) -> None:
    """Gives ``seat`` a character (swapping it with the seat that holds it, if any)."""
    c = CHAR[role]
    n = int(st.b[B.B_PLAYERS])
    old = get(st, seat, E.P_CHAR)
    side_of = lambda ch: int(st.b[B.B_CHAR_SIDE + ch])  # noqa: E731
    holder = next((q for q in range(n) if q != seat and get(st, q, E.P_CHAR) == c), None)
    if holder is None and old >= 0 and side_of(old) != side_of(c):
        # keep the sides dealt (R1.2): a seat of the new side takes the old character
        holder = next(q for q in range(n) if q != seat and get(st, q, E.P_SIDE) == side_of(c))
    if holder is not None:
        put(st, holder, E.P_CHAR, old)
        put(st, holder, E.P_SIDE, side_of(old))
        put(st, holder, E.P_START_SIDE, side_of(old))
    put(st, seat, E.P_CHAR, c)
    side = int(st.b[B.B_CHAR_SIDE + c])
    put(st, seat, E.P_SIDE, side)
    put(st, seat, E.P_START_SIDE, side)


def place(st, seat: int, sector) -> None:
    put(st, seat, E.P_POS, S(sector) if isinstance(sector, str) else sector)


def park(st, seats, sector="W01") -> None:
    """Moves seats out of the way (W01 is void on Galilei, so use a far corner sector)."""
    for q in seats:
        place(st, q, sector)


def give(st, seat: int, *kinds: str) -> None:
    """Puts item cards of these kinds from the item deck into the seat's hand."""
    for k in kinds:
        want = ITEM[k]
        pos, end = int(st.s[E.IK_POS]), int(st.s[E.IK_LEN])
        for i in range(pos, end):
            c = int(st.s[E.IK + i])
            if int(st.b[B.B_ITEM_KIND + c]) == want:
                st.s[E.IK + i] = st.s[E.IK + end - 1]
                st.s[E.IK_LEN] = end - 1
                nh = get(st, seat, E.P_NHAND)
                put(st, seat, E.P_HAND + nh, c)
                put(st, seat, E.P_HUSES + nh, 1)
                put(st, seat, E.P_NHAND, nh + 1)
                break
        else:
            raise ValueError(f"no {k} card left in the item deck")


def empty_hands(st) -> None:
    """Every seat's items back into the item deck."""
    n = int(st.b[B.B_PLAYERS])
    for q in range(n):
        for i in range(get(st, q, E.P_NHAND)):
            st.s[E.IK + int(st.s[E.IK_LEN])] = get(st, q, E.P_HAND + i)
            st.s[E.IK_LEN] += 1
            put(st, q, E.P_HAND + i, -1)
        put(st, q, E.P_NHAND, 0)


def top_danger(st, *cards: int) -> None:
    """Puts these Dangerous Sector cards on top of the deck, in order."""
    pos = int(st.s[E.DK_POS])
    for k, c in enumerate(cards):
        deck = [int(x) for x in st.s[E.DK:E.DK + int(st.s[E.DK_LEN])]]
        i = deck.index(c, pos + k)
        st.s[E.DK + i], st.s[E.DK + pos + k] = st.s[E.DK + pos + k], st.s[E.DK + i]


def top_hatch(st, *colours: str) -> None:
    """Orders the hatch deck from its top: "green" / "red"."""
    pos = int(st.s[E.HK_POS])
    n = int(st.b[B.B_NHATCHCARDS])
    rest = [int(st.s[E.HK + i]) for i in range(pos, n)]
    order = []
    for col in colours:
        want = 1 if col == "green" else 0
        c = next(x for x in rest if int(st.b[B.B_HATCH_GREEN + x]) == want)
        rest.remove(c)
        order.append(c)
    for i, c in enumerate(order + rest):
        st.s[E.HK + pos + i] = c


def begin(st, seat: int) -> None:
    """Starts ``seat``'s turn now (turn-start sector, flags, phase: R3.3)."""
    st.s[E.OVER] = 0
    E.begin_turn(st.s, st.b, seat)


def events(st, seat: int | None = None, since: int = 0) -> list[tuple]:
    """Events as (name, actor seat, arg): the table's log, or what ``seat`` saw."""
    if seat is None:
        n = int(st.s[E.GLOG_N])
        raw = [int(st.s[E.GLOG_EV + i % E.GLOG]) for i in range(max(since, n - E.GLOG), n)]
    else:
        n = get(st, seat, E.P_NSEEN)
        raw = [int(st.s[E.LOG + seat * E.OBS_LOG + i % E.OBS_LOG]) for i in range(max(since, n - E.OBS_LOG), n)]
    return [(E.EVENT_NAMES[E.ev_kind(e)], E.ev_actor(e), E.ev_arg(e)) for e in raw]


def nlog(st) -> int:
    return int(st.s[E.GLOG_N])


def moves(r, st) -> set[str]:
    """The sectors of the legal MOVE actions, by name."""
    return {dm.sector_name(int(a) - E.A_MOVE) for a in r.legal(st) if E.A_MOVE <= a < E.A_MOVE + E.NCELLS}


def fresh(seed: int = 0, **settings):
    """Rules and a new game whose items are back in the deck."""
    r = Rules(**settings)
    st = r.new(seed)
    return r, st


def human_turn(settings: dict, role="psychologist", at="D09", seed=0, items=(), others_at="A10"):
    """A game where seat 0 (``role``) stands on ``at`` at the start of its turn and every
    other seat waits on ``others_at``; returns (rules, state)."""
    r, st = fresh(seed, **settings)
    deal(st, 0, role)
    n = int(st.b[B.B_PLAYERS])
    park(st, range(1, n), others_at)
    place(st, 0, at)
    if int(st.b[B.B_ADVANCED]):
        empty_hands(st)
    give(st, 0, *items)
    begin(st, 0)
    return r, st


def step(r, st, action) -> None:
    r.step(st, int(action))
    broken = r.invariants(st)
    assert not broken, broken


def cells(names) -> set[int]:
    return {S(x) for x in names}


# settings shorthands
ADV = {"mode": "advanced"}
BASIC = {"mode": "basic"}


def alien_turn(settings, role="alien4", at="C07", seed=0, others_at="A10"):
    """As human_turn, for an alien: seat 0 (``role``) on ``at`` at the start of its turn,
    every other seat on ``others_at``; returns (rules, state)."""
    r, st = fresh(seed, **settings)
    deal(st, 0, role)
    n = int(st.b[B.B_PLAYERS])
    park(st, range(1, n), others_at)
    place(st, 0, at)
    begin(st, 0)
    return r, st


def deck_left(st) -> int:
    """Cards left in the Dangerous Sector deck."""
    return int(st.s[E.DK_LEN] - st.s[E.DK_POS])


__all__ = ["np"]
