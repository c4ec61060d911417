"""Operating characteristic of every band of a bands file: the exact chance that the
band fails (low or high), holds or ends undecided, against the true rate, and the
expected games, for the file's batch size and caps.

The chances are computed, not simulated: the running count of the checks still
undecided is carried from look to look (a binomial convolution per batch) and the
mass crossing each boundary is removed (simkit.stats.BandTest.operating_characteristic;
tests/test_bands.py checks it against a simulation).

    .venv/bin/python benchmarks/bands_oc.py [experiments/bands.toml]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from simkit.check import load

ROOT = Path(__file__).resolve().parent.parent


def pct(x: float) -> str:
    return f"{100 * x:.2f}" if x >= 0.01 or x == 0 else f"{100 * x:.3f}"


def main(path: Path) -> None:
    t0 = time.perf_counter()
    bands = load(path)
    b0 = bands[0]
    print(f"{path}: {len(bands)} bands, alpha {b0.family * b0.test.alpha:.3g} over the file "
          f"({b0.test.alpha:.3g} per band), beta {b0.test.beta:.3g}, batch {b0.batch:,}")
    print("P(fail) = chance that the band fails, low or high, within its cap; 'undecided' counts as a CI failure too.\n")
    worst = 0.0
    for b in bands:
        t = b.test
        points = [("centre - 1.5 detect", t.centre - 1.5 * t.detect), ("centre - detect", t.down),
                  ("centre - detect/2", t.centre - t.detect / 2), ("lo", t.lo), ("centre", t.centre), ("hi", t.hi),
                  ("centre + detect/2", t.centre + t.detect / 2), ("centre + detect", t.up),
                  ("centre + 1.5 detect", t.centre + 1.5 * t.detect)]
        print(f"{b.name}: band {pct(t.lo)}-{pct(t.hi)}%, centre {pct(t.centre)}%, catches {t.describe_detect()}, cap {b.cap:,}")
        print(f"  {'true rate':>28} {'P(fail)':>9} {'P(holds)':>9} {'undecided':>10} {'mean games':>11}")
        seen = set()
        for label, rate in points:
            if not 0.0 <= rate <= 1.0 or round(rate, 9) in seen:
                continue
            seen.add(round(rate, 9))
            oc = t.operating_characteristic(rate, b.batch, b.cap)
            fail = oc["fails low"] + oc["fails high"]
            if t.lo <= rate <= t.hi:
                worst = max(worst, fail + oc["undecided"])
            print(f"  {label + ' ' + pct(rate) + '%':>28} {fail:9.2e} {oc['holds']:9.5f} {oc['undecided']:10.2e} {oc['games']:11,.0f}")
        print()
    print(f"largest chance that one band inside its band fails or ends undecided (at lo, centre or hi): {worst:.2e}; "
          f"over {len(bands)} bands at most {len(bands) * worst:.2e} (alpha {b0.family * b0.test.alpha:.3g})")
    print(f"computed in {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "experiments" / "bands.toml")
