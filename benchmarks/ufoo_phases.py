"""Where a Ufo.O game spends its time: processor cycles per game, split by decision point
(movement, attack, push) into the bot's choice and the engine's step that follows it.

    .venv/bin/python benchmarks/ufoo_phases.py [--bot tactical] [--games 20000] [--set fire_lines=any ...]

Cycles are read from the time-stamp counter around each call inside the compiled loop
(the same way as benchmarks/ufs_phases.py). Use it to find what to speed up; use
`simkit bench ufoo` to measure games per second.
"""

from __future__ import annotations

import argparse

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from simkit.games import get
from simkit.games.ufoo import board as board_mod
from simkit.games.ufoo.engine import OVER, PHASE, TO_MOVE, apply_action, init_state
from simkit.params import build, parse_assignments
from simkit.seeding import game_seeds
from strategies.ufoo import MEMORY, SCRATCH, choose

PHASES = ["movement", "attack", "push"]


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
    mem = np.zeros((2, MEMORY), np.int32)
    legal = np.zeros(0, np.int32)
    bot = np.zeros(3, np.int64)
    engine = np.zeros(3, np.int64)
    count = np.zeros(3, np.int64)
    init = 0
    start = cycles()
    for g in range(seeds.shape[0]):
        t0 = cycles()
        s, rng = init_state(seeds[g], b)
        init += cycles() - t0
        mem[:, :] = 0
        brng = rng.copy()
        while s[OVER] == 0:
            phase = s[PHASE]
            p = s[TO_MOVE]
            t1 = cycles()
            a = choose(code, flags, s, legal, brng, b, mem[p], ib, fb)
            t2 = cycles()
            apply_action(s, rng, b, a)
            t3 = cycles()
            bot[phase] += t2 - t1
            engine[phase] += t3 - t2
            count[phase] += 1
    return bot, engine, count, init, cycles() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="tactical")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--set", action="append", default=[], dest="sets")
    args = parser.parse_args()
    game = get("ufoo")
    params = build(game.params, parse_assignments(args.sets), game.name)
    bot = game.resolve_bot(args.bot)
    b = board_mod.build(params)
    seeds = game_seeds(1, 0, args.games)
    profile(seeds[:5], b, bot.code, bot.flags)  # compile
    bot_c, engine_c, count, init, total = profile(seeds, b, bot.code, bot.flags)
    n = len(seeds)
    print(f"{args.bot}, {n:,} games: {total / n:,.0f} cycles per game, bot {bot_c.sum() / total:.0%}, engine {engine_c.sum() / total:.0%}, "
          f"setup {init / total:.0%}")
    print(f"{'decision':10s} {'per game':>9s} {'bot cycles/decision':>20s} {'bot cycles/game':>16s} {'engine cycles/decision':>23s} {'engine cycles/game':>19s}")
    for p, name in enumerate(PHASES):
        if count[p]:
            print(f"{name:10s} {count[p] / n:9.1f} {bot_c[p] / count[p]:20,.0f} {bot_c[p] / n:16,.0f} {engine_c[p] / count[p]:23,.0f} {engine_c[p] / n:19,.0f}")


if __name__ == "__main__":
    main()
