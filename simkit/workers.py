"""How much work: the worker processes a ``--jobs`` value gives, and the largest run."""

from __future__ import annotations

import os
import threading
import weakref

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
    to be dropped anyway.

    Nobody is killed halfway through sending a result: half a result left in the pipe kept
    the pool's thread waiting for the rest for ever, and the command's exit with it (1
    Ctrl-C in 120 on a loaded machine). The workers hold the pool's send lock for each
    whole result they send, so the lock is taken here first and kept until every worker
    has been sent SIGKILL (after which a process runs none of its own code): whoever is
    sending finishes, the others wait at the lock. (A worker that cannot finish, sending to
    a pipe nobody reads any more, is killed after 2 s all the same: then nobody is waiting
    for its result either.)"""
    import signal

    _quiet_when_stopped(getattr(executor, "_executor_manager_thread", None))
    workers = list(getattr(executor, "_processes", {}).values())
    sending = getattr(getattr(executor, "_result_queue", None), "_wlock", None)
    held = False
    try:
        held = sending is not None and sending.acquire(timeout=2)
    finally:  # (a second Ctrl-C while waiting for the lock: killed all the same)
        try:
            executor.shutdown(wait=False, kill_workers=True)
            for process in workers:
                try:
                    if process.exitcode is None:  # (not yet reaped: its pid is still its own)
                        os.kill(process.pid, signal.SIGKILL)
                except (OSError, ValueError):  # already gone, or closed
                    pass
        finally:
            if held:
                sending.release()


def wait_interruptibly(futures, first: bool = False) -> tuple[set, set]:
    """``concurrent.futures.wait`` for all of ``futures`` (or, with ``first``, the first to
    finish), in steps of 0.25 s: a wait without a timeout is not ended by Ctrl-C, which a
    chunk of a slow or stuck user bot then held for minutes or for ever."""
    from concurrent.futures import ALL_COMPLETED, FIRST_COMPLETED, wait

    while True:
        done, not_done = wait(futures, timeout=0.25, return_when=FIRST_COMPLETED if first else ALL_COMPLETED)
        if not not_done or (first and done):
            return done, not_done


_STOPPED: weakref.WeakSet = weakref.WeakSet()  # the pool threads of stopped pools


def _quiet_when_stopped(thread) -> None:
    """What the thread of a pool being stopped raises is not shown. Its workers killed, its
    work dropped, loky's thread now and then trips over its own state (``KeyError`` on a
    work item just dropped, ``InvalidStateError`` on a cancelled future: 2 Ctrl-C in 180 on
    a loaded machine) and printed a traceback under the resume line; nothing it did is
    kept. Other threads' errors are shown as before."""
    if thread is None:
        return
    if not getattr(threading.excepthook, "quiet_when_stopped", False):  # installed once
        shown = threading.excepthook

        def hook(args):
            if args.thread not in _STOPPED:
                shown(args)

        hook.quiet_when_stopped = True
        threading.excepthook = hook
    _STOPPED.add(thread)
