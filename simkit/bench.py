"""Speed measurement: games per second on one core, compiled and as plain Python.

The plain-Python figure runs the very same rules and bots with ``NUMBA_DISABLE_JIT=1``
in a child process, so the ratio measures what compilation buys. Both figures come
from the same invocation on the same machine; quote the ratio rather than absolute
speeds, which vary between machines.

Every timing is bounded, so that ``simkit bench GAME`` answers within a minute: the
compiled timings are sized from the bot's speed, and the plain-Python reference plays
whole games for at most ``PYTHON_SECONDS``. A bot that finishes no game in that time (a
searching bot, whose every decision plays many games out) is timed on the first
decisions of its first game instead, against the same decisions compiled; its
plain-Python games/s is then the compiled figure divided by that ratio, and the row
says so (``python_timed``). A bot whose first decision alone takes more than
``FIRST_DECISION_SECONDS`` is not measured in plain Python.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

import numpy as np

from .game import Bot, GameSpec
from .bots import bot_table
from .seeding import game_seeds
from .play import simulate
from .protocol import game_loop

# Seconds a timing aims for when the number of games is left to simkit: long enough to
# smooth out the machine's noise, short enough that every game's bench answers within a
# minute (five bots: about 3 s compiled and at most 3 s plain Python each).
COMPILED_SECONDS = 1.0
PYTHON_SECONDS = 3.0
# A bot whose first decision takes longer than this in plain Python is not measured there.
FIRST_DECISION_SECONDS = 15.0
SEED = 12345
# A cap on the plain-Python games when none is given (the time runs out long before).
PYTHON_GAMES_CAP = 100_000


@dataclasses.dataclass(frozen=True)
class BenchRow:
    bot: str
    games: int  # compiled: games per timing
    seconds: float  # compiled: best timing
    games_per_s: float
    python_timed: str = "skipped"  # what the plain-Python figure timed
    python_games: int = 0  # whole games timed in plain Python
    python_decisions: int = 0  # when no whole game fitted: decisions of the first game timed
    python_seconds: float | None = None
    python_games_per_s: float | None = None  # measured on whole games, else scaled by the speed-up
    speedup: float | None = None


def time_games(game: GameSpec, params: Any, bots: list[Bot], n: int, seed: int = SEED) -> float:
    """Seconds to play ``n`` games in this process (one core)."""
    seeds = game_seeds(seed, 0, n)
    table = bot_table(len(bots), 0, n, rotate=True)
    t0 = time.perf_counter()
    simulate(game, params, seeds, table, bots)
    return time.perf_counter() - t0


def compiled_speed(game: GameSpec, params: Any, bots: list[Bot], n: int | None, repeat: int) -> tuple[int, float]:
    """``(games, best seconds)``: the best of ``repeat`` timings of the same ``n`` games
    (``n`` None: about ``COMPILED_SECONDS`` of games, sized by doubling a batch)."""
    time_games(game, params, bots, 1)  # compile or load the cache
    if n is None:
        n = 1
        while (secs := time_games(game, params, bots, n)) < COMPILED_SECONDS / 10:
            n *= 2
        n = max(n, int(n / secs * COMPILED_SECONDS))
    return n, min(time_games(game, params, bots, n) for _ in range(repeat))


class _TimeUp(Exception):
    pass


def python_reference(game: GameSpec, params: Any, bot_text: str, games: int | None, seconds: float,
                     first_decision_seconds: float) -> dict:
    """Run with the JIT disabled: plays the games ``time_games`` plays, through the core's
    game loop, until ``games`` are done or ``seconds`` have passed; then the game under way
    is cut short (by an alarm, so even a slow decision cannot overrun), unless not one
    decision has been completed, which is then awaited up to ``first_decision_seconds``.
    Returns the whole games and their seconds, and the decisions completed in the game
    then unfinished and their seconds."""
    from .loop import listing_bots, play_games
    from .play import bots_used

    E, S, out = game.engine, game.strategies, game.outputs
    bots = game.resolve_bots([bot_text], params)
    n = games or PYTHON_GAMES_CAP
    table = bot_table(len(bots), 0, n, rotate=True)
    codes = np.array([bot.code for bot in bots], np.int64)[table]
    flags = np.array([bot.flags for bot in bots], np.int64)[table]
    b = game.board(params)
    starts: list[float] = []  # when each game began
    decisions: list[float] = []  # when each decision of the current game began
    late: list[bool] = []  # the time is up, but the first decision was still being made
    now, mark, bot_choose = time.perf_counter, decisions.append, game_loop(game).choose  # bound once: this runs every decision

    def init_state(seed, b):
        starts.append(now())
        if late:
            raise _TimeUp
        decisions.clear()
        return E.init_state(seed, b)

    def choose(*args):
        mark(now())
        if late:
            raise _TimeUp
        return bot_choose(*args)

    def time_up(signum, frame):
        if late or len(starts) > 1 or len(decisions) > 1:
            raise _TimeUp
        late.append(True)
        signal.setitimer(signal.ITIMER_REAL, max(first_decision_seconds - seconds, 0.001))

    signal.signal(signal.SIGALRM, time_up)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    t0 = time.perf_counter()
    try:
        play_games(game_seeds(SEED, 0, n), b, codes, flags, out.game_fields, out.seat_fields, out.seat_base, out.seat_stride, game.max_steps,
                   init_state, E.legal_actions, E.apply_action, E.to_move, E.is_over, E.observe, choose, bots_used(game, bots),
                   E.PERFECT_INFORMATION, listing_bots(S.BOTS), E.MAX_ACTIONS, E.OBS_SIZE, S.MEMORY, S.SCRATCH)
        signal.setitimer(signal.ITIMER_REAL, 0)
        return {"games": n, "seconds": time.perf_counter() - t0, "decisions": 0, "decision_seconds": 0.0}
    except _TimeUp:
        signal.setitimer(signal.ITIMER_REAL, 0)
        if not starts:
            return {"games": 0, "seconds": 0.0, "decisions": 0, "decision_seconds": 0.0}
        # Decision k is complete when decision k+1 begins: the last one begun is cut off.
        done = max(len(decisions) - 1, 0)
        return {"games": len(starts) - 1, "seconds": starts[-1] - t0,
                "decisions": done, "decision_seconds": decisions[done] - starts[-1] if done else 0.0}


def _python_child(arg: str) -> None:
    """The child process: one JSON line per bot on stdout as soon as it is timed."""
    import warnings

    from .games import get
    from .params import build

    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    a = json.loads(arg)
    g = get(a["game"])
    p = build(g.params, a["params"], g.name)
    for text in a["bots"]:
        print(json.dumps(python_reference(g, p, text, a["games"], a["seconds"], a["first_decision_seconds"])), flush=True)


def python_speeds(game: GameSpec, params: Any, bot_texts: list[str], games: int | None,
                  say: Callable[[str], None]) -> list[dict]:
    """:func:`python_reference` of each bot, run as plain Python in one child process."""
    arg = json.dumps({"game": game.name, "params": dataclasses.asdict(params), "bots": bot_texts, "games": games,
                      "seconds": PYTHON_SECONDS, "first_decision_seconds": FIRST_DECISION_SECONDS})
    code = "import sys; from simkit.bench import _python_child; _python_child(sys.argv[1])"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    results: list[dict] = []
    with tempfile.TemporaryFile("w+") as errors:
        proc = subprocess.Popen([sys.executable, "-c", code, arg], stdout=subprocess.PIPE, stderr=errors, text=True, env=env)
        try:
            for i, text in enumerate(bot_texts):
                say(f"[{i + 1}/{len(bot_texts)}] {text}: plain Python, about {PYTHON_SECONDS:g} s")
                line = proc.stdout.readline()
                if not line:
                    break
                results.append(json.loads(line))
            proc.wait()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        if proc.returncode == -signal.SIGINT:  # Ctrl-C reached the child first
            raise KeyboardInterrupt
        if proc.returncode != 0 or len(results) != len(bot_texts):
            errors.seek(0)
            raise RuntimeError(f"pure-Python benchmark failed: {errors.read().strip().splitlines()[-1:]}")
    return results


def replay_seconds(game: GameSpec, params: Any, bots: list[Bot], decisions: int, repeat: int) -> float:
    """Best of ``repeat`` timings of the first ``decisions`` decisions of the first game
    ``time_games`` plays, compiled, driven from Python (its calls make this a little
    slower than the compiled loop, so a speed-up measured with it errs low)."""
    from .play import Table

    b = game.board(params)
    seed = game_seeds(SEED, 0, 1)[0]
    seats = bot_table(len(bots), 0, 1, rotate=True)[0]

    def once() -> float:
        t0 = time.perf_counter()
        t = Table(game, b, seed)
        for _ in range(decisions):
            t.step(t.decide(bots[seats[t.to_move()]], 0)[0])
        return time.perf_counter() - t0

    once()  # load the cached compiled functions
    return min(once() for _ in range(repeat))


def bench(game: GameSpec, params: Any, bot_texts: list[str], n: int | None = None, python_games: int | None = None,
          repeat: int = 3, say: Callable[[str], None] = lambda text: None) -> list[BenchRow]:
    """Compiled speed of each bot (best of ``repeat`` timings of the same ``n`` games after a
    warm-up; ``n`` None: about ``COMPILED_SECONDS`` of games) and the pure-Python speed of
    the same bot (at most ``python_games`` games and ``PYTHON_SECONDS``; 0: skipped).
    ``say`` is told each step as it starts."""
    k = len(bot_texts)
    compiled = []
    for i, text in enumerate(bot_texts):
        say(f"[{i + 1}/{k}] {text}: compiled, best of {repeat}" + (f" x {n:,} games" if n else f" x about {COMPILED_SECONDS:g} s"))
        bots = game.resolve_bots([text], params)
        compiled.append((bots, *compiled_speed(game, params, bots, n, repeat)))
    if python_games == 0:
        return [BenchRow(text, games, secs, games / secs) for text, (_, games, secs) in zip(bot_texts, compiled)]
    rows = []
    # A user's bot is Python already, and the plain-Python reference plays the game's own
    # bots by their codes: it timed some built-in bot under the user's name.
    users = {text for text, (bots, _, _) in zip(bot_texts, compiled) if any(b.fn is not None for b in bots)}
    python_texts = [text for text in bot_texts if text not in users]
    speeds = iter(python_speeds(game, params, python_texts, python_games, say) if python_texts else [])
    for text, (bots, games, secs) in zip(bot_texts, compiled):
        rate = games / secs
        if text in users:
            rows.append(BenchRow(text, games, secs, rate, "not timed: a bot of yours is Python either way"))
            continue
        py = next(speeds)
        if py["games"]:
            py_rate = py["games"] / py["seconds"]
            timed = f"{py['games']:,} whole game{'s' if py['games'] > 1 else ''}"
            rows.append(BenchRow(text, games, secs, rate, timed, python_games=py["games"], python_seconds=py["seconds"],
                                 python_games_per_s=py_rate, speedup=rate / py_rate))
        elif py["decisions"]:
            decisions = f"{py['decisions']} decision{'s' if py['decisions'] > 1 else ''}"
            say(f"{text}: the same {decisions} compiled")
            speedup = py["decision_seconds"] / replay_seconds(game, params, bots, py["decisions"], repeat)
            timed = f"the first {decisions} of a game (no whole game in {PYTHON_SECONDS:g} s); games/s scaled by their speed-up"
            rows.append(BenchRow(text, games, secs, rate, timed, python_decisions=py["decisions"], python_seconds=py["decision_seconds"],
                                 python_games_per_s=rate / speedup, speedup=speedup))
        else:
            timed = f"not measured (too slow in plain Python: no decision in {FIRST_DECISION_SECONDS:g} s)"
            rows.append(BenchRow(text, games, secs, rate, timed))
    return rows


def rows_as_dicts(rows: list[BenchRow]) -> list[dict]:
    return [dataclasses.asdict(r) for r in rows]


def fmt_rate(x: float | None) -> str:
    if x is None or not np.isfinite(x):
        return "-"
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"
