"""Alien Attack USA: the rulebook's examples and tables, powers, geometry.

Positions are written into the engine's state vector on the stand-in board, then the
compiled step function plays the actions. Rule numbers refer to
docs/rules/alien-attack-usa.md.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from simkit.datafiles import variants
from simkit.games.aau import board as B
from simkit.games.aau import engine as E
from simkit.games.aau import Rules
from simkit.games.aau.params import AAUParams
from simkit.jit import entry

DOC = json.loads(B.BUILTIN.read_text())
IDX = {sp["id"]: i for i, sp in enumerate(DOC["spaces"])}  # space id -> engine index

tier_points = entry(E.tier_points)
largest_group = entry(E.largest_group)
mission_counts = entry(E.mission_counts)
final_scoring = entry(E._final_scoring)
destroys = entry(E.destroys)



def player(st, p, field):
    """A field of player ``p``'s record in the state."""
    return int(st.s[E.PLAYER + p * E.P_STRIDE + field])

def make(players=4, seed=3, **kw):
    rules = Rules(AAUParams(players=players, **kw))
    st = rules.new(seed)
    return rules, st


def empty_board(st):
    """Every space back in the bag, no markers: a blank position to build on."""
    s = st.s
    n = s[E.NSP]
    s[E.SP:E.SP + n] = E.S_BAG
    s[E.FLIP:E.FLIP + n] = 0
    s[E.NBASES] = 0
    for p in range(E.MAX_PLAYERS):
        base_p = E.PLAYER + p * E.P_STRIDE + E.P_CITY_CNT
        s[base_p:base_p + B.MAX_CITIES] = 0


def disc(st, p, sid):
    x = IDX[sid]
    st.s[E.SP + x] = E.S_DISC + p
    for k in range(st.b[B.B_SP_NCITY + x]):
        st.s[E.PLAYER + p * E.P_STRIDE + E.P_CITY_CNT + st.b[B.B_SP_CITY + x * 3 + k]] += 1


def base(st, sid, flipped_round=0):
    x = IDX[sid]
    st.s[E.SP + x] = E.S_BASE
    st.s[E.FLIP + x] = flipped_round or 1
    st.s[E.BASES + st.s[E.NBASES]] = x
    st.s[E.NBASES] += 1


def recount(st):
    """The engine's running counts, after a test wrote a position: (base, own disc)
    neighbour pairs, and the bases a disc on each space would destroy."""
    s, b = st.s, st.b
    for p in range(4):
        s[E.PLAYER + p * E.P_STRIDE + E.P_ADJ_BASES] = sum(
            1 for x in range(s[E.NSP]) if s[E.SP + x] == E.S_DISC + p for d in range(6)
            if b[B.B_NB + x * 6 + d] >= 0 and s[E.SP + b[B.B_NB + x * 6 + d]] == E.S_BASE)
    for x in range(s[E.NSP]):
        s[E.HITS + x] = sum(1 for d in range(6) if destroys(s, b, x, d))


def markers(st, *sids):
    """Make these spaces this round's attack markers and give the turn to the start player."""
    s = st.s
    for k, sid in enumerate(sids):
        s[E.MARK + k] = IDX[sid]
        s[E.SP + IDX[sid]] = E.S_MARKER
    s[E.NMARK] = len(sids)
    s[E.ACTED] = 0
    s[E.PHASE] = E.P_COVER
    s[E.TURN] = s[E.START]
    recount(st)


def cover(rules, st, sid):
    k = [int(st.s[E.MARK + i]) for i in range(st.s[E.NMARK])].index(IDX[sid])
    rules.step(st, E.A_COVER + k)


def score(rules, st, p):
    return player(st, p, E.P_SCORE)


def neighbour_id(sid, d):
    j = DOC_B[IDX[sid] * 6 + d]
    return None if j < 0 else DOC["spaces"][j]["id"]


DOC_B = B.build(AAUParams())[B.B_NB:B.B_NB + B.MAX_SPACES * 6]


# ------------------------------------------------------------------ R2 rounds and markers
@pytest.mark.parametrize("players, rounds", [(2, 30), (3, 24), (4, 20)])
def test_rounds_and_all_120_markers_used(players, rounds):
    rules, st = make(players)
    rng = np.random.default_rng(players)
    while not rules.over(st):
        rules.step(st, int(rng.choice(rules.legal(st))))
    s = st.s
    assert s[E.ROUND] == rounds
    assert s[E.BAG_N] == 0
    assert not (s[E.SP:E.SP + 120] == E.S_BAG).any()  # every space was attacked
    assert not (s[E.SP:E.SP + 120] == E.S_MARKER).any()


