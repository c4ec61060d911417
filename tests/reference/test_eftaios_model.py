"""The independent EFTAIOS model: the rulebook's examples, the interface's examples (E1-E7,
T1-T6) on scripted chance, and random self-play for every setting value."""

from __future__ import annotations

import copy
import dataclasses
import random
from functools import lru_cache

import pytest

from simkit.games.eftaios import data_model as dm
from simkit.games.eftaios.params import EftaiosParams
from tests.reference.eftaios_model import (
    ABOARD, ELIMINATED, ESCAPED, MAX_ACTIONS, P_DEFEND, P_DISCARD, P_END, P_MOVE, P_NOISE,
    P_POST, P_PRE, P_START, WAITING, Model, RandomChance, ScriptedChance, action_from_id,
    action_id, default_settings, hex_neighbours, sector_id as S, sector_name as N,
)

# Card ids in cards.toml order.
NOISE_HERE_ITEM, NOISE_HERE, NOISE_ANY_ITEM, NOISE_ANY, SILENCE = 0, 4, 10, 14, 20
ATTACK, TELEPORT, ADRENALINE, SEDATIVES, SPOTLIGHT, DEFENCE = 0, 2, 4, 6, 9, 11
GREEN, RED = 0, 3
CAPTAIN, PILOT, PSYCHOLOGIST, SOLDIER, ALIEN1, ALIEN2, ALIEN3, PAOLO = range(8)


@lru_cache(maxsize=None)
def _data(map_name: str):
    return dm.load_map(map_name), dm.load_cards()


def complete(first, pool):
    """A deck order that starts with ``first`` and goes on with the rest of ``pool``."""
    first = list(first)
    return first + [c for c in pool if c not in first]


def new(players=2, deal=None, first=0, danger=(), items=(), hatch=(), starts=None, **over) -> Model:
    """A set-up game with scripted chance: ``deal`` = character per seat."""
    s = default_settings(players=players, **over)
    m = Model(s, _data(s["map"]))
    script = []
    if s["scenario"] != "arena":
        deal = list(deal) if deal is not None else list(range(players // 2)) + list(range(4, 4 + players - players // 2))
        script += [complete([c for c in deal if c < 4], range(4)),
                   complete([c for c in deal if c >= 4], range(4, 8)), deal]
    script.append(complete(danger, range(25)))
    if s["mode"] == "advanced":
        script.append(complete(items, range(12)))
        if s["scenario"] != "infection":
            script.append(complete(hatch, range(6)))
    script.append(first)
    if s["scenario"] == "arena" and s["arena_start"] == "random":
        script += list(starts) if starts is not None else [0] * players
    ch = ScriptedChance(script)
    m.setup(ch)
    assert not ch.outcomes, "setup did not use the whole script"
    return m


def place(m: Model, **where):
    """Fix seats' positions (seat index -> sector name), then restart the active turn there."""
    for key, name in where.items():
        m.seats[int(key[1:])].position = S(name)
    refresh(m)


def give(m: Model, seat: int, *cards: int):
    m.seats[seat].items.extend(cards)
    for c in cards:
        if c in m.item_deck:
            m.item_deck.remove(c)
    refresh(m)


def refresh(m: Model):
    """Re-open the active seat's turn from its current state (tests fix the state mid-setup)."""
    a = m.active
    m.turn.start_sector = m.seats[a].position
    m.decider = a
    m.phase = P_PRE if m._pre_options(a) else P_MOVE


def kinds(m: Model, since=0):
    return [(e[1], e[2], e[3]) for e in m.log[since:]]


def moves(m: Model) -> set[str]:
    return {N(a[1]) for a in m.legal() if a[0] == "move"}


NONE = ScriptedChance([])  # a chance object that must not be asked


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


def _julia_at_t13(**over):
    m = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1], **over)
    place(m, s0="T13")
    give(m, 0, ADRENALINE)
    return m


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


# ------------------------------------------------------------------ items (T1, T3)

def test_t1_spotlight():
    """Spotlight: every player on the sector or its six neighbours, the user included,
    announces its sector."""
    m = new(players=4, deal=[PSYCHOLOGIST, PAOLO, CAPTAIN, ALIEN1])
    place(m, s0="D09", s1="C08", s2="D10", s3="E09")
    give(m, 0, SPOTLIGHT)
    assert m.phase == P_PRE
    n = len(m.log)
    m.apply(("use_spotlight", S("D08")), NONE)
    assert kinds(m, n) == [(0, "ITEM_USED", "spotlight"), (0, "SPOTLIGHT", S("D08")),
                           (0, "SEEN", S("D09")), (1, "SEEN", S("C08")), (3, "SEEN", S("E09"))]
    assert all(e[4] == 0b1111 for e in m.log[n:])
    assert m.phase == P_MOVE and m.item_discard == [SPOTLIGHT]


