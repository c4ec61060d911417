"""Bots for O.V.N.I. Each sees its seat's observation only (simkit/games/ovni/engine.py:
the public view at the state's own offsets, its hand, its missions, its own face-down
tokens and every planet's unseen tokens) and the list of legal actions.

Options restrict a bot to measure what a choice is worth: ``no-swap``, ``no-shield``,
``no-extra``, ``no-nomajority``, ``no-six-twice`` never use that ability card (swap_human,
force_field, extra_moves, abduct_without_majority, six_twice); ``one-mission`` /
``two-missions`` keep that many missions. ``search`` takes ``budget=N``: worlds sampled
from the hidden tokens per bid, every candidate placement played in each (default 6);
``cand=N`` candidate bids (default 4), ``share=N`` the rivals' share of the outcome in
tenths (default 5 with 2 players, 2 with more), ``pol=N`` the play-out policy (default 2;
0 the older quick policy); ``p2=N`` worlds per phase-2 choice (default 1, 0: none),
``p2v``, ``p2d``, ``p2g``, ``p2o`` its valuation, margin and scope (search.py).
"""

from simkit.game import BotInfo
from simkit.jit import kernel

from . import random_bot, search, strategic
from .evaluate import GREEDY, STRATEGIC

assert search.SCRATCH_NEEDED <= 4096 and search.P2_END <= 4096 and search.F_P2END <= 4096
from .strategic import NO_EXTRA, NO_NOMAJ, NO_SHIELD, NO_SIX_TWICE, NO_SWAP, ONE_MISSION, TWO_MISSIONS

OPTIONS = {"no-swap": NO_SWAP, "no-shield": NO_SHIELD, "no-extra": NO_EXTRA, "no-nomajority": NO_NOMAJ,
           "no-six-twice": NO_SIX_TWICE, "one-mission": ONE_MISSION, "two-missions": TWO_MISSIONS}
ONE_OF = (("one-mission", "two-missions"),)

BOTS = {
    "random": BotInfo("random", 0, "uniform over the legal actions"),
    "greedy": BotInfo("greedy", 1, "the most immediate points: bids its highest token on the card worth most now, "
                      "takes the action that scores most if the game ended now; keeps one mission", OPTIONS, exclusive=ONE_OF),
    "strategic": BotInfo("strategic", 2, "bids with intent (cards valued by its needs, majorities and missions, win "
                         "chances from the visible tokens, its 6 face down, the energy card on purpose); plays "
                         "toward its missions, majorities, mappings and airspace", OPTIONS, exclusive=ONE_OF),
    "search": BotInfo("search", 3, "strategic, but each bid is chosen among its 4 best by playing the round's placements "
                      "out in worlds sampled from the tokens it cannot see, every planet bidding for value times "
                      "win chance (search:budget=N worlds, default 6); its activations and, with 3-4 players, its "
                      "attacks by playing the round's phase 2 out, valued by its score margin over the best rival",
                      {**OPTIONS, "budget": search.BUDGET, "cand": search.CANDS, "share": search.SHARE, "pol": search.POLICY, "p2": search.P2,
                       "p2v": search.P2V, "p2d": search.P2D, "p2g": search.P2G, "p2o": search.P2O}, exclusive=ONE_OF,
                      tests="budget=2"),
}

SCRATCH = 4096  # the search bot builds worlds (states) in its int scratch
MEMORY = strategic.MEMORY  # the strategic bot's (the other bots use none)


# Each built-in bot's function, by code: choose(flags, obs, legal, rng, b, mem, ib, fb), where
# ``obs`` is the observation of the seat to move.
# The core compiles only the bots a run plays (simkit.loop.bot_dispatch).
@kernel
def _random(flags, obs, legal, rng, b, mem, ib, fb):
    return random_bot.choose(obs, legal, rng)


@kernel
def _greedy(flags, obs, legal, rng, b, mem, ib, fb):
    return strategic.choose(obs, legal, rng, b, mem, ib, fb, flags, GREEDY)


@kernel
def _strategic(flags, obs, legal, rng, b, mem, ib, fb):
    return strategic.choose(obs, legal, rng, b, mem, ib, fb, flags, STRATEGIC)


@kernel
def _search(flags, obs, legal, rng, b, mem, ib, fb):
    return search.choose(obs, legal, rng, b, mem, ib, fb, flags)


CHOOSE = (_random, _greedy, _strategic, _search)
