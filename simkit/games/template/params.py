"""Parameters of the template game (Liar's Dice): what ``--set key=value`` may change."""

from __future__ import annotations

from dataclasses import dataclass

from ...params import setting


@dataclass(frozen=True)
class LiarsDiceParams:
    players: int = setting(2, lo=2, hi=4, help="number of players (R1)")
    dice: int = setting(5, lo=1, hi=5, help="dice each player starts with (R1.1)")
    wild: int = setting(1, choices=(0, 1), help="1: ones are wild and cannot be bid; 0: ones are an ordinary face (R3.3, R4.2)")
    data: str = setting("", help="path to a dice TOML replacing the built-in one (see simkit/games/template/data/dice.toml)")
