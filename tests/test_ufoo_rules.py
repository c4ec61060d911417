"""Ufo.O: every rule the issue lists, as a position the engine computes, the specification's
19 scenarios with their own numbers (docs/rules/ufo-o.md, "Rulebook worked examples"),
and each setting's effect on a position.

Positions are written into the engine's state on the stand-in board; the dice a step
rolls are chosen by setting the chance stream to a value whose next draws are those
faces (``dice``), and every test checks the step's ``chance_log``. Cells are (col, row).
"""

from __future__ import annotations

import itertools
from collections import deque

import numpy as np
import pytest

from simkit.games.ufoo import Rules
from simkit.games.ufoo import board as B
from simkit.games.ufoo import data_model as D
from simkit.games.ufoo import engine as E
from simkit.games.ufoo import geometry as G
from simkit.jit import entry
from simkit.rules import IllegalAction

COLS, ROWS = 9, 11
A, Bs = 0, 1  # seats: A (top, seat 0) and B (bottom, seat 1)

start_turn = entry(E.start_turn)
move_destinations = entry(E.move_destinations)
in_fire = entry(E.in_fire)

# ---- the chance stream, in plain Python (simkit.rng's SplitMix64) -------------------------------
M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def _faces(x: int, n: int) -> list[int]:
    out = []
    for _ in range(n):
        x = (x + GOLDEN) & M64
        out.append((((_mix(x) >> 32) * 6) >> 32) + 1)
    return out


def _stream_for(faces: list[int], start: int = 1) -> int:
    """A stream state whose next draws are ``faces``."""
    for x in itertools.count(start * 7919):
        if _faces(x, len(faces)) == faces:
            return x
    raise AssertionError  # pragma: no cover


def dice(st, *faces: int) -> None:
    """The next dice of the chance stream will be ``faces`` (within the current turn)."""
    st.rng[E.CHANCE] = np.uint64(_stream_for(list(faces)))


def rolled(st) -> list[int]:
    return [int(x) for x in st.s[E.CHANCE_LOG:E.CHANCE_LOG + st.s[E.CHANCE_N]]]


def test_plain_python_stream_equals_the_engine():
    from simkit.rng import randint

    x = _stream_for([3, 1, 6])
    rng = np.array([x, 0, 0], np.uint64)
    assert [int(randint(rng, 0, 6)) + 1 for _ in range(3)] == [3, 1, 6]


# ---- positions ----------------------------------------------------------------------------------------
def ix(cell) -> int:
    return G.index(cell, COLS)


def cell(i: int):
    return G.cell_of(int(i), COLS)


def f(st, p, field, k=0):
    return int(st.s[E.SEAT + p * E.S_STRIDE + field + k])


def setf(st, p, field, k, v):
    st.s[E.SEAT + p * E.S_STRIDE + field + k] = v


def make(**settings):
    """Rules with seat 1 (A, index 0) starting, and a fresh game of them."""
    settings.setdefault("first_player", "seat1")
    rules = Rules(**settings)
    return rules, rules.new(1)


def position(rules, st, ufos: dict, active=A, phase=E.PH_ATTACK, turn=3):
    """Empties the board (every UFO docked) and puts UFOs: ``{(seat, k): (cell, damaged)}``."""
    for p in range(2):
        for k in range(4):
            setf(st, p, E.S_STATUS, k, E.ST_DOCKED)
            setf(st, p, E.S_CELL, k, -1)
            setf(st, p, E.S_DAMAGED, k, 0)
            setf(st, p, E.S_MOVED, k, 0)
            setf(st, p, E.S_ACTED, k, 0)
    for (p, k), spec in ufos.items():
        c, damaged = spec if isinstance(spec[0], tuple) else (spec, False)
        setf(st, p, E.S_STATUS, k, E.ST_BOARD)
        setf(st, p, E.S_CELL, k, ix(c))
        setf(st, p, E.S_DAMAGED, k, int(damaged))
    st.s[E.ACTIVE] = active
    st.s[E.TO_MOVE] = active
    st.s[E.PHASE] = phase
    st.s[E.TURN] = turn
    st.s[E.ATTACKS_MADE] = 0
    st.s[E.MS_FIRED] = 0
    assert not rules.invariants(st), rules.invariants(st)


