"""The game template works: it passes the conformance checks every game must pass."""

import numpy as np

from simkit.games._template import SPEC
from simkit.params import build
from simkit.runner import RunSpec, bot_table, run
from simkit.seeding import game_seeds

from .test_conformance import play_random


def test_template_game_plays_and_conforms():
    for variant in SPEC.test_variants:
        params = build(SPEC.params, variant, SPEC.name)
        rules = SPEC.rules(params)
        rng = np.random.default_rng(0)
        for seed in range(10):
            st, _ = play_random(rules, seed, rng, SPEC.max_steps)
            assert not rules.invariants(st)
        bots = SPEC.resolve_bots(["hold20"], params)
        seeds = game_seeds(1, 0, 50)
        table = bot_table(len(bots), 0, 50, True)
        fast = SPEC.simulate(params, seeds, table, bots)
        checked = SPEC.simulate(params, seeds, table, bots, checked=True)
        for k in fast:
            assert np.array_equal(fast[k], checked[k])
    res = run(RunSpec(SPEC, build(SPEC.params, {}, SPEC.name), tuple(SPEC.resolve_bots([], build(SPEC.params, {}, SPEC.name))), 200, 3), None, progress=False)
    assert res.frame.height == 400 and res.frame.filter(res.frame["seat"] == 0)["won"].mean() > 0.3
