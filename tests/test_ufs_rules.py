"""Under Falling Skies: the rulebook's worked examples and the rules around them.

Each test sets up a position by writing the engine's state vector, then plays
actions through the same compiled step function the simulator uses. Rule numbers
refer to docs/rules/under-falling-skies.md.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.datafiles import variants
from simkit.games.ufs import engine as E
from simkit.games.ufs import Rules
from simkit.games.ufs.board import B_CELL_ROOM, B_DMAX
from simkit.games.ufs.params import UFSParams
from simkit.rng import die as roll_die


def cell(row, col):
    """Base cell from the rulebook's 1-based column."""
    return row * 5 + (col - 1)


def make(params=None, seed=1):
    rules = Rules(params or UFSParams(threat=0))
    st = rules.new(seed)
    return rules, st


def clear_sky(s):
    """No ship on the board: purple ships aboard would respawn, so park them as
    'waiting' and let each test place what it needs."""
    for i in range(E.NSHIPS):
        s[E.SHIP_ROW + i] = E.ROW_WAITING if i < 5 else E.ROW_RESERVE
        s[E.SHIP_COL + i] = -1
    s[E.WHITE_RESERVE] = 4


def put_ship(s, i, row, col):
    s[E.SHIP_ROW + i] = row
    s[E.SHIP_COL + i] = col - 1
    if i >= 5 and s[E.WHITE_RESERVE] > 0:
        s[E.WHITE_RESERVE] -= 1


def rooms_phase(s, dice):
    """Rooms phase with worker dice already on cells: {cell: value}."""
    s[E.PHASE] = E.P_ROOMS
    for c in range(30):
        s[E.CELL_DIE + c] = 0
    for k, (c, v) in enumerate(dice.items()):
        s[E.CELL_DIE + c] = v
        s[E.DIE_CELL + k] = c
        s[E.DIE_VAL + k] = v


def room_of(st, c):
    return int(st.b[B_CELL_ROOM + c])


# ---------------------------------------------------------------- R4.5 jets
def test_jets_of_value_3_shoot_explosions_2_and_3_but_not_4():
    """Rulebook, 'Exemplo - Abater Naves': ship A (purple, X2) and B (white, X3) are
    shot, C on an X4 stays; A returns aboard, B leaves the game."""
    rules, st = make()
    s = st.s
    clear_sky(s)
    put_ship(s, 0, 4, 2)  # A: purple on the X2 of tile 4 (row 4, column 2)
    put_ship(s, 5, 7, 2)  # B: white on the X3 of tile 3 (row 7, column 2)
    put_ship(s, 1, 4, 5)  # C: purple on the X4 (row 4, column 5)
    assert s[E.SKY_NUM + 4 * 5 + 1] == 2 and s[E.SKY_NUM + 7 * 5 + 1] == 3 and s[E.SKY_NUM + 4 * 5 + 4] == 4
    jets = cell(1, 1)  # "J-1 c1": a 4 there is worth 3
    rooms_phase(s, {jets: 4})
    s[E.ENERGY] = 2
    rules.step(st, E.A_ROOM + room_of(st, jets))
    assert s[E.SHIP_ROW + 0] == E.ROW_WAITING  # purple: back aboard
    assert s[E.SHIP_ROW + 5] == E.ROW_GONE  # white: out of the game
    assert (s[E.SHIP_ROW + 1], s[E.SHIP_COL + 1]) == (4, 4)  # C stays
    assert s[E.SHOT] == 2
    assert s[E.ENERGY] == 1  # the jets room cost 1


# ---------------------------------------------------------------- R4.6 research
def _research_position(order):
    rules, st = make()
    s = st.s
    s[E.RESEARCH] = 1  # next spaces cost 1, 3, 1 (Roswell, threat 0)
    assert [s[E.RCOST + i] for i in (2, 3, 4)] == [1, 3, 1]
    r2, r3 = cell(1, 2), cell(2, 4)  # R+0 c2 with a 2 (value 2); R-1 c1 with a 4 (value 3)
    rooms_phase(s, {r2: 2, r3: 4})
    s[E.ENERGY] = 3
    for c in order:
        rules.step(st, E.A_ROOM + room_of(st, c))
    return int(s[E.RESEARCH]) - 1, int(s[E.ENERGY])