def test_t3_attack_item_replaces_the_draw():
    m = new(players=4, deal=[SOLDIER, PAOLO, CAPTAIN, ALIEN1], danger=[SILENCE])
    place(m, s0="D09", s1="D08")
    give(m, 0, ATTACK)
    m.apply(("move", S("D08")), NONE)
    assert m.phase == P_POST and ("use_attack",) in m.legal()
    n = len(m.log)
    m.apply(("use_attack",), NONE)
    assert kinds(m, n)[:4] == [(0, "ITEM_USED", "attack"), (0, "ATTACK", S("D08")),
                               (1, "PRESENT", S("D08")), (1, "KILLED", PAOLO)]
    assert len(m.danger_deck) == 25 and m.seats[1].status == ELIMINATED
    assert not m.seats[0].fed and m.seats[0].kills == 1


def test_t3_teleport_before_and_after():
    m = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1])
    place(m, s0="L09")  # next to the Human sector L08
    give(m, 0, TELEPORT, TELEPORT)
    assert ("use_teleport",) in m.legal()
    m.apply(("use_teleport",), NONE)
    assert m.seats[0].position == m.human_start and kinds(m)[-1] == (0, "ITEM_USED", "teleport")
    assert m.phase == P_MOVE  # no usable pre-move item left (Teleport needs position != H)
    assert "L09" not in moves(m)  # never end on the turn-start sector
    assert moves(m) == {N(x) for x in m._neighbours(m.human_start)} - {"L09", "L06"} - {
        N(x) for x in m._neighbours(m.human_start) if m.kind[x] not in (1, 2)}
    m.apply(("move", S("K08")), RandomChance(0))
    while m.phase in (P_NOISE, P_DISCARD):
        m.apply(m.legal()[0], NONE)
    # s0 (L09) is not the Human sector: a Teleport is offered at the end of the turn.
    assert m.phase == P_END and ("use_teleport",) in m.legal()
    m.apply(("use_teleport",), NONE)
    assert m.seats[0].position == m.human_start and m.to_move() == 1


def test_t3_teleport_never_ends_on_the_start_sector():
    m = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1])
    give(m, 0, TELEPORT, SPOTLIGHT)  # on the Human sector at the start
    assert m.phase == P_PRE and ("use_teleport",) not in m.legal()
    m.apply(("pre_done",), NONE)
    m.apply(("move", S("L09")), NONE)  # safe
    assert m.phase == P_POST
    m.apply(("resolve",), NONE)
    assert m.phase == P_END and ("use_teleport",) not in m.legal()  # s0 is H


def test_t3_sedatives_skip_the_draw():
    m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1])
    place(m, s0="D09")
    give(m, 0, SEDATIVES)
    m.apply(("move", S("D10")), NONE)  # safe: nothing to offer, resolves at once
    assert kinds(m)[-2][1] == "QUIET"
    m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1])
    place(m, s0="D09")
    give(m, 0, SEDATIVES)
    m.apply(("move", S("D08")), NONE)
    assert m.phase == P_POST and m.legal() == [("use_sedatives",), ("resolve",)]
    n = len(m.log)
    m.apply(("use_sedatives",), NONE)
    assert kinds(m, n)[:2] == [(0, "ITEM_USED", "sedatives"), (0, "QUIET", None)]
    assert len(m.danger_deck) == 25


@pytest.mark.parametrize("scope", ["self", "attack"])
def test_t3_defence(scope):
    m = new(players=6, deal=[PAOLO, PSYCHOLOGIST, CAPTAIN, ALIEN1, SOLDIER, ALIEN2], defence_scope=scope)
    place(m, s0="D10", s1="D08", s2="D08", s4="D08")
    m.seats[2].items.append(DEFENCE)
    m.item_deck.remove(DEFENCE)
    m.apply(("move_attack", S("D08")), NONE)
    assert m.phase == P_DEFEND and m.to_move() == 2
    assert m.legal() == [("defend",), ("no_defend",)]
    n = len(m.log)
    m.apply(("defend",), NONE)
    if scope == "self":
        assert kinds(m, n)[:4] == [(2, "ITEM_USED", "defence"), (2, "DEFENDED", None),
                                   (1, "KILLED", PSYCHOLOGIST), (4, "KILLED", SOLDIER)]
        assert [m.seats[i].status for i in (1, 2, 4)] == [ELIMINATED, ABOARD, ELIMINATED]
        assert m.seats[0].fed
    else:
        assert kinds(m, n)[:2] == [(2, "ITEM_USED", "defence"), (2, "DEFENDED", None)]
        assert all(m.seats[i].status == ABOARD for i in (1, 2, 4)) and not m.seats[0].fed


