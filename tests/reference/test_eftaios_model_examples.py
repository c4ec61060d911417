"""The independent EFTAIOS model: geometry and ids (R2), set-up (R1), rulebook examples E1-E7."""

from __future__ import annotations

import pytest

from simkit.games.eftaios import data_model as dm
from tests.reference.eftaios_model import (
    ABOARD, ELIMINATED, ESCAPED, MAX_ACTIONS, P_MOVE, P_NOISE, P_PRE, Model, RandomChance,
    action_from_id, action_id, default_settings, hex_neighbours, sector_id as S, sector_name as N,
)
from tests.reference.eftaios_model_helpers import (
    NOISE_HERE, NOISE_ANY, RED, CAPTAIN, PSYCHOLOGIST, ALIEN1, PAOLO, _data, new, place, refresh,
    kinds, moves, NONE, _julia_at_t13,
)


# ------------------------------------------------------------------ geometry and ids

def test_neighbours_match_the_loader_geometry():
    """Our neighbour rule (from the D09 example) equals the loader's on every cell and map."""
    for c in range(dm.NCELLS):
        assert set(hex_neighbours(c)) == set(dm.adjacent_cells(c)), N(c)
    for name in dm.BUILTIN_MAPS:
        gm, _ = _data(name)
        for c in gm.sectors():
            mine = {x for x in hex_neighbours(c) if gm.kind[x] != dm.VOID}
            assert mine == set(gm.neighbours(c))


def test_reach_matches_the_loader_on_default_readings():
    """Human 1-step and alien 2/3-step reach on every sector equal GameMap.reach (R4.7)."""
    for name in dm.BUILTIN_MAPS:
        m = new(players=2, map=name, mode="advanced")
        gm = m.map
        open_ = lambda s: gm.kind[s] in (dm.SAFE, dm.DANGER)  # noqa: E731
        hum_end = lambda s: gm.kind[s] in (dm.SAFE, dm.DANGER, dm.HATCH)  # noqa: E731
        for c in gm.sectors():
            m.seats[0].position = c
            m.turn.start_sector = c
            for seat, steps, end, fed in ((0, 1, hum_end, False), (1, 2, open_, False), (1, 3, open_, True)):
                m.seats[seat].position = c
                m.seats[seat].fed = fed
                assert m.reach(seat) == gm.reach(c, steps, open_, end), (name, N(c), seat, steps)


def test_action_ids_round_trip():
    assert MAX_ACTIONS == 1309
    for aid in range(MAX_ACTIONS):
        assert action_id(action_from_id(aid)) == aid
    assert action_id(("stay",)) == 644 and action_id(("use_attack",)) == 1293
    assert action_id(("discard", "defence")) == 1302 and action_id(("start_hatch", 4)) == 1308
    assert action_id(("noise_at", S("N10"))) == 968 + 191


# ------------------------------------------------------------------ rulebook examples

def test_e1_movement_choices():
    """"Silvano Porpora … está actualmente no Sector D09 … Pode mover-se para D08, C09, C10,
    E10 ou E09" (PT omits D10; ES lists it)."""
    m = new(players=2, deal=[PSYCHOLOGIST, PAOLO], mode="basic")
    place(m, s0="D09")
    assert m.phase == P_MOVE and m.to_move() == 0
    assert moves(m) == {"D08", "D10", "C09", "C10", "E09", "E10"}
    assert {a[1] for a in m.legal()} == {49, 51, 36, 37, 64, 65}


def test_e2_dangerous_versus_safe():
    """"Silvano moveu-se para o Sector D08 que é um Sector Perigoso. Sendo assim, tem de biscar
    uma carta … Se tivesse avançado para o Sector D10, não teria de biscar uma carta"."""
    m = new(players=2, deal=[PSYCHOLOGIST, PAOLO], mode="basic", danger=[NOISE_HERE])
    place(m, s0="D09")
    n = len(m.log)
    m.apply(("move", S("D08")), NONE)
    assert len(m.danger_deck) == 24 and m.danger_discard == [NOISE_HERE]
    assert kinds(m, n)[0] == (0, "NOISE", S("D08"))
    m2 = new(players=2, deal=[PSYCHOLOGIST, PAOLO], mode="basic")
    place(m2, s0="D09")
    n = len(m2.log)
    m2.apply(("move", S("D10")), NONE)
    assert len(m2.danger_deck) == 25 and kinds(m2, n)[0] == (0, "QUIET", None)


