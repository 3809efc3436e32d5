"""Slow, obviously correct reference implementations (stumpy's ``tests/naive.py`` habit).

Plain Python loops over float64 copies; no vectorization tricks, no shared code with the
implementations under test. Other helpers may append their own references below.
"""

import math

import numpy as np


def naive_kernel(a, b, kernel, gamma=1.0, degree=3, coef0=1.0):
    """One kernel value from its textbook definition (scikit-learn's conventions)."""
    a = [float(v) for v in a]
    b = [float(v) for v in b]
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    if kernel == "linear":
        return dot
    if kernel == "rbf":
        return math.exp(-gamma * sum((x - y) ** 2 for x, y in zip(a, b, strict=True)))
    if kernel == "poly":
        return (gamma * dot + coef0) ** degree
    raise ValueError(kernel)


def naive_gram(X, Y=None, kernel="rbf", gamma=1.0, degree=3, coef0=1.0, rows=None, cols=None):
    """K(X[rows], Y[cols]) by a double loop."""
    X = np.asarray(X, dtype=np.float64)
    Y = X if Y is None else np.asarray(Y, dtype=np.float64)
    rows = range(X.shape[0]) if rows is None else rows
    cols = range(Y.shape[0]) if cols is None else cols
    return np.array(
        [[naive_kernel(X[i], Y[j], kernel, gamma, degree, coef0) for j in cols] for i in rows],
        dtype=np.float64,
    ).reshape(len(rows), len(cols))


def naive_distances(X, Y=None, kernel="rbf", gamma=1.0, degree=3, coef0=1.0):
    """||phi(a) - phi(b)||^2 = k(a, a) + k(b, b) - 2 k(a, b), clipped at 0, by loops."""
    X = np.asarray(X, dtype=np.float64)
    Y = X if Y is None else np.asarray(Y, dtype=np.float64)
    out = np.empty((X.shape[0], Y.shape[0]))
    for i in range(X.shape[0]):
        for j in range(Y.shape[0]):
            kaa = naive_kernel(X[i], X[i], kernel, gamma, degree, coef0)
            kbb = naive_kernel(Y[j], Y[j], kernel, gamma, degree, coef0)
            kab = naive_kernel(X[i], Y[j], kernel, gamma, degree, coef0)
            out[i, j] = max(kaa + kbb - 2.0 * kab, 0.0)
    return out
