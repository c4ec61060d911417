"""Step-by-step access to the rules from Python (tests, notebooks, the conformance
suite): a state object over the compiled entry points, plus the game's invariants."""

from __future__ import annotations

import numpy as np

from ...rules import State, StepRules
from . import board as board_mod
from . import engine as E
from .board import B_DMAX, B_EMAX, B_EXCAV_START, B_MAX_ROBOTS

__all__ = ["Rules", "State"]


class Rules(StepRules):
    """Under Falling Skies, step by step (one seat)."""

    engine = E
    build_board = staticmethod(board_mod.build)

    def won(self, st: State) -> list[bool]:
        return [int(st.s[E.RESULT]) == E.R_WON]

    def invariants(self, st: State) -> list[str]:
        """Broken invariants (empty when all hold): pieces conserved, tracks in range."""
        s, b = st.s, st.b
        bad = []
        rows = s[E.SHIP_ROW:E.SHIP_ROW + E.NSHIPS]
        cols = s[E.SHIP_COL:E.SHIP_COL + E.NSHIPS]
        if (rows[:5] < E.ROW_WAITING).any():
            bad.append("a purple ship left the game")
        whites = rows[5:]
        if int((whites == E.ROW_RESERVE).sum()) != s[E.WHITE_RESERVE]:
            bad.append("white reserve count differs from the white ships in reserve")
        if (rows > E.SKY_ROWS).any():
            bad.append("a ship is below the sky")
        on_board = [(int(r), int(c)) for r, c in zip(rows, cols) if r >= 1]
        if len(set(on_board)) != len(on_board):
            bad.append("two ships share a sky cell")
        sites = [int(c) for r, c in zip(rows, cols) if r == E.ROW_SITE]
        if len(set(sites)) != len(sites):
            bad.append("two ships share a landing site")
        if any(r <= s[E.MS] for r in rows if r >= 1) and s[E.PHASE] != E.P_OVER:
            bad.append("a ship is in a row the mothership covers")
        if not 0 <= s[E.DAMAGE] <= b[B_DMAX]:
            bad.append(f"damage {s[E.DAMAGE]} out of range")
        if not 0 <= s[E.ENERGY] <= b[B_EMAX]:
            bad.append(f"energy {s[E.ENERGY]} out of 0..{b[B_EMAX]}")
        if not 0 <= s[E.RESEARCH] <= s[E.RLEN]:
            bad.append("research marker off its track")
        if not b[B_EXCAV_START] <= s[E.EXCAV] <= 25:
            bad.append("excavator off its path")
        robots = [k for k in range(2) if s[E.ROBOT_VAL + k] > 0]
        if len(robots) > b[B_MAX_ROBOTS]:
            bad.append("too many robots")
        for k in robots:
            if not 1 <= s[E.ROBOT_VAL + k] <= 6:
                bad.append("a robot die shows an impossible value")
        if s[E.PHASE] != E.P_OVER:
            if s[E.MS] >= s[E.SKULL]:
                bad.append("the mothership reached the skull but the game goes on")
            if s[E.DAMAGE] >= b[B_DMAX]:
                bad.append("damage reached the limit but the game goes on")
            if s[E.RESEARCH] >= s[E.RLEN]:
                bad.append("research reached the top but the game goes on")
        kinds = s[E.SKY_KIND + 5:E.SKY_KIND + 85].reshape(E.SKY_ROWS, 5)  # sky rows 1-16
        row_bits = 1 << np.arange(1, E.SKY_ROWS + 1)
        masks = np.array([row_bits @ (kinds == kind) for kind in range(5)]).ravel()  # [kind * 5 + col]
        wrong = np.flatnonzero(masks != s[E.SKY_MASK:E.SKY_MASK + 25])
        if wrong.size:
            kind, c = divmod(int(wrong[0]), 5)
            bad.append(f"the sky masks differ from the sky (kind {kind}, column {c + 1})")
        if (s[E.DIE_VAL:E.DIE_VAL + 5] < 1).any() or (s[E.DIE_VAL:E.DIE_VAL + 5] > 6).any():
            bad.append("a die shows an impossible value")
        return bad
