"""Checks the conformance suite runs on every game, as functions a contributor can call on a
game being written (``tests/test_conformance.py`` runs them on every registered game).

:func:`observation_leaks` plays random games and, at every position, compares what each
seat is shown with what it is shown in *twins* of the position: copies that differ only in
what that seat may not see, made by the engine's ``hidden_variants(s, b, seat, rng)``. A
game with hidden information must declare them (``check_contract`` says so), and they must
make at least one twin: an observation that moves with a twin shows the seat something
hidden, and is named field by field.
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

from .params import build


def _field_names(E) -> list[str]:
    """The observation's field name at each offset (``obs[12]`` -> "scores[2]")."""
    layout = getattr(E, "OBS", None)
    names = [f"obs[{i}]" for i in range(E.OBS_SIZE)]
    if layout is None:
        return names
    for f in layout.fields.values():
        if f.name in layout.blocks:
            blk = layout.blocks[f.name]
            for p in range(blk.seats):
                for fname, off in blk.fields.items():
                    for k in range(blk.lengths[fname]):
                        at = blk.base + p * blk.stride + off + k
                        if at < len(names):
                            names[at] = f"{f.name}[{p}].{fname}" + (f"[{k}]" if blk.lengths[fname] > 1 else "")
        else:
            for k in range(f.length):
                if f.offset + k < len(names):
                    names[f.offset + k] = f.name if f.scalar else f"{f.name}[{k}]"
    return names


def observation_leaks(game, params: Any = None, seeds: Iterable[int] = range(6), rules=None) -> list[str]:
    """What a seat is shown that it may not see, on positions of random games (empty when
    nothing leaks). Perfect-information games must show the state itself."""
    from .rules import Rules

    rules = rules or Rules(game, params if params is not None else build(game.params, {}, game.name))
    E = rules.E
    if E.PERFECT_INFORMATION:
        st = rules.new(9)
        return [] if np.array_equal(rules.observe(st, 0), st.s) else ["a perfect-information game must observe the whole state"]
    twins = getattr(E, "hidden_variants", None)
    if not callable(twins):
        return ["the game hides information (PERFECT_INFORMATION = False) but its engine has no hidden_variants(s, b, seat, rng): "
                "nothing could check that its observation hides it"]
    names = _field_names(E)
    rng = np.random.default_rng(11)
    positions, problems = 0, []
    for seed in seeds:
        st = rules.new(seed)
        while not rules.over(st):
            for seat in range(rules.seats):
                obs = rules.observe(st, seat)
                if obs.shape != (E.OBS_SIZE,):
                    return [f"observe gives {obs.shape[0]} values, OBS_SIZE is {E.OBS_SIZE}"]
                for other in twins(st.s.copy(), st.b, seat, rng):
                    twin = st.copy()
                    twin.s[:] = other
                    seen = rules.observe(twin, seat)
                    positions += 1
                    if not np.array_equal(seen, obs):
                        moved = [names[i] for i in np.flatnonzero(seen != obs)[:4]]
                        problems.append(f"seed {seed}: seat {seat + 1} sees a change it may not see, in {', '.join(moved)}")
                        if len(problems) >= 3:
                            return problems
            rules.step(st, int(rng.choice(rules.legal(st))))
    if positions == 0:
        problems.append("hidden_variants made no twin on any position: nothing was checked")
    return problems
