"""Loads the components file into the arrays the compiled engine reads.

Malformed data is a :class:`~simkit.errors.UserError` naming the file and the entry.
The disputed facts of docs/rules/under-falling-skies.md (G2-G6) are applied here as
patches on the data file's default reading, chosen by parameters.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import numpy as np

from ...datafiles import data_error as _fail
from ...datafiles import chosen, read, version
from ...errors import UserError
from ...layout import Layout
from .params import UFSParams

DATA_DIR = Path(__file__).with_name("data")
BUILTIN = DATA_DIR / "components.toml"

# Sky cell kinds.
EMPTY, EXPLOSION, LEFT, RIGHT, MSHIP = 0, 1, 2, 3, 4
# Mothership row actions.
ACT_NONE, ACT_EXCAVATOR, ACT_RESEARCH, ACT_WHITE, ACT_DAMAGE, ACT_SKULL = 0, 1, 2, 3, 4, 5
# Base cell kinds and room kinds.
CELL_AA, CELL_TUNNEL, CELL_ROOM = 0, 1, 2
ROOM_ENERGY, ROOM_JETS, ROOM_RESEARCH, ROOM_ROBOT = 0, 1, 2, 3
# City abilities.
ABILITIES = ("none", "first_damage_research", "one_robot_bonus", "robot_bonus", "white_six", "choose_six")
(AB_NONE, AB_FIRST_DAMAGE_RESEARCH, AB_ONE_ROBOT_BONUS, AB_ROBOT_BONUS, AB_WHITE_SIX, AB_CHOOSE_SIX) = range(6)

MAX_ROOMS = 24
MAX_PREFIX = 15

# The board is one flat int32 vector (compiled code passes it around for free), its
# fields named here: scalars first, then tables.
BOARD = Layout("ufs board")
(B_DMAX, B_EMAX, B_START_ENERGY, B_EXCAV_START, B_ABILITY, B_MAX_ROBOTS, B_THREAT,
 B_ARROW_RETRIGGER, B_NROOMS, B_ROBOTS_ON, B_NPREFIX, B_WHITES_RETURN) = BOARD.scalars(
    "dmax", "emax", "start_energy", "excav_start", "ability", "max_robots", "threat",
    "arrow_retrigger", "nrooms", "robots_on", "nprefix", "whites_return")
SKY_CELLS = 4 * 2 * 4 * 5  # [slot (0 = top tile), side (0 easy, 1 threat), row, col] -> ((slot*2+side)*4+row)*5+col
SKY_ROWS_ALL = 4 * 2 * 4  # [slot, side, row] -> (slot*2+side)*4+row
B_SKY_KIND = BOARD.array("sky_kind", SKY_CELLS)
B_SKY_NUM = BOARD.array("sky_num", SKY_CELLS)
B_MS_KIND = BOARD.array("ms_kind", SKY_ROWS_ALL)
B_MS_AMT = BOARD.array("ms_amt", SKY_ROWS_ALL)
B_RCOST = BOARD.array("rcost", SKY_ROWS_ALL)  # research cost beside each row, same index
B_PREFIX = BOARD.array("prefix", MAX_PREFIX + 1)  # city research spaces below the sky's, climbing order
B_CELL_KIND = BOARD.array("cell_kind", 30)  # base cell = row * 5 + col, rows 0 (AA) .. 5
B_CELL_ROOM = BOARD.array("cell_room", 30)  # room id or -1
B_CELL_POS = BOARD.array("cell_pos", 30)  # excavator path position, 0 for the AA row
B_ROOM_KIND = BOARD.array("room_kind", MAX_ROOMS)
B_ROOM_MOD = BOARD.array("room_mod", MAX_ROOMS)
B_ROOM_COST = BOARD.array("room_cost", MAX_ROOMS)
B_ROOM_NCELLS = BOARD.array("room_ncells", MAX_ROOMS)
B_ROOM_CELLS = BOARD.array("room_cells", 3 * MAX_ROOMS)  # room r, j-th cell at r*3+j
B_PATH_CELL = BOARD.array("path_cell", 26)  # cell at each excavator path position 1-25
B_SIZE = BOARD.size

_SKY_RE = re.compile(r"^(\.|<|>|M|X[1-9])$")
_ROOM_RE = re.compile(r"^([EJRB])([+-]\d+)c(\d+)(?:@(\w+))?$")
_ACT_RE = re.compile(r"^(none|skull|(white|excavator|research|damage):(\d+))$")
_ACT_CODES = {"white": ACT_WHITE, "excavator": ACT_EXCAVATOR, "research": ACT_RESEARCH, "damage": ACT_DAMAGE}
_ROOM_CODES = {"E": ROOM_ENERGY, "J": ROOM_JETS, "R": ROOM_RESEARCH, "B": ROOM_ROBOT}


def _load_toml(path_str: str) -> tuple[dict, str]:
    return read(path_str, "components file", "check --set data=PATH")


def data_path(params: UFSParams) -> Path:
    """The components file: built-in, a built-in variant (``data=excavator_a5``) or a path."""
    return chosen(params.data, BUILTIN, "data", "components")


def data_version(params: UFSParams) -> str:
    return version(str(data_path(params)), "components file", "check --set data=PATH")


def _get(doc: dict, path: Path, *keys):
    node = doc
    for i, k in enumerate(keys):
        if not isinstance(node, dict) or k not in node:
            raise _fail(path, ".".join(map(str, keys[: i + 1])), "missing")
        node = node[k]
    return node


def _patch(doc: dict, params: UFSParams) -> dict:
    """Apply the disputed readings chosen by the parameters (G2-G6, and the SINGLE-sourced
    "1 damage" mothership actions)."""
    doc = copy.deepcopy(doc)
    try:
        if params.x2_column == 1:
            row = doc["sky"]["4"]["easy"]["rows"][3]
            row[0], row[1] = row[1], row[0]
        if params.tile2_threat_research == "conradoza":
            doc["sky"]["2"]["threat"]["research"] = [5, 1, 2, 3]
        if params.washington_jet_cost == 0:
            doc["base"]["upper"]["B"]["rows"][0][3] = "J-1c0"
        if params.ny_tunnel_column == 1:
            row = doc["base"]["upper"]["C"]["rows"][1]
            doc["base"]["upper"]["C"]["rows"][1] = ["T"] + [c for c in row if c != "T"]
        if params.lower_c_energy_mod == 1:
            doc["base"]["lower"]["C"]["rows"][1][0] = "E+1c0"
        if params.single_damage_rows == "none":  # the SINGLE-sourced "1 damage" actions
            for tile, row in (("4", 3), ("2", 0)):
                acts = doc["sky"][tile]["threat"]["mothership"]
                if acts[row] != "damage:1":
                    raise KeyError(tile)
                acts[row] = "none"
    except (KeyError, IndexError, TypeError):
        raise UserError("components file lacks a cell that a disputed-reading setting patches; reset that setting to its default") from None
    return doc


def _sky(doc: dict, path: Path):
    kind = np.zeros((4, 2, 4, 5), np.int8)
    num = np.zeros((4, 2, 4, 5), np.int8)
    ms_kind = np.zeros((4, 2, 4), np.int8)
    ms_amt = np.zeros((4, 2, 4), np.int8)
    rcost = np.zeros((4, 2, 4), np.int16)
    for slot, tile in enumerate(("4", "3", "2", "1")):
        for side_i, side in enumerate(("easy", "threat")):
            where = f"sky.{tile}.{side}"
            rows = _get(doc, path, "sky", tile, side, "rows")
            if not (isinstance(rows, list) and len(rows) == 4 and all(isinstance(r, list) and len(r) == 5 for r in rows)):
                raise _fail(path, where + ".rows", "needs 4 rows of 5 cells")
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    if not isinstance(cell, str) or not _SKY_RE.match(cell):
                        raise _fail(path, f"{where}.rows[{r}][{c}]", f"{cell!r} is not a sky cell (use . < > M or X1..X9)")
                    if cell == "<":
                        if c == 0:
                            raise _fail(path, f"{where}.rows[{r}][{c}]", "an arrow cannot point off the board")
                        kind[slot, side_i, r, c] = LEFT
                    elif cell == ">":
                        if c == 4:
                            raise _fail(path, f"{where}.rows[{r}][{c}]", "an arrow cannot point off the board")
                        kind[slot, side_i, r, c] = RIGHT
                    elif cell == "M":
                        kind[slot, side_i, r, c] = MSHIP
                    elif cell.startswith("X"):
                        kind[slot, side_i, r, c] = EXPLOSION
                        num[slot, side_i, r, c] = int(cell[1:])
            research = _get(doc, path, "sky", tile, side, "research")
            if not (isinstance(research, list) and len(research) == 4 and all(isinstance(x, int) and 0 <= x <= 30 for x in research)):
                raise _fail(path, where + ".research", "needs 4 costs from 0 to 30")
            rcost[slot, side_i] = research
            acts = _get(doc, path, "sky", tile, side, "mothership")
            if not (isinstance(acts, list) and len(acts) == 4):
                raise _fail(path, where + ".mothership", "needs 4 actions")
            for r, act in enumerate(acts):
                m = _ACT_RE.match(act) if isinstance(act, str) else None
                if not m:
                    raise _fail(path, f"{where}.mothership[{r}]", f"{act!r} is not an action (none, skull, white:N, excavator:N, research:N, damage:N)")
                if act == "skull":
                    ms_kind[slot, side_i, r] = ACT_SKULL
                elif act != "none":
                    ms_kind[slot, side_i, r] = _ACT_CODES[m.group(2)]
                    ms_amt[slot, side_i, r] = int(m.group(3))
    for flips in range(16):  # every threat combination must end in a skull
        sides = [(flips >> slot) & 1 for slot in range(4)]
        if not any((ms_kind[slot, sides[slot]] == ACT_SKULL).any() for slot in range(4)):
            raise _fail(path, "sky", f"tile sides {sides} (top to bottom, 1 = threatening) have no skull row")
    return kind, num, ms_kind, ms_amt, rcost


def _base_rows(doc: dict, path: Path, half: str, letter: str, nrows: int):
    where = f"base.{half}.{letter}"
    node = _get(doc, path, "base", half, letter)
    rows = node.get("rows")
    if not (isinstance(rows, list) and len(rows) == nrows and all(isinstance(r, list) and len(r) == 5 for r in rows)):
        raise _fail(path, where + ".rows", f"needs {nrows} rows of 5 cells")
    for key in ("damage", "energy") + (("start_energy", "excavator_start") if half == "upper" else ()):
        if not isinstance(node.get(key), int) or node[key] < 0:
            raise _fail(path, f"{where}.{key}", "needs a non-negative integer")
    return node, rows


def build(params: UFSParams) -> np.ndarray:
    """The board vector for these parameters (threat flips are drawn per game)."""
    from ...datafiles import validated
    from .schema import Components

    path = data_path(params)
    doc, _ = _load_toml(str(path))
    validated(Components, doc, path, "see simkit/games/ufs/data/components.toml for the format")
    doc = _patch(doc, params)
    sky_kind, sky_num, ms_kind, ms_amt, rcost = _sky(doc, path)

    city = _get(doc, path, "city", params.city)
    side = _get(doc, path, "city", params.city, params.city_side)
    ability = side.get("ability", "none")
    if ability not in ABILITIES:
        raise _fail(path, f"city.{params.city}.{params.city_side}.ability", f"{ability!r} is unknown; use one of {', '.join(ABILITIES)}")
    prefix = side.get("research_prefix", [])
    if not (isinstance(prefix, list) and all(isinstance(x, int) and x >= 0 for x in prefix)):
        raise _fail(path, f"city.{params.city}.{params.city_side}.research_prefix", "needs a list of costs")

    upper, urows = _base_rows(doc, path, "upper", str(city.get("upper")), 2)
    lower, lrows = _base_rows(doc, path, "lower", str(city.get("lower")), 3)
    cell_kind = np.zeros(30, np.int8)
    cell_room = np.full(30, -1, np.int16)
    cell_pos = np.zeros(30, np.int16)
    room_kind, room_mod, room_cost, room_cells = [], [], [], []
    groups: dict[str, int] = {}
    for r, row in enumerate(urows + lrows, start=1):
        half = "upper" if r <= 2 else "lower"
        for c, text in enumerate(row):
            cell = r * 5 + c
            cell_pos[cell] = (r - 1) * 5 + (c + 1 if r % 2 == 1 else 5 - c)
            where = f"base.{half}: row {r} column {c + 1}"
            if text == "T":
                cell_kind[cell] = CELL_TUNNEL
                continue
            cell_kind[cell] = CELL_ROOM
            if isinstance(text, str) and text.startswith("@"):
                label = f"{half}{text[1:]}"
                if label not in groups:
                    raise _fail(path, where, f"{text!r} continues a room that no earlier cell opens")
                rid = groups[label]
                if len(room_cells[rid]) == 3:
                    raise _fail(path, where, "a room spans at most 3 cells")
                room_cells[rid].append(cell)
                cell_room[cell] = rid
                continue
            m = _ROOM_RE.match(text) if isinstance(text, str) else None
            if not m:
                raise _fail(path, where, f"{text!r} is not a base cell (T, or e.g. J-1c2, E+0c0@a, @a)")
            rid = len(room_kind)
            room_kind.append(_ROOM_CODES[m.group(1)])
            room_mod.append(int(m.group(2)))
            room_cost.append(int(m.group(3)))
            room_cells.append([cell])
            cell_room[cell] = rid
            if m.group(4):
                groups[f"{half}{m.group(4)}"] = rid
    if len(room_kind) > MAX_ROOMS:
        raise _fail(path, "base", f"at most {MAX_ROOMS} rooms per city")
    nrooms = len(room_kind)

    dmax = upper["damage"] + lower["damage"] - (1 if params.damage_rule == "strict" else 0)
    emax = upper["energy"] + lower["energy"] - (1 if params.energy_rule == "strict" else 0)
    excav = upper["excavator_start"]
    if not 1 <= excav <= 25:
        raise _fail(path, f"base.upper.{city.get('upper')}.excavator_start", "must be a path position from 1 to 25")
    if len(prefix) > MAX_PREFIX:
        raise _fail(path, f"city.{params.city}.{params.city_side}.research_prefix", f"at most {MAX_PREFIX} spaces")
    if dmax < 1:
        raise _fail(path, "base", "the damage tracks add up to less than 1")
    if emax < 1:
        raise _fail(path, "base", "the energy tracks add up to less than 1")
    b = np.zeros(B_SIZE, np.int32)
    b[B_DMAX] = dmax
    b[B_EMAX] = emax
    b[B_START_ENERGY] = min(upper["start_energy"], emax)
    b[B_EXCAV_START] = excav
    b[B_ABILITY] = ABILITIES.index(ability)
    b[B_MAX_ROBOTS] = 1 if ability == "one_robot_bonus" else 2
    b[B_THREAT] = params.threat
    b[B_ARROW_RETRIGGER] = int(params.arrow_retrigger)
    b[B_NROOMS] = nrooms
    b[B_ROBOTS_ON] = int(params.robots)
    b[B_NPREFIX] = len(prefix)
    b[B_WHITES_RETURN] = int(params.shot_whites_return)
    b[B_SKY_KIND:B_SKY_KIND + SKY_CELLS] = sky_kind.reshape(-1)
    b[B_SKY_NUM:B_SKY_NUM + SKY_CELLS] = sky_num.reshape(-1)
    b[B_MS_KIND:B_MS_KIND + SKY_ROWS_ALL] = ms_kind.reshape(-1)
    b[B_MS_AMT:B_MS_AMT + SKY_ROWS_ALL] = ms_amt.reshape(-1)
    b[B_RCOST:B_RCOST + SKY_ROWS_ALL] = rcost.reshape(-1)
    b[B_PREFIX:B_PREFIX + len(prefix)] = prefix
    b[B_CELL_KIND:B_CELL_KIND + 30] = cell_kind
    b[B_CELL_ROOM:B_CELL_ROOM + 30] = cell_room
    b[B_CELL_POS:B_CELL_POS + 30] = cell_pos
    b[B_ROOM_KIND:B_ROOM_KIND + nrooms] = room_kind
    b[B_ROOM_MOD:B_ROOM_MOD + nrooms] = room_mod
    b[B_ROOM_COST:B_ROOM_COST + nrooms] = room_cost
    b[B_ROOM_NCELLS:B_ROOM_NCELLS + nrooms] = [len(c) for c in room_cells]
    b[B_ROOM_CELLS:B_ROOM_CELLS + 3 * MAX_ROOMS] = -1
    for r, cl in enumerate(room_cells):
        b[B_ROOM_CELLS + 3 * r:B_ROOM_CELLS + 3 * r + len(cl)] = cl
    for cell in range(5, 30):
        b[B_PATH_CELL + cell_pos[cell]] = cell
    return b
