"""One game, move by move (``simkit trace``): the same game as game ``index`` of a run
with root ``seed``, told through the game's own descriptions of states and steps."""

from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from .game import Bot, GameSpec
from .play import Table


def trace_game(game: GameSpec, params: Any, bots: list[Bot], seed: int, index: int, rotate: bool = False) -> Iterator[str]:
    from .runner import bot_table
    from .seeding import game_seeds

    from .errors import UserError
    from .runner import MAX_GAMES

    if not isinstance(seed, int) or seed < 0:
        raise UserError(f"the seed must be a non-negative integer, not {seed!r} (--seed)")
    if not isinstance(index, int) or not 0 <= index < MAX_GAMES:
        raise UserError(f"the game index must be from 0 to {MAX_GAMES - 1:,}, not {index!r} (--game-index)")
    b = game.board(params)
    game_seed = int(game_seeds(seed, index, index + 1)[0])
    seats = game.seats(params)
    table = bot_table(seats, index, index + 1, rotate)[0]
    t = Table(game, b, game_seed)
    who = ", ".join(f"seat {p + 1} {bots[table[p]].name}" for p in range(seats)) if seats > 1 else f"bot {bots[0].name}"
    setup = f"; {game.describe_setup(params, t.s, b)}" if game.describe_setup is not None else ""
    yield f"{game.title}, game {index} of seed {seed} (game seed {game_seed}); {who}{setup}"
    if game.trace_legend:
        yield f"legend: {game.trace_legend}"
    mark = None
    steps = 0
    while not t.over():
        if game.trace_mark is not None and game.trace_mark(t.s) != mark:
            mark = game.trace_mark(t.s)
            yield game.describe_state(params, t.s, b)
        p = t.to_move()
        bot = bots[table[p]]
        a, _ = t.decide(bot, index)
        before = t.s.copy()
        t.step(a)
        steps += 1
        if game.describe_step is not None:
            text = game.describe_step(params, before, t.s, b, a)
        else:
            text = game.describe_action(params, before, b, a)
        if text:
            yield "    " + (f"seat {p + 1} ({bot.name}) " if seats > 1 else "") + text
        if steps > game.max_steps:
            yield f"(stopped: no end after {game.max_steps:,} steps)"
            return
    yield game.describe_state(params, t.s, b)
    if game.describe_result is not None:
        yield game.describe_result(params, t.s, b)
    else:
        won = np.atleast_1d(game.rules(params).won(_State(t)))
        yield "won: " + ", ".join(f"seat {p + 1}" for p in range(len(won)) if won[p]) if won.any() else "nobody won"


def _State(t: Table):
    from .rules import State

    return State(t.s, t.rng, t.b)
