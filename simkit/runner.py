"""Runs batches of seeded games: chunks fanned out with joblib, results as Polars frames.

Game ``i`` of a run always gets the seed ``game_seeds(S, i)`` and its seat's bots from
``i`` alone, so the outcome of a game never depends on the chunking, the number of
jobs, the backend, or whether it was played compiled or as plain Python (while its loop
compiled: :func:`_play_while_compiling`). Each finished chunk is written to ``<out>/parts/`` at once; a
rerun of the same command finds those parts and plays only the missing games.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import errno
import functools
import importlib.metadata
import json
import os
import platform
import re
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np
import polars as pl

from . import __version__
from .bots import Bot, bot_table
from .compiled import compile_by_name, compile_loops, compiling_line, leave_compiling, uncompiled
from .errors import Interrupted, UserError, printable
from .game import GameSpec
from .params import as_dict
from .play import simulate
from .seeding import game_seeds
from .workers import MAX_GAMES, processes, stop_workers, wait_interruptibly, worker_count

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

    @functools.cached_property
    def inputs(self) -> tuple[np.ndarray, str]:
        """The board vector and the version of the data files it was built from, read
        once (in the main process: workers get this board, never the files), so that
        a data file edited during a run cannot mix two versions into one run."""
        before = self.game.data_version(self.params)
        board = self.game.board(self.params)
        if self.game.data_version(self.params) != before:
            raise UserError(f"{self.game.name}: a data file changed while it was being read; run again")
        return board, before

    @property
    def board(self) -> np.ndarray:
        return self.inputs[0]

    def identity(self) -> dict[str, Any]:
        """Everything that determines the games' outcomes (a rerun may resume only if
        equal): the game's code, the content of the data files and of users' bots."""
        return {
            "game": self.game.name,
            "data_version": self.inputs[1],
            "params": as_dict(self.params),
            "bots": [b.name + (f"@{b.source}" if b.source else "") for b in self.bots],
            "seed": self.seed,
            "rotate_seats": self.rotate_seats,
            "code": self.game.outcome_hash,
            "frame": FRAME_FORMAT,
            **({"user_bot_rng": USER_BOT_RNG} if self.has_user_bots else {}),
        }

    @property
    def has_user_bots(self) -> bool:
        return any(b.fn is not None or b.source is not None for b in self.bots)


# The layout of games.parquet; runs written under another layout are not resumed.
# 2: seats numbered from 1 (1 was from 0).
FRAME_FORMAT = 2
# How user bots' generators are seeded (simkit.play.user_generator): runs of an older way are not resumed.
USER_BOT_RNG = "blake2b(game seed, key = the run's secret in run.json)"


@dataclasses.dataclass
class RunResult:
    """A finished run: its manifest and games (``frame``, read from its folder on first
    use when the run was written to one)."""

    _frame: pl.DataFrame | None
    manifest: dict[str, Any]
    path: Path | None
    constants: dict[str, Any] = dataclasses.field(default_factory=dict)  # the run's settings, one value per column

    @property
    def frame(self) -> pl.DataFrame:
        if self._frame is None:
            self._frame = self.read()
        return self._frame

    def read(self, columns: Sequence[str] | None = None) -> pl.DataFrame:
        """The run's games, only ``columns`` of them (and the settings, which cost nothing),
        read afresh and not kept: a large run's answers need a few columns, not all."""
        if self._frame is not None:
            if columns is None:
                return self._frame
            wanted = set(columns) | set(self.constants)
            return self._frame.select(c for c in self._frame.columns if c in wanted)
        # The settings' columns hold one value each: kept as constants (polars then stores
        # one value, not one per row: most of a many-setting game's frame).
        path = self.path / "games.parquet"
        names = [c for c in pl.scan_parquet(path, glob=False).collect_schema() if columns is None or c in columns or c in self.constants]
        frame = pl.read_parquet(path, columns=[c for c in names if c not in self.constants], glob=False)
        return frame.with_columns(pl.lit(v).alias(k) for k, v in self.constants.items() if k in names).select(names)

    @property
    def schema(self) -> list[str]:
        return self._frame.columns if self._frame is not None else pl.scan_parquet(self.path / "games.parquet", glob=False).collect_schema().names()


def play_range(spec: RunSpec, start: int, stop: int, secret: bytes | None = None) -> pl.DataFrame:
    """Plays games ``start .. stop-1`` of the run: one row per game and seat, with the
    run's parameters as columns (so that frames of different runs never mix silently).
    ``secret``: the run's key for user bots' generators."""
    from .bots import check_unchanged

    check_unchanged(spec.bots)
    seats = spec.game.seats(spec.params)
    seeds = game_seeds(spec.seed, start, stop)
    table = bot_table(seats, start, stop, spec.rotate_seats)
    cols = simulate(spec.game, spec.params, seeds, table, list(spec.bots), first_index=start, board=spec.board, secret=secret)
    n = stop - start
    names = np.array([b.name for b in spec.bots], dtype=object)
    data: dict[str, Any] = {
        "game_index": np.repeat(np.arange(start, stop, dtype=np.int64), seats),
        "seed": np.repeat(seeds, seats),
        "seat": np.tile(np.arange(1, seats + 1, dtype=np.int8), n),
        "bot": names[table.reshape(-1)],
    }
    for name, arr in cols.items():
        arr = np.asarray(arr)
        if arr.ndim == 1:
            arr = np.repeat(arr, seats)
        elif arr.shape != (n, seats):
            raise ValueError(f"column {name} has shape {arr.shape}, expected ({n},) or ({n}, {seats})")
        data[name] = arr.reshape(-1)
    frame = _text_not_null(pl.DataFrame({k: (v.tolist() if v.dtype == object else v) for k, v in data.items()}))
    params = {k: v for k, v in as_dict(spec.params).items() if k not in frame.columns}
    return frame.with_columns(pl.col("bot").cast(pl.Categorical), *[pl.lit(v).alias(k) for k, v in params.items()])


def _text_not_null(frame):
    """A text column none of whose rows has a value (UFS's loss_cause in a chunk the player
    won throughout) as text, not polars' Null type: the run's parts are combined strictly,
    and a Null part refused to combine with the others (a run of 100 searching games could
    not be extended to 200). Works on frames and lazy frames (parts stored before)."""
    nulls = [c for c, t in frame.collect_schema().items() if t == pl.Null]
    return frame.with_columns(pl.col(c).cast(pl.Utf8) for c in nulls) if nulls else frame


# The game and bots whose compiled loop this process has played: its first chunk of them
# also loads (or compiles) the loop, so its time is no measure of their speed.
_WARM: set = set()


