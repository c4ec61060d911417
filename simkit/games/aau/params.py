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
    capture: str = setting("line", choices=("line", "any_two", "line_new"), help="A6: a disc is captured between two bases on a straight line, at least one new this round (line), both new this round (line_new), or next to any two new bases (any_two)")
    herd_points: str = setting("2-4-6", choices=("2-4-6", "2-6-8"), help="A23: a herd disc scores 2 x its connected group (2-4-6) or 2 + 2 x the group once it has company (2-6-8)")
    protection_borders: str = setting("any_other_label", choices=("any_other_label", "no_card_label"), help="A25: global protection's border discs: a space with any label other than the card's (any_other_label) or with no label of the card's (no_card_label)")
    extra_turn_cap: int = setting(2, lo=0, hi=4, help="A18: how many players may use Extra Turn in the same round (the rulebook's 2; 3 and 4 play the same games, since a round leaves only 2 spare markers)")
    board: str = setting("", help="path to a board JSON replacing the built-in stand-in (see simkit/games/aau/data/board.json), or a built-in variant: canada-none, canada-all (Canada icons on no space or on all 20 Canada spaces), corners-single (each corner space keeps one border label), cities-reversed (the city values reversed along the cities' reading order), parks-herds-moved (the parks and herd regions moved to nearby spaces that are plain on the stand-in)")
