"""Readable text of an Alien Attack USA game (for ``simkit trace`` and notebooks), and
the invariants the conformance suite checks after every step."""

from __future__ import annotations

import functools

import numpy as np

from . import board as board_mod
from . import engine as E

BORDERS = ("Pacific", "Mexico", "Gulf", "Atlantic")


def _field(s: np.ndarray, p: int, f: int) -> int:
    return int(s[E.PLAYER + p * E.P_STRIDE + f])


def describe_action(params, s: np.ndarray, b: np.ndarray, a: int) -> str:
    ids = board_mod.space_ids(params)
    kind, k = E.ACTIONS.decode(a)
    if kind == "cover":
        return f"covers the marker on {ids[s[E.MARK + k]]}"
    if kind == "cover_power":
        return f"uses Cover: a disc on {ids[s[E.DESTROYED + k]]}"
    if kind == "neighbourhood":
        return f"uses Neighbourhood: destroys the base on {ids[k]} and puts a disc there"
    if kind == "protection":
        return f"uses Protection: saves its disc on {ids[s[E.TRAPPED + k]]}"
    return {"pass": "ends the turn", "extra_turn": "uses Extra Turn", "no_protection": "does not use Protection"}[kind]


def describe_step(params, before: np.ndarray, after: np.ndarray, b: np.ndarray, a: int) -> str | None:
    """The action with the points it scored and the bases it destroyed, then what the end of
    the round did (new bases, captured discs); ``None`` for a bare pass."""
    p = int(E.current_player(before))
    parts = []
    if a != E.A_PASS:
        text = describe_action(params, before, b, a)
        gained = _field(after, p, E.P_IMMEDIATE) - _field(before, p, E.P_IMMEDIATE)
        destroyed = _field(after, p, E.P_BASES) - _field(before, p, E.P_BASES)
        done = ["+" + _n(gained, "point") if gained else "", _n(destroyed, "base") + " destroyed" if destroyed else ""]
        parts.append(text + (": " + ", ".join(x for x in done if x) if any(done) else ""))
    n = int(b[board_mod.B_NSP])
    flipped = int(((before[E.SP:E.SP + n] == E.S_MARKER) & (after[E.SP:E.SP + n] == E.S_BASE)).sum())
    if flipped:
        parts.append(f"round over: {_n(flipped, 'uncovered marker')} became {'a base' if flipped == 1 else 'bases'}")
    for q in range(int(before[E.PLAYERS])):
        lost = _field(after, q, E.P_CAPTURED) - _field(before, q, E.P_CAPTURED)
        if lost:
            parts.append(f"seat {q + 1} loses {_n(lost, 'trapped disc')}")
    if not parts:
        return None
    return ("ends the turn; " if a == E.A_PASS else "") + "; ".join(parts)


def _n(k: int, noun: str) -> str:
    return f"{k} {noun}" + ("" if k == 1 else "s")


def describe_state(params, s: np.ndarray, b: np.ndarray) -> str:
    ids = board_mod.space_ids(params)
    players = int(s[E.PLAYERS])
    scores = ", ".join(f"seat {p + 1} {_field(s, p, E.P_SCORE)}" for p in range(players))
    destroyed = f"bases destroyed so far {s[E.TOTAL_DESTROYED]}"
    if s[E.PHASE] == E.P_OVER:
        return f"end of the game after round {s[E.ROUND]}: {s[E.TOTAL_DESTROYED]} bases destroyed in all"
    marks = " ".join(str(ids[s[E.MARK + k]]) for k in range(s[E.NMARK]))
    return (f"round {s[E.ROUND]} of {s[E.NROUNDS]}: seat {s[E.START] + 1} starts; attack markers on {marks}\n"
            f"  scores: {scores}; {destroyed}")


def describe_setup(params, s: np.ndarray, b: np.ndarray) -> str:
    players = int(s[E.PLAYERS])
    return "mission cards: " + "; ".join(
        f"seat {p + 1} city {2 + _field(s, p, E.P_CITY_CARD)} and {BORDERS[_field(s, p, E.P_BORDER_CARD)]} border"
        for p in range(players))


def describe_result(params, s: np.ndarray, b: np.ndarray) -> str:
    players = int(s[E.PLAYERS])
    lines = ["final scores = points in play + missions (R6): city, border, parks, bases, expansion, protection"]
    for p in range(players):
        end = [_field(s, p, f) for f in (E.P_CITY_PTS, E.P_BORDER_PTS, E.P_PARKS_PTS, E.P_BASES_PTS,
                                         E.P_EXPANSION_PTS, E.P_PROTECTION_PTS)]
        lines.append(f"  seat {p + 1}: {_field(s, p, E.P_SCORE)} = {_field(s, p, E.P_IMMEDIATE)} + "
                     + " + ".join(map(str, end)) + (" (won)" if _field(s, p, E.P_WON) else ""))
    if params.semi_coop:
        lines.append(f"  bases destroyed {s[E.TOTAL_DESTROYED]} of {params.semi_coop_threshold} needed: "
                     + ("Earth wins" if s[E.EARTH_WON] else "the invasion succeeds, everybody loses"))
    elif not any(_field(s, p, E.P_WON) for p in range(players)):
        lines.append("  nobody won")
    return "\n".join(lines)


