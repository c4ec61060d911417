"""The independent O.V.N.I. model (tests/reference/ovni_model.py) on the rulebook's own examples,
the interface's readings, and random self-play for every setting value.

Cities are indices (board number - 1): 0 São Paulo, 1 Washington, 2 Madrid, 3 Paris, 4 Berlin,
5 Moscow, 6 Cairo, 7 Dubai, 8 Hong Kong, 9 Tokyo, 10 Sydney, 11 Buenos Aires.
"""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from simkit.games.ovni.params import OVNIParams
from tests.reference.ovni_model import (
    MAX_ACTIONS, Model, RandomChance, ScriptedChance, Token, action_from_id, action_id,
)

P, A, B, M = 0, 1, 2, 3
SAO_PAULO, WASHINGTON, MADRID, PARIS, BERLIN, MOSCOW, CAIRO, DUBAI, HONG_KONG, TOKYO, SYDNEY, BUENOS_AIRES = range(12)
POLITICO, CIENTISTA, ATLETA, ARTISTA, RELIGIOSO, SUPERDOTADO = range(6)


class Identity(ScriptedChance):
    """Scripted outcomes first, then every shuffle leaves its list as it is."""

    def shuffle(self, tag, items):
        if self.outcomes:
            return super().shuffle(tag, items)
        self.asked.append(tag)
        return list(items)


def ability(m: Model, name: str) -> int:
    return m.decks.ability_index(name)


def after_setup(players=4, chance=None, **settings) -> Model:
    """A model whose set-up decisions are made (first keep option, first legal start), in round 1."""
    m = Model({"players": players, **settings})
    ch = chance or Identity()
    m.setup(ch)
    while m.step in ("keep", "start", "dummy_start"):
        m.apply(m.legal()[0], ch)
    return m


def clear_board(m: Model) -> None:
    for pl in m.pl:
        pl.ufos = [0] * 12
        pl.frozen = [0] * 12
        pl.mapped = [False] * 12
        pl.own = [0] * 4
        pl.capd = [0] * 4
        pl.pad = 0
        pl.reserve = 8
        pl.pairs_built = 0
        pl.abilities = []


def start_turn(m: Model, seat: int) -> None:
    """Jump to ``seat``'s phase-2 turn (it is the only turn left in the round)."""
    m.phase = 2
    m.slots = [[] for _ in range(m.n_areas)]
    m.seat_turns = [seat]
    m.turn_i = -1
    m._next_turn()


def play(m: Model, *actions, chance=None) -> None:
    ch = chance or Identity()
    for a in actions:
        m.apply(a, ch)


# ---- action ids --------------------------------------------------------------------------------
def test_action_ids_round_trip():
    assert MAX_ACTIONS == 425
    for i in range(MAX_ACTIONS):
        assert action_id(action_from_id(i)) == i
    assert action_id(("keep", 0)) == 0
    assert action_id(("end_group",)) == 424
    assert action_from_id(action_id(("place", 2, 6))) == ("place", 2, 6)


# ---- set-up (R1, R19.3, chance S1-S6) --------------------------------------------------------
def test_setup_chance_order_and_pieces():
    m = Model({"players": 4})
    ch = Identity()
    m.setup(ch)
    assert ch.asked == ["S1 planets", "S2 alien deck", "S3 human track", "S4 city humans",
                        "S5 ability deck", "S6 mission deck"]
    # stock: 20 per class with 4 players
    assert m.stock == [20] * 4
    # "cada um iniciará o jogo com 3 peças de ovnis no tabuleiro" (4 players)
    assert [sum(pl.ufos) for pl in m.pl] == [3, 3, 3, 3]
    assert m.pl[0].ufos[SAO_PAULO] == 1 and m.pl[1].ufos[WASHINGTON] == 1 and m.pl[0].ufos[BERLIN] == 1 and m.pl[3].ufos[PARIS] == 1
    # city humans from S4 (identity: kinds 0,0,1,1,...), track from S3
    assert m.city_humans == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert m.track == [0, 1, 2, 3, 4, 5]
    # abilities: seat s gets positions 2s, 2s+1; missions 3s..3s+2
    assert m.pl[1].abilities == [2, 3] and m.pl[2].dealt_missions == [6, 7, 8]
    # prebuilt_ufo (index 2, seat 1): one UFO from the reserve to the pad
    assert m.pl[1].pad == 1 and m.pl[1].reserve == 8 - 3 - 1
    assert m.step == "keep" and m.to_move() == 0


