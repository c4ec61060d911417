from __future__ import annotations

from ...rules import State, StepRules
from . import board as board_mod
from . import engine as E

__all__ = ["Rules", "State"]


class Rules(StepRules):
    engine = E
    build_board = staticmethod(board_mod.build)

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
