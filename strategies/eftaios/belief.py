"""A seat's belief over the map, rebuilt from the public announcements (R13).

Each bot keeps it in its seat's memory (``mem``) between decisions. At every decision it
reads the events it has not seen yet from its observation's ring (``O_LOG``, event number e
at slot e % 256; the ring holds more than a round's events, so none is ever missed) and
updates, for every seat j (itself included: what the others can know of it):

* ``H_j``: the sectors j can be on if j is a human, ``A_j``: if j is an alien. A move
  expands a set by the side's range (human 1, 2 after a public Adrenaline; alien 2, 3 once
  fed: a public kill of a human feeds the attacker, R9); an announcement intersects it
  (noise or silence: a dangerous sector; a quiet turn: a safe one; an attack, a spotlight,
  a hatch: one sector). This forward filter is exact for "some path of j is consistent with
  everything announced" (up to a few readings it does not model, see ``_quiet``).
* ``LH_j`` / ``LA_j``: the same sets anchored on j's last noise, as if it were true (a noise
  is true for every noise-here card and for a noise-any card naming its own sector); cleared
  when the anchor becomes inconsistent (then it was a bluff) or older than ``ANCHOR_TURNS``.
* the side j may be on: an item use, a Defence, a hatch shows a human; an attack with no
  item shown, an infection shows an alien; an empty set rules a side out.

To save work a bot tracks only the hypotheses it uses (``TRACK_*`` per seat): a human the
aliens' sets of the others and its own human set (its bluffs keep it plausible), an alien the
humans' sets; the searching bot tracks both.
"""

from __future__ import annotations

import numpy as np

from simkit.games.eftaios import bits
from simkit.games.eftaios import engine as E
from simkit.games.eftaios.board import (
    B_ADVANCED,
    B_ALIEN_START,
    B_ARENA_SAFE_CLOSED,
    B_CHAR_SIDE,
    B_FEEDING,
    B_HATCH_CELL,
    B_HUMAN_START,
    B_HUMANS,
    B_OG_CHARS,
    B_OG_ITEMS,
    B_PLAYERS,
    B_SCENARIO,
    BB_DANGER,
    BB_SAFE,
    BB_WALK,
    IT_ADRENALINE,
    IT_ATTACK,
    IT_SEDATIVES,
    IT_TELEPORT,
    SC_ARENA,
)
from simkit.jit import inline_kernel, kernel
from simkit.layout import Layout

NS = 8  # seats
W = bits.INTS  # ints per set
ANCHOR_TURNS = 4  # a noise anchors a seat's likely sectors for this many of its turns
TRACK_H, TRACK_A = 1, 2

MEM = Layout("eftaios bot memory")
M_H = MEM.array("h", NS * W)  # the sets come first: even offsets for their int64 views
M_A = MEM.array("a", NS * W)
M_LH = MEM.array("lh", NS * W)
M_LA = MEM.array("la", NS * W)
M_T0 = MEM.array("t0", W)  # scratch sets
M_T1 = MEM.array("t1", W)
M_T2 = MEM.array("t2", W)
M_T3 = MEM.array("t3", W)
M_THREAT = MEM.array("threat", NS * W)  # the heuristic's reach sets of the other seats (cached)
M_THREAT_W = MEM.array("threat_w", NS)  # their weights x 1e6
(M_INIT, M_SEEN, M_ME, M_CUR, M_SEARCH, M_TARGET_SIDE, M_THREAT_STAMP) = MEM.scalars(
    "init", "seen", "me", "cur", "search", "target_side", "threat_stamp")
SEAT = MEM.seats("seat", NS, "track", "pend", "adr", "sed", "item_att", "can_h", "can_a", "fed", "gone",
                 "age_h", "age_a", "last_noise", "noise_round", "attacks", "seen_round")
S_BASE, S_STRIDE = SEAT.base, SEAT.stride
(S_TRACK, S_PEND, S_ADR, S_SED, S_ITEM_ATT, S_CAN_H, S_CAN_A, S_FED, S_GONE, S_AGE_H, S_AGE_A,
 S_LAST_NOISE, S_NOISE_ROUND, S_ATTACKS, S_SEEN_ROUND) = SEAT.fields.values()
MEM_SIZE = MEM.size
for _f in ("h", "a", "lh", "la", "t0", "t1", "t2", "t3", "threat"):
    assert MEM.fields[_f].offset % 2 == 0


