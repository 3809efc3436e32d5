"""Weighted SVM adapter against duplicated rows, independent QP solves and brute force."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import Bounds, LinearConstraint, linprog, minimize
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import rbf_kernel

from svmcore.solvers import (
    WeightedSVMResult,
    fit_weighted_svm,
    hinge_objective,
    optimal_intercept,
)

SOLVERS = ["libsvm", "liblinear"]


def _blobs(n, d, seed, shift=0.0):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.normal(size=(n, d)) + 0.8 * y[:, None] + shift
    return X, y


def _primal_at(K, y, upper, alpha):
    """Primal objective at w(alpha) with the best intercept, found over every breakpoint."""
    v = alpha * y
    f = K @ v
    candidates = y - f  # the hinge terms' kinks: the optimal b is one of them
    hinge = np.maximum(0.0, 1.0 - y * (f[None, :] + candidates[:, None])) @ upper
    return 0.5 * v @ K @ v + hinge.min()


def _exact_on_active_set(alpha, Q, y, upper, tol=1e-7):
    """The dual's exact solution on the active set of an approximate ``alpha``.

    Samples within ``tol`` (relative) of a bound are fixed there; the free ones solve the
    KKT system ``Q_FF a_F + b y_F = 1 - Q_FB a_B``, ``y_F a_F = -y_B a_B`` by least
    squares (Q is rank-deficient for low-degree polynomial kernels: any solution of the
    consistent system is optimal).
    """
    at_upper = alpha >= (1.0 - tol) * upper
    free = ~(at_upper | (alpha <= tol * upper))
    a = np.where(at_upper, upper, 0.0)
    k = int(free.sum())
    M = np.zeros((k + 1, k + 1))
    M[:k, :k] = Q[np.ix_(free, free)]
    M[:k, k] = M[k, :k] = y[free]
    rhs = np.append(1.0 - Q[free][:, ~free] @ a[~free], -(y[~free] @ a[~free]))
    a[free] = np.linalg.lstsq(M, rhs, rcond=None)[0][:k]
    return a


def _dual_qp(K, y, upper):
    """Reference: the SVM dual, solved exactly and accepted on its duality-gap certificate.

    An iterative solver only finds the active set: SLSQP first (its exit message is not
    the criterion: on rank-deficient Gram matrices, the degree-2 polynomial kernel in 2-D,
    some scipy/BLAS combinations stop with "Positive directional derivative for
    linesearch" near the optimum), trust-constr from there if that set is wrong. The
    dual is then solved exactly on that set (:func:`_exact_on_active_set`), and the
    point is accepted only when it is feasible (bounds, sum alpha y = 0) and the primal
    objective at (w(alpha), best b) meets its dual value within 1e-8 relative (100x below
    the tests' 1e-6). Returns (alpha, dual).
    """
    Q = K * np.outer(y, y)
    n = y.size

    def certified(alpha):
        alpha = _exact_on_active_set(np.clip(alpha, 0.0, upper), Q, y, upper)
        dual = alpha.sum() - 0.5 * alpha @ Q @ alpha
        feasible = (
            abs(alpha @ y) <= 1e-9 * upper.sum()
            and alpha.min() >= -1e-12
            and (alpha - upper).max() <= 1e-12
        )
        gap = _primal_at(K, y, upper, alpha) - dual
        return alpha, dual, feasible and abs(gap) <= 1e-8 * max(1.0, abs(dual))

    common = dict(
        fun=lambda a: 0.5 * a @ Q @ a - a.sum(),
        jac=lambda a: Q @ a - 1.0,
        bounds=Bounds(np.zeros(n), upper),
        constraints=[LinearConstraint(y[None, :], 0.0, 0.0)],
    )
    res = minimize(
        x0=np.zeros(n), method="SLSQP", options={"ftol": 1e-15, "maxiter": 2000}, **common
    )
    alpha, dual, ok = certified(res.x)
    if not ok:
        res = minimize(
            x0=np.clip(res.x, 0.0, upper),
            method="trust-constr",
            hess=lambda a: Q,
            options={"gtol": 1e-13, "xtol": 1e-14, "maxiter": 20000},
            **common,
        )
        alpha, dual, ok = certified(res.x)
    assert ok, "the reference dual solve has no duality-gap certificate"
    return alpha, dual


def _naive_hinge(w, b, X, y, s, C):
    total = 0.5 * sum(wj * wj for wj in w)
    for i in range(X.shape[0]):
        f = sum(X[i, j] * w[j] for j in range(X.shape[1])) + b
        total += C * s[i] * max(0.0, 1.0 - y[i] * f)
    return total


def test_hinge_objective_matches_naive_dense_and_csr():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 4))
    X[X < 0.3] = 0.0
    y = np.where(rng.random(30) < 0.5, -1, 1)
    w, b, s = rng.normal(size=4), 0.3, rng.random(30) * 3
    expected = _naive_hinge(w, b, X, y, s, 0.7)
    assert hinge_objective(w, b, X, y, s, 0.7) == pytest.approx(expected, rel=1e-12)
    assert hinge_objective(w, b, sp.csr_matrix(X), y, s, 0.7) == pytest.approx(expected, rel=1e-12)
    unit = _naive_hinge(w, b, X, y, np.ones(30), 2.0)
    assert hinge_objective(w, b, X, y, None, 2.0) == pytest.approx(unit, rel=1e-12)


def _brute_intercept_value(scores, y, s):
    """Minimum of the convex piecewise-linear sum: attained at a breakpoint."""
    breaks = y - scores
    vals = [s @ np.maximum(0.0, 1.0 - y * (scores + bb)) for bb in breaks]
    return min(vals)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 25).flatmap(
        lambda n: st.tuples(
            st.lists(st.floats(-5, 5), min_size=n, max_size=n),
            st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n),
            st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 7.0]), min_size=n, max_size=n),
        )
    )
)
def test_optimal_intercept_matches_brute_force(data):
    scores, y, s = (np.asarray(v, dtype=float) for v in data)
    b = optimal_intercept(scores, y, s)
    value = s @ np.maximum(0.0, 1.0 - y * (scores + b))
    assert value <= _brute_intercept_value(scores, y, s) + 1e-9


def test_optimal_intercept_matches_linprog():
    rng = np.random.default_rng(3)
    n = 60
    scores, y, s = rng.normal(size=n) * 2, np.where(rng.random(n) < 0.4, -1.0, 1.0), rng.random(n)
    # min s.xi  s.t.  xi_i >= 1 - y_i(score_i + b), xi >= 0; variables (b, xi).
    A = np.hstack([-y[:, None], -np.eye(n)])
    res = linprog(
        np.r_[0.0, s],
        A_ub=A,
        b_ub=y * scores - 1.0,
        bounds=[(None, None)] + [(0, None)] * n,
        method="highs",
    )
    b = optimal_intercept(scores, y, s)
    assert s @ np.maximum(0.0, 1.0 - y * (scores + b)) == pytest.approx(res.fun, rel=1e-9)


def test_optimal_intercept_with_many_equal_breakpoints_is_exact():
    # The breakpoints are sorted by NumPy's default (unstable) sort since issue 16: with
    # 3,000 rows on 7 distinct breakpoints every tie order must still give a minimizer
    # (checked against all breakpoints) and the same one whatever the rows' order.
    rng = np.random.default_rng(8)
    n = 3000
    scores = rng.integers(-3, 4, size=n).astype(float)
    y = np.where(rng.random(n) < 0.45, 1.0, -1.0)
    s = rng.integers(1, 4, size=n).astype(float)
    b = optimal_intercept(scores, y, s)
    value = s @ np.maximum(0.0, 1.0 - y * (scores + b))
    candidates = np.unique(y - scores)
    best = min(s @ np.maximum(0.0, 1.0 - y * (scores + c)) for c in candidates)
    assert value == pytest.approx(best, rel=1e-12)
    perm = rng.permutation(n)
    assert optimal_intercept(scores[perm], y[perm], s[perm]) == b


def test_optimal_intercept_tie_break_towards_b0():
    # One +1 and one -1 sample with weight 1: every b in [-1, 1] is optimal.
    scores, y = np.zeros(2), np.array([1.0, -1.0])
    assert optimal_intercept(scores, y) == -1.0
    assert optimal_intercept(scores, y, b0=0.25) == 0.25
    assert optimal_intercept(scores, y, b0=5.0) == 1.0


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("sparse", [False, True])
def test_integer_weights_equal_duplicated_rows(solver, sparse):
    X, y = _blobs(40, 3, seed=4)
    s = np.random.default_rng(5).integers(1, 4, size=40)
    Xd, yd = np.repeat(X, s, axis=0), np.repeat(y, s)
    if sparse:
        X, Xd = sp.csr_matrix(X), sp.csr_matrix(Xd)
    kw = dict(C=0.5, solver=solver, tol=1e-8, random_state=0)
    weighted = fit_weighted_svm(X, y, s.astype(float), **kw)
    dup = fit_weighted_svm(Xd, yd, **kw)
    assert weighted.objective == pytest.approx(dup.objective, rel=1e-6)
    np.testing.assert_allclose(weighted.coef, dup.coef, rtol=1e-3, atol=1e-4)
    assert weighted.intercept == pytest.approx(dup.intercept, rel=1e-3, abs=1e-4)
    # The weighted solution is as good on the duplicated problem as its own solution.
    on_dup = hinge_objective(weighted.coef, weighted.intercept, Xd, yd, None, 0.5)
    assert on_dup == pytest.approx(dup.objective, rel=1e-6)


@pytest.mark.parametrize("solver", SOLVERS)
def test_linear_objective_equals_independent_dual_qp(solver):
    X, y = _blobs(36, 3, seed=6, shift=1.5)
    s = np.random.default_rng(7).uniform(0.5, 3.0, size=36)
    C = 0.8
    _, dual_value = _dual_qp(X @ X.T, y, C * s)
    res = fit_weighted_svm(X, y, s, C=C, solver=solver, tol=1e-8)
    assert isinstance(res, WeightedSVMResult)
    assert res.converged
    # Strong duality: the primal optimum (7) equals the reference dual optimum.
    assert res.objective == pytest.approx(dual_value, rel=1e-6)
    assert res.objective == pytest.approx(
        hinge_objective(res.coef, res.intercept, X, y, s, C), rel=1e-12
    )
    assert res.dual_objective == pytest.approx(dual_value, rel=1e-5)


@pytest.mark.parametrize(
    "kernel,params", [("rbf", dict(gamma=0.5)), ("poly", dict(gamma=0.5, degree=2, coef0=1.0))]
)
def test_kernel_objective_equals_independent_dual_qp(kernel, params):
    X, y = _blobs(30, 2, seed=8)
    s = np.random.default_rng(9).uniform(0.5, 2.0, size=30)
    C = 2.0
    if kernel == "rbf":
        K = rbf_kernel(X, gamma=params["gamma"])
    else:
        K = (params["gamma"] * X @ X.T + params["coef0"]) ** params["degree"]
    alpha_ref, dual_value = _dual_qp(K, y, C * s)
    res = fit_weighted_svm(X, y, s, C=C, kernel=kernel, tol=1e-8, **params)
    assert res.coef is None
    assert res.objective == pytest.approx(dual_value, rel=1e-6)
    assert res.dual_objective == pytest.approx(dual_value, rel=1e-6)
    # Primal from the reference duals: f = K (alpha y) + b with the exact best b.
    scores = K @ (alpha_ref * y)
    b = optimal_intercept(scores, y, s)
    primal = 0.5 * (alpha_ref * y) @ K @ (alpha_ref * y) + C * s @ np.maximum(
        0.0, 1.0 - y * (scores + b)
    )
    assert res.objective == pytest.approx(primal, rel=1e-5)


@pytest.mark.parametrize("solver", SOLVERS)
def test_dual_coef_is_feasible_and_reproduces_w(solver):
    X, y = _blobs(80, 4, seed=10)
    s = np.random.default_rng(11).integers(1, 6, size=80).astype(float)
    C = 0.3
    res = fit_weighted_svm(X, y, s, C=C, solver=solver, tol=1e-8)
    a = res.dual_coef
    assert a.shape == (80,)
    assert (a >= 0).all() and (a <= C * s * (1 + 1e-12)).all()
    np.testing.assert_array_equal(res.support, np.flatnonzero(a > 0))
    assert abs(a @ y) <= 1e-6 * C * s.sum()
    np.testing.assert_allclose(X.T @ (a * y), res.coef, rtol=1e-4, atol=1e-6)
    assert 0 <= res.duality_gap <= 1e-5 * res.objective


@pytest.mark.parametrize("solver", SOLVERS)
def test_zero_weights_equal_dropped_rows(solver):
    X, y = _blobs(50, 3, seed=12)
    s = np.ones(50)
    s[::7] = 0.0
    kw = dict(C=1.0, solver=solver, tol=1e-8, random_state=0)
    full = fit_weighted_svm(X, y, s, **kw)
    sub = fit_weighted_svm(X[s > 0], y[s > 0], **kw)
    assert full.objective == pytest.approx(sub.objective, rel=1e-9)
    np.testing.assert_allclose(full.coef, sub.coef, rtol=1e-9)
    assert (full.dual_coef[s == 0] == 0).all()
    np.testing.assert_allclose(full.dual_coef[s > 0], sub.dual_coef, rtol=1e-9)


def test_float32_and_csr_give_same_solution():
    X, y = _blobs(60, 3, seed=13)
    ref = fit_weighted_svm(X, y, C=1.0, tol=1e-8)
    for Xv in (X.astype(np.float32), sp.csr_matrix(X)):
        res = fit_weighted_svm(Xv, y, C=1.0, tol=1e-8)
        assert res.objective == pytest.approx(ref.objective, rel=1e-5)


@pytest.mark.parametrize("solver", ["libsvm", "liblinear"])
def test_csr_with_int64_indices_is_accepted(solver):
    # svmlight readers and scipy produce int64 indices, which libsvm/liblinear refuse
    rng = np.random.default_rng(5)
    X = rng.standard_normal((40, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    X64 = sp.csr_matrix(X)
    X64.indices, X64.indptr = X64.indices.astype(np.int64), X64.indptr.astype(np.int64)
    got = fit_weighted_svm(X64, y, C=1.0, solver=solver, random_state=0)
    ref = fit_weighted_svm(sp.csr_matrix(X), y, C=1.0, solver=solver, random_state=0)
    np.testing.assert_allclose(got.coef, ref.coef, rtol=1e-12)


def test_documented_example_values():
    X = np.array([[0.0], [1.0], [3.0], [4.0]])
    y = np.array([-1, -1, 1, 1])
    for solver in SOLVERS:
        res = fit_weighted_svm(X, y, C=10.0, tol=1e-8, solver=solver)
        assert res.objective == pytest.approx(0.5, rel=1e-5)
        assert res.coef[0] == pytest.approx(1.0, rel=1e-4)
        assert res.intercept == pytest.approx(-2.0, rel=1e-4)


@settings(max_examples=15, deadline=None)
@given(
    st.integers(2, 12),
    st.sampled_from(SOLVERS),
    st.integers(0, 2**31),
    st.sampled_from([0.1, 1.0, 10.0]),
)
def test_identical_points_give_zero_w_and_best_constant(n, solver, seed, C):
    # Degenerate data: every x_i equal, so w = 0 is optimal and (7) reduces to the best
    # constant decision b, found by brute force over the breakpoints b = +-1.
    rng = np.random.default_rng(seed)
    y = np.r_[1.0, -1.0, np.where(rng.random(n - 2) < 0.5, 1.0, -1.0)]
    s = rng.integers(1, 4, size=n).astype(float)
    X = np.full((n, 2), 0.7)
    res = fit_weighted_svm(X, y, s, C=C, solver=solver, tol=1e-8)
    best = C * min(s @ np.maximum(0.0, 1.0 - y * b) for b in (-1.0, 1.0))
    assert res.objective == pytest.approx(best, rel=1e-6, abs=1e-9)
    assert np.abs(res.coef).max() <= 1e-4
    assert res.objective >= res.dual_objective - 1e-6 * max(1.0, best)


@pytest.mark.parametrize("solver", SOLVERS)
def test_iteration_cap_warns_and_reports_not_converged(solver):
    X, y = _blobs(200, 5, seed=14)
    with pytest.warns(ConvergenceWarning):
        res = fit_weighted_svm(X, y, C=10.0, solver=solver, max_iter=2)
    assert not res.converged
    assert res.objective == pytest.approx(
        hinge_objective(res.coef, res.intercept, X, y, None, 10.0), rel=1e-12
    )


def test_skipping_the_objective_keeps_the_libsvm_solution():
    X, y = _blobs(40, 2, seed=3)
    s = np.random.default_rng(4).uniform(0.5, 2.0, size=40)
    kw = dict(C=2.0, kernel="rbf", gamma=0.5, tol=1e-8)
    full = fit_weighted_svm(X, y, s, refit_intercept=False, **kw)
    fast = fit_weighted_svm(X, y, s, compute_objective=False, **kw)
    np.testing.assert_array_equal(fast.dual_coef, full.dual_coef)
    np.testing.assert_array_equal(fast.support, full.support)
    assert fast.intercept == full.intercept  # libsvm's own bias, as with refit_intercept=False
    assert np.isnan(fast.objective) and np.isnan(fast.dual_objective)
    with pytest.raises(TypeError, match="compute_objective"):
        fit_weighted_svm(X, y, s, compute_objective="no", **kw)


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("weights", ["none", "uniform", "zeros"])
def test_unchecked_input_gives_the_checked_solution(solver, weights):
    X, y = _blobs(60, 3, seed=5)
    s = {
        "none": None,
        "uniform": np.random.default_rng(6).uniform(0.5, 2.0, size=60),
        "zeros": np.r_[np.zeros(10), np.ones(50)],
    }[weights]
    kw = dict(C=2.0, solver=solver, tol=1e-8, random_state=0)
    checked = fit_weighted_svm(X, y, s, **kw)
    unchecked = fit_weighted_svm(X, y.astype(np.int64), s, check_input=False, **kw)
    np.testing.assert_array_equal(unchecked.dual_coef, checked.dual_coef)
    np.testing.assert_array_equal(unchecked.coef, checked.coef)
    assert unchecked.intercept == checked.intercept
    assert unchecked.objective == checked.objective
    # the checks are what check_input=False skips: a bad label reaches the solver as it is
    with pytest.raises(ValueError, match="only -1 and \\+1"):
        fit_weighted_svm(X, np.where(y > 0, 2.0, -1.0), s, **kw)


@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
        (dict(y=np.array([0, 1, 0, 1])), ValueError, "-1 and \\+1"),
        (dict(y=np.array([1, 1, 1, 1])), ValueError, "both -1 and \\+1"),
        (dict(y=np.array([1, -1, 1])), ValueError, "y must be 1-d"),
        (dict(C=0.0), ValueError, "C must be"),
        (dict(kernel="sigmoid"), ValueError, "kernel must be"),
        (dict(solver="smo"), ValueError, "solver must be"),
        (dict(solver="liblinear", kernel="rbf"), ValueError, "liblinear"),
        (dict(gamma=-1.0), ValueError, "gamma"),
        (dict(tol=0.0), ValueError, "tol"),
        (dict(max_iter=0), ValueError, "max_iter"),
        (dict(sample_weight=np.array([1.0, -1.0, 1.0, 1.0])), ValueError, "[Nn]egative"),
        (dict(sample_weight=np.array([0.0, 0.0, 1.0, 1.0])), ValueError, "both -1 and \\+1"),
        (dict(sample_weight=np.zeros(4)), ValueError, "non-zero"),
        (dict(X=np.array([[0.0], [np.nan], [1.0], [2.0]])), ValueError, "NaN"),
        (dict(X=np.array(["a", "b", "c", "d"])[:, None]), TypeError, "X must hold real"),
    ],
)
def test_bad_input_raises_clear_errors(kwargs, exc, match):
    args = dict(X=np.array([[0.0], [1.0], [3.0], [4.0]]), y=np.array([-1, -1, 1, 1]))
    args.update(kwargs)
    X, y = args.pop("X"), args.pop("y")
    with pytest.raises(exc, match=match):
        fit_weighted_svm(X, y, **args)


def test_helpers_reject_bad_input():
    X, y = np.ones((3, 2)), np.array([1, -1, 1])
    with pytest.raises(ValueError, match="w must have shape"):
        hinge_objective(np.ones(3), 0.0, X, y)
    with pytest.raises(ValueError, match="-1 and \\+1"):
        optimal_intercept([0.0, 1.0], [2, 1])
    with pytest.raises(ValueError, match="weights must have shape"):
        optimal_intercept([0.0, 1.0], [1, -1], [1.0])
    with pytest.raises(ValueError, match="non-negative"):
        optimal_intercept([0.0, 1.0], [1, -1], [1.0, -1.0])
