"""LPSVR on Dask arrays: the same LP optimum as in memory, lazy predictions, bad input."""

import pickle
import subprocess
import sys
from functools import partial

import dask.array as da
import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

import lpsvr._dask
from lpsvr import LPSVR
from svmcore.chunked import is_dask_collection
from svmcore.datasets import make_noisy_sinc
from svmcore.testing import modules_imported_by, worker_modules

#: The LP objectives agree far inside HiGHS's tolerances (1e-7): the iterates are the
#: same; only sums over chunks are added in another order, and gamma="scale" comes
#: from a merge of the chunks' variances (equal to round-off).
RTOL = 1e-9


def chunked(a, rows):
    return da.from_array(a, chunks=(rows,) + a.shape[1:])


def friedman_like(n, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, 3))
    y = np.sin(2 * X[:, 0]) + X[:, 1] ** 2 - 0.5 * X[:, 2] + 0.1 * rng.standard_normal(n)
    return X, y


def assert_same_optimum(memory, dask):
    assert dask.objective_ == pytest.approx(memory.objective_, rel=RTOL)
    for name in ("support_", "saturated_support_", "exact_support_"):
        np.testing.assert_array_equal(getattr(dask, name), getattr(memory, name), err_msg=name)
    np.testing.assert_allclose(dask.dual_coef_, memory.dual_coef_, rtol=1e-6, atol=1e-9)
    np.testing.assert_array_equal(dask.support_vectors_, memory.support_vectors_)
    assert dask.converged_ and memory.converged_
    assert max(dask.kkt_residuals_["dual"], dask.kkt_residuals_["complementarity"]) < 1e-6


@pytest.mark.parametrize(
    "params, n, rows",
    [
        ({"random_state": 0}, 2500, 700),  # default row_column, gamma="scale", a subsample level
        ({"random_state": 0, "decomposition": "variables", "epsilon": 0.3, "C": 5.0}, 500, 128),
        ({"random_state": 0, "decomposition": "full", "epsilon": 0.3, "C": 5.0}, 300, 100),
    ],
)
def test_same_lp_optimum_as_in_memory(params, n, rows):
    X, y = make_noisy_sinc(n, noise=0.1, random_state=1) if n > 1000 else friedman_like(n)
    memory = LPSVR(**params).fit(X, y)
    dask = LPSVR(**params).fit(chunked(X, rows), chunked(y, rows))
    assert_same_optimum(memory, dask)


@pytest.mark.parametrize("interior", ["auto", False])
def test_weights_and_subsample_levels_on_the_chunks(monkeypatch, interior):
    """Zero weights (dropped as in memory), float32 X, NumPy weights and Dask subsample levels.

    With ``interior="auto"`` (the default) the 2,133 samples take the interior-point
    start from random columns, with no subsample level (one of 533 samples would be the
    simplex's alone); with ``interior=False`` (simplex rounds only) the 533-sample level
    runs on the chunks first.
    """
    import lpsvr._row_column as row_column
    import lpsvr._variable_decomposition as variable_decomposition

    fit = partial(row_column.fit_row_column, interior=interior)
    monkeypatch.setattr(variable_decomposition, "fit_row_column", fit)
    monkeypatch.setattr(lpsvr._dask, "_LOCAL_ENTRIES", 0)  # keep every level on Dask
    X, y = friedman_like(2400)  # 2,133 samples of nonzero weight
    w = np.random.default_rng(2).uniform(0.0, 2.0, size=y.size)
    w[::9] = 0.0
    params = {"random_state": 0, "C": 5.0, "gamma": 0.5}
    memory = LPSVR(**params).fit(X.astype(np.float32), y, sample_weight=w)
    dask = LPSVR(**params).fit(chunked(X.astype(np.float32), 500), chunked(y, 500), w)
    assert_same_optimum(memory, dask)
    # numeric gamma: the same LP; with d > 1 the interior-point start prices with sums
    # over chunks (another order of additions), so equal to round-off, not bit for bit
    np.testing.assert_allclose(dask.dual_coef_, memory.dual_coef_, rtol=1e-9, atol=1e-12)
    levels = [h["n_samples"] for h in dask.history_]
    expected = {2133} if interior == "auto" else {533, 2133}
    assert levels == [h["n_samples"] for h in memory.history_] and set(levels) == expected


def test_interior_rounds_fold_rows_on_the_chunks(monkeypatch):
    """Rows folded in the interior rounds (folded from the first round here): their kept
    share of ``K beta`` is summed block by block on the chunks, and the fit reaches the
    in-memory optimum (itself tested against one HiGHS solve of the full LP)."""
    import lpsvr._interior_start as interior_start
    import lpsvr._row_column as row_column

    passes = []
    sums = interior_start._Folded.sums

    def spy(self):
        passes.append(self.samples.size)
        return sums(self)

    monkeypatch.setattr(interior_start._Folded, "sums", spy)
    options = dict(fold=0.0, fold_after=1.0, fold_share=0.0, fold_early_rows=0)
    monkeypatch.setattr(row_column, "interior_sets", partial(row_column.interior_sets, **options))
    monkeypatch.setattr(lpsvr._dask, "_LOCAL_ENTRIES", 0)  # keep every level on Dask
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, size=(2400, 3))
    y = np.sin(2 * X[:, 0]) + X[:, 1] ** 2 - 0.5 * X[:, 2] + 0.8 * rng.standard_normal(2400)
    params = {"random_state": 0, "gamma": 0.5}
    memory = LPSVR(**params).fit(X, y)
    n_memory = len(passes)
    dask = LPSVR(**params).fit(chunked(X, 500), chunked(y, 500))
    assert n_memory > 0 and len(passes) > n_memory and max(passes) > 500
    assert_same_optimum(memory, dask)


