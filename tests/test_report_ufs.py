"""The Under Falling Skies report on the question layer: the damaged side is stated per city
as shown harder or easier, within a margin, or not shown, with Holm over the cities, and
never claimed from a lack of evidence; the headline answers count a cell two grids share
once."""

import re

import numpy as np
import polars as pl

from simkit.games.ufs.questions import DamagedSide
from simkit.questions import EQUIVALENT, NOT_SHOWN, SHOWN

CITIES = ("roswell", "new_york", "washington")


def _sides(n, damaged_of, rng, threats=(0, 1)):
    """Both sides of every city at every threat level on the same seeds (game i: one seed)."""
    parts = []
    for city in CITIES:
        for t in threats:
            p = 0.4 - 0.15 * t
            normal = rng.random(n) < p
            damaged = damaged_of(city, normal, rng, p)
            for side, won in (("normal", normal), ("damaged", damaged)):
                parts.append(pl.DataFrame({"game_index": np.arange(n), "seat": 1, "won": won, "city": city, "city_side": side,
                                           "threat": t, "table": "greedy", "damage_rule": "sum"}))
    return pl.concat(parts)


def _redraw(normal, rng, p, rate):
    """The same game but for a share ``rate`` of the seeds, whose result is drawn afresh."""
    return np.where(rng.random(normal.size) < rate, rng.random(normal.size) < p, normal)


def test_damaged_side_per_city_shown_equivalent_or_not_shown_never_from_absence():
    rng = np.random.default_rng(3)
    # Roswell's damaged side loses a tenth of the normal side's wins; the others play the same
    # game but for a few seeds drawn afresh
    harder = _sides(20000, lambda c, w, r, p: (w & (r.random(w.size) > 0.1)) if c == "roswell" else _redraw(w, r, p, 0.02), rng)
    (a,) = DamagedSide().answers(harder)
    v = {e.label.split(":")[0]: e.verdict for e in a.estimates}
    assert v["Roswell"] == SHOWN and a.estimates[0].estimate < 0
    assert v["New York"] == EQUIVALENT and v["Washington"] == EQUIVALENT
    assert "shown harder in Roswell" in a.sentence and "within ±1 point of the normal side in New York" in a.sentence
    assert "Holm over 3 cities" in a.sentence
    # a few games: nothing is shown, and the sentence says so instead of "never harder"
    few = _sides(60, lambda c, w, r, p: _redraw(w, r, p, 0.5), np.random.default_rng(4))
    (b,) = DamagedSide().answers(few)
    assert b.verdict == NOT_SHOWN and all(e.verdict == NOT_SHOWN for e in b.estimates)
    assert "neither shown harder, nor easier" in b.sentence
    assert "never" not in b.sentence and "survive" not in b.sentence
    # level by level: Holm over every city and threat level
    rows = DamagedSide().by_threat(harder)
    assert len(rows) == 6 and {r["damaged side"] for r in rows} <= {"harder", "easier", "within ±1 point", "not shown"}


TINY = """
name = "ufs-report-test"
game = "ufs"
seed = 11
[[grid]]
games = 150
threat = [0, 1]
city = ["roswell", "new_york", "washington"]
city_side = ["normal", "damaged"]
bots = ["greedy", "planner"]
# the headline cell again in a second grid: the sweep's frame holds it twice
[[grid]]
games = 150
threat = [1]
city = ["roswell"]
city_side = ["normal"]
bots = ["greedy"]
[[grid]]
games = 150
threat = [1]
city = ["roswell"]
city_side = ["normal"]
damage_rule = ["strict"]
bots = ["greedy"]
"""


