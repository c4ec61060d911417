"""The independent EFTAIOS model: information: an observation hides what it must (R13; T6)."""

from __future__ import annotations

import copy
import random

from tests.reference.eftaios_model import Model, RandomChance, default_settings
from tests.reference.eftaios_model_helpers import _data


# ------------------------------------------------------------------ information (T6)

def _perturb(m: Model, seat: int, rng: random.Random) -> Model:
    """Change what ``seat`` may not know."""
    c = copy.deepcopy(m)
    for i, st in enumerate(c.seats):
        if i == seat:
            continue
        if st.status == "aboard" and st.position >= 0:
            st.position = rng.choice(c.map.sectors())
        if not st.revealed:
            st.character = rng.randrange(8)
        st.items = [rng.randrange(12) for _ in st.items]
        st.fed = not st.fed
        st.last_card = ("silence", False)
    rng.shuffle(c.danger_deck)
    rng.shuffle(c.item_deck)
    rng.shuffle(c.hatch_deck)
    rng.shuffle(c.danger_discard)
    return c


def test_t6_information_hiding():
    rng = random.Random(5)
    for scenario in ("none", "old_guard", "infection"):
        m = Model(default_settings(players=6, scenario=scenario), _data("galilei"))
        ch = RandomChance(2)
        m.setup(ch)
        for step in range(400):
            if m.over():
                break
            if step % 37 == 0:
                for seat in range(m.n):
                    if seat == m.decider:
                        continue
                    assert _perturb(m, seat, rng).observation(seat) == m.observation(seat)
            m.apply(rng.choice(m.legal()), ch)
