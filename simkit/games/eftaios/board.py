"""The board vector of Escape From the Aliens: the map, the decks and the chosen readings,
as named int32 fields (a Layout, like the state) that the compiled rules and bots read.

The data files are read and checked by ``data_model`` (one-line errors naming the file and
the entry); this module only lays their facts out for compiled code:

* per cell (ids 0..321, R2 of docs/rules/eftaios.md): kind, hatch number, the six
  neighbours (-1 padded), the human walking distance to each hatch (for the bots);
* the same facts as bit sets of the map (``bits.py``: 6 words of 4 columns x 16 rows);
* the decks in canonical order (R1.4): Dangerous Sector kinds and icons, item kinds, hatch
  colours, character sides and roles;
* the settings: mode, scenario, players, max_rounds and one flag per reading A1-A29.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

import numpy as np

from ...datafiles import version
from ...errors import UserError
from ...layout import Layout
from . import data_model as dm
from .params import EftaiosParams

NCELLS = dm.NCELLS
MAX_DANGER = 64  # Dangerous Sector cards a card file may hold
MAX_ITEMS = 32  # item cards
MAX_HATCHCARDS = 16  # hatch cards
MAX_CHARS = 16  # character cards
FAR = 999  # distance to an unreachable hatch

# Cell kinds (data_model's codes).
VOID, SAFE, DANGER, HUMAN_START, ALIEN_START, HATCH = dm.VOID, dm.SAFE, dm.DANGER, dm.HUMAN_START, dm.ALIEN_START, dm.HATCH
# Dangerous Sector card kinds, item kinds (card-file order), roles.
NOISE_HERE, NOISE_ANY, SILENCE = 0, 1, 2
IT_ATTACK, IT_TELEPORT, IT_ADRENALINE, IT_SEDATIVES, IT_SPOTLIGHT, IT_DEFENCE = range(6)
N_ITEM_KINDS = 6
ROLE_OTHER, ROLE_CAPTAIN, ROLE_PILOT, ROLE_PSYCHOLOGIST, ROLE_SOLDIER = range(5)
_ROLES = {"captain": ROLE_CAPTAIN, "pilot": ROLE_PILOT, "psychologist": ROLE_PSYCHOLOGIST, "soldier": ROLE_SOLDIER}
SC_NONE, SC_OLD_GUARD, SC_INFECTION, SC_ARENA = range(4)
NOISE_COORDINATES, NOISE_DANGEROUS, NOISE_ANYSECTOR = range(3)

# Bit sets (see bits.py): 6 int64 words = 12 int32 each. They come first so that every one
# starts at an even int32 offset (an int64 view of the board needs 8-byte alignment).
BITS_WORDS = 6
BITS_INTS = 2 * BITS_WORDS

BOARD = Layout("eftaios board")
BB_VALID = BOARD.array("bb_valid", BITS_INTS)  # every sector (non-void cell)
BB_SAFE = BOARD.array("bb_safe", BITS_INTS)
BB_DANGER = BOARD.array("bb_danger", BITS_INTS)
BB_WALK = BOARD.array("bb_walk", BITS_INTS)  # safe or dangerous
BB_HATCH = BOARD.array("bb_hatch", BITS_INTS)  # every hatch sector
BB_START = BOARD.array("bb_start", BITS_INTS)  # the Human and Alien sectors
(B_PLAYERS, B_ADVANCED, B_SCENARIO, B_MAX_ROUNDS, B_HUMANS, B_ALIENS, B_HUMAN_START, B_ALIEN_START,
 B_NHATCHES, B_FEEDING, B_HATCH_CARDS, B_OG_ITEMS, B_OG_CHARS, B_ARENA_THRESHOLD,
 # readings A1-A29
 B_ALIEN_HATCH_TRANSIT, B_HUMAN_HATCH_TRANSIT, B_USED_HATCH_ENTERABLE, B_DEFENCE_ATTACK, B_DEFENCE_VS_HUMAN,
 B_OVERFLOW_USE, B_ADRENALINE_EXACT, B_ADRENALINE_STACKS, B_NOISE_TARGETS, B_SPOTLIGHT_ANY, B_ITEM_BEFORE_NOISE,
 B_RESHUFFLE_ON_EMPTY, B_ITEM_RESHUFFLE, B_DISCARD_REVEALED, B_ESCAPED_ITEMS_DISCARDED, B_DEAD_ALIENS_WIN,
 B_STRANDED_ALIEN_WIN, B_CAPTAIN_FIRST_DRAW, B_OG_SPOTLIGHT_PRIVATE, B_INFECTED_WIN, B_INFECTED_KEEP_ITEMS,
 B_ARENA_SAFE_CLOSED, B_ARENA_START_RANDOM, B_ARENA_RESPAWN_ALIEN, B_ARENA_END_FIRST, B_STUCK_QUIET,
 # decks
 B_NDANGER, B_NITEMS, B_NHATCHCARDS, B_NCHARS) = BOARD.scalars(
    "players", "advanced", "scenario", "max_rounds", "humans", "aliens", "human_start", "alien_start",
    "nhatches", "feeding", "hatch_cards", "og_items", "og_chars", "arena_threshold",
    "alien_hatch_transit", "human_hatch_transit", "used_hatch_enterable", "defence_attack", "defence_vs_human",
    "overflow_use", "adrenaline_exact", "adrenaline_stacks", "noise_targets", "spotlight_any", "item_before_noise",
    "reshuffle_on_empty", "item_reshuffle", "discard_revealed", "escaped_items_discarded", "dead_aliens_win",
    "stranded_alien_win", "captain_first_draw", "og_spotlight_private", "infected_win", "infected_keep_items",
    "arena_safe_closed", "arena_start_random", "arena_respawn_alien", "arena_end_first", "stuck_quiet",
    "ndanger", "nitems", "nhatchcards", "nchars")
B_KIND = BOARD.array("kind", NCELLS)  # cell kind (VOID ... HATCH)
B_HATCHNUM = BOARD.array("hatchnum", NCELLS)  # 1..4 on a hatch, 0 elsewhere
B_HATCH_CELL = BOARD.array("hatch_cell", 4)  # cell of hatch 1..4, -1 if absent
B_NB = BOARD.array("nb", NCELLS * 6)  # the adjacent sectors of each cell, -1 padded
B_HDIST = BOARD.array("hdist", 4 * NCELLS)  # human walking distance from a cell to hatch k (FAR if none)
B_NNOISE, B_NSPOT = BOARD.scalars("nnoise", "nspot")
B_NOISE_LIST = BOARD.array("noise_list", NCELLS)  # the sectors a noise anywhere may name (A9), in id order
B_SPOT_LIST = BOARD.array("spot_list", NCELLS)  # the sectors a Spotlight may light (A10), in id order
B_DANGER_KIND = BOARD.array("danger_kind", MAX_DANGER)
B_DANGER_ICON = BOARD.array("danger_icon", MAX_DANGER)
B_ITEM_KIND = BOARD.array("item_kind", MAX_ITEMS)
B_HATCH_GREEN = BOARD.array("hatch_green", MAX_HATCHCARDS)
B_CHAR_SIDE = BOARD.array("char_side", MAX_CHARS)  # 0 human, 1 alien
B_CHAR_ROLE = BOARD.array("char_role", MAX_CHARS)  # ROLE_*
B_SIZE = BOARD.size
for _name in ("bb_valid", "bb_safe", "bb_danger", "bb_walk", "bb_hatch", "bb_start"):
    assert BOARD.fields[_name].offset % 2 == 0


def cell_bit(cell: int) -> tuple[int, int]:
    """(word, bit) of a cell id in a bit set: 4 columns per word, 16 bits per column."""
    col, row = divmod(cell, dm.NROWS)
    return col >> 2, (col & 3) * 16 + row


def bitset(cells) -> np.ndarray:
    """The bit set of some cells as 12 int32 (6 little-endian int64 words)."""
    words = np.zeros(BITS_WORDS, np.int64)
    for c in cells:
        w, bit = cell_bit(int(c))
        words[w] |= np.int64(1) << np.int64(bit)
    return words.view(np.int32).copy()


def cells_of(bits32: np.ndarray) -> list[int]:
    """The cells of a bit set given as 12 int32 (inverse of :func:`bitset`)."""
    words = np.ascontiguousarray(bits32, np.int32).view(np.int64)
    out = []
    for w in range(BITS_WORDS):
        for bit in range(64):
            if (int(words[w]) >> bit) & 1:
                col, row = w * 4 + bit // 16, bit % 16
                out.append(col * dm.NROWS + row)
    return sorted(out)


def _paths(params: EftaiosParams) -> tuple[str, str]:
    return (params.map_data or params.map), params.card_data


def data_version(params: EftaiosParams) -> str:
    mp, cards = _paths(params)
    mfile = str(dm.map_path(mp))
    cfile = cards or str(dm.BUILTIN_CARDS)
    return f"map {version(mfile, 'map file', 'check --set map=NAME or --set map_data=PATH')}; " \
           f"cards {version(cfile, 'card file', 'check --set card_data=PATH')}"


def _hatch_distances(m: dm.GameMap) -> np.ndarray:
    """Human walking distance from every cell to each hatch, over safe and dangerous sectors."""
    out = np.full((4, NCELLS), FAR, np.int32)
    for k, h in enumerate(m.hatches):
        if h < 0:
            continue
        out[k, h] = 0
        q = deque([h])
        while q:
            x = q.popleft()
            for y in m.neighbours(x):
                if out[k, y] == FAR and m.kind[y] in (SAFE, DANGER):
                    out[k, y] = out[k, x] + 1
                    q.append(y)
    return out


def build(params: EftaiosParams) -> np.ndarray:
    """The board vector for a set of parameters (reads and checks the data files)."""
    mp, cards = _paths(params)
    return _build(mp, cards, params.players, params.mode, params.scenario, params.max_rounds,
                  tuple((k, getattr(params, k)) for k in _READINGS), data_version(params)).copy()


_READINGS = ("alien_hatch_transit", "human_hatch_transit", "used_hatch_enterable", "defence_scope",
             "defence_vs_human_attack", "overflow_use", "adrenaline_exact", "adrenaline_stacks", "noise_targets",
             "spotlight_targets", "item_before_noise", "reshuffle", "item_reshuffle", "discard_revealed",
             "escaped_items_discarded", "dead_aliens_win", "stranded_alien_win", "captain_exemption",
             "old_guard_spotlight", "infected_win_with_aliens", "infected_keep_items", "arena_safe_sectors",
             "arena_start", "arena_respawn", "arena_kills", "arena_end", "stuck_rule", "feeding_in_basic")


# Cached by the files' content too (``version``), not their names only: a file edited in the
# same process is read again.
@lru_cache(maxsize=32)
def _build(map_name: str, card_file: str, players: int, mode: str, scenario: str, max_rounds: int, readings,
           version: str) -> np.ndarray:
    r = dict(readings)
    m = dm.load_map(map_name)
    c = dm.load_cards(card_file)
    if len(c.danger) > MAX_DANGER:
        raise UserError(f"{c.path}: danger: {len(c.danger)} cards; at most {MAX_DANGER} are supported")
    if len(c.items) > MAX_ITEMS:
        raise UserError(f"{c.path}: items: {len(c.items)} cards; at most {MAX_ITEMS} are supported")
    if len(c.hatch) > MAX_HATCHCARDS:
        raise UserError(f"{c.path}: hatch: {len(c.hatch)} cards; at most {MAX_HATCHCARDS} are supported")
    if len(c.characters) > MAX_CHARS:
        raise UserError(f"{c.path}: characters: {len(c.characters)} cards; at most {MAX_CHARS} are supported")
    b = np.zeros(B_SIZE, np.int32)
    advanced = mode == "advanced"
    sc = ("none", "old_guard", "infection", "arena").index(scenario)
    b[B_PLAYERS] = players
    b[B_ADVANCED] = int(advanced)
    b[B_SCENARIO] = sc
    b[B_MAX_ROUNDS] = max_rounds
    if sc == SC_ARENA:  # R12.4.1: no humans
        b[B_HUMANS], b[B_ALIENS] = 0, players
    else:  # R1.2
        b[B_HUMANS], b[B_ALIENS] = players // 2, players - players // 2
    b[B_HUMAN_START] = m.human_start
    b[B_ALIEN_START] = m.alien_start
    b[B_NHATCHES] = sum(1 for h in m.hatches if h >= 0)
    b[B_FEEDING] = int((advanced or r["feeding_in_basic"]) and sc != SC_INFECTION)  # R9, A29, C.3
    b[B_HATCH_CARDS] = int(advanced and sc != SC_INFECTION)  # R10, D.2
    b[B_OG_ITEMS] = int(advanced and sc == SC_OLD_GUARD)  # G.4, H.3, H.4, J.4 (R12.2.0)
    b[B_OG_CHARS] = int(sc == SC_OLD_GUARD)  # H.1, H.2 in either mode
    b[B_ARENA_THRESHOLD] = r["arena_kills"] or players  # A25
    b[B_ALIEN_HATCH_TRANSIT] = int(r["alien_hatch_transit"])
    b[B_HUMAN_HATCH_TRANSIT] = int(r["human_hatch_transit"])
    b[B_USED_HATCH_ENTERABLE] = int(r["used_hatch_enterable"])
    b[B_DEFENCE_ATTACK] = int(r["defence_scope"] == "attack")
    b[B_DEFENCE_VS_HUMAN] = int(r["defence_vs_human_attack"])
    b[B_OVERFLOW_USE] = int(r["overflow_use"])
    b[B_ADRENALINE_EXACT] = int(r["adrenaline_exact"])
    b[B_ADRENALINE_STACKS] = int(r["adrenaline_stacks"])
    b[B_NOISE_TARGETS] = ("coordinates", "dangerous", "any").index(r["noise_targets"])
    b[B_SPOTLIGHT_ANY] = int(r["spotlight_targets"] == "any")
    b[B_ITEM_BEFORE_NOISE] = int(r["item_before_noise"])
    b[B_RESHUFFLE_ON_EMPTY] = int(r["reshuffle"] == "on_empty")
    b[B_ITEM_RESHUFFLE] = int(r["item_reshuffle"])
    b[B_DISCARD_REVEALED] = int(r["discard_revealed"])
    b[B_ESCAPED_ITEMS_DISCARDED] = int(r["escaped_items_discarded"])
    b[B_DEAD_ALIENS_WIN] = int(r["dead_aliens_win"])
    b[B_STRANDED_ALIEN_WIN] = int(r["stranded_alien_win"])
    b[B_CAPTAIN_FIRST_DRAW] = int(r["captain_exemption"] == "first_draw")
    b[B_OG_SPOTLIGHT_PRIVATE] = int(r["old_guard_spotlight"] == "private")
    b[B_INFECTED_WIN] = int(r["infected_win_with_aliens"])
    b[B_INFECTED_KEEP_ITEMS] = int(r["infected_keep_items"])
    b[B_ARENA_SAFE_CLOSED] = int(r["arena_safe_sectors"] == "closed")
    b[B_ARENA_START_RANDOM] = int(r["arena_start"] == "random")
    b[B_ARENA_RESPAWN_ALIEN] = int(r["arena_respawn"] == "alien_sector")
    b[B_ARENA_END_FIRST] = int(r["arena_end"] == "first")
    b[B_STUCK_QUIET] = int(r["stuck_rule"] == "stay_quiet")
    # the map
    kind = np.array(m.kind, np.int32)
    b[B_KIND:B_KIND + NCELLS] = kind
    b[B_HATCHNUM:B_HATCHNUM + NCELLS] = m.hatch_number
    b[B_HATCH_CELL:B_HATCH_CELL + 4] = m.hatches
    nb = np.full((NCELLS, 6), -1, np.int32)
    for x in range(NCELLS):
        if kind[x] != VOID:
            ns = m.neighbours(x)
            nb[x, :len(ns)] = ns
    b[B_NB:B_NB + NCELLS * 6] = nb.ravel()
    b[B_HDIST:B_HDIST + 4 * NCELLS] = _hatch_distances(m).ravel()
    noise_ok = {"coordinates": (SAFE, DANGER), "dangerous": (DANGER,),
                "any": (SAFE, DANGER, HUMAN_START, ALIEN_START, HATCH)}[r["noise_targets"]]  # A9
    spot_ok = (SAFE, DANGER, HUMAN_START, ALIEN_START, HATCH) if r["spotlight_targets"] == "any" else (SAFE, DANGER)  # A10
    noise = [x for x in range(NCELLS) if kind[x] in noise_ok]
    spot = [x for x in range(NCELLS) if kind[x] in spot_ok]
    b[B_NNOISE], b[B_NSPOT] = len(noise), len(spot)
    b[B_NOISE_LIST:B_NOISE_LIST + len(noise)] = noise
    b[B_SPOT_LIST:B_SPOT_LIST + len(spot)] = spot
    ids = np.arange(NCELLS)
    b[BB_VALID:BB_VALID + BITS_INTS] = bitset(ids[kind != VOID])
    b[BB_SAFE:BB_SAFE + BITS_INTS] = bitset(ids[kind == SAFE])
    b[BB_DANGER:BB_DANGER + BITS_INTS] = bitset(ids[kind == DANGER])
    b[BB_WALK:BB_WALK + BITS_INTS] = bitset(ids[(kind == SAFE) | (kind == DANGER)])
    b[BB_HATCH:BB_HATCH + BITS_INTS] = bitset(ids[kind == HATCH])
    b[BB_START:BB_START + BITS_INTS] = bitset([m.human_start, m.alien_start])
    # the decks, in canonical order (R1.4)
    b[B_NDANGER] = len(c.danger)
    for i, card in enumerate(c.danger):
        b[B_DANGER_KIND + i] = dm.DANGER_KINDS.index(card.kind)
        b[B_DANGER_ICON + i] = int(card.item)
    b[B_NITEMS] = len(c.items)
    for i, k in enumerate(c.items):
        b[B_ITEM_KIND + i] = dm.ITEM_KINDS.index(k)
    b[B_NHATCHCARDS] = len(c.hatch)
    for i, col in enumerate(c.hatch):
        b[B_HATCH_GREEN + i] = int(col == "green")
    b[B_NCHARS] = len(c.characters)
    for i, ch in enumerate(c.characters):
        b[B_CHAR_SIDE + i] = int(ch.side == "alien")
        b[B_CHAR_ROLE + i] = _ROLES.get(ch.role, ROLE_OTHER)
    b.setflags(write=False)
    return b


def cards(card_file: str = "") -> dm.Cards:
    return _cards(card_file, version(card_file or str(dm.BUILTIN_CARDS), "card file", "check --set card_data=PATH"))


@lru_cache(maxsize=8)
def _cards(card_file: str, version: str) -> dm.Cards:
    return dm.load_cards(card_file)
