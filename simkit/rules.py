"""The step-by-step Python view of a game's compiled rules, for notebooks, tests and the
conformance suite (like OpenSpiel's ``State``)::

    from simkit.games.ufs import Rules
    rules = Rules(threat=3, city="new_york")      # settings validated like --set
    st = rules.new(seed=7)
    while not rules.over(st):
        a = rules.legal(st)[0]
        print(rules.describe_action(st, a))
        rules.step(st, a)                          # raises IllegalAction on a bad action
    rules.won(st), rules.results(st), rules.view(st)

``view`` names the state's fields (the engine's layout); ``observe(st, seat)`` is what
that seat's bot would be shown.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .errors import UserError
from .params import build
from .protocol import entries


class IllegalAction(ValueError):
    """An action that is not legal in the state, or a step after the game is over."""


@dataclasses.dataclass
class State:
    s: np.ndarray  # the engine's state vector
    rng: np.ndarray  # the game's random streams
    b: np.ndarray  # the board vector

    def copy(self) -> "State":
        return State(self.s.copy(), self.rng.copy(), self.b)


class Rules:
    """A game's rules for one set of parameters."""

    def __init__(self, game, params: Any = None, **settings):
        if params is not None and settings:
            raise TypeError("give a parameters object or keyword settings, not both")
        if params is None:
            params = build(game.params, settings, game.name)
        elif not isinstance(params, game.params):
            raise TypeError(f"params must be a {game.params.__name__}")
        self.game = game
        self.params = params
        self.E = game.engine
        self.fns = entries(game)
        self.b = game.board(params)
        self._buf = np.empty(self.E.MAX_ACTIONS, np.int32)

    def __repr__(self) -> str:
        return f"Rules({self.game.name}, {self.params})"

    # -- the protocol --
    def new(self, seed: int) -> State:
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or not 0 <= int(seed) < 2**64:
            raise UserError(f"a game seed is an integer from 0 to 2**64 - 1, not {seed!r}")
        s, rng = self.fns.init_state(np.uint64(seed), self.b)
        return State(s, rng, self.b)

    def legal(self, st: State) -> np.ndarray:
        if self.over(st):
            return np.empty(0, np.int32)
        n = self.fns.legal_actions(st.s, st.b, self._buf)
        return self._buf[:n].copy()

    def step(self, st: State, action: int) -> None:
        if self.over(st):
            raise IllegalAction("the game is over")
        a = int(action)
        if not np.any(self.legal(st) == a):
            raise IllegalAction(f"action {a} ({self._describe_safe(st, a)}) is not legal here")
        self.fns.apply_action(st.s, st.rng, st.b, a)

    def over(self, st: State) -> bool:
        return bool(self.fns.is_over(st.s))

    def to_move(self, st: State) -> int:
        """The seat that takes the current decision."""
        return int(self.fns.to_move(st.s))

    current_seat = to_move

    def observe(self, st: State, seat: int) -> np.ndarray:
        """What ``seat`` may see (a copy)."""
        if self.E.PERFECT_INFORMATION:
            return st.s.copy()
        out = np.zeros(self.E.OBS_SIZE, np.int32)
        self.fns.observe(st.s, st.b, int(seat), out)
        return out

    def results(self, st: State) -> dict[str, Any]:
        """The game's output columns for this one game (per seat: a list)."""
        out = self.game.outputs
        seats = self.seats
        game_fields, seat_fields = out.gather(st.s, seats)
        game_raw, seat_raw = game_fields[None].astype(np.int32), seat_fields[None].astype(np.int32)
        cols = out.columns_from(game_raw, seat_raw, self.params)
        return {k: (v[0].tolist() if np.ndim(v) == 2 else (v[0].item() if hasattr(v[0], "item") else v[0])) for k, v in cols.items()}

    def won(self, st: State) -> list[bool]:
        """Per seat: whether it won (shared wins count for every winner)."""
        won = self.results(st)["won"]
        return [bool(w) for w in won] if isinstance(won, list) else [bool(won)]

    @property
    def seats(self) -> int:
        return self.game.seats(self.params)

    # -- reading a state --
    def view(self, st: State) -> dict[str, Any]:
        """The state's fields by name."""
        return self.E.STATE.view(st.s, self.seats)

    def describe_action(self, st: State, action: int) -> str:
        return self.game.text.describe_action(self.params, st.s, st.b, int(action))

    def _describe_safe(self, st: State, a: int) -> str:
        try:
            return self.describe_action(st, a)
        except Exception:  # noqa: BLE001 - only for an error message about a bad id
            return "no such action"

    def describe(self, st: State) -> str:
        return self.game.text.describe_state(self.params, st.s, st.b)

    def invariants(self, st: State) -> list[str]:
        """Broken invariants of the state (empty when all hold)."""
        return self.game.checks.invariants(st.s, st.b)
