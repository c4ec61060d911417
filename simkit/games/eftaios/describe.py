"""Readable text of an Escape From the Aliens game (for ``simkit trace`` and notebooks), and
the invariants the conformance suite checks after every step."""

from __future__ import annotations

import numpy as np

from . import board as B
from . import data_model as dm
from . import engine as E

ITEM_NAMES = dm.ITEM_KINDS
CARD_NAMES = ("noise here", "noise anywhere", "silence")
STATUS_NAMES = ("aboard", "dead", "escaped", "waiting to return (Arena)")
HATCH_NAMES = ("absent", "open", "damaged", "used")
SIDE_NAMES = ("human", "alien")
END_NAMES = ("a human escaped", "all humans eliminated", "no human aboard", "time", "Arena kills reached")


def sector(b: np.ndarray, x: int) -> str:
    """A sector by name, special sectors by symbol (R2.4)."""
    x = int(x)
    if x < 0:
        return "off the board"
    k = int(b[B.B_KIND + x])
    if k == B.HUMAN_START:
        return "the Human sector"
    if k == B.ALIEN_START:
        return "the Alien sector"
    if k == B.HATCH:
        return f"hatch {int(b[B.B_HATCHNUM + x])} ({dm.sector_name(x)})"
    return dm.sector_name(x)


def _pf(s, p, f) -> int:
    return int(s[E.PLAYER + p * E.P_STRIDE + f])


def role(params, b, c: int) -> str:
    """The role of character card ``c`` (``"pilot"``, ``"alien1"``), or ``""`` without one (Arena)."""
    chars = B.cards(params.card_data if params is not None else "").characters
    return chars[c].role if 0 <= c < len(chars) and int(b[B.B_NCHARS]) <= len(chars) else ""


def character(params, s, b, p: int) -> str:
    """``human (pilot)``, ``alien`` (an alien card), ``alien (pilot)`` (an infected human)."""
    side = SIDE_NAMES[_pf(s, p, E.P_SIDE)]
    r = role(params, b, _pf(s, p, E.P_CHAR))
    return side if not r or r.startswith("alien") else f"{side} ({r})"


def describe_event(s, b, e: int, params=None, mover: int = -1) -> str:
    """One logged event in words; events of seat ``mover`` leave out the seat."""
    kind, actor, arg = E.ev_kind(e), E.ev_actor(e), E.ev_arg(e)
    seat = "" if actor == mover else f"seat {actor + 1} "
    if kind == E.EV_TURN:
        return f"seat {actor + 1}'s turn"
    if kind == E.EV_RESPAWN:
        return seat + "returns to " + (sector(b, arg) if arg >= 0 else "its start hatch (secret)")
    if kind == E.EV_NOISE:
        return seat + f"noise in {sector(b, arg)}"
    if kind == E.EV_SILENCE:
        return seat + "silence in all sectors"
    if kind == E.EV_QUIET:
        return seat + "quiet (no card)"
    if kind == E.EV_ITEM_DRAWN:
        return seat + f"draws an item (holds {arg})"
    if kind == E.EV_ITEM_DISCARDED:
        return seat + (f"discards {ITEM_NAMES[arg]}" if arg >= 0 else "discards an item face down")
    if kind == E.EV_ITEM_USED:
        return seat + f"uses {ITEM_NAMES[arg]}"
    if kind == E.EV_SPOTLIGHT:
        return seat + f"aims a spotlight at {sector(b, arg)}"
    if kind == E.EV_SEEN:
        return f"seat {actor + 1} seen in {sector(b, arg)}"
    if kind == E.EV_ATTACK:
        return seat + f"attacks {sector(b, arg)}"
    if kind == E.EV_PRESENT:
        return f"seat {actor + 1} is in {sector(b, arg)}"
    if kind == E.EV_DEFENDED:
        return f"seat {actor + 1} survives (defence)"
    if kind in (E.EV_KILLED, E.EV_STRANDED):
        r = role(params, b, arg) if arg >= 0 else ""
        how = "killed" if kind == E.EV_KILLED else "stranded, no hatch left"
        return f"seat {actor + 1} {how}" + (f" (card revealed: {r})" if r else "")
    if kind == E.EV_INFECTED:
        return f"seat {actor + 1} becomes an alien in {sector(b, arg)}"
    if kind == E.EV_HATCH:
        return seat + f"reaches hatch {arg}"
    if kind == E.EV_HATCH_RED:
        return f"red hatch card: hatch {arg} is damaged"
    if kind == E.EV_ESCAPED:
        return seat + f"escapes by hatch {arg}"
    if kind == E.EV_GAME_OVER:
        return f"GAME OVER ({END_NAMES[arg]})"
    return f"{E.EVENT_NAMES[kind]} seat {actor + 1}"


