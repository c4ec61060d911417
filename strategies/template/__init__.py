"""Bots for the template game (Pig). Each sees its seat's observation only."""

from simkit.game import BotInfo
from simkit.jit import kernel

from . import hold, random_bot

BOTS = {
    "random": BotInfo("random", 0, "rolls or holds at random"),
    "hold20": BotInfo("hold20", 1, "rolls until the turn is worth 20, or enough to win"),
}

SCRATCH = 4  # size of the int and float scratch arrays the loop hands to the bots
MEMORY = 0  # ints of memory kept per seat for the whole game


# Each built-in bot's function, by code: choose(flags, obs, legal, rng, b, mem, ib, fb), where
# ``obs`` is the observation of the seat to move.
# The core compiles only the bots a run plays (simkit.loop.bot_dispatch).
@kernel
def _random(flags, obs, legal, rng, b, mem, ib, fb):
    return random_bot.choose(obs, legal, rng)


@kernel
def _hold(flags, obs, legal, rng, b, mem, ib, fb):
    return hold.choose(obs, legal, 20)


CHOOSE = (_random, _hold)
