"""The LAD linear program of an aggregated problem, solved by HiGHS (Park & Klabjan 2016,
sec. 3.1): the LP, its sifting variant and the warm basis of a split aggregation."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from svmcore.solvers import InfeasibleError, LPBasis, LPResult, solve_lp
from svmcore.typing import ArrayLike, MatrixLike

__all__ = ["lad_lp", "lad_lp_sifting", "split_basis"]


def _with_intercept(X, fit_intercept):
    if not fit_intercept:
        return X
    ones = np.ones((X.shape[0], 1), dtype=X.dtype)
    return sp.hstack([X, ones], format="csr") if sp.issparse(X) else np.hstack([X, ones])


def lad_lp(
    X: MatrixLike,
    y: ArrayLike,
    weights: ArrayLike | None = None,
    *,
    method: str = "ipm",
    tol: float | None = None,
    time_limit: float | None = None,
    warm_start: LPResult | LPBasis | None = None,
) -> tuple[np.ndarray, float, float, LPResult]:
    """Solve weighted LAD ``min_beta sum_k w_k |y_k - x_k beta|`` exactly through its dual LP.

    .. math::

        \\max_{e} \\; y^T e \\quad \\text{s.t.} \\quad X^T e = 0, \\;
        -w_k \\le e_k \\le w_k ,

    whose equality-row duals are ``-beta``. The dual has ``K`` bounded columns and only
    ``m`` rows, against ``m + 2K`` columns and ``K`` rows for the primal, and HiGHS
    solves it faster (figures in the package README).

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (K, m)
        Design matrix (with a column of ones for an intercept).
    y : ndarray of shape (K,)
        Targets.
    weights : ndarray of shape (K,) or None
        Non-negative weights (unit if None).
    method : {"ipm", "simplex", "choose"}, default="ipm"
        HiGHS method (IPM is followed by crossover, so the duals are a vertex's).
    tol : float or None
        HiGHS feasibility/optimality tolerance.
    time_limit : float or None
        Seconds; a limit raises :class:`svmcore.solvers.SolverError`.
    warm_start : svmcore.solvers.LPBasis or None
        A basis of this LP to start the simplex method from (see
        ``split_basis``); the method is then "simplex".

    Returns
    -------
    beta : ndarray of shape (m,)
        The LAD coefficients (minus the equality-row duals).
    primal : float
        ``sum_k w_k |y_k - x_k beta|`` at the returned ``beta``.
    dual : float
        ``y^T e``, the dual objective (a lower bound of the optimum).
    result : svmcore.solvers.LPResult
        HiGHS's result for the dual LP (``x`` is ``e``; its basis can warm-start the next).
    """
    K = X.shape[0]
    w = np.ones(K) if weights is None else np.asarray(weights, dtype=np.float64)
    A = X.T.tocsc() if sp.issparse(X) else np.ascontiguousarray(X.T, dtype=np.float64)
    res = solve_lp(
        -np.asarray(y, dtype=np.float64),
        A_eq=A,
        b_eq=np.zeros(X.shape[1]),
        bounds=np.column_stack([-w, w]),  # (K, 2) pairs: unambiguous even for K == 2
        method=method,
        tol=tol,
        time_limit=time_limit,
        warm_start=warm_start,
        presolve=warm_start is None,  # presolve would discard the warm basis
    )
    beta = -np.asarray(res.row_duals_eq, dtype=np.float64)
    primal = float(w @ np.abs(y - X @ beta))
    return beta, primal, float(-res.fun), res


def lad_lp_sifting(
    X: MatrixLike,
    y: ArrayLike,
    weights: ArrayLike | None,
    beta0: ArrayLike,
    *,
    method: str = "ipm",
    min_size: int | None = None,
) -> tuple[np.ndarray, float, float, dict[str, Any]]:
    """Solve the weighted LAD dual LP exactly by sifting (a working set of columns).

    Columns far from the hyperplane ``beta0`` are fixed at the bound their residual sign
    says (e_k = w_k sign(r_k), optimal for any nearby beta); the LP is solved on the
    rest with the fixed columns moved to the right-hand side, and every fixed column
    whose residual sign disagrees with the new beta joins the working set, until none
    does. Then beta and the full e satisfy the KKT conditions of the whole LP, so the
    result is exactly :func:`lad_lp`'s optimum.

    Parameters
    ----------
    X : ndarray of shape (K, m)
        Dense design matrix, as in :func:`lad_lp`.
    y : ndarray of shape (K,)
        Targets.
    weights : ndarray of shape (K,) or None
        Non-negative weights (unit if None).
    beta0 : ndarray of shape (m,)
        A guess of the solution (the previous AID iterate).
    method : {"ipm", "simplex", "choose"}, default="ipm"
        HiGHS method for the working-set LPs.
    min_size : int or None
        Initial working-set size; None is max(4 m, 1000).

    Returns
    -------
    beta : ndarray of shape (m,)
        The LAD coefficients, as in :func:`lad_lp`.
    primal : float
        ``sum_k w_k |y_k - x_k beta|`` at the returned ``beta``.
    dual : float
        The dual objective of the full LP (a lower bound of the optimum).
    info : dict
        ``rounds`` (LPs solved), ``size`` (final working set), ``n_iter``, ``status``.
    """
    K, m = X.shape
    w = np.ones(K) if weights is None else np.asarray(weights, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    r = y - X @ beta0
    size = min(K, max(4 * m, 1000) if min_size is None else int(min_size))
    order = np.argsort(np.abs(r), kind="stable")
    in_set = np.zeros(K, dtype=bool)
    in_set[order[:size]] = True
    rounds = n_iter = 0
    while True:
        rounds += 1
        S, F = np.flatnonzero(in_set), np.flatnonzero(~in_set)
        e_F = w[F] * np.where(r[F] > 0, 1.0, -1.0)
        try:
            res = solve_lp(
                -y[S],
                A_eq=np.ascontiguousarray(X[S].T),
                b_eq=-(X[F].T @ e_F),
                bounds=np.column_stack([-w[S], w[S]]),
                method=method,
            )
        except InfeasibleError:
            # Too few free columns to balance the fixed ones: grow by residual order.
            in_set[order[: min(K, 2 * S.size)]] = True
            continue
        n_iter += res.n_iter
        beta = -np.asarray(res.row_duals_eq, dtype=np.float64)
        r = y - X @ beta
        wrong = F[r[F] * e_F < 0]
        if wrong.size == 0:
            e = np.empty(K)
            e[S], e[F] = res.x, e_F
            info = {"rounds": rounds, "size": S.size, "n_iter": n_iter, "status": res.status}
            return beta, float(w @ np.abs(r)), float(y @ e), info
        in_set[wrong] = True


def _certified_bound(dual, primal):
    """Lower bound on the aggregated LAD optimum from the LP's dual and primal values.

    The objective is a sum of absolute values, so 0 is a bound too: it absorbs rounding
    such as a dual value of -3.6e-15 on data fitted exactly, which the AID loop would
    otherwise report as a bound that decreased below the previous one.
    """
    return max(min(dual, primal), 0.0)


def split_basis(result, parent):
    """Map an optimal basis of the previous aggregated dual LP to the split clusters.

    A child cluster inherits its parent's column status; a basic parent keeps its basis
    slot in the child that kept its id and its other children become nonbasic at the
    bound the parent's value leaned to. With e_child = e_parent W_child / W_parent the
    old point stays feasible (X^T e is unchanged), so the simplex method restarts next
    to the previous optimum instead of from scratch.

    ``parent[k]`` is the previous cluster that cluster ``k`` was split from
    (``parent[k] = k`` for the ids the previous partition had: ``Clusters.parent``).
    """
    parent = np.asarray(parent, dtype=np.int64)
    status = result.basis.col_status[parent].copy()
    x = result.x[parent]
    is_new = np.arange(parent.size) != parent
    moved = is_new & (status == 1)
    status[moved] = np.where(x[moved] > 0, 2, 0)
    return LPBasis(col_status=status, row_status=result.basis.row_status.copy())
