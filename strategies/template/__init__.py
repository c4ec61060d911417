"""Bots for the template game (Liar's Dice). Each sees its seat's observation only."""

from simkit.game import BotInfo
from simkit.jit import kernel

from . import count, random_bot

BOTS = {
    "random": BotInfo("random", 0, "bids or calls at random"),
    "count": BotInfo("count", 1, "bids the face with the most expected dice, calls liar on a bid above the expected count"),
}

SCRATCH = 4  # size of the int and float scratch arrays the loop hands to the bots
MEMORY = 0  # ints of memory kept per seat for the whole game


# Each built-in bot's function, by code: choose(flags, obs, legal, rng, b, mem, ib, fb), where
# ``obs`` is the observation of the seat to move (never the state: the game hides the dice).
# The core compiles only the bots a run plays (simkit.loop.bot_dispatch).
@kernel
def _random(flags, obs, legal, rng, b, mem, ib, fb):
    return random_bot.choose(obs, legal, rng)


@kernel
def _count(flags, obs, legal, rng, b, mem, ib, fb):
    return count.choose(obs, legal)


CHOOSE = (_random, _count)
