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
            {"seat": 1, "name": "A", "cells": [[4, 0]], "launch": [[3, 0], [5, 0], [3, 1], [4, 1]], "structure": 5},
            {"seat": 2, "name": "B", "cells": [[4, 10]], "launch": [[3, 10], [5, 10], [3, 9], [4, 9]], "structure": 5},
        ],
        "asteroids": [list(a) for a in asteroids],
    }
    return D.parse(doc, Path("test-board.toml"))


OPEN = open_board()
NO_DICE = ScriptedChance([])


def fresh(board=OPEN, **settings):
    """A game after set-up with seat 0 to start (no dice)."""
    settings.setdefault("first_player", "seat1")
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
    for fp, seat in (("seat1", 0), ("seat2", 1)):
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


# --- lasers -------------------------------------------------------------------------------------

ANCHOR = {(0, 3): ((8, 0), True)}  # a damaged seat-0 UFO far away: its REPAIR keeps the attack phase open


def duel(board=OPEN, att=(4, 4), dfd=(6, 4), att_dmg=False, dfd_dmg=False, extra=None, **settings):
    pieces = {(0, 0): (att, att_dmg), (1, 0): (dfd, dfd_dmg), **ANCHOR, **(extra or {})}
    return arrange(fresh(board, **settings), pieces, phase=ATTACK)


def test_laser_higher_result_damages_and_winner_pushes():
    """"entrambi gli Ufo tirano il dado (l'attaccante il rosso ed il difensore il blu), chi
    ottiene il risultato più alto infligge un danno all'avversario. Questo viene capovolto con
    lo sfondo rosso verso l'alto" and "il giocatore che ha vinto lo scontro, può spostare a
    piacimento la navicella avversaria, del numero di esagoni pari alla differenza"."""
    m = duel()
    assert {("laser", 0, 0), ("ion", 0, 0)} <= set(m.legal())
    play(m, [("laser", 0, 0)], faces=[5, 2], tags=["laser attacker", "laser defender"])
    s = m.snapshot()
    assert s["ufos"][1][0]["damaged"] and not s["ufos"][0][0]["damaged"]
    assert s["phase"] == PUSH and s["to_move"] == 0
    assert s["push"] == {"loser_seat": 1, "loser_ufo": 0, "winner_seat": 0, "length": 3, "winner_cell": (4, 4)}
    # A9 any path, A8 exactly 3 hexes without entering a hex twice: on open ground that is
    # every hex 1 to 3 away (a 3-step path can curl back next to its start), except the
    # winner's hex, which the loser may not cross (A10 like a move) and may not end on.
    # (3,4), straight behind the winner, is 3 away only through the winner's hex.
    want = {c for c in board_cells() if 1 <= M.hex_distance((6, 4), c) <= 3} - {(4, 4), (3, 4)}
    assert cells_of(m) == want
    assert ("no_push",) in m.legal() and ("crash",) not in m.legal()
    play(m, [("push", 8, 4)])
    s = m.snapshot()
    assert s["ufos"][1][0]["cell"] == (8, 4) and s["phase"] == ATTACK and s["push"] is None
    assert s["stats"]["pushes"] == [1, 0] and s["stats"]["lasers"] == [1, 0] and s["stats"]["laser_wins"] == [1, 0]
    # one attack per UFO and per turn
    assert not [a for a in m.legal() if a[0] in ("laser", "ion", "ion_ms") and a[1] == 0]


def test_push_exact_length_one_and_two():
    m = duel()
    play(m, [("laser", 0, 0)], faces=[4, 3])
    assert cells_of(m) == {n for n in M.all_neighbours((6, 4))}  # length 1: the 6 neighbours
    m = duel()
    play(m, [("laser", 0, 0)], faces=[5, 3])
    assert cells_of(m) == {c for c in board_cells() if 1 <= M.hex_distance((6, 4), c) <= 2} - {(4, 4)}


def test_exact_equals_up_to_on_open_ground_with_any_path():
    """Finding on A8/R6.4.1: a simple path on hexes can curl round (three hexes touch each
    other), so with push_path=any "exactly L" reaches every hex 1..L away, like "up to L"."""
    for faces in ([4, 3], [5, 3], [6, 3], [6, 2], [6, 1]):
        a = duel()
        play(a, [("laser", 0, 0)], faces=faces)
        b = duel(push_length="up_to")
        play(b, [("laser", 0, 0)], faces=faces)
        assert cells_of(a) == cells_of(b)


