"""The balance questions (simkit.questions): known values, and each verdict's error rate
checked by simulation on synthetic data whose truth is known.

Every error-rate test draws a few hundred to a couple of thousand replicates (fixed seeds)
and asserts that the rate at which a verdict is wrongly given is consistent with at most
``alpha``: the count may not exceed the 99.9% quantile of Binomial(replicates, alpha).
Each also checks that the verdict is given when it is true (power not trivially zero),
so that a rule that never says anything cannot pass.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from simkit import questions as Q
from simkit.games import REGISTRY, get

ALPHA = Q.ALPHA


def at_most_alpha(count: int, n: int, alpha: float = ALPHA) -> bool:
    """Whether ``count`` wrong verdicts in ``n`` replicates are consistent with a rate of at
    most ``alpha`` (the count is within the 99.9% quantile of Binomial(n, alpha))."""
    return count <= sps.binom.ppf(0.999, n, alpha)


def deal(rng, games: int, players: int, cards: int, per_seat: int = 2) -> np.ndarray:
    """Games x seats x cards, 0/1: each seat dealt ``per_seat`` cards of a shuffled deck."""
    order = np.argsort(rng.random((games, cards)), axis=1)[:, : players * per_seat].reshape(games, players, per_seat)
    holds = np.zeros((games, players, cards))
    for j in range(per_seat):
        np.put_along_axis(holds, order[:, :, j : j + 1], 1.0, axis=2)
    return holds


def one_winner(rng, probs: np.ndarray) -> np.ndarray:
    """One winner per game from per-game seat probabilities (games x seats, rows sum to 1),
    as a 0/1 games x seats matrix."""
    u = rng.random((probs.shape[0], 1))
    k = (u > np.cumsum(probs, axis=1)).sum(axis=1).clip(max=probs.shape[1] - 1)
    out = np.zeros_like(probs)
    out[np.arange(probs.shape[0]), k] = 1.0
    return out


# ---- known values ---------------------------------------------------------------------------
def test_deviations_from_mean_on_a_small_matrix():
    m = np.tile([[1.0, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]], (10, 1))  # 40 games; seats 2 and 3 win 10 each
    devs = Q.deviations_from_mean(m)
    # seat 1: per game 2/3, -1/3, 2/3, -1/3: mean 1/6, variance 1/4 * 40/39 (ddof 1)
    se = np.sqrt(0.25 * 40 / 39 / 40)
    assert devs[0].estimate == pytest.approx(1 / 6) and devs[0].se == pytest.approx(se)
    assert devs[0].p == pytest.approx(2 * sps.norm.sf((1 / 6) / se))
    # seats 2 and 3: -1/3, 2/3, -1/3, -1/3 and -1/3, -1/3, -1/3, 2/3: mean -1/12 each
    assert devs[1].estimate == pytest.approx(-1 / 12) and devs[2].estimate == pytest.approx(-1 / 12)
    assert sum(d.estimate for d in devs) == pytest.approx(0)


def test_few_games_are_judged_by_the_empirical_bernstein_bound():
    """Seats 2 and 3 win one game each of 4: short of 10 wins the normal interval is not
    trusted. The bound (Maurer & Pontil, Theorem 4, each side at 2.5%): sqrt(2 V L / n) +
    7 w L / (3 (n - 1)), L = log(4 / 0.05), w = 4/3 the range of a deviation of 3 seats."""
    m = np.array([[1.0, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]])
    assert not Q.normal_holds(m) and Q.normal_holds(np.tile(m, (10, 1)))
    devs = Q.deviations_from_mean(m)
    log = np.log(4 / 0.05)
    half = np.sqrt(2 * (1 / 3) * log / 4) + 7 * (4 / 3) * log / 9
    assert devs[0].estimate == pytest.approx(1 / 6) and devs[0].se * Q.Z95 == pytest.approx(half)
    # the p-value is the level at which the interval just reaches 0
    x = np.array([0.5] * 45 + [-0.5] * 5)
    p = Q.bernstein_p(x, 1.0)
    assert 0 < p < 1 and Q.bernstein_half_width(x, 1.0, p) == pytest.approx(abs(x.mean()))


def test_adjusted_effects_is_the_plain_difference_with_one_item_per_row_and_one_stratum():
    rng = np.random.default_rng(5)
    n, k = 3000, 4
    item = rng.integers(0, k, n)
    y = (rng.random(n) < 0.3 + 0.05 * item).astype(float)
    holds = np.eye(k)[item]
    eff, se = Q.adjusted_effects(y, holds, np.zeros(n), np.arange(n))
    plain = np.array([y[item == c].mean() for c in range(k)]) - y.mean()  # holders' mean minus the average holder's
    assert eff == pytest.approx(plain, abs=1e-12)
    # one row per cluster: the HC1 standard error of a difference of group means
    assert se[0] > 0 and np.all(np.isfinite(se))


def test_rows_holding_no_item_are_not_mistaken_for_holders_of_the_first():
    """A seat may hold no item (a skipped value): the first item used to be the reference
    column, so rows holding nothing were read as holding it (bug fixed in adjusted_effects)."""
    rng = np.random.default_rng(6)
    n = 20000
    item = rng.integers(-1, 3, n)  # -1: holds none
    p = np.where(item >= 0, 0.4 + 0.1 * item.clip(0), 0.1)
    y = (rng.random(n) < p).astype(float)
    holds = np.zeros((n, 3))
    holds[item >= 0, item[item >= 0]] = 1
    eff, _ = Q.adjusted_effects(y, holds, np.zeros(n), np.arange(n))
    held = item >= 0
    plain = np.array([y[item == c].mean() for c in range(3)]) - y[held].mean()
    assert eff == pytest.approx(plain, abs=1e-12)


def test_two_positions_are_one_hypothesis():
    """With two seats the deviations are d and -d: one test, not Holm over two."""
    rng = np.random.default_rng(7)
    m = one_winner(rng, np.tile([0.53, 0.47], (2000, 1)))
    judged, family = Q.judge_deviations(m, 0.02)
    raw = Q.deviations_from_mean(m)
    assert family == 1 and judged[0].p == pytest.approx(raw[0].p) and judged[1].p == pytest.approx(raw[1].p)
    judged, family = Q.judge_deviations(one_winner(rng, np.full((2000, 3), 1 / 3)), 0.02)
    assert family == 3


# ---- seat fairness --------------------------------------------------------------------------
def _fairness_rates(rng, reps: int, make, margin: float = 0.02) -> dict[str, int]:
    count = {Q.SHOWN: 0, Q.EQUIVALENT: 0, Q.NOT_SHOWN: 0}
    for _ in range(reps):
        judged, _ = Q.judge_deviations(make(rng), margin)
        count[Q.overall([t.verdict for t in judged])] += 1
    return count


@pytest.mark.parametrize("players", [2, 4])
def test_seat_fairness_no_false_favoured_seat_with_one_winner_per_game(players):
    rng = np.random.default_rng(10 + players)
    reps, games = 1000, 400
    null = _fairness_rates(rng, reps, lambda r: one_winner(r, np.full((games, players), 1 / players)))
    assert at_most_alpha(null[Q.SHOWN], reps)
    tilted = np.full(players, (1 - (1 / players + 0.08)) / (players - 1))
    tilted[0] = 1 / players + 0.08
    power = _fairness_rates(rng, 300, lambda r: one_winner(r, np.tile(tilted, (games, 1))))
    assert power[Q.SHOWN] / 300 > 0.5


@pytest.mark.parametrize("value", ["won", "win_share"])
def test_seat_fairness_no_false_favoured_seat_with_shared_wins(value):
    """Each seat wins on its own with 40% (so several can win one game), counted as 0/1 or
    as a win share split between the winners."""
    rng = np.random.default_rng(20 if value == "won" else 21)
    reps, games, players = 1000, 400, 3

    def make(r, p=(0.4, 0.4, 0.4)):
        won = (r.random((games, players)) < np.array(p)).astype(float)
        if value == "won":
            return won
        return won / np.maximum(won.sum(axis=1, keepdims=True), 1)

    null = _fairness_rates(rng, reps, make)
    assert at_most_alpha(null[Q.SHOWN], reps)
    power = _fairness_rates(rng, 300, lambda r: make(r, (0.5, 0.4, 0.4)))
    assert power[Q.SHOWN] / 300 > 0.5


@pytest.mark.parametrize("players", [2, 4])
def test_seat_fairness_no_false_fair_when_a_seat_deviates_by_the_margin(players):
    """Seat 1's true deviation from the average seat is exactly the margin: 'fair within
    ±margin' must be said at most alpha of the time (intersection-union test)."""
    rng = np.random.default_rng(30 + players)
    reps, games, m = 1000, 4000, 0.02
    p = np.full(players, 1 / players - m / (players - 1))
    p[0] = 1 / players + m  # r_1 - mean r = m
    assert p[0] - p.mean() == pytest.approx(m)
    edge = _fairness_rates(rng, reps, lambda r: one_winner(r, np.tile(p, (games, 1))), margin=m)
    assert at_most_alpha(edge[Q.EQUIVALENT], reps)
    fair = _fairness_rates(rng, 300, lambda r: one_winner(r, np.full((games, players), 1 / players)), margin=m)
    assert fair[Q.EQUIVALENT] / 300 > 0.3


