"""Tests of the independent Ufo.O model (tests/reference/ufoo_model.py).

1. Its settings table matches params.py; its own hex geometry matches the interface's
   convention and the helpers in simkit/games/ufoo/geometry.py.
2. The rulebook, sentence by sentence, replayed on small positions with scripted dice (the
   rulebook's figures are lost, so its examples are the sentences themselves), and the
   interface's stated consequences (first turn, order of the dice).
3. Random self-play ending properly for every value of every setting.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from simkit.games.ufoo import data_model as D
from simkit.games.ufoo import geometry as G
from simkit.games.ufoo.params import UfoOParams
from tests.reference import ufoo_model as M
from tests.reference.ufoo_model import (
    ATTACK, BOARD, DESTROYED, MOVE, PUSH, READY, WAITING, Model, RandomChance, ScriptedChance,
)

STANDIN = D.load()
NO_OUTLIERS = D.load(D.NO_OUTLIERS)


def open_board(asteroids=()):
    """The stand-in's grid and motherships with the given asteroids only."""
    doc = {
        "version": "test",
        "grid": {"cols": 9, "rows": 11},
        "motherships": [
            {"seat": 0, "name": "A", "cells": [[4, 0]], "launch": [[3, 0], [5, 0], [3, 1], [4, 1]], "structure": 5},
            {"seat": 1, "name": "B", "cells": [[4, 10]], "launch": [[3, 10], [5, 10], [3, 9], [4, 9]], "structure": 5},
        ],
        "asteroids": [list(a) for a in asteroids],
    }
    return D.parse(doc, Path("test-board.toml"))


OPEN = open_board()
NO_DICE = ScriptedChance([])


def fresh(board=OPEN, **settings):
    """A game after set-up with seat 0 to start (no dice)."""
    settings.setdefault("first_player", "seat0")
    m = Model(settings, board)
    m.setup(ScriptedChance([]))
    return m


def arrange(m, pieces, active=0, phase=MOVE, structure=None):
    """Put the pieces: ``pieces`` maps (seat, k) to a cell, (cell, damaged), or a status
    ("ready", "waiting", "destroyed"). Unlisted UFOs wait on their mothership's picture."""
    for seat in range(2):
        for k in range(4):
            u = M.Ufo(status=WAITING)
            spec = pieces.get((seat, k))
            if isinstance(spec, str):
                u = M.Ufo(status=spec)
            elif spec is not None:
                cell, dmg = spec if isinstance(spec[0], tuple) else (spec, False)
                u = M.Ufo(status=BOARD, cell=cell, damaged=dmg)
            m.ufos[seat][k] = u
    m.active = active
    m.phase = phase
    m.push = None
    m.attacks_made = 0
    m.volley_fired = False
    if structure is not None:
        m.structure = list(structure)
    m._legal_cache = None
    return m


def kinds(m, kind):
    return [a for a in m.legal() if a[0] == kind]


def cells_of(m, kind="push", k=None):
    if kind == "move":
        return {(a[2], a[3]) for a in m.legal() if a[0] == "move" and a[1] == k}
    return {(a[1], a[2]) for a in m.legal() if a[0] == kind}


def play(m, actions, faces=(), tags=None):
    """Apply actions with scripted dice; every die must be used."""
    ch = ScriptedChance(faces, tags)
    for a in actions:
        m.apply(a, ch)
    assert ch.exhausted(), f"unused dice {ch.faces}"
    return ch


# ============================================================================================
# 1. settings and geometry
# ============================================================================================


def test_defaults_and_choices_match_params():
    fields = {f.name: f for f in dataclasses.fields(UfoOParams)}
    assert set(fields) == set(M.DEFAULTS)
    assert dataclasses.asdict(UfoOParams()) == M.DEFAULTS
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


# ============================================================================================
# 2. the rulebook, sentence by sentence
# ============================================================================================

# --- set-up and first player -----------------------------------------------------------------


def test_setup_structure_5_ufos_blue_on_launch_hexes():
    """"Ogni giocatore pone il segnalino dell'Astronave Madre sul valore 5" and "dispone poi i
    propri dischetti Ufo (dal lato con lo sfondo blu verso l'alto), sui quattro esagoni
    adiacenti alla figura"."""
    m = fresh(STANDIN)
    snap = m.snapshot()
    assert snap["structure"] == [5, 5]
    for seat in range(2):
        for k in range(4):
            u = snap["ufos"][seat][k]
            assert (u["status"], u["cell"], u["damaged"]) == (BOARD, STANDIN.motherships[seat].launch[k], False)
    assert (snap["turn"], snap["active"], snap["phase"], snap["to_move"]) == (1, 0, MOVE, 0)