@inline_kernel
def sg(mem, j, f):
    return mem[S_BASE + j * S_STRIDE + f]


@inline_kernel
def sset(mem, j, f, v):
    mem[S_BASE + j * S_STRIDE + f] = v


@inline_kernel
def seat_set(mem, off, j):
    """Seat j's set in the array at ``off`` (M_H, M_A, M_LH, M_LA, M_THREAT) as a bit set."""
    return mem[off + j * W:off + j * W + W].view(np.int64)


@inline_kernel
def side_sets(side):
    """Where a side's sets are: the possible sectors, the noise-anchored ones, the anchor's age."""
    if side == E.HUMAN:
        return M_H, M_LH, S_AGE_H
    return M_A, M_LA, S_AGE_A


@inline_kernel
def in_play(obs, mem, j):
    """j is another seat, aboard and not known to be gone: one whose sectors matter."""
    return j != obs[E.O_SEAT] and obs[E.O_STATUS + j] == E.ST_ABOARD and sg(mem, j, S_GONE) == 0


@kernel
def step_sets(src, acc, frontier, nxt, steps, walk):
    """acc = union over 1..steps of the walk-limited expansions of src (frontier, nxt scratch)."""
    bits.copy(frontier, src)
    bits.clear(acc)
    for _ in range(steps):
        bits.expand(frontier, nxt)
        bits.and_into(nxt, walk)
        bits.or_into(acc, nxt)
        bits.copy(frontier, nxt)
    if bits.count(src) == 1:
        bits.andnot_into(acc, src)


@kernel
def init(obs, b, mem, search):
    """A new game's belief: humans on the Human sector, aliens on the Alien sector (R1.6)."""
    for i in range(MEM_SIZE):
        mem[i] = 0
    me = obs[E.O_SEAT]
    n = b[B_PLAYERS]
    mem[M_INIT] = 1
    mem[M_ME] = me
    mem[M_CUR] = -1
    mem[M_SEARCH] = 1 if search else 0
    arena = b[B_SCENARIO] == SC_ARENA
    mem[M_TARGET_SIDE] = E.ALIEN if arena else E.HUMAN
    for j in range(n):
        sset(mem, j, S_CAN_H, 0 if arena else 1)
        sset(mem, j, S_CAN_A, 1)
        sset(mem, j, S_AGE_H, -1)
        sset(mem, j, S_AGE_A, -1)
        sset(mem, j, S_LAST_NOISE, -1)
        sset(mem, j, S_NOISE_ROUND, -1)
        sset(mem, j, S_SEEN_ROUND, -1)
        h = mem[M_H + j * W:M_H + j * W + W].view(np.int64)
        a = mem[M_A + j * W:M_A + j * W + W].view(np.int64)
        if not arena:
            bits.add(h, b[B_HUMAN_START])
            if b[B_OG_CHARS] != 0:
                bits.add(h, b[B_ALIEN_START])  # Old Guard H.2: the Psychologist starts there
            bits.add(a, b[B_ALIEN_START])
        else:
            for k in range(4):
                if b[B_HATCH_CELL + k] >= 0:
                    bits.add(a, b[B_HATCH_CELL + k])  # R12.4.3: some start hatch
    set_tracking(obs, b, mem)
    if arena:
        sset(mem, me, S_CAN_H, 0)


@kernel
def set_tracking(obs, b, mem):
    """Which hypotheses to follow for each seat (all of them for the searching bot)."""
    me = mem[M_ME]
    n = b[B_PLAYERS]
    human = obs[E.O_SIDE] == E.HUMAN
    for j in range(n):
        t = TRACK_H | TRACK_A
        if mem[M_SEARCH] == 0:
            if b[B_SCENARIO] == SC_ARENA:
                t = TRACK_A
            elif human:
                t = TRACK_H if j == me else TRACK_A
            else:
                t = TRACK_H
        old = sg(mem, j, S_TRACK)
        sset(mem, j, S_TRACK, t)
        if old != 0 and (t & ~old) != 0:  # a newly followed hypothesis starts from "anywhere"
            walk = b[BB_WALK:BB_WALK + W].view(np.int64)
            off = (M_H if (t & ~old) == TRACK_H else M_A) + j * W
            bits.copy(mem[off:off + W].view(np.int64), walk)


