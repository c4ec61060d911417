"""Escape From the Aliens bots: legal and seeded, see only their observation, and keep a
belief that never rules out the truth."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games import get
from simkit.games.eftaios import bits, Rules
from simkit.games.eftaios import engine as E
from simkit.params import build
from simkit.play import Table
from simkit.bots import bot_table
from simkit.seeding import game_seeds
from strategies.eftaios import belief as BL
from strategies.eftaios import search as SE
from simkit.play import simulate
from simkit.protocol import entries

GAME = get("eftaios")


def _play(settings, bots, n, seed=5):
    p = build(GAME.params, settings, GAME.name)
    B = GAME.resolve_bots(bots, p)
    return simulate(GAME, p, game_seeds(seed, 0, n), bot_table(len(B), 0, n, True), B)


@pytest.mark.parametrize("settings", [{}, {"mode": "basic", "players": 5}, {"scenario": "infection", "players": 7},
                                      {"scenario": "old_guard", "map": "galvani"}, {"scenario": "arena", "players": 4}])
def test_bots_are_seeded_and_reproducible(settings):
    bots = ["heuristic", "search", "random", "heuristic:no-bluff"][:1] * 1
    a = _play(settings, ["heuristic"], 30)
    b = _play(settings, ["heuristic"], 30)
    for col in a:
        assert np.array_equal(np.asarray(a[col]), np.asarray(b[col])), col
    c = _play(settings, ["heuristic"], 30, seed=6)
    assert any(not np.array_equal(np.asarray(a[k]), np.asarray(c[k])) for k in ("rounds", "won", "escaped"))
    assert bots


def test_every_option_plays_legally():
    p = build(GAME.params, {"players": 6}, GAME.name)
    names = [f"heuristic:{o}" for o in GAME.bots["heuristic"].options] + ["search:budget=16", "search:deep",
                                                                                "search:no-lure", "search:classic-human",
                                                                                "search:risk=0", "search:humans"]
    for name in names:
        B = GAME.resolve_bots([name], p)
        simulate(GAME, p, game_seeds(1, 0, 4), bot_table(6, 0, 4, True), B, checked=True)  # raises on an illegal action


def test_restricted_bots_never_use_their_item():
    res = _play({}, ["heuristic"], 300)
    for opt, col in (("no-adrenaline", "used_adrenaline"), ("no-sedatives", "used_sedatives"),
                     ("no-spotlight", "used_spotlight"), ("no-defence", "used_defence"), ("no-attack", "used_attack"),
                     ("no-teleport", "used_teleport")):
        r = _play({}, [f"heuristic:{opt}"], 300)
        assert r[col].sum() == 0
    assert res["used_adrenaline"].sum() > 0 and res["used_sedatives"].sum() > 0 and res["used_spotlight"].sum() > 0
    assert _play({}, ["heuristic:no-bluff"], 100)["bluffs"].sum() == 0 and res["bluffs"].sum() > 0


def test_heuristic_beats_random_on_both_sides():
    h = _play({}, ["heuristic"], 300)
    mixed = _play({}, ["heuristic", "random"] * 3, 300)
    side, won = mixed["side"], mixed["won"]
    table = bot_table(6, 0, 300, True)
    heur = table % 2 == 0
    assert won[(side == 0) & heur].mean() > won[(side == 0) & ~heur].mean() + 0.1
    assert h["escaped"].mean() > 0.3


def test_search_aliens_beat_heuristic_aliens_on_the_same_seeds():
    h = _play({}, ["heuristic"], 400, seed=21)
    s = _play({}, ["search:aliens"], 400, seed=21)
    assert s["escaped"].mean() < h["escaped"].mean()


def test_search_humans_escape_more_than_heuristic_humans_on_the_same_seeds():
    # their bluffs lure the sampled aliens away (search.human_noise)
    h = _play({}, ["heuristic"], 400, seed=21)
    s = _play({}, ["search:humans"], 400, seed=21)
    assert s["escaped"].mean() > h["escaped"].mean()


@pytest.mark.parametrize("settings", [{}, {"mode": "basic", "players": 4}, {"players": 8, "map": "galvani"},
                                      {"scenario": "infection", "players": 6}])
def test_belief_never_rules_out_the_truth(settings):
    """After every decision of the searching bot (which follows both sides of every seat),
    the true sector of each seat still aboard is in its possible sectors for its true side."""
    p = build(GAME.params, settings, GAME.name)
    b = GAME.board(p)
    bot = GAME.resolve_bots(["search"], p)[0]
    checked = 0
    for seed in range(12):  # whole games until more than 500 checks (short games need more)
        if checked > 500:
            break
        t = Table(GAME, b, seed)
        while not t.over():
            me = t.to_move()
            a, _ = t.decide(bot, 0)
            mem = t.mem[me]
            for q in range(p.players):
                if t.s[E.PLAYER + q * E.P_STRIDE + E.P_STATUS] != E.ST_ABOARD or BL.sg(mem, q, BL.S_GONE):
                    continue
                pos = int(t.s[E.PLAYER + q * E.P_STRIDE + E.P_POS])
                side = int(t.s[E.PLAYER + q * E.P_STRIDE + E.P_SIDE])
                if BL.sg(mem, q, BL.S_PEND):  # q's own move of this turn is not announced yet
                    continue
                can = BL.S_CAN_H if side == 0 else BL.S_CAN_A
                assert BL.sg(mem, q, can), f"seed {seed}: seat {me} ruled out seat {q}'s true side"
                off = (BL.M_H if side == 0 else BL.M_A) + q * BL.W
                assert bits.has(mem[off:off + BL.W].view(np.int64), pos), f"seed {seed}: seat {me} lost seat {q}"
                checked += 1
            t.step(a)
    assert checked > 500


def test_bots_decide_from_the_observation_alone():
    """Twins of real positions that differ only in what the seat may not see get the same
    action from every bot (same memory, same random stream)."""
    p = build(GAME.params, {}, GAME.name)
    b = GAME.board(p)
    rules = Rules()
    fns = entries(GAME)
    rng = np.random.default_rng(4)
    compared = 0
    for seed in range(3):
        t = Table(GAME, b, seed)
        while not t.over():
            me = t.to_move()
            legal = t.legal()
            for name in ("heuristic", "search"):
                bot = GAME.resolve_bots([name], p)[0]
                acts = set()
                for s in [t.s] + list(E.hidden_variants(t.s.copy(), b, me, rng))[:3]:
                    obs = np.zeros(E.OBS_SIZE, np.int32)
                    fns.observe(s, b, me, obs)
                    ib = np.zeros(SE.SCRATCH_NEEDED, np.int32)
                    fb = np.zeros(SE.SCRATCH_NEEDED)
                    acts.add(int(fns.choose(bot.code, bot.flags, obs, legal, t.brng.copy(), b, t.mem[me].copy(), ib, fb)))
                assert len(acts) == 1
                compared += 1
            a, _ = t.decide(GAME.resolve_bots(["heuristic"], p)[0], 0)
            t.step(a)
            if compared > 300:
                return
    assert rules and compared > 100
