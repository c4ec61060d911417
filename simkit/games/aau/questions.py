"""The balance questions of Alien Attack USA (simkit.questions), asked of the headline
games of experiments/aau-balance.toml: the strategic bot at every seat, competitive mode
(its grid 0; grid 1 replays the first of those games, so the grid is named to count each
game once). `simkit report`, `simkit run` and `simkit tune` answer them."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import polars as pl

from ...questions import Answer, Payoff, SeatFairness, VariantEffect, _filter

HEADLINE = {"grid": 0, "table": "strategic"}
# The semi-cooperative comparison: grid 1 plays the same seeds in both modes.
SEMI_COOP = {"grid": 1, "table": "team"}


@dataclasses.dataclass(frozen=True)
class ModeEffect:
    """A rule variant asked of a sweep's frame: for each ``by`` group, the games where
    ``setting`` is True against the same games (same seeds) where it is False, compared
    by :class:`~simkit.questions.VariantEffect` on a game column. (The core's
    VariantEffect takes the two frames; this picks them from the sweep, one row per game,
    and names the metric in words.)"""

    effect: VariantEffect
    setting: str
    column: str  # the game column behind the effect's metric (whose name is words)
    where: dict[str, Any] | None = None
    by: tuple[str, ...] = ("players",)
    reads: ClassVar[tuple[str, ...]] = ("semi_coop_threshold",)  # named in the metric's words

    @property
    def id(self) -> str:
        return self.effect.id

    @property
    def title(self) -> str:
        return self.effect.title

    def answers(self, frame: pl.DataFrame, use_where: bool = True) -> list[Answer]:
        f = _filter(frame, self.where) if use_where else frame
        if f.height == 0 or self.setting not in f.columns or f[self.setting].n_unique() < 2:
            return []
        effect = self.effect
        if "{" in effect.metric:  # the metric's words name a setting's value, e.g. {semi_coop_threshold}
            effect = dataclasses.replace(effect, metric=effect.metric.format(**{c: f[c][0] for c in f.columns if f"{{{c}}}" in effect.metric}))
        games = f.filter(pl.col("seat") == pl.col("seat").min()).select(
            *self.by, self.setting, "game_index", pl.col(self.column).alias(effect.metric))
        out = []
        for key, part in sorted(games.group_by(list(self.by)), key=lambda kp: kp[0]):
            base = part.filter(~pl.col(self.setting)).drop(self.setting)
            variant = part.filter(pl.col(self.setting)).drop(self.setting)
            if min(base.height, variant.height) < 2:
                continue
            out.append(effect.answer(base, variant, dict(zip(self.by, key))))
        return out


QUESTIONS = [
    SeatFairness(title="Does the first player (or any seat) win more often than the others?", where=HEADLINE,
                 by=("players",), value="win_share", names={1: "seat 1 (the first start player)"}),
    Payoff(id="city_mission", title="Which city mission card helps its holder win?", items=("city_mission",),
           item_name="city mission card", value="win_share", where=HEADLINE, by=()),
    Payoff(id="border_mission", title="Which border mission card helps its holder win?", items=("border_mission",),
           item_name="border mission card", value="win_share", where=HEADLINE, by=()),
    ModeEffect(VariantEffect(label="semi-cooperative play by team bots",
                             metric="the share of games in which the table destroys the {semi_coop_threshold} bases Earth needs",
                             id="semi_coop", title="How much does the semi-cooperative mode help the table beat the invasion?"),
               setting="semi_coop", column="earth_won", where=SEMI_COOP),
]
