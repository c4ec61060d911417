"""The independent Ufo.O model: random self-play ending properly for every setting value."""

from __future__ import annotations

import random

import pytest

from tests.reference import ufoo_model as M
from tests.reference.ufoo_model import BOARD, PUSH, Model, RandomChance
from tests.reference.ufoo_model_helpers import STANDIN, NO_OUTLIERS


# ============================================================================================
# 3. random self-play for every setting value
# ============================================================================================


def check_invariants(m):
    s = m.snapshot()
    cells = []
    for seat in range(2):
        for u in s["ufos"][seat]:
            if u["status"] == BOARD:
                c = u["cell"]
                assert m.is_hex(c), c
                cells.append(c)
            else:
                assert u["cell"] is None and not u["damaged"]
            if seat != s["active"] and not s["over"]:
                assert not (u["moved"] or u["attacked"] or u["ms_attacked"] or u["repaired"])
            assert int(u["attacked"]) + int(u["repaired"]) + (int(u["ms_attacked"]) if m.s["mothership_attack_uses_attack"] else 0) <= 1
    assert len(cells) == len(set(cells))
    for seat in range(2):
        assert 0 <= s["structure"][seat] <= m.start_structure[seat]
    assert s["over"] == (0 in s["structure"] or s["draw"])
    assert (s["winner"] != -1) == (0 in s["structure"])
    assert 1 <= s["turn"] <= m.s["turn_cap"]
    if m.s["attacks_per_turn"] == "one":
        assert s["attacks_made"] <= 1
    if not s["over"]:
        assert (s["phase"] == PUSH) == (s["push"] is not None)
        assert s["to_move"] == (s["push"]["winner_seat"] if s["phase"] == PUSH else s["active"])
        assert len(m.legal()) >= 2  # R12.1: single options are never left pending


def random_game(settings, board, seed, bias=0.7):
    """A random game: attacks are preferred (``bias``) so that games get decided."""
    m = Model(settings, board)
    ch = RandomChance(seed)
    rng = random.Random(seed * 7919 + 1)
    m.setup(ch)
    check_invariants(m)
    steps = 0
    while not m.over():
        legal = m.legal()
        strong = [a for a in legal if a[0] in ("ion_ms", "laser", "ion", "push", "crash", "volley")]
        forward = [a for a in legal if a[0] == "move"]
        if strong and rng.random() < bias:
            a = rng.choice(strong)
        elif forward and rng.random() < 0.8:
            # head for the enemy mothership half of the time
            enemy = board.motherships[1 - m.active].launch
            if rng.random() < 0.5:
                a = min(forward, key=lambda x: (min(M.hex_distance((x[2], x[3]), e) for e in enemy), rng.random()))
            else:
                a = rng.choice(forward)
        else:
            a = rng.choice(legal)
        m.apply(a, ch)
        check_invariants(m)
        steps += 1
    return m, steps


VARIANTS = [(name, v) for name, vals in M.CHOICES.items() for v in vals[1:]] + [("board", "no-outliers")]


@pytest.mark.parametrize("name,value", VARIANTS, ids=[f"{n}={v}" for n, v in VARIANTS])
def test_random_games_end_properly(name, value):
    board = STANDIN
    settings = {"turn_cap": 120}
    if name == "board":
        board = NO_OUTLIERS
    else:
        settings[name] = value
    if name == "push_path" and value == "away":
        settings["fire_lines"] = "straight"
    for seed in range(3):
        m, steps = random_game(settings, board, seed)
        o = m.outcome()
        assert m.over() and steps > 0
        assert o["draw"] == 1 or o["structure"][1 - o["winner"]] == 0
        assert sum(o["won"]) == (0 if o["draw"] else 1)


def test_random_games_default_settings_get_decided():
    wins = 0
    for seed in range(6):
        m, _ = random_game({}, STANDIN, 100 + seed)
        o = m.outcome()
        wins += o["winner"] != -1
        assert o["turns"] <= 200 and o["rounds"] == (o["turns"] + 1) // 2
        assert sum(o["ms_hits"]) >= 5 * (o["winner"] != -1)
        assert o["ufos_lost"][0] + o["ufos_lost"][1] >= o["kills"][0] + o["kills"][1]
    assert wins >= 3


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        Model({"push_path": "away", "fire_lines": "any"}, STANDIN)
    with pytest.raises(ValueError):
        Model({"push_path": "sideways"}, STANDIN)
