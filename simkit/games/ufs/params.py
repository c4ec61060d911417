"""Parameters of Under Falling Skies: the rule variants a run can set with --set."""

from __future__ import annotations

from dataclasses import dataclass

from ...params import setting

CITIES = ("roswell", "new_york", "washington")


@dataclass(frozen=True)
class UFSParams:
    city: str = setting("roswell", choices=CITIES, help="city to defend; it fixes the base tiles, research prefix and ability")
    city_side: str = setting("normal", choices=("normal", "damaged"), help="city tile side: normal (blue) or damaged (stronger ability)")
    threat: int = setting(1, lo=0, hi=4, help="threat level: how many sky tiles show their threatening side (drawn per game); 1 is the rulebook's normal game")
    robots: bool = setting(True, help="robot rooms and blue dice in play (false: the rulebook's first game)")
    damage_rule: str = setting("sum", choices=("sum", "strict"), help="G9: lose when damage reaches the sum of the damage segments (sum) or one less (strict)")
    energy_rule: str = setting("sum", choices=("sum", "strict"), help="G10: the energy track tops out at the sum of the energy segments (sum) or one less (strict)")
    single_damage_rows: str = setting("damage", choices=("damage", "none"), help="the two '1 damage' mothership actions only one transcription gives (tile 4 threatening row 4, tile 2 threatening row 9): damage (1 damage) or none (no action)")
    x2_column: int = setting(2, choices=(2, 1), help="G2 (disputed): column of the X2 on tile 4's easier side, row 4")
    tile2_threat_research: str = setting("ajmitc", choices=("ajmitc", "conradoza"), help="G3 (disputed): research costs beside tile 2's threatening side, 3-1-3-7 (ajmitc) or 3-2-1-5")
    washington_jet_cost: int = setting(1, choices=(1, 0), help="G4 (disputed): energy cost of the jets room in upper base B, column 4")
    ny_tunnel_column: int = setting(3, choices=(3, 1), help="G5 (disputed): column of the tunnel in upper base C, row 2")
    lower_c_energy_mod: int = setting(0, choices=(0, 1), help="G6 (disputed): modifier of the energy room in lower base C, row 4 column 1")
    arrow_retrigger: bool = setting(False, help="G16: a ship moved by an arrow also triggers the cell it lands on")
    shot_whites_return: bool = setting(False, help="a white ship shot down returns to the reserve (later mothership actions may bring it back) instead of leaving the game")
    data: str = setting("", help="path to a components TOML replacing the built-in one (see simkit/games/ufs/data/components.toml), or a built-in variant: excavator_a5 (G11: upper base A's excavator starts at path position 5, the end of row 1, like B and C; data/components_excavator_a5.toml)")
