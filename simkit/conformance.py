"""Checks the conformance suite runs on every game, as functions a contributor can call on a
game being written (``tests/test_conformance.py`` runs them on every registered game).

:func:`check_contract` reads the declaration: the protocol's functions and constants, the
bots' table, the loop bound to this game's engine and bots, the layout's offsets.

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

from .game import CHOOSE_ARGS, PROTOCOL, GameSpec
from .params import build
from .protocol import game_loop


def _arity(f) -> int | None:
    import inspect

    try:
        return len(inspect.signature(getattr(f, "py_func", f)).parameters)
    except (TypeError, ValueError):
        return None


def check_contract(game: GameSpec) -> list[str]:
    """What a game's declaration lacks or gets wrong (empty when it fulfils the contract)."""
    problems = []
    E = game.engine
    for fn in ("init_state", "legal_actions", "apply_action", "to_move", "is_over", "observe"):
        if not callable(getattr(E, fn, None)):
            problems.append(f"engine has no {fn}()")
    for const in ("STATE", "ACTIONS", "MAX_ACTIONS", "OBS_SIZE", "PERFECT_INFORMATION"):
        if not hasattr(E, const):
            problems.append(f"engine has no {const}")
    if hasattr(E, "ACTIONS") and getattr(E, "MAX_ACTIONS", None) != E.ACTIONS.size:
        problems.append("MAX_ACTIONS differs from ACTIONS.size")
    if getattr(E, "PERFECT_INFORMATION", False) and hasattr(E, "STATE") and E.OBS_SIZE != E.STATE.size:
        problems.append("a perfect-information game's observation is the state: OBS_SIZE must equal STATE.size")
    if getattr(E, "PERFECT_INFORMATION", True) is False and not callable(getattr(E, "hidden_variants", None)):
        problems.append("a game that hides information (PERFECT_INFORMATION = False) must define hidden_variants(s, b, seat, rng) "
                        "in its engine: copies of s differing only in what seat may not see (simkit.conformance)")
    S = game.strategies
    for const in ("BOTS", "CHOOSE", "SCRATCH", "MEMORY"):
        if not hasattr(S, const):
            problems.append(f"strategies module has no {const}")
    if game.default_bot not in getattr(S, "BOTS", {}):
        problems.append(f"default bot {game.default_bot!r} is not a built-in bot")
    if game.checks.template and game.name != "template":
        problems.append("Checks(template=True) hides this game from `simkit games` and the reports: a copy of the template drops it")
    rules_folder, bots_folder = game.folders
    if rules_folder.name != game.name or bots_folder.name != game.name:
        problems.append(f"folders {rules_folder.name!r} / {bots_folder.name!r} differ from the name {game.name!r}")
    codes = [b.code for b in getattr(S, "BOTS", {}).values()]
    if sorted(codes) != list(range(len(codes))):
        problems.append("bot codes must be 0 .. n-1")
    for owner, fn, params in PROTOCOL:
        f = getattr(E if owner == "engine" else S, fn, None)
        if callable(f):
            got = _arity(f)
            if got is not None and got != len(params):
                problems.append(f"{owner} {fn}() takes {got} arguments; the loop calls {fn}({', '.join(params)})")
    choosers = getattr(S, "CHOOSE", ())
    if not isinstance(choosers, tuple) or len(choosers) != len(codes):
        problems.append(f"strategies CHOOSE must be a tuple of one function per bot code ({len(codes)} bots)")
    else:
        for code, f in enumerate(choosers):
            got = _arity(f) if callable(f) else None
            if not callable(f) or (got is not None and got != len(CHOOSE_ARGS)):
                problems.append(f"strategies CHOOSE[{code}] must be a function ({', '.join(CHOOSE_ARGS)})")
    try:
        loop = game_loop(game)
    except Exception as exc:  # a contributor's loop.py that does not import: say so, do not crash the check
        problems.append(f"loop.py does not import: {type(exc).__name__}: {exc}")
    else:
        if getattr(loop, "E", None) is not E:
            problems.append("loop.py must bind this game's engine ('from . import engine as E')")
        bound = getattr(loop, "bots", None)
        own = f"strategies.{game.name}"
        if S.__name__ != own:  # the declaration, not loop.py, names another game's bots
            problems.append(f"__init__.py declares the bots of {S.__name__!r}: write 'import {own} as bots' there "
                            f"(simkit/games/{game.name}/__init__.py)")
        elif bound is not S:
            problems.append(f"loop.py binds the bots of {getattr(bound, '__name__', bound)!r}, not {S.__name__!r}: "
                            f"write 'import {S.__name__} as bots' in simkit/games/{game.name}/loop.py")
    if hasattr(E, "STATE"):
        consts = {k: v for k, v in vars(E).items() if k.isupper() and isinstance(v, int) and not isinstance(v, bool)}
        for cname, off in E.STATE.offsets().items():
            if cname in consts and consts[cname] != off:
                problems.append(f"engine constant {cname} = {consts[cname]} but the layout puts {cname.lower()} at {off}")
    return problems


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
    positions, changed, problems = 0, 0, []
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
                    changed += not np.array_equal(other, st.s)
                    if not np.array_equal(seen, obs):
                        moved = [names[i] for i in np.flatnonzero(seen != obs)[:4]]
                        problems.append(f"seed {seed}: seat {seat + 1} sees a change it may not see, in {', '.join(moved)}")
                        if len(problems) >= 3:
                            return problems
            rules.step(st, int(rng.choice(rules.legal(st))))
    if positions == 0:
        problems.append("hidden_variants made no twin on any position: nothing was checked")
    elif changed == 0:
        problems.append(f"hidden_variants returned {positions:,} twins, each equal to its position: a twin must change "
                        "what the seat may not see (another seat's hand, a face-down token), or nothing is checked")
    return problems
