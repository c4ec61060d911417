"""Fits the searching bot's estimate of the chance of winning (strategies/ufs/value_weights.py).

    .venv/bin/python experiments/train_ufs_value.py [--games 3000] [--search-games 1500]

1. The planner plays ``--games`` games in every cell (3 cities x 2 sides x threat 0-4); the
   features of ``strategies/ufs/value.py`` are recorded at the start of every round and
   labelled with the game's outcome. A ridge-penalized logistic model is fitted to them.
2. The searching bot, using that first model (budget 8), plays ``--search-games`` games per
   cell on fresh seeds, and the model is fitted again to its positions and outcomes: its
   estimate is then of the chance of winning under the search's own play (one round of
   approximate policy iteration; a second round changed the search's win rate by -1.7 +- 5.0
   points at threat 3, so it stops here).

Every game is seeded (root seeds below), the fit is deterministic (L-BFGS from zero), so the
file is reproduced exactly. A tenth of the positions (whole games) is held out and the
log-loss and the calibration on it are printed and stored with the weights.
About 15 minutes on one core.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simkit.games import get  # noqa: E402
from simkit.games.ufs.engine import R_WON, RESULT, ROUND, apply_action, init_state, is_over  # noqa: E402
from simkit.loop import bot_streams  # noqa: E402
from simkit.params import build  # noqa: E402
from simkit.seeding import game_seeds  # noqa: E402
from strategies.ufs import planner, search  # noqa: E402
from strategies.ufs.value import N_HOT, N_LIN, N_TABLES, N_WEIGHTS, WEIGHTS_FILE, features  # noqa: E402

CELLS = [(city, side, threat) for city in ("roswell", "new_york", "washington") for side in ("normal", "damaged") for threat in range(5)]
PLANNER_SEED = 7001
SEARCH_SEED = 7002
SEARCH_BUDGET = 8
RIDGE = 1.0


@njit
def collect(seeds, b, w, budget):
    """Features at the start of every round of games played by the planner (``budget`` 0)
    or the searching bot, with the game each row comes from and each game's outcome."""
    rows = seeds.shape[0] * 24
    hot = np.zeros((rows, N_TABLES), np.int32)
    lin = np.zeros((rows, N_LIN), np.float64)
    game = np.zeros(rows, np.int64)
    won = np.zeros(seeds.shape[0], np.int8)
    ib = np.empty(1024, np.int32)
    fb = np.empty(1024, np.float64)
    n = 0
    for g in range(seeds.shape[0]):
        s, rng = init_state(seeds[g], b)
        brng = bot_streams(rng)
        last = -1
        while not is_over(s):
            if s[ROUND] != last and n < rows:
                last = s[ROUND]
                features(s, b, hot[n], lin[n])
                game[n] = g
                n += 1
            if budget == 0:
                a = planner.choose(s, brng, b, ib, fb, 0)
            else:
                a = search.choose_with(s, brng, b, ib, fb, w, budget)
            apply_action(s, rng, b, a)
        won[g] = 1 if s[RESULT] == R_WON else 0
    return hot[:n], lin[:n], game[:n], won


def positions(root: int, games: int, w: np.ndarray, budget: int):
    ufs = get("ufs")
    hots, lins, ys, groups = [], [], [], []
    t0 = time.time()
    for i, (city, side, threat) in enumerate(CELLS):
        params = build(ufs.params, {"city": city, "city_side": side, "threat": threat}, "ufs")
        seeds = game_seeds(root, i * games, (i + 1) * games)
        hot, lin, game, won = collect(seeds, ufs.board(params), w, budget)
        hots.append(hot)
        lins.append(lin)
        ys.append(won[game].astype(np.float64))
        groups.append(game + i * games)
        print(f"  {city:10s} {side:7s} threat {threat}: {won.mean():6.1%} won, {len(game):,} positions ({time.time() - t0:.0f} s)", flush=True)
    return np.concatenate(hots), np.concatenate(lins), np.concatenate(ys), np.concatenate(groups)