def test_research_rooms_are_handled_separately():
    """Rulebook, 'Exemplo - Pesquisa': values 2 and 3 with spaces 1, 3, 1 above the
    marker. 2 first: one space, then the 3 reaches the 3. 3 first: one space, and the 2
    is then useless. They never add up to cross all three."""
    assert _research_position([cell(1, 2), cell(2, 4)]) == (2, 0)
    assert _research_position([cell(2, 4), cell(1, 2)]) == (1, 0)


def test_research_value_5_crosses_1_3_1():
    rules, st = make()
    s = st.s
    s[E.RESEARCH] = 1
    rooms_phase(s, {cell(1, 2): 5})
    s[E.ENERGY] = 2
    rules.step(st, E.A_ROOM + room_of(st, cell(1, 2)))
    assert s[E.RESEARCH] == 4


# ---------------------------------------------------------------- R2 excavation
@pytest.mark.parametrize("value, legal", [(6, True), (5, True), (4, False)])
def test_digging_five_spaces_ahead(value, legal):
    """Rulebook, 'Exemplo - Escavação' and page 4: the 6 is 5 spaces ahead of the
    excavator; a 5 would also do, a 4 would not."""
    rules, st = make()
    s = st.s
    assert s[E.EXCAV] == 6  # upper A: the excavator starts on row 2, column 5
    target = cell(3, 1)  # path position 11
    s[E.DIE_VAL + 0] = value
    assert (E.A_PLACE + 0 * 30 + target in rules.legal(st)) is legal


def test_digging_moves_the_excavator_for_one_energy_and_only_one_die_ahead():
    rules, st = make()
    s = st.s
    clear_sky(s)
    s[E.DIE_VAL + 0] = 6
    s[E.DIE_VAL + 1] = 6
    rules.step(st, E.A_PLACE + 0 * 30 + cell(3, 1))
    # R2.1: no second die ahead of the excavator this round
    assert not any(a == E.A_PLACE + 1 * 30 + cell(2, 4) for a in rules.legal(st))
    for d in (1, 2, 3, 4):  # the rest on the AA guns
        col = [c for c in range(5) if s[E.COL_USED + c] == 0][0]
        rules.step(st, E.A_PLACE + d * 30 + col)
    assert s[E.PHASE] == E.P_ROOMS
    energy = int(s[E.ENERGY])
    rules.step(st, E.A_EXCAVATE)
    assert s[E.EXCAV] == 11 and s[E.ENERGY] == energy - 1



def test_excavator_start_variant_moves_only_upper_a_to_position_5():
    """G11: ``data=excavator_a5`` (data/components_excavator_a5.toml) differs from the
    built-in components only in upper A's excavator start, 5 instead of 6: Roswell's board
    differs in that one field, New York's and Washington's not at all. A path to the file
    loads the same data as its name."""
    from simkit.errors import UserError
    from simkit.games.ufs import board as UB

    variant = UB.DATA_DIR / "components_excavator_a5.toml"
    assert variants(UB.BUILTIN) == {"excavator_a5": variant}
    assert UB.data_path(UFSParams(data="excavator_a5")) == variant
    assert UB.data_version(UFSParams(data="excavator_a5")) != UB.data_version(UFSParams())
    for city in ("roswell", "new_york", "washington"):
        default, a5 = UB.build(UFSParams(city=city)), UB.build(UFSParams(city=city, data="excavator_a5"))
        assert np.array_equal(a5, UB.build(UFSParams(city=city, data=str(variant))))
        changed = np.flatnonzero(default != a5).tolist()
        if city == "roswell":
            assert changed == [UB.B_EXCAV_START] and (default[UB.B_EXCAV_START], a5[UB.B_EXCAV_START]) == (6, 5)
        else:
            assert changed == []
    with pytest.raises(UserError, match=r"^no built-in components variant 'nope' \(built-in: excavator_a5\)"):
        UB.data_path(UFSParams(data="nope"))