def test_e3_noise_in_any_sector_and_its_information():
    """"Silvano bisca uma carta Ruído em Qualquer Sector. Anuncia 'Ruído no Sector N10'"; the
    other seats cannot tell it from a true noise on N10."""
    m = new(players=2, deal=[PSYCHOLOGIST, PAOLO], mode="basic", danger=[NOISE_ANY])
    place(m, s0="D09")
    m.apply(("move", S("D08")), NONE)
    assert m.phase == P_NOISE and m.to_move() == 0
    legal = m.legal()
    assert ("noise_at", S("N10")) in legal and ("noise_at", S("D08")) in legal
    m.apply(("noise_at", S("N10")), NONE)
    assert kinds(m)[-2:] == [(0, "NOISE", S("N10")), (1, "TURN", None)]
    assert m.seats[0].bluffs == 1 and m.phase == P_MOVE and m.to_move() == 1
    # The same public story told by a true noise on N10.
    t = new(players=2, deal=[PSYCHOLOGIST, PAOLO], mode="basic", danger=[NOISE_HERE])
    place(t, s0="N09")
    t.apply(("move", S("N10")), NONE)
    assert m.observation(1) == t.observation(1)
    assert m.observation(0)["private"]["last_card"] == ("noise_any", False)


@pytest.mark.parametrize("mode", ["basic", "advanced"])
def test_e4_attack(mode):
    """"Paolo Landon … Move-se para o Sector D08 … anuncia 'Ataco no Sector D08'. Pobre
    Silvano! Foi capturado pelos Extraterrestres e eliminado." No card is drawn."""
    m = new(players=2, deal=[PSYCHOLOGIST, PAOLO], first=1, mode=mode)
    place(m, s0="D08", s1="D10")
    assert ("move_attack", S("D08")) in m.legal()
    n = len(m.log)
    m.apply(("move_attack", S("D08")), NONE)
    assert kinds(m, n)[:3] == [(1, "ATTACK", S("D08")), (0, "PRESENT", S("D08")), (0, "KILLED", PSYCHOLOGIST)]
    assert len(m.danger_deck) == 25
    assert m.seats[0].status == ELIMINATED and m.observation(1)["public"]["seats"][0]["character"] == PSYCHOLOGIST
    assert m.over() and m.won() == [False, True]
    assert m.end_reason == (1 if mode == "basic" else 2)


def test_e4_feeding_gives_three_steps():
    """"Quando um jogador Extraterrestre elimina um jogador Humano … passa a poder avançar um,
    dois ou três Sectores" (advanced)."""
    m = new(players=4, deal=[PAOLO, PSYCHOLOGIST, CAPTAIN, ALIEN1])
    place(m, s0="D10", s1="D08")
    m.apply(("move_attack", S("D08")), NONE)
    assert m.seats[0].fed and m.seats[0].fed_round == 1
    while m.to_move() != 0:
        m.apply(m.legal()[0], NONE)
    assert "D11" in moves(m)  # D08 -> D09 -> D10 -> D11
    m2 = new(players=4, deal=[PAOLO, PSYCHOLOGIST, CAPTAIN, ALIEN1])
    place(m2, s0="D08")
    assert "D11" not in moves(m2)


def test_t2_killing_an_alien_does_not_feed():
    m = new(players=4, deal=[PAOLO, PSYCHOLOGIST, CAPTAIN, ALIEN1])
    place(m, s0="D10", s3="D08")
    m.apply(("move_attack", S("D08")), NONE)
    assert m.seats[3].status == ELIMINATED and not m.seats[0].fed
    assert m.seats[0].kills == 1 and m.seats[0].human_kills == 0


def test_e4_feeding_not_in_basic_unless_a29():
    for flag in (False, True):
        m = new(players=4, deal=[PAOLO, PSYCHOLOGIST, CAPTAIN, ALIEN1], mode="basic", feeding_in_basic=flag)
        place(m, s0="D10", s1="D08")
        m.apply(("move_attack", S("D08")), NONE)
        assert m.seats[0].fed is flag


