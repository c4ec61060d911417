"""The independent O.V.N.I. model: set-up (R1, R19.3; chance S1-S6) and the action ids (D2)."""

from __future__ import annotations

from tests.reference.ovni_model import MAX_ACTIONS, Model, action_from_id, action_id
from tests.reference.ovni_model_helpers import (
    P, A, B, M, SAO_PAULO, WASHINGTON, MADRID, PARIS, BERLIN, MOSCOW, HONG_KONG, BUENOS_AIRES,
    Identity, play,
)


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
