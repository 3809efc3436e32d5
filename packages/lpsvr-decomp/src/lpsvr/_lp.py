"""The corrected LP-SVR linear program on a subset of samples, solved by HiGHS.

Rivas-Perea & Cota-Ruiz (2013), eq. (3)-(4), with the flaw of the printed
formulation repaired. As printed, sample j has ONE slack u_j in both equality
rows; adding and subtracting the rows gives ``u_j = epsilon + xi_j`` and
``f(x_j) = d_j``: interpolation is forced. The intended epsilon-insensitive
model gives each row its own surplus (u_j and v_j), i.e. the two rows are
inequalities:

    -f(x_j) - xi_j <= epsilon - d_j        (row 1, surplus u_j)
     f(x_j) - xi_j <= epsilon + d_j        (row 2, surplus v_j)

so that ``xi_j = max(0, |d_j - f(x_j)| - epsilon)`` at the optimum. The
variables keep the paper's layout ``z = (alpha+, alpha-, b+, b-, xi)`` with
costs ``c = (1, 1, 0, 0, 2 C s_j)``; the surpluses are HiGHS's row slacks.

Row duals: HiGHS returns ``lambda_1, lambda_2 <= 0`` for the two "<=" rows
(derivatives of the optimum in the right-hand sides). We store
``mu = -lambda_1 >= 0`` and ``nu = -lambda_2 >= 0``; the dual of (5) then reads

    |sum_i K_ji (mu_i - nu_i)| <= 1     (columns alpha+_j, alpha-_j)
    sum_i (mu_i - nu_i) = 0             (columns b+, b-)
    0 <= mu_j, nu_j,  mu_j + nu_j <= 2 C s_j   (columns xi_j, u_j, v_j)
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from svmcore.kernels import gram
from svmcore.solvers import LinearProgram, LPBasis, SolverError, solve_lp

# HiGHS's dual pricing in the row/column rounds: Devex (1) once the dual has this many
# rows (|P| + 1). Each round starts HiGHS afresh (adding columns or rows drops its
# factor), and its default (-1: exact steepest-edge weights) first solves with the basis
# once per row: on 1,109 dense kernel rows (Friedman #1 10,000) that cost more than the
# pivots it saves; on small LPs (breast_cancer) it pays.
_DEVEX_MIN_ROWS = 1000

__all__ = [
    "RowColumnLP",
    "SubLPSolution",
    "WorkingSetLP",
    "solve_svr_lp",
]


@dataclass
class SubLPSolution:
    """Solution of the LP over row samples S and coefficient samples P."""

    alpha: np.ndarray  # (|P|,) alpha+ - alpha-
    b: float
    mu: np.ndarray  # (|S|,) multipliers of row 1 (>= 0)
    nu: np.ndarray  # (|S|,) multipliers of row 2 (>= 0)
    fun: float
    n_iter: int


def solve_svr_lp(K, d, cost, epsilon, *, method="ipm", time_limit=None, lp_tol=None):
    """Solve the corrected LP-SVR over row samples S and coefficient samples P.

    Parameters
    ----------
    K : ndarray of shape (|S|, |P|)
        Kernel block ``k(x_j, x_i)``, j in S (rows), i in P (coefficients).
    d : ndarray of shape (|S|,)
        Targets of the row samples.
    cost : ndarray of shape (|S|,)
        ``2 C s_j``: the cost of ``xi_j``.
    epsilon : float
        Tube half-width.
    method, time_limit, lp_tol
        Passed to :func:`svmcore.solvers.solve_lp` (``time_limit``: seconds of
        this call; a reached limit raises
        :class:`~svmcore.solvers.SolverLimitError`).

    Returns
    -------
    SubLPSolution
    """
    n_rows, n_coef = K.shape
    Kc = sp.csc_array(np.asarray(K, dtype=np.float64))
    ones = sp.csc_array(np.ones((n_rows, 1)))
    eye = sp.eye_array(n_rows, format="csc")
    top = sp.hstack([-Kc, Kc, -ones, ones, -eye], format="csc")
    bottom = sp.hstack([Kc, -Kc, ones, -ones, -eye], format="csc")
    A_ub = sp.vstack([top, bottom], format="csc")
    b_ub = np.r_[epsilon - d, epsilon + d]
    c = np.r_[np.ones(2 * n_coef), 0.0, 0.0, cost]
    res = solve_lp(
        c,
        A_ub=A_ub,
        b_ub=b_ub,
        bounds=(0, None),
        method=method,
        time_limit=time_limit,
        tol=lp_tol,
    )
    x = res.x
    alpha = x[:n_coef] - x[n_coef : 2 * n_coef]
    b = x[2 * n_coef] - x[2 * n_coef + 1]
    mu = np.maximum(-res.row_duals_ub[:n_rows], 0.0)
    nu = np.maximum(-res.row_duals_ub[n_rows:], 0.0)
    return SubLPSolution(alpha, float(b), mu, nu, float(res.fun), res.n_iter)


class WorkingSetLP:
    """The corrected LP over a changing working set, kept alive in HiGHS.

    Algorithm 2 changes the working set by a few samples per iteration; adding
    and deleting those samples' columns and rows in place lets HiGHS restart
    the simplex method from its previous basis instead of solving from
    scratch (with ``method="ipm"`` every solve is cold, as IPM cannot be
    warm-started). Column layout: ``b+, b-``, then ``alpha+, alpha-, xi`` per
    member; rows: the two rows per member, in member order. ``X``, ``d`` and ``cost``
    are read by index only (arrays, or a sample store's rows, see :mod:`lpsvr._samples`).
    """

    def __init__(self, X, d, cost, epsilon, kernel_params, *, n_jobs, method, lp_tol):
        self.X, self.d, self.cost, self.epsilon = X, d, cost, epsilon
        self.kernel_params, self.n_jobs = kernel_params, n_jobs
        self.members = np.zeros(0, dtype=np.intp)
        self.lp = LinearProgram(np.zeros(2), bounds=(0, None), method=method, tol=lp_tol)

    def remove(self, samples):
        """Delete the columns and rows of ``samples`` (global indices)."""
        pos = np.flatnonzero(np.isin(self.members, samples))
        if pos.size == 0:
            return
        cols = (2 + 3 * pos[:, None] + np.arange(3)).ravel()
        rows = (2 * pos[:, None] + np.arange(2)).ravel()
        self.lp.delete_variables(cols)
        self.lp.delete_rows(rows)
        self.members = np.delete(self.members, pos)

    def add(self, samples):
        """Append ``samples`` (global indices): their columns, then their rows."""
        samples = np.asarray(samples, dtype=np.intp)
        k, m = samples.size, self.members.size
        if k == 0:
            return
        if m:
            K_old = gram(
                self.X[self.members], self.X[samples], **self.kernel_params, n_jobs=self.n_jobs
            )
            block = np.zeros((2 * m, 3 * k))
            block[0::2, 0::3] = -K_old  # row 1 of old members, alpha+ of new samples
            block[1::2, 0::3] = K_old
            block[0::2, 1::3] = K_old
            block[1::2, 1::3] = -K_old
        else:
            block = None
        costs = np.zeros(3 * k)
        costs[0::3] = costs[1::3] = 1.0
        costs[2::3] = self.cost[samples]
        self.lp.add_variables(costs, bounds=(0, None), A_ub=block)
        self.members = np.r_[self.members, samples]
        K_new = gram(
            self.X[samples], self.X[self.members], **self.kernel_params, n_jobs=self.n_jobs
        )
        rows = np.zeros((2 * k, 2 + 3 * self.members.size))
        rows[0::2, 0], rows[0::2, 1] = -1.0, 1.0
        rows[1::2, 0], rows[1::2, 1] = 1.0, -1.0
        rows[0::2, 2::3] = -K_new
        rows[1::2, 2::3] = K_new
        rows[0::2, 3::3] = K_new
        rows[1::2, 3::3] = -K_new
        xi_cols = 2 + 3 * (m + np.arange(k)) + 2
        rows[2 * np.arange(k), xi_cols] = -1.0
        rows[2 * np.arange(k) + 1, xi_cols] = -1.0
        dk = self.d[samples]
        rhs = np.empty(2 * k)
        rhs[0::2] = self.epsilon - dk
        rhs[1::2] = self.epsilon + dk
        self.lp.add_rows(sp.csr_array(rows), rhs)

    def solve(self, time_limit=None):
        """Solve warm within ``time_limit`` seconds (None: no limit); solution in member order."""
        res = self.lp.solve(time_limit=time_limit)
        x = res.x
        alpha = x[2::3] - x[3::3]
        lam = res.row_duals_ub
        return SubLPSolution(
            alpha,
            float(x[0] - x[1]),
            np.maximum(-lam[0::2], 0.0),
            np.maximum(-lam[1::2], 0.0),
            float(res.fun),
            res.n_iter,
        )


class RowColumnLP:
    """The corrected LP restricted to a column set P and a row set R, kept alive in HiGHS.

    Rows of the primal: single constraints ``r = (j, s)``,
    ``s (f(x_j) - d_j) - xi_r <= epsilon`` (``s = -1``: row 1 of sample j,
    ``s = +1``: row 2), each with its own ``xi_r`` (cost ``2 C s_j``: with
    ``epsilon >= 0`` at most one of the two is positive, so the optimum is
    unchanged); columns: ``alpha_i`` for ``i in P`` and a free ``b``.

    HiGHS holds the LP's dual, whose basis has ``|P| + 1`` rows instead of
    ``|R|`` (a few hundred against thousands when d > 1):

        min  sum_r (epsilon + s_r d_r) pi_r
        s.t. -1 <= sum_r s_r k(x_r, x_i) pi_r <= 1   (one ranged row per i in P)
             sum_r s_r pi_r = 0                       (the column b)
             0 <= pi_r <= 2 C s_r                     (the column xi_r)

    ``pi_r`` is the multiplier of primal row r (mu or nu); the primal's
    ``alpha_i`` and ``b`` are the row duals, and the primal optimum is minus
    the dual one. A sample outside the tube has ``pi_r`` nonbasic at its
    upper bound, so it costs the simplex basis nothing. Primal rows join as
    dual columns (the basis stays primal feasible), primal columns as dual
    rows (it stays dual feasible); either way HiGHS restarts from the
    previous basis. ``X``, ``d`` and ``cost`` are read by index only.
    """

    def __init__(self, X, d, cost, epsilon, kernel_params, *, n_jobs, lp_tol):
        self.X, self.d, self.cost, self.epsilon = X, d, cost, epsilon
        self.kernel_params, self.n_jobs = kernel_params, n_jobs
        self.lp_tol = lp_tol
        self.cols = np.zeros(0, dtype=np.intp)  # column samples P, in dual row order
        self.row_sample = np.zeros(0, dtype=np.intp)  # row samples R, in dual column order
        self.row_sign = np.zeros(0)
        self.lp = None  # built by the first add_rows (HiGHS needs a variable)
        self.start_basis = None  # LPBasis for the next solve (set_start_basis)
        self.reduced_costs = None  # of the pi_r after the last solve
        self.n_new_rows = 0  # primal rows added since the last solve

    def set_start_basis(self, col_status, row_status):
        """Start the next solve from this basis (HiGHS coding, see :class:`LPBasis`).

        ``col_status`` per ``pi_r`` (row order), ``row_status`` for the row
        ``sum_r s_r pi_r = 0`` then one per column of P (column order).
        """
        self.start_basis = LPBasis(np.asarray(col_status, np.int8), np.asarray(row_status, np.int8))

    def _kernel(self, rows, cols):
        return gram(self.X[rows], self.X[cols], **self.kernel_params, n_jobs=self.n_jobs)

    def add_columns(self, samples):
        """Add ``alpha_i`` of ``samples`` (global indices): one dual row each."""
        samples = np.asarray(samples, dtype=np.intp)
        if samples.size == 0:
            return
        if self.lp is not None:
            block = self._kernel(samples, self.row_sample) * self.row_sign[None, :]
            lower, upper = self._dual_row_bounds(samples)
            self.lp.add_rows(block, upper, lower=lower)
        self.cols = np.r_[self.cols, samples]

    def _dual_row_bounds(self, samples):
        """Sides of the ranged dual rows of new columns ``samples``: ``-1 <= . <= 1``."""
        ones = np.ones(samples.size)
        return -ones, ones

    @property
    def rows(self):
        """``(samples, signs)`` of every primal row, in the order of :meth:`solve`'s ``pi``."""
        return self.row_sample, self.row_sign

    def add_rows(self, samples, signs):
        """Add the primal rows ``(samples[t], signs[t])``: one dual column ``pi_r`` each."""
        samples = np.asarray(samples, dtype=np.intp)
        signs = np.asarray(signs, dtype=np.float64)
        if samples.size == 0:
            return
        costs = self.epsilon + signs * self.d[samples]
        bounds = (np.zeros(samples.size), self.cost[samples])
        self.row_sample = np.r_[self.row_sample, samples]
        self.row_sign = np.r_[self.row_sign, signs]
        self.n_new_rows += samples.size
        if self.lp is None:
            self.lp = LinearProgram(
                costs,
                A_eq=signs[None, :],
                b_eq=[0.0],
                bounds=bounds,
                method="simplex",
                tol=self.lp_tol,
            )
            cols, self.cols = self.cols, np.zeros(0, dtype=np.intp)
            self.add_columns(cols)
            return
        block = None
        if self.cols.size:
            block = self._kernel(self.cols, samples) * signs[None, :]
        self.lp.add_variables(costs, bounds=bounds, A_ub=block, A_eq=signs[None, :])

    def delete_rows(self, positions):
        """Delete the primal rows at ``positions`` (in row order): their dual columns ``pi_r``."""
        positions = np.asarray(positions, dtype=np.intp)
        if positions.size == 0:
            return
        self.lp.delete_variables(positions)
        self.row_sample = np.delete(self.row_sample, positions)
        self.row_sign = np.delete(self.row_sign, positions)

    def solve(self, time_limit=None):
        """Solve warm within ``time_limit`` seconds (None: no limit).

        Returns alpha on the columns, b, the row multipliers (>= 0), the
        optimum and the number of HiGHS iterations.
        """
        basis, self.start_basis = self.start_basis, None
        # New primal rows join the dual as nonbasic columns: the basis stays primal
        # feasible, and for a few of them the primal simplex method ("choose" (0) takes
        # it on a primal feasible basis, the dual method otherwise) needs fewer pivots
        # than the dual one. Many new rows (a cold start, d = 1's first rounds: thousands
        # against tens of basic rows) each need a primal pivot where the dual method
        # moves most of them to their other bound at once, so they keep the dual (1).
        few = basis is not None or self.n_new_rows <= self.cols.size + 1
        devex = self.cols.size + 1 >= _DEVEX_MIN_ROWS
        self.lp.set_options(
            {
                "simplex_strategy": 0 if few else 1,
                "simplex_dual_edge_weight_strategy": 1 if devex else -1,
            }
        )
        self.n_new_rows = 0
        if basis is None:
            res = self.lp.solve(time_limit=time_limit)
        else:
            try:
                res = self.lp.solve(basis, time_limit=time_limit)
            except SolverError as err:
                if err.status != "kNotset":
                    raise
                # HiGHS declined the guessed basis (e.g. numerically singular): solve cold
                self.lp._highs.clearSolver()
                res = self.lp.solve(time_limit=time_limit)
        pi = np.clip(res.x, 0.0, self.cost[self.row_sample])
        self.reduced_costs = res.col_duals  # of pi_r: epsilon - s_r (f(x_r) - d_r)
        return res.row_duals_ub.copy(), float(res.row_duals_eq[0]), pi, -float(res.fun), res.n_iter
