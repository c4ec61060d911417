"""The independent O.V.N.I. model: phase 1, turn orders to the energy card (R3-R7, R19.7-R19.9)."""

from __future__ import annotations

from tests.reference.ovni_model import Model, Token
from tests.reference.ovni_model_helpers import (
    P, A, B, M, Identity, ability, after_setup, clear_board, start_turn, play, resolution_example,
)


# ---- turn orders (R3.1, R8.1): the rulebook's tables ----------------------------------------
def test_phase1_order_example():
    """Vermelho 2M 0B 1A 2P, Azul 2M 1B 0A 2P, Verde 0M 2B 2A 1P, Amarelo 0M 2B 1A 2P:
    Azul 1st, Vermelho 2nd, Verde 3rd, Amarelo 4th."""
    m = after_setup(4)
    red, blue, green, yellow = range(4)
    holdings = {red: (2, 1, 0, 2), blue: (2, 0, 1, 2), green: (1, 2, 2, 0), yellow: (2, 1, 2, 0)}
    for s, own in holdings.items():
        m.pl[s].own = list(own)
        m.pl[s].capd = [0] * 4
    assert m._phase1_order() == [blue, red, green, yellow]


def test_phase2_order_example():
    """P A B M: Vermelho 2 1 0 2, Azul 2 0 1 2, Verde 1 2 2 0, Amarelo 2 1 2 0:
    Amarelo, Vermelho, Azul, Verde."""
    m = after_setup(4)
    red, blue, green, yellow = range(4)
    holdings = {red: (2, 1, 0, 2), blue: (2, 0, 1, 2), green: (1, 2, 2, 0), yellow: (2, 1, 2, 0)}
    for s, own in holdings.items():
        m.pl[s].own = list(own)
        m.pl[s].capd = [0] * 4
    assert m._phase2_order() == [yellow, red, blue, green]


def test_order_full_tie_by_distance():
    """Phase 1: farthest planet first; phase 2: nearest first (Luxor 45.6 far, Éris 27.8 near)."""
    m = after_setup(4, planets="fixed")
    for pl in m.pl:
        pl.own = [1, 1, 1, 1]
        pl.capd = [0] * 4
    assert m._phase1_order() == [2, 3, 0, 1]  # Luxor, Magnon, Antáris, Éris
    assert m._phase2_order() == [1, 0, 3, 2]


# ---- placement (R4) ----------------------------------------------------------------------------
def test_placement_faces_alternate_and_turn_order():
    m = after_setup(4)
    o = m.order1
    assert m.to_move() == o[0]
    play(m, ("place", 0, 3))
    assert m.to_move() == o[1]
    play(m, ("place", 0, 5))
    assert [t.face_up for t in m.slots[0]] == [False, True]
    # R4.7: the 3 is no longer in the hand
    assert ("place", 1, 3) not in [a for a in m.legal() if m.to_move() == o[0]]


def test_three_in_a_row_forbidden():
    """R4.4, and A4 when the only free slot follows two of the player's own tokens."""
    m = after_setup(4)
    full = [Token(1, 5, False)] * 4
    m.slots = [[Token(0, 2, False), Token(0, 3, True)], list(full), list(full), list(full)]
    assert m._three_in_row(0, 0) and not m._three_in_row(1, 0)
    m.pl[0].hand = [4, 6]
    assert m._place_options("own", 0) == [("place", 0, 4), ("place", 0, 6)]  # waive
    m.s["stuck_placement"] = "skip"
    assert m._place_options("own", 0) == []
    m.pl[1].hand = [2]
    assert m._place_options("own", 1) == [("place", 0, 2)]


