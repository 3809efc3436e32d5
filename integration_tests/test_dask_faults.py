"""A worker killed in the middle of a fit on Dask (issue 18, item 5).

The data are read from ``.npy`` chunks on disk, so Dask's lineage can recompute whatever
a dead worker held. A trap in the chunk reader kills the process of the worker doing the
k-th read (k inside the fit's third pass over the data); the nanny restarts it and the
scheduler reruns the lost tasks. The fit must end with the same model as an undisturbed
one, and when the cluster may not retry (``allowed_failures = 0``) with
``distributed.KilledWorker`` and an estimator left unfitted: never a different model.
"""

import os

import dask
import dask.array as da
import distributed
import numpy as np
import pytest

from aesvm import AESVC
from aid_models import AIDSVC, AIDLADRegressor
from lpsvr import LPSVR

N, CHUNK = 4000, 1000
N_CHUNKS = N // CHUNK


def _read_chunk(path, lo, hi, trap_dir, kill_at):
    """Rows [lo, hi) of an .npy file; the process doing read number ``kill_at`` dies."""
    if kill_at is not None:
        for i in range(10**6):  # claim the next read number atomically (O_EXCL)
            try:
                os.close(os.open(os.path.join(trap_dir, f"read-{i}"), os.O_CREAT | os.O_EXCL))
                break
            except FileExistsError:
                continue
        if i + 1 == kill_at:
            os.kill(os.getpid(), 9)
    return np.load(path, mmap_mode="r")[lo:hi].copy()


def _on_disk(tmp_path, X, kill_at):
    path = str(tmp_path / "X.npy")
    np.save(path, X)
    reader = dask.delayed(_read_chunk, pure=True)
    parts = [
        da.from_delayed(
            reader(path, lo, lo + CHUNK, str(tmp_path), kill_at),
            shape=(CHUNK, X.shape[1]),
            dtype=X.dtype,
        )
        for lo in range(0, N, CHUNK)
    ]
    return da.concatenate(parts)


def _data(kind):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(N, 3))
    if kind == "regression":
        return X, X @ np.array([1.0, -2.0, 0.5]) + rng.laplace(size=N)
    if kind == "sinc":
        X = rng.uniform(-3, 3, size=(N, 1))
        return X, np.sinc(X[:, 0]) + 0.05 * rng.normal(size=N)
    return X, np.where(X[:, 0] + 0.3 * rng.normal(size=N) > 0, 1, 0)


CASES = {
    "AIDLADRegressor": (lambda: AIDLADRegressor(random_state=0), "regression"),
    # solver="newton": on data this small "auto" solves in memory directly (newton-full),
    # while Dask input always runs AID's loop; both sides must run the same method.
    "AIDSVC": (lambda: AIDSVC(random_state=0, solver="newton"), "classification"),
    "AESVC": (lambda: AESVC(random_state=0), "classification"),
    "LPSVR": (lambda: LPSVR(random_state=0), "sinc"),
}


def _model(est):
    names = ("coef_", "intercept_", "dual_coef_", "representative_indices_", "beta_")
    return {n: np.asarray(getattr(est, n)) for n in names if hasattr(est, n)}


@pytest.fixture
def client():
    # A cluster per test: a test starts with two live workers whatever the last one killed.
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


@pytest.mark.parametrize("name", sorted(CASES))
def test_fit_survives_a_worker_killed_mid_fit(client, tmp_path, name):
    make, kind = CASES[name]
    X, y = _data(kind)
    reference = make().fit(X, y)
    (tmp_path / "trap").mkdir()
    dX = _on_disk(tmp_path / "trap", X, kill_at=2 * N_CHUNKS + 1)
    est = make().fit(dX, y)
    reads = len(list((tmp_path / "trap").glob("read-*")))
    assert reads > 2 * N_CHUNKS + 1, "the trap never fired: the fit read too little"
    want, got = _model(reference), _model(est)
    assert want.keys() == got.keys() and want
    for key in want:
        np.testing.assert_allclose(got[key], want[key], rtol=1e-7, atol=1e-9, err_msg=key)


def _allowed_failures(value, dask_scheduler=None):
    previous = dask_scheduler.allowed_failures
    dask_scheduler.allowed_failures = value
    return previous


@pytest.mark.parametrize("name", ["AIDLADRegressor", "AESVC"])
def test_unrecoverable_cluster_raises_and_leaves_estimator_unfitted(client, tmp_path, name):
    make, kind = CASES[name]
    X, y = _data(kind)
    dX = _on_disk(tmp_path, X, kill_at=1)
    est = make()
    previous = client.run_on_scheduler(_allowed_failures, 0)
    try:
        with pytest.raises(distributed.KilledWorker):
            est.fit(dX, y)
    finally:
        client.run_on_scheduler(_allowed_failures, previous)
    assert not _model(est) and not hasattr(est, "n_features_in_")
