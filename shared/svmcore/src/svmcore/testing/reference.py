"""Independent reference optima for the packages' tests of the certified SVM solvers."""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from ..solvers import hinge_objective

__all__ = ["fixed_bias_svm_objective"]


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
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    cost = np.asarray(cost, dtype=np.float64)
    K, m = X.shape
    b = float(intercept)
    cons = {
        "type": "ineq",
        "fun": lambda v: y * (X @ v[:m] + b) - 1.0 + v[m:],
        "jac": lambda v: np.c_[y[:, None] * X, np.eye(K)],
    }
    res = minimize(
        lambda v: 0.5 * v[:m] @ v[:m] + cost @ v[m:],
        np.r_[np.zeros(m), np.maximum(0.0, 1.0 - y * b)],
        jac=lambda v: np.r_[v[:m], cost],
        constraints=[cons],
        bounds=[(None, None)] * m + [(0.0, None)] * K,
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 1000},
    )
    return hinge_objective(res.x[:m], b, X, y, cost)
