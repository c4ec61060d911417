"""How much the headline numbers depend on the readings of unclear rules.

Every ambiguity and stand-in of a game's rules document that can be read more than one
way is a setting. A game declares, in ``simkit/games/<game>/sensitivity.py`` (named by
``GameSpec.analysis.sensitivity``), a :class:`Declaration`:

* ``readings``: setting name -> the alternative values, each with the document's id
  (``G9``, ``A6`` ...) and what it means; the default reading is the setting's default;
* ``cells``: the runs the headline figures read (settings and bots);
* ``figures``: the headline figures of the game's report, each a function of the
  cells' game frames (see :class:`Figure`);
* ``claims``: what the report states about those figures, as conditions
  ``figure > threshold`` or ``figure < threshold``; a ranking ("A beats B") is a
  condition on a contrast figure ``A - B > 0``.

:func:`sensitivity` plays every cell once with every setting at its default and once
per alternative reading (one setting switched, everything else at its default), all
on the same seeds, and measures for every figure the **paired change** (alternative
minus default, game *i* against game *i*) with a 95% interval
(:func:`simkit.stats.paired_ratio_change`; Tango's score interval for a figure that is
one win rate). The p-values of all changes of one game form one family and are
Holm-adjusted (family-wise error rate 5%).

**What a claim's verdict says.** No verdict claims anything from a lack of evidence.
A condition ``F > t`` (or ``F < t``) is *shown* under a reading when the figure's own 95%
interval under that reading lies wholly on the claim's side of ``t`` (a one-sided test at
2.5%); a stated margin is two conditions, ``F > -m`` and ``F < m`` (equivalence). A claim

* **holds under every reading** when each of its conditions is shown at the default
  reading *and* under every alternative reading that can touch its figure. That is an
  intersection-union test: every one of the readings x conditions tests must reject, so
  the chance of calling a claim that fails somewhere "holds" is at most the level of one
  test (2.5%), with no correction needed (Berger 1982); Holm or Bonferroni over the
  tests would only take power away.
* **depends on reading X** when a condition shown at the default is significantly moved
  to the other side by X: the paired change is significant after Holm over every change
  of the game (readings x figures; family-wise 5%) *and* the figure's 95% interval under X
  lies wholly on the other side of ``t``.
* is **not shown** otherwise, with the figures: the reading(s) and condition(s) under which
  it is not shown (an interval that reaches its threshold), including at the default.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import textwrap
from pathlib import Path
from typing import Any, Callable

import numpy as np
import polars as pl

from .errors import UserError
from .params import build, describe
from .questions import ENOUGH
from .stats import (Difference, Interval, games_for_t, holm_adjusted, linearized, paired_binary, paired_ratio_change, pooled_rate,
                    ratio_estimate, wilson)

Terms = list[tuple[float, np.ndarray, np.ndarray]]
ALPHA = 0.05


# ---- what a game declares --------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Reading:
    """Other readings of one unclear rule or component: ``setting`` switched to each of
    ``values`` (its default is the default reading). ``only``: the cell settings under
    which the reading can change anything (e.g. ``{"city": ("washington",)}``); other
    cells play identical games by construction and are not played again."""

    setting: str
    values: tuple[Any, ...]
    doc_id: str
    meaning: str  # what the alternative means, e.g. "damage limit one lower"
    only: dict[str, tuple] = dataclasses.field(default_factory=dict)

    def applies(self, cell: "Cell") -> bool:
        return all(cell.sets.get(k) in v for k, v in self.only.items())


@dataclasses.dataclass(frozen=True)
class Cell:
    """One run a figure reads: settings (besides the reading) and bots, one per seat or one for all."""

    name: str
    sets: dict[str, Any]
    bots: tuple[str, ...]
    rotate_seats: bool = False


@dataclasses.dataclass(frozen=True)
class Figure:
    """A headline figure: ``terms(frames, n)`` gives, from the cells' frames (one row per
    game and seat, by cell name) and the number of games per cell, the terms
    ``(coef, num, den)`` of ``sum_j coef_j * sum(num_j) / sum(den_j)``; each array holds
    one value per game index (the unit that the pairing by seed preserves; cells of one
    run share their seeds, so a figure may combine cells). ``scale`` and ``unit`` format
    it: 100 and "%" for a rate, 100 and "pp" (percentage points) for a difference of
    rates, 1 and "points" for game points."""

    name: str
    cells: tuple[str, ...]
    terms: Callable[[dict[str, pl.DataFrame], int], Terms]
    scale: float = 100.0
    unit: str = "%"
    binary: bool = False  # one win rate (one term, 0/1 per game, den 1): Tango's interval
    group: str = ""  # a heading for tables and tornado panels

    def fmt(self, value: float, signed: bool = False) -> str:
        if value is None or not math.isfinite(value):
            return "-"
        v = value * self.scale
        digits = 2 if abs(v) < 10 else 1
        text = f"{v:+.{digits}f}" if signed else f"{v:.{digits}f}"
        return text + ("" if signed else self.unit) if self.unit == "%" else f"{text} {self.unit}".rstrip()

    def fmt_change(self, d) -> str:
        """A paired change with its 95% interval, the unit once: ``+1.2 [+0.4, +2.0] pp``
        (a change of a rate is in percentage points, unit-less as in ``+1.2 [+0.4, +2.0]``)."""
        if d is None or not math.isfinite(d.estimate):
            return "-"
        v, lo, hi = (x * self.scale for x in (d.estimate, d.lo, d.hi))
        digits = 2 if abs(v) < 10 else 1
        text = f"{v:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}]"
        return text if self.unit in ("%", "") else f"{text} {self.unit}"

    def fmt_ci(self, ci) -> str:
        """The figure with its 95% interval: ``41.2% [40.9, 41.5]``, ``10.1 turns [10.0, 10.2]``."""
        if ci is None or not math.isfinite(ci.estimate):
            return "-"
        v, lo, hi = (x * self.scale for x in (ci.estimate, ci.lo, ci.hi))
        if not (math.isfinite(lo) and math.isfinite(hi)):  # (a rate printed '4.4% [-inf, inf]')
            return f"{v:.3g}{f' {self.unit}' if self.unit else ''} (no interval: too few games for its spread)"
        if self.unit == "%" and self.scale == 100:
            from .fmt import pct

            return pct(ci)
        digits = 2 if max(abs(v), abs(lo), abs(hi)) < 10 else 1
        return f"{v:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]" + (f" {self.unit}" if self.unit else "")


@dataclasses.dataclass(frozen=True)
class Claim:
    """A statement of the report: every condition ``(figure, ">" or "<", threshold)`` holds."""

    text: str
    conditions: tuple[tuple[str, str, float], ...]


@dataclasses.dataclass(frozen=True)
class Declaration:
    readings: tuple[Reading, ...]
    cells: tuple[Cell, ...]
    figures: tuple[Figure, ...]
    claims: tuple[Claim, ...]
    games: int  # games per cell and reading (the report's sensitivity experiment)
    seed: int = 2026
    chunk_size: int = 10_000
    note: str = ""  # what the cells cover, for the report


def declaration(game) -> Declaration:
    """The game's declaration (``GameSpec.analysis.sensitivity``: "module:attribute")."""
    if not game.analysis.sensitivity:
        from .games import all_games

        have = ", ".join(g.name for g in all_games() if g.analysis.sensitivity)
        raise UserError(f"{game.name} has no sensitivity analysis yet (its readings are not declared; docs/adding-a-game.md "
                        f"says how); games that have one: {have}")
    module, _, attr = game.analysis.sensitivity.partition(":")
    return getattr(importlib.import_module(module), attr or "DECLARATION")