@pytest.mark.parametrize("value, legal", [(6, True), (5, False)])
def test_with_the_excavator_at_5_row_3_column_1_is_6_spaces_ahead(value, legal):
    """G11 variant, R2.1: the excavator starts at path position 5 (row 1 is open, row 2 is
    not), so path position 11 is 6 spaces ahead: a 6 may dig there, a 5 may not."""
    rules, st = make(UFSParams(threat=0, data="excavator_a5"))
    s = st.s
    assert s[E.EXCAV] == 5
    s[E.DIE_VAL + 0] = value
    assert (E.A_PLACE + 0 * 30 + cell(3, 1) in rules.legal(st)) is legal


# ---------------------------------------------------------------- R1 dice phase
def test_a_one_on_the_aa_guns_moves_nothing():
    """Page 5: on an AA cell the ships move one less; a 1 moves them not at all and
    triggers nothing."""
    rules, st = make()
    s = st.s
    clear_sky(s)
    put_ship(s, 0, 5, 1)  # row 5 column 1 is an M: landing on it would matter
    s[E.DIE_VAL + 0] = 1
    ms = int(s[E.MS])
    rules.step(st, E.A_PLACE + 0 * 30 + 0)  # AA of column 1
    assert (s[E.SHIP_ROW + 0], s[E.MS]) == (5, ms)


def test_aa_guns_move_ships_one_less():
    rules, st = make()
    s = st.s
    clear_sky(s)
    put_ship(s, 0, 8, 1)
    s[E.DIE_VAL + 0] = 4
    rules.step(st, E.A_PLACE + 0 * 30 + 0)
    assert s[E.SHIP_ROW + 0] == 11


def test_two_ships_move_together_then_resolve_top_down():
    """Page 5 example: two ships in column 2, a 2 is placed: both move 2; the upper
    one ends on an explosion, the lower one on a mothership icon, which moves the
    mothership down at once."""
    rules, st = make()
    s = st.s
    clear_sky(s)
    put_ship(s, 0, 2, 2)
    put_ship(s, 1, 4, 2)
    s[E.DIE_VAL + 0] = 2
    rules.step(st, E.A_PLACE + 0 * 30 + cell(1, 2))
    assert s[E.SHIP_ROW + 0] == 4 and s[E.SKY_KIND + 4 * 5 + 1] == 1  # on the X2
    assert s[E.SHIP_ROW + 1] == 6 and s[E.SKY_KIND + 6 * 5 + 1] == 4  # on the M
    assert s[E.MS] == 1


def test_a_ship_passing_below_the_sky_damages_and_returns_aboard():
    """Page 5: the ship near the city; any die moving it more than one space makes it
    hit the city, then it goes back to the mothership."""
    rules, st = make()
    s = st.s
    clear_sky(s)
    put_ship(s, 0, 15, 2)
    s[E.DIE_VAL + 0] = 2
    rules.step(st, E.A_PLACE + 0 * 30 + cell(1, 2))
    assert s[E.DAMAGE] == 1 and s[E.SHIP_ROW + 0] == E.ROW_WAITING


@pytest.mark.parametrize("descents, value, row", [(0, 3, 3), (4, 3, 7), (0, 1, 1)])
def test_a_ship_on_a_landing_site_moves_from_the_motherships_row(descents, value, row):
    """G12/A31: the mothership starts above row 1 and its landing sites are in the row it
    has descended to, so a die of d moves a ship on a site to row d at the start and to
    row m + d after m descents (column 2, a room cell: full movement)."""
    rules, st = make()
    s = st.s
    clear_sky(s)
    s[E.MS] = descents
    s[E.SHIP_ROW + 0] = E.ROW_SITE
    s[E.SHIP_COL + 0] = 1
    s[E.DIE_VAL + 0] = value
    rules.step(st, E.A_PLACE + 0 * 30 + cell(1, 2))
    assert s[E.SHIP_ROW + 0] == row and s[E.MS] == descents


def _arrow_case(blocker):
    rules, st = make()
    s = st.s
    clear_sky(s)
    put_ship(s, 0, 1, 2)  # row 2, column 2 is "<": landing there moves the ship to column 1
    if blocker:
        put_ship(s, 1, 2, 1)
    s[E.DIE_VAL + 0] = 1
    rules.step(st, E.A_PLACE + 0 * 30 + cell(1, 2))
    return int(s[E.SHIP_ROW + 0]), int(s[E.SHIP_COL + 0]) + 1


def test_arrow_moves_a_ship_sideways():
    assert _arrow_case(blocker=False) == (2, 1)