def test_report_answers_first_damaged_side_per_city_and_no_survival_from_absence(tmp_path):
    from simkit.games.ufs.report import build
    from simkit.report import compose
    from simkit.sweep import sweep

    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    result = sweep(path, jobs=1, progress=False, report=False, out_root=tmp_path / "runs")
    held = []

    def holding(result, rep):
        held.append(result.frame.columns)
        build(result, rep)

    holding.__module__ = build.__module__  # its READS
    rep = compose(result, holding)
    md = rep.markdown()
    # the report holds only the columns it reads: its questions', the settings and READS
    assert "damage_taken" not in held[0] and "city_hits" not in held[0] and {"won", "threat", "rounds"} <= set(held[0])
    answers = {a.question: a for a in rep.answers}
    # the searching bot did not play: its question is skipped, not a crash
    assert list(answers) == ["normal_game", "threat", "damaged_side", "damage_limit"]
    assert answers["normal_game"].games == 150  # the cell two grids share counts once
    assert "greedy bot defending Roswell" in answers["normal_game"].sentence
    side = answers["damaged_side"]
    assert "Holm over 3 cities" in side.sentence and len(side.estimates) == 3
    # a side shown easier comes with why (a reader took the name "damaged" for its difficulty)
    assert ("shown easier" in side.sentence) == ("stronger ability" in side.sentence)
    assert all(e.verdict in (SHOWN, EQUIVALENT, NOT_SHOWN) for e in side.estimates)
    assert "never significantly harder" not in md
    assert md.index("## Answers") < md.index("## Win rate by threat level")
    assert "## Is the damaged side harder?" in md
    assert rep.headline_figure == "win-rate-by-threat" and "win-rate-by-threat" in rep.figures
    # the stronger bot's order of cells: one line, under its most common class, with every count
    (pairs,) = [x for x in md.splitlines() if "the order of two cells" in x]
    counts = {cls: int(k) for cls, pattern in (("Survives", r"keeps the order of (\d+)"), ("Flips", r"reverses (\d+)"),
                                                ("Fades", r"it\) for (\d+)"), ("Undecided", r"show smaller (\d+)"))
              for k in re.findall(pattern, pairs)}
    assert pairs.endswith(f"of its {sum(counts.values())} pairs.")
    assert re.match(r"- \*\*(\w+)\*\*", pairs).group(1) == max(counts, key=counts.get), pairs
    assert "% interval [" in md and not re.search(r"\d% \[[+-]", md)  # a Bonferroni interval says it is one


def test_the_normal_game_is_answered_for_the_searching_bot_beside_greedy():
    """The first answers give the normal game's win rate for greedy and, beside it, for the
    searching bot: greedy's 10% alone was read as the game's difficulty (search wins 97%)."""
    import polars as pl

    from simkit.games.ufs.questions import QUESTIONS

    def games(table, wins, n=100):
        return pl.DataFrame({"game_index": range(n), "seat": [1] * n, "won": [i < wins for i in range(n)], "table": [table] * n,
                             "city": ["roswell"] * n, "city_side": ["normal"] * n, "damage_rule": ["sum"] * n, "threat": [1] * n})

    frame = pl.concat([games("greedy", 10), games("search:budget=16", 97)])
    (first,), (stronger,) = (q.answers(frame) for q in QUESTIONS[:2])
    assert first.sentence.startswith("At threat 1 (the rulebook's normal game), the greedy bot defending Roswell (normal side) wins 10")
    assert stronger.question == "normal_game_stronger" and stronger.sentence.startswith("In the same game, the searching bot at budget 16")
    assert " wins 97" in stronger.sentence and stronger.games == 100


def test_select_games_keeps_a_shared_cell_once_with_all_its_games():
    """A cell that two grids share comes once per grid in a sweep's frame, each grid holding
    a prefix of the same run: the games kept are the union (the unique rows), not a sum."""
    import polars as pl

    from simkit.games.ufs.questions import select_games

    def cell(grid, threat, n):
        return pl.DataFrame({"game_index": range(n), "won": [i % 3 == 0 for i in range(n)], "threat": [threat] * n,
                             "table": ["greedy"] * n, "grid": [grid] * n})

    frame = pl.concat([cell(0, 1, 40), cell(0, 2, 30), cell(1, 1, 60), cell(2, 1, 60)])
    got = select_games(frame, None)
    assert got.sort("threat", "game_index").equals(frame.drop("grid").unique().sort("threat", "game_index"))
    assert got.height == 90 and "grid" not in got.columns
    assert select_games(frame, {"threat": 2}).height == 30