def test_laser_tie_attacker_wins_no_push():
    """"In caso di parità di risultati vince l'attaccante, ma la navicella avversaria non
    viene spostata.\""""
    m = duel()
    play(m, [("laser", 0, 0)], faces=[3, 3])
    s = m.snapshot()
    assert s["ufos"][1][0]["damaged"] and s["ufos"][1][0]["cell"] == (6, 4)
    assert s["phase"] == ATTACK and s["push"] is None and s["stats"]["laser_wins"] == [1, 0]


def test_laser_defender_wins_and_pushes_the_attacker():
    m = duel()
    play(m, [("laser", 0, 0)], faces=[2, 6])
    s = m.snapshot()
    assert s["ufos"][0][0]["damaged"] and not s["ufos"][1][0]["damaged"]
    assert s["phase"] == PUSH and s["to_move"] == 1 and s["push"]["length"] == 4
    assert s["stats"]["defences_won"] == [0, 1] and s["stats"]["laser_wins"] == [0, 0]
    play(m, [("no_push",)])
    assert m.phase == ATTACK and m.to_move() == 0 and m.ufos[0][0].cell == (4, 4)


def test_laser_damaged_loser_is_destroyed_and_not_pushed():
    """"se invece si trovava già in questa condizione, viene distrutto e rimosso dal
    tabellone" (A14: damage first, a destroyed loser is not pushed)."""
    m = duel(dfd_dmg=True)
    play(m, [("laser", 0, 0)], faces=[6, 1])
    s = m.snapshot()
    assert s["ufos"][1][0]["status"] == DESTROYED and s["ufos"][1][0]["cell"] is None
    assert not s["ufos"][1][0]["damaged"]
    assert s["phase"] == ATTACK and s["push"] is None
    assert s["stats"]["kills"] == [1, 0] and s["stats"]["ufos_lost"] == [0, 1]


def test_damaged_minus_one_on_attack_rolls():
    """"(Nb: un Ufo danneggiato subisce un -1 al risultato di ogni tiro di attacco)"."""
    # damaged attacker: 4-1 = 3 against 3 is a tie, the attacker wins
    m = duel(att_dmg=True)
    play(m, [("laser", 0, 0)], faces=[4, 3])
    assert m.ufos[1][0].damaged and m.ufos[0][0].damaged and m.phase == ATTACK
    # damaged attacker 4-1 = 3 against 5: defender wins by 2, attacker destroyed, no push
    m = duel(att_dmg=True)
    play(m, [("laser", 0, 0)], faces=[4, 5])
    assert m.ufos[0][0].status == DESTROYED and m.phase == ATTACK
    # A5 default: a damaged defender's die has the -1 too: 3 against 4-1 = 3, attacker wins
    m = duel(dfd_dmg=True)
    play(m, [("laser", 0, 0)], faces=[3, 4])
    assert m.ufos[1][0].status == DESTROYED and not m.ufos[0][0].damaged
    # damaged_defender_malus=false: 3 against 4 is the defender's win, by 1
    m = duel(dfd_dmg=True, damaged_defender_malus=False)
    play(m, [("laser", 0, 0)], faces=[3, 4])
    assert m.ufos[0][0].damaged and m.ufos[1][0].damaged and m.phase == PUSH and m.push.length == 1


# --- ion cannon ----------------------------------------------------------------------------------


