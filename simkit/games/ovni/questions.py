"""The balance questions of O.V.N.I. (simkit.questions), asked of the headline games of
experiments/ovni.toml: the strategic bot at every seat with the built-in board and decks
(its grid 0). `simkit report`, `simkit run` and `simkit tune` answer them."""

from ...questions import Payoff, SeatFairness

HEADLINE = {"grid": 0, "table": "strategic"}

QUESTIONS = [
    SeatFairness(title="Does seat 1 (or any seat) win more often than the others?", where=HEADLINE, by=("players",),
                 value="win_share", names={1: "seat 1 (first to choose its starting aliens)"}),
    # Each seat holds two ability cards, so a seat without a given card is about twice as
    # likely to hold the dominant one as a seat with it: each card's payoff is adjusted for
    # the other card held, not read against the seats without it.
    Payoff(id="abilities", title="Which ability cards help their holder win?", items=("ability_1", "ability_2"),
           item_name="ability card", value="win_share", where=HEADLINE, by=(), skip=("",)),
]
