"""Regression checks of rate bands, decided sequentially with anytime-valid tests.

A bands file (TOML) holds defaults and one ``[[band]]`` table per check::

    alpha = 0.01   # false-alarm rate of the whole file: the chance that any band fails
                   # or ends undecided while every rate is inside its band
    beta = 0.01    # miss rate: the chance that a band whose rate has moved by its
                   # `detect` does not fail within its cap
    batch = 2000   # games between two looks at the data
    seed = 7
    detect = 0.02  # size of change each band must catch (may be set per band)

    [[band]]
    name = "ufs-threat1"
    game = "ufs"
    metric = "won"          # a yes/no output column
    centre = 0.101          # the rate the band is built around (a large run)
    lo = 0.0975             # optional (0 if absent): a band with lo = 0 or no hi is one-sided
    hi = 0.1045             # optional (1 if absent)
    set = { threat = 1 }    # optional parameter overrides
    bots = ["greedy"]       # optional, by seat
    seat = 1                # only this seat's rows (needed for a per-seat column of a multi-seat game)
    max_games = 21000       # optional cap; the smallest cap that keeps the error rates if absent
    # detect, batch, seed, rotate_seats and note may be set here too

After every batch the running count is read by the anytime-valid tests of
:class:`simkit.stats.BandTest`: a band **fails low** (or **high**) when its rate is
shown to lie below ``lo`` (above ``hi``), **holds** when it is shown not to have
moved by ``detect`` from ``centre``, and is **undecided** if neither happens by its
cap. Each band gets ``alpha / (number of bands)`` of the false-alarm rate
(Bonferroni), so the file's guarantees hold together, for any batch size:

* every rate inside its band: nothing fails or ends undecided, except with
  probability at most ``alpha``;
* a rate at ``centre - detect`` or below, or ``centre + detect`` or above: that band
  fails within its cap with probability at least ``1 - beta``.

The whole file is validated (types, keys, games, parameters, metrics against the
game's output columns, caps against the error rates) before any game is played.
"""

from __future__ import annotations

import dataclasses
import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from .datafiles import data_error as _fail
from .datafiles import read
from .errors import UserError
from .games import get
from .params import build
from .compiled import ensure_compiled
from .runner import MAX_CHUNK, RunSpec, execute, kept_workers, plan_chunks
from .stats import CONTINUE, FAIL_LOW, HOLDS, BandTest, Interval, verdict_at

UNDECIDED = "undecided"
DEFAULTS = {"alpha": 0.01, "beta": 0.01, "detect": 0.02, "batch": 2000, "seed": 0}
BAND_KEYS = {"name", "game", "metric", "centre", "lo", "hi", "max_games", "seat", "set", "bots", "rotate_seats", "note", *DEFAULTS}


@dataclasses.dataclass(frozen=True)
class Band:
    name: str
    spec: RunSpec  # its n_games is the cap
    metric: str
    seat: int | None
    test: BandTest
    batch: int
    family: int  # bands in the file (alpha is split over them)
    note: str = ""

    @property
    def cap(self) -> int:
        return self.spec.n_games

    @property
    def lo(self) -> float:
        return self.test.lo

    @property
    def hi(self) -> float:
        return self.test.hi


@dataclasses.dataclass
class Verdict:
    band: Band
    games: int
    successes: int
    verdict: str  # holds, fails low, fails high or undecided

    @property
    def failed(self) -> bool:
        """A fail or an undecided band: either makes CI fail."""
        return self.verdict != HOLDS

    @property
    def interval(self) -> Interval:
        """The anytime-valid interval the fail tests used (see BandTest.interval)."""
        return self.band.test.interval(self.successes, self.games)

    @property
    def below(self) -> bool:
        return self.verdict == FAIL_LOW


def _number(raw: dict, key: str, lo: float, hi: float, where: str, path: Path, default=None, open_ends: bool = False) -> float:
    value = raw.get(key, default)
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if ok:
        ok = lo < value < hi if open_ends else lo <= value <= hi
    if not ok:
        rng = f"strictly between {lo} and {hi}" if open_ends else f"between {lo} and {hi}"
        raise _fail(path, where, f"{key} must be a number {rng}, got {value!r}")
    return float(value)


