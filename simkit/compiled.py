"""Compiling a game's loop for the bots a run plays, once, with a visible line.

numba compiles a game's rules and bots the first time they are used and caches the
machine code per game (``simkit._cache``). The compiled loop is compiled per set of
built-in bots (``loop.play_chunk(used)``), so a first run compiles its game's rules and
its own bots and nothing else. Before it fans out, the runner either compiles
(:func:`ensure_compiled`), so that worker processes only load the cache, or, when a
core is spare, compiles in another process while one plays the run's first games as
plain Python (``runner._play_while_compiling``); ``simkit compile`` compiles ahead of time.
"""

from __future__ import annotations

import atexit
import os
import threading
import time
from typing import Any, Callable, Iterable

import numpy as np

from . import _cache
from .bots import Bot
from .game import GameSpec
from .play import bots_used, cache_unwritable, every_bot_loop, simulate
from .seeding import game_seeds
from .workers import stop_workers, worker_count


def compile_loop(game: GameSpec, bots: list[Bot], checked: bool = False) -> float:
    """Compiles (or loads) the game's compiled loop for these built-in bots by playing
    one game with them, and with ``checked`` the compiled functions the Python loop
    calls for them; returns the seconds it took."""
    t0 = time.perf_counter()
    params = game.params()
    # One game at the default settings, every bot at some seat: the run's bots may be one per
    # seat of another player count (a table narrower than the game's seats would be read
    # past its end by the compiled loop).
    seats = game.seats(params)
    bots = list({b.name: b for b in bots}.values())
    if len(bots) > seats:
        raise ValueError(f"{game.name}: {len(bots)} distinct bots do not fit the {seats} seats of its default settings")
    table = (np.arange(seats, dtype=np.int64) % len(bots))[None, :]
    simulate(game, params, game_seeds(0, 0, 1), table, bots)
    if checked:
        simulate(game, params, game_seeds(0, 0, 1), table, bots, checked=True)
    _cache.mark_compiled(game.component, bots_used(game, bots))
    return time.perf_counter() - t0


def check_cache_writable() -> None:
    """One line before any compiling when the compile cache cannot be written: numba then
    fell back to another place without a word (the package's own folders, or another
    cache), and every run compiled again."""
    root = _cache.cache_root()
    try:
        root.mkdir(parents=True, exist_ok=True)
        probe = root / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise cache_unwritable(exc) from None


def uncompiled(runs: Iterable[tuple[GameSpec, Iterable[Bot]]]) -> list[tuple[GameSpec, list[Bot]]]:
    """The game loops the runs need that are not in the cache, one per game and set of
    built-in bots. Runs whose seats include a user's bot play the Python loop, whose
    compiled functions are compiled one by one on first use: they need none."""
    check_cache_writable()
    wanted: dict[tuple[str, int], tuple[GameSpec, list[Bot]]] = {}
    for game, bots in runs:
        bots = list(bots)
        if not bots or any(bot.fn is not None for bot in bots):
            continue
        wanted.setdefault((game.name, bots_used(game, bots)), (game, bots))
    finish_compiling()  # a loop being compiled since an earlier run: waited for, not compiled twice
    return [(game, bots) for (_, used), (game, bots) in wanted.items() if not _cache.is_compiled(game.component, used)]


def compiling_line(todo: list[tuple[GameSpec, list[Bot]]]) -> str:
    what = "; ".join(f"{game.name} with {', '.join(sorted({b.name.split(':')[0] for b in bots}))}" for game, bots in todo)
    return f"compiling the rules and bots of {what} (once, until their code changes; 10 s to a few minutes)"


# Compilations a run left running after it had played its games as plain Python meanwhile
# (runner._play_while_compiling): (executor, futures), finished by finish_compiling.
_LEFT_RUNNING: list[tuple[Any, set]] = []


def leave_compiling(executor, futures: set) -> None:
    """Lets the compilations ``futures`` on ``executor`` finish after the run that started
    them (so that the next run starts compiled); they are stopped at exit at the latest."""
    if not _LEFT_RUNNING:
        # before loky's own exit hook, which would wait for the compilers to finish
        getattr(threading, "_register_atexit", atexit.register)(stop_compiling)
    _LEFT_RUNNING.append((executor, futures))


def finish_compiling(say: Callable[[str], None] | None = None) -> None:
    """Waits for the compilations runs left running (``say`` tells why first, and what
    failed); Ctrl-C stops them. A compiler's error is not raised here: the results are
    complete. (Unsaid, a small run on a full cache disk played as plain Python every time.)"""
    from .workers import wait_interruptibly

    try:
        futures = {f for _, fs in _LEFT_RUNNING for f in fs}
        if any(not f.done() for f in futures):
            if say is not None:
                say("finishing the compilation for the next runs (Ctrl-C skips it; the results are complete)")
            wait_interruptibly(futures)
        failed = [e for f in futures if f.done() and not f.cancelled() and (e := f.exception()) is not None]
        if failed and say is not None:
            first = (str(failed[0]).strip().splitlines() or [type(failed[0]).__name__])[0]  # (numba's errors take pages)
            say(f"the compilation failed, and the next run plays as plain Python again: {first}")
    finally:
        stop_compiling()


