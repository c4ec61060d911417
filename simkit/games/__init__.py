"""The game registry: one line per game. Adding a game means copying
``simkit/games/template`` and ``strategies/template`` (see docs/adding-a-game.md) and
adding its line here."""

from __future__ import annotations

import importlib

from ..errors import UserError
from ..game import GameSpec

REGISTRY = {
    "ufs": "simkit.games.ufs",
    "aau": "simkit.games.aau",
    "ufoo": "simkit.games.ufoo",
    "eftaios": "simkit.games.eftaios",
    "ovni": "simkit.games.ovni",
    "template": "simkit.games.template",  # the contributors' template game (Liar's Dice)
}


def get(name: str) -> GameSpec:
    """A game by short name (``ufs``) or long name (``under-falling-skies``)."""
    key = str(name).strip().lower()
    for short, module in REGISTRY.items():
        spec = importlib.import_module(module).SPEC
        if key in (short, spec.slug):
            return spec
    raise UserError(f"unknown game {name!r}; known games: {', '.join(REGISTRY)} (see 'simkit games')")


def all_games() -> list[GameSpec]:
    return [importlib.import_module(m).SPEC for m in REGISTRY.values()]
