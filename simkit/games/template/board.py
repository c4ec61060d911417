"""Reads the template game's data file and builds the board vector the compiled rules
read: the parameters and the die, as named fields (a Layout, like the state)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, model_validator

from ...datafiles import read, validated, version
from ...layout import Layout
from .params import PigParams

BUILTIN = Path(__file__).with_name("data") / "die.toml"
MAX_FACES = 20
HINT = "check --set data=PATH"

BOARD = Layout("template board")
B_PLAYERS, B_TARGET, B_NFACES, B_BUST = BOARD.scalars("players", "target", "nfaces", "bust")
B_FACES = BOARD.array("faces", MAX_FACES)


class DieFile(BaseModel):
    """The data file's schema: wrong types, unknown keys and absurd sizes are refused."""

    model_config = ConfigDict(extra="forbid", strict=True)
    version: StrictStr
    faces: list[StrictInt] = Field(min_length=2, max_length=MAX_FACES)
    bust: StrictInt

    @model_validator(mode="after")
    def _check(self):
        if any(not 1 <= f <= 100 for f in self.faces):
            raise ValueError("faces must be numbers from 1 to 100")
        if self.bust not in self.faces:
            raise ValueError("the bust face must be one of the faces")
        return self


def data_path(params: PigParams) -> Path:
    return Path(params.data) if params.data else BUILTIN


def data_version(params: PigParams) -> str:
    return version(str(data_path(params)), "die file", HINT)


def build(params: PigParams) -> np.ndarray:
    path = data_path(params)
    doc, _ = read(str(path), "die file", HINT)
    die = validated(DieFile, doc, path, HINT)
    b = np.zeros(BOARD.size, np.int32)
    b[B_PLAYERS] = params.players
    b[B_TARGET] = params.target
    b[B_NFACES] = len(die.faces)
    b[B_BUST] = die.bust
    b[B_FACES:B_FACES + len(die.faces)] = die.faces
    return b
