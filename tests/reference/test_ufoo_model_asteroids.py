"""The independent Ufo.O model: asteroids (R10)."""

from __future__ import annotations

from tests.reference.ufoo_model import ATTACK, DESTROYED, MOVE
from tests.reference.ufoo_model_helpers import STANDIN, fresh, arrange, cells_of, play, ANCHOR


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