def legal(rules, st) -> set:
    """The legal actions as readable tuples."""
    out = set()
    for a in rules.legal(st):
        kind, i = E.ACTIONS.decode(a)
        if kind == "move":
            out.add(("move", i // E.MAX_CELLS, cell(i % E.MAX_CELLS)))
        elif kind in ("laser", "ion"):
            out.add((kind, i // 4, i % 4))
        elif kind == "push":
            out.add(("push", cell(i)))
        elif kind in ("ion_ms", "repair"):
            out.add((kind, i))
        else:
            out.add((kind,))
    return out


def step(rules, st, kind, *args, faces=()):
    if faces:
        dice(st, *faces)
    ids = {"laser": E.A_LASER, "ion": E.A_ION}
    if kind in ids:
        a = ids[kind] + args[0] * 4 + args[1]
    elif kind == "move":
        a = E.A_MOVE + args[0] * E.MAX_CELLS + ix(args[1])
    elif kind == "push":
        a = E.A_PUSH + ix(args[0])
    elif kind == "ion_ms":
        a = E.A_ION_MS + args[0]
    elif kind == "repair":
        a = E.A_REPAIR + args[0]
    else:
        a = {"end_move": E.A_END_MOVE, "volley": E.A_VOLLEY, "end_turn": E.A_END_TURN, "no_push": E.A_NO_PUSH, "crash": E.A_CRASH}[kind]
    rules.step(st, a)
    assert not rules.invariants(st), rules.invariants(st)
    return rolled(st)


def where(st, p, k):
    return cell(f(st, p, E.S_CELL, k)) if f(st, p, E.S_STATUS, k) == E.ST_BOARD else None


def status(st, p, k) -> str:
    s = f(st, p, E.S_STATUS, k)
    if s == E.ST_BOARD:
        return "damaged" if f(st, p, E.S_DAMAGED, k) else "healthy"
    return {E.ST_DESTROYED: "destroyed", E.ST_DOCKED: "docked", E.ST_READY: "ready"}[s]


# A spare damaged UFO of the active seat far from everything: it can always still repair,
# so the attack phase does not end by itself after the step under test (R12.1).
SPARE = (0, 3), ((0, 8), True)
SPARE_B = (1, 3), ((8, 2), True)


# ---- R5: line of fire ---------------------------------------------------------------------------------
RING = [(3, 2), (4, 2), (5, 2), (5, 3), (2, 4), (6, 4), (2, 5), (3, 6), (4, 6), (5, 6)]


@pytest.mark.parametrize("fire_lines, expected", [
    ("straight", {(5, 2), (3, 2), (2, 4), (6, 4), (5, 6)}),
    ("any", {(5, 2), (3, 2), (2, 4), (6, 4), (5, 6), (4, 2), (5, 3), (2, 5), (4, 6)}),
])
def test_scenario_1_line_of_fire_at_distance_2_and_its_blocking(fire_lines, expected):
    """R5.1, R5.3, A1: from (4,4) the straight lines reach 5 of the ring of distance 2 (the
    SW line crosses the asteroid (3,5)); with fire_lines=any the off-line cells too, unless
    both hexes in between are asteroids (never (3,6))."""
    rules, st = make(fire_lines=fire_lines)
    hits = set()
    for target in RING:
        position(rules, st, {(A, 0): (4, 4), (Bs, 0): target})
        acts = legal(rules, st)
        if ("laser", 0, 0) in acts:
            assert ("ion", 0, 0) in acts  # R5.5: both weapons use the same line
            hits.add(target)
    assert hits == expected


def test_scenario_2_a_ufo_in_between_blocks_only_with_ufos_block_fire():
    """R5.3, A2: a UFO of either side on the hex in between."""
    for owner in (A, Bs):
        for blocks in (False, True):
            rules, st = make(ufos_block_fire=blocks)
            middle = (owner, 1) if owner == A else (Bs, 1)
            position(rules, st, {(A, 0): (4, 4), middle: (5, 4), (Bs, 0): (6, 4)})
            acts = legal(rules, st)
            assert (("laser", 0, 0) in acts) == (not blocks)
            if owner == Bs:
                assert ("laser", 0, 1) not in acts  # adjacent: never (R5.2)


def test_scenario_3_no_adjacent_combat_and_the_attack_phase_is_not_asked():
    """R5.2, R12.1: an adjacent enemy is no target; with nothing else to do the attack
    phase is skipped and seat 1's turn starts."""
    rules, st = make()
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): (4, 3)}, phase=E.PH_MOVE)
    assert legal(rules, st) >= {("end_move",)}
    dice(st, 4)  # (4,4) touches the asteroid (3,5): one die at the end of the movement
    step(rules, st, "end_move")
    assert rolled(st) == [4]
    assert rules.to_move(st) == Bs and st.s[E.PHASE] == E.PH_MOVE and st.s[E.TURN] == 4


def test_adjacent_enemy_does_not_stop_an_attack_on_another():
    """A36: a UFO beside one enemy still fires at another 2 hexes away."""
    rules, st = make()
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): (4, 3), (Bs, 1): (6, 4)})
    acts = legal(rules, st)
    assert ("laser", 0, 1) in acts and ("laser", 0, 0) not in acts


@pytest.mark.parametrize("blocks", [False, True])
def test_scenario_4_a_mothership_picture_in_between(blocks):
    """A3: across A's picture (4,0), from (3,0) to (5,0)."""
    rules, st = make(mothership_blocks_fire=blocks)
    position(rules, st, {(Bs, 0): (3, 0), (A, 0): (5, 0)}, active=Bs)
    assert (("laser", 0, 0) in legal(rules, st)) == (not blocks)


# ---- R6.3, R6.4: lasers and pushes ---------------------------------------------------------------------
def test_scenario_5_laser_tie_damages_without_a_push():
    rules, st = make()
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): (6, 4), SPARE[0]: SPARE[1]})
    assert step(rules, st, "laser", 0, 0, faces=(4, 4)) == [4, 4]
    assert status(st, Bs, 0) == "damaged" and where(st, Bs, 0) == (6, 4)
    assert st.s[E.PHASE] == E.PH_ATTACK and rules.to_move(st) == A  # no push decision
    # the defender already damaged: 5 against 4 - 1 = 3, destroyed, nothing to push
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): ((6, 4), True), SPARE[0]: SPARE[1]})
    assert step(rules, st, "laser", 0, 0, faces=(5, 4)) == [5, 4]
    assert status(st, Bs, 0) == "destroyed" and st.s[E.PHASE] == E.PH_ATTACK
    assert f(st, A, E.S_KILLS) >= 1 and f(st, Bs, E.S_UFOS_LOST) >= 1


