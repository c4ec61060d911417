"""Bots for the template game (Pig)."""

from simkit.game import BotInfo
from simkit.jit import kernel
from simkit.rng import BOT, randint

BOTS = {
    "random": BotInfo("random", 0, "rolls or holds at random"),
    "hold20": BotInfo("hold20", 1, "rolls until the turn is worth 20, or enough to win"),
}


@kernel
def choose(code, flags, s, rng, b):
    if code == 0:
        return randint(rng, BOT, 2)
    total = s[1]
    if total >= 20 or s[8 + s[0]] + total >= b[1]:
        return 1
    return 0
