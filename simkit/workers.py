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


def stop_workers(executor) -> None:
    """Ends a loky pool's worker processes now (Ctrl-C, an error, the compilers left running).
    ``shutdown(kill_workers=True)`` alone asks the pool's own thread to kill them, which
    now and then did not happen (1 Ctrl-C in 40 on a loaded machine): a worker stayed
    blocked sending a result nobody read, and the exit waited for it forever. So each
    worker is killed here (loky's processes have no ``kill``); its unfinished chunk was
    to be dropped anyway. (A worker killed while sending leaves half a result in the pipe,
    which the pool's thread may then wait on for ever: 1 Ctrl-C in 120 on a loaded
    machine. Closing this process's end of the pipe cured it but raced with loky's own
    closing, a traceback on a dying worker's error: left open.)"""
    import signal

    workers = list(getattr(executor, "_processes", {}).values())
    executor.shutdown(wait=False, kill_workers=True)
    for process in workers:
        try:
            if process.exitcode is None:  # (not yet reaped: its pid is still its own)
                os.kill(process.pid, signal.SIGKILL)
        except (OSError, ValueError):  # already gone, or closed
            pass
