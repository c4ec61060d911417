"""Ufo.O compensations K1-K3 (docs/rules/ufo-o.md, "Compensations (not in the rulebook)"):
each does exactly what it says on the real opening position (legal actions, the state after
the actions), only in the turn it names, and at its default changes nothing."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from simkit.games import get
from simkit.games.ufoo import Rules
from simkit.games.ufoo import board as B
from simkit.games.ufoo import engine as E
from simkit.games.ufoo import geometry as G
from simkit.games.ufoo.params import UfoOParams
from simkit.params import build, describe
from simkit.rules import IllegalAction

COLS = 9
COMPENSATIONS = {"first_turn_ufos": 4, "first_turn_steps": 5, "second_player_structure": 0}


def f(st, p, field, k=0):
    return int(st.s[E.SEAT + p * E.S_STRIDE + field + k])


def moves(rules, st) -> dict[int, set[int]]:
    """The legal MOVE actions as ``{ufo: {cells}}``."""
    out: dict[int, set[int]] = {}
    for a in rules.legal(st).tolist():
        if a < E.A_END_MOVE:
            out.setdefault((a - E.A_MOVE) // E.MAX_CELLS, set()).add((a - E.A_MOVE) % E.MAX_CELLS)
    return out


def reach(b, st, p, k, steps) -> set[int]:
    """Plain Python R4.2/R4.3: the empty hexes a BOARD UFO reaches in 1..steps steps through
    open hexes without enemies."""
    start = f(st, p, E.S_CELL, k)
    occupied = {f(st, q, E.S_CELL, j): q for q in range(2) for j in range(4) if f(st, q, E.S_STATUS, j) == E.ST_BOARD}
    seen = {start: 0}
    todo = deque([start])
    while todo:
        c = todo.popleft()
        if seen[c] == steps:
            continue
        for d in range(6):
            n = int(b[B.B_NB + c * 6 + d])
            if n < 0 or n in seen or b[B.B_TERRAIN + n] != B.T_OPEN or occupied.get(n) == 1 - p:
                continue
            seen[n] = seen[c] + 1
            todo.append(n)
    return {c for c in seen if c != start and c not in occupied}


def home(cells, p) -> int:
    """The cell of ``cells`` nearest seat ``p``'s own edge (A at the top, B at the bottom),
    where nothing can be shot and no asteroid rolls."""
    return min(cells) if p == 0 else max(cells)


def opening(first="seat1", seed=1, **settings):
    rules = Rules(first_player=first, **settings)
    return rules, rules.new(seed)


# ---- declarations ---------------------------------------------------------------------------------------
def test_compensations_are_declared_apart_with_rulebook_defaults():
    infos = {i.name: i for i in describe(UfoOParams)}
    assert {n for n, i in infos.items() if i.compensation} == set(COMPENSATIONS)
    for name, default in COMPENSATIONS.items():
        info = infos[name]
        assert info.default == default and info.default in info.choices and len(info.choices) >= 4
        assert info.help.startswith("Compensation (not in the rulebook): ")


def test_defaults_leave_the_board_vector_and_the_opening_as_written():
    """The default parameters are the rulebook: the compensations' board entries say 'no
    limit', the opening offers every UFO its full 5-step moves, both structures are 5."""
    b = B.build(UfoOParams())
    assert (int(b[B.B_FIRST_TURN_UFOS]), int(b[B.B_FIRST_TURN_STEPS]), int(b[B.B_SECOND_STRUCTURE])) == (4, 5, 0)
    for first, p in (("seat1", 0), ("seat2", 1)):
        rules, st = opening(first)
        assert int(st.s[E.TURN]) == 1 and int(st.s[E.ACTIVE]) == p
        got = moves(rules, st)
        assert got == {k: reach(st.b, st, p, k, 5) for k in range(4)}
        assert [f(st, q, E.S_STRUCTURE) for q in range(2)] == [5, 5]


def test_explicit_defaults_play_the_same_games():
    """Setting every compensation to its default plays the very same games (same actions,
    same dice, same end) as not setting them."""
    rng = np.random.default_rng(3)
    for seed in range(4):
        plain, given = Rules(), Rules(**COMPENSATIONS)
        a, c = plain.new(seed), given.new(seed)
        steps = 0
        while not plain.over(a):
            assert np.array_equal(a.s, c.s)
            legal = plain.legal(a)
            assert np.array_equal(legal, given.legal(c))
            x = int(rng.choice(legal))
            plain.step(a, x)
            given.step(c, x)
            steps += 1
            assert steps < 5000
        assert np.array_equal(a.s, c.s)


