"""LP and convex QP through HiGHS (highspy): a thin builder with status checking.

highspy is an optional dependency (the ``lp`` extra of svmcore), so it is
imported lazily inside the functions that need it.
"""

import ctypes
import functools
import numbers
import os
import sys
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.optimize import Bounds

from ..validation import check_real
from ._errors import raise_for_status

__all__ = ["LPBasis", "LPResult", "LinearProgram", "solve_lp", "solve_qp"]

_METHODS = ("ipm", "simplex", "choose")
# HiGHS's IPM has no practical iteration limit and, without presolve, can iterate
# forever on an unbounded LP with free variables; a well-posed LP needs < 200.
_DEFAULT_IPM_ITERATION_LIMIT = 1000


@functools.cache
def _import_highspy():
    try:
        import highspy
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise ImportError(
            "svmcore's LP/QP solvers need the HiGHS Python bindings (highspy); "
            "install them with `pip install svmcore[lp]` (or `pip install highspy`)."
        ) from exc
    _consume_banner(highspy)
    return highspy


def _consume_banner(highspy):
    """Create the process's first ``Highs`` with the C-level stdout sent to /dev/null.

    HiGHS (1.8 and later) prints its banner ("Running HiGHS ... Copyright ...") on stdout
    when the first instance of a process is constructed, before any option such as
    ``output_flag`` can be set; later instances are silent. A library prints nothing
    unless asked, so the banner is swallowed once here. The redirection lasts for one
    constructor call; where file descriptor 1 cannot be duplicated the banner is left be.
    """
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # pragma: no cover - no usable stdout descriptor
        highspy.Highs()
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            highspy.Highs()
            _flush_c_stdout()
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _flush_c_stdout():
    """Flush C's stdout buffer, so a buffered banner reaches /dev/null, not the real fd."""
    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):  # pragma: no cover - no C runtime to flush (Windows)
        pass


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
    def success(self):
        """True when HiGHS proved optimality."""
        return self.status == "kOptimal"


# --------------------------------------------------------------------------- validation


def _check_vector(v, name, n=None, *, allow_inf=False):
    if sp.issparse(v):
        v = v.toarray()
    try:
        v = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a 1-d array of real numbers: {exc}") from exc
    if v.ndim == 2 and 1 in v.shape:
        v = v.ravel()
    if v.ndim != 1:
        raise ValueError(f"{name} must be 1-dimensional, got shape {v.shape}.")
    if n is not None and v.shape[0] != n:
        raise ValueError(f"{name} must have length {n}, got {v.shape[0]}.")
    bad = np.isnan(v) if allow_inf else ~np.isfinite(v)
    if bad.any():
        raise ValueError(f"{name} contains NaN{'' if allow_inf else ' or infinity'}.")
    return v


def _check_matrix(A, name, n_cols):
    if sp.issparse(A):
        A = sp.csc_array(A, dtype=np.float64)
        data = A.data
    else:
        try:
            A = np.asarray(A, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} must be a 2-d array or sparse matrix: {exc}") from exc
        if A.ndim == 1 and n_cols is not None and A.shape[0] == n_cols:
            A = A[None, :]  # one constraint row given as a vector, as linprog accepts
        if A.ndim != 2:
            raise ValueError(f"{name} must be 2-dimensional, got shape {A.shape}.")
        data = A
    if n_cols is not None and A.shape[1] != n_cols:
        raise ValueError(f"{name} must have {n_cols} columns (len(c)), got shape {A.shape}.")
    if not np.isfinite(data).all():
        raise ValueError(f"{name} contains NaN or infinity.")
    return sp.csc_array(A)


def _check_rows(A, b, A_name, b_name, n):
    if (A is None) != (b is None):
        missing = b_name if b is None else A_name
        raise ValueError(f"{A_name} and {b_name} must be given together; {missing} is missing.")
    if A is None:
        return sp.csc_array((0, n)), np.zeros(0)
    A = _check_matrix(A, A_name, n)
    b = _check_vector(b, b_name, A.shape[0])
    return A, b


