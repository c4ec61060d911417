"""Game loops: a compiled one for built-in bots and a Python one for user bots.

Both play the same compiled rules; only who calls the bot differs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from strategies.ufs import SCRATCH, choose

from ...errors import UserError
from ...jit import entry
from ...rng import BOT
from .engine import (
    DAMAGE, FLIPS, HITS, MAX_ACTIONS, MS_ICONS, P_OVER, PHASE, RESEARCH, RESULT, RLEN, ROUND, SHOT,
    apply_action, init_state,
)
from .engine import new_game, legal, step



@njit
def _record(s, g, won, rounds, cause, research, rlen, damage, hits, shot, icons, flipped):
    won[g] = s[RESULT] == 1
    rounds[g] = s[ROUND]
    cause[g] = s[RESULT]
    research[g] = s[RESEARCH]
    rlen[g] = s[RLEN]
    damage[g] = s[DAMAGE]
    hits[g] = s[HITS]
    shot[g] = s[SHOT]
    icons[g] = s[MS_ICONS]
    flipped[g] = s[FLIPS]


@njit(cache=True)
def play_chunk(seeds, b, codes, flags):
    """Plays one game per seed; ``codes``/``flags`` give each game's bot (one seat)."""
    n = seeds.shape[0]
    won = np.zeros(n, np.bool_)
    rounds = np.zeros(n, np.int16)
    cause = np.zeros(n, np.int8)
    research = np.zeros(n, np.int16)
    rlen = np.zeros(n, np.int16)
    damage = np.zeros(n, np.int16)
    hits = np.zeros(n, np.int16)
    shot = np.zeros(n, np.int16)
    icons = np.zeros(n, np.int16)
    flipped = np.zeros(n, np.int8)
    ib = np.empty(SCRATCH, np.int32)
    fb = np.empty(SCRATCH, np.float64)
    for g in range(n):
        s, rng = init_state(seeds[g], b)
        while s[PHASE] != P_OVER:
            a = choose(codes[g], flags[g], s, rng, b, ib, fb)
            apply_action(s, rng, b, a)
        _record(s, g, won, rounds, cause, research, rlen, damage, hits, shot, icons, flipped)
    return won, rounds, cause, research, rlen, damage, hits, shot, icons, flipped


# Entry points for the Python loop (compiled code calls the plain functions).
choose_one = entry(choose)
record = entry(_record)


def play_python(seeds, b, bots, table):
    """The same games with Python-callable bots: ``fn(state, legal, b, rng) -> action``."""
    n = len(seeds)
    outs = [np.zeros(n, t) for t in (np.bool_, np.int16, np.int8, np.int16, np.int16, np.int16, np.int16, np.int16, np.int16, np.int8)]
    buf = np.empty(MAX_ACTIONS, np.int32)
    ib = np.empty(SCRATCH, np.int32)
    fb = np.empty(SCRATCH, np.float64)
    for g in range(n):
        s, rng = new_game(seeds[g], b)
        bot = bots[table[g]]
        user_rng = np.random.default_rng(int(rng[BOT]))
        while s[PHASE] != P_OVER:
            nl = legal(s, b, buf)
            options = buf[:nl].copy()
            if bot.fn is None:
                a = choose_one(bot.code, bot.flags, s, rng, b, ib, fb)
            else:
                a = int(bot.fn(s.copy(), options, b, user_rng))
            if a not in options:
                raise UserError(f"bot {bot.name!r} chose {a}, which is not legal in phase {s[PHASE]} (legal: {options.tolist()})")
            step(s, rng, b, a)
        record(s, g, *outs)
    return tuple(outs)