def test_arrow_blocked_by_a_ship_on_its_target():
    """Page 5: if there is already a ship on that cell, the arrow has no effect."""
    assert _arrow_case(blocker=True) == (2, 2)


def test_a_white_die_rerolls_the_unplaced_dice():
    rules, st = make()
    s = st.s
    clear_sky(s)
    expected_rng = st.rng.copy()
    expected = [int(roll_die(expected_rng)) for _ in range(4)]
    rules.step(st, E.A_PLACE + 3 * 30 + 0)  # white die 3 on the AA of column 1
    assert [int(s[E.DIE_VAL + d]) for d in (0, 1, 2, 4)] == expected


def test_a_grey_die_rerolls_nothing():
    rules, st = make()
    s = st.s
    clear_sky(s)
    before = s[E.DIE_VAL:E.DIE_VAL + 5].copy()
    rules.step(st, E.A_PLACE + 0 * 30 + 0)
    assert np.array_equal(before, s[E.DIE_VAL:E.DIE_VAL + 5])


# ---------------------------------------------------------------- R4.2 multi-cell rooms
def test_multi_cell_room_1_plus_6_minus_3_is_4():
    """Page 6: 'o valor da instalação ilustrada acima é 1 + 6 - 3 = 4'."""
    rules, st = make()
    s = st.s
    rooms_phase(s, {cell(1, 4): 1, cell(1, 5): 6})  # E-3 c0 over columns 4-5
    s[E.ENERGY] = 0
    rules.step(st, E.A_ROOM + room_of(st, cell(1, 4)))
    assert s[E.ENERGY] == 4


def test_multi_cell_room_with_an_empty_cell_cannot_be_used():
    rules, st = make()
    s = st.s
    rooms_phase(s, {cell(1, 4): 6})
    assert E.A_ROOM + room_of(st, cell(1, 4)) not in rules.legal(st)


def test_energy_is_capped_at_the_top_of_the_track():
    rules, st = make()
    s = st.s
    rooms_phase(s, {cell(1, 4): 6, cell(1, 5): 6})
    s[E.ENERGY] = 5
    rules.step(st, E.A_ROOM + room_of(st, cell(1, 4)))
    assert s[E.ENERGY] == 7  # Roswell: 4 + 3 segments


def test_a_room_needs_its_energy_cost():
    rules, st = make()
    s = st.s
    rooms_phase(s, {cell(1, 2): 6})  # research R+0 c2
    s[E.ENERGY] = 1
    assert E.A_ROOM + room_of(st, cell(1, 2)) not in rules.legal(st)
    s[E.ENERGY] = 2
    assert E.A_ROOM + room_of(st, cell(1, 2)) in rules.legal(st)


# ---------------------------------------------------------------- R3 mothership phase
def test_mothership_entering_a_row_takes_its_ships_back():
    """Page 7 example: the mothership moves down a row holding a ship, which goes
    back aboard and is spawned again; a ship waiting on a landing site stays there."""
    rules, st = make()
    s = st.s
    clear_sky(s)
    s[E.MS] = 3  # next row: 4, whose action is "none" on tile 4's easier side
    put_ship(s, 0, 4, 3)  # in the row the mothership enters
    s[E.SHIP_ROW + 1] = E.ROW_SITE  # on the landing site of column 1
    s[E.SHIP_COL + 1] = 0
    put_ship(s, 2, 9, 2)
    put_ship(s, 3, 9, 4)
    put_ship(s, 4, 9, 5)
    rooms_phase(s, {})
    rules.step(st, E.A_END)
    assert s[E.MS] == 4
    assert (s[E.SHIP_ROW + 1], s[E.SHIP_COL + 1]) == (E.ROW_SITE, 0)
    # ship 0 came back and was spawned on the only column without ships: column 3
    assert (s[E.SHIP_ROW + 0], s[E.SHIP_COL + 0]) == (E.ROW_SITE, 2)
    assert s[E.ROUND] == 2 and s[E.PHASE] == E.P_PLACE


