"""Golden outcomes: every registered game replays its committed cases exactly.

A failure means the outcomes of seeded games changed. If that is intended (a rules fix,
a stronger bot), run `make goldens` and commit the rewritten tests/golden/*.json: the
diff shows in review which cases moved and how."""

import pytest

from simkit import golden
from simkit.games import REGISTRY, get

GAMES = [get(name) for name in REGISTRY]


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_outcomes_equal_the_committed_goldens(game):
    expected = golden.load(game)
    assert expected, f"no tests/golden/{game.name}.json: run `python -m simkit.golden {game.name} --update` and commit it"
    cases = {c.key: c for c in golden.cases(game)}
    assert sorted(cases) == sorted(expected), f"the golden cases changed: run `python -m simkit.golden {game.name} --update` and commit the diff"
    moved = []
    for key, case in cases.items():
        got = golden.play_case(case)
        if got["digest"] != expected[key]["digest"]:
            moved.append(f"{key}: won {expected[key]['won_by_seat']} -> {got['won_by_seat']}, means {expected[key]['means']} -> {got['means']}")
    assert not moved, f"{len(moved)} of {len(cases)} cases changed outcomes (if intended: python -m simkit.golden {game.name} --update):\n" + "\n".join(moved)
