"""Random numbers inside compiled game code.

Each game owns two SplitMix64 streams in a ``uint64[3]`` array: stream 0 for chance
(dice, draws, shuffles) and stream 1 for the bots; element 2 keeps the game's seed.
Keeping the bots off the chance stream, and restarting the chance stream from the
seed at fixed points of the game (``restart``, e.g. each round), means that two
bots or two rule variants facing the same seed see the same dice as far as the
rules allow, which makes paired comparisons much sharper.
The same code runs compiled and as plain Python (``NUMBA_DISABLE_JIT=1``) with
identical results.
"""

from __future__ import annotations

import numpy as np
from numba import njit

CHANCE = 0
BOT = 1

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_BOT_SALT = np.uint64(0xD1B54A32D192ED03)


@njit
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit
def new_streams(seed):
    """Both streams of a game from its 64-bit seed."""
    rng = np.empty(3, np.uint64)
    rng[0] = np.uint64(seed)
    rng[1] = _mix(np.uint64(seed) ^ _BOT_SALT)
    rng[2] = np.uint64(seed)
    return rng


@njit
def restart(rng, stream, point):
    """Restarts a stream at a fixed point of the game (``point``: e.g. the round)."""
    rng[stream] = _mix(rng[2] ^ _mix(np.uint64(point) * _GOLDEN + _BOT_SALT))


@njit
def next_u64(rng, stream):
    rng[stream] += _GOLDEN
    return _mix(rng[stream])


@njit
def randint(rng, stream, n):
    """Uniform integer in ``0 .. n-1`` (Lemire's multiply-shift on 32 bits; bias < n / 2**32)."""
    hi = next_u64(rng, stream) >> np.uint64(32)
    return np.int64((hi * np.uint64(n)) >> np.uint64(32))


@njit
def fisher_yates(a, rng, stream):
    """Shuffles the array ``a`` in place (a view, e.g. ``s[off:off + n]``) with draws from
    ``stream``: j uniform in 0..i for i from the last index down to 1, swapping a[i] and a[j].
    Every shuffle of the games and bots is this one, so a game's draws are easy to model."""
    for i in range(a.shape[0] - 1, 0, -1):
        j = randint(rng, stream, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


@njit
def die(rng):
    """One six-sided die from the chance stream."""
    return randint(rng, CHANCE, 6) + 1


@njit
def uniform(rng, stream):
    """Float in [0, 1)."""
    return np.float64(next_u64(rng, stream) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
