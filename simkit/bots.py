"""A bot chosen for a run (:class:`Bot`), the table of which bot plays which seat in each
game (:func:`bot_table`), and users' own bots: ``--bot package.module:function`` or
``--bot path/to/file.py:function``.

A user bot is ``fn(observation, legal, rng) -> action``. It is given copies, so
nothing it writes reaches the game; what it returns must be one of ``legal`` (an
integer). Anything else it does — raise, return ``None`` or text, call ``sys.exit``
— stops the run with one line naming the bot, the game and what happened.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import importlib
import inspect
import os
import sys
from pathlib import Path
from typing import Callable

import numpy as np

from .errors import UserError


@dataclasses.dataclass(frozen=True)
class Bot:
    """A bot chosen for a run.

    Built-in bots run inside the compiled game loop (``code`` >= 0, ``flags`` from
    their options). A user bot (``--bot package.module:name``) is a Python callable
    ``fn(observation, legal, rng) -> action``: ``observation`` is what its seat may see
    (the whole state in games without hidden information), ``legal`` the legal
    actions, ``rng`` a numpy Generator seeded from the game's seed and a secret of the run. It gets
    copies, so nothing it writes reaches the game. Games with a user bot at the table
    run in the Python loop over the same compiled rules, every action checked.
    """

    name: str
    code: int = -1
    flags: int = 0
    fn: Callable | None = None
    source: str | None = None  # a user bot: hash of its module file when it was loaded
    path: str | None = None  # a user bot: its module file

    def __reduce__(self):
        if self.fn is None:
            return (Bot, (self.name, self.code, self.flags))
        # Worker processes import the user's module again, from the same file.
        return (reload_user_bot, (self.name, self.path, self.source))


def bot_table(n_seats: int, start: int, stop: int, rotate: bool) -> np.ndarray:
    """``table[g, seat]``: index into the run's bot list for each game and seat."""
    seats = np.arange(n_seats)
    games = np.arange(start, stop)
    if not rotate:
        return np.broadcast_to(seats, (stop - start, n_seats)).copy()
    return (seats[None, :] + games[:, None]) % n_seats


def _digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def load_user_bot(module_name: str, attr: str, text: str):
    """The user's bot ``module_name:attr`` as a :class:`Bot`: the module is
    imported (the current folder is searched too) and its file's content hashed, so that
    a run's identity changes when the bot does; a module that fails to import is one
    line, not a traceback."""

    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.append(cwd)  # a bot file in the current folder works without PYTHONPATH
    file = None
    if module_name.endswith(".py"):  # a file's path (bots/mine.py:choose), as a user types it
        file = Path(module_name).expanduser()
        if not file.is_file():
            what = "a folder" if file.is_dir() else "no file"
            raise UserError(f"bot {text!r}: {module_name} is {what}; give path/to/file.py:function or module:function")
        file = file.resolve()
        if str(file.parent) not in sys.path:
            sys.path.append(str(file.parent))  # (its own imports; appended, so that a json.py shadows nothing)
    try:
        with _exit_refused(), _signals_kept():
            # a file is its own module, under a name of its own: two bot.py files in two folders
            # are two bots (the second was the first, by its module name: a hostile review)
            module = _import_file(file) if file is not None else importlib.import_module(module_name)
    except _ExitCalled as exc:
        raise UserError(f"bot {text!r}: importing {module_name} called os._exit({exc.args[0]}); a bot module must not end the process") from None
    except ModuleNotFoundError as exc:
        if exc.name and not (module_name == exc.name or module_name.startswith(exc.name + ".")):
            # the bot's module was found; a module it imports was not
            raise UserError(f"bot {text!r}: importing {module_name} failed: {_one_line(exc)} (install it, or remove the import)") from None
        raise UserError(f"bot {text!r}: cannot import {module_name!r} ({exc}); check the module path, or run from the folder that holds it") from None
    except SyntaxError as exc:
        raise UserError(f"bot {text!r}: {exc.filename}:{exc.lineno}: syntax error ({exc.msg})") from None
    except BaseException as exc:  # noqa: BLE001 - the user's module ran and failed
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise UserError(f"bot {text!r}: importing {module_name} failed: {type(exc).__name__}: {_one_line(exc)}") from None
    fn = getattr(module, attr, None)
    if not callable(fn):
        raise UserError(f"bot {text!r}: module {module_name} has no callable {attr!r}")
    try:
        sig = inspect.signature(fn)
        sig.bind(None, None, None)
    except TypeError:
        raise UserError(f"bot {text!r}: {attr} must take three arguments (observation, legal, rng)") from None
    except ValueError:
        pass  # no signature to inspect (a builtin): let the call decide
    path = getattr(module, "__file__", None)
    return Bot(name=text, fn=fn, path=path, source=_digest(path) if path else None)


def _import_file(file: Path):
    """The module of a bot file, named by its path's hash (the same name in every process)."""
    import importlib.util

    name = f"simkit_user_bot_{hashlib.sha256(str(file).encode()).hexdigest()[:12]}_{file.stem.replace('.', '_')}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