def test_predict_on_dask_is_lazy_and_equal():
    X, y = make_noisy_sinc(600, noise=0.1, random_state=0)
    reg = LPSVR(random_state=0).fit(chunked(X, 200), chunked(y, 200))
    predicted = reg.predict(chunked(X, 150))
    assert isinstance(predicted, da.Array) and predicted.chunks == ((150,) * 4,)
    np.testing.assert_array_equal(predicted.compute(), reg.predict(X))
    assert reg.score(X, y) > 0.8


def test_bad_input_names_the_parameter():
    X, y = make_noisy_sinc(200, noise=0.1, random_state=0)
    reg = LPSVR()
    bad = X.copy()
    bad[3, 0] = np.inf
    with pytest.raises(ValueError, match="X contains NaN"):
        reg.fit(chunked(bad, 50), y)
    with pytest.raises(ValueError, match="y must be 1-D with 200 entries"):
        reg.fit(chunked(X, 50), y[:-1])
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        reg.fit(chunked(X, 50), y, sample_weight=-np.ones(200))
    with pytest.raises(ValueError, match="Sample weights must contain"):
        reg.fit(chunked(X, 50), y, sample_weight=np.zeros(200))
    with pytest.raises(ValueError, match="requires y"):
        reg.fit(chunked(X, 50), None)
    with pytest.raises(ValueError, match="y must be numeric"):
        reg.fit(chunked(X, 50), chunked(np.array(["a"] * 200), 50))
    with pytest.raises(ValueError, match="y has entries of magnitude"):
        reg.fit(chunked(X, 50), y * 1e30)
    with pytest.raises(ValueError, match="decomposition='none'"):
        LPSVR(decomposition="none").fit(chunked(X, 50), y)
    with pytest.raises(ValueError, match="'C' parameter"):
        LPSVR(C=-1).fit(chunked(X, 50), y)  # parameters are validated first, as in memory
    import dask

    with pytest.raises(TypeError, match="dask.array.Array"):
        reg.fit(dask.delayed(X), y)
    with pytest.raises(NotFittedError):
        reg.predict(chunked(X, 50))
    reg.fit(chunked(X, 50), y)
    with pytest.raises(ValueError, match="2 features"):
        reg.predict(chunked(np.hstack([X, X]), 50))


def test_fitted_model_is_numpy_and_picklable():
    X, y = make_noisy_sinc(500, noise=0.1, random_state=0)
    reg = LPSVR(random_state=0).fit(chunked(X, 125), chunked(y, 125))
    assert not any(is_dask_collection(v) for v in vars(reg).values())
    assert isinstance(reg.support_vectors_, np.ndarray) and reg.n_features_in_ == 1
    again = pickle.loads(pickle.dumps(reg))
    np.testing.assert_array_equal(again.predict(X), reg.predict(X))


def test_distributed_cluster_matches_local_scheduler():
    import distributed

    X, y = make_noisy_sinc(1500, noise=0.1, random_state=3)
    local = LPSVR(random_state=0).fit(chunked(X, 500), chunked(y, 500))
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        remote = LPSVR(random_state=0).fit(chunked(X, 500), chunked(y, 500))
        predicted = remote.predict(chunked(X, 500)).compute()
    assert remote.objective_ == local.objective_
    np.testing.assert_array_equal(remote.dual_coef_, local.dual_coef_)
    np.testing.assert_array_equal(predicted, local.predict(X))


def test_numpy_fit_imports_no_dask():
    code = (
        "import sys, numpy as np; from lpsvr import LPSVR; "
        "X = np.random.default_rng(0).normal(size=(60, 2)); y = X[:, 0]; "
        "LPSVR().fit(X, y).predict(X); assert 'dask' not in sys.modules, 'dask imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


#: The modules whose functions LPSVR's Dask fits send to the workers as tasks (and the
#: packages above them, which Python imports first).
TASK_MODULES = (
    "lpsvr._dask",
    "lpsvr._interior_start",
    "lpsvr._passes",
    "lpsvr._result",
    "lpsvr._samples",
    "svmcore.chunked",
    "svmcore.kernels",
)


def test_task_modules_do_not_import_scikit_learn():
    """A worker unpickling a task imports the task's module: scikit-learn (and pandas,
    about 68 MB per worker) must not come with it (issue 18)."""
    assert modules_imported_by(TASK_MODULES) == []


@pytest.mark.parametrize("decomposition", ["row_column", "variables"])
def test_workers_do_not_import_scikit_learn(decomposition):
    """After an LPSVR Dask fit the workers have run its passes but imported no
    scikit-learn: no task, nor anything pickled with one, comes from a module that
    imports it."""
    import distributed

    X, y = make_noisy_sinc(1500, noise=0.1, random_state=3)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        LPSVR(decomposition=decomposition, random_state=0).fit(chunked(X, 500), chunked(y, 500))
        imported = worker_modules(client, ("lpsvr", "sklearn"))
    assert len(imported) == 2
    for mods in imported.values():
        assert "lpsvr._dask" in mods
        assert not [m for m in mods if m.startswith("sklearn")], mods
