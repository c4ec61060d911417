"""Alien Attack USA: the readings of unclear rules and stand-in components
(docs/rules/alien-attack-usa.md) and the report's headline figures and claims, for
``simkit sensitivity aau``.

Cells: the default bot at every seat in competitive games (seats, missions, the
threshold the table reaches), the team bot in semi-cooperative games (Earth's chance),
and the strategic bot against a copy without one power (what each power is worth).

Stand-ins: the Canada icons (A13), the corner spaces' second border label (A26), the
places of the city values and the places of the parks and herd regions are played on their
built-in board variants (``board=canada-none``, ``canada-all``, ``corners-single``,
``cities-reversed``, ``parks-herds-moved``). The board geometry (120 spaces on the hex grid),
the Canada border's extent and the city list are not varied: they are the frame every other
fact hangs on, a different frame is a different board, and the report states that its
absolute numbers describe this board. Not declared: A18's
``extra_turn_cap``, because the rulebook fixes the cap at 2 ("apenas 2 jogadores") and no
reading of "turno" gives another number; 3 and 4 play the same games as 2 (a round leaves
only 2 spare markers, R5.4.2), and 0 or 1 would be house rules. ``semi_coop_threshold`` is
the rulebook's 24 (A30), a what-if setting rather than a reading. The other ambiguities
(A1-A32) have no setting; the rules doc says why for each.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from ...sensitivity import Cell, Claim, Declaration, Figure, Reading, game_mean, per_game

PLAYERS = (2, 3, 4)
CARDS = (2, 3, 4, 5)
POWERS = ("protection", "cover", "neighbourhood", "extra")
BOT = "strategic"

READINGS = (
    Reading("capture", ("line_new", "any_two"), "A6",
            "capture needs both bases of the line new this round (line_new), or any two new bases around the disc (any_two)"),
    Reading("herd_points", ("2-6-8",), "A23", "herds score 2 + 2 x the connected group once it has company: 2/6/8"),
    Reading("protection_herds", ("regions",), "A24", "global protection's 4 herds are 4 herd regions"),
    Reading("protection_borders", ("no_card_label",), "A25", "a corner space carrying the card's label never counts as another border"),
    Reading("board", ("canada-none", "canada-all"), "A13 / stand-in", "Canada icons on no space, or on all 20 Canada spaces (stand-in: 5)"),
    Reading("board", ("corners-single",), "A26 / stand-in",
            "each corner space counts for one border only, its first label (PAC 8, MEX 6, GULF 8, ATL 11, CAN 17 spaces, not 10/7/10/11/20)"),
    Reading("board", ("cities-reversed",), "stand-in (city values)",
            "the 46 city values reversed along the cities' reading order: same cities, spaces and value counts, values in other places"),
    Reading("board", ("parks-herds-moved",), "stand-in (parks, herds)",
            "the 22 parks and 6 herd regions moved onto spaces plain on the stand-in: each region to the nearest free "
            "triangle of mutually adjacent spaces, each park to the nearest free space; all else unchanged"),
)

CELLS = (
    *(Cell(f"competitive-{n}p", {"players": n, "semi_coop": False}, (BOT,)) for n in PLAYERS),
    *(Cell(f"semi-coop-{n}p", {"players": n, "semi_coop": True}, ("team",)) for n in PLAYERS),
    *(Cell(f"power-{p}", {"players": 2, "semi_coop": False}, (BOT, f"{BOT}:no-{p}"), rotate_seats=True) for p in POWERS),
)


def _seat_advantage(n: int):
    cell = f"competitive-{n}p"
    return lambda fr, g: [(1.0, *per_game(fr[cell], g, pl.col("win_share") - 1.0 / n, pl.col("seat") == 1))]


def _earth(cell: str):
    return lambda fr, g: [(1.0, *game_mean(fr[cell], g, "earth_won"))]


def _team_gain(n: int):
    return lambda fr, g: [(1.0, *game_mean(fr[f"semi-coop-{n}p"], g, "earth_won")),
                          (-1.0, *game_mean(fr[f"competitive-{n}p"], g, "earth_won"))]


def _card_share(n: int, card: int):
    """Win share of the seat holding city card ``card``, over the games that dealt it, minus the fair share 1/n."""
    cell = f"competitive-{n}p"

    def terms(fr, g):
        ones = np.ones(g)
        return [(1.0, *per_game(fr[cell], g, pl.col("win_share"), pl.col("city_mission") == card)), (-1.0 / n, ones, ones)]

    return terms


def _card_points(card: int, other: int):
    """Mean city-mission points of the seats holding ``card`` minus those holding ``other``
    (all player counts pooled, game index by game index)."""
    cells = tuple(f"competitive-{n}p" for n in PLAYERS)

    def terms(fr, g):
        out = []
        for coef, c in ((1.0, card), (-1.0, other)):
            num = den = 0
            for cell in cells:
                x, d = per_game(fr[cell], g, pl.col("city_mission_points"), pl.col("city_mission") == c)
                num, den = num + x, den + d
            out.append((coef, num, den))
        return out

    return terms


def _power(p: str):
    cell = f"power-{p}"
    return lambda fr, g: [(1.0, *per_game(fr[cell], g, pl.col("win_share") - 0.5, pl.col("bot").cast(pl.Utf8) == BOT))]


FIGURES = (
    *(Figure(f"{n} players: seat 1 win share minus fair share", (f"competitive-{n}p",), _seat_advantage(n), unit="pp", group="seats")
      for n in PLAYERS),
    *(Figure(f"{n} players: Earth wins, team bots (semi-coop)", (f"semi-coop-{n}p",), _earth(f"semi-coop-{n}p"), binary=True, group="Earth")
      for n in PLAYERS),
    *(Figure(f"{n} players: threshold reached, {BOT} bots (competitive)", (f"competitive-{n}p",), _earth(f"competitive-{n}p"),
             binary=True, group="Earth") for n in PLAYERS),
    *(Figure(f"{n} players: team play's gain in Earth wins", (f"semi-coop-{n}p", f"competitive-{n}p"), _team_gain(n), unit="pp",
             group="Earth") for n in PLAYERS),
    *(Figure(f"{n} players: city card {c} win share minus fair share", (f"competitive-{n}p",), _card_share(n, c), unit="pp",
             group="missions") for n in PLAYERS for c in CARDS),
    *(Figure(f"city card {c} minus card {o}: mean mission points", tuple(f"competitive-{n}p" for n in PLAYERS), _card_points(c, o),
             scale=1.0, unit="points", group="missions") for c, o in ((2, 3), (2, 4), (2, 5), (3, 5), (4, 5))),
    *(Figure(f"{p}: win share of the bot using it minus 50%", (f"power-{p}",), _power(p), unit="pp", group="powers") for p in POWERS),
)

CLAIMS = (
    *(Claim(f"No first-player advantage above 2 points with {n} players ({BOT} bots)",
            ((f"{n} players: seat 1 win share minus fair share", ">", -0.02), (f"{n} players: seat 1 win share minus fair share", "<", 0.02)))
      for n in PLAYERS),
    *(Claim(f"Earth wins most semi-cooperative {n}-player games with team bots", ((f"{n} players: Earth wins, team bots (semi-coop)", ">", 0.5),))
      for n in PLAYERS),
    *(Claim(f"Team play raises Earth's chance with {n} players", ((f"{n} players: team play's gain in Earth wins", ">", 0.0),))
      for n in PLAYERS),
    Claim("City card 2 scores the most mission points and card 5 the fewest (all player counts)",
          (("city card 2 minus card 3: mean mission points", ">", 0.0), ("city card 2 minus card 4: mean mission points", ">", 0.0),
           ("city card 2 minus card 5: mean mission points", ">", 0.0), ("city card 3 minus card 5: mean mission points", ">", 0.0),
           ("city card 4 minus card 5: mean mission points", ">", 0.0))),
    *(Claim(f"With {n} players city card 5 wins more than its fair share, and card 4 less",
            ((f"{n} players: city card 5 win share minus fair share", ">", 0.0), (f"{n} players: city card 4 win share minus fair share", "<", 0.0)))
      for n in PLAYERS),
    *(Claim(f"{p.capitalize()} is worth having (the bot using it wins more than half of the games against a copy without it)",
            ((f"{p}: win share of the bot using it minus 50%", ">", 0.0),)) for p in POWERS),
)

TORNADO = ("2 players: seat 1 win share minus fair share", "2 players: Earth wins, team bots (semi-coop)",
           "2 players: threshold reached, strategic bots (competitive)", "2 players: city card 5 win share minus fair share",
           "city card 2 minus card 5: mean mission points", "neighbourhood: win share of the bot using it minus 50%")

DECLARATION = Declaration(
    readings=READINGS, cells=CELLS, figures=FIGURES, claims=CLAIMS, games=10_000, seed=2026, chunk_size=10_000,
    note=f"`{BOT}` bots in competitive games with 2-4 players, `team` bots in semi-cooperative games, and 2-player games of "
         f"`{BOT}` against a copy without one power, seats rotated",
)