def fit(hot, lin, y, groups) -> tuple[np.ndarray, dict]:
    import scipy.sparse as sp
    from scipy.optimize import minimize

    n = len(y)
    X = sp.hstack([
        sp.csr_matrix((np.ones(n * N_TABLES), (np.repeat(np.arange(n), N_TABLES), hot.ravel())), shape=(n, N_HOT)),
        sp.csr_matrix(lin), sp.csr_matrix(np.ones((n, 1))),
    ]).tocsr()
    held = (groups * 2654435761 % 10) == 0  # whole games held out
    Xt, yt = X[~held], y[~held]

    def loss(w):
        p = 1.0 / (1.0 + np.exp(-(Xt @ w)))
        ll = -np.sum(yt * np.log(p + 1e-12) + (1 - yt) * np.log(1 - p + 1e-12))
        g = Xt.T @ (p - yt)
        g[:N_HOT] += 2 * RIDGE * w[:N_HOT]
        return ll + RIDGE * np.sum(w[:N_HOT] ** 2), g

    res = minimize(loss, np.zeros(N_WEIGHTS), jac=True, method="L-BFGS-B", options={"maxiter": 5000})
    w = res.x
    p = 1.0 / (1.0 + np.exp(-(X[held] @ w)))
    yh = y[held]
    ll = float(-np.mean(yh * np.log(p + 1e-12) + (1 - yh) * np.log(1 - p + 1e-12)))
    base = float(yh.mean())
    ll0 = float(-(base * np.log(base) + (1 - base) * np.log(1 - base)))
    calib = []
    for lo in np.arange(0, 1, 0.1):
        m = (p >= lo) & (p < lo + 0.1)
        if m.any():
            calib.append({"predicted": round(float(p[m].mean()), 3), "observed": round(float(yh[m].mean()), 3), "positions": int(m.sum())})
    info = {"positions": n, "held_out": int(held.sum()), "held_out_log_loss": round(ll, 4), "log_loss_of_the_base_rate": round(ll0, 4),
            "calibration": calib, "converged": bool(res.success)}
    print(f"  fitted: held-out log-loss {ll:.4f} (base rate alone {ll0:.4f}), {n:,} positions")
    for c in calib:
        print(f"    predicted {c['predicted']:.3f}  observed {c['observed']:.3f}  ({c['positions']:,})")
    return w, info


def weights_module(doc: dict) -> str:
    """The text of ``value_weights.py``: the weights and how they were fitted."""
    fit = doc["fit"]
    lines = ['"""Weights of the searching bot\'s estimate of the chance of winning (``value.py``): the',
             "tables, the linear terms and the bias, in the order of ``value.py``'s layout.",
             "",
             f"Written by ``{doc['command']}``",
             f"(root seeds: planner {doc['seeds']['planner']}, search {doc['seeds']['search']}; search budget {SEARCH_BUDGET}; ridge {RIDGE}).",
             f"Held out: {fit['held_out']:,} of {fit['positions']:,} positions (whole games). Log-loss on them",
             f"{fit['held_out_log_loss']} (the base rate alone: {fit['log_loss_of_the_base_rate']}). Calibration on them:",
             "",
             "    predicted  observed  positions"]
    for c in fit["calibration"]:
        lines.append(f"    {c['predicted']:9.3f}  {c['observed']:8.3f}  {c['positions']:9,}")
    lines += ['"""', "", "# fmt: off", "WEIGHTS = ("]
    ws = doc["weights"]
    for i in range(0, len(ws), 8):
        lines.append("    " + ", ".join(repr(x) for x in ws[i:i + 8]) + ",")
    lines += [")", "# fmt: on", ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3000, help="planner games per cell (step 1)")
    ap.add_argument("--search-games", type=int, default=1500, help="search games per cell (step 2)")
    ap.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    args = ap.parse_args()
    print("step 1: the planner's games")
    w1, _ = fit(*positions(PLANNER_SEED, args.games, np.zeros(N_WEIGHTS), 0))
    print(f"step 2: the search's games (budget {SEARCH_BUDGET}, first model)")
    w2, info = fit(*positions(SEARCH_SEED, args.search_games, w1, SEARCH_BUDGET))
    doc = {
        "command": f"experiments/train_ufs_value.py --games {args.games} --search-games {args.search_games}",
        "seeds": {"planner": PLANNER_SEED, "search": SEARCH_SEED}, "fit": info, "weights": [round(float(x), 6) for x in w2],
    }
    args.out.write_text(weights_module(doc))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
