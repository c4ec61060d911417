"""Alien Attack USA (Reiner Knizia; MeepleBR / Glyptodon): 2-4 players defend the
USA against an alien invasion, with a semi-cooperative variant.

Rules as implemented: docs/rules/alien-attack-usa.md. Board (a stand-in):
``data/board.json``.
"""

from __future__ import annotations

import numpy as np

import strategies.aau as bots

from ... import rules
from ...game import Analysis, Checks, GameSpec, OutputTable, Text, derived_column, game_column, seat_column
from . import board as board_mod
from . import describe
from . import engine as E
from .params import AAUParams

BORDER_NAMES = np.array(["Pacific", "Mexico", "Gulf", "Atlantic"], dtype=object)


def _win_share(cols, params):
    won = cols["won"]
    return np.where(won, 1.0 / np.maximum(won.sum(axis=1, keepdims=True), 1), 0.0)


OUTPUTS = OutputTable([
    derived_column("players", "game", lambda cols, p: np.full(len(cols["rounds"]), p.players, np.int8), "number of players"),
    game_column("rounds", E.ROUND, "rounds played (30, 24 or 20)", np.int16),
    game_column("bases_destroyed", E.TOTAL_DESTROYED, "alien bases destroyed by the whole table", np.int16),
    game_column("earth_won", E.EARTH_WON, "whether the table destroyed at least semi_coop_threshold bases (decides the semi-cooperative mode; reported in both modes)", bool),
    seat_column("won", E.P_WON, "whether this seat won (shared wins count for every winner)", bool),
    derived_column("win_share", "seat", _win_share, "1/k when k players share the win, else 0 (sums to 1 per decided game)"),
    seat_column("score", E.P_SCORE, "final score of the seat"),
    seat_column("city_mission", E.P_CITY_CARD, "value of the seat's city mission card (2-5)", np.int8, lambda c: c + 2),
    seat_column("border_mission", E.P_BORDER_CARD, "the seat's border mission card", object, lambda c: BORDER_NAMES[c]),
    derived_column("mission_points", "seat", lambda cols, p: cols["city_mission_points"] + cols["border_mission_points"],
                   "points from the seat's city and border missions"),
    seat_column("city_mission_points", E.P_CITY_PTS, "points from the city mission"),
    seat_column("border_mission_points", E.P_BORDER_PTS, "points from the border mission"),
    seat_column("parks", E.P_PARKS, "park tokens the seat holds"),
    seat_column("bases_taken", E.P_BASES, "base tokens the seat holds"),
    seat_column("parks_points", E.P_PARKS_PTS, "points from the global national-parks mission"),
    seat_column("bases_points", E.P_BASES_PTS, "points from the global alien-bases mission"),
    seat_column("expansion_points", E.P_EXPANSION_PTS, "points from the territorial-expansion mission"),
    seat_column("protection_points", E.P_PROTECTION_PTS, "points from the global-protection mission (0 or 20)"),
    seat_column("largest_group", E.P_LARGEST, "discs in the seat's largest connected group"),
    seat_column("immediate_points", E.P_IMMEDIATE, "points scored during play (cities and herds)"),
    seat_column("discs_lost", E.P_CAPTURED, "discs captured between bases"),
    seat_column("powers_used", E.P_POWERS, "powers used, bit mask: 1 Protection, 2 Cover, 4 Neighbourhood, 8 Extra Turn"),
    seat_column("top_city", E.P_TIEBREAK, "value of the best city the seat defends (the tie-break)"),
], seat_block=E.PLAYER_BLOCK)


SPEC = GameSpec(
    name="aau",
    slug="alien-attack-usa",
    title="Alien Attack USA",
    params=AAUParams,
    engine=E,
    strategies=bots,
    board=board_mod.build,
    data_version=board_mod.data_version,
    outputs=OUTPUTS,
    default_bot="strategic",
    seats=lambda p: p.players,
    seat_range=(2, 4),
    max_steps=2_000,
    text=Text(
        describe_action=describe.describe_action,
        describe_state=describe.describe_state,
        describe_step=describe.describe_step,
        describe_setup=describe.describe_setup,
        describe_result=describe.describe_result,
        trace_mark=lambda s: int(s[E.ROUND]),
        trace_legend="numbers are space ids of the board file (data/board.json); attack markers: drawn each\n"
                      "round, one per seat + 2; a covered marker gets the seat's disc, the others become alien\n"
                      "bases at the round's end; points: what the placement scored at once (R4)",
    ),
    analysis=Analysis(
        questions="simkit.games.aau.questions:QUESTIONS",
        summary_means=("score", "mission_points", "bases_taken", "parks"),
        compare_metrics=("earth_won", "bases_destroyed"),
        report="simkit.games.aau.report:build",
        experiment="experiments/aau-balance.toml",
        sensitivity="simkit.games.aau.sensitivity:DECLARATION",
        ladder=("random", "greedy", "strategic", "search"),  # team plays the semi-cooperative variant, not a step up
    ),
    checks=Checks(
        invariants=describe.invariants,
        # The last variant turns every compensation (K1-K4, not in the rulebook) on, city
        # card 5's tier 1 down to 0, so that the conformance suite covers them too.
        variants=tuple({"players": n, "semi_coop": semi} for n in (2, 3, 4) for semi in (False, True))
        + ({"players": 4, "city_mission_2_points": -1, "city_mission_3_points": 2, "city_mission_4_points": 8,
            "city_mission_5_points": -3},),
    ),
)


def Rules(params: AAUParams | None = None, **settings):
    """Alien Attack USA step by step, e.g. ``Rules(players=3, semi_coop=True)`` (see
    :class:`simkit.rules.Rules`)."""
    return rules.Rules(SPEC, params, **settings)
