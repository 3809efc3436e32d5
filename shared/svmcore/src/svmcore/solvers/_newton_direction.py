"""The Newton direction of svmcore's smoothed-hinge Newton solver (``_newton.py``): the
``(m + 1)``-square system ``H d = -g`` of each step."""

from __future__ import annotations

import numpy as np

from ..numba_config import jit

__all__ = ["newton_direction"]


def newton_direction(H, g, free_bias=True):
    """``-H^{-1} g`` (``free_bias=False``: the system without the bias's row and column,
    the bias's entry 0): Cholesky in Numba, LAPACK where a pivot is not positive."""
    p = g.size
    d = np.empty(p)
    if _cholesky_direction(H, g, p if free_bias else p - 1, d):
        return d
    if free_bias:
        return _lapack_direction(H, g)
    d = np.zeros(p)
    d[:-1] = _lapack_direction(H[:-1, :-1], g[:-1])
    return d


def _lapack_direction(H, g):
    """``-H^{-1} g``; the minimum-norm least-squares solution when ``H`` is singular to
    machine precision. With a huge ``C`` and a narrow band, ``C s / mu`` (1e14 at C = 1e6,
    mu = 1e-8) swamps the unit curvature of ``||w||^2 / 2`` in the sum and LAPACK finds
    an exact zero pivot (AIDSVC on separable data at C = 1e6 failed with "Matrix is
    singular to machine precision", found by svmcore.testing.hostile).

    NumPy's LAPACK, not Numba's: the system is ``(m + 1)``-square, and compiling Numba's
    ``solve``/``lstsq`` was a third of AIDSVC's first fit in a fresh environment.
    """
    try:
        return np.linalg.solve(H, -g)
    except np.linalg.LinAlgError:
        return np.linalg.lstsq(H, -g, rcond=None)[0]


@jit
def _cholesky_direction(H, g, k, d):
    """``d[:k] = -H[:k, :k]^{-1} g[:k]`` (``d[k:] = 0``) by a Cholesky factorization;
    False, leaving ``d`` to the caller, when a pivot is not positive (``H`` singular to
    working precision: :func:`_lapack_direction` then decides).

    In Numba, not NumPy's LAPACK: the system is ``(m + 1)``-square and solved once per
    Newton step, and ``np.linalg.solve`` with its Python dispatch was 30 % of the Newton
    solve of a 426 x 30 direct fit (38 steps; cProfile, issue 16). ``H`` is symmetric
    positive definite (the identity on ``w``, a positive ridge on ``b``, plus a Gram
    matrix).
    """
    L = np.zeros((k, k))
    for j in range(k):
        s = H[j, j]
        for t in range(j):
            s -= L[j, t] * L[j, t]
        if not s > 0.0:
            return False
        L[j, j] = np.sqrt(s)
        for i in range(j + 1, k):
            s = H[i, j]
            for t in range(j):
                s -= L[i, t] * L[j, t]
            L[i, j] = s / L[j, j]
    for i in range(k):  # L u = -g
        s = -g[i]
        for t in range(i):
            s -= L[i, t] * d[t]
        d[i] = s / L[i, i]
    for i in range(k - 1, -1, -1):  # L^T d = u
        s = d[i]
        for t in range(i + 1, k):
            s -= L[t, i] * d[t]
        d[i] = s / L[i, i]
    for i in range(k, d.size):
        d[i] = 0.0
    return True
