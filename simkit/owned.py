"""The files simkit wrote for a user (summaries, JSON figures, plots), so that it
overwrites those and nothing else.

A file named by ``--output`` or ``--plot`` may be replaced only if it does not
exist yet or if simkit wrote it, unchanged since: its path and content hash are kept in
``written.json`` beside the compile cache. Writes go through a temporary file renamed
into place, so a file is complete or absent.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Callable

from .errors import UserError


def _registry() -> Path:
    from ._cache import cache_root

    return cache_root().parent / "written.json"


def _read() -> dict[str, str]:
    try:
        data = json.loads(_registry().read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def check_target(path: Path, option: str) -> None:
    """Before any work: ``path`` can be written, and writing it destroys nothing of the user's."""
    from .runner import inside_code

    path = Path(path)
    if inside_code(path):
        raise UserError(f"{option} {path} is inside simkit's own code; choose a path outside simkit/ and strategies/")
    if path.is_dir():
        raise UserError(f"{option} {path} is a folder; give a file name")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UserError(f"{option} {path}: the folder {folder} does not exist; create it or choose another path")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(f"{option} {path}: cannot write into {folder} (permission denied or a read-only disk); choose another path")
    if path.is_symlink():
        raise UserError(f"{option} {path} is a symbolic link; give the file it points to, or another path")
    if path.exists():
        try:
            # simkit's only if this machine's record says it wrote these very bytes: a copy,
            # an edit or a file that merely says it is simkit's is the user's
            ours = path.is_file() and _read().get(str(path.resolve())) == _digest(path)
        except OSError:
            ours = False
        if not ours:
            raise UserError(f"{option} {path} exists and was not written by simkit; choose another path or remove it")


def write(path: Path, put: Callable[[Path], None], option: str) -> None:
    """Writes ``path`` with ``put(tmp)`` (after :func:`check_target`) and remembers it as simkit's."""
    from .runner import _write_atomic

    path = Path(path)
    check_target(path, option)
    _write_atomic(path, put, hint="free some space or choose another path")
    try:
        reg = _registry()
        reg.parent.mkdir(parents=True, exist_ok=True)
        data = _read()
        data[str(path.resolve())] = _digest(path)
        staged = reg.with_name(f".{reg.name}.{os.getpid()}.tmp")
        staged.write_text(json.dumps(data, indent=0))
        staged.replace(reg)
    except OSError:
        pass  # the file is written; only a later overwrite of it will be refused
