"""Ufo.O: board files, their loader, the hex geometry and the settings.

Rule and component numbers (R1.2, C4, ...) refer to docs/rules/ufo-o.md. No engine exists
yet; these tests cover what the engine will be built on.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections import deque
from pathlib import Path

import pytest

from simkit.errors import UserError
from simkit.games.ufoo import data_model as D
from simkit.games.ufoo import geometry as G
from simkit.games.ufoo.params import UfoOParams
from simkit.params import build, describe

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules" / "ufo-o.md"
COLS, ROWS = 9, 11


# --- the built-in boards -------------------------------------------------------------------


def test_builtin_board_loads():
    b = D.load()
    assert (b.cols, b.rows, b.n_cells) == (9, 11, 99)
    assert b.version == "ufoo-standin-2026.1"
    a, bb = b.motherships
    assert (a.index, a.name, a.cells, a.structure) == (0, "A", ((4, 0),), 5)  # the file's seat = 1
    assert a.launch == ((3, 0), (5, 0), (3, 1), (4, 1))
    assert (bb.index, bb.name, bb.cells, bb.structure) == (1, "B", ((4, 10),), 5)  # seat = 2
    assert bb.launch == ((3, 10), (5, 10), (3, 9), (4, 9))
    belt = {(0, 5), (1, 5), (3, 5), (5, 5), (7, 5), (8, 5)}
    outliers = {(2, 3), (6, 3), (2, 7), (6, 7)}
    assert b.asteroids == belt | outliers


def test_no_outliers_variant_differs_only_in_the_outliers():
    b, v = D.load(), D.load(D.NO_OUTLIERS)
    assert v.version == "ufoo-standin-no-outliers-2026.1"
    assert b.asteroids - v.asteroids == {(2, 3), (6, 3), (2, 7), (6, 7)}
    assert not v.asteroids - b.asteroids
    assert (v.cols, v.rows, v.motherships) == (b.cols, b.rows, b.motherships)


BELT = D.DATA / "board-belt-1-4-7.toml"
LONG = D.DATA / "board-13-rows.toml"
BOARDS = [D.BUILTIN, D.NO_OUTLIERS, BELT, LONG]


@pytest.mark.parametrize("name,path", [("no-outliers", D.NO_OUTLIERS), ("belt-1-4-7", BELT), ("13-rows", LONG)])
def test_variants_load_by_name(name, path):
    from simkit.games.ufoo import board as board_mod

    params = UfoOParams(board=name)
    assert board_mod.board_path(params) == path
    assert board_mod.load(params).version == D.load(path).version != D.load().version


def test_unknown_variant_name_is_one_line_listing_the_builtin_ones():
    from simkit.games.ufoo import board as board_mod

    with pytest.raises(UserError, match=r"^no built-in Ufo.O board variant 'nope' \(built-in: 13-rows, belt-1-4-7, no-outliers\)") as info:
        board_mod.board_path(UfoOParams(board="nope"))
    assert "\n" not in str(info.value)


def test_belt_variant_differs_only_in_the_belt_gaps():
    """C7b: row 5's gaps at columns 1, 4, 7 instead of 2, 4, 6; nothing else changes."""
    b, v = D.load(), D.load(BELT)
    assert b.asteroids - v.asteroids == {(1, 5), (7, 5)}
    assert v.asteroids - b.asteroids == {(2, 5), (6, 5)}
    assert [c for c in range(v.cols) if (c, 5) not in v.asteroids] == [1, 4, 7]
    assert (v.cols, v.rows, v.motherships) == (b.cols, b.rows, b.motherships)