def test_spawning_example():
    """Page 9 example: an empty column gets the first purple ship; the second goes to
    the site whose column's topmost ship is farthest; the white ship then faces two
    equally distant sites and the player chooses."""
    rules, st = make()
    s = st.s
    clear_sky(s)
    s[E.MS] = 3
    s[E.SHIP_ROW + 2] = E.ROW_SITE  # column 1: its landing site is taken
    s[E.SHIP_COL + 2] = 0
    put_ship(s, 3, 10, 3)  # column 3: topmost ship far down
    put_ship(s, 4, 6, 4)  # columns 4 and 5: topmost ships equally high
    put_ship(s, 6, 6, 5)
    s[E.SHIP_ROW + 5] = E.ROW_WAITING  # white ship waiting aboard
    s[E.WHITE_RESERVE] = 2
    # purple ships 0 and 1 are waiting (clear_sky)
    rooms_phase(s, {})
    rules.step(st, E.A_END)
    assert (s[E.SHIP_ROW + 0], s[E.SHIP_COL + 0]) == (E.ROW_SITE, 1)  # the empty column
    assert (s[E.SHIP_ROW + 1], s[E.SHIP_COL + 1]) == (E.ROW_SITE, 2)  # farthest from its topmost ship
    assert s[E.PHASE] == E.P_SPAWN  # the white ship: a tie, the player's choice
    assert sorted(rules.legal(st)) == [E.A_SPAWN + 3, E.A_SPAWN + 4]
    rules.step(st, E.A_SPAWN + 4)
    assert (s[E.SHIP_ROW + 5], s[E.SHIP_COL + 5]) == (E.ROW_SITE, 4)
    assert s[E.PHASE] == E.P_PLACE


def test_row_actions():
    """R3.2: excavator back (not past its start), research back, white ships, damage."""
    rules, st = make(UFSParams(threat=0))
    s = st.s
    clear_sky(s)
    s[E.MS] = 1  # row 2 of tile 4 (easier side): excavator back 2
    s[E.EXCAV] = 7
    rooms_phase(s, {})
    rules.step(st, E.A_END)
    assert s[E.EXCAV] == 6  # stopped at its start
    rules2, st2 = make(UFSParams(threat=0))
    s2 = st2.s
    clear_sky(s2)
    s2[E.MS] = 6  # row 7 of tile 3 (easier side): research back 1
    s2[E.RESEARCH] = 3
    rooms_phase(s2, {})
    rules2.step(st2, E.A_END)
    assert s2[E.RESEARCH] == 2
    rules3, st3 = make(UFSParams(threat=0))
    s3 = st3.s
    clear_sky(s3)
    rooms_phase(s3, {})
    rules3.step(st3, E.A_END)  # row 1: +1 white ship
    while s3[E.PHASE] == E.P_SPAWN:  # five empty columns: the player places the ships
        rules3.step(st3, rules3.legal(st3)[0])
    assert s3[E.WHITE_RESERVE] == 3
    # purple ships spawn first and fill the five landing sites: the white one waits (R3.4)
    assert (s3[E.SHIP_ROW:E.SHIP_ROW + 5] == E.ROW_SITE).all()
    assert (s3[E.SHIP_ROW + 5:E.SHIP_ROW + 9] == E.ROW_WAITING).sum() == 1


def test_white_ships_beyond_the_reserve_are_ignored():
    rules, st = make()
    s = st.s
    clear_sky(s)
    for i in range(5, 9):
        s[E.SHIP_ROW + i] = E.ROW_GONE
    s[E.WHITE_RESERVE] = 0
    rooms_phase(s, {})
    rules.step(st, E.A_END)  # row 1: +1 white ship, but none is left
    assert (s[E.SHIP_ROW + 5:E.SHIP_ROW + 9] == E.ROW_GONE).all()


# ---------------------------------------------------------------- R7 end of the game
def test_mothership_reaching_the_skull_loses_at_once():
    rules, st = make()
    s = st.s
    s[E.MS] = s[E.SKULL] - 1
    rooms_phase(s, {})
    rules.step(st, E.A_END)
    assert s[E.RESULT] == E.R_MOTHERSHIP and rules.over(st)


def test_skull_reached_through_a_mothership_icon_in_the_dice_phase():
    rules, st = make()
    s = st.s
    clear_sky(s)
    s[E.MS] = s[E.SKULL] - 1  # 11: row 12 is the skull on tile 2's easier side
    put_ship(s, 0, 12, 1)  # pushing it onto the M of row 13, column 4 would need column 4
    put_ship(s, 0, 12, 4)
    s[E.DIE_VAL + 0] = 1
    rules.step(st, E.A_PLACE + 0 * 30 + cell(1, 4))  # row 13 column 4 is an M
    assert s[E.RESULT] == E.R_MOTHERSHIP