def test_seat_fairness_answer_on_a_frame():
    rng = np.random.default_rng(8)
    games, players = 3000, 3
    won = one_winner(rng, np.tile([0.40, 0.30, 0.30], (games, 1)))
    frame = pl.DataFrame({"game_index": np.repeat(np.arange(games), players), "seat": np.tile(np.arange(1, players + 1), games),
                          "players": np.full(games * players, players), "won": won.ravel().astype(bool)})
    (a,) = Q.SeatFairness().answers(frame)
    assert a.verdict == Q.SHOWN and a.sentence.startswith("Seat 1 ") and "favoured" in a.sentence and "Holm over 3 seats" in a.sentence
    assert a.estimates[0].estimate == pytest.approx(won[:, 0].mean() - won.mean())
    # every seat shown is named, not the largest deviation alone (seats 2 and 3 lose what seat 1 wins)
    shown = [e.label.split(":")[0] for e in a.estimates if e.verdict == Q.SHOWN]
    assert len(shown) > 1 and all(name.lower() in a.sentence.lower() for name in shown), a.sentence
    two = frame.filter(pl.col("seat") < 3).with_columns(pl.lit(2).alias("players"))
    two = two.filter(pl.col("game_index").is_in(np.flatnonzero(won[:, 2] == 0)))
    (b,) = Q.SeatFairness().answers(two)
    assert "one test" in b.method


