"""Bots for Under Falling Skies.

A bot sees the whole state vector (the game has no hidden information besides the
dice still to be rolled), reads it through the engine's named fields, and returns one
legal action; see simkit/games/ufs/engine.py for the actions of each decision point.
"""

from numba import njit

from simkit.game import BotInfo

from . import greedy, planner, random_bot, search

BOTS = {
    "random": BotInfo("random", 0, "uniform over the legal actions (ending the rooms phase included)", legal=True),
    "greedy": BotInfo("greedy", 1, "one-step heuristic: each die where its immediate gain is largest"),
    "planner": BotInfo("planner", 2, "assigns the whole roll at once: the best matching of dice to columns (slower, stronger)"),
    "search": BotInfo("search", 3, "plays each candidate die placement out to the next round on copies of the state (its own dice) "
                                   "and keeps the one whose round ends best, by a learned chance of winning; search:budget=N "
                                   "simulations per die (default 16; 1 is the planner)",
                      {"budget": search.BUDGET}, tests="budget=3"),
}


# Each built-in bot's function, by code: choose(flags, obs, legal, rng, b, mem, ib, fb), where
# ``s`` is the state (the game hides nothing; ``legal`` lists the legal actions for a bot declared
# ``legal=True``, random's, and is empty for the others, which compute what they need), ``mem`` unused,
# ``ib``/``fb`` int and float scratch arrays.
# The core compiles only the bots a run plays (simkit.loop.bot_dispatch).
@njit
def _random(flags, s, legal, rng, b, mem, ib, fb):
    return random_bot.choose(legal, rng)


@njit
def _greedy(flags, s, legal, rng, b, mem, ib, fb):
    return greedy.choose(s, rng, b, ib, fb, flags)


@njit
def _planner(flags, s, legal, rng, b, mem, ib, fb):
    return planner.choose(s, rng, b, ib, fb, flags)


@njit
def _search(flags, s, legal, rng, b, mem, ib, fb):
    return search.choose(s, rng, b, ib, fb, flags)


CHOOSE = (_random, _greedy, _planner, _search)

SCRATCH = 1024  # size of each scratch array the game loop hands to the bots
MEMORY = 0  # no memory kept between decisions
