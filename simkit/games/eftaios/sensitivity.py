"""Escape From the Aliens In Outer Space: the readings of unclear rules (docs/rules/eftaios.md,
A1-A29, and the rulebook's round count, R3.4) and the report's headline figures and claims,
for ``simkit sensitivity eftaios``.

Cells: the heuristic bot at every seat, 6 players (the rulebook's default table), on each
map in the basic and the advanced game (who wins, Galilei's balance, the maps' ranking, the
turn-order effect); and three scenario cells: Old Guard and Infection on Galilei, Arena on
Fermi (where its readings bite: closed safe sectors leave seats stuck). Seats rotated.

A reading is played only where it can change a game: the item, hatch-card and stranding
readings (A2-A8, A10, A11, A13-A15, A17) in the advanced game, feeding (A29) in the basic
game, each scenario's readings (A18-A28) in its scenario. The general readings are not
replayed on the scenario cells (to fit the machine): the scenario figures move only with
their own readings here. The maps and decks are verified transcriptions (C1-C11), with no
stand-in to vary; the card order (C13) only decides which seed gives which game.
"""

from __future__ import annotations

import polars as pl

from ...sensitivity import Cell, Claim, Declaration, Figure, Reading, game_mean, per_game

MAPS = {"galilei": "Galilei", "fermi": "Fermi", "galvani": "Galvani"}
MODES = ("basic", "advanced")
PLAYERS = 6
BOT = "heuristic"
BASE = {"scenario": ("none",)}
ADVANCED = {"mode": ("advanced",), "scenario": ("none",)}

READINGS = (
    Reading("alien_hatch_transit", (True,), "A1", "aliens may pass through (not stop on) an open hatch", only=BASE),
    Reading("human_hatch_transit", (True,), "A2", "a human may pass through an open hatch without reaching it", only=ADVANCED),
    Reading("used_hatch_enterable", (True,), "A3", "a hatch closed by a green escape may still be entered as a safe sector", only=ADVANCED),
    Reading("defence_scope", ("attack",), "A4", "Defence cancels the whole attack (every victim in the sector survives)", only=ADVANCED),
    Reading("defence_vs_human_attack", (False,), "A5", "Defence works only against aliens' attacks", only=ADVANCED),
    Reading("overflow_use", (True,), "A6", "with a fourth item, one may be used at once instead of discarded", only=ADVANCED),
    Reading("adrenaline_exact", (True,), "A7", "Adrenaline makes the move exactly 2 steps", only=ADVANCED),
    Reading("adrenaline_stacks", (True,), "A8", "each Adrenaline played in a turn adds a step", only=ADVANCED),
    Reading("noise_targets", ("dangerous", "any"), "A9", "a noise in any sector may name only dangerous sectors, or any sector", only=BASE),
    Reading("spotlight_targets", ("coordinates",), "A10", "a Spotlight may be aimed only at safe and dangerous sectors", only=ADVANCED),
    Reading("item_before_noise", (True,), "A11", "an item-icon card's item is drawn before the noise is announced", only=ADVANCED),
    Reading("reshuffle", ("on_empty",), "A12", "the Dangerous Sector discards are reshuffled as soon as the last card is drawn", only=BASE),
    Reading("item_reshuffle", (False,), "A13", "no more items once the item deck is spent", only=ADVANCED),
    Reading("discard_revealed", (True,), "A14", "an item discarded unused is shown to all", only=ADVANCED),
    Reading("escaped_items_discarded", (True,), "A15", "an escaped human's items go to the item discards", only=ADVANCED),
    Reading("dead_aliens_win", (False,), "A16", "only aliens still aboard share the aliens' win", only=BASE),
    Reading("stranded_alien_win", (False,), "A17", "humans stranded by closed hatches do not give the aliens the win", only=ADVANCED),
    Reading("captain_exemption", ("first_draw",), "A18", "Old Guard: the Captain's free pass is spent the first time he would draw",
            only={"scenario": ("old_guard",)}),
    Reading("old_guard_spotlight", ("private",), "A19", "Old Guard: a Spotlight's result is told to its user only",
            only={"scenario": ("old_guard",)}),
    Reading("infected_win_with_aliens", (False,), "A20", "Infection: a human turned alien wins nothing",
            only={"scenario": ("infection",)}),
    Reading("infected_keep_items", (True,), "A21", "Infection: a human turned alien keeps its items", only={"scenario": ("infection",)}),
    Reading("arena_safe_sectors", ("open",), "A22", "Arena: safe sectors open to everyone", only={"scenario": ("arena",)}),
    Reading("arena_start", ("random",), "A23", "Arena: start hatches drawn at random", only={"scenario": ("arena",)}),
    Reading("arena_respawn", ("alien_sector",), "A24", "Arena: a killed player comes back at the Alien sector", only={"scenario": ("arena",)}),
    Reading("arena_kills", (PLAYERS - 1,), "A25", f"Arena: {PLAYERS - 1} kills win (the other players), not {PLAYERS}",
            only={"scenario": ("arena",)}),
    Reading("arena_end", ("first",), "A26", "Arena: the game stops when the first player reaches the threshold", only={"scenario": ("arena",)}),
    Reading("mode", ("basic",), "A27", "a scenario is played on the basic game", only={"scenario": ("old_guard", "infection", "arena")}),
    Reading("stuck_rule", ("stay_quiet",), "A28", "a player with no legal move stays without drawing", only={"scenario": ("arena",)}),
    Reading("feeding_in_basic", (True,), "A29", "feeding also in the basic game", only={"mode": ("basic",), "scenario": ("none",)}),
    Reading("max_rounds", (40,), "R3.4", "40 rounds (a later edition) instead of the black edition's 39", only=BASE),
)

