"""The balance questions of O.V.N.I. (simkit.questions), asked of the headline games of
experiments/ovni.toml: the strategic bot at every seat with the built-in board and decks
(its grid 0). `simkit report`, `simkit run` and `simkit tune` answer them."""

from __future__ import annotations

import dataclasses

from ...questions import EQUIVALENT, SHOWN, Payoff, SeatFairness, VariantEffect, _cap, _group_text, _pts, contrast_verdict

HEADLINE = {"grid": 0, "table": "strategic"}


@dataclasses.dataclass(frozen=True)
class ShareEffect(VariantEffect):
    """A rule or play variant's effect on a win share, where a shared win counts 1/k. The
    core reads a metric that is not 0/1 as a plain number (printed as 0.05, with no
    equivalence margin); a share is a rate, so here it is printed in points and judged
    against ±margin like one. Without shared wins the core's paired 0/1 answer stands."""

    def answer(self, base, variant, group=None):
        a = super().answer(base, variant, group)
        e = a.estimates[0]
        if e.unit == "pts":
            return a
        e = dataclasses.replace(e, unit="pts", verdict=contrast_verdict(e.estimate, e.se, self.margin, e.p, self.alpha))
        if e.verdict == SHOWN:
            tail = f"{'raises' if e.estimate > 0 else 'lowers'} {self.metric} by {e.text()} (paired, 5%)"
        elif e.verdict == EQUIVALENT:
            tail = f"changes {self.metric} by less than ±{_pts(self.margin)} points ({e.text()}, equivalence)"
        else:
            tail = (f"changes {self.metric} by {e.text()}: neither a change nor its absence (within ±{_pts(self.margin)} "
                    "points) is shown")
        return dataclasses.replace(a, sentence=_cap(f"{_group_text(group or {})}{self.label} {tail}."), verdict=e.verdict,
                                   estimates=(e,), method="paired by seed; a paired t interval, as a shared win counts 1/k")


QUESTIONS = [
    SeatFairness(title="Does seat 1 (or any seat) win more often than the others?", where=HEADLINE, by=("players",),
                 value="win_share", names={1: "seat 1 (first to choose its starting aliens)"}),
    # Each seat holds two ability cards, so a seat without a given card is about twice as
    # likely to hold the dominant one as a seat with it: each card's payoff is adjusted for
    # the other card held, not read against the seats without it.
    Payoff(id="abilities", title="Which ability cards help their holder win?", items=("ability_1", "ability_2"),
           item_name="ability card", value="win_share", where=HEADLINE, by=(), skip=("",)),
]
