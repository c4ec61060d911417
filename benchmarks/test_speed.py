"""Speed benchmarks (pytest-benchmark). Not part of `make test`: timings vary between
machines, so targets are checked by reading these figures, not by asserting them.

    .venv/bin/python -m pytest benchmarks --benchmark-only

`simkit bench GAME` prints the same figures, with the pure-Python comparison.
"""

from __future__ import annotations

import pytest

from simkit.bench import time_games
from simkit.games import get
from simkit.params import build

CASES = [("ufs", {}, "greedy", 20_000), ("ufs", {}, "planner", 5_000), ("aau", {"players": 4}, "greedy", 5_000), ("aau", {"players": 4}, "strategic", 2_000),
         ("eftaios", {}, "heuristic", 10_000), ("eftaios", {}, "search", 1_000)]


@pytest.mark.parametrize("game, sets, bot, n", CASES, ids=[f"{g}-{b}" for g, _, b, _ in CASES])
def test_games_per_second(benchmark, game, sets, bot, n):
    g = get(game)
    params = build(g.params, sets, g.name)
    bots = g.resolve_bots([bot], params)
    time_games(g, params, bots, 100)  # compile or load the cache first
    seconds = benchmark.pedantic(time_games, args=(g, params, bots, n), rounds=3, iterations=1)
    benchmark.extra_info["games"] = n
    benchmark.extra_info["games_per_s"] = n / benchmark.stats.stats.min
    assert seconds > 0