def test_ion_cannon():
    """"l'Ufo attaccante tira il dado rosso, se ottiene da 4 a 6 la navicella avversaria è
    distrutta. Se invece il risultato è 1 o 2, l'Ufo che ha compiuto l'attacco viene
    danneggiato"."""
    for face in (4, 5, 6):
        m = duel()
        play(m, [("ion", 0, 0)], faces=[face], tags=["ion attacker"])
        assert m.ufos[1][0].status == DESTROYED and m.stats.counters["kills"] == [1, 0]
    m = duel()
    play(m, [("ion", 0, 0)], faces=[3])
    assert m.ufos[1][0].status == BOARD and not m.ufos[1][0].damaged and not m.ufos[0][0].damaged
    for face in (1, 2):
        m = duel()
        play(m, [("ion", 0, 0)], faces=[face])
        assert m.ufos[0][0].damaged and m.ufos[1][0].status == BOARD
        assert m.stats.counters["backfires"] == [1, 0] and m.stats.counters["ions"] == [1, 0]
    # damaged attacker: 4 - 1 = 3 does nothing, 5 - 1 = 4 destroys, 3 - 1 = 2 backfires and
    # destroys it (A31), 1 - 1 = 0 backfires (A6 default) or does nothing
    m = duel(att_dmg=True)
    play(m, [("ion", 0, 0)], faces=[4])
    assert m.ufos[1][0].status == BOARD and m.ufos[0][0].status == BOARD
    m = duel(att_dmg=True)
    play(m, [("ion", 0, 0)], faces=[5])
    assert m.ufos[1][0].status == DESTROYED
    m = duel(att_dmg=True)
    play(m, [("ion", 0, 0)], faces=[3])
    assert m.ufos[0][0].status == DESTROYED and m.stats.counters["ufos_lost"] == [1, 0]
    assert m.stats.counters["kills"] == [0, 0]
    m = duel(att_dmg=True)
    play(m, [("ion", 0, 0)], faces=[1])
    assert m.ufos[0][0].status == DESTROYED
    m = duel(att_dmg=True, ion_backfire_zero=False)
    play(m, [("ion", 0, 0)], faces=[1])
    assert m.ufos[0][0].status == BOARD and m.ufos[0][0].damaged and m.stats.counters["backfires"] == [0, 0]


def test_one_attack_per_ufo_or_per_player():
    """"(una navicella può compiere un solo attacco per turno)" (A4)."""
    extra = {(0, 1): (4, 6), (1, 1): (6, 6)}  # a second pair, (4,6)-(6,6) on the E line
    m = duel(extra=extra)
    play(m, [("ion", 0, 0)], faces=[3])
    assert ("laser", 1, 1) in m.legal() and not [a for a in m.legal() if a[0] in ("laser", "ion") and a[1] == 0]
    m = duel(extra=extra, attacks_per_turn="one")
    play(m, [("ion", 0, 0)], faces=[3])
    assert not kinds(m, "laser") and not kinds(m, "ion") and ("repair", 3) in m.legal()


def test_line_of_fire_is_checked_when_the_attack_is_declared():
    """A35: a push changes who is in range."""
    extra = {(0, 1): (4, 6)}  # (4,6) to (6,4) is 2 hexes but off the straight lines
    m = duel(extra=extra)
    assert ("laser", 1, 0) not in m.legal()
    play(m, [("laser", 0, 0), ("push", 6, 6)], faces=[6, 4])  # pushed 2 hexes to (6,6)
    assert ("laser", 1, 0) in m.legal()


# --- the push in detail (A7-A14) -------------------------------------------------------------------


def test_push_optional_or_compulsory():
    m = duel(push_optional=False)
    play(m, [("laser", 0, 0)], faces=[4, 3])
    assert ("no_push",) not in m.legal() and len(cells_of(m)) == 6


def test_push_passes_friends_of_the_loser_not_its_enemies():
    """A10 like_move: the pushed ship passes its own side's UFOs, not the other side's."""
    # loser at (0,0) in the corner; (0,1) an asteroid; its only way out is (1,0)
    board = open_board([(0, 1)])
    att, dfd = (2, 0), (0, 0)  # on the top edge, (1,0) in between
    for through, friend_side, expect_out in (
        ("like_move", 1, True), ("like_move", 0, False), ("empty", 1, False), ("any", 0, True),
    ):
        extra = {(friend_side, 2): (1, 0)}
        m = duel(board, att=att, dfd=dfd, extra=extra, push_through=through, push_blocked="none")
        play(m, [("laser", 0, 0)], faces=[5, 3])  # push of 2
        if expect_out:
            assert m.phase == PUSH and cells_of(m) == {(1, 1)}, (through, friend_side, cells_of(m))
        else:
            assert m.phase == ATTACK and m.ufos[1][0].cell == (0, 0)  # only NO_PUSH: applied at once (R12.1)