def test_skip_ends_placement_after_idle_cycle():
    """A4 skip: a stuck player places nothing; a full cycle placing nothing ends placement."""
    m = after_setup(3, stuck_placement="skip")
    a, b, c = m.order1
    full = [Token(b, 5, False)] * 4
    m.slots = [[Token(a, 2, False), Token(a, 3, True)], list(full), list(full)]
    m.pl[a].hand = [4, 5]
    m.pl[b].hand = [4]
    m.pl[c].hand = [6]
    m.cycle_i, m.idle, m.place_done = 0, 0, False
    m._next_placement()
    assert m.to_move() == b  # a was skipped without a decision
    play(m, ("place", 0, 4))
    assert m.to_move() == c
    play(m, ("place", 0, 6))
    assert m.revealed or m.phase == 2  # all slots full: resolution ran
    # nobody can place: the idle cycle ends placement with free slots left
    m = after_setup(3, stuck_placement="skip")
    a, b, c = m.order1
    m.slots = [[Token(a, 2, False), Token(a, 3, True)], list(full), list(full)]
    m.pl[a].hand = [4]
    m.pl[b].hand = []
    m.pl[c].hand = []
    m.cycle_i, m.idle, m.place_done = 0, 0, False
    m._next_placement()
    assert m.area_winner[0] == a and m.place_done


def test_two_player_schedule():
    """R19.7: first seat own + dummy, second seat own + dummy, again, then both complete."""
    m = after_setup(2)
    f, s = [p for p in m.order1 if p != 2]
    assert m.sched == [("own", f), ("dummy", f), ("own", s), ("dummy", s)] * 2
    who = []
    ch = Identity()
    while m.step == "place":
        kind, seat = m._current_place_turn()
        who.append((kind, seat))
        m.apply(m.legal()[-1], ch)
    assert who == [("own", f), ("dummy", f), ("own", s), ("dummy", s)] * 2 + [("own", f), ("own", s)] * 2
    assert m.dummy_placed == 4


def test_dummy_queue_from_chance():
    m = Model({"players": 2})
    ch = Identity()
    m.setup(ch)
    ch.push([6, 2, 5, 3, 4])  # R2: the dummy's tokens, shuffled
    m.pl[0].abilities = [3, 4]
    play(m, ("keep", 0), ("keep", 0), ("start_pair", P, A), ("start_pair", B, M),
         ("dummy_alien", P), ("dummy_alien", B), chance=ch)
    assert ch.asked[-1] == "R2 dummy tokens"
    assert m.dummy_queue == [6, 2, 5, 3, 4]
    play(m, m.legal()[0], chance=ch)
    play(m, ("place_dummy", 1), chance=ch)
    assert m.slots[1][0].planet == 2 and m.slots[1][0].value == 6


# ---- resolution (R5): the rulebook's example ---------------------------------------------------
def test_resolution_example():
    m, (green, red, blue, yellow) = resolution_example()
    assert m.area_winner == [green, yellow, None, blue]
    assert m.pl[green].own == [1, 1, 0, 1]  # Piloto, Abductor, Militar
    # "o jogador Vermelho NÃO recrutou aliens ... será capaz de ativar sua carta de Energia"
    assert m.step == "energy" and m.to_move() == red and m.energy_queue == [red]
    assert sorted(m.discard) == [0, 1, 2, 13]


def test_tie_rules_when_opener_not_tied():
    """A1: equal sums, the opener (slot 1) has a lower sum."""
    for rule in ("earliest", "opener_only"):
        m = after_setup(4, tie_rule=rule)
        # opener 3; seat 1 a 6 in slot 2; seat 2 2 + 4 = 6 in slots 3-4
        m.slots = [[Token(0, 3, False), Token(1, 6, True), Token(2, 2, False), Token(2, 4, True)]]
        assert m._resolve_area(0) == (1 if rule == "earliest" else None)
        # opener 4; seat 2 2 + 3 = 5 from slot 2; seat 1 a 5 in slot 3
        m.slots = [[Token(0, 4, False), Token(2, 2, True), Token(1, 5, False), Token(2, 3, True)]]
        assert m._resolve_area(0) == (2 if rule == "earliest" else None)
        # the rulebook's area B: the opener is among the tied and wins under both readings
        m.slots = [[Token(3, 3, False), Token(0, 5, True), Token(3, 4, False), Token(0, 2, True)]]
        assert m._resolve_area(0) == 3
        # A43: sums after cancelling; everything cancelled: no winner
        m.slots = [[Token(0, 2, False), Token(2, 6, True), Token(3, 6, False), Token(1, 2, True)]]
        assert m._resolve_area(0) is None


