"""The balance questions of Liar's Dice (simkit.questions): whether any seat wins more
often (seat 0 opens the first round), asked separately for each player count. A game
declares its questions here; `simkit report`, `simkit run` and `simkit tune` answer them."""

from ...questions import SeatFairness

QUESTIONS = [
    SeatFairness(title="Does the opener's seat win more often?", margin=0.02),
]
