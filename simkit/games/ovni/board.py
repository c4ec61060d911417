"""Reads the O.V.N.I. data files (through ``data_model``) and builds the board vector the
compiled rules read: the settings (each reading of docs/rules/ovni.md as a flag), the
piece counts and scoring values, the alien cards, the ability cards, the missions and
the map, as named fields of a :class:`~simkit.layout.Layout`.

Nothing in the compiled code depends on a data file except through this vector, so a
user's own board or decks file (``--set board=PATH``, ``--set decks=PATH``) needs no
recompilation.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...datafiles import chosen, read
from ...errors import UserError
from ...layout import Layout
from .data_model import BUILTIN_BOARD, BUILTIN_DECKS, CLASSES, EFFECTS, N_CITIES, N_KINDS, PARITIES, load
from .params import OVNIParams

MAX_CARDS = 64  # alien cards (data_model allows up to 64)
MAX_ABILITIES = 40
MAX_MISSIONS = 64
MAX_DEGREE = N_CITIES - 1

# Effect codes (index in data_model.EFFECTS), used by the engine.
(EFF_STARTING_ALIENS, EFF_MAP_THRESHOLD, EFF_PREBUILT_UFO, EFF_SWAP_HUMAN, EFF_EXTRA_MOVES, EFF_FORCE_FIELD,
 EFF_SIX_USES, EFF_MAPPING_POINTS, EFF_ABDUCT_WITHOUT_MAJORITY, EFF_UFO_POINTS) = range(len(EFFECTS))
PARITY_ANY, PARITY_EVEN, PARITY_ODD = range(len(PARITIES))

BOARD = Layout("ovni board")
(B_PLAYERS, B_NPLANETS, B_NAREAS, B_DUMMY,
 # the readings (docs/rules/ovni.md, A1-A23), 1 = the non-default reading
 B_PLANETS_RANDOM, B_MAX_ROUNDS, B_CAP_DRAW, B_TIE_OPENER_ONLY, B_AWARD_LAST, B_SIX_RETURNS, B_STUCK_SKIP,
 B_SHUFFLE_ALL, B_ENERGY_EMPTY_WIN, B_DUMMY_ENERGY_LAST, B_MAP_END_GROUP, B_EMPTY_GROUP, B_ATTACKS_DYNAMIC,
 B_TARGETS_ALL_DIFFERENT, B_LAST_OWN, B_NOMAJ_PRESENCE, B_SWAP_EMPTY, B_CAPTURED_SCORING, B_MISSION_LAUNCHED,
 B_PARITY_ANY, B_OVERLAP_ADDITIVE, B_FF2P_DEAD, B_DUMMY_FREE, B_DUMMY_BLOCKS,
 # components
 B_STOCK, B_UFOS, B_PAD,
 # scoring values ([scoring] in decks.toml)
 B_SC_MAJORITY, B_SC_UFO_BOARD, B_SC_UFO_PAD, B_SC_AIRSPACE, B_SC_MAPPING, B_SC_FIVE, B_SC_SIX, B_SC_DONE, B_SC_FAILED,
 # decks
 B_NCARDS, B_NABIL, B_NABIL_PLAY, B_NMIS) = BOARD.scalars(
    "players", "nplanets", "nareas", "dummy",
    "planets_random", "max_rounds", "cap_draw", "tie_opener_only", "award_last", "six_returns", "stuck_skip",
    "shuffle_all", "energy_empty_win", "dummy_energy_last", "map_end_group", "empty_group", "attacks_dynamic",
    "targets_all_different", "last_own", "nomaj_presence", "swap_empty", "captured_scoring", "mission_launched",
    "parity_any", "overlap_additive", "ff2p_dead", "dummy_free", "dummy_blocks",
    "stock", "ufos", "pad",
    "sc_majority", "sc_ufo_board", "sc_ufo_pad", "sc_airspace", "sc_mapping", "sc_five", "sc_six", "sc_done",
    "sc_failed",
    "ncards", "nabil", "nabil_play", "nmis")
B_SC_SAME = BOARD.array("sc_same", 3)  # humans of one kind: 1, 2, 3 pieces
B_CARD = BOARD.array("card", MAX_CARDS * 4)  # aliens per class on each alien card
B_ABIL_EFFECT = BOARD.array("abil_effect", MAX_ABILITIES)
B_ABIL_P1 = BOARD.array("abil_p1", MAX_ABILITIES)  # the card's first number (see _ability_numbers)
B_ABIL_P2 = BOARD.array("abil_p2", MAX_ABILITIES)
B_ABIL_PLAY = BOARD.array("abil_play", MAX_ABILITIES)  # indices of the cards shuffled for the deal (S5)
# Missions: one record of MIS_STRIDE ints each (see M_* below).
M_AIR_PAR, M_AIR_N, M_HUM, M_ALI, M_CAP, M_MAP_PAR, M_MAP_N, M_UFOS, M_KIND = 0, 1, 2, 2 + N_KINDS, 2 + N_KINDS + 4, \
    2 + N_KINDS + 8, 3 + N_KINDS + 8, 4 + N_KINDS + 8, 5 + N_KINDS + 8
MIS_STRIDE = M_KIND + 1
B_MIS = BOARD.array("missions", MAX_MISSIONS * MIS_STRIDE)
B_ADJ = BOARD.array("adj", N_CITIES * N_CITIES)  # 1 when two cities share a route (R9.2)
B_NDEG = BOARD.array("ndeg", N_CITIES)
B_NB = BOARD.array("nb", N_CITIES * MAX_DEGREE)  # neighbours of each city, ascending
B_NBMASK = BOARD.array("nbmask", N_CITIES)  # neighbours of each city as a bit mask
B_DIST_RANK = BOARD.array("dist_rank", 4)  # rank of each board planet's distance, 0 = nearest to Earth
B_EVEN = BOARD.array("even", N_CITIES)  # 1 when the city's number (1-12) is even
B_DIST = BOARD.array("city_dist", N_CITIES * N_CITIES)  # fewest Pilot moves between two cities (bots)
# Compensations (docs/rules/ovni.md K1-K3; not in the rulebook, 0 = the rules as written)
B_START_REVERSED, B_START_TRIPLES, B_SEAT_BONUS = BOARD.scalars("start_reversed", "start_triples", "seat_bonus")
B_SIZE = BOARD.size

HINT_BOARD = "check --set board=PATH"
HINT_DECKS = "check --set decks=PATH"


_NUMBERS = {  # the card's numbers the engine reads, (p1, p2), by effect
    "starting_aliens": ("aliens", None),
    "map_threshold": ("ufos", None),
    "prebuilt_ufo": ("ufos", None),
    "swap_human": (None, None),
    "extra_moves": ("moves", "min_pilots"),
    "force_field": ("military", "min_players"),
    "six_uses": ("uses", None),
    "mapping_points": ("points", None),
    "abduct_without_majority": (None, None),
    "ufo_points": ("points", None),
}


def _ability_numbers(effect: str, a) -> tuple[int, int]:
    k1, k2 = _NUMBERS[effect]
    return (a.param(k1) if k1 else 0), (a.param(k2) if k2 else 0)


def data_version(params: OVNIParams) -> str:
    """Versions and content hashes of the two data files these parameters read (without
    checking them: names and boards are cached by it, and looked up often)."""
    parts = []
    for value, builtin, setting in ((params.board, BUILTIN_BOARD, "board"), (params.decks, BUILTIN_DECKS, "decks")):
        doc, digest = read(str(chosen(value, builtin, setting, setting)), f"{setting} file", f"check --set {setting}=PATH")
        parts.append(f"{doc.get('version')}:{digest}")
    return "+".join(parts)


# Cached by the files' content too (``version``), not the parameters naming them only: a
# file edited in the same process is read again.
@lru_cache(maxsize=32)
def _build(params: OVNIParams, version: str) -> np.ndarray:
    board, decks = load(params)
    b = np.zeros(B_SIZE, np.int32)
    n = params.players
    b[B_PLAYERS] = n
    b[B_NPLANETS] = 3 if n == 2 else n
    b[B_NAREAS] = 4 if n == 4 else 3
    b[B_DUMMY] = 2 if n == 2 else -1
    flags = {
        B_PLANETS_RANDOM: params.planets == "random",
        B_CAP_DRAW: params.cap_result == "draw",
        B_TIE_OPENER_ONLY: params.tie_rule == "opener_only",
        B_AWARD_LAST: params.multi_award_at == "last",
        B_SIX_RETURNS: params.six_cancelled == "returns",
        B_STUCK_SKIP: params.stuck_placement == "skip",
        B_SHUFFLE_ALL: params.reshuffle == "shuffle_all",
        B_ENERGY_EMPTY_WIN: params.energy_after_empty_win,
        B_DUMMY_ENERGY_LAST: params.dummy_energy == "last",
        B_MAP_END_GROUP: params.map_check == "end_of_group",
        B_EMPTY_GROUP: params.empty_group,
        B_ATTACKS_DYNAMIC: params.attacks_dynamic,
        B_TARGETS_ALL_DIFFERENT: params.military_targets == "all_different",
        B_LAST_OWN: params.last_of_class == "own",
        B_NOMAJ_PRESENCE: params.no_majority_presence,
        B_SWAP_EMPTY: params.swap_into_empty,
        B_CAPTURED_SCORING: params.captured_in_scoring,
        B_MISSION_LAUNCHED: params.mission_ufos == "launched",
        B_PARITY_ANY: params.mission_parity == "any",
        B_OVERLAP_ADDITIVE: params.mission_overlap == "additive",
        B_FF2P_DEAD: params.force_field_2p == "dead",
        B_DUMMY_FREE: params.dummy_start == "free",
        B_DUMMY_BLOCKS: params.dummy_in_scoring == "blocks",
    }
    for off, on in flags.items():
        b[off] = int(bool(on))
    b[B_MAX_ROUNDS] = params.max_rounds
    # compensations (K1-K3): the last seats choosing first, triples for the last seats, points by seat
    b[B_START_REVERSED] = int(params.start_order == "reversed")
    b[B_START_TRIPLES] = min(params.start_triples, n - 1)
    b[B_SEAT_BONUS] = params.seat_bonus_points

    # components (R1.3, R1.4)
    b[B_STOCK] = decks.aliens_per_class - (decks.aliens_removed_small if n < 4 else 0)
    b[B_UFOS] = decks.ufos_per_player
    b[B_PAD] = decks.launch_pad
    sc = decks.scoring
    b[B_SC_MAJORITY] = sc["majority"]
    b[B_SC_UFO_BOARD] = sc["ufo_on_board"]
    b[B_SC_UFO_PAD] = sc["ufo_on_pad"]
    b[B_SC_AIRSPACE] = sc["airspace"]
    b[B_SC_MAPPING] = sc["mapping"]
    b[B_SC_SAME:B_SC_SAME + 3] = sc["humans_same_kind"]
    b[B_SC_FIVE] = sc["humans_five_kinds"]
    b[B_SC_SIX] = sc["humans_six_kinds"]
    b[B_SC_DONE] = sc["mission_done"]
    b[B_SC_FAILED] = sc["mission_failed"]

    # alien cards
    if len(decks.alien_cards) > MAX_CARDS:
        raise UserError(f"{decks.path}: aliens: {len(decks.alien_cards)} cards; the engine holds at most {MAX_CARDS}")
    b[B_NCARDS] = len(decks.alien_cards)
    for i, card in enumerate(decks.alien_cards):
        b[B_CARD + 4 * i:B_CARD + 4 * i + 4] = card

    # ability cards (R17)
    if len(decks.abilities) > MAX_ABILITIES:
        raise UserError(f"{decks.path}: abilities: at most {MAX_ABILITIES} cards")
    b[B_NABIL] = len(decks.abilities)
    play = []
    for i, a in enumerate(decks.abilities):
        if a.effect == "starting_aliens" and a.param("aliens") not in (2, 3):
            raise UserError(f"{decks.path}: abilities[{i}] (name {a.name}).aliens: the engine supports 2 or 3 starting "
                            f"aliens (the action ids offer pairs and triples)")
        b[B_ABIL_EFFECT + i] = EFFECTS.index(a.effect)
        p1, p2 = _ability_numbers(a.effect, a)
        b[B_ABIL_P1 + i] = p1
        b[B_ABIL_P2 + i] = p2
        # R19.5 / A21: with 2 players and force_field_2p=remove, cards that need more
        # players leave the deck before the shuffle
        if n == 2 and params.force_field_2p == "remove" and a.effect == "force_field" and a.param("min_players") > 2:
            continue
        play.append(i)
    b[B_NABIL_PLAY] = len(play)
    b[B_ABIL_PLAY:B_ABIL_PLAY + len(play)] = play

    # missions (R18)
    if len(decks.missions) > MAX_MISSIONS:
        raise UserError(f"{decks.path}: missions: at most {MAX_MISSIONS} cards")
    from .data_model import MISSION_KINDS

    b[B_NMIS] = len(decks.missions)
    for i, m in enumerate(decks.missions):
        o = B_MIS + i * MIS_STRIDE
        b[o + M_AIR_PAR] = PARITIES.index(m.airspace_parity)
        b[o + M_AIR_N] = m.airspace_cities
        b[o + M_HUM:o + M_HUM + N_KINDS] = m.humans
        b[o + M_ALI:o + M_ALI + 4] = m.aliens
        b[o + M_CAP:o + M_CAP + 4] = m.captures
        b[o + M_MAP_PAR] = PARITIES.index(m.mapped_parity)
        b[o + M_MAP_N] = m.mapped_cities
        b[o + M_UFOS] = m.ufos
        b[o + M_KIND] = MISSION_KINDS.index(m.kind)

    # map (R9.2)
    b[B_NB:B_NB + N_CITIES * MAX_DEGREE] = -1
    for c in range(N_CITIES):
        nbs = board.neighbours(c + 1)
        b[B_NDEG + c] = len(nbs)
        for k, d in enumerate(nbs):
            b[B_NB + c * MAX_DEGREE + k] = d - 1
            b[B_ADJ + c * N_CITIES + d - 1] = 1
            b[B_NBMASK + c] |= 1 << (d - 1)
        b[B_EVEN + c] = int((c + 1) % 2 == 0)
        for d in range(N_CITIES):
            b[B_DIST + c * N_CITIES + d] = board.distance(c + 1, d + 1)
    order = sorted(range(len(board.planets)), key=lambda i: board.planets[i].distance)
    for rank, i in enumerate(order):
        b[B_DIST_RANK + i] = rank
    b.flags.writeable = False
    return b


def build(params: OVNIParams) -> np.ndarray:
    """The board vector for these parameters (cards, missions and humans are dealt per game)."""
    return _build(params, data_version(params)).copy()


def names(params: OVNIParams) -> dict:
    """Names for text and output columns: cities, planets, human kinds, cards."""
    return _names(params, data_version(params))


@lru_cache(maxsize=32)
def _names(params: OVNIParams, version: str) -> dict:
    board, decks = load(params)
    return {
        "cities": [c.name for c in board.cities],
        "planets": [p.name for p in board.planets],
        "kinds": [h.kind for h in decks.humans],
        "colours": [h.colour for h in decks.humans],
        "cards": list(decks.alien_labels),
        "abilities": [a.name for a in decks.abilities],
        "effects": [a.effect for a in decks.abilities],
        "missions": [m.id for m in decks.missions],
        "classes": list(CLASSES),
    }