def test_13_rows_variant_keeps_both_halves_and_moves_the_belt_to_the_middle():
    """C1b: 9 x 13; rows 0-4 are the stand-in's rows 0-4, rows 8-12 its rows 6-10 (moved by 2,
    so row parities and every neighbourhood are kept), the belt's columns in row 6."""
    b, v = D.load(), D.load(LONG)
    assert (v.cols, v.rows, v.n_cells) == (9, 13, 117)
    assert {a for a in v.asteroids if a[1] <= 4} == {a for a in b.asteroids if a[1] <= 4}
    assert {(c, r - 2) for c, r in v.asteroids if r >= 8} == {a for a in b.asteroids if a[1] >= 6}
    assert {c for c, r in v.asteroids if r == 6} == {c for c, r in b.asteroids if r == 5}
    assert not {a for a in v.asteroids if a[1] in (5, 7)}
    assert v.motherships[0] == b.motherships[0]
    vb, bb = v.motherships[1], b.motherships[1]
    assert vb.cells == tuple((c, r + 2) for c, r in bb.cells) and vb.launch == tuple((c, r + 2) for c, r in bb.launch)


@pytest.mark.parametrize("name,steps,gap_steps,exposed", [("", 8, (4, 4, 4), 28), ("belt-1-4-7", 8, (5, 4, 5), 21),
                                                         ("13-rows", 10, (5, 5, 5), 13)])
