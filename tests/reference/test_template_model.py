"""Tests of the independent Liar's Dice model (tests/reference/template_model.py) against the
rules' worked examples E1-E5 and against random play (invariants from R1-R6)."""

from __future__ import annotations

import random

import pytest

from tests.reference.template_model import LIAR, LiarsDice


class FixedChance:
    """A stand-in for tests/reference/lockstep.py's LogChance: hands out a fixed list of dice."""

    def __init__(self, values):
        self.values = list(values)
        self.pos = 0

    def die(self, tag: str = "") -> int:
        assert self.pos < len(self.values), f"the model asked for chance ({tag}) beyond the fixed list"
        v = self.values[self.pos]
        self.pos += 1
        assert 1 <= v <= 6
        return v

    def done(self) -> bool:
        return self.pos == len(self.values)


class RandomChance:
    """Random dice, counting how many were drawn."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.n = 0

    def die(self, tag: str = "") -> int:
        self.n += 1
        return self.rng.randint(1, 6)


def step(game, action, dice=()):
    ch = FixedChance(dice)
    game.apply(action, ch)
    assert ch.done(), f"model used {ch.pos} of {len(ch.values)} chance values after {action}"


def new_game(dice_values, **kw):
    g = LiarsDice(**kw)
    ch = FixedChance(dice_values)
    g.setup(ch)
    assert ch.done()
    return g


# ---- worked examples -------------------------------------------------------------------


def test_e1_wild_bid_stands():
    g = new_game([1, 5, 5, 3], players=2, dice=2, wild=1)
    assert g.snapshot() == {"counts": [2, 2], "faces": [[1, 5], [3, 5]], "bid": [0, 0],
                            "bidder": -1, "to_move": 0, "rounds": 1}
    step(g, ("bid", 3, 5))
    assert g.snapshot()["bid"] == [3, 5] and g.snapshot()["bidder"] == 0 and g.to_move() == 1
    # next round: seat 0 rolls 2 dice, seat 1 rolls 1
    step(g, LIAR, [2, 4, 6])
    s = g.snapshot()
    assert s["counts"] == [2, 1]            # seat 1 lost a die
    assert s["to_move"] == 1                # and opens the next round
    assert s == {"counts": [2, 1], "faces": [[2, 4], [6]], "bid": [0, 0], "bidder": -1,
                 "to_move": 1, "rounds": 2}
    assert not g.over() and g.won() == [False, False]


def test_e2_no_wild_bidder_loses():
    g = new_game([1, 5, 5, 3], players=2, dice=2, wild=0)
    step(g, ("bid", 3, 5))
    step(g, LIAR, [6, 6, 6])   # seat 0 now rolls 1 die, seat 1 rolls 2
    s = g.snapshot()
    assert s == {"counts": [1, 2], "faces": [[6], [6, 6]], "bid": [0, 0], "bidder": -1,
                 "to_move": 0, "rounds": 2}


@pytest.mark.parametrize("round2, winner", [([3, 5], 2), ([1, 5], 2), ([5, 5], 0), ([4, 2], 0),
                                            ([2, 3], 2), ([6, 6], 0)])
def test_e3_three_players(round2, winner):
    g = new_game([4, 6, 3], players=3, dice=1, wild=1)
    assert g.snapshot()["faces"] == [[4], [6], [3]]
    step(g, ("bid", 1, 6))
    assert g.to_move() == 1
    step(g, ("bid", 2, 2))
    assert g.to_move() == 2
    # round 2's roll: seat 0's die, then seat 2's (seat 1 is out and rolls nothing)
    step(g, LIAR, round2)
    s = g.snapshot()
    assert s == {"counts": [1, 0, 1], "faces": [[round2[0]], [], [round2[1]]], "bid": [0, 0],
                 "bidder": -1, "to_move": 2, "rounds": 2}
    step(g, ("bid", 1, 3))
    assert g.to_move() == 0          # seat 1 (no dice) is skipped
    step(g, LIAR)                    # game ends: no further chance
    assert g.over()
    expected = [p == winner for p in range(3)]
    assert g.won() == expected
    s = g.snapshot()
    assert s["faces"] == [[], [], []] and s["to_move"] == -1 and s["rounds"] == 2
    assert s["counts"] == [1 if p == winner else 0 for p in range(3)]
    # a 3 or a 1 shows on the table -> seat 0 loses its die and seat 2 wins
    shows = any(v in (1, 3) for v in round2)
    assert winner == (2 if shows else 0)


def test_e4_legal_near_the_top():
    g = new_game([2, 3, 4, 6], players=2, dice=2, wild=1)
    step(g, ("bid", 4, 5))
    assert sorted(g.legal()) == sorted([("bid", 4, 6), LIAR])
    step(g, ("bid", 4, 6))
    assert g.legal() == [LIAR]


def test_e5_first_bid_no_wild():
    g = new_game([3, 4], players=2, dice=1, wild=0)
    legal = g.legal()
    assert sorted(legal) == sorted([("bid", q, f) for q in (1, 2) for f in range(1, 7)])
    assert len(legal) == 12 and LIAR not in legal


def test_first_bid_wild_cannot_name_ones():
    g = new_game([3, 4], players=2, dice=1, wild=1)
    assert sorted(g.legal()) == sorted([("bid", q, f) for q in (1, 2) for f in range(2, 7)])


# ---- random play -----------------------------------------------------------------------


def play_random(rng: random.Random, players: int, dice: int, wild: int) -> None:
    g = LiarsDice(players=players, dice=dice, wild=wild)
    ch = RandomChance(rng)
    g.setup(ch)
    assert ch.n == players * dice                                     # R2.1 everyone rolls
    faces_allowed = 5 if wild else 6
    bound = (players * dice - 1) * (players * dice * faces_allowed + 1)   # R6.1
    assert bound <= 2299 or players * dice > 20
    decisions = 0
    round_decisions = 0
    rounds = 1
    prev = g.snapshot()
    while not g.over():
        s = g.snapshot()
        in_play = sum(s["counts"])
        assert s["rounds"] == rounds
        assert all(len(s["faces"][p]) == s["counts"][p] for p in range(players))
        assert all(fs == sorted(fs) for fs in s["faces"])
        assert s["counts"][g.to_move()] > 0                            # R2.3 / R5.2 mover has dice
        legal = g.legal()
        assert legal and len(set(legal)) == len(legal)
        assert (LIAR in legal) == (s["bidder"] != -1)                  # R4.1
        for a in legal:
            if a[0] == "bid":
                _, q, f = a
                assert 1 <= q <= in_play                               # R3.2
                assert (2 <= f <= 6) if wild else (1 <= f <= 6)        # R3.3
                assert (q, f) > tuple(s["bid"])                        # R3.4
        if s["bidder"] == -1:
            # opener's first turn: every bid allowed by R3.2-R3.3, no call
            assert len(legal) == in_play * faces_allowed
        a = rng.choice(legal)
        ch = RandomChance(rng)
        g.apply(a, ch)
        decisions += 1
        round_decisions += 1
        t = g.snapshot()
        assert all(t["counts"][p] <= prev["counts"][p] for p in range(players))   # never grow
        if a[0] == "bid":
            assert ch.n == 0
            assert t["counts"] == s["counts"] and t["faces"] == s["faces"]
            assert [a[1], a[2]] == t["bid"] and list(t["bid"]) > list(s["bid"])   # strictly up
            assert t["bidder"] == s["to_move"]
            assert t["rounds"] == s["rounds"]
        else:
            assert sum(t["counts"]) == in_play - 1                    # R4.3 exactly one die lost
            # R4.2/R4.3: who lost it
            q, f = s["bid"]
            count = sum(1 for fs in s["faces"] for x in fs if x == f or (wild and x == 1))
            loser = s["to_move"] if count >= q else s["bidder"]
            assert t["counts"][loser] == s["counts"][loser] - 1
            assert round_decisions <= in_play * faces_allowed + 1      # R6.1 per round
            round_decisions = 0
            if g.over():
                assert ch.n == 0
            else:
                rounds += 1
                assert ch.n == in_play - 1                            # R5.2 new roll
                assert t["bid"] == [0, 0] and t["bidder"] == -1
                opener = t["to_move"]
                if t["counts"][loser] > 0:
                    assert opener == loser
                else:
                    k = 1
                    while t["counts"][(loser + k) % players] == 0:
                        k += 1
                    assert opener == (loser + k) % players
        prev = t
    s = g.snapshot()
    won = g.won()
    assert sum(won) == 1                                                # one winner
    w = won.index(True)
    assert [p for p in range(players) if s["counts"][p] > 0] == [w]     # R5.1
    assert s["faces"] == [[] for _ in range(players)] and s["to_move"] == -1
    assert s["rounds"] == rounds == players * dice - s["counts"][w] <= players * dice - 1
    assert decisions <= bound                                           # R6.1
    assert g.legal() == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play(players):
    rng = random.Random(1000 + players)
    for _ in range(500):
        play_random(rng, players, rng.randint(1, 5), rng.randint(0, 1))
