"""The independent EFTAIOS model: random self-play, every setting value and event kind (R1-R13)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from simkit.games.eftaios.params import EftaiosParams
from tests.reference.eftaios_model import P_MOVE, Model, RandomChance, default_settings
from tests.reference.eftaios_model_helpers import _data


# ------------------------------------------------------------------ self-play, every setting

def _policy(m: Model, rng: random.Random):
    """A random player nudged towards hatches and attacks, so rare paths are met."""
    legal = m.legal()
    if m.phase == P_MOVE and rng.random() < 0.6:
        seat = m.decider
        if m.seats[seat].side == "human":
            opens = [c for k, c in m.hatch_cell.items() if m.hatch_state[k] == "open"]
            if opens:
                def dist(x):
                    d = m.map.distances(x, lambda s: m.kind[s] in (1, 2), lambda s: s in opens)
                    return min(d.values()) if d else 99
                best = min(legal, key=lambda a: dist(a[1]) if a[0] == "move" else 0 if a[1:] and a[1] in opens else 99)
                return best
        else:
            atk = [a for a in legal if a[0] in ("move_attack", "stay_attack")]
            if atk and rng.random() < 0.3:
                return rng.choice(atk)
    uses = [a for a in legal if a[0].startswith("use_") and a[0] != "use_spotlight"]
    if uses and rng.random() < 0.5:
        return rng.choice(uses)
    lights = [a for a in legal if a[0] == "use_spotlight"]
    if lights and rng.random() < 0.3:
        return rng.choice(lights)
    plain = [a for a in legal if a[0] not in ("move_attack", "use_spotlight")] or legal
    return rng.choice(plain)


def _play(settings: dict, seed: int) -> Model:
    m = Model(settings, _data(settings["map"]))
    ch = RandomChance(seed)
    m.setup(ch)
    rng = random.Random(seed)
    for _ in range(20000):
        if m.over():
            break
        m.apply(_policy(m, rng), ch)
    assert m.over()
    return m


def _setting_values():
    out = []
    for f in dataclasses.fields(EftaiosParams):
        if f.name in ("map_data", "card_data", "max_rounds", "players"):
            continue
        if f.type in (bool, "bool"):
            vals = [False, True]
        elif f.name == "arena_kills":
            vals = [0, 1, 3]
        else:
            vals = list(f.metadata.get("choices") or []) or [f.default]
        for v in vals:
            out.append((f.name, v))
    return out


SCENARIO_OF = {"captain_exemption": "old_guard", "old_guard_spotlight": "old_guard",
               "infected_win_with_aliens": "infection", "infected_keep_items": "infection",
               "arena_safe_sectors": "arena", "arena_start": "arena", "arena_respawn": "arena",
               "arena_kills": "arena", "arena_end": "arena", "stuck_rule": "arena"}


@pytest.mark.parametrize("name,value", _setting_values())
def test_self_play_every_setting_value(name, value):
    extra = {name: value}
    if name not in ("scenario",) and name in SCENARIO_OF:
        extra.setdefault("scenario", SCENARIO_OF[name])
    if name == "stuck_rule":
        extra["map"] = "fermi"
    for seed in range(2):
        s = default_settings(players=4 + seed, max_rounds=25, **extra)
        m = _play(s, seed)
        w = m.won()
        assert len(w) == m.n
        if s["scenario"] != "arena":
            assert m.end_reason in (0, 1, 2, 3)
            assert any(w)
        r = m.results()
        assert r["game"]["turns"] == sum(1 for e in m.log if e[2] == "TURN")


def test_self_play_covers_every_event_kind():
    seen = set()
    for i, (scenario, mode, mp) in enumerate([(sc, md, mp) for sc in ("none", "old_guard", "infection", "arena")
                                               for md in ("basic", "advanced") for mp in ("galilei", "fermi", "galvani")]):
        for seed in range(2):
            s = default_settings(players=[2, 5, 8][(i + seed) % 3], scenario=scenario, mode=mode, map=mp,
                                 arena_start="random" if seed else "choose")
            m = _play(s, i * 10 + seed)
            seen |= {e[2] for e in m.log}
    expected = {"TURN", "RESPAWN", "NOISE", "SILENCE", "QUIET", "ITEM_DRAWN", "ITEM_DISCARDED",
                "ITEM_USED", "SPOTLIGHT", "SEEN", "ATTACK", "PRESENT", "KILLED", "INFECTED",
                "HATCH", "HATCH_RED", "ESCAPED", "GAME_OVER"}
    assert expected <= seen, expected - seen
