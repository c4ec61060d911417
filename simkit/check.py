"""Regression checks of win-rate bands, decided sequentially like a chess engine's
test server decides a patch.

A bands file (TOML) holds defaults and one ``[[band]]`` table per check::

    alpha = 0.01        # optional defaults for every band
    beta = 0.01
    margin = 0.01       # indifference zone around each edge of a band
    batch = 2000        # games per batch
    max_games = 40000   # cap; then the fixed-sample verdict decides
    seed = 7

    [[band]]
    name = "ufs-threat1"
    game = "ufs"
    metric = "won"      # a boolean output column
    lo = 0.40
    hi = 0.55
    set = { threat = 1 }        # optional parameter overrides
    bots = ["greedy"]           # optional, by seat
    seat = 0                    # optional: only this seat's rows
    # alpha, beta, margin, batch, max_games, seed, rotate_seats may be overridden here

Each band plays seeded batches; after each, two one-sided SPRTs (one per edge, see
:func:`simkit.stats.band_sprt`) say inside, outside or undecided. At the cap the
Wilson interval decides. A band only *fails* when its evidence of lying outside
survives Holm's correction over all bands of the file (p-value of the exact binomial
test against the nearer edge), so a file of many bands does not fail by chance.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from scipy.stats import binomtest

from .datafiles import data_error as _fail
from .datafiles import read
from .errors import UserError
from .games import get
from .params import build
from .runner import RunSpec, _jobs, _Pending, execute
from .stats import Interval, band_sprt, holm, holm_adjusted, wilson

DEFAULTS = {"alpha": 0.01, "beta": 0.01, "margin": 0.01, "batch": 2000, "max_games": 40000, "seed": 0}
BAND_KEYS = {"name", "game", "metric", "lo", "hi", "seat", "set", "bots", "rotate_seats", "command", "note", *DEFAULTS}


@dataclasses.dataclass(frozen=True)
class Band:
    name: str
    spec: RunSpec
    metric: str
    lo: float
    hi: float
    seat: int | None
    alpha: float
    beta: float
    margin: float
    batch: int  # the cap on games is spec.n_games


@dataclasses.dataclass
class Verdict:
    band: Band
    games: int
    successes: int
    sprt: str  # inside, outside-low, outside-high, or undecided (cap reached)
    p_outside: float  # p-value of "the rate lies outside the band"
    failed: bool = False
    p_adjusted: float = 1.0  # Holm-adjusted over the bands of the file

    @property
    def interval(self) -> Interval:
        return wilson(self.successes, self.games)

    @property
    def below(self) -> bool:
        """Whether the observed rate lies below the band (else above it, when outside)."""
        return self.interval.estimate < self.band.lo


def load(path: Path) -> list[Band]:
    path = Path(path)
    doc, _ = read(str(path), "bands file")
    top = {k: v for k, v in doc.items() if k != "band"}
    unknown = set(top) - set(DEFAULTS)
    if unknown:
        raise _fail(path, "top level", f"unknown key(s) {', '.join(sorted(unknown))}; known: band, {', '.join(DEFAULTS)}")
    bands_doc = doc.get("band")
    if not isinstance(bands_doc, list) or not bands_doc:
        raise _fail(path, "band", "needs at least one [[band]] table")
    bands, names = [], set()
    for i, raw in enumerate(bands_doc):
        where = f"band #{i + 1}" + (f" ({raw['name']})" if isinstance(raw.get("name"), str) else "")
        unknown = set(raw) - BAND_KEYS
        if unknown:
            raise _fail(path, where, f"unknown key(s) {', '.join(sorted(unknown))}")
        for key in ("name", "game", "metric"):
            if not isinstance(raw.get(key), str):
                raise _fail(path, where, f"needs {key} = \"...\"")
        if raw["name"] in names:
            raise _fail(path, where, "duplicate band name")
        names.add(raw["name"])
        opts = {**DEFAULTS, **top, **{k: raw[k] for k in DEFAULTS if k in raw}}
        for key in ("lo", "hi"):
            if not isinstance(raw.get(key), (int, float)) or isinstance(raw.get(key), bool) or not 0 <= raw[key] <= 1:
                raise _fail(path, where, f"needs {key} = a rate between 0 and 1")
        if raw["lo"] > raw["hi"]:
            raise _fail(path, where, "lo is above hi")
        for key in ("alpha", "beta", "margin"):
            if not isinstance(opts[key], (int, float)) or not 0 < opts[key] < 0.5:
                raise _fail(path, where, f"{key} must be between 0 and 0.5")
        for key in ("batch", "max_games", "seed"):
            if not isinstance(opts[key], int) or opts[key] < (0 if key == "seed" else 1):
                raise _fail(path, where, f"{key} must be a positive integer")
        try:
            game = get(raw["game"])
            sets = raw.get("set", {})
            if not isinstance(sets, dict):
                raise UserError("set must be a table, e.g. set = { threat = 1 }")
            params = build(game.params, sets, game.name)
            if game.validate is not None:
                game.validate(params)
            bots = raw.get("bots", [])
            if not isinstance(bots, list):
                raise UserError("bots must be a list, e.g. bots = [\"greedy\"]")
            bots = tuple(game.resolve_bots(bots, params))
        except UserError as exc:
            raise _fail(path, where, str(exc)) from None
        seat = raw.get("seat")
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < game.seats(params)):
            raise _fail(path, where, f"seat must be 0..{game.seats(params) - 1}")
        spec = RunSpec(game, params, bots, opts["max_games"], opts["seed"], bool(raw.get("rotate_seats", False)))
        bands.append(Band(raw["name"], spec, raw["metric"], float(raw["lo"]), float(raw["hi"]), seat,
                          float(opts["alpha"]), float(opts["beta"]), float(opts["margin"]), opts["batch"]))
    return bands


def _values(band: Band, frame: pl.DataFrame) -> np.ndarray:
    """One observation per game: the band's seat, or seat 0 for a per-game column."""
    game = band.spec.game
    if band.metric not in frame.columns:
        raise UserError(f"band {band.name}: {game.name} has no output column {band.metric!r}; columns: {', '.join(frame.columns)}")
    if band.seat is None and game.seats(band.spec.params) > 1 and band.metric not in game.game_columns:
        raise UserError(f"band {band.name}: {band.metric!r} is a per-seat column of a {game.seats(band.spec.params)}-seat game; give seat = N")
    col = frame.filter(pl.col("seat") == (band.seat or 0))[band.metric]
    if col.dtype != pl.Boolean:
        raise UserError(f"band {band.name}: metric {band.metric!r} is not a yes/no column")
    return col.to_numpy()


