"""Liar's Dice ("common hand" rules), from its rules text alone: the second hand for
simkit's template game. Written from /work/play/liars-dice-rules.md only (rules R1-R6,
worked examples E1-E5, the "Model interface" section); the engine was not read.

What it models: 2-4 seats, each starting with ``dice`` dice (R1.1); every round all seats
with dice roll (R2.1), the opener must bid (R4.1), then each seat in turn either raises the
standing bid (R3.2-R3.4) or calls "liar" (R4.1); the call is settled by counting the bid
face, plus ones when ``wild`` = 1 (R4.2), and the loser of the call loses one die (R4.3).
A seat with no dice is out (R4.4); the last seat with dice wins (R5.1); otherwise the
loser (or the next seat after it with dice) opens a new round (R5.2).

The interface of tests/reference/lockstep.py: ``setup(chance)``, ``to_move()``,
``legal()``, ``apply(action, chance)``, ``over()``, ``won()``, ``snapshot()``. Chance:
one ``chance.die("roll")`` per die rolled, seat 0's dice first, then seat 1's, ... (R2.1).

Readings of the spec I had to choose (the text does not settle them outright):
  1. When the game is over, the snapshot's "bid" is [0, 0] and "bidder" is -1: the last
     call settled the round's bid, and no new round (with a standing bid) exists. The spec
     only fixes "faces" = [] per seat and "to_move" = -1 for a finished game.
  2. "rounds" counts rounds started (1 after setup, +1 for every R5.2 new round); the call
     that ends the game starts no round, so "rounds" does not change then.
  3. At the start of every round (R5.2 as well as R1.2), the standing bid is cleared:
     "bid" = [0, 0], "bidder" = -1, and the opener must bid (R4.1).
  4. R3.2's "dice still in play" is the total dice count of all seats at the time of the
     bid; within a round it cannot change (dice are lost only when a call is settled,
     which ends the round).
  5. "liar" is legal exactly when there is a standing bid (R4.1). Every non-opening turn
     of a round has one, so "liar" is legal on every turn but the opener's first.
  6. The call needs no chance; the new round's roll (R5.2) is the chance of the "liar"
     step, and the call that ends the game draws nothing. Bids draw nothing.
  7. ``won()`` before the game is over returns all False.
  8. R6.1's "faces allowed" is 5 with wild = 1 (faces 2-6) and 6 with wild = 0; the
     worked total (19 x (20 x 6 + 1)) uses 6, an upper bound for both settings.
"""

from __future__ import annotations

LIAR = ("liar",)
FACES = 6  # "The die has six faces, 1-6." (Settings)


class LiarsDice:
    def __init__(self, players: int = 2, dice: int = 5, wild: int = 1):
        assert 2 <= players <= 4, "Settings: players is 2-4"
        assert 1 <= dice <= 5, "Settings: dice is 1-5"
        assert wild in (0, 1), "Settings: wild is 0 or 1"
        self.players, self.dice, self.wild = players, dice, wild
        self.counts = [dice] * players            # R1.1 every player starts with `dice` dice
        self.faces = [[] for _ in range(players)]  # this round's roll, per seat
        self.bid = (0, 0)                         # standing bid (q, f); (0, 0) = none
        self.bidder = -1                          # who made it; -1 = none
        self.turn = 0                             # seat to move; -1 when over
        self.rounds = 0
        self.winner = None

    # ---- helpers ---------------------------------------------------------------

    def _in_play(self) -> int:
        """R3.2: the number of dice still in play, all players together."""
        return sum(self.counts)

    def _next_with_dice(self, seat: int) -> int:
        """R2.3 / R5.2: the next seat after ``seat`` in seat order (wrapping) with dice."""
        for step in range(1, self.players + 1):
            s = (seat + step) % self.players
            if self.counts[s] > 0:
                return s
        raise AssertionError("no seat has dice")

    def _bid_faces(self) -> list[int]:
        """R3.3: faces 2-6 with wild = 1, faces 1-6 with wild = 0."""
        return list(range(2, FACES + 1)) if self.wild else list(range(1, FACES + 1))

    def _start_round(self, opener: int, chance) -> None:
        """R2.1: every player with dice rolls all of them, seat 0 first, die by die."""
        self.rounds += 1
        for seat in range(self.players):
            rolled = [chance.die("roll") for _ in range(self.counts[seat])]
            self.faces[seat] = sorted(rolled)
        self.bid, self.bidder = (0, 0), -1   # reading 3: a new round has no standing bid
        self.turn = opener                   # R2.3 the opener moves first

    # ---- interface ---------------------------------------------------------------

    def setup(self, chance) -> None:
        # R1.1 seat 0 opens the first round; R1.2 it starts at once with the setup's chance.
        self._start_round(0, chance)

    def to_move(self) -> int:
        return self.turn

    def legal(self) -> list[tuple]:
        if self.over():
            return []
        q0, f0 = self.bid
        actions = []
        for q in range(1, self._in_play() + 1):          # R3.2
            for f in self._bid_faces():                   # R3.3
                first = self.bidder == -1
                if first or q > q0 or (q == q0 and f > f0):   # R3.4
                    actions.append(("bid", q, f))
        if self.bidder != -1:
            actions.append(LIAR)   # R4.1 a call needs a standing bid (reading 5)
        return actions

    def apply(self, action: tuple, chance) -> None:
        action = tuple(action)
        assert action in self.legal(), f"illegal action {action}"
        if action[0] == "bid":
            _, q, f = action
            self.bid, self.bidder = (q, f), self.turn
            self.turn = self._next_with_dice(self.turn)   # R2.3
            return
        # R4.2 all dice revealed; count face f, plus ones when wild.
        caller = self.turn
        q, f = self.bid
        count = 0
        for seat in range(self.players):
            for face in self.faces[seat]:
                if face == f or (self.wild == 1 and face == 1):
                    count += 1
        # R4.3 the bid stands -> the caller loses a die; otherwise the bidder does.
        loser = caller if count >= q else self.bidder
        self.counts[loser] -= 1
        # R4.4 a player with no dice is out; R5.1 one player with dice left wins.
        alive = [s for s in range(self.players) if self.counts[s] > 0]
        if len(alive) == 1:
            self.winner = alive[0]
            self.faces = [[] for _ in range(self.players)]   # Model interface: [] when over
            self.bid, self.bidder = (0, 0), -1               # reading 1
            self.turn = -1                                   # Model interface: -1 when over
            return
        # R5.2 the loser opens; if out, the next seat after the loser with dice.
        opener = loser if self.counts[loser] > 0 else self._next_with_dice(loser)
        self._start_round(opener, chance)

    def over(self) -> bool:
        return self.winner is not None

    def won(self) -> list[bool]:
        return [self.winner is not None and p == self.winner for p in range(self.players)]

    def snapshot(self) -> dict:
        return {
            "counts": [int(c) for c in self.counts],
            "faces": [[int(x) for x in fs] for fs in self.faces],
            "bid": [int(self.bid[0]), int(self.bid[1])],
            "bidder": int(self.bidder),
            "to_move": int(self.turn),
            "rounds": int(self.rounds),
        }
