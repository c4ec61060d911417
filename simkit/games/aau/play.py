"""Game loops: a compiled one for built-in bots and a Python one for user bots."""

from __future__ import annotations

import numpy as np
from numba import njit

from strategies.aau import SCRATCH, choose

from ...errors import UserError
from ...jit import entry
from ...rng import BOT
from . import engine as E
from .engine import (
    EARTH_WON, MAX_ACTIONS, P_OVER, PHASE, PLAYER, P_STRIDE, ROUND, TOTAL_DESTROYED,
    apply_action, current_player, init_state,
)

# per-seat outputs: (column, field of the player block)
SEAT_FIELDS = (
    ("score", E.P_SCORE), ("city_mission_points", E.P_CITY_PTS), ("border_mission_points", E.P_BORDER_PTS),
    ("parks", E.P_PARKS), ("bases_taken", E.P_BASES), ("parks_points", E.P_PARKS_PTS), ("bases_points", E.P_BASES_PTS),
    ("expansion_points", E.P_EXPANSION_PTS), ("protection_points", E.P_PROTECTION_PTS), ("largest_group", E.P_LARGEST),
    ("immediate_points", E.P_IMMEDIATE), ("discs_lost", E.P_CAPTURED), ("powers_used", E.P_POWERS),
    ("city_card", E.P_CITY_CARD), ("border_card", E.P_BORDER_CARD), ("won_raw", E.P_WON), ("top_city", E.P_TIEBREAK),
)
FIELDS = np.array([f for _, f in SEAT_FIELDS], np.int64)


@njit
def _record(s, g, fields, seat_out, game_out):
    for p in range(s[E.PLAYERS]):
        for j in range(fields.shape[0]):
            seat_out[g, p, j] = s[PLAYER + p * P_STRIDE + fields[j]]
    game_out[g, 0] = s[ROUND]
    game_out[g, 1] = s[TOTAL_DESTROYED]
    game_out[g, 2] = s[EARTH_WON]


@njit(cache=True)
def play_chunk(seeds, b, codes, flags, fields):
    """Plays one game per seed; ``codes``/``flags`` give each game's bot per seat."""
    n = seeds.shape[0]
    seats = codes.shape[1]
    seat_out = np.zeros((n, seats, fields.shape[0]), np.int32)
    game_out = np.zeros((n, 3), np.int32)
    ib = np.empty(SCRATCH, np.int32)
    fb = np.empty(SCRATCH, np.float64)
    for g in range(n):
        s, rng = init_state(seeds[g], b)
        while s[PHASE] != P_OVER:
            p = current_player(s)
            a = choose(codes[g, p], flags[g, p], s, rng, b, ib, fb)
            apply_action(s, rng, b, a)
        _record(s, g, fields, seat_out, game_out)
    return seat_out, game_out


choose_one = entry(choose)
record = entry(_record)


def play_python(seeds, b, bots, table):
    """The same games with Python-callable bots: ``fn(state, legal, board, rng) -> action``."""
    n = len(seeds)
    seats = table.shape[1]
    seat_out = np.zeros((n, seats, len(FIELDS)), np.int32)
    game_out = np.zeros((n, 3), np.int32)
    buf = np.empty(MAX_ACTIONS, np.int32)
    ib = np.empty(SCRATCH, np.int32)
    fb = np.empty(SCRATCH, np.float64)
    for g in range(n):
        s, rng = E.new_game(seeds[g], b)
        user_rng = np.random.default_rng(int(rng[BOT]))
        while s[PHASE] != P_OVER:
            p = int(E.player_of(s))
            bot = bots[table[g, p]]
            nl = E.legal(s, b, buf)
            options = buf[:nl].copy()
            if bot.fn is None:
                a = int(choose_one(bot.code, bot.flags, s, rng, b, ib, fb))
            else:
                a = int(bot.fn(s.copy(), options, b, user_rng))
            if a not in options:
                raise UserError(f"bot {bot.name!r} chose {a}, which is not legal in phase {s[PHASE]} (legal: {options.tolist()})")
            E.step(s, rng, b, a)
        record(s, g, FIELDS, seat_out, game_out)
    return seat_out, game_out