def test_setup_fixed_planets_skips_s1_and_three_players():
    m = Model({"players": 3, "planets": "fixed"})
    ch = Identity()
    m.setup(ch)
    assert ch.asked[0] == "S2 alien deck"
    assert [pl.home for pl in m.pl] == [0, 1, 2]
    assert m.stock == [16] * 4
    assert [sum(pl.ufos) for pl in m.pl] == [4, 4, 4]  # "em três jogadores ... 4 peças"
    assert m.n_areas == 3


def test_setup_two_players_dummy():
    """R19.3: dummy UFOs two by two in Madrid (3), 6, 9, 12, each with a mapping token."""
    m = Model({"players": 2, "force_field_2p": "remove"})
    ch = Identity()
    m.setup(ch)
    d = m.pl[2]
    assert [c for c in range(12) if d.ufos[c]] == [MADRID, MOSCOW, HONG_KONG, BUENOS_AIRES]
    assert all(d.ufos[c] == 2 for c in (2, 5, 8, 11)) and d.reserve == 0
    assert [c for c in range(12) if d.mapped[c]] == [2, 5, 8, 11]
    assert m.pl[0].ufos[SAO_PAULO] == 1 and m.pl[1].ufos[WASHINGTON] == 1 and m.pl[0].ufos[PARIS] == 1
    assert [sum(m.pl[s].ufos) for s in (0, 1)] == [4, 4]
    assert m.stock == [16] * 4
    # A21 remove: the force-field card (index 5) is not in the ability deck
    assert 5 not in m.pl[0].abilities + m.pl[1].abilities
    assert m.pl[0].abilities == [0, 1] and m.pl[1].abilities == [2, 3]


def test_two_player_dead_force_field_is_dealt():
    m = Model({"players": 2, "force_field_2p": "dead"})
    m.setup(Identity([None, None, None, None, [5, 0, 1, 2, 3, 4, 6, 7, 8, 9], None]))
    assert 5 in m.pl[0].abilities


def test_keep_missions():
    m = Model({"players": 3})
    m.setup(Identity())
    play(m, ("keep", 1), ("keep", 4), ("keep", 3))
    assert m.pl[0].kept_missions == [1]
    assert m.pl[1].kept_missions == [3, 5]  # slots 0 and 2 of [3, 4, 5]
    assert m.pl[2].kept_missions == [7, 8]
    assert m.step == "start"


def test_starting_pairs_differ_and_triple():
    """R1.11: "nenhum jogador pode escolher exatamente a mesma dupla"; R17.1 three aliens."""
    m = Model({"players": 4})
    m.setup(Identity())
    play(m, *[("keep", 0)] * 4)
    # seat 0 holds three_starting_aliens (ability 0) with the identity deal
    assert m.legal() == [("start_triple", k) for k in range(4)]
    play(m, ("start_triple", B))
    assert m.pl[0].own == [1, 1, 0, 1]
    play(m, ("start_pair", A, M))
    assert ("start_pair", A, M) not in m.legal()
    play(m, ("start_pair", P, A), ("start_pair", B, M))
    assert m.stock == [18, 17, 19, 17]
    assert m.round == 1 and m.phase == 1