def test_a5_defence_against_a_human_attack():
    for flag in (True, False):
        m = new(players=4, deal=[SOLDIER, PAOLO, CAPTAIN, ALIEN1], defence_vs_human_attack=flag)
        place(m, s0="D09", s2="D08")
        give(m, 0, ATTACK)
        m.seats[2].items.append(DEFENCE)
        m.apply(("move", S("D08")), NONE)
        m.apply(("use_attack",), NONE)
        assert (m.phase == P_DEFEND) is flag
        if not flag:
            assert m.seats[2].status == ELIMINATED


def test_t3_fourth_item_is_discarded():
    m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1], danger=[NOISE_HERE_ITEM], items=[DEFENCE])
    place(m, s0="D09")
    give(m, 0, SEDATIVES, SEDATIVES + 1, ATTACK)
    m.apply(("move", S("D08")), NONE)
    m.apply(("resolve",), NONE)
    assert kinds(m)[-2:] == [(0, "NOISE", S("D08")), (0, "ITEM_DRAWN", 4)]
    assert m.phase == P_DISCARD
    assert m.legal() == [("discard", "attack"), ("discard", "sedatives"), ("discard", "defence")]
    m.apply(("discard", "sedatives"), NONE)
    assert kinds(m)[-2] == (0, "ITEM_DISCARDED", -1)
    assert m.item_discard == [SEDATIVES] and len(m.seats[0].items) == 3
    assert m.danger_discard == [NOISE_HERE_ITEM]


def test_aliens_draw_items_too():
    m = new(players=2, deal=[CAPTAIN, PAOLO], first=1, danger=[NOISE_ANY_ITEM], items=[SPOTLIGHT])
    place(m, s1="D10")
    m.apply(("move", S("D08")), NONE)
    m.apply(("noise_at", S("N10")), NONE)
    assert m.seats[1].items == [SPOTLIGHT] and m.log[-2][2] == "ITEM_DRAWN"
    assert not m._items_usable(1)


def test_a11_item_before_noise():
    m = new(players=2, deal=[CAPTAIN, PAOLO], danger=[NOISE_ANY_ITEM], item_before_noise=True)
    place(m, s0="D09")
    m.apply(("move", S("D08")), NONE)
    assert m.phase == P_POST or m.phase == P_NOISE
    if m.phase == P_POST:
        m.apply(("resolve",), NONE)
    assert m.phase == P_NOISE and kinds(m)[-1] == (0, "ITEM_DRAWN", 1)


# ------------------------------------------------------------------ hatches (T4)

@pytest.mark.parametrize("a17", [True, False])
def test_t4_last_hatch_strands_the_humans(a17):
    m = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1], hatch=[GREEN], stranded_alien_win=a17)
    for k in (1, 2, 4):
        m.hatch_state[k] = "damaged"
    place(m, s0="U13")
    n = len(m.log)
    m.apply(("move", S("V13")), NONE)
    assert kinds(m, n) == [(0, "HATCH", 3), (0, "ESCAPED", 3), (2, "STRANDED", None), (-1, "GAME_OVER", 2)]
    assert m.over() and m.won() == [True, a17, False, a17]


def test_t4_three_reds_then_green():
    m = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1], hatch=[RED, RED + 1, RED + 2, GREEN])
    for k, (before, cell) in zip((1, 2, 4), (("A02", "B02"), ("W02", "V02"), ("A13", "B13"))):
        m.active = 0
        place(m, s0=before)
        m.apply(("move", S(cell)), NONE)
        assert kinds(m)[-2:][0] == (0, "HATCH_RED", k) or (0, "HATCH_RED", k) in kinds(m)
    assert [m.hatch_state[k] for k in (1, 2, 3, 4)] == ["damaged", "damaged", "open", "damaged"]
    m.active = 0
    place(m, s0="U13")
    m.apply(("move", S("V13")), NONE)
    assert m.over() and m.won()[0] and m.end_reason == 2


def test_basic_escape_wins_at_once():
    m = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1], mode="basic")
    place(m, s0="U13")
    m.apply(("move", S("V13")), NONE)
    assert kinds(m)[-2:] == [(0, "ESCAPED", 3), (-1, "GAME_OVER", 0)]
    assert m.won() == [True, False, False, False]


def test_time_limit():
    m = new(players=2, deal=[CAPTAIN, PAOLO], max_rounds=2, mode="advanced")
    while not m.over():
        m.apply(m.legal()[-1] if m.phase != P_MOVE else m.legal()[0], RandomChance(1))
    assert m.end_reason == 3 and m.round == 2 and m.won() == [False, True]
    assert m.seats[0].fate == 4 and m.seats[0].status == ELIMINATED


# ------------------------------------------------------------------ deck reshuffles (A12, A13)