def test_push_blocked_shorten_or_none_and_crashes():
    """A11-A13 on a straight push (A9 straight): loser in the corner (0,0), winner at (2,0),
    asteroid at (0,1): the only straight way is E, one hex, then the winner."""
    board = open_board([(0, 1)])
    base = dict(board=board, att=(2, 0), dfd=(0, 0), push_path="straight")
    m = duel(**base)
    play(m, [("laser", 0, 0)], faces=[6, 3])  # length 3; only (1,0) at length 1
    assert cells_of(m) == {(1, 0)} and ("no_push",) in m.legal()
    m = duel(**base, push_blocked="none")
    play(m, [("laser", 0, 0)], faces=[6, 3])
    assert m.phase == ATTACK and m.ufos[1][0].cell == (0, 0)
    m = duel(**base, push_blocked="none", push_off_board="destroyed")
    play(m, [("laser", 0, 0)], faces=[6, 3])
    assert set(m.legal()) == {("crash",), ("no_push",)}
    play(m, [("crash",)])
    assert m.ufos[1][0].status == DESTROYED and m.stats.counters["kills"] == [1, 0] and m.stats.counters["pushes"] == [1, 0]
    m = duel(**base, push_into_asteroid="destroyed", push_optional=False)
    play(m, [("laser", 0, 0)], faces=[6, 3])
    assert set(m.legal()) == {("crash",), ("push", 1, 0)}
    # up_to: every length from 1 to 3 (here only length 1 exists)
    m = duel(**base, push_length="up_to")
    play(m, [("laser", 0, 0)], faces=[6, 3])
    assert cells_of(m) == {(1, 0)}


def test_push_straight_and_away():
    """A9: straight lines in any direction; away = along the line from the winner."""
    m = duel(att=(2, 5), dfd=(4, 5), push_path="straight")
    play(m, [("laser", 0, 0)], faces=[5, 3])  # length 2
    want = {M.hex_step(M.hex_step((4, 5), d), d) for d in range(6)} - {(2, 5)}
    assert cells_of(m) == want
    # A10: straight west, 3 hexes, only through the winner's hex (push_through=any)
    m = duel(push_path="straight")
    play(m, [("laser", 0, 0)], faces=[6, 3])
    assert (3, 4) not in cells_of(m)
    m = duel(push_path="straight", push_through="any")
    play(m, [("laser", 0, 0)], faces=[6, 3])
    assert (3, 4) in cells_of(m)
    m = duel(att=(2, 5), dfd=(4, 5), push_path="away")
    play(m, [("laser", 0, 0)], faces=[5, 3])
    assert cells_of(m) == {(6, 5)}
    # the defender wins: it pushes the attacker away from itself
    m = duel(att=(2, 5), dfd=(4, 5), push_path="away")
    play(m, [("laser", 0, 0)], faces=[1, 4])  # length 3 westwards from (2,5): (-1,5) is off the sheet
    assert m.to_move() == 1 and cells_of(m) == {(0, 5)}  # A11 shorten: as far as it goes, 2 hexes
    m = duel(att=(2, 5), dfd=(4, 5), push_path="away", push_off_board="destroyed")
    play(m, [("laser", 0, 0)], faces=[1, 4])
    assert set(m.legal()) == {("push", 0, 5), ("crash",), ("no_push",)}


# --- asteroids ---------------------------------------------------------------------------------------


def asteroid_position(**settings):
    """Stand-in board: seat 0's UFO 0 at (4,2) (no asteroid near) will move to (4,4) (beside
    (3,5)); UFO 1 stays at (2,4) (beside (2,3) and (1,5)); the enemy is far away."""
    return arrange(fresh(STANDIN, **settings), {(0, 0): (4, 2), (0, 1): (2, 4), (1, 0): (8, 10)})


def test_asteroid_rolls_at_the_end_of_movement():
    """"ogni navicella che termina il movimento in un esagono adiacente ad essi rischia di
    venire danneggiata. Prima di effettuare un eventuale attacco, tira il dado rosso, con un
    risultato di 1 o 2, riceve un danno." A15 all, A16 end of movement, UFO order 0-3."""
    m = asteroid_position()
    play(m, [("move", 0, 4, 4)])  # no die yet
    play(m, [("end_move",)], faces=[2, 3], tags=["asteroid after movement"] * 2)
    assert m.ufos[0][0].damaged and not m.ufos[0][1].damaged
    assert m.stats.counters["asteroid_damage"] == [1, 0]
    m = asteroid_position()
    play(m, [("move", 0, 4, 4), ("end_move",)], faces=[5, 1])
    assert not m.ufos[0][0].damaged and m.ufos[0][1].damaged
    # a 1 on an already damaged UFO destroys it
    m = asteroid_position()
    m.ufos[0][1].damaged = True
    play(m, [("end_move",)], faces=[1])
    assert m.ufos[0][1].status == DESTROYED and m.stats.counters["kills"] == [0, 0]


