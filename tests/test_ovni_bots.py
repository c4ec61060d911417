"""O.V.N.I. bots: legal and seeded, the strategic bot's intent (its 6 face down, the
energy card, the restricted variants never use what they give up), and the search bot
decides from its observation only (it samples what it cannot see, it never peeks)."""

from __future__ import annotations

import numpy as np
import pytest

import strategies.ovni as S
from simkit.games import get
from simkit.games.ovni import engine as E
from simkit.jit import entry
from simkit.params import build
from simkit.play import Table
from simkit.bots import bot_table
from simkit.seeding import game_seeds
from simkit.play import simulate
from simkit.protocol import entries

GAME = get("ovni")
choose = entries(GAME).choose


def run(bots, players=4, n=40, seed=5, **settings):
    params = build(GAME.params, {"players": players, **settings}, "ovni")
    resolved = GAME.resolve_bots(bots, params)
    return simulate(GAME, params, game_seeds(seed, 0, n), bot_table(len(resolved), 0, n, True), resolved)


@pytest.mark.parametrize("bot", ["greedy", "strategic", "search:budget=2"])
def test_bots_are_seeded(bot):
    a = run([bot], n=8)
    b = run([bot], n=8)
    for col in ("score", "won", "rounds"):
        assert np.array_equal(np.asarray(a[col]), np.asarray(b[col]))


def test_strength_order():
    """Against the same opponents, strategic beats greedy and greedy beats random."""
    res = run(["strategic", "greedy", "random", "random"], n=200)
    table = bot_table(4, 0, 200, True)
    share = np.asarray(res["win_share"])
    names = np.array(["strategic", "greedy", "random", "random"])[table]
    s, g, r = (share[names == k].mean() for k in ("strategic", "greedy", "random"))
    assert s > g > r


def test_strategic_plays_its_six_face_down():
    """The 6 only goes into slot 1 or 3 (face down) when the strategic bot chooses."""
    params = build(GAME.params, {"players": 4}, "ovni")
    b = GAME.board(params)
    bot = GAME.resolve_bot("strategic")
    sixes = 0
    for seed in range(12):
        t = Table(GAME, b, seed)
        while not t.over():
            a, legal = t.decide(bot, 0)
            if t.s[E.PHASE] == E.PH_PLACE and E.A_PLACE <= a < E.A_PLACE_DUMMY and (a - E.A_PLACE) % E.TOKENS == 4:
                area = (a - E.A_PLACE) // E.TOKENS
                face_down_left = any(t.s[E.AREA_N + x] % 2 == 0 for x in range(4) if t.s[E.AREA_N + x] < 4)
                if face_down_left:
                    assert t.s[E.AREA_N + area] % 2 == 0
                sixes += 1
            t.step(a)
    assert sixes > 0


@pytest.mark.parametrize("option, column, expected", [
    ("no-swap", "swaps", 0), ("no-extra", "extra_moves_used", 0), ("no-nomajority", "no_majority_abductions", 0),
    ("no-shield", "shield_rounds", 0), ("one-mission", "missions_kept", 1), ("two-missions", "missions_kept", 2),
])
def test_restricted_variants_never_use_what_they_give_up(option, column, expected):
    full = run(["strategic"], n=60)
    restricted = run([f"strategic:{option}"], n=60)
    assert np.all(np.asarray(restricted[column]) == expected)
    if expected == 0:
        assert np.asarray(full[column]).sum() > 0  # the full bot does use it


def test_strategic_uses_the_energy_card_both_ways():
    res = run(["strategic"], n=100, players=4)
    assert np.asarray(res["energy_1"]).sum() > 0 and np.asarray(res["energy_2"]).sum() > 0


