"""Uniform over the legal actions, including ending the rooms phase early."""


from simkit.jit import kernel

from simkit.games.ufs.engine import legal_actions
from simkit.rng import BOT, randint


@kernel
def choose(s, rng, b, ib, fb, flags):
    n = legal_actions(s, b, ib)
    return ib[randint(rng, BOT, n)]
