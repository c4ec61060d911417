"""Shared helpers for the tests of the independent O.V.N.I. model (tests/reference/ovni_model.py),
tests/reference/test_ovni_model_*.py: the class, city and human indices, a chance that leaves
every shuffle as it is, and the position builders. Rule numbers (R1, A1, D2 ...) refer to
docs/rules/ovni.md.

Cities are indices (board number - 1): 0 São Paulo, 1 Washington, 2 Madrid, 3 Paris, 4 Berlin,
5 Moscow, 6 Cairo, 7 Dubai, 8 Hong Kong, 9 Tokyo, 10 Sydney, 11 Buenos Aires.
"""

from __future__ import annotations

from tests.reference.ovni_model import Model, ScriptedChance, Token


P, A, B, M = 0, 1, 2, 3
SAO_PAULO, WASHINGTON, MADRID, PARIS, BERLIN, MOSCOW, CAIRO, DUBAI, HONG_KONG, TOKYO, SYDNEY, BUENOS_AIRES = range(12)
POLITICO, CIENTISTA, ATLETA, ARTISTA, RELIGIOSO, SUPERDOTADO = range(6)


class Identity(ScriptedChance):
    """Scripted outcomes first, then every shuffle leaves its list as it is."""

    def shuffle(self, tag, items):
        if self.outcomes:
            return super().shuffle(tag, items)
        self.asked.append(tag)
        return list(items)


def ability(m: Model, name: str) -> int:
    return m.decks.ability_index(name)


def after_setup(players=4, chance=None, **settings) -> Model:
    """A model whose set-up decisions are made (first keep option, first legal start), in round 1."""
    m = Model({"players": players, **settings})
    ch = chance or Identity()
    m.setup(ch)
    while m.step in ("keep", "start", "dummy_start"):
        m.apply(m.legal()[0], ch)
    return m


def clear_board(m: Model) -> None:
    for pl in m.pl:
        pl.ufos = [0] * 12
        pl.frozen = [0] * 12
        pl.mapped = [False] * 12
        pl.own = [0] * 4
        pl.capd = [0] * 4
        pl.pad = 0
        pl.reserve = 8
        pl.pairs_built = 0
        pl.abilities = []


def start_turn(m: Model, seat: int) -> None:
    """Jump to ``seat``'s phase-2 turn (it is the only turn left in the round)."""
    m.phase = 2
    m.slots = [[] for _ in range(m.n_areas)]
    m.seat_turns = [seat]
    m.turn_i = -1
    m._next_turn()


def play(m: Model, *actions, chance=None) -> None:
    ch = chance or Identity()
    for a in actions:
        m.apply(a, ch)


def resolution_example(**settings):
    m = after_setup(4, **settings)
    green, red, blue, yellow = 0, 1, 2, 3
    for pl in m.pl:
        pl.own = [0, 0, 0, 0]
        pl.capd = [0] * 4
    m.stock = [20] * 4
    m.areas = [13, 0, 1, 2]  # A: PAM ("um Piloto, um Abductor e um Militar")
    m.area_on_board = [True] * 4

    def t(p, v, i):
        return Token(p, v, face_up=(i % 2 == 1))

    m.slots = [
        [t(green, 3, 0), t(red, 5, 1), t(blue, 5, 2), t(yellow, 5, 3)],  # three 5s cancel
        [t(yellow, 3, 0), t(green, 5, 1), t(yellow, 4, 2), t(green, 2, 3)],  # 7 = 7, opener
        [t(red, 2, 0), t(blue, 3, 1), t(yellow, 2, 2), t(red, 3, 3)],  # 2s and 3s cancel
        [t(blue, 6, 0), t(red, 4, 1), t(green, 4, 2), t(blue, 2, 3)],  # 4s cancel, Blue's 6
    ]
    m.order1 = [green, red, blue, yellow]
    m._end_placement()
    return m, (green, red, blue, yellow)