def test_dummy_start_same_rules_and_free():
    m = Model({"players": 2})
    m.setup(Identity())
    m.pl[0].abilities = [3, 4]  # not three_starting_aliens
    play(m, ("keep", 0), ("keep", 0), ("start_pair", P, A), ("start_pair", B, M))
    assert m.step == "dummy_start" and m.to_move() == 0
    play(m, ("dummy_alien", P))
    # seat 1: k != P and {P, k} is not a seat's pair ({P, A})
    assert m.to_move() == 1 and m.legal() == [("dummy_alien", B), ("dummy_alien", M)]
    m2 = Model({"players": 2, "dummy_start": "free"})
    m2.setup(Identity())
    m2.pl[0].abilities = [3, 4]
    play(m2, ("keep", 0), ("keep", 0), ("start_pair", P, A), ("start_pair", B, M), ("dummy_alien", P))
    assert len(m2.legal()) == 4


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
def resolution_example(**settings):
    m = after_setup(4, **settings)
    green, red, blue, yellow = 0, 1, 2, 3
    for pl in m.pl:
        pl.own = [0, 0, 0, 0]
        pl.capd = [0] * 4
    m.stock = [20] * 4
    m.areas = [13, 0, 1, 2]  # A: PAM ("um Piloto, um Abductor e um Militar")
    m.area_on_board = [True] * 4

    def t(p, v, i):
        return Token(p, v, face_up=(i % 2 == 1))

    m.slots = [
        [t(green, 3, 0), t(red, 5, 1), t(blue, 5, 2), t(yellow, 5, 3)],  # three 5s cancel
        [t(yellow, 3, 0), t(green, 5, 1), t(yellow, 4, 2), t(green, 2, 3)],  # 7 = 7, opener
        [t(red, 2, 0), t(blue, 3, 1), t(yellow, 2, 2), t(red, 3, 3)],  # 2s and 3s cancel
        [t(blue, 6, 0), t(red, 4, 1), t(green, 4, 2), t(blue, 2, 3)],  # 4s cancel, Blue's 6
    ]
    m.order1 = [green, red, blue, yellow]
    m._end_placement()
    return m, (green, red, blue, yellow)


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


# ---- phase 2: Pilots (R9) ---------------------------------------------------------------------
def test_pilots_example_maps_tokyo():
    """Azul, 4 Pilots, Berlin A/B and Moscow C: Moscow-Tokyo, Berlin-Paris, Berlin-Moscow-Tokyo;
    the 1st to occupy Tokyo with two UFOs maps it; later mappers need three."""
    m = after_setup(4)
    clear_board(m)
    blue = 2
    m.pl[blue].own = [4, 1, 0, 0]  # an Abductor too, so that the turn goes on
    m.pl[blue].ufos[BERLIN] = 2
    m.pl[blue].ufos[MOSCOW] = 1
    start_turn(m, blue)
    play(m, ("activate", P))
    assert m.turn["budget"] == 4
    play(m, ("move", MOSCOW, TOKYO), ("move", BERLIN, PARIS), ("move", BERLIN, MOSCOW))
    assert not m.pl[blue].mapped[MOSCOW]  # one UFO in Moscow now
    play(m, ("move", MOSCOW, TOKYO))
    assert m.pl[blue].mapped[TOKYO] and m.pl[blue].frozen[TOKYO] == 2
    # budget spent: the group ended by itself
    assert m.turn["group"] is None
    # another player now needs three UFOs in Tokyo
    m.pl[0].ufos[TOKYO] = 2
    m._check_map(0, TOKYO)
    assert not m.pl[0].mapped[TOKYO]
    m.pl[0].ufos[TOKYO] = 3
    m._check_map(0, TOKYO)
    assert m.pl[0].mapped[TOKYO]


def test_frozen_ufos_cannot_move_and_pass_through_mapping():
    """A8 each_move: passing through a city with a second own UFO maps it and freezes both."""
    m = after_setup(4)
    clear_board(m)
    blue = 2
    m.pl[blue].own = [4, 0, 0, 0]
    m.pl[blue].ufos[BERLIN] = 2
    m.pl[blue].ufos[MOSCOW] = 1
    start_turn(m, blue)
    play(m, ("activate", P), ("move", BERLIN, MOSCOW))
    assert m.pl[blue].mapped[MOSCOW] and m.pl[blue].frozen[MOSCOW] == 2
    assert not any(a[0] == "move" and a[1] == MOSCOW for a in m.legal())
    # A8 end_of_group: the pass-through maps nothing; the end of the group checks every city
    m = after_setup(4, map_check="end_of_group")
    clear_board(m)
    m.pl[blue].own = [4, 0, 0, 0]
    m.pl[blue].ufos[BERLIN] = 2
    m.pl[blue].ufos[MOSCOW] = 1
    start_turn(m, blue)
    play(m, ("activate", P), ("move", BERLIN, MOSCOW), ("move", MOSCOW, TOKYO), ("move", MOSCOW, TOKYO))
    assert not any(m.pl[blue].mapped)
    play(m, ("end_group",))
    assert m.pl[blue].mapped[TOKYO] and not m.pl[blue].mapped[MOSCOW]