# ---- awards, multi-area winners (R5.3), stock shortage ----------------------------------------
def test_multi_area_winner_picks_three():
    m = after_setup(4)
    for pl in m.pl:
        pl.own = [0] * 4
    m.areas = [0, 5, 9, 12]  # PPA, AAM, MMP, PAB
    m.area_on_board = [True] * 4
    m.slots = [[Token(0, 6, False), Token(1, 2, True), Token(2, 3, False), Token(3, 4, True)],
               [Token(1, 6, False), Token(0, 2, True), Token(2, 3, False), Token(3, 4, True)],
               [Token(0, 5, False), Token(1, 3, True), Token(2, 4, False), Token(3, 2, True)],
               [Token(2, 6, False), Token(3, 5, True), Token(1, 4, False), Token(0, 3, True)]]
    m.order1 = [0, 1, 2, 3]
    m._end_placement()
    assert m.area_winner == [0, 1, 0, 2]
    # seat 0 won A and C: picks three among PPA + MMP, when area A is handled (A2 first)
    assert m.step == "pick" and m.to_move() == 0
    assert m.pick["pool"] == [3, 1, 0, 2]
    assert m.pl[1].own == [0, 0, 0, 0]  # area B not yet handled
    play(m, ("pick", M), ("pick", M))
    assert m.legal() == [("pick", P), ("pick", A)]
    play(m, ("pick", A))
    assert m.pl[0].own == [0, 1, 0, 2]
    assert m.pl[1].own == [0, 2, 0, 1] and m.pl[2].own == [1, 1, 1, 0]


def test_multi_award_last_and_stock_shortage():
    """A2: with 'last', seat 0 (A and C) takes its aliens after seat 1's area B; R5.3.4 a class
    out of stock is not received; A42 the round then ends the game."""
    for when, seat0_gets in (("first", [0, 0, 0, 3]), ("last", [0, 0, 0, 1])):
        m = after_setup(4, multi_award_at=when)
        for pl in m.pl:
            pl.own = [0] * 4
        m.stock = [20, 20, 20, 3]
        m.areas = [9, 10, 9, 12]  # MMP, MMA, (MMP again), PAB
        m.area_on_board = [True] * 4
        m.slots = [[Token(0, 6, False), Token(1, 2, True), Token(2, 3, False), Token(3, 4, True)],
                   [Token(1, 6, False), Token(0, 2, True), Token(2, 3, False), Token(3, 4, True)],
                   [Token(0, 5, False), Token(1, 3, True), Token(2, 4, False), Token(3, 2, True)],
                   [Token(2, 6, False), Token(3, 5, True), Token(1, 4, False), Token(0, 3, True)]]
        m.order1 = [0, 1, 2, 3]
        m._end_placement()
        if when == "last":
            assert m.pl[1].own == [0, 1, 0, 2]  # area B took 2 Military first
        play(m, ("pick", M), ("pick", M), ("pick", M))
        assert m.pl[0].own == seat0_gets
        assert m.stock[M] == 0 and m.end_class == M


