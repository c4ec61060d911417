"""Escape From the Aliens In Outer Space, compiled: an ``int32`` state vector plus an action
gives the next state. Rule numbers (R4.3, A12 ...) refer to docs/rules/eftaios.md, whose
"Decision points, actions and chance" section this module follows: the same action ids,
the same phases, the same order of chance events (recorded in ``chance_log``, see
tests/reference/lockstep.py, docs/adding-a-game.md section 10).

Decision points (``s[PHASE]``), taken by ``to_move(s)``:

* ``P_START``   Arena with secret start hatches: ``A_START_HATCH + k - 1`` (R12.4.3, A23);
* ``P_PRE``     before the move: Adrenaline, Teleport, Spotlight or ``A_PRE_DONE`` (R8.4);
* ``P_MOVE``    ``A_MOVE + x``; aliens also ``A_MOVE_ATTACK + x``; with no destination
  ``A_STAY`` / ``A_STAY_ATTACK`` (R4, R6, A28);
* ``P_POST``    after the move: Attack, Sedatives, Spotlight or ``A_RESOLVE`` (R8.7, R8.10);
* ``P_NOISE``   a noise in any sector: ``A_NOISE_AT + x`` (R5.3, A9);
* ``P_DISCARD`` one item too many: ``A_DISCARD + kind`` (R8.3, A6);
* ``P_DEFEND``  a victim holding Defence: ``A_DEFEND`` / ``A_NO_DEFEND`` (R8.12, A4, A5);
* ``P_END``     end of the turn: Spotlight, Teleport or ``A_END_TURN``.

Information (R13): every announcement is an event ``(round, actor, kind, arg)`` packed in one
int32 and appended to the ring of each seat in its audience; ``observe`` shows a seat its own
facts, the public facts and its ring of the last ``OBS_LOG`` events it saw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...jit import inline_kernel, kernel
from ...layout import ActionSpace, Layout
from ...rng import CHANCE, fisher_yates, new_streams, randint
from . import bits
from .board import (
    ALIEN_START,
    B_ADRENALINE_EXACT,
    B_ADRENALINE_STACKS,
    B_ADVANCED,
    B_ALIEN_HATCH_TRANSIT,
    B_ALIEN_START,
    B_ALIENS,
    B_ARENA_END_FIRST,
    B_ARENA_RESPAWN_ALIEN,
    B_ARENA_SAFE_CLOSED,
    B_ARENA_START_RANDOM,
    B_ARENA_THRESHOLD,
    B_CAPTAIN_FIRST_DRAW,
    B_CHAR_ROLE,
    B_CHAR_SIDE,
    B_DANGER_ICON,
    B_DANGER_KIND,
    B_DEAD_ALIENS_WIN,
    B_DEFENCE_ATTACK,
    B_DEFENCE_VS_HUMAN,
    B_DISCARD_REVEALED,
    B_ESCAPED_ITEMS_DISCARDED,
    B_FEEDING,
    B_HATCH_CARDS,
    B_HATCH_CELL,
    B_HATCH_GREEN,
    B_HATCHNUM,
    B_HUMAN_HATCH_TRANSIT,
    B_HUMAN_START,
    B_HUMANS,
    B_INFECTED_KEEP_ITEMS,
    B_INFECTED_WIN,
    B_ITEM_BEFORE_NOISE,
    B_ITEM_KIND,
    B_ITEM_RESHUFFLE,
    B_KIND,
    B_MAX_ROUNDS,
    B_NB,
    B_NCHARS,
    B_NDANGER,
    B_NHATCHCARDS,
    B_NITEMS,
    B_NNOISE,
    B_NOISE_LIST,
    B_NSPOT,
    B_SPOT_LIST,
    B_NOISE_TARGETS,
    B_OG_CHARS,
    B_OG_ITEMS,
    B_OG_SPOTLIGHT_PRIVATE,
    B_OVERFLOW_USE,
    B_PLAYERS,
    B_RESHUFFLE_ON_EMPTY,
    B_SCENARIO,
    B_SPOTLIGHT_ANY,
    B_STRANDED_ALIEN_WIN,
    B_STUCK_QUIET,
    B_USED_HATCH_ENTERABLE,
    BB_DANGER,
    BB_VALID,
    BB_WALK,
    DANGER,
    HATCH,
    HUMAN_START,
    IT_ADRENALINE,
    IT_ATTACK,
    IT_DEFENCE,
    IT_SEDATIVES,
    IT_SPOTLIGHT,
    IT_TELEPORT,
    MAX_CHARS,
    MAX_DANGER,
    MAX_HATCHCARDS,
    MAX_ITEMS,
    N_ITEM_KINDS,
    NCELLS,
    NOISE_ANY,
    NOISE_COORDINATES,
    NOISE_DANGEROUS,
    NOISE_HERE,
    ROLE_CAPTAIN,
    ROLE_PILOT,
    ROLE_PSYCHOLOGIST,
    ROLE_SOLDIER,
    SAFE,
    SC_ARENA,
    SC_INFECTION,
    SILENCE,
    VOID,
)

MAX_SEATS = 8
HAND_SLOTS = 5  # 4 items (Old Guard Soldier) + the one drawn over the limit
OBS_LOG = 256  # events in a seat's ring (a power of two)
GLOG = 512  # the table's ring of every event (traces, tests)
CHANCE_MAX = 192  # chance outcomes one step may log (set-up included)
HUMAN, ALIEN = 0, 1
ST_ABOARD, ST_DEAD, ST_ESCAPED, ST_WAITING = 0, 1, 2, 3
HATCH_ABSENT, HATCH_OPEN, HATCH_DAMAGED, HATCH_USED = 0, 1, 2, 3
FATE_ABOARD, FATE_ESCAPED, FATE_KILLED, FATE_STRANDED, FATE_TIME, FATE_INFECTED = range(6)
CAUSE_KILL, CAUSE_STRANDED, CAUSE_TIME = 2, 3, 4
END_ESCAPED, END_HUMANS_DEAD, END_NO_HUMAN, END_TIME, END_ARENA = range(5)
OUT_ESCAPE, OUT_ELIMINATED, OUT_STRANDED = 1, 2, 3

# Phases
P_START, P_PRE, P_MOVE, P_POST, P_NOISE, P_DISCARD, P_DEFEND, P_END, P_OVER = range(9)
PHASE_NAMES = ("start", "pre", "move", "post", "noise", "discard", "defend", "end", "over")

# Events (R13, "The event log"); arg -1 when there is none
(EV_TURN, EV_RESPAWN, EV_NOISE, EV_SILENCE, EV_QUIET, EV_ITEM_DRAWN, EV_ITEM_DISCARDED, EV_ITEM_USED,
 EV_SPOTLIGHT, EV_SEEN, EV_ATTACK, EV_PRESENT, EV_DEFENDED, EV_KILLED, EV_INFECTED, EV_HATCH, EV_HATCH_RED,
 EV_ESCAPED, EV_STRANDED, EV_GAME_OVER) = range(1, 21)
EVENT_NAMES = ("", "TURN", "RESPAWN", "NOISE", "SILENCE", "QUIET", "ITEM_DRAWN", "ITEM_DISCARDED", "ITEM_USED",
               "SPOTLIGHT", "SEEN", "ATTACK", "PRESENT", "DEFENDED", "KILLED", "INFECTED", "HATCH", "HATCH_RED",
               "ESCAPED", "STRANDED", "GAME_OVER")

# ---- state ------------------------------------------------------------------------------
STATE = Layout("eftaios state")
(PHASE, ROUND, ACTIVE, FIRST, OVER, END_REASON, TURNS, NSEATS, DECIDER, CHANCE_N,
 S0, RSEC, ADREN, SEDATED, CARD_DRAWN, ITEM_ATTACKED, CAP_ACTIVE, STAYED, PENDING, NEED_ANNOUNCE, NEED_ITEM,
 ATT_SEAT, ATT_SECTOR, ATT_ITEM, N_VICTIMS, DEF_IDX, DEF_CANCEL, START_IDX,
 DK_POS, DK_LEN, DD_N, IK_POS, IK_LEN, ID_N, HK_POS, REMOVED_N,
 ESCAPED, HUMANS_KILLED, ALIENS_KILLED, STRANDED, TIME_ELIM, INFECTED, HUMAN_WIN, ALIEN_WIN, DRAW,
 HATCHES_RED, HATCHES_USED, DANGER_DRAWS, DANGER_RESHUFFLES, ITEM_DRAWS, ITEM_RESHUFFLES, LAST_OUT,
 LOG_OFF, GLOG_N) = STATE.scalars(
    "phase", "round", "active", "first", "over", "end_reason", "turns", "nseats", "decider", "chance_n",
    "s0", "rsec", "adren", "sedated", "card_drawn", "item_attacked", "cap_active", "stayed", "pending",
    "need_announce", "need_item", "att_seat", "att_sector", "att_item", "n_victims", "def_idx", "def_cancel",
    "start_idx", "dk_pos", "dk_len", "dd_n", "ik_pos", "ik_len", "id_n", "hk_pos", "removed_n",
    "escaped", "humans_killed", "aliens_killed", "stranded", "time_elim", "infected", "human_win", "alien_win",
    "draw", "hatches_red", "hatches_used", "danger_draws", "danger_reshuffles", "item_draws", "item_reshuffles",
    "last_out", "log_off", "glog_n")
VICTIMS = STATE.array("victims", MAX_SEATS)
PROTECTED = STATE.array("protected", MAX_SEATS)
HATCH_STATE = STATE.array("hatch_state", 4)  # HATCH_* of hatch 1..4
DK = STATE.array("dk", MAX_DANGER)  # Dangerous Sector deck; the top is DK[DK_POS]
DD = STATE.array("dd", MAX_DANGER)  # its discard pile, in discard order
IK = STATE.array("ik", MAX_ITEMS)  # item deck; the top is IK[IK_POS]
IDISC = STATE.array("idisc", MAX_ITEMS)  # item discard pile, in discard order
HK = STATE.array("hk", MAX_HATCHCARDS)  # hatch deck; the top is HK[HK_POS]
CHANCE_LOG = STATE.array("chance_log", CHANCE_MAX)
PLAYER_BLOCK = STATE.seats(
    "player", MAX_SEATS,
    "char", "side", "start_side", "pos", "status", "fed", "fed_round", "cap_pass", "start_hatch",
    "nhand", ("hand", HAND_SLOTS), ("huses", HAND_SLOTS), "revealed", "pub_side",
    "won", "order", "fate", "fate_round", "escape_hatch", "killed_by", "kills", "human_kills",
    "attacks", "noises", "bluffs", "silences", "quiet_turns", "items_drawn", ("used", N_ITEM_KINDS), "discards",
    "last_card", "last_icon", "nseen", "lastdec", "maxgap",
)
PLAYER, P_STRIDE = PLAYER_BLOCK.base, PLAYER_BLOCK.stride
(P_CHAR, P_SIDE, P_START_SIDE, P_POS, P_STATUS, P_FED, P_FED_ROUND, P_CAP_PASS, P_START_HATCH,
 P_NHAND, P_HAND, P_HUSES, P_REVEALED, P_PUB_SIDE, P_WON, P_ORDER, P_FATE, P_FATE_ROUND, P_ESCAPE_HATCH,
 P_KILLED_BY, P_KILLS, P_HUMAN_KILLS, P_ATTACKS, P_NOISES, P_BLUFFS, P_SILENCES, P_QUIET_TURNS,
 P_ITEMS_DRAWN, P_USED, P_DISCARDS, P_LAST_CARD, P_LAST_ICON, P_NSEEN, P_LASTDEC, P_MAXGAP) = PLAYER_BLOCK.fields.values()
LOG = STATE.array("log", MAX_SEATS * OBS_LOG)  # each seat's ring of the events it saw
GLOG_EV = STATE.array("glog_ev", GLOG)  # every event, with its audience
GLOG_AUD = STATE.array("glog_aud", GLOG)
SIZE = STATE.size

# ---- actions (docs/rules/eftaios.md "Action ids") ----------------------------------------
ACTIONS = ActionSpace("eftaios actions")
A_MOVE = ACTIONS.range("move", NCELLS)
A_MOVE_ATTACK = ACTIONS.range("move_attack", NCELLS)
A_STAY = ACTIONS.single("stay")
A_STAY_ATTACK = ACTIONS.single("stay_attack")
A_USE_SPOTLIGHT = ACTIONS.range("use_spotlight", NCELLS)
A_NOISE_AT = ACTIONS.range("noise_at", NCELLS)
A_USE_ADRENALINE = ACTIONS.single("use_adrenaline")
A_USE_TELEPORT = ACTIONS.single("use_teleport")
A_USE_SEDATIVES = ACTIONS.single("use_sedatives")
A_USE_ATTACK = ACTIONS.single("use_attack")
A_PRE_DONE = ACTIONS.single("pre_done")
A_RESOLVE = ACTIONS.single("resolve")
A_END_TURN = ACTIONS.single("end_turn")
A_DISCARD = ACTIONS.range("discard", N_ITEM_KINDS)
A_DEFEND = ACTIONS.single("defend")
A_NO_DEFEND = ACTIONS.single("no_defend")
A_START_HATCH = ACTIONS.range("start_hatch", 4)
MAX_ACTIONS = ACTIONS.size
assert MAX_ACTIONS == 1309
# legal_actions keeps the bit sets of a move's reach in the last ints of ``out`` (never more
# than 2 * 322 + 2 actions are listed before them)
SCR = (MAX_ACTIONS - 6 * bits.INTS - 1) & ~1
SCR_PASS, SCR_ENTER, SCR_F, SCR_V, SCR_N, SCR_R = (SCR + i * bits.INTS for i in range(6))
assert SCR > 2 * NCELLS + 2

# ---- observation (R13, "Information") ----------------------------------------------------
OBS = Layout("eftaios observation")
(O_SEAT, O_CHAR, O_SIDE, O_START_SIDE, O_POS, O_START_HATCH, O_FED, O_CAP_PASS, O_HAND_LIMIT, O_NHAND,
 O_LAST_CARD, O_LAST_ICON, O_PHASE, O_S0, O_RSEC, O_ADREN, O_SEDATED, O_CARD_DRAWN, O_ITEM_ATTACKED,
 O_CAP_ACTIVE, O_STAYED,
 O_ROUND, O_FIRST, O_ACTIVE, O_PLAYERS, O_OVER, O_DK_LEFT, O_DD_N, O_IK_LEFT, O_ID_N, O_HK_LEFT,
 O_NSEEN) = OBS.scalars(
    "seat", "char", "side", "start_side", "pos", "start_hatch", "fed", "cap_pass", "hand_limit", "nhand",
    "last_card", "last_icon", "phase", "s0", "rsec", "adren", "sedated", "card_drawn", "item_attacked",
    "cap_active", "stayed",
    "round", "first", "active", "players", "over", "dk_left", "dd_n", "ik_left", "id_n", "hk_left", "nseen")
O_HAND = OBS.array("hand_kind", HAND_SLOTS)  # kind of each held card (-1 empty)
O_HUSES = OBS.array("hand_uses", HAND_SLOTS)  # uses left (Old Guard Pilot's Teleport: up to 3)
O_ITEMS = OBS.array("items", N_ITEM_KINDS)  # held cards per kind
O_STATUS = OBS.array("status", MAX_SEATS)  # public per seat
O_REVEALED = OBS.array("revealed", MAX_SEATS)
O_PUB_SIDE = OBS.array("pub_side", MAX_SEATS)
O_NITEMS = OBS.array("nitems", MAX_SEATS)
O_KILLS = OBS.array("kills", MAX_SEATS)
O_HATCH = OBS.array("hatch_state", 4)
O_LOG = OBS.array("log", OBS_LOG)  # event number e is in O_LOG + e % OBS_LOG
OBS_SIZE = OBS.size
PERFECT_INFORMATION = False


# ---- events ------------------------------------------------------------------------------
@inline_kernel
def ev_pack(rnd, actor, kind, arg):
    return kind | ((actor + 1) << 5) | ((arg + 1) << 9) | (rnd << 19)


@inline_kernel
def ev_kind(e):
    return e & 31


@inline_kernel
def ev_actor(e):
    return ((e >> 5) & 15) - 1


@inline_kernel
def ev_arg(e):
    return ((e >> 9) & 1023) - 1


@inline_kernel
def ev_round(e):
    return e >> 19


# ---- small helpers -----------------------------------------------------------------------
@inline_kernel
def pf(s, p, f):
    return s[PLAYER + p * P_STRIDE + f]


@inline_kernel
def pset(s, p, f, v):
    s[PLAYER + p * P_STRIDE + f] = v


@inline_kernel
def padd(s, p, f, v):
    s[PLAYER + p * P_STRIDE + f] += v


@inline_kernel
def everyone(b):
    return (1 << b[B_PLAYERS]) - 1


@kernel
def log_event(s, b, aud, kind, actor, arg):
    """Appends an event to the ring of every seat in the audience ``aud`` (a bit mask)."""
    if s[LOG_OFF] != 0:
        return
    e = ev_pack(s[ROUND], actor, kind, arg)
    g = s[GLOG_N] % GLOG
    s[GLOG_EV + g] = e
    s[GLOG_AUD + g] = aud
    s[GLOG_N] += 1
    for p in range(b[B_PLAYERS]):
        if (aud >> p) & 1:
            k = pf(s, p, P_NSEEN)
            s[LOG + p * OBS_LOG + (k & (OBS_LOG - 1))] = e
            pset(s, p, P_NSEEN, k + 1)


@inline_kernel
def log_all(s, b, kind, actor, arg):
    log_event(s, b, everyone(b), kind, actor, arg)


@inline_kernel
def chance(s, rng, m):
    """A uniform choice among ``m`` things from the chance stream, logged (lockstep)."""
    v = randint(rng, CHANCE, m)
    if s[CHANCE_N] < CHANCE_MAX:
        s[CHANCE_LOG + s[CHANCE_N]] = v
    s[CHANCE_N] += 1  # counts past the end too: the invariants catch an overflow
    return v


@njit
def shuffle_list(s, rng, arr, n):
    """Fisher-Yates on ``arr[:n]``; logs the resulting order (index 0 = the top)."""
    fisher_yates(arr[:n], rng, CHANCE)
    for i in range(n):
        if s[CHANCE_N] < CHANCE_MAX:
            s[CHANCE_LOG + s[CHANCE_N]] = arr[i]
        s[CHANCE_N] += 1


@kernel
def shuffle(s, rng, off, n):
    """Fisher-Yates on the deck ``s[off:off+n]``, logged like :func:`shuffle_list`."""
    shuffle_list(s, rng, s[off:off + n], n)


@inline_kernel
def role(s, b, p):
    c = pf(s, p, P_CHAR)
    if c < 0:
        return -1
    return b[B_CHAR_ROLE + c]


@inline_kernel
def items_usable(s, b, p):
    """R8.4: only humans use items, only in the advanced game (never in Arena)."""
    return b[B_ADVANCED] != 0 and b[B_SCENARIO] != SC_ARENA and pf(s, p, P_SIDE) == HUMAN


@inline_kernel
def held(s, p, kind, b):
    """Cards of ``kind`` the seat holds."""
    n = 0
    base = PLAYER + p * P_STRIDE
    for i in range(s[base + P_NHAND]):
        if b[B_ITEM_KIND + s[base + P_HAND + i]] == kind:
            n += 1
    return n


@inline_kernel
def hand_limit(s, b, p):
    """R8.3: three items; the Old Guard Soldier four (H.4)."""
    if b[B_OG_ITEMS] != 0 and role(s, b, p) == ROLE_SOLDIER:
        return 4
    return 3


@inline_kernel
def teleport_ok(s, b, p):
    """R8.8 with R4.3: not from the Human sector, and not when the turn began there."""
    hs = b[B_HUMAN_START]
    return pf(s, p, P_POS) != hs and s[S0] != hs


@inline_kernel
def pre_options(s, b, p):
    if not items_usable(s, b, p):
        return False
    if held(s, p, IT_SPOTLIGHT, b) > 0:
        return True
    if held(s, p, IT_ADRENALINE, b) > 0 and (s[ADREN] == 0 or b[B_ADRENALINE_STACKS] != 0):
        return True
    return held(s, p, IT_TELEPORT, b) > 0 and pf(s, p, P_POS) != b[B_HUMAN_START]


@inline_kernel
def attack_item_ok(s, b, p):
    return held(s, p, IT_ATTACK, b) > 0 and s[ITEM_ATTACKED] == 0 and b[B_KIND + pf(s, p, P_POS)] != HATCH


@inline_kernel
def sedatives_ok(s, b, p):
    return held(s, p, IT_SEDATIVES, b) > 0 and b[B_KIND + pf(s, p, P_POS)] == DANGER and s[SEDATED] == 0


@inline_kernel
def post_options(s, b, p):
    if not items_usable(s, b, p):
        return False
    return held(s, p, IT_SPOTLIGHT, b) > 0 or attack_item_ok(s, b, p) or sedatives_ok(s, b, p)


@inline_kernel
def end_options(s, b, p):
    if not items_usable(s, b, p):
        return False
    return held(s, p, IT_SPOTLIGHT, b) > 0 or (held(s, p, IT_TELEPORT, b) > 0 and teleport_ok(s, b, p))


@inline_kernel
def humans_aboard(s, b):
    n = 0
    for p in range(b[B_PLAYERS]):
        if pf(s, p, P_STATUS) == ST_ABOARD and pf(s, p, P_SIDE) == HUMAN:
            n += 1
    return n


@inline_kernel
def open_hatches(s):
    n = 0
    for k in range(4):
        if s[HATCH_STATE + k] == HATCH_OPEN:
            n += 1
    return n


# ---- movement (R4) -----------------------------------------------------------------------
@inline_kernel
def move_range(s, b, p):
    """R4.1: humans 1 (Adrenaline 2, A8: +1 a card), aliens 2, fed aliens 3 (R9)."""
    if pf(s, p, P_SIDE) == HUMAN:
        a = s[ADREN]
        if a == 0:
            return 1
        if b[B_ADRENALINE_STACKS] != 0:
            return 1 + a
        return 2
    if pf(s, p, P_FED) != 0:
        return 3
    return 2


@kernel
def reach(s, b, p, scratch):
    """The destinations of the seat's move as a bit set in ``scratch[SCR_R - SCR:]``
    (R4.1-R4.7, A1-A3, A7, A22); ``scratch`` is the whole ``out`` array."""
    ps = scratch[SCR_PASS:SCR_PASS + bits.INTS].view(np.int64)
    en = scratch[SCR_ENTER:SCR_ENTER + bits.INTS].view(np.int64)
    f = scratch[SCR_F:SCR_F + bits.INTS].view(np.int64)
    v = scratch[SCR_V:SCR_V + bits.INTS].view(np.int64)
    nx = scratch[SCR_N:SCR_N + bits.INTS].view(np.int64)
    r = scratch[SCR_R:SCR_R + bits.INTS].view(np.int64)
    wo = BB_DANGER if (b[B_SCENARIO] == SC_ARENA and b[B_ARENA_SAFE_CLOSED] != 0) else BB_WALK  # A22
    walk = b[wo:wo + bits.INTS].view(np.int64)
    bits.copy(ps, walk)
    bits.copy(en, walk)
    human = pf(s, p, P_SIDE) == HUMAN
    for k in range(4):
        st = s[HATCH_STATE + k]
        cell = b[B_HATCH_CELL + k]
        if st == HATCH_OPEN:
            if human:
                bits.add(en, cell)  # R4.6: humans end on open hatches
                if b[B_HUMAN_HATCH_TRANSIT] != 0:
                    bits.add(ps, cell)  # A2 (b)
            elif b[B_ALIEN_HATCH_TRANSIT] != 0:
                bits.add(ps, cell)  # A1 (b): aliens pass, never stop
        elif st == HATCH_USED and human and b[B_USED_HATCH_ENTERABLE] != 0:
            bits.add(ps, cell)  # A3 (b): a plain safe sector for humans
            bits.add(en, cell)
    start = pf(s, p, P_POS)
    steps = move_range(s, b, p)
    valid = b[BB_VALID:BB_VALID + bits.INTS].view(np.int64)
    bits.clear(r)
    if b[B_ADRENALINE_EXACT] != 0 and human and s[ADREN] > 0:
        # A7 (b): walks of exactly `steps` steps; they may double back but never stop at the start
        bits.clear(f)
        bits.add(f, start)
        for i in range(steps):
            bits.expand(f, nx)
            bits.and_into(nx, valid)
            if i == steps - 1:
                bits.and_into(nx, en)
                bits.copy(r, nx)
            else:
                bits.and_into(nx, ps)
                bits.copy(f, nx)
        bits.remove(r, start)
    else:
        bits.clear(f)
        bits.add(f, start)
        bits.copy(v, f)
        for i in range(steps):
            bits.expand(f, nx)
            bits.and_into(nx, valid)
            bits.andnot_into(nx, v)
            bits.or_into(v, nx)
            for w in range(bits.WORDS):
                r[w] |= nx[w] & en[w]
                f[w] = nx[w] & ps[w]
    bits.remove(r, s[S0])  # R4.3: never end where the turn began


# ---- legal actions -----------------------------------------------------------------------
@kernel
def list_targets(b, out, n, base, noise, own):
    """``base + x`` for every sector x a noise anywhere (A9) or a Spotlight (A10) may name,
    from the board's precomputed lists; ``own`` (the seat's sector) is always allowed."""
    lst = B_NOISE_LIST if noise else B_SPOT_LIST
    m = b[B_NNOISE] if noise else b[B_NSPOT]
    placed = own < 0
    for i in range(m):
        x = b[lst + i]
        if not placed and own <= x:
            if own < x:
                out[n] = base + own
                n += 1
            placed = True
        out[n] = base + x
        n += 1
    if not placed:
        out[n] = base + own
        n += 1
    return n


@kernel
def legal_actions(s, b, out):
    """Writes the legal actions into ``out`` and returns how many there are. The last
    ints of ``out`` serve as scratch for the move's reach (SCR)."""
    if s[OVER] != 0:
        return 0
    phase = s[PHASE]
    p = to_move(s)
    n = 0
    if phase == P_MOVE:
        reach(s, b, p, out)
        r = out[SCR_R:SCR_R + bits.INTS].view(np.int64)
        alien = pf(s, p, P_SIDE) == ALIEN
        for w in range(bits.WORDS):
            x = r[w]
            while x != 0:
                low = x & -x
                cell = bits.cell_at(w, bits.lowest(low))
                out[n] = A_MOVE + cell
                n += 1
                x ^= low
        if alien:
            for i in range(n):
                out[n + i] = out[i] - A_MOVE + A_MOVE_ATTACK
            n *= 2
        if n == 0:  # R4.2, A28
            out[0] = A_STAY
            n = 1
            if alien:
                out[1] = A_STAY_ATTACK
                n = 2
        return n
    if phase == P_PRE:
        if held(s, p, IT_ADRENALINE, b) > 0 and (s[ADREN] == 0 or b[B_ADRENALINE_STACKS] != 0):
            out[n] = A_USE_ADRENALINE
            n += 1
        if held(s, p, IT_TELEPORT, b) > 0 and pf(s, p, P_POS) != b[B_HUMAN_START]:
            out[n] = A_USE_TELEPORT
            n += 1
        if held(s, p, IT_SPOTLIGHT, b) > 0:
            n = list_targets(b, out, n, A_USE_SPOTLIGHT, False, -1)
        out[n] = A_PRE_DONE
        return n + 1
    if phase == P_POST:
        if attack_item_ok(s, b, p):
            out[n] = A_USE_ATTACK
            n += 1
        if sedatives_ok(s, b, p):
            out[n] = A_USE_SEDATIVES
            n += 1
        if held(s, p, IT_SPOTLIGHT, b) > 0:
            n = list_targets(b, out, n, A_USE_SPOTLIGHT, False, -1)
        out[n] = A_RESOLVE
        return n + 1
    if phase == P_NOISE:
        return list_targets(b, out, 0, A_NOISE_AT, True, s[RSEC])
    if phase == P_DISCARD:
        for k in range(N_ITEM_KINDS):
            if held(s, p, k, b) > 0:
                out[n] = A_DISCARD + k
                n += 1
        if b[B_OVERFLOW_USE] != 0 and items_usable(s, b, p):  # A6 (b)
            if held(s, p, IT_TELEPORT, b) > 0 and teleport_ok(s, b, p):
                out[n] = A_USE_TELEPORT
                n += 1
            if held(s, p, IT_SPOTLIGHT, b) > 0:
                n = list_targets(b, out, n, A_USE_SPOTLIGHT, False, -1)
        return n
    if phase == P_DEFEND:
        out[0] = A_DEFEND
        out[1] = A_NO_DEFEND
        return 2
    if phase == P_END:
        if held(s, p, IT_TELEPORT, b) > 0 and teleport_ok(s, b, p):
            out[n] = A_USE_TELEPORT
            n += 1
        if held(s, p, IT_SPOTLIGHT, b) > 0:
            n = list_targets(b, out, n, A_USE_SPOTLIGHT, False, -1)
        out[n] = A_END_TURN
        return n + 1
    if phase == P_START:
        for k in range(4):
            if b[B_HATCH_CELL + k] >= 0:
                out[n] = A_START_HATCH + k
                n += 1
        return n
    return 0