def test_each_round_draws_players_plus_two_markers_and_the_bag_passes_left():
    rules, st = make(3)
    s = st.s
    assert s[E.NMARK] == 5 and s[E.START] == 0 and s[E.TURN] == 0
    for _ in range(3):  # three turns, passing on powers
        rules.step(st, E.A_COVER + [i for i in range(5) if s[E.SP + s[E.MARK + i]] == E.S_MARKER][0])
        if s[E.PHASE] == E.P_POWER:
            rules.step(st, E.A_PASS)
    while s[E.PHASE] == E.P_PROTECT:
        rules.step(st, E.A_NO_PROTECT)
    assert s[E.ROUND] == 2 and s[E.START] == 1 and s[E.TURN] == 1 and s[E.BAG_N] == 110
    assert int((s[E.SP:E.SP + 120] == E.S_BASE).sum()) + int(s[E.TOTAL_DESTROYED]) == 2  # two markers flipped


def test_missions_are_dealt_one_of_each_kind():
    for seed in range(10):
        rules, st = make(4, seed=seed)
        assert sorted(player(st, p, E.P_CITY_CARD) for p in range(4)) == [0, 1, 2, 3]
        assert sorted(player(st, p, E.P_BORDER_CARD) for p in range(4)) == [0, 1, 2, 3]


# ------------------------------------------------------------------ R4 immediate scoring
def test_second_disc_around_a_city_scores_its_value_and_a_third_again():
    """Rulebook: 'ao colocar um segundo disco de defesa ao redor da cidade de valor 3, o
    jogador amarelo recebe 3 pontos'."""
    rules, st = make(2)
    empty_board(st)
    disc(st, 0, 51)  # Columbus (value 3): spaces 51, 67, 68
    markers(st, 67, 5, 6, 9)
    cover(rules, st, 67)
    assert score(rules, st, 0) == 3
    rules, st = make(2)
    empty_board(st)
    disc(st, 0, 51)
    disc(st, 0, 67)
    markers(st, 68, 5, 6, 9)
    cover(rules, st, 68)
    assert score(rules, st, 0) == 3  # the third disc scores the city again


def test_first_disc_around_a_city_scores_nothing():
    rules, st = make(2)
    empty_board(st)
    markers(st, 51, 5, 6, 9)
    cover(rules, st, 51)
    assert score(rules, st, 0) == 0


def test_herd_scores_two_plus_two_per_connected_disc():
    rules, st = make(2)
    empty_board(st)
    markers(st, 7, 50, 51, 52)
    cover(rules, st, 7)  # herd region {7, 8, 18}
    assert score(rules, st, 0) == 2
    rules, st = make(2)
    empty_board(st)
    disc(st, 0, 7)
    disc(st, 0, 8)
    markers(st, 18, 50, 51, 52)
    cover(rules, st, 18)
    assert score(rules, st, 0) == 6


def test_park_gives_a_token():
    rules, st = make(2)
    empty_board(st)
    markers(st, 4, 50, 51, 52)  # Glacier
    cover(rules, st, 4)
    assert player(st, 0, E.P_PARKS) == 1 and score(rules, st, 0) == 0


def _destruction_case(d, behind):
    """A base next to the new disc in direction d, with `behind` behind it."""
    for sid in IDX:
        y = neighbour_id(sid, d)
        z = neighbour_id(y, d) if y else None
        if y and z:
            rules, st = make(2)
            empty_board(st)
            base(st, y)
            if behind == "disc":
                disc(st, 1, z)
            elif behind == "marker":
                st.s[E.SP + IDX[z]] = E.S_MARKER
            markers(st, sid, *[x for x in (50, 51, 52, 53) if x not in (sid, y, z)][:3])
            cover(rules, st, sid)
            return rules, st, y
    raise AssertionError("no line found")


@pytest.mark.parametrize("d", range(6), ids=["E", "NE", "NW", "W", "SW", "SE"])
def test_base_destroyed_with_a_disc_directly_behind_in_each_direction(d):
    rules, st, y = _destruction_case(d, "disc")
    assert st.s[E.SP + IDX[y]] == E.S_EMPTY
    assert player(st, 0, E.P_BASES) == 1 and st.s[E.TOTAL_DESTROYED] == 1


@pytest.mark.parametrize("behind", ["nothing", "marker"])
def test_base_stands_without_a_disc_behind(behind):
    rules, st, y = _destruction_case(0, behind)
    assert st.s[E.SP + IDX[y]] == E.S_BASE and player(st, 0, E.P_BASES) == 0


def test_several_bases_in_one_move():
    """Rulebook: 'todas as três bases alien são destruídas'."""
    rules, st = make(2)
    empty_board(st)
    centre = 44
    hit = 0
    for d in (0, 2, 4):
        y = neighbour_id(centre, d)
        z = neighbour_id(y, d)
        base(st, y)
        disc(st, 1, z)
        hit += 1
    markers(st, centre, 5, 6, 9)
    cover(rules, st, centre)
    assert player(st, 0, E.P_BASES) == 3


def test_canada_icon_acts_as_a_disc_behind_a_base():
    rules, st = make(2)
    empty_board(st)
    base(st, 2)  # a Canada icon space on the northern edge
    markers(st, 12, 50, 51, 52)  # 12 is south-east of 2: the line through 2 leaves the board north
    cover(rules, st, 12)
    assert st.s[E.SP + IDX[2]] == E.S_EMPTY
    rules, st = make(2)
    empty_board(st)
    base(st, 3)  # no icon on 3
    markers(st, 13, 50, 51, 52)
    cover(rules, st, 13)
    assert st.s[E.SP + IDX[3]] == E.S_BASE