def _integer(raw: dict, key: str, least: int, where: str, path: Path, most: int = 10**9) -> int:
    """An integer setting; 1e9 games is far beyond any regression check (hours per band)."""
    value = raw.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= most:
        raise _fail(path, where, f"{key} must be an integer from {least:,} to {most:,}, got {value!r}")
    return value


def load(path: Path) -> list[Band]:
    """Reads and validates the whole bands file; raises UserError (one line) on the first problem."""
    path = Path(path)
    doc, _ = read(str(path), "bands file")
    top = {k: v for k, v in doc.items() if k != "band"}
    unknown = set(top) - set(DEFAULTS)
    if unknown:
        raise _fail(path, "top level", f"unknown key(s) {', '.join(sorted(unknown))}; known: band, {', '.join(DEFAULTS)}")
    bands_doc = doc.get("band")
    if not isinstance(bands_doc, list) or not bands_doc or not all(isinstance(b, dict) for b in bands_doc):
        raise _fail(path, "band", "needs one or more [[band]] tables")
    k = len(bands_doc)
    bands, names, probes = [], set(), {}
    for i, raw in enumerate(bands_doc):
        where = f"band #{i + 1}" + (f" ({raw['name']})" if isinstance(raw.get("name"), str) else "")
        unknown = set(raw) - BAND_KEYS
        if unknown:
            hint = "; margin is now detect, the size of change to catch" if "margin" in unknown else ""
            raise _fail(path, where, f"unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(BAND_KEYS))}{hint}")
        for key in ("name", "game", "metric"):
            if not isinstance(raw.get(key), str) or not raw[key]:
                raise _fail(path, where, f"needs {key} = \"...\"")
        if raw["name"] in names:
            raise _fail(path, where, "duplicate band name")
        names.add(raw["name"])
        opts = {**DEFAULTS, **top, **{key: raw[key] for key in DEFAULTS if key in raw}}
        alpha = _number(opts, "alpha", 0.0, 0.5, where, path, open_ends=True)
        beta = _number(opts, "beta", 0.0, 0.5, where, path, open_ends=True)
        detect = _number(opts, "detect", 0.0, 1.0, where, path, open_ends=True)
        batch = _integer(opts, "batch", 1, where, path)
        seed = _integer(opts, "seed", 0, where, path, 2**63 - 1)
        if "centre" not in raw:
            raise _fail(path, where, "needs centre = the rate the band is built around (e.g. a large run's)")
        centre = _number(raw, "centre", 0.0, 1.0, where, path)
        lo = _number(raw, "lo", 0.0, 1.0, where, path, default=0.0)
        hi = _number(raw, "hi", 0.0, 1.0, where, path, default=1.0)
        if "lo" not in raw and "hi" not in raw:
            raise _fail(path, where, "needs lo, hi or both")
        if lo > hi:
            raise _fail(path, where, "lo is above hi")
        if not lo <= centre <= hi:
            raise _fail(path, where, f"centre {centre} lies outside [lo, hi] = [{lo}, {hi}]")
        try:
            test = BandTest(lo, hi, centre, detect, alpha / k, beta)
        except ValueError as exc:
            raise _fail(path, where, str(exc)) from None
        for key in ("rotate_seats",):
            if key in raw and not isinstance(raw[key], bool):
                raise _fail(path, where, f"{key} must be true or false, got {raw[key]!r}")
        note = raw.get("note", "")
        if not isinstance(note, str):
            raise _fail(path, where, "note must be a string")
        try:
            game = get(raw["game"])
            sets = raw.get("set", {})
            if not isinstance(sets, dict):
                raise UserError("set must be a table, e.g. set = { threat = 1 }")
            params = build(game.params, sets, game.name)
            if game.validate is not None:
                game.validate(params)
            bots = raw.get("bots", [])
            if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
                raise UserError("bots must be a list of bot names, e.g. bots = [\"greedy\"]")
            bots = tuple(game.resolve_bots(bots, params))
        except UserError as exc:
            raise _fail(path, where, str(exc)) from None
        seats = game.seats(params)
        seat = raw.get("seat")
        if seat is not None and not (isinstance(seat, int) and not isinstance(seat, bool) and 1 <= seat <= seats):
            raise _fail(path, where, f"seat must be an integer 1..{seats}, got {seat!r}")
        try:
            required = test.required_cap()
        except ValueError as exc:
            raise _fail(path, where, str(exc)) from None
        most = max(required, DEFAULTS["batch"])
        if batch > most:  # (the cap is rounded up to whole batches: 10^9 games were started without a word)
            raise _fail(path, where, f"batch {batch:,} is more games than the band's tests need in all ({required:,}); "
                                     f"give a batch of at most {most:,}")
        need = int(math.ceil(required / batch) * batch)
        if "max_games" in raw:
            cap = _integer(raw, "max_games", 1, where, path)
            if cap < need:
                raise _fail(path, where, f"max_games {cap:,} is too small to keep alpha {alpha:g} over {k} bands and "
                                         f"catch a change of {detect:g} with power {1 - beta:g}; it needs at least {need:,}")
        else:
            cap = need
        spec = RunSpec(game, params, bots, cap, seed, bool(raw.get("rotate_seats", False)))
        key = (game.name, repr(params), tuple(b.name for b in bots))
        if key not in probes:
            probes[key] = _output_columns(spec)
        _check_metric(path, where, raw["metric"], probes[key], seat, seats)
        bands.append(Band(raw["name"], spec, raw["metric"], seat, test, batch, k, note))
    return bands


