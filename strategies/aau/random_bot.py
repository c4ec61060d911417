"""Uniform over the legal actions (powers included)."""

from simkit.games.aau.engine import legal_actions
from simkit.jit import kernel
from simkit.rng import BOT, randint


@kernel
def choose(s, rng, b, ib, fb, flags):
    n = legal_actions(s, b, ib)
    return ib[randint(rng, BOT, n)]
