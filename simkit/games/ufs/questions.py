"""The balance questions of Under Falling Skies (simkit.questions), asked of the report's
headline games: the default bot (greedy) defending Roswell on its normal side.

* how often the rulebook's normal game (threat 1) is won, and how much harder each threat
  level is, for the default bot and under stronger play (the searching bot);
* whether the damaged side of a city is harder than its normal side, city by city;
* what the damage limit one lower (G9) changes.

The core's questions answer one cell; these wrappers say which games they were asked of,
drop a cell that two grids of the experiment share (it comes once per grid), and add the
damaged side's question (paired by seed over the threat levels, Holm over the cities),
which the core does not define."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import polars as pl
import scipy  # its parts load on first use: a game's module imports in a blink

from ...questions import (EQUIVALENT, NOT_SHOWN, SHOWN, Answer, Difficulty, Estimate, VariantEffect, WinRate,
                          contrast_verdict, mean_se, two_sided_p)
from ...stats import holm_adjusted, paired_binary
from .params import UFSParams

CITY_NAMES = {"roswell": "Roswell", "new_york": "New York", "washington": "Washington"}
MAIN = {"damage_rule": "sum"}  # the main grids; damage_rule=strict is the variant
HEADLINE = {**MAIN, "table": "greedy", "city": "roswell", "city_side": "normal"}
SETTINGS = frozenset(f.name for f in dataclasses.fields(UFSParams))
STRONGER = {**MAIN, "table": "search:budget=16", "city": "roswell", "city_side": "normal"}


def select_games(frame: pl.DataFrame, where: dict[str, Any] | None) -> pl.DataFrame:
    """The rows ``where`` picks, each game once (a cell that two grids share comes once per
    grid in a sweep's frame)."""
    for k, v in (where or {}).items():
        if k not in frame.columns:
            return frame.clear()
        frame = frame.filter(pl.col(k).is_in(list(v)) if isinstance(v, (list, tuple)) else pl.col(k) == v)
    if "grid" not in frame.columns:
        return frame
    # A cell is its settings and bots; where grids share one, the grid holding most of its
    # games keeps it (the cells of a game key are prefixes of one run). A filter, not a
    # unique() over every row and column (5.4 M rows: 2 GB more at the report's peak).
    cell = [c for c in frame.columns if (c in SETTINGS or c == "table") and frame[c].n_unique() > 1]  # (a constant tells no cell apart)
    sizes = frame.group_by([*cell, "grid"]).len().sort(["len", "grid"], descending=[True, False])
    kept = sizes.unique(cell, keep="first", maintain_order=True) if cell else sizes.head(1)
    if kept.height < sizes.height:
        frame = frame.join(kept.drop("len"), on=[*cell, "grid"], how="semi", nulls_equal=True, maintain_order="left")
    return frame.drop("grid")


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def led(answer: Answer, lead: str) -> Answer:
    s = answer.sentence
    return dataclasses.replace(answer, sentence=f"{lead}, {s[:1].lower()}{s[1:]}")


@dataclasses.dataclass(frozen=True)
class NormalGame(WinRate):
    """WinRate, its sentence naming the player and the game (in a report only: a run's
    games are whatever the run played)."""

    who: str = ""

    def answers(self, frame: pl.DataFrame, use_where: bool = True) -> list[Answer]:
        out = super().answers(select_games(frame, self.where) if use_where else frame, use_where=False)
        if use_where and self.who:
            out = [dataclasses.replace(a, sentence=a.sentence.replace("The player", self.who, 1)) for a in out]
        return out


@dataclasses.dataclass(frozen=True)
class ThreatLevels(Difficulty):
    """Difficulty, its sentence naming the bot and the city it was asked of."""

    lead: str = ""

    def answers(self, frame: pl.DataFrame, use_where: bool = True) -> list[Answer]:
        out = super().answers(select_games(frame, self.where) if use_where else frame, use_where=False)
        return [led(a, self.lead) for a in out] if self.lead else out


@dataclasses.dataclass(frozen=True)
class DamagedSide:
    """Is the damaged side of a city harder than its normal side? Per city: the win rate on
    the damaged side minus the normal side's, averaged over the threat levels played, paired
    by seed (game *i* of every cell has the same seed: per seed, the mean over threat
    levels of damaged minus normal; a normal interval over seeds). Holm over the cities;
    each city's side is *shown harder* or *shown easier*, *within ±margin* of the normal
    side (equivalence), or not shown."""

    where: dict[str, Any] | None = dataclasses.field(default_factory=lambda: {**MAIN, "table": "greedy"})
    who: str = "the greedy bot"
    id: str = "damaged_side"
    title: str = "Is the damaged side of a city harder than its normal side?"
    margin: float = 0.01
    alpha: float = 0.05
    reads: ClassVar[tuple[str, ...]] = ("city", "city_side", "threat")  # columns read below (simkit.questions.columns_read)

    def _games(self, frame: pl.DataFrame) -> pl.DataFrame:
        return select_games(frame, self.where)

    def answers(self, frame: pl.DataFrame, use_where: bool = True) -> list[Answer]:
        f = self._games(frame) if use_where else frame
        if not {"city", "city_side", "threat"} <= set(f.columns) or f["city_side"].n_unique() < 2:
            return []
        z = scipy.special.ndtri(0.975)
        raw = []
        for city in [c for c in CITY_NAMES if c in set(f["city"].unique().to_list())]:
            wide = (f.filter(pl.col("city") == city)
                    .pivot(on="city_side", index=["threat", "game_index"], values="won", aggregate_function="first")
                    .drop_nulls())
            if not {"normal", "damaged"} <= set(wide.columns) or wide.height < 2:
                continue
            levels = wide.group_by("game_index").agg(pl.len().alias("k"))
            every = levels.filter(pl.col("k") == levels["k"].max())["game_index"]  # seeds played at every level
            per_seed = (wide.filter(pl.col("game_index").is_in(every.to_list()))
                        .group_by("game_index")
                        .agg((pl.col("damaged").cast(pl.Float64) - pl.col("normal").cast(pl.Float64)).mean().alias("d")))
            m, se = mean_se(per_seed["d"].to_numpy())
            m = 0.0 if abs(m) < 1e-12 else m  # no "-0.0" from the order of a sum
            threats = sorted(wide["threat"].unique().to_list())
            raw.append((city, m, se, two_sided_p(m, se), per_seed.height, threats))
        if not raw:
            return []
        # every seed alike (a handful of games): the interval has width 0 and tests nothing
        p_adj = holm_adjusted([r[3] if r[2] > 0 else float("nan") for r in raw])
        est = []
        for (city, m, se, _, n, threats), p in zip(raw, p_adj):
            verdict = contrast_verdict(m, se, self.margin, p, self.alpha) if se > 0 else NOT_SHOWN
            est.append(Estimate(f"{CITY_NAMES[city]}: damaged minus normal side", m, m - z * se, m + z * se, "pts", float(p), n,
                                verdict))
        threats = raw[0][5]
        span = f"threat levels {threats[0]}-{threats[-1]}" if len(threats) > 1 else f"threat level {threats[0]}"
        name = {e.label: e.label.split(":")[0] for e in est}
        harder = [f"{name[e.label]} ({e.text()})" for e in est if e.verdict == SHOWN and e.estimate < 0]
        easier = [f"{name[e.label]} ({e.text()})" for e in est if e.verdict == SHOWN and e.estimate > 0]
        level = [f"{name[e.label]} ({e.text()})" for e in est if e.verdict == EQUIVALENT]
        open_ = [f"{name[e.label]} ({e.text()})" for e in est if e.verdict == NOT_SHOWN]
        parts = []
        if harder:
            parts.append("shown harder in " + _and(harder))
        if easier:
            parts.append("shown easier in " + _and(easier))
        if level:
            parts.append(f"within ±{100 * self.margin:.0f} point of the normal side in " + _and(level) + " (equivalence)")
        if open_:
            parts.append(f"neither shown harder, nor easier, nor within ±{100 * self.margin:.0f} point in " + _and(open_))
        if not harder:
            parts.append("shown harder in none")
        sentence = (f"For {self.who}, averaged over {span}, the damaged side of a city is " + "; ".join(parts)
                    + " (its win rate minus the normal side's, paired by seed; "
                    + (f"Holm over {len(est)} cities, 5%)." if len(est) > 1 else "5%).")
                    # (why "easier" is no paradox: a reader took the side's name for its difficulty)
                    + (" A damaged side trades a longer research track for a stronger ability (`simkit games ufs`)." if easier else ""))
        verdict = SHOWN if harder or easier else (EQUIVALENT if len(level) == len(est) else NOT_SHOWN)
        return [Answer(self.id, self.title, {}, sentence[:1].upper() + sentence[1:], verdict,
                       f"per city: the win rate on its damaged side minus its normal side, averaged over {span}",
                       "paired by seed (per seed the mean over threat levels; normal interval over seeds); Holm over the "
                       f"cities; equivalence = 90% interval within ±{100 * self.margin:.0f} point", tuple(est),
                       int(sum(e.n or 0 for e in est)))]

    def by_threat(self, frame: pl.DataFrame) -> list[dict]:
        """The same comparison per city and threat level (Tango's paired interval, McNemar's
        test), Holm over all of them: the answer's evidence, level by level."""
        f = self._games(frame)
        rows = []
        for city in [c for c in CITY_NAMES if c in set(f["city"].unique().to_list())]:
            for t in sorted(f["threat"].unique().to_list()):
                part = f.filter((pl.col("city") == city) & (pl.col("threat") == t))
                wide = part.pivot(on="city_side", index="game_index", values="won", aggregate_function="first").drop_nulls()
                if {"normal", "damaged"} <= set(wide.columns) and wide.height:
                    rows.append((city, t, paired_binary(wide["damaged"].to_numpy(), wide["normal"].to_numpy())))
        p_adj = holm_adjusted([d.p_value for _, _, d in rows])
        out = []
        for (city, t, d), p in zip(rows, p_adj):
            se = (d.hi - d.lo) / (2 * scipy.special.ndtri(0.975))
            v = contrast_verdict(d.estimate, se, self.margin, float(p), self.alpha)
            out.append({"city": CITY_NAMES[city], "threat": t, "games": f"{d.n:,}",
                        "damaged minus normal [95% CI]": f"{100 * d.estimate:+.2f} points [{100 * d.lo:+.2f}, {100 * d.hi:+.2f}]",
                        "p (Holm)": "< 0.001" if p < 0.001 else f"{p:.3f}",
                        "damaged side": {SHOWN: "harder" if d.estimate < 0 else "easier",
                                         EQUIVALENT: f"within ±{100 * self.margin:.0f} point"}.get(v, "not shown")})
        return out


@dataclasses.dataclass(frozen=True)
class RuleVariant:
    """VariantEffect on the win rate of two cells that differ in one setting (same seeds)."""

    setting: str
    base: Any
    variant: Any
    label: str
    where: dict[str, Any] | None = None
    id: str = "rule_variant"
    title: str = "What does this rule variant change?"
    margin: float = 0.01

    def answers(self, frame: pl.DataFrame, use_where: bool = True) -> list[Answer]:
        f = select_games(frame, {k: v for k, v in (self.where or {}).items() if k != self.setting}) if use_where else frame
        if self.setting not in f.columns:
            return []
        rate = pl.col("won").alias("the win rate")
        base = f.filter(pl.col(self.setting) == self.base).with_columns(rate)
        variant = f.filter(pl.col(self.setting) == self.variant).with_columns(rate)
        if base.height < 2 or variant.height < 2:
            return []
        a = VariantEffect(self.label, metric="the win rate", margin=self.margin, id=self.id, title=self.title).answer(base, variant)
        e = dataclasses.replace(a.estimates[0], label=f"{self.variant} minus {self.base}: the win rate")
        if a.verdict == SHOWN:  # said as a size with its direction ("lowers ... by 5.3 points [3.0, 8.6]")
            size = f"{100 * abs(e.estimate):.1f} points [{100 * min(abs(e.lo), abs(e.hi)):.1f}, {100 * max(abs(e.lo), abs(e.hi)):.1f}]"
            tail = f"{'raises' if e.estimate > 0 else 'lowers'} the win rate by {size} (paired by seed, 5%)"
        elif a.verdict == EQUIVALENT:
            tail = f"changes the win rate by less than ±{100 * self.margin:.0f} point ({e.text()}, paired by seed, equivalence)"
        else:
            tail = f"changes the win rate by {e.text()}: neither a change nor its absence is shown (paired by seed)"
        return [dataclasses.replace(a, sentence=f"{self.label} {tail}.", estimates=(e,))]


QUESTIONS = [
    NormalGame(id="normal_game", title="How often is the rulebook's normal game won?", where={**HEADLINE, "threat": 1},
               who="At threat 1 (the rulebook's normal game), the greedy bot defending Roswell (normal side)"),
    # the same game under stronger play, beside it: the greedy bot's rate alone read as the game's difficulty
    NormalGame(id="normal_game_stronger", title="How often is the normal game won under stronger play?",
               where={**STRONGER, "threat": 1},
               who="In the same game, the searching bot at budget 16 (stronger play; a lower bound on strong play: larger budgets win more)"),
    ThreatLevels("threat", id="threat", title="How much harder is each threat level?", where=HEADLINE,
                 lead="For the greedy bot in Roswell (normal side)"),
    ThreatLevels("threat", id="threat_stronger", title="How much harder is each threat level under stronger play?",
                 where=STRONGER, lead="Under stronger play (the searching bot at budget 16, a lower bound on strong play: larger budgets win more) "
                      "in Roswell (normal side)"),
    DamagedSide(),
    RuleVariant("damage_rule", "sum", "strict", "For the greedy bot at threat 1 in Roswell (normal side), a damage limit one "
                "lower (G9: the city falls one damage sooner)",
                where={**HEADLINE, "threat": 1}, id="damage_limit", title="What does a damage limit one lower change?"),
]