def test_extra_moves_and_map_with_two():
    """R17.5: "possui três fichas de pilotos e pode então realizar até cinco movimentos"."""
    m = after_setup(4)
    clear_board(m)
    m.pl[0].own = [3, 0, 0, 0]
    m.pl[0].abilities = [ability(m, "extra_moves"), ability(m, "map_with_two")]
    m.pl[0].ufos[SAO_PAULO] = 1
    m.pl[0].ufos[MADRID] = 1
    m.pl[1].mapped[MADRID] = True  # Madrid already mapped by another player
    m.pl[0].abilities.append(ability(m, "ufo_worth_3"))
    start_turn(m, 0)
    play(m, ("activate", P))
    assert m.turn["budget"] == 5
    play(m, ("move", SAO_PAULO, MADRID))
    assert m.pl[0].mapped[MADRID]  # R17.2: two UFOs suffice even where mapped
    # no Pilot: extra_moves gives nothing
    m2 = after_setup(4, empty_group=True)
    clear_board(m2)
    m2.pl[0].abilities = [ability(m2, "extra_moves")]
    m2.pl[0].ufos[SAO_PAULO] = 1
    start_turn(m2, 0)
    play(m2, ("activate", P))
    assert m2.turn["group"] is None  # budget 0: the group ended at once (A35)


# ---- Abductors (R10) ---------------------------------------------------------------------------
def test_abductors_example():
    """Vermelho, three Abductors (one pair): no majority in Dubai, majority in Buenos Aires."""
    m = after_setup(4)
    clear_board(m)
    red = 1
    m.pl[red].own = [1, 3, 0, 0]  # a Pilot too, so that the turn goes on
    m.city_humans[DUBAI] = ATLETA
    m.city_humans[BUENOS_AIRES] = ARTISTA
    m.pl[red].ufos[DUBAI] = 1
    m.pl[0].ufos[DUBAI] = 1
    m.pl[red].ufos[BUENOS_AIRES] = 2
    m.pl[2].ufos[BUENOS_AIRES] = 1
    start_turn(m, red)
    play(m, ("activate", A))
    assert m.turn["budget"] == 1
    assert ("abduct", DUBAI, DUBAI) not in m.legal()
    play(m, ("abduct", BUENOS_AIRES, BUENOS_AIRES))
    assert m.pl[red].humans[ARTISTA] == 1 and m.city_humans[BUENOS_AIRES] is None
    assert m.turn["group"] is None


def test_abduct_without_majority_madrid_and_swap():
    """R17.9: "em Madri há um ovni do jogador Azul e um ovni do jogador Vermelha. Azul tem esta
    habilidade e pode abduzir". R17.4 swap with an adjacent city first."""
    m = after_setup(4)
    clear_board(m)
    blue, red = 2, 1
    m.pl[blue].own = [1, 4, 0, 0]
    m.pl[blue].abilities = [ability(m, "abduct_without_majority"), ability(m, "swap_human")]
    m.pl[blue].ufos[MADRID] = 1
    m.pl[red].ufos[MADRID] = 1
    m.city_humans = [None] * 12
    m.city_humans[MADRID] = POLITICO
    m.city_humans[PARIS] = SUPERDOTADO  # Paris is adjacent to Madrid
    start_turn(m, blue)
    play(m, ("activate", A))
    legal = m.legal()
    assert ("abduct", MADRID, MADRID) in legal and ("abduct", MADRID, PARIS) in legal
    assert ("abduct", PARIS, PARIS) not in legal  # no UFO in Paris (A13 presence)
    play(m, ("abduct", MADRID, PARIS))
    assert m.pl[blue].humans[SUPERDOTADO] == 1 and m.city_humans[PARIS] == POLITICO
    assert m.city_humans[MADRID] is None
    # nothing else to abduct: the group ended by itself. A second abduction in empty Madrid:
    # A14 swap_into_empty=false forbids bringing Paris' human in
    assert m.turn["group"] is None
    m.turn["group"], m.turn["budget"] = A, 1
    assert ("abduct", MADRID, PARIS) not in m._abduct_options(blue)
    m.s["swap_into_empty"] = True
    assert ("abduct", MADRID, PARIS) in m._abduct_options(blue)
    m.s["no_majority_presence"] = False  # A13: any city
    assert ("abduct", PARIS, PARIS) in m._abduct_options(blue)


