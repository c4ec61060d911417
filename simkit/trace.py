"""One game, move by move (``simkit trace``): the same game as game ``index`` of a run
with root ``seed``, told through the game's own descriptions of states and steps."""

from __future__ import annotations

import textwrap
from typing import Any, Iterator

import numpy as np

from .game import Bot, GameSpec
from .play import Table
from .rules import Rules

WIDTH = 100  # no line of a trace is longer (traces are read in a terminal)
STEP = "    "  # the indentation of the moves under a state


def trace_game(game: GameSpec, params: Any, bots: list[Bot], seed: int, index: int, rotate: bool = False) -> Iterator[str]:
    from .bots import bot_table
    from .seeding import game_seeds

    from .errors import UserError
    from .workers import MAX_GAMES

    if not isinstance(seed, int) or seed < 0:
        raise UserError(f"the seed must be a non-negative integer, not {seed!r} (--seed)")
    if not isinstance(index, int) or not 0 <= index < MAX_GAMES:
        raise UserError(f"the game index must be from 0 to {MAX_GAMES - 1:,}, not {index!r} (--game-index)")
    b = game.board(params)
    game_seed = int(game_seeds(seed, index, index + 1)[0])
    seats = game.seats(params)
    table = bot_table(seats, index, index + 1, rotate)[0]
    t = Table(game, b, game_seed)
    names = [bots[table[p]].name for p in range(seats)]
    title = f"{game.title}, game {index} of seed {seed} (game seed {game_seed})"
    if seats == 1:
        yield from _fold(f"{title}; bot {names[0]}")
    else:
        yield from _fold(title)
        if len(set(names)) == 1:
            yield f"bots: {names[0]} in {'both' if seats == 2 else f'all {seats}'} seats"
        else:
            yield from _fold("bots: " + ", ".join(f"seat {p + 1} {names[p]}" for p in range(seats)))
    if game.text.describe_setup is not None:
        yield from _text("setup: " + game.text.describe_setup(params, t.s, b), "  ")
    if game.text.trace_legend:
        yield from _text("legend: " + game.text.trace_legend, "  ")
    mark = None
    steps = 0
    while not t.over():
        if game.text.trace_mark is not None and game.text.trace_mark(t.s) != mark:
            mark = game.text.trace_mark(t.s)
            yield from _text(game.text.describe_state(params, t.s, b))
        p = t.to_move()
        bot = bots[table[p]]
        a, _ = t.decide(bot, index)
        before = t.s.copy()
        t.step(a)
        steps += 1
        if game.text.describe_step is not None:
            text = game.text.describe_step(params, before, t.s, b, a)
        else:
            text = game.text.describe_action(params, before, b, a)
        if text:
            yield from _text(STEP + (f"seat {p + 1} ({bot.name}) " if seats > 1 else "") + text, STEP + "  ")
        if steps > game.max_steps:
            yield f"(stopped: no end after {game.max_steps:,} steps)"
            return
    yield from _text(game.text.describe_state(params, t.s, b))
    if game.text.describe_result is not None:
        yield from _text(game.text.describe_result(params, t.s, b))
    else:
        won = np.atleast_1d(Rules(game, params).won(_State(t)))
        yield "won: " + ", ".join(f"seat {p + 1}" for p in range(len(won)) if won[p]) if won.any() else "nobody won"


def _text(text: str, rest: str = "") -> Iterator[str]:
    """The lines of a (possibly multi-line) text, lines after the first indented by ``rest``
    (besides their own indentation), each folded to :data:`WIDTH`."""
    for i, line in enumerate(text.split("\n")):
        yield from _fold(line if i == 0 else rest + line)


def _fold(line: str) -> list[str]:
    """``line`` in pieces of at most :data:`WIDTH` characters: it breaks after "; " (at a space
    when a part is still too long), and the pieces after the first are indented two spaces more
    than the line. Lengths count UTF-8 bytes, so that byte-counting tools agree."""
    line = line.rstrip()
    if _len(line) <= WIDTH:
        return [line]
    more = " " * (len(line) - len(line.lstrip()) + 2)
    parts: list[str] = []
    for piece in line.split("; "):
        if parts and _len(parts[-1]) + 2 + _len(piece) < WIDTH:  # room for the ";" the break leaves
            parts[-1] += "; " + piece
        else:
            if parts:
                parts[-1] += ";"
            parts.append(piece if not parts else more + piece)
    out = []
    for part in parts:
        if _len(part) <= WIDTH:
            out.append(part)
        else:
            out += textwrap.wrap(part, WIDTH - (_len(part) - len(part)), subsequent_indent=more,
                                 break_long_words=False, break_on_hyphens=False)
    return out


def _len(text: str) -> int:
    return len(text.encode())


def _State(t: Table):
    from .rules import State

    return State(t.s, t.rng, t.b)
