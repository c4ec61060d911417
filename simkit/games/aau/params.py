"""Parameters of Alien Attack USA: the rule variants a run can set with --set, and the
compensations (``compensation=True``): balancing changes that are NOT in the rulebook,
whose defaults leave the rules as written (docs/rules/alien-attack-usa.md, K1-K4)."""

from __future__ import annotations

from dataclasses import dataclass

from ...params import setting


def _city_points(card: int) -> int:
    return setting(0, lo=-3, hi=8, compensation=True,
                   help=f"Compensation (not in the rulebook): points added to every tier of city mission card {card}, "
                        f"a tier never below 0 (K{card - 1}); 0 scores the board file's table as written")


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
    # Compensations (not in the rulebook): rules a designer might change to balance the
    # game, searched by `simkit tune`; their defaults play the rulebook (K1-K4 in the rules doc).
    city_mission_2_points: int = _city_points(2)
    city_mission_3_points: int = _city_points(3)
    city_mission_4_points: int = _city_points(4)
    city_mission_5_points: int = _city_points(5)

    def city_mission_points(self) -> tuple[int, int, int, int]:
        """The offsets added to the tiers of city cards 2, 3, 4 and 5 (K1-K4)."""
        return (self.city_mission_2_points, self.city_mission_3_points, self.city_mission_4_points,
                self.city_mission_5_points)