def test_dummy_wins_two_areas_takes_earliest():
    """R19.8: "venceu nas áreas A e C, portanto ele recebe os aliens da carta na área A"."""
    m = after_setup(2)
    for pl in m.pl:
        pl.own = [0] * 4
    m.areas = [0, 5, 9]
    m.area_on_board = [True] * 3
    m.slots = [[Token(2, 6, False), Token(0, 2, True), Token(1, 3, False), Token(0, 4, True)],
               [Token(1, 6, False), Token(0, 2, True), Token(2, 3, False), Token(1, 4, True)],
               [Token(2, 5, False), Token(1, 3, True), Token(0, 5, False), Token(0, 3, True)]]
    m.slots[2] = [Token(2, 5, False), Token(1, 2, True), Token(0, 4, False), Token(1, 3, True)]
    m._end_placement()
    assert m.area_winner == [2, 1, 2]
    assert m.pl[2].own == [2, 1, 0, 0]  # card A (PPA) only
    assert m.dummy_areas == 2


# ---- building (R6) -----------------------------------------------------------------------------
def test_building_pairs_pad_and_restore():
    m = after_setup(4)
    clear_board(m)
    m.stock = [20] * 4
    pl = m.pl[0]
    pl.reserve = 5
    m._receive(0, B, 2)  # "forma um par de Construtores e deve, imediatamente, construir"
    assert pl.pad == 1 and pl.reserve == 4 and pl.pairs_built == 1
    m._receive(0, B, 1)  # a third Builder: no new pair
    assert pl.pad == 1
    m._receive(0, B, 3)  # two new pairs (4 and 6 Builders): one space left, the other build lost
    assert pl.pad == 2 and pl.pairs_built == 3 and pl.reserve == 3
    pl.pad = 0
    m._receive(0, B, 1)  # 7 Builders: no new pair
    assert pl.pad == 0


def test_reserve_empty_no_build():
    m = after_setup(4)
    clear_board(m)
    m.stock = [20] * 4
    m.pl[0].reserve = 0
    m._receive(0, B, 2)
    assert m.pl[0].pad == 0 and m.pl[0].pairs_built == 1


# ---- energy card (R7): the rulebook's example -----------------------------------------------
def test_energy_example():
    """Vermelho and Azul won nothing. Vermelho (first in order): 1st bonus, a Builder, forms a
    pair and builds. Azul: 2nd bonus, three groups in phase 2."""
    m = after_setup(4)
    g, r, b, y = 0, 1, 2, 3
    for pl in m.pl:
        pl.own = [0] * 4
        pl.capd = [0] * 4
    m.pl[r].own = [0, 0, 1, 0]  # Vermelho has one Builder
    m.areas = [13, 0, 1, 2]
    m.area_on_board = [True] * 4
    m.slots = [[Token(g, 3, False), Token(r, 5, True), Token(b, 5, False), Token(y, 5, True)],
               [Token(y, 3, False), Token(g, 5, True), Token(y, 4, False), Token(g, 2, True)],
               [Token(r, 2, False), Token(b, 3, True), Token(y, 2, False), Token(r, 3, True)],
               [Token(g, 6, False), Token(r, 4, True), Token(b, 6, False), Token(b, 4, True)]]
    m.order1 = [r, b, g, y]
    m._end_placement()
    assert m.area_winner == [g, y, None, None]
    assert m.energy_queue == [r, b] and m.to_move() == r
    pad = m.pl[r].pad
    play(m, ("energy_alien", B))
    assert m.pl[r].own[B] == 2 and m.pl[r].pad == pad + 1 and m.pl[r].force_field
    assert m.to_move() == b
    play(m, ("energy_three",))
    assert m.pl[b].energy == 2 and m.phase == 2
    m.pl[b].own = [5, 2, 0, 3]
    start_turn(m, b)
    assert m.turn["L"] == 3
    play(m, ("activate", P), ("end_group",), ("activate", A), ("end_group",))
    assert m.step == "activate" and ("activate", M) in m.legal()  # a third group


