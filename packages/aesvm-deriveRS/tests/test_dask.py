"""AESVC on Dask arrays: one chunk is the in-memory fit, several chunks are DeriveRS per chunk."""

import pickle
import subprocess
import sys

import dask.array as da
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_moons
from sklearn.exceptions import NotFittedError
from sklearn.svm import SVC

import aesvm._classes
import aesvm._dask
from aesvm import AESVC, derive_rs
from svmcore.chunked import is_dask_collection
from svmcore.kernels import resolve_gamma
from svmcore.testing import modules_imported_by, worker_modules

PAPER = {"epsilon": 1e-3, "fallback_fraction": None, "reuse_representatives": False}
SMALL = {"group_size": 50, "subset_size": 200}


def moons(n=1200, seed=0):
    return make_moons(n, noise=0.2, random_state=seed)


def three_classes(n=900, seed=0):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 3, size=n)
    X = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]])[labels] + rng.normal(size=(n, 2))
    return X, np.array(["a", "b", "c"])[labels]


def float32_near_overflow(n=1200, seed=0):
    X, y = moons(n, seed)
    return (X * 1e36).astype(np.float32), y  # gamma ~ 1e-72 is zero in float32


def chunked(a, rows):
    return da.from_array(a, chunks=(rows,) + a.shape[1:])


