"""Readable text of an Escape From the Aliens game (for ``simkit trace`` and notebooks), and
the invariants the conformance suite checks after every step."""

from __future__ import annotations

import numpy as np

from . import board as B
from . import data_model as dm
from . import engine as E

ITEM_NAMES = dm.ITEM_KINDS
CARD_NAMES = ("noise here", "noise anywhere", "silence")
STATUS_NAMES = ("aboard", "dead", "escaped", "waiting")
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


def who(s, b, p: int) -> str:
    p = int(p)
    if p < 0:
        return "-"
    c = _pf(s, p, E.P_CHAR)
    name = B.cards().characters[c].role if c >= 0 and int(b[B.B_NCHARS]) <= len(B.cards().characters) else "alien"
    return f"seat {p + 1} ({name})"


def describe_event(s, b, e: int) -> str:
    kind, actor, arg = E.ev_kind(e), E.ev_actor(e), E.ev_arg(e)
    name = E.EVENT_NAMES[kind]
    if kind in (E.EV_NOISE, E.EV_SPOTLIGHT, E.EV_SEEN, E.EV_ATTACK, E.EV_PRESENT, E.EV_INFECTED):
        what = sector(b, arg)
    elif kind in (E.EV_ITEM_USED,):
        what = ITEM_NAMES[arg]
    elif kind == E.EV_ITEM_DISCARDED:
        what = ITEM_NAMES[arg] if arg >= 0 else "face down"
    elif kind in (E.EV_KILLED, E.EV_STRANDED):
        what = f"character {arg}" if arg >= 0 else ""
    elif kind in (E.EV_HATCH, E.EV_HATCH_RED, E.EV_ESCAPED):
        what = f"hatch {arg}"
    elif kind == E.EV_ITEM_DRAWN:
        what = f"now holds {arg}"
    elif kind == E.EV_GAME_OVER:
        return f"GAME OVER ({END_NAMES[arg]})"
    elif kind == E.EV_RESPAWN:
        what = sector(b, arg) if arg >= 0 else "(start hatch, secret)"
    else:
        what = ""
    return f"{name} seat {actor + 1}" + (f" {what}" if what else "")


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
        return f"Spotlight on {sector(b, k)}"
    if kind == "noise_at":
        return f"noise in {sector(b, k)}"
    if kind == "discard":
        return f"discards {ITEM_NAMES[k]}"
    if kind == "start_hatch":
        return f"starts on hatch {k + 1}"
    return {"stay": "cannot move: stays", "stay_attack": "cannot move: stays and attacks",
            "use_adrenaline": "Adrenaline", "use_teleport": "Teleport", "use_sedatives": "Sedatives",
            "use_attack": "Attack (item)", "pre_done": "moves on", "resolve": "resolves the sector",
            "end_turn": "ends the turn", "defend": "plays Defence", "no_defend": "no Defence"}[kind]


def describe_step(params, before: np.ndarray, after: np.ndarray, b: np.ndarray, a: int) -> str | None:
    text = describe_action(params, before, b, a)
    evs = [describe_event(after, b, e) for e in events_between(before, after)]
    return text + ("; " + "; ".join(evs) if evs else "")


def describe_setup(params, s: np.ndarray, b: np.ndarray) -> str:
    n = int(b[B.B_PLAYERS])
    parts = []
    for p in range(n):
        side = SIDE_NAMES[_pf(s, p, E.P_SIDE)]
        parts.append(f"seat {p + 1} {who(s, b, p).split('(')[1][:-1]} ({side})")
    return "; ".join(parts) + f"; first player seat {int(s[E.FIRST]) + 1}"


def describe_state(params, s: np.ndarray, b: np.ndarray) -> str:
    n = int(b[B.B_PLAYERS])
    seats = []
    for p in range(n):
        st = _pf(s, p, E.P_STATUS)
        txt = f"{p + 1}:{SIDE_NAMES[_pf(s, p, E.P_SIDE)][0]}@{sector(b, _pf(s, p, E.P_POS)) if st == 0 else STATUS_NAMES[st]}"
        if _pf(s, p, E.P_NHAND):
            txt += "[" + ",".join(ITEM_NAMES[int(b[B.B_ITEM_KIND + _pf(s, p, E.P_HAND + i)])][:3]
                                  for i in range(_pf(s, p, E.P_NHAND))) + "]"
        if _pf(s, p, E.P_FED):
            txt += "*"
        seats.append(txt)
    hatches = "".join(".ODU"[int(s[E.HATCH_STATE + k])] for k in range(4))
    head = f"round {int(s[E.ROUND])}" + (" (over)" if s[E.OVER] else f", seat {int(E.to_move(s)) + 1} to play ({E.PHASE_NAMES[int(s[E.PHASE])]})")
    return f"{head}; hatches {hatches}; " + " ".join(seats)


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
