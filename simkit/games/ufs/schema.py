"""The components file's shape, checked before anything is read from it: wrong types,
unknown keys and absurd sizes are one line naming the entry (board.py then checks
what the shape cannot say: the sky cells, rooms, skull rows)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

_Strict = ConfigDict(extra="forbid", strict=True)
Cell = Annotated[str, Field(min_length=1, max_length=12)]
Row = Annotated[list[Cell], Field(min_length=5, max_length=5)]
Small = Annotated[int, Field(ge=0, le=99)]


class SkySide(BaseModel):
    model_config = _Strict
    rows: Annotated[list[Row], Field(min_length=4, max_length=4)]
    research: Annotated[list[Annotated[int, Field(ge=0, le=30)]], Field(min_length=4, max_length=4)]
    mothership: Annotated[list[Annotated[str, Field(pattern=r"^(none|skull|(white|excavator|research|damage):([1-9]|1[0-9]|20))$")]], Field(min_length=4, max_length=4)]


class SkyTile(BaseModel):
    model_config = _Strict
    easy: SkySide
    threat: SkySide


class Sky(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
    t4: SkyTile = Field(alias="4")
    t3: SkyTile = Field(alias="3")
    t2: SkyTile = Field(alias="2")
    t1: SkyTile = Field(alias="1")


class UpperHalf(BaseModel):
    model_config = _Strict
    damage: Small
    energy: Small
    start_energy: Small
    excavator_start: Annotated[int, Field(ge=1, le=25)]
    rows: Annotated[list[Row], Field(min_length=2, max_length=2)]


class LowerHalf(BaseModel):
    model_config = _Strict
    damage: Small
    energy: Small
    rows: Annotated[list[Row], Field(min_length=3, max_length=3)]


class Base(BaseModel):
    model_config = _Strict
    upper: dict[Annotated[str, Field(pattern=r"^[A-Z]$")], UpperHalf]
    lower: dict[Annotated[str, Field(pattern=r"^[A-Z]$")], LowerHalf]


class CitySide(BaseModel):
    model_config = _Strict
    ability: str = "none"
    research_prefix: Annotated[list[Annotated[int, Field(ge=0, le=30)]], Field(max_length=15)] = []


class City(BaseModel):
    model_config = _Strict
    upper: Annotated[str, Field(pattern=r"^[A-Z]$")]
    lower: Annotated[str, Field(pattern=r"^[A-Z]$")]
    normal: CitySide
    damaged: CitySide


class Components(BaseModel):
    model_config = _Strict
    version: Annotated[str, Field(min_length=1, max_length=100)]
    sky: Sky
    base: Base
    city: dict[Annotated[str, Field(pattern=r"^[a-z_]+$")], City]