@pytest.mark.parametrize("players, games, win, one", [(2, 10, 1.0, True), (4, 100, 0.02, False), (4, 100, 0.1, True),
                                                 (4, 1000, 0.1, True)])
def test_seat_fairness_no_false_favoured_seat_in_few_games_or_with_rare_wins(players, games, win, one):
    """Fair seats; a game has a winner with chance ``win`` (one winner, or each seat on its
    own). The normal interval at any count called a seat favoured 11.5%, 26%, 25% and 9%
    of the time in these four cases; short of 10 wins and 10 games not won at every seat
    the empirical Bernstein bound judges instead."""
    rng = np.random.default_rng(players * 1000 + games)

    def make(r):
        if not one:
            return (r.random((games, players)) < win).astype(float)
        m = one_winner(r, np.full((games, players), 1 / players))
        return m * (r.random((games, 1)) < win)

    null = _fairness_rates(rng, 1000, make, margin=None)
    assert at_most_alpha(null[Q.SHOWN], 1000), null


def test_seat_fairness_in_few_games_still_shows_a_clear_favourite():
    """The bound is valid at any count, and still sees a seat that wins 45 of 50 three-
    player games, or one that never wins in 2,000 four-player games where the others win 5%."""
    won = np.tile([[1.0, 0, 0]], (50, 1))
    won[:5] = [0, 1, 0]
    tested, _ = Q.judge_deviations(won, margin=0.02)
    assert not Q.normal_holds(won) and tested[0].verdict == Q.SHOWN and tested[0].estimate > 0
    rng = np.random.default_rng(3)
    won = (rng.random((2000, 4)) < 0.05).astype(float)
    won[:, 0] = 0
    tested, _ = Q.judge_deviations(won, margin=0.02)
    assert not Q.normal_holds(won) and tested[0].verdict == Q.SHOWN and tested[0].estimate < 0


def test_seat_fairness_answer_in_few_games_says_so():
    """Ten two-player games, the first seat winning 8: not a favoured seat (the exact
    binomial p is 0.11; the normal interval said +30 [+3.9, +56.1]), an interval within
    the ±50 points a deviation can reach, and the sentence says why it is wide."""
    won = np.array([1, 0] * 8 + [0, 1] * 2, dtype=bool)
    frame = pl.DataFrame({"game_index": np.repeat(np.arange(10), 2), "seat": np.tile([1, 2], 10),
                          "players": np.full(20, 2), "won": won})
    (a,) = Q.SeatFairness().answers(frame)
    assert a.verdict == Q.NOT_SHOWN and "Few games: seat 2 won 2 of 10" in a.sentence and "Bernstein" in a.method
    assert all(-0.5 <= e.lo <= e.estimate <= e.hi <= 0.5 for e in a.estimates)
    shares = np.where(won, 1.0, 0.0)
    shares[-2:] = 0.5  # the last game drawn: seat 2's shares sum to 1.5
    (b,) = Q.SeatFairness(value="win_share").answers(frame.with_columns(pl.Series("win_share", shares)))
    assert "Few games: seat 2 won 1.5 of 10" in b.sentence


