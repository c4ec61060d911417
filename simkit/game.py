"""The contract every game fulfils, and how bots are named.

A game is a package under ``simkit/games/<name>/`` that exposes ``SPEC``, a
:class:`GameSpec`: its parameters (a frozen dataclass), its built-in bots, and a
``simulate`` function that plays a batch of seeded games and returns one row per
game and seat as NumPy arrays. The rules themselves live in the package's compiled
``engine`` module as "array state + action -> array state" functions.
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any, Callable

import numpy as np

from .errors import UserError


@dataclasses.dataclass(frozen=True)
class BotInfo:
    """A built-in bot: its dispatch code and the options it accepts (name -> bit flag)."""

    name: str
    code: int
    help: str
    options: dict[str, int] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Bot:
    """A bot chosen for a run.

    Built-in bots run inside the compiled game loop (``code`` >= 0, ``flags`` from
    their options). A user bot (``--bot package.module:name``) is a Python callable
    ``fn(state, legal_actions, rng) -> action``; games with a user bot at the table run
    in the slower Python loop over the same compiled rules.
    """

    name: str
    code: int = -1
    flags: int = 0
    fn: Callable | None = None


def compiled_table(bots: list[Bot], table: np.ndarray, checked: bool = False):
    """The bot codes and option flags of every game and seat, for a compiled game loop,
    or None when the Python loop must run (a user bot, or ``checked`` play)."""
    if checked or any(b.fn is not None for b in bots):
        return None
    codes = np.array([b.code for b in bots], np.int64)[table]
    flags = np.array([b.flags for b in bots], np.int64)[table]
    return codes, flags


@dataclasses.dataclass(frozen=True)
class GameSpec:
    name: str  # short name used on the command line, e.g. "ufs"
    slug: str  # long name used for reports and docs, e.g. "under-falling-skies"
    title: str
    params: type
    bots: dict[str, BotInfo]
    default_bot: str
    seats: Callable[[Any], int]
    seat_range: tuple[int, int]
    simulate: Callable[..., dict[str, np.ndarray]]
    columns: dict[str, str]
    data_version: Callable[[Any], str]
    summary_means: tuple[str, ...] = ()  # numeric columns whose means the run summary shows
    compare_metrics: tuple[str, ...] = ()  # further columns `simkit compare` reports
    game_columns: tuple[str, ...] = ()  # output columns that describe the whole game, not a seat
    summarize: Callable[[Any], list[str]] | None = None  # extra summary lines from a frame
    trace: Callable[..., Any] | None = None  # (params, bots, seed, index) -> lines of one game
    validate: Callable[[Any], None] | None = None  # reads data files; raises UserError if bad
    rules: Callable[[Any], Any] | None = None  # params -> step-by-step Rules object (see games/ufs/api.py)
    max_steps: int = 10_000  # a game taking more steps than this is a bug (conformance suite)
    test_variants: tuple[dict, ...] = ({},)  # parameter overrides the conformance suite covers
    report: str | None = None  # "module:function" building the balance report
    experiment: str | None = None  # the experiment file behind the committed report

    def resolve_bot(self, text: str) -> Bot:
        """A bot from its command-line name.

        ``NAME`` or ``NAME:OPT+OPT`` for a built-in bot, ``package.module:attr`` for a
        user's own bot.
        """
        name, _, opts = text.partition(":")
        if name in self.bots:
            info = self.bots[name]
            flags = 0
            for opt in filter(None, opts.split("+")):
                if opt not in info.options:
                    known = ", ".join(info.options) or "none"
                    raise UserError(f"bot {name!r} of {self.name} has no option {opt!r}; options: {known}")
                flags |= info.options[opt]
            return Bot(name=text, code=info.code, flags=flags)
        if opts and name.replace(".", "").replace("_", "").isalnum():
            try:
                module = importlib.import_module(name)
            except ImportError as exc:
                raise UserError(f"cannot import bot module {name!r} ({exc}); check the module path and PYTHONPATH") from None
            fn = getattr(module, opts, None)
            if not callable(fn):
                raise UserError(f"{text!r}: module {name} has no callable {opts!r}")
            return Bot(name=text, fn=fn)
        known = ", ".join(self.bots)
        raise UserError(f"unknown bot {text!r} for {self.name}; built-in bots: {known}, or give package.module:function")

    def resolve_bots(self, texts: list[str] | tuple[str, ...], params: Any) -> list[Bot]:
        """One bot per seat: a single bot fills every seat; otherwise one per seat in seat order."""
        seats = self.seats(params)
        texts = list(texts) or [self.default_bot]
        if len(texts) == 1:
            texts = texts * seats
        if len(texts) != seats:
            raise UserError(f"{self.name} with these parameters has {seats} seats but {len(texts)} bots were given; give one --bot, or one per seat")
        return [self.resolve_bot(t) for t in texts]
