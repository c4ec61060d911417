"""Escape From the Aliens In Outer Space (Porpora, Righi Riva, Rossi, Tedeschi; Cranio
Creations, black edition): hidden movement for 2-8 players, humans against aliens.

Rules as implemented: docs/rules/eftaios.md. Data: ``data/maps/*.toml``, ``data/cards.toml``
(loader and geometry: ``data_model.py``).
"""

from __future__ import annotations

import numpy as np

import strategies.eftaios as bots

from ... import rules
from ...game import Analysis, Checks, GameSpec, OutputTable, Text, derived_column, game_column, seat_column
from . import board as board_mod
from . import describe
from . import engine as E
from .params import EftaiosParams

U = E.P_USED
OUTPUTS = OutputTable([
    derived_column("players", "game", lambda cols, p: np.full(len(cols["rounds"]), p.players, np.int8), "number of players"),
    game_column("rounds", E.ROUND, "the round in which the game ended (max_rounds when it ended by time)", np.int16),
    game_column("turns", E.TURNS, "turns played (sum over seats)", np.int16),
    game_column("first_player", E.FIRST, "the seat (from 1) that played first", np.int8, lambda c: c + 1),
    game_column("end_reason", E.END_REASON, "0 human escaped (basic); 1 all humans eliminated (basic); 2 no human aboard "
                "(advanced); 3 time; 4 Arena threshold reached (first)", np.int8),
    derived_column("humans", "game", lambda cols, p: (cols["side"] == 0).sum(axis=1).astype(np.int8), "humans dealt at setup"),
    derived_column("aliens", "game", lambda cols, p: (cols["side"] == 1).sum(axis=1).astype(np.int8), "aliens dealt at setup"),
    game_column("escaped", E.ESCAPED, "humans who escaped", np.int8),
    game_column("humans_killed", E.HUMANS_KILLED, "eliminations of humans by attack (Arena: none)", np.int8),
    game_column("aliens_killed", E.ALIENS_KILLED, "eliminations of aliens by attack (Arena counts repeated kills)", np.int16),
    game_column("stranded", E.STRANDED, "humans eliminated because no hatch was open (R10.4)", np.int8),
    game_column("time_eliminated", E.TIME_ELIM, "humans eliminated when the time ran out (R11.4)", np.int8),
    game_column("infected", E.INFECTED, "humans turned into aliens (Infection)", np.int8),
    game_column("human_win", E.HUMAN_WIN, "1 if at least one human seat won", bool),
    game_column("alien_win", E.ALIEN_WIN, "1 if the alien side won", bool),
    game_column("draw", E.DRAW, "1 if no seat won (Arena only)", bool),
    game_column("hatches_red", E.HATCHES_RED, "hatches damaged by a red card", np.int8),
    game_column("hatches_used", E.HATCHES_USED, "hatches closed by an escape (advanced)", np.int8),
    game_column("danger_draws", E.DANGER_DRAWS, "Dangerous Sector cards drawn", np.int16),
    game_column("danger_reshuffles", E.DANGER_RESHUFFLES, "Dangerous Sector deck reshuffles", np.int8),
    game_column("item_draws", E.ITEM_DRAWS, "item cards drawn", np.int16),
    game_column("item_reshuffles", E.ITEM_RESHUFFLES, "item deck reshuffles", np.int8),
    seat_column("won", E.P_WON, "1 if this seat won (R7, R11, R12.4.6)", bool),
    seat_column("side", E.P_START_SIDE, "0 human, 1 alien at setup", np.int8),
    seat_column("final_side", E.P_SIDE, "the side at the end (differs after an Infection conversion)", np.int8),
    seat_column("character", E.P_CHAR, "character id 0-7 (-1 in Arena)", np.int8),
    seat_column("order", E.P_ORDER, "position in the turn order: 1 is the first player", np.int8, lambda c: c + 1),
    seat_column("fate", E.P_FATE, "0 aboard at the end; 1 escaped; 2 killed by an attack; 3 stranded; 4 eliminated by time; 5 infected", np.int8),
    seat_column("fate_round", E.P_FATE_ROUND, "the round of the fate (-1 for 0)", np.int8),
    seat_column("escape_hatch", E.P_ESCAPE_HATCH, "1-4, or -1", np.int8),
    seat_column("killed_by", E.P_KILLED_BY, "the attacker's seat (from 1), or 0", np.int8, lambda c: c + 1),
    seat_column("kills", E.P_KILLS, "eliminations made by this seat's attacks", np.int16),
    seat_column("human_kills", E.P_HUMAN_KILLS, "eliminations of humans made by this seat's attacks", np.int8),
    seat_column("fed_round", E.P_FED_ROUND, "the round the seat became fed, or -1", np.int8),
    seat_column("attacks", E.P_ATTACKS, "attacks announced", np.int8),
    seat_column("noises", E.P_NOISES, "noise announcements", np.int8),
    seat_column("bluffs", E.P_BLUFFS, "noise-in-any-sector announcements naming a sector other than its own", np.int8),
    seat_column("silences", E.P_SILENCES, "silence announcements", np.int8),
    seat_column("quiet_turns", E.P_QUIET_TURNS, "turns that drew no card and made no attack", np.int8),
    seat_column("items_drawn", E.P_ITEMS_DRAWN, "item cards taken", np.int8),
    seat_column("used_attack", U + 0, "Attack items used", np.int8),
    seat_column("used_teleport", U + 1, "Teleport uses", np.int8),
    seat_column("used_adrenaline", U + 2, "Adrenaline items used", np.int8),
    seat_column("used_sedatives", U + 3, "Sedatives used", np.int8),
    seat_column("used_spotlight", U + 4, "Spotlights used", np.int8),
    seat_column("used_defence", U + 5, "Defence items used", np.int8),
    seat_column("discards", E.P_DISCARDS, "items discarded unused", np.int8),
    seat_column("max_event_gap", E.P_MAXGAP, "most events the seat saw between two of its decisions (its ring holds 256)", np.int16),
], seat_block=E.PLAYER_BLOCK)


