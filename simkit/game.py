"""The contract every game fulfils, its output table, and how bots are named.

A game is a package ``simkit/games/<name>/`` (rules) plus ``strategies/<name>/``
(bots), registered by one line in ``simkit/games/__init__.py``. The package's
``SPEC`` (a :class:`GameSpec`) only *declares*: its parameters, its compiled engine
module, its board builder, its bots, its output table and its text descriptions.
Loops, traces, recording and output tables are the core's (``simkit.loop``,
``simkit.play``, ``simkit.trace``, ``simkit.rules``).

The engine module provides, compiled with numba (``docs/adding-a-game.md``):

* ``init_state(seed, b) -> (s, rng)``, ``legal_actions(s, b, out) -> n``,
  ``apply_action(s, rng, b, a)``, ``to_move(s) -> seat``, ``is_over(s) -> bool``,
  ``observe(s, b, seat, out)`` (what that seat may see, ``OBS_SIZE`` ints);
* ``STATE`` (a :class:`simkit.layout.Layout`), ``ACTIONS`` (a
  :class:`simkit.layout.ActionSpace`), ``MAX_ACTIONS = ACTIONS.size``, ``OBS_SIZE`` and
  ``PERFECT_INFORMATION`` (True when the observation is the whole state).

The bots module provides ``CHOOSE``, one function per bot code, each called as
``(flags, obs, legal, rng, b, mem, ib, fb) -> action`` (:data:`CHOOSE_ARGS`; ``legal`` lists
the legal actions, except in a perfect-information game for a bot without
``BotInfo(legal=True)``, which computes what it needs from the state), ``BOTS``
(name -> :class:`BotInfo`), ``SCRATCH`` and ``MEMORY`` (sizes of the scratch arrays and of
each seat's memory). :func:`simkit.conformance.check_contract` checks all of this.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import numpy as np

from .bots import Bot, load_user_bot
from .errors import UserError


@dataclasses.dataclass(frozen=True)
class Number:
    """A numeric bot option, written ``NAME=N`` (``search:budget=64``): an integer in
    ``lo .. hi``, ``default`` when not given. It travels to the compiled bot in the bits of
    ``flags`` from ``shift`` up (``hi.bit_length()`` of them), above the bot's bit flags;
    the bot reads it back as ``(flags >> shift) & ((1 << bits) - 1)``."""

    lo: int
    hi: int
    default: int
    shift: int
    help: str = ""

    def __post_init__(self):
        if not 0 <= self.lo <= self.default <= self.hi:
            raise ValueError(f"a numeric option needs 0 <= lo <= default <= hi, not {self.lo}, {self.default}, {self.hi}")
        if self.shift < 0 or self.shift + self.bits > 62:
            raise ValueError("a numeric option's bits must lie within the 62 low bits of flags")

    @property
    def bits(self) -> int:
        return self.hi.bit_length()

    @property
    def mask(self) -> int:
        """The option's bits within ``flags``."""
        return ((1 << self.bits) - 1) << self.shift

    def describe(self, name: str) -> str:
        return f"{name}=N ({self.lo}-{self.hi}, default {self.default})"


