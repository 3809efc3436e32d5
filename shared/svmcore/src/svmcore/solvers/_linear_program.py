"""The live HiGHS model, :class:`LinearProgram`: an LP or convex QP built once, then
modified (costs, bounds, right-hand sides, rows and variables added or deleted) and
re-solved warm from HiGHS's previous basis, as decomposition methods need; each solve
checks HiGHS's status (settling "infeasible or unbounded" by a feasibility solve).

Over 500 lines on purpose: one class, whose methods each edit the same live model and
keep its bookkeeping (row and column maps, the basis) consistent; split apart they
would share that state through private attributes across files."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from ..typing import ArrayLike, MatrixLike
from ..validation import check_real
from ._highs_loader import _import_highspy
from ._lp_input import (
    _check_bounds,
    _check_hessian,
    _check_matrix,
    _check_method,
    _check_options,
    _check_rows,
    _check_vector,
    _csc_parts,
    _to_highs_inf,
)
from ._lp_result import LPBasis, LPResult, read_result
from ._status import raise_for_status

__all__ = ["LinearProgram"]

# HiGHS's IPM has no practical iteration limit and, without presolve, can iterate
# forever on an unbounded LP with free variables; a well-posed LP needs < 200.
_DEFAULT_IPM_ITERATION_LIMIT = 1000


def _n_basic(basis: LPBasis) -> int:
    """Count the basic variables and rows of ``basis``."""
    return int(np.count_nonzero(basis.col_status == 1) + np.count_nonzero(basis.row_status == 1))


class LinearProgram:
    """A reusable HiGHS LP (or convex QP): build once, modify, re-solve warm.

    The problem is

    .. math::

        \\min_x \\; c^T x + \\tfrac12 x^T Q x \\quad \\text{s.t.} \\quad
        A_{ub} x \\le b_{ub}, \\; A_{eq} x = b_{eq}, \\; l \\le x \\le u .

    HiGHS keeps its basis between solves, so after changing costs, bounds or
    right-hand sides, or adding or deleting variables and rows, :meth:`solve`
    restarts the simplex method from the previous basis: this is what
    decomposition methods that solve a sequence of related LPs need.

    Parameters
    ----------
    c : array-like of shape (n_variables,)
        Linear cost vector.
    A_ub, b_ub : array-like or sparse matrix of shape (n_ub, n_variables), (n_ub,), default=None
        Inequality rows ``A_ub x <= b_ub``.
    A_eq, b_eq : array-like or sparse matrix of shape (n_eq, n_variables), (n_eq,), default=None
        Equality rows ``A_eq x = b_eq``.
    bounds : see :func:`solve_lp`, default=None
        Variable bounds; None means ``0 <= x < inf`` as in ``linprog``.
    Q : array-like or sparse matrix of shape (n_variables, n_variables), default=None
        Symmetric positive semidefinite Hessian; None for an LP.
    method : {"ipm", "simplex", "choose"}, default="ipm"
        HiGHS LP solver (ignored for a QP, which HiGHS solves by its
        active-set method). ``"ipm"`` runs crossover to a vertex solution
        unless ``crossover=False``.
    time_limit : float, default=None
        Wall-clock limit in seconds of each solve (:meth:`solve` can override
        it per call).
    tol : float, default=None
        Primal and dual feasibility tolerance and IPM optimality tolerance
        (HiGHS defaults, 1e-7 and 1e-8, when None).
    max_iter : int, default=None
        Iteration limit for each of simplex, IPM and QP; None for HiGHS's
        defaults (no practical limit) except IPM, capped at 1000 iterations
        because HiGHS's IPM can otherwise run forever on an unbounded LP
        solved without presolve.
    presolve : bool, default=True
        Whether HiGHS presolves the problem.
    crossover : bool, default=True
        Whether IPM solutions are crossed over to a basic solution.
    on_limit : {"raise", "warn"}, default="raise"
        What to do when a limit stops the solver: raise
        :class:`~svmcore.solvers.SolverLimitError`, or warn with
        :class:`~svmcore.solvers.SolverLimitWarning` and return the best point.
    verbose : bool, default=False
        Show HiGHS's log.
    options : dict, default=None
        Further HiGHS options by name (e.g. ``{"simplex_strategy": 4}``).

    See Also
    --------
    solve_lp : One-shot LP.
    solve_qp : One-shot convex QP.

    Notes
    -----
    Rows keep their kind: :attr:`LPResult.row_duals_ub` and ``row_duals_eq``
    follow the order in which inequality and equality rows were added.
    A warm start from a basis is a simplex feature; when one is used with
    ``method="ipm"``, that solve runs the simplex method instead (HiGHS's IPM
    cannot be warm-started).

    Examples
    --------
    >>> from svmcore.solvers import LinearProgram
    >>> lp = LinearProgram([-1.0, -2.0], A_ub=[[1.0, 1.0]], b_ub=[4.0], bounds=(0, 3))
    >>> lp.solve().fun
    -7.0
    >>> lp.set_costs([-2.0, -1.0])
    >>> lp.solve().x
    array([3., 1.])
    """

    def __init__(
        self,
        c: ArrayLike,
        *,
        A_ub: MatrixLike | None = None,
        b_ub: ArrayLike | None = None,
        A_eq: MatrixLike | None = None,
        b_eq: ArrayLike | None = None,
        bounds: Any = None,
        Q: MatrixLike | None = None,
        method: str = "ipm",
        time_limit: float | None = None,
        tol: float | None = None,
        max_iter: int | None = None,
        presolve: bool = True,
        crossover: bool = True,
        on_limit: str = "raise",
        verbose: bool = False,
        options: dict[str, Any] | None = None,
    ) -> None:
        highspy = _import_highspy()
        c = _check_vector(c, "c")
        n = c.shape[0]
        if n == 0:
            raise ValueError("c is empty: the problem needs at least one variable.")
        A_ub, b_ub = _check_rows(A_ub, b_ub, "A_ub", "b_ub", n)
        A_eq, b_eq = _check_rows(A_eq, b_eq, "A_eq", "b_eq", n)
        lb, ub = _check_bounds(bounds, n)
        Q = None if Q is None else _check_hessian(Q, n)
        self.method = _check_method(method)
        self.time_limit = _check_options(time_limit, tol, max_iter, on_limit)
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be a dict or None, got {type(options).__name__}.")
        self.on_limit = on_limit
        self._is_qp = Q is not None

        self._highs = h = highspy.Highs()
        settings: dict[str, Any] = {
            "output_flag": bool(verbose),
            "presolve": "on" if presolve else "off",
            "run_crossover": "on" if crossover else "off",
        }
        if tol is not None:
            settings.update(
                primal_feasibility_tolerance=tol,
                dual_feasibility_tolerance=tol,
                ipm_optimality_tolerance=tol,
            )
        if max_iter is not None:
            settings.update(
                simplex_iteration_limit=max_iter,
                ipm_iteration_limit=max_iter,
                qp_iteration_limit=max_iter,
            )
        else:
            settings["ipm_iteration_limit"] = _DEFAULT_IPM_ITERATION_LIMIT
        settings.update(options or {})
        self.set_options(settings)

        A = sp.vstack([A_ub, A_eq], format="csc")
        self._row_is_eq = np.r_[np.zeros(A_ub.shape[0], bool), np.ones(A_eq.shape[0], bool)]
        # lower sides of the inequality rows (-inf unless ranged), in model row order
        self._row_lower = np.full(self._row_is_eq.shape[0], -np.inf)
        start, index, value = _csc_parts(A)
        # The array overload of passModel takes numpy buffers directly; building a
        # HighsLp attribute by attribute converts element by element (much slower).
        status = h.passModel(
            n,
            A.shape[0],
            len(value),
            int(highspy.MatrixFormat.kColwise),
            int(highspy.ObjSense.kMinimize),
            0.0,
            c,
            _to_highs_inf(lb),
            _to_highs_inf(ub),
            np.r_[np.full(A_ub.shape[0], -highspy.kHighsInf), b_eq],
            np.r_[b_ub, b_eq],
            start,
            index,
            value,
            np.zeros(n, dtype=np.int32),  # all columns continuous
        )
        self._check_call(status, "passModel")
        if Q is not None and Q.nnz:
            # HiGHS takes the lower triangle column-wise (kTriangular).
            start, index, value = _csc_parts(sp.tril(Q, format="csc"))
            self._check_call(h.passHessian(n, len(value), 1, start, index, value), "passHessian")

    # ----------------------------------------------------------------- properties

    @property
    def n_variables(self) -> int:
        """Number of variables."""
        return int(self._highs.getNumCol())

    @property
    def n_ub(self) -> int:
        """Number of inequality rows."""
        return int((~self._row_is_eq).sum())

    @property
    def n_eq(self) -> int:
        """Number of equality rows."""
        return int(self._row_is_eq.sum())

    # ----------------------------------------------------------------- modifications

    def _indices(self, idx, size, name, total):
        if idx is None:
            return np.arange(total, dtype=np.int32)
        idx = np.asarray(idx)
        if idx.ndim != 1 or (idx.size and idx.dtype.kind not in "iu"):
            raise TypeError(f"{name} must be a 1-d integer array.")
        if idx.size and (idx.min() < 0 or idx.max() >= total):
            raise ValueError(f"{name} holds indices outside [0, {total}).")
        if size is not None and idx.shape[0] != size:
            raise ValueError(f"{name} and the values must have the same length.")
        return idx.astype(np.int32)

    def set_costs(self, c: ArrayLike, idx: ArrayLike | None = None) -> None:
        """Change the costs of the variables ``idx`` (all when None)."""
        n = self.n_variables
        c = _check_vector(c, "c", None if idx is not None else n)
        idx = self._indices(idx, c.shape[0], "idx", n)
        self._check_call(self._highs.changeColsCost(len(idx), idx, c), "changeColsCost")

    def set_bounds(self, lower: ArrayLike, upper: ArrayLike, idx: ArrayLike | None = None) -> None:
        """Change the bounds of the variables ``idx`` (all when None); None = infinite."""
        n = self.n_variables
        k = n if idx is None else np.shape(idx)[0]
        lower = _check_vector(
            np.full(k, -np.inf) if lower is None else lower, "lower", k, allow_inf=True
        )
        upper = _check_vector(
            np.full(k, np.inf) if upper is None else upper, "upper", k, allow_inf=True
        )
        if (lower > upper).any():
            raise ValueError("lower must not exceed upper.")
        idx = self._indices(idx, lower.shape[0], "idx", n)
        self._check_call(
            self._highs.changeColsBounds(len(idx), idx, _to_highs_inf(lower), _to_highs_inf(upper)),
            "changeColsBounds",
        )

    def _row_positions(self, eq, idx, size, name):
        rows = np.flatnonzero(self._row_is_eq == eq)
        return rows[self._indices(idx, size, name, rows.shape[0])].astype(np.int32)

    def set_b_ub(
        self, b_ub: ArrayLike, idx: ArrayLike | None = None, *, lower: ArrayLike | None = None
    ) -> None:
        """Change the right-hand sides of inequality rows ``idx`` (all when None).

        A ranged row keeps its lower side unless ``lower`` (array of shape (k,), -inf
        for one-sided rows) gives the new one; both sides then change in one HiGHS call,
        so a band can move by more than its width.
        """
        b_ub = _check_vector(b_ub, "b_ub", None if idx is not None else self.n_ub)
        rows = self._row_positions(False, idx, b_ub.shape[0], "idx")
        if lower is None:
            lower = self._row_lower[rows]
            if (lower > b_ub).any():
                raise ValueError("b_ub must not be below the lower side of a ranged row.")
        else:
            lower = _check_vector(lower, "lower", b_ub.shape[0], allow_inf=True)
            if (lower > b_ub).any():
                raise ValueError("lower must not exceed b_ub.")
            lower = _to_highs_inf(lower)
        self._check_call(
            self._highs.changeRowsBounds(len(rows), rows, lower, b_ub), "changeRowsBounds"
        )
        self._row_lower[rows] = lower

    def set_b_eq(self, b_eq: ArrayLike, idx: ArrayLike | None = None) -> None:
        """Change the right-hand sides of equality rows ``idx`` (all when None)."""
        b_eq = _check_vector(b_eq, "b_eq", None if idx is not None else self.n_eq)
        rows = self._row_positions(True, idx, b_eq.shape[0], "idx")
        self._check_call(
            self._highs.changeRowsBounds(len(rows), rows, b_eq, b_eq), "changeRowsBounds"
        )

    def add_rows(
        self,
        A: MatrixLike,
        b: ArrayLike,
        *,
        equality: bool = False,
        lower: ArrayLike | None = None,
    ) -> None:
        """Append rows ``A x <= b`` (or ``A x = b`` when ``equality``).

        ``lower`` (array of shape (k,), inequality rows only) makes them ranged
        rows ``lower <= A x <= b``; they count as inequality rows, and their
        :attr:`LPResult.row_duals_ub` entry is ``<= 0`` at the upper side, ``>= 0``
        at the lower side. Ranged rows keep their lower side through
        :meth:`set_b_ub`.
        """
        highspy = _import_highspy()
        A = _check_matrix(A, "A", self.n_variables)
        b = _check_vector(b, "b", A.shape[0])
        start, index, value = _csc_parts(sp.csr_array(A).T)  # CSR rows = CSC of the transpose
        if lower is not None:
            if equality:
                raise ValueError("lower is for inequality rows; equality rows have b only.")
            lower = _check_vector(lower, "lower", b.shape[0], allow_inf=True)
            if (lower > b).any():
                raise ValueError("lower must not exceed b.")
            lower = _to_highs_inf(lower)
        else:
            lower = b if equality else np.full(b.shape[0], -highspy.kHighsInf)
        self._check_call(
            self._highs.addRows(len(b), lower, b, len(value), start[:-1], index, value),
            "addRows",
        )
        self._row_is_eq = np.r_[self._row_is_eq, np.full(b.shape[0], bool(equality))]
        self._row_lower = np.r_[
            self._row_lower, np.full(b.shape[0], -np.inf) if equality else lower
        ]

    def delete_rows(self, idx: ArrayLike, *, equality: bool = False) -> None:
        """Delete inequality rows ``idx`` (equality rows when ``equality``)."""
        rows = self._row_positions(bool(equality), idx, None, "idx")
        self._check_call(self._highs.deleteRows(len(rows), rows), "deleteRows")
        self._row_is_eq = np.delete(self._row_is_eq, rows)
        self._row_lower = np.delete(self._row_lower, rows)

    def add_variables(
        self,
        c: ArrayLike,
        *,
        bounds: Any = None,
        A_ub: MatrixLike | None = None,
        A_eq: MatrixLike | None = None,
    ) -> None:
        """Append variables with costs ``c``, ``bounds`` and their columns in the rows.

        ``A_ub`` (n_ub x k) and ``A_eq`` (n_eq x k) hold the new columns'
        coefficients in the existing inequality and equality rows (zero when None).
        """
        c = _check_vector(c, "c")
        k = c.shape[0]
        lb, ub = _check_bounds(bounds, k)
        parts = []
        for block, name, m in ((A_ub, "A_ub", self.n_ub), (A_eq, "A_eq", self.n_eq)):
            if block is None:
                parts.append(sp.csr_array((m, k)))
                continue
            block = _check_matrix(block, name, k)
            if block.shape[0] != m:
                raise ValueError(f"{name} must have {m} rows, got {block.shape[0]}.")
            parts.append(sp.csr_array(block))
        # stacked rows are (inequality rows, equality rows) in model order; permute
        # them back to the model's interleaving (vectorized: lil assignment was slow)
        order = np.r_[np.flatnonzero(~self._row_is_eq), np.flatnonzero(self._row_is_eq)]
        cols = sp.vstack(parts, format="csr")[np.argsort(order, kind="stable")]
        start, index, value = _csc_parts(sp.csc_array(cols))
        self._check_call(
            self._highs.addCols(
                k, c, _to_highs_inf(lb), _to_highs_inf(ub), len(value), start[:-1], index, value
            ),
            "addCols",
        )

    def delete_variables(self, idx: ArrayLike) -> None:
        """Delete the variables ``idx``; later variables shift down."""
        idx = self._indices(idx, None, "idx", self.n_variables)
        self._check_call(self._highs.deleteCols(len(idx), idx), "deleteCols")

    def set_options(self, options: dict[str, Any]) -> None:
        """Set HiGHS options by name for the next solves, as the constructor's ``options``.

        Raises
        ------
        TypeError
            If ``options`` is not a dict.
        ValueError
            If HiGHS rejects an option's name or value.
        """
        if not isinstance(options, dict):
            raise TypeError(f"options must be a dict, got {type(options).__name__}.")
        highspy = _import_highspy()
        h = self._highs
        for key, value in options.items():
            if h.setOptionValue(key, value) != highspy.HighsStatus.kOk:
                raise ValueError(f"options: HiGHS rejected option {key}={value!r}.")
        self._set_solver(self.method)
        # HiGHS's own limit (infinite unless set through ``options``), restored after
        # each solve that ran under ``time_limit``
        self._highs_time_limit = h.getOptionValue("time_limit")[1]

    # ----------------------------------------------------------------- solving

    def _set_solver(self, method):
        self._highs.setOptionValue("solver", method)

    def solve(
        self, warm_start: LPResult | LPBasis | None = None, *, time_limit: float | None = None
    ) -> LPResult:
        """Solve (warm from the current HiGHS state, or from ``warm_start``).

        Parameters
        ----------
        warm_start : LPResult or LPBasis, default=None
            A previous result (or its basis) whose basis, else primal point,
            seeds HiGHS. It must match the current numbers of variables and
            rows.
        time_limit : float, default=None
            Wall-clock limit in seconds of this solve (> 0); None means the
            constructor's ``time_limit``.

        Returns
        -------
        LPResult
        """
        if time_limit is not None:
            time_limit = check_real(time_limit, "time_limit", low=0.0, low_closed=False)
        else:
            time_limit = self.time_limit
        highspy = _import_highspy()
        h = self._highs
        n, m = self.n_variables, self._row_is_eq.shape[0]
        method = self.method
        if warm_start is not None:
            basis = warm_start if isinstance(warm_start, LPBasis) else None
            x0 = None
            if isinstance(warm_start, LPResult):
                basis, x0 = warm_start.basis, warm_start.x
            elif basis is None:
                raise TypeError(
                    f"warm_start must be an LPResult or LPBasis, got {type(warm_start).__name__}."
                )
            if (
                basis is not None
                and basis.col_status.shape == (n,)
                and basis.row_status.shape == (m,)
            ):
                hb = highspy.HighsBasis()
                hb.col_status = [highspy.HighsBasisStatus(int(s)) for s in basis.col_status]
                hb.row_status = [highspy.HighsBasisStatus(int(s)) for s in basis.row_status]
                # An "alien" basis (HiGHS's default) is LU-factorized inside setBasis to
                # check its rank, and that factor is thrown away: run() factorizes again.
                # A basis with one basic variable per row is passed as HiGHS's own, so
                # only run() factorizes (it still completes a singular one with slacks).
                hb.alien = _n_basic(basis) != m
                self._check_call(h.setBasis(hb), "setBasis")
            elif x0 is not None and x0.shape == (n,):
                sol = highspy.HighsSolution()
                sol.col_value = list(x0)
                self._check_call(h.setSolution(sol), "setSolution")
            else:
                raise ValueError(
                    "warm_start does not match the problem's numbers of variables and rows."
                )
            if method == "ipm":
                method = "simplex"
        self._set_solver(method)
        if time_limit is not None:
            # HiGHS 1.x compares time_limit with the run time accumulated by this
            # Highs object over all its solves (HiGHS issue #1331), so the limit of
            # this solve is counted from the time already spent.
            h.setOptionValue("time_limit", h.getRunTime() + time_limit)
        try:
            run_status = h.run()
        finally:
            self._set_solver(self.method)
            h.setOptionValue("time_limit", self._highs_time_limit)
        status = h.getModelStatus()
        name = status.name
        if name == "kUnboundedOrInfeasible":
            name = self._disambiguate()
        message = h.modelStatusToString(status)
        if run_status == highspy.HighsStatus.kError and name == "kOptimal":
            name = "kSolveError"
        what = "QP" if self._is_qp else "LP"
        raise_for_status(name, message, on_limit=self.on_limit, what=what)
        return read_result(self._highs, self._row_is_eq, name, message)

    def _disambiguate(self):
        """Settle "infeasible or unbounded" by solving the feasibility problem."""
        highspy = _import_highspy()
        probe = highspy.Highs()
        probe.setOptionValue("output_flag", False)
        lp = self._highs.getLp()
        lp.col_cost_ = np.zeros(lp.num_col_)
        probe.passModel(lp)
        probe.run()
        feasible = probe.getModelStatus().name
        if feasible == "kOptimal":
            return "kUnbounded"
        if feasible == "kInfeasible":
            return "kInfeasible"
        return "kUnboundedOrInfeasible"

    @staticmethod
    def _check_call(status, call):
        if status.name == "kError":
            raise ValueError(f"HiGHS rejected the problem data ({call} returned kError).")
