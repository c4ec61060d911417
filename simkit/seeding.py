"""Per-game seeds.

Game ``i`` of a run with root seed ``S`` always gets the same seed, whatever the
chunking, the number of jobs or the backend: the seed is a pure function of
``(S, i)``. The root is first hashed by NumPy's ``SeedSequence`` (any size of
integer is accepted); game ``i`` then takes element ``i + 1`` of the SplitMix64
sequence started from that key, which gives distinct, well-mixed 64-bit seeds.
"""

from __future__ import annotations

import numpy as np

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def mix64(z: np.ndarray) -> np.ndarray:
    """SplitMix64's output function (a bijection of 64-bit integers)."""
    z = np.asarray(z, dtype=np.uint64)
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def root_key(root_seed: int) -> np.uint64:
    if root_seed < 0:
        raise ValueError("the root seed must be a non-negative integer")
    return np.random.SeedSequence(root_seed).generate_state(1, np.uint64)[0]


def game_seeds(root_seed: int, start: int, stop: int) -> np.ndarray:
    """Seeds of games ``start .. stop-1`` of the run with ``root_seed``."""
    key = root_key(root_seed)
    idx = np.arange(start, stop, dtype=np.uint64) + np.uint64(1)
    with np.errstate(over="ignore"):
        return mix64(key + idx * GOLDEN)