@pytest.mark.parametrize("rule,size", [("on_draw", 25), ("on_empty", 24)])
def test_a12_reshuffle(rule, size):
    m = new(players=2, deal=[CAPTAIN, PAOLO], mode="basic", reshuffle=rule)
    m.danger_discard = m.danger_deck[1:]
    m.danger_deck = m.danger_deck[:1]
    place(m, s0="D09")
    m.apply(("move", S("D08")), RandomChance(0))  # dangerous: the last card
    if m.phase == P_NOISE:
        m.apply(m.legal()[0], NONE)
    if rule == "on_draw":
        assert len(m.danger_deck) == 0 and len(m.danger_discard) == 25
        m.active = 0
        place(m, s0="D08")
        m.apply(("move", S("D09")), RandomChance(0))
        assert len(m.danger_deck) + len(m.danger_discard) + (m.card_in_play >= 0) == 25
        assert len(m.danger_deck) == 24 or m.phase == P_NOISE
    else:
        assert len(m.danger_deck) == size and m.danger_discard == [0]
    assert m.stats["danger_reshuffles"] == 1


# ------------------------------------------------------------------ scenarios (T5)

def test_old_guard_captain_pass_first_stop():
    m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1], scenario="old_guard", danger=[SILENCE])
    assert m.seats[0].captain_pass == "unspent"
    place(m, s0="D09")
    m.apply(("move", S("D08")), NONE)
    assert kinds(m)[-2] == (0, "QUIET", None) and len(m.danger_deck) == 25
    assert m.seats[0].captain_pass == "spent"


def test_old_guard_captain_pass_first_draw_kept_by_attack():
    m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1], scenario="old_guard",
            captain_exemption="first_draw")
    place(m, s0="D09")
    give(m, 0, ATTACK)
    m.apply(("move", S("D08")), NONE)
    m.apply(("use_attack",), NONE)
    assert m.seats[0].captain_pass == "unspent"
    assert (0, "ITEM_DISCARDED", -1) in kinds(m)  # G.4: not declared


def test_old_guard_psychologist_starts_on_alien_sector():
    m = new(players=4, deal=[PSYCHOLOGIST, PAOLO, SOLDIER, ALIEN1], scenario="old_guard")
    assert m.seats[0].position == m.alien_start and m.seats[2].position == m.human_start


def test_old_guard_pilot_teleport_three_uses():
    """H.3: "Se o Piloto bisca uma carta Teletransporte, pode usá-la até 3 vezes antes de a
    descartar"."""
    m = new(players=4, deal=[PILOT, PAOLO, SOLDIER, ALIEN1], scenario="old_guard",
            danger=[SILENCE], items=[TELEPORT])
    place(m, s0="D09")
    m.apply(("move", S("D08")), NONE)
    assert m.seats[0].pilot_uses == {TELEPORT: 3}
    for k in range(3):
        assert m.phase == P_END and ("use_teleport",) in m.legal()
        m.apply(("use_teleport",), NONE)
        assert (0, "ITEM_USED", "teleport") in kinds(m)[-2:]
        assert m.seats[0].items == ([TELEPORT] if k < 2 else [])
        m.active = 0
        place(m, s0="D09")
        if m.phase == P_PRE:
            m.apply(("pre_done",), NONE)
        m.apply(("move", S("D10")), NONE)
    assert m.seats[0].used["teleport"] == 3 and m.item_discard == [TELEPORT]
    assert m.to_move() == 1  # nothing left to use: the turn passed


def test_old_guard_soldier_holds_four():
    m = new(players=4, deal=[SOLDIER, PAOLO, CAPTAIN, ALIEN1], scenario="old_guard",
            danger=[SILENCE], items=[SEDATIVES])
    place(m, s0="D09")
    give(m, 0, ATTACK, ATTACK + 1, DEFENCE)
    m.apply(("move", S("D08")), NONE)
    m.apply(("resolve",), NONE)
    assert len(m.seats[0].items) == 4 and m.phase != P_DISCARD
    assert kinds(m)[-3:-1] == [(0, "SILENCE", None), (0, "ITEM_DRAWN", 4)]


def test_old_guard_j4_icons_ignored():
    m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1], scenario="old_guard",
            danger=[NOISE_HERE_ITEM])
    m.seats[0].captain_pass = "spent"
    place(m, s0="D09")
    m.apply(("move", S("D08")), NONE)
    assert m.seats[0].items == []


@pytest.mark.parametrize("mode", ["public", "private"])
def test_a19_old_guard_spotlight(mode):
    m = new(players=4, deal=[SOLDIER, PAOLO, CAPTAIN, ALIEN1], scenario="old_guard", old_guard_spotlight=mode)
    place(m, s0="D09", s1="C08")
    give(m, 0, SPOTLIGHT)
    n = len(m.log)
    m.apply(("use_spotlight", S("D08")), NONE)
    ev = m.log[n:n + 4]
    assert [e[2] for e in ev] == ["ITEM_DISCARDED", "SPOTLIGHT", "SEEN", "SEEN"]
    if mode == "private":
        assert [e[4] for e in ev] == [0b1111, 0b0001, 0b0001, 0b0011]
        assert not any(e[2] == "SEEN" for e in m.observation(2)["log"])
    else:
        assert all(e[4] == 0b1111 for e in ev)


