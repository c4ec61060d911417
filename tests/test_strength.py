"""The bot ladder (simkit.strength): the verdict's error rates by simulation, the pairing of
seats with the rotation, and `simkit bench --ladder` on the template game."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from simkit import strength as S
from simkit.bots import bot_table
from simkit.cli import app
from simkit.games import get
from simkit.params import build

REPLICATES = 4000
ALPHA_ONE_SIDED = 0.025  # each claim is one side of a 95% two-sided interval


def _claim_rate(true_strong: float, true_weak: float, n: int, claims: set[str], seed: int) -> float:
    """How often the verdict on ``n`` heads-up games says one of ``claims``, when the
    stronger bot's seat wins with ``true_strong`` and the weaker bot's self-play seat with
    ``true_weak`` (independent Bernoulli results, the worst case for pairing)."""
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(REPLICATES):
        d = (rng.random(n) < true_strong).astype(float) - (rng.random(n) < true_weak)
        hits += S.verdict(d)[1] in claims
    return hits / REPLICATES


def _bound(rate: float) -> float:
    return rate + 3 * np.sqrt(rate * (1 - rate) / REPLICATES)


@pytest.mark.parametrize("n", [200, 2000])
def test_a_ten_point_margin_is_claimed_shown_at_most_at_the_nominal_rate(n):
    """At a true margin of exactly 10 points (60% against 50%), 'at least 10 points stronger'
    is a false claim: it must come at most 2.5% of the time (plus Monte Carlo error)."""
    rate = _claim_rate(0.60, 0.50, n, {S.AT_LEAST.format(t="10")}, seed=n)
    assert rate <= _bound(ALPHA_ONE_SIDED), rate


@pytest.mark.parametrize("n", [200, 2000])
def test_equal_bots_are_called_stronger_or_weaker_at_most_at_the_nominal_rate(n):
    stronger = {S.AT_LEAST.format(t="10"), S.STRONGER.format(t="10"), S.STRONGER_BELOW.format(t="10")}
    assert _claim_rate(0.5, 0.5, n, stronger, seed=1 + n) <= _bound(ALPHA_ONE_SIDED)
    assert _claim_rate(0.5, 0.5, n, {S.WEAKER}, seed=2 + n) <= _bound(ALPHA_ONE_SIDED)


@pytest.mark.parametrize("n", [100, 2000])
def test_a_rare_gain_at_the_margin_is_not_called_less_than_it_at_more_than_the_nominal_rate(n):
    """A bot that wins one game in ten that the other loses, and the same games otherwise:
    the margin is exactly 10 points and its differences are skewed (0 or 1). 'Stronger, by
    less than 10 points' is then false; the t interval's upper bound said it 6.1% of the
    time at 100 games and 3.2% at 2,000 (a statistician's review), against 2.5%."""
    rng = np.random.default_rng(40 + n)
    below = {S.STRONGER_BELOW.format(t="10"), S.WEAKER}  # (claims that the margin lies below 10 points)
    rate = np.mean([S.verdict((rng.random(n) < 0.10).astype(float))[1] in below for _ in range(REPLICATES)])
    assert rate <= _bound(ALPHA_ONE_SIDED), rate


@pytest.mark.parametrize("n, decisive", [(100, 0.01), (300, 0.005)])
def test_equal_bots_whose_games_are_mostly_tied_are_not_called_stronger_or_weaker(n, decisive):
    """Equal bots, each game tied but for a few won by one or the other (+1 or -1, each at
    ``decisive``): the skewness-corrected interval alone, its skewness estimated from two
    or three values, called them stronger or weaker about 10% of the time (a second
    review); the farther bound of it and the t interval keeps each claim at its rate."""
    rng = np.random.default_rng(50 + n)
    claims = {S.AT_LEAST.format(t="10"), S.STRONGER.format(t="10"), S.STRONGER_BELOW.format(t="10"), S.WEAKER}
    u = rng.random((REPLICATES, n))
    d = (u < decisive).astype(float) - ((u >= decisive) & (u < 2 * decisive))
    rate = np.mean([S.verdict(row)[1] in claims for row in d])
    assert rate <= _bound(2 * ALPHA_ONE_SIDED), rate


@pytest.mark.parametrize("n", [100, 300])
def test_a_rare_large_gain_against_frequent_small_losses_is_not_called_weaker(n):
    """Equal bots: +1 in 1% of games, -0.5 in 2%, ties otherwise (mean 0). The t interval
    called the first bot weaker 5.9% of the time at 100 and 300 games (a second review), as
    did the skewness-corrected one; samples that lack the rare gain look left-skewed, so
    only a bound valid at any number of games, on both sides, keeps the rate."""
    rng = np.random.default_rng(60 + n)
    u = rng.random((REPLICATES, n))
    d = np.where(u < 0.01, 1.0, np.where(u < 0.03, -0.5, 0.0))
    rate = np.mean([S.verdict(row)[1] == S.WEAKER for row in d])
    assert rate <= _bound(ALPHA_ONE_SIDED), rate


def test_a_clear_margin_is_found():
    """Power: at 70% against 50%, 2,000 games show the 10 points nearly always."""
    assert _claim_rate(0.70, 0.50, 2000, {S.AT_LEAST.format(t="10")}, seed=3) > 0.95


def test_verdicts_on_known_values():
    assert S.verdict(np.r_[np.ones(90), np.zeros(10)])[1] == S.AT_LEAST.format(t="10")
    # a rare gain, too skewed for a t interval at 100 or 300 games (games_for_t): the bound
    # valid at any number claims nothing from 5 or 10 such games; 40 of 2,000 are shown
    assert S.verdict(np.r_[np.ones(5), np.zeros(95)])[1] == S.NOT_SHOWN
    assert S.verdict(np.r_[np.ones(10), np.zeros(290)])[1] == S.NOT_SHOWN
    assert S.verdict(np.r_[np.ones(40), np.zeros(1960)])[1] == S.STRONGER_BELOW.format(t="10")
    # 60 wins to 40 is not shown (the sign test's p is 0.057; the t interval's lower bound
    # was +0.5 points), 62 to 38 is (p = 0.021)
    assert S.verdict(np.r_[np.ones(60), -np.ones(40)])[1] == S.NOT_SHOWN
    assert S.verdict(np.r_[np.ones(62), -np.ones(38)])[1] == S.STRONGER.format(t="10")
    assert S.verdict(np.r_[np.ones(52), -np.ones(48)])[1] == S.NOT_SHOWN
    assert S.verdict(np.r_[-np.ones(90), np.zeros(10)])[1] == S.WEAKER
    # identical games: no spread; the exact bound claims nothing from a handful, and a bot
    # that won all of 20 games against one that lost them is at least 10 points stronger
    # (bench --ladder said 'not shown', '+100.0 ±0.0')
    assert S.verdict(np.zeros(5000))[1] == S.NOT_SHOWN
    assert S.verdict(np.ones(3))[1] == S.NOT_SHOWN
    assert S.verdict(np.ones(20))[1] == S.AT_LEAST.format(t="10") and S.verdict(-np.ones(20))[1] == S.WEAKER
    est = S.verdict(np.ones(20))[0]
    assert est[0] == 1.0 and est[1] == pytest.approx(1 - 2 * (1 - 0.025 ** (1 / 20))) and est[2] == 1.0


def test_a_share_won_in_every_game_keeps_an_interval():
    """'100.0 ±0.0' was printed for a bot that won all of 2,000 games: the t interval of no
    spread. The Wilson interval of the mean is used there; elsewhere the t interval."""
    from simkit.stats import mean_interval, wilson

    est, lo, hi = S._share_interval(np.ones(2000))
    assert est == 1.0 and (lo, hi) == pytest.approx((wilson(2000, 2000).lo, 1.0)) and lo < 0.999
    assert S._share_interval(np.zeros(10))[2] == pytest.approx(wilson(0, 10).hi)
    x = np.r_[np.ones(60), np.zeros(40)]
    iv = mean_interval(x)
    assert S._share_interval(x) == pytest.approx((iv.estimate, iv.lo, iv.hi))


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_the_stronger_bot_sits_where_the_rotation_puts_the_first_bot(seats):
    table = bot_table(seats, 0, 12, True)
    at = S.strong_seats(12, seats)
    assert (table[np.arange(12), at] == 0).all()
    assert np.bincount(at, minlength=seats).tolist() == [12 // seats] * seats


def test_a_bot_against_itself_claims_nothing_and_a_real_gap_is_measured():
    game = get("template")
    params = build(game.params, {"players": 3}, game.name)
    same = S.head_to_head(game, params, "count", "count", 60, seed=4)
    q = 1 - 0.025 ** (1 / 60)  # every game alike: the exact bound, not [0, 0]
    assert same.margin == pytest.approx((0.0, -q, q)) and same.verdict == S.NOT_SHOWN
    assert same.share == same.fair
    gap = S.head_to_head(game, params, "count", "random", 300, seed=4)
    assert gap.players == 3 and gap.margin[1] > 0.10 and gap.verdict == S.AT_LEAST.format(t="10")
    assert abs(gap.margin[0] - (gap.share[0] - gap.fair[0])) < 1e-12


def test_a_game_with_sides_splits_the_margin_by_the_side_dealt():
    """EFTAIOS's humans and aliens: the margin over the games where the stronger bot's seat
    was a human and where it was an alien, averaging (weighted by games) to the margin; a
    game without sides has no split."""
    game = get("eftaios")
    params = build(game.params, {"players": 4}, game.name)
    m = S.head_to_head(game, params, "heuristic", "random", 60, seed=5)
    assert [name for name, _, _ in m.sides] == ["a human seat", "an alien seat"]
    assert sum(n for _, n, _ in m.sides) == 60
    assert abs(sum(n * e[0] for _, n, e in m.sides) / 60 - m.margin[0]) < 1e-12
    human = m.sides[0][2]
    assert human[1] > 0.3  # a heuristic human escapes where a random one never does
    assert S.side_rows([m])[0]["as a human seat pts"].startswith("+")
    template = get("template")
    assert S.head_to_head(template, build(template.params, {"players": 3}, "template"), "count", "random", 30).sides == ()


def test_bench_ladder_writes_each_step(tmp_path):
    """(Bad sizes and a one-bot ladder are in tests/test_cli.py's one-line refusals.)"""
    out = tmp_path / "ladder.json"
    res = CliRunner().invoke(app, ["bench", "template", "--ladder", "-n", "40", "--format", "json", "--output", str(out)])
    assert res.exit_code == 0, res.output
    rows = json.loads(out.read_text())["rows"]
    assert [(r["strong"], r["weak"]) for r in rows] == [("count", "random")]
    assert rows[0]["games"] == 40 and len(rows[0]["margin"]) == 3


def test_a_report_shows_the_experiments_ladder_and_resumes_it(tmp_path):
    """[ladder] in an experiment file: the report's "How strong are the bots?" per player
    count, its runs kept under runs/ladder/ and resumed by the next report."""
    from simkit.report import compose
    from simkit.sweep import sweep

    exp = tmp_path / "e.toml"
    exp.write_text('name = "e"\ngame = "template"\nseed = 3\n[[grid]]\ngames = 50\n'
                   '[ladder]\ngames = 60\nplayers = [2, 4]\n')
    out = tmp_path / "runs" / "sweeps"
    text = compose(sweep(exp, out_root=out, progress=False)).markdown()
    assert "## How strong are the bots?" in text and "### 2 players" in text and "### 4 players" in text
    assert text.count("| count | random |") == 2 and "60 games per row" in text
    folders = sorted(p.name for p in (tmp_path / "runs" / "ladder" / "e").iterdir())
    assert folders == ["players=2", "players=4"]
    assert sorted(p.name for p in (tmp_path / "runs" / "ladder" / "e" / "players=2").iterdir()) == ["count-vs-random", "random-self"]
    again = compose(sweep(exp, out_root=out, progress=False)).markdown()
    assert again == text
    # runs of older code or settings there are simkit's own and are played again (as the
    # cells' are), not a reason to stop the report
    exp.write_text(exp.read_text().replace("seed = 3", "seed = 4"))
    other = compose(sweep(exp, out_root=out, progress=False)).markdown()
    assert "Root seed 4" in other and "60 games per row" in other


def test_a_bad_ladder_table_is_one_line_naming_it(tmp_path):
    from simkit.errors import UserError
    from simkit.sweep import load

    exp = tmp_path / "e.toml"
    exp.write_text('name = "e"\ngame = "template"\n[[grid]]\ngames = 50\n[ladder]\ngames = 60\nbots = ["random", "nobody"]\n')
    with pytest.raises(UserError, match="ladder.*unknown bot 'nobody'"):
        load(exp)
    exp.write_text('name = "e"\ngame = "template"\n[[grid]]\ngames = 50\n[ladder]\ngames = 60\nplayers = [9]\n')
    with pytest.raises(UserError, match="ladder"):
        load(exp)


def test_a_bot_already_played_is_not_played_again(monkeypatch):
    """search:budget=D is search: the budget curve reuses the ladder's top row."""
    import simkit.runner as R

    game = get("template")
    params = build(game.params, {}, game.name)
    played = []
    real = R.run_many
    monkeypatch.setattr(R, "run_many", lambda specs, **kw: played.append(len(specs)) or real(specs, **kw))
    cache: dict = {}
    first = S.head_to_head(game, params, "count", "random", 40, selfplay=cache)
    again = S.head_to_head(game, params, "count", "random", 40, selfplay=cache)
    assert played == [2] and again.margin == first.margin


def test_a_new_version_of_a_report_says_which_verdicts_changed(tmp_path):
    """A section's conclusions and the answers go to report.json; the next report written
    there lists each one whose verdict changed (a report from before they were kept is
    read by its answers)."""
    from simkit.report import Report

    old = Report("t", "t")
    old.conclude("`search` against `tactical` at 2 seats", S.NOT_SHOWN)
    old.conclude("seat 1 is favoured", "survives")
    old.text("first")
    old.write(tmp_path)
    new = Report("t", "t")
    new.conclude("`search` against `tactical` at 2 seats", S.AT_LEAST.format(t="10"))
    new.conclude("seat 1 is favoured", "survives")
    new.conclude("a claim the old report did not make", "flips")
    new.text("second")
    new.write(tmp_path)
    text = (tmp_path / "README.md").read_text()
    assert "## What changed since the last report" in text
    assert ("`search` against `tactical` at 2 seats: was *not shown stronger or weaker*, now **at least 10 points "
            "stronger**.") in text
    assert "seat 1 is favoured" not in text and "did not make" not in text
    again = Report("t", "t")
    again.conclusions = dict(new.conclusions)
    again.write(tmp_path)
    assert "What changed" not in (tmp_path / "README.md").read_text()


def test_a_report_from_before_conclusions_were_kept_is_read_by_its_lines(tmp_path):
    """The first regeneration after this change compares with what the old page says."""
    import json

    from simkit.report import Report

    (tmp_path / "report.json").write_text(json.dumps({"answers": [], "files": {}}))
    (tmp_path / "README.md").write_text("- **Survives**: seat 2 is favoured (its share): `greedy` +1.0 [+0.2, +1.8] points\n")
    new = Report("t", "t")
    new.conclude("seat 2 is favoured (its share)", "flips")
    new.compare_with(json.loads((tmp_path / "report.json").read_text()), (tmp_path / "README.md").read_text())
    assert new.changed == ["seat 2 is favoured (its share): was *survives*, now **flips**."]


def test_the_budget_curves_default_step_is_not_shown_twice():
    """The top bot at 1x its default budget is the top bot's own row (the same games): a
    table listed it twice ('search' and 'search:budget=8', both +0.7 ±1.3)."""
    m = S.Matchup("search", "tactical", 2, 2000, 0, (0.5, 0.48, 0.52), (0.49, 0.47, 0.51), (0.007, -0.006, 0.02), S.NOT_SHOWN)
    rows = [m, S.Matchup(**{**m.__dict__, "strong": "search:budget=4", "margin": (-0.005, -0.02, 0.01)}),
            S.Matchup(**{**m.__dict__, "strong": "search:budget=8"})]
    assert [r.strong for r in S.shown_once(rows)] == ["search", "search:budget=4"]


def test_a_report_says_first_what_it_plays_in_all(tmp_path, monkeypatch):
    """Before any game, a report's first line prices every step it plays (its cells, the
    ladder, how to fix it) at the remembered speeds, and counts what is kept: the first
    estimate a newcomer saw was of the cells alone ("about 42 s" for 2 min 28 s)."""
    from simkit import progress, runner
    from simkit.sweep import _say_report_time, load, sweep

    exp_file = tmp_path / "e.toml"
    exp_file.write_text('name = "e"\ngame = "template"\nseed = 3\nreport = "rep"\n[[grid]]\ngames = 50\n'
                        '[ladder]\ngames = 60\nplayers = [2, 4]\n'
                        '[[tune]]\ngoal = "seat_fairness"\nknobs = ["dice"]\nbudget = 4000\n')
    said = []
    monkeypatch.setattr(progress, "warn", said.append)
    monkeypatch.setattr(runner, "_known_speed", lambda speeds, spec: 2.0)  # 2 games/s: every step is priced
    monkeypatch.setattr(runner, "busy_cores", lambda: 0.0)  # a quiet machine (the suite's other workers are not)
    out = tmp_path / "runs" / "sweeps" / "e"
    exp = load(exp_file)
    cells = [(c.spec, out / "cell") for c in exp.cells]
    _say_report_time(exp, out, cells, cores=2)
    # 50 cell games, 2 x 2 ladder runs of 60, a tune of at most 4,000: at 2 games/s on 2 cores
    assert said == ["this report plays 4,290 games, about 18 min on 2 cores: its cells 50 games (about 12 s), "
                    "the ladder 240 games (about 60 s), how to fix it 4,000 games (about 17 min)"]
    monkeypatch.setattr(runner, "_known_speed", lambda speeds, spec: None)
    _say_report_time(exp, out, cells, cores=2)
    assert said[-1].startswith("this report plays 4,290 games, on 2 cores: its cells 50 games (time not known yet), ")
    sweep(exp_file, out_root=tmp_path / "runs" / "sweeps", progress=False, report=False)
    for n in (2, 4):  # the ladder's runs, as the report keeps them
        S.play_ladder(exp.game, build(exp.game.params, {"players": n}, "template"), exp.ladder["bots"], 60, 3,
                             out=tmp_path / "runs" / "ladder" / "e" / f"players={n}")
    monkeypatch.setattr(runner, "_known_speed", lambda speeds, spec: 2.0)
    _say_report_time(exp, out, [(c.spec, out / f) for c, f in zip(exp.cells, sorted(p.name for p in out.iterdir() if p.is_dir()))], cores=2)
    assert said[-1] == "this report plays 4,000 games, about 17 min on 2 cores: how to fix it 4,000 games (about 17 min)"
    # beside other work keeping both cores busy, two workers get half the machine: twice the time
    monkeypatch.setattr(runner, "busy_cores", lambda: 2.0)
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    _say_report_time(exp, out, [], cores=2)
    assert said[-1] == ("this report plays 4,000 games, about 33 min on 2 cores, other work keeping 2.0 of its 2 cores busy: "
                        "how to fix it 4,000 games (about 33 min)")