# ------------------------------------------------------------------ R2.5 capture
@pytest.mark.parametrize("axis", range(3), ids=["E-W", "NE-SW", "NW-SE"])
def test_disc_between_two_bases_is_captured_when_one_is_new(axis):
    """Rulebook: 'quando o marcador de ataque alien 9 é virado, o disco de defesa azul é
    removido do jogo, pois ele ficou cercado por bases alien'."""
    rules, st = make(2)
    empty_board(st)
    x = 60
    a, c = neighbour_id(x, axis), neighbour_id(x, axis + 3)
    disc(st, 1, x)
    st.s[E.PLAYER + 1 * E.P_STRIDE + E.P_DISCS] = 1
    base(st, a, flipped_round=1)
    st.s[E.ROUND] = 2
    others = [sid for sid in (10, 20, 30) if sid not in (a, c, x)]
    markers(st, c, *others)
    # both players cover something else: c stays uncovered and flips in round 2
    for _ in range(2):
        k = [i for i in range(st.s[E.NMARK]) if st.s[E.SP + st.s[E.MARK + i]] == E.S_MARKER and st.s[E.MARK + i] != IDX[c]][0]
        rules.step(st, E.A_COVER + k)
        if st.s[E.PHASE] == E.P_POWER:
            rules.step(st, E.A_PASS)
    if st.s[E.PHASE] == E.P_PROTECT:
        rules.step(st, E.A_NO_PROTECT)
    assert st.s[E.SP + IDX[x]] == E.S_EMPTY
    assert player(st, 1, E.P_CAPTURED) == 1


def test_disc_between_two_old_bases_is_safe():
    rules, st = make(2)
    empty_board(st)
    x = 60
    disc(st, 1, x)
    base(st, neighbour_id(x, 0), flipped_round=1)
    base(st, neighbour_id(x, 3), flipped_round=1)
    st.s[E.ROUND] = 3
    markers(st, 10, 20, 30, 40)
    for _ in range(2):
        k = [i for i in range(4) if st.s[E.SP + st.s[E.MARK + i]] == E.S_MARKER][0]
        rules.step(st, E.A_COVER + k)
        if st.s[E.PHASE] == E.P_POWER:
            rules.step(st, E.A_PASS)
    assert st.s[E.SP + IDX[x]] == E.S_DISC + 1


# ------------------------------------------------------------------ R5 powers
def _about_to_capture(protection_used=False):
    rules, st = make(2)
    empty_board(st)
    x = 60
    disc(st, 1, x)
    st.s[E.PLAYER + 1 * E.P_STRIDE + E.P_DISCS] = 1
    if protection_used:
        st.s[E.PLAYER + 1 * E.P_STRIDE + E.P_POWERS] |= E.POW_PROTECTION
    base(st, neighbour_id(x, 0), flipped_round=1)
    st.s[E.ROUND] = 2
    c = neighbour_id(x, 3)
    markers(st, c, 10, 20, 30)
    for _ in range(2):
        k = [i for i in range(4) if st.s[E.SP + st.s[E.MARK + i]] == E.S_MARKER and st.s[E.MARK + i] != IDX[c]][0]
        rules.step(st, E.A_COVER + k)
        if st.s[E.PHASE] == E.P_POWER:
            rules.step(st, E.A_PASS)
    return rules, st, IDX[x]


def test_protection_saves_a_disc_about_to_be_captured():
    """Rulebook: 'ao virar a peça de ataque 57 para uma base, o jogador azul iria perder o
    seu disco ... ao virar a peça de Poder Especial Proteção, ele consegue evitar'."""
    rules, st, x = _about_to_capture()
    assert st.s[E.PHASE] == E.P_PROTECT and rules.current_seat(st) == 1
    legal = rules.legal(st)
    assert E.A_NO_PROTECT in legal and len(legal) == 2
    rules.step(st, [a for a in legal if a != E.A_NO_PROTECT][0])
    assert st.s[E.SP + x] == E.S_DISC + 1
    assert player(st, 1, E.P_POWERS) & E.POW_PROTECTION


def test_protection_is_used_once_per_game():
    rules, st, x = _about_to_capture(protection_used=True)
    assert st.s[E.PHASE] != E.P_PROTECT
    assert st.s[E.SP + x] == E.S_EMPTY


