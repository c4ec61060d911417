"""How much a perfect one-step search could gain over the tactical bot in Ufo.O (issue 25):
at every decision of tactical-against-tactical games where the searching bot
(strategies/ufoo/search.py) has more than one candidate (the movement plans of a turn, the
attacks), each candidate is played out to the END of the game ``--rollouts`` times with the
tactical bot for both seats (common dice for all candidates). Split sample: the first half
picks the best candidate, the second half measures its gain over the tactical bot's choice
(candidate 0), so the figure is not inflated by picking the luckiest candidate; the gain
with all rollouts (biased upwards) is printed beside it. Per game the gains add up: that
sum is roughly what a one-step search with unlimited rollouts would add to tactical's
win share against tactical.

    .venv/bin/python experiments/ufoo_headroom.py --games 60 --rollouts 256

Measured (issue 25, 60 games, seed 13, 256 rollouts): 1,915 decisions with 2+ candidates
(8.9 movement plans a game with 2.7 candidates, 23.1 attack decisions with 4.1). Split-sample
gain of the best candidate over tactical's choice: movement +0.0009 a decision (se 0.0014),
attacks -0.0027 (se 0.0007), for one seat +0.004 (se 0.008) and -0.031 (se 0.008) a game: 128
full-game rollouts cannot tell the candidates apart (the gain with all 256, +0.009 a
decision, is the luck of the maximum). The candidates' true values differ by less than the
dice's noise, so a one-step search over them cannot gain much over tactical at any budget
the bot can afford; the search bot's few points come from the rare decisions where tactical
errs by a lot (which its 2-standard-error test catches).
"""

from __future__ import annotations

import argparse

import numpy as np
from numba import njit

from simkit.games.ufoo import board as board_mod
from simkit.games.ufoo.engine import (ACTIVE, OVER, PH_ATTACK, PH_MOVE, PHASE, SIZE, TO_MOVE, TURN, UFOS, WINNER,
                                      apply_action, init_state, volley_legal)
from simkit.games.ufoo.params import UfoOParams
from simkit.rng import CHANCE, next_u64, BOT
from simkit.seeding import game_seeds
from strategies.ufoo import SCRATCH
from strategies.ufoo import heuristic as H
from strategies.ufoo import search as S

MAXC = S.MAX_CAND


@njit
def to_end(w, rng, b, wt, mem2, plan_w, me, cap):
    while w[OVER] == 0 and w[TURN] < cap:
        p = w[TO_MOVE]
        apply_action(w, rng, b, H.choose_with(w, b, wt, 0, H.TACTICAL, mem2[p], plan_w))
    if w[OVER] == 0:
        return 0.5
    return 1.0 if w[WINNER] == me else (0.5 if w[WINNER] < 0 else 0.0)


@njit
def evaluate(s, b, wt, cand_mem, cand_act, n, is_plan, reps, seeds, vals, ib):
    """vals[c, r]: candidate c's result in rollout r."""
    me = s[ACTIVE]
    w = np.zeros(SIZE, np.int32)
    plan_w = np.zeros(SIZE, np.int32)
    mem2 = np.zeros((2, H.MEMORY), np.int32)
    rng = np.zeros(4, np.uint64)
    for r in range(reps):
        for c in range(n):
            w[:] = s[:SIZE]
            mem2[:, :] = 0
            if is_plan:
                mem2[me, :] = cand_mem[c, :]
            else:
                mem2[me, H.M_TURN] = s[TURN]
                for k in range(UFOS):
                    mem2[me, H.M_PLAN + k] = -1
            rng[CHANCE] = seeds[r, 0]
            rng[S.SEED_SLOT] = seeds[r, 1]
            if not is_plan:
                apply_action(w, rng, b, cand_act[c])
            vals[c, r] = to_end(w, rng, b, wt, mem2, plan_w, me, s[TURN] + 200)