D2_FROM_64 = {(4, 3), (4, 5), (5, 2), (5, 3), (5, 4), (6, 2), (6, 5), (6, 6), (7, 3), (7, 4), (7, 6), (8, 4)}


def test_scenario_6_push_by_the_attacker_of_exact_length():
    """R6.4: dice 5, 3: the winner (seat 0) chooses among D(2) from (6,4), or no push."""
    rules, st = make()
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): (6, 4)})
    assert step(rules, st, "laser", 0, 0, faces=(5, 3)) == [5, 3]
    assert status(st, Bs, 0) == "damaged"
    assert st.s[E.PHASE] == E.PH_PUSH and rules.to_move(st) == A and st.s[E.PUSH_LEN] == 2
    assert legal(rules, st) == {("push", c) for c in D2_FROM_64} | {("no_push",)}


D3_FROM_44 = {(1, 3), (1, 4), (2, 1), (2, 2), (2, 4), (2, 5), (2, 6), (3, 1), (3, 2), (3, 3), (3, 4), (3, 6), (3, 7), (4, 1),
              (4, 2), (4, 3), (4, 5), (4, 6), (4, 7), (5, 1), (5, 2), (5, 3), (5, 4), (5, 6), (5, 7), (6, 2), (6, 6)}


@pytest.mark.parametrize("through, extra", [("like_move", set()), ("any", {(6, 5), (7, 4)})])
def test_scenario_7_push_by_the_defender(through, extra):
    """R6.3, R6.4, A10: dice 2, 5: the attacker is damaged and the DEFENDER's seat (not the
    active player) chooses among D(3) from (4,4); after its push the attack phase goes on."""
    rules, st = make(push_through=through)
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): (6, 4), SPARE[0]: SPARE[1]})
    step(rules, st, "laser", 0, 0, faces=(2, 5))
    assert status(st, A, 0) == "damaged" and f(st, Bs, E.S_DEFENCES_WON) == 1
    assert st.s[E.PHASE] == E.PH_PUSH and rules.to_move(st) == Bs and st.s[E.ACTIVE] == A
    assert legal(rules, st) == {("push", c) for c in D3_FROM_44 | extra} | {("no_push",)}
    step(rules, st, "push", (3, 1))
    assert where(st, A, 0) == (3, 1) and rolled(st) == []  # (3,1) touches no asteroid
    assert st.s[E.PHASE] == E.PH_ATTACK and rules.to_move(st) == A
    assert f(st, Bs, E.S_PUSHES) == 1


def test_push_destinations_equal_a_plain_search_of_simple_paths():
    """R6.4.1-R6.4.3: on random positions, the engine's D(n) equals a search of all paths
    that never enter a hex twice (exact length, shortened when nothing is that far)."""
    board = D.load()
    rules, st = make()
    rng = np.random.default_rng(3)
    cells = [c for c in itertools.product(range(COLS), range(ROWS)) if not board.blocked(c)]
    checked = 0
    for _ in range(60):
        picks = rng.choice(len(cells), 8, replace=False)
        spots = [cells[i] for i in picks]
        position(rules, st, {(p, k): spots[p * 4 + k] for p in range(2) for k in range(4)})
        n = int(rng.integers(1, 7))
        loser, winner = (Bs, 0), (A, 0)
        entry(E.setup_push)(st.s, st.b, A, ix(spots[0]), Bs, 0, n)
        got = {cell(a - E.A_PUSH) for a in rules.legal(st) if E.A_PUSH <= a < E.A_NO_PUSH}
        occupied = {spots[i]: (0 if i < 4 else 1) for i in range(8)}
        start = spots[4]

        def passable(c):
            return not board.blocked(c) and occupied.get(c, 1) == 1  # like_move: the loser's side

        def ends(m):
            out = set()

            def walk(path):
                if len(path) == m + 1:
                    if path[-1] not in occupied:
                        out.add(path[-1])
                    return
                for nb in board.neighbours(path[-1]):
                    if nb not in path and passable(nb):
                        walk(path + [nb])
            walk([start])
            return out

        expected = set()
        for m in range(n, 0, -1):
            expected = ends(m)
            if expected:
                break
        assert got == expected, (spots, n)
        checked += 1
        del loser, winner
    assert checked == 60


def test_scenario_8_the_minus_one():
    """R6.7, A5: the -1 of a damaged UFO on its laser die, and on its defence die."""
    rules, st = make()
    position(rules, st, {(A, 0): ((4, 4), True), (Bs, 0): (6, 4), SPARE[0]: SPARE[1]})
    step(rules, st, "laser", 0, 0, faces=(4, 3))  # 3 against 3: a tie, the attacker wins
    assert status(st, Bs, 0) == "damaged" and status(st, A, 0) == "damaged" and st.s[E.PHASE] == E.PH_ATTACK
    position(rules, st, {(A, 0): ((4, 4), True), (Bs, 0): ((6, 4), True), SPARE[0]: SPARE[1]})
    step(rules, st, "laser", 0, 0, faces=(4, 4))  # 3 against 3
    assert status(st, Bs, 0) == "destroyed" and status(st, A, 0) == "damaged"
    rules, st = make(damaged_defender_malus=False)
    position(rules, st, {(A, 0): ((4, 4), True), (Bs, 0): ((6, 4), True), SPARE[0]: SPARE[1]})
    step(rules, st, "laser", 0, 0, faces=(4, 4))  # 3 against 4: the defender wins
    assert status(st, A, 0) == "destroyed" and status(st, Bs, 0) == "damaged"
    assert f(st, Bs, E.S_KILLS) == 1


