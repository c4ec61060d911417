"""Readable text of an O.V.N.I. game (``simkit trace``, notebooks), the semantic form of
actions (the independent model's tuples), and the invariants the conformance suite
checks after every step (docs/rules/ovni.md, R20)."""

from __future__ import annotations

import numpy as np

from . import board as board_mod
from . import engine as E

CLASS_NAMES = ("Pilot", "Abductor", "Builder", "Military")
GROUP_NAMES = ("Pilots", "Abductors", "Builders", "Military")
CLASS_LETTERS = "PABM"
AREA_LETTERS = "ABCD"


def _f(s, q: int, field: int) -> int:
    return int(s[E.PLAYER + q * E.P_STRIDE + field])


def _arr(s, q: int, field: int, n: int) -> list[int]:
    o = E.PLAYER + q * E.P_STRIDE + field
    return [int(x) for x in s[o:o + n]]


def _names(params) -> dict:
    return board_mod.names(params)


def _a(name: str) -> str:
    """``a Pilot``, ``an Abductor``."""
    return ("an " if name[0] in "AEIOUaeiou" else "a ") + name


def planet_label(params, s, q: int) -> str:
    if q < 0:
        return "nobody"
    if q == int(s[E.DUMMY]):
        return "dummy"
    return f"seat {q + 1}"