# ---- cards ---------------------------------------------------------------------------------
@kernel
def reshuffle_danger(s, rng):
    """R5.5: the discards, in discard order, shuffled into a new deck."""
    m = s[DD_N]
    for i in range(m):
        s[DK + i] = s[DD + i]
    s[DK_POS] = 0
    s[DK_LEN] = m
    s[DD_N] = 0
    shuffle(s, rng, DK, m)
    s[DANGER_RESHUFFLES] += 1


@kernel
def draw_danger(s, b, rng):
    """The top Dangerous Sector card (A12 says when the discards are reshuffled)."""
    if s[DK_POS] >= s[DK_LEN]:
        reshuffle_danger(s, rng)
    card = s[DK + s[DK_POS]]
    s[DK_POS] += 1
    if b[B_RESHUFFLE_ON_EMPTY] != 0 and s[DK_POS] >= s[DK_LEN] and s[DD_N] > 0:
        reshuffle_danger(s, rng)
    s[DANGER_DRAWS] += 1
    return card


@kernel
def discard_slot(s, p, slot):
    """Moves the card in a hand slot to the item discard pile."""
    base = PLAYER + p * P_STRIDE
    s[IDISC + s[ID_N]] = s[base + P_HAND + slot]
    s[ID_N] += 1
    last = s[base + P_NHAND] - 1
    for i in range(slot, last):
        s[base + P_HAND + i] = s[base + P_HAND + i + 1]
        s[base + P_HUSES + i] = s[base + P_HUSES + i + 1]
    s[base + P_HAND + last] = -1
    s[base + P_HUSES + last] = 0
    s[base + P_NHAND] = last


