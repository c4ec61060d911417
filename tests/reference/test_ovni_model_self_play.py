"""The independent O.V.N.I. model: random self-play for every setting value (R20 invariants)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from simkit.games.ovni.params import OVNIParams
from tests.reference.ovni_model import Model, RandomChance


# ---- random self-play for every setting value ----------------------------------------------
def setting_values():
    out = []
    for f in dataclasses.fields(OVNIParams):
        if f.name in ("board", "decks", "players", "max_rounds"):
            continue
        meta = f.metadata
        if meta.get("choices"):
            vals = list(meta["choices"])
        elif isinstance(f.default, bool):
            vals = [False, True]
        else:
            continue
        for v in vals:
            if v != f.default:
                out.append((f.name, v))
    return out


def random_game(settings: dict, seed: int) -> Model:
    m = Model(settings)
    ch = RandomChance(seed)
    m.setup(ch)
    r = random.Random(seed * 7 + 1)
    steps = 0
    while not m.over():
        legal = m.legal()
        assert legal, m.snapshot()
        assert 0 <= m.to_move() < m.n
        # prefer doing something over ending, to exercise the group rules
        acts = [a for a in legal if a[0] not in ("end_group", "end_turn")]
        a = r.choice(acts) if acts and r.random() < 0.85 else r.choice(legal)
        m.apply(a, ch)
        steps += 1
        assert steps < 20000
        check_invariants(m)
    return m


def check_invariants(m: Model) -> None:
    per = m.decks.aliens_per_class - (m.decks.aliens_removed_small if m.n <= 3 else 0)
    for k in range(4):
        assert m.stock[k] + sum(pl.holds(k) for pl in m.pl) == per
        assert m.stock[k] >= 0
    for pl in m.pl:
        assert sum(pl.ufos) + pl.pad + pl.reserve == m.decks.ufos_per_player
        assert 0 <= pl.pad <= m.decks.launch_pad
        assert all(0 <= f <= u for f, u in zip(pl.frozen, pl.ufos))
        assert all(x >= 0 for x in pl.own + pl.capd)
    humans = sum(1 for h in m.city_humans if h is not None) + len(m.track) + sum(sum(pl.humans) for pl in m.pl)
    assert humans == 18


@pytest.mark.parametrize("players", [2, 3, 4])
def test_self_play_defaults(players):
    for seed in range(6):
        m = random_game({"players": players}, seed)
        res = m.results()
        assert res["game"]["players"] == players
        for row in res["seats"]:
            assert row["score"] == sum(row[f"points_{k}"] for k in
                                       ("majorities", "ufos", "airspace", "mapping", "humans", "missions"))
        assert sum(r["win_share"] for r in res["seats"]) == pytest.approx(1.0) or m.capped


@pytest.mark.parametrize("name,value", setting_values())
def test_self_play_every_setting(name, value):
    for players in (2, 3, 4):
        m = random_game({"players": players, name: value}, players * 31 + len(name))
        assert m.over()


def test_self_play_complete_board_and_cap():
    from simkit.games.ovni.data_model import DATA_DIR

    m = random_game({"players": 4, "board": str(DATA_DIR / "board_complete.toml")}, 3)
    assert m.over()
    for res in ("score", "draw"):
        m = random_game({"players": 3, "max_rounds": 2, "cap_result": res}, 4)
        assert m.round <= 2
