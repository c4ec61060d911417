"""The balance questions of Ufo.O (simkit.questions), asked of the report's headline games:
the tactical bot against itself under the default readings on the default board.

* who moves first (the rulebook's die roll decides) and which seat one sits in: two seat
  questions, each with its fair share (draws count for neither player, so the fair share
  is half the games that have a winner);
* which bot is stronger, head to head: only pairs the games separate are ordered;
* what repair, the ion cannon at UFOs and lasers are worth: the tactical bot without one of
  them against the full bot, paired with the full bot's self-play on the same seeds.

The head-to-head and the options' questions are defined here, on top of the core ones
(the core has no head-to-head question, and no Holm over a family of paired variants)."""

from __future__ import annotations

import dataclasses
import itertools
import json

import numpy as np
import polars as pl
import scipy  # its parts load on first use: a game's module imports in a blink

from ...questions import (EQUIVALENT, NOT_SHOWN, SHOWN, Answer, Estimate, Question, SeatFairness, VariantEffect,
                          bots_fixed_by_seat, contrast_verdict, mean_se, two_sided_p)
from ...stats import holm_adjusted, wilson

# The readings and board every headline cell plays (the experiment also plays A15 and A18 read "moved").
DEFAULTS = {"board": "", "asteroid_check": "all", "mothership_attack_from": "all", "mothership_fire": "any_time"}
BOTS = ("random", "aggressive", "tactical", "search")
SELF_PLAY = {**DEFAULTS, "table": "tactical"}
HEAD_TO_HEAD = {**DEFAULTS, "table": [json.dumps([a, b]) for a, b in itertools.permutations(BOTS, 2)]}
OPTIONS = {"no-repair": "repair", "laser-only": "the ion cannon at UFOs", "ion-only": "lasers"}


def led(answer: Answer, lead: str) -> Answer:
    """The answer's sentence said of the games it answers ("In tactical self-play, ...")."""
    s = answer.sentence
    return dataclasses.replace(answer, sentence=f"{lead}, {s[:1].lower()}{s[1:]}")


@dataclasses.dataclass(frozen=True)
class Seats(SeatFairness):
    """SeatFairness whose sentence names the games it is asked of (in a report only: a
    run's games are whatever the run played)."""

    lead: str = ""

    def answers(self, frame: pl.DataFrame, use_where: bool = True) -> list[Answer]:
        out = super().answers(frame, use_where)
        return [led(a, self.lead) for a in out] if use_where and self.lead else out