@contextlib.contextmanager
def _signals_kept():
    """A bot module that sets Ctrl-C or SIGTERM to be ignored when imported does so in the
    command's own process: it outlived a SIGTERM for 120 s (a hostile review). Its handlers
    are put back after the import."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in before.items():
            if handler is not None and signal.getsignal(s) is not handler:
                signal.signal(s, handler)


def reload_user_bot(text: str, path: str | None, source: str | None):
    """The same bot in a worker process, from the same file; refuses a file that
    changed since the run started (the run would mix two versions of the bot)."""
    module_name, _, attr = text.partition(":")
    if module_name.endswith(".py") and path is not None:  # (a worker's folder need not be the command's)
        module_name = path
    elif path is not None:
        folder = str(Path(path).parent)
        if folder not in sys.path:
            sys.path.insert(0, folder)
    try:
        bot = load_user_bot(module_name, attr, text)
        if source is not None and bot.source != source:
            raise UserError(_changed(text, path))
    except UserError as exc:
        # Said when the bot is first asked, as the chunk's own error: raised here, while the
        # worker unpickles its task, it ended the worker and read 'a worker process died ...
        # out of memory?' (a hostile review edited a bot file during a run)
        return Bot(name=text, fn=_Unloadable(str(exc)), path=path, source=source)
    return bot


def _changed(name: str, path) -> str:
    return (f"bot {name!r}: {path} changed during the run; the finished games are kept: restore the file to resume "
            "this run, or give another --out to play the new version")


class _Unloadable:
    """A bot a worker could not load again: asked for an action, it says why."""

    def __init__(self, message: str):
        self.message = message

    def __call__(self, observation, legal, rng):
        raise UserError(self.message)


def check_unchanged(bots) -> None:
    """Refuses to play with a user bot whose file changed since it was loaded."""
    for bot in bots:
        if bot.fn is not None and bot.path and bot.source and _digest(bot.path) != bot.source:
            raise UserError(_changed(bot.name, bot.path))


class _ExitCalled(BaseException):
    """A user's module or bot called ``os._exit``: raised in its place (see :func:`_exit_refused`)."""


@contextlib.contextmanager
def _exit_refused():
    """``os._exit`` called by this thread (the user's code) raises :class:`_ExitCalled`
    instead of ending simkit without a word (exit 0, nothing said, in ``trace`` or while
    a bot module was imported); other threads (a worker's watchdog) still exit."""
    import threading

    real, me = os._exit, threading.get_ident()

    def refused(code=0):
        if threading.get_ident() != me:
            real(code)
        raise _ExitCalled(code)

    os._exit = refused
    try:
        yield
    finally:
        os._exit = real


def _ctrl_c_ignored() -> bool:
    """In a worker process, which ignores Ctrl-C (the main process handles it), a
    KeyboardInterrupt can only be the bot's own: it was reported as the user's Ctrl-C,
    with a resume line whose rerun failed the same way."""
    import signal

    try:
        return signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    except ValueError:
        return False


@contextlib.contextmanager
def _ctrl_c_noted(pressed: list[int]):
    """While a bot plays in the main thread: ``pressed`` becomes [0], then [1] if Ctrl-C
    comes. A KeyboardInterrupt without it is the bot's own (`simkit trace` took one for
    the user's Ctrl-C: exit 130, "interrupted"). Elsewhere ``pressed`` stays empty."""
    import signal
    import threading

    before = signal.getsignal(signal.SIGINT) if threading.current_thread() is threading.main_thread() else None
    if not callable(before):  # another thread, or Ctrl-C ignored or left to the system
        yield
        return

    def noted(signum, frame):
        pressed[0] = 1
        before(signum, frame)

    pressed.append(0)
    signal.signal(signal.SIGINT, noted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _one_line(exc: BaseException) -> str:
    try:
        text = str(exc).strip().splitlines()
    except Exception:  # noqa: BLE001 - a user's exception whose __str__ raises
        return ""
    return (text[0] if text else "")[:200]


def call_user_bot(name: str, fn: Callable, obs: np.ndarray, legal: np.ndarray, rng: np.random.Generator,
                  game_index: int, seed: int) -> int:
    """The bot's action, checked: an integer among ``legal``, or a one-line UserError."""
    where = f"bot {name!r} in game {game_index} (seed {seed})"
    pressed: list[int] = []
    try:
        # What a bot prints goes to stderr: stdout may carry the run's JSON or CSV summary.
        with contextlib.redirect_stdout(sys.stderr), _exit_refused(), _ctrl_c_noted(pressed):
            a = fn(obs.copy(), legal.copy(), rng)
    except BaseException as exc:  # noqa: BLE001 - a user bot may raise anything, sys.exit included
        if isinstance(exc, KeyboardInterrupt) and not _ctrl_c_ignored() and pressed != [0]:
            raise
        if isinstance(fn, _Unloadable):
            raise UserError(fn.message) from None
        if isinstance(exc, _ExitCalled):
            raise UserError(f"{where} called os._exit({exc.args[0]}); a bot returns an action, it must not end the process") from None
        detail = _one_line(exc)
        raise UserError(f"{where} raised {type(exc).__name__}" + (f": {detail}" if detail else "")) from None
    if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)):
        try:
            shown = repr(a)
        except Exception:  # noqa: BLE001 - a user's object whose __repr__ raises
            shown = "an object"
        if len(shown) > 60:
            shown = shown[:57] + "..."
        raise UserError(f"{where} returned {shown} ({type(a).__name__}); return one of the legal actions, an int")
    # int's own conversion: an int subclass's __int__ or __eq__ is the user's code, and may raise
    a = int.__int__(a) if isinstance(a, int) else int(a)
    if not np.any(legal == a):
        shown = legal.tolist() if len(legal) <= 12 else legal[:12].tolist() + ["..."]
        raise UserError(f"{where} chose {a}, which is not legal here (legal: {shown})")
    return a
