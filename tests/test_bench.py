"""simkit bench picks its own game counts and bounds every timing: a fast bot and a slow
one are both timed for about the same time, and a bot too slow to finish a game in plain
Python is timed on its first decisions (no speed is asserted: timings are not tests)."""

import json

import pytest
from typer.testing import CliRunner

from simkit import bench as B
from simkit.cli import app
from simkit.games import REGISTRY, get
from simkit.params import build


def test_bench_sizes_its_timings_from_the_bots_speed(monkeypatch):
    monkeypatch.setattr(B, "COMPILED_SECONDS", 0.05)
    monkeypatch.setattr(B, "PYTHON_SECONDS", 0.2)
    game = get("template")
    params = build(game.params, {}, game.name)
    said = []
    (row,) = B.bench(game, params, ["count"], None, None, repeat=1, say=said.append)
    assert row.games >= 1 and row.games_per_s > 0
    assert row.python_games >= 1 and row.python_games_per_s > 0 and row.speedup > 0
    assert row.python_timed == f"{row.python_games:,} whole games"
    assert said == ["[1/1] count: compiled, best of 1 x about 0.05 s", "[1/1] count: plain Python, about 0.2 s"]
    (fixed,) = B.bench(game, params, ["random"], 300, 0, repeat=1)
    assert fixed.games == 300 and fixed.python_timed == "skipped" and fixed.speedup is None


@pytest.mark.parametrize("name", [g for g in REGISTRY if g != "template"])
def test_bench_gives_a_row_for_every_bot(name, monkeypatch, tmp_path):
    """What `simkit bench GAME --python-games 1` writes, with the plain-Python time cut
    short so that the searching bots are timed on their first decisions (or not at all)."""
    monkeypatch.setattr(B, "PYTHON_SECONDS", 0.1)
    monkeypatch.setattr(B, "FIRST_DECISION_SECONDS", 0.5)
    out = tmp_path / "bench.json"
    res = CliRunner().invoke(app, ["bench", name, "-n", "1", "--repeat", "1", "--python-games", "1", "--format", "json", "--output", str(out)])
    assert res.exit_code == 0, res.output
    rows = json.loads(out.read_text())["rows"]
    assert [r["bot"] for r in rows] == list(get(name).bots)
    for r in rows:
        assert r["games"] == 1 and r["games_per_s"] > 0
        if r["python_games"]:
            assert r["python_games"] == 1 and r["python_timed"] == "1 whole game" and r["speedup"] > 0
        elif r["python_decisions"]:
            assert r["python_timed"].startswith(f"the first {r['python_decisions']} decision") and r["speedup"] > 0
        else:
            assert r["python_timed"].startswith("not measured") and r["speedup"] is None


def test_a_users_bot_has_no_plain_python_figure(monkeypatch, tmp_path):
    """The plain-Python reference plays the game's bots by their codes: it timed a built-in
    bot under a user's bot's name (a bot sleeping 2 ms a decision showed 30 games/s, 35
    times faster than the same bot 'compiled'). A user's bot is Python either way."""
    monkeypatch.setattr(B, "COMPILED_SECONDS", 0.05)
    monkeypatch.setattr(B, "PYTHON_SECONDS", 0.2)
    (tmp_path / "bench_mine.py").write_text("def first(observation, legal, rng):\n    return legal[0]\n")  # (a name no other test imports)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    game = get("template")
    params = build(game.params, {}, game.name)
    mine, count = B.bench(game, params, ["bench_mine:first", "count"], None, None, repeat=1)
    assert mine.python_timed == "not timed: a bot of yours is Python either way" and mine.python_games_per_s is None
    assert mine.speedup is None and mine.games_per_s > 0
    assert count.python_games >= 1 and count.speedup > 0
