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


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray not installed (pip install 'simkit[ray]')")
def test_ray_equals_loky():
    s = spec(n=30)
    assert run(s, None, jobs=2, backend="ray", chunk_size=10, progress=False).frame.equals(run(s, None, chunk_size=30, progress=False).frame)