def test_the_engine_computes_the_distances_the_doc_gives(name, steps, gap_steps, exposed):
    """The figures the doc quotes for each board (C1b, C7b), from the engine's board vector:
    the steps from A's launch hexes to B's and to each of the belt's three gaps; that a first
    move reaches row 6 at most; and on how many of the cells it reaches the second player can
    fire in its turn 1 (from a cell it reaches, on a line of fire as far as terrain goes)."""
    from simkit.games.ufoo import board as board_mod

    params = UfoOParams(board=name)
    bd, vec = board_mod.load(params), board_mod.build(params)
    n = bd.n_cells
    assert int(vec[board_mod.B_NCELLS]) == n
    home = lambda seat, i: int(vec[board_mod.B_HOME_DIST + seat * board_mod.MAX_CELLS + i])  # noqa: E731
    a, b = bd.motherships
    assert min(home(0, G.index(c, bd.cols)) for c in b.launch) == min(home(1, G.index(c, bd.cols)) for c in a.launch) == steps
    belt = (bd.rows - 1) // 2
    gaps = [(c, belt) for c in range(bd.cols) if (c, belt) not in bd.asteroids]
    assert tuple(home(0, G.index(g, bd.cols)) for g in gaps) == gap_steps

    def fire(i):
        words = vec[board_mod.B_FIRE_MASK + i * board_mod.MASK_WORDS:][:board_mod.MASK_WORDS]
        bits = sum((int(w) & 0xFFFF_FFFF) << (32 * k) for k, w in enumerate(words))
        return {j for j in range(n) if bits >> j & 1}

    first = {i for i in range(n) if home(0, i) <= 5}
    answer = {i for i in range(n) if home(1, i) <= 5}
    assert max(i // bd.cols for i in first) == 6
    assert len(first & set().union(*(fire(u) for u in answer))) == exposed


@pytest.mark.parametrize("path", BOARDS)
def test_launch_hexes_are_the_four_neighbours_of_the_picture(path):
    """C4: a mothership on the middle of an edge row has exactly 4 neighbours."""
    b = D.load(path)
    for m in b.motherships:
        (cell,) = m.cells
        assert set(G.neighbours(cell, b.cols, b.rows)) == set(m.launch)
        assert len(m.launch) == 4
        assert all(not b.blocked(c) for c in m.launch)


@pytest.mark.parametrize("path", BOARDS)
def test_board_is_its_own_mirror_image(path):
    """C10: row r <-> rows-1-r maps the grid, the asteroids and A <-> B (UFO k <-> UFO k)."""
    b = D.load(path)
    assert {G.mirror(c, b.rows) for c in b.asteroids} == b.asteroids
    a, bb = b.motherships
    assert tuple(G.mirror(c, b.rows) for c in a.launch) == bb.launch
    assert tuple(G.mirror(c, b.rows) for c in a.cells) == bb.cells
    # a symmetry of the grid: adjacency is preserved
    for r in range(b.rows):
        for c in range(b.cols):
            mirrored = {G.mirror(n, b.rows) for n in G.neighbours((c, r), b.cols, b.rows)}
            assert mirrored == set(G.neighbours(G.mirror((c, r), b.rows), b.cols, b.rows))


def test_builtin_files_are_json_equivalent(tmp_path):
    """The loader reads JSON too (by the file's ending)."""
    doc = tomllib.loads(D.BUILTIN.read_text())
    p = tmp_path / "board.json"
    p.write_text(json.dumps(doc))
    assert D.load(p).asteroids == D.load().asteroids


# --- hex geometry (R1.2) ---------------------------------------------------------------------


def test_steps_follow_the_direction_table():
    # even row: E, NE, NW, W, SW, SE
    assert [G.step((4, 4), d) for d in range(6)] == [(5, 4), (4, 3), (3, 3), (3, 4), (3, 5), (4, 5)]
    # odd row (shifted east)
    assert [G.step((4, 5), d) for d in range(6)] == [(5, 5), (5, 4), (4, 4), (3, 5), (4, 6), (5, 6)]


def test_opposite_directions_undo_each_other():
    for r in range(ROWS):
        for c in range(COLS):
            for d in range(6):
                assert G.step(G.step((c, r), d), (d + 3) % 6) == (c, r)


def test_neighbours_at_the_edges_and_corners():
    assert G.neighbours((4, 0), COLS, ROWS) == [(5, 0), (3, 0), (3, 1), (4, 1)]  # mothership A
    assert set(G.neighbours((4, 10), COLS, ROWS)) == {(3, 10), (5, 10), (3, 9), (4, 9)}  # B
    assert set(G.neighbours((0, 0), COLS, ROWS)) == {(1, 0), (0, 1)}
    assert set(G.neighbours((8, 1), COLS, ROWS)) == {(8, 0), (7, 1), (8, 2)}  # odd row, east edge
    assert set(G.neighbours((0, 1), COLS, ROWS)) == {(1, 1), (0, 0), (1, 0), (0, 2), (1, 2)}
    assert len(G.neighbours((4, 4), COLS, ROWS)) == 6


def test_adjacency_is_symmetric_and_matches_distance_one():
    cells = [(c, r) for r in range(ROWS) for c in range(COLS)]
    for a in cells:
        ns = set(G.neighbours(a, COLS, ROWS))
        for b in cells:
            assert (b in ns) == (G.distance(a, b) == 1) == G.adjacent(a, b)


def test_distance_is_the_number_of_steps_on_an_open_grid():
    """Cube distance equals breadth-first steps (on a grid large enough not to bend paths)."""
    big = 30
    src = (15, 15)
    dist = {src: 0}
    todo = deque([src])
    while todo:
        c = todo.popleft()
        for n in G.neighbours(c, big, big):
            if n not in dist:
                dist[n] = dist[c] + 1
                todo.append(n)
    for cell, d in dist.items():
        assert G.distance(src, cell) == d
        x, y, z = G.to_cube(cell)
        assert x + y + z == 0


def test_line2_from_the_centre():
    """R5.1: the 6 straight-line targets at distance 2 and the hex in between."""
    got = {(t, m) for _, m, t in G.line2((4, 4), COLS, ROWS)}
    assert got == {((6, 4), (5, 4)), ((5, 2), (4, 3)), ((3, 2), (3, 3)),
                   ((2, 4), (3, 4)), ((3, 6), (3, 5)), ((5, 6), (4, 5))}
    # from an odd row
    got = {(t, m) for _, m, t in G.line2((4, 5), COLS, ROWS)}
    assert got == {((6, 5), (5, 5)), ((5, 3), (5, 4)), ((3, 3), (4, 4)),
                   ((2, 5), (3, 5)), ((3, 7), (4, 6)), ((5, 7), (5, 6))}


def test_line2_near_the_edge_lists_only_targets_on_the_grid():
    assert {t for _, _, t in G.line2((4, 1), COLS, ROWS)} == {(6, 1), (2, 1), (3, 3), (5, 3)}
    assert {t for _, _, t in G.line2((0, 0), COLS, ROWS)} == {(2, 0), (1, 2)}


def test_ring2_has_12_cells_6_of_them_straight():
    ring = G.ring2((4, 4), COLS, ROWS)
    assert len(ring) == 12
    straight = [c for c in ring if G.straight((4, 4), c)]
    assert set(straight) == {t for _, _, t in G.line2((4, 4), COLS, ROWS)}


def test_between_straight_and_off_line():
    assert G.between((4, 4), (6, 4)) == [(5, 4)]
    assert G.between((3, 4), (4, 6)) == [(3, 5)]  # straight SE, across the belt's asteroid
    assert set(G.between((4, 4), (4, 6))) == {(3, 5), (4, 5)}  # off line: the two shared neighbours
    assert set(G.between((4, 4), (4, 2))) == {(4, 3), (3, 3)}
    with pytest.raises(ValueError):
        G.between((4, 4), (5, 4))


def test_middle_of_two_cells_on_the_grid_is_on_the_grid():
    """On a rectangular grid the hex in between never falls off the board (R5.3 needs it)."""
    for r in range(ROWS):
        for c in range(COLS):
            for d, mid, tgt in G.line2((c, r), COLS, ROWS):
                assert G.on_grid(mid, COLS, ROWS)
                assert G.between((c, r), tgt) == [mid]
                assert G.direction((c, r), tgt) == d


def test_index_round_trip():
    for r in range(ROWS):
        for c in range(COLS):
            assert G.cell_of(G.index((c, r), COLS), COLS) == (c, r)
    assert G.index((4, 10), COLS) == 94


def _in_fire(b, s, t, *, any_line=False):
    """The R5.1/R5.3 test with only asteroids blocking (the default settings)."""
    if G.distance(s, t) != 2:
        return False
    if not any_line and not G.straight(s, t):
        return False
    mids = G.between(s, t)
    return not all(m in b.asteroids for m in mids)


def test_rulebook_scenario_1_line_of_fire_on_the_stand_in():
    """Scenario 1 of the doc: which enemies a UFO at (4,4) can attack."""
    b = D.load()
    ring = [c for c in G.ring2((4, 4), b.cols, b.rows) if not b.blocked(c)]
    assert set(ring) == {(3, 2), (4, 2), (5, 2), (5, 3), (2, 4), (6, 4), (2, 5), (3, 6), (4, 6), (5, 6)}
    assert {t for t in ring if _in_fire(b, (4, 4), t)} == {(5, 2), (3, 2), (2, 4), (6, 4), (5, 6)}
    assert {t for t in ring if _in_fire(b, (4, 4), t, any_line=True)} == set(ring) - {(3, 6)}
    # never adjacent
    assert not any(_in_fire(b, (4, 4), n) for n in b.neighbours((4, 4)))


def test_asteroids_touch_every_open_hex_of_the_centre_band():
    """C7 consequence quoted in the doc: the belt's row and the rows either side of it are all
    next to an asteroid (rows 4-6; rows 5-7 on the 13-row board)."""
    for path in BOARDS:
        b = D.load(path)
        belt = (b.rows - 1) // 2
        for r in (belt - 1, belt, belt + 1):
            for c in range(b.cols):
                if not b.blocked((c, r)):
                    assert b.next_to_asteroid((c, r)), (path.name, c, r)


# --- broken files: one-line errors naming file and entry ---------------------------------------


def _doc() -> dict:
    return tomllib.loads(D.BUILTIN.read_text())


def _error(tmp_path, doc, name="bad.toml") -> str:
    p = tmp_path / name
    p.write_text(json.dumps(doc) if name.endswith(".json") else _toml(doc))
    with pytest.raises(UserError) as info:
        D.load(p)
    msg = str(info.value)
    assert "\n" not in msg
    assert str(p) in msg
    return msg


def _toml(doc: dict) -> str:
    """A minimal TOML writer for the board's shape (no library writes TOML here)."""

    def val(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        raise TypeError(v)

    lines = [f"{k} = {val(v)}" for k, v in doc.items() if not isinstance(v, (dict, list)) or
             (isinstance(v, list) and not (v and isinstance(v[0], dict)))]
    for k, v in doc.items():
        if isinstance(v, dict):
            lines.append(f"[{k}]")
            lines += [f"{kk} = {val(vv)}" for kk, vv in v.items()]
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            for item in v:
                lines.append(f"[[{k}]]")
                lines += [f"{kk} = {val(vv)}" for kk, vv in item.items()]
    return "\n".join(lines) + "\n"


def test_toml_writer_round_trips_the_builtin(tmp_path):
    p = tmp_path / "same.toml"
    p.write_text(_toml(_doc()))
    assert D.load(p).asteroids == D.load().asteroids


def test_unknown_top_level_key(tmp_path):
    doc = _doc()
    doc["asteroid"] = [[1, 1]]
    assert "asteroid: unknown key" in _error(tmp_path, doc)


def test_unknown_mothership_key(tmp_path):
    doc = _doc()
    doc["motherships"][1]["shields"] = 3
    assert "motherships[1].shields: unknown key" in _error(tmp_path, doc)


def test_wrong_type(tmp_path):
    doc = _doc()
    doc["grid"]["rows"] = "11"
    assert "grid.rows:" in _error(tmp_path, doc, "bad.json")


def test_bool_is_not_an_integer(tmp_path):
    doc = _doc()
    doc["motherships"][0]["structure"] = True
    assert "motherships[0].structure:" in _error(tmp_path, doc)


def test_missing_version(tmp_path):
    doc = _doc()
    del doc["version"]
    assert "version: missing" in _error(tmp_path, doc)


def test_absurd_grid_size(tmp_path):
    doc = _doc()
    doc["grid"]["cols"] = 200
    assert "grid.cols:" in _error(tmp_path, doc)
    doc["grid"]["cols"], doc["grid"]["rows"] = 12, 12
    assert "at most 128" in _error(tmp_path, doc)


def test_cell_is_a_pair(tmp_path):
    doc = _doc()
    doc["asteroids"][2] = [1, 2, 3]
    assert "asteroids[2]: a cell is written [col, row]" in _error(tmp_path, doc)


def test_asteroid_off_the_grid(tmp_path):
    doc = _doc()
    doc["asteroids"].append([9, 5])
    assert "asteroids[10]: [9, 5] is off the 9 x 11 grid" in _error(tmp_path, doc)


def test_asteroid_listed_twice(tmp_path):
    doc = _doc()
    doc["asteroids"].append([3, 5])
    assert "asteroids[10]: [3, 5] is listed twice" in _error(tmp_path, doc)


def test_launch_hex_on_an_asteroid(tmp_path):
    doc = _doc()
    doc["asteroids"].append([4, 1])
    assert "motherships[0].launch[3]: [4, 1] is also an asteroid" in _error(tmp_path, doc)


def test_launch_hex_not_touching_the_picture(tmp_path):
    doc = _doc()
    doc["motherships"][1]["launch"][2] = [2, 9]
    assert "motherships[1].launch[2]: [2, 9] does not touch" in _error(tmp_path, doc)


def test_launch_hex_shared(tmp_path):
    doc = _doc()
    doc["motherships"][1]["cells"] = []
    doc["motherships"][1]["launch"][0] = [3, 1]
    assert "motherships[1].launch[0]: [3, 1] is already used by motherships[0].launch[2]" in _error(tmp_path, doc)


def test_three_launch_hexes(tmp_path):
    doc = _doc()
    doc["motherships"][0]["launch"].pop()
    assert "motherships[0].launch: needs exactly 4 launch hexes" in _error(tmp_path, doc)


def test_two_motherships_for_one_seat(tmp_path):
    doc = _doc()
    doc["motherships"][1]["seat"] = 1
    assert "motherships: needs one mothership for seat 1 and one for seat 2, got seats [1, 1]" in _error(tmp_path, doc)


@pytest.mark.parametrize("seat", [0, 3])
def test_seats_are_numbered_from_1(tmp_path, seat):
    doc = _doc()
    doc["motherships"][0]["seat"] = seat
    assert f"motherships[0].seat: must be 1 or 2 (the seat that plays this mothership; seats are numbered from 1), got {seat}" in _error(tmp_path, doc)


def test_the_file_order_of_the_motherships_does_not_matter(tmp_path):
    doc = _doc()
    doc["motherships"].reverse()
    p = tmp_path / "reversed.toml"
    p.write_text(_toml(doc))
    assert D.load(p).motherships == D.load().motherships


def test_one_mothership_only(tmp_path):
    doc = _doc()
    doc["motherships"].pop()
    assert "motherships: needs exactly 2 motherships" in _error(tmp_path, doc)


def test_fleets_that_can_never_meet(tmp_path):
    doc = _doc()
    doc["asteroids"] += [[2, 5], [4, 5], [6, 5]]  # close the belt's gaps
    assert "asteroids: no path of open hexes joins" in _error(tmp_path, doc)


def test_not_toml(tmp_path):
    p = tmp_path / "broken.toml"
    p.write_text("version = \n")
    with pytest.raises(UserError, match="not valid TOML"):
        D.load(p)


def test_missing_file(tmp_path):
    with pytest.raises(UserError, match="cannot read Ufo.O board file"):
        D.load(tmp_path / "nope.toml")


def test_off_board_mothership_picture_is_allowed(tmp_path):
    """A picture printed beside the grid: no cells, launch hexes anywhere open."""
    doc = _doc()
    doc["motherships"][0]["cells"] = []
    p = tmp_path / "off.toml"
    p.write_text(_toml(doc))
    b = D.load(p)
    assert b.motherships[0].cells == ()
    assert not b.blocked((4, 0))


# --- settings -----------------------------------------------------------------------------


def test_defaults_and_check():
    p = UfoOParams()
    assert p.check() == ""
    assert build(UfoOParams, {"push_path": "away"}, "ufoo").push_path == "away"
    with pytest.raises(UserError, match="push_path=away needs fire_lines=straight"):
        build(UfoOParams, {"push_path": "away", "fire_lines": "any"}, "ufoo")
    with pytest.raises(UserError):
        build(UfoOParams, {"launch_cost": "2"}, "ufoo")


def test_every_setting_is_in_the_doc_table_with_its_default():
    """The settings table of docs/rules/ufo-o.md and params.py name the same settings and defaults."""
    text = DOC.read_text()
    section = text[text.index("**Settings**"):text.index("**Coordinates and numbering.**")]
    table = dict(re.findall(r"^\| `(\w+)` \| ([^|]+) \|", section, re.M))
    infos = {i.name: i for i in describe(UfoOParams)}
    assert set(table) == set(infos)
    for name, info in infos.items():
        shown = table[name].strip().strip("`")
        if name == "board":
            assert info.default == ""
            continue
        expected = str(info.default).lower() if isinstance(info.default, bool) else str(info.default)
        assert shown == expected, name
        if info.choices:
            for c in info.choices:
                assert f"`{c}`" in text, (name, c)
        assert info.help


def test_every_ambiguity_cited_by_a_setting_exists_in_the_doc():
    text = DOC.read_text()
    for info in describe(UfoOParams):
        for ref in re.findall(r"\bA\d+\b", info.help):
            assert f"**{ref} —" in text, (info.name, ref)