def test_infection():
    m = new(players=4, deal=[PAOLO, PSYCHOLOGIST, CAPTAIN, ALIEN1], scenario="infection")
    assert m.hatch_deck == []
    place(m, s0="D10", s1="D08")
    m.apply(("move_attack", S("D08")), NONE)
    assert kinds(m)[-3:] == [(1, "KILLED", PSYCHOLOGIST), (1, "INFECTED", S("D08")), (1, "TURN", None)]
    assert m.seats[1].side == "alien" and m.seats[1].status == ABOARD and m.seats[1].position == S("D08")
    assert not m.seats[0].fed  # C.3
    # The infected seat now moves as an alien.
    assert m.to_move() == 1 and ("move_attack", S("D10")) in m.legal()
    # D.2: a hatch opens without a card.
    m.active = 2
    place(m, s2="U13")
    n = len(m.log)
    m.apply(("move", S("V13")), NONE)
    assert kinds(m, n) == [(2, "ESCAPED", 3), (-1, "GAME_OVER", 2)]
    assert m.hatch_state[3] == "used"
    # The last human escaped: the aliens did not eliminate the last human.
    assert m.won() == [False, False, True, False]


def test_arena_choose_start_and_respawn():
    m = new(players=3, scenario="arena", first=1)
    assert m.phase == P_START and m.to_move() == 1
    assert m.legal() == [("start_hatch", k) for k in (1, 2, 3, 4)]
    for seat, k in ((1, 1), (2, 1), (0, 3)):
        assert m.to_move() == seat
        m.apply(("start_hatch", k), NONE)
    assert m.round == 1 and m.active == 1 and m.seats[1].position == S("B02")
    assert all(m.seats[i].character == -1 for i in range(3))
    # Closed safe sectors: B02's reach holds dangerous sectors only.
    assert all(m.kind[x] == 2 for x in m.reach(1))
    # Seat 1 attacks seat 2 on the hatch it stands on.
    m.apply(("stay_attack",) if not m.reach(1) else ("move_attack", sorted(m.reach(1))[0]), NONE)
    m2 = new(players=3, scenario="arena", arena_start="random", arena_end="first", arena_kills=1)
    m2.seats[1].position = m2.seats[0].position = S("D08")
    m2.seats[m2.active].position = S("D09")
    refresh(m2)
    seat = m2.active
    victims = [i for i in range(3) if i != seat]
    for v in victims:
        m2.seats[v].position = S("D08")
    m2.apply(("move_attack", S("D08")), NONE)
    assert m2.over() and m2.end_reason == 4 and m2.won()[seat]
    assert all(m2.seats[v].status == WAITING for v in victims)


def test_arena_respawn_at_start_hatch():
    m = new(players=2, scenario="arena", arena_start="random", first=0)
    assert m.phase == P_MOVE
    m.seats[1].position = S("D08")
    place(m, s0="D09")
    m.apply(("move_attack", S("D08")), NONE)
    assert kinds(m)[-4:-2] == [(1, "PRESENT", S("D08")), (1, "KILLED", -1)]
    assert m.seats[0].kills == 1
    assert m.active == 1 and m.seats[1].status == ABOARD
    assert m.seats[1].position == m.hatch_cell[m.seats[1].start_hatch]
    assert kinds(m)[-2:] == [(1, "RESPAWN", None), (1, "TURN", None)]


def test_a28_stuck_seat_stays():
    """Arena on Fermi with closed safe sectors: most seats cannot move (A28)."""
    m = new(players=2, scenario="arena", map="fermi", arena_start="random")
    m.seats[0].position = m.hatch_cell[1]
    refresh(m)
    assert m.legal() == [("stay",), ("stay_attack",)]


# ------------------------------------------------------------------ information (T6)

def _perturb(m: Model, seat: int, rng: random.Random) -> Model:
    """Change what ``seat`` may not know."""
    c = copy.deepcopy(m)
    for i, st in enumerate(c.seats):
        if i == seat:
            continue
        if st.status == "aboard" and st.position >= 0:
            st.position = rng.choice(c.map.sectors())
        if not st.revealed:
            st.character = rng.randrange(8)
        st.items = [rng.randrange(12) for _ in st.items]
        st.fed = not st.fed
        st.last_card = ("silence", False)
    rng.shuffle(c.danger_deck)
    rng.shuffle(c.item_deck)
    rng.shuffle(c.hatch_deck)
    rng.shuffle(c.danger_discard)
    return c


def test_t6_information_hiding():
    rng = random.Random(5)
    for scenario in ("none", "old_guard", "infection"):
        m = Model(default_settings(players=6, scenario=scenario), _data("galilei"))
        ch = RandomChance(2)
        m.setup(ch)
        for step in range(400):
            if m.over():
                break
            if step % 37 == 0:
                for seat in range(m.n):
                    if seat == m.decider:
                        continue
                    assert _perturb(m, seat, rng).observation(seat) == m.observation(seat)
            m.apply(rng.choice(m.legal()), ch)


