"""Parameters of O.V.N.I.: the rule variants and readings a run can set with --set."""

from __future__ import annotations

from dataclasses import dataclass

from ...params import setting


@dataclass(frozen=True)
class OVNIParams:
    """Settings of O.V.N.I. (Marcos Macri). The rules, and what each reading means, are in
    ``docs/rules/ovni.md``: every setting below names the ambiguity (A-number) it selects.
    Defaults are the readings the document chooses. ``board`` and ``decks`` replace the
    built-in data files (``simkit/games/ovni/data/``)."""

    players: int = setting(4, lo=2, hi=4, help="number of players; 2 adds the dummy planet (R19)")
    planets: str = setting("random", choices=("random", "fixed"), help="A18: home planets dealt at random (random) or planet i to seat i in the board file's order (fixed)")
    max_rounds: int = setting(30, lo=1, hi=500, help="A19: rounds after which a game that has not ended is stopped")
    cap_result: str = setting("score", choices=("score", "draw"), help="A19: a stopped game is scored as usual (score) or is a draw for everyone (draw)")
    # Phase 1: recruitment
    tie_rule: str = setting("earliest", choices=("earliest", "opener_only"), help="A1: equal sums go to the tied player who entered the area first (earliest) or only to the opener, else nobody (opener_only)")
    multi_award_at: str = setting("first", choices=("first", "last"), help="A2: a player who won several areas takes his 3 aliens when the first (first) or the last (last) of those areas is resolved")
    six_cancelled: str = setting("spent", choices=("spent", "returns"), help="A3: a cancelled command token 6 is spent like any played 6 (spent) or goes back to its owner unused (returns)")
    stuck_placement: str = setting("waive", choices=("waive", "skip"), help="A4: a player whose every placement would make three in a row ignores that rule (waive) or places nothing this turn (skip)")
    reshuffle: str = setting("draw_then_shuffle", choices=("draw_then_shuffle", "shuffle_all"), help="A5: an alien deck too short for the round is drawn to the end, then the discards are shuffled (draw_then_shuffle), or deck and discards are shuffled together first (shuffle_all)")
    energy_after_empty_win: bool = setting(False, help="A6: a player who won an area but received no alien (empty stock) may use the energy card")
    dummy_energy: str = setting("in_order", choices=("in_order", "last"), help="A7 (2 players): the dummy's energy card is resolved at its place in the phase-1 order (in_order) or after both players (last)")
    # Phase 2: actions
    map_check: str = setting("each_move", choices=("each_move", "end_of_group"), help="A8: mapping is checked after every single Pilot move (each_move) or once when the Pilots group ends (end_of_group)")
    empty_group: bool = setting(False, help="A9: a group with no token of its class may be activated (e.g. Builders to launch a prebuilt UFO)")
    attacks_dynamic: bool = setting(False, help="A10: Military captured during an activation add attacks to it (true) or attacks are counted at activation (false)")
    military_targets: str = setting("not_consecutive", choices=("not_consecutive", "all_different"), help="A11: attacks of one activation may not hit the same opponent twice in a row (not_consecutive) or must all hit different opponents (all_different)")
    last_of_class: str = setting("all", choices=("all", "own"), help="A12: 'the only token of that class' counts every token the victim holds (all) or only those not captured from others (own)")
    no_majority_presence: bool = setting(True, help="A13: the abduct-without-majority card still needs one own UFO in the city")
    swap_into_empty: bool = setting(False, help="A14: the swap-human card may bring a human into an empty city (a move, not a swap)")
    # Scoring and missions
    captured_in_scoring: bool = setting(True, help="A15: captured aliens count for alien majorities and mission holdings")
    mission_ufos: str = setting("on_board", choices=("on_board", "launched"), help="A16: mapping missions count own UFOs on the board at the end (on_board) or UFOs launched by Builders during the game (launched)")
    mission_parity: str = setting("card", choices=("card", "any"), help="A17: the even/odd parity printed on a mission card applies (card) or any cities count (any)")
    mission_overlap: str = setting("shared", choices=("shared", "additive"), help="A20: two kept missions may use the same humans and captures (shared) or need them separately (additive)")
    # Two players (dummy planet)
    force_field_2p: str = setting("remove", choices=("remove", "dead"), help="A21: with 2 players the force-field card leaves the deck (remove) or is dealt and does nothing (dead)")
    dummy_start: str = setting("same_rules", choices=("same_rules", "free"), help="A22: the dummy's two starting aliens follow the different-classes and no-repeated-pair rules (same_rules) or any two classes (free)")
    dummy_in_scoring: str = setting("ignored", choices=("ignored", "blocks"), help="A23: at the end the dummy is left out (ignored) or competes for majorities and airspace without scoring (blocks)")
    # Data files
    board: str = setting("", help="path to a board TOML replacing the built-in stand-in (see simkit/games/ovni/data/board.toml), or a built-in variant: complete (C6: every city adjacent to every other), renumbered (C3: cities 4-12 numbered westwards), planets_reversed (C5: the stand-in planet distances in the opposite order); variant files are data/board_NAME.toml")
    decks: str = setting("", help="path to a decks TOML replacing the built-in cards and scoring (see simkit/games/ovni/data/decks.toml), or a built-in variant: mixed_aliens (C9: another alien-card composition), reassigned (C11: other stand-in mission parameters); variant files are data/decks_NAME.toml")
    # Compensations: balancing changes NOT in the rulebook, for `simkit tune` (docs/rules/ovni.md,
    # "Compensations", K1-K3). Each default leaves the rules exactly as written.
    start_order: str = setting("seat_order", choices=("seat_order", "reversed"), compensation=True, help="Compensation (not in the rulebook): K1: the starting aliens (R1.11) are chosen from seat 1 clockwise as written (seat_order), or from the last seat back to seat 1 (reversed), so the last seat chooses first and seat 1 last")
    start_triples: int = setting(0, lo=0, hi=3, compensation=True, help="Compensation (not in the rulebook): K2: the N seats that choose their starting aliens last (R1.11's order, reversed by K1; at most all seats but the first chooser) take three aliens of different classes instead of two, as with the three-starting-aliens card (R17.1); 0 = the rulebook")
    seat_bonus_points: int = setting(0, lo=0, hi=20, compensation=True, help="Compensation (not in the rulebook): K3: each seat adds N points to its final score (R15.7, before the tie-breaks) per seat that chose its starting aliens before it (R1.11's order, reversed by K1): in the written order seat 1 +0, seat 2 +N, seat 3 +2N, seat 4 +3N; 0 = the rulebook")