@inline_kernel
def walk_of(b):
    off = BB_DANGER if (b[B_SCENARIO] == SC_ARENA and b[B_ARENA_SAFE_CLOSED] != 0) else BB_WALK
    return off


@kernel
def apply_move(b, mem, j):
    """j's move of this turn, unseen: each followed set grows by that side's range."""
    if sg(mem, j, S_PEND) == 0:
        return
    sset(mem, j, S_PEND, 0)
    t = sg(mem, j, S_TRACK)
    wo = walk_of(b)
    walk = b[wo:wo + W].view(np.int64)
    f = mem[M_T0:M_T0 + W].view(np.int64)
    nx = mem[M_T1:M_T1 + W].view(np.int64)
    acc = mem[M_T2:M_T2 + W].view(np.int64)
    if (t & TRACK_H) != 0 and sg(mem, j, S_CAN_H) != 0:
        adr = sg(mem, j, S_ADR)
        rng_h = 1 if adr == 0 else 2
        for k in range(2):
            off = (M_H if k == 0 else M_LH) + j * W
            if k == 1 and sg(mem, j, S_AGE_H) < 0:
                break
            st = mem[off:off + W].view(np.int64)
            step_sets(st, acc, f, nx, rng_h, walk)
            bits.copy(st, acc)
        if sg(mem, j, S_AGE_H) >= 0:
            sset(mem, j, S_AGE_H, sg(mem, j, S_AGE_H) + 1)
            if sg(mem, j, S_AGE_H) > ANCHOR_TURNS:
                sset(mem, j, S_AGE_H, -1)
    if (t & TRACK_A) != 0 and sg(mem, j, S_CAN_A) != 0:
        rng_a = 3 if sg(mem, j, S_FED) != 0 else 2
        for k in range(2):
            off = (M_A if k == 0 else M_LA) + j * W
            if k == 1 and sg(mem, j, S_AGE_A) < 0:
                break
            st = mem[off:off + W].view(np.int64)
            step_sets(st, acc, f, nx, rng_a, walk)
            bits.copy(st, acc)
        if sg(mem, j, S_AGE_A) >= 0:
            sset(mem, j, S_AGE_A, sg(mem, j, S_AGE_A) + 1)
            if sg(mem, j, S_AGE_A) > ANCHOR_TURNS:
                sset(mem, j, S_AGE_A, -1)


@kernel
def restrict(b, mem, j, mask_off, single):
    """Intersects j's followed sets with a board mask (``mask_off``) or one sector (``single``);
    a set made empty rules that side out (or, if nothing was left, the belief restarts)."""
    t = sg(mem, j, S_TRACK)
    m = mem[M_T3:M_T3 + W].view(np.int64)
    if single >= 0:
        bits.clear(m)
        bits.add(m, single)
    else:
        bits.copy(m, b[mask_off:mask_off + W].view(np.int64))
    for k in range(2):
        bit = TRACK_H if k == 0 else TRACK_A
        can = S_CAN_H if k == 0 else S_CAN_A
        if (t & bit) == 0 or sg(mem, j, can) == 0:
            continue
        off = (M_H if k == 0 else M_A) + j * W
        st = mem[off:off + W].view(np.int64)
        bits.and_into(st, m)
        if bits.empty(st):
            if single >= 0:
                bits.add(st, single)  # a sector seen: keep it (the belief was too narrow)
            else:
                sset(mem, j, can, 0)
        loff = (M_LH if k == 0 else M_LA) + j * W
        age = S_AGE_H if k == 0 else S_AGE_A
        if sg(mem, j, age) >= 0:
            ls = mem[loff:loff + W].view(np.int64)
            bits.and_into(ls, m)
            if bits.empty(ls):
                sset(mem, j, age, -1)  # the anchor was a bluff
    if sg(mem, j, S_CAN_H) == 0 and sg(mem, j, S_CAN_A) == 0:
        # inconsistent (an unmodelled reading): start over from what is certain
        sset(mem, j, S_CAN_H, 1 if b[B_SCENARIO] != SC_ARENA else 0)
        sset(mem, j, S_CAN_A, 1)
        for k in range(2):
            off = (M_H if k == 0 else M_A) + j * W
            st = mem[off:off + W].view(np.int64)
            if single >= 0:
                bits.clear(st)
                bits.add(st, single)
            else:
                bits.copy(st, b[BB_WALK:BB_WALK + W].view(np.int64))


