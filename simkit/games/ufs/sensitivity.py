"""Under Falling Skies: the readings of unclear rules and components (docs/rules/under-falling-skies.md)
and the report's headline figures and claims, for ``simkit sensitivity ufs``.

Cells: the default bot on the normal side of each city at threat 0-4 (the report's headline
table for its default bot; the damaged sides are left out to fit the machine).

Declared: every setting that selects another reading of a rule or a component (G2-G6, G9,
G10, the SINGLE "1 damage" rows, A18, A1/G16), and the excavator's start (G11) through its
built-in components variant ``data=excavator_a5``. Not declared: the questions the rules
document settles with one reading (its rows without a setting), among them where the
mothership and its landing sites start (G12, A31: the rulebook's text leaves one reading).
Component facts that one fan transcription gives (SINGLE: research prefixes, Washington's base
halves, start energy) are read off printed components, not guessed; where two transcriptions
disagree (DISPUTED, G2-G6) both readings are settings above. A user who has the components can
correct any of them in a components file (``data=PATH``).
"""

from __future__ import annotations

import polars as pl

from ...sensitivity import Cell, Claim, Declaration, Figure, Reading, game_mean, per_game

CITIES = {"roswell": "Roswell", "new_york": "New York", "washington": "Washington"}
THREATS = (0, 1, 2, 3, 4)
TILES = {1: "tile 4", 2: "tile 3", 4: "tile 2", 8: "tile 1"}  # the bit of the flipped tile (the `flipped` column)
BOT = "greedy"

READINGS = (
    Reading("damage_rule", ("strict",), "G9/A29", "the damage limit one lower (the track's printed spaces include start or skull)"),
    Reading("energy_rule", ("strict",), "G10", "the energy track's top one lower"),
    Reading("single_damage_rows", ("none",), "SINGLE", "no action on the two '1 damage' rows only one transcription gives",
            only={"threat": (1, 2, 3, 4)}),
    Reading("tile2_threat_research", ("conradoza",), "G3", "research costs 3-2-1-5 beside tile 2's threatening side",
            only={"threat": (1, 2, 3, 4)}),
    Reading("x2_column", (1,), "G2", "tile 4's easier side: the X2 of row 4 in column 1", only={"threat": (0, 1, 2, 3)}),
    Reading("washington_jet_cost", (0,), "G4", "Washington's upper-B jets room costs 0", only={"city": ("washington",)}),
    Reading("lower_c_energy_mod", (1,), "G6", "Washington's lower-C energy room at +1", only={"city": ("washington",)}),
    Reading("ny_tunnel_column", (1,), "G5", "New York's upper-C tunnel in column 1", only={"city": ("new_york",)}),
    Reading("shot_whites_return", (True,), "A18", "a white ship shot down returns to the reserve"),
    Reading("arrow_retrigger", (True,), "A1/G16", "a ship moved by an arrow triggers the cell it lands on (no effect with the built-in data)"),
    Reading("data", ("excavator_a5",), "G11 (stand-in)", "upper base A's excavator starts at path position 5, the end of row 1, "
            "like B and C (data/components_excavator_a5.toml)", only={"city": ("roswell",)}),
)


def _cell(city: str, t: int) -> str:
    return f"{city}-t{t}"


CELLS = tuple(Cell(_cell(c, t), {"city": c, "threat": t}, (BOT,)) for c in CITIES for t in THREATS)


def _win(cell: str):
    return lambda fr, n: [(1.0, *game_mean(fr[cell], n, "won"))]


def _step(c: str, t: int):
    a, b = _cell(c, t), _cell(c, t + 1)
    return lambda fr, n: [(1.0, *game_mean(fr[a], n, "won")), (-1.0, *game_mean(fr[b], n, "won"))]


def _tile_terms(cells: tuple[str, ...], bit: int, fr, n, coef: float):
    """Win rate of the games (of these cells, pooled game index by game index) in which
    only this tile is flipped: a ratio of totals over seeds."""
    num = den = 0
    for c in cells:
        x, d = per_game(fr[c], n, pl.col("won"), pl.col("flipped") == bit)
        num, den = num + x, den + d
    return (coef, num, den)


