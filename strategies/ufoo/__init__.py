"""Bots for Ufo.O. Each reads the state (the game hides nothing but the dice still to
be rolled) through the engine's named fields and returns one legal action; see
simkit/games/ufoo/engine.py for the decision points and actions.

Options of the heuristic bots restrict what they may do, to measure what each option of
the game is worth: ``:laser-only`` (no ion cannon at UFOs; the ion attack on a mothership,
the only way to win, stays), ``:ion-only`` (no lasers), ``:no-repair``.
"""

from simkit.game import BotInfo
from simkit.jit import kernel

from . import heuristic, random_bot, search
from .heuristic import AGGRESSIVE, ION_ONLY, LASER_ONLY, NO_REPAIR, TACTICAL

RESTRICTIONS = {"laser-only": LASER_ONLY, "ion-only": ION_ONLY, "no-repair": NO_REPAIR}

BOTS = {
    "random": BotInfo("random", 0, "uniform over the legal actions", legal=True),
    "aggressive": BotInfo("aggressive", 1, "rushes the enemy mothership; fires the ion cannon at it whenever it can, else at any UFO in line", RESTRICTIONS),
    "tactical": BotInfo("tactical", 2, "keeps out of enemy fire lines, takes shots with positive expectation choosing laser or ion by the odds, "
                        "repairs, pushes losers next to asteroids", RESTRICTIONS),
    "search": BotInfo("search", 3, "Monte Carlo with tactical rollouts: tries candidate movement plans and attacks, "
                      "search:budget=N rollouts each (default 8) to the start of its next turn scored by a fitted value of "
                      "the position, and leaves tactical's choice only for a candidate better by 2 standard errors "
                      "(tactical-moves / tactical-attacks: search only the attacks / only the moves)",
                      {**RESTRICTIONS, "budget": search.BUDGET, "tactical-moves": search.NO_PLAN_SEARCH,
                       "tactical-attacks": search.NO_ATTACK_SEARCH}, tests="budget=2"),
}

SCRATCH = max(1024, search.SCRATCH)  # ints and floats of scratch per decision (random lists up to 4 * 128 moves; search keeps state copies)
MEMORY = heuristic.MEMORY  # the heuristic bots keep their movement plan for the turn


# Each built-in bot's function, by code: choose(flags, obs, legal, rng, b, mem, ib, fb), where
# ``s`` is the state (``legal`` lists the legal actions for a bot declared
# ``legal=True``, random's, and is empty for the others, which compute what they need), ``mem`` the seat's memory.
# The core compiles only the bots a run plays (simkit.loop.bot_dispatch).
@kernel
def _random(flags, s, legal, rng, b, mem, ib, fb):
    return random_bot.choose(legal, rng)


@kernel
def _aggressive(flags, s, legal, rng, b, mem, ib, fb):
    return heuristic.choose(s, b, flags, AGGRESSIVE, mem, ib, fb)


@kernel
def _tactical(flags, s, legal, rng, b, mem, ib, fb):
    return heuristic.choose(s, b, flags, TACTICAL, mem, ib, fb)


@kernel
def _search(flags, s, legal, rng, b, mem, ib, fb):
    return search.choose(s, rng, b, ib, fb, flags, mem)


CHOOSE = (_random, _aggressive, _tactical, _search)
