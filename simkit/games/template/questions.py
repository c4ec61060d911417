"""The balance questions of Pig (simkit.questions): whether any seat wins more often,
asked separately for each player count. A game declares its questions here; `simkit
report`, `simkit run` and `simkit tune` answer them."""

from ...questions import SeatFairness

QUESTIONS = [
    SeatFairness(title="Does the turn order favour a seat?", margin=0.02),
]
