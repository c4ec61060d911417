"""Scale-out: the same seed gives the same games on every joblib backend."""

from __future__ import annotations

import importlib.util

import pytest

from simkit.games import get
from simkit.params import build
from simkit.runner import RunSpec, run


def spec(game="ufs", n=40, **overrides):
    g = get(game)
    p = build(g.params, overrides, g.name)
    return RunSpec(g, p, tuple(g.resolve_bots([], p)), n, 5)


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="dask.distributed not installed")
def test_dask_local_cluster_equals_loky(tmp_path):
    s = spec(n=60)
    loky = run(s, None, jobs=2, chunk_size=15, progress=False).frame
    dask = run(s, tmp_path / "dask", jobs=2, backend="dask", chunk_size=15, progress=False)
    assert dask.frame.equals(loky)
    assert dask.manifest["backend"] == "dask"
    # resumption works the same on this backend
    again = run(s, tmp_path / "dask", jobs=2, backend="dask", chunk_size=15, progress=False)
    assert again.manifest["resumed_games"] == 60 and again.frame.equals(loky)


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="dask.distributed not installed")
def test_dask_scheduler_address(tmp_path):
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        s = spec("aau", n=20, players=3)
        res = run(s, None, jobs=2, backend="dask", scheduler=cluster.scheduler_address, chunk_size=5, progress=False)
    assert res.frame.equals(run(s, None, chunk_size=20, progress=False).frame)


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="dask.distributed not installed")
def test_a_malformed_scheduler_address_is_one_line(tmp_path):
    """dask raised ValueError from its address parser: a 120-line traceback, exit 1."""
    from simkit.errors import UserError

    with pytest.raises(UserError, match=r"cannot reach the dask scheduler 'garbage' \(missing port.*tcp://host:8786"):
        run(spec(n=4), tmp_path / "r", jobs=2, backend="dask", scheduler="garbage", chunk_size=2, progress=False)


def test_a_scheduler_without_a_cluster_backend_is_refused(tmp_path):
    """--scheduler with the default backend was ignored without a word."""
    from simkit.errors import UserError

    with pytest.raises(UserError, match="--scheduler is the address of a dask or Ray cluster; add --backend dask"):
        run(spec(n=4), tmp_path / "r", jobs=1, scheduler="tcp://host:8786", progress=False)
    assert not (tmp_path / "r").exists()


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray not installed (pip install 'simkit[ray]')")
def test_ray_equals_loky():
    s = spec(n=30)
    assert run(s, None, jobs=2, backend="ray", chunk_size=10, progress=False).frame.equals(run(s, None, chunk_size=30, progress=False).frame)


def test_read_only_arrays_play_the_compiled_loop_without_compiling_it_again():
    """ray hands its workers a pickled spec's arrays read-only; numba would compile the loop
    anew for them (12 minutes on a loaded 2-core machine in the suite), so simulate copies them."""
    import numpy as np

    from simkit.bots import bot_table
    from simkit.play import bots_used, simulate
    from simkit.protocol import game_loop
    from simkit.seeding import game_seeds

    s = spec(n=20)
    board = s.game.board(s.params)
    seeds, table = game_seeds(5, 0, 20), bot_table(1, 0, 20, False)
    before = simulate(s.game, s.params, seeds, table, list(s.bots), board=board)
    chunk = game_loop(s.game).play_chunk(bots_used(s.game, list(s.bots)))
    compiled = len(chunk.signatures)
    frozen = board.copy()
    frozen.flags.writeable = False
    after = simulate(s.game, s.params, seeds, table, list(s.bots), board=frozen)
    assert len(chunk.signatures) == compiled
    assert all(np.array_equal(before[k], after[k]) for k in before)
