"""The conformance suite every registered game must pass (like OpenSpiel's random
simulation tests): the declaration fulfils the contract, random games end and keep
their invariants, seeds reproduce, built-in bots play legal moves in both loops, the
compiled rules equal the same rules run as plain Python, and observations leak nothing
a seat may not see."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from simkit.conformance import observation_leaks
from simkit.conformance import check_contract
from simkit.games import REGISTRY, get
from simkit.params import build
from simkit.bots import bot_table
from simkit.seeding import game_seeds
from simkit.play import simulate
from simkit.rules import Rules

GAMES = [get(name) for name in REGISTRY]
CASES = [(g, v) for g in GAMES for v in g.checks.variants]


def _id(case):
    g, v = case
    return g.name + ("-" + "-".join(f"{k}={x}" for k, x in v.items()) if v else "")


def play_random(rules, seed, rng, max_steps, check=True):
    st = rules.new(seed)
    steps = 0
    actions = []
    while not rules.over(st):
        legal = rules.legal(st)
        assert len(legal) > 0, "a live game with no legal action"
        assert len(set(legal.tolist())) == len(legal), "duplicate legal actions"
        assert all(0 <= a < rules.E.MAX_ACTIONS for a in legal.tolist()), "an action id outside the action space"
        a = int(rng.choice(legal))
        actions.append(a)
        rules.step(st, a)
        if check:
            broken = rules.invariants(st)
            assert not broken, f"seed {seed}, step {steps}: {broken}"
        steps += 1
        assert rules.over(st) or steps < max_steps, f"seed {seed}: no end after {max_steps} steps"  # the loops allow max_steps
    return st, actions


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_declaration_fulfils_the_contract(game):
    """Protocol functions and constants present, folder = registry key = name (for
    the bots too), layout constants agree with the layout, action ranges disjoint."""
    assert not check_contract(game)
    key = next(k for k, m in REGISTRY.items() if get(k) is game)
    assert key == game.name
    ranges = sorted((r.start, r.start + r.size) for r in game.engine.ACTIONS.ranges.values())
    assert all(a1 <= b0 for (_, a1), (b0, _) in zip(ranges, ranges[1:])) and ranges[-1][1] == game.engine.MAX_ACTIONS


def test_games_have_distinct_outcome_hashes():
    hashes = [g.outcome_hash for g in GAMES]
    assert len(set(hashes)) == len(hashes)


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_random_games_end_and_keep_invariants(case):
    game, variant = case
    rules = Rules(game, build(game.params, variant, game.name))
    rng = np.random.default_rng(7)
    for seed in range(25):
        st, _ = play_random(rules, seed, rng, game.max_steps)
        assert not rules.invariants(st)
        won = rules.won(st)
        assert len(won) == rules.seats


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_seed_and_actions_reproduce_the_game(game):
    rules = Rules(game, build(game.params, {}, game.name))
    st1, actions = play_random(rules, 123, np.random.default_rng(1), game.max_steps, check=False)
    st2 = rules.new(123)
    for a in actions:
        rules.step(st2, a)
    assert np.array_equal(st1.s, st2.s)


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_steps_after_the_end_and_illegal_actions_are_refused(game):
    from simkit.rules import IllegalAction

    rules = Rules(game, build(game.params, {}, game.name))
    st = rules.new(4)
    illegal = [a for a in range(game.engine.MAX_ACTIONS) if a not in set(rules.legal(st).tolist())]
    if illegal:
        with pytest.raises(IllegalAction):
            rules.step(st, illegal[0])
    st, _ = play_random(rules, 4, np.random.default_rng(2), game.max_steps, check=False)
    with pytest.raises(IllegalAction):
        rules.step(st, 0)


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_builtin_bots_play_only_legal_moves(case):
    game, variant = case
    params = build(game.params, variant, game.name)
    seeds = game_seeds(3, 0, 12)
    for name in (info.test_name for info in game.bots.values()):
        bots = game.resolve_bots([name], params)
        table = bot_table(len(bots), 0, len(seeds), rotate=True)
        checked = simulate(game, params, seeds, table, bots, checked=True)  # raises on an illegal move
        fast = simulate(game, params, seeds, table, bots)
        for col, values in fast.items():
            assert np.array_equal(np.asarray(values), np.asarray(checked[col])), f"{name}: {col} differs between loops"


# The default settings and every test variant: a leak may show under one setting only.
OBS_CASES = [(g, v) for g in GAMES for v in [{}] + [v for v in g.checks.variants if v]]


@pytest.mark.parametrize("case", OBS_CASES, ids=[_id(c) for c in OBS_CASES])
def test_observations_hide_what_a_seat_may_not_see(case):
    """On positions from real games: the observation depends on the state only through
    what the seat may see. Perfect-information games show the state; others must give
    the same observation for two states that differ only in what is hidden from that
    seat (the game's ``hidden_variants`` makes such twins: simkit.conformance)."""
    game, variant = case
    assert observation_leaks(game, build(game.params, variant, game.name)) == []


def test_a_leaky_observation_fails_the_suite():
    """The check above has the power to fail: the template (Liar's Dice) with an observation
    that also counts the next seat's dice in the seat's own counts (hidden from it by the
    template's twins) is caught and named, and a hidden-information game without twins
    breaks the contract."""
    import dataclasses
    import types

    from numba import njit

    from simkit.games.template.board import B_PLAYERS

    t = get("template")
    E = t.engine

    @njit
    def leaky(s, b, seat, out):
        E.observe(s, b, seat, out)
        nxt = (seat + 1) % b[B_PLAYERS]
        for d in range(E.MAX_DICE):
            face = s[E.PLAYER + nxt * E.P_STRIDE + E.P_FACES + d]
            if face > 0:
                out[E.O_OWN_COUNTS + face] += 1

    engine = types.ModuleType("leaky_engine")
    engine.__dict__.update({k: v for k, v in vars(E).items() if not k.startswith("__") or k == "__file__"})
    engine.observe = leaky
    found = observation_leaks(dataclasses.replace(t, engine=engine))
    assert found and "sees a change it may not see, in own_counts[" in found[0]
    del engine.hidden_variants
    assert any("must define hidden_variants" in p for p in check_contract(dataclasses.replace(t, engine=engine)))
    assert "no hidden_variants" in observation_leaks(dataclasses.replace(t, engine=engine))[0]
    # twins that change nothing check nothing (the newcomer walkthrough's Kuhn poker passed so)
    engine.hidden_variants = lambda s, b, seat, rng: [s.copy()]
    engine.observe = E.observe
    assert "each equal to its position" in observation_leaks(dataclasses.replace(t, engine=engine))[0]


# Rule sets beyond the defaults where plain Python once parted from compiled code (two
# robots: numpy adds two booleans as a logical or; O.V.N.I. below 4 players: the strategic
# bot rounded scratch no planet had written, which plain Python refuses to make an int).
PLAIN_PYTHON_SETS = {"ufs": [{"city": "washington", "city_side": "damaged"}], "ovni": [{"players": 2}]}
PLAIN_PYTHON_CASES = [(g, sets) for g in GAMES for sets in [{}] + PLAIN_PYTHON_SETS.get(g.name, [])]


@pytest.mark.parametrize("game, sets", PLAIN_PYTHON_CASES, ids=[f"{g.name}-{json.dumps(s)}" for g, s in PLAIN_PYTHON_CASES])
def test_compiled_rules_equal_plain_python(game, sets):
    """The same games run with NUMBA_DISABLE_JIT=1 give the same outcomes (searching bots,
    at their test budget, play fewer: plain Python runs their simulations too)."""
    params = build(game.params, sets, game.name)
    games = {info.test_name: 3 if info.tests else 12 for info in game.bots.values()}
    code = (
        "import json, sys, warnings, numpy as np\n"
        "warnings.simplefilter('ignore'); np.seterr(all='ignore')\n"
        "from simkit.games import get\nfrom simkit.params import build\n"
        "from simkit.bots import bot_table\nfrom simkit.play import simulate\nfrom simkit.seeding import game_seeds\n"
        # the loop's scratch starts as garbage, as compiled code's does: a decision may not
        # read what it did not write (it would differ between processes)
        "import types, simkit.loop as L\n"
        "L.np = types.SimpleNamespace(**{**vars(np), 'empty': lambda n, t: np.full(n, 1e300 if t == np.float64 else 1 << 29, t)})\n"
        "g = get(sys.argv[1]); p = build(g.params, json.loads(sys.argv[3]), g.name)\n"
        "out = {}\n"
        "for name, n in json.loads(sys.argv[2]).items():\n"
        "    bots = g.resolve_bots([name], p)\n"
        "    res = simulate(g, p, game_seeds(9, 0, n), bot_table(len(bots), 0, n, True), bots)\n"
        "    out[name] = {k: np.asarray(v).tolist() for k, v in res.items()}\n"
        "print(json.dumps(out))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run([sys.executable, "-c", code, game.name, json.dumps(games), json.dumps(sets)], capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    python_results = json.loads(proc.stdout.strip().splitlines()[-1])
    for name, n in games.items():
        bots = game.resolve_bots([name], params)
        res = simulate(game, params, game_seeds(9, 0, n), bot_table(len(bots), 0, n, True), bots)
        for col, values in res.items():
            assert np.asarray(values).tolist() == python_results[name][col], f"{name}: {col}"
