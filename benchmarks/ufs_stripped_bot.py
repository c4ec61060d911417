"""A speed probe for Under Falling Skies: how fast can a bot that still reads the ships
be, against greedy, in one process on one core (default rules, threat 1)?

    .venv/bin/python benchmarks/ufs_stripped_bot.py [--games 50000]

The stripped bot is greedy with most of its reading removed. It places each die (grey
before white, high before low) where its immediate gain is largest, but from the state
as it is now: no projection of the dice already placed this round (energy, research,
jets), no credit for a shot by a jets room already loaded, no robot displaced, digging
valued by distance, one branch-free pass over the ships for both the die's move and the
AA guns' move. In the rooms phase it uses rooms in a fixed order of kinds
(energy unless it overflows, research, jets, robots, then digging). It is not tuned and
is not offered as a bot. It shows that the engine and a minimal reading of the ships
already spend most of the cycle budget that 50,000 games/s would allow (README,
Performance), however little the bot does.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from simkit.games.ufs import board as board_mod
from simkit.games.ufs.params import UFSParams
from simkit.seeding import game_seeds

from simkit.games.ufs.board import (
    B_CELL_POS,
    B_CELL_ROOM,
    B_DMAX,
    B_EMAX,
    B_ROBOTS_ON,
    B_ROOM_CELLS,
    B_ROOM_COST,
    B_ROOM_KIND,
    B_ROOM_MOD,
    B_ROOM_NCELLS,
    EXPLOSION,
    MSHIP,
    ROOM_ENERGY,
    ROOM_JETS,
    ROOM_RESEARCH,
)
from simkit.games.ufs.engine import (
    A_END,
    A_EXCAVATE,
    A_PLACE,
    A_ROOM,
    A_SPAWN,
    AHEAD,
    CELL_DIE,
    COL_USED,
    DAMAGE,
    DIE_VAL,
    ENERGY,
    EXCAV,
    MS,
    NSHIPS,
    P_PLACE,
    P_OVER,
    PHASE,
    R_WON,
    RESULT,
    ROUND,
    apply_action,
    init_state,
    P_ROBOT,
    P_ROOMS,
    P_SPAWN,
    RCOST,
    RESEARCH,
    RLEN,
    SHIP_COL,
    SHIP_ROW,
    SKULL,
    SKY_KIND,
    SKY_NUM,
    SKY_ROWS,
    can_excavate,
    loaded_cell,
    research_after,
    room_affordable,
    room_ready,
    spawn_sites,
)
from simkit.jit import inline_kernel, kernel

from strategies.ufs import SCRATCH, greedy
from strategies.ufs.greedy import choose_robot, choose_six, next_die

(W_HIT, W_MSHIP, W_DANGER, W_EXPLOSION, W_ENERGY, W_SHOT, W_ROBOT, W_DIG, W_PARTIAL, W_UNPAID, W_RESEARCH) = range(11)
DEFAULT_WEIGHTS = np.array([1.7, 3.8, 1.3, 1.0, 0.9, 2.5, 0.7, 1.6, 0.7, 0.2, 1.0])

LOSS = -1.0e6
WIN = 1000.0

# Float scratch: per column, the value of moving its ships by the die (F_MOVE) and by
# one less (F_AA, the AA guns); the numbers of the explosions ships stand on.
F_MOVE = 0
F_AA = 5
I_NEXPL = 0
I_EXPL = 1
I_HITS = 20
I_HITS_AA = 25


@inline_kernel
def _ship_value(s, w, col, before, new):
    """Value of one ship going from row ``before`` to ``new`` (not past the sky)."""
    kind = s[SKY_KIND + new * 5 + col]
    if kind == MSHIP:
        if s[MS] + 1 >= s[SKULL]:
            return LOSS
        return -w[W_MSHIP]
    g = 0.0
    if kind == EXPLOSION:
        g = w[W_EXPLOSION]
    if new > 10:
        g -= w[W_DANGER] * (new - (before if before > 10 else 10)) / 6.0
    return g


@inline_kernel
def _moves(s, b, w, ib, fb, v):
    """One pass over the ships: each free column's move values, and the explosions held."""
    kval0 = 0.0
    kval1 = w[W_EXPLOSION]
    kval4 = -w[W_MSHIP] if s[MS] + 1 < s[SKULL] else LOSS
    dz = w[W_DANGER] / 6.0
    for c in range(5):
        fb[F_MOVE + c] = 0.0
        fb[F_AA + c] = 0.0
        ib[I_HITS + c] = 0
        ib[I_HITS_AA + c] = 0
    n = 0
    ms = s[MS]
    for i in range(NSHIPS):
        row = s[SHIP_ROW + i]
        col = s[SHIP_COL + i]
        live = (row >= 0) & (col >= 0)
        col = col if col >= 0 else 0
        r1 = row if row >= 1 else 0
        k0 = s[SKY_KIND + r1 * 5 + col]
        on_expl = live & (row >= 1) & (k0 == EXPLOSION)
        ib[I_EXPL + n] = s[SKY_NUM + r1 * 5 + col]
        n += on_expl
        use = live & (s[COL_USED + col] == 0)
        before = ms if row == 0 else row
        new = before + v
        hit = new > SKY_ROWS
        kind = s[SKY_KIND + (SKY_ROWS if hit else new) * 5 + col]
        kv = kval4 if kind == MSHIP else (kval1 if kind == EXPLOSION else kval0)
        dbefore = before if before > 10 else 10
        g = kv - dz * ((new if new > 10 else 10) - dbefore)
        fb[F_MOVE + col] += g if use & (~hit) else 0.0
        ib[I_HITS + col] += use & hit
        new1 = new - 1
        hit1 = new1 > SKY_ROWS
        kind1 = s[SKY_KIND + (SKY_ROWS if hit1 else new1) * 5 + col]
        kv1 = kval4 if kind1 == MSHIP else (kval1 if kind1 == EXPLOSION else kval0)
        g1 = kv1 - dz * ((new1 if new1 > 10 else 10) - dbefore)
        fb[F_AA + col] += g1 if use & (~hit1) & (v > 1) else 0.0
        ib[I_HITS_AA + col] += use & hit1
    ib[I_NEXPL] = n
    # A hit that ends the game is a loss; others weigh more as the damage grows.
    hit = w[W_HIT] * (1.0 + s[DAMAGE] / b[B_DMAX])
    room = b[B_DMAX] - s[DAMAGE]
    for c in range(5):
        h = ib[I_HITS + c]
        if h > 0:
            fb[F_MOVE + c] = LOSS if h >= room else fb[F_MOVE + c] - hit * h
        h = ib[I_HITS_AA + c]
        if h > 0:
            fb[F_AA + c] = LOSS if h >= room else fb[F_AA + c] - hit * h


