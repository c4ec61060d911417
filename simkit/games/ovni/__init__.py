"""O.V.N.I. (Marcos Macri; MS Jogos, about 2013): 2-4 alien civilisations bid for recruits
with face-down command tokens, then fly, abduct, build and fight over twelve cities; a
dummy planet joins 2-player games.

Rules as implemented: docs/rules/ovni.md. Data (with stand-ins for the unknown
components): ``data/board.toml``, ``data/decks.toml``.
"""

from __future__ import annotations

import numpy as np

import strategies.ovni as bots

from ... import rules
from ...game import Analysis, Checks, GameSpec, OutputTable, Text, derived_column, game_column, seat_column
from . import board as board_mod
from . import describe
from . import engine as E
from .params import OVNIParams

CLASS_NAMES = np.array(["pilots", "abductors", "builders", "military", "none"], dtype=object)
CATEGORIES = ("majorities", "ufos", "airspace", "mapping", "humans", "missions")


def _win_share(cols, params):
    won = cols["won"]
    return np.where(won, 1.0 / np.maximum(won.sum(axis=1, keepdims=True), 1), 0.0)


def _names_of(key: str, col: str):
    def derive(cols, params):
        names = np.array(board_mod.names(params)[key] + [""], dtype=object)
        idx = np.asarray(cols[col])
        return names[np.where(idx >= 0, idx, len(names) - 1)]

    return derive


OUTPUTS = OutputTable([
    derived_column("players", "game", lambda cols, p: np.full(len(cols["rounds"]), p.players, np.int8), "number of players"),
    game_column("rounds", E.ROUND, "rounds played", np.int16),
    game_column("capped", E.CAPPED, "the game was stopped by max_rounds (R14.2)", bool),
    game_column("draw", E.DRAWN, "more than one winner after the tie-breaks, or a capped game with cap_result=draw", bool),
    game_column("end_class", E.END_CLASS, "the first class whose stock ran out (none if capped)", object,
                lambda c: CLASS_NAMES[np.where(c >= 0, c, 4)]),
    game_column("reshuffles", E.RESHUFFLES, "times the alien discard pile was shuffled into a new deck (A5)", np.int16),
    game_column("areas_unclaimed", E.AREAS_UNCLAIMED, "recruitment areas with no winner, over the game", np.int16),
    game_column("dummy_areas", E.DUMMY_AREAS, "areas won by the dummy (2 players; otherwise 0)", np.int16),
    game_column("dummy_aliens", E.DUMMY_ALIENS, "aliens the dummy holds at the end (2 players; otherwise 0)", np.int16),
    seat_column("won", E.P_WON, "whether this seat won (shared wins count for every winner)", bool),
    derived_column("win_share", "seat", _win_share, "1/k when k seats share the win, else 0"),
    seat_column("score", E.P_SCORE, "final score (R15.7)", np.int16),
    seat_column("planet_index", E.P_PLANET_ID, "index of the seat's home planet in the board file", np.int8),
    derived_column("planet", "seat", _names_of("planets", "planet_index"), "home planet name", object),
    seat_column("first_phase1", E.P_FIRST1, "rounds in which the seat was first in the phase-1 order", np.int16),
    seat_column("first_phase2", E.P_FIRST2, "rounds in which the seat was first in the phase-2 order", np.int16),
    seat_column("ability_1_card", E.P_ABIL + 0, "index of the seat's first ability card in the decks file", np.int8),
    seat_column("ability_2_card", E.P_ABIL + 1, "index of the seat's second ability card in the decks file", np.int8),
    derived_column("ability_1", "seat", _names_of("abilities", "ability_1_card"), "the seat's first ability card (decks-file order)", object),
    derived_column("ability_2", "seat", _names_of("abilities", "ability_2_card"), "the seat's second ability card (decks-file order)", object),
    seat_column("missions_kept", E.P_NKEPT, "missions kept (1 or 2)", np.int8),
    seat_column("mission_1_card", E.P_M1, "index of the first kept mission in the decks file (-1 none)", np.int8),
    seat_column("mission_2_card", E.P_M2, "index of the second kept mission in the decks file (-1 none)", np.int8),
    derived_column("mission_1", "seat", _names_of("missions", "mission_1_card"), "id of the first kept mission (slot order)", object),
    derived_column("mission_2", "seat", _names_of("missions", "mission_2_card"), "id of the second kept mission (\"\" if none)", object),
    seat_column("mission_1_done", E.P_M1_DONE, "1 completed, 0 failed, -1 not kept", np.int8),
    seat_column("mission_2_done", E.P_M2_DONE, "1 completed, 0 failed, -1 not kept", np.int8),
    seat_column("missions_done", E.P_MDONE, "completed missions", np.int8),
    *[seat_column(f"points_{name}", E.P_PTS + i, f"points from {name} (R15); the six categories add up to the score", np.int16)
      for i, name in enumerate(CATEGORIES)],
    *[seat_column(name, E.P_HELD_END + k, f"{name} held at the end (captured included)", np.int16)
      for k, name in enumerate(("pilots", "abductors", "builders", "military"))],
    seat_column("captures", E.P_CAPTURES, "aliens the seat captured", np.int16),
    seat_column("captured_from", E.P_CAPTURED_FROM, "the seat's aliens captured by others", np.int16),
    seat_column("ufos_board", E.P_ON_BOARD, "UFOs on the board at the end", np.int16),
    seat_column("ufos_pad", E.P_PAD, "UFOs on the launch pad at the end", np.int16),
    seat_column("ufos_launched", E.P_LAUNCHED, "launches by Builders over the game", np.int16),
    seat_column("ufos_destroyed", E.P_DESTROYED, "enemy UFOs the seat destroyed", np.int16),
    seat_column("ufos_lost", E.P_LOST, "the seat's UFOs destroyed", np.int16),
    seat_column("cities_mapped", E.P_NMAPPED, "mapping tokens on the board", np.int16),
    seat_column("cities_controlled", E.P_CONTROLLED, "cities where the seat has the airspace (R15.3)", np.int16),
    seat_column("humans", E.P_NHUMANS, "humans abducted", np.int16),
    seat_column("human_kinds", E.P_KINDS, "distinct kinds among the abducted humans", np.int16),
    seat_column("areas_won", E.P_AREAS_WON, "recruitment areas won over the game", np.int16),
    seat_column("aliens_recruited", E.P_RECRUITED, "aliens received in phase 1 (awards and energy)", np.int16),
    seat_column("energy_1", E.P_ENERGY1, "rounds with energy bonus 1", np.int16),
    seat_column("energy_2", E.P_ENERGY2, "rounds with energy bonus 2", np.int16),
    seat_column("sixes_played", E.P_SIXES_PLAYED, "times the seat placed its 6", np.int16),
    seat_column("shield_rounds", E.P_SHIELD_ROUNDS, "rounds with parked Military (R17.6)", np.int16),
    seat_column("swaps", E.P_SWAPS, "swap-human uses (R17.4)", np.int16),
    seat_column("extra_moves_used", E.P_EXTRA_USED, "Pilot moves beyond the Pilots held (R17.5)", np.int16),
    seat_column("no_majority_abductions", E.P_NOMAJ_ABD, "abductions made without a majority (R17.9)", np.int16),
], seat_block=E.PLAYER_BLOCK)


