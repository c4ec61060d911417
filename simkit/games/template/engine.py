"""Pig, compiled: on your turn roll the die as often as you like, adding up the pips;
the bust face ends the turn with nothing, holding banks the turn's total. The first
to reach the target wins.

This is the template game: a real game written to the contract every game follows
(docs/adding-a-game.md). The state is one int32 vector whose fields are declared by
name (``STATE``); actions are named ranges (``ACTIONS``); the protocol functions at the
bottom are all the core needs to play, record, trace and check the game.

Pig hides nothing, but the template shows the observation path that games with
hidden information need: a bot sees ``observe``'s vector (``OBS``), not the state, and
``hidden_variants`` makes the twins that prove the observation shows nothing else.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...jit import inline_kernel, kernel
from ...layout import ActionSpace, Layout
from ...rng import CHANCE, new_streams, randint
from .board import B_BUST, B_FACES, B_NFACES, B_PLAYERS, B_TARGET

MAX_PLAYERS = 4

# ---- state ------------------------------------------------------------------------
STATE = Layout("template state")
TURN, TURN_TOTAL, TURNS, OVER, LAST_ROLL, CHANCE_N = STATE.scalars("turn", "turn_total", "turns", "over", "last_roll",
                                                                   "chance_n")
# The chance of the step just applied, in order (here at most one face): an independent model
# of the rules replays the engine's games with it (tests/reference/lockstep.py).
CHANCE_LOG = STATE.array("chance_log", 1)
PLAYER_BLOCK = STATE.seats("player", MAX_PLAYERS, "score", "rolls", "busts", "won")
PLAYER, P_STRIDE = PLAYER_BLOCK.base, PLAYER_BLOCK.stride
P_SCORE, P_ROLLS, P_BUSTS, P_WON = PLAYER_BLOCK.score, PLAYER_BLOCK.rolls, PLAYER_BLOCK.busts, PLAYER_BLOCK.won
SIZE = STATE.size

# ---- actions ----------------------------------------------------------------------
ACTIONS = ActionSpace("template actions")
A_ROLL = ACTIONS.single("roll")
A_HOLD = ACTIONS.single("hold")
MAX_ACTIONS = ACTIONS.size

# ---- observation: what a seat may see ---------------------------------------------
OBS = Layout("template observation")
O_SEAT, O_TURN, O_TURN_TOTAL, O_TARGET = OBS.scalars("seat", "turn", "turn_total", "target")
O_SCORES = OBS.array("scores", MAX_PLAYERS)
OBS_SIZE = OBS.size
PERFECT_INFORMATION = False  # bots see OBS (Pig hides nothing, but this is the path hidden-information games take)


@inline_kernel
def score(s, p):
    return s[PLAYER + p * P_STRIDE + P_SCORE]


# ---- the protocol -----------------------------------------------------------------
@njit
def init_state(seed, b):
    """A new game: scores 0, seat 0 to play."""
    rng = new_streams(seed)
    s = np.zeros(SIZE, np.int32)
    return s, rng


@kernel
def legal_actions(s, b, out):
    out[0] = A_ROLL
    out[1] = A_HOLD
    return 2


@kernel
def _next_turn(s, b):
    s[TURN_TOTAL] = 0
    s[TURN] = (s[TURN] + 1) % b[B_PLAYERS]
    s[TURNS] += 1


@kernel
def apply_action(s, rng, b, a):
    """One decision of the seat to move; a roll draws one face from the chance stream."""
    p = s[TURN]
    s[CHANCE_N] = 0
    if a == A_ROLL:
        face = b[B_FACES + randint(rng, CHANCE, b[B_NFACES])]
        s[CHANCE_LOG] = face
        s[CHANCE_N] = 1
        s[LAST_ROLL] = face
        s[PLAYER + p * P_STRIDE + P_ROLLS] += 1
        if face == b[B_BUST]:
            s[PLAYER + p * P_STRIDE + P_BUSTS] += 1
            _next_turn(s, b)
        else:
            s[TURN_TOTAL] += face
    else:
        s[PLAYER + p * P_STRIDE + P_SCORE] += s[TURN_TOTAL]
        if score(s, p) >= b[B_TARGET]:
            s[OVER] = 1
            s[PLAYER + p * P_STRIDE + P_WON] = 1
        else:
            _next_turn(s, b)


@inline_kernel
def to_move(s):
    return s[TURN]


@inline_kernel
def is_over(s):
    return s[OVER] != 0


@kernel
def observe(s, b, seat, out):
    """Everything in Pig is public: the scores, whose turn it is, the turn's total."""
    out[O_SEAT] = seat
    out[O_TURN] = s[TURN]
    out[O_TURN_TOTAL] = s[TURN_TOTAL]
    out[O_TARGET] = b[B_TARGET]
    for p in range(MAX_PLAYERS):
        out[O_SCORES + p] = score(s, p) if p < b[B_PLAYERS] else 0


# ---- twins for the conformance suite -----------------------------------------------
def hidden_variants(s, b, seat, rng):
    """Copies of ``s`` that differ only in what ``seat`` is not shown, for the conformance
    suite (simkit.conformance): its observation must not move. Pig shows every seat all
    that matters and leaves out the record-keeping (rolls and busts per seat, the last
    face); a hidden-information game changes here what it hides (another seat's cards,
    the deck's order: see the eftaios and ovni engines)."""
    t = s.copy()
    for p in range(int(b[B_PLAYERS])):
        t[PLAYER + p * P_STRIDE + P_ROLLS] = rng.integers(0, 50)
        t[PLAYER + p * P_STRIDE + P_BUSTS] = rng.integers(0, 10)
    t[LAST_ROLL] = rng.integers(1, 7)
    t[CHANCE_LOG] = rng.integers(1, 7)
    yield t
