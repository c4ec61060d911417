"""O.V.N.I. data files: the built-in files load, the route geometry matches the rulebook's
examples, and broken files give one-line UserErrors naming the file and the entry.

Rule and component numbers refer to docs/rules/ovni.md.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from simkit.errors import UserError
from simkit.games.ovni import data_model as dm
from simkit.games.ovni.params import OVNIParams
from simkit.params import build

BOARD_TEXT = dm.BUILTIN_BOARD.read_text(encoding="utf-8")
DECKS_TEXT = dm.BUILTIN_DECKS.read_text(encoding="utf-8")
COMPLETE = dm.DATA_DIR / "board_complete.toml"


@pytest.fixture(scope="module")
def board() -> dm.Board:
    return dm.load_board()


@pytest.fixture(scope="module")
def decks() -> dm.Decks:
    return dm.load_decks()


# ---- built-in files ------------------------------------------------------------------------
def test_builtin_board(board):
    assert board.version == "ovni-board-standin-1"
    assert [c.id for c in board.cities] == list(range(1, 13))
    # C1: numbers printed in the rulebook; the 2-player dummy maps cities 3, 6, 9, 12 (R19.3)
    assert [board.cities[i].name for i in range(3)] == ["São Paulo", "Washington", "Madrid"]
    assert sum(c.status == "standin" for c in board.cities) == 1  # C2: the 12th city
    assert len(board.routes) == 18
    assert len(board.planets) == 4 and len({p.distance for p in board.planets}) == 4
    assert {p.name for p in board.planets} == {"Antáris", "Éris", "Luxor", "Magnon"}


def test_builtin_decks(decks):
    assert decks.version == "ovni-decks-standin-1"
    assert (decks.aliens_per_class, decks.aliens_removed_small, decks.ufos_per_player, decks.launch_pad) == (20, 4, 8, 2)
    # C9: 16 cards, 3 aliens each, no card of three of one class, every class 12 times
    assert len(decks.alien_cards) == 16 and all(sum(c) == 3 and max(c) < 3 for c in decks.alien_cards)
    assert [sum(c[k] for c in decks.alien_cards) for k in range(4)] == [12, 12, 12, 12]
    assert len(set(decks.alien_cards)) == 16
    # C7: six kinds, three pieces each; the colours the rulebook names
    assert len(decks.humans) == 6 and all(h.pieces == 3 for h in decks.humans)
    colours = {h.colour: h.kind for h in decks.humans}
    assert colours["orange"] == "atleta" and colours["lilac"] == "artista" and colours["brown"] == "superdotado"
    assert len({h.colour for h in decks.humans}) == 6
    # C10: ten ability cards, one per effect
    assert sorted(a.effect for a in decks.abilities) == sorted(dm.EFFECTS)
    assert decks.abilities[decks.ability_index("extra_moves")].param("moves") == 2
    # C11-C15: sixteen missions, four of each kind
    assert Counter(m.kind for m in decks.missions) == {k: 4 for k in dm.MISSION_KINDS}
    m = decks.missions[0]
    assert (m.airspace_parity, m.airspace_cities, m.humans[decks.kind_index("politico")]) == ("even", 4, 2)
    assert decks.scoring["humans_same_kind"] == (1, 3, 6)
    assert (decks.scoring["mission_done"], decks.scoring["mission_failed"]) == (8, -5)


def test_complete_board_variant():
    b = dm.load_board(COMPLETE)
    assert len(b.routes) == 66
    assert all(b.adjacent(x, y) for x in range(1, 13) for y in range(1, 13) if x != y)
    assert [c.name for c in b.cities] == [c.name for c in dm.load_board().cities]


def test_renumbered_board_variant():
    """C3: the same cities and routes, cities 4-12 numbered the other way round; chosen by name."""
    a, b = dm.load_board(), dm.load_board("renumbered")
    assert b.path == dm.DATA_DIR / "board_renumbered.toml" and dm.load_board("complete").path == COMPLETE
    names_a = {c.id: c.name for c in a.cities}
    names_b = {c.id: c.name for c in b.cities}
    assert {k: names_b[k] for k in (1, 2, 3)} == {k: names_a[k] for k in (1, 2, 3)}
    assert all(names_b[16 - k] == names_a[k] for k in range(4, 13))
    assert {frozenset((names_a[x], names_a[y])) for x, y in a.routes} == {frozenset((names_b[x], names_b[y])) for x, y in b.routes}


def test_planets_reversed_board_variant():
    """C5b: the same board with the four distances in the opposite order; only the order of
    the distances reaches the engine (the rank, R3.1, R8.1), and it is reversed."""
    from simkit.games.ovni import board as board_mod
    a, b = dm.load_board(), dm.load_board("planets_reversed")
    assert b.path == dm.DATA_DIR / "board_planets_reversed.toml"
    assert [c.name for c in a.cities] == [c.name for c in b.cities] and a.routes == b.routes
    assert [p.name for p in a.planets] == [p.name for p in b.planets]
    assert sorted(p.distance for p in a.planets) == sorted(p.distance for p in b.planets)
    ranks = [board_mod.build(OVNIParams(board=x))[board_mod.B_DIST_RANK:board_mod.B_DIST_RANK + 4] for x in ("", "planets_reversed")]
    assert sorted(ranks[0]) == [0, 1, 2, 3] and list(ranks[1]) == [3 - r for r in ranks[0]]


def test_reassigned_decks_variant(decks):
    """C11b: every mission card's parameters differ from decks.toml, the kinds' requirements
    (the rulebook's) hold, each human kind, class and parity recurs evenly, and nothing but the
    missions changes."""
    v = dm.load_decks("reassigned")
    assert v.path == dm.DATA_DIR / "decks_reassigned.toml" and v.version != decks.version
    assert (v.alien_cards, v.humans, v.abilities, v.scoring) == (decks.alien_cards, decks.humans, decks.abilities, decks.scoring)
    assert [m.id for m in v.missions] == [m.id for m in decks.missions]
    assert [m.kind for m in v.missions] == [m.kind for m in decks.missions]
    assert all(m != n for m, n in zip(v.missions, decks.missions))
    text = dm.DATA_DIR.joinpath("decks_reassigned.toml").read_text(encoding="utf-8")
    body = text[text.index("[[missions]]"):]
    # the rulebook's requirements: 4 cities + 2 humans; 3 humans + 7; 3 captures + 5 + 5; 4-5 mappings + 6-7 UFOs
    assert body.count("cities = 4 }\nhumans") == 4 and body.count("= 7 }") == 4
    assert body.count("= 5, ") == 4 and body.count("cities = 4 }\nufos = 6") == 2 and body.count("cities = 5 }\nufos = 7") == 2
    kinds = Counter(k for line in body.splitlines() if line.startswith("humans") for k in line.split("[")[1].strip("]").replace('"', "").split(", "))
    assert set(kinds) == {h.kind for h in decks.humans} and sum(kinds.values()) == 20


def test_mixed_aliens_decks_variant(decks):
    """C9b: another alien-card mix keeping every known fact: 16 cards of 3, the review's PPA
    and PBM, no three of one class, every class on 12 cards; nothing else changes."""
    v = dm.load_decks("mixed_aliens")
    assert v.path == dm.DATA_DIR / "decks_mixed_aliens.toml" and v.version != decks.version
    assert (v.missions, v.humans, v.abilities, v.scoring) == (decks.missions, decks.humans, decks.abilities, decks.scoring)
    assert len(v.alien_cards) == 16 and all(sum(c) == 3 and max(c) < 3 for c in v.alien_cards)
    assert [sum(c[k] for c in v.alien_cards) for k in range(4)] == [12, 12, 12, 12]
    assert {"PPA", "PBM"} <= set(v.alien_labels) and Counter(v.alien_cards) != Counter(decks.alien_cards)
    assert sum(max(c) == 1 for c in v.alien_cards) == 8  # the inferred deck has 4 "three different" cards


def test_unknown_variant_name_is_one_line():
    with pytest.raises(UserError, match="no built-in decks variant 'nope' .*mixed_aliens, reassigned"):
        dm.load_decks("nope")
    with pytest.raises(UserError, match="complete, planets_reversed, renumbered"):
        dm.load_board("nope")


def test_load_with_params(tmp_path):
    custom = tmp_path / "b.toml"
    custom.write_text(BOARD_TEXT.replace('name = "Cairo"', 'name = "Johannesburg"'), encoding="utf-8")
    b, d = dm.load(OVNIParams(board=str(custom)))
    assert b.city("Johannesburg") == 7 and len(d.missions) == 16
    b, d = dm.load(OVNIParams(players=2))
    assert b.path == dm.BUILTIN_BOARD


def test_params_defaults_and_choices():
    p = build(OVNIParams, {}, "ovni")
    assert p.players == 4 and p.tie_rule == "earliest" and p.map_check == "each_move"
    p = build(OVNIParams, {"players": "2", "dummy_in_scoring": "blocks", "captured_in_scoring": "false"}, "ovni")
    assert (p.players, p.dummy_in_scoring, p.captured_in_scoring) == (2, "blocks", False)
    with pytest.raises(UserError):
        build(OVNIParams, {"tie_rule": "coin"}, "ovni")
    with pytest.raises(UserError):
        build(OVNIParams, {"players": "5"}, "ovni")


# ---- geometry (R9.2) against the rulebook's Pilots example -----------------------------------
def test_pilots_example_routes(board):
    """"1 movimento de Berlim a Paris, 2 movimentos de Berlim a Tóquio e 1 movimento de Moscou
    a Tóquio" (example E8): Berlin-Paris and Moscow-Tokyo are single steps, Berlin-Tokyo two."""
    berlin, paris, moscow, tokyo = (board.city(n) for n in ("Berlin", "Paris", "Moscow", "Tokyo"))
    assert board.adjacent(berlin, paris) and board.adjacent(paris, berlin)
    assert board.adjacent(moscow, tokyo)
    assert board.distance(berlin, tokyo) == 2
    assert any(board.adjacent(berlin, x) and board.adjacent(x, tokyo) for x in range(1, 13))
    assert board.distance(berlin, moscow) == 1  # the Berlin UFOs can fly on through Moscow


def test_neighbours_and_distances(board):
    assert board.neighbours(1) == (2, 3, 12)
    assert board.neighbours(10) == (2, 6, 9, 11)
    for c in range(1, 13):
        assert 2 <= len(board.neighbours(c)) <= 4
        assert board.distance(c, c) == 0
        for n in board.neighbours(c):
            assert c in board.neighbours(n) and board.distance(c, n) == 1
    dist = [board.distance(a, b) for a in range(1, 13) for b in range(1, 13)]
    assert max(dist) == 4 and min(dist) == 0
    m = board.adjacency()
    assert all(m[a][b] == m[b][a] for a in range(12) for b in range(12))
    assert sum(map(sum, m)) == 2 * len(board.routes)


# ---- broken files: one line naming file and entry --------------------------------------------
def _board_err(tmp_path: Path, text: str) -> str:
    f = tmp_path / "board.toml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as info:
        dm.load_board(f)
    msg = str(info.value)
    assert "\n" not in msg and str(f) in msg
    return msg


def _decks_err(tmp_path: Path, text: str) -> str:
    f = tmp_path / "decks.toml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as info:
        dm.load_decks(f)
    msg = str(info.value)
    assert "\n" not in msg and str(f) in msg
    return msg


def _drop_city(text: str, city_id: int) -> str:
    head, sep, rest = text.partition(f"[[cities]]\nid = {city_id}\n")
    return head + rest.partition("\n\n")[2]


@pytest.mark.parametrize(("change", "expect"), [
    (lambda t: _drop_city(t, 7), "cities: 11 cities"),
    (lambda t: t.replace("[11, 12], [12, 1],", "[11, 13], [12, 1],"), "routes[10]"),
    (lambda t: t.replace("[9, 11],   # Hong", "[9, 11], [11, 9],   # Hong"), "routes[17] (11, 9): route listed twice"),
    (lambda t: t.replace("[6, 10],   # Moscow", "[6, 6],   # Moscow"), "two different cities"),
    (lambda t: t.replace('status = "name"\n\n[[cities]]\nid = 5', 'status = "name"\ncolour = 1\n\n[[cities]]\nid = 5', 1), "cities[3] (id 4).colour: unknown key"),
    (lambda t: t.replace("id = 8\n", 'id = "8"\n'), "cities[7] (id 8).id"),
    (lambda t: t.replace('status = "standin"', 'status = "guess"'), "cities[6] (id 7).status"),
    (lambda t: t.replace("[6, 7], [7, 8],", "").replace("[3, 7],    # Mediterranean", ""), "city 7 (Cairo) cannot be reached"),
    (lambda t: t.replace("distance = 27.8", "distance = 32.2"), "planets[1] (name Éris)"),
    (lambda t: t.replace("distance = 27.8", 'distance = "far"'), "planets[1] (name Éris).distance"),
    (lambda t: t.replace('version = "ovni-board-standin-1"\n', ""), "version: is missing"),
])
def test_broken_board(tmp_path, change, expect):
    text = change(BOARD_TEXT)
    assert text != BOARD_TEXT
    assert expect in _board_err(tmp_path, text)


@pytest.mark.parametrize(("change", "expect"), [
    (lambda t: t.replace('"PPA", "PPB"', '"PPA", "PPX"'), "aliens[1]"),
    (lambda t: t.replace('effect = "swap_human"', 'effect = "teleport"'), "abilities[3] (name swap_human).effect"),
    (lambda t: t.replace("moves = 2 ", "speed = 2 "), "abilities[4] (name extra_moves)"),
    (lambda t: t.replace("min_pilots = 1 ", 'min_pilots = "one" '), "abilities[4] (name extra_moves).min_pilots"),
    (lambda t: t.replace('humans = ["politico", "politico"]', 'humans = ["politico", "astronaut"]'), "missions[0] (id M01).humans: unknown human kind 'astronaut'"),
    (lambda t: t.replace('mapped = { parity = "odd", cities = 4 }\n', ""), "missions[13] (id M14): a mapping_possession mission needs `mapped`"),
    (lambda t: t.replace('airspace = { parity = "odd", cities = 4 }\nhumans = ["cientista"', 'airspace = { parity = "odd", cities = 7 }\nhumans = ["cientista"'), "missions[1] (id M02).airspace: 7 cities but only 6 are odd"),
    (lambda t: t.replace("aliens = { pilots = 7 }", "aliens = { pilots = 70 }"), "missions[4] (id M05).aliens.pilots"),
    (lambda t: t.replace("ufos = 7\n", "ufos = 9\n", 1), "missions[12] (id M13).ufos: 9 UFOs"),
    (lambda t: t.replace('id = "M16"', 'id = "M15"'), "missions[15] (id M15): id used twice"),
    (lambda t: t.replace('colour = "white"\ncolour_status = "standin"\npieces = 3', 'colour = "white"\ncolour_status = "standin"\npieces = 2'), "humans[1] (kind cientista): pieces = 2"),
    (lambda t: t.replace("aliens_removed_small = 4 ", "aliens_removed_small = 20 "), "components.aliens_removed_small"),
    (lambda t: t.replace("launch_pad = 2 ", "launch_pad = 0 "), "components.launch_pad"),
    (lambda t: t.replace("humans_same_kind = [1, 3, 6]", "humans_same_kind = [1, 3]"), "scoring.humans_same_kind"),
    (lambda t: t.replace("mission_done = 8", "mission_done = true"), "scoring.mission_done"),
    (lambda t: t.replace('name = "ufo_worth_3"', 'name = "map_with_two"'), "abilities[9] (name map_with_two): name used twice"),
    (lambda t: t.replace("[scoring]", "[scoring]\nbonus = 1"), "scoring.bonus: unknown key"),
])
def test_broken_decks(tmp_path, change, expect):
    text = change(DECKS_TEXT)
    assert text != DECKS_TEXT
    assert expect in _decks_err(tmp_path, text)


def test_too_few_cards(tmp_path):
    text = DECKS_TEXT
    for mid in ("M13", "M14", "M15", "M16", "M12"):
        head, sep, rest = text.partition(f'[[missions]]\nid = "{mid}"\n')
        text = head + (rest.partition("\n\n")[2] if "\n\n" in rest else "")
    assert "missions: 11 cards" in _decks_err(tmp_path, text)


def test_missing_and_malformed_files(tmp_path):
    with pytest.raises(UserError) as info:
        dm.load_board(tmp_path / "nope.toml")
    assert "nope.toml" in str(info.value) and "\n" not in str(info.value)
    bad = tmp_path / "bad.toml"
    bad.write_text("cities = [", encoding="utf-8")
    with pytest.raises(UserError) as info:
        dm.load_decks(bad)
    assert "not valid TOML" in str(info.value)