SCENARIOS = {"old_guard": ("galilei", "Old Guard"), "infection": ("galilei", "Infection"), "arena": ("fermi", "Arena")}


def _cell(m: str, mode: str) -> str:
    return f"{m}-{mode}"


CELLS = (
    *(Cell(_cell(m, mode), {"map": m, "mode": mode, "players": PLAYERS, "scenario": "none"}, (BOT,), rotate_seats=True)
      for mode in MODES for m in MAPS),
    *(Cell(f"{m}-{sc}", {"map": m, "mode": "advanced", "players": PLAYERS, "scenario": sc}, (BOT,), rotate_seats=True)
      for sc, (m, _) in SCENARIOS.items()),
)


def _rate(cell: str, column: str):
    return lambda fr, n: [(1.0, *game_mean(fr[cell], n, column))]


def _teams(cell: str):
    return lambda fr, n: [(1.0, *game_mean(fr[cell], n, "human_win")), (-1.0, *game_mean(fr[cell], n, "alien_win"))]


def _per_player(cell: str):
    """A human seat's win rate minus an alien seat's (ratios of totals over the seats dealt
    each side; with 3 humans and 3 aliens at every 6-player table, the mean over games)."""
    def won(fr, n, side):
        return per_game(fr[cell], n, pl.col("won").cast(pl.Float64), pl.col("side") == side)

    return lambda fr, n: [(1.0, *won(fr, n, 0)), (-1.0, *won(fr, n, 1))]


def _map_vs(a: str, b: str, mode: str):
    return lambda fr, n: [(1.0, *game_mean(fr[_cell(a, mode)], n, "human_win")), (-1.0, *game_mean(fr[_cell(b, mode)], n, "human_win"))]


def _order(cell: str):
    """A human seat's win rate first in the turn order minus last (a ratio of totals over
    the games that dealt a human to that position)."""
    def won_at(fr, n, k):
        return per_game(fr[cell], n, pl.col("won").cast(pl.Float64), (pl.col("side") == 0) & (pl.col("order") == k))

    return lambda fr, n: [(1.0, *won_at(fr, n, 1)), (-1.0, *won_at(fr, n, PLAYERS))]


def human(m: str, mode: str) -> str:
    return f"{MAPS[m]}, {mode}: a human wins"


def aliens(m: str, mode: str) -> str:
    return f"{MAPS[m]}, {mode}: the aliens win"


def fair(mode: str) -> str:
    return f"Galilei, {mode}: a human seat's win rate minus an alien seat's"


def teams(mode: str) -> str:
    return f"Galilei, {mode}: games a human wins minus games the aliens win"


def ranking(a: str, b: str, mode: str) -> str:
    return f"{mode}: a human wins, {MAPS[a]} minus {MAPS[b]}"