@kernel
def pick_slot(s, b, p, kind):
    """The held card of ``kind`` a use or a discard takes: fewest uses left, then lowest id."""
    base = PLAYER + p * P_STRIDE
    best = -1
    for i in range(s[base + P_NHAND]):
        c = s[base + P_HAND + i]
        if b[B_ITEM_KIND + c] != kind:
            continue
        if best < 0:
            best = i
            continue
        u, bu = s[base + P_HUSES + i], s[base + P_HUSES + best]
        if u < bu or (u == bu and c < s[base + P_HAND + best]):
            best = i
    return best


@kernel
def discard_all(s, p):
    """R6.4 (S3): every held card to the item discard pile, in ascending card-id order."""
    base = PLAYER + p * P_STRIDE
    while s[base + P_NHAND] > 0:
        best = 0
        for i in range(1, s[base + P_NHAND]):
            if s[base + P_HAND + i] < s[base + P_HAND + best]:
                best = i
        discard_slot(s, p, best)


@kernel
def draw_item(s, b, rng, p):
    """R8.2: the top item card, face down in front of the player (A13 when the deck is empty)."""
    if s[IK_POS] >= s[IK_LEN]:
        if b[B_ITEM_RESHUFFLE] == 0 or s[ID_N] == 0:
            return
        m = s[ID_N]
        for i in range(m):
            s[IK + i] = s[IDISC + i]
        s[IK_POS] = 0
        s[IK_LEN] = m
        s[ID_N] = 0
        shuffle(s, rng, IK, m)
        s[ITEM_RESHUFFLES] += 1
    card = s[IK + s[IK_POS]]
    s[IK_POS] += 1
    base = PLAYER + p * P_STRIDE
    k = s[base + P_NHAND]
    s[base + P_HAND + k] = card
    uses = 1
    if b[B_OG_ITEMS] != 0 and role(s, b, p) == ROLE_PILOT and b[B_ITEM_KIND + card] == IT_TELEPORT:
        uses = 3  # H.3
    s[base + P_HUSES + k] = uses
    s[base + P_NHAND] = k + 1
    s[base + P_ITEMS_DRAWN] += 1
    s[ITEM_DRAWS] += 1
    log_all(s, b, EV_ITEM_DRAWN, p, k + 1)


