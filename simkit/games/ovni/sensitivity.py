"""O.V.N.I.: the readings of unclear rules and the stand-in components (docs/rules/ovni.md,
A1-A23, C3-C6, C9 and C11) and the report's headline figures and claims, for
``simkit sensitivity ovni``.

Cells: the strategic bot at every seat with 2, 3 and 4 players (the report's reference
games): the seat advantage, the ability cards (holders against the other seats of the same
games) and the mission payoffs (how often a kept mission of each kind is completed; keeping
pays when it is completed more than 5 times in 13: +8 against -5) all come from them.

Stand-ins: the routes (C4), the city numbers (C3), the planet distances (C5), the inferred
alien-card composition (C9) and the mission parameters (C11) are played on their built-in
variants (``board=complete``, ``board=renumbered``, ``board=planets_reversed``,
``decks=mixed_aliens``, ``decks=reassigned``). Names and colours (C2, C7, C10) change
nothing; the even split of the missions, four per kind (C11), has no variant (nothing hints at
another split, and the mission figures are per kind). The distances only break turn-order
ties, so with planets dealt at random (A18's default) their variant cannot move a figure
beyond chance: its row measures that. Not declared: A19's ``max_rounds`` (no
game of these bots lasts even 15 rounds, so the cap of 30 never binds; ``cap_result=draw``
stands for A19); A24-A43 leave one reading.
"""

from __future__ import annotations

import polars as pl

from ...sensitivity import Cell, Claim, Declaration, Figure, Reading, game_mean, per_game

PLAYERS = (2, 3, 4)
BOT = "strategic"
TWO = {"players": (2,)}
BREAK_EVEN = 5 / 13  # a kept mission pays +8 if completed, -5 if not

READINGS = (
    Reading("tie_rule", ("opener_only",), "A1", "equal sums go only to the area's opener, else nobody wins the area"),
    Reading("multi_award_at", ("last",), "A2", "a player who won several areas takes his 3 aliens at the last of them"),
    Reading("six_cancelled", ("returns",), "A3", "a cancelled command token 6 goes back to its owner unused"),
    Reading("stuck_placement", ("skip",), "A4", "a player who can only make three in a row places nothing this turn"),
    Reading("reshuffle", ("shuffle_all",), "A5", "a short alien deck is shuffled together with the discards before drawing"),
    Reading("energy_after_empty_win", (True,), "A6", "a player who won an area but received no alien may use the energy card"),
    Reading("dummy_energy", ("last",), "A7", "the dummy's energy card is resolved after both players'", only=TWO),
    Reading("map_check", ("end_of_group",), "A8", "Pilot moves map a city only when the Pilots group ends"),
    Reading("empty_group", (True,), "A9", "a group with no token of its class may be activated (a prebuilt UFO without Builders)"),
    Reading("attacks_dynamic", (True,), "A10", "Military captured during an activation add attacks to it"),
    Reading("military_targets", ("all_different",), "A11", "all attacks of one activation must hit different opponents"),
    Reading("last_of_class", ("own",), "A12", "'the only token of that class' counts only tokens not captured from others"),
    Reading("no_majority_presence", (False,), "A13", "abduct-without-majority needs no own UFO in the city"),
    Reading("swap_into_empty", (True,), "A14", "swap-human may bring a human into an empty city"),
    Reading("captured_in_scoring", (False,), "A15", "captured aliens do not count for majorities and missions"),
    Reading("mission_ufos", ("launched",), "A16", "mapping missions count UFOs launched by Builders, not UFOs on the board"),
    Reading("mission_parity", ("any",), "A17", "the parity printed on a mission card is ignored"),
    Reading("planets", ("fixed",), "A18", "seat i plays planet i (fixed distances, not dealt)"),
    Reading("cap_result", ("draw",), "A19", "a game stopped by max_rounds is a draw"),
    Reading("mission_overlap", ("additive",), "A20", "two kept missions need their humans and captures separately"),
    Reading("force_field_2p", ("dead",), "A21", "with 2 players the force-field card is dealt and does nothing", only=TWO),
    Reading("dummy_start", ("free",), "A22", "the dummy's two starting aliens may be any two classes", only=TWO),
    Reading("dummy_in_scoring", ("blocks",), "A23", "the dummy competes for majorities and airspace at the end (scoring nothing)", only=TWO),
    Reading("board", ("complete",), "C4/C6 (stand-in)", "every city neighbours every other (the routes are a stand-in)"),
    Reading("board", ("renumbered",), "C3 (stand-in)", "cities 4-12 numbered westwards from Madrid, not eastwards (same cities and routes)"),
    Reading("board", ("planets_reversed",), "C5 (stand-in)", "the planet distances in the opposite order (Luxor nearest, Éris farthest)"),
    Reading("decks", ("mixed_aliens",), "C9 (inferred)", "another alien-card mix: 8 cards 'two + one' and the 4 'three different' cards twice (data/decks_mixed_aliens.toml)"),
    Reading("decks", ("reassigned",), "C11 (stand-in)", "other mission parameters: parities, human kinds, classes and counts (data/decks_reassigned.toml)"),
)

CELLS = tuple(Cell(f"{n}p", {"players": n}, (BOT,)) for n in PLAYERS)

