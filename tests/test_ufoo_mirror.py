"""Ufo.O: neither seat gains by its side of the board (issue 25, item 2).

The built-in boards are their own mirror image top <-> bottom with the seats swapped
(``simkit.games.ufoo.mirror``). On such a board the game is symmetric: the mirror image of
a position (seats swapped, board reflected) must have the mirrored legal actions, the same
dice must lead to mirrored positions, and every built-in bot must make the mirrored
decision, so that in self-play seat 1 and seat 2 differ only by the dice.

The positions are real ones, from games of each bot against itself. The bots are compared
with the same random draws on both sides (the search bot's rollouts come from its own
stream, which is handed to both calls unchanged). The random bot picks the i-th legal
action in id order, which the reflection reorders, so for it only its choices are checked
legal here: it is uniform over legal sets the engine test shows to be mirrored, so it is
symmetric in distribution.
"""

from __future__ import annotations

import numpy as np
import pytest

import strategies.ufoo as bots
from simkit.datafiles import variants
from simkit.games import get
from simkit.games.ufoo import data_model as D
from simkit.games.ufoo import engine as E
from simkit.games.ufoo import mirror as M
from simkit.loop import listing_bots
from simkit.params import build
from simkit.play import Table
from simkit.seeding import game_seeds
from simkit.protocol import entries

GAME = get("ufoo")
BOARDS = {"builtin": D.BUILTIN, **variants(D.BUILTIN)}
SCRATCH_FIELDS = np.r_[E.STACK:E.STACK + 2 * (E.MAX_PUSH + 1)]  # the push search's scratch


def board_vector(sets=None):
    return GAME.board(build(GAME.params, sets or {}, "ufoo"))


def same_state(x: np.ndarray, y: np.ndarray) -> bool:
    keep = np.ones(len(x), bool)
    keep[SCRATCH_FIELDS] = False
    return bool(np.array_equal(x[keep], y[keep]))


def positions(name: str, sets=None, games=3, seed=11, max_steps=400):
    """(table, bot) at every decision of ``games`` games of ``name`` against itself; the
    table is advanced after each yield by the bot's own choice."""
    b = board_vector(sets)
    bot = GAME.resolve_bot(name)
    for seed_ in game_seeds(seed, 0, games):
        t = Table(GAME, b, int(seed_))
        steps = 0
        while not t.over() and steps < max_steps:
            yield t
            a, _ = t.decide(bot, 0)
            t.step(a)
            steps += 1


def choose(bot, s, b, mem, brng):
    """The bot's choice on copies (its memory, its stream), so both sides see the same."""
    ib = np.zeros(bots.SCRATCH, np.int32)
    fb = np.zeros(bots.SCRATCH, np.float64)
    legal = np.empty(E.MAX_ACTIONS, np.int32)  # handed only to a bot that asks for it, as the loops do
    n = entries(GAME).legal_actions(s, b, legal) if listing_bots(bots.BOTS) >> bot.code & 1 else 0
    return int(entries(GAME).choose(bot.code, bot.flags, s.copy(), legal[:n], brng.copy(), b, mem.copy(), ib, fb))


# ---- the board ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(BOARDS))
def test_builtin_boards_are_their_own_mirror_image(name):
    assert M.asymmetries(D.load(BOARDS[name])) == []


def test_an_asymmetric_board_is_named_cell_by_cell(tmp_path):
    text = D.BUILTIN.read_text().replace("[2, 7], [6, 7]", "[2, 7], [7, 7]").replace(
        "launch = [[3, 10], [5, 10], [3, 9], [4, 9]]", "launch = [[5, 10], [3, 10], [3, 9], [4, 9]]")
    path = tmp_path / "lopsided.toml"
    path.write_text(text)
    found = M.asymmetries(D.load(path))
    assert "asteroid (6, 3) has no asteroid at its mirror cell (6, 7)" in found
    assert "asteroid (7, 7) has no asteroid at its mirror cell (7, 3)" in found
    assert "launch hex 0: A's is (3, 0), B's is (5, 10), not the mirror cell (3, 10)" in found
    assert len(found) == 4


