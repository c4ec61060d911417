"""Reads and checks the O.V.N.I. data files (``data/board.toml``, ``data/decks.toml``).

The files are validated with pydantic v2 and returned as plain frozen dataclasses, so
the rest of the package (and the compiled engine's board builder) never sees pydantic.
Anything wrong in a file is a :class:`~simkit.errors.UserError` of one line naming the
file, the entry and what is wrong: wrong types, absurd sizes, unknown keys, broken
references (a route to a city that does not exist, a mission naming an unknown human
kind, ...).

The rules these files feed are in ``docs/rules/ovni.md``; its sections "Component
facts and stand-ins" (C1-C16) say where each fact comes from.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ...datafiles import chosen, data_error, read
from ...errors import UserError

DATA_DIR = Path(__file__).with_name("data")
BUILTIN_BOARD = DATA_DIR / "board.toml"
BUILTIN_DECKS = DATA_DIR / "decks.toml"

# Fixed by the rulebook (not data): twelve cities, four home planets, four alien
# classes, six human kinds, up to four planets at the table.
N_CITIES = 12
N_PLANETS = 4
CLASSES = ("pilots", "abductors", "builders", "military")
CLASS_LETTERS = "PABM"  # the letters used in the alien cards, same order as CLASSES
N_KINDS = 6
PIECES_PER_KIND = 3
MAX_PLAYERS = 4
PARITIES = ("any", "even", "odd")
MISSION_KINDS = ("airspace_abduction", "abduction_possession", "capture_possession", "mapping_possession")
# Requirements each mission kind must state (R18; rulebook "CARTAS DE MISSOES").
KIND_NEEDS = {
    "airspace_abduction": ("airspace", "humans"),
    "abduction_possession": ("humans", "aliens"),
    "capture_possession": ("captures", "aliens"),
    "mapping_possession": ("mapped", "ufos"),
}
EFFECTS = ("starting_aliens", "map_threshold", "prebuilt_ufo", "swap_human", "extra_moves",
           "force_field", "six_uses", "mapping_points", "abduct_without_majority", "ufo_points")


# ---- plain objects handed to the rest of the package ------------------------------------
@dataclass(frozen=True)
class City:
    id: int  # 1-12 as printed on the board
    name: str
    status: str  # "rulebook", "name" or "standin"


@dataclass(frozen=True)
class Planet:
    name: str
    distance: float  # thousands of light years


@dataclass(frozen=True)
class Board:
    path: Path
    version: str
    cities: tuple[City, ...]  # index i is city id i + 1
    routes: tuple[tuple[int, int], ...]  # city ids, a < b
    planets: tuple[Planet, ...]

    def city(self, name: str) -> int:
        """The id (1-12) of the city with this name."""
        for c in self.cities:
            if c.name == name:
                return c.id
        raise KeyError(name)

    def neighbours(self, city: int) -> tuple[int, ...]:
        """Ids of the cities one Pilot move away from ``city`` (R9.2), ascending."""
        return tuple(sorted({b for a, b in self.routes if a == city} | {a for a, b in self.routes if b == city}))

    def adjacent(self, a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in set(self.routes)

    def distance(self, a: int, b: int) -> int:
        """Fewest Pilot moves from city ``a`` to city ``b`` (-1 when unreachable)."""
        seen = {a: 0}
        todo = deque([a])
        while todo:
            x = todo.popleft()
            if x == b:
                return seen[x]
            for y in self.neighbours(x):
                if y not in seen:
                    seen[y] = seen[x] + 1
                    todo.append(y)
        return -1

    def adjacency(self) -> list[list[bool]]:
        """12 x 12 matrix indexed by city id - 1."""
        m = [[False] * N_CITIES for _ in range(N_CITIES)]
        for a, b in self.routes:
            m[a - 1][b - 1] = m[b - 1][a - 1] = True
        return m


@dataclass(frozen=True)
class HumanKind:
    kind: str
    name: str
    colour: str
    colour_status: str
    pieces: int


@dataclass(frozen=True)
class Ability:
    name: str
    effect: str  # one of EFFECTS
    params: tuple[tuple[str, int], ...]  # the card's numbers, e.g. (("moves", 2), ("min_pilots", 1))

    def param(self, key: str) -> int:
        return dict(self.params)[key]


@dataclass(frozen=True)
class Mission:
    id: str
    kind: str
    airspace_parity: str  # "any"/"even"/"odd"; unused when airspace_cities == 0
    airspace_cities: int  # 0 = no airspace requirement
    humans: tuple[int, ...]  # required count per human kind (index into Decks.humans)
    aliens: tuple[int, ...]  # minimum holding per class (CLASSES order), 0 = none
    captures: tuple[int, ...]  # required captured aliens per class
    mapped_parity: str
    mapped_cities: int  # 0 = no mapping requirement
    ufos: int  # 0 = no UFO requirement


@dataclass(frozen=True)
class Decks:
    path: Path
    version: str
    aliens_per_class: int
    aliens_removed_small: int
    ufos_per_player: int
    launch_pad: int
    scoring: dict[str, Any]
    humans: tuple[HumanKind, ...]
    alien_cards: tuple[tuple[int, int, int, int], ...]  # aliens per class on each card
    alien_labels: tuple[str, ...]  # e.g. "PPA"
    abilities: tuple[Ability, ...]
    missions: tuple[Mission, ...]

    def kind_index(self, kind: str) -> int:
        return [h.kind for h in self.humans].index(kind)

    def ability_index(self, name: str) -> int:
        return [a.name for a in self.abilities].index(name)


# ---- pydantic schemas (private) -----------------------------------------------------------
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


Name = Annotated[str, Field(min_length=1, max_length=40)]
Count = Annotated[int, Field(ge=0, le=99)]
Points = Annotated[int, Field(ge=-100, le=100)]


class _CityIn(_Strict):
    id: Annotated[int, Field(ge=1, le=N_CITIES)]
    name: Name
    status: Literal["rulebook", "name", "standin"]


class _PlanetIn(_Strict):
    name: Name
    distance: Annotated[float, Field(gt=0, lt=1e6)]


class _BoardIn(_Strict):
    version: Name
    cities: Annotated[list[_CityIn], Field(min_length=1, max_length=64)]
    routes: Annotated[list[Annotated[list[Annotated[int, Field(ge=1, le=N_CITIES)]], Field(min_length=2, max_length=2)]],
                      Field(min_length=1, max_length=200)]
    planets: Annotated[list[_PlanetIn], Field(min_length=1, max_length=16)]


class _ComponentsIn(_Strict):
    aliens_per_class: Annotated[int, Field(ge=1, le=99)]
    aliens_removed_small: Annotated[int, Field(ge=0, le=98)]
    ufos_per_player: Annotated[int, Field(ge=4, le=20)]  # at least the 4 UFOs a 3-player set-up places
    launch_pad: Annotated[int, Field(ge=1, le=8)]


class _ScoringIn(_Strict):
    majority: Points
    ufo_on_board: Points
    ufo_on_pad: Points
    airspace: Points
    mapping: Points
    humans_same_kind: Annotated[list[Points], Field(min_length=PIECES_PER_KIND, max_length=PIECES_PER_KIND)]
    humans_five_kinds: Points
    humans_six_kinds: Points
    mission_done: Points
    mission_failed: Points


class _HumanIn(_Strict):
    kind: Annotated[str, Field(pattern=r"^[a-z_]{1,20}$")]
    name: Name
    colour: Name
    colour_status: Literal["rulebook", "standin"]
    pieces: int


class _AbilityBase(_Strict):
    name: Annotated[str, Field(pattern=r"^[a-z0-9_]{1,40}$")]


class _StartingAliens(_AbilityBase):
    effect: Literal["starting_aliens"]
    aliens: Annotated[int, Field(ge=2, le=4)]


class _MapThreshold(_AbilityBase):
    effect: Literal["map_threshold"]
    ufos: Annotated[int, Field(ge=1, le=3)]


class _PrebuiltUfo(_AbilityBase):
    effect: Literal["prebuilt_ufo"]
    ufos: Annotated[int, Field(ge=1, le=8)]


class _SwapHuman(_AbilityBase):
    effect: Literal["swap_human"]


class _ExtraMoves(_AbilityBase):
    effect: Literal["extra_moves"]
    moves: Annotated[int, Field(ge=1, le=10)]
    min_pilots: Annotated[int, Field(ge=0, le=20)]


class _ForceField(_AbilityBase):
    effect: Literal["force_field"]
    military: Annotated[int, Field(ge=0, le=20)]
    min_players: Annotated[int, Field(ge=2, le=MAX_PLAYERS)]


class _SixUses(_AbilityBase):
    effect: Literal["six_uses"]
    uses: Annotated[int, Field(ge=1, le=10)]


class _MappingPoints(_AbilityBase):
    effect: Literal["mapping_points"]
    points: Points


class _AbductWithoutMajority(_AbilityBase):
    effect: Literal["abduct_without_majority"]


class _UfoPoints(_AbilityBase):
    effect: Literal["ufo_points"]
    points: Points


_AbilityIn = Annotated[
    Union[_StartingAliens, _MapThreshold, _PrebuiltUfo, _SwapHuman, _ExtraMoves, _ForceField,
          _SixUses, _MappingPoints, _AbductWithoutMajority, _UfoPoints],
    Field(discriminator="effect"),
]


class _AreaIn(_Strict):
    parity: Literal["any", "even", "odd"]
    cities: Annotated[int, Field(ge=1, le=N_CITIES)]


class _AliensNeedIn(_Strict):
    pilots: Count = 0
    abductors: Count = 0
    builders: Count = 0
    military: Count = 0


ClassName = Literal["pilots", "abductors", "builders", "military"]


class _MissionIn(_Strict):
    id: Name
    kind: Literal["airspace_abduction", "abduction_possession", "capture_possession", "mapping_possession"]
    airspace: _AreaIn | None = None
    humans: Annotated[list[str], Field(min_length=1, max_length=18)] | None = None
    aliens: _AliensNeedIn | None = None
    captures: Annotated[list[ClassName], Field(min_length=1, max_length=20)] | None = None
    mapped: _AreaIn | None = None
    ufos: Annotated[int, Field(ge=1, le=20)] | None = None


class _DecksIn(_Strict):
    version: Name
    components: _ComponentsIn
    scoring: _ScoringIn
    humans: Annotated[list[_HumanIn], Field(min_length=1, max_length=20)]
    aliens: Annotated[list[Annotated[str, Field(pattern=r"^[PABM]{3}$")]], Field(min_length=1, max_length=64)]
    abilities: Annotated[list[_AbilityIn], Field(min_length=1, max_length=40)]
    missions: Annotated[list[_MissionIn], Field(min_length=1, max_length=64)]


# ---- loading -----------------------------------------------------------------------------
def _where(doc: dict, loc: tuple) -> str:
    """'cities[3] (id 4).name' from a pydantic error location, naming the entry."""
    out = ""
    node: Any = doc
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
            if isinstance(node, list) and 0 <= part < len(node):
                node = node[part]
                if isinstance(node, dict):
                    for key in ("id", "kind", "name"):
                        if isinstance(node.get(key), (str, int)) and not isinstance(node.get(key), bool):
                            out += f" ({key} {node[key]})"
                            break
            else:
                node = None
        else:
            if isinstance(node, dict) and part in node:
                node = node[part]
                out += ("." if out else "") + str(part)
            elif isinstance(node, dict) and part in EFFECTS:
                continue  # the discriminator tag pydantic inserts for abilities
            else:
                node = None
                out += ("." if out else "") + str(part)
    return out or "top level"


def _repeats(values: list) -> list[int]:
    """Indexes of the entries whose value already appeared earlier in the list."""
    seen: set = set()
    out = []
    for i, v in enumerate(values):
        if v in seen:
            out.append(i)
        seen.add(v)
    return out


def _validate(model: type[BaseModel], doc: dict, path: Path) -> Any:
    try:
        return model.model_validate(doc)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        msg = " ".join(str(err["msg"]).split())
        loc = tuple(err["loc"])
        if err["type"] == "missing":
            msg = "is missing"
        elif err["type"] in ("union_tag_invalid", "union_tag_not_found"):
            loc = loc + ("effect",)
        elif err["type"] == "extra_forbidden":
            msg = "unknown key (not part of the format; check the spelling)"
        raise data_error(path, _where(doc, loc), msg) from None


def load_board(path: str | Path | None = None) -> Board:
    """The board file (built-in ``data/board.toml`` when ``path`` is empty), checked."""
    p = chosen(str(path or ""), BUILTIN_BOARD, "board", "board")
    doc, _ = read(str(p), "board file", "check --set board=PATH")
    b = _validate(_BoardIn, doc, p)

    if len(b.cities) != N_CITIES:
        raise data_error(p, "cities", f"{len(b.cities)} cities; the board has exactly {N_CITIES} (ids 1-{N_CITIES})")
    for i in _repeats([c.id for c in b.cities]):
        raise data_error(p, f"cities[{i}] (id {b.cities[i].id})", "id used twice")
    for i in _repeats([c.name for c in b.cities]):
        raise data_error(p, f"cities[{i}] (id {b.cities[i].id})", f"name {b.cities[i].name!r} used twice")
    cities = tuple(sorted((City(c.id, c.name, c.status) for c in b.cities), key=lambda c: c.id))

    routes: list[tuple[int, int]] = []
    for i, (a, c) in enumerate(b.routes):
        if a == c:
            raise data_error(p, f"routes[{i}] ({a}, {c})", "a route must join two different cities")
        pair = (min(a, c), max(a, c))
        if pair in routes:
            raise data_error(p, f"routes[{i}] ({a}, {c})", "route listed twice")
        routes.append(pair)
    board = Board(p, b.version, cities, tuple(sorted(routes)), ())
    for c in cities:
        if board.distance(1, c.id) < 0:
            raise data_error(p, "routes", f"city {c.id} ({c.name}) cannot be reached from city 1; every city must be reachable")

    if len(b.planets) != N_PLANETS:
        raise data_error(p, "planets", f"{len(b.planets)} planets; the game has exactly {N_PLANETS} home planets")
    for i in _repeats([q.name for q in b.planets]):
        raise data_error(p, f"planets[{i}] (name {b.planets[i].name})", "name used twice")
    for i in _repeats([q.distance for q in b.planets]):
        raise data_error(p, f"planets[{i}] (name {b.planets[i].name})",
                         f"distance {b.planets[i].distance} used twice; distances break turn-order ties and must all differ")
    planets = tuple(Planet(pl.name, pl.distance) for pl in b.planets)
    return Board(p, b.version, cities, tuple(sorted(routes)), planets)


def _parity_cities(parity: str) -> int:
    return N_CITIES if parity == "any" else N_CITIES // 2


def load_decks(path: str | Path | None = None) -> Decks:
    """The decks file (built-in ``data/decks.toml`` when ``path`` is empty), checked."""
    p = chosen(str(path or ""), BUILTIN_DECKS, "decks", "decks")
    doc, _ = read(str(p), "decks file", "check --set decks=PATH")
    d = _validate(_DecksIn, doc, p)
    comp = d.components

    if comp.aliens_removed_small >= comp.aliens_per_class:
        raise data_error(p, "components.aliens_removed_small",
                         f"{comp.aliens_removed_small} removed of {comp.aliens_per_class} per class leaves no stock")

    if len(d.humans) != N_KINDS:
        raise data_error(p, "humans", f"{len(d.humans)} kinds; the game has exactly {N_KINDS} (one of each on the refill track)")
    kinds = [h.kind for h in d.humans]
    for i in _repeats(kinds):
        raise data_error(p, f"humans[{i}] (kind {kinds[i]})", "kind used twice")
    for i, h in enumerate(d.humans):
        if h.pieces != PIECES_PER_KIND:
            raise data_error(p, f"humans[{i}] (kind {h.kind})",
                             f"pieces = {h.pieces}; must be {PIECES_PER_KIND} (one on the track, two in the twelve cities)")
    humans = tuple(HumanKind(h.kind, h.name, h.colour, h.colour_status, h.pieces) for h in d.humans)

    if len(d.aliens) < 4:
        raise data_error(p, "aliens", f"{len(d.aliens)} alien cards; at least 4 are needed (one per recruitment area)")
    cards = tuple(tuple(label.count(ch) for ch in CLASS_LETTERS) for label in d.aliens)

    abilities: list[Ability] = []
    for i in _repeats([x.name for x in d.abilities]):
        raise data_error(p, f"abilities[{i}] (name {d.abilities[i].name})", "name used twice")
    for i, a in enumerate(d.abilities):
        params = tuple((k, v) for k, v in a.model_dump().items() if k not in ("name", "effect"))
        if a.effect == "prebuilt_ufo" and a.ufos > comp.launch_pad:
            raise data_error(p, f"abilities[{i}] (name {a.name}).ufos",
                             f"{a.ufos} UFOs do not fit on a launch pad of {comp.launch_pad}")
        abilities.append(Ability(a.name, a.effect, params))
    if len(abilities) < 2 * MAX_PLAYERS:
        raise data_error(p, "abilities", f"{len(abilities)} cards; at least {2 * MAX_PLAYERS} are needed (two per player)")

    missions: list[Mission] = []
    for i in _repeats([x.id for x in d.missions]):
        raise data_error(p, f"missions[{i}] (id {d.missions[i].id})", "id used twice")
    for i, m in enumerate(d.missions):
        where = f"missions[{i}] (id {m.id})"
        for need in KIND_NEEDS[m.kind]:
            if getattr(m, need) is None:
                raise data_error(p, where, f"a {m.kind} mission needs `{need}`")
        for area_key in ("airspace", "mapped"):
            area = getattr(m, area_key)
            if area is not None and area.cities > _parity_cities(area.parity):
                raise data_error(p, f"{where}.{area_key}",
                                 f"{area.cities} cities but only {_parity_cities(area.parity)} are {area.parity}")
        hum = [0] * N_KINDS
        for k in m.humans or []:
            if k not in kinds:
                raise data_error(p, f"{where}.humans", f"unknown human kind {k!r}; known: {', '.join(kinds)}")
            hum[kinds.index(k)] += 1
        for j, n in enumerate(hum):
            if n > PIECES_PER_KIND:
                raise data_error(p, f"{where}.humans", f"{n} x {kinds[j]}, but there are only {PIECES_PER_KIND} pieces of a kind")
        al = [getattr(m.aliens, c) if m.aliens is not None else 0 for c in CLASSES]
        for j, n in enumerate(al):
            if n > comp.aliens_per_class:
                raise data_error(p, f"{where}.aliens.{CLASSES[j]}",
                                 f"{n} tokens, but there are only {comp.aliens_per_class} of a class")
        cap = Counter(m.captures or [])
        if m.ufos is not None and m.ufos > comp.ufos_per_player:
            raise data_error(p, f"{where}.ufos", f"{m.ufos} UFOs, but a player has only {comp.ufos_per_player}")
        missions.append(Mission(
            id=m.id, kind=m.kind,
            airspace_parity=m.airspace.parity if m.airspace else "any",
            airspace_cities=m.airspace.cities if m.airspace else 0,
            humans=tuple(hum), aliens=tuple(al), captures=tuple(cap.get(c, 0) for c in CLASSES),
            mapped_parity=m.mapped.parity if m.mapped else "any",
            mapped_cities=m.mapped.cities if m.mapped else 0,
            ufos=m.ufos or 0,
        ))
    if len(missions) < 3 * MAX_PLAYERS:
        raise data_error(p, "missions", f"{len(missions)} cards; at least {3 * MAX_PLAYERS} are needed (three per player)")

    return Decks(
        path=p, version=d.version,
        aliens_per_class=comp.aliens_per_class, aliens_removed_small=comp.aliens_removed_small,
        ufos_per_player=comp.ufos_per_player, launch_pad=comp.launch_pad,
        scoring={k: tuple(v) if isinstance(v, list) else v for k, v in d.scoring.model_dump().items()}, humans=humans, alien_cards=cards, alien_labels=tuple(d.aliens),
        abilities=tuple(abilities), missions=tuple(missions),
    )


def load(params: Any) -> tuple[Board, Decks]:
    """Both data files chosen by the ``board`` and ``decks`` settings of :class:`OVNIParams`."""
    board = load_board(params.board)
    decks = load_decks(params.decks)
    if params.players == 2:
        ff_min = [a.param("min_players") for a in decks.abilities if a.effect == "force_field"]
        usable = len(decks.abilities) - (sum(1 for m in ff_min if m > 2) if params.force_field_2p == "remove" else 0)
        if usable < 4:
            raise UserError(f"{decks.path}: abilities: only {usable} cards left for a 2-player game; at least 4 are needed")
    return board, decks
