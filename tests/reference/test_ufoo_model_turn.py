"""The independent Ufo.O model: set-up, the turn, movement and the end (R2-R4, R11; ids R12)."""

from __future__ import annotations

from tests.reference import ufoo_model as M
from tests.reference.ufoo_model import ATTACK, BOARD, MOVE, Model, ScriptedChance
from tests.reference.ufoo_model_helpers import (
    STANDIN, open_board, NO_DICE, fresh, arrange, cells_of, play, board_cells, path_len,
)


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
