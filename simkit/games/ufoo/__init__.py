"""Ufo.O (Fabio De Mori, 2009): two-player hex combat, lasers against ion cannon.

Rules as implemented: docs/rules/ufo-o.md. Board (a stand-in): ``data/board.toml``; the
built-in variants ``data/board-NAME.toml`` (``--set board=NAME``) change one stand-in each:
``no-outliers`` (without the four outlying asteroids), ``belt-1-4-7`` (the belt's gaps in
other columns), ``13-rows`` (two rows longer, the motherships farther apart).
"""

from __future__ import annotations

import numpy as np

import strategies.ufoo as bots

from ... import rules
from ...game import Analysis, Checks, GameSpec, OutputTable, Text, derived_column, game_column, seat_column
from . import board as board_mod
from . import describe
from . import engine as E
from .params import UfoOParams

OUTPUTS = OutputTable([
    seat_column("won", E.S_WON, "1 if this seat destroyed the enemy mothership", bool),
    seat_column("first", E.S_FIRST, "1 if this seat took turn 1", bool),
    seat_column("structure", E.S_STRUCTURE, "this seat's mothership structure at the end (0 = lost)", np.int8),
    seat_column("ms_hits", E.S_MS_HITS, "structure points this seat's ion cannons removed from the enemy mothership", np.int8),
    seat_column("kills", E.S_KILLS, "enemy UFOs destroyed by this seat: laser duels it won (as attacker or defender), its ion cannon hits, "
                "its mothership's lasers, its crashes, and asteroid rolls after its pushes", np.int16),
    seat_column("ufos_lost", E.S_UFOS_LOST, "times one of this seat's UFOs was destroyed (any cause, backfires and asteroids included)", np.int16),
    seat_column("lasers", E.S_LASERS, "laser attacks made", np.int16),
    seat_column("laser_wins", E.S_LASER_WINS, "laser duels won as attacker", np.int16),
    seat_column("defences_won", E.S_DEFENCES_WON, "laser duels won as defender", np.int16),
    seat_column("ions", E.S_IONS, "ion-cannon attacks on UFOs made", np.int16),
    seat_column("ms_attacks", E.S_MS_ATTACKS, "ion-cannon attacks on the enemy mothership made", np.int16),
    seat_column("backfires", E.S_BACKFIRES, "backfires suffered (R6.5, R7.1)", np.int16),
    seat_column("repairs", E.S_REPAIRS, "repair attempts", np.int16),
    seat_column("repairs_ok", E.S_REPAIRS_OK, "successful repairs", np.int16),
    seat_column("asteroid_damage", E.S_ASTEROID_DAMAGE, "damages this seat's UFOs took from asteroids (after moves and after pushes)", np.int16),
    seat_column("pushes", E.S_PUSHES, "pushes this seat made as a duel winner (PUSH or CRASH, not NO_PUSH)", np.int16),
    seat_column("volley_hits", E.S_VOLLEY_HITS, "damages this seat's mothership lasers dealt", np.int16),
    game_column("draw", E.DRAW, "1 if the game ended by the turn cap", bool),
    game_column("turns", E.TURN, "turns played (the last turn included)", np.int32),
    derived_column("rounds", "game", lambda cols, p: (cols["turns"] + 1) // 2, "ceil(turns / 2)", np.int32),
    game_column("first_seat", E.FIRST_SEAT, "the seat (1 or 2) that took turn 1", np.int8, lambda c: c + 1),
    game_column("winner", E.WINNER, "the winning seat (1 or 2), 0 on a draw", np.int8, lambda c: c + 1),
], seat_block=E.SEAT_BLOCK)


SPEC = GameSpec(
    name="ufoo",
    slug="ufo-o",
    title="Ufo.O",
    params=UfoOParams,
    engine=E,
    strategies=bots,
    board=board_mod.build,
    data_version=board_mod.data_version,
    outputs=OUTPUTS,
    default_bot="tactical",
    seats=lambda p: 2,
    seat_range=(2, 2),
    max_steps=20_000,
    text=Text(
        describe_action=describe.describe_action,
        describe_state=describe.describe_state,
        describe_step=describe.describe_step,
        describe_setup=describe.describe_setup,
        describe_result=describe.describe_result,
        trace_mark=lambda s: int(s[E.TURN]),
        trace_legend="A, B: the two sides; A0-A3, B0-B3: their UFOs (numbered 0-3 as in the rules);\n"
                      "(col,row): a hex; structure: what is left of a side's mothership (0 loses);\n"
                      "a UFO is on a hex, damaged (red side up: -1 on its attack rolls), destroyed (back on its\n"
                      "mothership at its owner's next turn), docked (there, may leave a turn later) or ready;\n"
                      "dice [...]: what the step rolled, forced steps after it included (e.g. asteroid rolls)",
    ),
    analysis=Analysis(
        questions="simkit.games.ufoo.questions:QUESTIONS",
        summary_means=("turns", "kills", "ms_hits"),
        report="simkit.games.ufoo.report:build",
        experiment="experiments/ufo-o.toml",
        sensitivity="simkit.games.ufoo.sensitivity:DECLARATION",
    ),
    checks=Checks(
        invariants=describe.invariants,
        variants=(
            {},
            {"fire_lines": "any", "ufos_block_fire": True, "mothership_blocks_fire": True, "push_path": "straight", "push_through": "empty",
             "push_off_board": "destroyed", "push_into_asteroid": "destroyed", "mothership_fire": "start", "mothership_volley": "single",
             "asteroid_roll_timing": "after_each_move", "respawn_delay": "same_turn"},
            {"push_path": "away", "push_optional": False, "push_blocked": "none", "attacks_per_turn": "one",
             "no_target_ends_turn": True, "damaged_defender_malus": False, "ion_backfire_zero": False, "asteroid_check": "moved",
             "mothership_attack_from": "moved", "mothership_ion_backfire": False, "mothership_attack_uses_attack": False,
             "mothership_fire": "end", "launch_cost": 1, "push_through": "any", "push_length": "up_to"},
            # the compensations (K1-K3, not in the rulebook) all on, at values off their defaults
            {"first_turn_ufos": 2, "first_turn_steps": 3, "second_player_structure": 1},
        ),
    ),
)


def Rules(params: UfoOParams | None = None, **settings):
    """Ufo.O step by step, e.g. ``Rules(fire_lines="any")`` (see :class:`simkit.rules.Rules`)."""
    return rules.Rules(SPEC, params, **settings)