@dataclasses.dataclass(frozen=True)
class HeadToHead(Question):
    """Which bot is stronger? For every pair of different bots that met (seats rotated):
    per game, 1 if the first bot won, -1 if the other did, 0 for a draw; its mean (the first
    bot's win rate minus the other's) with a normal interval over games, Holm over the pairs.
    A pair is ordered only when that difference is shown; *level within ±margin* by
    equivalence; otherwise the pair is not separated. Nothing is ranked by estimates alone."""

    id: str = "head_to_head"
    title: str = "Which bot is stronger, head to head?"
    by: tuple[str, ...] = ()
    order: tuple[str, ...] = BOTS  # the order bots are listed in (not a ranking)
    margin: float = 0.02

    def applies(self, frame: pl.DataFrame) -> bool:
        return frame["seat"].max() == 2 and frame["bot"].n_unique() > 1

    def _key(self, bot: str):
        return (self.order.index(bot), bot) if bot in self.order else (len(self.order), bot)

    def answer_group(self, frame: pl.DataFrame, group: dict) -> Answer | None:
        if bots_fixed_by_seat(frame):
            return None  # each bot kept its seat: its wins are its seat's too (simkit run says so)
        keys = [c for c in ("run", "table", "game_index") if c in frame.columns]
        f = frame.select(*keys, pl.col("bot").cast(pl.Utf8), pl.col("won").cast(pl.Int64))
        per = (f.with_columns(pl.col("bot").min().over(keys).alias("a"), pl.col("bot").max().over(keys).alias("b"))
               .filter(pl.col("a") != pl.col("b"))
               .group_by(*keys, "a", "b")
               .agg(pl.col("won").filter(pl.col("bot") == pl.col("a")).sum().alias("wa"),
                    pl.col("won").filter(pl.col("bot") == pl.col("b")).sum().alias("wb")))
        if per.height == 0:
            return None
        pairs = sorted({(a, b) for a, b in per.select("a", "b").unique().iter_rows()},
                       key=lambda p: sorted((self._key(p[0]), self._key(p[1]))))
        raw = []
        for a, b in pairs:
            g = per.filter((pl.col("a") == a) & (pl.col("b") == b))
            if self._key(b) < self._key(a):  # listed in the declared order
                a, b = b, a
            wa = g["wa" if a == g["a"][0] else "wb"].to_numpy().astype(float)
            wb = g["wb" if a == g["a"][0] else "wa"].to_numpy().astype(float)
            raw.append((a, b, wa, wb, *_difference(wa, wb)))
        if all(r[2].size < 2 for r in raw):
            return None
        p_adj = holm_adjusted([r[6] for r in raw])
        est = []
        for (a, b, wa, wb, m, se, _, lo, hi), p in zip(raw, p_adj):
            n = wa.size
            label = (f"{a} against {b}: {a} wins {100 * wa.mean():.1f}%, {b} {100 * wb.mean():.1f}%, "
                     f"draws {100 * max(0.0, 1 - wa.mean() - wb.mean()):.1f}% ({n:,} games)")
            est.append(Estimate(label, m, lo, hi, "pts", float(p), n, contrast_verdict(m, se, self.margin, p, self.alpha)))
        sentence = self._sentence(raw, est)
        verdict = SHOWN if any(e.verdict == SHOWN for e in est) else (
            EQUIVALENT if all(e.verdict == EQUIVALENT for e in est) else NOT_SHOWN)
        return Answer(self.id, self.title, group, sentence, verdict,
                      "per pair of bots: the first bot's win rate minus the other's, in games between them "
                      "(seats rotated; a draw counts for neither)",
                      f"normal interval over games; Holm over the {len(est)} pairs; level = 90% interval within "
                      f"±{100 * self.margin:.0f} points", tuple(est), int(sum(e.n for e in est)))

    def _sentence(self, raw, est) -> str:
        bots = {x for r in raw for x in r[:2]}
        # (stronger, weaker) for every pair the games separate
        beats = {(a, b) if e.estimate > 0 else (b, a) for (a, b, *_), e in zip(raw, est) if e.verdict == SHOWN}
        bottom = sorted((w for w in bots if len(bots) > 2 and all((o, w) in beats for o in bots - {w})), key=self._key)
        parts = []
        for w in bottom:
            mine = [(r, e) for r, e in zip(raw, est) if w in r[:2]]
            won = sum(int((r[2] if r[0] == w else r[3]).sum()) for r, _ in mine)
            parts.append(f"{w} is shown weaker than every other bot (it won {won:,} of {sum(e.n for _, e in mine):,} games "
                         f"against them)")
        for (a, b, *_), e in zip(raw, est):
            if a in bottom or b in bottom:
                continue
            if e.verdict == SHOWN:
                win, lose = (a, b) if e.estimate > 0 else (b, a)
                d = e.estimate if e.estimate > 0 else -e.estimate
                lo, hi = (e.lo, e.hi) if e.estimate > 0 else (-e.hi, -e.lo)
                parts.append(f"{win} beats {lose} by {100 * d:.1f} points [{100 * lo:.1f}, {100 * hi:.1f}]")
            elif e.verdict == EQUIVALENT:
                parts.append(f"{a} and {b} are level within ±{100 * self.margin:.0f} points ({e.text()}, equivalence)")
            else:
                parts.append(f"{a} and {b} are not separated ({a} minus {b}: {e.text()})")
        return ("Head to head (a bot's win rate minus its opponent's, seats rotated): " + "; ".join(parts)
                + (f" (Holm over {len(est)} pairs, 5%)." if len(est) > 1 else " (5%)."))


def _difference(wa: np.ndarray, wb: np.ndarray) -> tuple[float, float, float, float, float]:
    """A's win rate minus B's in games between them: estimate, standard error, p-value and
    95% interval. Normal over games; when every game ended alike (one bot won them all)
    the normal interval has width 0, so then the interval comes from Wilson's for that
    outcome and the p-value from the exact sign test on the decisive games."""
    x = wa - wb
    m, se = mean_se(x)
    z = scipy.special.ndtri(0.975)
    if x.size > 1 and se > 0:
        return m, se, two_sided_p(m, se), m - z * se, m + z * se
    n, decisive, won = x.size, int(np.abs(x).sum()), int((x > 0).sum())
    low = wilson(n, n).lo  # every game had the same outcome
    lo, hi = (-1.0, 1 - 2 * low) if m < 0 else (2 * low - 1, 1.0) if m > 0 else (-(1 - low), 1 - low)
    p = scipy.stats.binomtest(won, decisive, 0.5).pvalue if decisive else 1.0
    return m, (hi - lo) / (2 * z), float(p), lo, hi


