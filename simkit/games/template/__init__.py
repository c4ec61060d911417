"""The template game, Liar's Dice: a bluffing dice game for 2-4 players with hidden dice
and chance, written to the contract every game follows. Copy it to add a game:
docs/adding-a-game.md. The rules: docs/rules/template.md."""

from __future__ import annotations

import numpy as np

import strategies.template as bots

from ... import rules
from ...game import Analysis, Checks, GameSpec, OutputTable, Text, game_column, seat_column
from . import board as board_mod
from . import describe
from . import engine as E
from .params import LiarsDiceParams

OUTPUTS = OutputTable([
    seat_column("won", E.P_WON, "whether this seat won", bool),
    game_column("rounds", E.ROUNDS, "rounds played (one call each)", np.int16),
    seat_column("dice_left", E.P_DICE, "the seat's dice at the end (0: out)", np.int8),
    seat_column("calls", E.P_CALLS, "times the seat called liar", np.int16),
    seat_column("calls_won", E.P_CALLS_WON, "calls the seat won (the bid was a lie)", np.int16),
], seat_block=E.PLAYER_BLOCK)

SPEC = GameSpec(
    name="template",
    slug="template",
    title="Liar's Dice (the template game)",
    params=LiarsDiceParams,
    engine=E,
    strategies=bots,
    board=board_mod.build,
    data_version=board_mod.data_version,
    outputs=OUTPUTS,
    default_bot="count",
    seats=lambda p: p.players,
    seat_range=(2, 4),
    max_steps=E.MAX_STEPS,
    text=Text(
        describe_action=describe.describe_action,
        describe_state=describe.describe_state,
        describe_step=describe.describe_step,
        trace_mark=lambda s: int(s[E.ROUNDS]),
    ),
    analysis=Analysis(
        questions="simkit.games.template.questions:QUESTIONS",
        summary_means=("rounds", "calls", "calls_won"),
    ),
    checks=Checks(
        invariants=describe.invariants,
        variants=({"players": 2}, {"players": 4, "wild": 0}, {"players": 3, "dice": 1}),
        template=True,
    ),
)


def Rules(params: LiarsDiceParams | None = None, **settings):
    """Liar's Dice step by step, e.g. ``Rules(players=3, wild=0)`` (see :class:`simkit.rules.Rules`)."""
    return rules.Rules(SPEC, params, **settings)
