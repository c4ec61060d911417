"""Escape From the Aliens: data files, their loader and the map geometry (docs/rules/eftaios.md R1, R2, C1-C14)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from simkit.errors import UserError
from simkit.games.eftaios import data_model as dm
from simkit.games.eftaios.params import EftaiosParams
from simkit.params import build, describe

MAPS = dm.BUILTIN_MAPS
S = dm.sector_id
N = dm.sector_name


def names(ids) -> set[str]:
    return {N(i) for i in ids}


@pytest.fixture(scope="module")
def galilei() -> dm.GameMap:
    return dm.load_map("galilei")


# Movement predicates of the default readings (R4.7): safe and dangerous sectors are open;
# humans may end on open hatches; nobody passes start sectors or hatches.
def open_sector(m):
    return lambda s: m.kind[s] in (dm.SAFE, dm.DANGER)


def human_end(m):
    return lambda s: m.kind[s] in (dm.SAFE, dm.DANGER, dm.HATCH)


# ------------------------------------------------------------------ coordinates

def test_sector_names_round_trip():
    assert S("A01") == 0 and S("A02") == 1 and S("B01") == 14 and S("W14") == 321
    assert S("D09") == 50 and N(50) == "D09" and S("d09") == 50
    assert all(S(N(i)) == i for i in range(dm.NCELLS))
    for bad in ("D9", "X01", "D15", "D00", "DD9", ""):
        with pytest.raises(ValueError):
            S(bad)


def test_column_shift_rule():
    # B, D, ... are drawn half a hex lower: B01 sits between A01 and A02 (C4).
    assert names(dm.adjacent_cells(S("B01"))) == {"B02", "A01", "A02", "C01", "C02"}
    assert names(dm.adjacent_cells(S("B02"))) == {"B01", "B03", "A02", "A03", "C02", "C03"}
    assert names(dm.adjacent_cells(S("C05"))) == {"C04", "C06", "B04", "B05", "D04", "D05"}
    # Corners of the sheet stay inside the grid.
    assert names(dm.adjacent_cells(S("A01"))) == {"A02", "B01"}
    assert names(dm.adjacent_cells(S("W14"))) == {"W13", "V13", "V14"}
    # Adjacency is symmetric everywhere.
    for i in range(dm.NCELLS):
        for j in dm.adjacent_cells(i):
            assert i in dm.adjacent_cells(j)


# ------------------------------------------------------------------ the rulebook's examples

def test_rulebook_d09_neighbours(galilei):
    # E1: "Silvano Porpora ... está no Sector D09 ... Pode mover-se para D08, D10, C09, C10, E10 ou E09".
    d09 = S("D09")
    assert names(galilei.neighbours(d09)) == {"D08", "D10", "C09", "C10", "E09", "E10"}
    assert sorted(galilei.neighbours(d09)) == [36, 37, 49, 51, 64, 65]
    assert names(galilei.reach(d09, 1, open_sector(galilei), human_end(galilei))) == {
        "D08", "D10", "C09", "C10", "E09", "E10"}


def test_rulebook_d08_dangerous_d10_safe(galilei):
    # E2: D08 is dangerous (a card is drawn), D10 is safe ("não teria de biscar uma carta").
    assert galilei.kind[S("D08")] == dm.DANGER
    assert galilei.kind[S("D10")] == dm.SAFE
    assert galilei.kind[S("D09")] == dm.DANGER
    # E3: the bluffed "Ruído no Sector N10" names a sector with coordinates.
    assert galilei.kind[S("N10")] in (dm.SAFE, dm.DANGER)


def test_rulebook_attack_reach(galilei):
    # E4: an alien two steps from D08 can end there (C07 -> C08 -> D08, D10 -> D09 -> D08).
    for start in ("C07", "D10"):
        assert S("D08") in galilei.reach(S(start), 2, open_sector(galilei))
        assert S("D08") not in galilei.reach(S(start), 1, open_sector(galilei))


def test_rulebook_adrenaline_reaches_hatch_3(galilei):
    # E5: "Julia Niguloti está no sector T13 ... avançar dois Sectores ... alcança a Escotilha de Saída 3".
    t13, v13 = S("T13"), S("V13")
    assert galilei.hatches[2] == v13 and galilei.hatch_number[v13] == 3
    assert v13 not in galilei.reach(t13, 1, open_sector(galilei), human_end(galilei))
    assert v13 in galilei.reach(t13, 2, open_sector(galilei), human_end(galilei))
    assert v13 in galilei.reach(t13, 2, open_sector(galilei), human_end(galilei), exact=True)
    assert galilei.distances(t13, open_sector(galilei), human_end(galilei))[v13] == 2
    # Aliens never end on a hatch (R4.5).
    assert v13 not in galilei.reach(t13, 3, open_sector(galilei))


def test_spotlight_area(galilei):
    # T1: a spotlight on D08 lights D08 and its neighbours, not D10.
    lit = {S("D08")} | set(galilei.neighbours(S("D08")))
    assert names(lit) == {"D08", "D09", "C08", "C09", "E08", "E09"}  # D07 is void
    assert S("D10") not in lit


# ------------------------------------------------------------------ built-in maps

EXPECTED = {  # R2.5 / C1-C3: S, D, hatches, void; alien start, human start, hatches 1-4
    "galilei": ((79, 191, 4, 46), "L06", "L08", ("B02", "V02", "V13", "B13")),
    "fermi": ((33, 15, 4, 268), "L09", "L10", ("J05", "N05", "J01", "N01")),
    "galvani": ((31, 150, 4, 135), "L06", "L08", ("F01", "P01", "V11", "B10")),
}


@pytest.mark.parametrize("name", MAPS)
def test_builtin_maps_load(name):
    m = dm.load_map(name)
    counts, alien, human, hatches = EXPECTED[name]
    assert (m.count(dm.SAFE), m.count(dm.DANGER), m.count(dm.HATCH), m.count(dm.VOID)) == counts
    assert m.count(dm.HUMAN_START) == 1 and m.count(dm.ALIEN_START) == 1
    assert N(m.alien_start) == alien and N(m.human_start) == human
    assert tuple(N(h) for h in m.hatches) == hatches
    assert m.name.lower() == name and m.version.startswith("eftaios-black-")


@pytest.mark.parametrize("name", MAPS)
def test_builtin_maps_connected(name):
    m = dm.load_map(name)
    everything = m.distances(m.human_start, lambda s: True)
    assert set(everything) | {m.human_start} == set(m.sectors())


def test_human_distances_to_hatches():
    # Derived facts (C-section): shortest human walks from the Human sector.
    expected = {"galilei": (11, 12), "fermi": (9, 14), "galvani": (14, 15)}
    for name, (lo, hi) in expected.items():
        m = dm.load_map(name)
        d = m.distances(m.human_start, open_sector(m), human_end(m))
        steps = [d[h] for h in m.hatches]
        assert min(steps) == lo and max(steps) == hi, (name, steps)
    fermi = dm.load_map("fermi")
    d = fermi.distances(fermi.human_start, open_sector(fermi), human_end(fermi))
    assert [d[h] for h in fermi.hatches] == [9, 9, 14, 14]


@pytest.mark.parametrize("name", MAPS)
def test_nobody_is_ever_stuck(name):
    # R4.2: outside Arena with closed safe sectors, every sector has a way out, even with
    # every hatch closed, for a human (1 step) and an alien (1-2 steps).
    m = dm.load_map(name)
    for s in m.sectors():
        assert m.reach(s, 1, open_sector(m)), N(s)
        assert m.reach(s, 2, open_sector(m)), N(s)


def test_start_sectors_closed(galilei):
    # R4.4: the start sectors are neither passable nor enterable; aliens leave L06 for L05, K06, M06.
    a = galilei.alien_start
    assert names(galilei.reach(a, 1, open_sector(galilei))) == {"L05", "K06", "M06"}
    # Two steps from the human start never pass through the alien start.
    reach = galilei.reach(galilei.human_start, 2, open_sector(galilei))
    assert a not in reach and galilei.human_start not in reach


def test_fed_alien_range(galilei):
    # R9: three steps reach further than two; at most 36 sectors within three steps.
    for s in galilei.sectors():
        r2 = galilei.reach(s, 2, open_sector(galilei))
        r3 = galilei.reach(s, 3, open_sector(galilei))
        assert r2 <= r3 and len(r3) <= 36
    assert len(galilei.reach(S("J10"), 3, open_sector(galilei))) > len(galilei.reach(S("J10"), 2, open_sector(galilei)))


def test_exact_two_steps(galilei):
    # A7 exact reading: a walk of exactly two steps can end next to the start, never on it.
    s = S("D09")
    exact = galilei.reach(s, 2, open_sector(galilei), exact=True)
    upto = galilei.reach(s, 2, open_sector(galilei))
    assert s not in exact and exact <= upto
    assert S("D08") in exact  # D09 -> C09 -> D08 (C09 and D08 are adjacent)


def test_hatch_transit_matters_for_aliens(galilei):
    # A1: letting aliens pass through open hatches changes some reaches.
    hatch_pass = lambda s: galilei.kind[s] in (dm.SAFE, dm.DANGER, dm.HATCH)  # noqa: E731
    a02 = S("A02")
    without = galilei.reach(a02, 2, open_sector(galilei))
    with_transit = galilei.reach(a02, 2, hatch_pass, open_sector(galilei))
    assert names(with_transit - without) == {"C03"}  # A02 -> B02 (hatch 1) -> C03


# ------------------------------------------------------------------ cards

def test_builtin_cards():
    c = dm.load_cards()
    assert len(c.characters) == 8 and c.humans() == [0, 1, 2, 3] and c.aliens() == [4, 5, 6, 7]
    assert [ch.role for ch in c.characters[:4]] == ["captain", "pilot", "psychologist", "soldier"]
    assert c.characters[7].name == "Paolo Landon"
    assert len(c.danger) == 25
    kinds = [d.kind for d in c.danger]
    assert (kinds.count("noise_here"), kinds.count("noise_any"), kinds.count("silence")) == (10, 10, 5)
    assert [i for i, d in enumerate(c.danger) if d.item] == [0, 1, 2, 3, 10, 11, 12, 13]
    assert not any(d.item for d in c.danger if d.kind == "silence")
    assert c.items == ("attack",) * 2 + ("teleport",) * 2 + ("adrenaline",) * 2 + ("sedatives",) * 3 + ("spotlight",) * 2 + ("defence",)
    assert c.hatch == ("green",) * 3 + ("red",) * 3


def test_sides_per_player_count():
    # R1.2 (and the Spanish example: 6 players -> 3 + 3).
    sides = {n: (n // 2, (n + 1) // 2) for n in range(2, 9)}
    assert sides[6] == (3, 3) and sides[5] == (2, 3) and sides[7] == (3, 4) and sides[2] == (1, 1)
    c = dm.load_cards()
    assert all(h <= len(c.humans()) and a <= len(c.aliens()) for h, a in sides.values())


# ------------------------------------------------------------------ params

def test_params_defaults_and_help():
    p = build(EftaiosParams, {}, "eftaios")
    assert (p.map, p.players, p.mode, p.scenario, p.max_rounds) == ("galilei", 6, "advanced", "none", 39)
    for info in describe(EftaiosParams):
        assert info.help
    q = build(EftaiosParams, {"max_rounds": "40", "scenario": "arena", "defence_scope": "attack"}, "eftaios")
    assert q.max_rounds == 40 and q.scenario == "arena"
    with pytest.raises(UserError):
        build(EftaiosParams, {"players": "9"}, "eftaios")
    with pytest.raises(UserError):
        build(EftaiosParams, {"map": "kepler"}, "eftaios")


def test_params_match_the_doc(root):
    # Every reading setting named A<k> in params.py is the setting of row A<k> in the doc.
    doc = (root / "docs" / "rules" / "eftaios.md").read_text()
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| (A\d+) \|.*$", doc, re.M)}
    for f in dataclasses.fields(EftaiosParams):
        m = re.match(r"(A\d+)\b", f.metadata["help"])
        if m:
            assert m.group(1) in rows, f.name
            assert f"`{f.name}=" in rows[m.group(1)], (f.name, m.group(1))


# ------------------------------------------------------------------ broken files



def write_map(tmp_path: Path, grid: list[str], extra: str = "", header: str = 'version = "t1"\nname = "T"\n') -> str:
    p = tmp_path / "map.toml"
    body = ",\n".join(f'  "{row}"' for row in grid)
    p.write_text(f"{header}{extra}grid = [\n{body}\n]\n")
    return str(p)


def galilei_rows() -> list[str]:
    import tomllib
    return tomllib.loads((dm.MAPS_DIR / "galilei.toml").read_text())["grid"]


def one_line_error(fn, *args) -> str:
    with pytest.raises(UserError) as exc:
        fn(*args)
    msg = str(exc.value)
    assert "\n" not in msg
    return msg


def test_user_map_loads(tmp_path):
    m = dm.load_map(write_map(tmp_path, galilei_rows()))
    assert m.count(dm.DANGER) == 191 and m.name == "T"


@pytest.mark.parametrize("mutate, expected", [
    (lambda g: g[:13], r"grid: 13 rows, expected 14"),
    (lambda g: g[:8] + [g[8][:-1]] + g[9:], r"grid row 09: 22 characters, expected 23"),
    (lambda g: g[:8] + ["X" + g[8][1:]] + g[9:], r"grid sector A09: unknown character 'X'"),
    (lambda g: g[:8] + [g[8][:3] + "H" + g[8][4:]] + g[9:], r"grid sector (D09|L08): a second human start sector"),
    (lambda g: [r.replace("A", "S") for r in g], r"grid: no alien start sector"),
    (lambda g: [r.replace("1", "D").replace("2", "D").replace("3", "D").replace("4", "D") for r in g], r"grid: no escape hatch"),
    (lambda g: [r.replace("4", "3") for r in g], r"hatch 3 appears twice"),
])
def test_broken_maps(tmp_path, mutate, expected):
    msg = one_line_error(dm.load_map, write_map(tmp_path, mutate(galilei_rows())))
    assert str(tmp_path / "map.toml") in msg
    assert re.search(expected, msg), msg


def test_unreachable_hatch(tmp_path):
    g = galilei_rows()
    # Wall in hatch 1 (B02) by voiding its six neighbours.
    cells = {S(x) for x in ("B01", "B03", "A02", "C02", "A03", "C03")}
    rows = [list(r) for r in g]
    for cid in cells:
        c, r = divmod(cid, dm.NROWS)
        rows[r][c] = "."
    msg = one_line_error(dm.load_map, write_map(tmp_path, ["".join(r) for r in rows]))
    assert "B02: hatch 1 cannot be reached from the human start" in msg


def test_map_schema_errors(tmp_path):
    g = galilei_rows()
    msg = one_line_error(dm.load_map, write_map(tmp_path, g, extra='colour = "red"\n'))
    assert "colour: unknown key" in msg
    msg = one_line_error(dm.load_map, write_map(tmp_path, g, header='name = "T"\n'))
    assert "version: missing" in msg
    msg = one_line_error(dm.load_map, write_map(tmp_path, g, header='version = 3\nname = "T"\n'))
    assert "version:" in msg and "string" in msg
    msg = one_line_error(dm.load_map, str(tmp_path / "absent.toml"))
    assert "cannot read map file" in msg


CARDS_TEXT = (dm.BUILTIN_CARDS).read_text()


@pytest.mark.parametrize("old, new, expected", [
    ('kind = "silence"', 'kind = "whisper"', r"danger\[4\]\.kind: Input should be 'noise_here', 'noise_any' or 'silence'"),
    ("count = 5\n", "count = 1000\n", r"danger\[4\]\.count: Input should be less than or equal to 100"),
    ("count = 3\n", 'count = "3"\n', r"items\[3\]\.count: Input should be a valid integer"),
    ('kind = "defence"', 'kind = "spotlight"', r"items: kind 'spotlight' listed twice"),
    ('side = "alien"\nrole = "alien4"', 'side = "human"\nrole = "alien4"', r"characters: 3 alien cards"),
    ('role = "pilot"', 'role = "captain"', r"characters: Value error, entry 1: role 'captain' appears twice"),
    ("green = 3\nred = 3", "green = 1\nred = 2", r"hatch: 3 cards; at least 4"),
    ("green = 3\nred = 3", "green = 3\nred = 3\nblue = 1", r"hatch\.blue: unknown key"),
    ('version = "eftaios-black-cards-1"', "", r"version: missing"),
    ("item = true\ncount = 4", "item = \"yes\"\ncount = 4", r"danger\[0\]\.item: Input should be a valid boolean"),
])
def test_broken_cards(tmp_path, old, new, expected):
    assert old in CARDS_TEXT
    p = tmp_path / "cards.toml"
    p.write_text(CARDS_TEXT.replace(old, new, 1))
    msg = one_line_error(dm.load_cards, str(p))
    assert msg.startswith(str(p) + ": ")
    assert re.search(expected, msg), msg


def test_cards_not_toml(tmp_path):
    p = tmp_path / "cards.toml"
    p.write_text("version = \n")
    assert "not valid TOML" in one_line_error(dm.load_cards, str(p))
