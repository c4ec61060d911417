"""The conformance suite every registered game must pass (like OpenSpiel's random
simulation tests): random games end, invariants hold after every step, seeds
reproduce, built-in bots play legal moves, and the compiled rules equal the same
rules run as plain Python."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from simkit.games import REGISTRY, get
from simkit.params import build
from simkit.runner import bot_table
from simkit.seeding import game_seeds

GAMES = [get(name) for name in REGISTRY]
CASES = [(g, v) for g in GAMES for v in g.test_variants]


def _id(case):
    g, v = case
    return g.name + ("-" + "-".join(f"{k}={x}" for k, x in v.items()) if v else "")


def play_random(rules, seed, rng, max_steps):
    st = rules.new(seed)
    steps = 0
    actions = []
    while not rules.over(st):
        legal = rules.legal(st)
        assert len(legal) > 0, "a live game with no legal action"
        assert len(set(legal.tolist())) == len(legal), "duplicate legal actions"
        a = int(rng.choice(legal))
        actions.append(a)
        rules.step(st, a)
        broken = rules.invariants(st)
        assert not broken, f"seed {seed}, step {steps}: {broken}"
        steps += 1
        assert steps < max_steps, f"seed {seed}: no end after {max_steps} steps"
    return st, actions


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_random_games_end_and_keep_invariants(case):
    game, variant = case
    rules = game.rules(build(game.params, variant, game.name))
    rng = np.random.default_rng(7)
    for seed in range(25):
        st, _ = play_random(rules, seed, rng, game.max_steps)
        assert not rules.invariants(st)


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_seed_and_actions_reproduce_the_game(game):
    rules = game.rules(build(game.params, {}, game.name))
    st1, actions = play_random(rules, 123, np.random.default_rng(1), game.max_steps)
    st2 = rules.new(123)
    for a in actions:
        rules.step(st2, a)
    assert np.array_equal(st1.s, st2.s)


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_builtin_bots_play_only_legal_moves(case):
    game, variant = case
    params = build(game.params, variant, game.name)
    seeds = game_seeds(3, 0, 12)
    for name in game.bots:
        bots = game.resolve_bots([name], params)
        table = bot_table(len(bots), 0, len(seeds), rotate=True)
        checked = game.simulate(params, seeds, table, bots, checked=True)  # raises on an illegal move
        fast = game.simulate(params, seeds, table, bots)
        for col, values in fast.items():
            assert np.array_equal(np.asarray(values), np.asarray(checked[col])), f"{name}: {col} differs between loops"


# Rule sets beyond the defaults where plain Python once parted from compiled code
# (two robots: numpy adds two booleans as a logical or).
PLAIN_PYTHON_SETS = {"ufs": [{"city": "washington", "city_side": "damaged"}]}
PLAIN_PYTHON_CASES = [(g, sets) for g in GAMES for sets in [{}] + PLAIN_PYTHON_SETS.get(g.name, [])]


@pytest.mark.parametrize("game, sets", PLAIN_PYTHON_CASES, ids=[f"{g.name}-{json.dumps(s)}" for g, s in PLAIN_PYTHON_CASES])
def test_compiled_rules_equal_plain_python(game, sets):
    """The same games run with NUMBA_DISABLE_JIT=1 give the same outcomes."""
    params = build(game.params, sets, game.name)
    n = 12
    code = (
        "import json, sys, warnings, numpy as np\n"
        "warnings.simplefilter('ignore'); np.seterr(all='ignore')\n"
        "from simkit.games import get\nfrom simkit.params import build\n"
        "from simkit.runner import bot_table\nfrom simkit.seeding import game_seeds\n"
        "g = get(sys.argv[1]); p = build(g.params, json.loads(sys.argv[3]), g.name)\n"
        "out = {}\n"
        "for name in g.bots:\n"
        "    bots = g.resolve_bots([name], p)\n"
        "    res = g.simulate(p, game_seeds(9, 0, int(sys.argv[2])), bot_table(len(bots), 0, int(sys.argv[2]), True), bots)\n"
        "    out[name] = {k: np.asarray(v).tolist() for k, v in res.items()}\n"
        "print(json.dumps(out))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run([sys.executable, "-c", code, game.name, str(n), json.dumps(sets)], capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    python_results = json.loads(proc.stdout.strip().splitlines()[-1])
    for name in game.bots:
        bots = game.resolve_bots([name], params)
        res = game.simulate(params, game_seeds(9, 0, n), bot_table(len(bots), 0, n, True), bots)
        for col, values in res.items():
            assert np.asarray(values).tolist() == python_results[name][col], f"{name}: {col}"