@kernel
def use_card(s, b, p, kind):
    """R8.5: the card is shown and discarded (G.4: discarded unseen, except Teleport and
    Defence); the Old Guard Pilot's Teleport keeps a card until its third use (H.3)."""
    slot = pick_slot(s, b, p, kind)
    base = PLAYER + p * P_STRIDE
    s[base + P_HUSES + slot] -= 1
    if s[base + P_HUSES + slot] <= 0:
        discard_slot(s, p, slot)
    s[base + P_USED + kind] += 1
    if b[B_OG_ITEMS] != 0 and kind != IT_TELEPORT and kind != IT_DEFENCE:
        log_all(s, b, EV_ITEM_DISCARDED, p, -1)
    else:
        log_all(s, b, EV_ITEM_USED, p, kind)


# ---- the end (R7, R11, R12.4.6) ----------------------------------------------------------------
@kernel
def finish(s, b, reason):
    """The game ends: winners per R7 / R11 / R12.4.6 and the readings A16, A17, A20."""
    n = b[B_PLAYERS]
    s[OVER] = 1
    s[PHASE] = P_OVER
    s[END_REASON] = reason
    if b[B_SCENARIO] == SC_ARENA:
        for p in range(n):
            won = 0
            if reason == END_ARENA:
                won = 1 if pf(s, p, P_KILLS) >= b[B_ARENA_THRESHOLD] else 0
            elif b[B_ARENA_END_FIRST] == 0:
                won = 1 if pf(s, p, P_KILLS) >= b[B_ARENA_THRESHOLD] else 0
            pset(s, p, P_WON, won)
    else:
        if reason == END_ESCAPED:
            s[ALIEN_WIN] = 0
        elif reason == END_HUMANS_DEAD or reason == END_TIME:
            s[ALIEN_WIN] = 1
        else:  # R11.3: the aliens win if the last human to leave the ship was eliminated
            lo = s[LAST_OUT]
            s[ALIEN_WIN] = 1 if (lo == OUT_ELIMINATED or (lo == OUT_STRANDED and b[B_STRANDED_ALIEN_WIN] != 0)) else 0
        for p in range(n):
            won = 0
            if pf(s, p, P_STATUS) == ST_ESCAPED:
                won = 1  # R7.1, R11.2
                s[HUMAN_WIN] = 1
            elif s[ALIEN_WIN] != 0 and pf(s, p, P_SIDE) == ALIEN:
                if pf(s, p, P_START_SIDE) == ALIEN or b[B_INFECTED_WIN] != 0:  # A20
                    if pf(s, p, P_STATUS) == ST_ABOARD or b[B_DEAD_ALIENS_WIN] != 0:  # A16
                        won = 1
            pset(s, p, P_WON, won)
    any_won = 0
    for p in range(n):
        any_won |= pf(s, p, P_WON)
    s[DRAW] = 1 - any_won
    log_all(s, b, EV_GAME_OVER, -1, reason)