SPEC = GameSpec(
    name="eftaios",
    slug="eftaios",
    title="Escape From the Aliens In Outer Space",
    params=EftaiosParams,
    engine=E,
    strategies=bots,
    board=board_mod.build,
    data_version=board_mod.data_version,
    outputs=OUTPUTS,
    default_bot="heuristic",
    seats=lambda p: p.players,
    seat_range=(2, 8),
    max_steps=6_000,
    text=Text(
        describe_action=describe.describe_action,
        describe_state=describe.describe_state,
        describe_step=describe.describe_step,
        describe_setup=describe.describe_setup,
        describe_result=describe.describe_result,
        trace_mark=lambda s: int(s[E.ROUND]),
        trace_legend="sectors: column letter and row (A01-W14); the Human and Alien sectors: where the sides\n"
                      "start; hatch k (X): escape hatch k, on sector X (open, damaged by a red card, or used);\n"
                      "noise in X: an announcement, true or a bluff; quiet: no Dangerous Sector card drawn;\n"
                      "fed: an alien that killed a human (moves up to 3 sectors)",
    ),
    analysis=Analysis(
        questions="simkit.games.eftaios.questions:QUESTIONS",
        summary_means=("escaped", "humans_killed", "rounds", "kills"),
        compare_metrics=("human_win", "alien_win", "escaped"),
        report="simkit.games.eftaios.report:build",
        experiment="experiments/eftaios.toml",
        sensitivity="simkit.games.eftaios.sensitivity:DECLARATION",
    ),
    checks=Checks(
        invariants=describe.invariants,
        variants=(
            {},
            {"mode": "basic", "players": 4},
            {"map": "fermi", "players": 3, "scenario": "old_guard"},
            {"map": "galvani", "players": 8, "scenario": "infection"},
            {"players": 5, "scenario": "arena", "arena_start": "random"},
        ),
    ),
)


def Rules(params: EftaiosParams | None = None, **settings):
    """Escape From the Aliens step by step, e.g. ``Rules(players=4, mode="basic")`` (see
    :class:`simkit.rules.Rules`)."""
    return rules.Rules(SPEC, params, **settings)
