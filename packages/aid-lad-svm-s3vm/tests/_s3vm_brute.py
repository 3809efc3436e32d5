"""Independent references for the S3VM tests: brute force over all labelings, plain loops.

Every labeling d of the unlabeled entries turns (12)/(15) into a weighted SVM, solved here
by HiGHS's QP through a formulation written separately from the package's.
"""

import itertools

import numpy as np

from svmcore.solvers import solve_qp


def svm_qp(X, y, cost, balance=None):
    """min 0.5||w||^2 + sum_k cost_k xi_k, y_k (w x_k + b) >= 1 - xi_k, xi >= 0 (dense)."""
    K, m = X.shape
    Q = np.zeros((m + 1 + K, m + 1 + K))
    Q[:m, :m] = np.eye(m)
    c = np.concatenate([np.zeros(m + 1), cost])
    A = np.zeros((K, m + 1 + K))
    A[:, :m] = -y[:, None] * X
    A[:, m] = -y
    A[:, m + 1 :] = -np.eye(K)
    bounds = [(None, None)] * (m + 1) + [(0, None)] * K
    kw = {}
    if balance is not None:
        kw = {
            "A_eq": np.concatenate([balance[0], [1.0], np.zeros(K)])[None, :],
            "b_eq": [balance[1]],
        }
    res = solve_qp(Q, c, A_ub=A, b_ub=-np.ones(K), bounds=bounds, **kw)
    w, b = res.x[:m], res.x[m]
    value = 0.5 * w @ w + cost @ np.maximum(0.0, 1.0 - y * (X @ w + b))
    return value, w, b


def brute_force(X_l, y_l, cost_l, X_u, cost_u, balance=None):
    """Global optimum of (15) (or of (12) with unit clusters) over all 2^u labelings.

    Returns ``(value, w, b, d)``.
    """
    best = (np.inf, None, None, None)
    X = np.vstack([X_l, X_u])
    cost = np.concatenate([cost_l, cost_u])
    for d in itertools.product([-1.0, 1.0], repeat=X_u.shape[0]):
        value, w, b = svm_qp(X, np.concatenate([y_l, d]), cost, balance)
        if value < best[0]:
            best = (value, w, b, np.array(d))
    return best


def s3vm_objective_loops(X, y_signed, w, b, cost_neg, cost_pos, M_u):
    """(12) at (w, b), minimized over d, with one plain loop over the samples."""
    total = 0.5 * float(w @ w)
    for x, yi in zip(X, y_signed, strict=True):
        s = float(x @ w + b)
        if yi == 0:
            total += M_u * min(max(0.0, 1.0 - s), max(0.0, 1.0 + s))
        else:
            total += (cost_pos if yi > 0 else cost_neg) * max(0.0, 1.0 - yi * s)
    return total
