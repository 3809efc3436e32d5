"""Tube rows held at their upper bound, folded out of the row/column LP (not in the paper).

In :class:`lpsvr._lp.RowColumnLP` (HiGHS holds the dual) every primal row r of R is a
variable ``pi_r`` in ``[0, u_r]`` with ``|P| + 1`` dense coefficients ``s_r k(x_r, x_i)``
and ``s_r``. A sample outside the tube has ``pi_r = u_r``, nonbasic at its upper bound: it
costs the simplex nothing, but its ``|P|`` kernel values stay in HiGHS's matrix (and its
copies: about 75 bytes per value measured). On the noisy sinc with the noise at epsilon a
third of all samples are outside the tube: at N = 100,000 the LP held 35,240 rows x 39
columns and the fit grew by 424 MB (issue 19; 134 MB folded, 8,406 LP rows).

Folding fixes ``pi_r = u_r`` and moves the row's constant share into the bounds: the dual
rows become ``-1 - c_i <= sum_{r in R'} s_r k(x_r, x_i) pi_r <= 1 - c_i`` with
``c_i = sum_{r folded} s_r u_r k(x_r, x_i)``, the row ``s pi = 0`` gets the right-hand side
``-sum s_r u_r``, and the objective the constant ``sum q_r u_r`` (``q_r = epsilon + s_r
d_r``). The LP keeps ``|P| + 1`` rows and the rows of R that are not folded; ``c`` costs
``|P|`` numbers and one kernel pass over the folded rows per new column.

Exactness: with ``pi_r`` fixed, the LP over the other variables is the same LP restricted
to ``pi_r = u_r``; that value stays optimal in the full LP while its reduced cost
``epsilon - s_r (f(x_r) - d_r) <= 0`` (the sample on or outside the tube's side r). The KKT
check of every round tests this on all folded rows, and a row violating it by more than
``tol`` is unfolded: it rejoins the LP as a variable and is never folded again (rows fold at
most once, so the rounds stay finite).
"""

import time

import numpy as np

from svmcore.kernels import kernel_matvec
from svmcore.solvers import SolverError, SolverLimitError

from ._lp import RowColumnLP

__all__ = ["FoldedRowColumnLP"]

# the dual LP is bounded (every pi_r boxed), so HiGHS's "unbounded or infeasible" is the latter
_INFEASIBLE = ("kInfeasible", "kUnboundedOrInfeasible")


def _keys(samples, signs):
    """One integer per primal row ``(j, s)``: ``2 j`` for ``s = -1``, ``2 j + 1`` for ``+1``."""
    return 2 * np.asarray(samples, dtype=np.int64) + (np.asarray(signs) > 0)


