"""Result types of the HiGHS LP/QP solvers: :class:`LPResult`, what ``solve_lp``,
``solve_qp`` and ``LinearProgram.solve`` return (primal point, objective, duals in
``scipy.optimize.linprog``'s sign convention, HiGHS status, iterations), and
:class:`LPBasis`, its final simplex basis, which also warm-starts a later solve of a
problem of the same shape."""

from __future__ import annotations

from dataclasses import dataclass

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