def test_cover_places_a_disc_on_the_base_just_destroyed_and_scores_it():
    """Rulebook (Cobertura): after destroying a base, cover its now empty space and score it."""
    rules, st = make(2)
    empty_board(st)
    # base on 100 (Phoenix/San Diego side), destroyed from 101 with a disc behind on 99
    assert neighbour_id(101, 3) == 100 and neighbour_id(100, 3) is None
    y, new = 88, 101
    d = [k for k in range(6) if neighbour_id(new, k) == y][0]
    behind = neighbour_id(y, d)
    base(st, y)
    disc(st, 1, behind)
    disc(st, 0, 100)  # player 0 already defends Phoenix (88, 100, 101) once
    markers(st, new, 5, 6, 9)
    cover(rules, st, new)  # second disc around Phoenix: 5 points
    assert score(rules, st, 0) == 5 and st.s[E.SP + IDX[y]] == E.S_EMPTY
    assert st.s[E.PHASE] == E.P_POWER
    rules.step(st, E.A_COVERP + 0)
    assert st.s[E.SP + IDX[y]] == E.S_DISC + 0
    assert score(rules, st, 0) == 10  # third disc around Phoenix scores it again
    assert player(st, 0, E.P_POWERS) & E.POW_COVER


def test_neighbourhood_destroys_a_base_next_to_your_disc_and_you_score_the_space():
    """Rulebook (Vizinhança): remove the base, put your disc there and score it: the
    example scores 5 for the city space."""
    rules, st = make(2)
    empty_board(st)
    disc(st, 0, 100)  # around Phoenix (value 5)
    base(st, 101)
    markers(st, 5, 6, 9, 50)
    cover(rules, st, 5)
    assert st.s[E.PHASE] == E.P_POWER
    assert E.A_NEIGH + IDX[101] in rules.legal(st)
    rules.step(st, E.A_NEIGH + IDX[101])
    assert st.s[E.SP + IDX[101]] == E.S_DISC + 0
    assert score(rules, st, 0) == 5
    assert player(st, 0, E.P_BASES) == 1 and st.s[E.TOTAL_DESTROYED] == 1


def test_extra_turn_gives_a_second_disc_and_at_most_two_players_a_round():
    rules, st = make(4)
    s = st.s
    for seat in range(3):
        assert s[E.TURN] == seat
        rules.step(st, E.A_COVER + [i for i in range(6) if s[E.SP + s[E.MARK + i]] == E.S_MARKER][0])
        legal = rules.legal(st)
        if seat < 2:
            assert E.A_EXTRA in legal
            rules.step(st, E.A_EXTRA)
            assert s[E.PHASE] == E.P_COVER and s[E.TURN] == seat
            rules.step(st, E.A_COVER + [i for i in range(6) if s[E.SP + s[E.MARK + i]] == E.S_MARKER][0])
            if s[E.PHASE] == E.P_POWER:
                rules.step(st, E.A_PASS)
        else:
            assert E.A_EXTRA not in legal  # a third Extra Turn in the same round is refused
            if s[E.PHASE] == E.P_POWER:  # (no power left to offer: the turn already passed)
                rules.step(st, E.A_PASS)
    assert player(st, 0, E.P_DISCS) == 2 and player(st, 2, E.P_DISCS) == 1


def test_a_player_with_extra_turn_used_cannot_use_it_again():
    rules, st = make(2)
    st.s[E.PLAYER + 0 * E.P_STRIDE + E.P_POWERS] |= E.POW_EXTRA
    rules.step(st, E.A_COVER + 0)
    assert st.s[E.PHASE] != E.P_POWER or E.A_EXTRA not in rules.legal(st)


# ------------------------------------------------------------------ R6 end scoring
CITY_TABLES = {2: [(4, 8), (6, 16), (7, 22)], 3: [(4, 6), (6, 14), (7, 20)], 4: [(3, 3), (5, 12), (6, 18)], 5: [(3, 3), (5, 10), (6, 15)]}
BORDER_TABLES = {"PAC": [(4, 6), (6, 14), (7, 20)], "MEX": [(3, 6), (4, 10), (5, 16)], "GULF": [(4, 8), (5, 12), (6, 18)], "ATL": [(4, 6), (6, 14), (7, 20)]}


def _table(off, counts):
    b = B.build(AAUParams())
    return [int(tier_points(b, off, c)) for c in counts]


@pytest.mark.parametrize("card", [2, 3, 4, 5])
def test_city_mission_tables(card):
    tiers = CITY_TABLES[card]
    got = _table(B.B_MIS_CITY + (card - 2) * 6, range(9))
    expected = [max([p for c, p in tiers if n >= c], default=0) for n in range(9)]
    assert got == expected


@pytest.mark.parametrize("card", ["PAC", "MEX", "GULF", "ATL"])
def test_border_mission_tables(card):
    tiers = BORDER_TABLES[card]
    got = _table(B.B_MIS_BORDER + B.BORDERS.index(card) * 6, range(12))
    assert got == [max([p for c, p in tiers if n >= c], default=0) for n in range(12)]


def test_global_mission_tables():
    assert _table(B.B_MIS_PARKS, [2, 3, 4, 5, 7, 9]) == [0, 5, 5, 10, 20, 20]
    assert _table(B.B_MIS_BASES, [4, 5, 8, 9, 13, 20]) == [0, 5, 5, 13, 25, 25]
    assert _table(B.B_MIS_EXPANSION, [6, 7, 11, 15, 19]) == [0, 5, 12, 24, 24]