def _none_to_inf(v, sign):
    return sign * np.inf if v is None else v


def _is_array_pair(bounds):
    return (
        isinstance(bounds, tuple)
        and len(bounds) == 2
        and all(isinstance(b, np.ndarray) and b.ndim == 1 for b in bounds)
    )


def _check_bounds(bounds, n):
    """Bounds as ``linprog`` takes them -> (lower, upper) arrays with +-inf."""
    if bounds is None:
        return np.zeros(n), np.full(n, np.inf)
    if _is_array_pair(bounds):
        # (lb_array, ub_array) of 1-d ndarrays: read as such even when n == 2, where the
        # generic shape test below could not tell it from two (lb, ub) pairs.
        bounds = Bounds(bounds[0], bounds[1])
    if isinstance(bounds, Bounds):
        try:
            lb = np.broadcast_to(np.asarray(bounds.lb, dtype=np.float64), (n,)).copy()
            ub = np.broadcast_to(np.asarray(bounds.ub, dtype=np.float64), (n,)).copy()
        except ValueError as exc:
            raise ValueError(f"bounds: lower/upper arrays must have {n} entries: {exc}") from exc
    else:
        try:
            arr = np.asarray(bounds, dtype=object)
        except (TypeError, ValueError) as exc:  # ragged
            raise ValueError(f"bounds could not be interpreted: {exc}") from exc
        if arr.shape == (2,):  # one (lb, ub) pair for all variables
            pairs = np.array([[_none_to_inf(arr[0], -1), _none_to_inf(arr[1], 1)]] * n)
        elif arr.shape == (n, 2):  # linprog's sequence of pairs (wins over (2, n) for n == 2)
            pairs = [[_none_to_inf(lo, -1), _none_to_inf(hi, 1)] for lo, hi in arr]
        elif arr.shape == (2, n):  # (lower_array, upper_array)
            pairs = [
                [_none_to_inf(lo, -1), _none_to_inf(hi, 1)]
                for lo, hi in zip(arr[0], arr[1], strict=True)
            ]
        else:
            raise ValueError(
                f"bounds must be None, one (lb, ub) pair, a sequence of {n} pairs, a "
                f"(lb_array, ub_array) pair or scipy.optimize.Bounds; got shape {arr.shape}."
            )
        try:
            pairs = np.asarray(pairs, dtype=np.float64).reshape(n, 2)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"bounds must hold real numbers or None: {exc}") from exc
        lb, ub = pairs[:, 0].copy(), pairs[:, 1].copy()
    if np.isnan(lb).any() or np.isnan(ub).any():
        raise ValueError("bounds contain NaN.")
    if (lb == np.inf).any() or (ub == -np.inf).any():
        raise ValueError("bounds: a lower bound of +inf or an upper bound of -inf is invalid.")
    if (lb > ub).any():
        j = int(np.flatnonzero(lb > ub)[0])
        raise ValueError(f"bounds: lower bound exceeds upper bound for variable {j}.")
    return lb, ub


def _check_method(method):
    if method not in _METHODS:
        raise ValueError(f"method must be one of {_METHODS}, got {method!r}.")
    return method


def _check_options(time_limit, tol, max_iter, on_limit):
    if time_limit is not None:
        time_limit = check_real(time_limit, "time_limit", low=0.0, low_closed=False)
    if tol is not None:
        tol = check_real(tol, "tol", low=0.0, high=1.0, low_closed=False, high_closed=False)
    if max_iter is not None:
        if isinstance(max_iter, bool) or not isinstance(max_iter, numbers.Integral):
            raise TypeError(f"max_iter must be an int or None, got {type(max_iter).__name__}.")
        if max_iter < 0:
            raise ValueError(f"max_iter must be >= 0, got {max_iter}.")
    if on_limit not in ("raise", "warn"):
        raise ValueError(f"on_limit must be 'raise' or 'warn', got {on_limit!r}.")
    return time_limit