# ---- R6.5: the ion cannon ------------------------------------------------------------------------------
@pytest.mark.parametrize("damaged, face, zero, target, attacker", [
    (False, 6, True, "destroyed", "healthy"), (False, 5, True, "destroyed", "healthy"), (False, 4, True, "destroyed", "healthy"),
    (False, 3, True, "healthy", "healthy"), (False, 2, True, "healthy", "damaged"), (False, 1, True, "healthy", "damaged"),
    (True, 6, True, "destroyed", "damaged"), (True, 5, True, "destroyed", "damaged"), (True, 4, True, "healthy", "damaged"),
    (True, 3, True, "healthy", "destroyed"), (True, 2, True, "healthy", "destroyed"), (True, 1, True, "healthy", "destroyed"),
    (True, 1, False, "healthy", "damaged"),
])
def test_scenario_9_ion_cannon_outcomes(damaged, face, zero, target, attacker):
    """R6.5, A6: 4-6 destroys the target, 3 nothing, 1-2 (and 0 by default) backfires."""
    rules, st = make(ion_backfire_zero=zero)
    position(rules, st, {(A, 0): ((4, 4), damaged), (Bs, 0): (6, 4), SPARE[0]: SPARE[1]})
    assert step(rules, st, "ion", 0, 0, faces=(face,)) == [face]  # the defender rolls nothing
    assert status(st, Bs, 0) == target and status(st, A, 0) == attacker
    assert f(st, A, E.S_IONS) == 1 and f(st, A, E.S_BACKFIRES) == (attacker != ("damaged" if damaged else "healthy"))


def test_a_destroyed_ufo_of_full_health_by_the_ion_cannon():
    rules, st = make()
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): ((6, 4), True), SPARE[0]: SPARE[1]})
    step(rules, st, "ion", 0, 0, faces=(4,))
    assert status(st, Bs, 0) == "destroyed" and f(st, A, E.S_KILLS) == 1 and f(st, Bs, E.S_UFOS_LOST) == 1


# ---- R7: motherships ---------------------------------------------------------------------------------
def test_scenario_10_attack_on_the_mothership():
    rules, st = make()
    position(rules, st, {(A, 0): (4, 9), SPARE[0]: SPARE[1]})
    acts = legal(rules, st)
    assert ("ion_ms", 0) in acts and not any(a[0] == "laser" for a in acts)  # A21: no lasers at it
    step(rules, st, "ion_ms", 0, faces=(4,))
    assert f(st, Bs, E.S_STRUCTURE) == 4 and f(st, A, E.S_MS_HITS) == 1
    assert not any(a[0] in ("laser", "ion", "ion_ms") and a[1] == 0 for a in legal(rules, st))  # its one attack
    position(rules, st, {(A, 0): (4, 9), SPARE[0]: SPARE[1]})
    step(rules, st, "ion_ms", 0, faces=(2,))
    assert status(st, A, 0) == "damaged" and f(st, Bs, E.S_STRUCTURE) == 4
    rules, st = make(mothership_ion_backfire=False)
    position(rules, st, {(A, 0): (4, 9), SPARE[0]: SPARE[1]})
    step(rules, st, "ion_ms", 0, faces=(2,))
    assert status(st, A, 0) == "healthy"


def test_scenario_10_mothership_attack_not_counted_as_the_attack():
    """A20: with mothership_attack_uses_attack=false the UFO may still fire at a UFO."""
    for uses, allowed in ((True, False), (False, True)):
        rules, st = make(mothership_attack_uses_attack=uses)
        position(rules, st, {(A, 0): (4, 9), (Bs, 0): (5, 7), SPARE[0]: SPARE[1]})
        assert ("laser", 0, 0) in legal(rules, st)
        step(rules, st, "ion_ms", 0, faces=(3,))
        assert (("laser", 0, 0) in legal(rules, st)) == allowed
        assert ("ion_ms", 0) not in legal(rules, st)  # once per turn either way


def test_scenario_11_mothership_defence():
    """R7.2, A23: seat 1's mothership B lasers each enemy on its launch hexes; no push."""
    rules, st = make()
    ufos = {(A, 0): (3, 9), (A, 2): ((4, 9), True), (Bs, 0): (4, 6), SPARE_B[0]: SPARE_B[1]}
    position(rules, st, ufos, active=Bs)
    assert ("volley",) in legal(rules, st)
    assert step(rules, st, "volley", faces=(5, 3)) == [5, 3]
    assert status(st, A, 0) == "damaged" and status(st, A, 2) == "damaged"
    assert where(st, A, 0) == (3, 9) and f(st, Bs, E.S_VOLLEY_HITS) == 1
    assert ("volley",) not in legal(rules, st)  # once per turn
    position(rules, st, ufos, active=Bs)
    step(rules, st, "volley", faces=(2, 6))
    assert status(st, A, 0) == "healthy" and status(st, A, 2) == "destroyed" and f(st, Bs, E.S_KILLS) == 1
    rules, st = make(mothership_volley="single")
    position(rules, st, ufos, active=Bs)
    assert step(rules, st, "volley", faces=(4,)) == [4]
    assert status(st, A, 0) == "damaged" and status(st, A, 2) == "destroyed"
    position(rules, st, {(A, 0): (4, 7), (Bs, 0): (4, 6)}, active=Bs)  # nobody on (3,9), (4,9), (3,10), (5,10)
    assert ("volley",) not in legal(rules, st)


