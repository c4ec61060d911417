"""Uniform over the legal actions (powers included): the loop hands it the list (``BotInfo(legal=True)``)."""

from simkit.jit import kernel
from simkit.rng import BOT, randint


@kernel
def choose(legal, rng):
    return legal[randint(rng, BOT, legal.shape[0])]
