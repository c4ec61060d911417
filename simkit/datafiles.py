"""Reading the files users write (board data, experiments, bands): a missing or
malformed file is a one-line UserError naming the file and how to fix it."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tomllib
from functools import lru_cache
from pathlib import Path

from .errors import UserError

MAX_BYTES = 16 * 2**20  # the largest data file read


from ._cache import ROOT as HOME  # the folder holding simkit/ and experiments/


def locate(path_str: str) -> str:
    """A relative path is looked up in the current folder, then in simkit's own folder,
    so that `simkit/games/ufoo/data/board-no-outliers.toml` names the same file (and the
    experiment files shipped with simkit run) wherever the command runs."""
    path = Path(path_str)
    if path_str and not path.is_absolute() and not path.exists() and (HOME / path).exists():
        return str(HOME / path)
    return path_str


def variants(builtin: Path) -> dict[str, Path]:
    """A game's built-in variants of a data file: the files ``STEM-NAME.SUFFIX`` or
    ``STEM_NAME.SUFFIX`` beside the built-in ``STEM.SUFFIX``, by NAME."""
    cut = len(builtin.stem) + 1
    return {p.stem[cut:]: p for p in sorted(builtin.parent.glob(f"{builtin.stem}[-_]*{builtin.suffix}"))}


def chosen(value: str, builtin: Path, setting: str, what: str) -> Path:
    """The data file a setting names: the built-in one when empty, a built-in variant named
    by a bare NAME (no path separator or dot), or a path. A bare name that is neither a
    variant nor an existing file is refused in one line listing the variants."""
    if not value:
        return builtin
    named = variants(builtin)
    if "/" in value or "." in value or (value not in named and Path(value).exists()):
        return Path(value)
    if value not in named:
        raise UserError(f"no built-in {what} variant {value!r} (built-in: {', '.join(named) or 'none'}); give one of "
                        f"those or a path to a {builtin.suffix[1:].upper()} file with --set {setting}=PATH")
    return named[value]


def read(path_str: str, what: str, hint: str = "") -> tuple[dict, str]:
    """The document in a TOML or JSON file (by its ending) and a short hash of its bytes.
    The bytes are read every time (a board built from them is cached by this hash, so an
    edited file is never played as its old version); only their parsing is cached."""
    path = Path(locate(path_str))
    more = f"; {hint}" if hint else ""
    try:
        # Non-blocking, and only a regular file is read: a FIFO or /dev/stdin would wait forever.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise UserError(f"cannot read {what} {path}: {exc.strerror}{more}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise UserError(f"{what} {path} is a folder; give a file{more}")
        if not stat.S_ISREG(mode):
            raise UserError(f"{what} {path} is not a regular file (a pipe, device or socket); give a file{more}")
        fh = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with fh:
        try:
            raw = fh.read(MAX_BYTES + 1)  # never more than MAX_BYTES
        except OSError as exc:
            raise UserError(f"cannot read {what} {path}: {exc.strerror}{more}") from None
    if len(raw) > MAX_BYTES:
        raise UserError(f"{what} {path} is larger than {MAX_BYTES // 2**20} MB; no board or card file is that big")
    kind = "JSON" if path.suffix.lower() == ".json" else "TOML"
    try:
        doc = _parse(kind, raw)
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise UserError(f"{path}, line {line}: byte 0x{raw[exc.start]:02x} is not UTF-8 text; save the file as UTF-8") from None
    except (json.JSONDecodeError, tomllib.TOMLDecodeError, _Twice) as exc:
        raise UserError(f"{path}: not valid {kind} ({exc})") from None
    except RecursionError:
        raise UserError(f"{path}: lists or tables nested too deeply to read; no board or card file needs that") from None
    if not isinstance(doc, dict):
        raise UserError(f"{path}: the top level must be a table of keys")
    return doc, hashlib.sha256(raw).hexdigest()[:12]


class _Twice(ValueError):
    """A JSON object gives one key twice (json would keep the last without a word; TOML
    refuses it)."""


def _once(pairs: list[tuple[str, object]]) -> dict:
    out = {}
    for k, v in pairs:
        if k in out:
            raise _Twice(f"key {k!r} is given twice in one object")
        out[k] = v
    return out


@lru_cache(maxsize=32)
def _parse(kind: str, raw: bytes):
    text = raw.decode("utf-8-sig")  # a byte-order mark, as some editors write, is not content
    return json.loads(text, object_pairs_hook=_once) if kind == "JSON" else tomllib.loads(text)


def data_error(path: Path, where: str, what: str) -> UserError:
    """A one-line error naming the file, the entry and what is wrong with it."""
    return UserError(f"{path}: {where}: {what}")


def version(path_str: str, what: str, hint: str = "") -> str:
    """The file's declared ``version`` and a hash of its bytes, for run manifests."""
    doc, digest = read(path_str, what, hint)
    return f"{doc.get('version', 'unversioned')}+{digest}"


def validated(model, doc: dict, path: Path | str, hint: str = ""):
    """``doc`` checked against a pydantic model: the model instance, or a one-line
    UserError naming the file, the entry and what is wrong (the first problem found)."""
    from pydantic import ValidationError

    try:
        return model.model_validate(doc)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in err["loc"]).replace(".[", "[") or "top level"
        kind = err["type"]
        if kind == "extra_forbidden":
            what = "unknown key"
        elif kind == "missing" and len(err["loc"]) == 1 and _is_table_list(model, err["loc"][0]):
            where, what = "top level", f"needs at least one [[{err['loc'][0]}]] table"
        elif kind == "missing":
            what = "missing"
        else:
            got = err.get("input")
            shown = repr(got) if not isinstance(got, (dict, list)) else type(got).__name__
            if len(shown) > 40:
                shown = shown[:37] + "..."
            msg = err["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")  # a validator's own words
            what = f"{msg.rstrip('.')} (got {shown})"
        raise UserError(f"{path}: {where}: {what}" + (f"; {hint}" if hint else "")) from None


def _is_table_list(model, name) -> bool:
    """Whether a model's field is a list of tables (``[[name]]`` in TOML)."""
    import typing

    from pydantic import BaseModel

    field = getattr(model, "model_fields", {}).get(name)
    if field is None:
        return False
    args = typing.get_args(field.annotation)
    return typing.get_origin(field.annotation) is list and bool(args) and isinstance(args[0], type) and issubclass(args[0], BaseModel)
