"""Reads the template game's data file and builds the board vector the compiled rules
read: the parameters and the die, as named fields (a Layout, like the state)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, model_validator

from ...datafiles import read, validated, version
from ...layout import Layout
from .params import LiarsDiceParams

BUILTIN = Path(__file__).with_name("data") / "dice.toml"
MAX_FACES = 6  # the faces a bid may name: the width of the action space's bid range
HINT = "check --set data=PATH"

BOARD = Layout("template board")
B_PLAYERS, B_DICE, B_WILD, B_NFACES = BOARD.scalars("players", "dice", "wild", "nfaces")


class DiceFile(BaseModel):
    """The data file's schema: wrong types, unknown keys and absurd sizes are refused."""

    model_config = ConfigDict(extra="forbid", strict=True)
    version: StrictStr
    faces: StrictInt

    @model_validator(mode="after")
    def _check(self):
        if not 2 <= self.faces <= MAX_FACES:
            raise ValueError(f"faces must be a number from 2 to {MAX_FACES}")
        return self


def data_path(params: LiarsDiceParams) -> Path:
    return Path(params.data) if params.data else BUILTIN


def data_version(params: LiarsDiceParams) -> str:
    return version(str(data_path(params)), "dice file", HINT)


def build(params: LiarsDiceParams) -> np.ndarray:
    path = data_path(params)
    doc, _ = read(str(path), "dice file", HINT)
    dice = validated(DiceFile, doc, path, HINT)
    b = np.zeros(BOARD.size, np.int32)
    b[B_PLAYERS] = params.players
    b[B_DICE] = params.dice
    b[B_WILD] = params.wild
    b[B_NFACES] = dice.faces
    return b
