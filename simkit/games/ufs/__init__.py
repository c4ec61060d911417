"""Under Falling Skies (Tomáš Uhlíř, CGE 2020): solo dice placement.

Rules as implemented: docs/rules/under-falling-skies.md. Components:
``data/components.toml``.
"""

from __future__ import annotations

import numpy as np

import strategies.ufs as bots

from ... import rules
from ...game import Analysis, Checks, GameSpec, OutputTable, Text, game_column
from . import board as board_mod
from . import describe
from . import engine as E
from .params import UFSParams

LOSS_CAUSES = {E.R_WON: None, E.R_DAMAGE: "damage", E.R_MOTHERSHIP: "mothership"}

OUTPUTS = OutputTable([
    game_column("won", E.RESULT, "whether the game was won", bool, lambda r: r == E.R_WON),
    game_column("rounds", E.ROUND, "round in which the game ended", np.int16),
    game_column("loss_cause", E.RESULT, "damage, mothership, or null when won", object,
                lambda r: np.array([LOSS_CAUSES.get(int(c)) for c in r], dtype=object)),
    game_column("research_reached", E.RESEARCH, "research track space reached (the top is research_len)", np.int16),
    game_column("research_len", E.RLEN, "spaces on this game's research track", np.int16),
    game_column("damage_taken", E.DAMAGE, "damage suffered (ships hitting the city and mothership actions)", np.int16),
    game_column("city_hits", E.HITS, "ships that passed below the sky", np.int16),
    game_column("ships_shot", E.SHOT, "ships shot down by jets", np.int16),
    game_column("mothership_icons", E.MS_ICONS, "extra mothership descents caused by ships landing on its icon", np.int16),
    game_column("flipped", E.FLIPS, "threatening tiles, as a bit mask: 1 top tile (4), 2 tile 3, 4 tile 2, 8 bottom tile (1)", np.int8),
])


SPEC = GameSpec(
    name="ufs",
    slug="under-falling-skies",
    title="Under Falling Skies",
    params=UFSParams,
    engine=E,
    strategies=bots,
    board=board_mod.build,
    data_version=board_mod.data_version,
    outputs=OUTPUTS,
    default_bot="greedy",
    seats=lambda p: 1,
    seat_range=(1, 1),
    max_steps=2_000,
    text=Text(
        describe_action=describe.describe_action,
        describe_state=describe.describe_state,
        describe_result=describe.describe_result,
        trace_mark=lambda s: int(s[E.ROUND]),
        trace_legend="sky rows top to bottom, columns 1-5: X2 explosion (shoot value), < > arrows,\n"
                      "M mothership icon, P purple ship, W white ship (a ship's letter precedes its cell;\n"
                      "p, w on the landing row); dice: g grey, W white, * placed;\n"
                      "rooms: E energy, J jets, R research, B robot, +n modifier, cN energy cost",
    ),
    analysis=Analysis(
        questions="simkit.games.ufs.questions:QUESTIONS",
        summary_means=("rounds", "research_reached", "damage_taken", "ships_shot"),
        report="simkit.games.ufs.report:build",
        experiment="experiments/ufs-threat.toml",
        sensitivity="simkit.games.ufs.sensitivity:DECLARATION",
    ),
    checks=Checks(
        invariants=describe.invariants,
        variants=tuple(
            {"city": city, "city_side": side, "threat": threat, "robots": robots}
            for city in ("roswell", "new_york", "washington")
            for side in ("normal", "damaged")
            for threat, robots in ((0, True), (4, True), (2, False))
        ),
    ),
)


def Rules(params: UFSParams | None = None, **settings):
    """Under Falling Skies step by step, e.g. ``Rules(threat=3, city="new_york")``
    (see :class:`simkit.rules.Rules`)."""
    return rules.Rules(SPEC, params, **settings)
