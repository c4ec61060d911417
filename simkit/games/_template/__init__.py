"""Template game: Pig (a push-your-luck dice race), to copy when adding a game.

To add a game:
1. copy this folder to ``simkit/games/<name>/`` and ``strategies/_template`` to
   ``strategies/<name>/``; rename ``pig`` and the module paths;
2. write the rules in ``engine.py`` (state layout, ``init_state``, ``legal_actions``,
   ``apply_action``), the variants in ``params.py``, data files in ``data/``;
3. add one line to ``REGISTRY`` in ``simkit/games/__init__.py``;
4. write ``docs/rules/<slug>.md`` and the rulebook's examples as tests; the
   conformance suite (tests/test_conformance.py) then runs on the game automatically.
"""

from __future__ import annotations


from strategies._template import BOTS

from ...game import GameSpec, compiled_table
from . import board as board_mod
from .api import Rules
from .params import PigParams

COLUMNS = {"turns": "turns played", "score": "the seat's final score"}


def simulate(params: PigParams, seeds, table, bots, checked: bool = False) -> dict:
    from .play import play_chunk, play_python

    b = board_mod.build(params)
    fast = compiled_table(bots, table, checked)
    if fast is not None:
        won, score, turns = play_chunk(seeds, b, *fast)
    else:
        won, score, turns = play_python(seeds, b, bots, table)
    return {"won": won, "score": score, "turns": turns}


SPEC = GameSpec(
    name="pig",
    slug="pig",
    title="Pig (template)",
    params=PigParams,
    bots=BOTS,
    default_bot="hold20",
    seats=lambda p: p.players,
    seat_range=(2, 4),
    simulate=simulate,
    columns=COLUMNS,
    data_version=lambda p: "pig-1",
    summary_means=("score", "turns"),
    game_columns=("turns",),
    rules=Rules,
    test_variants=({"players": 2}, {"players": 4, "target": 50}),
)