def test_no_seat_answer_when_each_seat_kept_its_own_bot():
    """Seat 1 always random, seat 2 always tactical: a seat's effect is its bot's, and the
    seat question said 'Seat 1 ... disfavoured by -50 points' (a hostile user's review).
    Rotated (each seat plays both bots), or one bot at every seat, it answers."""
    games = 60
    frame = pl.DataFrame({"game_index": np.repeat(np.arange(games), 2), "seat": np.tile([1, 2], games),
                          "players": np.full(2 * games, 2), "won": np.tile([False, True], games),
                          "bot": np.tile(["random", "tactical"], games)})
    assert Q.bots_fixed_by_seat(frame) and Q.SeatFairness().answers(frame) == []
    rotated = frame.with_columns(pl.when(pl.col("game_index") % 2 == 1).then(pl.col("bot").reverse().over("game_index"))
                                 .otherwise(pl.col("bot")).alias("bot"))
    assert not Q.bots_fixed_by_seat(rotated) and len(Q.SeatFairness().answers(rotated)) == 1
    same = frame.with_columns(pl.lit("tactical").alias("bot"))
    assert not Q.bots_fixed_by_seat(same) and len(Q.SeatFairness().answers(same)) == 1
    from simkit.games.ufoo.questions import HeadToHead  # it said 'seats rotated' of these games

    assert HeadToHead().answers(frame) == [] and "seats rotated" in HeadToHead().answers(rotated)[0].sentence


# ---- side balance ---------------------------------------------------------------------------
def _sides(won: np.ndarray, a_seats: list[int]) -> tuple[np.ndarray, ...]:
    b_seats = [k for k in range(won.shape[1]) if k not in a_seats]
    wa, wb = won[:, a_seats], won[:, b_seats]
    return wa.mean(axis=1), wb.mean(axis=1), wa.max(axis=1), wb.max(axis=1)


def test_side_balance_per_player_no_false_difference_when_only_the_side_count_differs():
    """Three seats on side A, one on side B, each seat winning on its own with 30%: per
    player there is no difference (30% against 30%), per side a large one (A wins some
    seat's game 66% of the time)."""
    rng = np.random.default_rng(40)
    reps, games = 1500, 400
    false, power = 0, 0
    for _ in range(reps):
        won = (rng.random((games, 4)) < 0.3).astype(float)
        per_player, per_side = Q.judge_sides(*_sides(won, [0, 1, 2]), margin=0.05)
        false += per_player.verdict == Q.SHOWN
        power += per_side.verdict == Q.SHOWN
    assert at_most_alpha(false, reps) and power / reps > 0.9


def test_side_balance_per_side_no_false_difference_when_only_the_players_differ():
    """Two seats a side; each side wins half the games, but side A's win goes to one of its
    seats while side B's goes to both: per side no difference, per player a large one."""
    rng = np.random.default_rng(41)
    reps, games = 1500, 400
    false, power = 0, 0
    for _ in range(reps):
        a_wins = rng.random(games) < 0.5
        which = rng.integers(0, 2, games)
        won = np.zeros((games, 4))
        won[np.arange(games), which] = a_wins
        won[:, 2] = won[:, 3] = ~a_wins
        per_player, per_side = Q.judge_sides(*_sides(won, [0, 1]), margin=0.05)
        false += per_side.verdict == Q.SHOWN
        power += per_player.verdict == Q.SHOWN
    assert at_most_alpha(false, reps) and power / reps > 0.9


@pytest.mark.parametrize("games, win", [(50, 0.03), (20, 0.1)])
def test_side_balance_no_false_difference_in_few_games(games, win):
    """Three seats against one, each winning on its own with chance ``win``: per player no
    difference. The normal interval at any count said there was one 9.8% and 9.1% of the
    time."""
    rng = np.random.default_rng(games)
    reps, false = 1000, 0
    for _ in range(reps):
        won = (rng.random((games, 4)) < win).astype(float)
        false += Q.judge_sides(*_sides(won, [0, 1, 2]), None)[0].verdict == Q.SHOWN
    assert at_most_alpha(false, reps)


def test_side_balance_no_false_balanced_at_the_margin():
    """One seat a side, one winner: A wins 52.5%, so per player and per side the difference
    is exactly 5 points, the margin."""
    rng = np.random.default_rng(42)
    reps, games, margin = 1000, 4000, 0.05
    edge = [0, 0]
    for _ in range(reps):
        won = one_winner(rng, np.tile([0.525, 0.475], (games, 1)))
        for i, t in enumerate(Q.judge_sides(*_sides(won, [0]), margin=margin)):
            edge[i] += t.verdict == Q.EQUIVALENT
    assert at_most_alpha(edge[0], reps) and at_most_alpha(edge[1], reps)
    won = one_winner(rng, np.tile([0.5, 0.5], (games, 1)))
    assert all(t.verdict == Q.EQUIVALENT for t in Q.judge_sides(*_sides(won, [0]), margin=margin))