def _tile_vs(cells: tuple[str, ...], bit: int, other: int):
    return lambda fr, n: [_tile_terms(cells, bit, fr, n, 1.0), _tile_terms(cells, other, fr, n, -1.0)]


def _city_vs(a: str, b: str, t: int):
    return lambda fr, n: [(1.0, *game_mean(fr[_cell(a, t)], n, "won")), (-1.0, *game_mean(fr[_cell(b, t)], n, "won"))]


ONE = tuple(_cell(c, 1) for c in CITIES)
FIGURES = (
    *(Figure(f"win rate, {name}, threat {t}", (_cell(c, t),), _win(_cell(c, t)), binary=True, group="win rate")
      for c, name in CITIES.items() for t in THREATS),
    *(Figure(f"{name}: threat {t} minus threat {t + 1}", (_cell(c, t), _cell(c, t + 1)), _step(c, t), unit="pp", group="threat steps")
      for c, name in CITIES.items() for t in THREATS[:-1]),
    *(Figure(f"threat 1, all cities: tile 2 flipped minus {TILES[k]} flipped", ONE, _tile_vs(ONE, 4, k), unit="pp", group="tiles")
      for k in (1, 2, 8)),
    *(Figure(f"threat 1, Roswell: tile 2 flipped minus {TILES[k]} flipped", (_cell("roswell", 1),),
             _tile_vs((_cell("roswell", 1),), 4, k), unit="pp", group="tiles") for k in (1, 2, 8)),
    *(Figure(f"threat {t}: {CITIES[a]} minus {CITIES[b]}", (_cell(a, t), _cell(b, t)), _city_vs(a, b, t), unit="pp", group="cities")
      for t in (0, 1) for a, b in (("new_york", "washington"), ("washington", "roswell"))),
)

CLAIMS = (
    *(Claim(f"Each threat step is harder ({name}, normal side)",
            tuple((f"{name}: threat {t} minus threat {t + 1}", ">", 0.0) for t in THREATS[:-1])) for name in CITIES.values()),
    Claim("Tile 2 is the hardest tile to face flipped (threat 1, all cities)",
          tuple((f"threat 1, all cities: tile 2 flipped minus {TILES[k]} flipped", "<", 0.0) for k in (1, 2, 8))),
    Claim("Tile 2 is the hardest tile to face flipped in Roswell (threat 1)",
          tuple((f"threat 1, Roswell: tile 2 flipped minus {TILES[k]} flipped", "<", 0.0) for k in (1, 2, 8))),
    *(Claim(f"At threat {t}, New York is the easiest city and Roswell the hardest (normal side)",
            ((f"threat {t}: New York minus Washington", ">", 0.0), (f"threat {t}: Washington minus Roswell", ">", 0.0)))
      for t in (0, 1)),
    Claim("The rulebook's normal game (threat 1) is won less than 1 time in 4 in every city (normal side)",
          tuple((f"win rate, {name}, threat 1", "<", 0.25) for name in CITIES.values())),
    Claim("Threat 2 is won less than 1 time in 20 in every city (normal side)",
          tuple((f"win rate, {name}, threat 2", "<", 0.05) for name in CITIES.values())),
)

TORNADO = ("win rate, Roswell, threat 0", "win rate, Roswell, threat 1", "win rate, New York, threat 1",
           "win rate, Washington, threat 1", "win rate, Roswell, threat 2", "threat 1, all cities: tile 2 flipped minus tile 1 flipped")

DECLARATION = Declaration(
    readings=READINGS, cells=CELLS, figures=FIGURES, claims=CLAIMS, games=20_000, seed=2026, chunk_size=20_000,
    note=f"bot `{BOT}`, the normal side of each city at threat 0-4; a reading limited to some cities or threat levels is "
         "played only where it can change a game",
)