def check(game, decl: Declaration) -> list[str]:
    """What is wrong with a declaration (empty when it is consistent with the game)."""
    problems = []
    infos = {i.name: i for i in describe(game.params)}
    cells = {c.name for c in decl.cells}
    for r in decl.readings:
        info = infos.get(r.setting)
        if info is None:
            problems.append(f"reading {r.doc_id}: {game.name} has no setting {r.setting!r}")
            continue
        for v in r.values:
            if v == info.default:
                problems.append(f"reading {r.doc_id}: {r.setting}={v!r} is the default, not an alternative")
            try:
                build(game.params, {r.setting: v}, game.name)
            except UserError as exc:
                problems.append(f"reading {r.doc_id}: {exc}")
    for f in decl.figures:
        for c in f.cells:
            if c not in cells:
                problems.append(f"figure {f.name!r} reads an undeclared cell {c!r}")
    names = {f.name for f in decl.figures}
    for cl in decl.claims:
        for fig, op, _ in cl.conditions:
            if fig not in names:
                problems.append(f"claim {cl.text!r} names an undeclared figure {fig!r}")
            if op not in (">", "<"):
                problems.append(f"claim {cl.text!r}: operator {op!r} is not > or <")
    return problems


# ---- helpers for declaring figures -------------------------------------------------------
def per_game(frame: pl.DataFrame, n: int, value: pl.Expr, where: pl.Expr | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(num, den)`` per game index ``0 .. n-1``: the sum over a game's rows (seats) of
    ``value`` where ``where`` holds, and the number of such rows. With ``where`` None
    every row counts (a per-game column repeated on every seat: use :func:`game_mean`)."""
    cond = pl.lit(True) if where is None else where
    agg = (frame.select(pl.col("game_index"), pl.when(cond).then(value).otherwise(0).cast(pl.Float64).alias("v"),
                        cond.cast(pl.Float64).alias("w"))
           .group_by("game_index").agg(pl.col("v").sum(), pl.col("w").sum()))
    num = np.zeros(n)
    den = np.zeros(n)
    idx = agg["game_index"].to_numpy()
    keep = idx < n
    num[idx[keep]] = agg["v"].to_numpy()[keep]
    den[idx[keep]] = agg["w"].to_numpy()[keep]
    return num, den


def game_mean(frame: pl.DataFrame, n: int, column: str, seat: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """A per-game column as ``(value, 1)`` per game (read from one seat's row)."""
    return per_game(frame, n, pl.col(column), pl.col("seat") == seat)


# ---- running it ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Variant:
    """One reading value: ``setting`` = ``value`` (None: the default reading)."""

    setting: str | None
    value: Any
    reading: Reading | None

    @property
    def label(self) -> str:
        return "default" if self.setting is None else f"{self.setting}={self.value}"


@dataclasses.dataclass(frozen=True)
class Change:
    figure: Figure
    variant: Variant
    default: float
    value: float  # the figure under the variant
    diff: Difference  # variant minus default, paired by seed
    p_holm: float = float("nan")
    switched: Any = None  # the figure under the variant with its own 95% interval (simkit.stats.Interval)

    @property
    def significant(self) -> bool:
        return bool(self.p_holm < ALPHA)


HOLDS, DEPENDS, NOT_SHOWN = "holds", "depends", "not shown"
STATUS_WORDS = {HOLDS: "holds under every reading", DEPENDS: "depends on a reading", NOT_SHOWN: "not shown"}


@dataclasses.dataclass(frozen=True)
class Verdict:
    claim: Claim
    status: str  # HOLDS, DEPENDS or NOT_SHOWN
    depends_on: tuple[str, ...]  # readings that significantly move a condition to the other side
    unsettled_under: tuple[str, ...]  # readings under which a figure's estimate crosses its threshold (no DEPENDS)
    detail: str
    weakened_under: tuple[str, ...] = ()  # not shown under these although shown at the default (nothing crosses)
    not_shown_under: tuple[str, ...] = ()  # every reading ("default" included) under which a condition is not shown
    tests: int = 0  # readings x conditions tested (each must be shown for HOLDS)
    evidence: tuple[dict, ...] = ()  # per condition and reading: figure, op, threshold, reading, estimate, lo, hi, shown


@dataclasses.dataclass
class Sensitivity:
    game: Any
    decl: Declaration
    games: int
    defaults: dict[str, Any]  # figure name -> ratio_estimate Interval at the default
    changes: list[Change]
    verdicts: list[Verdict]
    cells_played: int

    def change(self, figure: str, label: str) -> Change | None:
        for c in self.changes:
            if c.figure.name == figure and c.variant.label == label:
                return c
        return None


def variants(decl: Declaration) -> list[Variant]:
    out = [Variant(None, None, None)]
    for r in decl.readings:
        out += [Variant(r.setting, v, r) for v in r.values]
    return out


def _cell_key(value: Any) -> str:
    import re

    return re.sub(r"[^A-Za-z0-9=+_.,-]", "_", str(value))


def plan(game, decl: Declaration, games: int, seed: int, out_root: Path | None):
    """The runs to play: ``[(variant, cell, RunSpec, out folder)]``."""
    from .runner import RunSpec

    runs = []
    for v in variants(decl):
        for cell in decl.cells:
            if v.reading is not None and not v.reading.applies(cell):
                continue
            sets = dict(cell.sets)
            if v.setting is not None:
                sets[v.setting] = v.value
            params = build(game.params, sets, game.name)
            game.validate(params)
            bots = tuple(game.resolve_bots(list(cell.bots), params))
            spec = RunSpec(game, params, bots, games, seed, cell.rotate_seats)
            out = None if out_root is None else out_root / cell.name / _cell_key(v.label)
            runs.append((v, cell, spec, out))
    return runs


def sensitivity(game, *, games: int | None = None, seed: int | None = None, jobs: int = 1,
                out_root: Path | None = Path("runs/sensitivity"), progress: bool = True,
                decl: Declaration | None = None) -> Sensitivity:
    """Plays the game's sensitivity experiment (resuming finished runs under
    ``out_root/<game>/``; ``None``: keep nothing) and measures every figure's paired
    change under every alternative reading, Holm over the family, and each claim's verdict."""
    from .runner import run_many

    decl = decl or declaration(game)
    problems = check(game, decl)
    if problems:
        raise UserError(f"{game.name} sensitivity declaration: " + "; ".join(problems))
    games = games or decl.games
    seed = decl.seed if seed is None else seed
    root = None if out_root is None else Path(out_root) / game.name
    runs = plan(game, decl, games, seed, root)
    # the cells' folders are simkit's own (like a sweep's): games of older code or settings are replaced
    results = run_many([(spec, out) for _, _, spec, out in runs], jobs=jobs, chunk_size=decl.chunk_size,
                       progress=progress, label=f"{game.name} sensitivity", replace_stale=True)
    frames: dict[str, dict[str, Any]] = {}
    for (v, cell, _, _), res in zip(runs, results):
        frames.setdefault(v.label, {})[cell.name] = res  # read when its variant is analysed
    from .progress import status

    with status(enabled=progress is True) as say:  # (a report said nothing for 15 s here)
        say(f"{game.name} sensitivity: measuring {len(decl.figures)} figures under {len(frames)} readings")
        return analyse(game, decl, frames, games, len(runs))


def _frames(cells: dict[str, Any]) -> dict[str, pl.DataFrame]:
    """Cells' frames, read now from their runs (a run's ``read``) or given as frames."""
    return {c: x.read() if hasattr(x, "read") else x for c, x in cells.items()}


def analyse(game, decl: Declaration, frames: dict[str, dict[str, Any]], games: int, cells_played: int = 0) -> Sensitivity:
    """The changes and verdicts from the frames of every variant (``frames[label][cell]``,
    a frame or a finished run; a variant lacking a cell plays it as the default does).
    Only the default's frames and one variant's are held at a time: memory does not grow
    with the number of readings."""
    base = _frames(frames["default"])
    defaults, changes = {}, []
    terms_default = {f.name: f.terms(base, games) for f in decl.figures}
    for f in decl.figures:
        defaults[f.name] = _estimate(f, terms_default[f.name])
    for v in variants(decl)[1:]:
        own = _frames(frames.get(v.label, {}))
        for f in decl.figures:
            if not any(c in own for c in f.cells):
                continue  # the reading cannot touch this figure's cells
            fr = {c: own.get(c, base[c]) for c in f.cells}
            tb, ta = f.terms(fr, games), terms_default[f.name]
            diff = _paired(f, tb, ta)
            changes.append(Change(f, v, defaults[f.name].estimate, defaults[f.name].estimate + diff.estimate, diff,
                                  switched=_estimate(f, tb)))
    adjusted = holm_adjusted([c.diff.p_value for c in changes]) if changes else []
    changes = [dataclasses.replace(c, p_holm=float(p)) for c, p in zip(changes, adjusted)]
    verdicts = [_verdict(cl, defaults, changes) for cl in decl.claims]
    return Sensitivity(game, decl, games, defaults, changes, verdicts, cells_played)


def _one_rate(f: Figure, terms: Terms) -> bool:
    return f.binary and len(terms) == 1 and terms[0][0] == 1 and bool(np.all(terms[0][2] == 1))


def _estimate(f: Figure, terms: Terms):
    """The figure with its 95% interval: Wilson's for one win rate (never an empty
    interval at 0% or 100%); Tango's for one 0/1 rate minus another over the same games;
    otherwise a t interval on the linearised figure, or none where its data cannot support
    one (:func:`_untrusted`). A figure that is one rate over pooled events (a ratio of
    totals, unit %) takes its interval at the effective number of events
    (:func:`~simkit.stats.pooled_rate`: Wilson's, or Clopper-Pearson's with fewer than 10
    events or non-events, where each game's events count as one)."""
    if _one_rate(f, terms):
        won = terms[0][1]
        return wilson(int(round(float(won.sum()))), int(won.size))
    est = ratio_estimate(terms)
    paired = _rate_difference(terms)
    if paired is not None:  # Tango's score interval, as for any paired difference of rates
        return Interval(est.estimate, paired.lo, paired.hi, est.n)
    if f.unit == "%" and len(terms) == 1 and terms[0][0] == 1:
        if float(terms[0][2].sum()) > 0:
            return pooled_rate(terms[0][1], terms[0][2], enough=ENOUGH)
    if _untrusted(terms, est.hi - est.lo):
        return dataclasses.replace(est, lo=-math.inf, hi=math.inf)
    return est


def _rate_difference(terms: Terms) -> Difference | None:
    """A figure that is one 0/1 rate minus another over the same games (a threat step, a
    tile's effect): their paired difference, or None for any other figure."""
    if len(terms) != 2 or sorted(c for c, _, _ in terms) != [-1.0, 1.0]:
        return None
    (ca, a, da), (cb, b, db) = terms if terms[0][0] == 1 else terms[::-1]
    if not (np.all(da == 1) and np.all(db == 1) and np.isin(a, (0.0, 1.0)).all() and np.isin(b, (0.0, 1.0)).all()):
        return None
    return paired_binary(a.astype(bool), b.astype(bool))


def _untrusted(terms: Terms, width: float) -> bool:
    """Whether the t interval of a linearised figure cannot be relied on: no
    spread at all, or values too skewed for their number (stats.games_for_t; rare events,
    heavy tails). Such a figure supports no claim: its interval is unbounded. A claim whose
    figure sat on its threshold was said to hold 30% of the time (a difference of 0.6% and
    0.1% rates, 200 games) and 12% (lognormal points), against 2.5% (a statistician's review)."""
    _, z = linearized(terms)
    return z.size >= 2 and (not width > 0 or z.size < games_for_t(z))


def _paired(f: Figure, tb: Terms, ta: Terms) -> Difference:
    if f.binary and len(tb) == 1 and len(ta) == 1:
        (cb, nb, db), (ca, na, da) = tb[0], ta[0]
        if cb == ca == 1 and np.all(db == 1) and np.all(da == 1):
            return paired_binary(nb.astype(bool), na.astype(bool))
    return paired_ratio_change(tb, ta)


def _holds(value: float, op: str, threshold: float) -> bool:
    return bool(value > threshold) if op == ">" else bool(value < threshold)


def _shown(ci, op: str, threshold: float) -> bool:
    """Whether a figure's 95% interval lies wholly on the claim's side of its threshold."""
    return ci is not None and (bool(ci.lo > threshold) if op == ">" else bool(ci.hi < threshold))


def _against(ci, op: str, threshold: float) -> bool:
    """Whether a figure's 95% interval lies wholly on the other side of the claim's threshold."""
    return ci is not None and (bool(ci.hi < threshold) if op == ">" else bool(ci.lo > threshold))


def _ci_text(f: Figure | None, ci) -> str:
    if f is not None:
        return f.fmt_ci(ci)
    return "-" if ci is None else f"{ci.estimate:.4g} [{ci.lo:.4g}, {ci.hi:.4g}]"


def _value_text(f: Figure | None, t: float) -> str:
    """A threshold in the figure's unit, with enough digits to tell it from a nearby value."""
    if f is None:
        return f"{t:g}"
    v = t * f.scale
    text = f"{v:.4g}"
    return text + ("%" if f.unit == "%" else f" {f.unit}" if f.unit else "")


def _num(x) -> float | None:
    return float(x) if x is not None and math.isfinite(x) else None


def _verdict(claim: Claim, defaults: dict, changes: list[Change]) -> Verdict:
    """A claim's verdict (module docstring): HOLDS when every condition is shown at the
    default and under every reading that touches its figure; DEPENDS on X when X
    significantly (Holm) moves a condition shown at the default to the other side, its
    interval there wholly across; otherwise NOT_SHOWN, naming where it is not shown."""
    depends: dict[str, list[str]] = {}
    unsettled: dict[str, list[str]] = {}
    weakened: dict[str, list[str]] = {}
    missing: dict[str, list[str]] = {}  # reading -> conditions not shown under it
    evidence: list[dict] = []
    tightest = None  # (distance of the nearest interval end to its threshold, text)

    said: dict[str, list[str]] = {}  # what the detail prints: where a condition shown at the default is not

    def record(fig, op, t, label, ci, fig_obj, at_default: bool = True) -> bool:
        shown = _shown(ci, op, t)
        evidence.append({"figure": fig, "op": op, "threshold": t, "reading": label, "estimate": _num(ci.estimate if ci else None),
                         "lo": _num(ci.lo if ci else None), "hi": _num(ci.hi if ci else None), "shown": shown})
        if not shown:
            missing.setdefault(label, [])
            if at_default or label == "default":
                said.setdefault(label, []).append(f"{fig} {_ci_text(fig_obj, ci)}, not wholly {op} {_value_text(fig_obj, t)}")
        return shown

    for fig, op, t in claim.conditions:
        d = defaults[fig]
        fig_obj = next((c.figure for c in changes if c.figure.name == fig), None)
        at_default = record(fig, op, t, "default", d, fig_obj)
        cis = [("default", d)]
        for c in changes:
            if c.figure.name != fig:
                continue
            label = c.variant.label
            sw = c.switched
            cis.append((label, sw))
            shown = record(fig, op, t, label, sw, c.figure, at_default)
            what = (f"{fig}: {c.figure.fmt_ci(d)} -> {c.figure.fmt_ci(sw)} (change {c.figure.fmt_change(c.diff)}, "
                    f"Holm p {_p(c.p_holm)})")
            if at_default and c.significant and _against(sw, op, t):
                depends.setdefault(label, []).append(what)
            elif at_default and math.isfinite(c.value) and not _holds(c.value, op, t):
                unsettled.setdefault(label, []).append(what)
            elif at_default and not shown:
                weakened.setdefault(label, []).append(f"{fig}: {c.figure.fmt_ci(sw)} under it, against {c.figure.fmt_ci(d)} at the default")
        for label, ci in cis:
            if ci is not None and math.isfinite(ci.lo) and math.isfinite(ci.hi):
                gap = (ci.lo - t) if op == ">" else (t - ci.hi)
                if tightest is None or gap < tightest[0]:
                    where = "at the default" if label == "default" else "under " + label
                    tightest = (gap, f"{fig} {_ci_text(fig_obj, ci)} {where}, {op} {_value_text(fig_obj, t)}")
    tests = len(evidence)
    if depends:
        status = DEPENDS
    elif not missing:
        status = HOLDS
    else:
        status = NOT_SHOWN
    if status == HOLDS:
        parts = [f"shown in all {tests} tests (conditions x readings, each 95% interval beyond its threshold); "
                 f"closest: {tightest[1]}" if tightest else f"shown in all {tests} tests"]
    else:
        parts = [f"depends on {k}: " + "; ".join(v) for k, v in depends.items()]
        parts += [("not shown at the default: " if k == "default" else f"not shown under {k}: ") + "; ".join(v)
                  for k, v in said.items() if k not in depends]
        parts += [f"crosses its threshold under {k}: " + "; ".join(v) for k, v in unsettled.items() if k not in depends]
    return Verdict(claim, status, tuple(depends), tuple(unsettled), " / ".join(parts), tuple(weakened), tuple(missing), tests,
                   tuple(evidence))


# ---- presenting it -------------------------------------------------------------------------
def doc_label(v: Variant) -> str:
    return "default" if v.reading is None else f"{v.reading.doc_id} {v.label}"


# the answers' caveat for the headline figures a reading moves: the section's own games, so a
# figure there need not match the answer's of more games
MOVED_CAVEAT = "Headline figures that move with a reading (paired changes on the readings' own games)"


def _change_words(c: Change) -> str:
    """``-4.5 points [-5.2, -3.8] under damage_rule=strict (G9/A29)``: points, as the
    answers say, for a rate or a difference of rates (pp)."""
    text = c.figure.fmt_change(c.diff).removesuffix(" pp")
    unit = " points" if c.figure.unit in ("%", "pp") and c.figure.scale == 100 else ""
    return f"{text}{unit} under {c.variant.label} ({c.variant.reading.doc_id.replace(' (stand-in)', ', a stand-in')})"


def change_rows(s: Sensitivity, significant_only: bool = False) -> list[dict[str, str]]:
    """One row per figure and alternative reading: default, value, paired change, Holm p."""
    rows = []
    for c in s.changes:
        if significant_only and not c.significant:
            continue
        rows.append({
            "figure": c.figure.name,
            "reading": doc_label(c.variant),
            "default": c.figure.fmt_ci(s.defaults[c.figure.name]),
            "switched": c.figure.fmt_ci(c.switched),
            "change [95% CI]": c.figure.fmt_change(c.diff),
            "ratio": _ratio(c),
            "p (Holm)": _p(c.p_holm),
            "significant": "yes" if c.significant else "no",
        })
    return rows


def _ratio(c: Change) -> str:
    if c.figure.unit != "%" or not c.default > 0 or c.value < 0:
        return ""
    return f"{c.value / c.default:.2f}x"


def _p(p: float) -> str:
    from .fmt import fmt_p

    return fmt_p(p)


def reading_labels(s: Sensitivity) -> dict[str, str]:
    """Each alternative reading's label -> its name with the rules document's number."""
    return {x.label: doc_label(x) for x in variants(s.decl)}


def depends_words(v: Verdict, labels: dict[str, str]) -> str:
    """``depends on A16 mission_ufos=launched, ...``: the readings a claim depends on."""
    return "depends on " + ", ".join(labels.get(k, k) for k in v.depends_on)


def verdict_rows(s: Sensitivity) -> list[dict[str, str]]:
    labels = reading_labels(s)
    out = []
    for v in s.verdicts:
        if v.status == DEPENDS:
            what = depends_words(v, labels)
        elif v.status == HOLDS:
            what = STATUS_WORDS[HOLDS]
        elif "default" in v.not_shown_under:
            # the default's figures come from this analysis's own, smaller cells: said, so that the
            # row does not read as contradicting a section shown on more games
            what = f"not shown at the default reading on these {s.games:,} games"
        else:
            what = "not shown under " + ", ".join(labels.get(k, k) for k in v.not_shown_under)
        out.append({"claim": v.claim.text, "verdict": what, "evidence": v.detail})
    return out


def readings_rows(game, decl: Declaration) -> list[dict[str, str]]:
    infos = {i.name: i for i in describe(game.params)}
    return [{"doc": r.doc_id, "setting": f"`{r.setting}`", "default": f"`{infos[r.setting].default if infos[r.setting].default != '' else 'built-in'}`",
             "alternatives": ", ".join(f"`{v}`" for v in r.values), "meaning": r.meaning,
             "cells": "all" if not r.only else ", ".join(f"{k} = {'/'.join(map(str, v))}" for k, v in r.only.items())}
            for r in decl.readings]


def tornado(s: Sensitivity, figures: list[str] | None = None, cols: int = 3, max_bars: int = 15):
    """A tornado plot: one panel per figure, one bar per alternative reading (its paired
    change with its 95% interval), sorted by size; bars whose change is significant after
    Holm are solid. A panel shows at most ``max_bars`` bars, the largest changes (its
    title says how many it leaves out)."""
    import matplotlib.pyplot as plt

    from .fmt import PALETTE

    names = figures or [f.name for f in s.decl.figures]
    names = [n for n in names if any(c.figure.name == n for c in s.changes)]
    rows = max(1, math.ceil(len(names) / cols))
    ncols = min(cols, max(1, len(names)))
    bars = max([min(max_bars, sum(c.figure.name == n for c in s.changes)) for n in names] or [1])
    fig, axes = plt.subplots(rows, ncols, figsize=(4.6 * ncols, 0.35 * 2 + max(2.6, 0.9 + 0.17 * bars) * rows), squeeze=False)
    readings = [r.setting for r in s.decl.readings]
    for ax, name in zip(axes.ravel(), names):
        ch = sorted([c for c in s.changes if c.figure.name == name], key=lambda c: abs(c.diff.estimate))
        left_out = max(0, len(ch) - max_bars)
        ch = ch[left_out:]
        ys = np.arange(len(ch))
        sc = ch[0].figure.scale if ch else 1
        for y, c in zip(ys, ch):
            color = PALETTE[readings.index(c.variant.setting) % len(PALETTE)]
            ax.barh(y, c.diff.estimate * sc, color=color, alpha=1.0 if c.significant else 0.35)
            lo, hi = c.diff.lo * sc, c.diff.hi * sc
            if math.isfinite(lo) and math.isfinite(hi):
                ax.plot([lo, hi], [y, y], color="k", lw=1)
        ax.axvline(0, color="k", lw=0.8)
        ax.set_yticks(ys, [doc_label(c.variant) for c in ch], fontsize=7)
        unit = ch[0].figure.unit if ch else ""
        ax.set_xlabel("change " + ("(percentage points)" if unit in ("%", "pp") else f"({unit})" if unit else ""))
        more = f"; {left_out} smaller changes not shown" if left_out else ""
        ax.set_title(textwrap.fill(name, 60) + f"\n(default {ch[0].figure.fmt(ch[0].default) if ch else '-'}{more})", fontsize=9)
    for ax in axes.ravel()[len(names):]:
        ax.axis("off")
    fig.tight_layout()
    return fig


def report_section(rep, s: Sensitivity, tornado_figures: list[str] | None = None, command: str = "") -> None:
    """The report's section on the readings (a heading, the readings, the verdicts, the
    tornado and the significant changes)."""
    decl = s.decl
    n_alt = sum(len(r.values) for r in decl.readings)
    rep.heading("How sure are these numbers: readings of unclear rules")
    rep.text(
        f"Every ambiguity and stand-in of the rules document that can be read more than one way is a setting. Here each "
        f"of the {n_alt} alternative readings ({len({r.setting for r in decl.readings})} settings) is switched on its own, everything else at its "
        f"default, and the headline figures are measured again on the same seeds: {s.games:,} games per cell and reading "
        f"({s.cells_played} runs{'; ' + decl.note if decl.note else ''}). A change is the figure under the reading minus the "
        f"figure at the default, paired game by game, with a 95% interval (Tango's score interval for a win rate; otherwise "
        f"a t interval on the delta-method linearisation of the figure; pp: percentage points), and its p-value is Holm-adjusted over all "
        f"{len(s.changes)} changes of this section (family-wise error rate 5%). The default values here come from these "
        f"games: where a table above played more or other games, the two differ by sampling error."
        + (f" Reproduce: `{command}`." if command else "")
    )
    rep.text("**How a claim is judged.** The claims are statements that the report's sections and tables make or "
             f"support, declared with the figures in `simkit/games/{s.game.name}/sensitivity.py`. A claim is a set of "
             "conditions `figure > t` or `figure < t` (a ranking is a condition on a difference, `A - B > 0`; a stated "
             "margin is two conditions). A condition is *shown* under a reading when the figure's own 95% interval under "
             "it lies wholly beyond the threshold. A claim **holds under every reading** when every condition is shown at "
             "the default and under every reading that can touch its figure: all of these tests must succeed (an "
             "intersection-union test, so a claim that fails under some reading is called so at most 2.5% of the time, "
             "with no correction over the readings needed). It **depends on reading X** when a condition shown at the "
             "default moves to the other side under X, significantly: the change is significant after Holm over all the "
             "changes and the interval under X lies wholly across the threshold. Otherwise it is **not shown**, and the "
             "evidence names each reading and condition under which it is not (an interval that reaches its threshold), "
             "the default included: these games neither establish it under every reading nor show a reading that reverses it.")
    rep.table(readings_rows(s.game, decl), "The readings: each alternative is a setting (`--set key=value`) or a built-in data file variant")
    labels = reading_labels(s)
    for v in s.verdicts:
        if v.status == DEPENDS:
            rep.caveat("Depends on a reading of the rules", f"{v.claim.text} ({depends_words(v, labels)})")
    for name in tornado_figures or ():  # the headline figures: how far the readings move each (significant changes)
        moved = sorted((c for c in s.changes if c.figure.name == name and c.significant), key=lambda c: c.value)
        # the paired change, not this smaller sample's own levels: those, beside the answers'
        # figures of more games, read as two different values of one figure
        ends = moved[:1] + moved[-1:] if len(moved) > 1 else moved
        if ends:
            rep.caveat(MOVED_CAVEAT, f"{name}: {' and '.join(_change_words(c) for c in ends)}")
    rep.table(verdict_rows(s), "Each headline claim: holds under every reading, depends on a reading, or not shown (figures with "
                               f"95% intervals, changes with Holm-adjusted p). On {s.games:,} games a cell and reading, a claim "
                               "the sections above show on more games may be not shown here")
    fig = tornado(s, tornado_figures)
    rep.figure(fig, "sensitivity", "Tornado: the paired change of each headline figure when one reading is switched, with its 95% "
                                   "interval (solid: significant after Holm; faded: not)")
    rows = change_rows(s, significant_only=True)
    rep.table(rows, f"Every significant change (Holm, 5%): {len(rows)} of {len(s.changes)}; the default and switched values with "
                    f"their own 95% intervals (Wilson's for a win rate); 'ratio' is the switched value over the default")
    moved = {r["reading"] for r in rows}
    quiet = list(dict.fromkeys(doc_label(c.variant) for c in s.changes if doc_label(c.variant) not in moved))  # declaration order
    if quiet:
        rep.text("Readings that moved no headline figure significantly: " + ", ".join(f"`{q}`" for q in quiet) + ".")


def to_json(s: Sensitivity) -> dict[str, Any]:
    return {
        "game": s.game.name, "games_per_cell": s.games,
        "figures": {k: {"estimate": v.estimate, "lo": v.lo, "hi": v.hi} for k, v in s.defaults.items()},
        "changes": [{"figure": c.figure.name, "reading": c.variant.label, "doc": c.variant.reading.doc_id if c.variant.reading else "",
                     "default": c.default, "default_lo": s.defaults[c.figure.name].lo, "default_hi": s.defaults[c.figure.name].hi,
                     "switched": c.value, "switched_lo": c.switched.lo if c.switched is not None else None,
                     "switched_hi": c.switched.hi if c.switched is not None else None,
                     "change": c.diff.estimate, "lo": c.diff.lo, "hi": c.diff.hi,
                     "p": c.diff.p_value, "p_holm": c.p_holm, "significant": c.significant} for c in s.changes],
        "claims": [{"claim": v.claim.text, "status": v.status, "depends_on": list(v.depends_on),
                    "unsettled_under": list(v.unsettled_under), "weakened_under": list(v.weakened_under),
                    "detail": v.detail, "not_shown_under": list(v.not_shown_under), "tests": v.tests,
                    "conditions": [dict(e) for e in v.evidence]} for v in s.verdicts],
    }


def section_for_report(rep, result, tornado_figures=None) -> Sensitivity | None:
    """The sensitivity section of a sweep's report, when its experiment file asks for one
    (``sensitivity = GAMES``); the runs are kept beside the sweep's (resumed, not replayed)."""
    exp = result.experiment
    if not exp.sensitivity:
        return None
    s = sensitivity(exp.game, games=exp.sensitivity, seed=exp.seed, jobs=result.jobs, out_root=result.sensitivity_runs,
                    progress=result.progress)
    report_section(rep, s, tornado_figures, command=f"simkit sensitivity {exp.game.name} -n {exp.sensitivity} --seed {exp.seed}")
    return s

