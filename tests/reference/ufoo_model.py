"""Ufo.O (Fabio De Mori, 2009): an independent, plain-Python model of the rules.

Written from the Italian rulebook (``shared/rules/ufo-o.it.txt``), the reference's board
stand-in (``other-games.md`` section 3) and the interface extract of the specification (its
settings = readings A1-A37, its decision structure and its order of chance events R13). It
does not read the engine. Every rule is a small method whose docstring quotes the rulebook
sentence it implements (Italian, then English) and, where the text is open, the reading
(A-number of the interface) and the setting that selects it.

The model never draws chance itself: it asks a ``chance`` object (``die(tag) -> 1..6``) for
each die, in the order of the interface's R13. ``RandomChance`` and ``ScriptedChance`` below
are two such objects.

Actions are semantic tuples (``ACTION_KINDS``); ``action_id``/``action_of_id`` translate them
to and from the specification's 685 action ids.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

# --- constants of the rulebook (C5, C13) ------------------------------------------------------

SEATS = 2
UFOS = 4  # "4 segnalini tondi per giocatore rappresentanti degli Ufo"
MOVE_ALLOWANCE = 5  # "fino ad un massimo di cinque esagoni"
HIT = 4  # "da 4 a 6" (ion cannon, mothership lasers, repair)
MAX_CELLS = 128  # action ids reserve one id per cell (interface, "Action ids")

# Phases (decision points of the interface).
MOVE, ATTACK, PUSH = "move", "attack", "push"

# UFO statuses (model's own names, documented in Model.snapshot):
BOARD = "board"  # on a hex of the sheet
READY = "ready"  # on its mothership's picture, may leave this turn
WAITING = "waiting"  # on its mothership's picture, put there this turn (respawn_delay=next_turn)
DESTROYED = "destroyed"  # removed from the sheet, not yet put back on its mothership

# Settings and their defaults (interface table "Settings"; the test checks them against params.py).
DEFAULTS: dict = {
    "board": "",
    "turn_cap": 200,
    "first_player": "roll",
    "fire_lines": "straight",
    "ufos_block_fire": False,
    "mothership_blocks_fire": False,
    "attacks_per_turn": "per_ufo",
    "no_target_ends_turn": False,
    "damaged_defender_malus": True,
    "ion_backfire_zero": True,
    "push_optional": True,
    "push_length": "exact",
    "push_path": "any",
    "push_through": "like_move",
    "push_blocked": "shorten",
    "push_off_board": "blocked",
    "push_into_asteroid": "blocked",
    "asteroid_check": "all",
    "asteroid_roll_timing": "end_of_movement",
    "mothership_attack_from": "all",
    "mothership_ion_backfire": True,
    "mothership_attack_uses_attack": True,
    "mothership_fire": "any_time",
    "mothership_volley": "per_ufo",
    "respawn_delay": "next_turn",
    "launch_cost": 0,
}

CHOICES: dict = {
    "first_player": ("roll", "seat1", "seat2"),
    "fire_lines": ("straight", "any"),
    "ufos_block_fire": (False, True),
    "mothership_blocks_fire": (False, True),
    "attacks_per_turn": ("per_ufo", "one"),
    "no_target_ends_turn": (False, True),
    "damaged_defender_malus": (True, False),
    "ion_backfire_zero": (True, False),
    "push_optional": (True, False),
    "push_length": ("exact", "up_to"),
    "push_path": ("any", "straight", "away"),
    "push_through": ("like_move", "empty", "any"),
    "push_blocked": ("shorten", "none"),
    "push_off_board": ("blocked", "destroyed"),
    "push_into_asteroid": ("blocked", "destroyed"),
    "asteroid_check": ("all", "moved"),
    "asteroid_roll_timing": ("end_of_movement", "after_each_move"),
    "mothership_attack_from": ("all", "moved"),
    "mothership_ion_backfire": (True, False),
    "mothership_attack_uses_attack": (True, False),
    "mothership_fire": ("any_time", "start", "end"),
    "mothership_volley": ("per_ufo", "single"),
    "respawn_delay": ("next_turn", "same_turn"),
    "launch_cost": (0, 1),
}

# Output columns (interface, "Output columns").
SEAT_COLUMNS = (
    "won", "first", "structure", "ms_hits", "kills", "ufos_lost", "lasers", "laser_wins",
    "defences_won", "ions", "ms_attacks", "backfires", "repairs", "repairs_ok",
    "asteroid_damage", "pushes", "volley_hits",
)
GAME_COLUMNS = ("draw", "turns", "rounds", "first_seat", "winner")
COUNTERS = tuple(c for c in SEAT_COLUMNS if c not in ("won", "first", "structure"))


# ============================================================================================
# Hex geometry, written from the board's coordinate convention (not from geometry.py):
# a cell is (col, row), row 0 at the top, pointy-top hexes, odd rows shifted half a hex east.
# ============================================================================================

DIRECTIONS = ("E", "NE", "NW", "W", "SW", "SE")
_STEP_EVEN = ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1))
_STEP_ODD = ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1))


def hex_step(cell, d):
    """The cell one step from ``cell`` in direction ``d`` (0-5 = E, NE, NW, W, SW, SE); may be
    off the grid."""
    col, row = cell
    dc, dr = (_STEP_ODD if row & 1 else _STEP_EVEN)[d % 6]
    return (col + dc, row + dr)


def cube(cell):
    """Cube coordinates (x, y, z), x + y + z = 0, of an odd-r offset cell."""
    col, row = cell
    x = col - (row - (row & 1)) // 2
    z = row
    return (x, -x - z, z)


def hex_distance(a, b):
    ax, ay, az = cube(a)
    bx, by, bz = cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def on_straight_line(a, b):
    """``b`` lies on one of the six straight hex lines through ``a`` (one cube difference is 0)."""
    ax, ay, az = cube(a)
    bx, by, bz = cube(b)
    return a != b and 0 in (ax - bx, ay - by, az - bz)


def all_neighbours(cell):
    """The six cells next to ``cell``, in direction order, on the grid or not."""
    return [hex_step(cell, d) for d in range(6)]


def cells_between(a, b):
    """For two cells 2 apart: the hexes a line of fire from ``a`` to ``b`` crosses: the one hex
    in between on a straight line, or the two hexes touching both otherwise (sorted)."""
    assert hex_distance(a, b) == 2
    return sorted(n for n in all_neighbours(a) if hex_distance(n, b) == 1)


def direction_of(a, b):
    """The direction d with ``b`` = ``a`` stepped k >= 1 times along d (None if not on a line)."""
    if not on_straight_line(a, b):
        return None
    for d in range(6):
        c = a
        for _ in range(hex_distance(a, b)):
            c = hex_step(c, d)
        if c == b:
            return d
    return None


# ============================================================================================
# Chance objects
# ============================================================================================


class RandomChance:
    """Draws dice from a seeded ``random.Random``; keeps a log of (tag, face)."""

    def __init__(self, seed=0):
        self.rng = random.Random(seed)
        self.log = []

    def die(self, tag):
        face = self.rng.randint(1, 6)
        self.log.append((tag, face))
        return face

    def shuffle(self, tag, items):
        items = list(items)
        self.rng.shuffle(items)
        return items

    def choice(self, tag, k):
        return self.rng.randrange(k)


class ScriptedChance:
    """Hands out given faces in order. ``tags`` (optional, same length) checks that each die is
    asked for the expected purpose (a prefix match). Raises when asked for more dice than given."""

    def __init__(self, faces, tags=None):
        self.faces = list(faces)
        self.tags = list(tags) if tags is not None else None
        self.used = []

    def die(self, tag):
        if not self.faces:
            raise AssertionError(f"chance exhausted: die asked for {tag!r} after {self.used}")
        if self.tags is not None:
            want = self.tags.pop(0)
            if not tag.startswith(want):
                raise AssertionError(f"die asked for {tag!r}, script expected {want!r}")
        face = self.faces.pop(0)
        if not 1 <= face <= 6:
            raise AssertionError(f"scripted face {face} is not 1-6")
        self.used.append((tag, face))
        return face

    def shuffle(self, tag, items):  # Ufo.O has no decks
        raise AssertionError("Ufo.O never shuffles")

    def choice(self, tag, k):
        raise AssertionError("Ufo.O never makes a uniform choice")

    def exhausted(self):
        return not self.faces


# ============================================================================================
# Action ids (interface, "Action ids")
# ============================================================================================

ACTION_KINDS = (
    "move",  # ("move", k, col, row): move (or launch) own UFO k to (col, row)
    "end_move",  # ("end_move",)
    "volley",  # ("volley",): the active player's mothership fires its lasers
    "laser",  # ("laser", k, j): own UFO k fires lasers at enemy UFO j
    "ion",  # ("ion", k, j): own UFO k fires the ion cannon at enemy UFO j
    "ion_ms",  # ("ion_ms", k): own UFO k fires the ion cannon at the enemy mothership
    "repair",  # ("repair", k)
    "end_turn",  # ("end_turn",)
    "push",  # ("push", col, row): the duel's winner pushes the loser to (col, row)
    "no_push",  # ("no_push",)
    "crash",  # ("crash",): the loser is pushed off the sheet / into an asteroid and destroyed
)


def action_id(action, cols):
    kind = action[0]
    if kind == "move":
        _, k, col, row = action
        return k * MAX_CELLS + row * cols + col
    if kind == "end_move":
        return 512
    if kind == "volley":
        return 513
    if kind == "laser":
        return 514 + action[1] * 4 + action[2]
    if kind == "ion":
        return 530 + action[1] * 4 + action[2]
    if kind == "ion_ms":
        return 546 + action[1]
    if kind == "repair":
        return 550 + action[1]
    if kind == "end_turn":
        return 554
    if kind == "push":
        _, col, row = action
        return 555 + row * cols + col
    if kind == "no_push":
        return 683
    if kind == "crash":
        return 684
    raise ValueError(f"unknown action {action!r}")


def action_of_id(i, cols):
    if 0 <= i < 512:
        k, c = divmod(i, MAX_CELLS)
        return ("move", k, c % cols, c // cols)
    if i == 512:
        return ("end_move",)
    if i == 513:
        return ("volley",)
    if 514 <= i < 530:
        return ("laser", *divmod(i - 514, 4))
    if 530 <= i < 546:
        return ("ion", *divmod(i - 530, 4))
    if 546 <= i < 550:
        return ("ion_ms", i - 546)
    if 550 <= i < 554:
        return ("repair", i - 550)
    if i == 554:
        return ("end_turn",)
    if 555 <= i < 683:
        c = i - 555
        return ("push", c % cols, c // cols)
    if i == 683:
        return ("no_push",)
    if i == 684:
        return ("crash",)
    raise ValueError(f"action id {i} out of range")


# ============================================================================================
# The model
# ============================================================================================


@dataclass
class Ufo:
    status: str = BOARD
    cell: tuple | None = None
    damaged: bool = False  # red side up
    moved: bool = False  # made its move this turn (changed hex, or left the mothership)
    attacked: bool = False  # made a laser or ion attack on a UFO this turn
    ms_attacked: bool = False  # fired its ion cannon at the enemy mothership this turn
    repaired: bool = False  # gave up its attack to try a repair this turn


@dataclass
class PendingPush:
    loser_seat: int
    loser_ufo: int
    winner_seat: int
    length: int
    winner_cell: tuple


@dataclass
class Stats:
    counters: dict = field(default_factory=lambda: {c: [0, 0] for c in COUNTERS})

    def add(self, column, seat, n=1):
        self.counters[column][seat] += n


class Model:
    """Ufo.O, one game. ``settings``: name -> value (missing names take the defaults);
    ``data``: the :class:`simkit.games.ufoo.data_model.Board` the loader returns."""

    # ----------------------------------------------------------------------------------------
    # construction
    # ----------------------------------------------------------------------------------------

    def __init__(self, settings, data):
        s = dict(DEFAULTS)
        s.update(settings or {})
        for k, v in s.items():
            if k in CHOICES and v not in CHOICES[k]:
                raise ValueError(f"setting {k}={v!r}: expected one of {CHOICES[k]}")
        if not 2 <= int(s["turn_cap"]) <= 100000:
            raise ValueError("turn_cap must be 2-100000")
        if s["push_path"] == "away" and s["fire_lines"] == "any":
            raise ValueError("push_path=away needs fire_lines=straight")
        self.s = s
        self.cols, self.rows = data.cols, data.rows
        self.asteroids = frozenset(tuple(c) for c in data.asteroids)
        ships = sorted(data.motherships, key=lambda m: m.index)
        self.ms_cells = frozenset(tuple(c) for m in ships for c in m.cells)
        self.launch = [tuple(tuple(c) for c in m.launch) for m in ships]
        self.start_structure = [m.structure for m in ships]
        # state (set by setup)
        self.turn = 0
        self.active = 0
        self.first = None
        self.phase = None
        self.structure = list(self.start_structure)
        self.ufos = [[Ufo() for _ in range(UFOS)] for _ in range(SEATS)]
        self.attacks_made = 0
        self.volley_fired = False
        self.push = None
        self.game_over = False
        self.winner = -1
        self.draw = False
        self.stats = Stats()
        self._legal_cache = None  # legal() of the current state (cleared by every change)

    # ----------------------------------------------------------------------------------------
    # board facts
    # ----------------------------------------------------------------------------------------

    def on_grid(self, cell):
        return 0 <= cell[0] < self.cols and 0 <= cell[1] < self.rows

    def is_hex(self, cell):
        """A hex a UFO may stand on: on the sheet, not an asteroid bank, not a mothership picture
        (A34: the picture is not one of the hexes)."""
        return self.on_grid(cell) and cell not in self.asteroids and cell not in self.ms_cells

    def occupancy(self):
        """cell -> (seat, k) of the UFO on it, for every UFO on the sheet."""
        return {u.cell: (seat, k) for seat in range(SEATS) for k, u in enumerate(self.ufos[seat]) if u.status == BOARD}

    def occupant(self, cell):
        """(seat, k) of the UFO on ``cell``, or None."""
        return self.occupancy().get(cell)

    def next_to_asteroid(self, cell):
        """Asteroids: "... in un esagono adiacente ad essi" (in a hex adjacent to them)."""
        return any(n in self.asteroids for n in all_neighbours(cell))

    # ----------------------------------------------------------------------------------------
    # R2 set-up and first player
    # ----------------------------------------------------------------------------------------

    def setup(self, chance):
        """Set-up, then the first turn, then play up to the first real decision (R13.1)."""
        self._legal_cache = None
        self.rule_structure_start()
        self.rule_deploy_ufos()
        self.first = self.rule_first_player(chance)
        self.active = self.first
        self.turn = 1
        self.rule_turn_start(chance)
        self._advance(chance)

    def rule_structure_start(self):
        """"Ogni giocatore pone il segnalino dell'Astronave Madre sul valore 5 della scala
        numerata sul proprio lato di gioco." -- Each player puts his mothership marker on the
        value 5 of the numbered scale on his side. (The value comes from the board file.)"""
        self.structure = list(self.start_structure)

    def rule_deploy_ufos(self):
        """"Ognuno dispone poi i propri dischetti Ufo (dal lato con lo sfondo blu verso l'alto),
        sui quattro esagoni adiacenti alla figura della corrispondente Astronave Madre." --
        Each then puts his UFO discs (blue side up) on the four hexes adjacent to the picture of
        his mothership. (UFO k on launch hex k of the board file.)"""
        for seat in range(SEATS):
            for k in range(UFOS):
                self.ufos[seat][k] = Ufo(status=BOARD, cell=self.launch[seat][k], damaged=False)

    def rule_first_player(self, chance):
        """"Tirate un dado da 6; chi ottiene il valore più alto inizia per primo. In caso di
        parità, tirate nuovamente." -- Roll a six-sided die; the higher starts. On a tie, roll
        again. (A32: seat 0's die, then seat 1's; ``first_player=seat1|seat2`` fixes it
        without dice: the model's seat 0 is seat 1 to users.)"""
        fp = self.s["first_player"]
        if fp == "seat1":
            return 0
        if fp == "seat2":
            return 1
        while True:
            d0 = chance.die("first player seat 0")
            d1 = chance.die("first player seat 1")
            if d0 != d1:
                return 0 if d0 > d1 else 1

    # ----------------------------------------------------------------------------------------
    # R3 the turn; R8 respawn
    # ----------------------------------------------------------------------------------------

    def rule_turn_start(self, chance):
        """Start of the active player's turn: respawn (R8), fresh per-turn limits, and with
        ``mothership_fire=start`` the mothership's volley (A22)."""
        self.rule_respawn()
        for seat in range(SEATS):
            for u in self.ufos[seat]:
                u.moved = u.attacked = u.ms_attacked = u.repaired = False
        self.attacks_made = 0
        self.volley_fired = False
        self.push = None
        self.phase = MOVE
        if self.s["mothership_fire"] == "start":
            self.rule_volley(chance)

    def rule_respawn(self):
        """"All'inizio del proprio turno, un giocatore pone tutti i suoi Ufo precedentemente
        distrutti sull'immagine della propria Astronave Madre. A partire dal suo turno
        successivo potrà nuovamente muoverli e farli attaccare" -- At the start of his turn a
        player puts all his previously destroyed UFOs on his mothership's picture. From his next
        turn he may move them and attack with them again. (A26: ``respawn_delay=next_turn``
        literal; ``same_turn``: at once. A28: they come back healthy.)"""
        mine = self.ufos[self.active]
        for u in mine:  # those put on the picture at the start of his previous turn
            if u.status == WAITING:
                u.status = READY
        for u in mine:
            if u.status == DESTROYED:
                u.status = WAITING if self.s["respawn_delay"] == "next_turn" else READY
                u.cell = None
                u.damaged = False

    def rule_end_turn(self, chance):
        """"... il turno passa all'avversario." -- the turn passes to the opponent. With
        ``mothership_fire=end`` the volley first (A22); the game is a draw after ``turn_cap``
        turns (A33)."""
        if self.s["mothership_fire"] == "end":
            self.rule_volley(chance)
        if self.turn >= self.s["turn_cap"]:
            self.draw = True
            self.game_over = True
            self.winner = -1
            self.phase = None
            return
        self.turn += 1
        self.active = 1 - self.active
        self.rule_turn_start(chance)

    def rule_end_move(self, chance):
        """"Alla fine del movimento di tutti i suoi Ufo, controlla se uno o più degli Ufo
        avversari si trovano in traiettoria di tiro entro un esagono con i suoi. Nel caso in cui
        ciò si verifichi, può effettuare un attacco contro quelli nemici [...]. In caso contrario
        il turno passa all'avversario." -- At the end of the movement of all his UFOs he checks
        whether enemy UFOs are in the line of fire; if so he may attack; otherwise the turn
        passes. First the movement's asteroid rolls (R10); then the attack phase (A37 default),
        or with ``no_target_ends_turn`` and no UFO target the turn ends at once."""
        self.rule_asteroid_rolls_after_movement(chance)
        if self.s["no_target_ends_turn"] and not self._ufo_attacks():
            self.rule_end_turn(chance)
        else:
            self.phase = ATTACK

    # ----------------------------------------------------------------------------------------
    # R4 movement
    # ----------------------------------------------------------------------------------------

    def rule_move_destinations(self, seat, k):
        """"Ogni giocatore, nel suo turno, può muovere ognuno dei suoi Ufo fino ad un massimo di
        cinque esagoni. Nell'effettuare il movimento può passare attraverso esagoni occupati da
        navicelle amiche, ma non da quelle nemiche." -- Each player may move each of his UFOs up
        to five hexes, passing through hexes of friendly ships but not of enemy ones.
        "I banchi di asteroidi [...] non possono essere attraversati dalle navicelle." --
        Asteroid banks cannot be crossed. A move ends on an empty hex (A34), never on its own
        starting hex (that is not a move). A UFO on its mothership "facendo iniziare il loro
        movimento su uno dei quattro esagoni adiacenti all'immagine dell'Astronave (se questi
        non sono occupati da navicelle nemiche)" -- starts its move on one of the four launch
        hexes not held by enemies (A27: ``launch_cost`` 0 = free, 1 = the launch hex is the
        first step; A29: a launch hex held by a friend may be passed)."""
        u = self.ufos[seat][k]
        occupied = self.occupancy()
        if u.status == BOARD:
            starts = {u.cell: 0}
        elif u.status == READY:
            starts = {}
            for c in self.launch[seat]:
                occ = occupied.get(c)
                if occ is None or occ[0] == seat:
                    starts[c] = int(self.s["launch_cost"])
        else:
            return []
        dist = dict(starts)
        todo = deque(sorted(starts))
        while todo:
            c = todo.popleft()
            if dist[c] >= MOVE_ALLOWANCE:
                continue
            for n in all_neighbours(c):
                if n in dist or not self.is_hex(n):
                    continue
                occ = occupied.get(n)
                if occ is not None and occ[0] != seat:
                    continue  # "ma non da quelle nemiche"
                dist[n] = dist[c] + 1
                todo.append(n)
        return sorted(c for c, d in dist.items() if d <= MOVE_ALLOWANCE and c not in occupied)

    def rule_move(self, k, cell, chance):
        """Move (or launch) UFO k to ``cell``; each UFO moves once per turn (A34). With
        ``asteroid_roll_timing=after_each_move`` the asteroid die is rolled at once (A16)."""
        u = self.ufos[self.active][k]
        u.status = BOARD
        u.cell = cell
        u.moved = True
        if self.s["asteroid_roll_timing"] == "after_each_move" and self.next_to_asteroid(cell):
            self.rule_asteroid_roll(self.active, k, chance, "asteroid after move", pusher=None)

    # ----------------------------------------------------------------------------------------
    # R5 line of fire
    # ----------------------------------------------------------------------------------------

    def rule_line_of_fire(self, a, b):
        """"controlla se uno o più degli Ufo avversari si trovano in traiettoria di tiro entro un
        esagono con i suoi" -- enemy UFOs in firing trajectory within one hex: exactly 2 hexes
        away (one hex in between), on a straight hex line (A1 ``fire_lines=straight``) or
        anywhere at distance 2 (``any``). "(Nb: Il combattimento tra Ufo su esagoni adiacenti
        non è consentito.)" -- no combat between adjacent UFOs (distance 1 is never in range).
        "Un Ufo può colpire una navicella avversaria se la linea di vista non è interrotta dai
        banchi di asteroidi." -- the line of sight must not be interrupted by asteroids. Off a
        straight line the shot passes between two hexes and is blocked only if both block."""
        if hex_distance(a, b) != 2:
            return False
        if self.s["fire_lines"] == "straight" and not on_straight_line(a, b):
            return False
        return not all(self.rule_blocks_fire(c) for c in cells_between(a, b))

    def rule_blocks_fire(self, cell):
        """"I banchi di asteroidi bloccano la linea di vista nei combattimenti" -- asteroid banks
        block the line of sight. A2 ``ufos_block_fire``: a UFO in between also blocks; A3
        ``mothership_blocks_fire``: a mothership picture also blocks. A hex off the sheet holds
        nothing and does not block."""
        if not self.on_grid(cell):
            return False
        if cell in self.asteroids:
            return True
        if self.s["ufos_block_fire"] and self.occupant(cell) is not None:
            return True
        if self.s["mothership_blocks_fire"] and cell in self.ms_cells:
            return True
        return False

    # ----------------------------------------------------------------------------------------
    # R6 attacks between UFOs
    # ----------------------------------------------------------------------------------------

    def rule_may_attack(self, k):
        """"(una navicella può compiere un solo attacco per turno)" -- a ship makes only one
        attack per turn (A4 ``attacks_per_turn=one``: one attack per player; A20
        ``mothership_attack_uses_attack``: the mothership attack is that one attack; A30: a
        repair gives the attack up)."""
        u = self.ufos[self.active][k]
        if u.status != BOARD or u.attacked or u.repaired:
            return False
        if self.s["mothership_attack_uses_attack"] and u.ms_attacked:
            return False
        if self.s["attacks_per_turn"] == "one" and self.attacks_made > 0:
            return False
        return True

    def rule_attack_roll(self, face, ufo):
        """"(Nb: un Ufo danneggiato subisce un -1 al risultato di ogni tiro di attacco)" -- a
        damaged UFO has -1 on the result of every attack roll."""
        return face - (1 if ufo.damaged else 0)

    def rule_damage(self, seat, k, by=None):
        """"infligge un danno all'avversario. Questo viene capovolto con lo sfondo rosso verso
        l'alto; se invece si trovava già in questa condizione, viene distrutto e rimosso dal
        tabellone." -- a damage turns the disc red side up; if it was already red, it is
        destroyed and removed from the board (A31: every damage, backfires included). ``by``:
        the seat credited with a kill."""
        u = self.ufos[seat][k]
        if u.damaged:
            self.rule_destroy(seat, k, by)
        else:
            u.damaged = True

    def rule_destroy(self, seat, k, by=None):
        """Destroyed: removed from the sheet ("rimosso dal tabellone"); it comes back at its
        owner's next turn start (R8), healthy."""
        u = self.ufos[seat][k]
        u.status = DESTROYED
        u.cell = None
        u.damaged = False
        self.stats.add("ufos_lost", seat)
        if by is not None:
            self.stats.add("kills", by)

    def rule_laser(self, k, j, chance):
        """"Laser = entrambi gli Ufo tirano il dado (l'attaccante il rosso ed il difensore il
        blu), chi ottiene il risultato più alto infligge un danno all'avversario." -- both UFOs
        roll (attacker red, defender blue); the higher result damages the other. "In caso di
        parità di risultati vince l'attaccante, ma la navicella avversaria non viene spostata."
        -- on a tie the attacker wins, but the enemy ship is not moved. "Inoltre il giocatore
        che ha vinto lo scontro, può spostare a piacimento la navicella avversaria, del numero
        di esagoni pari alla differenza tra i due risultati ottenuti." -- moreover the winner
        may move the enemy ship as he pleases by the difference of the two results (A14: damage
        first; a destroyed loser is not pushed). A5 ``damaged_defender_malus``: the defender's
        die also gets the -1 when it is damaged."""
        a, o = self.active, 1 - self.active
        att, dfd = self.ufos[a][k], self.ufos[o][j]
        ra = self.rule_attack_roll(chance.die("laser attacker"), att)
        fd = chance.die("laser defender")
        rd = self.rule_attack_roll(fd, dfd) if self.s["damaged_defender_malus"] else fd
        att.attacked = True
        self.attacks_made += 1
        self.stats.add("lasers", a)
        if ra >= rd:
            winner, loser = (a, k), (o, j)
            self.stats.add("laser_wins", a)
        else:
            winner, loser = (o, j), (a, k)
            self.stats.add("defences_won", o)
        winner_cell = self.ufos[winner[0]][winner[1]].cell
        self.rule_damage(loser[0], loser[1], by=winner[0])
        if self.ufos[loser[0]][loser[1]].status == BOARD and ra != rd:
            self.push = PendingPush(loser[0], loser[1], winner[0], abs(ra - rd), winner_cell)
            self.phase = PUSH

    def rule_ion(self, k, j, chance):
        """"Cannone ionico = l'Ufo attaccante tira il dado rosso, se ottiene da 4 a 6 la
        navicella avversaria è distrutta. Se invece il risultato è 1 o 2, l'Ufo che ha compiuto
        l'attacco viene danneggiato a seguito di uno scompensamento energetico." -- the attacker
        rolls: 4-6 destroys the enemy ship; 1 or 2 damages the attacker (energy backlash). A6
        ``ion_backfire_zero``: a result of 0 (damaged, rolled 1) backfires too. A25: same line
        of fire as lasers."""
        a, o = self.active, 1 - self.active
        att = self.ufos[a][k]
        r = self.rule_attack_roll(chance.die("ion attacker"), att)
        att.attacked = True
        self.attacks_made += 1
        self.stats.add("ions", a)
        if r >= HIT:
            self.rule_destroy(o, j, by=a)
        elif self.rule_backfires(r):
            self.stats.add("backfires", a)
            self.rule_damage(a, k, by=None)

    def rule_backfires(self, r):
        """"Se invece il risultato è 1 o 2" -- a result of 1 or 2 backfires; 0 too with
        ``ion_backfire_zero`` (A6)."""
        return r in (1, 2) or (r <= 0 and self.s["ion_backfire_zero"])

    # ----------------------------------------------------------------------------------------
    # R6.4 the push
    # ----------------------------------------------------------------------------------------

    def rule_push_options(self):
        """The winner's options for the pending push: (destinations, crash possible).

        "può spostare a piacimento la navicella avversaria, del numero di esagoni pari alla
        differenza" -- may move the enemy ship as he pleases by a number of hexes equal to the
        difference. A8 ``push_length``: exactly / up to; a push path never enters a hex twice.
        A9 ``push_path``: any path / straight line / straight away from the winner. A10
        ``push_through``: hexes it may pass (like a move: empty or the loser's friends; empty;
        any UFO). A11 ``push_blocked``: as far as it can / not at all when the full length is not
        reachable. A12/A13: off the sheet / into an asteroid is blocked or destroys (CRASH, on
        any step up to the length). A14: ends on an empty hex."""
        p = self.push
        start = self.ufos[p.loser_seat][p.loser_ufo].cell
        length = p.length
        mode = self.s["push_through"]
        occupied = self.occupancy()

        def crash_cell(c):
            if not self.on_grid(c):
                return self.s["push_off_board"] == "destroyed"
            if c in self.asteroids:
                return self.s["push_into_asteroid"] == "destroyed"
            return False

        def passable(c):
            if not self.is_hex(c):
                return False
            occ = occupied.get(c)
            if occ is None or mode == "any":
                return True
            return mode == "like_move" and occ[0] == p.loser_seat

        def empty(c):
            return self.is_hex(c) and c not in occupied

        reach = {}  # length -> set of destination cells
        crash = False

        def record(i, c):
            reach.setdefault(i, set()).add(c)

        if self.s["push_path"] == "any":
            def walk(c, i, seen):
                nonlocal crash
                for n in all_neighbours(c):
                    if n in seen:
                        continue
                    if crash_cell(n):
                        crash = True
                        continue
                    if not passable(n):
                        continue
                    if empty(n):
                        record(i + 1, n)
                    if i + 1 < length:
                        walk(n, i + 1, seen | {n})
            walk(start, 0, {start})
        else:
            if self.s["push_path"] == "straight":
                dirs = range(6)
            else:  # away: the line from the winner through the loser
                dirs = [direction_of(p.winner_cell, start)]
            for d in dirs:
                c = start
                for i in range(1, length + 1):
                    c = hex_step(c, d)
                    if crash_cell(c):
                        crash = True
                        break
                    if not passable(c):
                        break
                    if empty(c):
                        record(i, c)

        if self.s["push_length"] == "up_to":
            dests = set().union(*reach.values()) if reach else set()
        elif length in reach:
            dests = reach[length]
        elif self.s["push_blocked"] == "shorten" and reach:
            dests = reach[max(reach)]
        else:
            dests = set()
        return sorted(dests), crash

    def rule_push_to(self, cell, chance):
        """The loser goes to ``cell``. "Nb: un Ufo che a seguito di un combattimento perso viene
        spostato in modo da risultare adiacente ad un asteroide deve immediatamente tirare il
        dado rosso." -- a UFO pushed after a lost duel so that it ends next to an asteroid must
        roll the red die at once (1-2: a damage)."""
        p = self.push
        u = self.ufos[p.loser_seat][p.loser_ufo]
        u.cell = cell
        self.stats.add("pushes", p.winner_seat)
        self.push = None
        self.phase = ATTACK
        if self.next_to_asteroid(cell):
            self.rule_asteroid_roll(p.loser_seat, p.loser_ufo, chance, "asteroid after push", pusher=p.winner_seat)

    def rule_crash(self):
        """A12/A13 (non-default): the loser pushed off the sheet or into an asteroid is destroyed."""
        p = self.push
        self.stats.add("pushes", p.winner_seat)
        self.rule_destroy(p.loser_seat, p.loser_ufo, by=p.winner_seat)
        self.push = None
        self.phase = ATTACK

    def rule_no_push(self):
        """"può spostare" -- may move (A7 ``push_optional``); also when no push is possible."""
        self.push = None
        self.phase = ATTACK

    # ----------------------------------------------------------------------------------------
    # R7 motherships
    # ----------------------------------------------------------------------------------------

    def rule_may_attack_mothership(self, k):
        """"Un Ufo che termina il movimento su uno dei quattro esagoni adiacenti all'immagine
        dell'Astronave Madre avversaria può tentare di colpirla con il Cannone ionico (i laser
        non hanno effetto sugli scudi dell'Astronave)." -- a UFO that ends its movement on one
        of the four hexes adjacent to the enemy mothership's picture may try to hit it with the
        ion cannon (lasers have no effect on its shields: A21, not offered). A18
        ``mothership_attack_from``: any UFO standing there, or only one that moved this turn.
        A20 ``mothership_attack_uses_attack``."""
        u = self.ufos[self.active][k]
        if u.status != BOARD or u.cell not in self.launch[1 - self.active]:
            return False
        if self.s["mothership_attack_from"] == "moved" and not u.moved:
            return False
        if self.s["mothership_attack_uses_attack"]:
            return self.rule_may_attack(k)
        return not u.ms_attacked and not u.repaired

    def rule_ion_mothership(self, k, chance):
        """The ion cannon against the enemy mothership: 4-6 (after the -1 of a damaged UFO)
        lowers its structure by one ("Ogni volta che essa viene colpita, tale valore diminuisce
        di uno; una volta raggiunto lo zero la si considera distrutta e la vittoria va
        all'avversario." -- each hit lowers the structure by one; at zero the mothership is
        destroyed and the opponent wins). 1-2 backfires (A19 ``mothership_ion_backfire``; A6 for
        0)."""
        a, o = self.active, 1 - self.active
        u = self.ufos[a][k]
        r = self.rule_attack_roll(chance.die("ion at mothership"), u)
        u.ms_attacked = True
        if self.s["mothership_attack_uses_attack"]:
            self.attacks_made += 1
        self.stats.add("ms_attacks", a)
        if r >= HIT:
            self.structure[o] -= 1
            self.stats.add("ms_hits", a)
            if self.structure[o] <= 0:
                self.structure[o] = 0
                self.rule_victory(a)
        elif self.s["mothership_ion_backfire"] and self.rule_backfires(r):
            self.stats.add("backfires", a)
            self.rule_damage(a, k, by=None)

    def rule_victory(self, seat):
        """"Un giocatore ottiene la vittoria distruggendo l'Astronave Madre dell'avversario." --
        a player wins by destroying the opponent's mothership (the game stops at once)."""
        self.game_over = True
        self.winner = seat
        self.phase = None
        self.push = None

    def volley_targets(self):
        """Enemy UFOs on the active player's launch hexes ("a lei adiacenti"), in UFO order."""
        o = 1 - self.active
        return [j for j, u in enumerate(self.ufos[o]) if u.status == BOARD and u.cell in self.launch[self.active]]

    def rule_volley(self, chance):
        """"Un'Astronave Madre del giocatore di turno, può colpire con i suoi laser "tutti" gli
        Ufo avversari a lei adiacenti, con un risultato da 4 a 6 sul tiro del dado rosso (gli Ufo
        danneggiati non vengono spostati)." -- the active player's mothership may hit with its
        lasers all adjacent enemy UFOs, on a 4-6 of the red die (damaged UFOs are not moved).
        A22 ``mothership_fire`` (when), A23 ``mothership_volley`` (one die per UFO / one die for
        all), A31: no -1 (not a UFO's attack roll)."""
        a, o = self.active, 1 - self.active
        targets = self.volley_targets()
        self.volley_fired = True
        if not targets:
            return
        if self.s["mothership_volley"] == "per_ufo":
            for j in targets:
                if chance.die("mothership volley") >= HIT:
                    self.stats.add("volley_hits", a)
                    self.rule_damage(o, j, by=a)
        else:
            if chance.die("mothership volley") >= HIT:
                for j in targets:
                    self.stats.add("volley_hits", a)
                    self.rule_damage(o, j, by=a)

    # ----------------------------------------------------------------------------------------
    # R9 repair
    # ----------------------------------------------------------------------------------------

    def rule_may_repair(self, k):
        """"Un Ufo posizionato con il lato danneggiato verso l'alto, può, durante il suo turno,
        rinunciare all'attacco per tentare di auto-ripararsi (può comunque muoversi)." -- a
        damaged UFO may, in its turn, give up its attack to try to repair (it may still move)."""
        u = self.ufos[self.active][k]
        return u.status == BOARD and u.damaged and not (u.attacked or u.ms_attacked or u.repaired)

    def rule_repair(self, k, chance):
        """"Una navicella si auto-ripara (e quindi può essere capovolta nuovamente dal lato con
        lo sfondo blu) se ottiene un risultato da 4 a 6 sul tiro del dado." -- it repairs
        (turned blue side up again) on a 4-6 (no -1: not an attack roll, A31)."""
        u = self.ufos[self.active][k]
        u.repaired = True
        self.stats.add("repairs", self.active)
        if chance.die("repair") >= HIT:
            u.damaged = False
            self.stats.add("repairs_ok", self.active)

    # ----------------------------------------------------------------------------------------
    # R10 asteroids
    # ----------------------------------------------------------------------------------------

    def rule_asteroid_rolls_after_movement(self, chance):
        """"Inoltre, ogni navicella che termina il movimento in un esagono adiacente ad essi
        rischia di venire danneggiata. Prima di effettuare un eventuale attacco, tira il dado
        rosso, con un risultato di 1 o 2, riceve un danno." -- every ship that ends its movement
        next to asteroids risks damage: before any attack it rolls the red die, 1 or 2 is a
        damage. A15 ``asteroid_check`` (all UFOs / only those that moved), A16
        ``asteroid_roll_timing`` (here at the end of movement; with ``after_each_move`` only the
        UFOs that did not move roll here, and only with ``all``), A17: one die per UFO, UFO
        order 0-3."""
        a = self.active
        for k, u in enumerate(self.ufos[a]):
            if u.status != BOARD or not self.next_to_asteroid(u.cell):
                continue
            if self.s["asteroid_roll_timing"] == "end_of_movement":
                must = self.s["asteroid_check"] == "all" or u.moved
            else:
                must = self.s["asteroid_check"] == "all" and not u.moved
            if must:
                self.rule_asteroid_roll(a, k, chance, "asteroid after movement", pusher=None)

    def rule_asteroid_roll(self, seat, k, chance, tag, pusher):
        """One asteroid die: 1 or 2 is a damage (no -1). ``pusher``: the seat credited with a
        kill when a pushed UFO is destroyed this way."""
        if chance.die(tag) <= 2:
            self.stats.add("asteroid_damage", seat)
            self.rule_damage(seat, k, by=pusher)

    # ----------------------------------------------------------------------------------------
    # the decision interface
    # ----------------------------------------------------------------------------------------

    def _ufo_attacks(self):
        """LASER and ION options of the active player (A35: checked on the position as it is)."""
        a, o = self.active, 1 - self.active
        out = []
        for k in range(UFOS):
            if not self.rule_may_attack(k):
                continue
            for j, e in enumerate(self.ufos[o]):
                if e.status == BOARD and self.rule_line_of_fire(self.ufos[a][k].cell, e.cell):
                    out.append(("laser", k, j))
                    out.append(("ion", k, j))
        return out

    def legal(self):
        """The legal decisions, as semantic tuples (see ACTION_KINDS)."""
        if self._legal_cache is None:
            self._legal_cache = self._legal()
        return list(self._legal_cache)

    def _legal(self):
        if self.game_over:
            return []
        a = self.active
        out = []
        if self.phase == MOVE:
            for k in range(UFOS):
                u = self.ufos[a][k]
                if u.status in (BOARD, READY) and not u.moved:
                    out += [("move", k, c[0], c[1]) for c in self.rule_move_destinations(a, k)]
            if self.s["mothership_fire"] == "any_time" and not self.volley_fired and self.volley_targets():
                out.append(("volley",))
            out.append(("end_move",))
        elif self.phase == ATTACK:
            out += self._ufo_attacks()
            out += [("ion_ms", k) for k in range(UFOS) if self.rule_may_attack_mothership(k)]
            out += [("repair", k) for k in range(UFOS) if self.rule_may_repair(k)]
            if self.s["mothership_fire"] == "any_time" and not self.volley_fired and self.volley_targets():
                out.append(("volley",))
            out.append(("end_turn",))
        elif self.phase == PUSH:
            dests, crash = self.rule_push_options()
            out += [("push", c[0], c[1]) for c in dests]
            if crash:
                out.append(("crash",))
            if self.s["push_optional"] or not out:
                out.append(("no_push",))
        return out

    def to_move(self):
        """The seat taking the current decision: the duel's winner in phase PUSH, otherwise the
        active player; -1 once the game is over."""
        if self.game_over:
            return -1
        if self.phase == PUSH:
            return self.push.winner_seat
        return self.active

    def apply(self, action, chance):
        action = tuple(action)
        if action not in self.legal():
            raise ValueError(f"illegal action {action!r} in phase {self.phase} (turn {self.turn}, seat {self.active})")
        self._do(action, chance)
        self._advance(chance)

    def _do(self, action, chance):
        self._legal_cache = None
        kind = action[0]
        if kind == "move":
            self.rule_move(action[1], (action[2], action[3]), chance)
        elif kind == "end_move":
            self.rule_end_move(chance)
        elif kind == "volley":
            self.rule_volley(chance)
        elif kind == "laser":
            self.rule_laser(action[1], action[2], chance)
        elif kind == "ion":
            self.rule_ion(action[1], action[2], chance)
        elif kind == "ion_ms":
            self.rule_ion_mothership(action[1], chance)
        elif kind == "repair":
            self.rule_repair(action[1], chance)
        elif kind == "end_turn":
            self.rule_end_turn(chance)
        elif kind == "push":
            self.rule_push_to((action[1], action[2]), chance)
        elif kind == "crash":
            self.rule_crash()
        elif kind == "no_push":
            self.rule_no_push()
        else:
            raise ValueError(f"unknown action {action!r}")

    def _advance(self, chance):
        """R12.1: a decision with a single legal option is taken without asking (R13.13: it
        draws the same dice as if chosen)."""
        while not self.game_over:
            options = self.legal()
            if len(options) != 1:
                return
            self._do(options[0], chance)

    def over(self):
        return self.game_over

    def won(self):
        return [self.game_over and self.winner == s for s in range(SEATS)]

    # ----------------------------------------------------------------------------------------
    # state and outcome
    # ----------------------------------------------------------------------------------------

    def snapshot(self):
        """The whole state in rulebook terms:

        - ``turn`` (1..turn_cap), ``active`` (seat whose turn it is), ``first`` (seat that took
          turn 1), ``phase`` ("move", "attack", "push", None once over), ``to_move``;
        - ``structure``: [seat 0, seat 1] mothership structure;
        - ``ufos``: per seat a list of 4 dicts: ``status`` ("board" on a hex; "ready" on its
          mothership's picture and free to leave; "waiting" put on the picture this turn, leaves
          from its owner's next turn; "destroyed" off the sheet until its owner's next turn
          start), ``cell`` ((col, row) or None), ``damaged`` (red side up), ``moved``,
          ``attacked`` (laser/ion attack on a UFO this turn), ``ms_attacked`` (ion cannon at the
          enemy mothership this turn), ``repaired`` (tried a repair this turn);
        - ``attacks_made``: attacks the active player made this turn (counts for
          ``attacks_per_turn=one``); ``volley_fired``: his mothership fired this turn;
        - ``push``: the pending push (``loser_seat``, ``loser_ufo``, ``winner_seat``,
          ``length``, ``winner_cell``) or None;
        - ``over``, ``winner`` (-1 for none), ``draw``;
        - ``stats``: the per-seat counters of the output table.
        """
        return {
            "turn": self.turn,
            "active": self.active,
            "first": self.first,
            "phase": self.phase,
            "to_move": self.to_move(),
            "structure": list(self.structure),
            "ufos": [
                [
                    {
                        "status": u.status,
                        "cell": u.cell,
                        "damaged": u.damaged,
                        "moved": u.moved,
                        "attacked": u.attacked,
                        "ms_attacked": u.ms_attacked,
                        "repaired": u.repaired,
                    }
                    for u in self.ufos[s]
                ]
                for s in range(SEATS)
            ],
            "attacks_made": self.attacks_made,
            "volley_fired": self.volley_fired,
            "push": None if self.push is None else dict(vars(self.push)),
            "over": self.game_over,
            "winner": self.winner,
            "draw": self.draw,
            "stats": {c: list(v) for c, v in self.stats.counters.items()},
        }

    def outcome(self):
        """The output table's columns: per-seat columns as [seat 0, seat 1], game columns as
        scalars."""
        out = {c: list(v) for c, v in self.stats.counters.items()}
        out["won"] = [int(w) for w in self.won()]
        out["first"] = [int(self.first == s) for s in range(SEATS)]
        out["structure"] = list(self.structure)
        out["draw"] = int(self.draw)
        out["turns"] = self.turn
        out["rounds"] = (self.turn + 1) // 2
        out["first_seat"] = self.first
        out["winner"] = self.winner
        return out