def test_search_budget_changes_its_bids():
    a = run(["search:budget=2"], n=12)
    b = run(["search:budget=16"], n=12)
    assert not np.array_equal(np.asarray(a["score"]), np.asarray(b["score"]))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_search_options_play_legal_seeded_games(players):
    """Every play-out policy, more candidates and another rivals' share: legal games
    (the runner checks each action), the same games again from the same seeds, and the
    policies differ."""
    scores = []
    for bot in ["search:budget=2+pol=0", "search:budget=2+pol=1", "search:budget=2+cand=7+share=9"]:
        a = run([bot], players=players, n=6)
        b = run([bot], players=players, n=6)
        assert np.array_equal(np.asarray(a["score"]), np.asarray(b["score"]))
        scores.append(np.asarray(a["score"]))
    default = np.asarray(run(["search:budget=2"], players=players, n=6)["score"])
    assert not all(np.array_equal(default, s) for s in scores)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_search_phase2_options_play_legal_seeded_games(players):
    """The phase-2 search (activations, attacks, other groups, every valuation): legal
    games, the same again from the same seeds, and different from no phase-2 search."""
    off = np.asarray(run(["search:budget=2+p2=0"], players=players, n=6)["score"])
    differ = False
    for bot in ["search:budget=2+p2=2+p2d=0+p2g=2+p2o=3", "search:budget=2+p2v=1", "search:budget=2+p2v=2"]:
        a = run([bot], players=players, n=6)
        b = run([bot], players=players, n=6)
        assert np.array_equal(np.asarray(a["score"]), np.asarray(b["score"]))
        differ = differ or not np.array_equal(off, np.asarray(a["score"]))
    assert differ


def _decisions(b, info, seeds):
    """Every decision of games played by ``info`` at every seat, one game per seed: the
    table (before the decision), the seat to move and its legal actions."""
    for seed in seeds:
        t = Table(GAME, b, seed)
        while not t.over():
            yield t, t.to_move(), t.legal()
            a, _ = t.decide(info, 0)
            t.step(a)


def _picks(t, b, p, info, legal, states):
    """Seat ``p``'s choice from each state's observation, each with the same random stream,
    memory and scratch as the table's."""
    picks = []
    for state in states:
        obs = np.zeros(E.OBS_SIZE, np.int32)
        entry(E.observe)(state, b, p, obs)
        ib = np.zeros(S.SCRATCH, np.int32)
        fb = np.zeros(S.SCRATCH, np.float64)
        picks.append(int(choose(info.code, info.flags, obs, legal, t.brng.copy(), b, t.mem[p].copy(), ib, fb)))
    return picks


@pytest.mark.parametrize("bot", ["strategic", "search:budget=2", "search:budget=2+pol=0"])
def test_bots_decide_from_the_observation_only(bot):
    """A position and its hidden twins (other seats' face-down tokens, hands, missions,
    the deck order) give the same observation, hence the same choice (the bot's own
    random stream and memory being equal)."""
    params = build(GAME.params, {"players": 3}, "ovni")
    b = GAME.board(params)
    info = GAME.resolve_bot(bot)
    rng = np.random.default_rng(3)
    checked = 0
    for t, p, legal in _decisions(b, info, range(3)):
        if t.s[E.PHASE] == E.PH_PLACE:
            twins = list(E.hidden_variants(t.s.copy(), b, p, rng))
            picks = _picks(t, b, p, info, legal, [t.s] + twins)
            assert len(set(picks)) == 1, picks
            checked += len(twins)
    assert checked > 50


@pytest.mark.parametrize("players", [3, 4])
def test_search_phase2_decides_from_the_observation_only(players):
    """At phase-2 decisions (activations, attacks), hidden twins of the position (other
    seats' missions, the deck order) give the same choice."""
    params = build(GAME.params, {"players": players}, "ovni")
    b = GAME.board(params)
    info = GAME.resolve_bot("search:budget=2+p2=2+p2d=0+p2g=2")
    rng = np.random.default_rng(5)
    checked = 0
    for t, p, legal in _decisions(b, info, range(2)):
        if t.s[E.PHASE] in (E.PH_TURN, E.PH_GROUP) and len(legal) > 1 and checked < 40:
            assert len(set(_picks(t, b, p, info, legal, [t.s.copy()] + list(E.hidden_variants(t.s.copy(), b, p, rng))))) == 1
            checked += 1
    assert checked > 10
