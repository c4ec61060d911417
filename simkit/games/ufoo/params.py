"""Parameters of Ufo.O: the rule readings and variants a run can set with --set.

Every field is one reading of the rulebook that the text leaves open, named after its
entry in the "Ambiguities and choices" section of docs/rules/ufo-o.md (A1, A2, ...); the
default is the reading that document chooses and argues for. The last fields are
compensations (K1, K2, ... in that document's "Compensations (not in the rulebook)"): rule
changes a designer might make to balance the game, whose defaults leave the rules as written.
The board itself (grid,
motherships, launch hexes, asteroids) is a data file chosen by ``board``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...params import setting


@dataclass(frozen=True)
class UfoOParams:
    # --- data and game length --------------------------------------------------------
    board: str = setting("", help="C1-C9: path to a board TOML/JSON replacing the built-in stand-in (see simkit/games/ufoo/data/board.toml), or a built-in variant (data/board-NAME.toml): no-outliers (C8/C9: without the 4 outlying asteroids), belt-1-4-7 (C7: the belt's gaps at columns 1, 4, 7 instead of 2, 4, 6), 13-rows (C1/C3: 9 x 13, the motherships two rows farther apart)")
    turn_cap: int = setting(200, lo=2, hi=100000, help="A33: the game ends as a draw after this many turns (one turn = one player's turn) without a destroyed mothership")
    first_player: str = setting("roll", choices=("roll", "seat1", "seat2"), help="A32: who takes the first turn: the rulebook's die roll (rerolling ties), or a fixed seat for experiments (seat1, seat2)")

    # --- line of fire (R5) -------------------------------------------------------------
    fire_lines: str = setting("straight", choices=("straight", "any"), help="A1: a UFO may attack an enemy exactly 2 hexes away on a straight hex line (straight) or anywhere at distance 2 (any)")
    ufos_block_fire: bool = setting(False, help="A2: a UFO (of either side) on the hex in between blocks the line of fire")
    mothership_blocks_fire: bool = setting(False, help="A3: a mothership picture's cell in between blocks the line of fire")

    # --- attacks (R6) ---------------------------------------------------------------------
    attacks_per_turn: str = setting("per_ufo", choices=("per_ufo", "one"), help="A4: each UFO may attack once per turn (per_ufo), or the player makes one attack in all (one)")
    no_target_ends_turn: bool = setting(False, help="A37: with no enemy UFO in any line of fire after movement the turn ends at once (no mothership attack, no repair), reading 'In caso contrario il turno passa all'avversario' literally")
    damaged_defender_malus: bool = setting(True, help="A5: the -1 of a damaged UFO also applies to its die when it defends against lasers")
    ion_backfire_zero: bool = setting(True, help="A6: an ion-cannon result of 0 (a damaged UFO rolling 1) backfires like 1-2 (true) or does nothing (false)")

    # --- the laser push (R6.4) --------------------------------------------------------------
    push_optional: bool = setting(True, help="A7: the winner of a laser duel may decline to push the loser")
    push_length: str = setting("exact", choices=("exact", "up_to"), help="A8: the push moves the loser exactly the difference in hexes, or any number from 1 up to it")
    push_path: str = setting("any", choices=("any", "straight", "away"), help="A9: the push follows any path of adjacent hexes, a straight line in any direction, or the straight line away from the winner")
    push_through: str = setting("like_move", choices=("like_move", "empty", "any"), help="A10: hexes a push may pass: empty ones and those of the pushed UFO's own side (like_move), empty only, or any UFO's")
    push_blocked: str = setting("shorten", choices=("shorten", "none"), help="A11: when no hex is reachable at the full length, the push is as long as it can be (shorten) or does not happen (none)")
    push_off_board: str = setting("blocked", choices=("blocked", "destroyed"), help="A12: the board edge stops a push (blocked) or a UFO pushed off the board is destroyed")
    push_into_asteroid: str = setting("blocked", choices=("blocked", "destroyed"), help="A13: an asteroid stops a push (blocked) or a UFO pushed into one is destroyed")

    # --- asteroids (R10) ------------------------------------------------------------------
    asteroid_check: str = setting("all", choices=("all", "moved"), help="A15: at the end of movement every active UFO beside an asteroid rolls (all), or only those that changed hex this turn (moved)")
    asteroid_roll_timing: str = setting("end_of_movement", choices=("end_of_movement", "after_each_move"), help="A16: asteroid dice are rolled once all UFOs have moved, or right after each UFO's move")

    # --- motherships (R7) -------------------------------------------------------------------
    mothership_attack_from: str = setting("all", choices=("all", "moved"), help="A18: any UFO on a hex beside the enemy mothership may attack it (all), or only one that moved this turn (moved)")
    mothership_ion_backfire: bool = setting(True, help="A19: an ion-cannon result of 1-2 against a mothership damages the attacking UFO, as against a UFO")
    mothership_attack_uses_attack: bool = setting(True, help="A20: attacking the enemy mothership is the UFO's one attack of the turn (false: it may also attack a UFO)")
    mothership_fire: str = setting("any_time", choices=("any_time", "start", "end"), help="A22: the active player's mothership fires its lasers once when its player chooses during the turn, or automatically at the start or at the end of the turn")
    mothership_volley: str = setting("per_ufo", choices=("per_ufo", "single"), help="A23: the mothership's lasers roll one die per adjacent enemy UFO, or one die that hits all of them")

    # --- respawn (R8) -----------------------------------------------------------------------
    respawn_delay: str = setting("next_turn", choices=("next_turn", "same_turn"), help="A26: a UFO put back on its mothership at the start of its owner's turn may leave from the owner's next turn (rulebook) or at once")
    launch_cost: int = setting(0, choices=(0, 1), help="A27: steps a respawned UFO spends to get onto a launch hex (0: its move starts there)")

    # --- compensations (K1-K3): NOT in the rulebook ------------------------------------------
    # Balancing changes a designer might make against the first player's advantage, for
    # `simkit tune`; each default leaves the rules exactly as written.
    first_turn_ufos: int = setting(4, choices=(0, 1, 2, 3, 4), compensation=True, help="Compensation (not in the rulebook): K1: in his first turn (turn 1) the first player may move at most this many of his UFOs (4: all, as the rulebook says; 0: none)")
    first_turn_steps: int = setting(5, choices=(1, 2, 3, 4, 5), compensation=True, help="Compensation (not in the rulebook): K2: in his first turn (turn 1) each of the first player's UFOs moves at most this many steps (5: the rulebook's R4.1)")
    second_player_structure: int = setting(0, choices=(0, 1, 2, 3), compensation=True, help="Compensation (not in the rulebook): K3: the second player's mothership starts with this much extra structure (0: both start at the board's structure, 5, as the rulebook says)")

    def check(self) -> str:
        if self.push_path == "away" and self.fire_lines == "any":
            return "push_path=away needs fire_lines=straight (an off-line duel has no 'away' line); use push_path=any or straight"
        return ""