@kernel
def set_side(b, mem, j, side):
    """j is known to be on ``side``."""
    if side == E.HUMAN:
        sset(mem, j, S_CAN_A, 0)
        sset(mem, j, S_AGE_A, -1)
        if sg(mem, j, S_CAN_H) == 0:
            sset(mem, j, S_CAN_H, 1)
    else:
        sset(mem, j, S_CAN_H, 0)
        sset(mem, j, S_AGE_H, -1)
        if sg(mem, j, S_CAN_A) == 0:
            sset(mem, j, S_CAN_A, 1)


@kernel
def anchor(mem, j, x):
    """A noise in x: j's likely sectors are {x} if x is possible for that side."""
    t = sg(mem, j, S_TRACK)
    for k in range(2):
        bit = TRACK_H if k == 0 else TRACK_A
        if (t & bit) == 0:
            continue
        off = (M_H if k == 0 else M_A) + j * W
        st = mem[off:off + W].view(np.int64)
        loff = (M_LH if k == 0 else M_LA) + j * W
        ls = mem[loff:loff + W].view(np.int64)
        age = S_AGE_H if k == 0 else S_AGE_A
        if bits.has(st, x):
            bits.clear(ls)
            bits.add(ls, x)
            sset(mem, j, age, 0)


@kernel
def place(mem, j, x):
    """j is seen on sector x (a spotlight, a declared presence, an attack, a hatch)."""
    for k in range(4):
        off = (M_H, M_A, M_LH, M_LA)[k] + j * W
        st = mem[off:off + W].view(np.int64)
        bits.clear(st)
        bits.add(st, x)
    sset(mem, j, S_AGE_H, -1)
    sset(mem, j, S_AGE_A, -1)


