"""One-shot LP and convex QP through HiGHS, :func:`solve_lp` and :func:`solve_qp`: each
builds a ``LinearProgram``, solves it once (optionally warm from an earlier result of the
same shape) and returns its status-checked ``LPResult``; arguments follow
``scipy.optimize.linprog``."""

from __future__ import annotations

from typing import Any

from ..docstrings import fill_doc
from ..typing import ArrayLike, MatrixLike
from ._linear_program import LinearProgram
from ._lp_input import _check_vector
from ._lp_result import LPBasis, LPResult

__all__ = ["solve_lp", "solve_qp"]

#: Parameter docs solve_lp and solve_qp share (see svmcore.docstrings.fill_doc).
_DOCS = {
    "rows": """\
        b_ub : array-like of shape (n_ub,), default=None
            Inequality right-hand side.
        A_eq : array-like or sparse matrix of shape (n_eq, n_variables), default=None
            Equality matrix.
        b_eq : array-like of shape (n_eq,), default=None
            Equality right-hand side.""",
    "on_limit": """\
        on_limit : {"raise", "warn"}, default="raise"
            A time or iteration limit raises
            :class:`~svmcore.solvers.SolverLimitError`, or warns with
            :class:`~svmcore.solvers.SolverLimitWarning` and returns the best point.
        verbose : bool, default=False
            Show HiGHS's log.
        options : dict, default=None
            Further HiGHS options by name.""",
}


@fill_doc(_DOCS)
def solve_lp(
    c: ArrayLike,
    *,
    A_ub: MatrixLike | None = None,
    b_ub: ArrayLike | None = None,
    A_eq: MatrixLike | None = None,
    b_eq: ArrayLike | None = None,
    bounds: Any = None,
    method: str = "ipm",
    time_limit: float | None = None,
    tol: float | None = None,
    max_iter: int | None = None,
    presolve: bool = True,
    crossover: bool = True,
    warm_start: LPResult | LPBasis | None = None,
    on_limit: str = "raise",
    verbose: bool = False,
    options: dict[str, Any] | None = None,
) -> LPResult:
    """Solve a linear program with HiGHS and check its status.

    .. math::

        \\min_x \\; c^T x \\quad \\text{s.t.} \\quad A_{ub} x \\le b_{ub}, \\;
        A_{eq} x = b_{eq}, \\; l \\le x \\le u .

    Parameters
    ----------
    c : array-like of shape (n_variables,)
        Cost vector.
    A_ub : array-like or sparse matrix of shape (n_ub, n_variables), default=None
        Inequality matrix (any scipy.sparse format; converted to CSC for HiGHS).
    %(rows)s
    bounds : None, (lb, ub), sequence of (lb, ub) pairs, (lb_array, ub_array) or \
scipy.optimize.Bounds, default=None
        As in ``scipy.optimize.linprog``: None means ``(0, None)`` for every
        variable, None inside a pair means no bound. A tuple of two 1-d
        ndarrays is always ``(lb_array, ub_array)``; any other 2 x 2 input with
        two variables is read as two pairs, like linprog.
    method : {"ipm", "simplex", "choose"}, default="ipm"
        HiGHS's interior point (followed by crossover), dual simplex, or its
        own choice.
    time_limit : float, default=None
        Wall-clock limit in seconds.
    tol : float, default=None
        Feasibility and IPM optimality tolerance (HiGHS defaults when None).
    max_iter : int, default=None
        Iteration limit (simplex and IPM); when None, only IPM is capped
        (1000 iterations, see :class:`LinearProgram`).
    presolve : bool, default=True
        Whether HiGHS presolves.
    crossover : bool, default=True
        Whether IPM is followed by crossover to a vertex (needed for a basis).
    warm_start : LPResult or LPBasis, default=None
        A previous result on a problem of the same shape: its basis (else its
        solution) seeds the simplex method.
    %(on_limit)s

    Returns
    -------
    LPResult
        Primal solution, objective, duals, final basis and HiGHS status.

    Raises
    ------
    InfeasibleError, UnboundedError
        When HiGHS proves infeasibility or unboundedness. HiGHS's "infeasible
        or unbounded" is settled by solving the feasibility problem.
    SolverLimitError, SolverError
        When a limit stops HiGHS (``on_limit="raise"``) or it fails.

    See Also
    --------
    LinearProgram : The same problem kept alive for modifications and warm re-solves.
    solve_qp : Convex quadratic programs.
    scipy.optimize.linprog : SciPy's interface to the same HiGHS solvers.

    Notes
    -----
    Dual values use linprog's sign convention (see :class:`LPResult`).
    A warm start with ``method="ipm"`` runs the simplex method from the given
    basis, since HiGHS's IPM cannot be warm-started.

    Examples
    --------
    >>> from svmcore.solvers import solve_lp
    >>> res = solve_lp([-1.0, -2.0], A_ub=[[1.0, 1.0]], b_ub=[4.0], bounds=(0, 3))
    >>> res.x, res.fun
    (array([1., 3.]), -7.0)
    >>> res.row_duals_ub
    array([-1.])
    """
    lp = LinearProgram(
        c,
        A_ub=A_ub,
        b_ub=b_ub,
        A_eq=A_eq,
        b_eq=b_eq,
        bounds=bounds,
        method=method,
        time_limit=time_limit,
        tol=tol,
        max_iter=max_iter,
        presolve=presolve,
        crossover=crossover,
        on_limit=on_limit,
        verbose=verbose,
        options=options,
    )
    return lp.solve(warm_start)


