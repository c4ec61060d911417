"""How numbers are printed in tables and reports (p-values that underflow, and rates
with enough digits for their intervals to be read) and the plots' colours."""

from __future__ import annotations

import math

from .stats import Interval

# The colours of every plot, in order (one per series).
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf", "#bcbd22"]


def fmt_p(p: float, digits: int = 2) -> str:
    """A p-value: ``<1e-300`` when it underflows to 0 (it is never exactly 0)."""
    if math.isnan(p):
        return "n/a"
    return "<1e-300" if p <= 0.0 else f"{p:.{digits}g}"


def decimals(*rates: float, least: int = 1) -> int:
    """Decimals (of a percentage) so that the largest positive rate shows two
    significant digits: 1 for 29.7%, 2 for 0.27%, 3 for 0.038%."""
    top = max((r for r in rates if r > 0 and math.isfinite(r)), default=0.0)
    if top <= 0.0:
        return least
    return max(least, 1 - math.floor(math.log10(100 * top)))


def pct(ci: Interval, digits: int | None = None) -> str:
    """``41.2% [40.9, 41.5]``, ``0.27% [0.24, 0.30]``, ``0.000% [0.000, 0.038]``,
    ``100.000% [99.981, 100.000]``: as many decimals as the interval needs near 0% and
    near 100% (or ``digits``)."""
    d = (max(decimals(ci.estimate, ci.lo, ci.hi), decimals(1 - ci.estimate, 1 - ci.lo, 1 - ci.hi))
         if digits is None else digits)
    return f"{100 * ci.estimate:.{d}f}% [{100 * ci.lo:.{d}f}, {100 * ci.hi:.{d}f}]"