def stop_compiling() -> None:
    while _LEFT_RUNNING:
        executor, _ = _LEFT_RUNNING.pop()
        stop_workers(executor)


def ensure_compiled(runs: Iterable[tuple[GameSpec, Iterable[Bot]]], say: Callable[[str], None] | None = None,
                    jobs: int = 1) -> None:
    """Compiles each game's loop for its runs' built-in bots unless it is in the cache
    (:func:`uncompiled`), saying so first (``say``); several loops compile on up to
    ``jobs`` processes at once."""
    compile_loops(uncompiled(runs), say, jobs)


def compile_loops(todo: list[tuple[GameSpec, list[Bot]]], say: Callable[[str], None] | None = None, jobs: int = 1) -> None:
    """Compiles the loops ``todo`` (from :func:`uncompiled`), saying so first."""
    if not todo:
        return
    if say is not None:
        say(compiling_line(todo))
    if len(todo) == 1 or jobs <= 1:
        for game, bots in todo:
            compile_loop(game, bots)
        return
    # Each process compiles its game's rules again, but two loops at once still finish sooner.
    for _ in _in_processes([(game.name, tuple(b.name for b in bots), False) for game, bots in todo], min(jobs, len(todo))):
        pass


def _in_processes(calls: list[tuple], jobs: int) -> Iterable[tuple[str, float]]:
    """:func:`compile_by_name` of each of ``calls`` on ``jobs`` worker processes, results
    as they finish. The workers start with Ctrl-C held and then ignore it, as the runner's
    do (joblib's pool started them open: 3 tracebacks in 12 early Ctrl-C of `simkit
    compile ufs aau` under strace); a Ctrl-C stops them at once."""
    import warnings

    from joblib.externals.loky.process_executor import ProcessPoolExecutor

    from .runner import _ctrl_c_held, _worker_init
    from .workers import wait_interruptibly

    with _ctrl_c_held():
        pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_init, initargs=(os.getpid(),))
    try:
        with warnings.catch_warnings():
            # loky restarts a worker whose memory grew (compiling a game takes plenty) and warns
            # about it; the game it compiled is done, and the next one goes to a fresh worker.
            warnings.filterwarnings("ignore", message="A worker stopped while some jobs were given to the executor")
            with _ctrl_c_held():
                running = {pool.submit(compile_by_name, *call) for call in calls}
            while running:
                done, running = wait_interruptibly(running, first=True)
                for f in done:
                    yield f.result()
    finally:
        stop_workers(pool)


def compile_by_name(name: str, bot_names: tuple[str, ...], checked: bool = True) -> tuple[str, float]:
    """Compiles game ``name``'s loop for ``bot_names`` (one per seat, or one for every
    seat; default: its default bot), and with ``checked`` their Python-loop functions."""
    from .games import get

    game = get(name)
    params = game.params()
    if bot_names or not every_bot_loop():
        # the run's bots, one per seat of its own player count (compile_loop seats them)
        return name, compile_loop(game, [game.resolve_bot(n) for n in bot_names or (game.default_bot,)], checked)
    # The test suite's set-up: the loop holding every bot, and every bot's function for the
    # Python loop (one game each, at the strength its tests play).
    seconds = 0.0
    for info in game.bots.values():
        text = f"{info.name}:{info.tests}" if info.tests else info.name
        seconds += compile_loop(game, game.resolve_bots([text], params), checked=True)
    return name, seconds


def compile_games(names: list[str], bot_names: tuple[str, ...] = (), jobs: int = 0, say: Callable[[str], None] = print) -> None:
    """Compiles several games' loops for ``bot_names`` (default: each game's default
    bot), one process per game (``jobs`` 0: all cores)."""
    if not names:
        return
    jobs = min(worker_count(jobs), len(names))
    # Largest games first: with fewer processes than games, the long compilations then
    # overlap instead of one of them running alone at the end.
    names = sorted(names, key=lambda n: -sum(p.stat().st_size for p in _cache.compiled_files(n)))
    say(f"compiling {', '.join(names)} ({jobs} process{'es' if jobs > 1 else ''}; once, until their code changes)")
    if jobs == 1:
        for name in names:
            say("  %s: %.0f s" % compile_by_name(name, bot_names))
        return
    for result in _in_processes([(n, bot_names) for n in names], jobs):
        say("  %s: %.0f s" % result)
