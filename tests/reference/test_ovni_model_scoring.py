"""The independent O.V.N.I. model: final scoring, the winner and the missions (R15, R16, R18)."""

from __future__ import annotations

from tests.reference.ovni_model_helpers import (
    WASHINGTON, SUPERDOTADO, ability, after_setup, clear_board,
)


# ---- scoring (R15, R16, R18) ------------------------------------------------------------------
def test_scoring_examples():
    m = after_setup(4)
    clear_board(m)
    for s in range(3):
        m.pl[s].own = [5, 0, 0, 0]  # "Três jogadores possuem cinco pilotos cada um ... 3 pontos"
    m.pl[3].own = [0, 1, 0, 0]
    assert m._points_majorities() == [3, 3, 3, 10]
    # Washington: Azul 3, Vermelho 2, Verde 2, Amarelo 1 -> Azul
    for s, n in ((2, 3), (1, 2), (0, 2), (3, 1)):
        m.pl[s].ufos[WASHINGTON] = n
    assert m._airspace_owner(WASHINGTON) == 2
    m.pl[1].ufos[WASHINGTON] = 3
    assert m._airspace_owner(WASHINGTON) is None
    # humans: the four examples (brown/black/white = 3; 7; 17; 28)
    def hum(counts):
        m.pl[0].humans = counts
        return m._points_humans(0)
    # kinds: 0 politico grey, 1 cientista white, 2 atleta orange, 3 artista lilac, 4 religioso black, 5 superdotado brown
    assert hum([0, 1, 0, 0, 1, 1]) == 3
    assert hum([2, 0, 2, 1, 0, 0]) == 7
    assert hum([0, 2, 1, 1, 1, 1]) == 17
    assert hum([1, 1, 1, 3, 1, 2]) == 28
    # R17.8: "mapear cinco cidades, portanto ele marca 20 pontos"
    m.pl[0].abilities = [ability(m, "mapping_worth_4")]
    m.pl[0].mapped = [True] * 5 + [False] * 7
    assert m._points_mapping(0) == 20
    # UFOs: 2 per UFO on the board, 1 on the pad; 3 with ufo_worth_3
    m.pl[1].ufos = [1] * 4 + [0] * 8
    m.pl[1].pad = 2
    assert m._points_ufos(1) == 10
    m.pl[1].abilities = [ability(m, "ufo_worth_3")]
    assert m._points_ufos(1) == 14


def test_tie_breaks():
    """R16: equal sums: most UFOs on the board, then most humans; A37 a full tie shares."""
    m = after_setup(3)
    clear_board(m)
    for s in range(3):
        m.pl[s].kept_missions = []
    m.pl[0].ufos[0] = 1
    m.pl[1].ufos[1] = 1
    m.pl[2].ufos[2] = 1
    m._game_over(capped=False)
    assert m.totals == [6, 6, 6] and m.won() == [True, True, True] and m.draw()
    m.win_share() == [1 / 3] * 3
    clear_board(m)
    m.pl[0].ufos[0] = 1
    m.pl[2].ufos[0] = 1  # tied airspace: nobody scores it
    m.pl[1].pad = 2
    m.pl[0].humans = [2, 0, 0, 0, 0, 0]  # 3 points
    m.pl[1].humans = [2, 0, 0, 0, 0, 0]
    m.pl[2].humans = [1, 1, 1, 0, 0, 0]  # 3 points, three humans
    m._score()
    assert m.totals == [5, 5, 5]
    assert m.winners == [2] and not m.draw()


def test_missions_each_kind():
    m = after_setup(4)
    clear_board(m)
    s = 0
    pl = m.pl[s]
    # M01: even airspace in 4 cities + 2 politico
    pl.kept_missions = [0]
    for c in (1, 3, 5, 7):  # cities 2, 4, 6, 8
        pl.ufos[c] = 1
    pl.humans = [2, 0, 0, 0, 0, 0]
    assert m._missions_done(s) == [True]
    pl.ufos[7] = 0
    pl.ufos[8] = 1  # city 9 is odd
    assert m._missions_done(s) == [False]
    m.s["mission_parity"] = "any"
    assert m._missions_done(s) == [True]
    m.s["mission_parity"] = "card"
    # M06: cientista + atleta + artista, 7 Abductors (captured count with A15 true)
    pl.kept_missions = [5]
    pl.humans = [0, 1, 1, 1, 0, 0]
    pl.own = [0, 6, 0, 0]
    pl.capd = [0, 1, 0, 0]
    assert m._missions_done(s) == [True]
    m.s["captured_in_scoring"] = False
    assert m._missions_done(s) == [False]
    m.s["captured_in_scoring"] = True
    # M09: capture P, A, B; 5 Pilots + 5 Military
    pl.kept_missions = [8]
    pl.capd = [1, 1, 1, 0]
    pl.own = [4, 0, 0, 5]
    assert m._missions_done(s) == [True]
    # M15: 5 mapped cities, 6 UFOs on the board (A16 on_board) / launched
    pl.kept_missions = [14]
    pl.mapped = [True] * 5 + [False] * 7
    pl.ufos = [1] * 6 + [0] * 6
    assert m._missions_done(s) == [True]
    m.s["mission_ufos"] = "launched"
    assert m._missions_done(s) == [False]
    pl.launched = 6
    assert m._missions_done(s) == [True]


def test_mission_overlap():
    """A20: M01 and M01-like needs; additive needs the sum, else the first in slot order."""
    m = after_setup(4)
    clear_board(m)
    pl = m.pl[0]
    pl.kept_missions = [4, 6]  # M05: religioso, superdotado, politico + 7 P; M07: politico, religioso, atleta + 7 B
    pl.own = [7, 0, 7, 0]
    pl.humans = [1, 0, 1, 1, 1, 0]
    pl.humans[SUPERDOTADO] = 1
    assert m._missions_done(0) == [True, True]
    m.s["mission_overlap"] = "additive"
    assert m._missions_done(0) == [True, False]
    pl.humans = [2, 0, 1, 0, 2, 1]
    assert m._missions_done(0) == [True, True]


def test_dummy_in_scoring():
    m = after_setup(2)
    clear_board(m)
    m.pl[2].own = [9, 0, 0, 0]
    m.pl[0].own = [3, 0, 0, 0]
    m.pl[2].ufos[0] = 5
    m.pl[0].ufos[0] = 1
    assert m._points_majorities()[0] == 10 and m._airspace_owner(0) == 0
    m.s["dummy_in_scoring"] = "blocks"
    assert m._points_majorities()[0] == 0 and m._airspace_owner(0) == 2  # the dummy: nobody scores
