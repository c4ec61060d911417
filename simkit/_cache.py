"""Where compiled game code is cached, and the hashes that say which runs are still valid.

Numba invalidates a cached function only when its own file changes, not when a
function it calls changes, so a stale cache could silently play old rules. simkit
therefore gives numba a cache locator of its own: a compiled function of game ``g``
(a file under ``simkit/games/g/`` or ``strategies/g/``) is cached in a folder named
after a hash of that game's files and of the core files compiled code comes from
(``CORE``: simkit's compiled helpers and the bots' shared files directly in
``strategies/``, whose component is "core").
Editing one game starts a fresh cache for that game only; the others stay warm.

The *outcome hash* of a game is the hash of the files that decide its outcomes (its
rules and bots, the random streams and the seeding; not its report, its text
descriptions or the command line, nor comments, docstrings and help texts). A run's
identity includes it, so a finished run of older rules is never resumed.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the folder holding simkit/ and strategies/
GAMES = ROOT / "simkit" / "games"
STRATEGIES = ROOT / "strategies"

# The core files compiled game code imports: random streams, seeding, compilation
# helpers, the game loop and layouts, this file (it decides the cache folders), and the
# bots' shared compiled code (the files directly in strategies/, e.g. kernel.py's
# sequential halving): every game's compile cache and outcome hash follow them.
CORE = [ROOT / "simkit" / name for name in ("rng.py", "seeding.py", "jit.py", "loop.py", "layout.py", "_cache.py")] + sorted(
    p for p in STRATEGIES.glob("*.py") if p.name != "__init__.py")

# Files of a game package that never change outcomes (reports, text), and those that
# compiled code never comes from either (the declaration is read by Python only).
NOT_OUTCOMES = {"report.py", "describe.py", "sensitivity.py", "questions.py"}
NOT_COMPILED = NOT_OUTCOMES | {"__init__.py"}


def _digest(files: list[Path], content=Path.read_bytes) -> str:
    """Short hash of the files' names (relative to ROOT) and their ``content``."""
    h = hashlib.sha256()
    for path in files:
        h.update(str(path.relative_to(ROOT)).encode())
        h.update(content(path))
    return h.hexdigest()[:16]


def _py_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts) if folder.is_dir() else []


def game_folders(name: str) -> tuple[Path, Path]:
    """The rules package and the bots package of game ``name`` (its folder name)."""
    return GAMES / name, STRATEGIES / name


def compiled_files(component: str) -> list[Path]:
    """Every file compiled code of ``component`` (a game's folder name, or "core")
    comes from: the core's compiled files, and the game's rules and bots."""
    files = list(CORE)
    if component != "core":
        rules, bots = game_folders(component)
        files += [p for p in _py_files(rules) if not (p.parent == rules and p.name in NOT_COMPILED)] + _py_files(bots)
    return files


@functools.lru_cache(maxsize=None)
def compiled_hash(component: str) -> str:
    return _digest(compiled_files(component))


# Keyword arguments that only put a game into words (a setting's help, a game's title, its
# Text and Analysis records): never read by the rules.
TEXT_KEYWORDS = {"help", "title", "slug", "text", "analysis"}
# Positional arguments that are words: a bot's help, an output column's meaning (by the
# function's name and the argument's position).
TEXT_POSITIONS = {"BotInfo": 2, "game_column": 2, "seat_column": 2, "derived_column": 3, "Column": 2}


def _code_only(path: Path) -> bytes:
    """A Python file's code without what cannot change a game: comments, docstrings and
    the words of :data:`TEXT_KEYWORDS` and :data:`TEXT_POSITIONS` (a setting's help, a game's
    title, trace legends and descriptions, a bot's help, a column's meaning), so that editing
    them keeps finished runs valid."""
    return _strip_text(path.read_bytes())


