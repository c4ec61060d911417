"""Typed, frozen parameter objects for games.

Each game declares a frozen dataclass whose fields are its rule variants, each made
with :func:`setting` so that it carries its allowed values and a help line. The same
validation serves ``--set key=value`` on the command line (values are strings) and
experiment or bands files (values are already TOML-typed).
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, Iterable, Mapping

from .errors import UserError

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


def setting(default: Any, *, help: str, choices: Iterable[Any] | None = None,
            lo: float | None = None, hi: float | None = None, compensation: bool = False) -> Any:
    """A parameter field: its default, a one-line help, and allowed values or range.

    ``compensation``: a rule change a designer might make to balance the game, not in the
    rulebook (its default must leave the rules as written); `simkit games` lists these
    apart and `simkit tune` searches them."""
    meta = {"help": help, "choices": tuple(choices) if choices is not None else None, "lo": lo, "hi": hi,
            "compensation": compensation}
    return dataclasses.field(default=default, metadata=meta)


@dataclasses.dataclass(frozen=True)
class ParamInfo:
    name: str
    type: type
    default: Any
    help: str
    choices: tuple | None
    lo: float | None
    hi: float | None
    compensation: bool = False  # not in the rulebook: a change `simkit tune` may propose

    def allowed(self) -> str:
        if self.type is bool:
            return "true or false"
        if self.choices is not None:
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.lo is not None and self.hi is not None:
            return f"{self.type.__name__} from {self.lo} to {self.hi}"
        if self.lo is not None:
            return f"{self.type.__name__} >= {self.lo}"
        return f"any {self.type.__name__}"


def describe(params_cls: type) -> list[ParamInfo]:
    hints = typing.get_type_hints(params_cls)
    out = []
    for f in dataclasses.fields(params_cls):
        m = f.metadata
        out.append(ParamInfo(f.name, hints[f.name], f.default, m.get("help", ""),
                             m.get("choices"), m.get("lo"), m.get("hi"), bool(m.get("compensation"))))
    return out


def _coerce(info: ParamInfo, raw: Any, game: str) -> Any:
    where = f"{game}: {info.name}={raw!r}"
    t = info.type
    if t is bool:
        if isinstance(raw, bool):
            value = raw
        elif isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
            value = raw.strip().lower() in _TRUE
        else:
            raise UserError(f"{where} is not a boolean; use true or false")
    elif t is int:
        if isinstance(raw, bool):
            raise UserError(f"{where} is not an integer; allowed: {info.allowed()}")
        if isinstance(raw, int):
            value = raw
        else:
            try:
                value = int(str(raw).strip())
            except ValueError:
                raise UserError(f"{where} is not an integer; allowed: {info.allowed()}") from None
    elif t is float:
        if isinstance(raw, bool):
            raise UserError(f"{where} is not a number; allowed: {info.allowed()}")
        try:
            value = float(raw)
        except (TypeError, ValueError):
            raise UserError(f"{where} is not a number; allowed: {info.allowed()}") from None
    else:
        if not isinstance(raw, str):
            raise UserError(f"{where} is not text; allowed: {info.allowed()}")
        value = raw.strip()
    if info.choices is not None and value not in info.choices:
        raise UserError(f"{where} is not allowed; use {info.allowed()}")
    if (info.lo is not None and value < info.lo) or (info.hi is not None and value > info.hi):
        raise UserError(f"{where} is out of range; allowed: {info.allowed()}")
    return value


def parse_assignments(items: Iterable[str], option: str = "--set") -> dict[str, str]:
    """``["a=1", "b=x"]`` to ``{"a": "1", "b": "x"}``, rejecting malformed items (named as
    ``option`` gave them)."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UserError(f"{option} {item!r} is malformed; write key=value, e.g. {option} threat=2")
        if key.strip() in out and out[key.strip()] != value:
            raise UserError(f"{option} {key.strip()} is given twice ({out[key.strip()]!r} and {value!r}); give it once")
        out[key.strip()] = value
    return out


def build(params_cls: type, overrides: Mapping[str, Any], game: str) -> Any:
    """A validated parameters object: defaults overridden by ``overrides``."""
    infos = {i.name: i for i in describe(params_cls)}
    values = {}
    for key, raw in overrides.items():
        if key not in infos:
            raise UserError(f"{game} has no parameter {key!r}; known: {', '.join(infos)} (see 'simkit games')")
        values[key] = _coerce(infos[key], raw, game)
    obj = params_cls(**values)
    check = getattr(obj, "check", None)
    if check is not None:
        problem = check()
        if problem:
            raise UserError(f"{game}: {problem}")
    return obj


def as_dict(params: Any) -> dict[str, Any]:
    return dataclasses.asdict(params)