@dataclasses.dataclass(frozen=True)
class BotInfo:
    """A built-in bot: its dispatch code and the options it accepts: name -> bit flag
    (``NAME:OPT``), or name -> :class:`Number` (``NAME:OPT=N``).

    ``tests``: the options the test suites play this bot with (conformance, plain Python,
    goldens on every test variant), for a bot whose default strength is too slow there
    (a searching bot at a small budget). ``exclusive``: groups of switches of which at most
    one may be given (``one-mission`` and ``two-missions``: together they would play neither)."""

    name: str
    code: int
    help: str
    options: dict[str, int | Number] = dataclasses.field(default_factory=dict)
    tests: str = ""
    exclusive: tuple[tuple[str, ...], ...] = ()
    legal: bool = False  # in a perfect-information game, hand it the legal actions (listing them costs each of its decisions)

    def __post_init__(self):
        used = 0
        for opt, spec in self.options.items():
            mask = spec.mask if isinstance(spec, Number) else spec
            if mask <= 0 or used & mask:
                raise ValueError(f"bot {self.name}: option {opt!r} needs bits of flags of its own")
            used |= mask
        for group in self.exclusive:
            if any(opt not in self.options for opt in group):
                raise ValueError(f"bot {self.name}: exclusive options {group} are not all options of the bot")

    @property
    def test_name(self) -> str:
        """The bot as the test suites play it."""
        return f"{self.name}:{self.tests}" if self.tests else self.name

    def option_names(self) -> list[str]:
        """The options as a user writes them (``no-extra``, ``budget=N (1-4096, default 16)``)."""
        return [spec.describe(opt) if isinstance(spec, Number) else opt for opt, spec in self.options.items()]

    def flags_for(self, text: str, game: str) -> int:
        """The flags of ``OPT+OPT=N`` (validated; numbers not given take their defaults)."""
        flags = 0
        numbers = {opt: spec.default for opt, spec in self.options.items() if isinstance(spec, Number)}
        given: set[str] = set()
        for opt in filter(None, text.split("+")):
            key, eq, value = opt.partition("=")
            spec = self.options.get(key)
            if spec is None:
                known = ", ".join(self.option_names()) or "none"
                raise UserError(f"bot {self.name!r} of {game} has no option {key!r}; options: {known}")
            if key in given:
                raise UserError(f"bot {self.name!r}: option {key!r} given twice")
            given.add(key)
            if isinstance(spec, Number):
                if not eq or not value:
                    raise UserError(f"bot {self.name!r}: option {key!r} needs a number: {spec.describe(key)}")
                if not re.fullmatch(r"-?[0-9]+", value):
                    raise UserError(f"bot {self.name!r}: {key}={value!r} is not a whole number; {spec.describe(key)}")
                number = int(value)
                if not spec.lo <= number <= spec.hi:
                    raise UserError(f"bot {self.name!r}: {key}={number} is out of range; {spec.describe(key)}")
                numbers[key] = number
            elif eq:
                raise UserError(f"bot {self.name!r}: option {key!r} takes no value")
            else:
                flags |= spec
        for group in self.exclusive:
            both = [opt for opt in group if opt in given]
            if len(both) > 1:
                raise UserError(f"bot {self.name!r}: options {both[0]!r} and {both[1]!r} exclude each other; give one")
        for key, number in numbers.items():
            flags |= number << self.options[key].shift
        return flags


# ---- output table -----------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Column:
    """One output column: per game or per seat, read from a state field at the end of
    the game (``field``: an offset in the state, or inside a seat's record) and turned
    into values by ``convert``, or derived from other columns by ``derive(cols, params)``."""

    name: str
    per: str  # "game" or "seat"
    meaning: str
    field: int | None = None
    dtype: Any = np.int32
    convert: Callable[[np.ndarray], np.ndarray] | None = None
    derive: Callable[[dict[str, np.ndarray], Any], np.ndarray] | None = None

    def __post_init__(self):
        if self.per not in ("game", "seat"):
            raise ValueError(f"column {self.name}: per must be 'game' or 'seat'")
        if (self.field is None) == (self.derive is None):
            raise ValueError(f"column {self.name}: give exactly one of field or derive")


def game_column(name: str, field: int, meaning: str, dtype: Any = np.int32, convert=None) -> Column:
    return Column(name, "game", meaning, field=field, dtype=dtype, convert=convert)


def seat_column(name: str, field: int, meaning: str, dtype: Any = np.int32, convert=None) -> Column:
    return Column(name, "seat", meaning, field=field, dtype=dtype, convert=convert)


def derived_column(name: str, per: str, derive, meaning: str, dtype: Any = None) -> Column:
    return Column(name, per, meaning, derive=derive, dtype=dtype)