@kernel
def update(obs, b, mem):
    """Reads the events the seat has not processed yet and updates the belief."""
    n_seen = obs[E.O_NSEEN]
    start = mem[M_SEEN]
    if n_seen - start > E.OBS_LOG:  # never happens (the engine's invariant), but stay safe
        start = n_seen - E.OBS_LOG
    advanced = b[B_ADVANCED] != 0
    og_items = b[B_OG_ITEMS] != 0
    for i in range(start, n_seen):
        e = obs[E.O_LOG + (i & (E.OBS_LOG - 1))]
        kind = E.ev_kind(e)
        j = E.ev_actor(e)
        x = E.ev_arg(e)
        if kind == E.EV_TURN:
            mem[M_CUR] = j
            sset(mem, j, S_PEND, 1)
            sset(mem, j, S_ADR, 0)
            sset(mem, j, S_SED, 0)
            sset(mem, j, S_ITEM_ATT, 0)
        elif kind == E.EV_ITEM_USED:
            set_side(b, mem, j, E.HUMAN)
            if x == IT_ADRENALINE:
                sset(mem, j, S_ADR, sg(mem, j, S_ADR) + 1)
            elif x == IT_SEDATIVES:
                sset(mem, j, S_SED, 1)
            elif x == IT_ATTACK:
                sset(mem, j, S_ITEM_ATT, 1)
            elif x == IT_TELEPORT:  # before the move it starts there, after it ends there
                place(mem, j, b[B_HUMAN_START])
        elif kind == E.EV_ITEM_DISCARDED:
            if og_items and x < 0 and mem[M_CUR] == j:
                sset(mem, j, S_SED, 1)  # G.4: maybe a secret Sedatives or Attack
                sset(mem, j, S_ITEM_ATT, 1)
        elif kind == E.EV_NOISE:
            apply_move(b, mem, j)
            restrict(b, mem, j, BB_DANGER, -1)
            anchor(mem, j, x)
            sset(mem, j, S_LAST_NOISE, x)
            sset(mem, j, S_NOISE_ROUND, E.ev_round(e))
        elif kind == E.EV_SILENCE:
            apply_move(b, mem, j)
            restrict(b, mem, j, BB_DANGER, -1)
        elif kind == E.EV_QUIET:
            apply_move(b, mem, j)
            if sg(mem, j, S_SED) == 0 and b[B_OG_CHARS] == 0:
                restrict(b, mem, j, BB_SAFE, -1)
        elif kind == E.EV_ATTACK:
            apply_move(b, mem, j)
            sset(mem, j, S_ATTACKS, sg(mem, j, S_ATTACKS) + 1)
            if sg(mem, j, S_ITEM_ATT) == 0 or not advanced:
                set_side(b, mem, j, E.ALIEN)
            place(mem, j, x)
        elif kind == E.EV_PRESENT or kind == E.EV_SEEN:
            place(mem, j, x)
            sset(mem, j, S_SEEN_ROUND, E.ev_round(e))
        elif kind == E.EV_DEFENDED:
            set_side(b, mem, j, E.HUMAN)
        elif kind == E.EV_KILLED:
            cur = mem[M_CUR]
            # a kill of a human feeds the attacker (R9): the victim's card shows the side
            if cur >= 0 and x >= 0 and b[B_FEEDING] != 0 and sg(mem, cur, S_ITEM_ATT) == 0:
                if _char_human(b, x):
                    sset(mem, cur, S_FED, 1)
            if b[B_SCENARIO] == SC_ARENA:
                sset(mem, j, S_PEND, 0)
            else:
                sset(mem, j, S_GONE, 1)
        elif kind == E.EV_INFECTED:
            sset(mem, j, S_GONE, 0)
            set_side(b, mem, j, E.ALIEN)
            if j == mem[M_ME]:
                set_tracking(obs, b, mem)
            t = sg(mem, j, S_TRACK)
            if (t & TRACK_A) == 0:
                sset(mem, j, S_TRACK, t | TRACK_A)
            place(mem, j, x)
        elif kind == E.EV_RESPAWN:
            if x >= 0:
                place(mem, j, x)
            else:
                a = mem[M_A + j * W:M_A + j * W + W].view(np.int64)
                bits.clear(a)
                for k in range(4):
                    if b[B_HATCH_CELL + k] >= 0:
                        bits.add(a, b[B_HATCH_CELL + k])
        elif kind == E.EV_HATCH:
            apply_move(b, mem, j)
            set_side(b, mem, j, E.HUMAN)
            place(mem, j, b[B_HATCH_CELL + x - 1])
        elif kind == E.EV_ESCAPED:
            apply_move(b, mem, j)
            set_side(b, mem, j, E.HUMAN)
            sset(mem, j, S_GONE, 1)
        elif kind == E.EV_STRANDED:
            sset(mem, j, S_GONE, 1)
    mem[M_SEEN] = n_seen


@inline_kernel
def _char_human(b, c):
    return b[B_CHAR_SIDE + c] == 0


@kernel
def p_side(obs, b, mem, j, side):
    """The chance that seat j is on ``side``, from what is known: revealed sides, sides shown
    by play, and the number of humans dealt (R1.2) spread over the undecided seats."""
    ps = obs[E.O_PUB_SIDE + j]
    if ps >= 0:
        return 1.0 if ps == side else 0.0
    me = mem[M_ME]
    if j == me:
        return 1.0 if obs[E.O_SIDE] == side else 0.0
    ch = sg(mem, j, S_CAN_H)
    ca = sg(mem, j, S_CAN_A)
    if ch != 0 and ca == 0:
        return 1.0 if side == E.HUMAN else 0.0
    if ca != 0 and ch == 0:
        return 1.0 if side == E.ALIEN else 0.0
    n = b[B_PLAYERS]
    humans_left = b[B_HUMANS]
    undecided = 0
    for q in range(n):
        if q == me:
            if obs[E.O_START_SIDE] == E.HUMAN:
                humans_left -= 1
            continue
        s0 = obs[E.O_PUB_SIDE + q]
        if s0 >= 0:
            if s0 == E.HUMAN or (obs[E.O_REVEALED + q] >= 0 and _char_human(b, obs[E.O_REVEALED + q])):
                humans_left -= 1
            continue
        qh = sg(mem, q, S_CAN_H)
        qa = sg(mem, q, S_CAN_A)
        if qh != 0 and qa == 0:
            humans_left -= 1
        elif qh != 0 and qa != 0:
            undecided += 1
    if undecided <= 0:
        ph = 0.5
    else:
        ph = min(1.0, max(0.0, humans_left / undecided))
    return ph if side == E.HUMAN else 1.0 - ph