def test_side_balance_when_every_game_ends_alike():
    """No spread (a standard error of 0): the rule of three. Thousands of games in which the
    aliens never win show the gap (the basic game with aliens that ignore the
    announcements: "+33.3 points [+33.1, +33.5]: not shown"); a handful show nothing; thousands
    with no gap at all show balance."""
    humans_win = np.tile([1.0, 0, 0, 0, 0, 0], (3000, 1))  # 6 seats, seats 0-2 human: one human wins each game
    per_player, per_side = Q.judge_sides(*_sides(humans_win, [0, 1, 2]), margin=0.05)
    assert per_player.estimate == pytest.approx(1 / 3) and per_player.verdict == Q.SHOWN
    assert per_side.estimate == 1.0 and per_side.verdict == Q.SHOWN
    assert all(t.verdict == Q.NOT_SHOWN for t in Q.judge_sides(*_sides(humans_win[:5], [0, 1, 2]), margin=0.05))
    both_lose = np.zeros((3000, 2))
    assert all(t.verdict == Q.EQUIVALENT for t in Q.judge_sides(*_sides(both_lose, [0]), margin=0.05))
    # no false difference where a rare game makes up for the rest (side A wins by a little in
    # almost every game, side B by a lot in a few, no difference on average): a fifth of the
    # samples have no such game, and their float spread of about 1e-20 tested as certain
    rng = np.random.default_rng(43)
    reps, games, q = 2000, 400, 0.004
    false = 0
    for _ in range(reps):
        b_wins = rng.random(games) < q
        pa = np.where(b_wins, 0.0, q / (1 - q))  # A's edge in an ordinary game, B's 1 in a rare one
        pb = np.where(b_wins, 1.0, 0.0)
        false += Q.judge_sides(pa, pb, pa, pb, margin=None)[0].verdict == Q.SHOWN
    assert at_most_alpha(false, reps)


def test_no_spread_bound_is_exact_for_equivalence_and_wider_for_a_difference():
    """The bound for games that all ended alike: an equivalence test's half-width (z(0.95)
    standard errors) is exactly width (1 - 0.05^(1/n)), beyond which all n alike has a
    chance of 5% at most; a difference's (1.96 of them) is wider. A rule of 2.5/n instead of
    about 3/n let a true mean outside the margin pass as equivalent 8% of the time."""
    for n, width in ((200, 1.0), (3000, 2.0), (7, 2.0)):
        m, se = Q.mean_se_bounded(np.full(n, 0.25), width)
        exact = width * (1 - 0.05 ** (1 / n))
        assert m == 0.25 and Q._NORMAL.inv_cdf(0.95) * se == pytest.approx(exact) and Q.Z95 * se > exact
        assert (1 - exact / width) ** n == pytest.approx(0.05)


def test_seat_fairness_when_one_seat_wins_every_game():
    """Seat 1 wins all 3,000 (or 50) three-player games: shown, by the bound (the float
    spread of its deviations once made it 'shown' by accident; a zero spread, 'not shown')."""
    for games in (3000, 50):
        won = np.tile([1.0, 0.0, 0.0], (games, 1))
        tested, _ = Q.judge_deviations(won, margin=0.02)
        assert tested[0].estimate == pytest.approx(2 / 3) and tested[0].verdict == Q.SHOWN


# ---- payoff ---------------------------------------------------------------------------------
def _payoff_rows(holds: np.ndarray, won: np.ndarray, players: np.ndarray | None = None):
    games, seats, cards = holds.shape
    strata = np.tile(np.arange(seats), games) if players is None else np.repeat(players, seats) * 10 + np.tile(np.arange(seats), games)
    return won.ravel(), holds.reshape(games * seats, cards), strata, np.repeat(np.arange(games), seats)


@pytest.mark.parametrize("games, cards, win", [(200, 20, 0.3), (1000, 20, 0.2)])
def test_payoff_no_false_paying_card_when_wins_are_rare(games, cards, win):
    """Four seats each dealt one of ``cards`` cards; a game has a winner with chance
    ``win``, whatever the cards. With cluster-robust errors alone a card whose few holders
    never won looked certain: some card was called paying 63% and 24% of the time."""
    rng = np.random.default_rng(games + cards)
    reps, false = 300, 0
    for _ in range(reps):
        holds = deal(rng, games, 4, cards, per_seat=1)
        won = one_winner(rng, np.full((games, 4), 0.25)) * (rng.random((games, 1)) < win)
        false += Q.overall([t.verdict for t in Q.judge_effects(*_payoff_rows(holds, won), margin=None)]) == Q.SHOWN
    assert at_most_alpha(false, reps), false