def test_energy_after_empty_win():
    """A6: a player who won an area whose aliens are out of stock."""
    for flag, eligible in ((False, False), (True, True)):
        m = after_setup(3, energy_after_empty_win=flag)
        for pl in m.pl:
            pl.own = [0] * 4
        m.stock = [0, 5, 5, 5]
        m.end_class = P
        m.areas = [0, 0 + 0, 0]
        m.areas = [0, 1, 2]  # PPA, PPB, PPM
        m.area_on_board = [True] * 3
        m.stock = [5, 0, 5, 5]
        m.areas = [3, 4, 5]  # AAP, AAB, AAM
        m.slots = [[Token(0, 6, False), Token(1, 2, True), Token(2, 3, False), Token(1, 4, True)],
                   [Token(1, 6, False), Token(2, 2, True), Token(0, 3, False), Token(2, 4, True)],
                   [Token(2, 6, False), Token(0, 2, True), Token(1, 3, False), Token(0, 4, True)]]
        m.stock = [0, 0, 0, 5]
        m.order1 = [0, 1, 2]
        m._end_placement()
        # seat 0 won A (AAP): nothing left of A or P
        assert m.pl[0].received == 0
        assert (0 in m.energy_queue) == eligible


def test_dummy_energy_chooser_and_order():
    """R19.9: the dummy wins nothing, takes bonus 1, the first player chooses its alien; A7."""
    for mode in ("in_order", "last"):
        m = after_setup(2, dummy_energy=mode)
        for pl in m.pl:
            pl.own = [0] * 4
        m.areas = [0, 5, 9]
        m.area_on_board = [True] * 3
        m.slots = [[Token(0, 6, False), Token(2, 2, True), Token(1, 3, False), Token(2, 4, True)],
                   [Token(0, 5, False), Token(2, 3, True), Token(1, 2, False), Token(0, 4, True)],
                   [Token(0, 4, False), Token(1, 6, True), Token(2, 5, False), Token(1, 5, True)]]
        m.slots[2] = [Token(1, 4, False), Token(0, 6, True), Token(2, 5, False), Token(0, 4, True)]
        # A: seat 0 (6); B: seat 0 (9); C: 4s cancel, seat 0's 6 beats the dummy's 5
        m.slots[0] = [Token(1, 6, False), Token(2, 2, True), Token(0, 3, False), Token(2, 4, True)]
        m.order1 = [2, 1, 0]  # the dummy first in phase 1
        m._end_placement()
        assert m.area_winner == [1, 0, 0]
        assert m.step == "pick"
        assert m.pick["pool"] == [1, 2, 0, 3]  # AAM + MMP
        play(m, ("pick", A), ("pick", A), ("pick", M))
        assert set(m.energy_queue) == {2}
        assert m.step == "dummy_energy" and m.to_move() == 1  # the first seat in phase-1 order
        play(m, ("dummy_alien", M))
        assert m.pl[2].own[M] == 1 and m.pl[2].force_field and m.pl[2].energy == 1


def test_dummy_energy_last():
    m = after_setup(2, dummy_energy="last")
    m.order1 = [2, 0, 1]
    for pl in m.pl:
        pl.areas_won = []
        pl.received = 0
    m.area_winner = [None, None, None]
    m.award_next = 3
    m._start_energy()
    assert m.energy_queue == [0, 1, 2]
    m.s["dummy_energy"] = "in_order"
    m._start_energy()
    assert m.energy_queue == [2, 0, 1]


# ---- the 6 (R5.6, R17.7, A3) -----------------------------------------------------------------
def test_six_spent_returns_and_twice():
    for rule, spent in (("spent", True), ("returns", False)):
        m = after_setup(4, six_cancelled=rule)
        m.slots = [[Token(0, 6, False), Token(1, 6, True)], [], [], []]
        m.slots[0][0].cancelled = m.slots[0][1].cancelled = True
        m.pl[0].abilities = []
        m.pl[1].abilities = []
        m._take_back_tokens()
        assert m.pl[0].six_spent == spent and (6 in m.pl[0].hand) != spent
    m = after_setup(4)
    m.pl[0].abilities = [ability(m, "six_twice")]
    for expected in (False, True):
        m.slots = [[Token(0, 6, False)], [], [], []]
        m._take_back_tokens()
        assert m.pl[0].six_spent == expected
