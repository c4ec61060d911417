"""Sets of map cells as bit sets, for the compiled rules (move reach) and the bots (beliefs).

A set is 6 int64 words. Word ``w`` holds columns ``4w .. 4w+3``, 16 bits per column (lane),
the row in the low 14 bits of the lane: cell ``col * 14 + row`` is bit ``(col % 4) * 16 + row``
of word ``col // 4``. Bits 14 and 15 of every lane stay zero, so no word is ever negative and
a shift never carries a row into the next column by accident.

One step of movement (R2.2) in this layout: a cell's neighbours are the cells above and below
in its column and, in the adjacent columns, rows r and r+1 for a column B, D, ... (odd index,
drawn half a hex lower) or rows r-1 and r for a column A, C, ... (even index). Lanes 0 and 2
of a word are even columns, lanes 1 and 3 odd ones, so :func:`expand` is a dozen shifts per
word. Sets live in int32 vectors (state, board, bot memory) as int64 views of 12 ints at an
even offset: ``a[off:off + INTS].view(np.int64)``, written out where it is used (numba
cannot return a view from a function compiled without reference counting, nor inline one).
"""

from __future__ import annotations

import numpy as np

from ...jit import inline_kernel, popcount

WORDS = 6
INTS = 2 * WORDS
NROWS = 14
ROWMASK = np.int64(0x3FFF3FFF3FFF3FFF)  # the 14 row bits of each lane
EVEN_LANES = np.int64(0x00003FFF00003FFF)  # lanes 0 and 2 (columns A, C, E, ...)
ODD_LANES = np.int64(0x3FFF00003FFF0000)  # lanes 1 and 3 (columns B, D, F, ...)


@inline_kernel
def word_of(cell):
    return (cell // NROWS) >> 2


@inline_kernel
def bit_of(cell):
    col = cell // NROWS
    return np.int64(1) << np.int64((col & 3) * 16 + cell - col * NROWS)


@inline_kernel
def has(bits, cell):
    return (bits[word_of(cell)] & bit_of(cell)) != 0


@inline_kernel
def add(bits, cell):
    bits[word_of(cell)] |= bit_of(cell)


@inline_kernel
def remove(bits, cell):
    bits[word_of(cell)] &= ~bit_of(cell)


@inline_kernel
def clear(bits):
    for w in range(WORDS):
        bits[w] = 0


@inline_kernel
def copy(dst, src):
    for w in range(WORDS):
        dst[w] = src[w]


@inline_kernel
def count(bits):
    n = 0
    for w in range(WORDS):
        n += popcount(bits[w])
    return n


@inline_kernel
def empty(bits):
    acc = np.int64(0)
    for w in range(WORDS):
        acc |= bits[w]
    return acc == 0


@inline_kernel
def intersects(a, c):
    acc = np.int64(0)
    for w in range(WORDS):
        acc |= a[w] & c[w]
    return acc != 0


@inline_kernel
def and_into(dst, src):
    for w in range(WORDS):
        dst[w] &= src[w]


@inline_kernel
def or_into(dst, src):
    for w in range(WORDS):
        dst[w] |= src[w]


@inline_kernel
def andnot_into(dst, src):
    for w in range(WORDS):
        dst[w] &= ~src[w]


@inline_kernel
def cell_at(w, bit):
    """The cell id of bit ``bit`` of word ``w``."""
    col = w * 4 + (bit >> 4)
    return col * NROWS + (bit & 15)


@inline_kernel
def lowest(x):
    """Index of the lowest set bit of a non-zero word."""
    i = 0
    while (x & np.int64(1)) == 0:
        x >>= np.int64(1)
        i += 1
    return i


@inline_kernel
def nth(bits, k):
    """The k-th cell (0-based, in id order) of a set with more than k cells."""
    for w in range(WORDS):
        x = bits[w]
        c = popcount(x)
        if k < c:
            for _ in range(k):
                x &= x - np.int64(1)
            return cell_at(w, lowest(x & -x))
        k -= c
    return -1


@inline_kernel
def expand(src, dst):
    """``dst`` = the cells adjacent to some cell of ``src`` (R2.2); ``dst`` may not be ``src``."""
    for w in range(WORDS):
        x = src[w]
        near = x
        if w > 0:
            near |= src[w - 1]
        if w + 1 < WORDS:
            near |= src[w + 1]
        if near == 0:  # sets are mostly local: most words have nothing nearby
            dst[w] = 0
            continue
        e = x & EVEN_LANES
        o = x & ODD_LANES
        ev = e | (e >> np.int64(1))  # an odd column touches rows r and r+1 of its even neighbours
        ov = o | (o << np.int64(1))  # an even column touches rows r-1 and r of its odd neighbours
        y = (x << np.int64(1)) | (x >> np.int64(1)) | (ev << np.int64(16)) | (ev >> np.int64(16)) \
            | (ov << np.int64(16)) | (ov >> np.int64(16))
        if w + 1 < WORDS:
            xn = src[w + 1] & EVEN_LANES
            y |= (xn | (xn >> np.int64(1))) << np.int64(48)
        if w > 0:
            xp = src[w - 1] & ODD_LANES
            y |= (xp | (xp << np.int64(1))) >> np.int64(48)
        dst[w] = y & ROWMASK