def order(mode: str) -> str:
    return f"Galilei, {mode}: a human's win rate, first in turn order minus last"


ARENA_DRAW = "Arena, Fermi: nobody reaches the threshold"

FIGURES = (
    *(Figure(human(m, mode), (_cell(m, mode),), _rate(_cell(m, mode), "human_win"), binary=True, group="who wins")
      for mode in MODES for m in MAPS),
    *(Figure(aliens(m, mode), (_cell(m, mode),), _rate(_cell(m, mode), "alien_win"), binary=True, group="who wins")
      for mode in MODES for m in MAPS),
    *(Figure(fair(mode), (_cell("galilei", mode),), _per_player(_cell("galilei", mode)), unit="pp", group="fair to a player")
      for mode in MODES),
    *(Figure(teams(mode), (_cell("galilei", mode),), _teams(_cell("galilei", mode)), unit="pp", group="which team takes the game")
      for mode in MODES),
    *(Figure(ranking(a, b, mode), (_cell(a, mode), _cell(b, mode)), _map_vs(a, b, mode), unit="pp", group="maps")
      for mode in MODES for a, b in (("fermi", "galilei"), ("galilei", "galvani"))),
    *(Figure(order(mode), (_cell("galilei", mode),), _order(_cell("galilei", mode)), unit="pp", group="turn order") for mode in MODES),
    *(Figure(f"{name}, {MAPS[m]}: a human wins", (f"{m}-{sc}",), _rate(f"{m}-{sc}", "human_win"), binary=True, group="scenarios")
      for sc, (m, name) in SCENARIOS.items() if sc != "arena"),
    *(Figure(f"{name}, {MAPS[m]}: the aliens win", (f"{m}-{sc}",), _rate(f"{m}-{sc}", "alien_win"), binary=True, group="scenarios")
      for sc, (m, name) in SCENARIOS.items() if sc != "arena"),
    Figure(ARENA_DRAW, ("fermi-arena",), _rate("fermi-arena", "draw"), binary=True, group="scenarios"),
)

CLAIMS = (
    Claim("Galilei's basic game is fair to a player within 5 points (a human seat against an alien seat)",
          ((fair("basic"), ">", -0.05), (fair("basic"), "<", 0.05))),
    Claim("Galilei's advanced game favours an alien seat over a human seat by more than 5 points", ((fair("advanced"), "<", -0.05),)),
    Claim("On Galilei the humans take more basic games than the aliens, and the aliens more advanced games than the humans",
          ((teams("basic"), ">", 0.0), (teams("advanced"), "<", 0.0))),
    Claim("Some human wins most basic games on every map", tuple((human(m, "basic"), ">", 0.5) for m in MAPS)),
    Claim(f"The aliens win most advanced games on every map ({PLAYERS} players)", tuple((aliens(m, "advanced"), ">", 0.5) for m in MAPS)),
    Claim("Fermi is the easiest map for the humans and Galvani the hardest (basic and advanced)",
          tuple((ranking(a, b, mode), ">", 0.0) for mode in MODES for a, b in (("fermi", "galilei"), ("galilei", "galvani")))),
    Claim("Turn order matters to humans: the first human wins more often than the last (basic and advanced)",
          tuple((order(mode), ">", 0.0) for mode in MODES)),
    Claim("In the advanced game the first human's edge over the last exceeds 10 points", ((order("advanced"), ">", 0.10),)),
    Claim("In Arena on Fermi most games end with nobody reaching the threshold", ((ARENA_DRAW, ">", 0.5),)),
)

TORNADO = (human("galilei", "advanced"), aliens("galilei", "advanced"), fair("basic"), fair("advanced"), order("advanced"),
           ranking("galilei", "galvani", "advanced"), ARENA_DRAW)

DECLARATION = Declaration(
    readings=READINGS, cells=CELLS, figures=FIGURES, claims=CLAIMS, games=20_000, seed=2026, chunk_size=5_000,
    note=f"`{BOT}` bots at all {PLAYERS} seats: every map in the basic and the advanced game, and Old Guard and Infection on "
         "Galilei and Arena on Fermi (advanced); each reading is replayed only on the cells where it can act (the general "
         "readings not on the scenario cells)",
)
