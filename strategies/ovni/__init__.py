"""Bots for O.V.N.I. Each sees its seat's observation only (simkit/games/ovni/engine.py:
the public view at the state's own offsets, its hand, its missions and its own
face-down tokens) and the list of legal actions."""

from simkit.game import BotInfo
from simkit.jit import kernel

from . import random_bot

BOTS = {
    "random": BotInfo("random", 0, "uniform over the legal actions"),
}

SCRATCH = 256
MEMORY = 0


@kernel
def choose(code, flags, obs, legal, rng, b, mem, ib, fb):
    return random_bot.choose(obs, legal, rng)