CARDS = {  # the ability cards whose effect the report's summary states, and the player counts where it is dealt
    "three_starting_aliens": PLAYERS, "force_field": (3, 4), "prebuilt_ufo": PLAYERS,
    "swap_human": PLAYERS, "abduct_without_majority": PLAYERS, "ufo_worth_3": PLAYERS,
}
KINDS = {  # mission kinds (docs/rules/ovni.md C11): card ids
    "airspace": ("M01", "M02", "M03", "M04"), "humans": ("M05", "M06", "M07", "M08"),
    "captures": ("M09", "M10", "M11", "M12"), "mapping": ("M13", "M14", "M15", "M16"),
}


def seat_edge(n: int) -> str:
    return f"{n} players: seat 1 win share minus fair share"


def card_effect(card: str, n: int) -> str:
    return f"{n} players: {card} holders' win share minus the others'"


def completed(kind: str, n: int) -> str:
    return f"{n} players: kept {kind} missions completed"


def _seat(n: int):
    return lambda fr, g: [(1.0, *per_game(fr[f"{n}p"], g, pl.col("win_share") - 1.0 / n, pl.col("seat") == 1))]


def _card(card: str, n: int):
    held = (pl.col("ability_1") == card) | (pl.col("ability_2") == card)
    return lambda fr, g: [(1.0, *per_game(fr[f"{n}p"], g, pl.col("win_share"), held)),
                          (-1.0, *per_game(fr[f"{n}p"], g, pl.col("win_share"), ~held))]


def _missions(kind: str, n: int):
    """Kept missions of the kind completed, over both mission slots (a ratio of totals)."""
    ids = list(KINDS[kind])
    kept = [pl.col(f"mission_{k}").is_in(ids) & (pl.col(f"mission_{k}_done") >= 0) for k in (1, 2)]
    done = sum((c & (pl.col(f"mission_{k}_done") == 1)).cast(pl.Float64) for k, c in zip((1, 2), kept))
    count = sum(c.cast(pl.Float64) for c in kept)

    def terms(fr, g):
        num, _ = per_game(fr[f"{n}p"], g, done)
        den, _ = per_game(fr[f"{n}p"], g, count)
        return [(1.0, num, den)]

    return terms


def _rounds(n: int):
    return lambda fr, g: [(1.0, *game_mean(fr[f"{n}p"], g, "rounds"))]


FIGURES = (
    *(Figure(seat_edge(n), (f"{n}p",), _seat(n), unit="pp", group="seats") for n in PLAYERS),
    *(Figure(card_effect(card, n), (f"{n}p",), _card(card, n), unit="pp", group="abilities")
      for card, counts in CARDS.items() for n in counts),
    *(Figure(completed(kind, n), (f"{n}p",), _missions(kind, n), group="missions") for kind in KINDS for n in PLAYERS),
    *(Figure(f"{n} players: mean game length", (f"{n}p",), _rounds(n), scale=1.0, unit="rounds", group="length") for n in PLAYERS),
)

CLAIMS = (
    *(Claim(f"Seat 1 wins more than its fair share with {n} players", ((seat_edge(n), ">", 0.0),)) for n in PLAYERS),
    Claim("Three-starting-aliens holders win more than the other seats at every player count",
          tuple((card_effect("three_starting_aliens", n), ">", 0.0) for n in PLAYERS)),
    Claim("Force-field holders win more than the other seats (3 and 4 players)",
          tuple((card_effect("force_field", n), ">", 0.0) for n in (3, 4))),
    Claim("Prebuilt-UFO holders win more than the other seats with 3 and 4 players",
          tuple((card_effect("prebuilt_ufo", n), ">", 0.0) for n in (3, 4))),
    Claim("Swap-human holders win less than the other seats at every player count",
          tuple((card_effect("swap_human", n), "<", 0.0) for n in PLAYERS)),
    Claim("Abduct-without-majority holders win less than the other seats at every player count",
          tuple((card_effect("abduct_without_majority", n), "<", 0.0) for n in PLAYERS)),
    Claim("UFO-worth-3 holders win more than the other seats at every player count",
          tuple((card_effect("ufo_worth_3", n), ">", 0.0) for n in PLAYERS)),
    Claim("Keeping an airspace mission pays with 2 players (completed more than 5 times in 13)",
          ((completed("airspace", 2), ">", BREAK_EVEN),)),
    Claim("Keeping an airspace mission loses points with 3 and 4 players (completed less than 5 times in 13)",
          tuple((completed("airspace", n), "<", BREAK_EVEN) for n in (3, 4))),
    Claim("Keeping a capture mission pays with 2 players (completed more than 5 times in 13)",
          ((completed("captures", 2), ">", BREAK_EVEN),)),
    Claim("Keeping a mapping mission pays with 3 players (completed more than 5 times in 13)",
          ((completed("mapping", 3), ">", BREAK_EVEN),)),
)

TORNADO = (seat_edge(2), seat_edge(4), card_effect("three_starting_aliens", 4), card_effect("force_field", 4),
           completed("airspace", 3), completed("mapping", 3))

DECLARATION = Declaration(
    readings=READINGS, cells=CELLS, figures=FIGURES, claims=CLAIMS, games=20_000, seed=2026, chunk_size=10_000,
    note=f"the `{BOT}` bot at every seat with 2, 3 and 4 players; the 2-player readings (the dummy planet, A7 and A21-A23) "
         "only with 2 players",
)