def events_between(before: np.ndarray, after: np.ndarray) -> list[int]:
    """The table's events logged between two states (at most the table's ring)."""
    n0, n1 = int(before[E.GLOG_N]), int(after[E.GLOG_N])
    return [int(after[E.GLOG_EV + i % E.GLOG]) for i in range(max(n0, n1 - E.GLOG), n1)]


def describe_action(params, s: np.ndarray, b: np.ndarray, a: int) -> str:
    kind, k = E.ACTIONS.decode(a)
    if kind == "move":
        return f"moves to {sector(b, k)}"
    if kind == "move_attack":
        return f"moves to {sector(b, k)} and attacks"
    if kind == "use_spotlight":
        return f"uses a spotlight on {sector(b, k)}"
    if kind == "noise_at":
        return f"announces noise in {sector(b, k)} (card: noise in any sector)"
    if kind == "discard":
        return f"discards {ITEM_NAMES[k]}"
    if kind == "start_hatch":
        return f"starts on hatch {k + 1}"
    return {"stay": "cannot move: stays", "stay_attack": "cannot move: stays and attacks",
            "use_adrenaline": "uses adrenaline", "use_teleport": "uses teleport", "use_sedatives": "uses sedatives",
            "use_attack": "uses attack (item)", "pre_done": "uses no item before moving", "resolve": "resolves the sector",
            "end_turn": "ends the turn", "defend": "uses defence", "no_defend": "does not use defence"}[kind]


# events that repeat what the action says (an announcement chosen, an attack, an item used)
_SAME = {"noise_at": E.EV_NOISE, "move_attack": E.EV_ATTACK, "stay_attack": E.EV_ATTACK, "use_attack": E.EV_ITEM_USED,
         "use_spotlight": E.EV_SPOTLIGHT, "use_adrenaline": E.EV_ITEM_USED, "use_teleport": E.EV_ITEM_USED,
         "use_sedatives": E.EV_ITEM_USED, "defend": E.EV_ITEM_USED, "discard": E.EV_ITEM_DISCARDED}


def describe_step(params, before: np.ndarray, after: np.ndarray, b: np.ndarray, a: int) -> str | None:
    """The action, then the public events it set off, those of the seat that acted without its
    seat number (the turn passing to the seat that moves next is left out)."""
    text = describe_action(params, before, b, a)
    mover = int(E.to_move(before))
    same = _SAME.get(E.ACTIONS.decode(a)[0])
    nxt = -1 if after[E.OVER] else int(E.to_move(after))
    evs = []
    for e in events_between(before, after):
        kind, actor = E.ev_kind(e), E.ev_actor(e)
        if (kind == same and actor == mover) or (kind == E.EV_TURN and actor == nxt):
            same = None if kind == same else same
            continue
        evs.append(describe_event(after, b, e, params, mover))
    return text + ("; " + "; ".join(evs) if evs else "")


def describe_setup(params, s: np.ndarray, b: np.ndarray) -> str:
    n = int(b[B.B_PLAYERS])
    return "; ".join(f"seat {p + 1} {character(params, s, b, p)}" for p in range(n)) + f"; seat {int(s[E.FIRST]) + 1} plays first"


def describe_state(params, s: np.ndarray, b: np.ndarray) -> str:
    """The round and the hatches, then one line per seat: who, where, items."""
    n = int(b[B.B_PLAYERS])
    hatches = ", ".join(f"{k + 1} {HATCH_NAMES[int(s[E.HATCH_STATE + k])]}" for k in range(4)
                        if int(s[E.HATCH_STATE + k]) != E.HATCH_ABSENT)
    head = f"round {int(s[E.ROUND])} of {int(b[B.B_MAX_ROUNDS])}" + (" (game over)" if s[E.OVER] else f": seat {int(E.to_move(s)) + 1} to play")
    lines = [head + (f"; hatches {hatches}" if hatches else "")]
    for p in range(n):
        st = _pf(s, p, E.P_STATUS)
        pos = _pf(s, p, E.P_POS)
        where = STATUS_NAMES[st] if st != E.ST_ABOARD else f"in {sector(b, pos)}" if pos >= 0 else "not on the board yet"
        txt = f"  seat {p + 1} {character(params, s, b, p)}: {where}"
        if _pf(s, p, E.P_FED):
            txt += ", fed"
        if _pf(s, p, E.P_NHAND):
            txt += "; items " + ", ".join(ITEM_NAMES[int(b[B.B_ITEM_KIND + _pf(s, p, E.P_HAND + i)])]
                                          for i in range(_pf(s, p, E.P_NHAND)))
        lines.append(txt)
    return "\n".join(lines)


