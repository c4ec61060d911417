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

def compiled_sources() -> list[Path]:
    """Every file that compiled code comes from (the rest of simkit never is)."""
    here = Path(__file__).resolve().parent.parent
    files = [here / "simkit" / name for name in ("rng.py", "seeding.py", "jit.py", "_cache.py")]
    files += sorted((here / "simkit" / "games").rglob("*.py")) + sorted((here / "strategies").rglob("*.py"))
    return files


def source_hash() -> str:
    here = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for path in compiled_sources():
        h.update(str(path.relative_to(here)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def outcome_hash(game_name: str) -> str:
    """Hash of the code that decides a game's outcomes: its rules and bots, the random
    streams and the seeding (reports, traces and the command line are left out, so
    editing them keeps finished runs valid)."""
    here = Path(__file__).resolve().parent.parent
    files = [here / "simkit" / "rng.py", here / "simkit" / "seeding.py", here / "simkit" / "jit.py"]
    files += sorted(p for p in (here / "simkit" / "games" / game_name).rglob("*.py") if p.name not in ("report.py", "trace.py", "api.py"))
    files += sorted((here / "strategies" / game_name).rglob("*.py"))
    h = hashlib.sha256()
    for path in files:
        h.update(str(path.relative_to(here)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


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
