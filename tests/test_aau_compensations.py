"""Alien Attack USA: the compensations K1-K4 (docs/rules/alien-attack-usa.md, section
"Compensations (not in the rulebook)"): balancing changes that are NOT rules. Each does
exactly what it says, composes with a user's board file, and its default plays the
rulebook (the golden digests of tests/golden/aau.json check that too)."""

from __future__ import annotations

import json

import pytest

from simkit.errors import UserError
from simkit.games.aau import Rules
from simkit.games.aau import board as B
from simkit.games.aau import engine as E
from simkit.games.aau.params import AAUParams
from simkit.jit import entry
from simkit.params import build, describe

from .test_aau_rules import CITY_TABLES, DOC, _digest, disc, empty_board, make, player

tier_points = entry(E.tier_points)
final_scoring = entry(E._final_scoring)

KNOBS = {2: "city_mission_2_points", 3: "city_mission_3_points", 4: "city_mission_4_points", 5: "city_mission_5_points"}


def _tiers(b, card):
    off = B.B_MIS_CITY + B.CITY_CARDS.index(card) * B.TIERS
    return [(int(b[off + t * 2]), int(b[off + t * 2 + 1])) for t in range(3)]


def test_the_compensations_are_declared_as_such():
    infos = {i.name: i for i in describe(AAUParams)}
    comp = {n for n, i in infos.items() if i.compensation}
    assert comp == set(KNOBS.values())
    for name in comp:
        info = infos[name]
        assert info.help.startswith("Compensation (not in the rulebook): ")
        assert info.type is int and info.default == 0 and (info.lo, info.hi) == (-3, 8)


def test_defaults_leave_the_board_vector_as_the_rulebook():
    b = B.build(AAUParams())
    for card, tiers in CITY_TABLES.items():
        assert _tiers(b, card) == tiers
    # explicit zeros are the defaults
    assert (B.build(AAUParams(**{k: 0 for k in KNOBS.values()})) == b).all()


@pytest.mark.parametrize("card", [2, 3, 4, 5])
@pytest.mark.parametrize("offset", [-3, -1, 1, 8])
def test_an_offset_moves_every_tier_of_its_card_and_nothing_else(card, offset):
    base = B.build(AAUParams())
    b = B.build(AAUParams(**{KNOBS[card]: offset}))
    assert _tiers(b, card) == [(cnt, pts + offset) for cnt, pts in CITY_TABLES[card]]  # counts unchanged
    changed = {int(i) for i in (b != base).nonzero()[0]}
    k = B.CITY_CARDS.index(card)
    assert changed == {B.B_MIS_CITY + k * B.TIERS + t * 2 + 1 for t in range(3)}


def test_a_tier_never_goes_below_zero_on_a_user_board(tmp_path):
    """The offset applies to the table of whatever board file is loaded (board=PATH);
    a tier with fewer points than the offset takes away scores 0."""
    doc = json.loads(json.dumps(DOC))
    doc["missions"]["city"]["5"] = [[3, 1], [5, 2], [6, 9]]
    doc["missions"]["city"]["2"] = [[1, 50], [2, 60], [3, 70]]
    path = tmp_path / "board.json"
    path.write_text(json.dumps(doc))
    b = B.build(AAUParams(board=str(path), city_mission_5_points=-3, city_mission_2_points=4))
    assert _tiers(b, 5) == [(3, 0), (5, 0), (6, 6)]
    assert _tiers(b, 2) == [(1, 54), (2, 64), (3, 74)]
    assert _tiers(b, 3) == CITY_TABLES[3] and _tiers(b, 4) == CITY_TABLES[4]
    assert _tiers(B.build(AAUParams(board=str(path))), 5) == [(3, 1), (5, 2), (6, 9)]


def test_they_compose_with_a_built_in_board_variant():
    b = B.build(AAUParams(board="cities-reversed", city_mission_4_points=2))
    assert _tiers(b, 4) == [(c, p + 2) for c, p in CITY_TABLES[4]]
    ref = B.build(AAUParams(board="cities-reversed"))
    assert (b[B.B_CITY_VAL:B.B_CITY_VAL + B.MAX_CITIES] == ref[B.B_CITY_VAL:B.B_CITY_VAL + B.MAX_CITIES]).all()


@pytest.mark.parametrize("value", ["-4", "9", "1.5", "x"])
def test_out_of_range_values_are_one_line_errors(value):
    with pytest.raises(UserError, match="city_mission_4_points"):
        build(AAUParams, {"city_mission_4_points": value}, "aau")


def _city_score(card, n_cities, **sets):
    """Final scoring of a real position: player 0 holds city card ``card`` and one disc
    around each of ``n_cities`` cities of that value (and nothing else)."""
    rules, st = make(2, **sets)
    empty_board(st)
    s = st.s
    s[E.PLAYER + E.P_CITY_CARD] = card - 2
    s[E.PLAYER + E.P_STRIDE + E.P_CITY_CARD] = (card - 1) % 4
    used: set[int] = set()
    placed = 0
    for c in DOC["cities"]:
        if placed == n_cities:
            break
        if c["value"] == card and not used & set(c["spaces"]):
            sid = c["spaces"][0]
            disc(st, 0, sid)
            used |= {x for cc in DOC["cities"] if sid in cc["spaces"] for x in cc["spaces"]}
            placed += 1
    assert placed == n_cities
    for p in range(2):
        s[E.PLAYER + p * E.P_STRIDE + E.P_SCORE] = 0
    final_scoring(s, st.b)
    return player(st, 0, E.P_CITY_PTS), player(st, 0, E.P_SCORE)


@pytest.mark.parametrize("card, n, offset", [(2, 4, -3), (3, 6, 2), (4, 5, 8), (5, 3, -3), (5, 2, 5)])
def test_a_mission_scored_with_it_on_a_real_position(card, n, offset):
    rule, rule_total = _city_score(card, n)
    got, total = _city_score(card, n, **{KNOBS[card]: offset})
    expected_rule = max([p for c, p in CITY_TABLES[card] if n >= c], default=0)
    assert rule == expected_rule
    # below the first tier stays 0: the offset moves the tiers' points, not their counts
    assert got == (max(0, expected_rule + offset) if expected_rule else 0)
    assert total - rule_total == got - rule  # only the city mission's points move


def test_another_cards_knob_leaves_this_card_alone():
    assert _city_score(3, 4, city_mission_4_points=8) == _city_score(3, 4)


@pytest.mark.parametrize("players", [2, 4])
def test_zero_plays_the_same_games_as_the_rulebook(players):
    assert _digest(players, **{k: 0 for k in KNOBS.values()}) == _digest(players)


def test_a_compensation_changes_the_games():
    """Not a no-op: the mission points change, and the bots (which read the tables) play on."""
    assert _digest(4, city_mission_4_points=8) != _digest(4)


def test_rules_step_by_step_use_the_compensated_table():
    rules = Rules(AAUParams(players=3, city_mission_2_points=4))
    st = rules.new(5)
    assert _tiers(st.b, 2) == [(c, p + 4) for c, p in CITY_TABLES[2]]
