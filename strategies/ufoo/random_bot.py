"""Uniform over the legal actions (the bot lists them from the state: Ufo.O hides nothing)."""

from simkit.games.ufoo.engine import legal_actions
from simkit.jit import kernel
from simkit.rng import BOT, randint


@kernel
def choose(s, rng, b, ib):
    n = legal_actions(s, b, ib)
    return ib[randint(rng, BOT, n)]