def test_final_scoring_example_106():
    """Rulebook, 'Exemplo de pontuação final': blue starts with 39; city card 2 with 7
    cities: 22; Pacific with 4 discs: 6; 5 parks: 10; 6 bases: 5; 19 connected discs:
    24; global protection not met (2 value-1 cities, 4 herds, 7 borders): 0; total 106."""
    b = B.build(AAUParams())
    parts = [
        int(tier_points(b, B.B_MIS_CITY + (2 - 2) * 6, 7)),
        int(tier_points(b, B.B_MIS_BORDER + B.BORDERS.index("PAC") * 6, 4)),
        int(tier_points(b, B.B_MIS_PARKS, 5)),
        int(tier_points(b, B.B_MIS_BASES, 6)),
        int(tier_points(b, B.B_MIS_EXPANSION, 19)),
    ]
    assert parts == [22, 6, 10, 5, 24]
    protection_met = 2 >= b[B.B_PROTECTION + 1] and 4 >= b[B.B_PROTECTION + 2] and 7 >= b[B.B_PROTECTION + 3]
    assert not protection_met and b[B.B_PROTECTION] == 20
    assert 39 + sum(parts) + 0 == 106


def test_final_scoring_counts_on_a_position():
    """The counts behind the tables: cities of the card's value, discs on the card's
    border, the largest connected group, and the three protection requirements."""
    rules, st = make(2)
    empty_board(st)
    s = st.s
    s[E.PLAYER + E.P_CITY_CARD] = 0  # city card 2
    s[E.PLAYER + E.P_BORDER_CARD] = 0  # Pacific
    for sid in (1, 11, 24, 39, 55, 71):  # a chain down the Pacific coast
        disc(st, 0, sid)
    disc(st, 0, 42)  # Salt Lake City (value 2), apart from the chain
    cities, border, ones, herds, other, top = mission_counts(s, st.b, 0)
    pac = sum(1 for sid in (1, 11, 24, 39, 55, 71, 42) if "PAC" in DOC["spaces"][IDX[sid]]["borders"])
    assert border == pac
    assert int(largest_group(s, st.b, 0)) == 6
    value2 = {c["name"] for c in DOC["cities"] if c["value"] == 2 and set(c["spaces"]) & {1, 11, 24, 39, 55, 71, 42}}
    assert cities == len(value2)


def test_territorial_expansion_needs_your_own_discs_in_between():
    rules, st = make(2)
    empty_board(st)
    for sid in (50, 51, 52):
        disc(st, 0, sid)
    assert int(largest_group(st.s, st.b, 0)) == 3
    st.s[E.SP + IDX[51]] = E.S_DISC + 1  # an opponent's disc breaks the line
    assert int(largest_group(st.s, st.b, 0)) == 1


# ------------------------------------------------------------------ R7 winner, semi-cooperative mode
def _ended(semi=False, destroyed=0, scores=(50, 40), tops=(3, 3), threshold=24):
    rules, st = make(2, semi_coop=semi, semi_coop_threshold=threshold)
    empty_board(st)
    s = st.s
    s[E.TOTAL_DESTROYED] = destroyed
    for p, (sc, top) in enumerate(zip(scores, tops)):
        s[E.PLAYER + p * E.P_STRIDE + E.P_SCORE] = sc
        # defend one city of value `top` so that the tie-break sees it
        city = next(c for c in DOC["cities"] if c["value"] == top and all(s[E.SP + IDX[x]] == E.S_BAG for x in c["spaces"]))
        disc(st, p, city["spaces"][0])
    final_scoring(s, st.b)
    return rules, st


def test_highest_score_wins():
    rules, st = _ended(scores=(50, 40))
    assert [player(st, p, E.P_WON) for p in range(2)] == [1, 0]


def test_tie_broken_by_the_highest_city_defended_then_shared():
    rules, st = _ended(scores=(50, 50), tops=(4, 6))
    assert [player(st, p, E.P_WON) for p in range(2)] == [0, 1]
    rules, st = _ended(scores=(50, 50), tops=(5, 5))
    assert [player(st, p, E.P_WON) for p in range(2)] == [1, 1]


@pytest.mark.parametrize("destroyed, earth", [(23, False), (24, True)])
def test_semi_cooperative_threshold(destroyed, earth):
    """'caso menos de 24 bases alien tenham sido destruídas, a invasão foi considerada
    um sucesso e todos os jogadores perdem'."""
    rules, st = _ended(semi=True, destroyed=destroyed)
    assert bool(st.s[E.EARTH_WON]) is earth
    assert [player(st, p, E.P_WON) for p in range(2)] == ([1, 0] if earth else [0, 0])


def test_semi_cooperative_threshold_is_a_parameter():
    rules, st = _ended(semi=True, destroyed=10, threshold=10)
    assert st.s[E.EARTH_WON] == 1


def test_competitive_mode_ignores_the_threshold_for_the_winner():
    rules, st = _ended(semi=False, destroyed=0)
    assert [player(st, p, E.P_WON) for p in range(2)] == [1, 0] and st.s[E.EARTH_WON] == 0


