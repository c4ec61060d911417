"""The independent Ufo.O model: line of fire (R5), lasers, the ion cannon and the push (R6)."""

from __future__ import annotations

from tests.reference import ufoo_model as M
from tests.reference.ufoo_model import ATTACK, BOARD, DESTROYED, PUSH
from tests.reference.ufoo_model_helpers import (
    open_board, fresh, arrange, kinds, cells_of, play, board_cells, duel,
)


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