@kernel
def check_end(s, b):
    """The end checks after an elimination, an escape or a hatch closure; True if over."""
    if b[B_SCENARIO] == SC_ARENA:
        if b[B_ARENA_END_FIRST] != 0:
            for p in range(b[B_PLAYERS]):
                if pf(s, p, P_KILLS) >= b[B_ARENA_THRESHOLD]:
                    finish(s, b, END_ARENA)
                    return True
        return False
    if b[B_ADVANCED] == 0:
        if s[ESCAPED] > 0:
            finish(s, b, END_ESCAPED)  # R7.1
            return True
        if humans_aboard(s, b) == 0:
            finish(s, b, END_HUMANS_DEAD)  # R7.2
            return True
        return False
    if humans_aboard(s, b) == 0:
        finish(s, b, END_NO_HUMAN)  # R11.1
        return True
    return False


@kernel
def eliminate(s, b, v, cause, killer):
    """R6.4, R10.4, R11.4; Infection B.3 converts humans (R12.3.1), Arena A.5 sends the
    victim back to its start (R12.4.5)."""
    base = PLAYER + v * P_STRIDE
    human = s[base + P_SIDE] == HUMAN
    sc = b[B_SCENARIO]
    if sc == SC_INFECTION and human and cause != CAUSE_TIME:
        log_all(s, b, EV_KILLED if cause == CAUSE_KILL else EV_STRANDED, v, s[base + P_CHAR])
        s[base + P_SIDE] = ALIEN
        s[base + P_REVEALED] = s[base + P_CHAR]
        s[base + P_PUB_SIDE] = ALIEN
        s[base + P_FATE] = FATE_INFECTED
        s[base + P_FATE_ROUND] = s[ROUND]
        s[base + P_KILLED_BY] = killer
        s[INFECTED] += 1
        if b[B_INFECTED_KEEP_ITEMS] == 0:  # A21
            discard_all(s, v)
        log_all(s, b, EV_INFECTED, v, s[base + P_POS])
        s[LAST_OUT] = OUT_ELIMINATED
        return
    if sc == SC_ARENA and cause == CAUSE_KILL:
        log_all(s, b, EV_KILLED, v, -1)
        discard_all(s, v)
        s[base + P_STATUS] = ST_WAITING
        s[base + P_POS] = -1
        s[base + P_FATE] = FATE_KILLED
        s[base + P_FATE_ROUND] = s[ROUND]
        s[base + P_KILLED_BY] = killer
        return
    if cause == CAUSE_KILL:
        log_all(s, b, EV_KILLED, v, s[base + P_CHAR])
    elif cause == CAUSE_STRANDED:
        log_all(s, b, EV_STRANDED, v, s[base + P_CHAR])
    s[base + P_STATUS] = ST_DEAD
    s[base + P_POS] = -1
    s[base + P_REVEALED] = s[base + P_CHAR]
    s[base + P_PUB_SIDE] = s[base + P_SIDE]
    s[base + P_FATE] = cause
    s[base + P_FATE_ROUND] = s[ROUND]
    s[base + P_KILLED_BY] = killer
    discard_all(s, v)
    if human:
        s[LAST_OUT] = OUT_STRANDED if cause == CAUSE_STRANDED else OUT_ELIMINATED
        if cause == CAUSE_STRANDED:
            s[STRANDED] += 1
        elif cause == CAUSE_TIME:
            s[TIME_ELIM] += 1


@kernel
def time_end(s, b):
    """R3.4: the last round is over (R7.3, R11.4, R12.4.6)."""
    s[ROUND] = b[B_MAX_ROUNDS]
    if b[B_ADVANCED] != 0 and b[B_SCENARIO] != SC_ARENA:
        for p in range(b[B_PLAYERS]):
            if pf(s, p, P_STATUS) == ST_ABOARD and pf(s, p, P_SIDE) == HUMAN:
                eliminate(s, b, p, CAUSE_TIME, -1)
    finish(s, b, END_TIME)


# ---- turns (R3) ----------------------------------------------------------------------------------
@kernel
def begin_turn(s, b, p):
    """R3.3 step 0: Arena return, the turn-start sector, the turn flags, ``TURN``."""
    s[ACTIVE] = p
    s[TURNS] += 1
    base = PLAYER + p * P_STRIDE
    if s[base + P_STATUS] == ST_WAITING:  # R12.4.5, A24
        if b[B_ARENA_RESPAWN_ALIEN] != 0:
            s[base + P_POS] = b[B_ALIEN_START]
            arg = b[B_ALIEN_START]
        else:
            s[base + P_POS] = b[B_HATCH_CELL + s[base + P_START_HATCH] - 1]
            arg = -1
        s[base + P_STATUS] = ST_ABOARD
        log_all(s, b, EV_RESPAWN, p, arg)
    s[S0] = s[base + P_POS]
    s[RSEC] = s[base + P_POS]
    s[ADREN] = 0
    s[SEDATED] = 0
    s[CARD_DRAWN] = 0
    s[ITEM_ATTACKED] = 0
    s[CAP_ACTIVE] = 0
    s[STAYED] = 0
    s[PENDING] = -1
    s[NEED_ANNOUNCE] = 0
    s[NEED_ITEM] = 0
    log_all(s, b, EV_TURN, p, -1)
    s[PHASE] = P_PRE if pre_options(s, b, p) else P_MOVE


@kernel
def end_turn(s, b):
    """R3.1-R3.2: the next seat aboard plays; a round ends after the seat before the first
    player; after round ``max_rounds`` the game ends by time."""
    n = b[B_PLAYERS]
    c = s[ACTIVE]
    for _ in range(2 * n + 2):
        c = (c + 1) % n
        if c == s[FIRST]:
            s[ROUND] += 1
            if s[ROUND] > b[B_MAX_ROUNDS]:
                time_end(s, b)
                return
        st = pf(s, c, P_STATUS)
        if st == ST_ABOARD or st == ST_WAITING:
            begin_turn(s, b, c)
            return
    time_end(s, b)


@kernel
def go_end(s, b, p):
    """R3.3 step 4: the end phase if an item can still be used, else the next turn."""
    if end_options(s, b, p):
        s[PHASE] = P_END
    else:
        end_turn(s, b)


@kernel
def continue_resolution(s, b, rng):
    """R5.3, R8.2, A11: the announcement and the item draw of the card being resolved,
    stopping at ``P_NOISE`` or ``P_DISCARD``; then the card is discarded (step 6.4)."""
    p = s[ACTIVE]
    card = s[PENDING]
    first_item = b[B_ITEM_BEFORE_NOISE] != 0
    for _ in range(3):
        if first_item and s[NEED_ITEM] != 0:
            s[NEED_ITEM] = 0
            draw_item(s, b, rng, p)
            if pf(s, p, P_NHAND) > hand_limit(s, b, p):
                s[PHASE] = P_DISCARD
                return
            continue
        if s[NEED_ANNOUNCE] != 0:
            kind = b[B_DANGER_KIND + card]
            if kind == NOISE_ANY:
                s[PHASE] = P_NOISE
                return
            if kind == NOISE_HERE:
                log_all(s, b, EV_NOISE, p, s[RSEC])
                padd(s, p, P_NOISES, 1)
            else:
                log_all(s, b, EV_SILENCE, p, -1)
                padd(s, p, P_SILENCES, 1)
            s[NEED_ANNOUNCE] = 0
            continue
        if s[NEED_ITEM] != 0:
            s[NEED_ITEM] = 0
            draw_item(s, b, rng, p)
            if pf(s, p, P_NHAND) > hand_limit(s, b, p):
                s[PHASE] = P_DISCARD
                return
        break
    s[DD + s[DD_N]] = card
    s[DD_N] += 1
    s[PENDING] = -1
    go_end(s, b, p)


