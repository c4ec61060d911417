"""The step-by-step Python view of a game's compiled rules (OpenSpiel-like): what tests,
notebooks and the conformance suite use. Each game subclasses :class:`StepRules` with
its engine module, its board builder and its invariants."""

from __future__ import annotations

import dataclasses
from types import ModuleType
from typing import Any, Callable

import numpy as np


@dataclasses.dataclass
class State:
    s: np.ndarray  # the engine's state vector
    rng: np.ndarray  # the game's random streams
    b: np.ndarray  # the board vector


class StepRules:
    engine: ModuleType  # must provide new_game, legal, step, MAX_ACTIONS, PHASE, P_OVER
    build_board: Callable[[Any], np.ndarray]

    def __init__(self, params):
        self.params = params
        self.b = type(self).build_board(params)
        self._buf = np.empty(self.engine.MAX_ACTIONS, np.int32)

    def new(self, seed: int) -> State:
        s, rng = self.engine.new_game(np.uint64(seed), self.b)
        return State(s, rng, self.b)

    def legal(self, st: State) -> np.ndarray:
        n = self.engine.legal(st.s, st.b, self._buf)
        return self._buf[:n].copy()

    def step(self, st: State, action: int) -> None:
        self.engine.step(st.s, st.rng, st.b, int(action))

    def over(self, st: State) -> bool:
        return int(st.s[self.engine.PHASE]) == self.engine.P_OVER

    def current_seat(self, st: State) -> int:
        return 0

    def invariants(self, st: State) -> list[str]:
        """Broken invariants of the state (empty when all hold)."""
        return []