# ---- Builders (R11) ----------------------------------------------------------------------------
def test_builders_example():
    """Amarelo launches two UFOs: São Paulo, and Hong Kong where it then has two: maps it."""
    m = after_setup(4)
    clear_board(m)
    yellow = 3
    m.pl[yellow].own = [1, 0, 4, 0]
    m.pl[yellow].pad = 2
    m.pl[yellow].ufos[HONG_KONG] = 1
    start_turn(m, yellow)
    play(m, ("activate", B), ("launch", SAO_PAULO), ("launch", HONG_KONG))
    assert m.pl[yellow].mapped[HONG_KONG] and not m.pl[yellow].mapped[SAO_PAULO]
    assert m.pl[yellow].pad == 0 and m.pl[yellow].launched == 2
    assert m.turn["group"] is None


# ---- Military (R12) ---------------------------------------------------------------------------
def test_military_example():
    """Verde, 6 Military: captures a Builder of Azul, forms a new pair and builds at once; then
    destroys a UFO of Vermelho in Sydney. Two attacks may not hit the same opponent."""
    m = after_setup(4)
    clear_board(m)
    green, red, blue = 0, 1, 2
    m.pl[green].own = [0, 0, 1, 6]
    m.pl[green].pairs_built = 0
    m.pl[blue].own = [0, 0, 3, 0]
    m.pl[blue].pairs_built = 1
    m.pl[green].ufos[SYDNEY] = 1
    m.pl[red].ufos[SYDNEY] = 1
    m.pl[blue].ufos[SYDNEY] = 1
    start_turn(m, green)
    play(m, ("activate", M))
    assert m.turn["budget"] == 2
    play(m, ("capture", blue, B))
    assert m.pl[green].capd[B] == 1 and m.pl[green].pad == 1  # pair formed: builds
    assert m.pl[blue].own[B] == 2
    legal = m.legal()
    assert not any(a[0] in ("capture", "destroy") and a[1] == blue for a in legal)
    play(m, ("destroy", red, SYDNEY))
    assert m.pl[red].ufos[SYDNEY] == 0 and m.pl[red].reserve == 9
    # restoring a broken pair builds again
    m.pl[blue].own[B] = 1
    m._check_build(blue)
    assert m.pl[blue].pairs_built == 0
    m.stock[B] = 5
    pad = m.pl[blue].pad
    m._receive(blue, B, 1)
    assert m.pl[blue].pad == pad + 1


def test_capture_restrictions():
    m = after_setup(4)
    clear_board(m)
    m.pl[0].own = [0, 0, 0, 3]
    m.pl[1].own = [1, 2, 0, 0]  # the only Pilot may not be taken
    m.pl[1].capd = [0, 0, 1, 0]
    m.pl[1].own[B] = 1  # one own Builder + one captured Builder
    m.pl[2].own = [2, 0, 0, 0]
    m.pl[2].force_field = True  # R7.2: force field
    start_turn(m, 0)
    play(m, ("activate", M))
    legal = m.legal()
    assert ("capture", 1, P) not in legal and ("capture", 1, A) in legal
    assert ("capture", 1, B) in legal  # A12 all
    assert not any(a[0] == "capture" and a[1] == 2 for a in legal)
    m.s["last_of_class"] = "own"
    assert ("capture", 1, B) not in m.legal()


def test_attack_targets_readings():
    """A11: with 9 Military, A, B, A is allowed (not_consecutive) or not (all_different)."""
    for mode, third in (("not_consecutive", True), ("all_different", False)):
        m = after_setup(4, military_targets=mode)
        clear_board(m)
        m.pl[0].own = [0, 0, 0, 9]
        m.pl[1].own = [5, 0, 0, 0]
        m.pl[2].own = [5, 0, 0, 0]
        m.pl[3].own = [0] * 4
        start_turn(m, 0)
        play(m, ("activate", M), ("capture", 1, P), ("capture", 2, P))
        assert (("capture", 1, P) in m.legal()) == third


def test_attacks_dynamic():
    """A10: a captured Military adds an attack (5 + 1 = 6 Military: two attacks)."""
    for dyn, budget in ((False, 0), (True, 1)):
        m = after_setup(4, attacks_dynamic=dyn)
        clear_board(m)
        m.pl[0].own = [1, 0, 0, 5]
        m.pl[1].own = [0, 0, 0, 3]
        m.pl[2].own = [2, 0, 0, 0]  # a target for a second attack
        start_turn(m, 0)
        play(m, ("activate", M), ("capture", 1, M))
        assert (m.turn["group"] == M and m.turn["budget"] == budget) if dyn else m.turn["group"] is None


