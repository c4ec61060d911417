"""Ufo.O: the readings of unclear rules and the stand-in board (docs/rules/ufo-o.md, A1-A37
and C1-C9) and the report's headline figures and claims, for ``simkit sensitivity ufoo``.

Cells: the aggressive and the tactical bot in self-play and against each other (the
first player's advantage, the strength ladder), and the tactical bot against a copy that
gives up repair or its ion cannon against UFOs (what the options are worth); seats
rotated. The searching and the random bot are left out to fit the machine (the random
bot's games run to the turn cap).

Stand-ins measured, each on a built-in board variant: the outlying asteroids (C8,
``board=no-outliers``), the belt's gaps (C7, ``board=belt-1-4-7``) and the board's length,
i.e. how far apart the motherships are printed (C1/C3, ``board=13-rows``). Not measured:
the orientation (C2; a flat-top sheet would also need a new mothership shape and would
break the top-bottom symmetry, so no variant isolates it: docs/rules/ufo-o.md after the
C-table), the board's width and where along its edge each mothership sits (no source
suggests another value; the race runs along the length, which ``13-rows`` varies). C4 and
C10 follow from these; C5, C6 and C11-C13 are the rulebook's.

Not declared: A32 (``first_player``) is an experiment control, not a reading; A14, A17,
A21, A24, A25 and A28-A31, A34-A36 leave one reading (no setting).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from ...sensitivity import Cell, Claim, Declaration, Figure, Reading, game_mean, per_game

READINGS = (
    Reading("fire_lines", ("any",), "A1", "a UFO may attack an enemy anywhere at distance 2, not only on a straight hex line"),
    Reading("ufos_block_fire", (True,), "A2", "a UFO of either side on the hex in between blocks the line of fire"),
    Reading("mothership_blocks_fire", (True,), "A3", "a mothership picture in between blocks the line of fire"),
    Reading("attacks_per_turn", ("one",), "A4", "the player makes one attack per turn in all (not one per UFO)"),
    Reading("damaged_defender_malus", (False,), "A5", "the -1 of a damaged UFO applies only to its rolls as the attacker"),
    Reading("ion_backfire_zero", (False,), "A6", "an ion-cannon result of 0 does nothing (no backfire)"),
    Reading("push_optional", (False,), "A7", "the winner of a laser duel must push the loser"),
    Reading("push_length", ("up_to",), "A8", "the push moves the loser any number of hexes up to the difference"),
    Reading("push_path", ("straight", "away"), "A9", "the push follows a straight line in any direction, or straight away from the winner"),
    Reading("push_through", ("empty", "any"), "A10", "a push passes only empty hexes, or any UFO's"),
    Reading("push_blocked", ("none",), "A11", "a push that cannot go its full length does not happen"),
    Reading("push_off_board", ("destroyed",), "A12", "a UFO pushed off the board is destroyed"),
    Reading("push_into_asteroid", ("destroyed",), "A13", "a UFO pushed into an asteroid is destroyed"),
    Reading("asteroid_check", ("moved",), "A15", "only UFOs that moved roll for the asteroids beside them"),
    Reading("asteroid_roll_timing", ("after_each_move",), "A16", "asteroid dice are rolled right after each UFO's move"),
    Reading("mothership_attack_from", ("moved",), "A18", "only a UFO that moved this turn may attack the enemy mothership"),
    Reading("mothership_ion_backfire", (False,), "A19", "an ion result of 1-2 against a mothership does not damage the attacker"),
    Reading("mothership_attack_uses_attack", (False,), "A20", "attacking the mothership is not the UFO's one attack (it may also attack a UFO)"),
    Reading("mothership_fire", ("start", "end"), "A22", "the mothership's lasers fire automatically at the start, or at the end, of its player's turn"),
    Reading("mothership_volley", ("single",), "A23", "the mothership's lasers roll one die that hits every adjacent enemy UFO or none"),
    Reading("respawn_delay", ("same_turn",), "A26", "a UFO put back on its mothership may leave in the same turn"),
    Reading("launch_cost", (1,), "A27", "getting onto a launch hex is the first of the 5 steps"),
    Reading("turn_cap", (100,), "A33", "the game is a draw after 100 turns, not 200"),
    Reading("no_target_ends_turn", (True,), "A37", "with no enemy UFO in any line of fire after movement the turn ends at once"),
    Reading("board", ("no-outliers",), "C8/C9 (stand-in)", "the stand-in board without its four outlying asteroids"),
    Reading("board", ("belt-1-4-7",), "C7 (stand-in)", "the asteroid belt's gaps at columns 1, 4 and 7 instead of 2, 4 and 6 (side lanes one column farther out)"),
    Reading("board", ("13-rows",), "C1/C3 (stand-in)", "the board two rows longer (9 x 13): the motherships 12 rows apart instead of 10, launch hexes 10 steps apart instead of 8"),
)

SELF = {"aggressive": "aggressive", "tactical": "tactical"}
HEAD = "tactical-vs-aggressive"
OPTIONS = {"repair": "no-repair", "ion cannon at UFOs": "laser-only"}

CELLS = (
    *(Cell(bot, {}, (bot,), rotate_seats=True) for bot in SELF),
    Cell(HEAD, {}, ("tactical", "aggressive"), rotate_seats=True),
    *(Cell(f"tactical-{opt}", {}, ("tactical", f"tactical:{opt}"), rotate_seats=True) for opt in OPTIONS.values()),
)

PAIRING = {"aggressive": "aggressive vs aggressive", "tactical": "tactical vs tactical", HEAD: "tactical vs aggressive"}
FIRST_ADVANTAGE = (pl.when(pl.col("winner") == pl.col("first_seat")).then(1.0)
                   .when(pl.col("winner") > 0).then(-1.0).otherwise(0.0))


def _advantage(cell: str):
    """The first player's wins minus losses (a draw counts 0), per game."""
    return lambda fr, n: [(1.0, *per_game(fr[cell], n, FIRST_ADVANTAGE, pl.col("seat") == 1))]