def p_outside(successes: int, n: int, lo: float, hi: float) -> float:
    """Exact binomial p-value against the nearer edge: small when the rate is clearly
    below ``lo`` or above ``hi``; 1 when the observed rate is inside the band."""
    rate = successes / n
    if rate < lo:
        return binomtest(successes, n, lo, alternative="less").pvalue
    if rate > hi:
        return binomtest(successes, n, hi, alternative="greater").pvalue
    return 1.0


def decide(band: Band, jobs: int = 1, progress=None) -> Verdict:
    """Plays seeded batches until the SPRT decides or the cap is reached."""
    successes = 0
    games = 0
    outcome = "continue"
    cap = band.spec.n_games
    while games < cap and outcome == "continue":
        stop = min(cap, games + band.batch)
        chunk = max(1, -(-(stop - games) // max(jobs, 1)))
        pending = _Pending(band.spec, None, {}, chunk, {}, [(a, min(stop, a + chunk)) for a in range(games, stop, chunk)])
        execute([pending], jobs, "loky", None, progress or (lambda n: None))
        values = _values(band, pl.concat([f for _, f in sorted(pending.frames.items())]))
        successes += int(values.sum())
        games = stop
        outcome = band_sprt(successes, games, band.lo, band.hi, band.margin, band.alpha, band.beta)
    sprt = outcome if outcome != "continue" else "undecided"
    return Verdict(band, games, successes, sprt, p_outside(successes, games, band.lo, band.hi))


def check(path: Path, jobs: int = 1, only: list[str] | None = None, progress=None) -> list[Verdict]:
    """Decides every band of the file; marks as failed those outside after Holm's correction."""
    bands = load(path)
    if only:
        unknown = set(only) - {b.name for b in bands}
        if unknown:
            raise UserError(f"{path}: no band named {', '.join(sorted(unknown))}")
        bands = [b for b in bands if b.name in only]
    jobs = _jobs(jobs)
    verdicts = [decide(b, jobs, progress) for b in bands]
    alpha = min(b.alpha for b in bands)
    pvals = [v.p_outside for v in verdicts]
    rejected = holm(pvals, alpha)
    for v, r, adj in zip(verdicts, rejected, holm_adjusted(pvals)):
        v.failed = bool(r) and v.sprt != "inside"
        v.p_adjusted = float(adj)
    return verdicts


def describe(v: Verdict) -> dict[str, Any]:
    ci = v.interval
    b = v.band
    if v.failed:
        verdict = f"FAIL: below {b.lo:.3f}" if v.below else f"FAIL: above {b.hi:.3f}"
    elif v.sprt == "inside":
        verdict = "inside"
    elif v.sprt == "undecided":
        verdict = "holds (cap reached, consistent with the band)"
    else:
        verdict = f"holds ({v.sprt} not significant after Holm)"
    return {"band": b.name, "range": f"[{b.lo:.3f}, {b.hi:.3f}]", "games": f"{v.games:,}",
            "rate [95% CI]": f"{ci.estimate:.4f} [{ci.lo:.4f}, {ci.hi:.4f}]", "verdict": verdict}