def _chunk_job(spec: RunSpec, start: int, stop: int, secret: bytes | None = None) -> tuple[int, int, pl.DataFrame, float, bool]:
    """Plays a chunk: ``(start, stop, frame, seconds, warm)``, ``warm`` when this process
    had played the same game and bots before (its seconds then time play alone)."""
    key = (spec.game.name, tuple(b.name for b in spec.bots))
    warm = key in _WARM
    t0 = time.perf_counter()
    frame = play_range(spec, start, stop, secret)
    _WARM.add(key)
    return start, stop, frame, time.perf_counter() - t0, warm


def plan_chunks(n_games: int, chunk_size: int, done: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """Ranges still to play, lazily: the gaps in ``done`` within ``[0, n_games)``, cut
    at multiples of ``chunk_size`` (so that a rerun lines up with the parts on disk)."""
    pos = 0
    for a, b in sorted(done) + [(n_games, n_games)]:
        gap_end = min(a, n_games)
        while pos < gap_end:
            end = min(gap_end, (pos // chunk_size + 1) * chunk_size)
            yield pos, end
            pos = end
        pos = max(pos, min(b, n_games))


PART = re.compile(r"^games-(\d{12})-(\d{12})\.parquet$")


def part_span(path: Path) -> tuple[int, int] | None:
    """The games ``(a, b)`` a part file holds, by its name (None for another file)."""
    m = PART.match(Path(path).name)
    return (int(m.group(1)), int(m.group(2))) if m else None


def _parts(out: Path, seats: int, warn: Callable[[str], None] | None = None) -> dict[tuple[int, int], Path]:
    """The finished chunks in ``out/parts``: complete, readable part files that do not
    overlap (a part overlapping an earlier one is not used). A part that cannot be read,
    or holds the wrong number of rows, is set aside as ``*.bad`` (simkit wrote it) and
    its games are played again."""
    found: dict[tuple[int, int], Path] = {}
    for p in sorted((out / "parts").glob("games-*.parquet")):
        span = part_span(p)
        if span is None:
            continue
        a, b = span
        if b <= a:
            continue
        try:
            rows = pl.scan_parquet(p, glob=False).select(pl.len()).collect().item()
        except Exception:  # noqa: BLE001 - any unreadable file: truncated, empty, garbage
            rows = -1
        if rows != (b - a) * seats:
            bad = p.with_suffix(".parquet.bad")
            p.replace(bad)
            if warn is not None:
                warn(f"{p} was damaged (unreadable or incomplete): set aside as {bad.name}, its games are played again")
            continue
        found[(a, b)] = p
    return {span: found[span] for span in _without_overlaps(found)}


def _without_overlaps(spans) -> list[tuple[int, int]]:
    """The parts' spans ``(a, b)`` a run uses, in order: a part overlapping an earlier one is not used."""
    chosen, end = [], 0
    for a, b in sorted(spans):
        if a >= end:
            chosen.append((a, b))
            end = b
    return chosen


@functools.lru_cache(maxsize=1)
def _git_commit() -> str | None:
    from ._cache import ROOT as here

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


def check_backend(backend: str, scheduler: str | None = None) -> None:
    if backend not in BACKENDS:
        raise UserError(f"unknown backend {backend!r}; use one of {', '.join(BACKENDS)}")
    if scheduler and backend not in ("dask", "ray"):  # (it was ignored without a word)
        raise UserError("--scheduler is the address of a dask or Ray cluster; add --backend dask or --backend ray, or leave it out")


@contextmanager
def backend_context(backend: str, jobs: int, scheduler: str | None) -> Iterator[str]:
    """Sets up a distributed backend for joblib and yields the joblib backend name."""
    check_backend(backend, scheduler)
    if backend == "dask":
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise UserError("--backend dask needs dask.distributed: pip install 'simkit[dask]'") from None
        if scheduler:
            try:
                client = Client(scheduler)
            except Exception as exc:  # a malformed address raises ValueError, an unreachable one OSError
                raise UserError(f"cannot reach the dask scheduler {scheduler!r} ({printable(exc)}); give its address "
                                "as tcp://host:8786, or leave out --scheduler for a local cluster") from None
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
                try:
                    ray.init(address=scheduler, log_to_driver=False)
                except Exception as exc:
                    raise UserError(f"cannot reach the Ray cluster {scheduler!r} ({printable(exc)}); give its address as "
                                    "ray://host:10001 or host:6379, or leave out --scheduler for a local one") from None
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


MAX_CHUNK = 1_000_000  # games held in memory at once by one worker


@dataclasses.dataclass
class _Pending:
    """A run being played: what is on disk, what is left, where results go."""

    spec: RunSpec
    out: Path | None
    identity: dict[str, Any]
    chunk_size: int
    done: dict[tuple[int, int], Path]
    secret: bytes | None = None  # the key of user bots' generators (kept in run.json: a resumed run goes on alike)
    lock: int | None = None  # the output folder, held against other simkit processes (see _lock)
    seen: str | None = None  # its run.json when it was checked, while not held yet
    frames: dict[tuple[int, int], pl.DataFrame] = dataclasses.field(default_factory=dict)
    busy: float = 0.0
    timed: float = 0.0  # seconds of the chunks played by a warm process (see _chunk_job)
    timed_games: int = 0  # their games
    plain: int = 0  # games this session played as plain Python while the loop compiled
    stored: int = 0  # games stored by this session
    created: bool = False  # the output folder was made by this session
    started: dt.datetime = dataclasses.field(default_factory=lambda: dt.datetime.now(dt.timezone.utc))

    @property
    def resumed(self) -> int:
        """Games found finished on disk."""
        n = self.spec.n_games
        return sum(min(b, n) - a for a, b in self.done if a < n) - self.stored

    @property
    def remaining(self) -> int:
        return self.spec.n_games - self.resumed - self.stored

    def todo(self) -> Iterator[tuple[int, int]]:
        return plan_chunks(self.spec.n_games, self.chunk_size, list(self.done))

    def store(self, a: int, b: int, frame: pl.DataFrame, secs: float, warm: bool = False) -> None:
        self.busy += secs
        if warm:
            self.timed += secs
            self.timed_games += b - a
        if self.out is None:
            self.frames[(a, b)] = frame
            self.done[(a, b)] = None
        else:
            final = self.out / "parts" / f"games-{a:012d}-{b:012d}.parquet"
            _write_atomic(final, lambda tmp: frame.write_parquet(tmp))
            self.done[(a, b)] = final
        self.stored += b - a


RUN_HINT = "free some space or choose another output folder (--out) (finished chunks are kept: rerun the same command to resume)"


def _tmp_of(path: Path) -> Path:
    return path.with_name(f".{path.name}.tmp")


def _write_atomic(path: Path, write: Callable[[Path], None], hint: str = RUN_HINT, place: bool = True) -> Path:
    """Writes through a temporary file renamed into place: the file is either complete
    or absent. A failure (a full disk, a read-only place) leaves nothing behind and is
    one line saying what to do. ``place=False``: the temporary file is written and
    returned, for :func:`write_with_manifest`."""
    tmp = _tmp_of(path)
    try:
        write(tmp)
        if place:
            tmp.replace(path)
    except (OSError, pl.exceptions.PolarsError, pl.exceptions.PanicException) as exc:
        # a full disk inside polars may surface as any of its errors ("Invalid thrift: transport error")
        tmp.unlink(missing_ok=True)
        reason = getattr(exc, "strerror", None) or _first_line(exc)
        raise UserError(f"cannot write {path}: {reason}; {hint}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def write_with_manifest(path: Path, write: Callable[[Path], None], manifest: dict) -> None:
    """Writes ``path`` as :func:`_write_atomic` does, records its hash in ``manifest`` (under
    ``sha256``, for :func:`refuse_if_edited`) and puts the folder's manifest.json, then the
    file, in place with Ctrl-C held between the two: a Ctrl-C after the file and before its
    manifest left a file whose hash the manifest did not know, and the next run refused the
    folder as edited. The temporary file is removed whatever stops the write."""
    from .play import ctrl_c_deferred

    tmp = _tmp_of(path)  # (named before the write: a Ctrl-C as it returns still removes it)
    try:
        _write_atomic(path, write, place=False)
        manifest["sha256"] = {path.name: _sha256(tmp)}
        with ctrl_c_deferred():
            _write_atomic(path.parent / "manifest.json", lambda m: m.write_text(json.dumps(manifest, indent=2, default=str)))
            tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]


SIMKIT_FILES = ("run.json", "games.parquet", "manifest.json")
RUN_KEYS = {"game", "params", "bots", "seed"}  # in every run.json simkit has written


def inside_code(path: Path) -> bool:
    """Whether ``path`` lies in simkit's own code (simkit/, strategies/), where output would
    mix with the rules and bots."""
    from ._cache import ROOT, STRATEGIES

    where = Path(path).resolve()
    return where.is_relative_to(ROOT / "simkit") or where.is_relative_to(STRATEGIES)


def _check_writable(folder: Path, option: str = "--out") -> None:
    """Refuses, before any game is played, a folder simkit could not write into or that
    lies in its own code."""
    if inside_code(folder):
        raise UserError(f"{folder} is inside simkit's own code; choose a folder outside simkit/ and strategies/ ({option})")
    probe = folder
    while not probe.exists():
        if probe.is_symlink():
            raise UserError(f"{probe} is a symbolic link to {os.readlink(probe)}, which does not exist; "
                            f"create that folder or choose another output folder ({option})")
        probe = probe.parent
    if not probe.is_dir():
        raise UserError(f"{probe} is not a folder; choose another output folder ({option})")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise UserError(f"cannot write into {probe} (permission denied or a read-only disk); choose another output folder ({option})")


def _clear_run(out: Path) -> None:
    """Removes a stale run's files from a folder simkit manages (sweep cells): only the
    files simkit writes, nothing else."""
    for p in (out / "parts").glob("*"):
        if PART.match(p.name) or p.name.endswith((".parquet.bad", ".parquet.tmp")):
            p.unlink()
    # run.json last: a process killed half-way leaves a stale run.json to clear again, never
    # parts without one
    for name in sorted(SIMKIT_FILES, key=lambda n: n == "run.json"):
        (out / name).unlink(missing_ok=True)


def prepare(spec: RunSpec, out: Path | None, chunk_size: int = 10_000, replace_stale: bool = False,
            warn: Callable[[str], None] | None = None, secret: bytes | None = None) -> _Pending:
    """Checks the run and its folder and finds what is already played; nothing is
    written until the first chunk is finished. ``secret``: the key for user bots'
    generators if the run starts afresh (a resumed run keeps its own; default: a new one)."""
    n = spec.n_games
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise UserError("the number of games must be a positive integer (-n)")
    if n > MAX_GAMES:
        raise UserError(f"{n:,} games is more than any disk could hold the results of; use at most {MAX_GAMES:,} (-n)")
    if not isinstance(spec.seed, int) or isinstance(spec.seed, bool) or spec.seed < 0:
        raise UserError(f"the seed must be a non-negative integer, not {spec.seed!r} (--seed)")
    if not isinstance(chunk_size, int) or isinstance(chunk_size, bool) or not 1 <= chunk_size <= MAX_CHUNK:
        raise UserError(f"--chunk-size must be from 1 to {MAX_CHUNK:,}")
    identity = _identity(spec)
    secret = (secret or os.urandom(32)) if spec.has_user_bots else None
    done: dict[tuple[int, int], Path] = {}
    lock = seen = None
    if out is not None:
        out = Path(out)
        if out.exists() and not out.is_dir():
            raise UserError(f"{out} exists and is not a folder; choose another output folder (--out)")
        _check_writable(out)
        lock = _lock(out) if out.is_dir() else None
        try:
            done, secret, seen = _resume(spec, out, identity, secret, replace_stale, warn)
        except BaseException:
            _unlock(lock)
            raise
    return _Pending(spec, out, identity, chunk_size, done, secret, lock, seen)


def _resume(spec: RunSpec, out: Path, identity: dict, secret: bytes | None, replace_stale: bool,
            warn: Callable[[str], None] | None) -> tuple[dict, bytes | None, str | None]:
    """The finished chunks in ``out`` of this very run (and its secret), after clearing a
    stale run from a folder simkit manages; and run.json as it then is."""
    done: dict[tuple[int, int], Path] = {}
    ident_file = out / "run.json"
    if ident_file.exists():
        try:
            previous = json.loads(ident_file.read_text())
            kept = bytes.fromhex(previous.pop("secret")) if "secret" in previous else None
        except (json.JSONDecodeError, UnicodeDecodeError, OSError, AttributeError, TypeError, ValueError):
            previous = kept = None
        if ident_file.is_symlink() or not _simkits(previous, identity, replace_stale):
            # nothing in the folder is cleared unless its run.json is one simkit wrote (a user's
            # own run.json and manifest.json were replaced, their part-named files deleted)
            raise UserError(f"{ident_file} is damaged or not simkit's; delete {out} or choose another output folder (--out)")
        if previous == identity and (kept is None) == (secret is None):
            done = _parts(out, spec.game.seats(spec.params), warn)
            secret = kept
        elif replace_stale or (not (out / "games.parquet").exists() and not _parts(out, spec.game.seats(spec.params))):
            # a managed folder (sweep cells) holding games of older code or settings, or a run
            # that stopped before its first chunk was stored (nothing of it to lose)
            _clear_run(out)
        else:
            raise UserError(f"{out} holds a different run (other game, parameters, bots, data, seed or code); choose another output folder (--out) or delete it")
    elif out.exists() and any(p.name != "parts" or not p.is_dir() or any(p.iterdir()) for p in out.iterdir()):
        # (an empty parts/ alone is what a run killed before its run.json leaves: nothing to lose)
        raise UserError(f"{out} exists and is not a simkit run folder; choose another output folder (--out)")
    return done, secret, _text_or_none(out / "run.json")


def _sha256(path: Path) -> str:
    import hashlib

    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def refuse_if_edited(folder: Path, name: str, option: str | None = "--out") -> None:
    """Refuses, in one line, to write ``folder/name`` again when it differs from the file
    simkit last wrote there (the folder's manifest.json keeps its hash under ``sha256``):
    the user edited it. Without that record (an earlier version, a deleted manifest) the
    file counts as simkit's. ``option``: the command's option naming another folder (none
    for a folder simkit chose, such as a sweep's cell)."""
    path = folder / name
    if not path.exists():
        return
    try:
        recorded = json.loads((folder / "manifest.json").read_text())["sha256"][name]
    except (OSError, ValueError, KeyError, TypeError):
        return
    if recorded != _sha256(path):
        other = f", or choose another output folder ({option})" if option else ""
        raise UserError(f"{path} was changed after simkit wrote it; move it out of {folder} and run again{other}")


def _simkits(previous: Any, identity: dict, managed: bool) -> bool:
    """Whether a folder's run.json reads as one simkit wrote: every key of a run's identity
    today, with the types simkit writes (a made-up {"game": 1, "params": 2, "bots": 3,
    "seed": 4} was taken as a stale run and replaced). In a folder simkit manages (a sweep's
    cells) the keys every version has written are enough: an older version's runs there
    are replaced."""
    if not isinstance(previous, dict) or not RUN_KEYS <= previous.keys():
        return False
    if managed:
        return True
    types = {"game": str, "params": dict, "bots": list, "seed": int, "rotate_seats": bool, "code": str, "frame": int}
    return set(identity) - {"user_bot_rng"} <= previous.keys() and all(isinstance(previous[k], t) for k, t in types.items() if k in identity)


def _text_or_none(path: Path) -> str | None:
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError):
        return None


def _lock(folder: Path) -> int:
    """Holds ``folder`` for this process until the run ends: two simkit processes playing
    into one folder at once would mix their runs' chunks (and the summary of each)."""
    import fcntl

    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError as exc:
        if exc.errno != errno.EMFILE:
            raise
        import resource  # a sweep holds one folder per cell: allow as many files as the system does

        resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
        fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise UserError(f"{folder} is in use by another simkit process; wait for it to end or choose another output folder (--out)") from None
    return fd


def _unlock(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)


def _start_writing(p: _Pending) -> None:
    if p.out is not None and p.remaining:
        p.created = not p.out.exists()
        (p.out / "parts").mkdir(parents=True, exist_ok=True)
        if p.lock is None:  # a new folder: held from now on, and still as it was when checked
            p.lock = _lock(p.out)
            if _text_or_none(p.out / "run.json") != p.seen:
                raise UserError(f"{p.out} was started by another simkit process meanwhile; run the command again")
        kept = {**p.identity, "secret": p.secret.hex()} if p.secret is not None else p.identity
        _write_atomic(p.out / "run.json", lambda tmp: tmp.write_text(json.dumps(kept, indent=1)))


def _tagged_job(tag: int, spec: RunSpec, start: int, stop: int, secret: bytes | None = None):
    return (tag, *_chunk_job(spec, start, stop, secret))


@contextmanager
def _ctrl_c_held():
    """Worker processes started in this block start with Ctrl-C blocked (a child keeps its
    parent's signal mask, across exec): one pressed while a worker still imports would
    otherwise print its traceback before _worker_init ignores it. Blocked rather than
    ignored: a Ctrl-C pressed within the block still reaches this process (another of its
    threads takes it, or it waits for the block's end); ignored, it was lost (1 in 60 on
    a loaded machine) and the run played on.

    The standard library's resource tracker is started first: starting it (which loky does
    for its first pool) unblocks Ctrl-C in the starting thread (Python 3.11 restores with
    SIG_UNBLOCK, not the mask it found), so the workers started after it in the block
    took a Ctrl-C while importing: 1 traceback in 30 early Ctrl-C of a two-worker run."""
    import signal
    import threading
    from multiprocessing import resource_tracker

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    resource_tracker.ensure_running()
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _worker_init(main_pid: int) -> None:
    """In each worker process: Ctrl-C is the main process's to handle (no traceback
    from workers), and a worker whose main process ``main_pid`` died exits at once (also
    when it died while the worker was starting: its parent is then already another). A worker that
    crashes (a user's bot: a segmentation fault) prints no dump of every thread's stack
    (28 lines, which loky's default faulthandler printed under the one line that names
    the bot), unless PYTHONFAULTHANDLER asks for it."""
    import faulthandler
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if "PYTHONFAULTHANDLER" not in os.environ:  # (loky enables it in its workers unless set)
        global _FAULTS
        _FAULTS = open(os.devnull, "w")  # (kept open for the worker's life: the handler writes to its descriptor)
        faulthandler.enable(file=_FAULTS)
    def watch() -> None:
        while os.getppid() == main_pid:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()
    # A worker asked to exit does not wait for threads a user's bot left running: the
    # command waited for ever after its last game (every result was in).
    threading._shutdown = lambda: None


_FAULTS = None  # in a worker: where its fault handler writes (_worker_init)


def _worker_died(runs: list[_Pending], broken: BaseException) -> UserError:
    """The one line for a worker process that died while playing ``runs``: what ended it,
    from loky's message ("... The exit codes of the workers are {SIGSEGV(-11)}"), which
    user bots were at the table (the likeliest cause, but not the only one: the system
    kills the largest process when memory runs out), what to try and what is kept."""
    import re
    import signal

    text = str(broken)
    cause, hint = "a crash or a signal", "out of memory? try fewer --jobs or a smaller --chunk-size"
    code = re.search(r"\b(SIG[A-Z0-9]+)\(|\bEXIT\((\d+)\)", text)
    if code and code.group(2):
        cause, hint = f"it exited with status {code.group(2)}", ""
    elif code and getattr(signal, code.group(1), None) is not None:
        sig = getattr(signal, code.group(1))
        what = (signal.strsignal(sig) or code.group(1)).lower()
        cause = f"{code.group(1)}: {what}"
        if sig in (signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE, signal.SIGABRT):
            cause = what
            hint = "" if "PYTHONFAULTHANDLER" in os.environ else "PYTHONFAULTHANDLER=1 shows where"
        elif sig != signal.SIGKILL:  # (the system's answer to running out of memory)
            hint = ""
    bots = sorted({b.name for r in runs for b in r.spec.bots if b.source})
    line = f"a worker process died while playing ({cause})" + (f" with {', '.join(bots)} at the table" if bots else "")
    return UserError("; ".join(x for x in (line, hint, _what_is_kept(runs)) if x))


def _kept_games(runs: list[_Pending]) -> int:
    """The finished games a rerun resumes from: only a run with a folder keeps them."""
    return sum(r.resumed + r.stored for r in runs if r.out is not None)


def _what_is_kept(runs: list[_Pending]) -> str:
    kept = _kept_games(runs)
    return f"{kept:,} finished games are kept: rerun the same command to resume" if kept else "nothing was saved"


_KEPT: list | None = None  # inside kept_workers: the worker pools left running


@contextmanager
def kept_workers() -> Iterator[None]:
    """Within it, the worker processes stay up from one play to the next (each new worker
    imports simkit and loads the compiled game, about a second): for many small plays in
    a row, such as a check's looks. They are released at its end."""
    global _KEPT
    outer, _KEPT = _KEPT, []
    try:
        yield
    finally:
        kept, _KEPT = _KEPT, outer
        for executor in kept:
            executor.shutdown(wait=True)


def _loky(tasks: Iterator, runs: list[_Pending], jobs: int, advance: Callable[[int], None]) -> None:
    """Plays the tasks on loky worker processes, a few chunks ahead of the results (so
    that a run of any length starts at once and holds little in memory)."""
    from joblib.externals.loky import get_reusable_executor
    from joblib.externals.loky.process_executor import BrokenProcessPool

    with _ctrl_c_held():  # (loky's own thread, which starts the workers, keeps this thread's signal mask)
        executor = get_reusable_executor(max_workers=jobs, timeout=30, initializer=_worker_init, initargs=(os.getpid(),))
    running = set()
    try:
        for task in tasks:
            with _ctrl_c_held():  # (a first submit starts the workers)
                running.add(executor.submit(_tagged_job, task[0], runs[task[0]].spec, task[1], task[2], runs[task[0]].secret))
            if len(running) >= 2 * jobs:
                finished, running = wait_interruptibly(running, first=True)
                _collect(finished, runs, advance)
        while running:
            finished, running = wait_interruptibly(running, first=True)
            _collect(finished, runs, advance)
        # Idle workers would hold their memory (the compiled game, the last chunk) while
        # the results are combined and answered: released now, unless more plays follow
        # at once (kept_workers).
        if _KEPT is None:
            executor.shutdown(wait=True)
        elif executor not in _KEPT:
            _KEPT.append(executor)
    except BrokenProcessPool as exc:
        stop_workers(executor)
        raise _worker_died(runs, exc) from None
    except BaseException:
        # (no future is cancelled: loky's thread then set an error on it, which a cancelled
        # future refuses, a traceback from that thread under the resume line)
        stop_workers(executor)
        raise


PLAIN_CHUNK_SECONDS = 1.0  # a plain-Python chunk's play time: little is lost when the compiler finishes first


def _play_while_compiling(runs: list[_Pending], todo: list, advance: Callable[[int], None]) -> None:
    """Compiles the loops ``todo``, each on a process of its own, and meanwhile plays the runs' first
    games on one process as plain Python (numba's JIT disabled: the same outcomes, tested
    game by game, at a hundredth of the speed or less). Returns when the loops are compiled
    (a plain chunk still being played is dropped) or every game is played (the compilers
    then go on, for the next runs: :func:`simkit.compiled.finish_compiling` waits for them,
    and they are stopped at exit at the latest)."""
    from concurrent.futures import FIRST_COMPLETED, wait

    from joblib.externals.loky.process_executor import BrokenProcessPool, ProcessPoolExecutor

    from .progress import warn

    with _ctrl_c_held():
        compilers = ProcessPoolExecutor(max_workers=len(todo), initializer=_worker_init, initargs=(os.getpid(),))
        player = ProcessPoolExecutor(max_workers=1, initializer=_plain_worker_init, initargs=(os.getpid(),), env={"NUMBA_DISABLE_JIT": "1"})
    left = False
    try:
        with _ctrl_c_held():
            compiling = {compilers.submit(compile_by_name, game.name, tuple(b.name for b in bots), False) for game, bots in todo}
        size, playing = 1, None  # games per plain chunk, doubled until a chunk takes PLAIN_CHUNK_SECONDS
        while compiling:
            if playing is None and player is not None:
                task = next(((i, a, min(b, a + size)) for i, r in enumerate(runs) for a, b in r.todo()), None)
                if task is None:  # every game played: the compilers go on for the next runs
                    leave_compiling(compilers, compiling)
                    left = True
                    return
                with _ctrl_c_held():
                    playing = player.submit(_tagged_job, task[0], runs[task[0]].spec, task[1], task[2], runs[task[0]].secret)
                playing_run = task[0]
            # a wait with a timeout: one without is not ended by Ctrl-C
            finished, _ = wait(compiling | {playing} - {None}, timeout=0.25, return_when=FIRST_COMPLETED)
            for f in finished & compiling:
                f.result()  # a compiler's error ends the run here
                compiling.discard(f)
            if playing in finished:
                try:
                    i, a, b, frame, secs, _ = playing.result()
                except Exception as exc:  # the compiled loop plays on: plain Python only came first
                    if any(b.source for b in runs[playing_run].spec.bots):
                        # a user's bot plays the same Python either way: what it did to the
                        # plain games (an error, a crash) it does to the compiled loop's
                        raise (_worker_died(runs, exc) if isinstance(exc, BrokenProcessPool) else exc) from None
                    why = str(exc).split(". ")[0].strip()[:200]
                    warn(f"playing as plain Python failed ({type(exc).__name__}: {why}); waiting for the compiler")
                    stop_workers(player)
                    player = playing = None
                    continue
                runs[i].store(a, b, frame, secs)  # not timed: a plain speed is not the run's
                runs[i].plain += b - a
                advance(b - a)
                if secs < PLAIN_CHUNK_SECONDS:
                    size *= 2
                playing = None
    except BrokenProcessPool:
        raise UserError(f"a process compiling the game died (out of memory?); {_what_is_kept(runs)}") from None
    finally:
        if player is not None:
            stop_workers(player)
        if not left:
            stop_workers(compilers)


def _plain_worker_init(main_pid: int) -> None:
    """A worker playing as plain Python: numpy's integer scalars warn where compiled code
    wraps around silently (the random streams' hashing), so warnings are off."""
    _worker_init(main_pid)
    np.seterr(all="ignore")


def _collect(finished, runs: list[_Pending], advance: Callable[[int], None]) -> None:
    for f in finished:
        i, a, b, frame, secs, warm = f.result()
        runs[i].store(a, b, frame, secs, warm)
        advance(b - a)


def execute(runs: list[_Pending], jobs: int, backend: str, scheduler: str | None, advance: Callable[[int], None]) -> None:
    """Plays every planned chunk of every run, in parallel when ``jobs`` > 1 (never more
    workers than chunks); each chunk is stored as soon as it is finished."""
    import itertools

    def tasks():
        for i, r in enumerate(runs):
            for a, b in r.todo():
                yield i, a, b

    jobs = processes(jobs, backend)
    jobs = min(jobs, sum(1 for _ in itertools.islice(tasks(), jobs)))
    # A user's bot plays in a worker process even with one job: if it ends its process
    # (a crash, a signal), the run reports it instead of vanishing with it.
    users = any(b.source for r in runs for b in r.spec.bots)
    if jobs <= 1 and not (users and backend == "loky" and jobs == 1):
        for i, a, b in tasks():
            _, _, frame, secs, warm = _chunk_job(runs[i].spec, a, b, runs[i].secret)
            runs[i].store(a, b, frame, secs, warm)
            advance(b - a)
        return
    if backend == "loky":
        _loky(tasks(), runs, jobs, advance)
        return
    from joblib import Parallel, delayed, parallel_config

    with backend_context(backend, jobs, scheduler) as joblib_backend, parallel_config(backend=joblib_backend, n_jobs=jobs):
        if joblib_backend == "ray":
            # Ray's joblib backend returns whole lists only: play in waves so that
            # finished chunks still reach the disk as the run goes.
            it = tasks()
            while wave := list(itertools.islice(it, 4 * jobs)):
                for i, a, b, frame, secs, warm in Parallel(return_as="list")(delayed(_tagged_job)(i, runs[i].spec, a, b, runs[i].secret) for i, a, b in wave):
                    runs[i].store(a, b, frame, secs, warm)
                    advance(b - a)
            return
        parallel = Parallel(return_as="generator_unordered")
        for i, a, b, frame, secs, warm in parallel(delayed(_tagged_job)(i, runs[i].spec, a, b, runs[i].secret) for i, a, b in tasks()):
            runs[i].store(a, b, frame, secs, warm)
            advance(b - a)


def finish(r: _Pending, wall: float, jobs: int, backend: str) -> RunResult:
    """Combines a run's chunks into one frame, each game exactly once, and writes it with
    the manifest."""
    spec = r.spec
    n = spec.n_games
    seats = spec.game.seats(spec.params)
    kept = _each_game_once(sorted(k for k in r.done if k[0] < n), n)
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
        "n_games": n,
        "rows": None,
        "resumed_games": r.resumed,
        "chunk_size": r.chunk_size,
        "jobs": jobs,
        "backend": backend if jobs > 1 else "in-process",
        "started": r.started.isoformat(timespec="seconds"),
        "wall_time_s": round(wall, 3),
        # compiled play only, unless every game was played as plain Python while compiling
        "simulated_games_per_s": round((r.stored - r.plain or r.stored) / wall, 1) if wall > 0 and r.stored else None,
        "plain_python_games": r.plain,
        "cpu_time_in_games_s": round(r.busy, 3),
        "libraries": library_versions(),
        "columns": {**BASE_COLUMNS, **spec.game.columns, **{k: "parameter of the run" for k in as_dict(spec.params) if k not in spec.game.columns}},
        "command": " ".join(sys.argv) if sys.argv and "simkit" in sys.argv[0] else None,
    }
    if r.out is not None:
        # Streamed part by part into games.parquet: memory does not grow with the run. A part
        # taken whole is not filtered: a filter of its own on each of 1,500 parts (--chunk-size 1)
        # took polars 21 s to combine them, without one 0.3 s.
        parts = [_games_of(r.done[(a, b)], (a, b) != (lo, hi), lo, hi) for (a, b), lo, hi in kept]
        frame = None

        def combine(tmp: Path) -> None:
            try:
                # strict: a part whose columns differ is not this run's (relaxed, a text column
                # from an edited part turned the whole column into text)
                pl.concat(parts, how="vertical").sink_parquet(tmp)
            except pl.exceptions.PolarsError as exc:
                if not any(w in str(exc).lower() for w in ("schema", "column")):  # (a full disk may surface as any polars error: _write_atomic says so)
                    raise
                tmp.unlink(missing_ok=True)
                raise UserError(f"the parts in {r.out / 'parts'} do not all have this run's columns ({_first_line(exc)}): a part was "
                                f"edited or copied in; delete {r.out} and run again") from None
            index = pl.col("game_index")  # (games of the run only: parts taken whole are not filtered)
            rows, games = pl.scan_parquet(tmp, glob=False).select(
                pl.len(), index.filter(index.is_between(0, n, closed="left")).n_unique()).collect().row(0)
            try:
                _check_counts((rows, games), n, seats)  # before the file takes its place
            except RuntimeError:  # parts from disk that do not hold their own games: edited, not a bug
                raise UserError(f"the parts in {r.out / 'parts'} do not hold this run's games ({rows:,} rows for "
                                f"{games:,} games, {n:,} expected): a part was edited or copied in; delete {r.out} "
                                "and run again") from None
            manifest["rows"] = rows

        write_with_manifest(r.out / "games.parquet", combine, manifest)
    else:
        frame = pl.concat([r.frames[k].filter(pl.col("game_index").is_between(lo, hi, closed="left")) for k, lo, hi in kept],
                          how="vertical")
        _check_counts((frame.height, frame["game_index"].n_unique()), n, seats)
        manifest["rows"] = frame.height
    constants = {k: v for k, v in as_dict(spec.params).items() if k not in BASE_COLUMNS and k not in spec.game.columns}
    return RunResult(frame, manifest, r.out, constants)


def _games_of(part: Path, cut: bool, lo: int, hi: int) -> pl.LazyFrame:
    """A stored part's games, only those of ``[lo, hi)`` when ``cut``."""
    games = _text_not_null(pl.scan_parquet(part, glob=False))
    return games.filter(pl.col("game_index").is_between(lo, hi, closed="left")) if cut else games


def _each_game_once(keys: list[tuple[int, int]], n: int) -> list[tuple[tuple[int, int], int, int]]:
    """The parts to combine in game order, each with the range of games taken from it:
    every game of ``[0, n)`` once. A part starting where the games so far end is taken
    whole; one overlapping them (an older layout's) only when no such part exists, and
    then only for the games after them."""
    starts = {a: (a, b) for a, b in sorted(keys, key=lambda k: k[1])}  # the longest part from each start
    kept, end = [], 0
    while end < n:
        key = starts.get(end) or max((k for k in keys if k[0] < end < k[1]), key=lambda k: k[1], default=None)
        if key is None:
            break  # a gap: the count check says so
        hi = min(key[1], n)
        kept.append((key, end, hi))
        end = hi
    return kept


def _check_counts(counts: tuple[int, int], n: int, seats: int) -> None:
    if counts != (n * seats, n):
        raise RuntimeError(f"run of {n} games holds {counts[0]} rows for {counts[1]} games: a bug")


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
    flag for a progress bar, or a callback ``advance(n_games)`` called with the games
    played as they finish (not those resumed from ``out``).
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
    """Several runs whose chunks share one pool of workers (sweeps, comparisons).

    Everything is checked before the first game is played. Ctrl-C stops the run
    with :class:`~simkit.errors.Interrupted`, whose message says how many games are
    kept and how to resume."""
    jobs = worker_count(jobs)
    check_backend(backend, scheduler)
    folders = [Path(out).resolve() for _, out in runs if out is not None]
    if len(set(folders)) != len(folders):
        raise ValueError("two runs were given one output folder: a bug (their games would mix)")
    from .progress import warn

    for _, out in runs:  # every folder before any is cleared (a sweep clears its stale cells as it prepares them)
        if out is not None:
            refuse_if_edited(Path(out), "games.parquet", None if replace_stale else "--out")
    secret = os.urandom(32)  # one for all the runs started here: paired runs (compare) give user bots the same draws
    pending: list[_Pending] = []
    try:
        for spec, out in runs:
            pending.append(prepare(spec, out, chunk_size, replace_stale, warn=warn if progress else None, secret=secret))
        return _play_all(pending, jobs, backend, scheduler, progress, label)
    finally:
        for p in pending:
            _unlock(p.lock)


def _play_all(pending: list[_Pending], jobs: int, backend: str, scheduler: str | None,
              progress: bool | Callable[[int], None], label: str | None) -> list[RunResult]:
    from .progress import bar, status, warn

    total = sum(p.spec.n_games for p in pending)
    runs = [(p.spec.game, p.spec.bots) for p in pending if p.remaining]
    name = label or pending[0].spec.game.name
    t0 = time.perf_counter()
    try:
        cores = max(processes(jobs, backend), 1)
        todo = uncompiled(runs)
        # Compiling takes 10 s to minutes. When a core is left once each loop has one (a
        # single run's loop, on two cores), it plays the first games as plain Python
        # meanwhile (the same outcomes), which finishes a small run before the compiler.
        meanwhile = bool(todo) and len(todo) < (os.cpu_count() or 1) and backend == "loky"
        for p in pending:
            _start_writing(p)
        # a callback counts the games played now: a tune's bar, whose total is its budget of new
        # games, went past it by every game a racing round resumed
        advance = progress if callable(progress) else None
        resumed = sum(p.resumed + p.stored for p in pending)
        if meanwhile:
            if progress is True:
                warn(compiling_line(todo) + "; playing meanwhile as plain Python")
            # no time left shown: the plain speed is not the compiled loop's
            with bar(f"{name} (compiling)", total, resumed, enabled=progress is True, eta=False) as shown:
                _play_while_compiling(pending, todo, advance or shown)
            if any(p.remaining for p in pending):
                t0 = time.perf_counter()  # the speed is of the compiled play (plain games: counted apart)
        else:
            with status(enabled=progress is True) as say:
                compile_loops(todo, say, jobs=cores)
            t0 = time.perf_counter()  # the speed remembered is of playing, not compiling
        before = sum(p.stored for p in pending)
        estimate = _plan_by_speed(pending, cores, piloted=scheduler is None)
        if advance is not None:  # a pilot's games were played now too (a tune's budget counts them)
            advance(sum(p.stored for p in pending) - before)
        if progress is True and estimate is not None and estimate >= 10:  # (other work may stretch it past 30 s)
            estimate, shared = sharing(estimate, cores, busy_cores())
            if estimate >= 30:
                remaining = sum(p.remaining for p in pending)
                warn(f"{name}: {remaining:,} games to play, about {_duration(estimate)} on {cores} core{'s' if cores > 1 else ''} "
                     f"(at the speed of the same game, bots and settings on this machine{shared})")
        resumed = sum(p.resumed + p.stored for p in pending)
        if resumed < total:
            with bar(name, total, resumed, enabled=progress is True) as shown:
                execute(pending, jobs, backend, scheduler, advance or shown)
    except BaseException as exc:
        if not _interrupted(exc):
            _forget_unstarted(pending)
            raise
        kept = _kept_games(pending)
        folders = sorted({str(p.out) for p in pending if p.out is not None and p.resumed + p.stored})  # those keeping games
        if any(p.out is not None for p in pending):
            if not kept:  # ("0 finished games are kept in 116 folders")
                raise Interrupted("interrupted before any game had finished; run the same command again to start") from None
            where = folders[0] if len(folders) == 1 else f"{len(folders)} folders"
            raise Interrupted(f"interrupted: {kept:,} finished games are kept in {where}; run the same command again to resume") from None
        raise Interrupted("interrupted: nothing was saved (no output folder)") from None
    wall = time.perf_counter() - t0
    _remember_speeds(pending)
    return [finish(p, wall, jobs, backend) for p in pending]


def _interrupted(exc: BaseException) -> bool:
    """Ctrl-C, also when it arrived inside compiled code (numba then raises SystemError
    with the KeyboardInterrupt as its context)."""
    while exc is not None:
        if isinstance(exc, KeyboardInterrupt):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _forget_unstarted(pending: list[_Pending]) -> None:
    """After a failure before any chunk was stored, removes the run.json simkit wrote,
    so that no half-made run folder is left (nothing else is touched)."""
    for p in pending:
        if p.out is None or p.stored or p.done:
            continue
        try:
            (p.out / "run.json").unlink(missing_ok=True)
            for folder in (p.out / "parts", p.out) if p.created else (p.out / "parts",):
                if folder.is_dir() and not any(folder.iterdir()):
                    folder.rmdir()
        except OSError:
            pass


def _speeds_file() -> Path:
    from ._cache import cache_root

    return cache_root().parent / "speeds.json"


def _read_speeds() -> dict:
    try:
        doc = json.loads(_speeds_file().read_text())
        return doc if isinstance(doc, dict) else {}
    except (OSError, ValueError):
        return {}


CHUNK_SECONDS = 1.5  # a chunk's play time: Ctrl-C never waits longer for compiled code to return
MIN_TIMED = 0.02  # seconds of play a speed is remembered from (less is mostly noise; 0.2 left a report's fast ladder runs unknown)
PILOT_SECONDS = 0.25  # the play time of a pilot's last batch, when no speed is known for a run's game, bots and settings


def _speed_key(spec: RunSpec) -> tuple[str, str]:
    """The keys of a run's speed: its game, bots and settings; and its game and bots."""
    bots = "+".join(b.name for b in spec.bots)
    settings = json.dumps(as_dict(spec.params), sort_keys=True, default=str)
    return f"{spec.game.name}|{bots}|{settings}", f"{spec.game.name}|{bots}|"


def _remember_speeds(pending: list[_Pending]) -> None:
    """Games per second per core of each run (its play time in the workers), kept per
    game, bots and settings for the estimates and chunk sizes of later runs."""
    speeds = {k: v for k, v in _read_speeds().items() if "|" in k}
    fresh = {_speed_key(p.spec)[0]: round(p.timed_games / p.timed, 3) for p in pending if p.timed_games and p.timed >= MIN_TIMED}
    if not fresh:
        return
    for key in fresh:
        speeds.pop(key, None)  # the newest last: the oldest leave first
    speeds = dict(list({**speeds, **fresh}.items())[-5000:])
    try:
        path = _speeds_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_atomic(path, lambda tmp: tmp.write_text(json.dumps(speeds)))
    except (OSError, UserError):
        pass  # only an estimate


def _known_speed(speeds: dict, spec: RunSpec) -> float | None:
    """The speed of the same game, bots and settings; else the mean of the same game and
    bots under other settings (a sweep's cells); else None."""
    exact, same_bots = _speed_key(spec)
    value = speeds.get(exact)
    if _a_speed(value):
        return float(value)
    similar = [v for k, v in speeds.items() if k.startswith(same_bots) and _a_speed(v)]
    return sum(similar) / len(similar) if similar else None


def stored_games(spec: RunSpec, out: Path | None) -> int:
    """The games of this very run already kept in ``out``, from its run.json and its parts'
    names (nothing is read, checked or moved): an estimate's count before anything plays."""
    if out is None:
        return 0
    try:
        previous = json.loads((Path(out) / "run.json").read_text())
        previous.pop("secret", None)
    except (OSError, ValueError, AttributeError, TypeError):
        return 0
    if previous != _identity(spec):
        return 0  # another run, or older code: played again
    spans = [span for p in (Path(out) / "parts").glob("games-*.parquet") if (span := part_span(p)) and span[1] > span[0]]
    return sum(max(0, min(b, spec.n_games) - a) for a, b in _without_overlaps(spans))


def _identity(spec: RunSpec) -> dict[str, Any]:
    """A run's identity as its run.json keeps it (JSON's types: what a resumed run is compared with)."""
    return json.loads(json.dumps(spec.identity(), default=str))


def estimate(runs: list[tuple[RunSpec, Path | None]], cores: int) -> tuple[int, float | None]:
    """The games ``runs`` have left to play and the seconds they should take on ``cores``
    cores at the remembered speed of the same game, bots and settings (None when one is
    not known: a pilot measures it when the run starts)."""
    speeds = _read_speeds()
    games, seconds = 0, 0.0
    for spec, out in runs:
        left = spec.n_games - stored_games(spec, out)
        if left <= 0:
            continue
        games += left
        speed = _known_speed(speeds, spec)
        seconds = None if seconds is None or speed is None else seconds + left / speed
    return games, None if seconds is None else seconds / max(cores, 1)


def busy_cores(sample: float = 0.2) -> float:
    """How many of the machine's cores other work keeps busy, from /proc/stat over ``sample``
    seconds (0 where it cannot be read): at the speed of a quiet machine, estimates ran 2 to
    4 times short beside another heavy job (a newcomer's review, load 3.5-5 on 2 cores)."""
    def read() -> tuple[int, int]:
        with open("/proc/stat") as f:
            ticks = [int(x) for x in f.readline().split()[1:9]]  # user .. steal
        return sum(ticks), ticks[3] + ticks[4]  # all, idle and waiting for the disk

    try:
        all0, idle0 = read()
        time.sleep(sample)
        all1, idle1 = read()
    except (OSError, ValueError, IndexError):
        return 0.0
    if all1 <= all0:
        return 0.0
    return (os.cpu_count() or 1) * max(0.0, 1 - (idle1 - idle0) / (all1 - all0))


def sharing(seconds: float, cores: int, busy: float) -> tuple[float, str]:
    """``seconds`` of play on ``cores`` workers, stretched by the cores ``busy`` with other
    work (their workers share the machine with it), and the words saying so ('' when quiet)."""
    machine = os.cpu_count() or 1
    if busy < 0.5:
        return seconds, ""
    return seconds * max(1.0, (busy + cores) / machine), f", other work keeping {busy:.1f} of its {machine} cores busy"


def _a_speed(value) -> bool:
    """Whether a remembered value can be a speed: a positive finite number (JSON's Infinity
    ended a run in a traceback; true counted as 1 game/s)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < float("inf")


def _pilot(p: _Pending) -> float | None:
    """Plays the first games of the run's first chunk in doubling batches until a batch
    after the first takes ``PILOT_SECONDS`` (or the chunk is played), stores them as one
    part (so the parts still line up with the chunk size), and returns the last batch's
    speed in games per second (the largest batch: a chunk's fixed cost hardly counts in it)."""
    if p.spec.has_user_bots:
        return None  # a user's bot plays in a worker process only
    start, end = next(plan_chunks(p.spec.n_games, p.chunk_size, list(p.done)))
    frames, secs, b, k, speed = [], 0.0, start, 1, None
    warm_secs, warm_games = 0.0, 0
    while b < end:
        a, b = b, min(end, b + k)
        _, _, frame, took, warm = _chunk_job(p.spec, a, b, p.secret)
        frames.append(frame)
        secs += took
        if warm:
            warm_secs, warm_games = warm_secs + took, warm_games + b - a
        speed = (b - a) / max(took, 1e-6)
        if took >= PILOT_SECONDS and k > 1:  # the first batch also loads the compiled loop
            break
        k *= 2
    p.store(start, b, pl.concat(frames, how="vertical_relaxed"), secs)
    p.timed, p.timed_games = p.timed + warm_secs, p.timed_games + warm_games
    return speed


def _plan_by_speed(pending: list[_Pending], cores: int, piloted: bool = True) -> float | None:
    """Sizes each run's chunks to about ``CHUNK_SECONDS`` of play, from the speed of the
    same game, bots and settings (a pilot when none is known and ``piloted``: not for a
    cluster, whose speed is not this machine's and whose address is checked first), and
    returns the seconds its remaining games should take on ``cores`` cores (None when a
    speed is unknown)."""
    speeds = _read_speeds()
    pilots: dict[str, float] = {}
    seconds: float | None = 0.0
    for p in pending:
        if not p.remaining:
            continue
        same_bots = _speed_key(p.spec)[1]
        speed = _known_speed(speeds, p.spec) or pilots.get(same_bots)
        if speed is None and piloted and (speed := _pilot(p)) is not None:
            pilots[same_bots] = speed
        if speed is None:
            seconds = None
            continue
        p.chunk_size = max(1, min(p.chunk_size, int(speed * CHUNK_SECONDS)))
        if seconds is not None:
            seconds += p.remaining / speed
    return None if seconds is None else seconds / max(cores, 1)


def _duration(secs: float) -> str:
    if secs < 90:
        return f"{secs:.0f} s"
    if secs < 5400:
        return f"{secs / 60:.0f} min"
    return f"{secs / 3600:.1f} h"


BASE_COLUMNS = {
    "game_index": "index of the game in the run (0 .. N-1)",
    "seed": "the game's own 64-bit seed, derived from the run's root seed and game_index",
    "seat": "seat number, 1 = the first seat (seats are numbered from 1 everywhere)",
    "bot": "bot playing this seat",
    "won": "whether this seat won (shared wins count for every winner)",
}