@fill_doc(_DOCS)
def solve_qp(
    Q: MatrixLike,
    c: ArrayLike,
    *,
    A_ub: MatrixLike | None = None,
    b_ub: ArrayLike | None = None,
    A_eq: MatrixLike | None = None,
    b_eq: ArrayLike | None = None,
    bounds: Any = None,
    time_limit: float | None = None,
    tol: float | None = None,
    max_iter: int | None = None,
    presolve: bool = True,
    warm_start: LPResult | LPBasis | None = None,
    on_limit: str = "raise",
    verbose: bool = False,
    options: dict[str, Any] | None = None,
) -> LPResult:
    """Solve a convex quadratic program with HiGHS's QP solver and check its status.

    .. math::

        \\min_x \\; \\tfrac12 x^T Q x + c^T x \\quad \\text{s.t.} \\quad
        A_{ub} x \\le b_{ub}, \\; A_{eq} x = b_{eq}, \\; l \\le x \\le u .

    Parameters
    ----------
    Q : array-like or sparse matrix of shape (n_variables, n_variables)
        Symmetric positive semidefinite Hessian (only its lower triangle is
        passed to HiGHS; symmetry is checked).
    c : array-like of shape (n_variables,)
        Linear cost.
    A_ub : array-like or sparse matrix of shape (n_ub, n_variables), default=None
        Inequality matrix, as in :func:`solve_lp`.
    %(rows)s
    bounds : None, (lb, ub), sequence of (lb, ub) pairs, (lb_array, ub_array) or \
scipy.optimize.Bounds, default=None
        Variable bounds, read as in :func:`solve_lp` (None means ``(0, None)`` for
        every variable).
    time_limit : float, default=None
        Wall-clock limit in seconds.
    tol : float, default=None
        Feasibility tolerance (HiGHS defaults when None).
    max_iter : int, default=None
        QP iteration limit (HiGHS's default when None).
    presolve : bool, default=True
        Whether HiGHS presolves.
    warm_start : LPResult or LPBasis, default=None
        A previous result on a problem of the same shape whose basis (else its
        solution) seeds HiGHS.
    %(on_limit)s

    Returns
    -------
    LPResult
        ``fun`` includes the quadratic term; ``col_duals`` are
        ``Q x + c - A^T y``.

    Raises
    ------
    InfeasibleError, UnboundedError, SolverLimitError, SolverError
        As in :func:`solve_lp`; a nonconvex ``Q`` is reported by HiGHS as a
        solver error.

    See Also
    --------
    solve_lp : Linear programs.

    Notes
    -----
    HiGHS solves QPs by a primal active-set method; the LP ``method`` and
    ``crossover`` options do not apply.

    Examples
    --------
    >>> from svmcore.solvers import solve_qp
    >>> res = solve_qp([[2.0, 0.0], [0.0, 2.0]], [-2.0, -4.0], A_ub=[[1.0, 1.0]], b_ub=[1.0])
    >>> res.x.round(6), round(res.fun, 6)
    (array([0., 1.]), -3.0)
    """
    c = _check_vector(c, "c")
    lp = LinearProgram(
        c,
        A_ub=A_ub,
        b_ub=b_ub,
        A_eq=A_eq,
        b_eq=b_eq,
        bounds=bounds,
        Q=Q,
        method="choose",
        time_limit=time_limit,
        tol=tol,
        max_iter=max_iter,
        presolve=presolve,
        on_limit=on_limit,
        verbose=verbose,
        options=options,
    )
    return lp.solve(warm_start)