@inline_kernel
def _room_value(s, b, w, ib, r, cell, v):
    """Gain of a die of ``v`` in room ``r`` (on ``cell``) when the room is used this round."""
    kind = b[B_ROOM_KIND + r]
    total = v + b[B_ROOM_MOD + r]
    missing = 0
    for j in range(b[B_ROOM_NCELLS + r]):
        other = b[B_ROOM_CELLS + r * 3 + j]
        if other != cell:
            if s[CELL_DIE + other] > 0:
                total += s[CELL_DIE + other]
            else:
                missing += 1
                total += 3
    if total <= 0:
        return 0.0
    cost = b[B_ROOM_COST + r]
    if kind == ROOM_ENERGY:
        room = b[B_EMAX] - s[ENERGY]
        return w[W_ENERGY] * (total if total < room else room)
    if kind == ROOM_RESEARCH:
        to = research_after(s, s[RESEARCH], total)
        g = 0.0
        for x in range(s[RESEARCH] + 1, to + 1):
            g += s[RCOST + x]
        g *= w[W_RESEARCH]
        if to >= s[RLEN]:
            g += WIN
    elif kind == ROOM_JETS:
        g = 0.0
        for j in range(ib[I_NEXPL]):
            if ib[I_EXPL + j] <= total:
                g += w[W_SHOT]
    else:
        if b[B_ROBOTS_ON] == 0:
            return 0.0
        g = w[W_ROBOT] * min(total, 6)
    g -= w[W_ENERGY] * cost
    if s[ENERGY] < cost:
        g *= w[W_UNPAID]
    if missing > 0:
        g *= w[W_PARTIAL] / (missing + 1)
    return g


