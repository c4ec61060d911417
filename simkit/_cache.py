"""Where compiled game code is cached.

Numba invalidates a cached function only when its own file changes, not when a
function it calls changes, so a stale cache could silently play old rules. The cache
therefore lives in a folder named after a hash of every source file of simkit and
strategies: any change to the code starts a fresh cache.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the folder holding simkit/ and strategies/


# The core files compiled game code imports: random streams, seeding, compilation helpers.
CORE = [ROOT / "simkit" / name for name in ("rng.py", "seeding.py", "jit.py")]


def compiled_sources() -> list[Path]:
    """Every file that compiled code comes from (the rest of simkit never is)."""
    files = CORE + [ROOT / "simkit" / "_cache.py"]
    files += sorted((ROOT / "simkit" / "games").rglob("*.py")) + sorted((ROOT / "strategies").rglob("*.py"))
    return files


def _digest(files: list[Path]) -> str:
    """Short hash of the files' names (relative to ROOT) and contents."""
    h = hashlib.sha256()
    for path in files:
        h.update(str(path.relative_to(ROOT)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def source_hash() -> str:
    return _digest(compiled_sources())


def outcome_hash(game_name: str) -> str:
    """Hash of the code that decides a game's outcomes: its rules and bots, the random
    streams and the seeding (reports, traces and the command line are left out, so
    editing them keeps finished runs valid)."""
    files = CORE + sorted(p for p in (ROOT / "simkit" / "games" / game_name).rglob("*.py") if p.name not in ("report.py", "trace.py", "api.py"))
    files += sorted((ROOT / "strategies" / game_name).rglob("*.py"))
    return _digest(files)


def configure_numba_cache() -> None:
    if os.environ.get("SIMKIT_NUMBA_CACHE_SET"):
        return
    base = os.environ.get("SIMKIT_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "simkit"
    )
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(base, "numba", source_hash())
    os.environ["SIMKIT_NUMBA_CACHE_SET"] = "1"  # worker processes inherit the same folder
    try:
        import numba.core.config as config

        config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]
    except ImportError:
        pass
