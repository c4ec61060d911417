"""The independent O.V.N.I. model: what an observation hides and reveals (Information)."""

from __future__ import annotations

import copy
import random

from tests.reference.ovni_model import Model, RandomChance
from tests.reference.ovni_model_helpers import resolution_example


# ---- information -------------------------------------------------------------------------------
def test_observation_hides_what_it_must():
    """Changing other planets' face-down values, hands, missions, the deck order and the dummy
    queue leaves the observation unchanged."""
    for players in (2, 3, 4):
        ch = RandomChance(5 + players)
        m = Model({"players": players})
        m.setup(ch)
        r = random.Random(players)
        seen = 0
        while not m.over() and seen < 40:
            seat = m.to_move()
            base = m.observation(seat)
            m2 = copy.deepcopy(m)
            for pl in m2.pl:
                if pl.index != seat:
                    pl.hand = [9] * len(pl.hand)
                    pl.dealt_missions = [15, 14, 13] if pl.dealt_missions else []
                    pl.kept_missions = [15] * len(pl.kept_missions)
            for sl in m2.slots:
                for t in sl:
                    if not t.face_up and t.planet != seat and not m2.revealed:
                        t.value = 9
            m2.deck = list(reversed(m2.deck))
            m2.dummy_queue = list(reversed(m2.dummy_queue))
            assert m2.observation(seat) == base
            if m.step == "place" and any(m.slots):
                seen += 1
            m.apply(r.choice(m.legal()), ch)
        assert seen > 0


def test_observation_reveals_after_placement():
    m, _ = resolution_example()
    obs = m.observation(1)
    assert m.revealed
    assert all(x[1] is not None for sl in obs["slots"] for x in sl)
