"""The independent Ufo.O model: motherships (R7), respawn and launching (R8), self-repair (R9)."""

from __future__ import annotations

import pytest

from tests.reference import ufoo_model as M
from tests.reference.ufoo_model import ATTACK, BOARD, DESTROYED, READY, WAITING
from tests.reference.ufoo_model_helpers import (
    NO_DICE, fresh, arrange, kinds, cells_of, play, board_cells, path_len, ANCHOR, duel,
)


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