def _check_hessian(Q, n):
    Q = _check_matrix(Q, "Q", n)
    if Q.shape != (n, n):
        raise ValueError(f"Q must be square of shape ({n}, {n}) (len(c)), got {Q.shape}.")
    asym = abs(Q - Q.T)
    scale = max(abs(Q).max(), 1.0) if Q.nnz else 1.0
    if asym.nnz and asym.max() > 1e-10 * scale:
        raise ValueError("Q must be symmetric (the objective is 0.5 x^T Q x + c^T x).")
    return Q


# --------------------------------------------------------------------------- the builder


def _csc_parts(A):
    A = sp.csc_array(A)
    A.sum_duplicates()
    return (
        A.indptr.astype(np.int32),
        A.indices.astype(np.int32),
        A.data.astype(np.float64, copy=False),
    )


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
        c,
        *,
        A_ub=None,
        b_ub=None,
        A_eq=None,
        b_eq=None,
        bounds=None,
        Q=None,
        method="ipm",
        time_limit=None,
        tol=None,
        max_iter=None,
        presolve=True,
        crossover=True,
        on_limit="raise",
        verbose=False,
        options=None,
    ):
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
        settings = {
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
        for key, value in settings.items():
            if h.setOptionValue(key, value) != highspy.HighsStatus.kOk:
                raise ValueError(f"options: HiGHS rejected option {key}={value!r}.")
        self._set_solver(self.method)
        # HiGHS's own limit (infinite unless set through ``options``), restored after
        # each solve that ran under ``time_limit``
        self._highs_time_limit = h.getOptionValue("time_limit")[1]

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
        if self._is_qp and Q.nnz:
            # HiGHS takes the lower triangle column-wise (kTriangular).
            start, index, value = _csc_parts(sp.tril(Q, format="csc"))
            self._check_call(h.passHessian(n, len(value), 1, start, index, value), "passHessian")

    # ----------------------------------------------------------------- properties

    @property
    def n_variables(self):
        """Number of variables."""
        return int(self._highs.getNumCol())

    @property
    def n_ub(self):
        """Number of inequality rows."""
        return int((~self._row_is_eq).sum())

    @property
    def n_eq(self):
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

    def set_costs(self, c, idx=None):
        """Change the costs of the variables ``idx`` (all when None)."""
        n = self.n_variables
        c = _check_vector(c, "c", None if idx is not None else n)
        idx = self._indices(idx, c.shape[0], "idx", n)
        self._check_call(self._highs.changeColsCost(len(idx), idx, c), "changeColsCost")

    def set_bounds(self, lower, upper, idx=None):
        """Change the bounds of the variables ``idx`` (all when None); None = infinite."""
        n = self.n_variables
        k = n if idx is None else len(idx)
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

    def set_b_ub(self, b_ub, idx=None):
        """Change the right-hand sides of inequality rows ``idx`` (all when None)."""
        b_ub = _check_vector(b_ub, "b_ub", None if idx is not None else self.n_ub)
        rows = self._row_positions(False, idx, b_ub.shape[0], "idx")
        lower = self._row_lower[rows]
        if (lower > b_ub).any():
            raise ValueError("b_ub must not be below the lower side of a ranged row.")
        self._check_call(
            self._highs.changeRowsBounds(len(rows), rows, lower, b_ub), "changeRowsBounds"
        )

    def set_b_eq(self, b_eq, idx=None):
        """Change the right-hand sides of equality rows ``idx`` (all when None)."""
        b_eq = _check_vector(b_eq, "b_eq", None if idx is not None else self.n_eq)
        rows = self._row_positions(True, idx, b_eq.shape[0], "idx")
        self._check_call(
            self._highs.changeRowsBounds(len(rows), rows, b_eq, b_eq), "changeRowsBounds"
        )

    def add_rows(self, A, b, *, equality=False, lower=None):
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

    def delete_rows(self, idx, *, equality=False):
        """Delete inequality rows ``idx`` (equality rows when ``equality``)."""
        rows = self._row_positions(bool(equality), idx, None, "idx")
        self._check_call(self._highs.deleteRows(len(rows), rows), "deleteRows")
        self._row_is_eq = np.delete(self._row_is_eq, rows)
        self._row_lower = np.delete(self._row_lower, rows)

    def add_variables(self, c, *, bounds=None, A_ub=None, A_eq=None):
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

    def delete_variables(self, idx):
        """Delete the variables ``idx``; later variables shift down."""
        idx = self._indices(idx, None, "idx", self.n_variables)
        self._check_call(self._highs.deleteCols(len(idx), idx), "deleteCols")

    # ----------------------------------------------------------------- solving

    def _set_solver(self, method):
        self._highs.setOptionValue("solver", method)

    def solve(self, warm_start=None, *, time_limit=None):
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
        return self._result(name, message)

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

    def _result(self, name, message):
        h = self._highs
        info = h.getInfo()
        sol = h.getSolution()
        x = np.array(sol.col_value, dtype=np.float64)
        row_dual = np.array(sol.row_dual, dtype=np.float64)
        if row_dual.shape[0] != self._row_is_eq.shape[0]:
            row_dual = np.full(self._row_is_eq.shape[0], np.nan)
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
            row_duals_ub=row_dual[~self._row_is_eq],
            row_duals_eq=row_dual[self._row_is_eq],
            col_duals=col_dual,
            basis=basis,
            n_iter=n_iter,
        )

    @staticmethod
    def _check_call(status, call):
        if status.name == "kError":
            raise ValueError(f"HiGHS rejected the problem data ({call} returned kError).")