def test_force_field_card_parks_military():
    """R17.6: two Military on Box 1; immune; back at the end of the round."""
    m = after_setup(3)
    clear_board(m)
    m.pl[0].abilities = [ability(m, "force_field")]
    m.pl[0].own = [1, 0, 0, 5]
    m.pl[1].own = [1, 0, 0, 6]
    m.pl[2].own = [1, 0, 0, 0]
    m.order1 = [0, 1, 2]
    m._take_back_tokens()
    m._start_phase2()
    assert m.step == "shield" and m.to_move() == 0
    play(m, ("shield", 1))
    assert m.pl[0].parked == 2 and m.pl[0].force_field
    # seat 0's Military attacks count only the three left
    # (seat 1 cannot attack seat 0)
    while m.to_move() != 1:
        play(m, ("end_turn",))
    play(m, ("activate", M))
    assert not any(a[0] in ("capture", "destroy") and a[1] == 0 for a in m.legal())


def test_force_field_not_used_with_two_players():
    m = after_setup(2, force_field_2p="dead")
    m.pl[0].abilities = [ability(m, "force_field")]
    m.pl[0].own = [1, 0, 0, 5]
    assert not m._shield_eligible(0)


# ---- activation (R8.3, A9) --------------------------------------------------------------------
def test_activation_limits():
    m = after_setup(4)
    clear_board(m)
    m.pl[0].own = [1, 2, 0, 0]
    start_turn(m, 0)
    assert m.legal() == [("activate", P), ("activate", A), ("end_turn",)]
    m.s["empty_group"] = True
    assert len(m.legal()) == 5
    m.s["empty_group"] = False
    play(m, ("activate", A))  # no human in reach: the group ends by itself (A35)
    assert m.legal() == [("activate", P), ("end_turn",)]


def test_prebuilt_launch_with_empty_group():
    m = after_setup(4, empty_group=True)
    clear_board(m)
    m.pl[1].pad = 1
    start_turn(m, 1)
    play(m, ("activate", B), ("launch", CAIRO))
    assert m.pl[1].ufos[CAIRO] == 1


# ---- end of round, refill, end of game (R13, R14) --------------------------------------------
def test_refill_in_city_order_and_game_end():
    m = after_setup(4)
    m.city_humans = [None, 1, None, 2, 3, None, 1, 1, 1, 1, 1, 1]
    m.track = [5, 4]
    m._refill()
    assert m.city_humans[:6] == [5, 1, 4, 2, 3, None] and m.track == []
    # the round in which a class runs out is the last
    m = after_setup(4)
    m.stock[A] = 1
    m._receive(0, A, 1)
    assert m.end_class == A
    start_turn(m, 0)
    while not m.over():
        play(m, ("end_turn",) if ("end_turn",) in m.legal() else m.legal()[-1])
    assert m.round == 1 and not m.capped


def test_cap():
    for result in ("score", "draw"):
        m = after_setup(3, max_rounds=1, cap_result=result)
        ch = RandomChance(1)
        r = random.Random(1)
        while not m.over():
            m.apply(r.choice(m.legal()), ch)
        if m.end_class is None:
            assert m.capped and m.round == 1
            if result == "draw":
                assert m.won() == [False] * 3 and m.draw()


def test_reshuffle_readings():
    """A5: draw_then_shuffle draws what is left then shuffles the discards; shuffle_all first."""
    m = after_setup(4)
    m.deck = [7, 8]
    m.discard = [0, 1, 2, 3]
    ch = Identity()
    m._draw_cards(ch)
    assert m.areas == [7, 8, 0, 1] and m.deck == [2, 3] and ch.asked[-1] == "R1 reshuffle"
    m = after_setup(4, reshuffle="shuffle_all")
    m.deck = [7, 8]
    m.discard = [3, 0]
    ch = Identity()
    m._draw_cards(ch)
    assert m.areas == [0, 3, 7, 8] and m.deck == [] and m.reshuffles == 1


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


