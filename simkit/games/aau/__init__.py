"""Alien Attack USA (Reiner Knizia; MeepleBR / Glyptodon): 2-4 players defend the
USA against an alien invasion, with a semi-cooperative variant.

Rules as implemented: docs/rules/alien-attack-usa.md. Board (a stand-in):
``data/board.json``.
"""

from __future__ import annotations

import numpy as np

from strategies.aau import BOTS

from ...game import GameSpec, compiled_table
from . import board as board_mod
from .api import Rules
from .params import AAUParams
from .trace import trace_game

BORDER_NAMES = np.array(["Pacific", "Mexico", "Gulf", "Atlantic"], dtype=object)

COLUMNS = {
    "players": "number of players",
    "rounds": "rounds played (30, 24 or 20)",
    "bases_destroyed": "alien bases destroyed by the whole table",
    "earth_won": "whether the table destroyed at least semi_coop_threshold bases (decides the semi-cooperative mode; reported in both modes)",
    "score": "final score of the seat",
    "win_share": "1/k when k players share the win, else 0 (sums to 1 per decided game)",
    "city_mission": "value of the seat's city mission card (2-5)",
    "border_mission": "the seat's border mission card",
    "mission_points": "points from the seat's city and border missions",
    "city_mission_points": "points from the city mission",
    "border_mission_points": "points from the border mission",
    "bases_taken": "base tokens the seat holds",
    "parks": "park tokens the seat holds",
    "parks_points": "points from the global national-parks mission",
    "bases_points": "points from the global alien-bases mission",
    "expansion_points": "points from the territorial-expansion mission",
    "protection_points": "points from the global-protection mission (0 or 20)",
    "largest_group": "discs in the seat's largest connected group",
    "immediate_points": "points scored during play (cities and herds)",
    "discs_lost": "discs captured between bases",
    "powers_used": "powers used, bit mask: 1 Protection, 2 Cover, 4 Neighbourhood, 8 Extra Turn",
    "top_city": "value of the best city the seat defends (the tie-break)",
}


def simulate(params: AAUParams, seeds: np.ndarray, table: np.ndarray, bots: list, checked: bool = False) -> dict[str, np.ndarray]:
    from .play import FIELDS, SEAT_FIELDS, play_chunk, play_python

    b = board_mod.build(params)
    fast = compiled_table(bots, table, checked)
    if fast is not None:
        seat_out, game_out = play_chunk(seeds, b, *fast, FIELDS)
    else:
        seat_out, game_out = play_python(seeds, b, bots, table)
    cols = {name: seat_out[:, :, j] for j, (name, _) in enumerate(SEAT_FIELDS)}
    won = cols.pop("won_raw").astype(bool)
    winners = won.sum(axis=1, keepdims=True)
    out = {
        "players": np.full(len(seeds), params.players, np.int8),
        "rounds": game_out[:, 0].astype(np.int16),
        "bases_destroyed": game_out[:, 1].astype(np.int16),
        "earth_won": game_out[:, 2].astype(bool),
        "won": won,
        "win_share": np.where(won, 1.0 / np.maximum(winners, 1), 0.0),
        "score": cols.pop("score"),
        "city_mission": (cols.pop("city_card") + 2).astype(np.int8),
        "border_mission": BORDER_NAMES[cols.pop("border_card")],
    }
    out["mission_points"] = cols["city_mission_points"] + cols["border_mission_points"]
    out.update(cols)
    return out


def summary_lines(frame) -> list[str]:
    import polars as pl

    games = frame.filter(pl.col("seat") == 0)
    shared = frame.group_by("game_index").agg(pl.col("won").sum()).filter(pl.col("won") > 1).height
    lines = [f"bases destroyed per game: {games['bases_destroyed'].mean():.2f}; "
             f"table reaches the semi-cooperative threshold in {games['earth_won'].mean():.1%} of games; shared wins {shared / games.height:.1%}"]
    return lines


SPEC = GameSpec(
    name="aau",
    slug="alien-attack-usa",
    title="Alien Attack USA",
    params=AAUParams,
    bots=BOTS,
    default_bot="strategic",
    seats=lambda p: p.players,
    seat_range=(2, 4),
    simulate=simulate,
    columns=COLUMNS,
    data_version=board_mod.data_version,
    validate=board_mod.build,
    summary_means=("score", "mission_points", "bases_taken", "parks"),
    summarize=summary_lines,
    compare_metrics=("earth_won", "bases_destroyed"),
    game_columns=("players", "rounds", "bases_destroyed", "earth_won"),
    rules=Rules,
    trace=trace_game,
    max_steps=2_000,
    test_variants=tuple({"players": n, "semi_coop": semi} for n in (2, 3, 4) for semi in (False, True)),
    report="simkit.games.aau.report:build",
    experiment="experiments/aau-balance.toml",
)