@njit
def plan_candidates(s, b, wt, ib, fb, cand_mem):
    plan_w = np.zeros(SIZE, np.int32)
    tmp = np.zeros(H.MEMORY, np.int32)
    n = 0
    for variant in range(5):
        for i in range(H.N_WEIGHTS):
            fb[S.F_VAR + i] = wt[i]
        mode = H.TACTICAL
        if variant == 1:
            mode = H.AGGRESSIVE
        elif variant == 2:
            fb[S.F_VAR + H.W_RACE] *= 0.5
            fb[S.F_VAR + H.W_SHOT] = 1.0
        elif variant == 3:
            fb[S.F_VAR + H.W_RACE] *= 2.0
            fb[S.F_VAR + H.W_SHOT] = 0.0
        if variant == 4:
            tmp[H.M_TURN] = s[TURN]
            for k in range(UFOS):
                tmp[H.M_PLAN + k] = -1
        else:
            H.plan_moves(s, b, fb[S.F_VAR:S.F_VAR + H.N_WEIGHTS], 0, mode, tmp, plan_w)
        same_any = False
        for c in range(n):
            same = True
            for k in range(UFOS):
                if cand_mem[c, H.M_PLAN + k] != tmp[H.M_PLAN + k]:
                    same = False
            if same:
                same_any = True
        if not same_any:
            cand_mem[n, :] = tmp[:]
            n += 1
    return n


@njit
def run(seeds, b, reps, out):
    """out rows: game, turn, is_plan, n, split gain, full gain."""
    wt = np.zeros(16)
    H.load_weights(wt)
    ib = np.zeros(SCRATCH, np.int32)
    fb = np.zeros(SCRATCH)
    mem = np.zeros((2, H.MEMORY), np.int32)
    cand_mem = np.zeros((MAXC, H.MEMORY), np.int32)
    cand_act = np.zeros(MAXC, np.int32)
    vals = np.zeros((MAXC, reps))
    rs = np.zeros((reps, 2), np.uint64)
    m = 0
    for g in range(seeds.shape[0]):
        s, rng = init_state(seeds[g], b)
        brng = rng.copy()
        mem[:, :] = 0
        while s[OVER] == 0:
            p = s[TO_MOVE]
            n = 0
            is_plan = False
            if s[PHASE] == PH_MOVE and mem[p, H.M_TURN] != s[TURN] and not volley_legal(s, b):
                n = plan_candidates(s, b, wt, ib, fb, cand_mem)
                is_plan = True
            elif s[PHASE] == PH_ATTACK and not volley_legal(s, b):
                fb[:H.N_WEIGHTS] = wt[:H.N_WEIGHTS]
                n = S.attack_candidates(s, b, ib, fb, 0)
                for c in range(n):
                    cand_act[c] = ib[S.I_CAND + c]
            if n > 1 and m < out.shape[0]:
                for r in range(reps):
                    rs[r, 0] = next_u64(brng, BOT)
                    rs[r, 1] = next_u64(brng, BOT)
                evaluate(s, b, wt, cand_mem, cand_act, n, is_plan, reps, rs, vals, ib)
                h = reps // 2
                best = 0
                for c in range(1, n):
                    if vals[c, :h].mean() > vals[best, :h].mean():
                        best = c
                split = vals[best, h:].mean() - vals[0, h:].mean()
                fbest = 0
                for c in range(1, n):
                    if vals[c].mean() > vals[fbest].mean():
                        fbest = c
                out[m, 0] = g
                out[m, 1] = s[TURN]
                out[m, 2] = 1.0 if is_plan else 0.0
                out[m, 3] = n
                out[m, 4] = split
                out[m, 5] = vals[fbest].mean() - vals[0].mean()
                m += 1
            apply_action(s, rng, b, H.choose_with(s, b, wt, 0, H.TACTICAL, mem[p], ib))
    return m


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--rollouts", type=int, default=256)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    b = board_mod.build(UfoOParams())
    out = np.zeros((200 * args.games, 6))
    m = run(game_seeds(args.seed, 0, args.games), b, args.rollouts, out)
    o = out[:m]
    for name, sel in (("movement plans", o[:, 2] == 1), ("attacks", o[:, 2] == 0), ("all", np.ones(m, bool))):
        x = o[sel]
        per_game = np.bincount(x[:, 0].astype(int), weights=x[:, 4], minlength=args.games) / 2  # one seat's decisions
        se = per_game.std(ddof=1) / np.sqrt(args.games)
        print(f"{name}: {len(x)} decisions with 2+ candidates ({len(x) / args.games:.1f} a game, {x[:, 3].mean():.1f} candidates); "
              f"gain of the best by split sample {x[:, 4].mean():+.4f} a decision (se {x[:, 4].std(ddof=1) / np.sqrt(len(x)):.4f}), "
              f"{per_game.mean():+.3f} a game for one seat (se {se:.3f}); with all rollouts (biased up) {x[:, 5].mean():+.4f} a decision")


if __name__ == "__main__":
    main()
