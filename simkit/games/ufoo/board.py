"""Builds the board vector the compiled Ufo.O rules read, from a checked board file
(``data_model.py``) and the settings (``params.py``).

Everything geometric is computed here once, in plain Python from ``geometry.py``, so the
compiled code only looks things up: each cell's neighbours, the cells in its line of fire
(R5) and the hexes in between, whether it touches an asteroid (R10), and sets of cells
as 128-bit masks (a cell's neighbours, the open hexes, the launch hexes). A mask is two
64-bit words (cells 0-63 and 64-127), each kept as two int32 entries of the vector
(low half first), read back by ``engine.mask``. The chosen readings of the rulebook
(A1-A37) become flags of the vector, so one compiled engine plays every setting.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from pathlib import Path

import numpy as np

from ...datafiles import chosen, version
from ...layout import Layout
from . import data_model as D
from . import geometry as G
from .params import UfoOParams

MAX_CELLS = D.MAX_CELLS  # 128: action ids reserve one id per cell (R12.2)
UFOS = D.UFOS  # 4 per seat
SEATS = D.SEATS
MASK_WORDS = 4  # a 128-bit cell set as four int32 entries
FAR = 999  # terrain distance of an unreachable cell

# Terrain of a cell (R1.3, R1.5); cells past cols * rows are OFF.
T_OPEN, T_ASTEROID, T_PICTURE, T_OFF = 0, 1, 2, 3

BOARD = Layout("ufoo board")
(B_COLS, B_ROWS, B_NCELLS, B_TURN_CAP, B_FIRST_PLAYER,
 B_FIRE_ANY, B_UFOS_BLOCK, B_MS_BLOCK, B_ATTACKS_ONE, B_NO_TARGET_ENDS, B_DEF_MALUS, B_ION_ZERO,
 B_PUSH_OPTIONAL, B_PUSH_UP_TO, B_PUSH_PATH, B_PUSH_THROUGH, B_PUSH_NONE, B_OFF_BOARD_CRASH, B_ASTEROID_CRASH,
 B_AST_MOVED, B_AST_EACH_MOVE, B_MS_FROM_MOVED, B_MS_BACKFIRE, B_MS_USES_ATTACK, B_MS_FIRE, B_VOLLEY_SINGLE,
 B_RESPAWN_SAME, B_LAUNCH_COST, B_ANY_CRASH) = BOARD.scalars(
    "cols", "rows", "ncells", "turn_cap", "first_player",
    "fire_any", "ufos_block", "ms_block", "attacks_one", "no_target_ends", "def_malus", "ion_zero",
    "push_optional", "push_up_to", "push_path", "push_through", "push_none", "off_board_crash", "asteroid_crash",
    "ast_moved", "ast_each_move", "ms_from_moved", "ms_backfire", "ms_uses_attack", "ms_fire", "volley_single",
    "respawn_same", "launch_cost", "any_crash")
B_STRUCTURE = BOARD.array("structure", SEATS)  # starting structure of each seat's mothership (R2.1)
B_LAUNCH = BOARD.array("launch", SEATS * UFOS)  # seat * 4 + k: launch hex k of the seat's mothership (R1.4)
B_TERRAIN = BOARD.array("terrain", MAX_CELLS)  # T_* of each cell
B_FIRE_BLOCK = BOARD.array("fire_block", MAX_CELLS)  # 1: the cell blocks a line of fire by itself (R5.3: asteroid, picture if A3)
B_AST_ADJ = BOARD.array("ast_adj", MAX_CELLS)  # 1: the cell touches an asteroid (R10)
B_EDGE = BOARD.array("edge", MAX_CELLS)  # 1: a step from the cell leaves the grid (for crashes, R6.4.4)
B_NB = BOARD.array("nb", MAX_CELLS * 6)  # cell * 6 + direction: the neighbour, -1 off the grid
B_LINE_TGT = BOARD.array("line_tgt", MAX_CELLS * 6)  # cell * 6 + d: the cell 2 steps away in direction d, or -1
B_OFF_TGT = BOARD.array("off_tgt", MAX_CELLS * 6)  # cell * 6 + i: the i-th off-line cell at distance 2, or -1
B_OFF_MID = BOARD.array("off_mid", MAX_CELLS * 12)  # cell * 12 + 2i (+1): the two hexes in between for off_tgt i (-1: off the grid)
B_CUBE_X = BOARD.array("cube_x", MAX_CELLS)  # cube coordinates (R1.2), for distances
B_CUBE_Z = BOARD.array("cube_z", MAX_CELLS)
B_HOME_DIST = BOARD.array("home_dist", SEATS * MAX_CELLS)  # seat * 128 + cell: steps over open terrain to the seat's launch hexes
B_BY_DIST = BOARD.array("by_dist", SEATS * MAX_CELLS)  # seat * 128 + i: the open cells nearest that seat's launch hexes first (-1 after the last)
B_DIST_START = BOARD.array("dist_start", SEATS * MAX_CELLS)  # seat * 128 + d: the first index of by_dist at distance >= d
B_NB_MASK = BOARD.array("nb_mask", MAX_CELLS * MASK_WORDS)  # the cell's neighbours on the grid
B_FIRE_MASK = BOARD.array("fire_mask", MAX_CELLS * MASK_WORDS)  # cells in its line of fire as far as terrain goes (R5.1, R5.3)
B_OPEN_MASK = BOARD.array("open_mask", MASK_WORDS)  # hexes of play: on the grid, no asteroid, no picture
B_AST_ADJ_MASK = BOARD.array("ast_adj_mask", MASK_WORDS)
B_EDGE_MASK = BOARD.array("edge_mask", MASK_WORDS)  # open hexes from which a step leaves the grid
B_LAUNCH_MASK = BOARD.array("launch_mask", SEATS * MASK_WORDS)
# Compensations (docs/rules/ufo-o.md, K1-K3): not in the rulebook; their defaults leave the
# rules as written. Declared last so that every earlier offset stays where it was.
B_FIRST_TURN_UFOS, B_FIRST_TURN_STEPS, B_SECOND_STRUCTURE = BOARD.scalars(
    "first_turn_ufos", "first_turn_steps", "second_structure")
# For the bots: each seat's order of the cells for breaking ties, seen from its own side of
# the board (see ``_tie_ranks``), so that a tie is broken the same way on either side and a
# mirror-symmetric board plays the same for both seats (issue 25 item 2, tests/test_ufoo_mirror.py).
B_TIE_RANK = BOARD.array("tie_rank", SEATS * MAX_CELLS)  # seat * 128 + cell: the cell's place in the seat's tie order (lower first)
B_SIZE = BOARD.size

PUSH_ANY, PUSH_STRAIGHT, PUSH_AWAY = 0, 1, 2  # A9
THROUGH_LIKE_MOVE, THROUGH_EMPTY, THROUGH_ANY = 0, 1, 2  # A10
FIRE_ANY_TIME, FIRE_START, FIRE_END = 0, 1, 2  # A22
FIRST_ROLL, FIRST_SEAT0, FIRST_SEAT1 = 0, 1, 2  # A32

HINT = "check --set board=PATH"


def board_path(params: UfoOParams) -> Path:
    """The board file: built-in, a built-in variant (``board=no-outliers``) or a path."""
    return chosen(params.board, D.BUILTIN, "board", "Ufo.O board")


def data_version(params: UfoOParams) -> str:
    return version(str(board_path(params)), "Ufo.O board file", HINT)


def load(params: UfoOParams) -> D.Board:
    return D.load(board_path(params))


def _put_mask(b: np.ndarray, off: int, cells) -> None:
    bits = 0
    for i in cells:
        bits |= 1 << i
    for w in range(MASK_WORDS):
        word = (bits >> (32 * w)) & 0xFFFF_FFFF
        b[off + w] = word - (1 << 32) if word >= 1 << 31 else word


def _terrain_distance(board: D.Board, starts) -> dict:
    dist = {c: 0 for c in starts}
    todo = deque(starts)
    while todo:
        c = todo.popleft()
        for n in board.neighbours(c):
            if n not in dist and not board.blocked(n):
                dist[n] = dist[c] + 1
                todo.append(n)
    return dist


def _tie_ranks(board: D.Board) -> list[dict]:
    """Each seat's tie order of the cells: the rows nearest the enemy mothership first, west
    to east within a row. A seat whose launch hexes lie above the enemy's (seat 1 on the
    stand-in, at the top) counts rows from the bottom, the other from the top; with the
    launch hexes level both count from the top. On a board that is its own top-bottom mirror
    image (rows r and rows - 1 - r) one seat's order is the mirror of the other's, so no seat
    is favoured by how ties fall. (Before this the bots broke ties by the cell index, row 0
    first, for both seats: the seat at the top then chose its rearmost candidates and the one
    at the bottom its foremost, which gave seat 2 about 52% of tactical self-play.)"""
    cols, rows = board.cols, board.rows
    mean_row = [sum(c[1] for c in m.launch) / len(m.launch) for m in board.motherships]
    out = []
    for m in board.motherships:
        from_bottom = mean_row[m.index] < mean_row[1 - m.index]
        out.append({(c, r): ((rows - 1 - r) if from_bottom else r) * cols + c for r in range(rows) for c in range(cols)})
    return out


def build(params: UfoOParams) -> np.ndarray:
    return _build(params, data_version(params))


# Cached by the file's content too (``version``), not its name only: a file edited in the same
# process is read again. Building takes 40 ms, paid by every run of a sweep or sensitivity analysis.
@lru_cache(maxsize=32)
def _build(params: UfoOParams, version: str) -> np.ndarray:
    board = load(params)
    cols, rows = board.cols, board.rows
    idx = lambda cell: G.index(cell, cols)  # noqa: E731
    b = np.zeros(B_SIZE, np.int32)
    b[B_COLS], b[B_ROWS], b[B_NCELLS] = cols, rows, cols * rows
    b[B_TURN_CAP] = params.turn_cap
    b[B_FIRST_PLAYER] = ("roll", "seat1", "seat2").index(params.first_player)  # 1 + the first seat's index
    b[B_FIRE_ANY] = params.fire_lines == "any"
    b[B_UFOS_BLOCK] = params.ufos_block_fire
    b[B_MS_BLOCK] = params.mothership_blocks_fire
    b[B_ATTACKS_ONE] = params.attacks_per_turn == "one"
    b[B_NO_TARGET_ENDS] = params.no_target_ends_turn
    b[B_DEF_MALUS] = params.damaged_defender_malus
    b[B_ION_ZERO] = params.ion_backfire_zero
    b[B_PUSH_OPTIONAL] = params.push_optional
    b[B_PUSH_UP_TO] = params.push_length == "up_to"
    b[B_PUSH_PATH] = ("any", "straight", "away").index(params.push_path)
    b[B_PUSH_THROUGH] = ("like_move", "empty", "any").index(params.push_through)
    b[B_PUSH_NONE] = params.push_blocked == "none"
    b[B_OFF_BOARD_CRASH] = params.push_off_board == "destroyed"
    b[B_ASTEROID_CRASH] = params.push_into_asteroid == "destroyed"
    b[B_ANY_CRASH] = b[B_OFF_BOARD_CRASH] | b[B_ASTEROID_CRASH]
    b[B_AST_MOVED] = params.asteroid_check == "moved"
    b[B_AST_EACH_MOVE] = params.asteroid_roll_timing == "after_each_move"
    b[B_MS_FROM_MOVED] = params.mothership_attack_from == "moved"
    b[B_MS_BACKFIRE] = params.mothership_ion_backfire
    b[B_MS_USES_ATTACK] = params.mothership_attack_uses_attack
    b[B_MS_FIRE] = ("any_time", "start", "end").index(params.mothership_fire)
    b[B_VOLLEY_SINGLE] = params.mothership_volley == "single"
    b[B_RESPAWN_SAME] = params.respawn_delay == "same_turn"
    b[B_LAUNCH_COST] = params.launch_cost
    b[B_FIRST_TURN_UFOS] = params.first_turn_ufos  # K1
    b[B_FIRST_TURN_STEPS] = params.first_turn_steps  # K2
    b[B_SECOND_STRUCTURE] = params.second_player_structure  # K3

    pictures = board.mothership_cells()
    ranks = _tie_ranks(board)
    for m in board.motherships:
        for cell, r in ranks[m.index].items():
            b[B_TIE_RANK + m.index * MAX_CELLS + idx(cell)] = r
        b[B_STRUCTURE + m.index] = m.structure
        for k, cell in enumerate(m.launch):
            b[B_LAUNCH + m.index * UFOS + k] = idx(cell)
        _put_mask(b, B_LAUNCH_MASK + m.index * MASK_WORDS, [idx(c) for c in m.launch])
        dist = _terrain_distance(board, list(m.launch))
        for i in range(MAX_CELLS):
            b[B_HOME_DIST + m.index * MAX_CELLS + i] = FAR
        for cell, d in dist.items():
            b[B_HOME_DIST + m.index * MAX_CELLS + idx(cell)] = d
        order = sorted(dist, key=lambda c: (dist[c], idx(c)))
        b[B_BY_DIST + m.index * MAX_CELLS:B_BY_DIST + (m.index + 1) * MAX_CELLS] = -1
        for i, cell in enumerate(order):
            b[B_BY_DIST + m.index * MAX_CELLS + i] = idx(cell)
        for d in range(MAX_CELLS):
            b[B_DIST_START + m.index * MAX_CELLS + d] = next((i for i, c in enumerate(order) if dist[c] >= d), len(order))

    b[B_TERRAIN:B_TERRAIN + MAX_CELLS] = T_OFF
    b[B_NB:B_NB + MAX_CELLS * 6] = -1
    b[B_LINE_TGT:B_LINE_TGT + MAX_CELLS * 6] = -1
    b[B_OFF_TGT:B_OFF_TGT + MAX_CELLS * 6] = -1
    b[B_OFF_MID:B_OFF_MID + MAX_CELLS * 12] = -1

    def fire_block(cell) -> bool:  # R5.3, terrain only (UFOs are checked during play, A2)
        return cell in board.asteroids or (params.mothership_blocks_fire and cell in pictures)

    cells = [(c, r) for r in range(rows) for c in range(cols)]
    open_cells = []
    for cell in cells:
        i = idx(cell)
        b[B_TERRAIN + i] = T_ASTEROID if cell in board.asteroids else T_PICTURE if cell in pictures else T_OPEN
        if b[B_TERRAIN + i] == T_OPEN:
            open_cells.append(i)
        b[B_FIRE_BLOCK + i] = fire_block(cell)
        b[B_AST_ADJ + i] = board.next_to_asteroid(cell)
        x, _, z = G.to_cube(cell)
        b[B_CUBE_X + i], b[B_CUBE_Z + i] = x, z
        nbs = []
        for d in range(6):
            n = G.step(cell, d)
            if board.on_grid(n):
                b[B_NB + i * 6 + d] = idx(n)
                nbs.append(idx(n))
            else:
                b[B_EDGE + i] = 1
        _put_mask(b, B_NB_MASK + i * MASK_WORDS, nbs)
        fire = []
        for d, mid, tgt in G.line2(cell, cols, rows):  # R5.1 (a): straight lines
            b[B_LINE_TGT + i * 6 + d] = idx(tgt)
            if not fire_block(mid):
                fire.append(idx(tgt))
        j = 0
        for tgt in G.ring2(cell, cols, rows):  # R5.1 (b): the six off-line cells at distance 2
            if G.straight(cell, tgt):
                continue
            m1, m2 = G.between(cell, tgt)
            b[B_OFF_TGT + i * 6 + j] = idx(tgt)
            # a hex in between may lie off the grid (at the edge): empty space, never blocking
            b[B_OFF_MID + i * 12 + 2 * j] = idx(m1) if board.on_grid(m1) else -1
            b[B_OFF_MID + i * 12 + 2 * j + 1] = idx(m2) if board.on_grid(m2) else -1
            j += 1
            if params.fire_lines == "any" and not (fire_block(m1) and fire_block(m2)):
                fire.append(idx(tgt))
        _put_mask(b, B_FIRE_MASK + i * MASK_WORDS, fire)
    _put_mask(b, B_OPEN_MASK, open_cells)
    _put_mask(b, B_AST_ADJ_MASK, [i for i in open_cells if b[B_AST_ADJ + i]])
    _put_mask(b, B_EDGE_MASK, [i for i in open_cells if b[B_EDGE + i]])
    return b


def cell_name(b: np.ndarray, c: int) -> str:
    """``(col,row)`` of a cell index, as the rules document writes cells."""
    cols = int(b[B_COLS])
    return f"({c % cols},{c // cols})"
