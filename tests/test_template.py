"""The template game (Liar's Dice) is a real game written to the contract: the rules'
worked examples (docs/rules/template.md, E1-E5) hold on positions the engine computes, a
seat's observation shows its own dice and nothing of the others', the counting heuristic
beats random, and an independent model of the rules agrees with the engine step by step."""

import numpy as np

from simkit.games.template import SPEC, Rules
from simkit.games.template import engine as E
from simkit.params import build
from simkit.runner import RunSpec, run


def bid(q: int, f: int) -> int:
    return E.A_BID + (q - 1) * E.MAX_FACES + (f - 1)


def roll(rules, st, *faces):
    """Sets this round's faces by hand (one list per seat), as if the round had rolled them."""
    for p, fs in enumerate(faces):
        assert len(fs) == rules.view(st)["player"][p]["dice"]
        at = E.PLAYER + p * E.P_STRIDE + E.P_FACES
        st.s[at:at + E.MAX_DICE] = list(fs) + [0] * (E.MAX_DICE - len(fs))


def dice(rules, st) -> list[int]:
    return [p["dice"] for p in rules.view(st)["player"]]


def test_e1_a_bid_that_stands_costs_the_caller_a_die():
    rules = Rules(players=2, dice=2, wild=1)
    st = rules.new(1)
    roll(rules, st, [1, 5], [5, 3])
    rules.step(st, bid(3, 5))
    assert rules.to_move(st) == 1
    rules.step(st, E.A_LIAR)  # three fives with the one: the bid stands
    v = rules.view(st)
    assert dice(rules, st) == [2, 1] and v["turn"] == 1 and v["rounds"] == 2
    assert [p["calls"] for p in v["player"]] == [0, 1] and [p["calls_won"] for p in v["player"]] == [0, 0]
    assert v["bid_q"] == 0 and v["bidder"] == -1 and not rules.over(st)


def test_e2_without_wild_ones_the_same_bid_is_a_lie():
    rules = Rules(players=2, dice=2, wild=0)
    st = rules.new(1)
    roll(rules, st, [1, 5], [5, 3])
    rules.step(st, bid(3, 5))
    rules.step(st, E.A_LIAR)  # two fives < 3
    v = rules.view(st)
    assert dice(rules, st) == [1, 2] and v["turn"] == 0
    assert [p["calls_won"] for p in v["player"]] == [0, 1]


def test_e3_a_seat_out_of_dice_is_skipped_and_the_last_seat_with_dice_wins():
    rules = Rules(players=3, dice=1, wild=1)
    st = rules.new(2)
    roll(rules, st, [4], [6], [3])
    rules.step(st, bid(1, 6))
    assert rules.to_move(st) == 1
    rules.step(st, bid(2, 2))
    assert rules.to_move(st) == 2
    rules.step(st, E.A_LIAR)  # no two and no one: seat 1's bid was a lie
    v = rules.view(st)
    assert dice(rules, st) == [1, 0, 1] and v["turn"] == 2 and v["rounds"] == 2
    # round 2's roll: seat 0's die, then seat 2's; seat 1 rolls nothing
    faces = [int(p["faces"][0]) for p in v["player"]]
    assert faces[1] == 0 and v["chance_n"] == 2 and list(v["chance_log"][:2]) == [faces[0], faces[2]]
    rules.step(st, bid(1, 3))
    assert rules.to_move(st) == 0
    for seat0, seat2, winner in (([3], [5], 2), ([5], [1], 2), ([5], [4], 0), ([2], [6], 0)):
        t = st.copy()
        roll(rules, t, seat0, [], seat2)
        rules.step(t, E.A_LIAR)
        assert rules.over(t) and rules.won(t) == [p == winner for p in range(3)], (seat0, seat2)
        assert rules.legal(t).size == 0 and rules.invariants(t) == []


def test_e4_only_higher_bids_and_the_call_are_legal():
    rules = Rules(players=2, dice=2, wild=1)
    st = rules.new(3)
    rules.step(st, bid(4, 5))
    assert sorted(rules.legal(st)) == [bid(4, 6), E.A_LIAR]
    st = rules.new(3)
    rules.step(st, bid(4, 6))
    assert list(rules.legal(st)) == [E.A_LIAR]


def test_e5_the_opening_bid_is_any_bid_and_cannot_be_a_call():
    rules = Rules(players=2, dice=1, wild=0)
    st = rules.new(4)
    assert list(rules.legal(st)) == [bid(q, f) for q in (1, 2) for f in range(1, 7)]
    wild = Rules(players=2, dice=1, wild=1)  # with wild ones, ones cannot be bid (R3.3)
    assert list(wild.legal(wild.new(4))) == [bid(q, f) for q in (1, 2) for f in range(2, 7)]