# Keyed by the file's bytes, so an edited file is read afresh: parsing and dumping every file
# of a game took 0.25 s, paid by every run a sweep or a sensitivity analysis prepares.
@functools.lru_cache(maxsize=512)
def _strip_text(source: bytes) -> bytes:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return source
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            body[0] = ast.Pass()
        if isinstance(node, ast.Call):
            node.keywords = [k for k in node.keywords if k.arg not in TEXT_KEYWORDS and k.arg != "meaning"]
            at = TEXT_POSITIONS.get(getattr(node.func, "id", getattr(node.func, "attr", None)))
            if at is not None and len(node.args) > at and isinstance(node.args[at], (ast.Constant, ast.JoinedStr)):
                node.args[at] = ast.Constant("")
    return ast.dump(tree).encode()


def outcome_hash(rules_folder: Path, bots_folder: Path) -> str:
    """Hash of the code that decides a game's outcomes (see the module docstring)."""
    files = CORE + [p for p in _py_files(rules_folder) if p.name not in NOT_OUTCOMES] + _py_files(bots_folder)
    return _digest(files, _code_only)


def component_of(path: str | os.PathLike) -> str | None:
    """The game folder name (or "core") a source file belongs to, or None when it is
    not simkit's (a user's own code keeps numba's usual cache)."""
    try:
        p = Path(path).resolve()
    except OSError:
        return None
    for top in (GAMES, STRATEGIES):
        try:
            rel = p.relative_to(top)
        except ValueError:
            continue
        return rel.parts[0] if len(rel.parts) > 1 else "core"
    if p.parent == ROOT / "simkit":
        return "core"
    return None


def cache_root() -> Path:
    base = os.environ.get("SIMKIT_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "simkit"
    )
    return Path(base) / "numba"


def cache_folder(component: str) -> Path:
    return cache_root() / f"{component}-{compiled_hash(component)}"


def _make_locator():
    from numba.core.caching import _CacheLocator

    class SimkitCacheLocator(_CacheLocator):
        """Caches simkit's compiled functions per game (see the module docstring)."""

        def __init__(self, py_func, py_file, component):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._component = component
            # Named by the folder's place in the tree (simkit/games/ufs and strategies/ufs
            # differ), not its absolute path: a second checkout of the same code on this
            # machine finds the cache warm, like the ".compiled" mark of its folder says.
            folder = Path(py_file).resolve().parent
            self._cache_path = str(cache_folder(component) / "_".join(folder.relative_to(ROOT).parts))

        def get_cache_path(self):
            return self._cache_path

        def get_source_stamp(self):
            return compiled_hash(self._component)

        def get_disambiguator(self):
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):
            component = component_of(py_file)
            if component is None or not os.path.exists(py_file):
                return None
            self = cls(py_func, py_file, component)
            try:
                self.ensure_cache_path()
            except OSError:
                return None  # an unwritable cache: numba falls back to its own locators
            return self

    return SimkitCacheLocator


_LOCATORS = "simkit._cache.SimkitCacheLocator,UserProvidedCacheLocator,InTreeCacheLocator,UserWideCacheLocator,IPythonCacheLocator,ZipCacheLocator"


def __getattr__(name: str):
    # numba imports the locator by name (NUMBA_CACHE_LOCATOR_CLASSES); it is built on
    # first use so that importing simkit does not import numba.
    if name == "SimkitCacheLocator":
        global SimkitCacheLocator
        SimkitCacheLocator = _make_locator()
        return SimkitCacheLocator
    raise AttributeError(name)


def configure_numba_cache() -> None:
    """Puts simkit's locator first in numba's list (numba asks each in turn); worker
    processes inherit it through the environment."""
    os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = _LOCATORS
    if "numba" in sys.modules:
        import numba.core.config as config

        config.CACHE_LOCATOR_CLASSES = _LOCATORS


def is_compiled(component: str, used: int) -> bool:
    """Whether ``component``'s compiled loop for the built-in bots ``used`` (a bit per
    bot code) is in the cache (set by ``mark_compiled``)."""
    return (cache_folder(component) / f".compiled-{used}").exists()


def mark_compiled(component: str, used: int) -> None:
    folder = cache_folder(component)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f".compiled-{used}").touch()