def test_full_damage_loses_at_once():
    rules, st = make()
    s = st.s
    clear_sky(s)
    s[E.DAMAGE] = st.b[B_DMAX] - 1
    put_ship(s, 0, 16, 1)
    s[E.DIE_VAL + 0] = 3
    rules.step(st, E.A_PLACE + 0 * 30 + cell(1, 1))
    assert s[E.RESULT] == E.R_DAMAGE


def test_reaching_the_top_of_the_research_track_wins_at_once():
    rules, st = make()
    s = st.s
    s[E.RESEARCH] = s[E.RLEN] - 1
    s[E.RCOST + s[E.RLEN]] = 2
    rooms_phase(s, {cell(1, 2): 2})
    s[E.ENERGY] = 2
    rules.step(st, E.A_ROOM + room_of(st, cell(1, 2)))
    assert s[E.RESULT] == E.R_WON and rules.over(st)


# ---------------------------------------------------------------- R5 robots, R6 cities
def ny(side="normal"):
    return make(UFSParams(city="new_york", city_side=side, threat=0))


def test_robot_room_makes_an_exhausted_robot_that_later_works_like_a_die():
    rules, st = ny("damaged")
    s = st.s
    clear_sky(s)
    s[E.EXCAV] = 12  # rows 1-2 dug (and still after the next "excavator back 2")
    robot_room = cell(1, 1)  # upper C: B-1 c1
    rooms_phase(s, {robot_room: 5})
    s[E.ENERGY] = 3
    rules.step(st, E.A_ROOM + room_of(st, robot_room))
    assert s[E.PHASE] == E.P_ROBOT and s[E.PENDING_ROBOT] == 4
    research = cell(2, 2)  # R+1 c2
    s[E.ENERGY] = 5  # energy to spare: the rooms phase goes on after the robot is made
    s[E.AHEAD] = cell(3, 1)  # and the excavator could still move
    assert E.A_ROBOT + research * 3 + 0 in rules.legal(st)
    rules.step(st, E.A_ROBOT + research * 3 + 0)
    assert (s[E.ROBOT_VAL], s[E.ROBOT_CELL], s[E.ROBOT_EXH]) == (4, research, 1)
    assert s[E.PHASE] == E.P_ROOMS
    assert E.A_ROOM + room_of(st, research) not in rules.legal(st)  # exhausted this round
    rules.step(st, E.A_END)
    while s[E.PHASE] == E.P_SPAWN:
        rules.step(st, rules.legal(st)[0])
    assert s[E.ROBOT_EXH] == 0
    # next round: place the five dice on the AA guns, then use the robot
    for d in range(5):
        col = [c for c in range(5) if s[E.COL_USED + c] == 0][0]
        rules.step(st, E.A_PLACE + d * 30 + col)
    s[E.ENERGY] = 4
    s[E.RESEARCH] = 0
    rules.step(st, E.A_ROOM + room_of(st, research))
    # robot 4 + modifier 1 + the damaged side's +1 per robot = 6: New York's damaged
    # side starts its track with a 3, then tile 1's 3: two spaces
    assert s[E.RESEARCH] == 2
    assert s[E.ROBOT_VAL] == 3  # one pip used (the phase then ended by itself: nothing left to do)


def test_robot_at_one_is_removed_after_use():
    rules, st = ny("damaged")
    s = st.s
    s[E.ROBOT_VAL] = 1
    s[E.ROBOT_CELL] = cell(2, 2)
    rooms_phase(s, {})
    s[E.ENERGY] = 4
    rules.step(st, E.A_ROOM + room_of(st, cell(2, 2)))
    assert s[E.ROBOT_VAL] == 0


def test_new_york_normal_side_allows_one_robot():
    rules, st = ny("normal")
    s = st.s
    s[E.ROBOT_VAL] = 3
    s[E.ROBOT_CELL] = cell(2, 4)
    robot_room = cell(1, 1)
    rooms_phase(s, {robot_room: 4})
    s[E.ENERGY] = 3
    rules.step(st, E.A_ROOM + room_of(st, robot_room))
    legal = rules.legal(st)
    # every installation must remove the standing robot (drop = 1)
    assert all(a == E.A_ROBOT_DECLINE or (a - E.A_ROBOT) % 3 == 1 for a in legal)


