"""Independent reference model of O.V.N.I. (Marcos Macri, MS Jogos), written from the rulebook.

Sources: the Portuguese rulebook ``shared/rules/ovni.pt.txt`` (every rule below quotes the
sentence it implements, in Portuguese with an English translation), the interface extract of
the specification (settings A1-A23, settled readings A24-A43, decision points D1-D5, chance
order, information) and the data files read by ``simkit.games.ovni.data_model`` (cities,
routes, planets, alien cards, abilities, missions, scoring values). The engine is NOT read.

Plain Python, written for clarity, not speed. The model never draws chance itself: it asks
a ``chance`` object (``shuffle(tag, items)``) for each outcome in the specification's order
(D4): set-up S1-S6 in :meth:`Model.setup`, and R1-R2 at the start of every round.

Conventions (the interface's):

* seats 0..n-1; planets at the table are the seats, plus the dummy planet (index 2) with two
  players. ``N`` planets in all.
* classes 0..3 = Pilots, Abductors, Builders, Military; human kinds 0..5 in decks-file order;
  areas 0..3 = A..D; slots 0..3 (the rulebook's 1..4).
* cities are indices 0..11 (board number - 1) everywhere in this module, in the action
  tuples and in the snapshot. Docstrings speak of board numbers where the rulebook does.

Semantic actions (one per action range of D2, same parameters as the ids):

    ("keep", i)              i < 3: keep only mission slot i; 3 + i: keep the two other slots
    ("start_pair", a, b)     starting classes a < b
    ("start_triple", k)      every class but k (three_starting_aliens card)
    ("dummy_alien", k)       give the dummy one alien of class k (set-up or its energy card)
    ("place", area, value)   own command token of that value in the area's next slot
    ("place_dummy", area)    the dummy's next queued token in the area's next slot
    ("pick", k)              one alien of class k from the pool of won cards
    ("energy_alien", k)      energy bonus 1, receiving class k
    ("energy_three",)        energy bonus 2
    ("shield", x)            x = 1: park two Military (force-field card), 0: do not
    ("activate", k)          activate group k
    ("end_turn",)
    ("move", f, t)           move one own UFO from city f to adjacent city t
    ("abduct", c, d)         abduct in c; d != c: swap c's human with d's first (swap_human)
    ("launch", c)            launch a UFO from the pad into city c
    ("capture", t, k)        capture a class-k alien of planet t
    ("destroy", t, c)        destroy a UFO of planet t in city c
    ("end_group",)

:func:`action_id` and :func:`action_from_id` convert to and from the engine's ids (D2 order).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from types import SimpleNamespace
from typing import Any

P, A, B, M = 0, 1, 2, 3
CLASS_NAMES = ("pilots", "abductors", "builders", "military")
N_CITIES = 12
N_CLASSES = 4
N_KINDS = 6
VALUES = (2, 3, 4, 5, 6)
SLOTS = 4
PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))

# ---- action ids (D2) -------------------------------------------------------------------------
ACTION_RANGES = (
    ("keep", 6), ("start_pair", 6), ("start_triple", 4), ("dummy_alien", 4), ("place", 20),
    ("place_dummy", 4), ("pick", 4), ("energy_alien", 4), ("energy_three", 1), ("shield", 2),
    ("activate", 4), ("end_turn", 1), ("move", 144), ("abduct", 144), ("launch", 12),
    ("capture", 16), ("destroy", 48), ("end_group", 1),
)
OFFSETS: dict[str, int] = {}
_o = 0
for _name, _count in ACTION_RANGES:
    OFFSETS[_name] = _o
    _o += _count
MAX_ACTIONS = _o  # 425


def action_id(action: tuple) -> int:
    """The engine's action id of a semantic action tuple (D2)."""
    name, *a = action
    if name == "start_pair":
        local = PAIRS.index((a[0], a[1]))
    elif name == "place":
        local = a[0] * 5 + (a[1] - 2)
    elif name in ("move", "abduct"):
        local = a[0] * 12 + a[1]
    elif name == "capture":
        local = a[0] * 4 + a[1]
    elif name == "destroy":
        local = a[0] * 12 + a[1]
    elif name in ("energy_three", "end_turn", "end_group"):
        local = 0
    else:
        local = a[0]
    return OFFSETS[name] + local