def _to_highs_inf(v):
    # highspy's infinity is float('inf'), but clip anyway so 1e300-style values stay infinite.
    return np.clip(v, -np.inf, np.inf).astype(np.float64)


def solve_lp(
    c,
    *,
    A_ub=None,
    b_ub=None,
    A_eq=None,
    b_eq=None,
    bounds=None,
    method="ipm",
    time_limit=None,
    tol=None,
    max_iter=None,
    presolve=True,
    crossover=True,
    warm_start=None,
    on_limit="raise",
    verbose=False,
    options=None,
):
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
    b_ub : array-like of shape (n_ub,), default=None
        Inequality right-hand side.
    A_eq : array-like or sparse matrix of shape (n_eq, n_variables), default=None
        Equality matrix.
    b_eq : array-like of shape (n_eq,), default=None
        Equality right-hand side.
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
    on_limit : {"raise", "warn"}, default="raise"
        A time or iteration limit raises
        :class:`~svmcore.solvers.SolverLimitError`, or warns with
        :class:`~svmcore.solvers.SolverLimitWarning` and returns the best point.
    verbose : bool, default=False
        Show HiGHS's log.
    options : dict, default=None
        Further HiGHS options by name.

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


def solve_qp(
    Q,
    c,
    *,
    A_ub=None,
    b_ub=None,
    A_eq=None,
    b_eq=None,
    bounds=None,
    time_limit=None,
    tol=None,
    max_iter=None,
    presolve=True,
    warm_start=None,
    on_limit="raise",
    verbose=False,
    options=None,
):
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
    b_ub : array-like of shape (n_ub,), default=None
        Inequality right-hand side.
    A_eq : array-like or sparse matrix of shape (n_eq, n_variables), default=None
        Equality matrix.
    b_eq : array-like of shape (n_eq,), default=None
        Equality right-hand side.
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
    on_limit : {"raise", "warn"}, default="raise"
        A time or iteration limit raises
        :class:`~svmcore.solvers.SolverLimitError`, or warns with
        :class:`~svmcore.solvers.SolverLimitWarning` and returns the best point.
    verbose : bool, default=False
        Show HiGHS's log.
    options : dict, default=None
        Further HiGHS options by name.

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