def test_e5_adrenaline_reaches_the_hatch():
    """"Julia Niguloti está no sector T13 … tem uma carta Adrenalina. Vira a carta, o que lhe
    permite avançar dois Sectores em vez de um e assim alcança a Escotilha de Saída 3"."""
    m = _julia_at_t13()
    assert m.phase == P_PRE
    assert "V13" not in {N(x) for x in m.reach(0)}
    m.apply(("use_adrenaline",), NONE)
    assert kinds(m)[-1] == (0, "ITEM_USED", "adrenaline") and m.phase == P_MOVE
    assert "V13" in moves(m)
    n = len(m.log)
    m.apply(("move", S("V13")), NONE)
    assert kinds(m, n)[:2] == [(0, "HATCH", 3), (0, "ESCAPED", 3)]


def test_e6_green_hatch():
    """"Julia … vira uma carta Escotilha do monte. É verde! … a Escotilha de Saída 3 fica
    bloqueada e todos os restantes jogadores devem procurar sair por outra Escotilha"."""
    m = _julia_at_t13()
    m.apply(("use_adrenaline",), NONE)
    m.apply(("move", S("V13")), NONE)
    assert m.seats[0].status == ESCAPED and m.seats[0].position == -1
    assert m.hatch_state[3] == "used" and m.to_move() == 1 and not m.over()
    # A later human on U13 cannot enter V13; an alien never could.
    assert not m._enterable(2, S("V13")) and not m._enterable(1, S("V13"))
    m.active = 2
    place(m, s2="U13")
    assert "V13" not in moves(m)
    m.active = 1
    refresh(m)
    # Julia wins whatever the aliens do: end by time.
    m.max_rounds = 1
    while not m.over():
        m.apply(m.legal()[0], NONE)
    assert m.won()[0] and m.end_reason == 3


def test_e6_red_hatch():
    """"Se a Carta Escotilha for ENCARNADA, a escotilha está inutilizada … nenhum outro jogador
    pode entrar no Sector desta escotilha"."""
    m = _julia_at_t13(hatch=[RED])
    m.apply(("use_adrenaline",), NONE)
    n = len(m.log)
    m.apply(("move", S("V13")), NONE)
    assert kinds(m, n)[:2] == [(0, "HATCH", 3), (0, "HATCH_RED", 3)]
    assert m.seats[0].status == ABOARD and m.seats[0].position == S("V13")
    assert m.hatch_state[3] == "damaged"
    while m.to_move() != 0:
        m.apply(m.legal()[0], NONE)
    assert moves(m) and "V13" not in moves(m)
    m.seats[2].position = S("U13")
    assert not m._enterable(2, S("V13"))


@pytest.mark.parametrize("n,h,a", [(2, 1, 1), (3, 1, 2), (5, 2, 3), (6, 3, 3), (7, 3, 4), (8, 4, 4)])
def test_e7_sides(n, h, a):
    """ES: "si hay 6 jugadores, cada mazo deberá tener 3 cartas. Si hay un número impar de
    jugadores añade un Alien más al montón"."""
    for seed in range(5):
        m = Model(default_settings(players=n), _data("galilei"))
        m.setup(RandomChance(seed))
        chars = [st.character for st in m.seats]
        assert len(set(chars)) == n
        assert sum(c < 4 for c in chars) == h and sum(c >= 4 for c in chars) == a
        for st in m.seats:
            assert st.side == ("human" if st.character < 4 else "alien")
            assert st.position == (m.human_start if st.side == "human" else m.alien_start)


def test_setup_chance_order():
    s = default_settings(players=5)
    m = Model(s, _data("galilei"))
    ch = RandomChance(3)
    asked = []
    orig_shuffle, orig_choice = ch.shuffle, ch.choice
    ch.shuffle = lambda tag, items: asked.append((tag, len(items))) or orig_shuffle(tag, items)
    ch.choice = lambda tag, k: asked.append((tag, k)) or orig_choice(tag, k)
    m.setup(ch)
    assert asked == [("human characters", 4), ("alien characters", 4), ("deal characters", 5),
                     ("danger deck", 25), ("item deck", 12), ("hatch deck", 6), ("first player", 5)]
