"""Reading a balance conclusion along a ladder of bots of growing skill.

A report's headline (this city is the hardest, this seat is favoured, this power is worth
most) is a claim that the reference bot's games establish. Under stronger play the same
claim is measured again, as one *contrast* per bot: a number whose sign says whether the
claim holds for that bot (positive: it does), with its 95% interval, on that bot's games.
:func:`classify` turns the contrasts into one of four classes, and says why in figures.

Every test reads a bot's interval at a corrected level: Bonferroni over the tests of a
claim (one per bot above the reference, and the strongest bot's difference from the
reference) times the number of claims classed together (``claims``), so that the chance
of any false *survives*, *flips* or *fades* among them is at most ``alpha``. A 95% interval
is widened side by side (each half read as a normal one), and a difference of two bots'
contrasts is read as independent (:func:`difference`).

* **survives**: the strongest bot's corrected interval lies above 0 (it finds the claim
  too, with evidence) and no bot above the reference finds the opposite;
* **flips**: the reference separates the claim (its 95% interval above 0) and a bot
  stronger than it finds the opposite (its corrected interval below 0), or separates a
  different answer to the same question (``other_answers``, judged by the report); a
  weaker bot's dissent is noted, not counted: the question is stronger play;
* **fades**: the reference separates the claim, the strongest bot does not confirm it, and
  the strongest bot's contrast minus the reference's is significantly below 0 (corrected):
  the effect the reference finds is smaller under stronger play (how much smaller is in
  the reason);
* **undecided**: anything else: the strongest bot's games neither confirm the claim nor
  show that it shrinks, or the reference does not separate it and the strongest bot does
  not either.

Kendall's rank correlations between bots (:func:`boot_taus`) are point estimates only:
the percentile bootstrap interval they had did not keep its level (the project's issue
measured 24% coverage in a case with ties, printed ``+1.00 [+1.00, +1.00]``), and tau over
a handful of groups is too discrete for a simple repair, so no interval is printed.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

# the answers' caveat for a conclusion the stronger bots reverse (the section calls the class "flips")
FLIPS_CAVEAT = "Flips under stronger play (found by the default bot, not by a stronger one)"

CLASSES = ("survives", "flips", "fades", "undecided")
ALPHA = 0.05
_Z95 = NormalDist().inv_cdf(0.975)


@dataclass(frozen=True)
class Contrast:
    """One bot's measure of a claim: positive when the claim holds; ``unit``: how the
    numbers print (``pts``: points of a rate, ``x``: plain)."""

    estimate: float
    lo: float
    hi: float
    unit: str = "pts"

    def text(self) -> str:
        if self.unit == "pts":
            return f"{100 * self.estimate:+.1f} [{100 * self.lo:+.1f}, {100 * self.hi:+.1f}] points"
        return f"{self.estimate:+.2f} [{self.lo:+.2f}, {self.hi:+.2f}]"

    def value(self, v: float) -> str:
        return f"{100 * v:.1f} points" if self.unit == "pts" else f"{v:.2f}"

    def at(self, z: float) -> "Contrast":
        """The interval at the two-sided level whose normal quantile is ``z`` (this one is
        95%), each side scaled from its own half-width."""
        k = z / _Z95
        return Contrast(self.estimate, self.estimate - k * (self.estimate - self.lo), self.estimate + k * (self.hi - self.estimate),
                        self.unit)

    def bounds(self) -> str:
        if self.unit == "pts":
            return f"[{100 * self.lo:+.1f}, {100 * self.hi:+.1f}]"
        return f"[{self.lo:+.2f}, {self.hi:+.2f}]"


def family(contrasts: dict[str, Contrast], reference: str, claims: int = 1) -> int:
    """The number of tests Bonferroni's correction divides ``alpha`` by: per claim, one
    per bot above the reference and one for the strongest bot's difference from the
    reference (1 when the reference is the strongest bot), times ``claims``."""
    bots = list(contrasts)
    above = len(bots) - 1 - bots.index(reference)
    return max(1, int(claims)) * (above + 1 if above else 1)


def rules(reference: str, top: str = "the strongest bot") -> str:
    """The classes in a report's words (``reference``: the default bot, ``top``: the
    strongest), matching :func:`classify`."""
    t = top if top == "the strongest bot" else f"`{top}`"
    return (f"Every bot's margin is read at a corrected level: Bonferroni over the tests of a claim (one per bot above "
            f"`{reference}`, one for {t}'s margin minus `{reference}`'s), and over the claims where a table classes many "
            f"together (its caption says so), so that a false class has a chance of at most 5% per claim (per table); "
            f"each line's reason states the family and the level. "
            f"A claim *survives* when {t}'s corrected interval lies above 0 (it finds the claim too, with evidence) and no "
            f"bot above `{reference}` finds the opposite; it *flips* when `{reference}` separates it and a bot above "
            f"`{reference}` finds the opposite (its corrected interval below 0) or separates another answer (a weaker bot's "
            f"dissent is noted, not counted); it *fades* when `{reference}` separates it, {t} does not confirm it, and {t}'s "
            f"margin minus `{reference}`'s is significantly below 0 (both uncertainties counted); it is *undecided* "
            f"otherwise (the games neither confirm the claim nor show it smaller, or `{reference}` does not separate it).")


def classify(contrasts: dict[str, Contrast], reference: str, other_answers: dict[str, str] | None = None,
             claims: int = 1, alpha: float = ALPHA) -> tuple[str, str]:
    """The class of a claim and the reason, from the contrasts of every bot (weakest
    first, the strongest last; 95% intervals). ``other_answers``: bot -> a different answer
    it separates (e.g. another city it finds significantly hardest), which flips the claim
    too. Only bots above the reference can flip it (the question is stronger play); what a
    weaker bot finds is noted in the reason. ``claims``: how many claims the report classes
    together (the family of the correction, with the bots: :func:`family`)."""
    bots = list(contrasts)
    top = bots[-1]
    at = bots.index(reference)
    stronger, weaker = bots[at + 1:], bots[:at]
    ref = contrasts[reference]
    answers = {b: a for b, a in (other_answers or {}).items() if a}
    n = family(contrasts, reference, claims)
    z = NormalDist().inv_cdf(1 - alpha / (2 * n))
    wide = {b: c.at(z) for b, c in contrasts.items()}
    strong = wide[top]
    level = 100 * (1 - alpha / n)
    how = (f" (Bonferroni over {n} test{'s' if n > 1 else ''}"
           + (f": {n // max(1, int(claims))} per claim x {int(claims)} claims" if claims > 1 else "")
           + f"; intervals at {level:.3g}%)")

    def dissent(group: list[str]) -> list[str]:
        out = [f"`{b}` finds the opposite ({contrasts[b].text()}, {level:.3g}% interval {wide[b].bounds()})" for b in group if wide[b].hi < 0]
        return out + [f"`{b}` separates {answers[b]}" for b in group if b in answers and wide[b].hi >= 0]

    against = dissent(stronger)
    note = "".join(f"; the weaker {w}" for w in dissent(weaker))
    if ref.lo <= 0:
        if strong.lo > 0 and not against and reference != top:
            return "survives", f"`{reference}` does not separate it, `{top}` does ({level:.3g}% interval {strong.bounds()})" + how + note
        return "undecided", (f"`{reference}` does not separate it (its interval contains 0)" + "".join(f"; {w}" for w in against)
                             + (how if against else "") + note)
    if against:
        return "flips", "; ".join(against) + how + note
    if strong.lo > 0:
        if reference == top:
            return "survives", f"`{top}` separates it ({level:.3g}% interval {strong.bounds()})" + how + note
        return "survives", f"`{top}` separates it too ({level:.3g}% interval {strong.bounds()})" + how + note
    if stronger:
        d = difference(contrasts[top].estimate, contrasts[top].lo, contrasts[top].hi, ref.estimate, ref.lo, ref.hi, ref.unit)
        dw = d.at(z)
        if dw.hi < 0:
            return "fades", (f"`{top}` does not confirm it ({level:.3g}% interval {strong.bounds()}) and finds it smaller than `{reference}` "
                             f"does: {top} - {reference} = {d.text()}, {level:.3g}% interval {dw.bounds()}; a margin up to "
                             f"{strong.value(strong.hi)} is not ruled out for `{top}`" + how + note)
    return "undecided", (f"`{top}`'s games neither confirm the claim ({level:.3g}% interval {strong.bounds()}) nor show it smaller than "
                         f"`{reference}`'s {ref.value(ref.estimate)}" + how + note)


def difference(a: float, a_lo: float, a_hi: float, b: float, b_lo: float, b_hi: float, unit: str = "pts") -> Contrast:
    """``a - b`` for two independent estimates, their intervals read as normal."""
    se = np.hypot((a_hi - a_lo) / 3.92, (b_hi - b_lo) / 3.92)
    d = a - b
    return Contrast(d, d - 1.96 * se, d + 1.96 * se, unit)


def from_difference(d, unit: str = "pts", sign: int = 1) -> Contrast:
    """A :class:`~simkit.stats.Difference` (or anything with estimate, lo, hi) as a contrast,
    negated when ``sign`` is -1."""
    if sign > 0:
        return Contrast(d.estimate, d.lo, d.hi, unit)
    return Contrast(-d.estimate, -d.hi, -d.lo, unit)


# ---- rank correlations (point estimates) ------------------------------------------------------
def _kendall(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's tau-b of two short vectors (nan when one is all ties)."""
    dx = np.sign(x[:, None] - x[None, :])
    dy = np.sign(y[:, None] - y[None, :])
    iu = np.triu_indices(x.size, 1)
    dx, dy = dx[iu], dy[iu]
    nx, ny = np.count_nonzero(dx), np.count_nonzero(dy)
    if nx == 0 or ny == 0:
        return float("nan")
    return float((dx * dy).sum() / np.sqrt(nx * ny))


