"""How much stronger the searching bot is in EFTAIOS when a whole side plays it (issue 25).

The ladder asks what ONE searching seat gains among heuristic seats. Here every seat plays
the same bot, with the search used only on one side (``search:humans``, ``search:aliens``)
or on both, and the seeds are the heuristic self-play's: the same deal of sides, so the
gain of a side's seats is paired game by game (per game, the mean of that side's seats'
results; t interval over games).

    .venv/bin/python experiments/eftaios_side_strength.py [--players 2 4 6 8] [--games 2000] [--seed 11]

Measured (2,000 games a row, seed 11, Galilei, 2026-11-29, the search with ``cede=8``, before an
alien hunted in sampled worlds, ``search.hunt``; the alien columns are that earlier alien's):
points a seat of the side gains when all of its side search, against all heuristic.

| players | humans search: a human seat | one searching human (ladder) | aliens search: an alien seat | one searching alien (ladder) |
|---|---|---|---|---|
| 2 | +8.0 | +7.7 | +11.9 | +12.7 |
| 4 | +9.8 | +7.6 | +9.7 | +3.9 |
| 6 | +11.6 | +7.3 | +3.4 | +3.5 |
| 8 | +12.7 | +6.8 | +2.1 | -0.4 |

(The ladder's columns are the per-side split of one searching seat against heuristic,
seed 2026.) A human seat gains +9.8 to +12.7 points at 4 to 8 players when all humans search,
up to twice what one searching human gains among heuristic ones: a searching human's
bluffs draw the aliens' chase away from the other humans too, so part of its edge goes to
seats it does not play. An alien seat's gain shrinks with the table either way: the kills
are shared among more aliens. Before ``cede`` (the hatch another human is nearer to is left
to it), all humans searching gained +8.9/+8.9/+8.7/+10.2.

Searching humans also survive without escaping: at 8 players, 42.9% of the games of
all-searching humans end by time (49.6% without ``cede``), against 16.0% of heuristic ones,
and the aliens win those (R11.4; both sides can win an advanced game, R11.5), so an alien
seat's result rises too, 77.7% -> 86.3%. Playing straight for a hatch in the last rounds (a
``hurry=N`` option tried on 2026-11-29, before ``cede``: with fewer than N rounds to spare
after the way to a hatch, the heuristic's move without avoiding the aliens) changed the
one-seat margin by at most 0.2 points for N up to 10; never avoiding (N = 31) raised a human
seat's part to +6.5 at 8 players but lowered it at 2 and 4 (+4.2 and +2.5 against +7.0 and
+7.1), so the option was not kept.
"""

from __future__ import annotations

import argparse

import polars as pl

from simkit.games import get
from simkit.params import build
from simkit.runner import RunSpec, run
from simkit.stats import mean_interval

HUMAN, ALIEN = 0, 1


def side_results(game, params, bot: str, games: int, seed: int) -> pl.DataFrame:
    """Per game: the mean result of its human seats and of its alien seats."""
    frame = run(RunSpec(game, params, tuple(game.resolve_bots([bot], params)), games, seed, True), None,
                progress=False, jobs=2).frame
    side = pl.col("side").cast(pl.Int64)
    won = pl.col("won").cast(pl.Float64)
    return frame.group_by("game_index").agg(won.filter(side == HUMAN).mean().alias("human"),
                                            won.filter(side == ALIEN).mean().alias("alien")).sort("game_index")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 4, 6, 8])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    game = get("eftaios")
    for players in args.players:
        params = build(game.params, {"players": players}, "eftaios")
        base = side_results(game, params, "heuristic", args.games, args.seed)
        print(f"{players} players, all heuristic: a human seat wins {100 * base['human'].mean():.1f}%, "
              f"an alien seat {100 * base['alien'].mean():.1f}%")
        for bot, col in (("search:humans", "human"), ("search:aliens", "alien"), ("search", "human"), ("search", "alien")):
            gain = mean_interval((side_results(game, params, bot, args.games, args.seed)[col] - base[col]).drop_nulls().to_numpy())
            print(f"  {bot:14s} {'a human' if col == 'human' else 'an alien'} seat gains {100 * gain.estimate:+.1f} points [{100 * gain.lo:+.1f}, {100 * gain.hi:+.1f}]",
                  flush=True)


if __name__ == "__main__":
    main()