def describe_result(params, s: np.ndarray, b: np.ndarray) -> str:
    n = int(b[B.B_PLAYERS])
    won = [p + 1 for p in range(n) if _pf(s, p, E.P_WON)]
    return (f"{END_NAMES[int(s[E.END_REASON])]} in round {int(s[E.ROUND])}; escaped {int(s[E.ESCAPED])}, "
            f"humans killed {int(s[E.HUMANS_KILLED])}; winners: " + (", ".join(f"seat {p}" for p in won) or "nobody"))


def invariants(s: np.ndarray, b: np.ndarray) -> list[str]:
    """Cards conserved, hands within limits, positions on sectors, no seat further than one
    ring behind the events it must see, winners only at the end."""
    bad = []
    n = int(b[B.B_PLAYERS])
    nd = int(b[B.B_NDANGER])
    pending = 1 if s[E.PENDING] >= 0 else 0
    deck = [int(s[E.DK + i]) for i in range(int(s[E.DK_POS]), int(s[E.DK_LEN]))]
    disc = [int(s[E.DD + i]) for i in range(int(s[E.DD_N]))]
    cards = deck + disc + ([int(s[E.PENDING])] if pending else [])
    if sorted(cards) != list(range(nd)):
        bad.append(f"Dangerous Sector cards not conserved: deck {len(deck)} + discards {len(disc)} + pending {pending} != {nd}")
    if b[B.B_ADVANCED]:
        items = [int(s[E.IK + i]) for i in range(int(s[E.IK_POS]), int(s[E.IK_LEN]))]
        items += [int(s[E.IDISC + i]) for i in range(int(s[E.ID_N]))]
        for p in range(n):
            items += [_pf(s, p, E.P_HAND + i) for i in range(_pf(s, p, E.P_NHAND))]
        if len(items) + int(s[E.REMOVED_N]) != int(b[B.B_NITEMS]) or len(set(items)) != len(items):
            bad.append("item cards not conserved")
    for p in range(n):
        st = _pf(s, p, E.P_STATUS)
        pos = _pf(s, p, E.P_POS)
        limit = int(E.hand_limit(s, b, p))
        nh = _pf(s, p, E.P_NHAND)
        if nh > limit and not (s[E.PHASE] == E.P_DISCARD and E.to_move(s) == p and nh == limit + 1):
            bad.append(f"seat {p + 1} holds {nh} items (limit {limit})")
        if st == E.ST_ABOARD and s[E.PHASE] != E.P_START:
            if pos < 0 or b[B.B_KIND + pos] == B.VOID:
                bad.append(f"seat {p + 1} aboard but not on a sector")
        elif st != E.ST_ABOARD and pos >= 0:
            bad.append(f"seat {p + 1} {STATUS_NAMES[st]} but on the board")
        if _pf(s, p, E.P_WON) and not s[E.OVER]:
            bad.append(f"seat {p + 1} won before the end")
    if not s[E.OVER]:
        p = int(E.to_move(s))
        gap = _pf(s, p, E.P_NSEEN) - _pf(s, p, E.P_LASTDEC)
        if gap > E.OBS_LOG:
            bad.append(f"seat {p + 1} would miss events: {gap} since its last decision, its ring holds {E.OBS_LOG}")
        for k in range(4):
            if b[B.B_HATCH_CELL + k] < 0 and s[E.HATCH_STATE + k] != E.HATCH_ABSENT:
                bad.append(f"hatch {k + 1} is not on the map but has a state")
        if s[E.ROUND] > b[B.B_MAX_ROUNDS]:
            bad.append("past the last round")
    if s[E.CHANCE_N] > E.CHANCE_MAX:
        bad.append("chance log overflow")
    return bad