@dataclass(frozen=True)
class Tau:
    """Kendall's tau-b between two bots' orders; ``lo``/``hi`` are nan (no interval: see
    the module's docstring)."""

    estimate: float
    lo: float = float("nan")
    hi: float = float("nan")

    def __str__(self) -> str:
        if not np.isfinite(self.estimate):
            return "n/a (ties)"
        if not (np.isfinite(self.lo) and np.isfinite(self.hi)):
            return f"{self.estimate:+.2f}"  # (the table or sentence says once that no interval is given)
        return f"{self.estimate:+.2f} [{self.lo:+.2f}, {self.hi:+.2f}]"


class Means:
    """Group means of one bot's values, ready to bootstrap: ``clusters`` (int ids of the
    resampling units), ``groups`` (which item each value belongs to, 0 .. k-1), ``values``."""

    def __init__(self, clusters: np.ndarray, groups: np.ndarray, values: np.ndarray, k: int):
        self.k = k
        ids, inv = np.unique(np.asarray(clusters), return_inverse=True)
        self.ids = ids
        self.sums = np.zeros((ids.size, k))
        self.counts = np.zeros((ids.size, k))
        np.add.at(self.sums, (inv, np.asarray(groups)), np.asarray(values, dtype=np.float64))
        np.add.at(self.counts, (inv, np.asarray(groups)), 1.0)

    def point(self) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.sums.sum(0) / self.counts.sum(0)

    def boot(self, weights: dict[int, float] | np.ndarray, index: np.ndarray) -> np.ndarray:
        """Means under weights (replicates x clusters), ``index``: this bot's clusters'
        columns in the weight matrix."""
        w = weights[:, index]
        with np.errstate(invalid="ignore", divide="ignore"):
            return (w @ self.sums) / (w @ self.counts)