def semantic(a: int) -> tuple:
    """The action as the specification's D2 names it, with numbers instead of an id:
    ``("keep", i)``, ``("start_pair", x, y)``, ``("start_triple", k)``, ``("dummy_alien", k)``,
    ``("place", area, value)``, ``("place_dummy", area)``, ``("pick", k)``,
    ``("energy_alien", k)``, ``("energy_three",)``, ``("shield", 0 or 1)``, ``("activate", k)``,
    ``("end_turn",)``, ``("move", from, to)``, ``("abduct", city, swap_city)``,
    ``("launch", city)``, ``("capture", target, k)``, ``("destroy", target, city)``,
    ``("end_group",)``; cities 0-11, classes 0-3, areas 0-3, planets 0-3."""
    kind, i = E.ACTIONS.decode(int(a))
    if kind == "start_pair":
        return ("start_pair", int(E.PAIR_A[i]), int(E.PAIR_B[i]))
    if kind == "place":
        return ("place", i // E.TOKENS, i % E.TOKENS + 2)
    if kind in ("move", "abduct", "destroy"):
        return (kind, i // E.N_CITIES, i % E.N_CITIES)
    if kind == "capture":
        return ("capture", i // E.N_CLASSES, i % E.N_CLASSES)
    if kind in ("energy_three", "end_turn", "end_group"):
        return (kind,)
    return (kind, i)


def action_id(t: tuple) -> int:
    """The inverse of :func:`semantic`."""
    kind = t[0]
    r = E.ACTIONS.ranges
    if kind == "start_pair":
        pairs = list(zip(E.PAIR_A.tolist(), E.PAIR_B.tolist()))
        return r["start_pair"].start + pairs.index((min(t[1], t[2]), max(t[1], t[2])))
    if kind == "place":
        return r["place"].start + t[1] * E.TOKENS + t[2] - 2
    if kind in ("move", "abduct", "destroy"):
        return r[kind].start + t[1] * E.N_CITIES + t[2]
    if kind == "capture":
        return r["capture"].start + t[1] * E.N_CLASSES + t[2]
    if len(t) == 1:
        return r[kind].start
    return r[kind].start + t[1]


def describe_action(params, s: np.ndarray, b: np.ndarray, a: int) -> str:
    nm = _names(params)
    city = nm["cities"]
    t = semantic(a)
    kind = t[0]
    if kind == "keep":
        i = t[1]
        if i < 3:
            return f"keeps mission slot {i + 1}"
        both = [x + 1 for x in range(3) if x != i - 3]
        return f"keeps mission slots {both[0]} and {both[1]}"
    if kind == "start_pair":
        return f"starts with {_a(CLASS_NAMES[t[1]])} and {_a(CLASS_NAMES[t[2]])}"
    if kind == "start_triple":
        three = [_a(CLASS_NAMES[k]) for k in range(4) if k != t[1]]
        return f"starts with {three[0]}, {three[1]} and {three[2]}"
    if kind == "dummy_alien":
        return f"gives the dummy {_a(CLASS_NAMES[t[1]])}"
    if kind == "place":
        return f"places a {t[2]} in area {AREA_LETTERS[t[1]]}"
    if kind == "place_dummy":
        return f"places a dummy token in area {AREA_LETTERS[t[1]]}"
    if kind == "pick":
        return f"picks {_a(CLASS_NAMES[t[1]])}"
    if kind == "energy_alien":
        return f"energy bonus 1: {_a(CLASS_NAMES[t[1]])} and a force field"
    if kind == "energy_three":
        return "energy bonus 2: three groups this round"
    if kind == "shield":
        return "parks two Military (force field)" if t[1] else "does not park Military"
    if kind == "activate":
        return f"activates the {GROUP_NAMES[t[1]]}"
    if kind == "end_turn":
        return "ends the turn"
    if kind == "end_group":
        return "ends the group"
    if kind == "move":
        return f"moves a UFO {city[t[1]]} -> {city[t[2]]}"
    if kind == "abduct":
        h = int(s[E.CITY_HUMAN + t[2]])  # a swap (R17.4) brings it to t[1]
        human = _a(nm["kinds"][h]) if h >= 0 else "nobody"
        if t[1] == t[2]:
            return f"abducts {human} in {city[t[1]]}"
        return f"swaps the humans of {city[t[1]]} and {city[t[2]]}, abducts {human} in {city[t[1]]}"
    if kind == "launch":
        return f"launches a UFO to {city[t[1]]}"
    if kind == "capture":
        return f"captures {_a(CLASS_NAMES[t[2]])} from {planet_label(params, s, t[1])}"
    if kind == "destroy":
        return f"destroys a UFO of {planet_label(params, s, t[1])} in {city[t[2]]}"
    return str(t)


def describe_step(params, before: np.ndarray, after: np.ndarray, b: np.ndarray, a: int) -> str | None:
    text = describe_action(params, before, b, a)
    same_round = int(after[E.ROUND]) == int(before[E.ROUND])
    if int(before[E.PHASE]) == E.PH_PLACE and int(after[E.PHASE]) != E.PH_PLACE and same_round:
        wins = [f"{AREA_LETTERS[x]}: {planet_label(params, after, int(after[E.AREA_WINNER + x]))}"
                for x in range(int(before[E.NAREAS]))]
        text += "; areas won: " + ", ".join(wins)
    nm = _names(params)
    mover = int(before[E.TO_MOVE])
    for q in range(int(before[E.NPLANETS])):
        who = "" if q == mover else planet_label(params, after, q) + " "
        new = _f(after, q, E.P_MAPPED) & ~_f(before, q, E.P_MAPPED)
        if new:
            text += f"; {who}maps " + " and ".join(nm["cities"][c] for c in range(12) if new >> c & 1)
    return text


_COLUMNS = ("Pilots", "Abductors", "Builders", "Military", "UFOs in cities", "on pad", "mapped", "humans")


def _row(label: str, values: list) -> str:
    return f"  {label:<8}" + "".join(f"{v:>{len(c) + 2}}" for c, v in zip(_COLUMNS, values)).rstrip()


def describe_state(params, s: np.ndarray, b: np.ndarray) -> str:
    """The round, the phase-1 order and the cards of the recruitment areas, then a table: the
    alien stock and, per planet, aliens held (captured ones included), UFOs, cities mapped,
    humans abducted."""
    n = int(s[E.NPLANETS])
    rnd = int(s[E.ROUND])
    if s[E.OVER]:
        head = [f"game over after round {rnd}" + (" (the round cap ended it)" if s[E.CAPPED] else "")]
    elif rnd == 0:
        head = ["set-up (round 1 follows)"]
    else:
        order = ", ".join(planet_label(params, s, int(x)) for x in s[E.ORDER1:E.ORDER1 + n])
        head = [f"round {rnd}: phase-1 order {order}",
                "  recruitment cards: " + "; ".join(f"{AREA_LETTERS[x]} {_card(params, int(s[E.AREA_CARD + x]))}"
                                                    for x in range(int(s[E.NAREAS])))]
    lines = head + ["  " + " " * 8 + "".join(f"  {c}" for c in _COLUMNS)]
    lines.append(_row("stock", [int(s[E.STOCK + k]) for k in range(4)]))
    for q in range(n):
        held = [_f(s, q, E.P_OWN + k) + _f(s, q, E.P_CAPT + k) for k in range(4)]
        lines.append(_row(planet_label(params, s, q), held + [_f(s, q, E.P_ON_BOARD), _f(s, q, E.P_PAD),
                                                              _f(s, q, E.P_NMAPPED), _f(s, q, E.P_NHUMANS)]))
    return "\n".join(lines)


def _card(params, c: int) -> str:
    """The aliens on alien card ``c``: ``2 Pilots, 1 Abductor``."""
    counts = board_mod.load(params)[1].alien_cards[c]
    return ", ".join(f"{n} {GROUP_NAMES[k] if n > 1 else CLASS_NAMES[k]}" for k, n in enumerate(counts) if n)


def describe_setup(params, s: np.ndarray, b: np.ndarray) -> str:
    nm = _names(params)
    lines = []
    for q in range(int(s[E.PLAYERS])):
        ab = [nm["abilities"][_f(s, q, E.P_ABIL + k)] for k in range(2)]
        lines.append(f"seat {q + 1}: planet {nm['planets'][_f(s, q, E.P_PLANET_ID)]}, abilities {' and '.join(ab)}")
    d = int(s[E.DUMMY])
    if d >= 0:
        lines.append(f"dummy: planet {nm['planets'][_f(s, d, E.P_PLANET_ID)]}")
    humans = ", ".join(f"{nm['cities'][c]} {nm['kinds'][int(s[E.CITY_HUMAN + c])]}" for c in range(12))
    return "\n".join(lines + [f"humans in the cities: {humans}"])


def _start_position(b, players: int, q: int) -> int:
    """Seats choosing their starting aliens before seat ``q`` (R1.11, K1)."""
    return players - 1 - q if b[board_mod.B_START_REVERSED] else q


def describe_result(params, s: np.ndarray, b: np.ndarray) -> str:
    lines = ["final scores = majorities + UFOs + airspace + mapping + humans + missions (R15)"]
    for q in range(int(s[E.PLAYERS])):
        pts = _arr(s, q, E.P_PTS, E.N_CATEGORIES)
        terms = str(pts[0]) + "".join(f" - {-x}" if x < 0 else f" + {x}" for x in pts[1:])
        bonus = _start_position(b, int(s[E.PLAYERS]), q) * int(b[board_mod.B_SEAT_BONUS])
        if bonus:
            terms += f" + {bonus} seat bonus (K3, a compensation, not in the rulebook)"
        lines.append(f"  seat {q + 1}: {_f(s, q, E.P_SCORE)} = {terms}" + (" (won)" if _f(s, q, E.P_WON) else ""))
    return "\n".join(lines)


def invariants(s: np.ndarray, b: np.ndarray) -> list[str]:
    """R20, checked after every step."""
    bad = []
    s = np.asarray(s)
    n = int(s[E.NPLANETS])
    players = int(s[E.PLAYERS])
    dummy = int(s[E.DUMMY])
    stock0 = int(b[board_mod.B_STOCK])
    ufos0 = int(b[board_mod.B_UFOS])
    # aliens
    for k in range(4):
        total = int(s[E.STOCK + k]) + sum(_f(s, q, E.P_OWN + k) + _f(s, q, E.P_CAPT + k) for q in range(n))
        if total != stock0:
            bad.append(f"class {k}: stock + held = {total}, not {stock0}")
        if int(s[E.STOCK + k]) < 0 or any(_f(s, q, E.P_OWN + k) < 0 for q in range(n)):
            bad.append(f"class {k}: negative count")
    captured = sum(_f(s, q, E.P_CAPT + k) for q in range(n) for k in range(4))
    if captured != sum(_f(s, q, E.P_CAPTURED_FROM) for q in range(n)):
        bad.append("captured tokens held differ from tokens captured from planets")
    # UFOs
    for q in range(n):
        ufo = _arr(s, q, E.P_UFO, 12)
        frozen = _arr(s, q, E.P_FROZEN, 12)
        if sum(ufo) != _f(s, q, E.P_ON_BOARD):
            bad.append(f"planet {q}: UFOs on the board miscounted")
        if sum(ufo) + _f(s, q, E.P_PAD) + _f(s, q, E.P_RESERVE) != ufos0:
            bad.append(f"planet {q}: board + pad + reserve != {ufos0}")
        if _f(s, q, E.P_PAD) > int(b[board_mod.B_PAD]) or min(ufo) < 0 or _f(s, q, E.P_RESERVE) < 0:
            bad.append(f"planet {q}: pad over capacity or a negative count")
        if q == dummy and _f(s, q, E.P_PAD) != 0:
            bad.append("the dummy has a UFO on a pad")
        if any(f > u for f, u in zip(frozen, ufo)) or min(frozen) < 0:
            bad.append(f"planet {q}: more frozen UFOs than UFOs")
        if s[E.PHASE] not in (E.PH_GROUP, E.PH_TURN, E.PH_SHIELD) and any(frozen) and not s[E.OVER]:
            bad.append(f"planet {q}: frozen UFOs outside phase 2")
        mapped = _f(s, q, E.P_MAPPED)
        if bin(mapped).count("1") != _f(s, q, E.P_NMAPPED) or mapped >> 12:
            bad.append(f"planet {q}: mapping tokens miscounted")
    for c in range(12):
        tokens = sum((_f(s, q, E.P_MAPPED) >> c) & 1 for q in range(n))
        if tokens != int(s[E.MAP_COUNT + c]):
            bad.append(f"city {c + 1}: {tokens} mapping tokens but map_count {int(s[E.MAP_COUNT + c])}")
    # humans
    kinds = [0] * 6
    for c in range(12):
        h = int(s[E.CITY_HUMAN + c])
        if h >= 0:
            kinds[h] += 1
    for j in range(int(s[E.TRACK_POS]), 6):
        kinds[int(s[E.TRACK + j])] += 1
    for q in range(n):
        for j in range(6):
            kinds[j] += _f(s, q, E.P_HUMANS + j)
    if kinds != [3] * 6:
        bad.append(f"humans per kind {kinds}, not 3 each")
    # command tokens
    for q in range(n):
        placed = [int(s[E.SLOT_VAL + i]) for i in range(E.N_SLOTS) if s[E.SLOT_OWNER + i] == q]
        hand = int(s[E.HAND + q])
        if any((hand >> v) & 1 for v in placed):
            bad.append(f"planet {q}: a token both placed and in hand")
        spent = 1 if _f(s, q, E.P_SIX_SPENT) else 0
        if bin(hand).count("1") + len(placed) + spent != 5:
            bad.append(f"planet {q}: hand + placed + spent != 5")
        if bin(hand).count("1") != _f(s, q, E.P_NHAND):
            bad.append(f"planet {q}: tokens in hand miscounted")
    for a in range(int(s[E.NAREAS])):
        k = int(s[E.AREA_N + a])
        owners = [int(s[E.SLOT_OWNER + a * 4 + j]) for j in range(4)]
        if any(o < 0 for o in owners[:k]) or any(o >= 0 for o in owners[k:]):
            bad.append(f"area {a}: tokens not in consecutive slots from slot 1")
        for j in range(2, k):
            if owners[j] == owners[j - 1] == owners[j - 2] and not s[E.SLOT_WAIVED + a * 4 + j]:
                bad.append(f"area {a}: three in a row without the waiver")
    # flags
    for q in range(n):
        ff = _f(s, q, E.P_FF)
        if ff and not (_f(s, q, E.P_ENERGY) == 1 or _f(s, q, E.P_PARKED) > 0 or _f(s, q, E.P_FF_MIL) == 0):
            bad.append(f"planet {q}: a force field without bonus 1 or parked Military")
    if s[E.PHASE] in (E.PH_TURN, E.PH_GROUP):
        act = int(s[E.ACTIVATED])
        if bin(act).count("1") != int(s[E.NACT]) or s[E.NACT] > s[E.LIMIT]:
            bad.append("activations exceed the limit")
    # score
    if s[E.OVER]:
        for q in range(players):
            # K3 (a compensation): the seat bonus is the one term outside the six categories
            bonus = _start_position(b, players, q) * int(b[board_mod.B_SEAT_BONUS])
            if sum(_arr(s, q, E.P_PTS, 6)) + bonus != _f(s, q, E.P_SCORE):
                bad.append(f"seat {q}: score differs from the sum of its categories (and seat bonus)")
        if not (s[E.CAPPED] and b[board_mod.B_CAP_DRAW]) and sum(_f(s, q, E.P_WON) for q in range(players)) < 1:
            bad.append("no winner")
    return bad
