"""Parameters of Alien Attack USA: the rule variants a run can set with --set."""

from __future__ import annotations

from dataclasses import dataclass

from ...params import setting


@dataclass(frozen=True)
class AAUParams:
    players: int = setting(4, lo=2, hi=4, help="number of players (30, 24 or 20 rounds for 2, 3 or 4)")
    semi_coop: bool = setting(False, help="semi-cooperative mode: everybody loses unless enough alien bases were destroyed")
    semi_coop_threshold: int = setting(24, lo=0, hi=120, help="bases the players must destroy together in the semi-cooperative mode")
    protection_herds: str = setting("spaces", choices=("spaces", "regions"), help="global protection's '4 different herds': 4 herd spaces or 4 herd regions")
    capture: str = setting("line", choices=("line", "any_two"), help="a disc is captured between two bases on a straight line (line) or next to any two new bases (any_two)")
    extra_turn_cap: int = setting(2, lo=0, hi=4, help="how many players may use Extra Turn in the same round")
    board: str = setting("", help="path to a board JSON replacing the built-in stand-in (see simkit/games/aau/data/board.json)")