# ------------------------------------------------------------------ self-play, every setting

def _policy(m: Model, rng: random.Random):
    """A random player nudged towards hatches and attacks, so rare paths are met."""
    legal = m.legal()
    if m.phase == P_MOVE and rng.random() < 0.6:
        seat = m.decider
        if m.seats[seat].side == "human":
            opens = [c for k, c in m.hatch_cell.items() if m.hatch_state[k] == "open"]
            if opens:
                def dist(x):
                    d = m.map.distances(x, lambda s: m.kind[s] in (1, 2), lambda s: s in opens)
                    return min(d.values()) if d else 99
                best = min(legal, key=lambda a: dist(a[1]) if a[0] == "move" else 0 if a[1:] and a[1] in opens else 99)
                return best
        else:
            atk = [a for a in legal if a[0] in ("move_attack", "stay_attack")]
            if atk and rng.random() < 0.3:
                return rng.choice(atk)
    uses = [a for a in legal if a[0].startswith("use_") and a[0] != "use_spotlight"]
    if uses and rng.random() < 0.5:
        return rng.choice(uses)
    lights = [a for a in legal if a[0] == "use_spotlight"]
    if lights and rng.random() < 0.3:
        return rng.choice(lights)
    plain = [a for a in legal if a[0] not in ("move_attack", "use_spotlight")] or legal
    return rng.choice(plain)


def _play(settings: dict, seed: int) -> Model:
    m = Model(settings, _data(settings["map"]))
    ch = RandomChance(seed)
    m.setup(ch)
    rng = random.Random(seed)
    for _ in range(20000):
        if m.over():
            break
        m.apply(_policy(m, rng), ch)
    assert m.over()
    return m


def _setting_values():
    out = []
    for f in dataclasses.fields(EftaiosParams):
        if f.name in ("map_data", "card_data", "max_rounds", "players"):
            continue
        if f.type in (bool, "bool"):
            vals = [False, True]
        elif f.name == "arena_kills":
            vals = [0, 1, 3]
        else:
            vals = list(f.metadata.get("choices") or []) or [f.default]
        for v in vals:
            out.append((f.name, v))
    return out


SCENARIO_OF = {"captain_exemption": "old_guard", "old_guard_spotlight": "old_guard",
               "infected_win_with_aliens": "infection", "infected_keep_items": "infection",
               "arena_safe_sectors": "arena", "arena_start": "arena", "arena_respawn": "arena",
               "arena_kills": "arena", "arena_end": "arena", "stuck_rule": "arena"}


@pytest.mark.parametrize("name,value", _setting_values())
def test_self_play_every_setting_value(name, value):
    extra = {name: value}
    if name not in ("scenario",) and name in SCENARIO_OF:
        extra.setdefault("scenario", SCENARIO_OF[name])
    if name == "stuck_rule":
        extra["map"] = "fermi"
    for seed in range(2):
        s = default_settings(players=4 + seed, max_rounds=25, **extra)
        m = _play(s, seed)
        w = m.won()
        assert len(w) == m.n
        if s["scenario"] != "arena":
            assert m.end_reason in (0, 1, 2, 3)
            assert any(w)
        r = m.results()
        assert r["game"]["turns"] == sum(1 for e in m.log if e[2] == "TURN")


def test_self_play_covers_every_event_kind():
    seen = set()
    for i, (scenario, mode, mp) in enumerate([(sc, md, mp) for sc in ("none", "old_guard", "infection", "arena")
                                               for md in ("basic", "advanced") for mp in ("galilei", "fermi", "galvani")]):
        for seed in range(2):
            s = default_settings(players=[2, 5, 8][(i + seed) % 3], scenario=scenario, mode=mode, map=mp,
                                 arena_start="random" if seed else "choose")
            m = _play(s, i * 10 + seed)
            seen |= {e[2] for e in m.log}
    expected = {"TURN", "RESPAWN", "NOISE", "SILENCE", "QUIET", "ITEM_DRAWN", "ITEM_DISCARDED",
                "ITEM_USED", "SPOTLIGHT", "SEEN", "ATTACK", "PRESENT", "KILLED", "INFECTED",
                "HATCH", "HATCH_RED", "ESCAPED", "GAME_OVER"}
    assert expected <= seen, expected - seen


# ------------------------------------------------------------------ one reading at a time (A1-A28)

def _reach_at(m: Model, seat: int, cell: int) -> set[int]:
    m.seats[seat].position = cell
    m.turn.start_sector = cell
    return m.reach(seat)