@pytest.mark.parametrize("when", ["start", "end"])
def test_automatic_volley_at_the_start_or_end_of_the_turn(when):
    """A22: mothership_fire=start fires when the turn starts, end when it ends; no VOLLEY action."""
    rules, st = make(mothership_fire=when)
    if when == "end":  # A's mothership fires at B0 on A's launch hex (3,1) as A's turn ends
        position(rules, st, {(A, 0): (6, 6), (Bs, 0): (3, 1), (Bs, 1): (4, 7)}, active=A)
        dice(st, 6)
        shooter, target = A, (Bs, 0)
    else:  # B's mothership fires at A0 on B's launch hex (3,9) as B's turn 4 starts
        position(rules, st, {(A, 0): (3, 9), (Bs, 1): (4, 6)}, active=A)
        st.rng[2] = np.uint64(_seed_for_turn(4, [6]))
        shooter, target = Bs, (A, 0)
    assert ("volley",) not in legal(rules, st)
    step(rules, st, "end_turn")
    assert rolled(st) == [6]
    assert status(st, *target) == "damaged" and f(st, shooter, E.S_VOLLEY_HITS) == 1
    assert st.s[E.TURN] == 4 and rules.to_move(st) == Bs


def _seed_for_turn(turn: int, faces: list[int]) -> int:
    """A game seed whose chance stream restarted at ``turn`` draws ``faces`` first."""
    salt = 0xD1B54A32D192ED03
    point = _mix((turn * GOLDEN + salt) & M64)
    for seed in itertools.count(1):
        if _faces(_mix(seed ^ point), len(faces)) == faces:
            return seed
    raise AssertionError  # pragma: no cover


# ---- R8: respawn ------------------------------------------------------------------------------------------
def test_scenario_12_respawn_timing():
    """R8: destroyed in the opponent's turn 4: docked in turn 5, ready in turn 7; destroyed
    in its own turn 5: docked in turn 7, ready in turn 9; same_turn: ready two turns earlier."""
    for delay, docked_turn, ready_turn in (("next_turn", 5, 7), ("same_turn", None, 5)):
        rules, st = make(respawn_delay=delay)
        position(rules, st, {(A, 0): (4, 4), (Bs, 0): (4, 7)}, active=Bs, turn=4)
        setf(st, A, E.S_STATUS, 1, E.ST_DESTROYED)
        seen = {}
        p = Bs
        for turn in range(5, 10):
            p = 1 - p
            start_turn(st.s, st.rng, st.b, p)
            assert st.s[E.TURN] == turn
            if p == A:
                seen[turn] = status(st, A, 1)
        if docked_turn:
            assert seen == {5: "docked", 7: "ready", 9: "ready"}
        else:
            assert seen == {5: "ready", 7: "ready", 9: "ready"}
    rules, st = make()
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): (4, 7)}, active=A, turn=5)
    setf(st, A, E.S_STATUS, 1, E.ST_DESTROYED)  # destroyed during its own turn 5
    got = {}
    for turn, p in ((6, Bs), (7, A), (8, Bs), (9, A)):
        start_turn(st.s, st.rng, st.b, p)
        got[turn] = status(st, A, 1)
    assert got == {6: "destroyed", 7: "docked", 8: "docked", 9: "ready"}


def test_scenario_12_launching_from_the_mothership():
    """R4.4, A28: a docked UFO cannot move; a ready one starts on a launch hex not held by an
    enemy, e.g. (4,6) from (4,1); with enemies on all 4 launch hexes it cannot leave."""
    rules, st = make()
    position(rules, st, {(A, 0): (0, 10), (Bs, 0): (8, 10)}, phase=E.PH_MOVE)
    assert not any(a[0] == "move" and a[1] == 1 for a in legal(rules, st))  # docked
    setf(st, A, E.S_STATUS, 1, E.ST_READY)
    moves = {a[2] for a in legal(rules, st) if a[0] == "move" and a[1] == 1}
    assert (4, 6) in moves and (3, 1) in moves  # a launch hex itself, and 5 steps from (4,1)
    for c in [(3, 0), (5, 0), (3, 1), (4, 1)]:
        assert G.distance(c, (4, 6)) >= 5
    position(rules, st, {(Bs, 0): (3, 0), (Bs, 1): (5, 0), (Bs, 2): (3, 1), (Bs, 3): (4, 1)}, phase=E.PH_MOVE)
    setf(st, A, E.S_STATUS, 1, E.ST_READY)
    assert not any(a[0] == "move" for a in legal(rules, st))
    # a launch hex held by a friendly UFO is passed through (A29)
    position(rules, st, {(A, 0): (3, 0), (Bs, 1): (5, 0), (Bs, 2): (3, 1), (Bs, 3): (4, 1)}, phase=E.PH_MOVE)
    setf(st, A, E.S_STATUS, 1, E.ST_READY)
    moves = {a[2] for a in legal(rules, st) if a[0] == "move" and a[1] == 1}
    assert moves and (3, 0) not in moves and all(G.distance((3, 0), c) <= 5 for c in moves)


