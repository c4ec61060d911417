"""Bots for Alien Attack USA.

A bot sees the whole state vector (the game has no hidden information: missions are
face up and the markers still in the bag are known, only their order is not), reads it
through the engine's named fields, and returns one legal action; see simkit/games/aau/engine.py for the actions.
Options switch a power off, e.g. ``strategic:no-extra`` never takes an Extra Turn.
"""

from simkit.game import BotInfo
from simkit.jit import kernel

from . import greedy, random_bot, search, strategic
from .greedy import NO_COVER, NO_EXTRA, NO_NEIGHBOURHOOD, NO_PROTECTION
from .strategic import TEAM

POWER_OPTIONS = {"no-protection": NO_PROTECTION, "no-cover": NO_COVER, "no-neighbourhood": NO_NEIGHBOURHOOD, "no-extra": NO_EXTRA}

BOTS = {
    "random": BotInfo("random", 0, "uniform over the legal actions, powers included", legal=True),
    "greedy": BotInfo("greedy", 1, "the most immediate points; uses a power as soon as it scores", POWER_OPTIONS),
    "strategic": BotInfo("strategic", 2, "plays toward its city, border and global missions and times its powers", POWER_OPTIONS),
    "team": BotInfo("team", 3, "strategic, and in semi-cooperative games also values destroying bases when the invasion threatens", POWER_OPTIONS),
    "search": BotInfo("search", 4, "plays every legal action to the end of the next round on copies of the state (a bag "
                                   "order of its own, strategic at every seat), scores the projected final scores and keeps "
                                   "the best; search:budget=N simulations per decision (default 16; 1 is strategic), "
                                   "search:horizon=N round ends per simulation (default 2; 0: whole games)",
                      {"budget": search.BUDGET, "horizon": search.HORIZON, "credit": search.CREDIT, "power": search.POWER,
                       **POWER_OPTIONS}, tests="budget=3"),
}

SCRATCH = search.SCRATCH  # size of each scratch array the game loop hands to the bots (the search's state copy included)
MEMORY = 0  # no memory kept between decisions


# Each built-in bot's function, by code: choose(flags, obs, legal, rng, b, mem, ib, fb), where
# ``s`` is the state (nothing is hidden; ``legal`` lists the legal actions for a bot declared
# ``legal=True``, random's, and is empty for the others, which compute what they need), ``mem`` unused.
# The core compiles only the bots a run plays (simkit.loop.bot_dispatch).
@kernel
def _random(flags, s, legal, rng, b, mem, ib, fb):
    return random_bot.choose(legal, rng)


@kernel
def _greedy(flags, s, legal, rng, b, mem, ib, fb):
    return greedy.choose(s, rng, b, ib, fb, flags)


@kernel
def _strategic(flags, s, legal, rng, b, mem, ib, fb):
    return strategic.choose(s, rng, b, ib, fb, flags)


@kernel
def _team(flags, s, legal, rng, b, mem, ib, fb):
    return strategic.choose(s, rng, b, ib, fb, flags | TEAM)


@kernel
def _search(flags, s, legal, rng, b, mem, ib, fb):
    return search.choose(s, rng, b, ib, fb, flags)


CHOOSE = (_random, _greedy, _strategic, _team, _search)