def _check_metric(path: Path, where: str, metric: str, columns: dict[str, tuple[bool, bool]], seat, seats: int) -> None:
    if metric not in columns:
        raise _fail(path, where, f"metric {metric!r} is not an output column; yes/no columns: "
                                 f"{', '.join(c for c, (is_bool, _) in columns.items() if is_bool)}")
    is_bool, per_seat = columns[metric]
    if not is_bool:
        raise _fail(path, where, f"metric {metric!r} is not a yes/no column")
    if per_seat and seats > 1 and seat is None:
        raise _fail(path, where, f"{metric!r} is a per-seat column of a {seats}-seat game; give seat = N")


# -- the two places that touch the game contract and the runner ----------------------------

def _output_columns(spec: RunSpec) -> dict[str, tuple[bool, bool]]:
    """Each output column of the run: (yes/no?, per seat?), from the game's output
    table, so that a bad metric is found before any game is played."""
    def is_bool(c) -> bool:
        return c.dtype is not None and c.dtype is not object and np.dtype(c.dtype) == np.bool_

    return {c.name: (is_bool(c), c.per == "seat") for c in spec.game.outputs.columns}


@dataclasses.dataclass
class _Look:
    """The new games of one look, ``start .. stop - 1`` of the band's run, counted as their
    chunks arrive and then dropped: a look costs its own games, whatever the batch
    (game i has the same seed whatever the batch)."""

    band: Band
    start: int
    stop: int
    chunk: int
    secret: bytes | None
    successes: int = 0
    out: Path | None = None  # a look is written nowhere: a check saves no games

    @property
    def spec(self) -> RunSpec:
        return self.band.spec

    def todo(self):
        return plan_chunks(self.stop, self.chunk, [(0, self.start)] if self.start else [])

    def store(self, a: int, b: int, frame: pl.DataFrame, secs: float, warm: bool = False) -> None:
        self.successes += int(_values(self.band, frame).sum())


def _successes(band: Band, start: int, stop: int, jobs: int, chunk: int, secret: bytes) -> int:
    """Successes among games ``start .. stop - 1`` of the band's run (``secret``: the
    run's key for user bots' generators)."""
    look = _Look(band, start, stop, chunk, secret)
    execute([look], jobs, "loky", None, lambda n: None)
    return look.successes


def _values(band: Band, frame: pl.DataFrame) -> np.ndarray:
    """One observation per game: the band's seat, or seat 1 for a per-game column."""
    return frame.filter(pl.col("seat") == (band.seat or 1))[band.metric].to_numpy()


