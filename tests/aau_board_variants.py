"""Generator of the Alien Attack USA board variant ``parks-herds-moved``
(simkit/games/aau/data/board-parks-herds-moved.json); the tests recompute it from board.json.

The rule (docs/rules/alien-attack-usa.md, components table): the new places are taken from
the spaces that are plain on board.json, so no park or herd space keeps its place.

1. Herd regions, in board.json's order: each moves to the triangle of three mutually adjacent
   such spaces, not taken by an earlier region, whose centre is nearest to the old region's
   centre (ties: the lower sorted ids).
2. Parks, in id order: each moves, with its name, to the nearest such space that is not a new
   herd space nor taken by an earlier park (ties: the lower id).

Distances are between hex centres (pointy-top, odd rows shifted half a hex east).

Run ``python -m tests.aau_board_variants`` to rewrite the file.
"""

from __future__ import annotations

import json
import math
from itertools import combinations
from pathlib import Path

from simkit.games.aau.board import _STEPS

DATA = Path(__file__).resolve().parent.parent / "simkit" / "games" / "aau" / "data"
NAME = "parks-herds-moved"


def centre(sp: dict) -> tuple[float, float]:
    return sp["col"] + 0.5 * (sp["row"] % 2), sp["row"] * math.sqrt(3) / 2


def _dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _mean(points) -> tuple[float, float]:
    points = list(points)
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


def moved(doc: dict) -> tuple[list[list[int]], dict[int, int]]:
    """The new herd regions and the park moves {old id: new id} for board document ``doc``."""
    at = {sp["id"]: centre(sp) for sp in doc["spaces"]}
    free = sorted(sp["id"] for sp in doc["spaces"] if sp["type"] == "plain")
    pos = {sp["id"]: (sp["col"], sp["row"]) for sp in doc["spaces"]}

    def adjacent(a: int, b: int) -> bool:  # the board's own hex steps (simkit/games/aau/board.py)
        (ca, ra), (cb, rb) = pos[a], pos[b]
        return (cb - ca, rb - ra) in _STEPS[ra % 2]

    triangles = [t for t in combinations(free, 3) if all(adjacent(a, b) for a, b in combinations(t, 2))]
    herds, taken = [], set()
    for region in doc["herds"]:
        old = _mean(at[s] for s in region)
        best = min((t for t in triangles if not taken & set(t)),
                   key=lambda t: (round(_dist(_mean(at[s] for s in t), old), 9), t))
        herds.append(list(best))
        taken |= set(best)
    parks = {}
    for sp in doc["spaces"]:
        if sp["type"] == "park":
            new = min((s for s in free if s not in taken), key=lambda s: (round(_dist(at[s], at[sp["id"]]), 9), s))
            parks[sp["id"]] = new
            taken.add(new)
    return herds, parks


def variant(doc: dict) -> dict:
    """board.json's document with the parks and herd regions moved (about and version kept)."""
    herds, parks = moved(doc)
    names = {parks[sp["id"]]: sp["name"] for sp in doc["spaces"] if sp["type"] == "park"}
    herd_spaces = {s for region in herds for s in region}
    spaces = []
    for sp in doc["spaces"]:
        sp = {k: v for k, v in sp.items() if k != "name"}
        sid = sp["id"]
        sp["type"] = "park" if sid in names else "herd" if sid in herd_spaces else "plain"
        if sid in names:
            sp["name"] = names[sid]
        spaces.append(sp)
    return {**doc, "herds": herds, "spaces": spaces}


ABOUT = ("Alien Attack USA board for simkit, variant parks-herds-moved: the 22 parks and the 6 herd "
         "regions moved to spaces that are plain on board.json, by the rule in tests/aau_board_variants.py "
         "(each herd region to the nearest free triangle of mutually adjacent spaces, then each park with its "
         "name to the nearest free space). Everything else equals board.json. ")


def main() -> None:
    """Rewrite the variant file from board.json, one space per line like board.json."""
    text = (DATA / "board.json").read_text()
    doc = json.loads(text)
    new = variant(doc)
    lines = text.splitlines(keepends=True)
    out = []
    spaces = iter(new["spaces"])
    for line in lines:
        body = line.strip()
        top = line.startswith(' "')  # a key of the document itself, not of a nested object
        if body.startswith('{"id":'):
            comma = "," if body.endswith(",") else ""
            line = line[: len(line) - len(line.lstrip())] + json.dumps(next(spaces)) + comma + "\n"
        elif top and body.startswith('"herds":'):
            line = f' "herds": {json.dumps(new["herds"])},\n'
        elif top and body.startswith('"about":'):
            line = f' "about": {json.dumps(ABOUT + doc["about"].split(". ", 1)[1])},\n'
        elif top and body.startswith('"version":'):
            line = f' "version": {json.dumps(doc["version"] + "-" + NAME)},\n'
        out.append(line)
    (DATA / f"board-{NAME}.json").write_text("".join(out))


if __name__ == "__main__":
    main()
