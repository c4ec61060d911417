"""Loads the board file into the flat int32 vector the compiled engine reads.

Malformed data is a :class:`~simkit.errors.UserError` naming the file and the entry.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from ...datafiles import data_error as _fail
from ...datafiles import chosen, read, version
from ...layout import Layout
from .params import AAUParams

BUILTIN = Path(__file__).with_name("data") / "board.json"

MAX_SPACES = 160
MAX_CITIES = 64
MAX_HERDS = 16
TYPES = {"plain": 0, "park": 1, "herd": 2}
PLAIN, PARK, HERD = 0, 1, 2
BORDERS = ("PAC", "MEX", "GULF", "ATL", "CAN")  # the first four are the border mission cards
CITY_CARDS = (2, 3, 4, 5)
# Hex directions (pointy-top, odd rows shifted east); the opposite of d is (d + 3) % 6.
E, NE, NW, W, SW, SE = range(6)
_STEPS = {
    0: ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)),  # even rows
    1: ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)),  # odd rows
}

N_CARDS = 4  # city mission cards 2-5; border mission cards Pacific, Mexico, Gulf, Atlantic
TIERS = 3 * 2  # a mission table: 3 tiers of (count, points)

BOARD = Layout("aau board")
(B_NSP, B_NCITY, B_PLAYERS, B_SEMI, B_THRESH, B_PROT_HERDS, B_CAPTURE, B_EXTRA_CAP, B_NHERD, B_HERD_PLUS,
 B_PROT_NO_CARD) = BOARD.scalars("nsp", "ncity", "players", "semi", "thresh", "prot_herds", "capture", "extra_cap",
                                 "nherd", "herd_plus", "prot_no_card")
CAPTURES = ("line", "any_two", "line_new")  # B_CAPTURE codes (R3.5)
B_NB = BOARD.array("nb", MAX_SPACES * 6)  # neighbour of space i in direction d at B_NB + i * 6 + d, -1 off the board
B_TYPE = BOARD.array("type", MAX_SPACES)
B_HERD = BOARD.array("herd", MAX_SPACES)  # herd region of a herd space, -1 otherwise
B_BORDER = BOARD.array("border", MAX_SPACES)  # bit mask, bit k = BORDERS[k]
B_CANADA = BOARD.array("canada", MAX_SPACES)  # directions in which the edge of the board acts as a neutral disc
B_SP_NCITY = BOARD.array("sp_ncity", MAX_SPACES)
B_SP_CITY = BOARD.array("sp_city", MAX_SPACES * 3)  # up to 3 cities around each space
B_CITY_VAL = BOARD.array("city_val", MAX_CITIES)
B_CITY_SP = BOARD.array("city_sp", MAX_CITIES * 3)  # the 2 or 3 spaces around each city (-1 padded)
B_CITY_CLIQUE = BOARD.array("city_clique", MAX_CITIES)  # 1 when a city's spaces all touch each other
B_MIS_CITY = BOARD.array("mis_city", N_CARDS * TIERS)  # per city card: 3 tiers of (count, points)
B_MIS_BORDER = BOARD.array("mis_border", N_CARDS * TIERS)
B_MIS_PARKS = BOARD.array("mis_parks", TIERS)
B_MIS_BASES = BOARD.array("mis_bases", TIERS)
B_MIS_EXPANSION = BOARD.array("mis_expansion", TIERS)
B_PROTECTION = BOARD.array("protection", 4)  # points, value-1 cities, herds, other border spaces
B_HERD_SP = BOARD.array("herd_sp", MAX_HERDS * 3)  # spaces of each herd region, 3 per region (-1 padded)
B_SIZE = BOARD.size


def _load(path_str: str) -> tuple[dict, str]:
    return read(path_str, "board file", "check --set board=PATH")


def data_path(params: AAUParams) -> Path:
    """The board file: built-in, a built-in variant (``board=canada-none``) or a path."""
    return chosen(params.board, BUILTIN, "board", "board")


def data_version(params: AAUParams) -> str:
    return version(str(data_path(params)), "board file", "check --set board=PATH")


def _tiers(path: Path, where: str, value) -> list[tuple[int, int]]:
    if not (isinstance(value, list) and len(value) == 3 and all(isinstance(t, list) and len(t) == 2 and all(isinstance(x, int) and x >= 0 for x in t) for t in value)):
        raise _fail(path, where, "needs 3 tiers [count, points] of non-negative integers")
    if not value[0][0] <= value[1][0] <= value[2][0]:
        raise _fail(path, where, "tiers must have rising counts")
    return [tuple(t) for t in value]


# Cached by the file's content too (``version``), not its name only: a file edited in the
# same process is read again.
@lru_cache(maxsize=16)
def _build(path_str: str, version: str, players: int, semi: bool, thresh: int, prot_herds: str, capture: str, cap: int,
           herd_points: str = "2-4-6", prot_borders: str = "any_other_label") -> np.ndarray:
    from ...datafiles import validated
    from .schema import BoardFile

    path = Path(path_str)
    doc, _ = _load(path_str)
    validated(BoardFile, doc, path, "see simkit/games/aau/data/board.json for the format")
    spaces = doc.get("spaces")
    if not isinstance(spaces, list) or not 3 <= len(spaces) <= MAX_SPACES:
        raise _fail(path, "spaces", f"needs a list of 3 to {MAX_SPACES} spaces")
    ids = {}
    for i, sp in enumerate(spaces):
        where = f"spaces[{i}]"
        if not isinstance(sp, dict) or not all(isinstance(sp.get(k), int) for k in ("id", "col", "row")):
            raise _fail(path, where, "needs integer id, col and row")
        if sp["id"] in ids:
            raise _fail(path, where, f"duplicate id {sp['id']}")
        if sp.get("type") not in TYPES:
            raise _fail(path, where, f"type must be one of {', '.join(TYPES)}")
        borders = sp.get("borders", [])
        if not isinstance(borders, list) or any(x not in BORDERS for x in borders):
            raise _fail(path, where, f"borders must be a list of {', '.join(BORDERS)}")
        ids[sp["id"]] = i
    n = len(spaces)
    b = np.zeros(B_SIZE, np.int32)
    b[B_NSP] = n
    b[B_PLAYERS] = players
    b[B_SEMI] = int(semi)
    b[B_THRESH] = thresh
    b[B_PROT_HERDS] = 1 if prot_herds == "regions" else 0
    b[B_CAPTURE] = CAPTURES.index(capture)
    b[B_HERD_PLUS] = 1 if herd_points == "2-6-8" else 0
    b[B_PROT_NO_CARD] = 1 if prot_borders == "no_card_label" else 0
    b[B_EXTRA_CAP] = cap
    b[B_NB:B_NB + MAX_SPACES * 6] = -1
    b[B_HERD:B_HERD + MAX_SPACES] = -1
    b[B_SP_CITY:B_SP_CITY + MAX_SPACES * 3] = -1
    b[B_CITY_SP:B_CITY_SP + MAX_CITIES * 3] = -1
    b[B_HERD_SP:B_HERD_SP + MAX_HERDS * 3] = -1
    pos = {(sp["col"], sp["row"]): i for i, sp in enumerate(spaces)}
    if len(pos) != n:
        raise _fail(path, "spaces", "two spaces share a (col, row) cell")
    for i, sp in enumerate(spaces):
        for d, (dc, dr) in enumerate(_STEPS[sp["row"] % 2]):
            j = pos.get((sp["col"] + dc, sp["row"] + dr), -1)
            b[B_NB + i * 6 + d] = j
            # R3.4: a Canada icon acts as a neutral disc beyond the board's northern edge
            if sp.get("canada_icon") and j < 0 and d in (NE, NW):
                b[B_CANADA + i] |= 1 << d
        b[B_TYPE + i] = TYPES[sp["type"]]
        b[B_BORDER + i] = sum(1 << BORDERS.index(x) for x in set(sp.get("borders", [])))
    herds = doc.get("herds", [])
    if not isinstance(herds, list) or len(herds) > MAX_HERDS:
        raise _fail(path, "herds", f"needs a list of at most {MAX_HERDS} regions")
    for h, region in enumerate(herds):
        if not isinstance(region, list) or not 1 <= len(region) <= 3 or any(x not in ids for x in region):
            raise _fail(path, f"herds[{h}]", "needs 1 to 3 existing space ids")
        for k, sid in enumerate(region):
            i = ids[sid]
            if b[B_TYPE + i] != HERD:
                raise _fail(path, f"herds[{h}]", f"space {sid} is not a herd space")
            b[B_HERD + i] = h
            b[B_HERD_SP + h * 3 + k] = i
    b[B_NHERD] = len(herds)
    for i in range(n):
        if b[B_TYPE + i] == HERD and b[B_HERD + i] < 0:
            raise _fail(path, f"space {spaces[i]['id']}", "a herd space belongs to no herd region")
    cities = doc.get("cities")
    if not isinstance(cities, list) or not 1 <= len(cities) <= MAX_CITIES:
        raise _fail(path, "cities", f"needs a list of 1 to {MAX_CITIES} cities")
    b[B_NCITY] = len(cities)
    for c, city in enumerate(cities):
        where = f"cities[{c}]" + (f" ({city.get('name')})" if isinstance(city, dict) else "")
        if not isinstance(city, dict) or not isinstance(city.get("value"), int) or not 1 <= city["value"] <= 9:
            raise _fail(path, where, "needs a value from 1 to 9")
        around = city.get("spaces")
        if not isinstance(around, list) or not 2 <= len(around) <= 3 or any(x not in ids for x in around):
            raise _fail(path, where, "needs 2 or 3 existing space ids around it")
        b[B_CITY_VAL + c] = city["value"]
        for k, sid in enumerate(around):
            b[B_CITY_SP + c * 3 + k] = ids[sid]
        members = [ids[sid] for sid in around]
        b[B_CITY_CLIQUE + c] = int(all(
            any(b[B_NB + x * 6 + d] == y for d in range(6)) for x in members for y in members if x != y
        ))
        for sid in around:
            i = ids[sid]
            k = b[B_SP_NCITY + i]
            if k == 3:
                raise _fail(path, where, f"space {sid} already touches 3 cities")
            b[B_SP_CITY + i * 3 + k] = c
            b[B_SP_NCITY + i] += 1
    missions = doc.get("missions")
    if not isinstance(missions, dict):
        raise _fail(path, "missions", "missing")
    for k, card in enumerate(CITY_CARDS):
        for t, (cnt, pts) in enumerate(_tiers(path, f"missions.city.{card}", missions.get("city", {}).get(str(card)))):
            b[B_MIS_CITY + k * TIERS + t * 2] = cnt
            b[B_MIS_CITY + k * TIERS + t * 2 + 1] = pts
    for k, card in enumerate(BORDERS[:4]):
        for t, (cnt, pts) in enumerate(_tiers(path, f"missions.border.{card}", missions.get("border", {}).get(card))):
            b[B_MIS_BORDER + k * TIERS + t * 2] = cnt
            b[B_MIS_BORDER + k * TIERS + t * 2 + 1] = pts
    for off, key in ((B_MIS_PARKS, "parks"), (B_MIS_BASES, "bases"), (B_MIS_EXPANSION, "expansion")):
        for t, (cnt, pts) in enumerate(_tiers(path, f"missions.{key}", missions.get(key))):
            b[off + t * 2] = cnt
            b[off + t * 2 + 1] = pts
    prot = missions.get("protection", {})
    keys = ("points", "value1_cities", "herds", "other_border_spaces")
    if not isinstance(prot, dict) or not all(isinstance(prot.get(k), int) and prot[k] >= 0 for k in keys):
        raise _fail(path, "missions.protection", f"needs integers {', '.join(keys)}")
    b[B_PROTECTION:B_PROTECTION + 4] = [prot[k] for k in keys]
    b.flags.writeable = False
    return b


def build(params: AAUParams) -> np.ndarray:
    """The board vector for these parameters (missions and markers are drawn per game)."""
    b = _build(str(data_path(params)), data_version(params), params.players, params.semi_coop, params.semi_coop_threshold,
               params.protection_herds, params.capture, params.extra_turn_cap, params.herd_points,
               params.protection_borders)
    b = b.copy()
    # K1-K4, compensations (not in the rulebook): an offset on every tier's points of each
    # city card, applied to whatever table the board file gives; 0 leaves it as written.
    for k, offset in enumerate(params.city_mission_points()):
        if offset:
            for t in range(3):
                at = B_MIS_CITY + k * TIERS + t * 2 + 1
                b[at] = max(0, int(b[at]) + offset)
    return b


def space_ids(params: AAUParams) -> list[int]:
    doc, _ = _load(str(data_path(params)))
    return [sp["id"] for sp in doc["spaces"]]
