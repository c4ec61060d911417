"""Step-by-step access to the rules from Python: tests, notebooks, the conformance suite."""

from __future__ import annotations

import numpy as np

from ...rules import State, StepRules
from . import board as board_mod
from . import engine as E
from .board import B_NSP

__all__ = ["Rules", "State"]


class Rules(StepRules):
    """Alien Attack USA, step by step."""

    engine = E
    build_board = staticmethod(board_mod.build)

    def __init__(self, params):
        super().__init__(params)
        b = self.b
        self._city_spaces = [
            [x for x in range(int(b[B_NSP])) for k in range(b[board_mod.B_SP_NCITY + x]) if b[board_mod.B_SP_CITY + x * 3 + k] == c]
            for c in range(int(b[board_mod.B_NCITY]))
        ]

    def current_seat(self, st: State) -> int:
        return int(E.player_of(st.s))

    def player(self, st: State, p: int, field: int) -> int:
        return int(st.s[E.PLAYER + p * E.P_STRIDE + field])

    def invariants(self, st: State) -> list[str]:
        """Markers conserved (bag + markers + bases + discs + emptied = 120 spaces),
        scores consistent, discs counted."""
        s, b = st.s, st.b
        n = int(b[B_NSP])
        bad = []
        sp = s[E.SP:E.SP + n]
        if int((sp == E.S_BAG).sum()) != s[E.BAG_N]:
            bad.append("spaces not attacked yet differ from the markers left in the bag")
        bag = sorted(int(x) for x in s[E.BAG:E.BAG + s[E.BAG_N]])
        if bag != sorted(int(x) for x in np.flatnonzero(sp == E.S_BAG)):
            bad.append("the bag holds markers of spaces already attacked")
        players = int(s[E.PLAYERS])
        taken = sum(self.player(st, p, E.P_BASES) for p in range(players))
        if taken != s[E.TOTAL_DESTROYED]:
            bad.append("base tokens held differ from bases destroyed")
        flipped = int((s[E.FLIP:E.FLIP + n] > 0).sum())
        if flipped != int((sp == E.S_BASE).sum()) + taken:
            bad.append("bases flipped differ from bases standing plus bases destroyed")
        for p in range(players):
            on_board = int((sp == E.S_DISC + p).sum())
            if on_board != self.player(st, p, E.P_DISCS) - self.player(st, p, E.P_CAPTURED):
                bad.append(f"player {p}: discs on the board differ from discs placed minus discs lost")
            if on_board > 33:
                bad.append(f"player {p} has more than 33 discs")
            pairs = sum(1 for x in range(n) if sp[x] == E.S_DISC + p for d in range(6)
                        if b[board_mod.B_NB + x * 6 + d] >= 0 and sp[b[board_mod.B_NB + x * 6 + d]] == E.S_BASE)
            if pairs != self.player(st, p, E.P_ADJ_BASES):
                bad.append(f"player {p}: base/disc pair count is off")
            if self.player(st, p, E.P_SCORE) < self.player(st, p, E.P_IMMEDIATE):
                bad.append(f"player {p}: score below the points scored in play")
            for c, around in enumerate(self._city_spaces):
                count = sum(1 for x in around if sp[x] == E.S_DISC + p)
                if count != s[E.CITY_CNT + p * board_mod.MAX_CITIES + c]:
                    bad.append(f"player {p}: city {c} count is off")
                    break
        for x in range(n):
            hits = 0
            for d in range(6):
                y = b[board_mod.B_NB + x * 6 + d]
                if y < 0 or sp[y] != E.S_BASE:
                    continue
                z = b[board_mod.B_NB + y * 6 + d]
                hits += (b[board_mod.B_CANADA + y] >> d) & 1 if z < 0 else sp[z] >= E.S_DISC
            if hits != s[E.HITS + x]:
                bad.append(f"space {x}: count of bases a disc there would destroy is off")
                break
        if s[E.PHASE] != E.P_OVER and s[E.ROUND] > s[E.NROUNDS]:
            bad.append("more rounds than the bag allows")
        return bad