def test_a_worker_die_displaces_a_robot():
    rules, st = ny("damaged")
    s = st.s
    s[E.ROBOT_VAL] = 3
    s[E.ROBOT_CELL] = cell(1, 2)
    s[E.DIE_VAL] = 2
    rules.step(st, E.A_PLACE + 0 * 30 + cell(1, 2))
    assert s[E.ROBOT_VAL] == 0


def test_rooms_phase_ends_by_itself_when_nothing_is_left():
    rules, st = make()
    s = st.s
    clear_sky(s)
    for d in range(5):  # every die on the AA guns: no room to use, nothing to dig
        rules.step(st, E.A_PLACE + d * 30 + d)
    assert s[E.MS] == 1 and s[E.PHASE] in (E.P_PLACE, E.P_SPAWN)  # the mothership phase came


def test_excavator_pushed_back_buries_robots():
    rules, st = make(UFSParams(city="washington", threat=0))
    s = st.s
    clear_sky(s)
    s[E.EXCAV] = 12
    s[E.ROBOT_VAL] = 3
    s[E.ROBOT_CELL] = cell(3, 2)  # path position 12
    s[E.MS] = 1  # next row (2): excavator back 2
    rooms_phase(s, {})
    rules.step(st, E.A_END)
    assert s[E.EXCAV] == 10 and s[E.ROBOT_VAL] == 0


def test_roswell_damaged_side_first_damage_moves_research_up():
    rules, st = make(UFSParams(city_side="damaged", threat=0))
    s = st.s
    clear_sky(s)
    put_ship(s, 0, 15, 1)
    put_ship(s, 1, 15, 2)
    s[E.DIE_VAL + 0] = 3
    s[E.DIE_VAL + 1] = 3
    rules.step(st, E.A_PLACE + 0 * 30 + cell(1, 1))
    assert (s[E.DAMAGE], s[E.RESEARCH]) == (1, 1)
    rules.step(st, E.A_PLACE + 1 * 30 + cell(1, 2))
    assert (s[E.DAMAGE], s[E.RESEARCH]) == (2, 1)  # only the first time


def test_washington_normal_side_sets_a_white_die_to_six():
    for seed in range(5):
        _, st = make(UFSParams(city="washington", threat=0), seed=seed)
        assert st.s[E.DIE_VAL + 3] == 6


def test_washington_damaged_side_may_turn_a_die_to_six():
    rules, st = make(UFSParams(city="washington", city_side="damaged", threat=0))
    s = st.s
    assert s[E.PHASE] == E.P_SIX
    assert sorted(rules.legal(st)) == [E.A_SIX + d for d in range(5)] + [E.A_SIX_SKIP]
    rules.step(st, E.A_SIX + 1)
    assert s[E.DIE_VAL + 1] == 6 and s[E.PHASE] == E.P_PLACE


# ---------------------------------------------------------------- R3.3 threat level
@pytest.mark.parametrize("threat", range(5))
def test_threat_level_flips_that_many_tiles(threat):
    seen = set()
    for seed in range(40):
        _, st = make(UFSParams(threat=threat), seed=seed)
        flips = int(st.s[E.FLIPS])
        assert bin(flips).count("1") == threat
        seen.add(flips)
    assert len(seen) == {0: 1, 1: 4, 2: 6, 3: 4, 4: 1}[threat]  # every combination occurs


def test_threatening_tile_2_moves_the_skull_up():
    skulls = set()
    for seed in range(20):
        _, st = make(UFSParams(threat=4), seed=seed)
        skulls.add(int(st.s[E.SKULL]))
    assert skulls == {11}
    _, st = make(UFSParams(threat=0))
    assert st.s[E.SKULL] == 12


