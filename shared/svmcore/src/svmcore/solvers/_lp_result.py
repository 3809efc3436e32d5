"""Result types of the HiGHS LP/QP solvers: :class:`LPResult`, what ``solve_lp``,
``solve_qp`` and ``LinearProgram.solve`` return (primal point, objective, duals in
``scipy.optimize.linprog``'s sign convention, HiGHS status, iterations), and
:class:`LPBasis`, its final simplex basis, which also warm-starts a later solve of a
problem of the same shape; :func:`read_result` reads one off a solved HiGHS model."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["LPBasis", "LPResult"]


@dataclass(frozen=True)
class LPBasis:
    """A simplex basis in HiGHS's coding (0 lower, 1 basic, 2 upper, 3 zero, 4 nonbasic).

    Parameters
    ----------
    col_status : ndarray of shape (n_variables,), dtype int8
        Status of each variable.
    row_status : ndarray of shape (n_rows,), dtype int8
        Rows in the order of the problem's rows (for :func:`solve_lp`: the
        ``A_ub`` rows, then the ``A_eq`` rows).
    """

    col_status: np.ndarray
    row_status: np.ndarray


@dataclass(frozen=True)
class LPResult:
    """Solution of an LP or QP solved by HiGHS.

    Parameters
    ----------
    x : ndarray of shape (n_variables,)
        Primal solution.
    fun : float
        Objective value at ``x``.
    status : str
        HiGHS model status name (``"kOptimal"``, ``"kTimeLimit"``, ...).
    message : str
        HiGHS's text for the status.
    row_duals_ub : ndarray of shape (n_ub,)
        Duals of the inequality rows, sign convention of
        ``scipy.optimize.linprog`` (``ineqlin.marginals``): the derivative of
        the optimal objective with respect to ``b_ub``, hence ``<= 0``.
    row_duals_eq : ndarray of shape (n_eq,)
        Duals of the equality rows (``eqlin.marginals``), derivative with
        respect to ``b_eq``.
    col_duals : ndarray of shape (n_variables,)
        Reduced costs ``c + Q x - A_ub^T y_ub - A_eq^T y_eq``: ``>= 0`` at a
        lower bound, ``<= 0`` at an upper bound, 0 strictly between
        (``lower.marginals + upper.marginals`` in linprog's terms).
    basis : LPBasis or None
        Final simplex basis, None when HiGHS has no valid basis (IPM without
        crossover).
    n_iter : int
        Iterations: simplex + IPM + crossover + QP iterations.
    """

    x: np.ndarray
    fun: float
    status: str
    message: str
    row_duals_ub: np.ndarray
    row_duals_eq: np.ndarray
    col_duals: np.ndarray
    basis: LPBasis | None
    n_iter: int

    @property
    def success(self) -> bool:
        """True when HiGHS proved optimality."""
        return self.status == "kOptimal"


def read_result(h: Any, row_is_eq: np.ndarray, name: str, message: str) -> LPResult:
    """The :class:`LPResult` of a solved ``highspy.Highs`` model.

    ``row_is_eq`` marks the model's equality rows (their duals go to ``row_duals_eq``, the
    others' to ``row_duals_ub``). Duals HiGHS did not produce are NaN; the basis is kept
    only when HiGHS calls it valid.
    """
    info = h.getInfo()
    sol = h.getSolution()
    x = np.array(sol.col_value, dtype=np.float64)
    row_dual = np.array(sol.row_dual, dtype=np.float64)
    if row_dual.shape[0] != row_is_eq.shape[0]:
        row_dual = np.full(row_is_eq.shape[0], np.nan)
    col_dual = np.array(sol.col_dual, dtype=np.float64)
    if col_dual.shape[0] != x.shape[0]:
        col_dual = np.full(x.shape[0], np.nan)
    basis = None
    if info.basis_validity == 1:
        hb = h.getBasis()
        basis = LPBasis(
            np.array([int(s) for s in hb.col_status], dtype=np.int8),
            np.array([int(s) for s in hb.row_status], dtype=np.int8),
        )
    n_iter = sum(
        max(int(v), 0)
        for v in (
            info.simplex_iteration_count,
            info.ipm_iteration_count,
            info.crossover_iteration_count,
            info.qp_iteration_count,
        )
    )
    return LPResult(
        x=x,
        fun=float(info.objective_function_value),
        status=name,
        message=message,
        row_duals_ub=row_dual[~row_is_eq],
        row_duals_eq=row_dual[row_is_eq],
        col_duals=col_dual,
        basis=basis,
        n_iter=n_iter,
    )
