"""Independent plain-Python model of *Escape From the Aliens In Outer Space* (black edition).

Written from the rulebook alone (``shared/rules/eftaios.pt-es.txt``: the Portuguese text, then
the Spanish one), the component reference and the interface extract of the specification
(settings A1-A29, decision phases, action ranges, chance order, information, event log). It
never looks at the compiled engine. Each rule is a small method whose docstring quotes the
sentence it implements, in the original language with a translation.

Interface (the docstring of ``tests/reference/lockstep.py``)::

    m = Model(settings, data)   # settings: EftaiosParams as a dict; data: (GameMap, Cards)
    m.setup(chance)
    while not m.over():
        seat = m.to_move(); acts = m.legal(); m.apply(acts[k], chance)
    m.won()

The model never draws chance itself: it asks ``chance.shuffle(tag, items)`` (a permutation,
index 0 = top of the deck) and ``chance.choice(tag, k)`` in the interface's order.

Semantic actions (one per action range of the interface; ``x`` is a cell id 0..321)::

    ("move", x) ("move_attack", x) ("stay",) ("stay_attack",) ("use_spotlight", x)
    ("noise_at", x) ("use_adrenaline",) ("use_teleport",) ("use_sedatives",) ("use_attack",)
    ("pre_done",) ("resolve",) ("end_turn",) ("discard", kind) ("defend",) ("no_defend",)
    ("start_hatch", k)

:func:`action_id` / :func:`action_from_id` convert to and from the interface's action ids.

Events are tuples ``(round, actor, kind, arg, audience)``; ``audience`` is a bit mask of the
seats that see the event. ``arg`` is ``None`` where the interface shows "—"; an item kind is its
name (``"spotlight"``), a face-down discard is ``-1``.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field

# --------------------------------------------------------------------------- constants

NCOLS, NROWS = 23, 14
NCELLS = NCOLS * NROWS
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVW"

# Cell kinds as the loader stores them (GameMap.kind).
VOID, SAFE, DANGER, HUMAN_START, ALIEN_START, HATCH = range(6)

ITEM_KINDS = ("attack", "teleport", "adrenaline", "sedatives", "spotlight", "defence")

# Decision phases (interface, "Phases").
P_START, P_PRE, P_MOVE, P_POST = "P_START", "P_PRE", "P_MOVE", "P_POST"
P_NOISE, P_DISCARD, P_DEFEND, P_END, P_OVER = "P_NOISE", "P_DISCARD", "P_DEFEND", "P_END", "P_OVER"

# Seat status.
ABOARD, ELIMINATED, ESCAPED, WAITING = "aboard", "eliminated", "escaped", "waiting"

# Fates (output column `fate`).
FATE_ABOARD, FATE_ESCAPED, FATE_KILLED, FATE_STRANDED, FATE_TIME, FATE_INFECTED = range(6)

# End reasons (output column `end_reason`).
END_ESCAPE, END_ALL_KILLED, END_NO_HUMAN, END_TIME, END_ARENA = range(5)

# Action id ranges (interface, "Action ids"), in declaration order.
_RANGES = [
    ("move", 322), ("move_attack", 322), ("stay", 1), ("stay_attack", 1),
    ("use_spotlight", 322), ("noise_at", 322), ("use_adrenaline", 1), ("use_teleport", 1),
    ("use_sedatives", 1), ("use_attack", 1), ("pre_done", 1), ("resolve", 1), ("end_turn", 1),
    ("discard", 6), ("defend", 1), ("no_defend", 1), ("start_hatch", 4),
]
_BASE = {}
_n = 0
for _name, _count in _RANGES:
    _BASE[_name] = _n
    _n += _count
MAX_ACTIONS = _n  # 1309


def action_id(action: tuple) -> int:
    """The interface's action id of a semantic action tuple."""
    name = action[0]
    base = _BASE[name]
    if name in ("move", "move_attack", "use_spotlight", "noise_at"):
        return base + action[1]
    if name == "discard":
        return base + ITEM_KINDS.index(action[1])
    if name == "start_hatch":
        return base + action[1] - 1
    return base


def action_from_id(aid: int) -> tuple:
    """The semantic action tuple of an interface action id."""
    for name, count in reversed(_RANGES):
        base = _BASE[name]
        if aid >= base:
            k = aid - base
            if k >= count:
                break
            if name in ("move", "move_attack", "use_spotlight", "noise_at"):
                return (name, k)
            if name == "discard":
                return (name, ITEM_KINDS[k])
            if name == "start_hatch":
                return (name, k + 1)
            return (name,)
    raise ValueError(f"action id {aid} outside 0..{MAX_ACTIONS - 1}")


def sector_id(name: str) -> int:
    """"D09" -> 50. The rulebook: "Cada hexágono … está identificado por uma letra e um número"
    (each hex is identified by a letter and a number); interface: id = column * 14 + row - 1."""
    return COLUMNS.index(name[0].upper()) * NROWS + int(name[1:]) - 1


def sector_name(sid: int) -> str:
    return f"{COLUMNS[sid // NROWS]}{sid % NROWS + 1:02d}"


def hex_neighbours(sid: int) -> list[int]:
    """The six cells around a cell, inside the 23 x 14 sheet (void cells included).

    Written from the rulebook's example, not from the loader: "Silvano Porpora … está
    actualmente no Sector D09 … Pode mover-se para D08, C09, C10, E10 ou E09" and ES adds D10
    ("al D08, D10, C09, C10, E10 o E09"). So column D (index 3) is drawn half a hex lower than
    C and E: a sector in an odd-index column touches rows r and r+1 of the columns beside it,
    one in an even-index column touches rows r-1 and r. Both touch r-1 and r+1 in their own.
    """
    c, r = divmod(sid, NROWS)
    side_rows = (r, r + 1) if c % 2 == 1 else (r - 1, r)
    cells = [(c, r - 1), (c, r + 1)]
    for dc in (-1, 1):
        for rr in side_rows:
            cells.append((c + dc, rr))
    return sorted(x * NROWS + y for x, y in cells if 0 <= x < NCOLS and 0 <= y < NROWS)


# --------------------------------------------------------------------------- chance objects

class RandomChance:
    """Chance drawn from Python's ``random`` (standalone self-play)."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def die(self, tag: str) -> int:
        return self.rng.randint(1, 6)

    def shuffle(self, tag: str, items: list) -> list:
        out = list(items)
        self.rng.shuffle(out)
        return out

    def choice(self, tag: str, k: int) -> int:
        return self.rng.randrange(k)


class ScriptedChance:
    """Chance outcomes given in advance, in order: a list for a shuffle, an int for a choice.

    ``None`` in the script means "keep the order as given" for a shuffle.
    """

    def __init__(self, outcomes: list):
        self.outcomes = list(outcomes)
        self.asked: list[tuple] = []

    def _next(self, tag):
        if not self.outcomes:
            raise AssertionError(f"chance script exhausted at {tag!r}")
        return self.outcomes.pop(0)

    def die(self, tag: str) -> int:
        self.asked.append(("die", tag))
        return self._next(tag)

    def shuffle(self, tag: str, items: list) -> list:
        self.asked.append(("shuffle", tag, list(items)))
        out = self._next(tag)
        if out is None:
            return list(items)
        if sorted(out) != sorted(items):
            raise AssertionError(f"{tag}: scripted order {out} is not a permutation of {items}")
        return list(out)

    def choice(self, tag: str, k: int) -> int:
        self.asked.append(("choice", tag, k))
        out = self._next(tag)
        if not 0 <= out < k:
            raise AssertionError(f"{tag}: scripted choice {out} outside 0..{k - 1}")
        return out


# --------------------------------------------------------------------------- state records

@dataclass
class Seat:
    """One player's state (all of it: the model is omniscient)."""

    character: int = -1          # character card id (-1 in Arena)
    role: str = ""               # its role key in cards.toml ("captain", "pilot", ...)
    start_side: str = "alien"    # side dealt at setup
    side: str = "alien"          # current side (differs after an Infection conversion)
    status: str = ABOARD
    position: int = -1           # cell id; -1 off the board
    start_hatch: int = 0         # Arena start hatch 1..4 (0 elsewhere)
    items: list = field(default_factory=list)      # item card ids held, in the order taken
    pilot_uses: dict = field(default_factory=dict)  # item card id -> uses left (Old Guard H.3)
    fed: bool = False
    fed_round: int = -1
    captain_pass: str = "none"   # Old Guard H.1: "unspent", "spent", "active" (this turn); else "none"
    revealed: bool = False       # character card shown (eliminated or infected)
    infected: bool = False       # Infection B.3: turned from human into alien
    last_card: tuple = ()        # (kind, icon) of the last Dangerous Sector card it drew
    # outcome bookkeeping
    fate: int = FATE_ABOARD
    fate_round: int = -1
    escape_hatch: int = -1
    killed_by: int = -1
    kills: int = 0
    human_kills: int = 0
    attacks: int = 0
    noises: int = 0
    bluffs: int = 0
    silences: int = 0
    quiet_turns: int = 0
    items_drawn: int = 0
    used: dict = field(default_factory=lambda: {k: 0 for k in ITEM_KINDS})
    discards: int = 0
    turns: int = 0


