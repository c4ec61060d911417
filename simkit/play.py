"""Playing a batch of games: the game's cached compiled loop when every seat has a
built-in bot, else (user bots, or checked play) the Python loop below, which drives
the same compiled rules through the game's protocol and checks every action."""

from __future__ import annotations

import contextlib
import hashlib
import os
from typing import Any

import numpy as np

from .errors import UserError
from .bots import Bot, call_user_bot
from .game import GameSpec
from .layout import MAX_SEATS
from .protocol import entries, game_loop
from .rng import BOT
from .loop import listing_bots


def simulate(game: GameSpec, params: Any, seeds: np.ndarray, table: np.ndarray, bots: list[Bot], checked: bool = False,
             first_index: int = 0, board: np.ndarray | None = None, secret: bytes | None = None) -> dict[str, np.ndarray]:
    """Plays one game per seed; ``table[g, seat]`` indexes ``bots``. Returns the output
    columns (per game 1-d, per seat ``(games, seats)``). ``first_index``: the run's
    index of the first game (for messages about a user bot); ``secret``: the run's key
    for user bots' generators (:func:`user_generator`)."""
    try:
        return _simulate(game, params, seeds, table, bots, checked, first_index, board, secret)
    except UserError:
        raise
    except Exception as exc:
        raise _damaged_cache(game, exc) or exc


def _damaged_cache(game: GameSpec, exc: BaseException) -> UserError | None:
    """The one line for compiled code that numba could not read back from the cache (a
    truncated or garbled file: a traceback on every run, and `simkit compile` too)."""
    import errno
    import traceback

    from ._cache import cache_folder

    frames = traceback.extract_tb(exc.__traceback__)
    if not any(f.filename.replace("\\", "/").endswith("numba/core/caching.py") for f in frames):
        return None
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM):
        # (it said "writing the output: No space left on device" with the output's disk far from full)
        return cache_unwritable(exc)
    return UserError(f"the compiled code of {game.name} in the cache cannot be read ({type(exc).__name__}: {exc}); "
                     f"delete {cache_folder(game.component)} and run again: it is compiled anew")


def cache_unwritable(exc: OSError) -> UserError:
    """The one line for a compile cache that cannot be written, found before compiling
    (:func:`simkit.compiled.check_cache_writable`) or while numba saves the code."""
    import errno

    from ._cache import cache_root

    full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
    return UserError(f"the compile cache {cache_root()} cannot be written ({exc.strerror or exc}); "
                     + ("free some space there, or point SIMKIT_CACHE_DIR at a folder with room" if full
                        else "point SIMKIT_CACHE_DIR at a folder you can write"))


def _simulate(game: GameSpec, params: Any, seeds: np.ndarray, table: np.ndarray, bots: list[Bot], checked: bool,
              first_index: int, board: np.ndarray | None, secret: bytes | None) -> dict[str, np.ndarray]:
    b = game.board(params) if board is None else board
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    table = np.ascontiguousarray(table)
    if checked or any(bot.fn is not None for bot in bots):
        game_raw, seat_raw = play_python(game, b, seeds, table, bots, first_index, secret)
    else:
        codes = np.ascontiguousarray(np.array([bot.code for bot in bots], np.int64)[table])
        flags = np.ascontiguousarray(np.array([bot.flags for bot in bots], np.int64)[table])
        out = game.outputs
        chunk = game_loop(game).play_chunk(bots_used(game, bots))
        # writable: ray hands a worker a pickled spec's arrays read-only, and numba would compile
        # the loop anew for read-only arrays (a minute or more)
        with ctrl_c_deferred():
            game_raw, seat_raw, stuck = chunk(seeds, np.require(b, requirements="W"), codes, flags,
                                              np.require(out.game_fields, requirements="W"),
                                              np.require(out.seat_fields, requirements="W"),
                                              out.seat_base, out.seat_stride, game.max_steps)
        if stuck >= 0:
            raise _endless(game, first_index + stuck, seeds[stuck])
    return game.outputs.columns_from(game_raw, seat_raw, params)