# ---- K1: first_turn_ufos -----------------------------------------------------------------------------------
@pytest.mark.parametrize("first, p", [("seat1", 0), ("seat2", 1)])
def test_k1_first_player_moves_at_most_n_ufos_in_turn_1(first, p):
    rules, st = opening(first, first_turn_ufos=2)
    b = st.b
    # before any move every UFO may move, its full 5 steps
    assert moves(rules, st) == {k: reach(b, st, p, k, 5) for k in range(4)}
    start = [f(st, p, E.S_CELL, k) for k in range(4)]
    rules.step(st, E.A_MOVE + 3 * E.MAX_CELLS + home(moves(rules, st)[3], p))
    assert int(st.s[E.TURN]) == 1 and int(st.s[E.PHASE]) == E.PH_MOVE
    assert set(moves(rules, st)) == {0, 1, 2}  # a second UFO may still move
    rules.step(st, E.A_MOVE + 0 * E.MAX_CELLS + home(moves(rules, st)[0], p))
    # the limit is reached: no MOVE is legal, the movement ended by itself (R12.1), and with no
    # attack possible in turn 1 the turn passed to the second player
    assert int(st.s[E.TURN]) == 2 and int(st.s[E.ACTIVE]) == 1 - p
    now = [f(st, p, E.S_CELL, k) for k in range(4)]
    assert [now[k] != start[k] for k in range(4)] == [True, False, False, True]
    # the second player is not limited: all 4 UFOs, 5 steps
    assert moves(rules, st) == {k: reach(b, st, 1 - p, k, 5) for k in range(4)}


def test_k1_turn_1_ufos_limit_shows_in_the_legal_actions_before_the_end():
    """With first_turn_ufos=1, after one move nothing but END_MOVE would be legal, so the
    movement ends at once; an illegal second move is refused."""
    rules, st = opening(first_turn_ufos=1)
    before = st.s.copy()
    rules.step(st, E.A_MOVE + 2 * E.MAX_CELLS + min(moves(rules, st)[2]))
    assert int(st.s[E.TURN]) == 2
    moved = [f(st, 0, E.S_CELL, k) != int(before[E.SEAT + E.S_CELL + k]) for k in range(4)]
    assert moved == [False, False, True, False]
    rules2, st2 = opening(first_turn_ufos=1)
    a = E.A_MOVE + 2 * E.MAX_CELLS + min(moves(rules2, st2)[2])
    rules2.step(st2, a)
    with pytest.raises(IllegalAction):
        rules2.step(st2, E.A_MOVE + 3 * E.MAX_CELLS + f(st2, 0, E.S_CELL, 3))


def test_k1_zero_skips_the_first_players_first_turn():
    rules, st = opening(first_turn_ufos=0)
    assert int(st.s[E.TURN]) == 2 and int(st.s[E.ACTIVE]) == 1
    assert [f(st, 0, E.S_CELL, k) for k in range(4)] == [int(st.b[B.B_LAUNCH + k]) for k in range(4)]
    assert moves(rules, st) == {k: reach(st.b, st, 1, k, 5) for k in range(4)}


def test_k1_later_turns_are_unlimited():
    rules, st = opening(first_turn_ufos=1)
    rules.step(st, E.A_MOVE + 0 * E.MAX_CELLS + min(moves(rules, st)[0]))
    while int(st.s[E.TURN]) == 2:
        ph = int(st.s[E.PHASE])
        rules.step(st, E.A_END_MOVE if ph == E.PH_MOVE else E.A_END_TURN if ph == E.PH_ATTACK else int(rules.legal(st)[0]))
    assert int(st.s[E.TURN]) == 3 and int(st.s[E.ACTIVE]) == 0
    assert set(moves(rules, st)) == {0, 1, 2, 3}


# ---- K2: first_turn_steps ------------------------------------------------------------------------------------
@pytest.mark.parametrize("steps", [1, 2, 3, 4])
def test_k2_first_players_turn_1_moves_are_shorter(steps):
    rules, st = opening("seat2", first_turn_steps=steps)
    b = st.b
    got = moves(rules, st)
    assert got == {k: reach(b, st, 1, k, steps) for k in range(4)}
    assert got != {k: reach(b, st, 1, k, 5) for k in range(4)}
    far = sorted(reach(b, st, 1, 2, 5) - reach(b, st, 1, 2, steps))[0]
    with pytest.raises(IllegalAction):
        rules.step(st, E.A_MOVE + 2 * E.MAX_CELLS + far)
    # every UFO moves (K2 limits steps, not UFOs); then the second player has his full 5 steps
    for k in range(4):
        if int(st.s[E.TURN]) == 1:
            rules.step(st, E.A_MOVE + k * E.MAX_CELLS + home(moves(rules, st)[k], 1))
    if int(st.s[E.TURN]) == 1:
        rules.step(st, E.A_END_TURN)
    assert int(st.s[E.TURN]) == 2 and int(st.s[E.ACTIVE]) == 0
    assert moves(rules, st) == {k: reach(b, st, 0, k, 5) for k in range(4)}


