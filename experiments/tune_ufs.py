"""Tunes the weights of the Under Falling Skies greedy heuristic by the cross-entropy
method (Rubinstein): sample weight vectors around a mean, play seeded games with each,
refit the mean and spread to the best. The objective is the win rate plus a small
credit for research progress (wins are rare at higher threat levels).

    .venv/bin/python experiments/tune_ufs.py --iterations 8 --population 24 --games 3000
    .venv/bin/python experiments/tune_ufs.py --cities roswell,new_york,washington --games 2000 --seed 21

It starts from the current DEFAULT_WEIGHTS of strategies/ufs/greedy.py (or the
hand-set ones with --from-hand) and prints the best weights found, which are then
copied into greedy.py with the command that produced them.
"""

from __future__ import annotations

import argparse

import numpy as np
from joblib import Parallel, delayed
from numba import njit

from simkit.games.ufs import board as board_mod
from simkit.games.ufs.engine import P_OVER, PHASE, RESEARCH, RESULT, RLEN, apply_action, init_state
from simkit.games.ufs.params import UFSParams
from simkit.seeding import game_seeds
from strategies.ufs import SCRATCH
from strategies.ufs.greedy import DEFAULT_WEIGHTS, HAND_WEIGHTS, choose_with


@njit(cache=True)
def score(seeds, b, w):
    ib = np.zeros(SCRATCH, np.int32)
    fb = np.zeros(SCRATCH)
    wins = 0.0
    progress = 0.0
    for g in range(seeds.shape[0]):
        s, rng = init_state(seeds[g], b)
        while s[PHASE] != P_OVER:
            apply_action(s, rng, b, choose_with(s, b, w, ib, fb))
        wins += s[RESULT] == 1
        progress += s[RESEARCH] / s[RLEN]
    n = seeds.shape[0]
    return wins / n + 0.05 * progress / n


def evaluate(w, games, seed, cities=("roswell",)):
    """Mean objective over the cities (normal side) at threat levels 0 and 1."""
    total = 0.0
    for i, city in enumerate(cities):
        for threat in (0, 1):
            b = board_mod.build(UFSParams(city=city, threat=threat))
            total += score(game_seeds(seed + 10 * i + threat, 0, games), b, np.asarray(w, np.float64))
    return total / (2 * len(cities))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=8)
    ap.add_argument("--population", type=int, default=24)
    ap.add_argument("--elite", type=int, default=6)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cities", default="roswell", help="comma-separated cities the objective averages over (normal side)")
    ap.add_argument("--from-hand", action="store_true", help="start from the hand-set weights instead of the current defaults")
    args = ap.parse_args()
    cities = tuple(args.cities.split(","))
    rng = np.random.default_rng(args.seed)
    mean = (HAND_WEIGHTS if args.from_hand else DEFAULT_WEIGHTS).copy()
    spread = 0.4 * np.abs(mean) + 0.05
    base = evaluate(mean, args.games, args.seed, cities)
    print(f"start: objective {base:.4f} weights {np.round(mean, 3).tolist()}")
    best_w, best_v = mean.copy(), base
    for it in range(args.iterations):
        pop = np.maximum(mean + spread * rng.standard_normal((args.population, len(mean))), 0.0)
        values = Parallel(n_jobs=args.jobs)(delayed(evaluate)(w, args.games, args.seed + 100 * (it + 1), cities) for w in pop)
        order = np.argsort(values)[::-1]
        elite = pop[order[: args.elite]]
        mean = elite.mean(axis=0)
        spread = elite.std(axis=0) + 0.02
        v = evaluate(mean, args.games, args.seed, cities)
        if v > best_v:
            best_w, best_v = mean.copy(), v
        print(f"iteration {it + 1}: best sample {values[order[0]]:.4f}, mean weights {v:.4f} on the base seeds")
    print(f"best: objective {best_v:.4f} (start {base:.4f})")
    print("TUNED_WEIGHTS = np.array(" + repr(np.round(best_w, 3).tolist()) + ")")


if __name__ == "__main__":
    main()