@pytest.mark.parametrize("cost", [0, 1])
def test_launch_cost(cost):
    """A27: with launch_cost=1 the launch hex is the first of the 5 steps."""
    rules, st = make(launch_cost=cost)
    position(rules, st, {(Bs, 0): (8, 10)}, phase=E.PH_MOVE)
    setf(st, A, E.S_STATUS, 0, E.ST_READY)
    moves = {a[2] for a in legal(rules, st) if a[0] == "move"}
    far = max(min(G.distance(l, c) for l in [(3, 0), (5, 0), (3, 1), (4, 1)]) for c in moves)
    assert far == 5 - cost


# ---- R9: repair ----------------------------------------------------------------------------------------
def test_scenario_13_self_repair():
    rules, st = make()
    position(rules, st, {(A, 0): ((4, 4), True), (Bs, 0): (6, 4), SPARE[0]: SPARE[1]})
    assert ("repair", 0) in legal(rules, st)
    assert step(rules, st, "repair", 0, faces=(4,)) == [4]
    assert status(st, A, 0) == "healthy" and f(st, A, E.S_REPAIRS_OK) == 1
    assert not any(a[0] in ("laser", "ion") and a[1] == 0 for a in legal(rules, st))  # it gave up its attack
    position(rules, st, {(A, 0): ((4, 4), True), (Bs, 0): (6, 4), SPARE[0]: SPARE[1]})
    step(rules, st, "repair", 0, faces=(3,))
    assert status(st, A, 0) == "damaged" and ("laser", 0, 0) not in legal(rules, st)
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): (6, 4), SPARE[0]: SPARE[1]})
    assert ("repair", 0) not in legal(rules, st)  # healthy
    position(rules, st, {(A, 0): ((4, 4), True), (Bs, 0): (6, 4), SPARE[0]: SPARE[1]})
    step(rules, st, "laser", 0, 0, faces=(6, 1))
    assert ("repair", 0) not in legal(rules, st)  # it attacked


# ---- R10: asteroids --------------------------------------------------------------------------------------
@pytest.mark.parametrize("face, result", [(2, "damaged"), (3, "healthy")])
def test_scenario_14_asteroid_after_a_move(face, result):
    """R10.2: at the end of the movement a UFO beside an asteroid rolls; 1-2 damages it and
    it may still attack, with its -1."""
    rules, st = make()
    position(rules, st, {(A, 0): (4, 1), (A, 1): (0, 0), (Bs, 0): (6, 4)}, phase=E.PH_MOVE)
    step(rules, st, "move", 0, (4, 4))
    assert rolled(st) == []
    assert step(rules, st, "end_move", faces=(face,)) == [face]
    assert status(st, A, 0) == result and st.s[E.PHASE] == E.PH_ATTACK
    assert ("laser", 0, 0) in legal(rules, st)


@pytest.mark.parametrize("check, rolls", [("all", [2, 5]), ("moved", [2])])
def test_scenario_14_a_ufo_standing_still_beside_an_asteroid(check, rolls):
    """A15: with asteroid_check=all a UFO that did not move rolls too (UFO order)."""
    rules, st = make(asteroid_check=check)
    position(rules, st, {(A, 0): (4, 1), (A, 1): (2, 4), (Bs, 0): (8, 10)}, phase=E.PH_MOVE)
    step(rules, st, "move", 0, (4, 4))
    dice(st, *rolls)
    step(rules, st, "end_move")
    assert rolled(st) == rolls


def test_asteroid_roll_after_each_move():
    """A16: with after_each_move the mover rolls right after its move; UFOs standing still
    roll at the end of the movement."""
    rules, st = make(asteroid_roll_timing="after_each_move")
    position(rules, st, {(A, 0): (4, 1), (A, 1): (2, 4), (Bs, 0): (8, 10)}, phase=E.PH_MOVE)
    assert step(rules, st, "move", 0, (4, 4), faces=(1,)) == [1]
    assert status(st, A, 0) == "damaged"
    assert step(rules, st, "end_move", faces=(6,)) == [6]  # only A1, which did not move


@pytest.mark.parametrize("face, result", [(2, "destroyed"), (3, "damaged")])
def test_scenario_15_asteroid_after_a_push(face, result):
    """R10.3: pushed beside an asteroid, the loser rolls at once; every D(1) destination
    from (3,4) touches one; declining rolls nothing."""
    rules, st = make()
    position(rules, st, {(A, 0): (4, 2), (Bs, 0): (3, 4), SPARE[0]: SPARE[1]})
    step(rules, st, "laser", 0, 0, faces=(6, 5))
    assert legal(rules, st) == {("push", c) for c in [(4, 4), (3, 3), (2, 4), (2, 5)]} | {("no_push",)}
    assert step(rules, st, "push", (2, 4), faces=(face,)) == [face]
    assert status(st, Bs, 0) == result
    assert f(st, A, E.S_KILLS) == (result == "destroyed") and f(st, Bs, E.S_ASTEROID_DAMAGE) == (face <= 2)
    position(rules, st, {(A, 0): (4, 2), (Bs, 0): (3, 4), SPARE[0]: SPARE[1]})
    step(rules, st, "laser", 0, 0, faces=(6, 5))
    assert step(rules, st, "no_push") == [] and where(st, Bs, 0) == (3, 4)