@kernel
def resolve(s, b, rng, p):
    """R5.1-R5.2, R5.7: a card on a dangerous sector unless sedated or exempt (H.1, A18, A28)."""
    sec = pf(s, p, P_POS)
    draw = b[B_KIND + sec] == DANGER and s[SEDATED] == 0 and s[CAP_ACTIVE] == 0
    if draw and s[STAYED] != 0 and b[B_STUCK_QUIET] != 0:
        draw = False
    if draw and b[B_OG_CHARS] != 0 and b[B_CAPTAIN_FIRST_DRAW] != 0 and role(s, b, p) == ROLE_CAPTAIN \
            and pf(s, p, P_CAP_PASS) == 0:
        pset(s, p, P_CAP_PASS, 1)  # A18 (b)
        s[CAP_ACTIVE] = 1
        draw = False
    if not draw:
        log_all(s, b, EV_QUIET, p, -1)
        padd(s, p, P_QUIET_TURNS, 1)
        go_end(s, b, p)
        return
    card = draw_danger(s, b, rng)
    s[PENDING] = card
    s[CARD_DRAWN] = 1
    pset(s, p, P_LAST_CARD, b[B_DANGER_KIND + card])
    pset(s, p, P_LAST_ICON, b[B_DANGER_ICON + card])
    s[NEED_ANNOUNCE] = 1
    need = 0
    if b[B_ADVANCED] != 0:
        if b[B_OG_ITEMS] != 0:
            need = 1 if b[B_DANGER_KIND + card] == SILENCE else 0  # J.4
        else:
            need = b[B_DANGER_ICON + card]  # R8.2
    s[NEED_ITEM] = need
    continue_resolution(s, b, rng)


# ---- attacks (R6) ---------------------------------------------------------------------------------
@kernel
def finish_attack(s, b):
    """R6.3-R6.5: unprotected victims are eliminated; kills and feeding (R9); end checks."""
    p = s[ATT_SEAT]
    killed = 0
    human_killed = 0
    if s[DEF_CANCEL] == 0:
        for i in range(s[N_VICTIMS]):
            if s[PROTECTED + i] != 0:
                continue
            v = s[VICTIMS + i]
            if pf(s, v, P_SIDE) == HUMAN:
                human_killed += 1
                s[HUMANS_KILLED] += 1
            else:
                s[ALIENS_KILLED] += 1
            eliminate(s, b, v, CAUSE_KILL, p)
            killed += 1
    padd(s, p, P_KILLS, killed)
    padd(s, p, P_HUMAN_KILLS, human_killed)
    if human_killed > 0 and b[B_FEEDING] != 0 and s[ATT_ITEM] == 0 and pf(s, p, P_FED) == 0:
        pset(s, p, P_FED, 1)  # R9.1
        pset(s, p, P_FED_ROUND, s[ROUND])
    if check_end(s, b):
        return
    go_end(s, b, p)


@kernel
def next_defender(s, b):
    """R6.3, R8.12: the next declared victim that may play Defence decides; else the attack
    resolves (A4, A5)."""
    while s[DEF_IDX] < s[N_VICTIMS]:
        v = s[VICTIMS + s[DEF_IDX]]
        if s[DEF_CANCEL] == 0 and items_usable(s, b, v) and held(s, v, IT_DEFENCE, b) > 0 \
                and (s[ATT_ITEM] == 0 or b[B_DEFENCE_VS_HUMAN] != 0):
            s[PHASE] = P_DEFEND
            s[DECIDER] = v
            return
        s[DEF_IDX] += 1
    finish_attack(s, b)


@kernel
def attack(s, b, p, x, item):
    """R6.1-R6.3: the attack is announced and everyone else in the sector declares it."""
    log_all(s, b, EV_ATTACK, p, x)
    padd(s, p, P_ATTACKS, 1)
    s[ATT_SEAT] = p
    s[ATT_SECTOR] = x
    s[ATT_ITEM] = item
    if item != 0:
        s[ITEM_ATTACKED] = 1
    n = b[B_PLAYERS]
    k = 0
    for i in range(1, n):
        q = (p + i) % n
        if pf(s, q, P_STATUS) == ST_ABOARD and pf(s, q, P_POS) == x:
            s[VICTIMS + k] = q
            s[PROTECTED + k] = 0
            k += 1
            log_all(s, b, EV_PRESENT, q, x)
    s[N_VICTIMS] = k
    s[DEF_IDX] = 0
    s[DEF_CANCEL] = 0
    next_defender(s, b)


# ---- hatches (R7.1, R10, R12.3.2) -------------------------------------------------------------------
@kernel
def escape(s, b, p, k):
    base = PLAYER + p * P_STRIDE
    log_all(s, b, EV_ESCAPED, p, k)
    s[base + P_STATUS] = ST_ESCAPED
    s[base + P_POS] = -1
    s[base + P_PUB_SIDE] = HUMAN
    s[base + P_FATE] = FATE_ESCAPED
    s[base + P_FATE_ROUND] = s[ROUND]
    s[base + P_ESCAPE_HATCH] = k
    s[ESCAPED] += 1
    s[LAST_OUT] = OUT_ESCAPE
    if b[B_ESCAPED_ITEMS_DISCARDED] != 0:  # A15 (b)
        discard_all(s, p)
    else:
        s[REMOVED_N] += s[base + P_NHAND]
        for i in range(s[base + P_NHAND]):
            s[base + P_HAND + i] = -1
            s[base + P_HUSES + i] = 0
        s[base + P_NHAND] = 0


@kernel
def hatch_arrival(s, b, p, cell):
    """R10.1-R10.4 (advanced), R7.1 (basic), D.2 (Infection)."""
    k = b[B_HATCHNUM + cell]
    green = True
    if b[B_HATCH_CARDS] != 0:
        log_all(s, b, EV_HATCH, p, k)
        green = b[B_HATCH_GREEN + s[HK + s[HK_POS]]] != 0
        s[HK_POS] += 1
    if green:
        escape(s, b, p, k)
        if b[B_ADVANCED] != 0:
            s[HATCH_STATE + k - 1] = HATCH_USED
            s[HATCHES_USED] += 1
    else:
        log_all(s, b, EV_HATCH_RED, p, k)
        s[HATCH_STATE + k - 1] = HATCH_DAMAGED
        s[HATCHES_RED] += 1
    if b[B_ADVANCED] != 0 and open_hatches(s) == 0:  # R10.4
        n = b[B_PLAYERS]
        for i in range(n):
            q = (p + i) % n
            if pf(s, q, P_STATUS) == ST_ABOARD and pf(s, q, P_SIDE) == HUMAN:
                eliminate(s, b, q, CAUSE_STRANDED, -1)
    if check_end(s, b):
        return
    if green:
        end_turn(s, b)
    else:
        go_end(s, b, p)


