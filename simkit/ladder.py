"""Reading a balance conclusion along a ladder of bots of growing skill.

A report's headline (this city is the hardest, this seat is favoured, this power is worth
most) is a claim that the reference bot's games establish. Under stronger play the same
claim is measured again, as one *contrast* per bot: a number whose sign says whether the
claim holds for that bot (positive: it does), with its 95% interval, on that bot's games.
:func:`classify` turns the contrasts into one of four classes, and says why in figures:

* **survives**: the strongest bot's interval lies above 0 and no bot's lies below it;
* **flips**: the interval of a bot stronger than the reference lies below 0 (that bot finds
  the opposite, significantly), or such a bot separates a different answer to the same
  question (a weaker bot's dissent is noted, not counted: the question is stronger play);
* **fades**: the strongest bot's interval contains 0 but lies below the reference bot's
  estimate: the effect the reference bot found is ruled out at its size for the stronger
  bot (a smaller one, up to the interval's top, is not);
* **undecided**: the strongest bot's interval contains both 0 and the reference bot's
  estimate (its games can neither confirm the claim nor rule it out), or the reference
  bot itself does not separate the claim.

Kendall's rank correlations between bots get bootstrap intervals (:func:`boot_taus`):
games are resampled by cluster (a seed shared by cells, or one game), with Poisson(1)
weights, so cells that share their seeds stay paired.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

CLASSES = ("survives", "flips", "fades", "undecided")


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


def classify(contrasts: dict[str, Contrast], reference: str, other_answers: dict[str, str] | None = None) -> tuple[str, str]:
    """The class of a claim and the reason, from the contrasts of every bot (weakest
    first, the strongest last). ``other_answers``: bot -> a different answer it separates
    (e.g. another city it finds significantly hardest), which flips the claim too. Only
    bots above the reference can flip it (the question is stronger play); what a weaker
    bot finds is noted in the reason."""
    bots = list(contrasts)
    top = bots[-1]
    at = bots.index(reference)
    stronger, weaker = bots[at + 1:], bots[:at]
    ref, strong = contrasts[reference], contrasts[top]
    answers = {b: a for b, a in (other_answers or {}).items() if a}

    def dissent(group: list[str]) -> list[str]:
        out = [f"`{b}` finds the opposite ({contrasts[b].text()})" for b in group if contrasts[b].hi < 0]
        return out + [f"`{b}` separates {answers[b]}" for b in group if b in answers and contrasts[b].hi >= 0]

    against = dissent(stronger)
    note = "".join(f"; the weaker {w}" for w in dissent(weaker))
    if ref.lo <= 0:
        if strong.lo > 0 and not against and reference != top:
            return "survives", f"`{reference}` does not separate it, `{top}` does" + note
        return "undecided", f"`{reference}` does not separate it (its interval contains 0)" + "".join(f"; {w}" for w in against) + note
    if against:
        return "flips", "; ".join(against) + note
    if strong.lo > 0:
        return "survives", f"`{top}` separates it too" + note
    if strong.hi < ref.estimate:
        return "fades", (f"for `{top}` the claim's margin of {ref.value(ref.estimate)} that `{reference}` finds is ruled out; "
                         f"a margin up to {strong.value(strong.hi)} is not" + note)
    return "undecided", (f"`{top}`'s interval contains both 0 and `{reference}`'s {ref.value(ref.estimate)}: "
                         f"its games can neither confirm nor rule out the claim" + note)


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


# ---- rank correlations with bootstrap intervals ----------------------------------------------
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
    estimate: float
    lo: float
    hi: float

    def __str__(self) -> str:
        if not np.isfinite(self.estimate):
            return "n/a (ties)"
        if not (np.isfinite(self.lo) and np.isfinite(self.hi)):
            return f"{self.estimate:+.2f}"
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
    """Kendall's tau-b between the bots' group means for each pair of bots, with a
    percentile bootstrap interval (Poisson(1) weights per cluster, shared by every bot, so
    that clusters common to two bots, e.g. shared seeds, move together)."""
    universe = np.unique(np.concatenate([m.ids for m in means.values()]))
    rng = np.random.default_rng(seed)
    index = {b: np.searchsorted(universe, m.ids) for b, m in means.items()}
    parts = {b: [] for b in means}
    chunk = max(1, min(replicates, 4_000_000 // max(universe.size, 1)))  # weights in blocks of about 16 MB
    done = 0
    while done < replicates:
        k = min(chunk, replicates - done)
        weights = rng.poisson(1.0, size=(k, universe.size)).astype(np.float32)
        for b, m in means.items():
            parts[b].append(m.boot(weights, index[b]))
        done += k
    boot = {b: np.concatenate(v) for b, v in parts.items()}
    out = {}
    for a, b in pairs:
        est = _kendall(means[a].point(), means[b].point())
        reps = np.array([_kendall(boot[a][r], boot[b][r]) for r in range(replicates)])
        reps = reps[np.isfinite(reps)]
        if not np.isfinite(est) or reps.size < replicates // 2:
            out[(a, b)] = Tau(est, float("nan"), float("nan"))
        else:
            out[(a, b)] = Tau(est, float(np.quantile(reps, 0.025)), float(np.quantile(reps, 0.975)))
    return out
