"""Runs batches of seeded games: chunks fanned out with joblib, results as Polars frames.

Game ``i`` of a run always gets the seed ``game_seeds(S, i)`` and its seat's bots from
``i`` alone, so the outcome of a game never depends on the chunking, the number of
jobs or the backend. Each finished chunk is written to ``<out>/parts/`` at once; a
rerun of the same command finds those parts and plays only the missing games.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import importlib.metadata
import json
import os
import platform
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
import polars as pl

from . import __version__
from .compiled import ensure_compiled
from .errors import UserError
from .game import Bot, GameSpec
from .params import as_dict
from .seeding import game_seeds

LIBRARIES = ("numpy", "numba", "polars", "joblib", "scipy", "statsmodels", "typer", "rich", "matplotlib")
BACKENDS = ("loky", "threading", "dask", "ray")


@dataclasses.dataclass(frozen=True)
class RunSpec:
    """What to simulate: a game with parameters, one bot per seat, N games from a root seed."""

    game: GameSpec
    params: Any
    bots: tuple[Bot, ...]
    n_games: int
    seed: int = 0
    rotate_seats: bool = False  # game i shifts the bots i seats to the left

    def identity(self) -> dict[str, Any]:
        """Everything that determines the games' outcomes (a rerun may resume only if equal)."""
        return {
            "game": self.game.name,
            "data_version": self.game.data_version(self.params),
            "params": as_dict(self.params),
            "bots": [b.name for b in self.bots],
            "seed": self.seed,
            "rotate_seats": self.rotate_seats,
            "code": self.game.outcome_hash,
        }


@dataclasses.dataclass
class RunResult:
    frame: pl.DataFrame
    manifest: dict[str, Any]
    path: Path | None


def bot_table(n_seats: int, start: int, stop: int, rotate: bool) -> np.ndarray:
    """``table[g, seat]``: index into the run's bot list for each game and seat."""
    seats = np.arange(n_seats)
    games = np.arange(start, stop)
    if not rotate:
        return np.broadcast_to(seats, (stop - start, n_seats)).copy()
    return (seats[None, :] + games[:, None]) % n_seats


def play_range(spec: RunSpec, start: int, stop: int) -> pl.DataFrame:
    """Plays games ``start .. stop-1`` of the run: one row per game and seat."""
    seats = spec.game.seats(spec.params)
    seeds = game_seeds(spec.seed, start, stop)
    table = bot_table(seats, start, stop, spec.rotate_seats)
    cols = spec.game.simulate(spec.params, seeds, table, list(spec.bots), first_index=start)
    n = stop - start
    names = np.array([b.name for b in spec.bots], dtype=object)
    data: dict[str, Any] = {
        "game_index": np.repeat(np.arange(start, stop, dtype=np.int64), seats),
        "seed": np.repeat(seeds, seats),
        "seat": np.tile(np.arange(seats, dtype=np.int8), n),
        "bot": names[table.reshape(-1)],
    }
    for name, arr in cols.items():
        arr = np.asarray(arr)
        if arr.ndim == 1:
            arr = np.repeat(arr, seats)
        elif arr.shape != (n, seats):
            raise ValueError(f"column {name} has shape {arr.shape}, expected ({n},) or ({n}, {seats})")
        data[name] = arr.reshape(-1)
    frame = pl.DataFrame({k: (v.tolist() if v.dtype == object else v) for k, v in data.items()})
    return frame.with_columns(pl.col("bot").cast(pl.Categorical))


def _chunk_job(spec: RunSpec, start: int, stop: int) -> tuple[int, int, pl.DataFrame, float]:
    t0 = time.perf_counter()
    frame = play_range(spec, start, stop)
    return start, stop, frame, time.perf_counter() - t0


