"""The Ufo.O report on the question layer: turn order and seat asked separately (draws
counted right), the head-to-head ladder orders only the pairs its games separate, the
games against the random bot are not read as a first-player advantage."""

import numpy as np
import polars as pl

from simkit.games.ufoo.questions import QUESTIONS, HeadToHead, Seats
from simkit.questions import EQUIVALENT, NOT_SHOWN, SHOWN


def _question(qid):
    return next(q for q in QUESTIONS if q.id == qid)


def _two_seat_games(won1, won2, first1, **cols):
    n = len(won1)
    rows = {"game_index": np.repeat(np.arange(n), 2), "seat": np.tile([1, 2], n),
            "won": np.ravel(np.column_stack([won1, won2])).astype(bool),
            "first": np.ravel(np.column_stack([first1, ~first1])).astype(bool)}
    return pl.DataFrame(rows).with_columns(*[pl.lit(v).alias(k) for k, v in cols.items()])


def test_first_player_and_seat_answers_use_the_fair_share_with_draws():
    rng = np.random.default_rng(1)
    n = 4000
    draw = rng.random(n) < 0.2
    first1 = rng.random(n) < 0.5
    first_wins = rng.random(n) < 0.6
    won1 = ~draw & (first_wins == first1)
    won2 = ~draw & ~won1
    frame = _two_seat_games(won1, won2, first1, table="tactical", board="", asteroid_check="all",
                            mothership_attack_from="all", mothership_fire="any_time")
    first = _question("first_player").answers(frame)
    seat = _question("seat").answers(frame)
    assert len(first) == 1 and len(seat) == 1
    fair = 100 * (1 - draw.mean()) / 2  # a draw is a win for neither: the fair share is half the decided games
    assert f"fair share {fair:.1f}%" in first[0].estimates[0].label
    assert first[0].estimates[0].label.startswith("the first player")
    assert first[0].verdict == SHOWN and "the first player" in first[0].sentence and "favoured" in first[0].sentence
    assert seat[0].estimates[1].label.startswith("seat 2")
    assert first[0].sentence.startswith("In tactical self-play")


def test_a_handful_of_games_claims_nothing():
    frame = _two_seat_games(np.array([False, False]), np.array([True, True]), np.array([True, True]))  # first player lost both
    (a,) = Seats(position=pl.when(pl.col("first")).then(1).otherwise(2), position_name="turn position", by=()).answers(frame, False)
    assert a.verdict == NOT_SHOWN and "not shown (2 games)" in a.sentence and "up to 50.0 points" in a.sentence


def _pair_games(a, b, p_a, p_b, n, rng, start=0):
    u = rng.random(n)
    wa, wb = u < p_a, (u >= p_a) & (u < p_a + p_b)
    idx = np.arange(start, start + n)
    return pl.DataFrame({"table": f'["{a}", "{b}"]', "game_index": np.repeat(idx, 2), "seat": np.tile([1, 2], n),
                         "bot": np.ravel(np.column_stack([[a] * n, [b] * n])),
                         "won": np.ravel(np.column_stack([wa, wb]))})


def test_head_to_head_orders_only_the_pairs_it_separates():
    rng = np.random.default_rng(2)
    frame = pl.concat([
        _pair_games("tactical", "aggressive", 0.56, 0.44, 20000, rng),
        _pair_games("search", "tactical", 0.50, 0.50, 400, rng),
        _pair_games("search", "aggressive", 0.505, 0.495, 400, rng),
        _pair_games("tactical", "random", 1.0, 0.0, 300, rng),
        _pair_games("aggressive", "random", 1.0, 0.0, 300, rng),
        _pair_games("search", "random", 1.0, 0.0, 300, rng),
    ])
    (a,) = HeadToHead().answers(frame, use_where=False)
    verdicts = {e.label.split(":")[0]: e.verdict for e in a.estimates}
    assert verdicts["aggressive against tactical"] == SHOWN
    assert verdicts["tactical against search"] == NOT_SHOWN and verdicts["aggressive against search"] == NOT_SHOWN
    assert "tactical beats aggressive" in a.sentence
    assert "random is shown weaker than every other bot" in a.sentence
    assert "tactical and search are not separated" in a.sentence
    assert "beats search" not in a.sentence and "search beats" not in a.sentence
    assert "Holm over 6 pairs" in a.sentence


TINY = """
name = "ufoo-report-test"
game = "ufoo"
seed = 7
[[grid]]
games = 60
bots = ["tactical", "aggressive", ["tactical", "aggressive"], ["tactical", "random"], ["tactical:no-repair", "tactical"]]
rotate_seats = true
"""


def test_report_answers_first_then_turn_order_seat_and_a_ladder_that_is_not_a_ranking(tmp_path):
    from simkit.games.ufoo.report import build
    from simkit.report import compose
    from simkit.sweep import sweep

    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    result = sweep(path, jobs=1, progress=False, report=False, out_root=tmp_path / "runs")
    rep = compose(result, build)
    md = rep.markdown()
    assert md.index("## Answers") < md.index("## Who wins")
    ids = [a.question for a in rep.answers]
    assert ids[:4] == ["first_player", "seat", "head_to_head", "option_worth"]
    for a in rep.answers:
        assert a.verdict in (SHOWN, EQUIVALENT, NOT_SHOWN)
    # the seat split, and the die roll behind it
    assert "seat 2 minus fair share" in md and "moves first (die roll)" in md
    # random against tactical measures the die roll: left out of the first player's table, and said so
    table = md[md.index("| pairing |"):md.index("first-player.png")]
    assert "random vs tactical" not in table and "Left out: random vs tactical" in md
    # the ladder: a forest of pair differences, no ranking implied
    assert "which is not a ranking" in md and "ladder" in rep.figures
    assert rep.headline_figure == "first-player" and "first-player" in rep.figures