# ---- R11: the end --------------------------------------------------------------------------------------
def test_scenario_16_structure_zero_ends_the_game_at_once():
    rules, st = make()
    position(rules, st, {(A, 0): (4, 9), (A, 1): (3, 9), SPARE[0]: SPARE[1]})
    setf(st, Bs, E.S_STRUCTURE, 0, 1)
    assert step(rules, st, "ion_ms", 0, faces=(6, 6)) == [6]  # nothing more is drawn
    assert rules.over(st) and rules.won(st) == [True, False]
    res = rules.results(st)
    assert res["draw"] is False and res["winner"] == 1 and res["structure"] == [5, 0]
    with pytest.raises(IllegalAction):
        rules.step(st, E.A_END_TURN)


def test_scenario_17_first_player_by_die_roll_rerolling_ties():
    rules = Rules()
    for faces, first in (([3, 3, 2, 5], Bs), ([6, 1], A)):
        seed = _stream_for(faces)
        st = rules.new(seed)
        assert rolled(st)[:len(faces)] == faces and st.s[E.FIRST_SEAT] == first
        assert rules.results(st)["first"] == [first == A, first == Bs]
    for fixed, first in (("seat1", A), ("seat2", Bs)):
        st = Rules(first_player=fixed).new(99)
        assert st.s[E.FIRST_SEAT] == first and rolled(st) == []


def test_scenario_18_movement():
    """R4: the hexes exactly 5 steps from (4,1) on an empty board; a friendly UFO is
    passed through but is no destination; an enemy on (4,5) closes the middle gap."""
    rules, st = make()
    position(rules, st, {(A, 0): (4, 1), (Bs, 0): (8, 10)}, phase=E.PH_MOVE)
    board = D.load()
    dests = {a[2] for a in legal(rules, st) if a[0] == "move"}
    dist = _bfs(board, (4, 1), set())
    assert dests == {c for c, d in dist.items() if 1 <= d <= 5}
    assert {c for c, d in dist.items() if d == 5} == {(0, 0), (0, 2), (0, 3), (1, 4), (2, 6), (3, 6), (4, 6), (5, 6), (6, 6), (7, 6),
                                                      (8, 3), (8, 4)}
    assert not dests & board.asteroids and (4, 1) not in dests
    position(rules, st, {(A, 0): (4, 1), (A, 1): (4, 2), (Bs, 0): (4, 5)}, phase=E.PH_MOVE)
    dests = {a[2] for a in legal(rules, st) if a[0] == "move" and a[1] == 0}
    assert (4, 2) not in dests and (4, 3) in dests and (4, 6) not in dests and (3, 6) in dests


def _bfs(board, start, blocked):
    dist = {start: 0}
    todo = deque([start])
    while todo:
        c = todo.popleft()
        for n in board.neighbours(c):
            if n not in dist and not board.blocked(n) and n not in blocked:
                dist[n] = dist[c] + 1
                todo.append(n)
    return dist


def test_scenario_19_turn_cap_is_a_draw():
    rules, st = make(turn_cap=2)
    while not rules.over(st):
        rules.step(st, E.A_END_MOVE if st.s[E.PHASE] == E.PH_MOVE else E.A_END_TURN)
    res = rules.results(st)
    assert res["draw"] is True and res["won"] == [False, False] and res["winner"] == 0 and res["turns"] == 2


# ---- settings on positions -------------------------------------------------------------------------------
def test_attacks_per_turn_one():
    """A4: with attacks_per_turn=one the player makes one attack in all; repair is not one (A30)."""
    for mode, more in (("per_ufo", True), ("one", False)):
        rules, st = make(attacks_per_turn=mode)
        position(rules, st, {(A, 0): (4, 4), (A, 1): ((4, 2), True), (Bs, 0): (6, 4), (Bs, 1): (6, 2), SPARE[0]: SPARE[1]})
        step(rules, st, "laser", 0, 0, faces=(3, 3))
        acts = legal(rules, st)
        assert (("laser", 1, 1) in acts) == more and ("repair", 1) in acts


def test_no_target_ends_turn():
    """A37: with no UFO in any line of fire the literal reading ends the turn: no mothership
    attack, no repair."""
    for literal in (False, True):
        rules, st = make(no_target_ends_turn=literal)
        position(rules, st, {(A, 0): (4, 8), (A, 1): ((1, 1), True), (Bs, 0): (0, 9)}, phase=E.PH_MOVE)
        step(rules, st, "move", 0, (4, 9))
        step(rules, st, "end_move")
        if literal:
            assert st.s[E.ACTIVE] == Bs
        else:
            assert {("ion_ms", 0), ("repair", 1)} <= legal(rules, st)


def test_push_is_optional_or_not():
    """A7: with push_optional=false the winner must push when it can."""
    rules, st = make(push_optional=False)
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): (6, 4)})
    step(rules, st, "laser", 0, 0, faces=(5, 3))
    assert legal(rules, st) == {("push", c) for c in D2_FROM_64}


def test_push_length_up_to():
    """A8: up_to: every hex 1 or 2 steps away."""
    rules, st = make(push_length="up_to")
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): (6, 4)})
    step(rules, st, "laser", 0, 0, faces=(5, 3))
    board = D.load()
    near = {c for c, d in _bfs(board, (6, 4), {(4, 4)}).items() if 1 <= d <= 2}
    assert legal(rules, st) == {("push", c) for c in near} | {("no_push",)}