def test_payoff_no_false_paying_card_under_the_null():
    """Three seats each dealt two of eight cards, one winner per game whatever the cards."""
    rng = np.random.default_rng(50)
    reps, games, players, cards = 500, 200, 3, 8
    false = 0
    for _ in range(reps):
        holds = deal(rng, games, players, cards)
        won = one_winner(rng, np.full((games, players), 1 / players))
        judged = Q.judge_effects(*_payoff_rows(holds, won), margin=0.02)
        false += Q.overall([t.verdict for t in judged]) == Q.SHOWN
    assert at_most_alpha(false, reps)
    shown = 0
    for _ in range(50):
        holds = deal(rng, games, players, cards)
        strength = 1 + 2 * holds[:, :, 0]  # card 0 triples its holder's chances
        won = one_winner(rng, strength / strength.sum(axis=1, keepdims=True))
        judged = Q.judge_effects(*_payoff_rows(holds, won), margin=0.02)
        shown += judged[0].verdict == Q.SHOWN and judged[0].estimate > 0
    assert shown / 50 > 0.8


def test_payoff_is_unbiased_where_holders_versus_non_holders_is_confounded():
    """Like O.V.N.I.'s ability cards: each seat holds two cards, every card is dealt, one
    card (D) is dominant, the others do nothing. With 2 players the deck is D, c1, c2, c3;
    with 3 players also c4, c5 (so c4, c5 are held only where a seat's fair share is 1/3).
    One winner per game, seat i winning with 1/P + delta (D_i - 1/P): a seat's win chance is
    then exactly linear in its own cards, and the estimand (a card's effect minus the
    holder-weighted average card's, adjusted for the player count and the seat) is known:
    ``(1 - w_D) delta`` for D and ``-w_D delta`` for every card without an effect (w_D: D's
    share of the holdings). Holders versus non-holders is confounded twice: a card's
    non-holders hold D more often, and c4, c5 are held only in 3-player games. The adjusted
    estimates are unbiased; the raw differences are not, and they rank cards that do
    nothing differently."""
    rng = np.random.default_rng(51)
    reps, games, delta = 300, 400, 0.3
    cards = 6  # D, c1 .. c5
    adj, raw, cover, w_d = [], [], [], []
    z = sps.norm.ppf(0.975)
    for _ in range(reps):
        parts = []
        for players in (2, 3):
            h = deal(rng, games, players, 2 * players)
            h = np.concatenate([h, np.zeros((games, players, cards - 2 * players))], axis=2)
            p = 1 / players + delta * (h[:, :, 0] - 1 / players)
            parts.append((h, one_winner(rng, p), np.full(games, players)))
        rows = [_payoff_rows(h, w, n) for h, w, n in parts]
        y, holds, strata, clusters = (np.concatenate([r[i] + (games * j if i == 3 else 0) for j, r in enumerate(rows)]) for i in range(4))
        eff, se = Q.adjusted_effects(y, holds, strata, clusters)
        w = holds.sum(axis=0) / holds.sum()
        truth = delta * (np.eye(cards)[0] - w[0])
        adj.append(eff)
        cover.append(np.abs(eff - truth) <= z * se)
        raw.append([y[holds[:, c] == 1].mean() - y[holds[:, c] == 0].mean() for c in range(cards)])
        w_d.append(w[0])
    adj, raw, cover = np.array(adj), np.array(raw), np.array(cover)
    truth = delta * (np.eye(cards)[0] - np.mean(w_d))
    mc = adj.std(axis=0, ddof=1) / np.sqrt(reps)
    assert np.all(np.abs(adj.mean(axis=0) - truth) < 4 * mc), (adj.mean(axis=0), truth)
    # the cards that do nothing: one adjusted effect, -w_D delta, wherever they are dealt
    assert np.ptp(adj.mean(axis=0)[1:]) < 0.004
    # raw holders minus non-holders: c1 (both decks) and c4 (3 players only) do nothing alike,
    # yet their raw differences are far apart, and far from the estimand
    raw_mc = raw.std(axis=0, ddof=1) / np.sqrt(reps)
    assert raw.mean(axis=0)[4] - raw.mean(axis=0)[1] < -0.05
    assert np.all(np.abs(raw.mean(axis=0)[1:] - truth[1:]) > 5 * raw_mc[1:])
    # each card's 95% interval covers the truth about 95% of the time (cluster-robust errors)
    assert np.all(cover.sum(axis=0) >= sps.binom.ppf(0.001, reps, 0.95)), cover.mean(axis=0)