def test_the_loser_opens_and_the_roll_is_logged_in_seat_order():
    rules = Rules(players=4, dice=3, wild=1)
    st = rules.new(11)
    v = rules.view(st)
    rolled = [int(x) for p in v["player"] for x in p["faces"][:3]]
    assert v["chance_n"] == 12 and list(v["chance_log"][:12]) == rolled and v["turn"] == 0 and v["rounds"] == 1
    roll(rules, st, [2, 2, 2], [1, 3, 4], [5, 6, 6], [4, 4, 3])
    rules.step(st, bid(5, 2))
    rules.step(st, bid(5, 6))  # two sixes and one one: a lie
    rules.step(st, E.A_LIAR)  # seat 2 calls seat 1
    v = rules.view(st)
    assert dice(rules, st) == [3, 2, 3, 3] and v["turn"] == 1 and v["chance_n"] == 11
    assert sorted(v["chance_log"][3:5]) == sorted(v["player"][1]["faces"][:2]) and v["player"][1]["faces"][2] == 0


def test_a_seat_sees_its_own_dice_and_the_public_state_by_name():
    rules = Rules(players=3, dice=4, wild=1)
    st = rules.new(5)
    rules.step(st, bid(2, 4))
    v = rules.view(st)
    for seat in range(3):
        obs = E.OBS.view(rules.observe(st, seat))
        own = v["player"][seat]["faces"]  # 4 dice, then 0 in the unused slot
        assert obs["seat"] == seat and list(obs["own_faces"]) == list(own)
        assert [obs["own_counts"][f] for f in range(1, 7)] == [int(np.sum(own == f)) for f in range(1, 7)]
        assert list(obs["dice"][:3]) == [4, 4, 4] and obs["in_play"] == 12 and obs["wild"] == 1
        assert (obs["bid_q"], obs["bid_f"], obs["bidder"], obs["turn"], obs["rounds"]) == (2, 4, 0, 1, 1)
        # the other seats' faces move nothing in this seat's view
        twin = st.copy()
        roll(rules, twin, *[list(p["faces"][:4]) if q == seat else [7 - x for x in p["faces"][:4]] for q, p in enumerate(v["player"])])
        assert np.array_equal(rules.observe(twin, seat), rules.observe(st, seat))


def test_count_beats_random_with_seats_rotated():
    params = build(SPEC.params, {}, SPEC.name)
    bots = tuple(SPEC.resolve_bots(["count", "random"], params))
    res = run(RunSpec(SPEC, params, bots, 2000, 3, rotate_seats=True), None, progress=False)
    count = res.frame.filter(res.frame["bot"] == "count")["won"].mean()
    assert count > 0.8


def test_games_stay_within_the_declared_length():
    """R6: the declared maximum is the bound at the largest settings, and real games are far shorter."""
    assert SPEC.max_steps == E.MAX_STEPS == 19 * (20 * 6 + 1) == 2299
    rules = Rules(players=4, dice=5, wild=0)
    rng = np.random.default_rng(1)
    for seed in range(3):
        st, steps = rules.new(seed), 0
        while not rules.over(st):
            rules.step(st, int(rng.choice(rules.legal(st))))
            steps += 1
        assert steps <= SPEC.max_steps and rules.view(st)["rounds"] <= 19


# ---- a second hand: an independent model of the rules, in lockstep -----------------------

def action_of(a: int) -> tuple:
    """An engine action id as the model's action."""
    name, i = E.ACTIONS.decode(a)
    return ("liar",) if name == "liar" else ("bid", i // E.MAX_FACES + 1, i % E.MAX_FACES + 1)


def project(view: dict, s: np.ndarray) -> dict:
    """The engine's named fields as the model's snapshot (the rules' "Model interface")."""
    over = view["over"] != 0
    return {
        "counts": [p["dice"] for p in view["player"]],
        "faces": [sorted(int(x) for x in p["faces"][:p["dice"]] if x) for p in view["player"]],
        "bid": [view["bid_q"], view["bid_f"]],
        "bidder": view["bidder"],
        "to_move": -1 if over else view["turn"],
        "rounds": view["rounds"],
    }


LOCKSTEP_SETS = ((2, 5, 1), (2, 1, 0), (3, 2, 0), (4, 3, 1), (4, 5, 0))


def lockstep(model_class, games: int = 8) -> int:
    """Replays engine games of every player count, with and without wild ones, against
    ``model_class(players, dice, wild)`` with the engine's dice; returns the steps compared."""
    from tests.reference.lockstep import replay

    steps = 0
    for players, ndice, wild in LOCKSTEP_SETS:
        params = build(SPEC.params, {"players": players, "dice": ndice, "wild": wild}, SPEC.name)
        for names in (["random"] + ["count"] * (players - 1), ["random"] * players):
            bots = SPEC.resolve_bots(names, params)
            steps += replay(SPEC, params, bots, lambda: model_class(players, ndice, wild), action_of, project, games=games)
    return steps


def test_engine_and_model_agree_step_by_step():
    """A second hand: Liar's Dice written from its rules alone (tests/reference/template_model.py)
    replays the engine's games with the engine's dice (its chance log), step by step."""
    from tests.reference.template_model import LiarsDice

    assert lockstep(LiarsDice) > 1000
