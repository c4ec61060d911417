"""The board file's shape, checked before anything is read from it: wrong types,
unknown keys and absurd sizes are one line naming the entry (board.py then checks
what the shape cannot say: ids that exist, herd spaces, cities on the board)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

_Strict = ConfigDict(extra="forbid", strict=True)
Count = Annotated[int, Field(ge=0, le=200)]
Points = Annotated[int, Field(ge=0, le=1000)]
Tier = Annotated[list[Annotated[int, Field(ge=0, le=1000)]], Field(min_length=2, max_length=2)]
Tiers = Annotated[list[Tier], Field(min_length=3, max_length=3)]
SpaceId = Annotated[int, Field(ge=0, le=100_000)]
Border = Literal["PAC", "MEX", "GULF", "ATL", "CAN"]


class Space(BaseModel):
    model_config = _Strict
    id: SpaceId
    col: Annotated[int, Field(ge=-100, le=100)]
    row: Annotated[int, Field(ge=-100, le=100)]
    type: Literal["plain", "park", "herd"]
    borders: Annotated[list[Border], Field(max_length=5)] = []
    canada_icon: bool = False
    name: Annotated[str, Field(max_length=100)] = ""


class City(BaseModel):
    model_config = _Strict
    name: Annotated[str, Field(max_length=100)] = ""
    value: Annotated[int, Field(ge=1, le=9)]
    spaces: Annotated[list[SpaceId], Field(min_length=2, max_length=3)]


class Protection(BaseModel):
    model_config = _Strict
    points: Points
    value1_cities: Count
    herds: Count
    other_border_spaces: Count


class Missions(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
    about: str = ""
    city: dict[Literal["2", "3", "4", "5"], Tiers]
    border: dict[Literal["PAC", "MEX", "GULF", "ATL"], Tiers]
    parks: Tiers
    bases: Tiers
    expansion: Tiers
    protection: Protection


class BoardFile(BaseModel):
    model_config = _Strict
    about: str = ""
    version: Annotated[str, Field(min_length=1, max_length=100)]
    grid: str = ""
    borders: dict[Border, str] = {}
    missions: Missions
    herds: Annotated[list[Annotated[list[SpaceId], Field(min_length=1, max_length=3)]], Field(max_length=16)] = []
    spaces: Annotated[list[Space], Field(min_length=3, max_length=160)]
    cities: Annotated[list[City], Field(min_length=1, max_length=64)]