def test_payoff_answer_on_a_frame():
    rng = np.random.default_rng(52)
    games, players, cards = 2000, 3, 6
    holds = deal(rng, games, players, cards)
    strength = 1 + 2 * holds[:, :, 0]
    won = one_winner(rng, strength / strength.sum(axis=1, keepdims=True))
    first = holds.argmax(axis=2)
    second = cards - 1 - np.flip(holds, axis=2).argmax(axis=2)
    names = np.array(list("DABCEF"))
    frame = pl.DataFrame({"game_index": np.repeat(np.arange(games), players), "seat": np.tile(np.arange(1, players + 1), games),
                          "players": np.full(games * players, players), "won": won.ravel().astype(bool),
                          "card1": names[first.ravel()], "card2": names[second.ravel()]})
    (a,) = Q.Payoff(items=("card1", "card2")).answers(frame)
    assert a.verdict == Q.SHOWN and a.sentence.startswith("Card D pays most")
    assert "adjusted for players and seat and the other cards held" in a.sentence or "adjusted for seat" in a.sentence
    by = Q.answer_by(frame, "card1")
    assert by is not None and by.question == "by_card1"


# ---- difficulty -----------------------------------------------------------------------------
def _levels(rng, games: int, rates: list[float], shared: float = 0.7) -> list[np.ndarray]:
    """0/1 wins of the same games at each level: with probability ``shared`` a game's luck
    is the same at every level, otherwise it is drawn afresh (so the levels are paired but
    not identical)."""
    common = rng.random(games)
    same = rng.random(games) < shared
    return [(np.where(same, common, rng.random(games)) < p).astype(int) for p in rates]


def test_difficulty_no_false_each_level_harder_when_one_step_is_flat():
    rng = np.random.default_rng(60)
    reps, games = 1000, 600
    false = 0
    for _ in range(reps):
        w = _levels(rng, games, [0.6, 0.4, 0.4])
        false += all(Q.judge_step(b, a)[1].verdict == Q.SHOWN for a, b in zip(w, w[1:]))
    assert at_most_alpha(false, reps)
    power = sum(all(Q.judge_step(b, a)[1].verdict == Q.SHOWN for a, b in zip(w, w[1:]))
                for w in (_levels(rng, games, [0.6, 0.5, 0.4]) for _ in range(100)))
    assert power / 100 > 0.8


def test_difficulty_answer_on_a_frame():
    rng = np.random.default_rng(61)
    games = 1500
    w = _levels(rng, games, [0.6, 0.5, 0.5])
    frame = pl.concat([pl.DataFrame({"game_index": np.arange(games), "seat": np.ones(games, int), "threat": np.full(games, t),
                                     "won": x.astype(bool)}) for t, x in enumerate(w)])
    (a,) = Q.Difficulty("threat").answers(frame)
    assert a.verdict == Q.NOT_SHOWN and "threat 1 -> 2" in a.sentence and "threat 0 -> 1" not in a.sentence