def plan_chunks(n_games: int, chunk_size: int, done: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Ranges still to play: the gaps in ``done`` within ``[0, n_games)``, cut at
    multiples of ``chunk_size`` (so that a rerun lines up with the parts on disk)."""
    todo = []
    pos = 0
    for a, b in sorted(done) + [(n_games, n_games)]:
        gap_end = min(a, n_games)
        while pos < gap_end:
            end = min(gap_end, (pos // chunk_size + 1) * chunk_size)
            todo.append((pos, end))
            pos = end
        pos = max(pos, min(b, n_games))
    return todo


def _parts(out: Path) -> dict[tuple[int, int], Path]:
    found = {}
    for p in (out / "parts").glob("games-*.parquet"):
        try:
            a, b = (int(x) for x in p.stem.split("-")[1:3])
        except ValueError:
            continue
        found[(a, b)] = p
    return found


@functools.lru_cache(maxsize=1)
def _git_commit() -> str | None:
    here = Path(__file__).resolve().parent.parent
    try:
        out = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5)
        if out.returncode != 0:
            return None
        dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True, timeout=5)
        return out.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


@functools.lru_cache(maxsize=1)
def _library_versions() -> tuple:
    out = {"python": platform.python_version()}
    for lib in LIBRARIES:
        try:
            out[lib] = importlib.metadata.version(lib)
        except importlib.metadata.PackageNotFoundError:
            pass
    return tuple(out.items())


def library_versions() -> dict[str, str]:
    return dict(_library_versions())


def check_backend(backend: str) -> None:
    if backend not in BACKENDS:
        raise UserError(f"unknown backend {backend!r}; use one of {', '.join(BACKENDS)}")


@contextmanager
def backend_context(backend: str, jobs: int, scheduler: str | None) -> Iterator[str]:
    """Sets up a distributed backend for joblib and yields the joblib backend name."""
    check_backend(backend)
    if backend == "dask":
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise UserError("--backend dask needs dask.distributed: pip install 'simkit[dask]'") from None
        if scheduler:
            client = Client(scheduler)
            cluster = None
        else:
            cluster = LocalCluster(n_workers=max(jobs, 1), threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(cluster)
        try:
            yield "dask"
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    elif backend == "ray":
        try:
            import ray
            from ray.util.joblib import register_ray
        except ImportError:
            raise UserError("--backend ray needs ray: pip install 'simkit[ray]'") from None
        register_ray()
        started = False
        if not ray.is_initialized():
            if scheduler:
                ray.init(address=scheduler, log_to_driver=False)
            else:
                ray.init(num_cpus=max(jobs, 1), include_dashboard=False, log_to_driver=False)
            started = True
        try:
            yield "ray"
        finally:
            if started:
                ray.shutdown()
    else:
        yield backend


def default_out(spec: RunSpec, root: Path = Path("runs")) -> Path:
    import hashlib

    key = json.dumps(spec.identity(), sort_keys=True, default=str)
    return root / f"{spec.game.name}-{hashlib.sha256(key.encode()).hexdigest()[:10]}"


@dataclasses.dataclass
class _Pending:
    """A run being played: what is on disk, what is left, where results go."""

    spec: RunSpec
    out: Path | None
    identity: dict[str, Any]
    chunk_size: int
    done: dict[tuple[int, int], Path]
    todo: list[tuple[int, int]]
    frames: dict[tuple[int, int], pl.DataFrame] = dataclasses.field(default_factory=dict)
    busy: float = 0.0
    started: dt.datetime = dataclasses.field(default_factory=lambda: dt.datetime.now(dt.timezone.utc))

    @property
    def resumed(self) -> int:
        return self.spec.n_games - sum(b - a for a, b in self.todo)

    def store(self, a: int, b: int, frame: pl.DataFrame, secs: float) -> None:
        self.busy += secs
        if self.out is None:
            self.frames[(a, b)] = frame
            return
        tmp = self.out / "parts" / f".games-{a:012d}-{b:012d}.parquet.tmp"
        frame.write_parquet(tmp)
        final = self.out / "parts" / f"games-{a:012d}-{b:012d}.parquet"
        tmp.replace(final)  # atomic: a part is either complete or absent
        self.done[(a, b)] = final


def prepare(spec: RunSpec, out: Path | None, chunk_size: int = 10_000, replace_stale: bool = False) -> _Pending:
    """Checks the run and its folder and plans the chunks still to play."""
    if spec.n_games < 1:
        raise UserError("the number of games must be at least 1 (-n)")
    if chunk_size < 1:
        raise UserError("--chunk-size must be at least 1")
    if spec.game.validate is not None:
        spec.game.validate(spec.params)
    identity = json.loads(json.dumps(spec.identity(), default=str))
    done: dict[tuple[int, int], Path] = {}
    if out is not None:
        out = Path(out)
        ident_file = out / "run.json"
        if ident_file.exists():
            try:
                previous = json.loads(ident_file.read_text())
            except json.JSONDecodeError:
                raise UserError(f"{ident_file} is not valid JSON; delete {out} or choose another --out") from None
            if previous == identity:
                done = _parts(out)
            elif replace_stale:
                import shutil

                shutil.rmtree(out)  # a managed folder (sweeps) holding games of older code or settings
            else:
                raise UserError(f"{out} holds a different run (other game, parameters, bots, seed or code); choose another --out or delete it")
        elif out.exists() and any(out.iterdir()):
            raise UserError(f"{out} exists and is not a simkit run folder; choose another --out")
    pending = _Pending(spec, out, identity, chunk_size, done, plan_chunks(spec.n_games, chunk_size, list(done)))
    if out is not None and pending.todo:
        (out / "parts").mkdir(parents=True, exist_ok=True)
        (out / "run.json").write_text(json.dumps(identity, indent=1))
    return pending


def _tagged_job(tag: int, spec: RunSpec, start: int, stop: int):
    return (tag, *_chunk_job(spec, start, stop))


def execute(runs: list[_Pending], jobs: int, backend: str, scheduler: str | None, advance: Callable[[int], None]) -> None:
    """Plays every planned chunk of every run, in parallel when ``jobs`` > 1; each chunk
    is stored as soon as it is finished."""
    tasks = [(i, a, b) for i, r in enumerate(runs) for a, b in r.todo]
    if jobs == 1 or len(tasks) <= 1:
        for i, a, b in tasks:
            _, _, frame, secs = _chunk_job(runs[i].spec, a, b)
            runs[i].store(a, b, frame, secs)
            advance(b - a)
        return
    from joblib import Parallel, delayed, parallel_config

    with backend_context(backend, jobs, scheduler) as joblib_backend, parallel_config(backend=joblib_backend, n_jobs=jobs):
        if joblib_backend == "ray":
            # Ray's joblib backend returns whole lists only: play in waves so that
            # finished chunks still reach the disk as the run goes.
            wave = 4 * jobs
            for w in range(0, len(tasks), wave):
                for i, a, b, frame, secs in Parallel(return_as="list")(
                    delayed(_tagged_job)(i, runs[i].spec, a, b) for i, a, b in tasks[w:w + wave]
                ):
                    runs[i].store(a, b, frame, secs)
                    advance(b - a)
            return
        parallel = Parallel(return_as="generator_unordered")
        for i, a, b, frame, secs in parallel(delayed(_tagged_job)(i, runs[i].spec, a, b) for i, a, b in tasks):
            runs[i].store(a, b, frame, secs)
            advance(b - a)


def finish(r: _Pending, wall: float, jobs: int, backend: str) -> RunResult:
    """Combines a run's chunks into one frame and writes it with the manifest."""
    spec = r.spec
    if r.out is not None:
        pieces = [p for (a, _), p in sorted(r.done.items()) if a < spec.n_games]
        frame = pl.concat([pl.read_parquet(p) for p in pieces], how="vertical_relaxed")
    else:
        frame = pl.concat([f for _, f in sorted(r.frames.items())], how="vertical_relaxed")
    frame = frame.filter(pl.col("game_index") < spec.n_games).sort(["game_index", "seat"])
    simulated = spec.n_games - r.resumed
    manifest = {
        "simkit_version": __version__,
        "git_commit": _git_commit(),
        "game": spec.game.name,
        "title": spec.game.title,
        "data_version": r.identity["data_version"],
        "params": r.identity["params"],
        "bots": r.identity["bots"],
        "rotate_seats": spec.rotate_seats,
        "seed": spec.seed,
        "seed_rule": "game i plays with simkit.seeding.game_seeds(seed, i, i + 1)",
        "n_games": spec.n_games,
        "rows": frame.height,
        "resumed_games": r.resumed,
        "chunk_size": r.chunk_size,
        "jobs": jobs,
        "backend": backend if jobs > 1 else "in-process",
        "started": r.started.isoformat(timespec="seconds"),
        "wall_time_s": round(wall, 3),
        "simulated_games_per_s": round(simulated / wall, 1) if wall > 0 and simulated else None,
        "cpu_time_in_games_s": round(r.busy, 3),
        "libraries": library_versions(),
        "columns": {**BASE_COLUMNS, **spec.game.columns},
        "command": " ".join(sys.argv) if sys.argv and "simkit" in sys.argv[0] else None,
    }
    if r.out is not None:
        tmp = r.out / ".games.parquet.tmp"
        frame.write_parquet(tmp)
        tmp.replace(r.out / "games.parquet")
        (r.out / "manifest.json").write_text(json.dumps(manifest, indent=2, default=str))
    return RunResult(frame, manifest, r.out)


def _jobs(jobs: int) -> int:
    return jobs if jobs >= 1 else max(1, os.cpu_count() or 1)


def run(
    spec: RunSpec,
    out: Path | None = None,
    *,
    jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    chunk_size: int = 10_000,
    progress: bool | Callable[[int], None] = True,
) -> RunResult:
    """Plays the run's games (resuming from ``out`` if it holds parts of the same run).

    With ``out=None`` nothing is written (for notebooks and tests). ``progress`` is a
    flag for a progress bar, or a callback ``advance(n_games)``.
    """
    return run_many([(spec, out)], jobs=jobs, backend=backend, scheduler=scheduler, chunk_size=chunk_size, progress=progress)[0]


def run_many(
    runs: list[tuple[RunSpec, Path | None]],
    *,
    jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    chunk_size: int = 10_000,
    progress: bool | Callable[[int], None] = True,
    replace_stale: bool = False,
    label: str | None = None,
) -> list[RunResult]:
    """Several runs whose chunks share one pool of workers (sweeps, comparisons)."""
    jobs = _jobs(jobs)
    check_backend(backend)
    pending = [prepare(spec, out, chunk_size, replace_stale) for spec, out in runs]
    total = sum(p.spec.n_games for p in pending)
    resumed = sum(p.resumed for p in pending)
    t0 = time.perf_counter()
    games = list({id(p.spec.game): p.spec.game for p in pending if p.todo}.values())
    if callable(progress):
        ensure_compiled(games)
        progress(resumed)
        execute(pending, jobs, backend, scheduler, progress)
    else:
        from .progress import bar, status

        with status(enabled=bool(progress)) as say:
            ensure_compiled(games, say)
        with bar(label or pending[0].spec.game.name, total, resumed, enabled=bool(progress)) as advance:
            execute(pending, jobs, backend, scheduler, advance)
    wall = time.perf_counter() - t0
    return [finish(p, wall, jobs, backend) for p in pending]


BASE_COLUMNS = {
    "game_index": "index of the game in the run (0 .. N-1)",
    "seed": "the game's own 64-bit seed, derived from the run's root seed and game_index",
    "seat": "seat number, 0 = first player",
    "bot": "bot playing this seat",
    "won": "whether this seat won (shared wins count for every winner)",
}

