"""Liar's Dice (the "common hand" rules), compiled. Rule numbers (R2.1 ...) refer to
docs/rules/template.md.

Every player rolls their dice under a cup and sees only their own. In turn, players bid
"at least q dice on the whole table show face f", each bid higher than the last, until
someone calls the standing bid a lie: the dice are revealed and counted (ones are wild by
default), and the caller or the bidder, whoever was wrong, loses a die. The loser opens
the next round with a fresh roll; the last player with dice wins.

This is the template game: a small real game written to the contract every game follows
(docs/adding-a-game.md). The state is one int32 vector whose fields are declared by name
(``STATE``); actions are named ranges (``ACTIONS``); the protocol functions below are all
the core needs to play, record, trace and check the game. Liar's Dice shows the parts a
game with hidden information and chance needs:

* **What is hidden.** Each seat's faces (``player[p].faces``) are seen by that seat only.
  Bots never read the state: ``PERFECT_INFORMATION = False``, so the loop hands each bot
  ``observe``'s vector (laid out by ``OBS``): its own faces, every seat's number of dice,
  the standing bid, whose turn it is. Never another seat's faces.
* **Where chance is drawn, and logged.** Every die is drawn from the game's chance stream
  (``rng[CHANCE]``) in ``_roll``: inside ``init_state`` for round 1 and inside
  ``apply_action`` for the next round's roll after a call (R2.1). The stream restarts at
  each round (``restart(rng, CHANCE, round)``), so two bots facing the same seed see the
  same roll in a round as far as the dice in play allow. Each step's draws are kept, in
  the rules' order (seat 0's dice first), in ``chance_log`` / ``chance_n``: an independent
  model of the rules replays the engine's games with them (tests/reference/lockstep.py).
* **Why ``hidden_variants``.** The conformance suite cannot know what a seat may not see;
  the engine says so by making twins of a position that differ only in that (here: every
  other seat's faces re-rolled, and the chance log to match). A seat's observation must
  not move with a twin: an ``observe`` that shows the next seat's dice is caught and the
  field named (tests/test_conformance.py::test_a_leaky_observation_fails_the_suite).
* **A declared length.** Bids only go up, so a round has at most (dice in play x faces
  allowed) bids and a call, and a game at most players x dice - 1 rounds (R6):
  ``MAX_STEPS`` is that bound at the largest settings, declared as the spec's
  ``max_steps``; a game that runs longer is a bug and stops with one line.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...jit import inline_kernel, kernel
from ...layout import ActionSpace, Layout
from ...rng import CHANCE, new_streams, randint, restart
from .board import B_DICE, B_NFACES, B_PLAYERS, B_WILD, MAX_FACES

MAX_PLAYERS = 4
MAX_DICE = 5  # dice per player (the `dice` setting's upper bound)
MAX_IN_PLAY = MAX_PLAYERS * MAX_DICE  # a bid's largest quantity (R3.2)

# ---- state ------------------------------------------------------------------------
STATE = Layout("template state")
TURN, BID_Q, BID_F, BIDDER, ROUNDS, OVER, CHANCE_N = STATE.scalars(
    "turn", "bid_q", "bid_f", "bidder", "rounds", "over", "chance_n")
# The chance of the step just applied (a whole roll: at most 4 x 5 faces), in the order of
# R2.1: an independent model of the rules replays the engine's games with it.
CHANCE_LOG = STATE.array("chance_log", MAX_IN_PLAY)
# One record per seat: its dice, the faces of this round's roll (faces[0:dice]; 0 in the
# unused slots, and all 0 once the game is over), the calls it made and won, whether it won.
PLAYER_BLOCK = STATE.seats("player", MAX_PLAYERS, "dice", ("faces", MAX_DICE), "calls", "calls_won", "won")
PLAYER, P_STRIDE = PLAYER_BLOCK.base, PLAYER_BLOCK.stride
P_DICE, P_FACES, P_CALLS, P_CALLS_WON, P_WON = (PLAYER_BLOCK.dice, PLAYER_BLOCK.faces, PLAYER_BLOCK.calls,
                                                 PLAYER_BLOCK.calls_won, PLAYER_BLOCK.won)
SIZE = STATE.size

# ---- actions ----------------------------------------------------------------------
ACTIONS = ActionSpace("template actions")
A_BID = ACTIONS.range("bid", MAX_IN_PLAY * MAX_FACES)  # A_BID + (q - 1) * 6 + (f - 1)
A_LIAR = ACTIONS.single("liar")
MAX_ACTIONS = ACTIONS.size

# R6: (players x dice - 1) rounds of at most (dice in play x faces) bids and one call.
MAX_STEPS = (MAX_IN_PLAY - 1) * (MAX_IN_PLAY * MAX_FACES + 1)  # 2,299

# ---- observation: what a seat may see (R2.2) ----------------------------------------
OBS = Layout("template observation")
O_SEAT, O_TURN, O_BID_Q, O_BID_F, O_BIDDER, O_IN_PLAY, O_WILD, O_NFACES, O_ROUNDS = OBS.scalars(
    "seat", "turn", "bid_q", "bid_f", "bidder", "in_play", "wild", "nfaces", "rounds")
O_DICE = OBS.array("dice", MAX_PLAYERS)  # every seat's number of dice
O_OWN_FACES = OBS.array("own_faces", MAX_DICE)  # the seat's own faces, as rolled
O_OWN_COUNTS = OBS.array("own_counts", MAX_FACES + 1)  # own_counts[f]: own dice showing f (index 0 unused)
OBS_SIZE = OBS.size
PERFECT_INFORMATION = False  # bots see OBS, never the state


@inline_kernel
def bid_action(q, f):
    """The action id of the bid "at least q dice show f"."""
    return A_BID + (q - 1) * MAX_FACES + (f - 1)


@inline_kernel
def dice_of(s, p):
    return s[PLAYER + p * P_STRIDE + P_DICE]


@kernel
def in_play(s, b):
    n = 0
    for p in range(b[B_PLAYERS]):
        n += dice_of(s, p)
    return n


@inline_kernel
def low_face(b):
    """The lowest face a bid may name: 2 when ones are wild (R3.3)."""
    return 2 if b[B_WILD] != 0 else 1


@kernel
def next_with_dice(s, b, p):
    """The next seat after ``p`` in seat order that still has dice (R2.3)."""
    n = b[B_PLAYERS]
    for k in range(1, n + 1):
        q = (p + k) % n
        if dice_of(s, q) > 0:
            return q
    return p


@kernel
def _roll(s, rng, b):
    """R2.1: every seat with dice rolls all of them, seat 0 first; each face is logged."""
    restart(rng, CHANCE, s[ROUNDS])
    k = 0
    for p in range(b[B_PLAYERS]):
        for d in range(MAX_DICE):
            at = PLAYER + p * P_STRIDE + P_FACES + d
            if d < dice_of(s, p):
                face = randint(rng, CHANCE, b[B_NFACES]) + 1
                s[at] = face
                s[CHANCE_LOG + k] = face
                k += 1
            else:
                s[at] = 0
    s[CHANCE_N] = k


# ---- the protocol -----------------------------------------------------------------
@njit
def init_state(seed, b):
    """A new game (R1): every seat has ``dice`` dice, round 1 is rolled, seat 0 opens."""
    rng = new_streams(seed)
    s = np.zeros(SIZE, np.int32)
    for p in range(b[B_PLAYERS]):
        s[PLAYER + p * P_STRIDE + P_DICE] = b[B_DICE]
    s[TURN] = 0
    s[BIDDER] = -1
    s[ROUNDS] = 1
    _roll(s, rng, b)
    return s, rng


@kernel
def legal_actions(s, b, out):
    """R3, R4.1: the bids that beat the standing one, then "liar" if there is a bid to call."""
    n = 0
    top = in_play(s, b)
    q0 = s[BID_Q]
    f0 = s[BID_F]
    for q in range(max(q0, 1), top + 1):
        for f in range(low_face(b), b[B_NFACES] + 1):
            if q0 == 0 or q > q0 or f > f0:
                out[n] = bid_action(q, f)
                n += 1
    if q0 > 0:
        out[n] = A_LIAR
        n += 1
    return n


@kernel
def count_showing(s, b, f):
    """R4.2: the dice on the table showing ``f``, plus the ones when ones are wild."""
    c = 0
    wild = b[B_WILD] != 0 and f != 1
    for p in range(b[B_PLAYERS]):
        for d in range(dice_of(s, p)):
            face = s[PLAYER + p * P_STRIDE + P_FACES + d]
            if face == f or (wild and face == 1):
                c += 1
    return c


@kernel
def apply_action(s, rng, b, a):
    """One decision of the seat to move. A call settles the round (R4) and, unless the game
    is over, rolls the next one (R5.2): that roll is the step's chance."""
    p = s[TURN]
    s[CHANCE_N] = 0
    if a != A_LIAR:
        i = a - A_BID
        s[BID_Q] = i // MAX_FACES + 1
        s[BID_F] = i % MAX_FACES + 1
        s[BIDDER] = p
        s[TURN] = next_with_dice(s, b, p)
        return
    bidder = s[BIDDER]
    s[PLAYER + p * P_STRIDE + P_CALLS] += 1
    if count_showing(s, b, s[BID_F]) >= s[BID_Q]:
        loser = p  # R4.3: the bid stands
    else:
        loser = bidder
        s[PLAYER + p * P_STRIDE + P_CALLS_WON] += 1
    s[PLAYER + loser * P_STRIDE + P_DICE] -= 1
    s[BID_Q] = 0
    s[BID_F] = 0
    s[BIDDER] = -1
    left = 0
    last = 0
    for q in range(b[B_PLAYERS]):
        if dice_of(s, q) > 0:
            left += 1
            last = q
    if left == 1:  # R5.1
        s[OVER] = 1
        s[PLAYER + last * P_STRIDE + P_WON] = 1
        s[TURN] = last
        for q in range(b[B_PLAYERS]):
            for d in range(MAX_DICE):
                s[PLAYER + q * P_STRIDE + P_FACES + d] = 0
        return
    s[TURN] = loser if dice_of(s, loser) > 0 else next_with_dice(s, b, loser)  # R5.2
    s[ROUNDS] += 1
    _roll(s, rng, b)


