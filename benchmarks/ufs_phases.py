"""Where an Under Falling Skies game spends its time: CPU cycles per game, split by
decision point (placing a die, the rooms phase, spawning ...) into the bot's choice
and the engine's step that follows it.

    .venv/bin/python benchmarks/ufs_phases.py [--bot greedy] [--games 20000] [--set threat=1 ...]

Cycles are read from the processor's time-stamp counter around each call, inside the
compiled loop, so the figures are those of the real game loop (warm caches, branch
predictors shared with the engine), not of a function timed alone. The counter ticks
at a fixed rate, so on this guest 1 µs is about 2,450 cycles. Use it to find what to
speed up; use `simkit bench` to measure games per second.
"""

from __future__ import annotations

import argparse

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from simkit.games import get
from simkit.games.ufs import board as board_mod
from simkit.games.ufs.engine import P_OVER, PHASE, apply_action, init_state
from simkit.params import build, parse_assignments
from simkit.seeding import game_seeds
from strategies.ufs import SCRATCH, choose

PHASES = ["place a die", "Washington's six", "rooms phase", "place a robot", "spawn a ship"]


@intrinsic
def cycles(typingctx):
    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.readcyclecounter", fnty=ir.FunctionType(ir.IntType(64), []))
        return builder.call(fn, [])

    return types.int64(), codegen


@njit
def profile(seeds, b, code, flags):
    ib = np.zeros(SCRATCH, np.int32)
    fb = np.zeros(SCRATCH, np.float64)
    bot = np.zeros(6, np.int64)
    engine = np.zeros(6, np.int64)
    count = np.zeros(6, np.int64)
    start = cycles()
    for g in range(seeds.shape[0]):
        s, rng = init_state(seeds[g], b)
        while s[PHASE] != P_OVER:
            phase = s[PHASE]
            t1 = cycles()
            a = choose(code, flags, s, rng, b, ib, fb)
            t2 = cycles()
            apply_action(s, rng, b, a)
            t3 = cycles()
            bot[phase] += t2 - t1
            engine[phase] += t3 - t2
            count[phase] += 1
    return bot, engine, count, cycles() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--set", action="append", default=[], dest="sets")
    args = parser.parse_args()
    game = get("ufs")
    params = build(game.params, parse_assignments(args.sets), game.name)
    bot = game.resolve_bot(args.bot)
    if bot.fn is not None:
        raise SystemExit("only built-in bots can be profiled")
    b = board_mod.build(params)
    seeds = game_seeds(1, 0, args.games)
    profile(seeds[:5], b, bot.code, bot.flags)  # compile
    bot_c, engine_c, count, total = profile(seeds, b, bot.code, bot.flags)
    n = len(seeds)
    print(f"{args.bot}, {n:,} games: {total / n:,.0f} cycles per game, bot {bot_c.sum() / total:.0%}, engine {engine_c.sum() / total:.0%}")
    print(f"{'decision':18s} {'per game':>9s} {'bot cycles/decision':>20s} {'bot cycles/game':>16s} {'engine cycles/game':>19s}")
    for p, name in enumerate(PHASES):
        if count[p]:
            print(f"{name:18s} {count[p] / n:9.1f} {bot_c[p] / count[p]:20,.0f} {bot_c[p] / n:16,.0f} {engine_c[p] / n:19,.0f}")


if __name__ == "__main__":
    main()
