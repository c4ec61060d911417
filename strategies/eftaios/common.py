"""Helpers the heuristic and the searching bot share. Each takes the arrays and offsets it
reads: the heuristic passes its seat's observation (``E.O_HATCH``), the searching bot its
observation too, or, in a rollout, the sampled world it plays out (``E.HATCH_STATE``)."""

from __future__ import annotations

from simkit.games.eftaios import bits
from simkit.games.eftaios import engine as E
from simkit.games.eftaios.board import B_HDIST, FAR, NCELLS
from simkit.jit import kernel

PROGRESS = 0.35  # motion prior: weight kept per step a sector lies behind the front of the set


@kernel
def nearest_hatch(hs, off, b, y):
    """Human steps from sector y to the nearest open hatch (board table, R10) and that hatch
    (FAR, -1 if none); hatch k's state is hs[off + k]."""
    d = FAR
    best = -1
    for k in range(4):
        if hs[off + k] == E.HATCH_OPEN:
            dk = b[B_HDIST + k * NCELLS + y]
            if dk < d:
                d = dk
                best = k
    return d, best


@kernel
def hatch_distance(hs, off, b, y):
    """Human steps from sector y to the nearest open hatch (FAR if none)."""
    return nearest_hatch(hs, off, b, y)[0]


@kernel
def progress_weight(obs, b, y, dmin):
    """The motion prior of a human: it walks to a live hatch, so among its possible sectors
    those nearest a hatch (the front of the set) are the likeliest; each step behind the
    front divides the weight by 1 / PROGRESS."""
    d = hatch_distance(obs, E.O_HATCH, b, y)
    if d >= FAR:
        return PROGRESS ** 8
    return PROGRESS ** min(d - dmin, 8)


@kernel
def front(obs, b, st):
    """The least hatch distance over a set of sectors, and the set's total prior weight."""
    dmin = FAR
    for w in range(bits.WORDS):
        x = st[w]
        while x != 0:
            low = x & -x
            y = bits.cell_at(w, bits.lowest(low))
            x ^= low
            d = hatch_distance(obs, E.O_HATCH, b, y)
            if d < dmin:
                dmin = d
    z = 0.0
    for w in range(bits.WORDS):
        x = st[w]
        while x != 0:
            low = x & -x
            y = bits.cell_at(w, bits.lowest(low))
            x ^= low
            z += progress_weight(obs, b, y, dmin)
    return dmin, z