def _bot_wins(frame: pl.DataFrame, n: int, bot: str):
    return per_game(frame, n, pl.col("won").cast(pl.Float64), pl.col("bot").cast(pl.Utf8) == bot)


def _ladder(fr, n):
    return [(1.0, *_bot_wins(fr[HEAD], n, "tactical")), (-1.0, *_bot_wins(fr[HEAD], n, "aggressive"))]


def _worth(opt: str):
    """The full tactical bot's win rate against a copy that gives up the option, minus 50%."""
    cell = f"tactical-{opt}"

    def terms(fr, n):
        ones = np.ones(n)
        return [(1.0, *_bot_wins(fr[cell], n, "tactical")), (-0.5, ones, ones)]

    return terms


def _turns(cell: str):
    return lambda fr, n: [(1.0, *game_mean(fr[cell], n, "turns"))]


def _adv_name(cell: str) -> str:
    return f"{PAIRING[cell]}: first player's wins minus losses"


FIGURES = (
    *(Figure(_adv_name(c), (c,), _advantage(c), unit="pp", group="first player") for c in (*SELF, HEAD)),
    Figure("tactical vs aggressive: tactical's wins minus aggressive's", (HEAD,), _ladder, unit="pp", group="ladder"),
    *(Figure(f"{what}: full tactical bot's win rate against a copy without it, minus 50%", (f"tactical-{opt}",), _worth(opt),
             unit="pp", group="options") for what, opt in OPTIONS.items()),
    *(Figure(f"{bot} vs {bot}: mean game length", (bot,), _turns(bot), scale=1.0, unit="turns", group="length") for bot in SELF),
)

CLAIMS = (
    *(Claim(f"The first player is favoured ({PAIRING[c]})", ((_adv_name(c), ">", 0.0),)) for c in (*SELF, HEAD)),
    Claim("The first player's edge exceeds 10 points of wins minus losses (the first player wins over 55%) in self-play",
          tuple((_adv_name(c), ">", 0.10) for c in SELF)),
    Claim("Tactical beats aggressive head to head", (("tactical vs aggressive: tactical's wins minus aggressive's", ">", 0.0),)),
    *(Claim(f"{what[0].upper() + what[1:]} is worth having (the full tactical bot beats a copy without it)",
            ((f"{what}: full tactical bot's win rate against a copy without it, minus 50%", ">", 0.0),)) for what in OPTIONS),
)

TORNADO = (_adv_name("tactical"), _adv_name("aggressive"), _adv_name(HEAD),
           "tactical vs aggressive: tactical's wins minus aggressive's",
           "repair: full tactical bot's win rate against a copy without it, minus 50%",
           "aggressive vs aggressive: mean game length")

DECLARATION = Declaration(
    readings=READINGS, cells=CELLS, figures=FIGURES, claims=CLAIMS, games=40_000, seed=2026, chunk_size=20_000,
    note="the `aggressive` and `tactical` bots in self-play and head to head, and the tactical bot against a copy without "
         "repair (`tactical:no-repair`) or without the ion cannon at UFOs (`tactical:laser-only`), seats rotated",
)