@kernel
def place(s, b, w, ib, fb):
    d = next_die(s)
    v = s[DIE_VAL + d]
    _moves(s, b, w, ib, fb, v)
    excav = s[EXCAV]
    best = -1.0e18
    best_cell = -1
    for col in range(5):
        if s[COL_USED + col] != 0:
            continue
        move = fb[F_MOVE + col]
        if fb[F_AA + col] > best:
            best = fb[F_AA + col]
            best_cell = col
        for row in range(1, 6):
            cell = row * 5 + col
            dist = b[B_CELL_POS + cell] - excav
            if dist > 0:  # ahead of the excavator: dig there, and deeper rows are closed
                if s[AHEAD] < 0 and dist <= v and s[ENERGY] >= 1:
                    score = move + w[W_DIG] * dist - w[W_ENERGY]
                    if score > best:
                        best = score
                        best_cell = cell
                break
            r = b[B_CELL_ROOM + cell]
            score = move
            if r >= 0:
                score += _room_value(s, b, w, ib, r, cell, v)
            if score > best:
                best = score
                best_cell = cell
    return A_PLACE + d * 30 + best_cell


@kernel
def rooms(s, b):
    """Energy first (unless it overflows), then research, jets, robots, digging."""
    best_kind = 9
    best_r = -1
    best_v = -1
    energy = s[ENERGY]
    for k in range(7):
        cell = loaded_cell(s, k)
        if cell < 0:
            continue
        r = b[B_CELL_ROOM + cell]
        if r < 0 or not room_affordable(s, b, r):
            continue
        v = room_ready(s, b, r)
        if v <= 0:
            continue
        kind = b[B_ROOM_KIND + r]
        order = kind
        if kind == ROOM_ENERGY:
            if energy - b[B_ROOM_COST + r] + v > b[B_EMAX]:
                order = 8  # it would overflow: last
            else:
                order = -1
        elif kind == ROOM_RESEARCH:
            order = 0
        if order < best_kind or (order == best_kind and v > best_v):
            best_kind = order
            best_r = r
            best_v = v
    if 0 <= best_r and best_kind < 8:
        return A_ROOM + best_r
    if can_excavate(s):
        return A_EXCAVATE
    if best_r >= 0 and energy < b[B_EMAX]:  # an energy room that overflows, last
        return A_ROOM + best_r
    return A_END


@kernel
def choose_with(s, b, w, ib, fb):
    phase = s[PHASE]
    if phase == P_PLACE:
        return place(s, b, w, ib, fb)
    if phase == P_ROOMS:
        return rooms(s, b)
    if phase == P_ROBOT:
        return choose_robot(s, b)
    if phase == P_SPAWN:
        mask = spawn_sites(s)
        c = 0
        while not (mask >> c) & 1:
            c += 1
        return A_SPAWN + c
    return choose_six(s)


@kernel
def choose(s, rng, b, ib, fb, flags):
    return choose_with(s, b, DEFAULT_WEIGHTS, ib, fb)


def _loop(choose_fn):
    @njit
    def play(seeds, b):
        ib = np.zeros(SCRATCH, np.int32)
        fb = np.zeros(SCRATCH)
        wins = 0
        rounds = 0
        for g in range(seeds.shape[0]):
            s, rng = init_state(seeds[g], b)
            while s[PHASE] != P_OVER:
                apply_action(s, rng, b, choose_fn(s, rng, b, ib, fb, 0))
            wins += s[RESULT] == R_WON
            rounds += s[ROUND]
        return wins, rounds

    return play


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=50_000)
    ap.add_argument("--rounds", type=int, default=3, help="timed runs of each bot, alternated")
    args = ap.parse_args()
    b = board_mod.build(UFSParams())
    seeds = game_seeds(1, 0, args.games)
    bots = {"stripped": _loop(choose), "greedy": _loop(greedy.choose)}
    best = dict.fromkeys(bots, 0.0)
    for play in bots.values():
        play(seeds[:10], b)  # compile
    for _ in range(args.rounds):
        for name, play in bots.items():
            t = time.perf_counter()
            play(seeds, b)
            best[name] = max(best[name], args.games / (time.perf_counter() - t))
    for name, play in bots.items():
        wins, rounds = play(seeds, b)
        print(f"{name:9s} {best[name]:9,.0f} games/s   win {wins / args.games:6.2%}   mean rounds {rounds / args.games:.2f}")
    print(f"ratio stripped / greedy: {best['stripped'] / best['greedy']:.2f}x")


if __name__ == "__main__":
    main()
