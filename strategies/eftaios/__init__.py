"""Bots for Escape From the Aliens In Outer Space. Each sees only its seat's observation."""

from simkit.game import BotInfo
from simkit.jit import kernel

from . import random_bot

BOTS = {
    "random": BotInfo("random", 0, "uniform over the legal actions"),
    "heuristic": BotInfo("heuristic", 1, "placeholder"),
}

SCRATCH = 4096
MEMORY = 1024


@kernel
def choose(code, flags, obs, legal, rng, b, mem, ib, fb):
    return random_bot.choose(legal, rng)
