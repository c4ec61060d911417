"""Under Falling Skies bots: the greedy bot's fast evaluations agree with plain readings
of the rules they stand for."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from numba import njit

from simkit.games.ufs import engine as E
from simkit.games.ufs import Rules
from simkit.games.ufs.board import B_DMAX, EXPLOSION, LEFT, MSHIP, RIGHT
from simkit.games.ufs.params import UFSParams
from simkit.jit import entry, popcount
from strategies.ufs import SCRATCH, greedy


@njit
def _popcount_compiled(x):
    return popcount(x)


@pytest.mark.parametrize("x", [0, 1, 2, 3, 0b1011, 255, 1 << 40, (1 << 62) - 1, -1, -2, -(1 << 40)])
def test_popcount_compiled_and_python_agree(x):
    """The set bits of ``x`` as a 64-bit integer, compiled and in Python, from int64 and int32."""
    expected = bin(x & (2**64 - 1)).count("1")
    assert _popcount_compiled(np.int64(x)) == popcount(x) == popcount(np.int64(x)) == expected
    if -(2**31) <= x < 2**31:
        assert _popcount_compiled(np.int32(x)) == popcount(np.int32(x)) == expected


def _danger(row):
    return 0.0 if row < 11 else (row - 10) / 6.0


def reference_move_value(s, b, w, col, k, jets_ready, seen):
    """``greedy.move_value`` read ship by ship, straight from the state (``seen`` counts
    the cases met, so the test knows it covered them)."""
    if k <= 0:
        return 0.0
    score, hits = 0.0, 0
    for i in range(E.NSHIPS):
        row = int(s[E.SHIP_ROW + i])
        if row < 0 or s[E.SHIP_COL + i] != col:
            continue
        before = int(s[E.MS]) if row == 0 else row
        new = before + k
        if new > E.SKY_ROWS:
            hits += 1
            seen["hit from the landing site" if row == 0 else "hit"] += 1
            score += w[greedy.W_DANGER] * _danger(before)
            continue
        cell = new * 5 + col
        kind = s[E.SKY_KIND + cell]
        if kind in (LEFT, RIGHT):
            t = col - 1 if kind == LEFT else col + 1
            target_taken = any(s[E.SHIP_ROW + j] == new and s[E.SHIP_COL + j] == t for j in range(E.NSHIPS))
            if 0 <= t <= 4 and not target_taken:
                cell = new * 5 + t
                kind = EXPLOSION if s[E.SKY_KIND + cell] == EXPLOSION else 0
                seen["arrow onto an explosion" if kind == EXPLOSION else "arrow"] += 1
            else:
                seen["blocked arrow"] += 1
        if kind == MSHIP:
            seen["mothership icon"] += 1
            if s[E.MS] + 1 >= s[E.SKULL]:
                return greedy.LOSS
            score -= w[greedy.W_MSHIP]
        elif kind == EXPLOSION:
            white = i >= 5
            seen["white ship onto an explosion" if white else "purple ship onto an explosion"] += 1
            if s[E.SKY_NUM + cell] <= jets_ready:
                seen["shot by a loaded jets room"] += 1
                score += w[greedy.W_SHOT_WHITE if white else greedy.W_SHOT_PURPLE] + w[greedy.W_DANGER] * _danger(new)
            else:
                score += w[greedy.W_EXPLOSION] * (1.5 if white else 1.0)
        score -= w[greedy.W_DANGER] * (_danger(new) - _danger(before))
    if hits:
        if hits > 1:
            seen["several hits"] += 1
        if s[E.DAMAGE] + hits >= b[B_DMAX]:
            seen["fatal hits"] += 1
            return greedy.LOSS
        score -= w[greedy.W_HIT] * hits * (1.0 + s[E.DAMAGE] / b[B_DMAX])
    return score


# simkit's cached copies: a helper compiled in this file, or a kernel called from Python, would
# be compiled again every session
_survey, _move_value, _choose_with = entry(greedy.survey), entry(greedy.move_value), entry(greedy.choose_with)


def _move_values(s, b, w, ib, fb, out):
    _survey(s, w, ib, fb)
    for col in range(5):
        for k in range(7):
            for j, jets in enumerate((0, 4, 9)):
                out[col, k, j] = _move_value(s, b, w, ib, col, k, jets)


@pytest.mark.parametrize("params", [UFSParams(threat=0), UFSParams(threat=3), UFSParams(city="washington", city_side="damaged", threat=2)])
def test_greedy_move_value_on_bit_masks_matches_a_ship_by_ship_reading(params):
    rules = Rules(params)
    w = greedy.DEFAULT_WEIGHTS
    ib = np.zeros(SCRATCH, np.int32)
    fb = np.zeros(SCRATCH)
    out = np.zeros((5, 7, 3))
    checked = 0
    seen = Counter()
    for seed in range(6):
        st = rules.new(seed)
        while not rules.over(st):
            if st.s[E.PHASE] == E.P_PLACE:
                _move_values(st.s, st.b, w, ib, fb, out)
                for col in range(5):
                    for k in range(7):
                        for j, jets in enumerate((0, 4, 9)):
                            ref = reference_move_value(st.s, st.b, w, col, k, jets, seen)
                            assert out[col, k, j] == pytest.approx(ref, abs=1e-9), (seed, col, k, jets)
                            checked += 1
            rules.step(st, _greedy_action(st, ib, fb))
    assert checked > 1000
    cases = ["hit", "hit from the landing site", "several hits", "fatal hits", "mothership icon", "blocked arrow",
             "purple ship onto an explosion", "white ship onto an explosion", "shot by a loaded jets room"]
    assert all(seen[c] > 0 for c in cases), {c: seen[c] for c in cases}


def _greedy_action(st, ib, fb):
    return int(_choose_with(st.s, st.b, greedy.DEFAULT_WEIGHTS, ib, fb))
