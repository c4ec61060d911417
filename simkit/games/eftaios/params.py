"""Parameters of Escape From the Aliens In Outer Space: the rule variants a run can set with --set.

Every field is documented in docs/rules/eftaios.md: the game's own variants (map, players,
mode, scenario, turn count) in its "Settings" table, and every other field is one reading
of an unclear rule, A1-A29 in its "Ambiguities and choices" section (the help line names
the number). The defaults are the readings the document argues for.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...params import setting

MAPS = ("galilei", "fermi", "galvani")
MODES = ("basic", "advanced")
SCENARIOS = ("none", "old_guard", "infection", "arena")


@dataclass(frozen=True)
class EftaiosParams:
    """Settings of Escape From the Aliens In Outer Space; see docs/rules/eftaios.md."""

    # The game's own variants (rules doc, "Settings").
    map: str = setting("galilei", choices=MAPS, help="zone of the ship: galilei, fermi or galvani (R2.1)")
    players: int = setting(6, lo=2, hi=8, help="number of players; half humans, half aliens, the odd one an alien (R1.2)")
    mode: str = setting("advanced", choices=MODES, help="basic game, or the advanced ('standard') game with items, feeding and hatch cards (R8-R11)")
    scenario: str = setting("none", choices=SCENARIOS, help="the rulebook's ready-made scenarios, played on top of `mode` (R12, A27)")
    max_rounds: int = setting(39, lo=1, hi=99, help="rounds before the aliens win; 39 on the black edition's sheets, 40 in a later edition (R3.4)")
    map_data: str = setting("", help="path of a map TOML replacing the built-in `map` (format: simkit/games/eftaios/data/maps/galilei.toml)")
    card_data: str = setting("", help="path of a card TOML replacing the built-in decks (format: simkit/games/eftaios/data/cards.toml)")

    # Readings of the text (rules doc, "Ambiguities and choices").
    alien_hatch_transit: bool = setting(False, help="A1: aliens may pass through (never stop on) an open hatch sector (ES reading); default no (PT)")
    human_hatch_transit: bool = setting(False, help="A2: a human may pass through an open hatch without reaching it; default no, entering a hatch ends the move")
    used_hatch_enterable: bool = setting(False, help="A3: a hatch closed by a green escape may still be entered by humans (as a plain safe sector); default no")
    defence_scope: str = setting("self", choices=("self", "attack"), help="A4: Defence saves its holder (self, ES) or cancels the whole attack (attack, PT)")
    defence_vs_human_attack: bool = setting(True, help="A5: Defence also works against a human's Attack item; false: only against aliens")
    overflow_use: bool = setting(False, help="A6: with one item too many, the player may use one at once instead of discarding (ES); default discard only (PT)")
    adrenaline_exact: bool = setting(False, help="A7: Adrenaline makes the move exactly 2 steps; default 1 or 2")
    adrenaline_stacks: bool = setting(False, help="A8: each Adrenaline played in a turn adds one step (two make 3); default one per turn")
    noise_targets: str = setting("coordinates", choices=("coordinates", "dangerous", "any"), help="A9: sectors a 'noise in any sector' may name: with coordinates (safe or dangerous), dangerous only, or any sector")
    spotlight_targets: str = setting("any", choices=("any", "coordinates"), help="A10: sectors a Spotlight may be aimed at: any sector, or only safe and dangerous ones")
    item_before_noise: bool = setting(False, help="A11: the item of an item-icon card is drawn before the noise is announced; default after")
    reshuffle: str = setting("on_draw", choices=("on_draw", "on_empty"), help="A12: the Dangerous Sector discards are reshuffled when a card must be drawn from an empty deck (on_draw) or as soon as the last card is drawn (on_empty)")
    item_reshuffle: bool = setting(True, help="A13: an empty item deck is rebuilt from the item discards; false: no more items")
    discard_revealed: bool = setting(False, help="A14: an item discarded without being used is shown to all; default face down")
    escaped_items_discarded: bool = setting(False, help="A15: an escaped human's items go to the item discards; default they leave the game")
    dead_aliens_win: bool = setting(True, help="A16: eliminated aliens share the aliens' win")
    stranded_alien_win: bool = setting(True, help="A17: humans eliminated because every hatch is closed count as 'the last human eliminated' for the aliens' win")
    captain_exemption: str = setting("first_stop", choices=("first_stop", "first_draw"), help="A18 (Old Guard H.1): the Captain's free pass is spent the first time his move ends on a dangerous sector (first_stop) or the first time he would draw (first_draw)")
    old_guard_spotlight: str = setting("public", choices=("public", "private"), help="A19 (Old Guard G.4): a Spotlight's sector and the positions it reveals are public, or told to its user only")
    infected_win_with_aliens: bool = setting(True, help="A20 (Infection B.3): a human turned alien wins and loses with the aliens; false: with the humans who died")
    infected_keep_items: bool = setting(False, help="A21 (Infection B.3): a human turned alien keeps the item cards; default discarded like any eliminated player's")
    arena_safe_sectors: str = setting("closed", choices=("closed", "open"), help="A22 (Arena A.4): safe sectors closed to everyone (ES) or open (PT)")
    arena_start: str = setting("choose", choices=("choose", "random"), help="A23 (Arena C.6): each alien secretly chooses its start hatch, or it is drawn at random")
    arena_respawn: str = setting("start", choices=("start", "alien_sector"), help="A24 (Arena A.5): a killed player comes back at its own start hatch, or at the Alien sector")
    arena_kills: int = setting(0, lo=0, hi=99, help="A25 (Arena E.3): kills needed to win; 0 means the number of players")
    arena_end: str = setting("cap", choices=("cap", "first"), help="A26 (Arena E.3): play all rounds, every player with enough kills wins (cap); or stop when the first player gets there (first)")
    stuck_rule: str = setting("stay_draw", choices=("stay_draw", "stay_quiet"), help="A28: a player with no legal move stays put and resolves its sector (stay_draw) or stays without drawing (stay_quiet)")
    feeding_in_basic: bool = setting(False, help="A29: feeding (an alien that kills a human moves up to 3) also in the basic game; default advanced only")

    def check(self) -> str | None:
        """A map besides map_data would label games with a map they were not played on."""
        if self.map_data and self.map != MAPS[0]:  # MAPS[0]: the default
            return f"map={self.map} and map_data={self.map_data}: map_data replaces the map; give one of them"
        return None

