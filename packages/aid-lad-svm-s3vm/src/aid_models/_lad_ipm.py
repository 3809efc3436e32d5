"""Dense primal-dual interior point for weighted LAD (a Frisch-Newton method).

The paper solves LAD and its aggregated problems with quantreg's ``rq(method="fn")``,
Portnoy and Koenker's Frisch-Newton interior point method on the dual LP. This is the
same idea written for NumPy: Mehrotra predictor-corrector steps on

.. math::

    \\max_e \\; y^T e \\quad \\text{s.t.} \\quad X^T e = 0, \\; -w \\le e \\le w ,

whose normal equations are the small p x p system ``X^T Theta X``; with p rows and K
columns one iteration costs O(K p^2) in BLAS (dense) or O(nnz p) (sparse).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as la
import scipy.sparse as sp

from svmcore.linalg import boundary_step, weighted_gram
from svmcore.typing import ArrayLike, MatrixLike

__all__ = ["lad_interior_point"]

_STEP = 0.99995  # fraction of the way to the boundary


def _balanced(X, e, rtol=1e-9):
    """Whether ``X^T e = 0`` holds to ``rtol`` relative to ``|X|^T |e|`` (per entry max)."""
    violation = float(np.max(np.abs(X.T @ e), initial=0.0))
    if sp.issparse(X):  # |X| sharing X's indices: a copy of the values only
        X = sp.csr_matrix((np.abs(X.data), X.indices, X.indptr), shape=X.shape, copy=False)
    else:
        X = np.abs(X)
    size = float(np.max(X.T @ np.abs(e), initial=0.0))
    return violation <= rtol * max(size, 1e-300)


def _cholesky(M):
    """Cholesky factor of the normal matrix, with a tiny ridge when it is singular."""
    scale = max(float(np.max(np.abs(np.diag(M)))), 1e-300)
    ridge = 0.0
    for _ in range(8):
        try:
            # No M + 0 I: at p = 2,049 columns each p x p array is 34 MB.
            A = M if ridge == 0.0 else M + ridge * np.eye(M.shape[0])
            return la.cho_factor(A, check_finite=False)
        except la.LinAlgError:
            ridge = scale * (1e-14 if ridge == 0.0 else 100.0 * ridge / scale)
    raise la.LinAlgError("LAD interior point: the normal matrix is singular.")


def lad_interior_point(
    X: MatrixLike,
    y: ArrayLike,
    weights: ArrayLike | None = None,
    *,
    tol: float = 1e-10,
    max_iter: int = 100,
) -> tuple[np.ndarray, float, float, dict[str, Any]]:
    """Solve ``min_beta sum_k w_k |y_k - x_k beta|`` by a primal-dual interior point.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (K, p)
        Design matrix (with a column of ones for an intercept).
    y : ndarray of shape (K,)
        Targets.
    weights : ndarray of shape (K,) or None
        Positive weights (unit if None).
    tol : float, default=1e-10
        Stop when the duality gap relative to the objective is below ``tol`` (the
        objective floored at 1e-4 ``sum_k w_k |y_k|``).
    max_iter : int, default=100
        Maximum number of interior-point iterations.

    Returns
    -------
    beta : ndarray of shape (p,)
        The equality duals of the LP (the coefficients).
    primal : float
        ``sum_k w_k |y_k - x_k beta|``, the LAD objective at ``beta`` (an upper bound).
    dual : float
        ``y^T e`` for ``e`` in the box with ``X^T e = 0`` up to round-off (restored by a
        final projection): a lower bound on the optimum by weak duality.
    info : dict
        ``n_iter``, ``status`` ("optimal", "max_iter", "failed" when the gap stopped
        being finite, or "infeasible" when ``X^T e = 0`` could not be restored to 1e-9
        relative) and ``gap`` (relative).
    """
    y = np.asarray(y, dtype=np.float64)
    K = y.size
    w = np.ones(K) if weights is None else np.asarray(weights, dtype=np.float64)
    if not sp.issparse(X):
        X = np.asarray(X, dtype=np.float64)
    # Start: e = 0 (primal feasible, strictly inside the box), beta the weighted least
    # squares fit, z - v = -r split so that both are positive (dual feasible).
    chol = _cholesky(weighted_gram(X, w))
    beta = la.cho_solve(chol, X.T @ (w * y), check_finite=False)
    r = y - X @ beta
    shift = max(float(np.mean(np.abs(r))), 1e-12 * (1.0 + float(np.max(np.abs(y)))))
    e = np.zeros(K)
    z = np.maximum(-r, 0.0) + shift  # multiplier of e >= -w
    v = np.maximum(r, 0.0) + shift  # multiplier of e <= w
    status, n_iter, gap = "max_iter", 0, np.inf
    # Gaps are relative to the objective, floored at 1e-4 of the objective at beta = 0
    # so that an exact fit (optimum 0) converges too.
    floor = max(1e-4 * float(w @ np.abs(y)), 1e-300)
    theta = w  # the factor in chol is always that of weighted_gram(X, theta)
    # The box's slacks are iterates of their own: recomputed as w + e and w - e, one
    # smaller than the rounding unit of w became 0 (e on the bound), and the next step
    # divided by it (NaN to max_iter, then HiGHS: 1 of 5 LPs of a 3,000-row text fit).
    s1, s2 = w.copy(), w.copy()
    while True:
        rd = y - X @ beta + z - v  # dual residual (0 up to round-off)
        rp = -(X.T @ e)  # primal residual
        primal_obj = float(y @ e)
        dual_obj = float(w @ (z + v))
        gap = (dual_obj - primal_obj) / max(abs(primal_obj), abs(dual_obj), floor)
        if gap <= tol:
            status = "optimal"
            break
        if not np.isfinite(gap):
            status = "failed"
            break
        if n_iter == max_iter:
            break
        n_iter += 1
        theta = 1.0 / (z / s1 + v / s2)
        chol = _cholesky(weighted_gram(X, theta))

        def direction(c1, c2, theta=theta, chol=chol, s1=s1, s2=s2, rd=rd, rp=rp, z=z, v=v):
            q = rd + c1 / s1 - c2 / s2
            dbeta = la.cho_solve(chol, X.T @ (theta * q) - rp, check_finite=False)
            de = theta * (q - X @ dbeta)
            return dbeta, de, (c1 - z * de) / s1, (c2 + v * de) / s2

        mu = (s1 @ z + s2 @ v) / (2 * K)
        # Predictor (affine scaling), then Mehrotra's corrector with centring sigma.
        _, de_a, dz_a, dv_a = direction(-s1 * z, -s2 * v)
        ap = min(boundary_step(s1, de_a), boundary_step(s2, -de_a))
        ad = min(boundary_step(z, dz_a), boundary_step(v, dv_a))
        mu_aff = ((s1 + ap * de_a) @ (z + ad * dz_a) + (s2 - ap * de_a) @ (v + ad * dv_a)) / (2 * K)
        sigma = (mu_aff / mu) ** 3
        dbeta, de, dz, dv = direction(
            sigma * mu - s1 * z - de_a * dz_a, sigma * mu - s2 * v + de_a * dv_a
        )
        ap = _STEP * min(boundary_step(s1, de), boundary_step(s2, -de))
        ad = _STEP * min(boundary_step(z, dz), boundary_step(v, dv))
        e = np.clip(e + ap * de, -w, w)
        s1 = s1 + ap * de
        s2 = s2 - ap * de
        beta = beta + ad * dbeta
        z = z + ad * dz
        v = v + ad * dv
    # Restore X^T e = 0 exactly up to round-off: move the columns inside the box
    # (theta large there, tiny at the bounds) by the least-squares correction.
    # (theta and its factor from the last Newton step: the bounds' slacks may now be 0
    # after the clip.)
    delta = X.T @ e
    if np.any(delta != 0.0):
        e_fixed = e - theta * (X @ la.cho_solve(chol, delta, check_finite=False))
        if np.all(np.abs(e_fixed) <= w):
            e = e_fixed
    # y^T e bounds the optimum only for a feasible e; otherwise report it (the estimator
    # then solves the LP with HiGHS instead).
    if status == "optimal" and not _balanced(X, e):
        status = "infeasible"
    primal = float(w @ np.abs(y - X @ beta))
    return beta, primal, float(y @ e), {"n_iter": n_iter, "status": status, "gap": gap}
