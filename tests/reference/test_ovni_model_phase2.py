"""The independent O.V.N.I. model: phase 2 and the end of the round and of the game (R8-R14)."""

from __future__ import annotations

import random

from tests.reference.ovni_model import RandomChance
from tests.reference.ovni_model_helpers import (
    P, A, B, M, SAO_PAULO, MADRID, PARIS, BERLIN, MOSCOW, CAIRO, DUBAI, HONG_KONG, TOKYO, SYDNEY,
    BUENOS_AIRES, POLITICO, ATLETA, ARTISTA, SUPERDOTADO, Identity, ability, after_setup,
    clear_board, start_turn, play,
)


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
