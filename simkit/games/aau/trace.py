"""Readable text of an Alien Attack USA game, move by move (``simkit trace aau``)."""

from __future__ import annotations

import numpy as np

from . import board as board_mod
from . import engine as E


def trace_game(params, bots, seed: int, index: int):
    from ...runner import bot_table
    from ...seeding import game_seeds
    from .play import choose_one
    from strategies.aau import SCRATCH

    b = board_mod.build(params)
    ids = board_mod.space_ids(params)
    game_seed = game_seeds(seed, index, index + 1)[0]
    s, rng = E.new_game(game_seed, b)
    table = bot_table(len(bots), index, index + 1, rotate=False)[0]
    ib = np.zeros(SCRATCH, np.int32)
    fb = np.zeros(SCRATCH)
    buf = np.zeros(E.MAX_ACTIONS, np.int32)
    user_rng = np.random.default_rng(int(rng[1]))
    players = int(s[E.PLAYERS])

    def field(p, f):
        return int(s[E.PLAYER + p * E.P_STRIDE + f])

    cards = ", ".join(f"seat {p + 1}: city {2 + field(p, E.P_CITY_CARD)}, border {('Pacific', 'Mexico', 'Gulf', 'Atlantic')[field(p, E.P_BORDER_CARD)]}" for p in range(players))
    yield f"Alien Attack USA, game {index} of seed {seed} (game seed {game_seed}); {cards}"
    last = -1
    while s[E.PHASE] != E.P_OVER:
        if s[E.ROUND] != last:
            last = int(s[E.ROUND])
            marks = [ids[s[E.MARK + k]] for k in range(s[E.NMARK])]
            scores = " ".join(str(field(p, E.P_SCORE)) for p in range(players))
            yield f"round {last}: start player seat {s[E.START] + 1}, markers {marks}; scores {scores}; bases destroyed {s[E.TOTAL_DESTROYED]}"
        p = int(E.player_of(s))
        bot = bots[table[p]]
        if bot.fn is None:
            a = int(choose_one(bot.code, bot.flags, s, rng, b, ib, fb))
        else:
            n = E.legal(s, b, buf)
            a = int(bot.fn(s.copy(), buf[:n].copy(), b, user_rng))
        before = field(p, E.P_SCORE)
        phase = int(s[E.PHASE])
        E.step(s, rng, b, a)
        gained = field(p, E.P_SCORE) - before
        if phase == E.P_COVER:
            text = f"covers {ids[s[E.LAST_SPACE]]}"
        elif phase == E.P_POWER:
            text = {E.A_PASS: "passes", E.A_EXTRA: "takes an Extra Turn"}.get(a) or (
                f"Cover: disc on {ids[s[E.LAST_SPACE]]}" if a < E.A_NEIGH else f"Neighbourhood: destroys the base on {ids[a - E.A_NEIGH]}")
        else:
            text = "no Protection" if a == E.A_NO_PROTECT else "Protection saves a disc"
        if phase == E.P_POWER and a == E.A_PASS:
            continue
        yield f"    seat {p + 1} ({bot.name}) {text}" + (f", +{gained}" if gained else "")
    final = ", ".join(f"seat {p + 1}: {field(p, E.P_SCORE)}" + (" (won)" if field(p, E.P_WON) else "") for p in range(players))
    yield f"final scores: {final}; bases destroyed {s[E.TOTAL_DESTROYED]}" + ("; Earth wins" if s[E.EARTH_WON] else "")