# ---- the protocol --------------------------------------------------------------------------------------
@njit
def init_state(seed, b):
    """A new game: characters dealt, decks shuffled, the first player drawn (R1, chance
    order of docs/rules/eftaios.md), then the first turn (or Arena's start choices)."""
    rng = new_streams(seed)
    s = np.zeros(SIZE, np.int32)
    n = b[B_PLAYERS]
    s[NSEATS] = n
    s[ROUND] = 1
    s[PENDING] = -1
    arena = b[B_SCENARIO] == SC_ARENA
    for p in range(MAX_SEATS):
        base = PLAYER + p * P_STRIDE
        for i in range(HAND_SLOTS):
            s[base + P_HAND + i] = -1
        s[base + P_CHAR] = -1
        s[base + P_POS] = -1
        s[base + P_REVEALED] = -1
        s[base + P_PUB_SIDE] = -1
        s[base + P_FED_ROUND] = -1
        s[base + P_FATE_ROUND] = -1
        s[base + P_ESCAPE_HATCH] = -1
        s[base + P_KILLED_BY] = -1
        s[base + P_START_HATCH] = -1
        s[base + P_LAST_CARD] = -1
        s[base + P_LAST_ICON] = -1
    if not arena:
        # R1.3: each pile shuffled, the top h humans and a aliens kept, the chosen cards shuffled
        nc = b[B_NCHARS]
        hum = np.empty(MAX_CHARS, np.int32)
        ali = np.empty(MAX_CHARS, np.int32)
        nh = 0
        na = 0
        for c in range(nc):
            if b[B_CHAR_SIDE + c] == HUMAN:
                hum[nh] = c
                nh += 1
            else:
                ali[na] = c
                na += 1
        shuffle_list(s, rng, hum, nh)
        shuffle_list(s, rng, ali, na)
        h = b[B_HUMANS]
        a = b[B_ALIENS]
        deal = np.empty(MAX_SEATS, np.int32)
        for i in range(h):
            deal[i] = hum[i]
        for i in range(a):
            deal[h + i] = ali[i]
        shuffle_list(s, rng, deal, n)
        for p in range(n):
            c = deal[p]
            base = PLAYER + p * P_STRIDE
            s[base + P_CHAR] = c
            s[base + P_SIDE] = b[B_CHAR_SIDE + c]
            s[base + P_START_SIDE] = b[B_CHAR_SIDE + c]
    # R1.4: the decks
    nd = b[B_NDANGER]
    for i in range(nd):
        s[DK + i] = i
    shuffle(s, rng, DK, nd)
    s[DK_LEN] = nd
    if b[B_ADVANCED] != 0:
        ni = b[B_NITEMS]
        for i in range(ni):
            s[IK + i] = i
        shuffle(s, rng, IK, ni)
        s[IK_LEN] = ni
        if b[B_SCENARIO] != SC_INFECTION:
            nhk = b[B_NHATCHCARDS]
            for i in range(nhk):
                s[HK + i] = i
            shuffle(s, rng, HK, nhk)
    # R1.5
    first = chance(s, rng, n)
    s[FIRST] = first
    for k in range(4):
        s[HATCH_STATE + k] = HATCH_OPEN if b[B_HATCH_CELL + k] >= 0 else HATCH_ABSENT
    # R1.6 start positions
    for p in range(n):
        base = PLAYER + p * P_STRIDE
        s[base + P_ORDER] = (p - first + n) % n
        if arena:  # R12.4.1
            s[base + P_SIDE] = ALIEN
            s[base + P_START_SIDE] = ALIEN
            s[base + P_PUB_SIDE] = ALIEN
        elif b[B_CHAR_SIDE + s[base + P_CHAR]] == HUMAN:
            if b[B_OG_CHARS] != 0 and b[B_CHAR_ROLE + s[base + P_CHAR]] == ROLE_PSYCHOLOGIST:
                s[base + P_POS] = b[B_ALIEN_START]  # H.2
            else:
                s[base + P_POS] = b[B_HUMAN_START]
        else:
            s[base + P_POS] = b[B_ALIEN_START]
    if arena:
        nh = 0
        for k in range(4):
            if b[B_HATCH_CELL + k] >= 0:
                nh += 1
        if b[B_ARENA_START_RANDOM] != 0:  # A23 (b)
            for i in range(n):
                p = (first + i) % n
                idx = chance(s, rng, nh)
                j = 0
                for k in range(4):
                    if b[B_HATCH_CELL + k] >= 0:
                        if j == idx:
                            pset(s, p, P_START_HATCH, k + 1)
                            pset(s, p, P_POS, b[B_HATCH_CELL + k])
                        j += 1
        else:  # A23 (a): each seat chooses, in turn order from the first player
            s[PHASE] = P_START
            s[START_IDX] = 0
            s[DECIDER] = first
            return s, rng
    begin_turn(s, b, first)
    return s, rng


@inline_kernel
def to_move(s):
    ph = s[PHASE]
    if ph == P_DEFEND or ph == P_START:
        return s[DECIDER]
    return s[ACTIVE]


@inline_kernel
def is_over(s):
    return s[OVER] != 0


@kernel
def spotlight(s, b, p, x):
    """R8.11: every seat aboard in x or next to it announces its sector, the user first
    (A10; under Old Guard G.4 the card is discarded unseen, A19)."""
    use_card(s, b, p, IT_SPOTLIGHT)
    n = b[B_PLAYERS]
    private = b[B_OG_ITEMS] != 0 and b[B_OG_SPOTLIGHT_PRIVATE] != 0
    aud = (1 << p) if private else everyone(b)
    log_event(s, b, aud, EV_SPOTLIGHT, p, x)
    for i in range(n):
        q = (p + i) % n
        if pf(s, q, P_STATUS) != ST_ABOARD:
            continue
        y = pf(s, q, P_POS)
        lit = y == x
        for d in range(6):
            if b[B_NB + x * 6 + d] == y:
                lit = True
        if lit:
            log_event(s, b, ((1 << p) | (1 << q)) if private else everyone(b), EV_SEEN, q, y)


@kernel
def after_item(s, b, rng, p):
    """Where a turn goes after an item use (the phase repeats while an option remains)."""
    ph = s[PHASE]
    if ph == P_PRE:
        if not pre_options(s, b, p):
            s[PHASE] = P_MOVE
    elif ph == P_POST:
        if not post_options(s, b, p):
            resolve(s, b, rng, p)
    elif ph == P_END:
        if not end_options(s, b, p):
            end_turn(s, b)
    elif ph == P_DISCARD:
        if pf(s, p, P_NHAND) <= hand_limit(s, b, p):
            continue_resolution(s, b, rng)


@kernel
def apply_action(s, rng, b, a):
    """One decision of the seat to move (chance drawn inside, logged in ``chance_log``)."""
    s[CHANCE_N] = 0
    p = to_move(s)
    base = PLAYER + p * P_STRIDE
    gap = s[base + P_NSEEN] - s[base + P_LASTDEC]
    if gap > s[base + P_MAXGAP]:
        s[base + P_MAXGAP] = gap
    s[base + P_LASTDEC] = s[base + P_NSEEN]
    ph = s[PHASE]
    if ph == P_START:  # A23 (a)
        k = a - A_START_HATCH
        s[base + P_START_HATCH] = k + 1
        s[base + P_POS] = b[B_HATCH_CELL + k]
        s[START_IDX] += 1
        n = b[B_PLAYERS]
        if s[START_IDX] >= n:
            begin_turn(s, b, s[FIRST])
        else:
            s[DECIDER] = (s[FIRST] + s[START_IDX]) % n
        return
    if a < A_STAY_ATTACK + 1:  # a move (P_MOVE)
        attacking = (a >= A_MOVE_ATTACK and a < A_MOVE_ATTACK + NCELLS) or a == A_STAY_ATTACK
        if a == A_STAY or a == A_STAY_ATTACK:
            dest = s[base + P_POS]
            s[STAYED] = 1
        elif attacking:
            dest = a - A_MOVE_ATTACK
        else:
            dest = a - A_MOVE
        s[base + P_POS] = dest
        s[RSEC] = dest
        if b[B_OG_CHARS] != 0 and b[B_CAPTAIN_FIRST_DRAW] == 0 and role(s, b, p) == ROLE_CAPTAIN \
                and s[base + P_CAP_PASS] == 0 and b[B_KIND + dest] == DANGER:
            s[base + P_CAP_PASS] = 1  # H.1, A18 (a)
            s[CAP_ACTIVE] = 1
        if attacking:
            attack(s, b, p, dest, 0)
            return
        kd = b[B_KIND + dest]
        if kd == HATCH and s[STAYED] == 0 and s[base + P_SIDE] == HUMAN \
                and s[HATCH_STATE + b[B_HATCHNUM + dest] - 1] == HATCH_OPEN:
            hatch_arrival(s, b, p, dest)
            return
        if post_options(s, b, p):
            s[PHASE] = P_POST
        else:
            resolve(s, b, rng, p)
        return
    if a >= A_USE_SPOTLIGHT and a < A_USE_SPOTLIGHT + NCELLS:
        spotlight(s, b, p, a - A_USE_SPOTLIGHT)
        after_item(s, b, rng, p)
        return
    if a >= A_NOISE_AT and a < A_NOISE_AT + NCELLS:
        x = a - A_NOISE_AT
        log_all(s, b, EV_NOISE, p, x)
        s[base + P_NOISES] += 1
        if x != s[RSEC]:
            s[base + P_BLUFFS] += 1
        s[NEED_ANNOUNCE] = 0
        continue_resolution(s, b, rng)
        return
    if a == A_USE_ADRENALINE:
        use_card(s, b, p, IT_ADRENALINE)
        s[ADREN] += 1
        after_item(s, b, rng, p)
        return
    if a == A_USE_TELEPORT:
        use_card(s, b, p, IT_TELEPORT)
        s[base + P_POS] = b[B_HUMAN_START]
        after_item(s, b, rng, p)
        return
    if a == A_USE_SEDATIVES:
        use_card(s, b, p, IT_SEDATIVES)
        s[SEDATED] = 1
        after_item(s, b, rng, p)
        return
    if a == A_USE_ATTACK:
        use_card(s, b, p, IT_ATTACK)
        attack(s, b, p, s[base + P_POS], 1)
        return
    if a == A_PRE_DONE:
        s[PHASE] = P_MOVE
        return
    if a == A_RESOLVE:
        resolve(s, b, rng, p)
        return
    if a == A_END_TURN:
        end_turn(s, b)
        return
    if a >= A_DISCARD and a < A_DISCARD + N_ITEM_KINDS:
        k = a - A_DISCARD
        discard_slot(s, p, pick_slot(s, b, p, k))
        s[base + P_DISCARDS] += 1
        log_all(s, b, EV_ITEM_DISCARDED, p, k if b[B_DISCARD_REVEALED] != 0 else -1)  # A14
        if s[base + P_NHAND] <= hand_limit(s, b, p):
            continue_resolution(s, b, rng)
        return
    if a == A_DEFEND:
        use_card(s, b, p, IT_DEFENCE)
        log_all(s, b, EV_DEFENDED, p, -1)
        s[PROTECTED + s[DEF_IDX]] = 1
        if b[B_DEFENCE_ATTACK] != 0:  # A4 (b): the whole attack fails
            s[DEF_CANCEL] = 1
        s[DEF_IDX] += 1
        next_defender(s, b)
        return
    if a == A_NO_DEFEND:
        s[DEF_IDX] += 1
        next_defender(s, b)
        return


