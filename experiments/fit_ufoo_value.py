"""Fits the searching bot's value of a position (strategies/ufoo/search.py, VALUE_COEF): a
logistic regression of "the seat to move wins" on the features of the position at the
start of each turn, from tactical-against-tactical games.

    .venv/bin/python experiments/fit_ufoo_value.py --games 20000

It prints the coefficients to copy into search.py with the command that produced them.
"""

from __future__ import annotations

import argparse

import numpy as np
import statsmodels.api as sm
from numba import njit

from simkit.games.ufoo import board as board_mod
from simkit.games.ufoo.engine import ACTIVE, OVER, TO_MOVE, TURN, WINNER, apply_action, init_state
from simkit.games.ufoo.params import UfoOParams
from simkit.seeding import game_seeds
from strategies.ufoo import SCRATCH
from strategies.ufoo.heuristic import DEFAULT_WEIGHTS, MEMORY, TACTICAL, choose_with
from strategies.ufoo.search import N_FEATURES, features


@njit
def collect(seeds, b, wt, rows):
    ib = np.zeros(SCRATCH, np.int32)
    mem = np.zeros((2, MEMORY), np.int32)
    x = np.zeros((rows, N_FEATURES))
    seat = np.zeros(rows, np.int64)
    game = np.zeros(rows, np.int64)
    winner = np.zeros(seeds.shape[0], np.int64)
    n = 0
    for g in range(seeds.shape[0]):
        s, rng = init_state(seeds[g], b)
        mem[:, :] = 0
        last = -1
        while s[OVER] == 0:
            if s[TURN] != last and n < rows:
                last = s[TURN]
                features(s, b, s[ACTIVE], x[n])
                seat[n] = s[ACTIVE]
                game[n] = g
                n += 1
            p = s[TO_MOVE]
            apply_action(s, rng, b, choose_with(s, b, wt, 0, TACTICAL, mem[p], ib))
        winner[g] = s[WINNER]
    return x[:n], seat[:n], game[:n], winner


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    b = board_mod.build(UfoOParams())
    x, seat, game, winner = collect(game_seeds(args.seed, 0, args.games), b, np.asarray(DEFAULT_WEIGHTS, np.float64), 60 * args.games)
    y = (winner[game] == seat).astype(float)
    keep = winner[game] >= 0
    fit = sm.Logit(y[keep], x[keep]).fit(disp=0)
    print(fit.summary())
    print(f"{keep.sum():,} positions from {args.games:,} games")
    print("VALUE_COEF = (" + ", ".join(f"{c:.4g}" for c in fit.params) + ")")


if __name__ == "__main__":
    main()
