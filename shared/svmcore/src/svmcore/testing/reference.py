"""Independent reference optima for the packages' tests of the certified SVM solvers."""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from ..solvers import hinge_objective

__all__ = ["fixed_bias_svm_objective", "free_bias_svm_objective", "weighted_two_blobs"]


def fixed_bias_svm_objective(X, y, cost, intercept):
    """The weighted SVM with a fixed bias by SLSQP on its primal QP, as an upper bound.

    SLSQP (scipy's sequential quadratic programming) minimizes
    ``0.5 ||w||^2 + sum_k c_k xi_k`` subject to ``y_k (w x_k + b) >= 1 - xi_k``,
    ``xi >= 0`` in the variables ``(w, xi)``: neither a smoothing of the hinge, nor a dual,
    nor HiGHS. The value returned is the objective at SLSQP's ``w`` with the hinge losses
    recomputed, a feasible point's value, so SLSQP's own constraint tolerance cannot put it
    below the optimum. Dense and small problems only (an SQP over ``m + K`` variables).

    Parameters
    ----------
    X : ndarray of shape (K, m)
    y : ndarray of shape (K,) in {-1, +1}
    cost : ndarray of shape (K,), positive
    intercept : float
        The fixed bias ``b``.

    Returns
    -------
    float
        ``0.5 ||w||^2 + sum_k c_k max(0, 1 - y_k (w x_k + b))`` at SLSQP's ``w``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[-1.0], [1.0]]); y = np.array([-1.0, 1.0])
    >>> round(fixed_bias_svm_objective(X, y, np.full(2, 10.0), 0.0), 6)
    0.5
    """
    w, b = _slsqp_svm(X, y, cost, float(intercept))
    return hinge_objective(w, b, X, y, cost)


def free_bias_svm_objective(X, y, cost):
    """The weighted SVM with a free bias by SLSQP on its primal QP, as an upper bound.

    :func:`fixed_bias_svm_objective` with the bias ``b`` a variable of the SQP too
    (unbounded, as in ``0.5 ||w||^2 + sum_k c_k xi_k`` subject to
    ``y_k (w x_k + b) >= 1 - xi_k``, ``xi >= 0``); the value is recomputed at SLSQP's
    ``(w, b)``.

    Parameters
    ----------
    X : ndarray of shape (K, m)
    y : ndarray of shape (K,) in {-1, +1}
    cost : ndarray of shape (K,), positive

    Returns
    -------
    float
        ``0.5 ||w||^2 + sum_k c_k max(0, 1 - y_k (w x_k + b))`` at SLSQP's ``(w, b)``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [2.0]]); y = np.array([-1.0, 1.0])
    >>> round(free_bias_svm_objective(X, y, np.full(2, 10.0)), 6)
    0.5
    """
    w, b = _slsqp_svm(X, y, cost, None)
    return hinge_objective(w, b, X, y, cost)


def weighted_two_blobs(seed, n, m, cost_scale):
    """A tiny weighted SVM problem of the kind AID's S3VM solves with the labels fixed.

    Standard normal rows, labels alternating +1/-1, the positive rows shifted by 1.5 in
    every feature, costs ``cost_scale`` times integers 1..4 (cluster sizes times a
    penalty). At ``cost_scale = 5`` some of these made ``newton_weighted_svm`` stall
    before issue 19's fix; at 5e7 they are (nearly) hard-margin problems.

    Parameters
    ----------
    seed : int
        Seed of ``numpy.random.default_rng``.
    n : int
        Rows (even).
    m : int
        Features.
    cost_scale : float
        The penalty.

    Returns
    -------
    X : ndarray of shape (n, m)
    y : ndarray of shape (n,) in {-1, +1}
    cost : ndarray of shape (n,)

    Examples
    --------
    >>> X, y, cost = weighted_two_blobs(0, 4, 2, 5.0)
    >>> X.shape, y.tolist(), bool(set(cost) <= {5.0, 10.0, 15.0, 20.0})
    ((4, 2), [1.0, -1.0, 1.0, -1.0], True)
    """
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, m))
    y = np.tile([1.0, -1.0], n // 2)
    X[y > 0] += 1.5
    return X, y, cost_scale * rng.integers(1, 5, n)


def _slsqp_svm(X, y, cost, intercept):
    """SLSQP's ``(w, b)`` on the primal QP in ``(w, [b,] xi)``; ``b`` free if None."""
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    cost = np.asarray(cost, dtype=np.float64)
    K, m = X.shape
    p = m if intercept is not None else m + 1  # (w[, b]) before xi

    def bias(v):
        return v[m] if intercept is None else intercept

    def bias_jac():
        return np.zeros((K, 0)) if intercept is not None else y[:, None]

    cons = {
        "type": "ineq",
        "fun": lambda v: y * (X @ v[:m] + bias(v)) - 1.0 + v[p:],
        "jac": lambda v: np.c_[y[:, None] * X, bias_jac(), np.eye(K)],
    }
    start = np.zeros(p + K)
    start[p:] = np.maximum(0.0, 1.0 - y * (intercept or 0.0))
    res = minimize(
        lambda v: 0.5 * v[:m] @ v[:m] + cost @ v[p:],
        start,
        jac=lambda v: np.r_[v[:m], np.zeros(p - m), cost],
        constraints=[cons],
        bounds=[(None, None)] * p + [(0.0, None)] * K,
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 1000},
    )
    return res.x[:m], float(bias(res.x))
