"""Under Falling Skies (Tomáš Uhlíř, CGE 2020): solo dice placement.

Rules as implemented: docs/rules/under-falling-skies.md. Components:
``data/components.toml``.
"""

from __future__ import annotations

import numpy as np

from strategies.ufs import BOTS

from ...game import GameSpec, compiled_table
from . import board as board_mod
from .api import Rules
from .params import UFSParams
from .trace import trace_game

LOSS_CAUSES = {1: None, 2: "damage", 3: "mothership"}

COLUMNS = {
    "rounds": "round in which the game ended",
    "loss_cause": "damage, mothership, or null when won",
    "research_reached": "research track space reached (the top is research_len)",
    "research_len": "spaces on this game's research track",
    "damage_taken": "damage suffered (ships hitting the city and mothership actions)",
    "city_hits": "ships that passed below the sky",
    "ships_shot": "ships shot down by jets",
    "mothership_icons": "extra mothership descents caused by ships landing on its icon",
    "flipped": "threatening tiles, as a bit mask: 1 top tile (4), 2 tile 3, 4 tile 2, 8 bottom tile (1)",
}


def simulate(params: UFSParams, seeds: np.ndarray, table: np.ndarray, bots: list, checked: bool = False) -> dict[str, np.ndarray]:
    """Plays one game per seed. ``checked`` runs the Python loop, which verifies that
    every action a bot takes is legal (slower; used by the conformance suite)."""
    from .play import play_chunk, play_python

    board = board_mod.build(params)
    fast = compiled_table(bots, table, checked)
    if fast is not None:
        res = play_chunk(seeds, board, np.ascontiguousarray(fast[0][:, 0]), np.ascontiguousarray(fast[1][:, 0]))
    else:
        res = play_python(seeds, board, bots, table[:, 0])
    won, rounds, cause, research, rlen, damage, hits, shot, icons, flipped = res
    return {
        "won": won,
        "rounds": rounds,
        "loss_cause": np.array([LOSS_CAUSES.get(int(c)) for c in cause], dtype=object),
        "research_reached": research,
        "research_len": rlen,
        "damage_taken": damage,
        "city_hits": hits,
        "ships_shot": shot,
        "mothership_icons": icons,
        "flipped": flipped,
    }


def summary_lines(frame) -> list[str]:
    """Loss causes, as shares of all games."""
    n = frame.height
    counts = dict(frame.group_by("loss_cause").len().iter_rows())
    parts = [f"{cause or 'won'} {counts.get(cause, 0) / n:.1%}" for cause in (None, "damage", "mothership")]
    return ["outcomes: " + ", ".join(parts)]


SPEC = GameSpec(
    name="ufs",
    slug="under-falling-skies",
    title="Under Falling Skies",
    params=UFSParams,
    bots=BOTS,
    default_bot="greedy",
    seats=lambda p: 1,
    seat_range=(1, 1),
    simulate=simulate,
    columns=COLUMNS,
    data_version=board_mod.data_version,
    validate=board_mod.build,
    summary_means=("rounds", "research_reached", "damage_taken", "ships_shot"),
    summarize=summary_lines,
    trace=trace_game,
    rules=Rules,
    max_steps=2_000,
    test_variants=tuple(
        {"city": city, "city_side": side, "threat": threat, "robots": robots}
        for city in ("roswell", "new_york", "washington")
        for side in ("normal", "damaged")
        for threat, robots in ((0, True), (4, True), (2, False))
    ),
    report="simkit.games.ufs.report:build",
    experiment="experiments/ufs-threat.toml",
)