@inline_kernel
def to_move(s):
    return s[TURN]


@inline_kernel
def is_over(s):
    return s[OVER] != 0


@kernel
def observe(s, b, seat, out):
    """R2.2: the seat's own faces; every seat's dice, the standing bid and its bidder, whose
    turn it is, the dice in play, whether ones are wild, the round. Not the others' faces."""
    out[O_SEAT] = seat
    out[O_TURN] = s[TURN]
    out[O_BID_Q] = s[BID_Q]
    out[O_BID_F] = s[BID_F]
    out[O_BIDDER] = s[BIDDER]
    out[O_IN_PLAY] = in_play(s, b)
    out[O_WILD] = b[B_WILD]
    out[O_NFACES] = b[B_NFACES]
    out[O_ROUNDS] = s[ROUNDS]
    for p in range(MAX_PLAYERS):
        out[O_DICE + p] = dice_of(s, p) if p < b[B_PLAYERS] else 0
    for f in range(MAX_FACES + 1):
        out[O_OWN_COUNTS + f] = 0
    for d in range(MAX_DICE):
        face = s[PLAYER + seat * P_STRIDE + P_FACES + d]
        out[O_OWN_FACES + d] = face
        if face > 0:
            out[O_OWN_COUNTS + face] += 1


# ---- twins for the conformance suite -----------------------------------------------
def hidden_variants(s, b, seat, rng):
    """Copies of ``s`` that differ only in what ``seat`` may not see (R2.2), for the
    conformance suite (simkit.conformance): its observation must not move. Here that is
    every other seat's faces, re-rolled, with the chance log rewritten to match when it
    holds this round's roll (the log is in R2.1's order, so seat p's dice are at the sum
    of the dice of the seats before it). Two twins: a fresh roll, and every other seat
    showing the same face."""
    n = int(b[B_PLAYERS])
    logged = int(s[CHANCE_N]) == int(sum(s[PLAYER + p * P_STRIDE + P_DICE] for p in range(n)))
    for kind in range(2):
        t = s.copy()
        same = int(rng.integers(1, int(b[B_NFACES]) + 1))
        k = 0
        for p in range(n):
            for d in range(int(t[PLAYER + p * P_STRIDE + P_DICE])):
                at = PLAYER + p * P_STRIDE + P_FACES + d
                if p != seat and t[at] > 0:
                    t[at] = int(rng.integers(1, int(b[B_NFACES]) + 1)) if kind == 0 else same
                    if logged:
                        t[CHANCE_LOG + k] = t[at]
                k += 1
        yield t
