"""AIDLADRegressor and AIDSVC on Dask arrays: the in-memory run, computed where chunks live.

Issue 18's contract: identical AID iterates and certificate for the same random_state
(objectives equal to 1e-9 relative; only the order of floating-point sums differs) and
plain NumPy fitted attributes. A worker killed mid-fit: integration_tests/test_dask_faults.py.
"""

import pickle

import dask.array as da
import distributed
import numpy as np
import pytest
import scipy.sparse as sp

import aid_models._svc_chunked
from aid_models import AIDSVC, AIDLADRegressor
from svmcore.testing import modules_imported_by, worker_modules

RTOL = 1e-9
COLUMNS = ("n_clusters", "F", "E", "lower_bound", "n_split")


def _lad_data(n=6000, m=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, m))
    y = X @ np.arange(1.0, m + 1) + rng.laplace(size=n)
    return X, y


def _svc_data(n=6000, m=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, m))
    y = np.where(X @ rng.normal(size=m) + 0.5 * rng.normal(size=n) > 0, "yes", "no")
    return X, y


def assert_same_certified_optimum(a, b):
    """solver="dcd" stops each aggregated solve at its own certified gap, so a last-bit
    change of the aggregated data (sums in another order) changes the path; both runs
    still certify E within gap_tol of E^*, hence of each other."""
    assert {a.stop_reason_, b.stop_reason_} <= {"gap", "optimal"}
    tol = a.gap_tol * max(a.objective_, b.objective_)
    assert abs(a.objective_ - b.objective_) <= tol
    assert b.lower_bound_ <= a.objective_ + 1e-9 * a.objective_
    assert a.lower_bound_ <= b.objective_ + 1e-9 * b.objective_


def assert_same_run(a, b):
    assert (a.n_iter_, a.stop_reason_, a.n_clusters_) == (b.n_iter_, b.stop_reason_, b.n_clusters_)
    for column in COLUMNS:
        np.testing.assert_allclose(a.history_.column(column), b.history_.column(column), rtol=RTOL)
    np.testing.assert_allclose(a.objective_, b.objective_, rtol=RTOL)
    np.testing.assert_allclose(a.lower_bound_, b.lower_bound_, rtol=RTOL)
    np.testing.assert_allclose(a.optimality_gap_, b.optimality_gap_, rtol=RTOL, atol=1e-15)


