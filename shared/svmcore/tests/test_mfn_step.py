"""svmcore.linalg.mfn_step against the Python composition it replaces, bit for bit, and
against Table 1's definitions (active set, optimality conditions, descent)."""

import numpy as np
import pytest
import scipy.sparse as sp

from svmcore.linalg import (
    cgls,
    line_search,
    mfn_step,
    mfn_step_is_serial,
    squared_hinge_value,
)


def _numpy_objective(w, o, y, cost, lam):
    margin = np.maximum(0.0, 1.0 - y * o)
    return 0.5 * float(np.sum(lam * w * w)) + 0.5 * float(np.sum(cost * margin * margin))


def _python_step(X, y, cost, lam, w, o, intercept, epsilon, cap, check):
    """Table 1's iteration as l2svm_mfn wrote it in Python over cgls and line_search."""
    positive = cost > 0
    active = positive & (y * o < 1.0)
    rows = np.flatnonzero(active)
    res = cgls(X, y, cost, lam, w, rows=rows, intercept=intercept, epsilon=epsilon,
               max_iter=cap, outputs0=o, check_input=False)  # fmt: skip
    margins = y * res.outputs
    optimal = bool(
        res.converged
        and np.all(margins[rows] <= 1.0 + check)
        and np.all(margins[positive & ~active] >= 1.0 - check)
    )
    if optimal:  # the objective at the Newton point
        value = _numpy_objective(res.beta, res.outputs, y, cost, lam)
        return res, rows.size, True, 0.0, w, o, value
    delta = line_search(w, res.beta, lam, o, res.outputs, y, cost, check_input=False)
    w_new = w + delta * (res.beta - w)
    o_new = o + delta * (res.outputs - o)
    value = _numpy_objective(w_new, o_new, y, cost, lam)
    return res, rows.size, False, delta, w_new, o_new, value


def _problem(seed, sparse, dtype, intercept, vector_lam, n=300, d=25):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=0.3, random_state=rng, format="csr", dtype=np.float64)
    X.data = rng.standard_normal(X.nnz)
    X = X.astype(dtype)
    if not sparse:
        X = np.ascontiguousarray(X.toarray())
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    cost = rng.uniform(0.1, 3.0, n)
    cost[::7] = 0.0  # zero-cost rows never enter the active set
    dim = d + intercept
    lam = rng.uniform(0.05, 1.0, dim) if vector_lam else 0.4
    if vector_lam and intercept:
        lam[-1] = 0.0  # an unregularized bias
    return X, y, cost, lam, rng


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("intercept", [False, True])
@pytest.mark.parametrize("vector_lam", [False, True])
def test_mfn_step_is_the_python_iteration_bit_for_bit(sparse, dtype, intercept, vector_lam):
    X, y, cost, lam, rng = _problem(1, sparse, dtype, intercept, vector_lam)
    dim = X.shape[1] + intercept
    # Table 1's path from zero: loose first stage, then tight, up to optimality
    w, o = np.zeros(dim), np.zeros(X.shape[0])
    saw_step = saw_optimal = False
    for epsilon, cap, check in [(1e-2, 10, 1e-2)] + [(1e-8, 10000, 1e-8)] * 12:
        got = mfn_step(X, y, cost, lam, w, o, intercept=intercept, epsilon=epsilon,
                       cg_max_iter=cap, check=check)  # fmt: skip
        res, n_active, optimal, delta, w_new, o_new, value = _python_step(
            X, y, cost, lam, w, o, intercept, epsilon, cap, check
        )
        assert got.w_bar.tobytes() == res.beta.tobytes()
        assert got.outputs_bar.tobytes() == res.outputs.tobytes()
        assert (got.n_cg_iter, got.cg_converged) == (res.n_iter, res.converged)
        assert (got.n_active, got.optimal) == (n_active, optimal)
        assert np.float64(got.delta).tobytes() == np.float64(delta).tobytes()
        assert got.w.tobytes() == np.asarray(w_new).tobytes()
        assert got.outputs.tobytes() == np.asarray(o_new).tobytes()
        assert np.float64(got.objective).tobytes() == np.float64(value).tobytes()
        if optimal:
            saw_optimal = True
            break
        saw_step = True
        assert got.objective <= _numpy_objective(w, o, y, cost, lam)  # a descent step
        w, o = got.w, got.outputs
    assert saw_step and saw_optimal