def test_k2_does_not_shrink_the_enemy_reach_the_engine_computes():
    """move_destinations for the second player in turn 1 (what a bot reads to foresee his
    reply) keeps 5 steps."""
    from simkit.jit import entry

    rules, st = opening("seat1", first_turn_steps=1)
    md = entry(E.move_destinations)
    lo, hi = md(st.s, st.b, 1, 2)
    cells = {c for c in range(64) if (int(lo) >> c) & 1} | {64 + c for c in range(64) if (int(hi) >> c) & 1}
    assert cells == reach(st.b, st, 1, 2, 5)


def test_k1_and_k2_combine():
    rules, st = opening(first_turn_ufos=3, first_turn_steps=2)
    assert moves(rules, st) == {k: reach(st.b, st, 0, k, 2) for k in range(4)}
    for k in range(3):
        assert int(st.s[E.TURN]) == 1
        rules.step(st, E.A_MOVE + k * E.MAX_CELLS + home(moves(rules, st)[k], 0))
    assert int(st.s[E.TURN]) == 2 and f(st, 0, E.S_MOVED, 3) == 0


# ---- K3: second_player_structure -------------------------------------------------------------------------------
@pytest.mark.parametrize("bonus", [1, 2, 3])
@pytest.mark.parametrize("first", ["seat1", "seat2", "roll"])
def test_k3_second_players_mothership_starts_sturdier(bonus, first):
    for seed in range(3):
        rules, st = opening(first, seed=seed, second_player_structure=bonus)
        p = int(st.s[E.FIRST_SEAT])
        assert f(st, p, E.S_STRUCTURE) == 5
        assert f(st, 1 - p, E.S_STRUCTURE) == 5 + bonus
        assert not rules.invariants(st)


def test_k3_the_extra_structure_must_be_shot_away_too():
    """An ion hit on the sturdier mothership takes 1 off as usual; the game goes on until 0."""
    rules, st = opening("seat1", second_player_structure=2)
    # put A's UFO 0 on a launch hex of B (seat 1) in turn 3, and roll a 6
    from tests.test_ufoo_rules import dice, position

    position(rules, st, {(0, 0): (3, 9)}, active=0, phase=E.PH_ATTACK, turn=3)
    st.s[E.SEAT + 1 * E.S_STRIDE + E.S_STRUCTURE] = 1 + 2
    dice(st, 6)
    rules.step(st, E.A_ION_MS + 0)
    assert f(st, 1, E.S_STRUCTURE) == 2 and not rules.over(st)
    assert not rules.invariants(st)


# ---- the bots obey them --------------------------------------------------------------------------------------
@pytest.mark.parametrize("bot", ["tactical", "aggressive", "search:budget=2"])
def test_bots_obey_the_compensations(bot):
    """The bots plan their moves with the engine's own tests (can_move, move_destinations):
    with K1 and K2 on they move at most 1 UFO at most 2 steps in turn 1 (every action they
    pick is checked legal by the step function)."""
    from simkit.play import Table

    game = get("ufoo")
    params = build(game.params, {"first_turn_ufos": 1, "first_turn_steps": 2, "second_player_structure": 1}, "ufoo")
    bots = game.resolve_bots([bot], params)
    b = game.board(params)
    for seed in range(3):
        t = Table(game, b, seed)
        p = int(t.s[E.FIRST_SEAT])
        start = [int(t.s[E.SEAT + p * E.S_STRIDE + E.S_CELL + k]) for k in range(4)]
        while int(t.s[E.TURN]) == 1:
            a, _ = t.decide(bots[0], 0)
            assert a in set(t.legal().tolist())
            if a < E.A_END_MOVE:
                k, c = (a - E.A_MOVE) // E.MAX_CELLS, (a - E.A_MOVE) % E.MAX_CELLS
                assert c in reach(b, t, p, k, 2)
            t.step(a)
        now = [int(t.s[E.SEAT + p * E.S_STRIDE + E.S_CELL + k]) for k in range(4)]
        assert sum(x != y for x, y in zip(start, now)) <= 1