@kernel
def observe(s, b, seat, out):
    """What ``seat`` may see (R13): its own character, side, position, items and turn, the
    public facts, and its ring of the events it saw."""
    base = PLAYER + seat * P_STRIDE
    n = b[B_PLAYERS]
    out[O_SEAT] = seat
    out[O_CHAR] = s[base + P_CHAR]
    out[O_SIDE] = s[base + P_SIDE]
    out[O_START_SIDE] = s[base + P_START_SIDE]
    out[O_POS] = s[base + P_POS]
    out[O_START_HATCH] = s[base + P_START_HATCH]
    out[O_FED] = s[base + P_FED]
    out[O_CAP_PASS] = s[base + P_CAP_PASS]
    out[O_HAND_LIMIT] = hand_limit(s, b, seat)
    nh = s[base + P_NHAND]
    out[O_NHAND] = nh
    out[O_LAST_CARD] = s[base + P_LAST_CARD]
    out[O_LAST_ICON] = s[base + P_LAST_ICON]
    for k in range(N_ITEM_KINDS):
        out[O_ITEMS + k] = 0
    for i in range(HAND_SLOTS):
        if i < nh:
            kind = b[B_ITEM_KIND + s[base + P_HAND + i]]
            out[O_HAND + i] = kind
            out[O_HUSES + i] = s[base + P_HUSES + i]
            out[O_ITEMS + kind] += 1
        else:
            out[O_HAND + i] = -1
            out[O_HUSES + i] = 0
    mine = s[ACTIVE] == seat and s[OVER] == 0
    out[O_PHASE] = s[PHASE] if to_move(s) == seat and s[OVER] == 0 else -1
    out[O_S0] = s[S0] if mine else -1
    out[O_RSEC] = s[RSEC] if mine else -1
    out[O_ADREN] = s[ADREN] if mine else 0
    out[O_SEDATED] = s[SEDATED] if mine else 0
    out[O_CARD_DRAWN] = s[CARD_DRAWN] if mine else 0
    out[O_ITEM_ATTACKED] = s[ITEM_ATTACKED] if mine else 0
    out[O_CAP_ACTIVE] = s[CAP_ACTIVE] if mine else 0
    out[O_STAYED] = s[STAYED] if mine else 0
    out[O_ROUND] = s[ROUND]
    out[O_FIRST] = s[FIRST]
    out[O_ACTIVE] = s[ACTIVE]
    out[O_PLAYERS] = n
    out[O_OVER] = s[OVER]
    out[O_DK_LEFT] = s[DK_LEN] - s[DK_POS]
    out[O_DD_N] = s[DD_N]
    out[O_IK_LEFT] = s[IK_LEN] - s[IK_POS]
    out[O_ID_N] = s[ID_N]
    out[O_HK_LEFT] = b[B_NHATCHCARDS] - s[HK_POS] if b[B_HATCH_CARDS] != 0 else 0
    for q in range(MAX_SEATS):
        if q < n:
            qb = PLAYER + q * P_STRIDE
            out[O_STATUS + q] = s[qb + P_STATUS]
            out[O_REVEALED + q] = s[qb + P_REVEALED]
            out[O_PUB_SIDE + q] = s[qb + P_PUB_SIDE]
            out[O_NITEMS + q] = s[qb + P_NHAND]
            out[O_KILLS + q] = s[qb + P_KILLS]
        else:
            out[O_STATUS + q] = -1
            out[O_REVEALED + q] = -1
            out[O_PUB_SIDE + q] = -1
            out[O_NITEMS + q] = 0
            out[O_KILLS + q] = 0
    for k in range(4):
        out[O_HATCH + k] = s[HATCH_STATE + k]
    out[O_NSEEN] = s[base + P_NSEEN]
    src = LOG + seat * OBS_LOG
    for i in range(OBS_LOG):
        out[O_LOG + i] = s[src + i]


# ---- hidden information: twins for the conformance suite ---------------------------------------------
def hidden_variants(s, b, seat, rng):
    """Copies of ``s`` differing only in what ``seat`` may not see (R13 "Hidden from a seat"):
    the other seats' characters, sides, positions, items, fed status and Captain's pass, the
    order and contents of the decks and face-down discards, the chance log, the other seats'
    rings, and (when another seat is active) the turn flags of that seat."""
    n = int(b[B_PLAYERS])
    others = [q for q in range(n) if q != seat]
    sectors = np.flatnonzero(b[B_KIND:B_KIND + NCELLS] != VOID)

    def f(t, q, field):
        return PLAYER + q * P_STRIDE + field

    # positions, fed, pass, start hatch, last card of the others
    t = s.copy()
    for q in others:
        t[f(t, q, P_POS)] = rng.choice(sectors)
        t[f(t, q, P_FED)] = rng.integers(0, 2)
        t[f(t, q, P_FED_ROUND)] = rng.integers(-1, 40)
        t[f(t, q, P_CAP_PASS)] = rng.integers(0, 2)
        t[f(t, q, P_START_HATCH)] = rng.integers(1, 5)
        t[f(t, q, P_LAST_CARD)] = rng.integers(-1, 3)
        t[f(t, q, P_LAST_ICON)] = rng.integers(-1, 2)
    yield t
    # characters and sides of the others
    t = s.copy()
    chars = [int(t[f(t, q, P_CHAR)]) for q in others]
    rng.shuffle(chars)
    for q, c in zip(others, chars):
        t[f(t, q, P_CHAR)] = c
        t[f(t, q, P_SIDE)] = 1 - t[f(t, q, P_SIDE)]
        t[f(t, q, P_START_SIDE)] = rng.integers(0, 2)
    yield t
    # the kinds of the others' items (same counts): swap their cards with deck cards
    t = s.copy()
    pool = [int(t[IK + i]) for i in range(int(t[IK_POS]), int(t[IK_LEN]))]
    for q in others:
        for i in range(int(t[f(t, q, P_NHAND)])):
            pool.append(int(t[f(t, q, P_HAND + i)]))
    rng.shuffle(pool)
    j = 0
    for i in range(int(t[IK_POS]), int(t[IK_LEN])):
        t[IK + i] = pool[j]
        j += 1
    for q in others:
        for i in range(int(t[f(t, q, P_NHAND)])):
            t[f(t, q, P_HAND + i)] = pool[j]
            t[f(t, q, P_HUSES + i)] = rng.integers(1, 4)
            j += 1
    yield t
    # the decks: the order of what is left, the face-down Dangerous Sector discards
    t = s.copy()
    rest = [int(t[DK + i]) for i in range(int(t[DK_POS]), int(t[DK_LEN]))] + [int(t[DD + i]) for i in range(int(t[DD_N]))]
    rng.shuffle(rest)
    j = 0
    for i in range(int(t[DK_POS]), int(t[DK_LEN])):
        t[DK + i] = rest[j]
        j += 1
    for i in range(int(t[DD_N])):
        t[DD + i] = rest[j]
        j += 1
    hk = [int(t[HK + i]) for i in range(int(t[HK_POS]), MAX_HATCHCARDS)]
    rng.shuffle(hk)
    for i, c in zip(range(int(t[HK_POS]), MAX_HATCHCARDS), hk):
        t[HK + i] = c
    t[CHANCE_LOG:CHANCE_LOG + CHANCE_MAX] = rng.integers(0, 30, CHANCE_MAX)
    yield t
    # what the others saw, and the table's full log (it holds private events)
    t = s.copy()
    for q in others:
        t[LOG + q * OBS_LOG:LOG + (q + 1) * OBS_LOG] = rng.integers(0, 1 << 20, OBS_LOG)
        t[f(t, q, P_NSEEN)] = rng.integers(0, 1000)
        t[f(t, q, P_LASTDEC)] = rng.integers(0, 1000)
    t[GLOG_EV:GLOG_EV + GLOG] = rng.integers(0, 1 << 20, GLOG)
    yield t
    # another seat's turn: its turn flags and the card it is resolving
    if int(s[ACTIVE]) != seat:
        t = s.copy()
        for fld in (S0, RSEC):
            t[fld] = rng.choice(sectors)
        for fld in (ADREN, SEDATED, CARD_DRAWN, ITEM_ATTACKED, CAP_ACTIVE, STAYED, NEED_ANNOUNCE, NEED_ITEM):
            t[fld] = rng.integers(0, 2)
        t[PENDING] = rng.integers(-1, int(b[B_NDANGER]))
        yield t