@pytest.mark.parametrize("mp", ["galilei", "fermi", "galvani"])
def test_a1_alien_hatch_transit(mp):
    plain = new(players=2, map=mp)
    transit = new(players=2, map=mp, alien_hatch_transit=True)
    hatches = set(plain.hatch_cell.values())
    differ = 0
    for c in plain.map.sectors():
        if plain.kind[c] in (3, 4):
            continue
        for fed in (False, True):
            plain.seats[1].fed = transit.seats[1].fed = fed
            a, b = _reach_at(plain, 1, c), _reach_at(transit, 1, c)
            assert a <= b and not (b & hatches)
            differ += a != b
    assert differ > 0


def test_a2_human_hatch_transit():
    m = _julia_at_t13(human_hatch_transit=True)
    m.apply(("use_adrenaline",), NONE)
    m2 = _julia_at_t13()
    m2.apply(("use_adrenaline",), NONE)
    assert moves(m2) < moves(m) or moves(m2) == moves(m)
    assert "V13" in moves(m)
    # With transit, V13's far side is reachable through the hatch: W13 / W14 from T13 need 3.
    m3 = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1], human_hatch_transit=True)
    place(m3, s0="U13")
    give(m3, 0, ADRENALINE)
    m3.apply(("use_adrenaline",), NONE)
    m4 = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1])
    place(m4, s0="U13")
    give(m4, 0, ADRENALINE)
    m4.apply(("use_adrenaline",), NONE)
    through = {N(x) for x in m3.reach(0)} - {N(x) for x in m4.reach(0)}
    assert through and all(S(x) in m3._neighbours(S("V13")) for x in through)


@pytest.mark.parametrize("flag", [False, True])
def test_a3_used_hatch(flag):
    m = new(players=4, deal=[PILOT, PAOLO, CAPTAIN, ALIEN1], used_hatch_enterable=flag)
    m.hatch_state[3] = "used"
    place(m, s0="U13")
    assert ("V13" in moves(m)) is flag
    if flag:
        n = len(m.log)
        m.apply(("move", S("V13")), NONE)
        assert kinds(m, n)[0] == (0, "QUIET", None)
    assert not m._enterable(1, S("V13"))


def test_a6_overflow_use():
    for flag in (False, True):
        m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1], danger=[NOISE_HERE_ITEM],
                items=[DEFENCE], overflow_use=flag)
        place(m, s0="D09")
        give(m, 0, SPOTLIGHT, TELEPORT, ATTACK)
        if m.phase == P_PRE:
            m.apply(("pre_done",), NONE)
        m.apply(("move", S("D08")), NONE)
        m.apply(("resolve",), NONE)
        assert m.phase == P_DISCARD
        acts = {a[0] for a in m.legal()}
        assert ({"use_spotlight", "use_teleport"} <= acts) is flag
        if flag:
            m.apply(("use_teleport",), NONE)
            assert m.seats[0].position == m.human_start and m.phase != P_DISCARD


def test_a7_a8_adrenaline_range():
    def after(**over):
        m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1], **over)
        place(m, s0="D09")
        give(m, 0, ADRENALINE, ADRENALINE + 1)
        m.apply(("use_adrenaline",), NONE)
        return m
    up_to = after()
    assert up_to.phase == P_MOVE  # a second copy is not offered (A8 default)
    exact = after(adrenaline_exact=True)
    assert exact.reach(0) <= up_to.reach(0) and S("D09") not in exact.reach(0)
    assert S("D10") in up_to.reach(0)
    stack = after(adrenaline_stacks=True)
    assert stack.phase == P_PRE and ("use_adrenaline",) in stack.legal()
    stack.apply(("use_adrenaline",), NONE)
    assert stack._move_range(0) == (3, False) and up_to.reach(0) < stack.reach(0)


@pytest.mark.parametrize("mode", ["coordinates", "dangerous", "any"])
def test_a9_noise_targets(mode):
    m = new(players=2, deal=[CAPTAIN, PAOLO], danger=[NOISE_ANY], noise_targets=mode)
    place(m, s0="D09")
    m.apply(("move", S("D08")), NONE)
    if m.phase == P_POST:
        m.apply(("resolve",), NONE)
    kinds_named = {m.kind[a[1]] for a in m.legal()}
    want = {"coordinates": {1, 2}, "dangerous": {2}, "any": {1, 2, 3, 4, 5}}[mode]
    assert kinds_named == want


@pytest.mark.parametrize("mode", ["any", "coordinates"])
def test_a10_spotlight_targets(mode):
    m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1], spotlight_targets=mode)
    give(m, 0, SPOTLIGHT)
    named = {m.kind[a[1]] for a in m.legal() if a[0] == "use_spotlight"}
    assert named == ({1, 2, 3, 4, 5} if mode == "any" else {1, 2})