def test_asteroid_check_moved_and_after_each_move():
    m = asteroid_position(asteroid_check="moved")
    play(m, [("move", 0, 4, 4), ("end_move",)], faces=[2])  # only the UFO that moved
    assert m.ufos[0][0].damaged
    m = asteroid_position(asteroid_roll_timing="after_each_move")
    play(m, [("move", 0, 4, 4)], faces=[1], tags=["asteroid after move"])
    assert m.ufos[0][0].damaged
    play(m, [("end_move",)], faces=[6], tags=["asteroid after movement"])  # UFO 1 did not move
    m = asteroid_position(asteroid_roll_timing="after_each_move", asteroid_check="moved")
    play(m, [("move", 0, 4, 4), ("end_move",)], faces=[6])  # one die, at the move
    m = asteroid_position(asteroid_roll_timing="after_each_move")
    play(m, [("move", 0, 4, 1)], faces=[])  # (4,1) touches no asteroid: no die


def test_asteroid_damage_then_attack_with_minus_one():
    """A17: the roll comes "prima di effettuare un eventuale attacco"; a UFO damaged by it
    attacks with the -1."""
    m = arrange(fresh(STANDIN), {(0, 0): (4, 2), (1, 0): (5, 6), (1, 1): (8, 10)})
    # UFO 0 is the only one that can move: after its move END_MOVE is the only option and is
    # taken at once (R12.1), with its asteroid die
    play(m, [("move", 0, 4, 4)], faces=[2])
    assert m.phase == ATTACK and m.ufos[0][0].damaged and ("laser", 0, 0) in m.legal()
    play(m, [("laser", 0, 0)], faces=[4, 3])  # 4 - 1 = 3 ties 3: the attacker wins, no push
    assert m.ufos[1][0].damaged and m.ufos[1][0].cell == (5, 6)
    assert m.active == 1 and m.phase == MOVE  # nothing left to do: END_TURN taken at once


def test_pushed_next_to_an_asteroid_rolls_at_once():
    """"Nb: un Ufo che a seguito di un combattimento perso viene spostato in modo da risultare
    adiacente ad un asteroide deve immediatamente tirare il dado rosso." A14: a declined push
    rolls nothing."""
    pieces = {(0, 0): (4, 2), (1, 0): (5, 4), **ANCHOR}
    m = arrange(fresh(STANDIN), pieces, phase=ATTACK)
    assert ("laser", 0, 0) in m.legal()
    play(m, [("laser", 0, 0)], faces=[4, 3])
    assert cells_of(m) == {(6, 4), (5, 3), (4, 3), (4, 4), (4, 5)}
    play(m, [("push", 6, 4)], faces=[1], tags=["asteroid after push"])
    assert m.ufos[1][0].status == DESTROYED
    assert m.stats.counters["kills"] == [1, 0] and m.stats.counters["asteroid_damage"] == [0, 1]
    m = arrange(fresh(STANDIN), pieces, phase=ATTACK)
    play(m, [("laser", 0, 0), ("no_push",)], faces=[4, 3])
    assert m.ufos[1][0].cell == (5, 4) and m.ufos[1][0].damaged
    m = arrange(fresh(STANDIN), pieces, phase=ATTACK)
    play(m, [("laser", 0, 0), ("push", 5, 3)], faces=[4, 3, 6])  # (5,3) touches (6,3): a die
    m = arrange(fresh(STANDIN), pieces, phase=ATTACK)
    play(m, [("laser", 0, 0), ("push", 4, 3)], faces=[4, 3])  # (4,3) touches none: no die
    assert m.ufos[1][0].cell == (4, 3)


# --- motherships --------------------------------------------------------------------------------------


def ms_position(structure=(5, 5), att_dmg=False, **settings):
    """Seat 0's UFO 0 on (3,9), a launch hex of B; an enemy UFO 2 hexes east on (5,9)."""
    pieces = {(0, 0): ((3, 9), att_dmg), (1, 0): (5, 9), **ANCHOR}
    return arrange(fresh(**settings), pieces, phase=ATTACK, structure=structure)


