"""Escape From the Aliens: the rules as positions the engine computes (docs/rules/eftaios.md):
the chance log's set-up order (the lockstep convention), no event ever missed, and
information (R13; the issue's T6): observations ignore what a seat may not see.

Position builders: tests/eftaios_helpers.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.eftaios import Rules
from simkit.games.eftaios import engine as E

from .eftaios_helpers import S, events, get, human_turn, place, step

# ------------------------------------------------------------------ chance log (lockstep convention)

def test_chance_log_records_the_setup_shuffles_in_order():
    r = Rules(players=6)
    st = r.new(11)
    n = int(st.s[E.CHANCE_N])
    log = [int(x) for x in st.s[E.CHANCE_LOG:E.CHANCE_LOG + n]]
    assert n == 4 + 4 + 6 + 25 + 12 + 6 + 1
    hum, ali, deal_, danger, items, hatch, first = log[:4], log[4:8], log[8:14], log[14:39], log[39:51], log[51:57], log[57]
    assert sorted(hum) == [0, 1, 2, 3] and sorted(ali) == [4, 5, 6, 7]
    assert sorted(deal_) == sorted(hum[:3] + ali[:3])
    assert [get(st, p, E.P_CHAR) for p in range(6)] == deal_
    assert danger == [int(x) for x in st.s[E.DK:E.DK + 25]] and items == [int(x) for x in st.s[E.IK:E.IK + 12]]
    assert hatch == [int(x) for x in st.s[E.HK:E.HK + 6]] and first == int(st.s[E.FIRST])
    # a step with no chance logs nothing; the log restarts at every step
    step(r, st, r.legal(st)[-1])
    assert int(st.s[E.CHANCE_N]) in (0,) or int(st.s[E.DANGER_DRAWS]) == 0


def test_events_are_never_missed():
    """Every seat still deciding saw at most a ring's worth of events since its last decision,
    so a bot reading its ring at each decision rebuilds the whole log (checked by replaying
    the rings against the table's log in random games of every mode)."""
    for settings in ({}, {"mode": "basic", "players": 8}, {"scenario": "arena", "players": 8, "arena_start": "random"},
                     {"scenario": "old_guard", "players": 8, "old_guard_spotlight": "private"}):
        r = Rules(**settings)
        rng = np.random.default_rng(3)
        for seed in range(4):
            st = r.new(seed)
            rebuilt = {p: [] for p in range(r.seats)}
            truth = {p: [int(st.s[E.GLOG_EV + i]) for i in range(int(st.s[E.GLOG_N]))
                         if (int(st.s[E.GLOG_AUD + i]) >> p) & 1] for p in range(r.seats)}
            seen = {p: 0 for p in range(r.seats)}
            while not r.over(st):
                p = r.to_move(st)
                obs = r.observe(st, p)
                n = int(obs[E.O_NSEEN])
                assert n - seen[p] <= E.OBS_LOG
                rebuilt[p] += [int(obs[E.O_LOG + i % E.OBS_LOG]) for i in range(seen[p], n)]
                seen[p] = n
                n0 = int(st.s[E.GLOG_N])
                step(r, st, rng.choice(r.legal(st)))
                for i in range(n0, int(st.s[E.GLOG_N])):
                    for q in range(r.seats):
                        if (int(st.s[E.GLOG_AUD + i % E.GLOG]) >> q) & 1:
                            truth[q].append(int(st.s[E.GLOG_EV + i % E.GLOG]))
            for p in range(r.seats):
                assert rebuilt[p] == truth[p][:len(rebuilt[p])]



# ------------------------------------------------------------------ T6 information hiding, every mode

@pytest.mark.parametrize("settings", [{"mode": "basic", "players": 5}, {"scenario": "old_guard", "old_guard_spotlight": "private"},
                                      {"scenario": "infection", "players": 7}, {"scenario": "arena", "players": 4},
                                      {"players": 8, "discard_revealed": True, "overflow_use": True}])
def test_t6_observation_ignores_what_the_seat_may_not_see(settings):
    """On positions of real games (heuristic play): twins that differ only in what a seat may
    not see (hidden_variants) give that seat the same observation."""
    from simkit.games import get
    from simkit.play import Table

    game = get("eftaios")
    r = Rules(**settings)
    bot = game.resolve_bots(["heuristic"], r.params)[0]
    rng = np.random.default_rng(0)
    twins = 0
    for seed in range(2):
        t = Table(game, r.b, seed)
        steps = 0
        while not t.over() and steps < 400:
            if steps % 3 == 0:
                for seat in range(r.seats):
                    obs = np.zeros(E.OBS_SIZE, np.int32)
                    E.observe(t.s, r.b, seat, obs)
                    for tw in E.hidden_variants(t.s.copy(), r.b, seat, rng):
                        o2 = np.zeros(E.OBS_SIZE, np.int32)
                        E.observe(tw, r.b, seat, o2)
                        assert np.array_equal(obs, o2), f"seed {seed} step {steps}: seat {seat} sees a hidden change"
                        twins += 1
            a, _ = t.decide(bot, 0)
            t.step(a)
            steps += 1
    assert twins > 100


def test_t6_a19_private_spotlight_is_seen_by_the_user_and_the_lit_only():
    r, st = human_turn({"scenario": "old_guard", "old_guard_spotlight": "private"}, at="D09", items=("spotlight",))
    place(st, 1, "D08")
    n1 = get(st, 2, E.P_NSEEN)
    step(r, st, E.A_USE_SPOTLIGHT + S("D08"))
    assert ("SPOTLIGHT", 0, S("D08")) in events(st, 0) and ("SEEN", 1, S("D08")) in events(st, 1)
    assert ("SEEN", 1, S("D08")) in events(st, 0)
    seen2 = events(st, 2, since=n1)
    assert seen2[0] == ("ITEM_DISCARDED", 0, -1)  # G.4: the card goes unseen, the light is private
    assert not any(k in ("SPOTLIGHT", "SEEN") for k, a, x in seen2)