@pytest.mark.parametrize("flag", [True, False])
def test_a13_item_reshuffle(flag):
    m = new(players=2, deal=[CAPTAIN, PAOLO], first=1, danger=[NOISE_HERE_ITEM], item_reshuffle=flag)
    m.item_discard, m.item_deck = m.item_deck, []
    place(m, s1="D10")
    m.apply(("move", S("D08")), RandomChance(4))
    assert len(m.seats[1].items) == (1 if flag else 0)
    assert m.stats["item_reshuffles"] == (1 if flag else 0)


def test_a14_discard_revealed():
    m = new(players=4, deal=[CAPTAIN, PAOLO, SOLDIER, ALIEN1], danger=[NOISE_HERE_ITEM],
            items=[DEFENCE], discard_revealed=True)
    place(m, s0="D09")
    give(m, 0, SEDATIVES, SEDATIVES + 1, ATTACK)
    m.apply(("move", S("D08")), NONE)
    m.apply(("resolve",), NONE)
    m.apply(("discard", "attack"), NONE)
    assert (0, "ITEM_DISCARDED", "attack") in kinds(m)


@pytest.mark.parametrize("flag", [False, True])
def test_a15_escaped_items(flag):
    m = _julia_at_t13(escaped_items_discarded=flag)
    m.seats[0].items.append(SEDATIVES)
    m.apply(("use_adrenaline",), NONE)
    m.apply(("move", S("V13")), NONE)
    assert (SEDATIVES in m.item_discard) is flag


@pytest.mark.parametrize("flag", [True, False])
def test_a16_dead_aliens_win(flag):
    m = new(players=3, deal=[PAOLO, PSYCHOLOGIST, ALIEN1], dead_aliens_win=flag)
    place(m, s0="D10", s1="D08", s2="D08")
    m.apply(("move_attack", S("D08")), NONE)
    assert m.over() and m.won() == [True, False, flag]


@pytest.mark.parametrize("a20,a21", [(True, False), (False, True)])
def test_a20_a21_infected(a20, a21):
    m = new(players=4, deal=[PAOLO, PSYCHOLOGIST, CAPTAIN, ALIEN1], scenario="infection",
            infected_win_with_aliens=a20, infected_keep_items=a21)
    m.seats[1].items.append(SEDATIVES)
    m.seats[2].position = S("D08")
    place(m, s0="D10", s1="D08")
    m.apply(("move_attack", S("D08")), NONE)
    assert (m.seats[1].items == [SEDATIVES]) is a21
    assert m.over() and m.end_reason == 2
    assert m.won() == [True, a20, a20, True]


def test_a22_arena_safe_sectors_open():
    closed = new(players=2, scenario="arena", arena_start="random")
    opened = new(players=2, scenario="arena", arena_start="random", arena_safe_sectors="open")
    c, o = _reach_at(closed, 0, S("D09")), _reach_at(opened, 0, S("D09"))
    assert c < o and all(closed.kind[x] == 2 for x in c) and any(opened.kind[x] == 1 for x in o)


def test_a24_respawn_on_alien_sector():
    m = new(players=2, scenario="arena", arena_start="random", arena_respawn="alien_sector")
    m.seats[1].position = S("D08")
    place(m, s0="D09")
    m.apply(("move_attack", S("D08")), NONE)
    assert m.seats[1].position == m.alien_start


def test_a25_a26_arena_threshold_cap():
    m = new(players=2, scenario="arena", arena_start="random", arena_kills=1, max_rounds=1)
    m.seats[1].position = S("D08")
    place(m, s0="D09")
    m.apply(("move_attack", S("D08")), NONE)
    assert not m.over()  # cap: play on
    while not m.over():
        m.apply(m.legal()[0], NONE)
    assert m.end_reason == 3 and m.won() == [True, False]
    r = m.results()["game"]
    assert r["draw"] == 0 and r["aliens_killed"] == 1


def test_a28_stay_quiet_and_stay_draw():
    for rule, quiet in (("stay_quiet", True), ("stay_draw", False)):
        m = new(players=2, scenario="arena", map="fermi", arena_start="random", stuck_rule=rule,
                danger=[SILENCE])
        dang = next(c for c in m.map.sectors() if m.kind[c] == 2 and not
                    any(m.kind[x] == 2 for x in m._neighbours(c)))
        m.seats[0].position = dang
        refresh(m)
        assert m.legal() == [("stay",), ("stay_attack",)]
        n = len(m.log)
        m.apply(("stay",), NONE)
        assert kinds(m, n)[0] == ((0, "QUIET", None) if quiet else (0, "SILENCE", None))


def test_stay_attack_hits_the_seats_on_the_same_sector():
    m = new(players=3, scenario="arena", map="fermi", arena_start="random")
    assert len({st.position for st in m.seats}) == 1  # everyone on hatch 1
    refresh(m)
    m.apply(("stay_attack",), NONE)
    assert m.seats[0].kills == 2 and m.seats[2].status == WAITING
    assert kinds(m)[-2:] == [(1, "RESPAWN", None), (1, "TURN", None)]