def test_research_track_lengths_per_city():
    """Roswell: 16 sky spaces; New York and Washington add one space below."""
    assert make(UFSParams(threat=0))[1].s[E.RLEN] == 16
    _, st = make(UFSParams(city="new_york", threat=0))
    assert st.s[E.RLEN] == 17 and st.s[E.RCOST + 1] == 2
    _, st = make(UFSParams(city="washington", threat=0))
    assert st.s[E.RLEN] == 17 and st.s[E.RCOST + 1] == 6
    _, st = make(UFSParams(threat=0))
    costs = [int(st.s[E.RCOST + i]) for i in range(1, 17)]
    assert costs == [3, 1, 3, 1, 4, 1, 3, 2, 1, 6, 1, 3, 5, 1, 3, 11] and sum(costs) == 49


def test_room_modifiers_do_not_change_ship_movement():
    """Page 6: 'os modificadores das instalações não têm efeito sobre o movimento das naves'."""
    rules, st = make()
    s = st.s
    clear_sky(s)
    put_ship(s, 0, 8, 1)
    s[E.DIE_VAL + 0] = 4
    rules.step(st, E.A_PLACE + 0 * 30 + cell(1, 1))  # J-1: the room is worth 3, the ship moves 4
    assert s[E.SHIP_ROW + 0] == 12


def test_crossing_a_2_then_a_3_needs_a_5():
    """Page 6: 'para poder ultrapassar o 2 e terminar o seu movimento num 3, é necessária uma
    instalação com um valor de 5 ou mais'."""
    for value, reached in ((4, 1), (5, 2)):
        rules, st = make()
        s = st.s
        s[E.RCOST + 1] = 2
        s[E.RCOST + 2] = 3
        rooms_phase(s, {cell(1, 2): value})  # R+0 c2
        s[E.ENERGY] = 2
        rules.step(st, E.A_ROOM + room_of(st, cell(1, 2)))
        assert s[E.RESEARCH] == reached


def test_only_a_multi_cell_research_room_reaches_the_11():
    """Page 9: 'a única maneira de alcançar a casa 11 é usar uma instalação de pesquisa com
    várias casas na metade inferior da sua base' (Roswell's data)."""
    from simkit.games.ufs.board import B_NROOMS, B_ROOM_KIND, B_ROOM_MOD, B_ROOM_NCELLS, ROOM_RESEARCH

    _, st = make()
    b = st.b
    best_single, multi = 0, []
    for r in range(b[B_NROOMS]):
        if b[B_ROOM_KIND + r] != ROOM_RESEARCH:
            continue
        top = 6 * b[B_ROOM_NCELLS + r] + b[B_ROOM_MOD + r]
        if b[B_ROOM_NCELLS + r] == 1:
            best_single = max(best_single, top)
        else:
            multi.append(top)
    assert best_single < 11 and max(multi) >= 11


def test_readings_of_the_damage_rows_and_the_energy_cap():
    """single_damage_rows=none removes exactly the two SINGLE-sourced '1 damage' actions
    (tile 4 threatening row 4, tile 2 threatening row 9); energy_rule=strict lowers the
    energy cap by one, like damage_rule=strict the damage limit."""
    from simkit.games.ufs import board as UB
    from simkit.games.ufs.params import UFSParams

    default, none = UB.build(UFSParams()), UB.build(UFSParams(single_damage_rows="none"))
    kind = lambda b: b[UB.B_MS_KIND:UB.B_MS_KIND + 32].reshape(4, 2, 4)  # noqa: E731 (slot 0 = tile 4, side 1 = threatening)
    changed = np.argwhere(kind(default) != kind(none))
    assert sorted(map(tuple, changed)) == [(0, 1, 3), (2, 1, 0)]
    assert (kind(default)[0, 1, 3], kind(none)[0, 1, 3]) == (UB.ACT_DAMAGE, UB.ACT_NONE)
    assert (kind(default)[2, 1, 0], kind(none)[2, 1, 0]) == (UB.ACT_DAMAGE, UB.ACT_NONE)
    actions = np.arange(UB.B_MS_KIND, UB.B_MS_AMT + 32)  # the actions' kinds and amounts
    assert np.array_equal(np.delete(default, actions), np.delete(none, actions))
    for city, cap in (("roswell", 7), ("new_york", 8), ("washington", 9)):
        assert UB.build(UFSParams(city=city))[UB.B_EMAX] == cap
        assert UB.build(UFSParams(city=city, energy_rule="strict"))[UB.B_EMAX] == cap - 1
