"""Golden outcomes: a committed fingerprint of seeded games per game, variant and bot.

For every registered game, ``cases(game)`` lists the cases: each test variant and each
non-default value of every setting with a fixed set of values, each built-in bot (and
its options), seats rotated in games with several seats. A case plays ``games`` seeded
games and keeps a digest of every output column plus a few readable figures (win rate
per seat, means of the game's summary columns), so that a change of outcomes fails
``tests/test_golden.py`` and its review shows what moved.

Updating is one deliberate command, ``make goldens`` (``python -m simkit.golden
--update``), which rewrites ``tests/golden/<game>.json``; the diff shows in review.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from .params import build, describe

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"
SEED = 20261126


@dataclasses.dataclass(frozen=True)
class Case:
    game: Any
    sets: dict
    bots: tuple[str, ...]
    games: int

    @property
    def key(self) -> str:
        sets = ",".join(f"{k}={v}" for k, v in sorted(self.sets.items())) or "defaults"
        return f"{sets} | {'/'.join(self.bots)}"


def _games_per_case(game) -> int:
    return 300 if game.seat_range[1] > 1 else 600


def cases(game) -> list[Case]:
    """Test variants x every built-in bot, plus each other reading of each setting with
    the default bot (and each alternative reading the game's sensitivity declaration
    names, and each bot switch once).

    A bot with test options (``BotInfo.tests``: a searching bot at a small budget) plays
    the test variants with them, in a tenth of the games, and its default strength once on
    the default rules, in a hundredth (at least 2): their digests still change with any
    decision, and the suite stays fast."""
    n = _games_per_case(game)
    out: dict[str, Case] = {}

    def games_for(text: str) -> int:
        info = game.bots.get(text.partition(":")[0])
        if info is None or not info.tests:
            return n
        return max(2, n // 100) if text == info.name else n // 10

    def add(sets: dict, bots: tuple[str, ...]) -> None:
        c = Case(game, dict(sets), bots, min(games_for(t) for t in bots))
        out.setdefault(c.key, c)

    for variant in game.checks.variants:
        for bot in game.bots.values():
            add(variant, (bot.test_name,))
    for info in describe(game.params):
        values = (True, False) if info.type is bool else info.choices or ()
        for v in values:
            if v != info.default:
                add({info.name: v}, (game.default_bot,))
    if game.analysis.sensitivity:  # readings that are not a choice of values, e.g. built-in data file variants
        from .sensitivity import declaration

        for reading in declaration(game).readings:
            for v in reading.values:
                add({reading.setting: v}, (game.default_bot,))
    for name, bot in game.bots.items():
        if bot.tests:
            add({}, (name,))
        for opt, spec in bot.options.items():
            if isinstance(spec, int):  # switches; numbers are covered by the cases above
                add({}, (f"{name}:{opt}" + (f"+{bot.tests}" if bot.tests else ""),))
    seats = game.seat_range[1]
    if seats > 1 and len(game.bots) > 1:
        infos = list(game.bots.values())  # at their test strength, so the mix plays a tenth of the games, not a hundredth
        mixed = tuple(infos[i % len(infos)].test_name for i in range(game.seats(build(game.params, {}, game.name))))
        add({}, mixed)
    return list(out.values())


def _canonical(frame: pl.DataFrame) -> bytes:
    """Bytes that change exactly when some output value changes (whatever the dtypes)."""
    h = hashlib.sha256()
    frame = frame.sort(["game_index", "seat"])
    for name in sorted(frame.columns):
        col = frame[name]
        h.update(name.encode() + b"\x00")
        if col.dtype == pl.Boolean or col.dtype.is_integer():
            h.update(col.cast(pl.Int64, wrap_numerical=True).fill_null(-(2**62)).to_numpy().tobytes())
        elif col.dtype.is_float():
            h.update(np.round(col.cast(pl.Float64).fill_null(np.nan).to_numpy(), 12).tobytes())
        else:
            h.update("\x1f".join("\x01" if v is None else str(v) for v in col.to_list()).encode())
    return h.digest()


def play_case(case: Case) -> dict[str, Any]:
    from .runner import RunSpec, play_range

    game = case.game
    params = build(game.params, case.sets, game.name)
    bots = tuple(game.resolve_bots(list(case.bots), params))
    spec = RunSpec(game, params, bots, case.games, SEED, rotate_seats=game.seats(params) > 1)
    frame = play_range(spec, 0, case.games)
    frame = frame.select(["game_index", "seed", "seat", "bot", *game.outputs.meanings])  # outcomes, not parameters
    seats = game.seats(params)
    won = frame.group_by("seat").agg(pl.col("won").cast(pl.Float64).mean()).sort("seat")["won"].to_list()
    means = {c: round(float(frame[c].cast(pl.Float64).mean()), 4) for c in game.analysis.summary_means if c in frame.columns}
    return {
        "games": case.games,
        "seats": seats,
        "digest": _canonical(frame).hex()[:24],
        "won_by_seat": [round(w, 4) for w in won],
        "means": means,
    }


def compute(game) -> dict[str, Any]:
    return {c.key: play_case(c) for c in cases(game)}


def path_for(game) -> Path:
    return GOLDEN_DIR / f"{game.name}.json"


def load(game) -> dict[str, Any]:
    p = path_for(game)
    return json.loads(p.read_text()) if p.exists() else {}


def main(argv: list[str] | None = None) -> int:
    from .games import REGISTRY, get

    ap = argparse.ArgumentParser(prog="python -m simkit.golden", description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", help="games to cover (default: all)")
    ap.add_argument("--update", action="store_true", help="rewrite tests/golden/<game>.json")
    args = ap.parse_args(argv)
    names = args.games or list(REGISTRY)
    changed = 0
    for name in names:
        game = get(name)
        new = compute(game)
        old = load(game)
        moved = sorted(k for k in new if old.get(k, {}).get("digest") != new[k]["digest"])
        gone = sorted(set(old) - set(new))
        changed += len(moved) + len(gone)
        for k in moved:
            before = old.get(k)
            what = "new case" if before is None else f"won {before['won_by_seat']} -> {new[k]['won_by_seat']}"
            print(f"{name}: {k}: {what}")
        for k in gone:
            print(f"{name}: {k}: case removed")
        if args.update:
            GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
            path_for(game).write_text(json.dumps(new, indent=1, sort_keys=True) + "\n")
        print(f"{name}: {len(new)} cases, {len(moved)} changed, {len(gone)} removed" + (" (written)" if args.update else ""))
    return 1 if changed and not args.update else 0


if __name__ == "__main__":
    sys.exit(main())