class OutputTable:
    """A game's outputs: the columns of ``games.parquet`` beyond the core's
    ``game_index``, ``seed``, ``seat`` and ``bot``. ``won`` (per seat, or per game in a
    one-seat game) is required. ``seat_block`` is the state's per-seat record that
    seat columns read (a :class:`simkit.layout.SeatBlock`), if any."""

    def __init__(self, columns: list[Column], seat_block=None):
        self.columns = list(columns)
        names = [c.name for c in self.columns]
        if len(set(names)) != len(names):
            raise ValueError("duplicate output column names")
        if "won" not in names:
            raise ValueError("an output table needs a 'won' column")
        self.seat_block = seat_block
        self.game_fields = np.array([c.field for c in self.columns if c.per == "game" and c.field is not None], np.int64)
        self.seat_fields = np.array([c.field for c in self.columns if c.per == "seat" and c.field is not None], np.int64)
        if len(self.seat_fields) and seat_block is None:
            raise ValueError("seat columns need the state's seat_block")

    @property
    def seat_base(self) -> int:
        return 0 if self.seat_block is None else int(self.seat_block.base)

    @property
    def seat_stride(self) -> int:
        return 0 if self.seat_block is None else int(self.seat_block.stride)

    @property
    def meanings(self) -> dict[str, str]:
        return {c.name: c.meaning for c in self.columns}

    @property
    def game_columns(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns if c.per == "game")

    def gather(self, s: np.ndarray, seats: int) -> tuple[np.ndarray, np.ndarray]:
        """The raw fields of one finished game's state ``s``: its game fields and each seat's
        (the compiled loop's ``simkit.loop.record`` does the same inside compiled code)."""
        seat_at = self.seat_base + np.arange(seats)[:, None] * self.seat_stride + self.seat_fields[None, :]
        return s[self.game_fields], s[seat_at]

    def columns_from(self, game_raw: np.ndarray, seat_raw: np.ndarray, params: Any) -> dict[str, np.ndarray]:
        """The output columns from the raw fields the loops recorded (``game_raw[g, j]``,
        ``seat_raw[g, p, j]``): per-game columns 1-d, per-seat columns ``(games, seats)``."""
        out: dict[str, np.ndarray] = {}
        gj = sj = 0
        for c in self.columns:
            if c.derive is not None:
                continue
            if c.per == "game":
                raw = game_raw[:, gj]
                gj += 1
            else:
                raw = seat_raw[:, :, sj]
                sj += 1
            values = c.convert(raw) if c.convert is not None else raw
            out[c.name] = values if c.dtype is object else np.asarray(values).astype(c.dtype)
        for c in self.columns:
            if c.derive is not None:
                values = c.derive(out, params)
                out[c.name] = values if c.dtype is None else np.asarray(values).astype(c.dtype)
        return {c.name: out[c.name] for c in self.columns}


# ---- the game spec ----------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Text:
    """How traces and notebooks put a game into words; never read by the rules, so
    editing it changes no outcome. Each function gets the parameters first."""

    describe_action: Callable[..., str]  # (params, s, b, a) -> text, before the step
    describe_state: Callable[..., str]  # (params, s, b) -> text; several lines (of at most 100 characters) if long
    describe_step: Callable[..., str | None] | None = None  # (params, before, after, b, a) -> text, or None to omit the step
    describe_setup: Callable[..., str] | None = None  # (params, s, b) -> what was dealt, at a trace's start
    describe_result: Callable[..., str] | None = None  # (params, s, b) -> the end of a traced game
    trace_mark: Callable[[np.ndarray], int] | None = None  # traces print the state when this changes (e.g. the round)
    trace_legend: str = ""  # what the symbols and terms of the trace mean (newlines allowed)


@dataclasses.dataclass(frozen=True)
class Analysis:
    """What the balance analysis asks of a game. ``questions``, ``report`` and
    ``sensitivity`` name "module:attribute" in files outside the outcome hash
    (``questions.py``, ``report.py``, ``sensitivity.py``), so that editing an analysis
    never makes finished runs stale.

    ``questions``: the balance questions (:mod:`simkit.questions`) every report, `simkit
    run` and `simkit tune` answer; ``report``: a builder of extra, game-specific sections
    (optional: without one, `simkit report` composes a default report from the
    questions); ``experiment``: the experiment file behind the committed report."""

    questions: str | None = None
    summary_means: tuple[str, ...] = ()  # numeric columns whose means the run summary shows
    compare_metrics: tuple[str, ...] = ()  # further columns `simkit compare` reports
    report: str | None = None
    experiment: str | None = None
    sensitivity: str | None = None  # the readings of unclear rules and the headline figures (simkit.sensitivity)
    ladder: tuple[str, ...] = ()  # bots weakest first for `simkit bench --ladder` (default: every built-in bot, as declared)


@dataclasses.dataclass(frozen=True)
class Checks:
    """What the conformance suite and the goldens check a game with."""

    invariants: Callable[[np.ndarray, np.ndarray], list[str]]  # broken invariants of (s, b)
    variants: tuple[dict, ...] = ({},)  # parameter overrides the conformance suite and the goldens cover
    template: bool = False  # the contributors' template game (not a shipped game)


