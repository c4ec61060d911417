"""Speed measurement: games per second on one core, compiled and as plain Python.

The pure-Python figure runs the very same rules and bots with ``NUMBA_DISABLE_JIT=1``
in a child process, so the ratio measures what compilation buys. Both figures come
from the same invocation on the same machine; quote the ratio rather than absolute
speeds, which vary between machines.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import time
from typing import Any

import numpy as np

from .game import Bot, GameSpec
from .runner import bot_table
from .seeding import game_seeds


@dataclasses.dataclass(frozen=True)
class BenchRow:
    bot: str
    games: int
    seconds: float
    games_per_s: float
    python_games: int | None = None
    python_games_per_s: float | None = None

    @property
    def speedup(self) -> float | None:
        if not self.python_games_per_s:
            return None
        return self.games_per_s / self.python_games_per_s


def time_games(game: GameSpec, params: Any, bots: list[Bot], n: int, seed: int = 12345) -> float:
    """Seconds to play ``n`` games in this process (one core)."""
    seeds = game_seeds(seed, 0, n)
    table = bot_table(len(bots), 0, n, rotate=True)
    t0 = time.perf_counter()
    game.simulate(params, seeds, table, bots)
    return time.perf_counter() - t0


# Seconds a timing aims for when the number of games is left to simkit: long enough to
# smooth out the machine's noise, short enough that a slow searching bot is timed too.
COMPILED_SECONDS = 2.0
PYTHON_SECONDS = 5.0


def python_speed(game: GameSpec, params: Any, bot_text: str, n: int | None, timeout: float = 900) -> tuple[int, float]:
    """``(games, games per second)`` of the same rules run as plain Python (child process,
    JIT disabled): ``n`` games, or (``n`` None) batches of 1, 2, 4 ... games until about
    ``PYTHON_SECONDS`` have passed."""
    code = (
        "import json, sys, time, warnings, numpy as np\n"
        "warnings.simplefilter('ignore')\n"
        "np.seterr(all='ignore')\n"
        "from simkit.games import get\n"
        "from simkit.params import build\n"
        "from simkit.bench import time_games\n"
        "a = json.loads(sys.argv[1])\n"
        "g = get(a['game'])\n"
        "p = build(g.params, a['params'], g.name)\n"
        "bots = g.resolve_bots([a['bot']], p)\n"
        "if a['n']:\n"
        "    games, secs = a['n'], time_games(g, p, bots, a['n'])\n"
        "else:\n"
        "    games, secs, batch = 0, 0.0, 1\n"
        "    while secs < a['budget']:\n"
        "        secs += time_games(g, p, bots, batch, seed=games)\n"
        "        games, batch = games + batch, batch * 2\n"
        "print(json.dumps([games, games / secs]))\n"
    )
    arg = json.dumps({"game": game.name, "params": dataclasses.asdict(params), "bot": bot_text, "n": n, "budget": PYTHON_SECONDS})
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code, arg], capture_output=True, text=True, env=env, timeout=timeout)
    if out.returncode != 0:
        raise RuntimeError(f"pure-Python benchmark failed: {out.stderr.strip().splitlines()[-1:]}")
    games, rate = json.loads(out.stdout.strip().splitlines()[-1])
    return int(games), float(rate)


def bench(game: GameSpec, params: Any, bot_texts: list[str], n: int | None = None, python_games: int | None = None,
          repeat: int = 3) -> list[BenchRow]:
    """Compiled speed of each bot (best of ``repeat`` timings of ``n`` games after a
    warm-up; ``n`` None: about ``COMPILED_SECONDS`` per timing) and the pure-Python speed
    of the same bot (``python_games`` games; None: about ``PYTHON_SECONDS``; 0: skipped)."""
    rows = []
    for text in bot_texts:
        bots = game.resolve_bots([text], params)
        warm = 200 if n is None else min(n, 200)
        time_games(game, params, bots, warm)  # compile or load the cache
        games = n
        if games is None:
            rate = warm / time_games(game, params, bots, warm, seed=999)
            games = max(warm, int(rate * COMPILED_SECONDS))
        best = min(time_games(game, params, bots, games, seed=1000 + r) for r in range(repeat))
        py_games, py = python_speed(game, params, text, python_games) if python_games != 0 else (None, None)
        rows.append(BenchRow(text, games, best, games / best, py_games, py))
    return rows


def rows_as_dicts(rows: list[BenchRow]) -> list[dict]:
    return [{**dataclasses.asdict(r), "speedup": r.speedup} for r in rows]


def fmt_rate(x: float | None) -> str:
    return "-" if x is None or not np.isfinite(x) else f"{x:,.0f}"
