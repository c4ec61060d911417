"""The board vector: everything the compiled code needs to know about the parameters
and data files (here only the player count and the target)."""

from __future__ import annotations

import numpy as np

from .params import PigParams


def build(params: PigParams) -> np.ndarray:
    return np.array([params.players, params.target], np.int32)