@dataclass
class Turn:
    """The active seat's turn flags (cleared at each turn start)."""

    seat: int = -1
    start_sector: int = -1       # s0: a move never ends here (R "Nunca se pode terminar o turno…")
    adrenaline: int = 0          # Adrenaline cards played this turn
    sedated: bool = False
    attacked: bool = False
    card_drawn: bool = False
    stayed: bool = False         # the move was a STAY (no legal destination, A28)
    resolved_sector: int = -1    # the sector the move reached (the one a card is drawn for)


# --------------------------------------------------------------------------- the model

class Model:
    """The game state and its rules. See :meth:`snapshot` for the state's keys."""

    # ------------------------------------------------------------------ construction

    def __init__(self, settings: dict, data):
        self.s = dict(settings)
        if isinstance(data, dict):
            self.map, self.cards = data["map"], data["cards"]
        else:
            self.map, self.cards = data
        self.n = int(self.s["players"])
        self.mode = self.s["mode"]
        self.scenario = self.s["scenario"]
        self.advanced = self.mode == "advanced"
        self.arena = self.scenario == "arena"
        self.old_guard = self.scenario == "old_guard"
        self.infection = self.scenario == "infection"
        self.max_rounds = int(self.s["max_rounds"])
        self.kind = list(self.map.kind)
        self.hatch_cell = {k + 1: c for k, c in enumerate(self.map.hatches) if c >= 0}
        self.hatch_of_cell = {c: k for k, c in self.hatch_cell.items()}
        self.human_start = self.map.human_start
        self.alien_start = self.map.alien_start

        self.seats: list[Seat] = []
        self.round = 0
        self.first_player = -1
        self.active = -1
        self.phase = P_START
        self.decider = -1            # the seat that decides the current phase
        self.turn = Turn()
        self.danger_deck: list[int] = []
        self.danger_discard: list[int] = []
        self.card_in_play = -1       # the Dangerous Sector card being resolved
        self.item_deck: list[int] = []
        self.item_discard: list[int] = []
        self.hatch_deck: list[int] = []
        self.hatch_state = {k: "open" for k in self.hatch_cell}  # "open", "damaged", "used"
        self.log: list[tuple] = []
        self.start_queue: list[int] = []
        self.resolution_steps: list[str] = []
        self.attack: dict | None = None
        self.last_removal = ""       # "escaped", "killed" or "stranded": how the last human left
        self.end_reason = -1
        self.alien_win = False
        self.winners: list[bool] = [False] * self.n
        self.stats = {"danger_draws": 0, "danger_reshuffles": 0, "item_draws": 0,
                      "item_reshuffles": 0, "hatches_red": 0, "hatches_used": 0}

    # ------------------------------------------------------------------ small helpers

    def _emit(self, actor: int, kind: str, arg=None, audience: int | None = None) -> None:
        if audience is None:
            audience = (1 << self.n) - 1
        self.log.append((self.round, actor, kind, arg, audience))

    def _order_from(self, seat: int, include_self: bool) -> list[int]:
        """Seats clockwise from ``seat``: "no sentido dos ponteiros do relógio" (clockwise); the
        next player is "o jogador à sua esquerda" (the player to the left) = seat + 1 mod n."""
        start = 0 if include_self else 1
        return [(seat + k) % self.n for k in range(start, self.n)]

    def _neighbours(self, cell: int) -> list[int]:
        return [c for c in hex_neighbours(cell) if self.kind[c] != VOID]

    def _threshold(self) -> int:
        k = int(self.s["arena_kills"])
        return k if k > 0 else self.n

    def _item_kind(self, card: int) -> str:
        return self.cards.items[card]

    def _held(self, seat: int, kind: str) -> list[int]:
        return [c for c in self.seats[seat].items if self._item_kind(c) == kind]

    def _holds(self, seat: int, kind: str) -> bool:
        return bool(self._held(seat, kind))

    # ------------------------------------------------------------------ setup

    def setup(self, chance) -> None:
        """Deal the characters, shuffle the decks, choose the first player (chance steps 1-8)."""
        self.chance = chance
        n = self.n
        self.seats = [Seat() for _ in range(n)]
        if not self.arena:
            self._deal_characters(chance)
        else:
            self._arena_no_humans()
        self._shuffle_decks(chance)
        self.first_player = chance.choice("first player", n)
        self._place_starting_characters()
        if self.arena:
            self._arena_start_hatches(chance)
        else:
            self._begin_play()

    def _deal_characters(self, chance) -> None:
        """PT: "Começa-se por separar as cartas Personagem em dois grupos (Humanos e
        Extraterrestres). Baralha-se cada grupo e tiram-se de cada um o número de cartas
        equivalente a metade dos jogadores. No caso de o número de jogadores ser ímpar, junta-se
        mais uma carta Extraterrestre … Baralham-se as cartas Personagem escolhidas e
        distribui-se uma a cada jogador." (Split the characters into humans and aliens; shuffle
        each group and take half the players from each; with an odd count add one more alien;
        shuffle the chosen cards and deal one to each player.)"""
        h = self.n // 2
        a = self.n - h
        humans = chance.shuffle("human characters", self.cards.humans())[:h]
        aliens = chance.shuffle("alien characters", self.cards.aliens())[:a]
        dealt = chance.shuffle("deal characters", humans + aliens)
        for i, cid in enumerate(dealt):
            ch = self.cards.characters[cid]
            seat = self.seats[i]
            seat.character = cid
            seat.role = ch.role
            seat.start_side = seat.side = ch.side
            if self.old_guard and ch.role == "captain":
                seat.captain_pass = "unspent"

    def _arena_no_humans(self) -> None:
        """Arena B.6: "Não há jogadores Humanos." (There are no human players.) No character
        cards are dealt (interface: character -1 in Arena)."""
        for seat in self.seats:
            seat.start_side = seat.side = "alien"

    def _shuffle_decks(self, chance) -> None:
        """PT: "Baralham-se as CARTAS SECTOR PERIGOSO" (shuffle the Dangerous Sector cards);
        advanced: "Baralham-se as cartas Objecto … Baralham-se as cartas Escotilha" (shuffle the
        items; shuffle the hatch cards). Infection D.2: "Não se usam as cartas Escotilha" (the
        hatch cards are not used)."""
        self.danger_deck = chance.shuffle("danger deck", list(range(len(self.cards.danger))))
        if self.advanced:
            self.item_deck = chance.shuffle("item deck", list(range(len(self.cards.items))))
            if not self.infection:
                self.hatch_deck = chance.shuffle("hatch deck", list(range(len(self.cards.hatch))))

    def _place_starting_characters(self) -> None:
        """"SECTOR HUMANO: este é o sector de partida para todos os jogadores Humanos";
        "SECTOR EXTRATERRESTRE: … o sector de partida para todos os jogadores Extraterrestres"
        (the Human / Alien sector is every human's / alien's start). Old Guard H.2: "O Psicólogo
        começa o jogo no sector Extraterrestre" (the Psychologist starts on the Alien sector)."""
        for seat in self.seats:
            if self.arena:
                continue
            if seat.side == "human" and not (self.old_guard and seat.role == "psychologist"):
                seat.position = self.human_start
            else:
                seat.position = self.alien_start

    def _arena_start_hatches(self, chance) -> None:
        """Arena C.6: "Os Extraterrestres começam o jogo em uma ou mais escotilhas de saída (à
        escolha dos jogadores). (Escotilha de Saída 1, 2, 3, 4)" (aliens start on one or more
        hatches, the players' choice). A23: each seat chooses (``choose``), in turn order from
        the first player, or the hatch is drawn (``random``)."""
        order = self._order_from(self.first_player, include_self=True)
        hatches = sorted(self.hatch_cell)
        if self.s["arena_start"] == "random":
            for seat in order:
                k = hatches[chance.choice("arena start hatch", len(hatches))]
                self._set_start_hatch(seat, k)
            self._begin_play()
        else:
            self.start_queue = order
            self.phase = P_START
            self.decider = order[0]

    def _set_start_hatch(self, seat: int, k: int) -> None:
        self.seats[seat].start_hatch = k
        self.seats[seat].position = self.hatch_cell[k]

    def _begin_play(self) -> None:
        """"Começa-se por escolher à sorte o primeiro jogador." (The first player is chosen at
        random.) Round 1 starts with the first player."""
        self.round = 1
        self._start_turn(self.first_player)

    # ------------------------------------------------------------------ movement rules

    def _hatch_open(self, cell: int) -> bool:
        return self.hatch_state.get(self.hatch_of_cell.get(cell, 0)) == "open"

    def _enterable(self, seat: int, cell: int) -> bool:
        """Where a move may end.

        * Void cells are not sectors.
        * "SECTOR HUMANO / EXTRATERRESTRE: … Depois do jogo começar, nenhum jogador pode
          mover-se para ou através deste Sector." (After the start nobody may move into or
          through the Human or Alien sector.)
        * "Apenas os jogadores Humanos podem mover-se para ou através um Sector Escotilha."
          (Only humans may move into or through a hatch.)
        * Red: "nenhum outro jogador pode entrar no Sector desta escotilha" (nobody may enter
          it); green: "essa escotilha fica bloqueada" (it is blocked); A3 chooses whether a used
          hatch is closed (default) or a plain safe sector for humans.
        * Arena A.4 with A22 ``closed``: ES "Los jugadores no pueden moverse en los sectores de
          seguridad" (players may not move into safe sectors).
        """
        k = self.kind[cell]
        human = self.seats[seat].side == "human"
        if k in (VOID, HUMAN_START, ALIEN_START):
            return False
        if k == SAFE:
            return not (self.arena and self.s["arena_safe_sectors"] == "closed")
        if k == DANGER:
            return True
        state = self.hatch_state[self.hatch_of_cell[cell]]
        if state == "open":
            return human
        if state == "used":
            return human and bool(self.s["used_hatch_enterable"])
        return False  # damaged

    def _passable(self, seat: int, cell: int) -> bool:
        """Where a move of several steps may pass (the sectors strictly between its start and
        end). As :meth:`_enterable`, except hatches: PT "Apenas os jogadores Humanos podem
        mover-se para ou através um Sector Escotilha" (only humans into or through a hatch).
        A1: aliens never pass an open hatch (default) or may pass it without stopping. A2: a
        human entering an open hatch has reached it, so no walk passes one (default), or a human
        may pass it. A used hatch that A3 leaves enterable is a plain safe sector for humans;
        aliens may pass it only under A1's transit reading."""
        k = self.kind[cell]
        if k != HATCH:
            return self._enterable(seat, cell)
        human = self.seats[seat].side == "human"
        state = self.hatch_state[self.hatch_of_cell[cell]]
        if state == "damaged":
            return False
        if state == "used" and not self.s["used_hatch_enterable"]:
            return False
        if human:
            return state == "used" or bool(self.s["human_hatch_transit"])
        return bool(self.s["alien_hatch_transit"])

    def _move_range(self, seat: int) -> tuple[int, bool]:
        """(steps, exact) for the active seat's move.

        * "HUMANOS avançam apenas um Sector de cada vez; EXTRATERRESTRES avançam um ou dois
          Sectores" (humans move one sector, aliens one or two).
        * Feeding (advanced): "Quando um jogador Extraterrestre elimina um jogador Humano,
          torna-se mais forte e passa a poder avançar um, dois ou três Sectores" (an alien that
          eliminates a human may move one, two or three sectors). A29: also in the basic game.
          Infection C.3: "Os Extraterrestres não aumentam a sua capacidade de movimento".
        * Adrenaline: "permite a um jogador mover-se dois sectores no mesmo turno" (lets a
          player move two sectors this turn). A7: up to 2 (default) or exactly 2; A8: one
          card sets 2 (default), or each card adds a step.
        """
        st = self.seats[seat]
        if st.side == "alien":
            return (3 if st.fed else 2), False
        ad = self.turn.adrenaline
        if ad == 0:
            return 1, False
        steps = 1 + ad if self.s["adrenaline_stacks"] else 2
        return steps, bool(self.s["adrenaline_exact"])

    def reach(self, seat: int) -> set[int]:
        """The sectors the active seat's move may end on.

        A walk steps to adjacent sectors; every sector strictly inside it must be passable and
        its end enterable. "Nunca se pode terminar o turno no mesmo Sector em que se começou."
        (A turn never ends on the sector where it began.) With an exact range (A7) a walk may
        double back, but still never ends on the turn's start sector.
        """
        here = self.seats[seat].position
        steps, exact = self._move_range(seat)
        ends: set[int] = set()
        if exact:
            frontier = {here}
            for k in range(steps):
                last = k == steps - 1
                nxt = set()
                for cell in frontier:
                    for nb in self._neighbours(cell):
                        if (self._enterable(seat, nb) if last else self._passable(seat, nb)):
                            nxt.add(nb)
                frontier = nxt
            ends = frontier
        else:
            seen = {here}
            frontier = [here]
            for _ in range(steps):
                nxt = []
                for cell in frontier:
                    for nb in self._neighbours(cell):
                        if nb in seen:
                            continue
                        seen.add(nb)
                        if self._enterable(seat, nb):
                            ends.add(nb)
                        if self._passable(seat, nb):
                            nxt.append(nb)
                frontier = nxt
        ends.discard(self.turn.start_sector)
        ends.discard(here)
        return ends

    # ------------------------------------------------------------------ item availability

    def _items_usable(self, seat: int) -> bool:
        """"SÓ OS HUMANOS PODEM USAR OBJECTOS. Os Extraterrestres não os podem usar" (only humans
        may use items). Items exist only in the advanced game ("Põem-se de lado … as CARTAS
        OBJECTO: não serão usadas no jogo básico"), and Arena has no humans."""
        return self.advanced and not self.arena and self.seats[seat].side == "human"

    def _hand_limit(self, seat: int) -> int:
        """"Um jogador pode deter um MÁXIMO DE TRÊS CARTAS OBJECTO" (at most three items);
        Old Guard H.4: "O Soldado pode carregar até 4 objectos" (the Soldier may carry 4)."""
        return 4 if self.old_guard and self.seats[seat].role == "soldier" else 3

    def _teleport_allowed_pre(self, seat: int) -> bool:
        """Teleport "permite a um personagem mover-se directamente até ao Sector Humano a partir
        de qualquer parte da nave" (moves the character straight to the Human sector); before
        the move it needs the seat not to be there already."""
        return self._holds(seat, "teleport") and self.seats[seat].position != self.human_start

    def _teleport_allowed_after(self, seat: int) -> bool:
        """After the move a Teleport must not end the turn on the turn's start sector ("Nunca se
        pode terminar o turno no mesmo Sector em que se começou"): position != H and s0 != H."""
        return (self._holds(seat, "teleport") and self.seats[seat].position != self.human_start
                and self.turn.start_sector != self.human_start)

    def _adrenaline_allowed(self, seat: int) -> bool:
        return self._holds(seat, "adrenaline") and (
            self.turn.adrenaline == 0 or bool(self.s["adrenaline_stacks"]))

    def _sedatives_allowed(self, seat: int) -> bool:
        """Sedatives: "um personagem não precisa de biscar uma carta de Sector Perigoso, mesmo que
        entre num Sector Perigoso" (no Dangerous Sector card though it entered one); offered
        after the move, on a dangerous sector, once (M2)."""
        pos = self.seats[seat].position
        return (self._holds(seat, "sedatives") and pos >= 0 and self.kind[pos] == DANGER
                and not self.turn.sedated)

    def _spotlight_targets(self) -> list[int]:
        """Spotlight: "escolhe-se um Sector" / ES "nombra cualquier sector" (name any sector).
        A10: any non-void sector (default) or only safe and dangerous ones."""
        if self.s["spotlight_targets"] == "any":
            return [c for c in range(NCELLS) if self.kind[c] != VOID]
        return [c for c in range(NCELLS) if self.kind[c] in (SAFE, DANGER)]

    def _noise_targets(self) -> list[int]:
        """Noise in any sector: "Deve anunciar 'RUÍDO NO SECTOR [X, Y]' onde '[X, Y]' são as
        coordenadas de qualquer Sector à escolha (incluindo aquele para o qual o personagem se
        moveu)" (announce the coordinates of any sector, including the one moved to). A9 picks
        the set; the seat's own sector is always included."""
        mode = self.s["noise_targets"]
        if mode == "coordinates":
            out = {c for c in range(NCELLS) if self.kind[c] in (SAFE, DANGER)}
        elif mode == "dangerous":
            out = {c for c in range(NCELLS) if self.kind[c] == DANGER}
        else:
            out = {c for c in range(NCELLS) if self.kind[c] != VOID}
        out.add(self.turn.resolved_sector)
        return sorted(out)

    def _pre_options(self, seat: int) -> bool:
        if not self._items_usable(seat):
            return False
        return (self._adrenaline_allowed(seat) or self._teleport_allowed_pre(seat)
                or self._holds(seat, "spotlight"))

    def _post_options(self, seat: int) -> bool:
        if not self._items_usable(seat):
            return False
        return (self._holds(seat, "attack") or self._sedatives_allowed(seat)
                or self._holds(seat, "spotlight"))

    def _end_options(self, seat: int) -> bool:
        if not self._items_usable(seat):
            return False
        return self._holds(seat, "spotlight") or self._teleport_allowed_after(seat)

    # ------------------------------------------------------------------ the decision API

    def to_move(self) -> int:
        return -1 if self.phase == P_OVER else self.decider

    def over(self) -> bool:
        return self.phase == P_OVER

    def won(self) -> list[bool]:
        return list(self.winners)

    def legal(self) -> list[tuple]:
        """The legal decisions of the current phase, in action-id order."""
        ph = self.phase
        seat = self.decider
        out: list[tuple] = []
        if ph == P_OVER:
            return out
        if ph == P_START:
            out = [("start_hatch", k) for k in sorted(self.hatch_cell)]
        elif ph == P_PRE:
            out += [("use_spotlight", x) for x in self._spotlight_targets()] if self._holds(seat, "spotlight") else []
            if self._adrenaline_allowed(seat):
                out.append(("use_adrenaline",))
            if self._teleport_allowed_pre(seat):
                out.append(("use_teleport",))
            out.append(("pre_done",))
        elif ph == P_MOVE:
            r = sorted(self.reach(seat))
            alien = self.seats[seat].side == "alien"
            if r:
                out += [("move", x) for x in r]
                if alien:
                    out += [("move_attack", x) for x in r]
            else:
                out.append(("stay",))
                if alien:
                    out.append(("stay_attack",))
        elif ph == P_POST:
            if self._holds(seat, "spotlight"):
                out += [("use_spotlight", x) for x in self._spotlight_targets()]
            if self._sedatives_allowed(seat):
                out.append(("use_sedatives",))
            if self._holds(seat, "attack"):
                out.append(("use_attack",))
            out.append(("resolve",))
        elif ph == P_NOISE:
            out = [("noise_at", x) for x in self._noise_targets()]
        elif ph == P_DISCARD:
            if self.s["overflow_use"] and self._items_usable(seat):
                if self._holds(seat, "spotlight"):
                    out += [("use_spotlight", x) for x in self._spotlight_targets()]
                if self._teleport_allowed_after(seat):
                    out.append(("use_teleport",))
            out += [("discard", k) for k in ITEM_KINDS if self._holds(seat, k)]
        elif ph == P_DEFEND:
            out = [("defend",), ("no_defend",)]
        elif ph == P_END:
            if self._holds(seat, "spotlight"):
                out += [("use_spotlight", x) for x in self._spotlight_targets()]
            if self._teleport_allowed_after(seat):
                out.append(("use_teleport",))
            out.append(("end_turn",))
        return sorted(out, key=action_id)

    def apply(self, action: tuple, chance) -> None:
        action = tuple(action)
        if action not in self.legal():
            raise ValueError(f"illegal action {action} in phase {self.phase} for seat {self.decider}")
        self.chance = chance
        name = action[0]
        ph = self.phase
        seat = self.decider
        if ph == P_START:
            self._choose_start_hatch(seat, action[1])
        elif ph == P_PRE:
            if name == "pre_done":
                self._enter_move()
            else:
                self._use_item(seat, action)
                if self.phase == P_PRE:
                    if self._pre_options(seat):
                        return
                    self._enter_move()
        elif ph == P_MOVE:
            self._move(seat, action)
        elif ph == P_POST:
            if name == "resolve":
                self._resolve()
            elif name == "use_attack":
                self._use_attack_item(seat)
            else:
                self._use_item(seat, action)
                if not self._post_options(seat):
                    self._resolve()
        elif ph == P_NOISE:
            self._announce_noise(seat, action[1])
            self._continue_resolution()
        elif ph == P_DISCARD:
            if name == "discard":
                self._discard_unused(seat, action[1])
            else:
                self._use_item(seat, action)
            if len(self.seats[seat].items) <= self._hand_limit(seat):
                self._continue_resolution()
        elif ph == P_DEFEND:
            self._defend(seat, name == "defend")
            self._continue_attack()
        elif ph == P_END:
            if name == "end_turn":
                self._end_turn()
            else:
                self._use_item(seat, action)
                if not self._end_options(seat):
                    self._end_turn()

    # ------------------------------------------------------------------ turn sequence

    def _start_turn(self, seat: int) -> None:
        """"Durante cada turno, começando pelo primeiro jogador e seguindo no sentido dos
        ponteiros do relógio, cada jogador deve mover o seu personagem." (Each turn, from the
        first player clockwise, each player must move.) Arena A.5: "Qualquer jogador que seja
        eliminado por um ataque recomeça no seu sector de partida, no início do seu próximo
        turno" (a player eliminated by an attack restarts on its start sector at the start of
        its next turn); A24 chooses the start hatch (default) or the Alien sector."""
        st = self.seats[seat]
        self.active = seat
        if self.arena and st.status == WAITING:
            st.status = ABOARD
            if self.s["arena_respawn"] == "start":
                st.position = self.hatch_cell[st.start_hatch]
            else:
                st.position = self.alien_start
            self._emit(seat, "RESPAWN")
            st.fate, st.fate_round = FATE_ABOARD, -1
        self.turn = Turn(seat=seat, start_sector=st.position)
        st.turns += 1
        self._emit(seat, "TURN")
        self.decider = seat
        if self._pre_options(seat):
            self.phase = P_PRE
        else:
            self._enter_move()

    def _enter_move(self) -> None:
        """"É OBRIGATÓRIO MOVER O PERSONAGEM EM CADA TURNO." (Moving is compulsory each turn.)"""
        self.phase = P_MOVE
        self.decider = self.active

    def _move(self, seat: int, action: tuple) -> None:
        """Move (or stay, A28), then: a hatch for a human, an attack, or the sector's effect.

        "Depois de avançar, o jogador deve verificar a que tipo de Sector o seu personagem
        chegou. O tipo de Sector determina o que acontece de seguida." (After moving, the
        sector type reached decides what happens next.)"""
        st = self.seats[seat]
        name = action[0]
        if name in ("move", "move_attack"):
            st.position = action[1]
        else:
            self.turn.stayed = True
        self.turn.resolved_sector = st.position
        self._captain_first_stop(seat)
        if name in ("move_attack", "stay_attack"):
            self._begin_attack(seat)
            return
        if (name == "move" and self.kind[st.position] == HATCH and st.side == "human"
                and self._hatch_open(st.position)):
            self._reach_hatch(seat, st.position)
            return
        if self._post_options(seat):
            self.phase = P_POST
        else:
            self._resolve()

    def _captain_first_stop(self, seat: int) -> None:
        """Old Guard H.1: "O Capitão não bisca uma carta Sector Perigoso na primeira vez que entra
        num sector perigoso." (The Captain draws no Dangerous Sector card the first time he
        enters a dangerous sector.) A18 ``first_stop``: spent when his move first ends on one."""
        st = self.seats[seat]
        if (self.s["captain_exemption"] == "first_stop" and st.captain_pass == "unspent"
                and self.kind[st.position] == DANGER):
            st.captain_pass = "active"

    # ------------------------------------------------------------------ sector resolution

    def _resolve(self) -> None:
        """Safe: "se o personagem chega a um Sector Seguro, o seu turno terminou" (a safe sector
        ends the turn). Dangerous: "se o personagem chega a um Sector Perigoso, o jogador deve
        biscar uma carta Sector Perigoso e seguir as suas instruções" (draw a card and follow
        it), unless Sedatives, the Captain's pass, or A28 ``stay_quiet``."""
        seat = self.active
        st = self.seats[seat]
        sector = self.turn.resolved_sector
        draw = (self.kind[sector] == DANGER and not self.turn.sedated
                and st.captain_pass != "active"
                and not (self.turn.stayed and self.s["stuck_rule"] == "stay_quiet"))
        if draw and st.captain_pass == "unspent" and self.s["captain_exemption"] == "first_draw":
            st.captain_pass = "spent"
            draw = False
        if not draw:
            st.quiet_turns += 1
            self._emit(seat, "QUIET")
            self._enter_end()
            return
        self._draw_danger_card(seat)
        steps = ["announce", "item"]
        if self.s["item_before_noise"]:
            steps = ["item", "announce"]
        self.resolution_steps = steps + ["discard_card"]
        self._continue_resolution()

    def _draw_danger_card(self, seat: int) -> None:
        """"Se o baralho de cartas Sector Perigoso terminar, baralham-se as cartas descartadas e
        volta-se a colocar o baralho sobre a mesa." (If the deck runs out, the discards are
        shuffled into a new deck.) A12: ``on_draw`` reshuffles when a draw finds the deck empty,
        ``on_empty`` as soon as the last card is taken."""
        if not self.danger_deck:
            self._reshuffle_danger()
        self.card_in_play = self.danger_deck.pop(0)
        self.stats["danger_draws"] += 1
        card = self.cards.danger[self.card_in_play]
        self.seats[seat].last_card = (card.kind, card.item)
        self.turn.card_drawn = True
        if not self.danger_deck and self.s["reshuffle"] == "on_empty" and self.danger_discard:
            self._reshuffle_danger()

    def _reshuffle_danger(self) -> None:
        pile, self.danger_discard = self.danger_discard, []
        self.danger_deck = self.chance.shuffle("danger reshuffle", pile)
        self.stats["danger_reshuffles"] += 1

    def _continue_resolution(self) -> None:
        """Run the card's remaining steps; stop at a decision (P_NOISE, P_DISCARD)."""
        seat = self.active
        card = self.cards.danger[self.card_in_play]
        while self.resolution_steps:
            step = self.resolution_steps.pop(0)
            if step == "announce":
                if card.kind == "noise_here":
                    self._noise_in_your_sector(seat)
                elif card.kind == "silence":
                    self._silence(seat)
                else:
                    self.phase = P_NOISE
                    self.decider = seat
                    return
            elif step == "item":
                if self._card_gives_item(card):
                    self._draw_item(seat)
                    if len(self.seats[seat].items) > self._hand_limit(seat):
                        self.phase = P_DISCARD
                        self.decider = seat
                        return
            elif step == "discard_card":
                self._discard_danger_card()
        self._enter_end()

    def _noise_in_your_sector(self, seat: int) -> None:
        """"RUÍDO NO SECTOR: … deve anunciar a sua posição dizendo 'RUÍDO NO SECTOR [X, Y]' onde
        '[X, Y]' são as coordenadas do Sector a que chegou." (Announce the sector reached.)"""
        self.seats[seat].noises += 1
        self._emit(seat, "NOISE", self.turn.resolved_sector)

    def _announce_noise(self, seat: int, sector: int) -> None:
        """"RUÍDO EM QUALQUER SECTOR: … pode fingir a sua posição." (May fake its position.)"""
        st = self.seats[seat]
        st.noises += 1
        if sector != self.turn.resolved_sector:
            st.bluffs += 1
        self._emit(seat, "NOISE", sector)

    def _silence(self, seat: int) -> None:
        """"SILÊNCIO: … deve anunciar 'SILÊNCIO EM TODOS OS SECTORES'." (Announce silence.)"""
        self.seats[seat].silences += 1
        self._emit(seat, "SILENCE")

    def _card_gives_item(self, card) -> bool:
        """Advanced: "Se um jogador biscar uma dessas cartas, seja Humano ou Extraterrestre, deve
        biscar uma carta Objecto." (A card with the item icon makes human or alien draw an
        item.) Basic: "Os Objectos não são usados no jogo básico … devem ser ignorados."
        Old Guard J.4: "Os objectos nas cartas Sector Perigoso são ignorados. Em substituição,
        passam a biscar-se cartas Objecto em simultâneo com as cartas Silêncio." (Icons are
        ignored; an item is drawn with each Silence instead.)"""
        if not self.advanced:
            return False
        if self.old_guard:
            return card.kind == "silence"
        return card.item

    def _draw_item(self, seat: int) -> None:
        """"As CARTAS OBJECTO colocam-se à frente do jogador, de face para baixo." A13: an empty
        item deck is rebuilt from the item discards (default), or no more items."""
        if not self.item_deck and self.s["item_reshuffle"] and self.item_discard:
            pile, self.item_discard = self.item_discard, []
            self.item_deck = self.chance.shuffle("item reshuffle", pile)
            self.stats["item_reshuffles"] += 1
        if not self.item_deck:
            return
        card = self.item_deck.pop(0)
        st = self.seats[seat]
        st.items.append(card)
        if self.old_guard and st.role == "pilot" and self._item_kind(card) == "teleport":
            st.pilot_uses[card] = 3  # H.3: "pode usá-la até 3 vezes antes de a descartar"
        st.items_drawn += 1
        self.stats["item_draws"] += 1
        self._emit(seat, "ITEM_DRAWN", len(st.items))

    def _discard_danger_card(self) -> None:
        """"Devem ser sempre descartadas de face para baixo depois de completar as instruções."
        (Discarded face down once the instructions are done.)"""
        self.danger_discard.append(self.card_in_play)
        self.card_in_play = -1

    # ------------------------------------------------------------------ items

    def _pick_card(self, seat: int, kind: str) -> int:
        """The held card of a kind that goes: fewest Pilot uses left first, then lowest id."""
        st = self.seats[seat]
        cards = self._held(seat, kind)
        return min(cards, key=lambda c: (st.pilot_uses.get(c, 1), c))

    def _spend_item(self, seat: int, kind: str) -> None:
        """"Cada Objecto só pode ser usado uma vez. Depois de usado, o Objecto deve ser
        descartado." (Used once, then discarded.) H.3: the Pilot's Teleport up to 3 uses."""
        st = self.seats[seat]
        card = self._pick_card(seat, kind)
        st.used[kind] += 1
        if card in st.pilot_uses:
            st.pilot_uses[card] -= 1
            if st.pilot_uses[card] > 0:
                return
            del st.pilot_uses[card]
        st.items.remove(card)
        self.item_discard.append(card)

    def _declare_use(self, seat: int, kind: str) -> None:
        """"Quando se usa um Objecto, vira-se a carta de face para cima" (a used item is turned
        face up). Old Guard G.4: "Os jogadores não declaram quando usam objectos, excepto para o
        Teletransporte e para a Defesa. A carta objecto é simplesmente descartada sem ser
        revelada." (Uses are not declared, Teleport and Defence excepted.)"""
        if self.old_guard and kind not in ("teleport", "defence"):
            self._emit(seat, "ITEM_DISCARDED", -1)
        else:
            self._emit(seat, "ITEM_USED", kind)

    def _use_item(self, seat: int, action: tuple) -> None:
        name = action[0]
        if name == "use_spotlight":
            self._use_spotlight(seat, action[1])
        elif name == "use_teleport":
            self._use_teleport(seat)
        elif name == "use_adrenaline":
            self._use_adrenaline(seat)
        elif name == "use_sedatives":
            self._use_sedatives(seat)
        else:
            raise ValueError(action)

    def _use_spotlight(self, seat: int, target: int) -> None:
        """Spotlight: "escolhe-se um Sector e todos os jogadores (incluindo o que joga a carta)
        que estejam nesse Sector ou nalgum dos seis sectores adjacentes devem anunciar as
        coordenadas do Sector onde se encontram. Esta carta afecta tanto Humanos como
        Extraterrestres." (Every player, the user included, on the sector or one of its six
        neighbours announces its sector.) A19 (Old Guard): announced to all, or privately."""
        self._declare_use(seat, "spotlight")
        self._spend_item(seat, "spotlight")
        private = self.old_guard and self.s["old_guard_spotlight"] == "private"
        self._emit(seat, "SPOTLIGHT", target, (1 << seat) if private else None)
        lit = {target} | set(self._neighbours(target))
        for other in range(self.n):
            st = self.seats[other]
            if st.status == ABOARD and st.position in lit:
                aud = ((1 << seat) | (1 << other)) if private else None
                self._emit(other, "SEEN", st.position, aud)

    def _use_teleport(self, seat: int) -> None:
        """Teleport: "permite a um personagem mover-se directamente até ao Sector Humano a partir
        de qualquer parte da nave. Este movimento acrescenta-se ao movimento normal, que pode
        ocorrer antes ou depois do uso da carta." (Straight to the Human sector; in addition to
        the normal move, before or after it.)"""
        self._declare_use(seat, "teleport")
        self._spend_item(seat, "teleport")
        self.seats[seat].position = self.human_start

    def _use_adrenaline(self, seat: int) -> None:
        """Adrenaline: "permite a um jogador mover-se dois sectores no mesmo turno"."""
        self._declare_use(seat, "adrenaline")
        self._spend_item(seat, "adrenaline")
        self.turn.adrenaline += 1

    def _use_sedatives(self, seat: int) -> None:
        """Sedatives: "ao jogar esta carta, um personagem não precisa de biscar uma carta de
        Sector Perigoso, mesmo que entre num Sector Perigoso"."""
        self._declare_use(seat, "sedatives")
        self._spend_item(seat, "sedatives")
        self.turn.sedated = True

    def _use_attack_item(self, seat: int) -> None:
        """Attack: "esta carta permite ao jogador atacar, usando as mesmas regras que os
        Extraterrestres. Nota: os Humanos continuam a não poder mover-se mais do que um
        Sector." (Attack by the aliens' rules; humans still move one sector.)"""
        self._declare_use(seat, "attack")
        self._spend_item(seat, "attack")
        self._begin_attack(seat)

    def _discard_unused(self, seat: int, kind: str) -> None:
        """"Se biscar uma quarta carta Objecto, deve de imediato escolher uma carta para
        descartar." (With a fourth item, discard one at once.) A14: face down (default) or
        shown; A6: ES "debes descartar o utilizar" lets a human use one instead."""
        st = self.seats[seat]
        card = self._pick_card(seat, kind)
        st.items.remove(card)
        st.pilot_uses.pop(card, None)
        self.item_discard.append(card)
        st.discards += 1
        self._emit(seat, "ITEM_DISCARDED", kind if self.s["discard_revealed"] else -1)

    def _discard_all_items(self, seat: int) -> None:
        """ES: "Si algún jugador es eliminado, debe descartarse de todas las cartas que tenga"
        (an eliminated player discards every card), in ascending id order."""
        st = self.seats[seat]
        for card in sorted(st.items):
            self.item_discard.append(card)
        st.items = []
        st.pilot_uses = {}

    # ------------------------------------------------------------------ attacks

    def _begin_attack(self, attacker: int) -> None:
        """"1. O jogador que ataca anuncia 'ATACO NO SECTOR [X, Y]', onde '[X, Y]' representam as
        coordenadas do Sector a que o personagem acabou de chegar. 2. Se algum outro jogador
        também estiver nesse Sector, deve declará-lo." (Announce the attack on the sector just
        reached; every other player there declares it.) "Quando se ataca, não se bisca uma carta
        Sector Perigoso" (no card is drawn when attacking). Victims declare in order from the
        attacker's left. Defence: "jogada imediatamente depois do ataque", by a human holding
        it; A5 decides whether it answers a human's Attack item."""
        st = self.seats[attacker]
        sector = st.position
        self.turn.attacked = True
        st.attacks += 1
        self._emit(attacker, "ATTACK", sector)
        victims = [v for v in self._order_from(attacker, include_self=False)
                   if self.seats[v].status == ABOARD and self.seats[v].position == sector]
        for v in victims:
            self._emit(v, "PRESENT", sector)
        queue = []
        if self.advanced and not self.arena:
            if st.side == "alien" or self.s["defence_vs_human_attack"]:
                queue = [v for v in victims
                         if self.seats[v].side == "human" and self._holds(v, "defence")]
        self.attack = {"attacker": attacker, "sector": sector, "victims": victims,
                       "queue": queue, "protected": [], "cancelled": False}
        self._continue_attack()

    def _continue_attack(self) -> None:
        a = self.attack
        if a["queue"] and not a["cancelled"]:
            self.phase = P_DEFEND
            self.decider = a["queue"][0]
            return
        a["queue"] = []
        self._finish_attack()

    def _defend(self, seat: int, use: bool) -> None:
        """Defence: PT "esta carta anula o ataque, que fica sem efeito" (cancels the attack);
        ES "su ataque no te afecta" (its attack does not affect you). A4 ``self``: the holder
        survives; ``attack``: every victim survives and nobody else is asked."""
        a = self.attack
        a["queue"].pop(0)
        if not use:
            return
        self._declare_use(seat, "defence")
        self._spend_item(seat, "defence")
        self._emit(seat, "DEFENDED")
        a["protected"].append(seat)
        if self.s["defence_scope"] == "attack":
            a["cancelled"] = True

    def _finish_attack(self) -> None:
        """"Esse personagem fica automaticamente eliminado, quer seja Humano ou Extraterrestre,
        e o jogador termina aqui a sua partida. 3. Se o jogador é eliminado, deve revelar a sua
        carta Personagem aos adversários." (The victim is eliminated, human or alien, and
        reveals its character.) Then feeding and the end checks."""
        a = self.attack
        attacker = a["attacker"]
        ast = self.seats[attacker]
        killed_human = False
        for v in a["victims"]:
            if a["cancelled"] or v in a["protected"]:
                continue
            vst = self.seats[v]
            was_human = vst.side == "human"
            ast.kills += 1
            if was_human:
                ast.human_kills += 1
                killed_human = True
            self._eliminate_by_attack(v, attacker)
        if killed_human:
            self._feed(attacker)
        self.attack = None
        if self._end_checks():
            return
        self._enter_end()

    def _eliminate_by_attack(self, v: int, attacker: int) -> None:
        """The victim's elimination, with Infection B.3 ("Os Humanos eliminados transformam-se
        em Extraterrestres e continuam o jogo a partir do sector em que foram eliminados":
        killed humans become aliens on that sector) and Arena A.5 (they come back next turn)."""
        st = self.seats[v]
        was_human = st.side == "human"
        st.revealed = True
        st.killed_by = attacker
        self._emit(v, "KILLED", st.character)
        if self.infection and was_human:
            st.side = "alien"
            st.infected = True
            st.fate, st.fate_round = FATE_INFECTED, self.round
            if not self.s["infected_keep_items"]:
                self._discard_all_items(v)
            self._emit(v, "INFECTED", st.position)
            self.last_removal = "killed"
            return
        self._discard_all_items(v)
        if self.arena:
            st.status = WAITING
            st.position = -1
            st.fate, st.fate_round = FATE_KILLED, self.round
            return
        st.status = ELIMINATED
        st.position = -1
        st.fate, st.fate_round = FATE_KILLED, self.round
        if was_human:
            self.last_removal = "killed"

    def _feed(self, attacker: int) -> None:
        """Feeding (advanced; A29 also basic; never under Infection C.3: "Os Extraterrestres não
        aumentam a sua capacidade de movimento quando eliminam um Humano"). ES: "Si matas a
        uno, o más humanos … tu velocidad aumenta para el resto del juego."""
        st = self.seats[attacker]
        if st.side != "alien" or st.fed or self.infection:
            return
        if not (self.advanced or self.s["feeding_in_basic"]):
            return
        st.fed = True
        st.fed_round = self.round

    # ------------------------------------------------------------------ escape hatches

    def _reach_hatch(self, seat: int, cell: int) -> None:
        """Basic: "Um dos Humanos alcança uma escotilha de saída. ESSE JOGADOR ABANDONA A NAVE E
        GANHA O JOGO." Infection D.2: "Não se usam as cartas Escotilha, mas cada escotilha pode
        apenas ser usada uma vez e fica bloqueada depois da utilização." Advanced: "Quando um
        jogador Humano chega a uma das escotilhas, deve revelar a que escotilha chegou e depois
        biscar uma Carta Escotilha" (reveal the hatch and draw a hatch card): red, "a escotilha
        está inutilizada … nenhum outro jogador pode entrar no Sector desta escotilha"; green,
        "o jogador consegue fugir da nave espacial. No entanto, essa escotilha fica bloqueada"."""
        k = self.hatch_of_cell[cell]
        if not self.advanced:
            self._escape(seat, k)
            self._game_over(END_ESCAPE)
            return
        if self.infection:
            self.hatch_state[k] = "used"
            self.stats["hatches_used"] += 1
            self._escape(seat, k)
            green = True
        else:
            self._emit(seat, "HATCH", k)
            card = self.hatch_deck.pop(0)
            green = self.cards.hatch[card] == "green"
            if green:
                self.hatch_state[k] = "used"
                self.stats["hatches_used"] += 1
                self._escape(seat, k)
            else:
                self.hatch_state[k] = "damaged"
                self.stats["hatches_red"] += 1
                self._emit(seat, "HATCH_RED", k)
        self._strand_if_no_hatch()
        if self._end_checks():
            return
        if green:
            self._end_turn()
        else:
            self._enter_end()

    def _escape(self, seat: int, k: int) -> None:
        """The human leaves the ship. A15: its items leave with it (default) or are discarded."""
        st = self.seats[seat]
        self._emit(seat, "ESCAPED", k)
        st.status = ESCAPED
        st.position = -1
        st.escape_hatch = k
        st.fate, st.fate_round = FATE_ESCAPED, self.round
        if self.s["escaped_items_discarded"]:
            self._discard_all_items(seat)
        self.last_removal = "escaped"

    def _strand_if_no_hatch(self) -> None:
        """"Se se torna impossível para um jogador fugir (porque todas as Escotilhas estão
        inutilizadas ou bloqueadas), esse jogador é automaticamente eliminado do jogo." (With
        every hatch damaged or blocked, the humans aboard are eliminated.)"""
        if any(state == "open" for state in self.hatch_state.values()):
            return
        for v in range(self.n):
            st = self.seats[v]
            if st.status == ABOARD and st.side == "human":
                self._emit(v, "STRANDED")
                st.status = ELIMINATED
                st.position = -1
                st.revealed = True
                st.fate, st.fate_round = FATE_STRANDED, self.round
                self._discard_all_items(v)
                self.last_removal = "stranded"

    # ------------------------------------------------------------------ end of turn, end of game

    def _enter_end(self) -> None:
        """"Pode até jogar Cartas Objecto depois de mover o seu personagem, imediatamente antes
        do turno do próximo jogador." (Items may be played after moving, right before the next
        player's turn.)"""
        if self._end_options(self.active):
            self.phase = P_END
            self.decider = self.active
        else:
            self._end_turn()

    def _takes_turns(self, seat: int) -> bool:
        st = self.seats[seat].status
        return st == ABOARD or st == WAITING

    def _end_turn(self) -> None:
        """"…o seu turno termina e é a vez do jogador à sua esquerda." (The turn ends and the
        player to the left plays.) After the last turn of round ``max_rounds`` the game ends by
        time: "Jogam-se 39 turnos antes que os Humanos consigam escapar: OS EXTRATERRESTRES
        GANHAM O JOGO" / ES "39 rondas"."""
        active = self.seats[self.active]
        if active.captain_pass == "active":
            active.captain_pass = "spent"
        order = self._order_from(self.first_player, include_self=True)
        pos = order.index(self.active)
        for seat in order[pos + 1:]:
            if self._takes_turns(seat):
                self._start_turn(seat)
                return
        if self.round >= self.max_rounds:
            self._time_up()
            return
        self.round += 1
        for seat in order:
            if self._takes_turns(seat):
                self._start_turn(seat)
                return
        self._game_over(END_TIME)  # nobody left to play (cannot happen with the end checks)

    def _end_checks(self) -> bool:
        """Run after an elimination, escape or hatch closure; True if the game ended.

        * Basic: "Todos os jogadores Humanos são eliminados antes que qualquer um deles consiga
          abandonar a nave: OS EXTRATERRESTRES GANHAM O JOGO." (A human's escape ends it at once.)
        * Advanced: "O jogo termina quando o último jogador Humano consegue fugir ou é
          eliminado." (When the last human escapes or is eliminated.)
        * Arena with A26 ``first``: the first seat with enough kills ends it (E.3).
        """
        if self.arena:
            if self.s["arena_end"] == "first" and any(
                    st.kills >= self._threshold() for st in self.seats):
                self._game_over(END_ARENA)
                return True
            return False
        humans_aboard = any(st.status == ABOARD and st.side == "human" for st in self.seats)
        if humans_aboard:
            return False
        self._game_over(END_NO_HUMAN if self.advanced else END_ALL_KILLED)
        return True

    def _time_up(self) -> None:
        """Advanced: "No final dos 39 turnos, todos os Humanos ainda a bordo da nave espacial são
        eliminados e os Extraterrestres ganham!" (Humans still aboard are eliminated.)"""
        if self.advanced and not self.arena:
            for st in self.seats:
                if st.status == ABOARD and st.side == "human":
                    st.status = ELIMINATED
                    st.position = -1
                    st.revealed = True
                    st.fate, st.fate_round = FATE_TIME, self.round
        self._game_over(END_TIME)

    def _game_over(self, reason: int) -> None:
        self.end_reason = reason
        self._decide_winners(reason)
        self.phase = P_OVER
        self.decider = -1
        self._emit(-1, "GAME_OVER", reason)

    def _decide_winners(self, reason: int) -> None:
        """Who won.

        * Basic: the escaping human alone ("ESSE JOGADOR … GANHA O JOGO"); otherwise the aliens.
        * Advanced: "Todos os Humanos que conseguiram fugir são vencedores! Os Extraterrestres
          ganham se conseguirem eliminar o último Humano vivo a bordo … Quaisquer Humanos
          eliminados pelos Extraterrestres perdem o jogo." A16: eliminated aliens win too
          (default); A17: a stranded last human counts as eliminated (default); A20: an
          infected human wins with the aliens (default).
        * Arena E.3: "Qualquer jogador que elimine pelo menos um certo número de jogadores … é
          um vencedor" (every player with enough kills wins).
        """
        if self.arena:
            t = self._threshold()
            self.winners = [st.kills >= t for st in self.seats]
            self.alien_win = any(self.winners)
            return
        if reason == END_ESCAPE:
            alien_win = False
        elif reason in (END_ALL_KILLED, END_TIME):
            alien_win = True
        else:  # END_NO_HUMAN
            alien_win = (self.last_removal == "killed"
                         or (self.last_removal == "stranded" and bool(self.s["stranded_alien_win"])))
        self.alien_win = alien_win
        out = []
        for st in self.seats:
            if st.start_side == "human" and st.side == "human":
                out.append(st.status == ESCAPED)
            elif st.start_side == "human":  # infected
                ok = alien_win and bool(self.s["infected_win_with_aliens"])
                out.append(ok and (st.status == ABOARD or bool(self.s["dead_aliens_win"])))
            else:
                out.append(alien_win and (st.status == ABOARD or bool(self.s["dead_aliens_win"])))
        self.winners = out

    # ------------------------------------------------------------------ Arena start choice

    def _choose_start_hatch(self, seat: int, k: int) -> None:
        self._set_start_hatch(seat, k)
        self.start_queue.pop(0)
        if self.start_queue:
            self.decider = self.start_queue[0]
        else:
            self._begin_play()

    # ------------------------------------------------------------------ views

    def phase_of(self, seat: int) -> str:
        return self.phase if seat == self.decider else ""

    def snapshot(self) -> dict:
        """The whole state (omniscient), in rulebook terms.

        Keys:
          ``round`` (1..max_rounds), ``first_player``, ``active`` (the seat whose turn it is),
          ``phase`` (P_START … P_END, P_OVER), ``to_move`` (the deciding seat, -1 when over),
          ``over``, ``end_reason`` (-1 while playing; 0..4 as the output column), ``alien_win``,
          ``won`` (per seat);
          ``seats``: per seat a dict of :class:`Seat` fields: ``character``, ``role``,
          ``start_side``, ``side``, ``status`` (aboard / eliminated / escaped / waiting),
          ``position`` (cell id, -1 off the board), ``start_hatch``, ``items`` (card ids),
          ``item_kinds`` (kind counts), ``pilot_uses``, ``fed``, ``fed_round``,
          ``captain_pass``, ``revealed``, ``last_card`` and the outcome counters;
          ``turn``: the active seat's flags (``start_sector`` s0, ``adrenaline``, ``sedated``,
          ``attacked``, ``card_drawn``, ``stayed``, ``resolved_sector``);
          ``danger_deck`` (top first), ``danger_discard`` (in discard order), ``card_in_play``;
          ``item_deck``, ``item_discard``, ``hatch_deck``;
          ``hatches``: hatch number -> open / damaged / used / absent;
          ``attack``: the attack being resolved (attacker, sector, victims, defence queue,
          protected, cancelled) or None;
          ``resolution_steps``: the card steps still to run;
          ``log``: every event (round, actor, kind, arg, audience);
          ``stats``: deck activity and hatch counts.
        """
        seats = []
        for st in self.seats:
            d = asdict(st)
            d["item_kinds"] = {k: sum(1 for c in st.items if self._item_kind(c) == k) for k in ITEM_KINDS}
            seats.append(d)
        return {
            "round": self.round, "first_player": self.first_player, "active": self.active,
            "phase": self.phase, "to_move": self.to_move(), "over": self.over(),
            "end_reason": self.end_reason, "alien_win": self.alien_win, "won": self.won(),
            "seats": seats, "turn": asdict(self.turn),
            "danger_deck": list(self.danger_deck), "danger_discard": list(self.danger_discard),
            "card_in_play": self.card_in_play,
            "item_deck": list(self.item_deck), "item_discard": list(self.item_discard),
            "hatch_deck": list(self.hatch_deck),
            "hatches": {k: self.hatch_state.get(k, "absent") for k in range(1, 5)},
            "attack": None if self.attack is None else {
                k: (list(v) if isinstance(v, list) else v) for k, v in self.attack.items()},
            "resolution_steps": list(self.resolution_steps),
            "log": list(self.log), "stats": dict(self.stats),
        }

    def observation(self, seat: int) -> dict:
        """What ``seat`` may know (interface, "Information").

        ``private``: its own seat number, character (-1 in Arena), current and starting side,
        position, turn-start sector (when it is the active seat), Arena start hatch, item
        counts per kind and the Pilot's uses left, fed, the Captain's pass, the current phase
        when it decides, the turn flags when it is the active seat, the last Dangerous Sector
        card it drew (kind, icon).
        ``public``: settings, first player, round, active seat, per seat (status, revealed
        character, items held, kills), hatch states, deck counts.
        ``log``: the events whose audience includes the seat.
        """
        st = self.seats[seat]
        mine = self.active == seat and self.phase != P_OVER
        private = {
            "seat": seat, "character": st.character, "side": st.side,
            "start_side": st.start_side, "position": st.position,
            "start_sector": self.turn.start_sector if mine else -1,
            "start_hatch": st.start_hatch,
            "items": {k: sum(1 for c in st.items if self._item_kind(c) == k) for k in ITEM_KINDS},
            "pilot_uses": sorted(st.pilot_uses.values()),
            "fed": st.fed, "captain_pass": st.captain_pass,
            "phase": self.phase_of(seat),
            "adrenaline": self.turn.adrenaline if mine else 0,
            "sedated": self.turn.sedated if mine else False,
            "card_drawn": self.turn.card_drawn if mine else False,
            "last_card": st.last_card,
        }
        public = {
            "map": self.map.name, "mode": self.mode, "scenario": self.scenario,
            "players": self.n, "max_rounds": self.max_rounds,
            "first_player": self.first_player, "round": self.round, "active": self.active,
            "seats": [{"status": o.status, "character": o.character if o.revealed else -1,
                       "items": len(o.items), "kills": o.kills} for o in self.seats],
            "hatches": {k: self.hatch_state.get(k, "absent") for k in range(1, 5)},
            "danger_deck": len(self.danger_deck), "danger_discard": len(self.danger_discard),
            "item_deck": len(self.item_deck), "item_discard": len(self.item_discard),
            "hatch_deck": len(self.hatch_deck),
        }
        log = [e for e in self.log if e[4] >> seat & 1]
        return {"private": private, "public": public, "log": log}

    def results(self) -> dict:
        """The interface's output columns, once the game is over."""
        seats = self.seats
        order = self._order_from(self.first_player, include_self=True)
        game = {
            "rounds": self.round, "turns": sum(st.turns for st in seats),
            "first_player": self.first_player, "end_reason": self.end_reason,
            "humans": sum(st.start_side == "human" for st in seats),
            "aliens": sum(st.start_side == "alien" for st in seats),
            "escaped": sum(st.status == ESCAPED for st in seats),
            "humans_killed": sum(st.human_kills for st in seats),
            "aliens_killed": sum(st.kills - st.human_kills for st in seats),
            "stranded": sum(st.fate == FATE_STRANDED for st in seats),
            "time_eliminated": sum(st.fate == FATE_TIME for st in seats),
            "infected": sum(st.infected for st in seats),
            "human_win": int(any(w and st.start_side == "human" and st.side == "human"
                                 for w, st in zip(self.winners, seats))),
            "alien_win": int(self.alien_win and not self.arena),
            "draw": int(not any(self.winners)) if self.arena else 0,
            **self.stats,
        }
        per_seat = []
        for i, st in enumerate(seats):
            per_seat.append({
                "won": int(self.winners[i]), "side": int(st.start_side == "alien"),
                "final_side": int(st.side == "alien"), "character": st.character,
                "order": order.index(i), "fate": st.fate, "fate_round": st.fate_round,
                "escape_hatch": st.escape_hatch, "killed_by": st.killed_by, "kills": st.kills,
                "human_kills": st.human_kills, "fed_round": st.fed_round, "attacks": st.attacks,
                "noises": st.noises, "bluffs": st.bluffs, "silences": st.silences,
                "quiet_turns": st.quiet_turns, "items_drawn": st.items_drawn,
                **{f"used_{k}": st.used[k] for k in ITEM_KINDS}, "discards": st.discards,
            })
        return {"game": game, "seats": per_seat}


def load_data(settings: dict):
    """The (GameMap, Cards) pair the settings name, through the project's loader."""
    from simkit.games.eftaios import data_model as dm
    m = dm.load_map(settings.get("map_data") or settings["map"])
    c = dm.load_cards(settings.get("card_data") or "")
    return m, c


def default_settings(**overrides) -> dict:
    import dataclasses

    from simkit.games.eftaios.params import EftaiosParams
    d = dataclasses.asdict(EftaiosParams())
    d.update(overrides)
    return d