def test_ion_cannon_at_the_enemy_mothership():
    """"Un Ufo che termina il movimento su uno dei quattro esagoni adiacenti all'immagine
    dell'Astronave Madre avversaria può tentare di colpirla con il Cannone ionico (i laser non
    hanno effetto sugli scudi dell'Astronave)." and "Ogni volta che essa viene colpita, tale
    valore diminuisce di uno"."""
    m = ms_position()
    assert ("ion_ms", 0) in m.legal() and ("laser", 0, 0) in m.legal()
    play(m, [("ion_ms", 0)], faces=[4], tags=["ion at mothership"])
    assert m.structure == [5, 4] and m.stats.counters["ms_hits"] == [1, 0] and m.stats.counters["ms_attacks"] == [1, 0]
    # A20 default: that was UFO 0's attack
    assert not [a for a in m.legal() if a[0] in ("laser", "ion", "ion_ms") and a[1] == 0]
    m = ms_position(mothership_attack_uses_attack=False)
    play(m, [("ion_ms", 0)], faces=[3])
    assert m.structure == [5, 5] and ("laser", 0, 0) in m.legal() and ("ion_ms", 0) not in m.legal()
    play(m, [("laser", 0, 0)], faces=[3, 3])
    m = ms_position(mothership_attack_uses_attack=False)
    play(m, [("laser", 0, 0)], faces=[3, 3])
    assert ("ion_ms", 0) in m.legal()


def test_mothership_ion_backfire_and_minus_one():
    m = ms_position()
    play(m, [("ion_ms", 0)], faces=[2])
    assert m.ufos[0][0].damaged and m.structure == [5, 5] and m.stats.counters["backfires"] == [1, 0]
    m = ms_position(mothership_ion_backfire=False)
    play(m, [("ion_ms", 0)], faces=[1])
    assert not m.ufos[0][0].damaged
    m = ms_position(att_dmg=True)
    play(m, [("ion_ms", 0)], faces=[4])  # 4 - 1 = 3: no hit
    assert m.structure == [5, 5] and m.ufos[0][0].status == BOARD
    m = ms_position(att_dmg=True)
    play(m, [("ion_ms", 0)], faces=[1])  # 0 backfires (A6): destroyed
    assert m.ufos[0][0].status == DESTROYED


def test_destroying_the_mothership_wins_at_once():
    """"una volta raggiunto lo zero la si considera distrutta e la vittoria va all'avversario"
    and "Un giocatore ottiene la vittoria distruggendo l'Astronave Madre dell'avversario."."""
    m = ms_position(structure=(5, 1))
    play(m, [("ion_ms", 0)], faces=[6])
    assert m.over() and m.won() == [True, False] and m.legal() == [] and m.to_move() == -1
    o = m.outcome()
    assert (o["winner"], o["draw"], o["turns"], o["rounds"], o["structure"], o["won"]) == (0, 0, 1, 1, [5, 0], [1, 0])
    with pytest.raises(ValueError):
        m.apply(("end_turn",), NO_DICE)


def test_mothership_attack_from_moved():
    """A18: with ``moved`` only a UFO that moved this turn may fire at the mothership."""
    for where, expect in (("all", {0, 1}), ("moved", {0})):
        m = arrange(fresh(mothership_attack_from=where), {(0, 0): (3, 9), (0, 1): (5, 10), (1, 0): (8, 0)})
        play(m, [("move", 0, 4, 9), ("end_move",)])
        assert {a[1] for a in kinds(m, "ion_ms")} == expect


def test_no_laser_action_against_a_mothership():
    """A21: lasers have no effect on the shields; no such action is offered."""
    m = ms_position()
    assert {a[0] for a in m.legal()} <= {"laser", "ion", "ion_ms", "repair", "volley", "end_turn"}
    assert all(a[0] != "laser" or len(a) == 3 for a in m.legal())


def volley_position(**settings):
    """Seat 0 to move; enemy UFOs 0 and 2 on A's launch hexes (3,0) and (4,1)."""
    pieces = {(0, 0): (0, 5), (1, 0): (3, 0), (1, 1): (8, 10), (1, 2): (4, 1)}
    return arrange(fresh(**settings), pieces)


def test_mothership_volley():
    """"Un'Astronave Madre del giocatore di turno, può colpire con i suoi laser "tutti" gli Ufo
    avversari a lei adiacenti, con un risultato da 4 a 6 sul tiro del dado rosso (gli Ufo
    danneggiati non vengono spostati)." A22 any time, once; A23 one die per UFO, UFO order."""
    m = volley_position()
    assert ("volley",) in m.legal()
    play(m, [("volley",)], faces=[4, 3], tags=["mothership volley"] * 2)
    assert m.ufos[1][0].damaged and not m.ufos[1][2].damaged
    assert (m.ufos[1][0].cell, m.ufos[1][2].cell) == ((3, 0), (4, 1))  # not moved
    assert ("volley",) not in m.legal() and m.volley_fired
    assert m.stats.counters["volley_hits"] == [1, 0]
    # in the attack phase too, and a damaged UFO hit is destroyed
    m = volley_position()
    m.ufos[1][0].damaged = True
    play(m, [("end_move",)])
    assert m.phase == ATTACK and ("volley",) in m.legal()
    play(m, [("volley",)], faces=[6, 6])
    # destroyed; nothing was left to do, so the turn ended (R12.1) and seat 1's turn start put
    # it back on its mothership's picture
    assert m.active == 1 and m.ufos[1][0].status == WAITING and m.ufos[1][2].damaged
    assert m.stats.counters["kills"] == [1, 0]