@pytest.mark.parametrize("sparse", [False, True])
def test_mfn_step_seeded_at_the_optimum_is_optimal_without_moving(sparse):
    X, y, cost, lam, rng = _problem(2, sparse, np.float64, True, False)
    w, o = np.zeros(X.shape[1] + 1), np.zeros(X.shape[0])
    for _ in range(30):
        step = mfn_step(X, y, cost, lam, w, o, intercept=True, epsilon=1e-10,
                        cg_max_iter=10000, check=1e-8)  # fmt: skip
        if step.optimal:
            break
        w, o = step.w, step.outputs
    assert step.optimal and step.delta == 0.0
    # the conditions it certified, checked here from their definition
    margins = y * step.outputs_bar
    active = (cost > 0) & (y * o < 1.0)
    assert np.all(margins[active] <= 1.0 + 1e-8)
    assert np.all(margins[(cost > 0) & ~active] >= 1.0 - 1e-8)
    np.testing.assert_array_equal(step.w, w)  # no step taken


@pytest.mark.parametrize("vector_lam", [False, True])
def test_squared_hinge_value_is_numpy_bit_for_bit(vector_lam):
    rng = np.random.default_rng(5)
    for n in (1, 7, 129, 5000):
        w = rng.standard_normal(12)
        o, y = rng.standard_normal(n) * 2, np.where(rng.random(n) < 0.5, -1.0, 1.0)
        cost = rng.uniform(0.0, 2.0, n)
        lam = rng.uniform(0.0, 1.0, 12) if vector_lam else 0.7
        got = np.float64(squared_hinge_value(w, o, y, cost, lam))
        assert got.tobytes() == np.float64(_numpy_objective(w, o, y, cost, lam)).tobytes()


def test_mfn_step_is_serial_follows_the_products_threshold():
    from svmcore import numba_threads
    from svmcore.linalg._products import PARALLEL_MIN_WORK

    small = np.zeros((10, 10))
    large = np.zeros((PARALLEL_MIN_WORK // 10, 10))
    assert mfn_step_is_serial(small)
    with numba_threads(1):
        assert mfn_step_is_serial(large)
    if __import__("numba").config.NUMBA_NUM_THREADS > 1:
        with numba_threads(2):
            assert not mfn_step_is_serial(large)
    assert mfn_step_is_serial(sp.csr_matrix(large))  # no stored entries


# What a dense step compiles, in a fresh process with an empty Numba cache (the tests above
# compile the CSR variant too, and kernels loaded from the cache bring no callee): no CSR
# kernel, and one specialization of the kernels called with a constant or a counter (a
# Literal[int] variant was a second full compilation; see numba_config).
COMPILED = """
import numpy as np
from svmcore.linalg import _line_search, _mfn_step, _products, mfn_step
rng = np.random.default_rng(0)
X = rng.standard_normal((300, 5))
y = np.where(X[:, 0] + rng.standard_normal(300) > 0, 1.0, -1.0)
step = mfn_step(X, y, np.ones(300), 1.0, np.zeros(6), np.zeros(300), intercept=True,
                epsilon=1e-8, cg_max_iter=100, check=1e-8)
kernels = (_mfn_step._step_csr, _products._csr_matvec_range, _products._csr_rmatvec_range,
           _mfn_step._step_dense, _products._dense_rmatvec_range, _products._pairwise_block,
           _line_search._sift_down)
print(*(len(k.signatures) for k in kernels))
"""


def test_a_dense_step_compiles_no_csr_kernel_and_no_literal_variant(tmp_path):
    import os
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", COMPILED], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "0", "0", "1", "1", "1", "1"]