def paired_family(effects: list[tuple[VariantEffect, pl.DataFrame, pl.DataFrame]], alpha: float = 0.05) -> list[Answer]:
    """Several VariantEffect answers as one family: their p-values Holm-adjusted and their
    verdicts given again at the adjusted p (the core's VariantEffect tests one variant)."""
    answers = [v.answer(base, variant) for v, base, variant in effects]
    p_adj = holm_adjusted([a.estimates[0].p for a in answers])
    out = []
    for (v, _, _), a, p in zip(effects, answers, p_adj):
        e = a.estimates[0]
        binary = e.unit == "pts"
        verdict = contrast_verdict(e.estimate, e.se, v.margin if binary else None, float(p), alpha)
        out.append(dataclasses.replace(a, verdict=verdict, estimates=(dataclasses.replace(e, p=float(p), verdict=verdict),),
                                       method=f"{a.method}; Holm over {len(effects)}"))
    return out


@dataclasses.dataclass(frozen=True)
class OptionWorth:
    """What repair, the ion cannon at UFOs and lasers are worth to ``bot``: the bot without
    one option against the full bot (seats rotated), its result in each game minus the full
    bot's in the same seat on the same seed in the full bot's self-play (paired). Holm over
    the options; each is *shown*, *within ±margin* (equivalence) or not shown."""

    bot: str = "tactical"
    id: str = "option_worth"
    title: str = "What are repair, the ion cannon and lasers worth?"
    where: dict | None = dataclasses.field(default_factory=lambda: dict(DEFAULTS))
    margin: float = 0.02
    alpha: float = 0.05

    def family(self, frame: pl.DataFrame) -> list[tuple[str, Answer]]:
        """(option, answer) for every option the frame plays, Holm over them."""
        if "table" not in frame.columns:
            return []
        for k, v in (self.where or {}).items():
            if k in frame.columns:
                frame = frame.filter(pl.col(k) == v)
        full = frame.filter(pl.col("table") == self.bot)
        effects, names = [], []
        for opt, what in OPTIONS.items():
            name = f"{self.bot}:{opt}"
            restricted = frame.filter((pl.col("table") == json.dumps([name, self.bot])) & (pl.col("bot").cast(pl.Utf8) == name))
            if full.height and restricted.height > 1:
                effects.append((VariantEffect(label=f"Without {what}, the {self.bot} bot", margin=self.margin, id=self.id,
                                              title=self.title, alpha=self.alpha), full, restricted))
                names.append(opt)
        return list(zip(names, paired_family(effects, self.alpha))) if effects else []

    def answers(self, frame: pl.DataFrame, use_where: bool = True) -> list[Answer]:
        got = self.family(frame)
        if not got:
            return []
        est = tuple(a.estimates[0] for _, a in got)
        est = tuple(dataclasses.replace(e, label=f"without {OPTIONS[o]}: its win rate minus the full bot's") for (o, _), e in zip(got, est))
        parts = []
        for i, e in enumerate(est):
            what = e.label.split(":")[0]
            who, whose = (f"the {self.bot} bot", f"the {self.bot} bot's") if i == 0 else ("it", "its")
            if e.verdict == SHOWN and e.estimate < 0:
                parts.append(f"{what}, {who} loses {100 * -e.estimate:.1f} points of win rate [{100 * -e.hi:.1f}, {100 * -e.lo:.1f}]")
            elif e.verdict == SHOWN:
                parts.append(f"{what}, {who} gains {100 * e.estimate:.1f} points of win rate [{100 * e.lo:.1f}, {100 * e.hi:.1f}]")
            elif e.verdict == EQUIVALENT:
                parts.append(f"{what}, {whose} win rate changes by less than ±{100 * self.margin:.0f} points ({e.text()}, "
                             "equivalence)")
            else:
                parts.append(f"{what}, neither a change in {whose} win rate nor its absence is shown ({e.text()})")
        sentence = (f"Playing the full {self.bot} bot: " + "; ".join(parts)
                    + " (each paired with the full bot's own games on the same seeds and seats; "
                    + (f"Holm over {len(est)} options, 5%)." if len(est) > 1 else "5%)."))
        verdict = SHOWN if any(e.verdict == SHOWN for e in est) else (
            EQUIVALENT if all(e.verdict == EQUIVALENT for e in est) else NOT_SHOWN)
        return [Answer(self.id, self.title, {}, sentence, verdict,
                       f"per option: the win rate of a {self.bot} bot without it against the full bot, minus the full bot's "
                       "in the same seat on the same seeds in its self-play", got[0][1].method, est, int(est[0].n or 0))]


QUESTIONS = [
    Seats(id="first_player", title="Does moving first win more often?", where=SELF_PLAY, by=(),
          position=pl.when(pl.col("first")).then(1).otherwise(2), position_name="turn position",
          names={1: "the first player", 2: "the second player"}, margin=0.02, lead="In tactical self-play"),
    Seats(id="seat", title="Does seat 1 or seat 2 win more often?", where=SELF_PLAY, by=(), position="seat",
          position_name="seat", margin=0.02, lead="In tactical self-play"),
    HeadToHead(where=HEAD_TO_HEAD),
    OptionWorth(bot="tactical"),
]
