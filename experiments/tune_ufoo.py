"""Tunes the weights of the Ufo.O tactical heuristic by the cross-entropy method
(Rubinstein): sample weight vectors around a mean, play seeded games of each against a
set of opponents (every seed twice, seats swapped), refit the mean and spread to the
best. The objective is the mean score (win 1, draw 1/2) against the opponents.

    .venv/bin/python experiments/tune_ufoo.py --iterations 8 --population 16 --games 2000

Opponents: the aggressive bot and the tactical bot with its current DEFAULT_WEIGHTS of
strategies/ufoo/heuristic.py. It prints the best weights found, which are then copied
into heuristic.py with the command that produced them.
"""

from __future__ import annotations

import argparse

import numpy as np
from joblib import Parallel, delayed
from numba import njit

from simkit.games.ufoo import board as board_mod
from simkit.games.ufoo.engine import OVER, TO_MOVE, TURN, WINNER, apply_action, init_state
from simkit.games.ufoo.params import UfoOParams
from simkit.seeding import game_seeds
from strategies.ufoo import SCRATCH
from strategies.ufoo.heuristic import AGGRESSIVE, DEFAULT_WEIGHTS, MEMORY, TACTICAL, WEIGHT_NAMES, choose_with


@njit(cache=True)
def match(seeds, b, wa, ma, wb, mb):
    """Bot A (weights ``wa``, mode ``ma``) against bot B, each seed played twice with the
    seats swapped. Returns A's wins, draws and the turns played."""
    ib = np.zeros(SCRATCH, np.int32)
    mem = np.zeros((2, MEMORY), np.int32)
    wins = 0
    draws = 0
    turns = 0
    for g in range(2 * seeds.shape[0]):
        s, rng = init_state(seeds[g // 2], b)
        mem[:, :] = 0
        seat_a = g % 2
        while s[OVER] == 0:
            p = s[TO_MOVE]
            if p == seat_a:
                a = choose_with(s, b, wa, 0, ma, mem[p], ib)
            else:
                a = choose_with(s, b, wb, 0, mb, mem[p], ib)
            apply_action(s, rng, b, a)
        turns += s[TURN]
        if s[WINNER] == seat_a:
            wins += 1
        elif s[WINNER] < 0:
            draws += 1
    return wins, draws, turns


def evaluate(w, games, seed, board=""):
    b = board_mod.build(UfoOParams(board=board))
    seeds = game_seeds(seed, 0, games)
    w = np.asarray(w, np.float64)
    base = np.asarray(DEFAULT_WEIGHTS, np.float64)
    total = 0.0
    for opp_w, opp_mode in ((base, AGGRESSIVE), (base, TACTICAL)):
        wins, draws, _ = match(seeds, b, w, TACTICAL, opp_w, opp_mode)
        total += (wins + 0.5 * draws) / (2 * games)
    return total / 2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=8)
    ap.add_argument("--population", type=int, default=16)
    ap.add_argument("--elite", type=int, default=4)
    ap.add_argument("--games", type=int, default=2000, help="seeds per evaluation (each played twice, seats swapped)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    mean = np.asarray(DEFAULT_WEIGHTS, np.float64)
    spread = 0.4 * np.abs(mean) + 0.05
    base = evaluate(mean, args.games, args.seed)
    print(f"start: objective {base:.4f}", flush=True)
    best_w, best_v = mean.copy(), base
    for it in range(args.iterations):
        pop = np.maximum(mean + spread * rng.standard_normal((args.population, len(mean))), 0.0)
        values = Parallel(n_jobs=args.jobs)(delayed(evaluate)(w, args.games, args.seed + 100 * (it + 1)) for w in pop)
        order = np.argsort(values)[::-1]
        elite = pop[order[: args.elite]]
        mean = elite.mean(axis=0)
        spread = elite.std(axis=0) + 0.02
        v = evaluate(mean, args.games, args.seed)
        if v > best_v:
            best_w, best_v = mean.copy(), v
        print(f"iteration {it + 1}: best sample {values[order[0]]:.4f}, mean weights {v:.4f} on the base seeds", flush=True)
    print(f"best: objective {best_v:.4f} (start {base:.4f})")
    print("DEFAULT_WEIGHTS = (" + ", ".join(f"{x:.3g}" for x in best_w) + ")")
    for n, x in zip(WEIGHT_NAMES, best_w):
        print(f"    {n} = {x:.3f}")


if __name__ == "__main__":
    main()
