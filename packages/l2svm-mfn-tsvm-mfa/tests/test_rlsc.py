"""rlsc (SVMlin's -A 0): the minimizer of the regularized least squares objective."""

import numpy as np
import pytest
import scipy.sparse as sp

from l2svm_mfn import MFNClassifier, least_squares_objective, rlsc


def _data(seed=0, n=60, d=5):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    X[np.abs(X) < 0.5] = 0.0
    y = np.where(X @ rng.standard_normal(d) + 0.3 * rng.standard_normal(n) > 0, 1.0, -1.0)
    cost = np.where(y > 0, 2.0, 0.5)
    return X, y, cost


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("lam", [1e-3, 1.0])
def test_rlsc_solves_the_normal_equations(sparse, lam):
    X, y, cost = _data()
    res = rlsc(sp.csr_matrix(X) if sparse else X, y, cost, lam)
    Xb = np.column_stack([X, np.ones(len(y))])  # the bias is a regularized constant feature
    w = np.linalg.solve(lam * np.eye(Xb.shape[1]) + Xb.T @ (cost[:, None] * Xb), Xb.T @ (cost * y))
    assert res.converged
    np.testing.assert_allclose(res.w, w, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(res.outputs, Xb @ w, rtol=1e-7, atol=1e-9)
    value = least_squares_objective(res.w, res.outputs, y, cost, lam)
    r = y - Xb @ w
    assert value == pytest.approx(0.5 * lam * w @ w + 0.5 * np.sum(cost * r * r), rel=1e-12)


def test_rlsc_without_intercept_and_not_the_svm():
    X, y, cost = _data(seed=1)
    res = rlsc(X, y, cost, 0.1, intercept=False)
    w = np.linalg.solve(0.1 * np.eye(X.shape[1]) + X.T @ (cost[:, None] * X), X.T @ (cost * y))
    np.testing.assert_allclose(res.w, w, rtol=1e-7, atol=1e-9)
    # the squared loss also penalizes rows beyond the margin: another model than MFN's
    svm = MFNClassifier(alpha=0.1, fit_intercept=False).fit(X, y, sample_weight=cost)
    assert np.abs(svm.coef_.ravel() - res.w).max() > 1e-2


def test_rlsc_reports_an_iteration_cap():
    X, y, cost = _data(seed=2)
    res = rlsc(X, y, cost, 1e-6, max_iter=1)
    assert res.n_iter == 1 and not res.converged
