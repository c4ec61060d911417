"""The independent Ufo.O model: its settings table and its hex geometry on the board (R1)."""

from __future__ import annotations

import dataclasses

from simkit.games.ufoo import geometry as G
from simkit.games.ufoo.params import UfoOParams
from tests.reference import ufoo_model as M
from tests.reference.ufoo_model_helpers import STANDIN, NO_OUTLIERS, fresh, arrange, cells_of


# ============================================================================================
# 1. settings and geometry
# ============================================================================================


def test_defaults_and_choices_match_params():
    # the model is the rulebook: compensations (not in the rulebook, for simkit tune) are not its settings
    fields = {f.name: f for f in dataclasses.fields(UfoOParams) if not f.metadata.get("compensation")}
    assert set(fields) == set(M.DEFAULTS)
    assert {k: v for k, v in dataclasses.asdict(UfoOParams()).items() if k in fields} == M.DEFAULTS
    for name, f in fields.items():
        if name in M.CHOICES:
            want = f.metadata["choices"] or (False, True)
            assert set(want) == set(M.CHOICES[name]), name
            assert M.CHOICES[name][0] == M.DEFAULTS[name], name


def test_interface_step_table():
    # the interface's table, written out: (dcol, drow) for E, NE, NW, W, SW, SE
    even = [(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)]
    odd = [(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)]
    for d in range(6):
        assert M.hex_step((4, 4), d) == (4 + even[d][0], 4 + even[d][1])
        assert M.hex_step((4, 5), d) == (4 + odd[d][0], 5 + odd[d][1])
        # opposite direction = d + 3
        assert M.hex_step(M.hex_step((4, 4), d), (d + 3) % 6) == (4, 4)
        assert M.hex_step(M.hex_step((4, 5), d), (d + 3) % 6) == (4, 5)


def test_own_geometry_matches_helpers():
    cells = [(c, r) for r in range(-2, 13) for c in range(-2, 11)]
    for a in cells:
        for d in range(6):
            assert M.hex_step(a, d) == G.step(a, d)
        assert M.cube(a) == G.to_cube(a)
        if 0 <= a[0] < 9 and 0 <= a[1] < 11:
            assert sorted(n for n in M.all_neighbours(a) if 0 <= n[0] < 9 and 0 <= n[1] < 11) == sorted(G.neighbours(a, 9, 11))
            assert sorted(t for _, _, t in G.line2(a, 9, 11)) == sorted(
                b for b in cells if 0 <= b[0] < 9 and 0 <= b[1] < 11 and M.hex_distance(a, b) == 2 and M.on_straight_line(a, b))
            assert sorted(G.ring2(a, 9, 11)) == sorted(
                b for b in cells if 0 <= b[0] < 9 and 0 <= b[1] < 11 and M.hex_distance(a, b) == 2)
        for b in cells:
            assert M.hex_distance(a, b) == G.distance(a, b)
            assert M.on_straight_line(a, b) == G.straight(a, b)
            if M.hex_distance(a, b) == 2:
                assert M.cells_between(a, b) == sorted(G.between(a, b))
            if M.on_straight_line(a, b):
                assert M.direction_of(a, b) == G.direction(a, b)


def test_between_may_leave_the_grid_for_on_grid_cells():
    """Finding: geometry.between's docstring says off-grid cells appear "only if a/b are
    off-grid"; on the west edge two on-grid cells 2 apart off a straight line have one common
    neighbour off the grid (the stand-in has an asteroid on the other one, (0, 5))."""
    a, b = (0, 4), (0, 6)
    assert M.hex_distance(a, b) == 2 and not M.on_straight_line(a, b)
    assert M.cells_between(a, b) == [(-1, 5), (0, 5)]
    assert sorted(G.between(a, b)) == [(-1, 5), (0, 5)]
    # the model: an off-grid hex holds nothing and does not block (fire_lines=any only)
    m = fresh(STANDIN, fire_lines="any")
    assert m.rule_line_of_fire(a, b)


def test_middle_of_a_straight_line_is_always_on_the_grid():
    on = [(c, r) for r in range(11) for c in range(9)]
    for a in on:
        for b in on:
            if M.hex_distance(a, b) == 2 and M.on_straight_line(a, b):
                (mid,) = M.cells_between(a, b)
                assert 0 <= mid[0] < 9 and 0 <= mid[1] < 11


def test_launch_hexes_are_the_picture_neighbours_and_board_is_symmetric():
    for ms in STANDIN.motherships:
        (pic,) = ms.cells
        ring = {n for n in M.all_neighbours(pic) if 0 <= n[0] < 9 and 0 <= n[1] < 11}
        assert set(ms.launch) == ring and len(ring) == 4
    a, b = STANDIN.motherships
    assert [(c, 10 - r) for c, r in a.launch] == list(b.launch)
    assert {(c, 10 - r) for c, r in STANDIN.asteroids} == set(STANDIN.asteroids)


def test_standin_facts_stated_by_the_interface():
    """Component facts: every open hex of rows 4-6 touches an asteroid (with or without the
    outliers); from a launch hex a UFO reaches row 6 (row 4 from B's side) in one move."""
    for board in (STANDIN, NO_OUTLIERS):
        m = fresh(board)
        for r in (4, 5, 6):
            for c in range(9):
                if (c, r) not in board.asteroids:
                    assert m.next_to_asteroid((c, r)), (c, r)
        assert any(r == 6 for k in range(4) for _, r in cells_of(m, "move", k))
        assert not any(r >= 7 for k in range(4) for _, r in cells_of(m, "move", k))
        m = arrange(fresh(board), {(1, k): board.motherships[1].launch[k] for k in range(4)}, active=1)
        assert any(r == 4 for k in range(4) for _, r in cells_of(m, "move", k))
