"""Uniform over the legal actions."""

from simkit.jit import kernel
from simkit.rng import BOT, randint


@kernel
def choose(obs, legal, rng):
    return legal[randint(rng, BOT, legal.shape[0])]
