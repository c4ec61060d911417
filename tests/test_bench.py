"""simkit bench picks its own game counts: a fast bot and a slow one are both timed for
about the same time (no speed is asserted: timings are not tests)."""

from simkit import bench as B
from simkit.games import get
from simkit.params import build


def test_bench_sizes_its_timings_from_the_bots_speed(monkeypatch):
    monkeypatch.setattr(B, "COMPILED_SECONDS", 0.05)
    monkeypatch.setattr(B, "PYTHON_SECONDS", 0.2)
    game = get("template")
    params = build(game.params, {}, game.name)
    (row,) = B.bench(game, params, ["hold20"], None, None, repeat=1)
    assert row.games >= 200 and row.games_per_s > 0
    assert row.python_games >= 1 and row.python_games_per_s > 0 and row.speedup > 0
    (fixed,) = B.bench(game, params, ["random"], 300, 0, repeat=1)
    assert fixed.games == 300 and fixed.python_games is None and fixed.speedup is None
