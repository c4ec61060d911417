from __future__ import annotations

import dataclasses

import numpy as np

from . import engine as E


@dataclasses.dataclass
class State:
    s: np.ndarray
    rng: np.ndarray
    b: np.ndarray


class Rules:
    def __init__(self, params):
        from . import board

        self.b = board(params)
        self._buf = np.empty(E.MAX_ACTIONS, np.int32)

    def new(self, seed: int) -> State:
        s, rng = E.new_game(np.uint64(seed), self.b)
        return State(s, rng, self.b)

    def legal(self, st: State) -> np.ndarray:
        return self._buf[: E.legal(st.s, st.b, self._buf)].copy()

    def step(self, st: State, action: int) -> None:
        E.step(st.s, st.rng, st.b, int(action))

    def over(self, st: State) -> bool:
        return bool(st.s[E.OVER])

    def current_seat(self, st: State) -> int:
        return int(st.s[E.TURN])

    def invariants(self, st: State) -> list[str]:
        s, b = st.s, st.b
        bad = []
        if (s[E.SCORE:E.SCORE + b[0]] < 0).any():
            bad.append("negative score")
        if not s[E.OVER] and (s[E.SCORE:E.SCORE + b[0]] >= b[1]).any():
            bad.append("a player reached the target but the game goes on")
        return bad