def test_first_player_roll_rerolls_ties():
    """"Tirate un dado da 6; chi ottiene il valore più alto inizia per primo. In caso di
    parità, tirate nuovamente." Seat 0's die, then seat 1's (R13.1)."""
    m = Model({}, STANDIN)
    ch = ScriptedChance([4, 4, 6, 6, 2, 5], ["first player seat 0", "first player seat 1"] * 3)
    m.setup(ch)
    assert ch.exhausted() and m.first == 1 and m.active == 1 and m.to_move() == 1
    m = Model({}, STANDIN)
    m.setup(ScriptedChance([3, 1]))
    assert m.first == 0
    for fp, seat in (("seat0", 0), ("seat1", 1)):
        m = Model({"first_player": fp}, STANDIN)
        m.setup(ScriptedChance([]))  # no dice
        assert m.first == seat and m.outcome()["first"] == [int(seat == 0), int(seat == 1)]


# --- movement ----------------------------------------------------------------------------------


def test_move_up_to_five_hexes():
    """"può muovere ognuno dei suoi Ufo fino ad un massimo di cinque esagoni"."""
    m = arrange(fresh(), {(0, 0): (4, 5), (1, 0): (8, 10)})
    dest = cells_of(m, "move", 0)
    every = {(c, r) for r in range(11) for c in range(9)} - {(4, 0), (4, 10), (4, 5), (8, 10)}
    assert dest == {c for c in every if M.hex_distance((4, 5), c) <= 5}
    assert (4, 0) not in dest  # the picture is not a hex (A34)
    assert (4, 5) not in dest  # staying is not a move
    assert ("end_move",) in m.legal()


def test_move_through_friends_not_enemies_and_not_asteroids():
    """"può passare attraverso esagoni occupati da navicelle amiche, ma non da quelle
    nemiche" and asteroids "non possono essere attraversati dalle navicelle"."""
    # a corner: UFO at (0,0); its only neighbours on the sheet are (1,0) and (0,1), and (0,1)
    # is an asteroid.
    board = open_board([(0, 1)])
    # an enemy on (1,0) seals the corner
    m = arrange(fresh(board), {(0, 0): (0, 0), (1, 0): (1, 0)})
    assert cells_of(m, "move", 0) == set()
    # a friend on (1,0) is passed through (but not shared): 5 steps measured through it
    m = arrange(fresh(board), {(0, 0): (0, 0), (0, 1): (1, 0), (1, 0): (8, 10)})
    dest = cells_of(m, "move", 0)
    assert (1, 0) not in dest and (0, 1) not in dest
    assert (3, 0) in dest and (0, 2) in dest
    assert (5, 0) not in dest  # 6 steps: the picture (4,0) is not a hex and must be flown round
    assert dest == {c for c in board_cells() - {(0, 0), (1, 0), (0, 1), (4, 0), (4, 10), (8, 10)}
                    if path_len((0, 0), c, blocked={(0, 1), (4, 0), (4, 10), (8, 10)}) <= 5}


def board_cells():
    return {(c, r) for r in range(11) for c in range(9)}


def path_len(a, b, blocked):
    """Shortest path length from a to b avoiding ``blocked`` (a test-side BFS)."""
    from collections import deque
    seen = {a: 0}
    q = deque([a])
    while q:
        c = q.popleft()
        if c == b:
            return seen[c]
        for n in M.all_neighbours(c):
            if n in seen or n in blocked or not (0 <= n[0] < 9 and 0 <= n[1] < 11):
                continue
            seen[n] = seen[c] + 1
            q.append(n)
    return 99


def test_each_ufo_moves_once_and_enemy_wall():
    m = arrange(fresh(), {(0, 0): (4, 5), (0, 1): (2, 2), (1, 0): (8, 10)})
    play(m, [("move", 0, 4, 6)])
    assert not cells_of(m, "move", 0) and cells_of(m, "move", 1)
    assert m.snapshot()["ufos"][0][0]["moved"]


