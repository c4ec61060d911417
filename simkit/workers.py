"""How much work: the worker processes a ``--jobs`` value gives, and the largest run."""

from __future__ import annotations

import os

from .errors import UserError

MAX_GAMES = 10**12  # more games than any disk could hold the results of


def worker_count(jobs: int) -> int:
    """``--jobs``: 0 means every core; otherwise a positive number of processes."""
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 0:
        raise UserError(f"--jobs must be 0 (all cores) or a positive number of processes, not {jobs!r}")
    return jobs if jobs >= 1 else max(1, os.cpu_count() or 1)


def processes(jobs: int, backend: str) -> int:
    """The worker processes ``jobs`` gives: with loky, never more than the cores (more
    processes than cores only cost memory)."""
    return min(jobs, os.cpu_count() or 1) if backend == "loky" else jobs