def test_a_user_board_of_another_size_plays_to_the_end(tmp_path):
    """R2.7.1: 10 spaces for 2 players: rounds of 4, 4 and 2 markers; every space is attacked."""
    spaces = [{"id": i + 1, "col": i, "row": 0, "type": "park" if i == 4 else "plain", "borders": ["PAC"] if i < 3 else []} for i in range(10)]
    board = {"version": "tiny", "missions": DOC["missions"], "herds": [], "spaces": spaces,
             "cities": [{"name": "A", "value": 3, "spaces": [2, 3]}]}
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(board))
    rules = Rules(AAUParams(players=2, board=str(path)))
    st = rules.new(1)
    rng = np.random.default_rng(0)
    while not rules.over(st):
        rules.step(st, int(rng.choice(rules.legal(st))))
        assert not rules.invariants(st)
    assert st.s[E.ROUND] == 3 and st.s[E.BAG_N] == 0


def test_malformed_board_file_is_a_clear_error(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"spaces": [{"id": 1, "col": 0, "row": 0, "type": "swamp"}]}))
    with pytest.raises(Exception, match="bad.json"):
        Rules(AAUParams(board=str(path)))


# ------------------------------------------------------------------ other readings (settings)
def test_herd_points_2_6_8_reading():
    """A23's other reading: 2 + 2 x the connected group once the disc joins another (2, 6, 8)."""
    rules, st = make(2, herd_points="2-6-8")
    empty_board(st)
    markers(st, 7, 50, 51, 52)
    cover(rules, st, 7)
    assert score(rules, st, 0) == 2
    for owned, scored in (((7,), 6), ((7, 8), 8)):
        rules, st = make(2, herd_points="2-6-8")
        empty_board(st)
        for sid in owned:
            disc(st, 0, sid)
        markers(st, 18 if len(owned) == 2 else 8, 50, 51, 52)
        cover(rules, st, 18 if len(owned) == 2 else 8)
        assert score(rules, st, 0) == scored


def _capture_line(capture, first_base_round):
    rules, st = make(2, capture=capture)
    empty_board(st)
    x = 60
    a, c = neighbour_id(x, 0), neighbour_id(x, 3)
    disc(st, 1, x)
    st.s[E.PLAYER + 1 * E.P_STRIDE + E.P_DISCS] = 1
    base(st, a, flipped_round=first_base_round)
    st.s[E.ROUND] = 2
    markers(st, c, 10, 20, 30)
    for _ in range(2):
        k = [i for i in range(st.s[E.NMARK]) if st.s[E.SP + st.s[E.MARK + i]] == E.S_MARKER and st.s[E.MARK + i] != IDX[c]][0]
        rules.step(st, E.A_COVER + k)
        if st.s[E.PHASE] == E.P_POWER:
            rules.step(st, E.A_PASS)
    if st.s[E.PHASE] == E.P_PROTECT:
        rules.step(st, E.A_NO_PROTECT)
    return st.s[E.SP + IDX[x]] == E.S_EMPTY


def test_capture_line_new_needs_both_bases_new():
    """A6's reading "both bases new this round": an old base and a new one do not capture;
    two new ones (the old one marked as flipped this round) do. The default captures both."""
    assert _capture_line("line", 1) and _capture_line("line", 2)
    assert not _capture_line("line_new", 1)
    assert _capture_line("line_new", 2)


def test_protection_borders_no_card_label_reading():
    """A25: a corner space with the card's label and another counts as 'another border'
    by default, never with no_card_label; a space without the card's label counts in both."""
    for reading, corner_counts in (("any_other_label", 1), ("no_card_label", 0)):
        rules, st = make(2, protection_borders=reading)
        empty_board(st)
        st.s[E.PLAYER + E.P_BORDER_CARD] = B.BORDERS.index("PAC")
        disc(st, 0, 1)  # CAN + PAC corner
        assert mission_counts(st.s, st.b, 0)[4] == corner_counts
        disc(st, 0, 2)  # CAN only
        assert mission_counts(st.s, st.b, 0)[4] == corner_counts + 1


def test_board_variants_by_name_change_only_the_canada_icons():
    base_doc = json.loads(B.BUILTIN.read_text())
    assert set(variants(B.BUILTIN)) == {"canada-none", "canada-all", "corners-single", "cities-reversed",
                                         "parks-herds-moved"}
    icons = {}
    for name in ("canada-none", "canada-all"):
        path = variants(B.BUILTIN)[name]
        doc = json.loads(path.read_text())
        assert B.data_path(AAUParams(board=name)) == path
        for a, b in zip(base_doc["spaces"], doc["spaces"]):
            assert {k: v for k, v in a.items() if k != "canada_icon"} == {k: v for k, v in b.items() if k != "canada_icon"}
        assert {k: v for k, v in base_doc.items() if k not in ("spaces", "about", "version")} == \
               {k: v for k, v in doc.items() if k not in ("spaces", "about", "version")}
        icons[name] = sorted(sp["id"] for sp in doc["spaces"] if sp.get("canada_icon"))
    assert icons["canada-none"] == []
    assert icons["canada-all"] == sorted(sp["id"] for sp in base_doc["spaces"] if "CAN" in sp["borders"])
    # the icon on 2 destroys a base there by default, not without icons; 3 has one only with all of them
    for board, sid, below, destroyed in (("canada-none", 2, 12, False), ("canada-all", 3, 13, True)):
        rules, st = make(2, board=board)
        empty_board(st)
        base(st, sid)
        markers(st, below, 50, 51, 52)
        cover(rules, st, below)
        assert (st.s[E.SP + IDX[sid]] == E.S_EMPTY) == destroyed


