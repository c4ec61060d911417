"""Bots for Escape From the Aliens In Outer Space. Each sees only its seat's observation
(``observe``) and keeps its belief over the map in its seat's memory (``belief.py``)."""

from simkit.game import BotInfo
from simkit.jit import kernel

from . import belief, heuristic, random_bot, search
from .heuristic import (
    NO_ADRENALINE,
    NO_ATTACK,
    NO_AVOID,
    NO_BLUFF,
    NO_DEFENCE,
    NO_SEDATIVES,
    NO_SPOTLIGHT,
    NO_TELEPORT,
    NO_TRACK,
    GUARD,
)

RESTRICTIONS = {
    "no-attack": NO_ATTACK, "no-teleport": NO_TELEPORT, "no-adrenaline": NO_ADRENALINE,
    "no-sedatives": NO_SEDATIVES, "no-spotlight": NO_SPOTLIGHT, "no-defence": NO_DEFENCE,
    "no-bluff": NO_BLUFF, "no-avoid": NO_AVOID, "no-track": NO_TRACK,
}
VARIANTS = {"guard": GUARD}

BOTS = {
    "random": BotInfo("random", 0, "uniform over the legal actions"),
    "heuristic": BotInfo("heuristic", 1, "humans: shortest path to a live hatch away from the aliens' reach, bluffs, items "
                         "when they pay; aliens: follow every seat's possible sectors from the announcements, chase and "
                         "attack where a human is likely", {**RESTRICTIONS, **VARIANTS}),
    "search": BotInfo("search", 2, "determinized search over worlds sampled from the announcements (4 x budget "
                      "worlds per decision, search:budget=N, default 4; budget worlds where moves are played out): humans model the tracking aliens' next attacks to pick their move "
                      "(risk=N steps per certain attack, default 12), leave a hatch another human is nearer to (cede=N steps, default 8) and bluff where the sampled aliens will chase "
                      "(no-lure: random bluffs); aliens hunt in them: attack where a human stands in "
                      "a fifth of them or more, else close on the nearest (in Arena contested moves are played out; deep: "
                      "one more round; classic-human: humans play theirs out too)",
                      {"budget": search.BUDGET, "deep": search.DEEP, "risk": search.RISK, "no-lure": search.NO_LURE, "lure": search.LURE_W, "far": search.LURE_F, "cede": search.CEDE, "classic-human": search.CLASSIC_HUMAN,
                       "humans": search.ONLY_HUMANS, "aliens": search.ONLY_ALIENS}, exclusive=(("humans", "aliens"),), tests="budget=1"),
}

SCRATCH = search.SCRATCH_NEEDED  # ints and floats of scratch per decision (the searching bot's worlds)
MEMORY = belief.MEM_SIZE  # each seat's belief over the map


# Each built-in bot's function, by code: choose(flags, obs, legal, rng, b, mem, ib, fb), where
# ``obs`` is the observation of the seat to move.
# The core compiles only the bots a run plays (simkit.loop.bot_dispatch).
@kernel
def _random(flags, obs, legal, rng, b, mem, ib, fb):
    return random_bot.choose(legal, rng)


@kernel
def _heuristic(flags, obs, legal, rng, b, mem, ib, fb):
    return heuristic.choose(flags, obs, legal, rng, b, mem, ib, fb)


@kernel
def _search(flags, obs, legal, rng, b, mem, ib, fb):
    return search.choose(flags, obs, legal, rng, b, mem, ib, fb)


CHOOSE = (_random, _heuristic, _search)
