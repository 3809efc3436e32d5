"""svmcore.linalg against independent references: numpy, scipy lsqr, dense solves, brute force."""

import numba
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.optimize import minimize_scalar
from scipy.sparse.linalg import lsqr

from svmcore import numba_threads
from svmcore.linalg import (
    RowProducts,
    cgls,
    jacobi_preconditioner,
    kth_smallest,
    kth_smallest_inplace,
    line_search,
    matvec_rows,
    rmatvec_rows,
    select,
)


def _data(n=60, d=15, density=0.3, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, random_state=rng, format="csr", dtype=np.float64)
    X.data = rng.standard_normal(X.nnz)
    X = X.astype(dtype)
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    cost = rng.uniform(0.1, 3.0, n)
    return X, y, cost, rng


def _augment(X, intercept):
    A = X.toarray().astype(np.float64)
    return np.hstack([A, np.ones((A.shape[0], 1))]) if intercept else A


def _normal_solution(A, y, cost, lam, rows):
    AJ, cJ = A[rows], cost[rows]
    lam_vec = np.broadcast_to(lam, (A.shape[1],))
    return np.linalg.solve(np.diag(lam_vec) + AJ.T @ (cJ[:, None] * AJ), AJ.T @ (cJ * y[rows]))


# --------------------------------------------------------------------------- products


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("intercept", [False, True])
@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.parametrize("size", ["small", "large"])
def test_products_match_numpy(sparse, dtype, intercept, n_jobs, size):
    # "large" exceeds PARALLEL_MIN_WORK, so the parallel kernels (per-thread buffers
    # and serial reduction) run; "small" takes the serial path.
    n, d = (60, 15) if size == "small" else (30000, 100)  # CSR: 675,000 stored entries
    X, _, _, rng = _data(n=n, d=d, dtype=dtype)
    A = _augment(X, intercept)
    rows = np.sort(rng.choice(n, 3 * n // 4, replace=False))
    ops = RowProducts(X if sparse else X.toarray(), intercept)
    assert ops._parallel(rows) == (size == "large" and numba.get_num_threads() > 1)
    v = rng.standard_normal(A.shape[1])
    u = rng.standard_normal(rows.size)
    Xin = X if sparse else X.toarray()
    with numba_threads(n_jobs):
        got_v = matvec_rows(Xin, v, rows, intercept=intercept)
        got_u = rmatvec_rows(Xin, u, rows, intercept=intercept)
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got_v, A[rows] @ v, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(got_u, A[rows].T @ u, rtol=rtol, atol=rtol)
    if sparse:  # CSR keeps the two products; the one-pass product is dense only
        with pytest.raises(TypeError, match="dense"):
            ops.fused(v, u, u, rows)
        return
    # CGLS's one-pass product: (X_J p, X_J^T z, X_J^T (c * X_J p)), bias column included.
    c = rng.random(rows.size)
    with numba_threads(n_jobs):
        fused_ops = RowProducts(Xin, intercept)
        q, xz, xcq = fused_ops.fused(v, u, c, rows)
        q2, xz2, xcq2 = fused_ops.fused(v, 2 * u, c, rows)  # buffers reset between calls
    AJ = A[rows]
    np.testing.assert_allclose(q, AJ @ v, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(xz, AJ.T @ u, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(xcq, AJ.T @ (c * (AJ @ v)), rtol=rtol, atol=rtol)
    np.testing.assert_allclose(xz2, 2 * xz, rtol=rtol, atol=rtol)
    np.testing.assert_array_equal(xcq2, xcq)


def test_products_go_parallel_at_the_threshold_and_both_sides_agree(monkeypatch):
    # PARALLEL_MIN_WORK stored entries and more run on the threads, fewer serially (the
    # threshold was raised for OpenMP's passive wait; g241c-like's 1,500 x 241 is serial).
    from svmcore.linalg import _products

    d = 250
    n = _products.PARALLEL_MIN_WORK // d
    rng = np.random.default_rng(3)
    X = rng.standard_normal((n + 10, d))
    assert not RowProducts(np.zeros((1500, 241)))._parallel(np.arange(1500))
    with numba_threads(2):
        ops = RowProducts(X, True)
        two = ops._buffers.shape[0] > 1  # one thread where Numba has one
        assert ops._parallel(np.arange(n)) == two
        assert not ops._parallel(np.arange(n - 1))
        # the same products on both sides of the threshold, to the rounding of the sums
        rows = np.arange(n)
        p, z, c = rng.standard_normal(d + 1), rng.standard_normal(n), rng.random(n)
        parallel = ops.fused(p, z, c, rows), ops.matvec(p, rows), ops.rmatvec(z, rows)
        monkeypatch.setattr(_products, "PARALLEL_MIN_WORK", n * d + 1)
        assert not ops._parallel(rows)
        serial = ops.fused(p, z, c, rows), ops.matvec(p, rows), ops.rmatvec(z, rows)
    for a, b in zip((*parallel[0], *parallel[1:]), (*serial[0], *serial[1:]), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12 * np.abs(b).max())


def test_csr_products_keep_their_own_threshold():
    # CSR products go parallel from PARALLEL_MIN_NNZ stored entries, below the dense
    # threshold (svmcore text's 393,000-entry products paid for the passive wake-up, the
    # dense g241c-like's did not): the same entry count is parallel as CSR, serial dense.
    from svmcore.linalg import _products
    from svmcore.linalg._mfn_step import mfn_step_is_serial

    n = _products.PARALLEL_MIN_NNZ // 4
    dense = np.random.default_rng(5).standard_normal((n, 4))  # 4 stored entries a row
    X = sp.csr_matrix(dense)
    assert X.nnz == 4 * n < _products.PARALLEL_MIN_WORK
    with numba_threads(2):
        ops = RowProducts(X)
        two = ops._buffers.shape[0] > 1  # one thread where Numba has one
        assert ops._parallel(np.arange(n)) == two
        assert not ops._parallel(np.arange(n - 1))
        assert not RowProducts(dense)._parallel(np.arange(n))
        assert mfn_step_is_serial(X) == (not two)
        assert mfn_step_is_serial(dense)


def test_products_keep_float32_matrix_without_copy():
    X, _, _, rng = _data(dtype=np.float32)
    assert X.dtype == np.float32
    out = matvec_rows(X, rng.standard_normal(X.shape[1]))
    assert out.dtype == np.float64 and out.shape == (X.shape[0],)


# --------------------------------------------------------------------------- CGLS


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("intercept", [False, True])
@pytest.mark.parametrize("subset", [False, True])
def test_cgls_matches_dense_normal_equations_and_lsqr(sparse, intercept, subset):
    X, y, cost, rng = _data()
    lam = 0.7
    rows = np.sort(rng.choice(X.shape[0], 40, replace=False)) if subset else None
    J = np.arange(X.shape[0]) if rows is None else rows
    A = _augment(X, intercept)
    res = cgls(
        X if sparse else X.toarray(), y, cost, lam, rows=rows, intercept=intercept, epsilon=1e-12
    )
    assert res.converged
    expected = _normal_solution(A, y, cost, lam, J)
    np.testing.assert_allclose(res.beta, expected, rtol=1e-8, atol=1e-10)
    # lsqr minimizes ||sqrt(C) (A beta - y)||^2 + damp^2 ||beta||^2: the same problem.
    sq = np.sqrt(cost[J])
    ref = lsqr(
        sp.csr_matrix(sq[:, None] * A[J]),
        sq * y[J],
        damp=np.sqrt(lam),
        atol=1e-14,
        btol=1e-14,
        iter_lim=10000,
    )[0]
    np.testing.assert_allclose(res.beta, ref, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(res.outputs, A @ res.beta, rtol=1e-10, atol=1e-12)


def test_cgls_vector_lambda_with_unregularized_bias():
    X, y, cost, _ = _data(n=80, d=10)
    lam = np.full(11, 0.3)
    lam[-1] = 0.0
    res = cgls(X, y + 2.0, cost, lam, intercept=True, epsilon=1e-12)
    expected = _normal_solution(_augment(X, True), y + 2.0, cost, lam, np.arange(80))
    assert res.converged
    np.testing.assert_allclose(res.beta, expected, rtol=1e-8)


def test_cgls_stopping_rule_is_table2():
    X, y, cost, rng = _data(n=120, d=40)
    rows = np.sort(rng.choice(120, 90, replace=False))
    eps, lam = 1e-3, 0.05
    res = cgls(X, y, cost, lam, rows=rows, epsilon=eps)
    assert res.converged and res.n_iter > 2
    A = X.toarray()
    z = cost[rows] * (y[rows] - A[rows] @ res.beta)
    r = A[rows].T @ z - lam * res.beta
    assert r @ r < (1 + 1e-6) * eps**2 * (z @ z)
    # One iteration fewer does not meet the rule: the rule, not max_iter, stopped it.
    early = cgls(X, y, cost, lam, rows=rows, epsilon=eps, max_iter=res.n_iter - 1)
    assert not early.converged and early.n_iter == res.n_iter - 1
    z = cost[rows] * (y[rows] - A[rows] @ early.beta)
    r = A[rows].T @ z - lam * early.beta
    assert r @ r >= eps**2 * (z @ z)


def test_cgls_warm_start_reduces_iterations():
    X, y, cost, _ = _data(n=300, d=80, density=0.1, seed=3)
    lam = 1e-2
    first = cgls(X, y, cost, lam, epsilon=1e-8)
    y2 = y.copy()
    y2[[0, 1]] = -y2[[0, 1]]  # a TSVM-style label switch: a small perturbation
    cold = cgls(X, y2, cost, lam, epsilon=1e-8)
    warm = cgls(X, y2, cost, lam, first.beta, epsilon=1e-8, outputs0=first.outputs)
    assert warm.converged and cold.converged
    assert warm.n_iter < cold.n_iter
    np.testing.assert_allclose(warm.beta, cold.beta, rtol=1e-5, atol=1e-7)


def test_cgls_seed_at_solution_returns_immediately_and_beta0_not_modified():
    X, y, cost, _ = _data()
    sol = cgls(X, y, cost, 0.5, epsilon=1e-12).beta
    seed = sol.copy()
    again = cgls(X, y, cost, 0.5, seed, epsilon=1e-6)
    assert again.n_iter <= 1
    np.testing.assert_array_equal(seed, sol)


def test_cgls_preconditioner_same_solution():
    X, y, cost, rng = _data(n=200, d=50, density=0.1)
    X = X @ sp.diags(rng.uniform(0.01, 10.0, 50))  # badly scaled columns
    X = sp.csr_matrix(X)
    lam, rows = 1e-3, np.arange(0, 200, 2)
    m_inv = jacobi_preconditioner(X, cost, lam, rows=rows, intercept=True)
    A = _augment(X, True)
    diag = lam + (cost[rows][:, None] * A[rows] ** 2).sum(0)
    np.testing.assert_allclose(m_inv, 1.0 / diag)
    plain = cgls(X, y, cost, lam, rows=rows, intercept=True, epsilon=1e-12)
    pre = cgls(X, y, cost, lam, rows=rows, intercept=True, epsilon=1e-12, preconditioner=m_inv)
    expected = _normal_solution(A, y, cost, lam, rows)
    assert pre.converged and plain.converged
    np.testing.assert_allclose(pre.beta, expected, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(plain.beta, expected, rtol=1e-7, atol=1e-9)


def test_cgls_float32_matrix():
    X, y, cost, _ = _data()
    res32 = cgls(X.astype(np.float32), y, cost, 0.5, epsilon=1e-10)
    X32_as_64 = X.astype(np.float32).astype(np.float64)
    res64 = cgls(X32_as_64, y, cost, 0.5, epsilon=1e-10)
    np.testing.assert_allclose(res32.beta, res64.beta, rtol=1e-9, atol=1e-12)


def test_cgls_empty_active_set_gives_zero():
    X, y, cost, _ = _data()
    res = cgls(X, y, cost, 0.5, np.ones(X.shape[1]), rows=np.array([], dtype=int))
    np.testing.assert_allclose(res.beta, 0.0, atol=1e-12)


# --------------------------------------------------------------------------- line search


def _phi(delta, w, w_bar, lam, o, o_bar, y, cost):
    wd = w + delta * (w_bar - w)
    od = o + delta * (o_bar - o)
    return 0.5 * wd @ (lam * wd) + 0.5 * cost @ np.maximum(0.0, 1.0 - y * od) ** 2


def _line_case(seed, dim=6, n=40, vector_lam=False):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((n, dim))
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    cost = rng.uniform(0.0, 2.0, n)
    w = rng.standard_normal(dim) * 0.5
    w_bar = rng.standard_normal(dim) * 2.0
    lam = rng.uniform(0.01, 1.0, dim) if vector_lam else 0.3
    return w, w_bar, lam, A @ w, A @ w_bar, y, cost


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("vector_lam", [False, True])
def test_line_search_matches_brute_force_and_scipy(seed, vector_lam):
    case = _line_case(seed, vector_lam=vector_lam)
    w, w_bar, lam, o, o_bar, y, cost = case
    delta = line_search(*case)
    grid = np.linspace(0.0, 3.0, 30001)
    values = np.array([_phi(t, *case) for t in grid])
    best = grid[values.argmin()]
    ref = minimize_scalar(
        lambda t: _phi(t, *case), bounds=(0.0, 3.0), method="bounded", options={"xatol": 1e-12}
    ).x
    assert abs(delta - ref) < 1e-6
    assert abs(delta - best) <= 1e-4 + 1e-12
    assert _phi(delta, *case) <= values.min() + 1e-12


def test_line_search_cases_cross_breakpoints():
    # The cases above are only a test of Table 3's sorting if the active set changes
    # between 0 and delta; most of them do.
    crossed = 0
    for seed in range(8):
        w, w_bar, lam, o, o_bar, y, cost = case = _line_case(seed)
        od = o + line_search(*case) * (o_bar - o)
        crossed += np.any((y * o < 1) != (y * od < 1))
    assert crossed >= 6


def test_line_search_derivative_is_zero_at_interior_optimum():
    case = _line_case(11)
    w, w_bar, lam, o, o_bar, y, cost = case
    delta = line_search(*case)
    assert delta > 0
    h = 1e-7
    deriv = (_phi(delta + h, *case) - _phi(delta - h, *case)) / (2 * h)
    assert abs(deriv) < 1e-5


def test_line_search_full_newton_step_on_quadratic_piece():
    # No breakpoints: phi is one quadratic with minimizer at the regularized LS solution.
    rng = np.random.default_rng(0)
    A = rng.standard_normal((30, 4))
    y = np.ones(30)
    w = np.zeros(4)
    cost = np.ones(30)
    lam = 0.5
    w_bar = np.linalg.solve(lam * np.eye(4) + A.T @ A, A.T @ y) * 1e-3  # small: all stay active
    delta = line_search(w, w_bar, lam, A @ w, A @ w_bar, y, cost)
    d = w_bar
    expected = (A @ d).sum() / (lam * d @ d + (A @ d) @ (A @ d))
    assert np.all(y * (A @ (w + delta * d)) < 1)
    np.testing.assert_allclose(delta, expected, rtol=1e-12)


def test_line_search_non_descent_direction_clips_at_zero():
    case = list(_line_case(2))
    w, w_bar = case[0], case[1]
    case[0], case[1] = w_bar * 0 + 50.0, w_bar * 0 + 100.0  # moving away from the optimum
    rng = np.random.default_rng(2)
    A = rng.standard_normal((40, w.size))
    case[3], case[4] = A @ case[0], A @ case[1]
    assert line_search(*case) == 0.0


# --------------------------------------------------------------------------- selection


@settings(max_examples=60, deadline=None)
@given(
    arrays(
        np.float64, st.integers(1, 60), elements=st.floats(-1e6, 1e6) | st.sampled_from([0.0, 1.0])
    ),
    st.data(),
)
def test_jitted_kth_smallest_inplace_matches_sort_and_permutes(a, data):
    # Ties (the sampled 0/1) and sorted/reversed runs are the quickselect's hard cases.
    k = data.draw(st.integers(0, a.size - 1))
    scratch = a.copy()
    assert kth_smallest_inplace(scratch, k) == np.sort(a)[k]
    np.testing.assert_array_equal(np.sort(scratch), np.sort(a))  # a permutation of a
    assert (scratch[:k] <= scratch[k]).all() and (scratch[k + 1 :] >= scratch[k]).all()
    for ordered in (np.sort(a), np.sort(a)[::-1].copy()):
        assert kth_smallest_inplace(ordered, k) == np.sort(a)[k]


@settings(max_examples=40, deadline=None)
@given(arrays(np.float64, st.integers(1, 50), elements=st.floats(-1e6, 1e6)), st.data())
def test_kth_smallest_matches_sort(a, data):
    k = data.draw(st.integers(0, a.size - 1))
    assert kth_smallest(a, k) == np.sort(a)[k]
    idx = select(a, k + 1)
    assert idx.size == k + 1
    np.testing.assert_array_equal(np.sort(a[idx]), np.sort(a)[: k + 1])
    top = select(a, k + 1, largest=True)
    np.testing.assert_array_equal(np.sort(a[top]), np.sort(a)[a.size - k - 1 :])


# --------------------------------------------------------------------------- bad input


def test_cgls_rejects_bad_input():
    X, y, cost, _ = _data(n=10, d=3)
    with pytest.raises(ValueError, match="lam"):
        cgls(X, y, cost, -1.0)
    with pytest.raises(ValueError, match="lam"):
        cgls(X, y, cost, np.ones(5))
    with pytest.raises(ValueError, match="lam"):
        cgls(X, y, cost, np.array([1.0, -1.0, 1.0]))
    with pytest.raises(ValueError, match="y"):
        cgls(X, y[:5], cost, 1.0)
    with pytest.raises(ValueError, match="cost"):
        cgls(X, y, -cost, 1.0)
    with pytest.raises(ValueError, match="beta0"):
        cgls(X, y, cost, 1.0, np.zeros(3), intercept=True)
    with pytest.raises(ValueError, match="rows"):
        cgls(X, y, cost, 1.0, rows=[0, 10])
    with pytest.raises(TypeError, match="rows"):
        cgls(X, y, cost, 1.0, rows=[0.5])
    with pytest.raises(ValueError, match="epsilon"):
        cgls(X, y, cost, 1.0, epsilon=0.0)
    with pytest.raises(ValueError, match="max_iter"):
        cgls(X, y, cost, 1.0, max_iter=0)
    with pytest.raises(ValueError, match="preconditioner"):
        cgls(X, y, cost, 1.0, preconditioner=np.zeros(3))
    with pytest.raises(ValueError, match="outputs0"):
        cgls(X, y, cost, 1.0, outputs0=np.zeros(3))


@settings(max_examples=25, deadline=None)
@given(
    bad=st.sampled_from(["X", "y", "cost", "lam", "beta0"]),
    value=st.sampled_from([np.nan, np.inf, -np.inf]),
)
def test_cgls_rejects_nonfinite(bad, value):
    X, y, cost, _ = _data(n=10, d=3)
    args = {
        "X": X.toarray(),
        "y": y.copy(),
        "cost": cost.copy(),
        "lam": np.ones(3),
        "beta0": np.zeros(3),
    }
    args[bad].flat[1] = value
    with pytest.raises(ValueError, match=bad if bad != "lam" else "lam"):
        cgls(args["X"], args["y"], args["cost"], args["lam"], args["beta0"])


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(1, 6),
    d=st.integers(1, 4),
    lam=st.floats(1e-3, 10.0),
    seed=st.integers(0, 2**16),
)
def test_cgls_degenerate_data(n, d, lam, seed):
    # Zero rows, duplicated rows, zero costs: CGLS still solves the (well-posed) system.
    rng = np.random.default_rng(seed)
    X = rng.integers(-1, 2, (n, d)).astype(float)
    X[0] = 0.0
    if n > 1:
        X[-1] = X[0]
    y = rng.choice([-1.0, 1.0], n)
    cost = rng.choice([0.0, 1.0], n)
    res = cgls(X, y, cost, lam, epsilon=1e-12)
    expected = _normal_solution(X, y, cost, lam, np.arange(n))
    assert res.converged
    np.testing.assert_allclose(res.beta, expected, rtol=1e-7, atol=1e-9)


def test_line_search_rejects_bad_input():
    w, w_bar, lam, o, o_bar, y, cost = _line_case(0)
    with pytest.raises(ValueError, match="lam"):
        line_search(w, w_bar, -0.1, o, o_bar, y, cost)
    with pytest.raises(ValueError, match="w_bar"):
        line_search(w, w_bar[:-1], lam, o, o_bar, y, cost)
    with pytest.raises(ValueError, match="outputs_bar"):
        line_search(w, w_bar, lam, o, o_bar[:-1], y, cost)
    with pytest.raises(ValueError, match="y"):
        line_search(w, w_bar, lam, o, o_bar, y * 2, cost)
    with pytest.raises(ValueError, match="cost"):
        line_search(w, w_bar, lam, o, o_bar, y, -cost)
    o = o.copy()
    o[0] = np.nan
    with pytest.raises(ValueError, match="outputs"):
        line_search(w, w_bar, lam, o, o_bar, y, cost)


def test_line_search_flat_direction_gives_zero():
    y = np.array([1.0])
    w = np.array([1.0, 0.0])
    assert line_search(w, w, 1.0, np.zeros(1), np.zeros(1), y, [1.0]) == 0.0
    assert line_search(w, np.array([1.0, 5.0]), 0.0, np.zeros(1), np.zeros(1), y, [1.0]) == 0.0


def test_selection_rejects_bad_input():
    with pytest.raises(ValueError, match="k"):
        kth_smallest([1.0, 2.0], 2)
    with pytest.raises(ValueError, match="k"):
        kth_smallest([1.0, 2.0], -1)
    with pytest.raises(TypeError, match="k"):
        kth_smallest([1.0, 2.0], 1.0)
    with pytest.raises(ValueError, match="a"):
        kth_smallest([1.0, np.nan], 0)
    with pytest.raises(ValueError, match="a"):
        kth_smallest([], 0)
    with pytest.raises(ValueError, match="k"):
        select([1.0, 2.0], 3)


def test_products_reject_bad_input():
    X = np.ones((4, 3))
    with pytest.raises(ValueError, match="v"):
        matvec_rows(X, np.ones(4))
    with pytest.raises(ValueError, match="u"):
        rmatvec_rows(X, np.ones(3), rows=[0, 1])
    with pytest.raises(ValueError, match="rows"):
        matvec_rows(X, np.ones(3), rows=[4])


def test_cgls_check_input_false_same_result():
    X, y, cost, rng = _data()
    rows = np.sort(rng.choice(X.shape[0], 30, replace=False)).astype(np.intp)
    beta0 = rng.standard_normal(X.shape[1] + 1)
    a = cgls(X, y, cost, 0.2, beta0, rows=rows, intercept=True)
    b = cgls(X, y, cost, 0.2, beta0, rows=rows, intercept=True, check_input=False)
    np.testing.assert_array_equal(a.beta, b.beta)
    assert a.n_iter == b.n_iter


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 127, 128, 129, 136, 1000, 8193, 100_003])
def test_numpy_sum_is_numpy_bit_for_bit(n):
    from svmcore.linalg._products import numpy_sum

    rng = np.random.default_rng(n)
    a = rng.standard_normal(n) * 10.0 ** rng.integers(-8, 8, size=n)
    assert np.float64(numpy_sum(a)).tobytes() == np.sum(a).tobytes()


def _python_loops(monkeypatch):
    """Run cgls's one-call serial loops as Python (strict IEEE arithmetic, the same kernel
    calls): what the Python loop they replace computed."""
    from svmcore.linalg import _cgls

    for name in ("_cg_dense_serial", "_cg_csr_serial"):
        monkeypatch.setattr(_cgls, name, getattr(_cgls, name).py_func)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("intercept", [False, True])
@pytest.mark.parametrize("jacobi", [False, True])
def test_cgls_serial_kernel_is_the_python_loop_bit_for_bit(monkeypatch, sparse, intercept, jacobi):
    X, y, cost, rng = _data(n=300, d=40, density=0.2, seed=3)
    X = X if sparse else X.toarray()
    rows = np.sort(rng.choice(X.shape[0], 200, replace=False)).astype(np.intp)
    m_inv = jacobi_preconditioner(X, cost, 0.3, rows=rows, intercept=intercept) if jacobi else None
    kw = dict(rows=rows, intercept=intercept, epsilon=1e-10, preconditioner=m_inv)
    compiled = [cgls(X, y, cost, 0.3, **kw), cgls(X, y, cost, 0.3, epsilon=1e-2, max_iter=3)]
    _python_loops(monkeypatch)
    python = [cgls(X, y, cost, 0.3, **kw), cgls(X, y, cost, 0.3, epsilon=1e-2, max_iter=3)]
    for a, b in zip(compiled, python, strict=True):
        assert a.beta.tobytes() == b.beta.tobytes()
        assert a.outputs.tobytes() == b.outputs.tobytes()
        assert (a.n_iter, a.converged) == (b.n_iter, b.converged)


def _scan_by_sorting(deltas, t_left, t_right, left, right):
    """Table 3's walk as the vectorized version did it: full stable sort, prefix sums."""
    order = np.argsort(deltas, kind="stable")
    d_left = np.concatenate(([0.0], np.cumsum(t_left[order])))
    d_right = np.concatenate(([0.0], np.cumsum(t_right[order])))
    lefts, rights = left + d_left[:-1], right + d_right[:-1]
    stop = np.flatnonzero(lefts + deltas[order] * (rights - lefts) >= 0.0)
    k = stop[0] if stop.size else deltas.size
    return left + d_left[k], right + d_right[k]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("ties", [False, True])
def test_line_search_heap_walk_is_the_sorted_walk_bit_for_bit(seed, ties):
    from svmcore.linalg._line_search import _scan_breakpoints

    rng = np.random.default_rng(seed)
    m = 500
    deltas = rng.exponential(size=m)
    if ties:
        deltas = np.round(deltas, 1)  # many equal breakpoints: order by position
    t_left = rng.uniform(0.0, 1.0, m) * 10.0 ** rng.integers(-3, 3, size=m)
    t_right = t_left * rng.uniform(0.5, 1.0, m)
    for left in (-float(t_left.sum()) * q for q in (0.0, 0.01, 0.3, 0.9, 1.1)):
        right = left + rng.uniform(0.0, 5.0)
        got = _scan_breakpoints(deltas, t_left, t_right, left, right)
        ref = _scan_by_sorting(deltas, t_left, t_right, left, right)
        assert np.array(got).tobytes() == np.array(ref).tobytes()
        assert _scan_breakpoints.py_func(deltas, t_left, t_right, left, right) == got


def _line_search_numpy(w, w_bar, lam, o, o_bar, y, cost):
    """Table 3 as numpy vector code (the version the Numba kernels replaced)."""
    step, diff = w_bar - w, o_bar - o
    active = y * o < 1.0
    lc = cost * active
    lam_step = lam * step
    left = float(np.sum(w * lam_step)) + float(np.sum(lc * (o - y) * diff))
    right = float(np.sum(w_bar * lam_step)) + float(np.sum(lc * (o_bar - y) * diff))
    slope_sign = y * diff
    entering = ~active & (slope_sign < 0)
    idx = np.flatnonzero((active & (slope_sign > 0)) | entering)
    if idx.size:
        deltas = (y[idx] - o[idx]) / diff[idx]
        sign = np.where(entering[idx], 1.0, -1.0) * cost[idx]
        t_left = sign * (o[idx] - y[idx]) * diff[idx]
        t_right = sign * (o_bar[idx] - y[idx]) * diff[idx]
        left, right = _scan_by_sorting(deltas, t_left, t_right, left, right)
    curvature = right - left
    return 0.0 if curvature <= 0.0 else max(0.0, float(-left / curvature))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("vector_lam", [False, True])
@pytest.mark.parametrize("n", [40, 3000])
def test_line_search_is_the_numpy_version_bit_for_bit(seed, vector_lam, n):
    case = list(_line_case(seed, n=n, vector_lam=vector_lam))
    case[6][::5] = 0.0  # zero costs
    got = line_search(*case)
    assert np.float64(got).tobytes() == np.float64(_line_search_numpy(*case)).tobytes()


@pytest.mark.parametrize("seed", range(4))
def test_line_search_check_input_false_same_result(seed):
    case = _line_case(seed, n=400)
    assert line_search(*case, check_input=False) == line_search(*case)


# ------------------------------------------------------------------ power-of-two scaling


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("scale", [1e40, 1e150, 1e300])
def test_power_of_two_scaling_is_exact(sparse, scale):
    from svmcore.linalg import power_of_two_scaling

    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4)) * scale
    X[0, 0] = 0.0
    Xin = sp.csr_matrix(X) if sparse else X
    Xs, k = power_of_two_scaling(Xin)
    dense = Xs.toarray() if sparse else Xs
    assert 1.0 <= np.abs(dense).max() < 2.0
    np.testing.assert_array_equal(np.ldexp(dense, k), X)  # exact, no rounding
    assert Xin is not Xs and (Xin.toarray() if sparse else Xin)[1, 1] == X[1, 1]  # a copy


def test_power_of_two_scaling_leaves_ordinary_data_alone():
    from svmcore.linalg import power_of_two_scaling

    X = np.random.default_rng(1).normal(size=(10, 3)) * 1e6
    Xs, k = power_of_two_scaling(X)
    assert k == 0 and Xs is X


def test_power_of_two_scaling_low_scales_tiny_data_up_exactly():
    from svmcore.linalg import power_of_two_scaling

    X = np.random.default_rng(2).normal(size=(10, 3)) * 1e-5
    Xs, k = power_of_two_scaling(X, low=2.0**-8, high=2.0**8)
    assert k < 0 and 1.0 <= np.abs(Xs).max() < 2.0
    np.testing.assert_array_equal(np.ldexp(Xs, k), X)
    assert power_of_two_scaling(X)[1] == 0  # the default low=0 keeps small data as they are
    zeros = np.zeros((3, 2))
    assert power_of_two_scaling(zeros, low=1.0)[0] is zeros


@pytest.mark.parametrize("sparse", [False, True])
def test_column_power_of_two_scaling_is_exact_per_column(sparse):
    from svmcore.linalg import column_power_of_two_scaling

    rng = np.random.default_rng(2)
    X = rng.normal(size=(30, 4)) * np.array([1e150, 1.0, 1e-150, 0.0])
    Xin = sp.csr_matrix(X) if sparse else X
    Xs, k = column_power_of_two_scaling(Xin)
    dense = Xs.toarray() if sparse else Xs
    assert k[1] == 0 and k[3] == 0 and k[0] > 400 and k[2] < -400
    top = np.abs(dense[:, [0, 2]]).max(axis=0)
    assert np.all((1.0 <= top) & (top < 2.0))
    np.testing.assert_array_equal(np.ldexp(dense, k), X)  # exact, no rounding
    ordinary = rng.normal(size=(5, 3))
    same, zeros = column_power_of_two_scaling(ordinary)
    assert same is ordinary and not zeros.any()