def _same_but(name: str, spaces_key: str | None = None, cities_key: str | None = None):
    """The variant's document, checked equal to board.json except for one key of the
    spaces or of the cities; returns (default, variant)."""
    base_doc, doc = json.loads(B.BUILTIN.read_text()), json.loads(variants(B.BUILTIN)[name].read_text())
    assert B.data_path(AAUParams(board=name)) == variants(B.BUILTIN)[name]
    assert B.data_version(AAUParams(board=name)) != B.data_version(AAUParams())
    drop = lambda d, k: {x: v for x, v in d.items() if x != k}  # noqa: E731
    assert [drop(a, spaces_key) for a in base_doc["spaces"]] == [drop(a, spaces_key) for a in doc["spaces"]]
    assert [drop(a, cities_key) for a in base_doc["cities"]] == [drop(a, cities_key) for a in doc["cities"]]
    assert drop(drop(drop(drop(base_doc, "spaces"), "cities"), "about"), "version") == \
           drop(drop(drop(drop(doc, "spaces"), "cities"), "about"), "version")
    return base_doc, doc


def _label_counts(board: str) -> dict[str, int]:
    """Spaces per border label, as the engine reads them."""
    b = B.build(AAUParams(board=board))
    masks = b[B.B_BORDER:B.B_BORDER + b[B.B_NSP]]
    return {lab: int(np.count_nonzero(masks & (1 << k))) for k, lab in enumerate(B.BORDERS)}


def test_corners_single_keeps_the_first_label_of_each_corner():
    """A26: by default the corners count for both borders, which gives the rulebook's counts
    (ATL 11, PAC 10, GULF 10, MEX 7); corners-single keeps each corner's first label only."""
    base_doc, doc = _same_but("corners-single", spaces_key="borders")
    corners = {sp["id"]: sp["borders"] for sp in base_doc["spaces"] if len(sp.get("borders", [])) > 1}
    assert sorted(corners) == [1, 23, 38, 53, 100, 118, 119, 120]
    for a, b in zip(base_doc["spaces"], doc["spaces"]):
        assert b.get("borders") == (a["borders"][:1] if a["id"] in corners else a.get("borders"))
    assert _label_counts("") == {"PAC": 10, "MEX": 7, "GULF": 10, "ATL": 11, "CAN": 20}
    assert _label_counts("corners-single") == {"PAC": 8, "MEX": 6, "GULF": 8, "ATL": 11, "CAN": 17}
    # R6.2 on a position: a PAC card holder's disc on 100 (MEX+PAC) counts only by default
    for board, pac in (("", 1), ("corners-single", 0)):
        rules, st = make(2, board=board)
        empty_board(st)
        st.s[E.PLAYER + E.P_BORDER_CARD] = B.BORDERS.index("PAC")
        disc(st, 0, 100)
        assert mission_counts(st.s, st.b, 0)[1] == pac


def test_cities_reversed_moves_only_the_city_values():
    """The stand-in's city values read backwards along the cities' reading order: same
    cities and spaces, same value counts, 40 of 46 values moved."""
    base_doc, doc = _same_but("cities-reversed", cities_key="value")
    order = sorted(range(len(base_doc["cities"])), key=lambda c: sorted(base_doc["cities"][c]["spaces"]))
    for k, c in enumerate(order):
        assert doc["cities"][c]["value"] == base_doc["cities"][order[-1 - k]]["value"]
    values = lambda d: sorted(c["value"] for c in d["cities"])  # noqa: E731
    assert values(doc) == values(base_doc)
    assert sum(a["value"] != b["value"] for a, b in zip(base_doc["cities"], doc["cities"])) == 40
    b = B.build(AAUParams(board="cities-reversed"))
    assert list(b[B.B_CITY_VAL:B.B_CITY_VAL + len(doc["cities"])]) == [c["value"] for c in doc["cities"]]