@pytest.mark.parametrize("path, expected", [
    ("straight", {(8, 4), (4, 4), (7, 2), (5, 6), (5, 2), (7, 6)}),
    ("away", {(8, 4)}),
])
def test_push_paths_straight_and_away(path, expected):
    """A9: straight lines in any direction, or straight on along the line of fire."""
    rules, st = make(push_path=path)
    position(rules, st, {(A, 0): (2, 4), (Bs, 0): (4, 4)})
    step(rules, st, "laser", 0, 0, faces=(6, 4))
    dests = {a[1] for a in legal(rules, st) if a[0] == "push"}
    ok = {c for c in expected if not D.load().blocked(c)}
    # the lines from (4,4): E (6,4), NE (5,2), NW (3,2), W (2,4)=attacker, SW (3,5) asteroid, SE (4,6)... by 2 steps
    lines = set()
    for d in range(6):
        c = (4, 4)
        fine = True
        for _ in range(2):
            c = G.step(c, d)
            if not G.on_grid(c, COLS, ROWS) or D.load().blocked(c) or c == (2, 4):
                fine = False
                break
        if fine and (path == "straight" or d == G.direction((2, 4), (4, 4))):
            lines.add(c)
    assert dests == lines
    del ok


def test_push_through_empty_only():
    """A10: push_through=empty: not even through the loser's own side."""
    rules, st = make(push_through="empty")
    position(rules, st, {(A, 0): (4, 4), (Bs, 0): (6, 4), (Bs, 1): (7, 4), (Bs, 2): (6, 5), (Bs, 3): (5, 3)})
    step(rules, st, "laser", 0, 0, faces=(5, 3))
    dests = {a[1] for a in legal(rules, st) if a[0] == "push"}
    assert dests and all(G.distance((6, 4), c) <= 2 for c in dests)
    # from (6,4) the only free neighbour is (5,4); from there (4,3), (4,5), (5,5 is an asteroid)...
    assert (8, 4) not in dests and (7, 3) not in dests


@pytest.mark.parametrize("blocked, expected", [("shorten", "short"), ("none", "nothing")])
def test_push_blocked(blocked, expected):
    """A11: a push that cannot be that long: as far as it can go, or none."""
    rules, st = make(push_blocked=blocked, push_path="straight")
    # loser in the corner region (8,4): E is off the board; the attacker at (6,4)
    position(rules, st, {(A, 0): (6, 4), (Bs, 0): (8, 4)})
    step(rules, st, "laser", 0, 0, faces=(6, 1))  # a push of 5
    dests = {a[1] for a in legal(rules, st) if a[0] == "push"}
    if expected == "nothing":
        assert dests == set()
    else:
        assert dests and all(G.distance((8, 4), c) < 5 for c in dests)


def test_push_off_board_and_into_asteroids_crash():
    """A12, A13: with push_off_board=destroyed a push of 2 from an edge hex may crash it."""
    rules, st = make(push_off_board="destroyed")
    position(rules, st, {(A, 0): (6, 4), (Bs, 0): (8, 4), SPARE[0]: SPARE[1]})
    step(rules, st, "laser", 0, 0, faces=(5, 3))
    assert ("crash",) in legal(rules, st)
    step(rules, st, "crash")
    assert status(st, Bs, 0) == "destroyed" and f(st, A, E.S_KILLS) == 1 and f(st, A, E.S_PUSHES) == 1
    rules, st = make()
    position(rules, st, {(A, 0): (6, 4), (Bs, 0): (8, 4)})
    step(rules, st, "laser", 0, 0, faces=(5, 3))
    assert ("crash",) not in legal(rules, st)
    rules, st = make(push_into_asteroid="destroyed")
    position(rules, st, {(A, 0): (4, 2), (Bs, 0): (3, 4)})  # (3,4) touches the asteroid (3,5)
    step(rules, st, "laser", 0, 0, faces=(4, 3))
    assert ("crash",) in legal(rules, st)


def test_mothership_attack_from_moved_only():
    """A18: with mothership_attack_from=moved a UFO parked on a launch hex must move to fire."""
    for mode, allowed in (("all", True), ("moved", False)):
        rules, st = make(mothership_attack_from=mode)
        position(rules, st, {(A, 0): (4, 9), SPARE[0]: SPARE[1]})
        assert (("ion_ms", 0) in legal(rules, st)) == allowed
    rules, st = make(mothership_attack_from="moved")
    position(rules, st, {(A, 0): (4, 9), (Bs, 0): (0, 0)}, phase=E.PH_MOVE)
    step(rules, st, "move", 0, (3, 9))  # the movement then has nothing left: it ends by itself
    assert st.s[E.PHASE] == E.PH_ATTACK and ("ion_ms", 0) in legal(rules, st)


def test_every_setting_builds_and_plays():
    """Each reading of every setting loads and plays a random game to its end."""
    from simkit.params import describe

    from simkit.games.ufoo.params import UfoOParams

    rng = np.random.default_rng(0)
    for info in describe(UfoOParams):
        values = (True, False) if info.type is bool else info.choices or ()
        for v in values:
            if v == info.default:
                continue
            if info.name == "push_path" and v == "away":
                rules = Rules(push_path="away")
            else:
                rules = Rules(**{info.name: v})
            st = rules.new(5)
            steps = 0
            while not rules.over(st) and steps < 400:
                rules.step(st, int(rng.choice(rules.legal(st))))
                steps += 1
            assert not rules.invariants(st)