@contextlib.contextmanager
def ctrl_c_deferred():
    """Ctrl-C raised when the compiled loop has returned, not inside it: Python's handler,
    run at whatever point numba's wrapper calls back into Python (boxing the results), set
    an error there that it did not expect, and the process died of a segmentation fault
    (exit 139, no resume line; 1 to 4 in 18 early Ctrl-C of a one-process run). Only where
    Ctrl-C raises (a worker ignores it); a chunk lasts about 1.5 s."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    pressed = []
    signal.signal(signal.SIGINT, lambda *_: pressed.append(True))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if pressed:
        raise KeyboardInterrupt


def every_bot_loop() -> bool:
    """Whether the environment sets ``SIMKIT_EVERY_BOT_LOOP=1``: one compiled loop per game
    holding every bot (the test suite plays hundreds of bot mixes: one compilation per
    game then serves them all)."""
    return os.environ.get("SIMKIT_EVERY_BOT_LOOP") == "1"


def bots_used(game: GameSpec, bots: list[Bot]) -> int:
    """The bit set of the built-in bots the compiled loop is compiled for
    (``loop.play_chunk(used)``): those of the run, or every bot of the game
    (:func:`every_bot_loop`)."""
    if every_bot_loop():
        return (1 << len(game.strategies.CHOOSE)) - 1
    used = 0
    for bot in bots:
        if bot.fn is None:
            used |= 1 << bot.code
    return used


def user_generator(seed: int, secret: bytes) -> np.random.Generator:
    """A user bot's generator for the game with this seed: seeded by a keyed hash
    (BLAKE2b) of the seed under the run's secret, so that what a bot is given, even
    ``rng.bit_generator.seed_seq.entropy``, tells nothing of the seed or the chance stream
    (the bot streams of built-in bots are an invertible mix of the seed)."""
    digest = hashlib.blake2b(int(seed).to_bytes(8, "little"), key=secret, digest_size=32).digest()
    return np.random.default_rng(int.from_bytes(digest, "little"))


class Table:
    """One game being played from Python: the state, the streams, the bots' memory.
    ``secret``: the run's key for user bots' generators (a fresh one when not given)."""

    def __init__(self, game: GameSpec, b: np.ndarray, seed: int, secret: bytes | None = None):
        self.game = game
        self.E = game.engine
        self.fns = entries(game)
        self.b = b
        self.seed = int(seed)
        self.s, self.rng = self.fns.init_state(np.uint64(seed), b)
        self.brng = np.zeros(3, np.uint64)
        self.brng[BOT] = self.rng[BOT]
        self.mem = np.zeros((MAX_SEATS, max(int(game.strategies.MEMORY), 1)), np.int32)
        self.user_rng = user_generator(self.seed, os.urandom(32) if secret is None else secret)
        self.ib = np.empty(game.strategies.SCRATCH, np.int32)
        self.fb = np.empty(game.strategies.SCRATCH, np.float64)
        self.buf = np.empty(self.E.MAX_ACTIONS, np.int32)
        self.obs = np.zeros(max(int(self.E.OBS_SIZE), 1), np.int32)
        self.listing = listing_bots(game.strategies.BOTS)  # bots handed the legal actions in a perfect-information game

    def over(self) -> bool:
        return bool(self.fns.is_over(self.s))

    def to_move(self) -> int:
        return int(self.fns.to_move(self.s))

    def legal(self) -> np.ndarray:
        n = self.fns.legal_actions(self.s, self.b, self.buf)
        return self.buf[:n].copy()

    def observation(self, seat: int) -> np.ndarray:
        if self.E.PERFECT_INFORMATION:
            return self.s
        self.fns.observe(self.s, self.b, seat, self.obs)
        return self.obs

    def decide(self, bot: Bot, game_index: int) -> tuple[int, np.ndarray]:
        """The bot's action for the seat to move, and the legal actions it was checked against."""
        p = self.to_move()
        legal = self.legal()
        if len(legal) == 0:
            raise RuntimeError(f"{self.game.name}: a live game with no legal action (game {game_index})")
        obs = self.observation(p)
        if bot.fn is None:
            shown = legal[:0] if self.E.PERFECT_INFORMATION and not self.listing >> bot.code & 1 else legal.copy()
            a = int(self.fns.choose(bot.code, bot.flags, obs, shown, self.brng, self.b, self.mem[p, :self.game.strategies.MEMORY], self.ib, self.fb))
            if not np.any(legal == a):
                raise RuntimeError(f"built-in bot {bot.name!r} chose {a}, which is not legal (game {game_index}, seed {self.seed}): a bug")
        else:
            a = call_user_bot(bot.name, bot.fn, obs, legal, self.user_rng, game_index, self.seed)
        return a, legal

    def step(self, a: int) -> None:
        self.fns.apply_action(self.s, self.rng, self.b, int(a))


def play_python(game: GameSpec, b: np.ndarray, seeds: np.ndarray, table: np.ndarray, bots: list[Bot], first_index: int = 0,
                secret: bytes | None = None):
    """The compiled loop's games, played from Python: same rules, same streams, same
    outcomes, every action checked against the legal ones."""
    out = game.outputs
    n, seats = table.shape
    game_raw = np.zeros((n, len(out.game_fields)), np.int32)
    seat_raw = np.zeros((n, seats, len(out.seat_fields)), np.int32)
    for g in range(n):
        t = Table(game, b, seeds[g], secret)
        steps = 0
        while not t.over():
            if steps == game.max_steps:
                raise _endless(game, first_index + g, seeds[g])
            a, _ = t.decide(bots[table[g, t.to_move()]], first_index + g)
            t.step(a)
            steps += 1
        game_raw[g], seat_raw[g] = out.gather(t.s, seats)
    return game_raw, seat_raw


def _endless(game: GameSpec, index: int, seed) -> UserError:
    return UserError(f"{game.name}: game {index} (seed {int(seed)}) did not end within {game.max_steps:,} steps, "
                     "the game's step limit: a bot or rule that never ends it")
