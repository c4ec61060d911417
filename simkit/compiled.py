"""Compiling games ahead of their first run.

numba compiles a game's rules and bots the first time they are used (tens of seconds
for a large game) and caches the machine code per game (``simkit._cache``). ``make
install`` calls :func:`compile_games` so that the first ``simkit run`` only loads the
cache; the runner calls :func:`ensure_compiled`, which says what it is doing when a
game still has to be compiled (after an edit of its rules or bots).
"""

from __future__ import annotations

import time
from typing import Callable


from . import _cache
from .game import GameSpec


def compile_game(game: GameSpec) -> float:
    """Compiles (or loads) the game's compiled loop and the entry points the Python loop
    and ``Rules`` use; returns the seconds it took."""
    from .runner import bot_table
    from .seeding import game_seeds

    t0 = time.perf_counter()
    params = game.params()
    bots = game.resolve_bots([game.default_bot], params)
    seeds = game_seeds(0, 0, 1)
    table = bot_table(len(bots), 0, 1, False)
    game.simulate(params, seeds, table, bots)  # the compiled loop
    game.simulate(params, seeds, table, bots, checked=True)  # the entry points
    _cache.mark_compiled(game.component)
    return time.perf_counter() - t0


def ensure_compiled(games: list[GameSpec], say: Callable[[str], None] | None = None) -> None:
    """Compiles the games not in the cache yet, saying so first (``say``)."""
    for game in games:
        if _cache.is_compiled(game.component):
            continue
        if say is not None:
            say(f"compiling {game.name} rules and bots (once after install or a change of its code; up to a minute or two)")
        compile_game(game)


def _compile_by_name(name: str) -> tuple[str, float]:
    from .games import get

    return name, compile_game(get(name))


def compile_games(names: list[str], jobs: int = 0, say: Callable[[str], None] = print) -> None:
    """Compiles several games, one process per game (``jobs`` 0: all cores)."""
    from .runner import _jobs

    if not names:
        return
    jobs = min(_jobs(jobs), len(names))
    # Largest games first: with fewer processes than games, the long compilations then
    # overlap instead of one of them running alone at the end.
    names = sorted(names, key=lambda n: -sum(p.stat().st_size for p in _cache.compiled_files(n)))
    say(f"compiling {', '.join(names)} ahead of the first run ({jobs} process{'es' if jobs > 1 else ''}; a few minutes, once)")
    if jobs == 1:
        for name in names:
            say("  %s: %.0f s" % _compile_by_name(name))
        return
    import warnings

    from joblib import Parallel, delayed

    with warnings.catch_warnings():
        # loky restarts a worker whose memory grew (compiling a game takes plenty) and warns
        # about it; the game it compiled is done, and the next one goes to a fresh worker.
        warnings.filterwarnings("ignore", message="A worker stopped while some jobs were given to the executor")
        for result in Parallel(n_jobs=jobs, return_as="generator_unordered")(delayed(_compile_by_name)(n) for n in names):
            say("  %s: %.0f s" % result)