SPEC = GameSpec(
    name="ovni",
    slug="ovni",
    title="O.V.N.I.",
    params=OVNIParams,
    engine=E,
    strategies=bots,
    board=board_mod.build,
    data_version=board_mod.data_version,
    outputs=OUTPUTS,
    default_bot="strategic",
    seats=lambda p: p.players,
    seat_range=(2, 4),
    max_steps=20_000,
    text=Text(
        describe_action=describe.describe_action,
        describe_state=describe.describe_state,
        describe_step=describe.describe_step,
        describe_setup=describe.describe_setup,
        describe_result=describe.describe_result,
        trace_mark=lambda s: int(s[E.ROUND]),
        trace_legend="places a 5 in area C: a command token of value 5 in recruitment area C (equal values\n"
                      "cancel, the highest sum wins the aliens on the area's card); table: aliens held (captured\n"
                      "ones included), UFOs in cities and on the launch pad, cities mapped, humans abducted",
    ),
    analysis=Analysis(
        questions="simkit.games.ovni.questions:QUESTIONS",
        summary_means=("score", "rounds", "points_majorities", "points_ufos", "points_airspace", "points_mapping",
                       "points_humans", "points_missions"),
        compare_metrics=("rounds", "missions_done"),
        report="simkit.games.ovni.report:build",
        experiment="experiments/ovni.toml",
        sensitivity="simkit.games.ovni.sensitivity:DECLARATION",
    ),
    checks=Checks(
        invariants=describe.invariants,
        variants=({"players": 2}, {"players": 3}, {"players": 4},
                  # the compensations (docs/rules/ovni.md K1-K3, not in the rulebook), on together
                  {"players": 2, "start_order": "reversed", "start_triples": 1, "seat_bonus_points": 5},
                  {"players": 4, "start_order": "reversed", "start_triples": 2, "seat_bonus_points": 3}),
    ),
)


def Rules(params: OVNIParams | None = None, **settings):
    """O.V.N.I. step by step, e.g. ``Rules(players=3)`` (see :class:`simkit.rules.Rules`)."""
    return rules.Rules(SPEC, params, **settings)