@functools.lru_cache(maxsize=8)
def _city_spaces(board_bytes: bytes) -> tuple[tuple[int, ...], ...]:
    b = np.frombuffer(board_bytes, np.int32)
    n = int(b[board_mod.B_NSP])
    return tuple(
        tuple(x for x in range(n) for k in range(b[board_mod.B_SP_NCITY + x]) if b[board_mod.B_SP_CITY + x * 3 + k] == c)
        for c in range(int(b[board_mod.B_NCITY]))
    )


@functools.lru_cache(maxsize=8)
def _board_arrays(board_bytes: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each space x and direction d: the neighbour ``nb[x, d]`` (-1 off the board), the
    space beyond it in the same direction (``beyond[x, d]``, -1 off the board) and whether
    the board's edge there is Canada's (``canada[x, d]``, of the neighbour); and which
    spaces are around each city (``cities[c, x]``). Arrays, because the invariants run
    after every step of the conformance suite."""
    b = np.frombuffer(board_bytes, np.int32)
    n = int(b[board_mod.B_NSP])
    nb = b[board_mod.B_NB:board_mod.B_NB + n * 6].reshape(n, 6).astype(np.int64)
    y = np.maximum(nb, 0)
    d = np.arange(6)
    beyond = np.where(nb >= 0, nb[y, d], -1)
    canada = (b[board_mod.B_CANADA + y] >> d) & 1
    spaces = _city_spaces(board_bytes)
    cities = np.zeros((len(spaces), n), np.int64)  # cities[c, x]: space x is around city c
    for c, around in enumerate(spaces):
        cities[c, list(around)] = 1
    return nb, canada, beyond, cities


def invariants(s: np.ndarray, b: np.ndarray) -> list[str]:
    """Markers conserved (bag + markers + bases + discs + emptied = the spaces),
    scores consistent, discs counted."""
    n = int(b[board_mod.B_NSP])
    bad = []
    sp = s[E.SP:E.SP + n]
    if int((sp == E.S_BAG).sum()) != s[E.BAG_N]:
        bad.append("spaces not attacked yet differ from the markers left in the bag")
    bag = sorted(int(x) for x in s[E.BAG:E.BAG + s[E.BAG_N]])
    if bag != sorted(int(x) for x in np.flatnonzero(sp == E.S_BAG)):
        bad.append("the bag holds markers of spaces already attacked")
    players = int(s[E.PLAYERS])
    taken = sum(_field(s, p, E.P_BASES) for p in range(players))
    if taken != s[E.TOTAL_DESTROYED]:
        bad.append("base tokens held differ from bases destroyed")
    flipped = int((s[E.FLIP:E.FLIP + n] > 0).sum())
    if flipped != int((sp == E.S_BASE).sum()) + taken:
        bad.append("bases flipped differ from bases standing plus bases destroyed")
    nb, canada, beyond, cities = _board_arrays(np.ascontiguousarray(b, np.int32).tobytes())
    next_to_base = (nb >= 0) & (sp[np.maximum(nb, 0)] == E.S_BASE)  # [x, d]: the neighbour in direction d is a base
    bases_next = next_to_base.sum(axis=1)
    for p in range(players):
        mine = sp == E.S_DISC + p
        on_board = int(mine.sum())
        if on_board != _field(s, p, E.P_DISCS) - _field(s, p, E.P_CAPTURED):
            bad.append(f"player {p}: discs on the board differ from discs placed minus discs lost")
        if on_board > 33:
            bad.append(f"player {p} has more than 33 discs")
        if int(bases_next[mine].sum()) != _field(s, p, E.P_ADJ_BASES):
            bad.append(f"player {p}: base/disc pair count is off")
        if _field(s, p, E.P_SCORE) < _field(s, p, E.P_IMMEDIATE):
            bad.append(f"player {p}: score below the points scored in play")
        base = E.PLAYER + p * E.P_STRIDE + E.P_CITY_CNT
        off = np.flatnonzero(cities @ mine != s[base:base + len(cities)])
        if off.size:
            bad.append(f"player {p}: city {int(off[0])} count is off")
    # a disc on x destroys the base next to it in direction d when the space beyond it holds a
    # disc, or is the Canada edge
    closed = np.where(beyond < 0, canada, sp[np.maximum(beyond, 0)] >= E.S_DISC)
    wrong = np.flatnonzero((next_to_base & (closed != 0)).sum(axis=1) != s[E.HITS:E.HITS + n])
    if wrong.size:
        bad.append(f"space {int(wrong[0])}: count of bases a disc there would destroy is off")
    if s[E.PHASE] != E.P_OVER and s[E.ROUND] > s[E.NROUNDS]:
        bad.append("more rounds than the bag allows")
    return bad