def boot_taus(means: dict[str, Means], pairs: list[tuple[str, str]], replicates: int = 400, seed: int = 2026) -> dict:
    """Kendall's tau-b between the bots' group means for each pair of bots, as a point
    estimate with no interval (``lo``, ``hi`` nan; its caller says so once): the
    percentile bootstrap interval it returned did not keep its level (module docstring).
    ``replicates`` and ``seed`` are accepted and unused, so callers keep working."""
    return {(a, b): Tau(_kendall(means[a].point(), means[b].point())) for a, b in pairs}


def classed_line(rep, claim: str, contrasts: dict[str, Contrast], reference: str, picks: dict[str, str] | None = None,
                 other: dict[str, str] | None = None) -> tuple[str, str]:
    """A conclusion's class and its line: the claim, every bot's contrast (and its own
    answer when given), and why it is classed so; the class is recorded on the report
    (``rep.conclude``), so that its next version says when it changes."""
    cls, why = classify(contrasts, reference, other)
    each = ", ".join(f"`{b}` {c.text()}" + (f" (its own answer: {picks[b]})" if picks and b in picks else "")
                     for b, c in contrasts.items())
    rep.conclude(claim, cls)
    if cls == "flips":
        rep.caveat(FLIPS_CAVEAT, claim)
    return cls, f"{claim}: {each}; {why}"