def assert_same_model(a, b):
    for name in ("representative_indices_", "beta_", "support_", "dual_coef_", "intercept_"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    np.testing.assert_array_equal(a.support_vectors_, b.support_vectors_)
    assert a.fallback_ == b.fallback_ and a.epsilon_ == b.epsilon_ and a._gamma == b._gamma


@pytest.mark.parametrize(
    "data, params, weighted",
    [
        (moons, {"random_state": 0}, False),
        (moons, {"kernel": "poly", "gamma": "auto", "degree": 2, "epsilon": "auto"}, True),
        (moons, {"kernel": "linear", "epsilon": "auto"}, False),
        (three_classes, {"random_state": np.random.RandomState(3)}, False),
        (float32_near_overflow, {"gamma": 1e-72}, False),
    ],
)
def test_one_chunk_is_the_in_memory_fit(data, params, weighted):
    X, y = data()
    w = np.random.default_rng(1).uniform(0.5, 2.0, size=y.size) if weighted else None
    est = AESVC(**{**PAPER, **SMALL, **params})
    state = params.get("random_state")
    copy = pickle.loads(pickle.dumps(state))  # a RandomState is consumed by each fit
    memory = est.set_params(random_state=state).fit(X, y, sample_weight=w)
    lazy = AESVC(**{**est.get_params(), "random_state": copy})
    lazy.fit(chunked(X, X.shape[0]), chunked(y, y.size), sample_weight=w)
    assert_same_model(memory, lazy)
    assert not lazy.representatives_reused_ and lazy.n_features_in_ == X.shape[1]


def test_one_chunk_small_data_is_every_row():
    """Below MIN_REDUCE_SAMPLES with fallback_fraction set, both paths train on every row."""
    X, y = moons(400)
    memory = AESVC(reuse_representatives=False).fit(X, y)
    lazy = AESVC(reuse_representatives=False).fit(chunked(X, 400), y)
    assert lazy.fallback_ and lazy.n_representatives_ == 400
    assert_same_model(memory, lazy)


def test_one_sparse_chunk_is_the_in_memory_fit():
    X, y = moons(600)
    params = {**PAPER, **SMALL, "gamma": 2.0}
    memory = AESVC(**params).fit(sp.csr_matrix(X), y)
    lazy = AESVC(**params).fit(chunked(X, 600).map_blocks(sp.csr_matrix), y)
    assert sp.issparse(lazy.support_vectors_)
    for name in ("representative_indices_", "beta_", "dual_coef_", "intercept_"):
        np.testing.assert_array_equal(getattr(memory, name), getattr(lazy, name))
    scale = AESVC(**{**params, "gamma": "scale"}).fit(chunked(X, 200).map_blocks(sp.csr_matrix), y)
    assert scale._gamma == pytest.approx(resolve_gamma("scale", X), rel=1e-12)


def test_several_chunks_derive_each_chunk():
    """The representatives are derive_rs of each chunk (offset), the SVM SVC's on them."""
    X, y = moons(1500)
    order = np.argsort(y, kind="stable")  # sorted by class: the first chunk holds one class
    X, y = X[order], y[order]
    w = np.random.default_rng(2).uniform(0.5, 2.0, size=y.size)
    est = AESVC(**PAPER, **SMALL, C=3.0, random_state=7)
    est.fit(chunked(X, 500), chunked(y, 500), sample_weight=chunked(w, 500))
    assert est._gamma == pytest.approx(resolve_gamma("scale", X), rel=1e-12)
    rep, beta = [], []
    for start in range(0, 1500, 500):
        rows = slice(start, start + 500)
        rs = derive_rs(
            X[rows], y[rows], gamma=est._gamma, tol=1e-3, sample_weight=w[rows],
            random_state=7, **SMALL,
        )  # fmt: skip
        rep.append(start + rs.indices)
        beta.append(rs.beta)
    np.testing.assert_array_equal(est.representative_indices_, np.concatenate(rep))
    np.testing.assert_array_equal(est.beta_, np.concatenate(beta))
    assert not est.fallback_ and est.n_representatives_ < 1500
    reps = est.representative_indices_
    svc = SVC(C=3.0, gamma=est._gamma).fit(X[reps], y[reps], sample_weight=est.beta_)
    np.testing.assert_allclose(est.decision_function(X), svc.decision_function(X), atol=1e-6)
    np.testing.assert_array_equal(np.sort(est.support_), np.sort(reps[svc.support_]))


def test_large_union_is_derived_once_more(monkeypatch):
    """A union of at least MERGE_MIN_REPRESENTATIVES rows gets a second, weighted DeriveRS."""
    monkeypatch.setattr(aesvm._dask, "MERGE_MIN_REPRESENTATIVES", 0)
    X, y = moons(3000, seed=4)
    X_test, y_test = moons(3000, seed=5)
    w = np.random.default_rng(3).uniform(0.5, 2.0, size=y.size)
    params = {**PAPER, **SMALL, "random_state": 7}
    est = AESVC(**params).fit(chunked(X, 500), chunked(y, 500), sample_weight=chunked(w, 500))
    first = []
    for start in range(0, 3000, 500):
        rows = slice(start, start + 500)
        rs = derive_rs(
            X[rows], y[rows], gamma=est._gamma, tol=1e-3, sample_weight=w[rows],
            random_state=7, **SMALL,
        )  # fmt: skip
        first.append((start + rs.indices, rs.beta))
    union = np.concatenate([r for r, _ in first])
    second = derive_rs(
        X[union], y[union], gamma=est._gamma, tol=1e-3,
        sample_weight=np.concatenate([b for _, b in first]), random_state=7, **SMALL,
    )  # fmt: skip
    np.testing.assert_array_equal(est.representative_indices_, union[second.indices])
    np.testing.assert_allclose(est.beta_, second.beta, rtol=1e-12)
    assert second.indices.size < union.size  # the second level did reduce
    assert est.beta_.sum() == pytest.approx(w.sum(), rel=1e-9)  # weights are conserved
    svc = SVC(gamma=est._gamma).fit(X, y, sample_weight=w)
    assert est.score(X_test, y_test) >= svc.score(X_test, y_test) - 0.01


def test_chunk_not_reducible_keeps_its_rows(monkeypatch):
    """A chunk stopped by the fallback probe contributes every row, with its weight."""
    monkeypatch.setattr(aesvm._classes, "MIN_REDUCE_SAMPLES", 0)
    rng = np.random.default_rng(0)
    y = np.tile([0, 1], 300)
    tight = np.where(y[:300, None] == 0, 0.0, 5.0) + 1e-3 * rng.normal(size=(300, 6))
    X = np.vstack([tight, rng.normal(size=(300, 6))])
    params = {**PAPER, **SMALL, "gamma": 5.0, "fallback_fraction": 0.5, "n_jobs": 1}
    est = AESVC(**params).fit(chunked(X, 300), y)
    first = derive_rs(X[:300], y[:300], gamma=5.0, tol=1e-3, **SMALL)
    expected = np.concatenate([first.indices, np.arange(300, 600)])
    np.testing.assert_array_equal(est.representative_indices_, expected)
    np.testing.assert_array_equal(est.beta_[first.indices.size :], 1.0)
    assert not est.fallback_
    both = AESVC(**params).fit(chunked(X[300:], 150), y[300:])
    assert both.fallback_ and both.n_representatives_ == 300


@pytest.mark.parametrize("shape", ["ovr", "ovo"])
def test_predictions_on_dask_stay_lazy(shape):
    X, y = three_classes()
    est = AESVC(**PAPER, **SMALL, decision_function_shape=shape).fit(chunked(X, 300), y)
    X_new = chunked(X, 250)
    labels = est.predict(X_new)
    assert is_dask_collection(labels) and labels.dtype == est.classes_.dtype
    np.testing.assert_array_equal(labels.compute(), est.predict(X))
    scores = est.decision_function(X_new)
    assert is_dask_collection(scores) and scores.shape == (900, 3)
    # Decision values agree to rounding: the kernel products' blocks follow the chunks.
    np.testing.assert_allclose(scores.compute(), est.decision_function(X), rtol=1e-12)
    binary = AESVC(**PAPER, **SMALL).fit(*moons(600))
    scores = binary.decision_function(X_new)
    assert scores.shape == (900,)
    np.testing.assert_allclose(scores.compute(), binary.decision_function(X), rtol=1e-12)


def test_bad_input():
    X, y = moons(300)
    est = AESVC(**PAPER, **SMALL)
    bad = X.copy()
    bad[5, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        est.fit(chunked(bad, 100), y)
    with pytest.raises(ValueError, match="entries"):
        est.fit(chunked(X, 100), y[:-1])
    with pytest.raises(ValueError, match="2-D"):
        est.fit(chunked(X[:, :, None], 100), y)
    with pytest.raises(ValueError, match="2 classes"):
        est.fit(chunked(X, 100), np.zeros(300))
    with pytest.raises(ValueError, match="positive sample_weight"):
        est.fit(chunked(X, 100), y, sample_weight=(y == 1).astype(float))
    with pytest.raises(ValueError, match="requires y"):
        est.fit(chunked(X, 100), None)
    import dask

    with pytest.raises(TypeError, match="dask.array.Array"):
        est.fit(dask.delayed(X), y)
    with pytest.raises(NotFittedError):
        est.predict(chunked(X, 100))
    est.fit(chunked(X, 100), y)
    with pytest.raises(ValueError, match="features"):
        est.predict(chunked(X[:, :1], 100))


def test_fitted_model_is_numpy_and_picklable():
    X, y = moons(600)
    est = AESVC(**PAPER, **SMALL).fit(chunked(X, 200), chunked(y, 200))
    assert not any(is_dask_collection(v) for v in vars(est).values())
    again = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(again.predict(X), est.predict(X))
    assert again.score(X, y) > 0.9


def test_distributed_cluster_matches_local_scheduler():
    import distributed

    X, y = moons(900)
    est = AESVC(**PAPER, **SMALL, random_state=0)
    local = est.fit(chunked(X, 300), y)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        remote = AESVC(**PAPER, **SMALL, random_state=0).fit(chunked(X, 300), chunked(y, 300))
        predicted = remote.predict(chunked(X, 300)).compute()
    assert_same_model(local, remote)
    np.testing.assert_array_equal(predicted, local.predict(X))


def test_numpy_fit_imports_no_dask():
    code = (
        "import sys, numpy as np; from aesvm import AESVC; "
        "X = np.random.default_rng(0).normal(size=(60, 2)); y = (X[:, 0] > 0).astype(int); "
        "AESVC().fit(X, y).predict(X); assert 'dask' not in sys.modules, 'dask imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


#: The modules whose functions AESVC's Dask fit sends to the workers as tasks (and the
#: packages above them, which Python imports first).
TASK_MODULES = ("aesvm._chunks", "svmcore.chunked", "svmcore.kernels")


def test_task_modules_do_not_import_scikit_learn():
    """A worker unpickling a task imports the task's module: scikit-learn (and pandas,
    about 68 MB per worker) must not come with it (issue 18)."""
    assert modules_imported_by(TASK_MODULES) == []


def test_workers_do_not_import_scikit_learn():
    """After AESVC's Dask fits (DeriveRS per chunk, gamma="scale" and epsilon="auto"
    passes) the workers have run its tasks but imported no scikit-learn: no task, nor
    anything pickled with one, comes from a module that imports it."""
    import distributed

    X, y = moons(900)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        AESVC(**PAPER, **SMALL, random_state=0).fit(chunked(X, 300), chunked(y, 300))
        poly = {**PAPER, "epsilon": "auto", "kernel": "poly"}
        AESVC(**poly, **SMALL, random_state=0).fit(chunked(X, 300), chunked(y, 300))
        imported = worker_modules(client, ("aesvm", "sklearn"))
    assert len(imported) == 2
    for mods in imported.values():
        assert "aesvm._chunks" in mods
        assert not [m for m in mods if m.startswith("sklearn")], mods
