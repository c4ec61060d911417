"""Traces (``simkit trace``): readable at 100 columns, a legend for every game whose state
lines use symbols, the end told once."""

from __future__ import annotations

import pytest

from simkit.games import get
from simkit.trace import WIDTH, _fold
from simkit.trace import trace_game

GAMES = ("ufs", "aau", "ufoo", "eftaios", "ovni")


def _trace(name: str, seed: int, index: int, **settings) -> list[str]:
    game = get(name)
    params = game.params(**settings)
    return list(trace_game(game, params, game.resolve_bots([], params), seed, index))


@pytest.mark.parametrize("name", GAMES)
def test_a_trace_fits_100_columns_and_has_a_legend(name):
    for seed, index in ((1, 3), (2, 0)):
        lines = _trace(name, seed, index)
        long = [line for line in lines if len(line.encode()) > WIDTH]
        assert not long, f"{name}: {len(long)} lines over {WIDTH} columns, e.g. {long[0]!r}"
        assert any(line.startswith("legend: ") for line in lines)


def test_ovni_tells_the_end_once():
    lines = _trace("ovni", 1, 3)
    assert sum(line.startswith("final scores") for line in lines) == 1
    assert not any(" a Abductor" in line for line in lines)


def test_eftaios_names_the_character_killed():
    lines = [line for seed in (1, 2, 3) for line in _trace("eftaios", seed, 3)]
    killed = [line for line in lines if "killed" in line]
    assert killed and not any("character" in line for line in killed)
    assert any("card revealed: " in line for line in killed)


def test_fold_breaks_at_semicolons_and_indents():
    line = "    seat 1 (bot) " + "; ".join(f"event number {k}" for k in range(20))
    parts = _fold(line)
    assert len(parts) > 1 and all(len(p) <= WIDTH for p in parts)
    assert all(p.startswith("      ") for p in parts[1:]) and parts[0].endswith(";")
    assert " ".join(p.strip() for p in parts) == line.strip()