# ---- information -------------------------------------------------------------------------------
def test_observation_hides_what_it_must():
    """Changing other planets' face-down values, hands, missions, the deck order and the dummy
    queue leaves the observation unchanged."""
    for players in (2, 3, 4):
        ch = RandomChance(5 + players)
        m = Model({"players": players})
        m.setup(ch)
        r = random.Random(players)
        seen = 0
        while not m.over() and seen < 40:
            seat = m.to_move()
            base = m.observation(seat)
            m2 = copy.deepcopy(m)
            for pl in m2.pl:
                if pl.index != seat:
                    pl.hand = [9] * len(pl.hand)
                    pl.dealt_missions = [15, 14, 13] if pl.dealt_missions else []
                    pl.kept_missions = [15] * len(pl.kept_missions)
            for sl in m2.slots:
                for t in sl:
                    if not t.face_up and t.planet != seat and not m2.revealed:
                        t.value = 9
            m2.deck = list(reversed(m2.deck))
            m2.dummy_queue = list(reversed(m2.dummy_queue))
            assert m2.observation(seat) == base
            if m.step == "place" and any(m.slots):
                seen += 1
            m.apply(r.choice(m.legal()), ch)
        assert seen > 0


def test_observation_reveals_after_placement():
    m, _ = resolution_example()
    obs = m.observation(1)
    assert m.revealed
    assert all(x[1] is not None for sl in obs["slots"] for x in sl)


# ---- random self-play for every setting value ----------------------------------------------
def setting_values():
    out = []
    for f in dataclasses.fields(OVNIParams):
        if f.name in ("board", "decks", "players", "max_rounds"):
            continue
        meta = f.metadata
        if meta.get("choices"):
            vals = list(meta["choices"])
        elif isinstance(f.default, bool):
            vals = [False, True]
        else:
            continue
        for v in vals:
            if v != f.default:
                out.append((f.name, v))
    return out


def random_game(settings: dict, seed: int) -> Model:
    m = Model(settings)
    ch = RandomChance(seed)
    m.setup(ch)
    r = random.Random(seed * 7 + 1)
    steps = 0
    while not m.over():
        legal = m.legal()
        assert legal, m.snapshot()
        assert 0 <= m.to_move() < m.n
        # prefer doing something over ending, to exercise the group rules
        acts = [a for a in legal if a[0] not in ("end_group", "end_turn")]
        a = r.choice(acts) if acts and r.random() < 0.85 else r.choice(legal)
        m.apply(a, ch)
        steps += 1
        assert steps < 20000
        check_invariants(m)
    return m


def check_invariants(m: Model) -> None:
    per = m.decks.aliens_per_class - (m.decks.aliens_removed_small if m.n <= 3 else 0)
    for k in range(4):
        assert m.stock[k] + sum(pl.holds(k) for pl in m.pl) == per
        assert m.stock[k] >= 0
    for pl in m.pl:
        assert sum(pl.ufos) + pl.pad + pl.reserve == m.decks.ufos_per_player
        assert 0 <= pl.pad <= m.decks.launch_pad
        assert all(0 <= f <= u for f, u in zip(pl.frozen, pl.ufos))
        assert all(x >= 0 for x in pl.own + pl.capd)
    humans = sum(1 for h in m.city_humans if h is not None) + len(m.track) + sum(sum(pl.humans) for pl in m.pl)
    assert humans == 18


@pytest.mark.parametrize("players", [2, 3, 4])
def test_self_play_defaults(players):
    for seed in range(6):
        m = random_game({"players": players}, seed)
        res = m.results()
        assert res["game"]["players"] == players
        for row in res["seats"]:
            assert row["score"] == sum(row[f"points_{k}"] for k in
                                       ("majorities", "ufos", "airspace", "mapping", "humans", "missions"))
        assert sum(r["win_share"] for r in res["seats"]) == pytest.approx(1.0) or m.capped


@pytest.mark.parametrize("name,value", setting_values())
def test_self_play_every_setting(name, value):
    for players in (2, 3, 4):
        m = random_game({"players": players, name: value}, players * 31 + len(name))
        assert m.over()


def test_self_play_complete_board_and_cap():
    from simkit.games.ovni.data_model import DATA_DIR

    m = random_game({"players": 4, "board": str(DATA_DIR / "board_complete.toml")}, 3)
    assert m.over()
    for res in ("score", "draw"):
        m = random_game({"players": 3, "max_rounds": 2, "cap_result": res}, 4)
        assert m.round <= 2
