"""Weighted SVM test problems and an independent reference optimum (HiGHS's dual QP)."""

import numpy as np

from svmcore.solvers import solve_qp


def weighted_svm_data(n, d, seed):
    """Off-centre two-class Gaussian data (the bias matters) with integer weights 1-49."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    X = rng.normal(size=(n, d)) + 0.7 * y[:, None] + 3.0
    w = rng.integers(1, 50, n).astype(float)
    return X, y, w


def dual_qp_optimum(X, y, upper):
    """Reference: the dual QP by HiGHS (equality sum alpha_i y_i = 0, box [0, upper])."""
    Q = (X @ X.T) * np.outer(y, y)
    K = y.size
    res = solve_qp(
        Q + 1e-12 * np.eye(K),
        -np.ones(K),
        A_eq=y[None, :],
        b_eq=[0.0],
        bounds=np.column_stack([np.zeros(K), upper]),
    )
    return -res.fun