def test_mothership_volley_single_die():
    m = volley_position(mothership_volley="single")
    play(m, [("volley",)], faces=[5])
    assert m.ufos[1][0].damaged and m.ufos[1][2].damaged and m.stats.counters["volley_hits"] == [2, 0]
    m = volley_position(mothership_volley="single")
    play(m, [("volley",)], faces=[3])
    assert not m.ufos[1][0].damaged and not m.ufos[1][2].damaged


def test_volley_needs_targets():
    m = arrange(fresh(), {(0, 0): (0, 5), (1, 0): (8, 10)})
    assert ("volley",) not in m.legal()


def test_mothership_fire_start_and_end_are_automatic():
    # start: seat 1 ends its turn; seat 0's turn begins with the volley
    m = volley_position(mothership_fire="start")
    assert ("volley",) not in m.legal()
    m.active, m.phase, m._legal_cache = 1, ATTACK, None
    play(m, [("end_turn",)], faces=[6, 1], tags=["mothership volley"] * 2)
    assert m.active == 0 and m.ufos[1][0].damaged and not m.ufos[1][2].damaged
    # end: seat 0's END_TURN fires first
    m = volley_position(mothership_fire="end")
    assert ("volley",) not in m.legal()
    # nothing to do in the attack phase: END_TURN is taken at once (R12.1) with the volley's dice
    play(m, [("end_move",)], faces=[1, 6], tags=["mothership volley"] * 2)
    assert m.active == 1 and m.ufos[1][2].damaged and not m.ufos[1][0].damaged


# --- respawn ------------------------------------------------------------------------------------------


def test_respawn_waits_a_turn_by_default():
    """"All'inizio del proprio turno, un giocatore pone tutti i suoi Ufo precedentemente
    distrutti sull'immagine della propria Astronave Madre. A partire dal suo turno successivo
    potrà nuovamente muoverli e farli attaccare" (A26 next_turn)."""
    m = arrange(fresh(), {(0, 0): (0, 5), (1, 0): DESTROYED, (1, 1): (8, 8)}, phase=ATTACK)
    for k in (1, 2, 3):
        m.ufos[1][k] = M.Ufo(status=BOARD, cell=[(8, 8), (7, 8), (6, 8)][k - 1])
    m.ufos[0][1] = M.Ufo(status=BOARD, cell=(0, 3))
    m._legal_cache = None
    play(m, [("end_turn",)])
    assert m.active == 1 and m.ufos[1][0].status == WAITING and m.ufos[1][0].cell is None
    assert not cells_of(m, "move", 0)
    play(m, [("end_move",)])  # -> END_TURN alone, taken at once
    assert m.active == 0
    play(m, [("end_move",)])
    assert m.active == 1 and m.ufos[1][0].status == READY and cells_of(m, "move", 0)


def test_respawn_same_turn():
    m = arrange(fresh(respawn_delay="same_turn"), {(0, 0): (0, 5), (0, 1): (0, 3), (1, 0): DESTROYED, (1, 1): (8, 8)}, phase=ATTACK)
    play(m, [("end_turn",)])
    assert m.ufos[1][0].status == READY and cells_of(m, "move", 0)


def test_launch_from_the_mothership():
    """"facendo iniziare il loro movimento su uno dei quattro esagoni adiacenti all'immagine
    dell'Astronave (se questi non sono occupati da navicelle nemiche)" (A27 launch_cost; A29
    through a friend on a launch hex; A28 all held: it stays)."""
    launch = [(3, 0), (5, 0), (3, 1), (4, 1)]
    pics = {(4, 0), (4, 10)}
    for cost in (0, 1):
        # enemy on (3,0), friend on (5,0)
        m = arrange(fresh(launch_cost=cost), {(0, 0): READY, (0, 1): (5, 0), (1, 0): (3, 0)})
        starts = [(5, 0), (3, 1), (4, 1)]
        blocked = pics | {(3, 0)}
        want = {c for c in board_cells() - blocked - {(5, 0)}
                if min(0 if c == s else path_len(s, c, blocked) for s in starts) + cost <= 5}
        assert cells_of(m, "move", 0) == want, cost
        play(m, [("move", 0, 4, 1)])
        assert m.ufos[0][0].status == BOARD and m.ufos[0][0].moved
    # all four launch hexes held by enemies: it cannot leave
    m = arrange(fresh(), {(0, 0): READY, (1, 0): (3, 0), (1, 1): (5, 0), (1, 2): (3, 1), (1, 3): (4, 1)})
    assert not cells_of(m, "move", 0)


