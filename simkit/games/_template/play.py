from __future__ import annotations

import numpy as np
from numba import njit

from strategies._template import choose

from ...errors import UserError
from ...jit import entry
from ...rng import BOT
from . import engine as E


@njit(cache=True)
def play_chunk(seeds, b, codes, flags):
    n, seats = codes.shape
    won = np.zeros((n, seats), np.bool_)
    score = np.zeros((n, seats), np.int32)
    turns = np.zeros(n, np.int32)
    for g in range(n):
        s, rng = E.init_state(seeds[g], b)
        while s[E.OVER] == 0:
            p = s[E.TURN]
            E.apply_action(s, rng, b, choose(codes[g, p], flags[g, p], s, rng, b))
        won[g, s[E.WINNER]] = True
        for p in range(seats):
            score[g, p] = s[E.SCORE + p]
        turns[g] = s[E.TURNS]
    return won, score, turns


choose_one = entry(choose)


def play_python(seeds, b, bots, table):
    n, seats = table.shape
    won = np.zeros((n, seats), bool)
    score = np.zeros((n, seats), np.int32)
    turns = np.zeros(n, np.int32)
    buf = np.empty(E.MAX_ACTIONS, np.int32)
    for g in range(n):
        s, rng = E.new_game(seeds[g], b)
        user_rng = np.random.default_rng(int(rng[BOT]))
        while s[E.OVER] == 0:
            bot = bots[table[g, s[E.TURN]]]
            options = buf[: E.legal(s, b, buf)].copy()
            a = int(choose_one(bot.code, bot.flags, s, rng, b)) if bot.fn is None else int(bot.fn(s.copy(), options, b, user_rng))
            if a not in options:
                raise UserError(f"bot {bot.name!r} chose {a}, which is not legal")
            E.step(s, rng, b, a)
        won[g, s[E.WINNER]] = True
        score[g] = s[E.SCORE:E.SCORE + seats]
        turns[g] = s[E.TURNS]
    return won, score, turns
