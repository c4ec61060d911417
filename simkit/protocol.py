"""A game's compiled protocol, called from Python: the step-by-step rules
(:mod:`simkit.rules`), the checked loop (:mod:`simkit.play`) and tests call the engine's
functions and the built-in bots through these cached compiled copies; the fast loop is the
game's own ``loop.py`` (:func:`game_loop`)."""

from __future__ import annotations

import importlib
from types import ModuleType

from .jit import entry

_ENTRIES: dict[int, tuple] = {}


class SimpleEntries:
    """Cached compiled copies of a game's protocol functions, for calls from Python
    (compiled code calls the plain functions, which numba can inline)."""

    def __init__(self, game):
        E = game.engine
        self.init_state = entry(E.init_state)
        self.legal_actions = entry(E.legal_actions)
        self.apply_action = entry(E.apply_action)
        self.to_move = entry(E.to_move)
        self.is_over = entry(E.is_over)
        self.observe = entry(E.observe)
        self._choose = [entry(f) for f in game.strategies.CHOOSE]  # each compiled on its first call

    def choose(self, code, flags, obs, legal, rng, b, mem, ib, fb):
        """Built-in bot ``code``'s action (the arguments of the compiled loop's ``choose``)."""
        return self._choose[code](flags, obs, legal, rng, b, mem, ib, fb)


def entries(game) -> SimpleEntries:
    """The game's :class:`SimpleEntries`, made once per game declaration."""
    got = _ENTRIES.get(id(game))
    if got is None or got[0] is not game:
        got = _ENTRIES[id(game)] = (game, SimpleEntries(game))
    return got[1]


def game_loop(game) -> ModuleType:
    """The game's cached compiled loop (``loop.py`` beside its engine)."""
    return importlib.import_module(game.engine.__name__.rsplit(".", 1)[0] + ".loop")