# --- repair -------------------------------------------------------------------------------------------


def test_repair():
    """"Un Ufo posizionato con il lato danneggiato verso l'alto, può, durante il suo turno,
    rinunciare all'attacco per tentare di auto-ripararsi (può comunque muoversi). Una navicella
    si auto-ripara [...] se ottiene un risultato da 4 a 6 sul tiro del dado.\""""
    pieces = {(0, 0): ((4, 4), True), (0, 1): ((2, 2), True), (1, 0): (6, 4)}
    m = arrange(fresh(), pieces)
    # moving first is allowed; once both moved END_MOVE is the only option and is taken (R12.1)
    play(m, [("move", 0, 4, 5), ("move", 1, 2, 3)])
    assert m.phase == ATTACK
    assert ("repair", 0) in m.legal() and ("repair", 1) in m.legal()
    play(m, [("repair", 0)], faces=[4], tags=["repair"])
    assert not m.ufos[0][0].damaged and m.stats.counters["repairs_ok"] == [1, 0]
    assert not [a for a in m.legal() if a[0] in ("laser", "ion", "ion_ms", "repair") and a[1] == 0]
    play(m, [("repair", 1)], faces=[3])
    assert m.ufos[0][1].damaged and m.stats.counters["repairs"] == [2, 0] and m.stats.counters["repairs_ok"] == [1, 0]
    # a healthy UFO has nothing to repair; a UFO that attacked cannot repair
    m = duel(att_dmg=True)
    assert ("repair", 0) in m.legal()
    play(m, [("ion", 0, 0)], faces=[3])
    assert ("repair", 0) not in m.legal()
    m = duel()
    assert ("repair", 0) not in m.legal()


# --- the turn -----------------------------------------------------------------------------------------


def test_no_target_ends_turn():
    """A37: "In caso contrario il turno passa all'avversario."."""
    pieces = {(0, 0): ((3, 9), True), (1, 0): (8, 0)}  # damaged, on B's launch hex, no UFO target
    m = arrange(fresh(), pieces)
    play(m, [("end_move",)])
    assert m.phase == ATTACK and {("repair", 0), ("ion_ms", 0)} <= set(m.legal())
    m = arrange(fresh(no_target_ends_turn=True), pieces)
    play(m, [("end_move",)])
    assert m.active == 1 and m.phase == MOVE
    # with a UFO target the whole attack phase is open
    m = arrange(fresh(no_target_ends_turn=True), {**pieces, (1, 1): (5, 9)})
    play(m, [("end_move",)])
    assert {("repair", 0), ("ion_ms", 0), ("laser", 0, 1)} <= set(m.legal())


def test_turn_cap_draw():
    """A33: after ``turn_cap`` turns the game is a draw."""
    m = Model({"turn_cap": 2, "first_player": "seat2"}, STANDIN)
    m.setup(NO_DICE)
    play(m, [("end_move",)])  # turn 1 (seat 1): nothing to attack: END_TURN at once
    assert (m.turn, m.active) == (2, 0)
    play(m, [("end_move",)])
    assert m.over() and m.draw and m.won() == [False, False]
    o = m.outcome()
    assert (o["draw"], o["turns"], o["rounds"], o["winner"], o["first_seat"], o["first"]) == (1, 2, 1, -1, 1, [0, 1])


def test_action_ids_round_trip():
    m = fresh(STANDIN)
    for i in range(685):
        a = M.action_of_id(i, 9)
        assert M.action_id(a, 9) == i
    assert M.action_id(("move", 3, 4, 1), 9) == 3 * 128 + 13
    assert M.action_id(("laser", 3, 2), 9) == 514 + 14 and M.action_id(("push", 0, 0), 9) == 555
    for a in m.legal():
        assert M.action_of_id(M.action_id(a, 9), 9) == a


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
