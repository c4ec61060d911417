"""`simkit compare`: every seat or every bot, seats rotated, ratios beside differences."""

from __future__ import annotations

import dataclasses

import numpy as np
import polars as pl
import pytest

from simkit.compare import compare, rows
from simkit.games import get
from simkit.params import build
from simkit.runner import RunSpec


# ---- compare: every seat or bot, seats rotated, ratios --------------------------------------
def test_compare_by_bot_with_rotated_seats_and_ratios():
    g = get("aau")
    a = build(g.params, {"players": 3}, g.name)
    b = build(g.params, {"players": 3, "semi_coop": True}, g.name)
    bots = tuple(g.resolve_bots(["strategic", "greedy", "greedy"], a))
    c = compare(g, RunSpec(g, a, bots, 150, 1, True), RunSpec(g, b, bots, 150, 1, True), by="bot", progress=False,
                metrics=["won", "win_share"])
    groups = {m.group for m in c.metrics}
    assert groups == {"bot strategic", "bot greedy"}
    share = {m.group: m for m in c.metrics if m.metric == "win_share"}
    # the strategic bot's share plus the two greedy seats' share makes every decided game
    fa = c.frames[0]
    decided = fa.group_by("game_index").agg(pl.col("won").any())["won"].mean()
    assert share["bot strategic"].a + 2 * share["bot greedy"].a == pytest.approx(decided)
    r = rows(c)
    assert "B / A" in r[0] and "seat or bot" in r[0]
    for m in c.metrics:
        if m.a > 0:
            assert m.ratio == pytest.approx(m.b / m.a)
        assert 0 <= m.p_holm <= 1


def test_compare_every_seat_by_default():
    g = get("aau")
    a = build(g.params, {"players": 2}, g.name)
    b = build(g.params, {"players": 2, "herd_points": "2-6-8"}, g.name)
    bots = tuple(g.resolve_bots(["greedy"], a))
    c = compare(g, RunSpec(g, a, bots, 100, 2), RunSpec(g, b, bots, 100, 2), progress=False, metrics=["score"])
    assert [m.group for m in c.metrics] == ["seat 1", "seat 2"]
    assert all(m.b > m.a for m in c.metrics)  # herds can only score more
    # a game's own column is compared once, not once per seat (each copy counted in Holm's family)
    c = compare(g, RunSpec(g, a, bots, 100, 2), RunSpec(g, b, bots, 100, 2), progress=False, metrics=["earth_won", "score"])
    assert [(m.group, m.metric) for m in c.metrics] == [("the game", "earth_won"), ("seat 1", "score"), ("seat 2", "score")]


def test_a_and_b_and_their_ratio_have_intervals_whose_ratio_covers_at_the_nominal_rate():
    """Each row's A and B carry their own intervals, B / A a paired delta-method one; on
    correlated paired wins (A 30%, B 20%, the games sharing their luck) the ratio's 95%
    interval covers the true 2/3 about 95% of the time."""
    import numpy as np

    from simkit.compare import _metric

    rng = np.random.default_rng(7)
    reps, n, covered = 2000, 400, 0
    for _ in range(reps):
        u = rng.random(n)
        a, b = u < 0.3, (u < 0.2) ^ (rng.random(n) < 0.02)  # mostly the same games: B's wins are A's
        m = _metric("won", a, b, "seat 1")
        covered += m.ratio_ci.lo <= (0.2 * 0.98 + 0.8 * 0.02) / 0.3 <= m.ratio_ci.hi
    rate = covered / reps
    print(f"ratio interval coverage: {rate:.4f}")
    assert abs(rate - 0.95) <= 3 * np.sqrt(0.95 * 0.05 / reps), rate
    assert m.a_ci.lo < m.a < m.a_ci.hi and m.b_ci.lo < m.b < m.b_ci.hi
    row = rows(type("C", (), {"metrics": [m]})())[0]
    assert row["B / A"].count("[") == row["A"].count("[") == row["B"].count("[") == 1


def test_a_change_too_skewed_for_its_games_is_not_called_significant():
    """Rare long games: 5% of 100 games 20 turns longer, the rest 1 shorter. The paired t
    test is not trusted on so few (stats.games_for_t); the row says how many it needs."""
    import types

    from simkit.compare import _metric, rows

    rng = np.random.default_rng(4)
    a = rng.normal(30, 5, 100).round()
    b = a + np.where(np.arange(100) < 5, 21.0, -1.0)
    m = dataclasses.replace(_metric("turns", a, b, "seat 1"), p_holm=0.001)
    (row,) = rows(types.SimpleNamespace(metrics=[m]))
    assert m.t_needs > 100 and row["significant (Holm)"] == f"skewed: needs {m.t_needs:,}"
    m = dataclasses.replace(_metric("turns", a, a + 1 + rng.normal(0, 1, 100), "seat 1"), p_holm=0.001)
    assert rows(types.SimpleNamespace(metrics=[m]))[0]["significant (Holm)"] == "yes"


def test_compare_by_a_column_of_the_seats():
    """--by first: the first player of each game and the other, paired by game (a per-seat
    comparison cannot show what a first-player compensation does: the first seat is drawn)."""
    from simkit.errors import UserError

    g = get("ufoo")
    a = g.params()
    b = build(g.params, {"second_player_structure": 1}, g.name)
    bots = tuple(g.resolve_bots(["aggressive"], a))
    c = compare(g, RunSpec(g, a, bots, 200, 3), RunSpec(g, b, bots, 200, 3), by="first", progress=False, metrics=["won"])
    first = {m.group: m for m in c.metrics}
    assert set(first) == {"first=false", "first=true"} and "group" in rows(c)[0]
    # one winner per decided game: what the first player gains, the other loses
    assert first["first=true"].paired.estimate == pytest.approx(-first["first=false"].paired.estimate, abs=0.02)
    with pytest.raises(UserError, match="column of each seat's own"):
        compare(g, RunSpec(g, a, bots, 20, 3), RunSpec(g, b, bots, 20, 3), by="turns", progress=False)
    with pytest.raises(UserError, match="cannot be paired"):  # a value that some games lack
        compare(g, RunSpec(g, a, bots, 60, 3), RunSpec(g, b, bots, 60, 3), by="kills", progress=False, metrics=["won"])