# ---- variant effect -------------------------------------------------------------------------
def _variant(rng, games: int, base: float, effect: float, flip_down: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """0/1 outcomes of the same games under the base rules and a variant whose rate is
    ``base + effect``: some wins turn into losses, some losses into wins."""
    a = rng.random(games) < base
    up = (effect + base * flip_down) / (1 - base)
    b = np.where(a, rng.random(games) >= flip_down, rng.random(games) < up)
    return b.astype(int), a.astype(int)


def test_variant_effect_no_false_shown_and_no_false_equivalent():
    rng = np.random.default_rng(70)
    reps, games, margin = 800, 2500, 0.02
    shown = equivalent = 0
    for _ in range(reps):
        _, t, _ = Q.judge_variant(*_variant(rng, games, 0.4, 0.0), margin)
        shown += t.verdict == Q.SHOWN
        _, t, _ = Q.judge_variant(*_variant(rng, games, 0.4, margin), margin)  # the true change is the margin
        equivalent += t.verdict == Q.EQUIVALENT
    assert at_most_alpha(shown, reps) and at_most_alpha(equivalent, reps)
    got = [Q.judge_variant(*_variant(rng, games, 0.4, 0.0), margin)[1].verdict for _ in range(100)]
    assert got.count(Q.EQUIVALENT) / 100 > 0.5
    got = [Q.judge_variant(*_variant(rng, games, 0.4, 0.03), margin)[1].verdict for _ in range(100)]
    assert got.count(Q.SHOWN) / 100 > 0.5


def test_variant_effect_numeric_metric_no_false_shown():
    rng = np.random.default_rng(71)
    reps, games = 600, 300
    false = 0
    for _ in range(reps):
        a = rng.normal(10, 3, games)
        b = a + rng.normal(0, 1, games)
        _, t, binary = Q.judge_variant(b, a, 0.02)
        assert not binary and t.verdict != Q.EQUIVALENT
        false += t.verdict == Q.SHOWN
    assert at_most_alpha(false, reps)


@pytest.mark.parametrize("games, changes", [(100, "rare long games"), (300, "rare long games"), (100, "lognormal")])
def test_variant_effect_numeric_metric_no_false_shown_when_the_changes_are_skewed(games, changes):
    """No true change, skewed changes: a rule that makes 5% of games much longer (+20 turns
    on average) and shortens the rest by 1, or a centred lognormal (sigma 1). The paired t
    test alone called it a change 19%, 11% and 9% of the time (found by a statistician's
    review); differences too skewed for their number are not judged
    (stats.games_for_t); a clear change of symmetric values is still shown."""
    rng = np.random.default_rng(games + len(changes))
    reps, false = 1000, 0

    def change(r):
        if changes == "lognormal":
            return r.lognormal(0, 1, games) - np.exp(0.5)
        return np.where(r.random(games) < 0.05, r.exponential(20, games), 0.0) - 1.0

    for _ in range(reps):
        a = rng.normal(30, 5, games).round()
        false += Q.judge_variant(a + change(rng), a, 0.02)[1].verdict == Q.SHOWN
    assert at_most_alpha(false, reps), false
    a = rng.normal(30, 5, games).round()
    assert Q.judge_variant(a + 3.0 + rng.normal(0, 1, games), a, 0.02)[1].verdict == Q.SHOWN


def test_variant_effect_answer_on_frames():
    rng = np.random.default_rng(72)
    b, a = _variant(rng, 3000, 0.4, 0.06)
    base = pl.DataFrame({"game_index": np.arange(3000), "seat": np.ones(3000, int), "won": a.astype(bool)})
    var = base.with_columns(pl.Series("won", b.astype(bool)))
    ans = Q.VariantEffect("no shields").answer(base, var)
    assert ans.verdict == Q.SHOWN and "raises won" in ans.sentence


@pytest.mark.parametrize("name", [n for n in REGISTRY if not get(n).checks.template])
def test_answers_need_only_the_columns_read(name, tmp_path):
    """`simkit run` reads only the columns the questions and the summary read
    (columns_read): on real games, the answers are the same as on every column."""
    from simkit.runner import RunSpec, run

    g = get(name)
    params = g.params()
    res = run(RunSpec(g, params, tuple(g.resolve_bots([], params)), 300, 3), tmp_path / "run", progress=False)
    needed = Q.columns_read(Q.declared(g), res.schema, ["seat", "bot", "won", *g.analysis.summary_means])
    assert len(needed) < len(res.schema)
    full, part = Q.answer_frame(g, res.frame), Q.answer_frame(g, res.read(needed))
    assert full and [a.as_dict() for a in part] == [a.as_dict() for a in full]
    # a question a report asks of two cells is one question of a run's games: said once
    assert len({a.sentence for a in full}) == len(full), [a.sentence for a in full]


@pytest.mark.parametrize("name", [n for n in REGISTRY if get(n).analysis.report])
def test_a_report_builder_declares_every_column_it_names(name):
    """A report reads only its questions' columns, the settings and what its builder's
    module declares in READS (simkit.report.compose): a column the builder names but does
    not declare would be missing from the sweep's frame. A name built by an f-string (e.g.
    f"points_{c}") counts as every column it could build."""
    import ast
    import dataclasses
    import importlib
    import inspect
    import re

    g = get(name)
    module = importlib.import_module(g.analysis.report.partition(":")[0])
    nodes = list(ast.walk(ast.parse(inspect.getsource(module))))
    named = {node.value for node in nodes if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    settings = [f.name for f in dataclasses.fields(g.params)]
    columns = [*g.columns, "seed", *settings, *Q.COMMON_COLUMNS]
    for node in nodes:
        if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.FormattedValue) and v.format_spec is None
                                                   or isinstance(v, ast.Constant) and re.fullmatch(r"\w+", v.value) for v in node.values):
            pattern = "".join(re.escape(v.value) if isinstance(v, ast.Constant) else r"\w+" for v in node.values)
            named |= {c for c in columns if re.fullmatch(pattern, c)}
    read = Q.columns_read(Q.declared(g), columns, [*settings, *module.READS])
    assert sorted(named & set(columns) - set(read)) == []