def test_parks_herds_moved_moves_only_the_parks_and_herd_regions():
    """The variant is the generator's output: 22 parks (names kept) and 6 herd regions of 3
    mutually adjacent spaces, all on spaces that are plain on board.json; nothing else differs."""
    from tests.aau_board_variants import moved, variant

    base_doc, doc = json.loads(B.BUILTIN.read_text()), json.loads(variants(B.BUILTIN)["parks-herds-moved"].read_text())
    assert B.data_version(AAUParams(board="parks-herds-moved")) != B.data_version(AAUParams())
    assert {k: v for k, v in doc.items() if k not in ("about", "version")} == \
           {k: v for k, v in variant(base_doc).items() if k not in ("about", "version")}
    keep = lambda sp: {k: v for k, v in sp.items() if k not in ("type", "name")}  # noqa: E731
    assert [keep(sp) for sp in doc["spaces"]] == [keep(sp) for sp in base_doc["spaces"]]
    drop = lambda d: {k: v for k, v in d.items() if k not in ("spaces", "herds", "about", "version")}  # noqa: E731
    assert drop(doc) == drop(base_doc)
    kinds = lambda d, t: {sp["id"] for sp in d["spaces"] if sp["type"] == t}  # noqa: E731
    plain = kinds(base_doc, "plain")
    assert len(kinds(doc, "park")) == 22 and kinds(doc, "park") <= plain
    assert len(doc["herds"]) == 6 and all(len(r) == 3 for r in doc["herds"])
    assert {s for r in doc["herds"] for s in r} == kinds(doc, "herd") and len(kinds(doc, "herd")) == 18
    assert kinds(doc, "herd") <= plain
    names = lambda d: sorted(sp["name"] for sp in d["spaces"] if sp["type"] == "park")  # noqa: E731
    assert names(doc) == names(base_doc)
    herds, parks = moved(base_doc)
    assert herds[0] == [19, 20, 33] and parks[4] == 3  # Montana's region and Glacier, one step each
    b = B.build(AAUParams(board="parks-herds-moved"))
    n = b[B.B_NSP]
    assert b[B.B_NHERD] == 6
    assert int(np.count_nonzero(b[B.B_TYPE:B.B_TYPE + n] == B.PARK)) == 22
    for h, region in enumerate(doc["herds"]):
        members = [IDX[s] for s in region]
        assert sorted(b[B.B_HERD_SP + h * 3:B.B_HERD_SP + h * 3 + 3]) == sorted(members)
        assert all(any(b[B.B_NB + x * 6 + d] == y for d in range(6)) for x in members for y in members if x != y)
    # R4.2 and R4.3 in their new places: 2 for a lone herd disc, 6 for the third of a region, a
    # park token on Glacier's new space 3; the old herd space 7 and the old park 4 are plain
    for sid, others, points, parks in ((19, (), 2, 0), (19, (20, 33), 6, 0), (7, (), 0, 0), (3, (), 0, 1), (4, (), 0, 0)):
        rules, st = make(2, board="parks-herds-moved")
        empty_board(st)
        for o in others:
            disc(st, 0, o)
        markers(st, sid, 50, 51, 52)
        cover(rules, st, sid)
        assert (score(rules, st, 0), player(st, 0, E.P_PARKS)) == (points, parks)


def test_unknown_board_variant_is_one_line_listing_the_built_in_ones():
    from simkit.errors import UserError

    with pytest.raises(UserError) as err:
        B.build(AAUParams(board="corners"))
    text = str(err.value)
    assert "\n" not in text and all(name in text for name in variants(B.BUILTIN))


def _digest(players: int, **sets) -> str:
    from simkit.games import get
    from simkit.golden import _canonical
    from simkit.params import build
    from simkit.runner import RunSpec, play_range

    game = get("aau")
    params = build(game.params, {"players": players, **sets}, game.name)
    spec = RunSpec(game, params, tuple(game.resolve_bots([], params)), 40, 11)
    return _canonical(play_range(spec, 0, 40).select(["game_index", "seed", "seat", *game.outputs.meanings]))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_extra_turn_cap_above_two_plays_the_same_games(players):
    """A18: a round leaves players + 2 markers, so the marker guard (R5.4.2) stops a third
    Extra Turn exactly where the rulebook's cap of 2 does; caps 3 and 4 change no game."""
    default = _digest(players)
    assert _digest(players, extra_turn_cap=3) == default
    assert _digest(players, extra_turn_cap=4) == default


def test_the_invariants_catch_a_miscounted_position():
    """The conformance suite's invariants (describe.invariants) fire on a position whose
    counts disagree: discs around a city, base/disc pairs, the bases a disc would destroy."""
    rules = Rules(AAUParams(players=3))
    st = rules.new(2)
    rng = np.random.default_rng(5)
    for _ in range(40):
        rules.step(st, int(rng.choice(rules.legal(st))))
    assert not rules.invariants(st)

    from simkit.games.aau.describe import invariants

    def broken(offset):
        bad = st.s.copy()
        bad[offset] += 1
        return " / ".join(invariants(bad, st.b))

    base = E.PLAYER + 1 * E.P_STRIDE
    assert "player 1: city 3 count is off" in broken(base + E.P_CITY_CNT + 3)
    assert "player 1: base/disc pair count is off" in broken(base + E.P_ADJ_BASES)
    assert "space 7: count of bases a disc there would destroy is off" in broken(E.HITS + 7)
