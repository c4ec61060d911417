"""Shared helpers for the tests of the independent EFTAIOS model (tests/reference/eftaios_model.py),
tests/reference/test_eftaios_model_*.py: card and character ids, a set-up with scripted chance,
and the position builders. Rule numbers (R1, E1, T1, A1 ...) refer to docs/rules/eftaios.md.
"""

from __future__ import annotations

from functools import lru_cache

from simkit.games.eftaios import data_model as dm
from tests.reference.eftaios_model import (
    P_MOVE, P_PRE, Model, ScriptedChance, default_settings, sector_id as S, sector_name as N,
)


# Card ids in cards.toml order.
NOISE_HERE_ITEM, NOISE_HERE, NOISE_ANY_ITEM, NOISE_ANY, SILENCE = 0, 4, 10, 14, 20
ATTACK, TELEPORT, ADRENALINE, SEDATIVES, SPOTLIGHT, DEFENCE = 0, 2, 4, 6, 9, 11
GREEN, RED = 0, 3
CAPTAIN, PILOT, PSYCHOLOGIST, SOLDIER, ALIEN1, ALIEN2, ALIEN3, PAOLO = range(8)


@lru_cache(maxsize=None)
def _data(map_name: str):
    return dm.load_map(map_name), dm.load_cards()


def complete(first, pool):
    """A deck order that starts with ``first`` and goes on with the rest of ``pool``."""
    first = list(first)
    return first + [c for c in pool if c not in first]


def new(players=2, deal=None, first=0, danger=(), items=(), hatch=(), starts=None, **over) -> Model:
    """A set-up game with scripted chance: ``deal`` = character per seat."""
    s = default_settings(players=players, **over)
    m = Model(s, _data(s["map"]))
    script = []
    if s["scenario"] != "arena":
        deal = list(deal) if deal is not None else list(range(players // 2)) + list(range(4, 4 + players - players // 2))
        script += [complete([c for c in deal if c < 4], range(4)),
                   complete([c for c in deal if c >= 4], range(4, 8)), deal]
    script.append(complete(danger, range(25)))
    if s["mode"] == "advanced":
        script.append(complete(items, range(12)))
        if s["scenario"] != "infection":
            script.append(complete(hatch, range(6)))
    script.append(first)
    if s["scenario"] == "arena" and s["arena_start"] == "random":
        script += list(starts) if starts is not None else [0] * players
    ch = ScriptedChance(script)
    m.setup(ch)
    assert not ch.outcomes, "setup did not use the whole script"
    return m


def place(m: Model, **where):
    """Fix seats' positions (seat index -> sector name), then restart the active turn there."""
    for key, name in where.items():
        m.seats[int(key[1:])].position = S(name)
    refresh(m)


def give(m: Model, seat: int, *cards: int):
    m.seats[seat].items.extend(cards)
    for c in cards:
        if c in m.item_deck:
            m.item_deck.remove(c)
    refresh(m)


def refresh(m: Model):
    """Re-open the active seat's turn from its current state (tests fix the state mid-setup)."""
    a = m.active
    m.turn.start_sector = m.seats[a].position
    m.decider = a
    m.phase = P_PRE if m._pre_options(a) else P_MOVE


def kinds(m: Model, since=0):
    return [(e[1], e[2], e[3]) for e in m.log[since:]]


def moves(m: Model) -> set[str]:
    return {N(a[1]) for a in m.legal() if a[0] == "move"}


NONE = ScriptedChance([])  # a chance object that must not be asked


def _julia_at_t13(**over):
    m = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1], **over)
    place(m, s0="T13")
    give(m, 0, ADRENALINE)
    return m
