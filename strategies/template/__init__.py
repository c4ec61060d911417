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


@kernel
def choose(code, flags, obs, legal, rng, b, mem, ib, fb):
    """The action of built-in bot ``code`` for the seat whose observation is ``obs``."""
    if code == 0:
        return random_bot.choose(obs, legal, rng)
    return hold.choose(obs, legal, 20)