def action_from_id(i: int) -> tuple:
    """The semantic action tuple of an engine action id (D2)."""
    for name, count in ACTION_RANGES:
        off = OFFSETS[name]
        if off <= i < off + count:
            x = i - off
            if name == "start_pair":
                return (name, *PAIRS[x])
            if name == "place":
                return (name, x // 5, x % 5 + 2)
            if name in ("move", "abduct", "destroy"):
                return (name, x // 12, x % 12)
            if name == "capture":
                return (name, x // 4, x % 4)
            if name in ("energy_three", "end_turn", "end_group"):
                return (name,)
            return (name, x)
    raise ValueError(f"action id {i} out of range 0..{MAX_ACTIONS - 1}")


def default_settings() -> dict:
    """The settings of ``OVNIParams`` with their defaults (the params are settings, not rules)."""
    from simkit.games.ovni.params import OVNIParams

    return dataclasses.asdict(OVNIParams())


def load_data(settings: dict):
    """(board, decks) as the game's loader returns them for these settings."""
    from simkit.games.ovni import data_model

    return data_model.load(SimpleNamespace(**settings))


# ---- state pieces ----------------------------------------------------------------------------
@dataclasses.dataclass
class Token:
    """A command token on a recruitment slot."""

    planet: int
    value: int
    face_up: bool
    cancelled: bool = False


class PlanetState:
    """Everything that belongs to one planet at the table (a seat or the dummy)."""

    def __init__(self, index: int, dummy: bool):
        self.index = index
        self.dummy = dummy
        self.home = index  # home planet index in the board file (S1)
        self.own = [0] * N_CLASSES  # never-captured alien tokens under the board
        self.capd = [0] * N_CLASSES  # tokens it captured from others (marked, R12.3)
        self.lost = [0] * N_CLASSES  # its tokens captured by others
        self.pairs_built = 0  # Builder pairs that have already built (R6)
        self.ufos = [0] * N_CITIES
        self.frozen = [0] * N_CITIES  # mapping UFOs that may not move this round (R9.5)
        self.pad = 0
        self.reserve = 0
        self.launched = 0
        self.mapped = [False] * N_CITIES
        self.humans = [0] * N_KINDS
        self.hand = list(VALUES)
        self.six_uses = 0
        self.six_spent = False
        self.energy = 0  # 0 neutral, 1 bonus 1, 2 bonus 2
        self.force_field = False
        self.parked = 0
        self.abilities: list[int] = []
        self.dealt_missions: list[int] = []
        self.kept_missions: list[int] = []  # mission card indices, in slot order
        self.kept_slots: list[int] = []
        self.has_kept = False
        self.start_choice: tuple | None = None
        # this round
        self.areas_won: list[int] = []
        self.received = 0  # aliens received from area awards this round
        # statistics (output columns)
        self.stats = Counter()

    def holds(self, k: int) -> int:
        """'Holds k': every token of class k under the board, captured ones included."""
        return self.own[k] + self.capd[k]


class Model:
    """The rules of O.V.N.I. as a plain-Python state machine.

    ``snapshot()`` keys (full state, hidden information included):

    * ``round``, ``phase`` (0 set-up, 1 recruitment, 2 actions), ``step`` (the decision kind
      pending: keep/start/dummy_start/place/pick/energy/dummy_energy/shield/activate/group/over),
      ``to_move``;
    * ``order1``, ``order2``: the planets in phase-1 / phase-2 turn order;
    * ``stock`` (per class), ``deck`` (card indices, top first), ``discard`` (pile order),
      ``areas`` (card index per area this round, or None once discarded), ``slots`` (per area a
      list of [planet, value, face_up, cancelled]), ``revealed``;
    * ``city_humans`` (kind per city index, None if empty), ``track`` (kinds, next refill
      first);
    * ``dummy_queue`` (the dummy's shuffled tokens) and ``dummy_placed``;
    * ``planets``: per planet a dict with ``home``, ``own``, ``captured`` (tokens it captured),
      ``lost``, ``holds``, ``pairs_built``, ``ufos``, ``frozen``, ``pad``, ``reserve``,
      ``launched``, ``mapped``, ``humans``, ``hand``, ``six_uses``, ``six_spent``, ``energy``,
      ``force_field``, ``parked``, ``abilities``, ``dealt_missions``, ``kept_missions``,
      ``areas_won``, ``received``;
    * ``pick`` (picker, pool, picks left) during PICK; ``energy_queue``; ``shield_queue``;
    * ``turn``: active seat, groups activated, L, active group, budget, launches, attacks,
      previous target, targets;
    * ``end_class``, ``reshuffles``, ``over``, ``capped``, and once over ``scores`` (the six
      categories per seat), ``total``, ``winners``, ``draw``.
    """

    # ------------------------------------------------------------------ construction
    def __init__(self, settings: dict | None = None, data: Any = None):
        st = default_settings()
        st.update(settings or {})
        self.s = st
        if data is None:
            data = load_data(st)
        self.board, self.decks = data
        self.n = int(st["players"])
        self.dummy = 2 if self.n == 2 else None
        self.N = 3 if self.n == 2 else self.n
        self.n_areas = 4 if self.n == 4 else 3
        self.adj = self.board.adjacency()
        self.neigh = [[t for t in range(N_CITIES) if self.adj[f][t]] for f in range(N_CITIES)]
        self.pl = [PlanetState(i, i == self.dummy) for i in range(self.N)]
        self.seats = list(range(self.n))
        # game state
        self.round = 0
        self.phase = 0
        self.step = "setup"
        self.actor = -1
        self.order1: list[int] = []
        self.order2: list[int] = []
        self.stock = [0] * N_CLASSES
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.areas: list[int | None] = []
        self.area_on_board: list[bool] = []
        self.slots: list[list[Token]] = []
        self.revealed = False
        self.track: list[int] = []
        self.city_humans: list[int | None] = [None] * N_CITIES
        self.dummy_queue: list[int] = []
        self.dummy_placed = 0
        self.area_winner: list[int | None] = []
        self.award_next = 0
        self.pick: dict | None = None
        self.energy_queue: list[int] = []
        self.shield_queue: list[int] = []
        self.turn: dict | None = None
        self.seat_turns: list[int] = []
        self.turn_i = 0
        self.setup_i = 0
        self.dummy_start: list[int] = []
        # placement schedule
        self.sched: list[tuple[str, int]] = []
        self.sched_i = 0
        self.cycle: list[int] = []
        self.cycle_i = 0
        self.idle = 0
        self.place_done = False
        # end
        self.end_class: int | None = None
        self.reshuffles = 0
        self.areas_unclaimed = 0
        self.dummy_areas = 0
        self.is_over = False
        self.capped = False
        self.scores: list[dict] | None = None
        self.totals: list[int] | None = None
        self.winners: list[int] = []
        self.is_draw = False
        self._pending_round_end = False

    # ------------------------------------------------------------------ ability helpers
    def _ability(self, p: int, effect: str):
        """The ability card of ``effect`` held by planet p, or None."""
        for i in self.pl[p].abilities:
            if self.decks.abilities[i].effect == effect:
                return self.decks.abilities[i]
        return None

    def _ability_usable(self, ab) -> bool:
        """A21 ``force_field_2p``: a card with ``min_players`` above the player count is either
        not dealt (remove) or dealt and dead (dead); either way it never acts."""
        mp = dict(ab.params).get("min_players")
        return mp is None or self.n >= mp

    # ------------------------------------------------------------------ set-up (R1)
    def setup(self, chance) -> None:
        """PREPARAÇÃO: chance S1-S6 in the specification's order, then the fixed set-up steps,
        then the first decision (KEEP, seat 0)."""
        st = self.s
        # S1 -- "Cada jogador escolhe um planeta para jogar" (each player chooses a planet): A18.
        perm = chance.shuffle("S1 planets", [0, 1, 2, 3]) if st["planets"] == "random" else [0, 1, 2, 3]
        for i in range(self.N):
            self.pl[i].home = perm[i]
        # S2 -- "Embaralhe as 16 cartas de aliens e forme uma pilha" (shuffle the alien cards).
        self.deck = list(chance.shuffle("S2 alien deck", list(range(len(self.decks.alien_cards)))))
        # S3/S4 -- "Separe ... uma peça de cada cor. Coloque-as em qualquer ordem, na trilha ...
        # distribua as peças restantes, uma em cada cidade ... de forma totalmente aleatória"
        # (one piece of each colour on the track in any order; the rest one per city at random).
        self.track = list(chance.shuffle("S3 human track", list(range(N_KINDS))))
        city_pieces = [k for k in range(N_KINDS) for _ in range(self.decks.humans[k].pieces - 1)]
        self.city_humans = list(chance.shuffle("S4 city humans", city_pieces))
        # S5 -- "Embaralhe as 10 cartas de habilidades e distribua duas para cada jogador"
        # (shuffle the 10 ability cards, deal two to each player); A21 removes force field (2p).
        in_play = [i for i, ab in enumerate(self.decks.abilities)
                   if self._ability_usable(ab) or st["force_field_2p"] == "dead"]
        abil = chance.shuffle("S5 ability deck", in_play)
        for s in self.seats:
            self.pl[s].abilities = [abil[2 * s], abil[2 * s + 1]]
        # S6 -- "Embaralhe as 16 cartas de missões e distribua três para cada jogador"
        # (shuffle the 16 mission cards and deal three to each player).
        mis = chance.shuffle("S6 mission deck", list(range(len(self.decks.missions))))
        for s in self.seats:
            self.pl[s].dealt_missions = [mis[3 * s], mis[3 * s + 1], mis[3 * s + 2]]
        self._setup_stock()
        self._setup_ufos()
        self._setup_prebuilt()
        self.phase = 0
        self.step = "keep"
        self.setup_i = 0
        self.actor = 0

    def _setup_stock(self) -> None:
        """R1 step 4: "Separe as 80 fichas de aliens por tipos ... e forme um estoque geral.
        Obs: em partidas com dois ou três jogadores, retire 4 fichas de cada tipo" (sort the 80
        alien tokens into a general stock; with two or three players remove 4 of each type)."""
        per = self.decks.aliens_per_class - (self.decks.aliens_removed_small if self.n <= 3 else 0)
        self.stock = [per] * N_CLASSES

    def _setup_ufos(self) -> None:
        """R1 step 6: "coloca uma peça de ovni de sua cor no espaço aéreo de São Paulo (cidade 1).
        O jogador à esquerda deste faz o mesmo, e coloca um ovni em Washington (cidade 2), e isto
        prossegue ... até que as doze cidades tenham recebido um ovni" (one UFO per city in
        number order, seats taking turns clockwise). Two players (R19.3): "são colocados dois
        ovnis do jogador imaginário no espaço aéreo de Madri e mais uma ficha de mapeamento. Isto
        continua, seguindo a ordem numérica das cidades" (then two dummy UFOs in Madrid plus a
        mapping token; this goes on in number order): the dummy maps cities 3, 6, 9 and 12.
        Step 10: "Coloque suas peças restantes de ovnis na reserva" (remaining UFOs to the
        reserve)."""
        for c in range(N_CITIES):
            p = c % self.N
            if p == self.dummy:
                self.pl[p].ufos[c] += 2
                self.pl[p].mapped[c] = True
            else:
                self.pl[p].ufos[c] += 1
        for pl in self.pl:
            pl.reserve = self.decks.ufos_per_player - sum(pl.ufos)

    def _setup_prebuilt(self) -> None:
        """R17.3 (prebuilt_ufo): "Na fase de preparação do jogo, o jogador transfere uma peça de
        ovni, de sua reserva para a plataforma de lançamento" (at set-up the player moves a UFO
        from his reserve to his launch pad)."""
        for s in self.seats:
            ab = self._ability(s, "prebuilt_ufo")
            if ab is not None:
                k = min(ab.param("ufos"), self.pl[s].reserve, self.decks.launch_pad)
                self.pl[s].reserve -= k
                self.pl[s].pad += k

    def _keep(self, seat: int, i: int) -> None:
        """R1.10: "Cada jogador poderá manter nas mãos uma ou no máximo duas cartas. Missões
        descartadas são devolvidas à caixa" (each player keeps one or at most two missions;
        discarded ones go back to the box)."""
        pl = self.pl[seat]
        slots = [i] if i < 3 else [j for j in range(3) if j != i - 3]
        pl.kept_slots = slots
        pl.kept_missions = [pl.dealt_missions[j] for j in slots]
        pl.has_kept = True

    def _start_options(self, seat: int) -> list[tuple]:
        """R1.11: "deverá escolher duas fichas de aliens diferentes ... nenhum jogador pode
        escolher exatamente a mesma dupla de aliens de um outro jogador" (choose two different
        aliens; nobody may choose exactly another player's pair). R17.1: "ao invés de duas
        fichas, ele escolhe três fichas diferentes quaisquer" (three different ones instead)."""
        ab = self._ability(seat, "starting_aliens")
        if ab is not None and ab.param("aliens") == 3:
            return [("start_triple", k) for k in range(N_CLASSES)]
        taken = {self.pl[s].start_choice for s in range(seat)}
        return [("start_pair", a, b) for a, b in PAIRS if (a, b) not in taken]

    def _dummy_start_options(self, seat: int) -> list[tuple]:
        """R19.4: "O 3º jogador também inicia o jogo com duas fichas de aliens. Elas são
        escolhidas, uma por cada jogador, logo após ambos terem escolhido seus próprios aliens"
        (the dummy starts with two aliens, one chosen by each player). A22 ``dummy_start``:
        same_rules = two different classes, not a seat's pair; free = anything."""
        if self.s["dummy_start"] == "free" or not self.dummy_start:
            return [("dummy_alien", k) for k in range(N_CLASSES)]
        c0 = self.dummy_start[0]
        pairs = {self.pl[s].start_choice for s in self.seats}
        return [("dummy_alien", k) for k in range(N_CLASSES)
                if k != c0 and (min(c0, k), max(c0, k)) not in pairs]

    # ------------------------------------------------------------------ aliens and building
    def _receive(self, p: int, k: int, count: int = 1) -> int:
        """R5.3.4: "quando um jogador deve receber uma ou mais fichas de aliens de um
        determinado tipo que não está mais disponível no estoque geral, o jogador deixa de
        receber a(s) ficha(s)" (a player owed tokens of a type no longer in the stock does not
        receive them). A42: the class whose stock reaches 0 triggers the end of the game."""
        got = min(count, self.stock[k])
        self.stock[k] -= got
        self.pl[p].own[k] += got
        if self.stock[k] == 0 and self.end_class is None:
            self.end_class = k
        if got:
            self._check_build(p)
        return got

    def _check_build(self, p: int) -> None:
        """R6: "se o jogador formar um par de fichas de construtores, para cada novo par formado
        o jogador deve retirar uma peça de Ovni de seu estoque individual e colocá-la em sua
        plataforma de lançamento ... se ambos os espaços estiverem ocupados, o jogador perde a
        chance de construir" (for each new pair of Builders, move a UFO from the reserve to the
        pad; with the pad full the build is lost). "Cada par formado constrói uma única vez no
        jogo" (each pair builds once). R12.3: "ao desmembrar um par de construtores ... no
        momento em que o par for restaurado pelo defensor, ele imediatamente fabricará um novo
        ovni" (a broken pair builds again when restored). A30: no reserve, no build. R19.10:
        the dummy's UFOs "não serão reconstruídas" (are not rebuilt): the dummy never builds."""
        pl = self.pl[p]
        pairs = pl.holds(B) // 2
        while pl.pairs_built < pairs:
            pl.pairs_built += 1
            if not pl.dummy and pl.pad < self.decks.launch_pad and pl.reserve > 0:
                pl.reserve -= 1
                pl.pad += 1
                pl.stats["ufos_built"] += 1
        if pl.pairs_built > pairs:
            pl.pairs_built = pairs

    # ------------------------------------------------------------------ round start
    def _start_round(self, chance) -> None:
        """Start of round r: draw the cards (R1), shuffle the dummy's tokens (R2), set the
        phase-1 order (R3) and the placement schedule (R4)."""
        self.round += 1
        self.phase = 1
        for pl in self.pl:
            pl.areas_won = []
            pl.received = 0
        self._draw_cards(chance)
        if self.dummy is not None:
            # R19.7: "os jogadores misturam as fichas de comando do 3º jogador e compram duas, sem
            # olhar os números" (mix the dummy's tokens and draw without looking): D4 R2.
            dp = self.pl[self.dummy]
            self.dummy_queue = list(chance.shuffle("R2 dummy tokens", sorted(dp.hand)))
            self.dummy_placed = 0
        self.order1 = self._phase1_order()
        first = [p for p in self.order1 if p != self.dummy][0]
        self.pl[first].stats["first_phase1"] += 1
        self.slots = [[] for _ in range(self.n_areas)]
        self.revealed = False
        self._build_schedule()
        self._next_placement()

    def _draw_cards(self, chance) -> None:
        """R4.1: "o primeiro jogador deve comprar quatro cartas do topo da pilha de cartas de
        aliens e colocar uma em cada área de recrutamento ... na ordem das letras" (draw four
        cards from the top, one per area in letter order); "em partidas com 3 jogadores ...
        apenas 3 cartas" (three with 3 players, and with 2: "a área D não é utilizada em
        partidas com dois e três jogadores"). A5 ``reshuffle`` for an empty deck."""
        self.areas = []
        if self.s["reshuffle"] == "shuffle_all" and len(self.deck) < self.n_areas:
            self.deck = list(chance.shuffle("R1 reshuffle", sorted(self.deck + self.discard)))
            self.discard = []
            self.reshuffles += 1
        for _ in range(self.n_areas):
            if not self.deck:
                self.deck = list(chance.shuffle("R1 reshuffle", sorted(self.discard)))
                self.discard = []
                self.reshuffles += 1
            self.areas.append(self.deck.pop(0))
        self.area_on_board = [True] * self.n_areas

    def _phase1_order(self) -> list[int]:
        """R3.1: "quem inicia é o jogador que possui maior quantidade de fichas de Militares.
        Quando dois jogadores empatam ... Construtores ... Abdutores e finalmente os Pilotos.
        ... começa ... o jogador que controla o planeta mais distante da Terra" (most Military
        first, then Builders, Abductors, Pilots; then the farthest planet). The dummy has a
        place in the order (R19: "pulando o turno do 3º jogador")."""
        def key(p):
            pl = self.pl[p]
            return (-pl.holds(M), -pl.holds(B), -pl.holds(A), -pl.holds(P),
                    -self.board.planets[pl.home].distance)
        return sorted(range(self.N), key=key)

    def _phase2_order(self) -> list[int]:
        """R8.1: "quem inicia é o jogador que possui a maior quantidade de pilotos ... abdutores
        ... construtores e finalmente os militares ... o jogador que controla o planeta mais
        próximo da Terra" (most Pilots, then Abductors, Builders, Military; then the nearest
        planet). A28: set after recruitment, before the force field parks Military."""
        def key(p):
            pl = self.pl[p]
            return (-pl.holds(P), -pl.holds(A), -pl.holds(B), -pl.holds(M),
                    self.board.planets[pl.home].distance)
        return sorted(range(self.N), key=key)

    # ------------------------------------------------------------------ phase 1: placement
    def _build_schedule(self) -> None:
        """R4.3: "O primeiro jogador, na ordem de turnos, ... coloca a ficha ... Depois é a vez do
        segundo jogador ... e isso prossegue, sempre na ordem de turnos, com cada jogador
        colocando, na sua vez, exatamente uma ficha" (one token per turn, in turn order).
        R19.7 (2 players): "o 1º jogador coloca uma ficha de comando de sua cor ... e logo em
        seguida coloca uma ficha de comando do 3º jogador. Agora seu adversário faz o mesmo.
        Depois, ambos repetem este procedimento ... A seguir, os dois jogadores completam a
        colocação de suas próprias fichas" (first player: own token then a dummy token; the
        opponent the same; both repeat; then both complete their own placements)."""
        seats = [p for p in self.order1 if p != self.dummy]
        if self.dummy is not None:
            f, s = seats
            self.sched = [("own", f), ("dummy", f), ("own", s), ("dummy", s)] * 2
        else:
            self.sched = []
        self.sched_i = 0
        self.cycle = seats
        self.cycle_i = 0
        self.idle = 0
        self.place_done = False

    def _current_place_turn(self) -> tuple[str, int]:
        if self.sched_i < len(self.sched):
            return self.sched[self.sched_i]
        return ("own", self.cycle[self.cycle_i % len(self.cycle)])

    def _advance_schedule(self, placed: bool) -> None:
        """A4 ``skip`` / R4.6: placement ends when a full cycle of turns places nothing."""
        if self.sched_i < len(self.sched):
            self.sched_i += 1
            return
        self.cycle_i += 1
        self.idle = 0 if placed else self.idle + 1
        if self.idle >= len(self.cycle):
            self.place_done = True

    def _three_in_row(self, p: int, a: int) -> bool:
        """R4.4: "nenhum jogador pode colocar três fichas de comando de sua própria cor, em
        posições consecutivas, dentro da mesma área de recrutamento" (no three own tokens in
        consecutive positions of an area). Slots fill in order, so only the two previous slots
        matter."""
        sl = self.slots[a]
        k = len(sl)
        return k >= 2 and sl[k - 1].planet == p and sl[k - 2].planet == p

    def _free(self, a: int) -> bool:
        """R4.5: "o número máximo de fichas de comando que podem ser colocadas numa área de
        recrutamento é 4" (at most 4 tokens per area)."""
        return len(self.slots[a]) < SLOTS

    def _place_options(self, kind: str, seat: int) -> list[tuple]:
        """R4.5: "Não é permitido passar ... o jogador DEVE colocar uma ficha" (no passing) with
        R4.4; A4 ``stuck_placement``: waive lifts R4.4 when nothing else is possible, skip
        places nothing. R4.7: a token can be placed only from the hand."""
        if kind == "own":
            hand = sorted(self.pl[seat].hand)
            if not hand:
                return []
            ok = [a for a in range(self.n_areas) if self._free(a) and not self._three_in_row(seat, a)]
            if not ok and self.s["stuck_placement"] == "waive":
                ok = [a for a in range(self.n_areas) if self._free(a)]
            return [("place", a, v) for a in ok for v in hand]
        d = self.dummy
        if self.dummy_placed >= len(self.dummy_queue):
            return []
        ok = [a for a in range(self.n_areas) if self._free(a) and not self._three_in_row(d, a)]
        if not ok and self.s["stuck_placement"] == "waive":
            ok = [a for a in range(self.n_areas) if self._free(a)]
        return [("place_dummy", a) for a in ok]

    def _all_full(self) -> bool:
        return all(len(sl) == SLOTS for sl in self.slots)

    def _next_placement(self) -> None:
        while True:
            if self._all_full() or self.place_done:
                self._end_placement()
                return
            kind, seat = self._current_place_turn()
            if self._place_options(kind, seat):
                self.step = "place"
                self.actor = seat
                return
            self._advance_schedule(placed=False)

    def _put(self, p: int, a: int, value: int) -> None:
        """R4.5: "a primeira ficha com a face para baixo, a segunda com a face para cima, a
        terceira com a face para baixo e a quarta com a face para cima" (slots 1 and 3 face
        down, 2 and 4 face up)."""
        k = len(self.slots[a])
        self.slots[a].append(Token(p, value, face_up=(k % 2 == 1)))
        self.pl[p].hand.remove(value)
        if value == 6:
            self.pl[p].stats["sixes_played"] += 1

    # ------------------------------------------------------------------ phase 1: resolution
    def _end_placement(self) -> None:
        """R5.1: "Após todas as áreas de recrutamento terem sido preenchidas ... os jogadores
        revelam todas as fichas que estão viradas para baixo ... e resolvem as áreas na ordem
        das letras" (reveal all face-down tokens, resolve the areas in letter order)."""
        self.revealed = True
        self.area_winner = [self._resolve_area(a) for a in range(self.n_areas)]
        for a, w in enumerate(self.area_winner):
            if w is None:
                self.areas_unclaimed += 1
            else:
                self.pl[w].areas_won.append(a)
                if w == self.dummy:
                    self.dummy_areas += 1
                else:
                    self.pl[w].stats["areas_won"] += 1
        self.award_next = 0
        self._continue_awards()

    def _resolve_area(self, a: int) -> int | None:
        """R5.2: "Comandos iguais se anulam (exemplo: um 3 anula outro 3) e são retirados do
        tabuleiro ... Das fichas restantes, quem possui o maior comando ou a maior soma de
        comandos, recebe as três fichas de aliens" (equal commands cancel; of the rest, the
        highest command or highest sum wins). "a soma de ambos os jogadores é a mesma (7).
        Assim, vence a disputa o jogador que abriu esta área" (equal sums: the opener wins);
        A1 ``tie_rule``; A43: sums per planet, after cancelling. "Se nenhum jogador vence a
        disputa numa determinada área, ninguém recebe os aliens" (no winner, nobody receives)."""
        toks = self.slots[a]
        cnt = Counter(t.value for t in toks)
        sums: dict[int, int] = {}
        for t in toks:
            t.cancelled = cnt[t.value] > 1
            if not t.cancelled:
                sums[t.planet] = sums.get(t.planet, 0) + t.value
        if not sums:
            return None
        best = max(sums.values())
        tied = [p for p, v in sums.items() if v == best]
        if len(tied) == 1:
            return tied[0]
        if self.s["tie_rule"] == "earliest":
            first = {p: min(i for i, t in enumerate(toks) if t.planet == p) for p in tied}
            return min(tied, key=lambda p: first[p])
        opener = toks[0].planet
        return opener if opener in tied else None

    def _receive_card(self, p: int, card: int) -> None:
        """R5.3.1: "recebe as três fichas de aliens mostradas na carta e coloca-as abaixo de seu
        tabuleiro individual" (the winner receives the card's three aliens)."""
        for k in range(N_CLASSES):
            n = self.decks.alien_cards[card][k]
            if n:
                got = self._receive(p, k, n)
                self.pl[p].received += got
                self.pl[p].stats["aliens_recruited"] += got

    def _continue_awards(self) -> None:
        """Awards in letter order (R14: "é importante que as quatro áreas de recrutamento sejam
        resolvidas sempre na ordem das letras"). R5.3.2: "Se um jogador vence a disputa em duas
        ou mais áreas ... ele deve escolher, entre os aliens mostrados nas cartas, exatamente
        três" (a winner of two or more areas chooses exactly three of the aliens shown), at his
        first or last area (A2). R19.8: "Se ele [o 3º jogador] vencer em duas áreas, ele recebe
        sempre os aliens correspondentes à área com a letra mais próxima do início do alfabeto"
        (the dummy takes the card of its earliest area). "A carta de aliens vai para a pilha de
        descartes" (the card goes to the discard pile)."""
        while self.award_next < self.n_areas:
            a = self.award_next
            w = self.area_winner[a]
            if w is not None:
                won = self.pl[w].areas_won
                if len(won) == 1:
                    self._receive_card(w, self.areas[a])
                elif w == self.dummy:
                    if a == won[0]:
                        self._receive_card(w, self.areas[a])
                else:
                    at = won[0] if self.s["multi_award_at"] == "first" else won[-1]
                    if a == at:
                        pool = [sum(self.decks.alien_cards[self.areas[x]][k] for x in won)
                                for k in range(N_CLASSES)]
                        self.pick = {"seat": w, "pool": pool, "left": 3}
                        self.step = "pick"
                        self.actor = w
                        return
            self._discard_area(a)
            self.award_next += 1
        self._start_energy()

    def _discard_area(self, a: int) -> None:
        self.discard.append(self.areas[a])
        self.area_on_board[a] = False

    def _do_pick(self, k: int, chance) -> None:
        """R5.3.2 pick; A29: a class empty in the stock is not received, the pick still counts."""
        w = self.pick["seat"]
        self.pick["pool"][k] -= 1
        self.pick["left"] -= 1
        got = self._receive(w, k, 1)
        self.pl[w].received += got
        self.pl[w].stats["aliens_recruited"] += got
        if self.pick["left"] == 0:
            self.pick = None
            self._discard_area(self.award_next)
            self.award_next += 1
            self._continue_awards()

    # ------------------------------------------------------------------ phase 1: energy (R7)
    def _energy_eligible(self, p: int) -> bool:
        """R7.1: "O uso desta carta, somente é permitido quando o jogador não vence nenhuma
        disputa e não recruta nenhum alien no final da fase 1" (only when the player wins no
        contest and recruits no alien). A6 ``energy_after_empty_win``: receiving nothing is
        enough. R19.9: "Quando o 3º jogador não vence nenhuma disputa, ele usa sua carta de
        energia" (the dummy uses it when it wins nothing; same A6 reading)."""
        pl = self.pl[p]
        if self.s["energy_after_empty_win"]:
            return pl.received == 0
        return not pl.areas_won

    def _start_energy(self) -> None:
        """R7.1: "após todos os vencedores receberem os aliens ... o jogador que não recrutou
        deve então escolher" (after all awards); R7 example: "seguindo a ordem de turnos da
        fase" (in the phase's turn order). A7 ``dummy_energy``."""
        q = [p for p in self.order1 if self._energy_eligible(p)]
        if self.dummy is not None and self.dummy in q and self.s["dummy_energy"] == "last":
            q.remove(self.dummy)
            q.append(self.dummy)
        self.energy_queue = q
        self._next_energy()

    def _next_energy(self) -> None:
        if self.energy_queue:
            p = self.energy_queue[0]
            if p == self.dummy:
                # R19.9: "Quem escolhe o alien para ele é 1º jogador na ordem de turnos."
                self.step = "dummy_energy"
                self.actor = [q for q in self.order1 if q != self.dummy][0]
            else:
                self.step = "energy"
                self.actor = p
            return
        self._take_back_tokens()
        self._start_phase2()

    def _energy_bonus1(self, p: int, k: int) -> None:
        """R7.2: "1º Bônus: ... permite que o jogador escolha e receba, imediatamente, uma ficha
        de alien, de qualquer tipo, do estoque geral. Além disso, ele também não poderá ser
        atacado ... até o fim desta rodada, pois seu campo de força foi 'ativado'" (receive one
        alien of any type; force field until the end of the round). A36: empty class, nothing."""
        pl = self.pl[p]
        pl.energy = 1
        pl.force_field = True
        got = self._receive(p, k, 1)
        pl.stats["aliens_recruited"] += got
        pl.stats["energy_1"] += 1

    def _energy_bonus2(self, p: int) -> None:
        """R7.2: "2º Bônus: ... ele poderá, durante a fase 2, em seu turno, ativar três grupos
        diferentes de aliens ao invés de dois" (activate three groups in phase 2)."""
        self.pl[p].energy = 2
        self.pl[p].stats["energy_2"] += 1

    def _six_uses_allowed(self, p: int) -> int:
        """R17.7 (six_twice): "quando o jogador utilizar sua ficha de comando n° 6 pela primeira
        vez, a ficha retorna para ele. Somente após utilizar a ficha pela segunda vez ... é que a
        ficha será descartada" (the 6 comes back after its first use; discarded after the
        second)."""
        ab = self._ability(p, "six_uses")
        return ab.param("uses") if ab is not None else 1

    def _take_back_tokens(self) -> None:
        """R5.6: "Após resolverem todas as áreas de recrutamento, os jogadores retiram suas
        fichas de comando do tabuleiro. Além disso, a ficha de comando n° 6 só pode ser usada por
        cada jogador uma única vez durante todo o jogo e após usada, é devolvida para caixa"
        (tokens go back to their owners; a used 6 goes to the box). R19.11: the dummy's 6 too.
        A3 ``six_cancelled``: a cancelled 6 is used (spent) or goes back unused (returns)."""
        for sl in self.slots:
            for t in sl:
                if t.value == 6 and not (t.cancelled and self.s["six_cancelled"] == "returns"):
                    pl = self.pl[t.planet]
                    pl.six_uses += 1
                    if pl.six_uses >= self._six_uses_allowed(t.planet):
                        pl.six_spent = True
        for pl in self.pl:
            pl.hand = [2, 3, 4, 5] + ([] if pl.six_spent else [6])
        self.slots = [[] for _ in range(self.n_areas)]
        self.revealed = False
        self.dummy_queue = []
        self.dummy_placed = 0

    # ------------------------------------------------------------------ phase 2 (R8)
    def _start_phase2(self) -> None:
        """R8.1 order, then the force-field decisions (R17.6), then the seats' turns."""
        self.phase = 2
        self.order2 = self._phase2_order()
        first = [p for p in self.order2 if p != self.dummy][0]
        self.pl[first].stats["first_phase2"] += 1
        self.shield_queue = [s for s in self.order2 if s != self.dummy and self._shield_eligible(s)]
        self._next_shield()

    def _shield_eligible(self, s: int) -> bool:
        """R17.6 (force_field): "No início da fase 2, o jogador que possui esta habilidade pode
        ativar seu campo de força colocando duas fichas de militares (se ele possuir) na área do
        Box 1" (at the start of phase 2 he may park two Military, if he has them). "Não utilizar
        em partidas com 2 jogadores" (A21). Not offered to a seat whose field is already on."""
        ab = self._ability(s, "force_field")
        if ab is None or not self._ability_usable(ab):
            return False
        pl = self.pl[s]
        return pl.holds(M) >= ab.param("military") and not pl.force_field

    def _next_shield(self) -> None:
        if self.shield_queue:
            self.step = "shield"
            self.actor = self.shield_queue[0]
            return
        self.seat_turns = [p for p in self.order2 if p != self.dummy]
        self.turn_i = -1
        self._next_turn()

    def _next_turn(self) -> None:
        """R8.3: "Seguindo a ordem de turnos estabelecida, cada jogador poderá ativar na sua vez,
        até 2 grupos de aliens" (in turn order each player may activate up to 2 groups); R19.12:
        "pulando o turno do 3º jogador" (skipping the dummy)."""
        self.turn_i += 1
        if self.turn_i >= len(self.seat_turns):
            self.turn = None
            self._end_round()
            return
        seat = self.seat_turns[self.turn_i]
        self.turn = {"seat": seat, "activated": [], "L": 3 if self.pl[seat].energy == 2 else 2,
                     "group": None, "budget": 0, "launches": 0, "attacks": 0,
                     "prev_target": None, "targets": [], "moves": 0, "pilots_at_start": 0}
        self._offer_activation()

    def _can_activate(self, k: int) -> bool:
        """R8.3: "Um jogador pode ativar os grupos em qualquer ordem mas não pode ativar o mesmo
        grupo duas vezes na mesma rodada" (any order, never the same group twice); L = 2, or 3
        with energy bonus 2; A9 ``empty_group``: a group needs a token of its class ("sob seu
        controle")."""
        t = self.turn
        pl = self.pl[t["seat"]]
        return (k not in t["activated"] and len(t["activated"]) < t["L"]
                and (pl.holds(k) >= 1 or self.s["empty_group"]))

    def _offer_activation(self) -> None:
        if any(self._can_activate(k) for k in range(N_CLASSES)):
            self.step = "activate"
            self.actor = self.turn["seat"]
            return
        self._next_turn()

    def _activate(self, k: int) -> None:
        """R8.4: "Todas as ações do 1º grupo devem ser finalizadas antes de se ativar o 2º grupo"
        (finish one group before the next). The budgets are set at activation:
        Pilots R9.1 "Cada ficha de piloto permite fazer exatamente 1 movimento" (+2 with
        extra_moves, R17.5, "deve ter pelo menos, uma ficha de piloto");
        Abductors R10.1 "Para cada par de fichas de abdutores ... exatamente um humano";
        Builders R11.1 "transferir uma ou duas peças de ovnis" (one or two launches);
        Military R12.1 "Para cada trio de fichas de militares" (one attack per trio; parked
        Military are on Box 1 and do not act). A10 ``attacks_dynamic`` in :meth:`_capture`."""
        t = self.turn
        s = t["seat"]
        pl = self.pl[s]
        t["activated"].append(k)
        t["group"] = k
        t["launches"] = 0
        t["attacks"] = 0
        t["prev_target"] = None
        t["targets"] = []
        t["moves"] = 0
        if k == P:
            budget = pl.holds(P)
            t["pilots_at_start"] = budget
            ab = self._ability(s, "extra_moves")
            if ab is not None and pl.holds(P) >= ab.param("min_pilots"):
                budget += ab.param("moves")
        elif k == A:
            budget = pl.holds(A) // 2
        elif k == B:
            budget = 0
        else:
            budget = (pl.holds(M) - pl.parked) // 3
        t["budget"] = budget
        self.step = "group"
        self.actor = s
        self._auto_end_group()

    def _auto_end_group(self) -> None:
        """D3.9: a group whose only option is END_GROUP ends by itself (A35)."""
        if self._group_options() == [("end_group",)]:
            self._end_group()

    def _end_group(self) -> None:
        """R8.7: the active group ends. A8 ``map_check=end_of_group``: "When the Pilots group
        ends, each city is checked in number order"."""
        t = self.turn
        if t["group"] == P and self.s["map_check"] == "end_of_group":
            for c in range(N_CITIES):
                self._check_map(t["seat"], c)
        t["group"] = None
        t["budget"] = 0
        self._offer_activation()

    # ---- group options
    def _group_options(self) -> list[tuple]:
        t = self.turn
        s = t["seat"]
        g = t["group"]
        out: list[tuple] = []
        if g == P:
            out = self._move_options(s)
        elif g == A:
            out = self._abduct_options(s)
        elif g == B:
            out = self._launch_options(s)
        elif g == M:
            out = self._attack_options(s)
        return out + [("end_group",)]

    def _move_options(self, s: int) -> list[tuple]:
        """R9.1/R9.2: "exatamente 1 movimento com 1 ovni para uma cidade adjacente, em qualquer
        direção" (one move of one UFO to an adjacent city, any direction); R9.5: "os ovnis do
        jogador que estão mapeando não podem mais ser movidos nessa rodada" (mapping UFOs may
        not move again this round); "pode decidir fazer menos movimentos" (fewer is allowed)."""
        if self.turn["budget"] <= 0:
            return []
        pl = self.pl[s]
        return [("move", f, t) for f in range(N_CITIES) if pl.ufos[f] > pl.frozen[f]
                for t in self.neigh[f]]

    def _has_majority(self, s: int, c: int) -> bool:
        """R10.1 / A32: "onde ele possui mais ovnis do que qualquer outro jogador (maioria)"
        (more UFOs than any other player); the dummy's UFOs count (they are there)."""
        mine = self.pl[s].ufos[c]
        return mine > 0 and all(mine > self.pl[q].ufos[c] for q in range(self.N) if q != s)

    def _abduct_city_ok(self, s: int, c: int) -> bool:
        """R10.1: "para poder abduzir, o jogador deve ter maioria de ovnis no espaço aéreo da
        cidade" (a majority is needed). R17.9 (abduct_without_majority): "sem ter maioria de ovnis
        de sua cor na(s) cidade(s)" (without a majority); A13 ``no_majority_presence``."""
        if self._has_majority(s, c):
            return True
        if self._ability(s, "abduct_without_majority") is not None:
            return self.pl[s].ufos[c] >= 1 or not self.s["no_majority_presence"]
        return False

    def _abduct_options(self, s: int) -> list[tuple]:
        """R10.1: "se ... ela estiver desocupada, ou seja, sem nenhuma peça de humano ... não será
        possível realizar nenhuma abdução ali" (no human, no abduction). R17.4 (swap_human):
        "poderá, antes de abduzir, trocar a peça de humano na cidade onde ele quer abduzir por
        outra peça qualquer numa cidade adjacente" (before abducting, swap the target human with
        one in an adjacent city); A14 ``swap_into_empty``."""
        if self.turn["budget"] <= 0:
            return []
        swap = self._ability(s, "swap_human") is not None
        out = []
        for c in range(N_CITIES):
            if not self._abduct_city_ok(s, c):
                continue
            for d in range(N_CITIES):
                if d == c:
                    if self.city_humans[c] is not None:
                        out.append(("abduct", c, c))
                elif (swap and self.adj[c][d] and self.city_humans[d] is not None
                      and (self.city_humans[c] is not None or self.s["swap_into_empty"])):
                    out.append(("abduct", c, d))
        return out

    def _launch_options(self, s: int) -> list[tuple]:
        """R11.1: "o jogador pode transferir uma ou duas peças de ovnis que estão em sua
        plataforma de lançamento para uma ou duas cidades quaisquer do tabuleiro. Isso independe
        de quantas fichas de construtores o jogador possui" (one or two UFOs from the pad to any
        cities, whatever the number of Builders)."""
        if self.turn["launches"] >= 2 or self.pl[s].pad <= 0:
            return []
        return [("launch", c) for c in range(N_CITIES)]

    def _target_ok(self, t: int) -> bool:
        """R12.2: "Um jogador não pode, ao ativar este grupo, atacar duas vezes seguidas o mesmo
        adversário" (not the same opponent twice in a row; A11 ``military_targets``). R7.2 /
        R17.6: a planet with its force field on "não poderá ser atacado" (cannot be attacked)."""
        if self.pl[t].force_field:
            return False
        if self.s["military_targets"] == "all_different":
            return t not in self.turn["targets"]
        return t != self.turn["prev_target"]

    def _attack_options(self, s: int) -> list[tuple]:
        """R12.3: "pode capturar um alien de qualquer um dos quatro tipos ... Se esta for a única
        ficha daquele tipo que o adversário possui, ela não pode ser capturada" (capture any
        type, except the opponent's only token of that type; A12 ``last_of_class``), and "um
        alien capturado não pode ser capturado novamente" (A40). R12.4: "destruir um ovni de
        outro jogador que esteja no mesmo espaço aéreo de pelo menos um de seus próprios ovnis"
        (destroy an enemy UFO sharing a city with one of his own)."""
        if self.turn["budget"] <= 0:
            return []
        me = self.pl[s]
        out = []
        for t in range(self.N):
            if t == s or not self._target_ok(t):
                continue
            v = self.pl[t]
            for k in range(N_CLASSES):
                count = v.holds(k) if self.s["last_of_class"] == "all" else v.own[k]
                if v.own[k] >= 1 and count >= 2:
                    out.append(("capture", t, k))
            for c in range(N_CITIES):
                if me.ufos[c] >= 1 and v.ufos[c] >= 1:
                    out.append(("destroy", t, c))
        return out

    # ---- group effects
    def _check_map(self, s: int, c: int) -> None:
        """R9.4: "caso o jogador seja o primeiro a ocupar o espaço aéreo de uma cidade qualquer
        com dois ovnis de sua cor, ele passa a mapeá-la ... Os próximos jogadores que desejarem
        mapear uma cidade que já foi mapeada, deverão ocupar seu espaço aéreo com três peças"
        (the first to hold two UFOs in a city maps it; later mappers need three, A31);
        "cada jogador somente pode mapear cada cidade do tabuleiro uma única vez" (once per
        city and player). R17.2 (map_with_two): "sempre com dois ovnis ... independente da
        cidade já ter sido mapeada". R9.5 / A33: the mapper's UFOs there freeze."""
        pl = self.pl[s]
        if pl.mapped[c]:
            return
        ab = self._ability(s, "map_threshold")
        if ab is not None:
            thr = ab.param("ufos")
        else:
            thr = 3 if any(q.mapped[c] for q in self.pl) else 2
        if pl.ufos[c] >= thr:
            pl.mapped[c] = True
            pl.frozen[c] = pl.ufos[c]

    def _move(self, s: int, f: int, to: int) -> None:
        """R9.1 move; A8 ``map_check=each_move``: mapping checked after every single move."""
        pl = self.pl[s]
        t = self.turn
        pl.ufos[f] -= 1
        pl.ufos[to] += 1
        t["budget"] -= 1
        t["moves"] += 1
        if t["moves"] > t["pilots_at_start"]:
            pl.stats["extra_moves_used"] += 1
        if self.s["map_check"] == "each_move":
            self._check_map(s, to)

    def _abduct(self, s: int, c: int, d: int) -> None:
        """R10.1: "retirando a peça do tabuleiro e colocando-a à sua frente na mesa" (the human is
        taken off the board and kept by the player); R17.4 swap first when d != c."""
        pl = self.pl[s]
        if not self._has_majority(s, c):
            pl.stats["no_majority_abductions"] += 1
        if d != c:
            self.city_humans[c], self.city_humans[d] = self.city_humans[d], self.city_humans[c]
            pl.stats["swaps"] += 1
        kind = self.city_humans[c]
        self.city_humans[c] = None
        pl.humans[kind] += 1
        self.turn["budget"] -= 1

    def _launch(self, s: int, c: int) -> None:
        """R11.1 launch; R11.2: "ao lançar ovnis nas cidades, é possível ser o primeiro jogador a
        ocupar um determinado espaço aéreo com dois ovnis, o que irá imediatamente resultar no
        mapeamento" (a launch maps immediately)."""
        pl = self.pl[s]
        pl.pad -= 1
        pl.ufos[c] += 1
        pl.launched += 1
        self.turn["launches"] += 1
        self._check_map(s, c)

    def _record_attack(self, t: int) -> None:
        tt = self.turn
        tt["attacks"] += 1
        tt["budget"] -= 1
        tt["prev_target"] = t
        tt["targets"].append(t)

    def _capture(self, s: int, t: int, k: int) -> None:
        """R12.3: "retirando a ficha de seu adversário e colocando-a abaixo de seu mini tabuleiro
        ... colocar sobre o alien recém capturado uma ficha de captura" (the token moves under
        the captor's board, marked captured). Builders: "Com isso ele forma um novo par de
        construtores e imediatamente fabrica um ovni" (a new pair builds at once). A10."""
        me, v = self.pl[s], self.pl[t]
        v.own[k] -= 1
        v.lost[k] += 1
        me.capd[k] += 1
        self._record_attack(t)
        if k == B:
            self._check_build(s)
            self._check_build(t)
        if k == M and self.s["attacks_dynamic"]:
            self.turn["budget"] = max(0, (me.holds(M) - me.parked) // 3 - self.turn["attacks"])

    def _destroy(self, s: int, t: int, c: int) -> None:
        """R12.4: "A peça destruída é devolvida para a reserva de seu dono e pode ser reconstruída
        quando ele formar um novo par de fichas de construtores" (back to the owner's reserve).
        A24: an unfrozen UFO is removed when there is one. A41: mapping tokens stay."""
        v = self.pl[t]
        if v.ufos[c] <= v.frozen[c]:
            v.frozen[c] -= 1
        v.ufos[c] -= 1
        v.reserve += 1
        v.stats["ufos_lost"] += 1
        self.pl[s].stats["ufos_destroyed"] += 1
        self._record_attack(t)

    # ------------------------------------------------------------------ end of round / game
    def _end_round(self) -> None:
        """R13: refill, clear the round's state, then the end check (R14) or the next round."""
        self._refill()
        for pl in self.pl:
            if pl.parked:
                pl.stats["shield_rounds"] += 1
            # R7.3: "no fim da rodada, a carta de energia é removida do box e retorna para a mesa,
            # com a face neutra" (energy card back to neutral). R17.6: "No fim da rodada as duas
            # fichas de militares retornam para suas posições" (parked Military return).
            pl.energy = 0
            pl.force_field = False
            pl.parked = 0
            pl.frozen = [0] * N_CITIES  # R9.5: frozen "nessa rodada" (this round) only
        self._pending_round_end = True

    def _refill(self) -> None:
        """R13.1: "Comece por São Paulo (cidade 1) e continue em ordem numérica. Em cada cidade
        vazia, sem nenhuma peça de humano, coloque uma nova peça, retirando-a da trilha ...
        Quando as seis peças da trilha esgotarem, não haverá mais reposições" (in number order,
        each empty city gets a piece from the track until the track is empty). The track is
        taken from its first position."""
        for c in range(N_CITIES):
            if self.city_humans[c] is None and self.track:
                self.city_humans[c] = self.track.pop(0)

    def _finish_round(self, chance) -> None:
        """R14.1: "Uma partida de Ovni termina no fim da rodada, (após a Fase 2), na qual
        esgotarem as fichas de um grupo de aliens do estoque geral" (the game ends after the
        round in which one class runs out of the stock; A42). A19 ``max_rounds``."""
        self._pending_round_end = False
        if self.end_class is not None:
            self._game_over(capped=False)
        elif self.round >= self.s["max_rounds"]:
            self._game_over(capped=True)
        else:
            self._start_round(chance)

    def _game_over(self, capped: bool) -> None:
        self.is_over = True
        self.capped = capped
        self.step = "over"
        self.actor = -1
        self.phase = 3
        self._score()

    # ------------------------------------------------------------------ scoring (R15, R16, R18)
    def _competitors(self) -> list[int]:
        """A23 ``dummy_in_scoring``: "Calcule a pontuação normalmente entre ambos os jogadores.
        O 3º jogador não pontua" (score between both players; the dummy scores nothing)."""
        if self.dummy is not None and self.s["dummy_in_scoring"] == "blocks":
            return list(range(self.N))
        return list(self.seats)

    def _scored_holding(self, p: int, k: int) -> int:
        """A15 ``captured_in_scoring``."""
        pl = self.pl[p]
        return pl.holds(k) if self.s["captured_in_scoring"] else pl.own[k]

    def _airspace_owner(self, c: int) -> int | None:
        """R15.3: "o jogador que possui a maior quantidade de ovnis em torno da cidade, recebe 4
        pontos. Em caso de empate nenhum jogador pontua" (most UFOs gets 4; a tie scores
        nothing)."""
        comp = self._competitors()
        counts = {p: self.pl[p].ufos[c] for p in comp}
        best = max(counts.values())
        if best <= 0:
            return None
        top = [p for p, v in counts.items() if v == best]
        return top[0] if len(top) == 1 else None

    def _points_majorities(self) -> list[int]:
        """R15.1: "Em cada um dos quatro grupos de aliens ..., o jogador com a maior quantidade de
        fichas recrutadas recebe 10 pontos. Em caso de empate, os pontos são divididos igualmente
        arredondando para baixo" (10 per class to the most tokens; ties split, rounded down).
        Nobody scores a class that no competitor holds."""
        pts = [0] * self.n
        comp = self._competitors()
        val = self.decks.scoring["majority"]
        for k in range(N_CLASSES):
            counts = {p: self._scored_holding(p, k) for p in comp}
            best = max(counts.values())
            if best <= 0:
                continue
            top = [p for p, v in counts.items() if v == best]
            for p in top:
                if p != self.dummy:
                    pts[p] += val // len(top)
        return pts

    def _points_ufos(self, s: int) -> int:
        """R15.2: "Para cada peça de ovni de sua cor, no tabuleiro, o jogador recebe 2 pontos.
        Para cada peça de ovni construído mas ainda na plataforma ... 1 ponto" (2 per UFO on the
        board, 1 per UFO on the pad); R17.10 (ufo_worth_3): 3 per UFO on the board."""
        sc = self.decks.scoring
        ab = self._ability(s, "ufo_points")
        per = ab.param("points") if ab is not None else sc["ufo_on_board"]
        pl = self.pl[s]
        return per * sum(pl.ufos) + sc["ufo_on_pad"] * pl.pad

    def _points_mapping(self, s: int) -> int:
        """R15.4: "Para cada ficha de mapeamento ... ele recebe 3 pontos"; R17.8 (mapping_worth_4):
        "valerá 4 pontos no fim do jogo ao invés de 3"."""
        ab = self._ability(s, "mapping_points")
        per = ab.param("points") if ab is not None else self.decks.scoring["mapping"]
        return per * sum(self.pl[s].mapped)

    def _points_humans(self, s: int) -> int:
        """R15.5: "Uma peça de qualquer cor vale 1 ponto. Duas peças da mesma cor valem 3 pontos.
        Três peças da mesma cor valem 6 pontos. Cinco peças de cores diferentes valem 10 pontos e
        seis peças de cores diferentes valem 15 pontos" (1/3/6 per colour; +10 for five colours,
        +15 for six)."""
        sc = self.decks.scoring
        h = self.pl[s].humans
        pts = sum(sc["humans_same_kind"][min(n, len(sc["humans_same_kind"])) - 1] for n in h if n > 0)
        kinds = sum(1 for n in h if n > 0)
        if kinds >= 6:
            pts += sc["humans_six_kinds"]
        elif kinds == 5:
            pts += sc["humans_five_kinds"]
        return pts

    def _parity_ok(self, parity: str, c: int) -> bool:
        """A17 ``mission_parity``: "(pares ou ímpares)" is the card's parity (card) or ignored."""
        if self.s["mission_parity"] == "any" or parity == "any":
            return True
        return (c + 1) % 2 == (0 if parity == "even" else 1)

    def _mission_states_ok(self, s: int, m) -> bool:
        """The state requirements of a mission (R18.2), everything but humans and captures:
        airspace majority in n cities of the parity, aliens held, cities mapped, UFOs."""
        pl = self.pl[s]
        if m.airspace_cities:
            n = sum(1 for c in range(N_CITIES)
                    if self._parity_ok(m.airspace_parity, c) and self._airspace_owner(c) == s)
            if n < m.airspace_cities:
                return False
        for k in range(N_CLASSES):
            if m.aliens[k] and self._scored_holding(s, k) < m.aliens[k]:
                return False
        if m.mapped_cities:
            n = sum(1 for c in range(N_CITIES) if pl.mapped[c] and self._parity_ok(m.mapped_parity, c))
            if n < m.mapped_cities:
                return False
        if m.ufos:
            have = sum(pl.ufos) if self.s["mission_ufos"] == "on_board" else pl.launched
            if have < m.ufos:
                return False
        return True

    def _pieces_cover(self, s: int, humans, captures) -> bool:
        pl = self.pl[s]
        return (all(pl.humans[k] >= humans[k] for k in range(N_KINDS))
                and all(pl.capd[k] >= captures[k] for k in range(N_CLASSES)))

    def _missions_done(self, s: int) -> list[bool]:
        """R18.2: the four kinds, each "Para cumprir uma ou duas missões desse tipo, o jogador
        precisa ..." (to complete one or two missions of this type the player needs ...):
        airspace majority in four cities "(pares ou ímpares)" and two humans of the card's kind;
        three humans of the card's kinds and seven aliens of a class; three captures of the
        card's classes and five + five aliens; four or five mappings and six or seven UFOs
        "construído e lançado" (A16). A20 ``mission_overlap``."""
        pl = self.pl[s]
        ms = [self.decks.missions[i] for i in pl.kept_missions]
        alone = [self._mission_states_ok(s, m) and self._pieces_cover(s, m.humans, m.captures) for m in ms]
        if self.s["mission_overlap"] == "shared" or len(ms) < 2:
            return alone
        hum = [ms[0].humans[k] + ms[1].humans[k] for k in range(N_KINDS)]
        cap = [ms[0].captures[k] + ms[1].captures[k] for k in range(N_CLASSES)]
        if all(alone) and self._pieces_cover(s, hum, cap):
            return [True, True]
        if alone[0]:
            return [True, False]
        if alone[1]:
            return [False, True]
        return [False, False]

    def _score(self) -> None:
        """R15: "Há seis itens de pontuação ... Quem obtiver a maior soma é o vencedor. Se houver
        empate, vence entre os empatados, o jogador que possui maior quantidade de ovnis de sua
        cor no tabuleiro ... Se o empate ainda persistir, vence quem abduziu maior quantidade de
        humanos" (highest sum wins; ties: most UFOs on the board, then most humans). A37: a full
        tie shares the win. A19 ``cap_result=draw``: a capped game has no winner."""
        sc = self.decks.scoring
        maj = self._points_majorities()
        self.scores = []
        for s in self.seats:
            done = self._missions_done(s)
            self.pl[s].mission_results = done
            airspace = sum(sc["airspace"] for c in range(N_CITIES) if self._airspace_owner(c) == s)
            d = {
                "majorities": maj[s],
                "ufos": self._points_ufos(s),
                "airspace": airspace,
                "mapping": self._points_mapping(s),
                "humans": self._points_humans(s),
                "missions": sum(sc["mission_done"] if x else sc["mission_failed"] for x in done),
            }
            self.scores.append(d)
        self.totals = [sum(d.values()) for d in self.scores]
        if self.capped and self.s["cap_result"] == "draw":
            self.winners = []
            self.is_draw = True
            return
        key = [(self.totals[s], sum(self.pl[s].ufos), sum(self.pl[s].humans)) for s in self.seats]
        best = max(key)
        self.winners = [s for s in self.seats if key[s] == best]
        self.is_draw = len(self.winners) > 1

    # ------------------------------------------------------------------ protocol
    def to_move(self) -> int:
        return -1 if self.is_over else self.actor

    def over(self) -> bool:
        return self.is_over

    def won(self) -> list[bool]:
        """Per seat: a winner (shared wins included, as the interface's ``won`` column). A
        capped game scored as a draw has no winner."""
        return [s in self.winners for s in self.seats]

    def win_share(self) -> list[float]:
        k = len(self.winners)
        return [1.0 / k if s in self.winners else 0.0 for s in self.seats]

    def draw(self) -> bool:
        return self.is_draw

    def legal(self) -> list[tuple]:
        if self.is_over:
            return []
        st = self.step
        if st == "keep":
            return [("keep", i) for i in range(6)]
        if st == "start":
            return self._start_options(self.actor)
        if st == "dummy_start":
            return self._dummy_start_options(self.actor)
        if st == "place":
            kind, seat = self._current_place_turn()
            return self._place_options(kind, seat)
        if st == "pick":
            return [("pick", k) for k in range(N_CLASSES) if self.pick["pool"][k] > 0]
        if st == "energy":
            return [("energy_alien", k) for k in range(N_CLASSES)] + [("energy_three",)]
        if st == "dummy_energy":
            return [("dummy_alien", k) for k in range(N_CLASSES)]
        if st == "shield":
            return [("shield", 0), ("shield", 1)]
        if st == "activate":
            return [("activate", k) for k in range(N_CLASSES) if self._can_activate(k)] + [("end_turn",)]
        if st == "group":
            return self._group_options()
        raise RuntimeError(f"unknown step {st}")

    def apply(self, action: tuple, chance) -> None:
        action = tuple(action)
        if action not in self.legal():
            raise ValueError(f"illegal action {action} at step {self.step} (seat {self.actor})")
        self._pending_round_end = False
        name = action[0]
        st = self.step
        if st == "keep":
            self._keep(self.actor, action[1])
            self.setup_i += 1
            if self.setup_i < self.n:
                self.actor = self.setup_i
            else:
                self.step = "start"
                self.setup_i = 0
                self.actor = 0
        elif st == "start":
            seat = self.actor
            classes = [action[1], action[2]] if name == "start_pair" else [k for k in range(N_CLASSES) if k != action[1]]
            self.pl[seat].start_choice = tuple(classes) if name == "start_pair" else None
            for k in classes:
                self._receive(seat, k, 1)
            self.setup_i += 1
            if self.setup_i < self.n:
                self.actor = self.setup_i
            elif self.dummy is not None:
                self.step = "dummy_start"
                self.setup_i = 0
                self.actor = 0
            else:
                self._start_round(chance)
        elif st == "dummy_start":
            self.dummy_start.append(action[1])
            self._receive(self.dummy, action[1], 1)
            self.setup_i += 1
            if self.setup_i < self.n:
                self.actor = self.setup_i
            else:
                self._start_round(chance)
        elif st == "place":
            kind, seat = self._current_place_turn()
            if name == "place":
                self._put(seat, action[1], action[2])
            else:
                v = self.dummy_queue[self.dummy_placed]
                self.dummy_placed += 1
                self._put(self.dummy, action[1], v)
            self._advance_schedule(placed=True)
            self._next_placement()
        elif st == "pick":
            self._do_pick(action[1], chance)
        elif st == "energy":
            p = self.energy_queue.pop(0)
            if name == "energy_alien":
                self._energy_bonus1(p, action[1])
            else:
                self._energy_bonus2(p)
            self._next_energy()
        elif st == "dummy_energy":
            p = self.energy_queue.pop(0)
            self._energy_bonus1(p, action[1])
            self._next_energy()
        elif st == "shield":
            s = self.shield_queue.pop(0)
            if action[1] == 1:
                ab = self._ability(s, "force_field")
                self.pl[s].parked = ab.param("military")
                self.pl[s].force_field = True
            self._next_shield()
        elif st == "activate":
            if name == "end_turn":
                self._next_turn()
            else:
                self._activate(action[1])
        elif st == "group":
            s = self.turn["seat"]
            if name == "end_group":
                self._end_group()
            else:
                if name == "move":
                    self._move(s, action[1], action[2])
                elif name == "abduct":
                    self._abduct(s, action[1], action[2])
                elif name == "launch":
                    self._launch(s, action[1])
                elif name == "capture":
                    self._capture(s, action[1], action[2])
                elif name == "destroy":
                    self._destroy(s, action[1], action[2])
                self._auto_end_group()
        while self._pending_round_end:
            self._finish_round(chance)

    # ------------------------------------------------------------------ views
    def _planet_dict(self, pl: PlanetState) -> dict:
        return {
            "home": pl.home, "own": list(pl.own), "captured": list(pl.capd), "lost": list(pl.lost),
            "holds": [pl.holds(k) for k in range(N_CLASSES)], "pairs_built": pl.pairs_built,
            "ufos": list(pl.ufos), "frozen": list(pl.frozen), "pad": pl.pad, "reserve": pl.reserve,
            "launched": pl.launched, "mapped": list(pl.mapped), "humans": list(pl.humans),
            "hand": sorted(pl.hand), "six_uses": pl.six_uses, "six_spent": pl.six_spent,
            "energy": pl.energy, "force_field": pl.force_field, "parked": pl.parked,
            "abilities": sorted(pl.abilities), "dealt_missions": list(pl.dealt_missions),
            "kept_missions": list(pl.kept_missions), "areas_won": list(pl.areas_won),
            "received": pl.received,
        }

    def snapshot(self) -> dict:
        """The full state (see the class docstring for the keys)."""
        t = self.turn
        return {
            "round": self.round, "phase": self.phase, "step": self.step, "to_move": self.to_move(),
            "order1": list(self.order1), "order2": list(self.order2),
            "stock": list(self.stock), "deck": list(self.deck), "discard": list(self.discard),
            "areas": [c if on else None for c, on in zip(self.areas, self.area_on_board)],
            "slots": [[[x.planet, x.value, x.face_up, x.cancelled] for x in sl] for sl in self.slots],
            "revealed": self.revealed,
            "city_humans": list(self.city_humans), "track": list(self.track),
            "dummy_queue": list(self.dummy_queue), "dummy_placed": self.dummy_placed,
            "planets": [self._planet_dict(pl) for pl in self.pl],
            "pick": None if self.pick is None else {"seat": self.pick["seat"], "pool": list(self.pick["pool"]),
                                                     "left": self.pick["left"]},
            "energy_queue": list(self.energy_queue), "shield_queue": list(self.shield_queue),
            "turn": None if t is None else {k: (list(v) if isinstance(v, list) else v) for k, v in t.items()},
            "end_class": self.end_class, "reshuffles": self.reshuffles, "over": self.is_over,
            "capped": self.capped, "scores": self.scores, "total": self.totals,
            "winners": list(self.winners), "draw": self.is_draw,
        }

    def observation(self, seat: int) -> dict:
        """What ``seat`` may know (the interface's Information section): the snapshot without
        other planets' face-down values (until R5.1 reveals them; the dummy's face-down tokens
        are hidden from everyone), other planets' hands (their size and the 6's state are
        public), the dummy queue, other seats' missions (their number is public once kept), the
        deck order (its size is public) and the ability cards never dealt."""
        snap = self.snapshot()
        slots = []
        for sl in self.slots:
            row = []
            for x in sl:
                shown = x.face_up or self.revealed or (x.planet == seat)
                row.append([x.planet, x.value if shown else None, x.face_up, x.cancelled if self.revealed else False])
            slots.append(row)
        snap["slots"] = slots
        snap["deck"] = len(self.deck)
        snap["dummy_queue"] = None
        for p, d in enumerate(snap["planets"]):
            pl = self.pl[p]
            d["hand_count"] = len(pl.hand)
            if p != seat:
                d["hand"] = None
                d["dealt_missions"] = None
                d["kept_missions"] = None
            else:
                d["dealt_missions"] = list(pl.dealt_missions) if not pl.has_kept else None
            d["missions_kept"] = len(pl.kept_missions)
        return snap

    # ------------------------------------------------------------------ outcome columns
    def results(self) -> dict:
        """The output columns (per game and per seat) of the interface, once over."""
        game = {
            "players": self.n, "rounds": self.round, "capped": self.capped, "draw": self.is_draw,
            "end_class": CLASS_NAMES[self.end_class] if self.end_class is not None else "none",
            "reshuffles": self.reshuffles, "areas_unclaimed": self.areas_unclaimed,
            "dummy_areas": self.dummy_areas,
            "dummy_aliens": sum(self.pl[self.dummy].holds(k) for k in range(N_CLASSES)) if self.dummy is not None else 0,
        }
        seats = []
        share = self.win_share()
        for s in self.seats:
            pl = self.pl[s]
            sc = self.scores[s]
            kept = pl.kept_missions
            done = getattr(pl, "mission_results", [])
            row = {
                "won": s in self.winners, "win_share": share[s], "score": self.totals[s],
                "planet": self.board.planets[pl.home].name,
                "first_phase1": pl.stats["first_phase1"], "first_phase2": pl.stats["first_phase2"],
                "ability_1": self.decks.abilities[sorted(pl.abilities)[0]].name,
                "ability_2": self.decks.abilities[sorted(pl.abilities)[1]].name,
                "missions_kept": len(kept),
                "mission_1": self.decks.missions[kept[0]].id if len(kept) > 0 else "",
                "mission_2": self.decks.missions[kept[1]].id if len(kept) > 1 else "",
                "mission_1_done": int(done[0]) if len(done) > 0 else -1,
                "mission_2_done": int(done[1]) if len(done) > 1 else -1,
                "missions_done": sum(done),
                **{f"points_{k}": v for k, v in sc.items()},
                **{CLASS_NAMES[k]: pl.holds(k) for k in range(N_CLASSES)},
                "captures": sum(pl.capd), "captured_from": sum(pl.lost),
                "ufos_board": sum(pl.ufos), "ufos_pad": pl.pad, "ufos_launched": pl.launched,
                "ufos_destroyed": pl.stats["ufos_destroyed"], "ufos_lost": pl.stats["ufos_lost"],
                "cities_mapped": sum(pl.mapped),
                "cities_controlled": sum(1 for c in range(N_CITIES) if self._airspace_owner(c) == s),
                "humans": sum(pl.humans), "human_kinds": sum(1 for h in pl.humans if h),
                "areas_won": pl.stats["areas_won"], "aliens_recruited": pl.stats["aliens_recruited"],
                "energy_1": pl.stats["energy_1"], "energy_2": pl.stats["energy_2"],
                "sixes_played": pl.stats["sixes_played"], "shield_rounds": pl.stats["shield_rounds"],
                "swaps": pl.stats["swaps"], "extra_moves_used": pl.stats["extra_moves_used"],
                "no_majority_abductions": pl.stats["no_majority_abductions"],
            }
            seats.append(row)
        return {"game": game, "seats": seats}


# ---- chance objects ----------------------------------------------------------------------------
class RandomChance:
    """Chance drawn from Python's ``random`` (standalone play)."""

    def __init__(self, seed: int = 0):
        import random

        self.rng = random.Random(seed)
        self.log: list[tuple] = []

    def shuffle(self, tag: str, items: list) -> list:
        a = list(items)
        for i in range(len(a) - 1, 0, -1):
            j = self.rng.randrange(i + 1)
            a[i], a[j] = a[j], a[i]
        self.log.append(("shuffle", tag, list(a)))
        return a

    def die(self, tag: str) -> int:
        return self.rng.randint(1, 6)

    def choice(self, tag: str, k: int) -> int:
        return self.rng.randrange(k)


class ScriptedChance:
    """Chance fed from a script: shuffles are given as the resulting orders (first = top) or as
    ``None`` (keep the list as it is). Each outcome is checked to be a permutation of the list."""

    def __init__(self, outcomes: list | None = None):
        self.outcomes = list(outcomes or [])
        self.asked: list[str] = []

    def push(self, *outcomes) -> None:
        self.outcomes.extend(outcomes)

    def shuffle(self, tag: str, items: list) -> list:
        self.asked.append(tag)
        if not self.outcomes:
            raise AssertionError(f"chance exhausted at shuffle {tag!r}")
        out = self.outcomes.pop(0)
        if out is None:
            return list(items)
        if sorted(out) != sorted(items):
            raise AssertionError(f"shuffle {tag!r}: {out} is not a permutation of {items}")
        return list(out)

    def die(self, tag: str) -> int:
        return self.outcomes.pop(0)

    def choice(self, tag: str, k: int) -> int:
        return self.outcomes.pop(0)
