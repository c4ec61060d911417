"""Counts the dice it cannot see: the expected number of dice showing a face is its own
(with its ones, when ones are wild) plus the other dice in play times the chance that one
shows it. It calls liar on a bid more than one die above that count, and otherwise makes
the cheapest bid with the most room (expected count - quantity), preferring faces it holds."""

from simkit.games.template.engine import (
    A_BID,
    A_LIAR,
    MAX_FACES,
    O_BID_F,
    O_BID_Q,
    O_DICE,
    O_IN_PLAY,
    O_NFACES,
    O_OWN_COUNTS,
    O_SEAT,
    O_WILD,
)
from simkit.jit import kernel


@kernel
def expected(obs, f):
    """The expected count of face ``f`` on the table, from what the seat sees."""
    own = obs[O_OWN_COUNTS + f]
    p = 1.0 / obs[O_NFACES]
    if obs[O_WILD] != 0 and f != 1:
        own += obs[O_OWN_COUNTS + 1]
        p = 2.0 / obs[O_NFACES]
    others = obs[O_IN_PLAY] - obs[O_DICE + obs[O_SEAT]]
    return own + others * p


@kernel
def choose(obs, legal):
    q0 = obs[O_BID_Q]
    if q0 > 0 and q0 > expected(obs, obs[O_BID_F]) + 1.0:
        return A_LIAR
    best = -1
    best_room = 0.0
    best_own = 0
    for k in range(legal.shape[0]):
        a = legal[k]
        if a == A_LIAR:
            continue
        q = (a - A_BID) // MAX_FACES + 1
        f = (a - A_BID) % MAX_FACES + 1
        room = expected(obs, f) - q
        own = obs[O_OWN_COUNTS + f]
        # legal bids come cheapest first: a later one must have more room, or as much and more own dice
        if best < 0 or room > best_room or (room == best_room and own > best_own):
            best, best_room, best_own = a, room, own
    return A_LIAR if best < 0 else best
