"""Parameters of the template game (Pig): what ``--set key=value`` may change."""

from __future__ import annotations

from dataclasses import dataclass

from ...params import setting


@dataclass(frozen=True)
class PigParams:
    players: int = setting(2, lo=2, hi=4, help="number of players")
    target: int = setting(30, lo=10, hi=200, help="points needed to win")
    data: str = setting("", help="path to a die TOML replacing the built-in one (see simkit/games/template/data/die.toml)")