def decide(band: Band, jobs: int = 1) -> Verdict:
    """Plays batches of the band's seeded games until its tests decide or the cap is reached."""
    looks = list(range(band.batch, band.cap, band.batch)) + [band.cap]
    bounds = band.test.boundaries(looks)
    chunk = min(MAX_CHUNK, -(-band.batch // max(jobs, 1)))
    ensure_compiled([(band.spec.game, band.spec.bots)])
    successes = played = 0
    secret = os.urandom(32)
    for j, n in enumerate(looks):
        successes += _successes(band, played, n, jobs, chunk, secret)
        played = n
        verdict = verdict_at(successes, *(int(b[j]) for b in bounds))
        if verdict != CONTINUE:
            return Verdict(band, n, successes, verdict)
    return Verdict(band, band.cap, successes, UNDECIDED)


def check(path: Path, jobs: int = 1, only: list[str] | None = None) -> list[Verdict]:
    """Validates the whole file, then decides every band (or those named in ``only``)."""
    from .workers import worker_count

    bands = load(path)
    if only:
        unknown = set(only) - {b.name for b in bands}
        if unknown:
            raise UserError(f"{path}: no band named {', '.join(sorted(unknown))}")
        bands = [b for b in bands if b.name in only]
    jobs = worker_count(jobs)
    with kept_workers():  # a band's looks are small plays in a row
        return [decide(b, jobs) for b in bands]


def _pts(x: float) -> str:
    """A rate in percent with enough digits for rare rates."""
    return f"{100 * x:.2f}" if x >= 0.01 or x == 0 else f"{100 * x:.3f}"


def describe(v: Verdict) -> dict[str, Any]:
    """One row of the check's table."""
    b = v.band
    t = b.test
    ci = v.interval
    rng = f"<= {_pts(b.hi)}%" if b.lo == 0 else (f">= {_pts(b.lo)}%" if b.hi == 1 else f"{_pts(b.lo)}-{_pts(b.hi)}%")
    if v.verdict == HOLDS:
        verdict = "holds"
    elif v.verdict == UNDECIDED:
        verdict = "UNDECIDED at cap"
    else:
        verdict = f"FAIL: {'below' if v.below else 'above'} band"
    return {"band": b.name, "range": rng, f"catches (power {1 - t.beta:.0%})": t.describe_detect(),
            "games": f"{v.games:,}/{b.cap:,}",
            f"rate (anytime {100 * (1 - t.fail_level * t.edges):.3g}% interval)": f"{_pts(ci.estimate)}% [{_pts(ci.lo)}, {_pts(ci.hi)}]",
            "verdict": verdict}


def numbers(v: Verdict) -> dict[str, Any]:
    """One band's verdict for machines: numbers under keys that do not depend on the file
    (rates as fractions; ``lo``, ``hi``: the anytime-valid interval the fail tests used, at
    confidence ``level``; ``band_lo``, ``band_hi``: the band)."""
    b, t, ci = v.band, v.band.test, v.interval
    return {"band": b.name, "game": b.spec.game.name, "metric": b.metric, "seat": b.seat, "verdict": v.verdict,
            "rate": ci.estimate, "lo": ci.lo, "hi": ci.hi, "level": 1 - t.fail_level * t.edges,
            "successes": v.successes, "games": v.games, "max_games": b.cap,
            "band_lo": b.lo, "band_hi": b.hi, "centre": t.centre, "detect": t.detect, "power": 1 - t.beta}


def message(v: Verdict) -> str:
    """The line CI prints for a band that did not hold."""
    b, ci = v.band, v.interval
    level = f"anytime-valid {100 * (1 - b.test.fail_level * b.test.edges):.3g}% interval"
    if v.verdict == UNDECIDED:
        return (f"band {b.name} undecided at its cap of {b.cap:,} games: rate {_pts(ci.estimate)}% ({level} "
                f"[{_pts(ci.lo)}, {_pts(ci.hi)}]) neither left the band nor was shown within {100 * b.test.detect:.3g} "
                f"pts of {_pts(b.test.centre)}%; treated as a failure (with every rate inside its band this happens "
                f"with probability at most {0.1 * b.test.alpha:.2g})")
    edge = f"below its lower edge {_pts(b.lo)}%" if v.below else f"above its upper edge {_pts(b.hi)}%"
    return (f"band {b.name} failed: rate {_pts(ci.estimate)}% over {v.games:,} games, {level} "
            f"[{_pts(ci.lo)}, {_pts(ci.hi)}], is {edge}")