@dataclasses.dataclass(frozen=True)
class GameSpec:
    """A game's declaration: its rules (the fields below), and three records the rules
    never read: ``text`` (traces), ``analysis`` (balance questions and reports) and
    ``checks`` (test settings)."""

    name: str  # short name used on the command line, e.g. "ufs" (also the folder name)
    slug: str  # long name used for reports and docs, e.g. "under-falling-skies"
    title: str
    params: type  # frozen dataclass of settings (simkit.params.setting)
    engine: ModuleType  # the compiled protocol (see the module docstring)
    strategies: ModuleType  # BOTS, choose, SCRATCH, MEMORY
    board: Callable[[Any], np.ndarray]  # params -> board vector; reads and checks data files (UserError)
    data_version: Callable[[Any], str]  # params -> version of the data files read (content hash)
    outputs: OutputTable
    default_bot: str
    seats: Callable[[Any], int]
    seat_range: tuple[int, int]
    text: Text
    checks: Checks
    analysis: Analysis = Analysis()
    max_steps: int = 10_000  # the declared maximum length of a game in steps: more is a bug

    def __reduce__(self):
        # Worker processes look the game up by name instead of unpickling modules.
        return (_registered_game, (self.name,))

    # -- what the core derives from the declaration --
    @property
    def bots(self) -> dict[str, BotInfo]:
        return self.strategies.BOTS

    @property
    def columns(self) -> dict[str, str]:
        return self.outputs.meanings

    @property
    def game_columns(self) -> tuple[str, ...]:
        return self.outputs.game_columns

    @property
    def folders(self) -> tuple[Path, Path]:
        """The folders of the rules package and of the bots package."""
        return Path(inspect.getfile(self.engine)).parent, Path(inspect.getfile(self.strategies)).parent

    @property
    def outcome_hash(self) -> str:
        from ._cache import outcome_hash

        return outcome_hash(*self.folders)

    @property
    def component(self) -> str:
        """The name of the game's compile-cache folder (its folder name)."""
        return self.folders[0].name

    def validate(self, params: Any) -> None:
        """Reads the data files the parameters name (UserError if they are bad)."""
        self.board(params)

    def resolve_bot(self, text: str) -> Bot:
        """A bot from its command-line name.

        ``NAME`` or ``NAME:OPT+OPT`` for a built-in bot, where an option is a switch
        (``strategic:no-extra``) or a number (``search:budget=64``); ``package.module:attr``
        or ``path/to/file.py:attr`` for a user's own bot.
        """
        name, _, opts = text.partition(":")
        if name in self.bots:
            info = self.bots[name]
            return Bot(name=text, code=info.code, flags=info.flags_for(opts, self.name))
        known = ", ".join(self.bots)
        if opts and name.endswith(".py"):
            return load_user_bot(name, opts, text)
        if opts and name.replace(".", "").replace("_", "").isalnum():
            try:
                return load_user_bot(name, opts, text)
            except UserError as exc:
                if "." in name or "cannot import" not in str(exc):
                    raise
                raise UserError(f"unknown bot {name!r} for {self.name}; built-in bots: {known}; "
                                f"for a bot of your own give module:function (no module {name!r} here)") from None
        raise UserError(f"unknown bot {text!r} for {self.name}; built-in bots: {known}, or give package.module:function "
                        "or path/to/file.py:function")

    def resolve_bots(self, texts: list[str] | tuple[str, ...], params: Any) -> list[Bot]:
        """One bot per seat: a single bot fills every seat; otherwise one per seat in seat order."""
        seats = self.seats(params)
        texts = list(texts) or [self.default_bot]
        if len(texts) == 1:
            texts = texts * seats
        if len(texts) != seats:
            raise UserError(f"{self.name} with these parameters has {seats} seat{'s' if seats != 1 else ''} but {len(texts)} bots "
                            "were given; give one --bot, or one per seat")
        return [self.resolve_bot(t) for t in texts]


# The protocol functions and the arguments the compiled loop passes them (simkit.loop).
PROTOCOL = (
    ("engine", "init_state", ("seed", "b")),
    ("engine", "legal_actions", ("s", "b", "out")),
    ("engine", "apply_action", ("s", "rng", "b", "a")),
    ("engine", "to_move", ("s",)),
    ("engine", "is_over", ("s",)),
    ("engine", "observe", ("s", "b", "seat", "out")),
)
CHOOSE_ARGS = ("flags", "obs", "legal", "rng", "b", "mem", "ib", "fb")  # a built-in bot's function (strategies CHOOSE)


def _registered_game(name: str) -> GameSpec:
    # The one arrow up from the declarations: a pickled game is looked up by name in the
    # registry (worker processes would otherwise unpickle modules).
    from .games import get

    return get(name)
