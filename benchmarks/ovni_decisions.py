"""Where an O.V.N.I. bot spends its time: CPU time per decision, by decision point.

Records the observations and legal actions of ``--games`` seeded 4-player games played by
the bot, then replays every recorded decision ``--reps`` times through the compiled
``choose`` and reports the CPU time per decision and per game for each phase (KEEP,
PLACE, TURN, GROUP ...). CPU time (``time.process_time``) rather than wall time, so
that other processes sharing the machine do not count.

    .venv/bin/python benchmarks/ovni_decisions.py --bot strategic
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np
from numba import njit

import strategies.ovni as S
from simkit.games import get
from simkit.params import build
from simkit.play import Table


@njit
def _replay(obs, legal, nleg, mems, b, choose, flags, reps):
    ib = np.zeros(S.SCRATCH, np.int32)
    fb = np.zeros(S.SCRATCH, np.float64)
    rng = np.zeros(3, np.uint64)
    acc = 0
    for _ in range(reps):
        for i in range(obs.shape[0]):
            acc += choose(flags, obs[i], legal[i, :nleg[i]], rng, b, mems[i], ib, fb)
    return acc


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bot", default="strategic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--reps", type=int, default=20)
    args = ap.parse_args()
    game = get("ovni")
    E = game.engine
    params = build(game.params, {"players": args.players}, "ovni")
    b = game.board(params)
    bot = game.resolve_bot(args.bot)
    rec = collections.defaultdict(list)
    for seed in range(args.games):
        t = Table(game, b, seed)
        while not t.over():
            q = t.to_move()
            rec[int(t.s[E.PHASE])].append((t.observation(q).copy(), t.legal(), t.mem[q].copy()))
            a, _ = t.decide(bot, 0)
            t.step(a)
    names = {v: k for k, v in vars(E).items() if k.startswith("PH_") and isinstance(v, int)}
    total = 0.0
    print(f"{args.bot}, {args.players} players, {args.games} games, each decision replayed {args.reps} times (CPU time)")
    for ph, items in sorted(rec.items()):
        obs = np.array([o for o, _, _ in items])
        nleg = np.array([len(x) for _, x, _ in items])
        legal = np.zeros((len(items), E.MAX_ACTIONS), np.int32)
        for i, (_, x, _) in enumerate(items):
            legal[i, :len(x)] = x
        mems = np.array([m for _, _, m in items])
        _replay(obs[:1], legal[:1], nleg[:1], mems[:1].copy(), b, S.CHOOSE[bot.code], bot.flags, 1)
        t0 = time.process_time()
        _replay(obs, legal, nleg, mems.copy(), b, S.CHOOSE[bot.code], bot.flags, args.reps)
        dt = (time.process_time() - t0) / args.reps
        per_game = dt / args.games * 1e6
        total += per_game
        print(f"  {names[ph]:15s} {len(items) / args.games:6.1f} per game  {dt / len(items) * 1e9:7.0f} ns each  "
              f"{per_game:7.1f} us per game")
    print(f"  bot total: {total:.1f} us per game")


if __name__ == "__main__":
    main()
