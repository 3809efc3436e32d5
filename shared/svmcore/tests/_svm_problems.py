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
    """Reference: the dual QP by HiGHS (equality sum alpha_i y_i = 0, box [0, upper]).

    Returns the dual objective ``sum alpha - ||X^T (alpha y)||^2 / 2`` evaluated here at
    HiGHS's point made exactly feasible (clipped to the box, the larger class's side
    scaled down to meet the equality), so it is a lower bound on the optimum whatever
    the solver's feasibility tolerance: HiGHS 1.13 returned points whose own objective
    was 3.8e-9 relative above a certified primal value on the weighted Newton tests.
    """
    Q = (X @ X.T) * np.outer(y, y)
    K = y.size
    res = solve_qp(
        Q + 1e-12 * np.eye(K),
        -np.ones(K),
        A_eq=y[None, :],
        b_eq=[0.0],
        bounds=np.column_stack([np.zeros(K), upper]),
    )
    a = np.clip(res.x, 0.0, upper)
    pos, neg = a[y > 0].sum(), a[y < 0].sum()
    if pos > neg:
        a[y > 0] *= neg / pos
    elif neg > pos:
        a[y < 0] *= pos / neg
    u = X.T @ (a * y)
    return a.sum() - 0.5 * (u @ u)