def test_the_mirror_is_an_involution_and_maps_the_set_up():
    b = board_vector()
    cm = M.cell_map(b)
    n = int(b[M.B.B_NCELLS])
    assert sorted(cm[:n]) == list(range(n)) and all(cm[cm[i]] == i for i in range(n))
    t = Table(GAME, b, 5)
    s = t.s
    m = M.mirror_state(s, b)
    assert same_state(M.mirror_state(m, b), s)
    for k in range(E.UFOS):  # UFO k of one seat stands on the mirror of UFO k of the other
        assert m[E.SEAT + E.S_CELL + k] == cm[s[E.SEAT + E.S_STRIDE + E.S_CELL + k]]


# ---- the engine ---------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", range(len(GAME.checks.variants)))
def test_the_rules_are_mirror_symmetric(variant):
    """Mirrored legal actions, and the same dice lead to mirrored positions, under every
    test variant of the settings."""
    sets = GAME.checks.variants[variant]
    b = board_vector(sets)
    buf = np.empty(E.MAX_ACTIONS, np.int32)
    n_checked = 0
    for t in positions("tactical", sets, games=2):
        s = t.s
        m = M.mirror_state(s, b)
        legal = t.legal()
        nm = entries(GAME).legal_actions(m, b, buf)
        assert sorted(M.mirror_action(a, b) for a in legal) == sorted(buf[:nm].tolist())
        for a in legal[:: max(1, len(legal) // 6)]:
            x, y = s.copy(), m.copy()
            entries(GAME).apply_action(x, t.rng.copy(), b, int(a))
            entries(GAME).apply_action(y, t.rng.copy(), b, M.mirror_action(a, b))
            assert same_state(M.mirror_state(x, b), y), f"action {a} at turn {s[E.TURN]}"
        n_checked += 1
    assert n_checked > 50


# ---- the bots -----------------------------------------------------------------------------------
DETERMINISTIC = ["aggressive", "tactical", "tactical:laser-only", "tactical:ion-only", "tactical:no-repair", "aggressive:no-repair"]


def check_mirrored_decisions(name, sets=None, games=3, seed=11, max_steps=400):
    b = board_vector(sets)
    bot = GAME.resolve_bot(name)
    bad = []
    n = 0
    for t in positions(name, sets, games, seed, max_steps):
        p = t.to_move()
        mem = t.mem[p, :bots.MEMORY]
        a = choose(bot, t.s, b, mem, t.brng)
        am = choose(bot, M.mirror_state(t.s, b), b, M.mirror_memory(mem, b), t.brng)
        if am != M.mirror_action(a, b):
            bad.append((int(t.s[E.TURN]), int(t.s[E.PHASE]), p, a, M.mirror_action(a, b), am))
        n += 1
    assert n > 30
    assert not bad, f"{len(bad)} of {n} decisions not mirrored (turn, phase, seat, action, its mirror, the mirror's choice): {bad[:5]}"


@pytest.mark.parametrize("name", DETERMINISTIC)
def test_heuristic_bots_make_mirrored_decisions(name):
    check_mirrored_decisions(name, games=4)


@pytest.mark.parametrize("board", ["13-rows", "belt-1-4-7"])
def test_tactical_makes_mirrored_decisions_on_the_board_variants(board):
    check_mirrored_decisions("tactical", {"board": board}, games=2)


@pytest.mark.parametrize("variant", range(1, len(GAME.checks.variants)))
def test_tactical_makes_mirrored_decisions_under_other_settings(variant):
    check_mirrored_decisions("tactical", GAME.checks.variants[variant], games=2)


def test_search_makes_mirrored_decisions_with_the_same_stream():
    check_mirrored_decisions("search:budget=4", games=1, max_steps=120)


def test_random_chooses_legally_on_mirror_images():
    b = board_vector()
    bot = GAME.resolve_bot("random")
    buf = np.empty(E.MAX_ACTIONS, np.int32)
    for t in positions("random", games=2, max_steps=200):
        m = M.mirror_state(t.s, b)
        nm = entries(GAME).legal_actions(m, b, buf)
        assert choose(bot, m, b, t.mem[t.to_move(), :bots.MEMORY], t.brng) in set(buf[:nm].tolist())
