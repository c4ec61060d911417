"""The balance questions of Escape From the Aliens In Outer Space (simkit.questions), asked of
the report's headline cell: Galilei, 6 players, the heuristic bot at every seat (grid 3 of
experiments/eftaios.toml, its largest cell; grids 0 and 2 replay the first of those games,
so the grid is named to count each game once). `simkit report`, `simkit run` and `simkit
tune` answer them.

In the basic game each human plays for himself and in the advanced game both sides can win
the same game, so "is it fair?" has two questions: *is it fair to a player* (a human seat's
win rate against an alien seat's) and *which team takes the game* (the share of games some
human wins against the share the aliens win). :class:`Sides` asks both of the core's
:class:`~simkit.questions.SideBalance` and words each answer for its question; every
sentence names the games it is about (map, players, bots, mode), because two cells'
answers open the report side by side."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
import polars as pl
import scipy  # its parts load on first use: a game's module imports in a blink

from ...questions import EQUIVALENT, NOT_SHOWN, SHOWN, Answer, Estimate, SeatFairness, SideBalance, sides_per_game

HEADLINE = {"grid": 3, "map": "galilei", "players": 6, "table": "heuristic"}
MARGIN = 0.05  # a gap within ±5 points of win rate counts as balanced
# Normal intervals over games need enough games; below this a question says so instead.
MIN_GAMES = 50
MAP_NAMES = {"galilei": "Galilei", "fermi": "Fermi", "galvani": "Galvani"}
SCENARIO_NAMES = {"old_guard": "Old Guard", "infection": "Infection", "arena": "Arena"}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def games_in(frame: pl.DataFrame) -> int:
    if "run" not in frame.columns:
        return frame["game_index"].n_unique()
    return frame.select(pl.struct("run", "game_index").n_unique()).item()


CONTEXT = ("map", "players", "table", "bot", "mode", "scenario")  # the columns context() reads


def context(frame: pl.DataFrame) -> str:
    """The games a sentence is about, from the columns that have one value in them:
    'Galilei, 6 players, heuristic bots, basic game'."""
    def one(col):  # select(...) keeps a setting's constant column unmaterialized
        if col not in frame.columns:
            return None
        first, distinct = frame.select(pl.col(col).first().alias("a"), pl.col(col).n_unique().alias("b")).row(0)
        return first if distinct == 1 else None

    parts = []
    if (m := one("map")) is not None:
        parts.append(MAP_NAMES.get(m, str(m)))
    if (n := one("players")) is not None:
        parts.append(f"{n} players")
    bots = one("table") if "table" in frame.columns else one("bot")
    if bots is not None and not str(bots).startswith("["):
        parts.append(f"{bots} bots")
    if (mode := one("mode")) is not None:
        parts.append(f"{mode} game")
    if (sc := one("scenario")) not in (None, "none"):
        parts.append(SCENARIO_NAMES.get(sc, str(sc)))
    return ", ".join(parts)


def _lead(frame: pl.DataFrame) -> str:
    c = context(frame)
    return f"{c}: " if c else ""


def _too_few(q, frame: pl.DataFrame, group: dict, n: int) -> Answer:
    return Answer(q.id, q.title, group, f"{_lead(frame)}too few games ({n:,}) to answer \"{q.title}\" (at least {MIN_GAMES} are needed).",
                  NOT_SHOWN, "", "", (), n)


def within_margin(e: Estimate, margin: float = MARGIN, alpha: float = 0.05) -> bool:
    """Equivalence (two one-sided tests at ``alpha``): the 1 - 2 alpha interval inside ±margin.
    Asked of a shown gap too: a gap can be real and still small."""
    se = e.se
    z = scipy.special.ndtri(1 - alpha)
    return e.estimate - z * se > -margin and e.estimate + z * se < margin


@dataclasses.dataclass(frozen=True)
class Sides(SideBalance):
    """Humans against aliens, two questions with their answers named for them:

    * **fair to a player**: a human seat's win rate minus an alien seat's (per game, the
      mean over each side's seats; the core's per-player estimand);
    * **which team takes the game**: the share of games some human wins minus the share
      the aliens win (the core's per-side estimand; both can win in the advanced game).

    Estimates, in this order: the two gaps, then a human seat's and an alien seat's win
    rate and the two sides' shares of games, each with its 95% interval (t over games)."""

    id: str = "sides"
    sides: tuple = (0, 1)
    names: tuple = ("the humans", "the aliens")
    seat_name: tuple = ("a human seat", "an alien seat")
    margin: float = MARGIN
    reads: ClassVar[tuple[str, ...]] = CONTEXT

    def answer_group(self, frame: pl.DataFrame, group: dict) -> Answer | None:
        n = games_in(frame)
        if n < MIN_GAMES:
            return _too_few(self, frame, group, n)
        per = sides_per_game(frame, self.side, self.sides)
        core = self.answer_games(per, group)
        if core is None:
            return None
        player, team = (_bounded(e, -1.0, 1.0, n) for e in core.estimates)  # (no spread: the core's rule of three)
        m = self.margin
        rates = _side_rates(per)
        human_seat, alien_seat, human_games, alien_games = rates
        within_player = within_margin(player, m, self.alpha)
        if player.verdict == SHOWN:
            who = "a human seat" if player.estimate > 0 else "an alien seat"
            fair = f"favours {who} (shown, 5%)" + (f", though by less than ±{100 * m:.0f} points (equivalence)" if within_player else "")
        elif player.verdict == EQUIVALENT:
            fair = f"balanced within ±{100 * m:.0f} points (equivalence, 5%)"
        else:
            fair = f"neither an edge nor balance within ±{100 * m:.0f} points is shown"
        both = " (both can win the same game)" if human_games.estimate + alien_games.estimate > 1 + 1e-9 else ""
        if team.verdict == SHOWN:
            takes = (f"the humans, who win {_pc(human_games)} of games{both} against the aliens' {_pc(alien_games)}"
                     if team.estimate > 0 else
                     f"the aliens, who win {_pc(alien_games)} of games{both} against the humans' {_pc(human_games)}")
            takes += f" ({team.text()}, shown, 5%)"
        elif team.verdict == EQUIVALENT:
            takes = (f"neither: the humans win {_pc(human_games)} of games and the aliens {_pc(alien_games)}{both}, within "
                     f"±{100 * m:.0f} points ({team.text()}, equivalence, 5%)")
        else:
            takes = (f"not shown: the humans win {_pc(human_games)} of games and the aliens {_pc(alien_games)}{both} "
                     f"({team.text()}); neither a difference nor balance within ±{100 * m:.0f} points is shown")
        sentence = (f"{_lead(frame)}fair to a player? A human seat wins {_pc(human_seat)} of games and an alien seat "
                    f"{_pc(alien_seat)}, a gap of {player.text()}: {fair}. Which team takes the game? {takes[:1].upper()}{takes[1:]}.")
        estimates = (dataclasses.replace(player, label="fair to a player: a human seat's win rate minus an alien seat's"),
                     dataclasses.replace(team, label="which team takes the game: share of games some human wins minus the aliens' share"),
                     *rates)
        return Answer(self.id, self.title, group, sentence[:1].upper() + sentence[1:], core.verdict,
                      "fair to a player: a human seat's win rate minus an alien seat's (per game, the mean over each side's "
                      "seats); which team takes the game: the share of games some human wins minus the share the aliens win",
                      core.method, estimates, n)


def _bounded(e: Estimate, lo: float, hi: float, n: int) -> Estimate:
    """A normal interval clipped to the values the figure can take; when every game gave
    the same value (no spread, so the normal interval is a point) the rule of three: no
    game in ``n`` went otherwise, so at most 3/n of games can, each moving the mean by at
    most the figure's range."""
    a, b = e.lo, e.hi
    if b - a <= 0:
        a, b = e.estimate - 3 / n * (hi - lo), e.estimate + 3 / n * (hi - lo)
    return dataclasses.replace(e, lo=max(a, lo), hi=min(b, hi))


def _pc(e: Estimate) -> str:
    return f"{100 * e.estimate:.1f}%"


def _side_rates(per: pl.DataFrame) -> tuple[Estimate, ...]:
    """A human seat's and an alien seat's win rate (per game, the mean over the side's
    seats) and each side's share of games, with t intervals over games, from
    :func:`~simkit.questions.sides_per_game`'s table."""
    labels = {"pa": "a human seat's win rate", "pb": "an alien seat's win rate", "ga": "share of games some human wins",
              "gb": "share of games the aliens win"}
    out = []
    for col, label in labels.items():
        x = per[col].to_numpy()
        m = float(x.mean())
        se = float(x.std(ddof=1) / np.sqrt(x.size)) if x.size > 1 else float("inf")
        t = scipy.special.stdtrit(max(x.size - 1, 1), 0.975)  # t.ppf
        out.append(_bounded(Estimate(label, m, m - t * se, m + t * se, "rate", None, int(x.size), ""), 0.0, 1.0, x.size))
    return tuple(out)


@dataclasses.dataclass(frozen=True)
class TurnOrder(SeatFairness):
    """The core's seat fairness over the positions in the turn order (the first player is
    drawn at random and sides are dealt at random, so a position is what a player sitting
    down gets), its sentence naming the games it is about."""

    id: str = "turn_order"
    position: str = "order"
    position_name: str = "turn position"
    names: dict = dataclasses.field(default_factory=lambda: {k + 1: f"the {o} player" for k, o in enumerate(ORDINALS)})
    margin: float = 0.02
    reads: ClassVar[tuple[str, ...]] = CONTEXT

    def answer_group(self, frame: pl.DataFrame, group: dict) -> Answer | None:
        n = games_in(frame)
        if n < MIN_GAMES:
            return _too_few(self, frame, group, n)
        a = super().answer_group(frame, {})  # the context below names the group
        if a is None:
            return None
        lead = _lead(frame)
        sentence = f"{lead}{a.sentence[:1].lower()}{a.sentence[1:]}" if lead else a.sentence
        return dataclasses.replace(a, group=group, sentence=sentence[:1].upper() + sentence[1:])


QUESTIONS = [
    Sides(title="Is it fair to a player to be dealt a human or an alien, and which team takes the game?", where=HEADLINE,
          by=("mode", "players")),
    TurnOrder(title="Does a player's place in the turn order change how often they win?", where=HEADLINE, by=("mode", "players")),
]
