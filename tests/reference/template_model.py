"""Pig, from its rules alone (the template game's second hand; the rules as the template's
engine docstring and docs/adding-a-game.md state them): on your turn roll the die as often as
you like, adding up the pips; the bust face ends the turn with nothing; holding banks the
turn's total; the first to reach the target wins. Seats take turns from seat 0.

The interface of tests/reference/lockstep.py: ``setup(chance)``, ``to_move()``, ``legal()``,
``apply(action, chance)``, ``over()``, ``won()``, ``snapshot()``."""

from __future__ import annotations

ROLL, HOLD = ("roll",), ("hold",)


class Pig:
    def __init__(self, players: int = 2, target: int = 30, bust: int = 1):
        self.players, self.target, self.bust = players, target, bust
        self.scores = [0] * players
        self.turn = 0
        self.turn_total = 0
        self.winner = None

    def setup(self, chance) -> None:
        pass  # Pig deals nothing

    def to_move(self) -> int:
        return self.turn

    def legal(self) -> list[tuple]:
        return [ROLL, HOLD]

    def apply(self, action: tuple, chance) -> None:
        if action == ROLL:
            face = chance.die("roll")
            if face == self.bust:
                self._next()
            else:
                self.turn_total += face
            return
        self.scores[self.turn] += self.turn_total
        if self.scores[self.turn] >= self.target:
            self.winner = self.turn
        else:
            self._next()

    def _next(self) -> None:
        self.turn_total = 0
        self.turn = (self.turn + 1) % self.players

    def over(self) -> bool:
        return self.winner is not None

    def won(self) -> list[bool]:
        return [p == self.winner for p in range(self.players)]

    def snapshot(self) -> dict:
        return {"scores": list(self.scores), "turn": self.turn, "turn_total": self.turn_total}
