"""The template game, Pig: a push-your-luck dice race for 2-4 players, written to the
contract every game follows. Copy it to add a game: docs/adding-a-game.md."""

from __future__ import annotations

import numpy as np

import strategies.template as bots

from ... import rules
from ...game import Analysis, Checks, GameSpec, OutputTable, Text, game_column, seat_column
from . import board as board_mod
from . import describe
from . import engine as E
from .params import PigParams

OUTPUTS = OutputTable([
    seat_column("won", E.P_WON, "whether this seat won", bool),
    game_column("turns", E.TURNS, "turns played", np.int16),
    seat_column("score", E.P_SCORE, "the seat's final score", np.int16),
    seat_column("busts", E.P_BUSTS, "turns the seat lost to the bust face", np.int16),
], seat_block=E.PLAYER_BLOCK)

SPEC = GameSpec(
    name="template",
    slug="template",
    title="Pig (the template game)",
    params=PigParams,
    engine=E,
    strategies=bots,
    board=board_mod.build,
    data_version=board_mod.data_version,
    outputs=OUTPUTS,
    default_bot="hold20",
    seats=lambda p: p.players,
    seat_range=(2, 4),
    max_steps=5_000,
    text=Text(
        describe_action=describe.describe_action,
        describe_state=describe.describe_state,
        describe_step=describe.describe_step,
        trace_mark=lambda s: int(s[E.TURNS]),
    ),
    analysis=Analysis(
        questions="simkit.games.template.questions:QUESTIONS",
        summary_means=("score", "turns"),
    ),
    checks=Checks(
        invariants=describe.invariants,
        variants=({"players": 2}, {"players": 4, "target": 50}),
        template=True,
    ),
)


def Rules(params: PigParams | None = None, **settings):
    """Pig step by step, e.g. ``Rules(players=3)`` (see :class:`simkit.rules.Rules`)."""
    return rules.Rules(SPEC, params, **settings)
