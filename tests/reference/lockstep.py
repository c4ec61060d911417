"""Replaying engine games against an independent model of the rules, step by step.

The model (``tests/reference/<game>_model.py``) was written from the rulebook by
someone who never read the engine. After every step the engine's chance outcomes
(its ``chance_log``, see docs/adding-a-game.md) are handed to the model, and the two
must agree on who moves, on the set of legal actions, on the state (the game's
``project`` function turns the engine's named fields into the model's snapshot) and,
at the end, on who won. Any divergence is a bug in one of the two, settled from the
rulebook.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simkit.play import Table
from simkit.seeding import game_seeds
from simkit.rules import Rules


class LogChance:
    """The engine's chance outcomes of one step, given to the model in order."""

    def __init__(self, values: list[int]):
        self.values = list(values)
        self.pos = 0

    def _next(self, tag: str) -> int:
        if self.pos >= len(self.values):
            raise AssertionError(f"the model asked for chance ({tag}) the engine did not draw")
        v = self.values[self.pos]
        self.pos += 1
        return v

    def die(self, tag: str = "") -> int:
        v = self._next(tag)
        assert 1 <= v <= 6, f"{tag}: engine logged {v} where the model expects a die"
        return v

    def choice(self, tag: str, k: int) -> int:
        v = self._next(tag)
        assert 0 <= v < k, f"{tag}: engine logged {v} where the model expects a choice among {k}"
        return v

    def shuffle(self, tag: str, items: list) -> list:
        out = [self._next(tag) for _ in items]
        assert sorted(out) == sorted(items), f"{tag}: the engine's shuffle {out} is not a permutation of {sorted(items)}"
        return out

    def done(self) -> bool:
        return self.pos == len(self.values)


def chance_log(game, s: np.ndarray) -> list[int]:
    E = game.engine
    return [int(x) for x in s[E.CHANCE_LOG:E.CHANCE_LOG + int(s[E.CHANCE_N])]]


def replay(game, params, bots, model_factory: Callable[[], Any], action_of: Callable[[int], tuple],
           project: Callable[[dict, np.ndarray], dict], seed: int = 7, games: int = 5,
           rotate: bool = True, compare_observations: Callable | None = None) -> int:
    """Plays ``games`` seeded games with the engine (Python loop, every action checked)
    and the model in lockstep; raises AssertionError at the first divergence. Returns
    the number of steps compared."""
    from simkit.bots import bot_table

    b = game.board(params)
    seats = game.seats(params)
    steps = 0
    rules = Rules(game, params)
    for g, s_ in enumerate(game_seeds(seed, 0, games)):
        table = bot_table(seats, g, g + 1, rotate)[0]
        t = Table(game, b, int(s_))
        model = model_factory()
        chance = LogChance(chance_log(game, t.s))
        model.setup(chance)
        assert chance.done(), f"game {g}: the model used {chance.pos} of the {len(chance.values)} set-up chance values"
        where = f"game {g} (seed {int(s_)})"
        while True:
            view = rules.E.STATE.view(t.s, seats)
            assert project(view, t.s) == _plain(model.snapshot()), \
                f"{where}, step {steps}: states differ:\n{_diff(project(view, t.s), model)}"
            assert t.over() == model.over(), f"{where}, step {steps}: engine over={t.over()}, model over={model.over()}"
            if t.over():
                break
            assert t.to_move() == model.to_move(), f"{where}, step {steps}: engine seat {t.to_move()} to move, model {model.to_move()}"
            engine_legal = {action_of(int(a)) for a in t.legal()}
            model_legal = {tuple(a) for a in model.legal()}
            assert engine_legal == model_legal, (f"{where}, step {steps}: legal actions differ; engine only {sorted(engine_legal - model_legal)[:8]}, "
                                                 f"model only {sorted(model_legal - engine_legal)[:8]}")
            if compare_observations is not None:
                for seat in range(seats):
                    compare_observations(rules, t, model, seat, where, steps)
            a, _ = t.decide(bots[table[t.to_move()]], g)
            t.step(a)
            chance = LogChance(chance_log(game, t.s))
            model.apply(action_of(a), chance)
            assert chance.done(), f"{where}, step {steps}: the model used {chance.pos} of the engine's {len(chance.values)} chance values after {action_of(a)}"
            steps += 1
        assert list(rules.won(_state(t))) == list(model.won()), f"{where}: winners differ: engine {rules.won(_state(t))}, model {model.won()}"
    return steps


def _state(t: Table):
    from simkit.rules import State

    return State(t.s, t.rng, t.b)


def _plain(x):
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, np.integer):
        return int(x)
    return x


def _diff(engine: dict, model) -> str:
    snap = _plain(model.snapshot())
    lines = []
    for k in sorted(set(engine) | set(snap)):
        if engine.get(k) != snap.get(k):
            lines.append(f"  {k}: engine {engine.get(k)!r} model {snap.get(k)!r}")
    return "\n".join(lines[:12])
