"""No slower: the same games timed in two checkouts, interleaved (A, B, A, B ...), on one core.

Each checkout needs its own virtualenv (``make install`` in it). For each game and bot the
script plays the same seeded games in a fresh process of each checkout, takes the best of 5
CPU-time timings (``time.process_time``, so other processes on the machine count less),
and prints B / A. Rounds are interleaved so that a slow spell of the machine hits both.

    git worktree add ../simkit-old 7041d02 && make -C ../simkit-old install
    .venv/bin/python benchmarks/ab_speed.py ../simkit-old . --rounds 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
from pathlib import Path

PROBE = """
import sys, time
from simkit.games import get
from simkit.seeding import game_seeds
try:
    from simkit.bots import bot_table
    from simkit.play import simulate
except ImportError:  # a checkout from before simkit.bots
    from simkit.runner import bot_table
    def simulate(g, *args): return g.simulate(*args)
game, bot, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
g = get(game); p = g.params(); bots = g.resolve_bots([bot], p)
seeds = game_seeds(12345, 0, n); table = bot_table(len(bots), 0, n, True)
simulate(g, p, seeds[:50], table[:50], bots)
best = 0.0
for _ in range(5):
    t = time.process_time(); simulate(g, p, seeds, table, bots); best = max(best, n / (time.process_time() - t))
print(best)
"""

CASES = (("ufs", "greedy", 40_000), ("ufs", "random", 100_000), ("aau", "greedy", 40_000), ("aau", "strategic", 15_000),
         ("ufoo", "tactical", 20_000))


def speed(checkout: Path, game: str, bot: str, n: int) -> float:
    python = checkout / ".venv" / "bin" / "python"
    out = subprocess.run([str(python), "-c", PROBE, game, bot, str(n)], cwd=checkout, capture_output=True, text=True,
                         env=dict(os.environ), check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", type=Path, help="checkout A (before)")
    ap.add_argument("b", type=Path, help="checkout B (after)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    ratios: dict[tuple, list[float]] = {}
    for r in range(args.rounds):
        for game, bot, n in CASES:
            a = speed(args.a.resolve(), game, bot, n)
            b = speed(args.b.resolve(), game, bot, n)
            ratios.setdefault((game, bot), []).append(b / a)
            print(f"round {r + 1} {game:4} {bot:9} A {a:9,.0f}  B {b:9,.0f} games/CPU-s  B/A {b / a:.3f}", flush=True)
    for (game, bot), rs in ratios.items():
        print(f"{game} {bot}: B/A median {statistics.median(rs):.3f} (rounds: {', '.join(f'{x:.3f}' for x in rs)})")


if __name__ == "__main__":
    main()