def test_first_player_cannot_attack_in_turn_1_second_can():
    """Interface (A32, component facts): on the stand-in the first player's UFOs end turn 1 at
    least 3 hexes from every enemy; the second player can attack in its turn 1."""
    m = fresh(STANDIN)
    for k in range(4):
        for c in cells_of(m, "move", k):
            assert min(M.hex_distance(c, e) for e in STANDIN.motherships[1].launch) >= 3
    # seat 0 sends UFO 3 through the middle gap to row 6; asteroid rolls at END_MOVE
    play(m, [("move", 3, 4, 6), ("end_move",)], faces=[6], tags=["asteroid after movement"])
    assert m.active == 1 and m.phase == MOVE  # no attack: the attack phase was resolved by R12.1
    assert (5, 8) in cells_of(m, "move", 3)
    play(m, [("move", 3, 5, 8), ("end_move",)])  # (5,8) touches no asteroid: no die
    assert m.phase == ATTACK
    assert ("laser", 3, 3) in m.legal() and ("ion", 3, 3) in m.legal()


# --- line of fire -------------------------------------------------------------------------------


def test_line_of_fire_two_hexes_on_a_straight_line():
    """"in traiettoria di tiro entro un esagono" (A1) and "(Nb: Il combattimento tra Ufo su
    esagoni adiacenti non è consentito.)"."""
    m = fresh()
    src = (4, 5)
    in_range = {c for c in board_cells() if m.rule_line_of_fire(src, c)}
    assert in_range == {M.hex_step(M.hex_step(src, d), d) for d in range(6)}
    assert not any(m.rule_line_of_fire(src, n) for n in M.all_neighbours(src))
    m_any = fresh(fire_lines="any")
    assert {c for c in board_cells() if m_any.rule_line_of_fire(src, c)} == {
        c for c in board_cells() if M.hex_distance(src, c) == 2}


def test_adjacent_enemy_is_no_target_but_others_are():
    """A36: an enemy beside the UFO does not stop it attacking another 2 hexes away."""
    m = arrange(fresh(), {(0, 0): (4, 5), (1, 0): (5, 5), (1, 1): (2, 5)}, phase=ATTACK)
    assert not [a for a in m.legal() if a[0] in ("laser", "ion") and a[2] == 0]
    assert ("laser", 0, 1) in m.legal()


def test_asteroids_block_the_line_of_fire_ufos_do_not_by_default():
    """"Un Ufo può colpire una navicella avversaria se la linea di vista non è interrotta dai
    banchi di asteroidi." A2: a UFO in between does not block (ufos_block_fire=false)."""
    board = open_board([(3, 5)])
    m = arrange(fresh(board), {(0, 0): (2, 5), (1, 0): (4, 5)}, phase=ATTACK)
    assert not kinds(m, "laser")
    m = arrange(fresh(), {(0, 0): (2, 5), (0, 1): (3, 5), (1, 0): (4, 5)}, phase=ATTACK)
    assert ("laser", 0, 0) in m.legal()
    m = arrange(fresh(ufos_block_fire=True), {(0, 0): (2, 5), (0, 1): (3, 5), (1, 0): (4, 5)}, phase=ATTACK)
    assert ("laser", 0, 0) not in m.legal()
    m = arrange(fresh(ufos_block_fire=True), {(0, 0): (2, 5), (1, 1): (3, 5), (1, 0): (4, 5)}, phase=ATTACK)
    assert ("laser", 0, 0) not in m.legal()  # an enemy in between blocks too


def test_off_line_shot_blocked_only_by_both_hexes():
    """fire_lines=any: a shot between two hexes is blocked only when both block (A1)."""
    a, b = (4, 4), (4, 6)  # distance 2, not straight
    assert M.hex_distance(a, b) == 2 and not M.on_straight_line(a, b)
    x, y = M.cells_between(a, b)
    assert fresh(open_board([x]), fire_lines="any").rule_line_of_fire(a, b)
    assert fresh(open_board([y]), fire_lines="any").rule_line_of_fire(a, b)
    assert not fresh(open_board([x, y]), fire_lines="any").rule_line_of_fire(a, b)
    # straight lines are never in range off-line under the default
    assert not fresh(open_board()).rule_line_of_fire(a, b)


def test_mothership_picture_in_between():
    """A3: the line (3,0)-(5,0) crosses A's picture (4,0); blocks only with the setting."""
    m = fresh()
    assert m.rule_line_of_fire((3, 0), (5, 0))
    assert not fresh(mothership_blocks_fire=True).rule_line_of_fire((3, 0), (5, 0))