@pytest.mark.parametrize("weighted", [False, True])
def test_lad_dask_same_iterates_and_certificate(weighted):
    X, y = _lad_data()
    w = None
    if weighted:
        w = np.random.default_rng(1).random(X.shape[0]) * 2
        w[::7] = 0.0  # dropped on both paths
    est = AIDLADRegressor(random_state=3, gap_tol=0.0)
    a = est.fit(X, y, sample_weight=w)
    coef, objective = a.coef_.copy(), a.objective_
    dX = da.from_array(X, chunks=(1300, 2))
    dw = None if w is None else da.from_array(w, chunks=1000)
    b = AIDLADRegressor(random_state=3, gap_tol=0.0).fit(dX, da.from_array(y, chunks=900), dw)
    assert_same_run(a, b)
    assert b.stop_reason_ == "optimal"
    np.testing.assert_allclose(b.coef_, coef, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(b.objective_, objective, rtol=RTOL)
    assert isinstance(b.coef_, np.ndarray) and b.n_features_in_ == X.shape[1]


def test_lad_dask_sparse_chunks():
    X, y = _lad_data(3000, 6)
    X[np.abs(X) < 0.8] = 0.0
    Xs = sp.csr_matrix(X)
    a = AIDLADRegressor(random_state=0).fit(Xs, y)
    dX = da.from_array(Xs, chunks=(700, 6), asarray=False)
    b = AIDLADRegressor(random_state=0).fit(dX, y)
    assert_same_run(a, b)


@pytest.mark.parametrize("solver", ["newton", "dcd"])
def test_svc_dask_same_iterates_and_certificate(solver):
    # "newton": what solver="auto" runs on Dask data (and on in-memory data beyond
    # DIRECT_MAX_SAMPLES; below it "auto" solves in memory without aggregating)
    X, y = _svc_data()
    a = AIDSVC(random_state=2, solver=solver).fit(X, y)
    b = AIDSVC(random_state=2, solver=solver).fit(da.from_array(X, chunks=(1500, 5)), y)
    if solver == "dcd":
        assert_same_certified_optimum(a, b)
        return
    assert_same_run(a, b)
    np.testing.assert_array_equal(a.classes_, b.classes_)
    np.testing.assert_allclose(b.coef_, a.coef_, rtol=1e-7, atol=1e-9)
    np.testing.assert_array_equal(a.support_, b.support_)
    np.testing.assert_allclose(b.dual_objective_, a.dual_objective_, rtol=RTOL)


def test_svc_dask_sparse_and_weights_with_zeros():
    X, y = _svc_data(4000, 8, seed=5)
    X[np.abs(X) < 0.5] = 0.0
    w = np.random.default_rng(0).random(X.shape[0])
    w[::5] = 0.0
    Xs = sp.csr_matrix(X)
    a = AIDSVC(random_state=0, solver="dcd").fit(Xs, y, sample_weight=w)
    dX = da.from_array(Xs, chunks=(900, 8), asarray=False)
    b = AIDSVC(random_state=0, solver="dcd").fit(dX, y, sample_weight=w)
    assert_same_certified_optimum(a, b)


def test_dcd_full_becomes_aid_dcd_on_dask():
    X, y = _svc_data(3000, 80, seed=1)  # > NEWTON_MAX_FEATURES: "auto" picks dcd-full
    b = AIDSVC(random_state=0).fit(da.from_array(X, chunks=(1000, 80)), y)
    assert b.solver_ == "dcd"
    ref = AIDSVC(random_state=0, solver="dcd").fit(X, y)
    assert_same_certified_optimum(ref, b)


def test_predictions_on_dask_are_lazy_and_equal():
    X, y = _svc_data(2000)
    svc = AIDSVC(random_state=0).fit(X, y)
    dX = da.from_array(X, chunks=(600, 5))
    for method in ("predict", "decision_function"):
        lazy = getattr(svc, method)(dX)
        assert isinstance(lazy, da.Array)
        np.testing.assert_array_equal(lazy.compute(), getattr(svc, method)(X))
    Xl, yl = _lad_data(2000)
    lad = AIDLADRegressor(random_state=0).fit(Xl, yl)
    lazy = lad.predict(da.from_array(Xl, chunks=(500, 4)))
    assert isinstance(lazy, da.Array)
    np.testing.assert_allclose(lazy.compute(), lad.predict(Xl), rtol=1e-14)
    # "auto" on Dask runs AID with "newton"; in memory it solves these 2,000 rows directly
    # (newton-full), another certified answer (1e-4), so the in-memory reference runs
    # AID's path too (as integration_tests/test_dask_faults does).
    fitted = pickle.loads(pickle.dumps(AIDSVC(random_state=0).fit(dX, y)))
    assert fitted.solver_ == "newton"
    ref = AIDSVC(random_state=0, solver="newton").fit(X, y)
    np.testing.assert_array_equal(fitted.predict(X), ref.predict(X))


def test_bad_dask_input_is_reported():
    X, y = _svc_data(200)
    dX = da.from_array(X, chunks=(50, 5))
    with pytest.raises(ValueError, match="kernel='linear' only"):
        AIDSVC(kernel="rbf").fit(dX, y)
    with pytest.raises(ValueError, match="exactly 2 classes"):
        AIDSVC().fit(dX, np.zeros(200))
    with pytest.raises(ValueError, match="binary"):
        AIDSVC().fit(dX, np.arange(200) % 3)
    with pytest.raises(ValueError, match="y has 199 entries"):
        AIDLADRegressor().fit(dX, da.ones(199))
    bad = da.from_array(np.where(X > 2, np.inf, X), chunks=(50, 5))
    with pytest.raises(ValueError, match="NaN or infinity"):
        AIDLADRegressor().fit(bad, np.ones(200))


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as c:
        yield c


def test_fit_on_a_distributed_cluster(cluster):
    X, y = _lad_data(4000)
    ref = AIDLADRegressor(random_state=1).fit(X, y)
    with distributed.Client(cluster):
        est = AIDLADRegressor(random_state=1).fit(da.from_array(X, chunks=(1000, 4)), y)
    assert_same_run(ref, est)


@pytest.mark.parametrize("sampled", [False, True])
def test_svc_labels_stay_on_the_workers_and_equal_the_in_memory_partitions(monkeypatch, sampled):
    """Every partition of the Dask run is a ChunkedClusters (labels kept as a Dask array)
    with the in-memory run's labels, the initial clustering's included; also when its
    centres are quantiles of a sample of the scores (above 100,000 rows; here 600)."""
    from svmcore.clustering import ChunkedClusters

    if sampled:
        monkeypatch.setattr(aid_models._svc_chunked, "SCORE_SAMPLE_MIN", 600)
        assert aid_models._svc_chunked.score_sample_size(5000, 5) == 600
    X, y = _svc_data(5000, 4, seed=3)
    seen = {"memory": [], "dask": []}

    def keep(name):
        return lambda record: seen[name].append(record["clusters"]) and None

    AIDSVC(random_state=1, callback=keep("memory")).fit(X, y)
    AIDSVC(random_state=1, callback=keep("dask")).fit(da.from_array(X, chunks=(1200, 4)), y)
    assert len(seen["dask"]) == len(seen["memory"]) >= 3
    for a, b in zip(seen["memory"], seen["dask"], strict=True):
        assert isinstance(b, ChunkedClusters) and not isinstance(a, ChunkedClusters)
        np.testing.assert_array_equal(b.labels, a.labels)
        np.testing.assert_array_equal(b.sizes, a.sizes)


def test_svc_class_missing_from_the_score_sample(monkeypatch):
    """A class with no row in the score sample (2 positives in 5,000 rows, 600 sampled)
    takes its centres from all its scores: the same partitions in memory and on Dask,
    where only that class's scores come to the caller."""
    monkeypatch.setattr(aid_models._svc_chunked, "SCORE_SAMPLE_MIN", 600)
    every = []
    real = aid_models._svc_chunked._every_score

    def spy(data, coef, intercept, cls):
        every.append(out := real(data, coef, intercept, cls))
        return out

    monkeypatch.setattr(aid_models._svc_chunked, "_every_score", spy)
    X, _ = _svc_data(5000, 4, seed=3)
    y = np.zeros(5000, dtype=int)
    y[[17, 4242]] = 1
    X[[17, 4242]] += 3.0
    seen = {"memory": [], "dask": []}

    def keep(name):
        return lambda record: seen[name].append(record["clusters"]) and None

    AIDSVC(random_state=1, callback=keep("memory")).fit(X, y)
    AIDSVC(random_state=1, callback=keep("dask")).fit(da.from_array(X, chunks=(1200, 4)), y)
    assert [e.size for e in every] == [2]
    for a, b in zip(seen["memory"], seen["dask"], strict=True):
        np.testing.assert_array_equal(b.labels, a.labels)


@pytest.mark.parametrize("lp_method", ["auto", "warm"])
def test_lad_labels_stay_on_the_workers_and_equal_the_in_memory_partitions(lp_method):
    """AIDLADRegressor's counterpart: every partition of the Dask run, the initial
    clustering's included, is a ChunkedClusters with the in-memory run's labels; "warm"
    maps each LP basis to the split clusters through the partitions' lineage."""
    from svmcore.clustering import ChunkedClusters

    X, y = _lad_data(5000, 3, seed=4)
    seen = {"memory": [], "dask": []}

    def keep(name):
        return lambda record: seen[name].append(record["clusters"]) and None

    kw = {"random_state": 2, "gap_tol": 0.0, "lp_method": lp_method}
    a = AIDLADRegressor(callback=keep("memory"), **kw).fit(X, y)
    dX = da.from_array(X, chunks=(1100, 3))
    b = AIDLADRegressor(callback=keep("dask"), **kw).fit(dX, da.from_array(y, chunks=1100))
    assert_same_run(a, b)
    assert len(seen["dask"]) == len(seen["memory"]) >= 3
    for x, z in zip(seen["memory"], seen["dask"], strict=True):
        assert isinstance(z, ChunkedClusters) and not isinstance(x, ChunkedClusters)
        np.testing.assert_array_equal(z.labels, x.labels)
        np.testing.assert_array_equal(z.sizes, x.sizes)
    if lp_method == "warm":
        assert all("(warm)" in r["note"] for r in list(b.history_)[1:])


#: The modules whose functions AIDLADRegressor's and AIDSVC's Dask paths send to the
#: workers as tasks (and the packages above them, which Python imports first).
TASK_MODULES = (
    "aid_models._codes",
    "aid_models._lad_chunked",
    "aid_models._svc_chunked",
    "aid_models._svc_scale",
    "aid_core",
    "svmcore.chunked",
    "svmcore.clustering",
    "svmcore.kernels",
)


def test_task_modules_do_not_import_scikit_learn():
    """A worker unpickling a task imports the task's module: scikit-learn (and pandas,
    about 68 MB per worker) must not come with it (issue 18)."""
    assert modules_imported_by(TASK_MODULES) == []


def test_workers_do_not_import_scikit_learn(cluster):
    """After a Dask fit of each AID estimator the workers have run its tasks but not
    imported scikit-learn: no task, nor anything pickled with one, comes from a module
    that imports it."""
    X, y = _lad_data(3000)
    Xs, ys = _svc_data(3000, 4, seed=2)
    with distributed.Client(cluster) as client:
        AIDLADRegressor(random_state=0).fit(da.from_array(X, chunks=(1000, 4)), y)
        AIDSVC(random_state=0).fit(da.from_array(Xs, chunks=(1000, 4)), ys)
        imported = worker_modules(client, ("aid_models", "sklearn"))
    assert len(imported) == 2
    for mods in imported.values():
        assert {"aid_models._lad_chunked", "aid_models._svc_chunked"} <= set(mods)
        assert not [m for m in mods if m.startswith("sklearn")], mods