class FoldedRowColumnLP(RowColumnLP):
    """:class:`~lpsvr._lp.RowColumnLP` whose rows at their upper bound can be folded.

    ``fold_sample``/``fold_sign`` are the folded rows (``pi_r = u_r``); :attr:`rows` and
    the ``pi`` of :meth:`solve` list the LP's rows, then the folded ones, and the optimum
    includes their constant share.
    """

    def __init__(self, X, d, cost, epsilon, kernel_params, *, n_jobs, lp_tol):
        super().__init__(X, d, cost, epsilon, kernel_params, n_jobs=n_jobs, lp_tol=lp_tol)
        self.fold_sample = np.zeros(0, dtype=np.intp)
        self.fold_sign = np.zeros(0)
        self.shift = np.zeros(0)  # c_i per column of P (dual row order), once the LP exists
        self.shift_eq = 0.0  # sum of s_r u_r over the folded rows
        self.fold_cost = 0.0  # sum of q_r u_r over the folded rows
        self.fold_rc = np.zeros(0)  # reduced cost of each folded row when it was folded
        self.pinned = np.zeros(0, dtype=np.int64)  # keys of unfolded rows: never fold again
        self.n_relaxed = 0  # solves found infeasible and relaxed (see solve)

    @property
    def rows(self):  # noqa: D102 - see RowColumnLP.rows
        return (
            np.r_[self.row_sample, self.fold_sample],
            np.r_[self.row_sign, self.fold_sign],
        )

    def _shares(self, cols, samples, signs):
        """``sum_r s_r u_r k(x_r, x_i)`` for i in ``cols`` over the rows ``(samples, signs)``."""
        if cols.size == 0 or samples.size == 0:
            return np.zeros(cols.size)
        w = signs * self.cost[samples]
        return kernel_matvec(
            self.X[cols], self.X[samples], w, **self.kernel_params, n_jobs=self.n_jobs
        )

    def _dual_row_bounds(self, samples):
        c = self._shares(samples, self.fold_sample, self.fold_sign)
        self.shift = np.r_[self.shift, c]
        return -1.0 - c, 1.0 - c

    def add_rows(self, samples, signs):  # noqa: D102 - see RowColumnLP.add_rows
        new = self.lp is None
        super().add_rows(samples, signs)
        if new and self.lp is not None and self.fold_sample.size:
            self.lp.set_b_eq([-self.shift_eq])

    def _move(self, samples, signs, sign):
        """Add (``sign = 1``) or remove (-1) the shares of folded rows in c, b_eq, the cost."""
        u = self.cost[samples]
        self.shift_eq += sign * float(signs @ u)
        self.fold_cost += sign * float((self.epsilon + signs * self.d[samples]) @ u)
        if self.lp is None:
            return  # the shares enter when the LP is built (_dual_row_bounds)
        if self.cols.size:
            self.shift = self.shift + sign * self._shares(self.cols, samples, signs)
            self.lp.set_b_ub(1.0 - self.shift, lower=-1.0 - self.shift)
        self.lp.set_b_eq([-self.shift_eq])

    def fold_rows(self, samples, signs, reduced_costs=None):
        """Add the primal rows ``(samples[t], signs[t])`` folded: ``pi_r = u_r`` fixed.

        ``reduced_costs`` (None: unknown, 0) orders the rows for :meth:`solve`'s relaxation.
        """
        samples = np.asarray(samples, dtype=np.intp)
        signs = np.asarray(signs, dtype=np.float64)
        if samples.size == 0:
            return
        rc = np.zeros(samples.size) if reduced_costs is None else reduced_costs
        self.fold_sample = np.r_[self.fold_sample, samples]
        self.fold_sign = np.r_[self.fold_sign, signs]
        self.fold_rc = np.r_[self.fold_rc, rc]
        self._move(samples, signs, 1.0)

    def foldable(self, pi, tol):
        """LP row positions with ``pi_r = u_r`` and reduced cost ``< -tol``, never unfolded.

        ``pi`` is the last :meth:`solve`'s (LP rows first).
        """
        n = self.row_sample.size
        if self.reduced_costs is None or n == 0:
            return np.zeros(0, dtype=np.intp)
        at_upper = (pi[:n] >= self.cost[self.row_sample]) & (self.reduced_costs[:n] < -tol)
        pos = np.flatnonzero(at_upper)
        if self.pinned.size and pos.size:
            pos = pos[~np.isin(_keys(self.row_sample[pos], self.row_sign[pos]), self.pinned)]
        return pos

    def fold(self, positions):
        """Fold the LP rows at ``positions`` (HiGHS variable order), e.g. :meth:`foldable`'s."""
        positions = np.asarray(positions, dtype=np.intp)
        if positions.size == 0:
            return
        samples, signs = self.row_sample[positions], self.row_sign[positions]
        rc = self.reduced_costs[positions]
        self.delete_rows(positions)
        self.fold_rows(samples, signs, rc)

    def _unfold_at(self, pos, pin):
        """Return the folded rows at ``pos`` to the LP as variables (``pin``: for good)."""
        samples, signs = self.fold_sample[pos], self.fold_sign[pos]
        self.fold_sample = np.delete(self.fold_sample, pos)
        self.fold_sign = np.delete(self.fold_sign, pos)
        self.fold_rc = np.delete(self.fold_rc, pos)
        self._move(samples, signs, -1.0)
        if pin:
            self.pinned = np.r_[self.pinned, _keys(samples, signs)]
        self.add_rows(samples, signs)

    def unfold(self, samples, signs):
        """Return the folded rows ``(samples, signs)`` to the LP as variables, for good."""
        keys = _keys(samples, signs)
        pos = np.flatnonzero(np.isin(_keys(self.fold_sample, self.fold_sign), keys))
        if pos.size:
            self._unfold_at(pos, pin=True)

    def solve(self, time_limit=None):
        """:meth:`RowColumnLP.solve`, ``pi`` and the optimum including the folded rows.

        New columns can make the LP with the folded ``pi_r`` fixed infeasible (their dual
        rows may need some ``pi_r`` below ``u_r``, as a simplex pivot on the unfolded LP
        would take them). Then the half of the folded rows nearest the tube's edge when
        folded (largest reduced cost) rejoin the LP and it is solved again, down to no
        folded row at all, where the LP is the plain one (feasible: ``pi = 0``). They may
        fold again after a later solve. ``time_limit`` covers all the attempts.
        """
        cleared = False
        start = time.perf_counter()
        while True:
            left = time_limit
            if time_limit is not None:
                left = time_limit - (time.perf_counter() - start)
                if left <= 0.0:
                    raise SolverLimitError("Time limit reached.", status="kTimeLimit")
            try:
                alpha, b, pi, fun, n_iter = super().solve(left)
                break
            except SolverError as err:
                if err.status == "kNotset" and not cleared:
                    # after an infeasible solve HiGHS may refuse to restart from its
                    # basis ("the solver did not run", a 200-sample sinc): solve cold once
                    self.lp._highs.clearSolver()
                    cleared = True
                    continue
                if self.fold_sample.size == 0 or err.status not in _INFEASIBLE:
                    raise
                self.n_relaxed += 1
                k = (self.fold_sample.size + 1) // 2
                self._unfold_at(np.argsort(-self.fold_rc, kind="stable")[:k], pin=False)
        pi = np.r_[pi, self.cost[self.fold_sample]]
        return alpha, b, pi, fun - self.fold_cost, n_iter
