"""Constraint decomposition: Algorithm 3 of Rivas-Perea & Cota-Ruiz (2013), section 4.

Linear programming chunking of one working-set LP (9): blocks of rows, each block LP a
relaxation of (9) holding the active rows of the previous one.
"""

import warnings
from functools import partial

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from svmcore.kernels import gram

from ._lp import RowColumnLP, SubLPSolution, solve_svr_lp
from ._result import _ZERO_DUAL, _sample_multipliers
from ._samples import Expansion

__all__ = ["constraint_decomposition"]


def constraint_decomposition(
    X_B,
    d_B,
    cost_B,
    epsilon,
    *,
    tau,
    t_max,
    kernel_params,
    method,
    tol,
    lp_tol,
    budget,
    n_jobs,
    initial=None,
    max_solves=None,
):
    """Algorithm 3: linear programming chunking of the working-set LP (9).

    The 2|B| rows are split into ``tau`` blocks with both rows of a sample in
    the same block (eq. 21-22). Block LP t holds the rows of block ``t mod
    tau`` plus the rows carried from solve t-1 (active with positive
    multipliers), the per-sample variables (xi, surpluses) of those rows
    only, b, and the coefficients alpha of all of B. Each block LP is a
    relaxation of (9) containing the active set of the previous one, so its
    optimum never decreases (Bradley & Mangasarian 2000). When the block
    solution satisfies every row of B with ``xi = 0`` for the rows left out,
    it is optimal for (9): that is the exact stopping test. The paper's rule
    "objective unchanged for t_max solves" is kept as a stall guard: then the
    violated rows join the next block LP. ``initial`` (positions in B) seeds
    the carried rows, e.g. with the rows active at the previous working set.

    Every block solve runs within the time left of ``budget``
    (:class:`~svmcore.solvers.TimeBudget`); when the deadline passes, the last
    block solution is returned (feasible for (9) with xi reconstructed, not
    proven optimal) and ``budget.exhausted`` is True.

    Returns
    -------
    sol : SubLPSolution over B, or None
        None when the deadline passed before the first block solve finished.
    objectives : list of float
        Block LP optimum after each solve (non-decreasing).
    """
    n_B = X_B.shape[0]
    block_lp = None
    if method == "simplex":
        # one model for all block LPs: the rows of the next block replace the dropped ones
        # and HiGHS restarts from the previous basis (cold block solves were ~85 % of "full")
        block_lp = RowColumnLP(
            X_B, d_B, cost_B, epsilon, kernel_params, n_jobs=n_jobs, lp_tol=lp_tol
        )
        block_lp.add_columns(np.arange(n_B))
    n_blocks = max(1, min(tau, n_B))
    blocks = np.array_split(np.arange(n_B), n_blocks)
    max_solves = max_solves or 50 * n_blocks + 50
    carried = np.zeros(0, dtype=np.intp) if initial is None else np.asarray(initial, np.intp)
    extra = np.zeros(0, dtype=np.intp)
    objectives = []
    n_iter = 0
    unchanged = 0
    sol = None
    for t in range(max_solves):
        S_next = np.union1d(np.union1d(blocks[t % n_blocks], carried), extra)
        if block_lp is not None:
            block = budget.run(partial(_solve_block, block_lp, S_next))
        else:
            K = gram(X_B, rows=S_next, **kernel_params, n_jobs=n_jobs)
            block = budget.run(
                partial(
                    solve_svr_lp,
                    K,
                    d_B[S_next],
                    cost_B[S_next],
                    epsilon,
                    method=method,
                    lp_tol=lp_tol,
                )
            )
        if block is None:
            break  # deadline: keep the last block solution
        sol, S = block, S_next
        n_iter += sol.n_iter
        if objectives and abs(sol.fun - objectives[-1]) <= 1e-9 * max(1.0, abs(sol.fun)):
            unchanged += 1
        else:
            unchanged = 0
        objectives.append(sol.fun)
        f_B, _ = Expansion(X_B, sol.alpha, np.zeros(n_B), sol.b, kernel_params, n_jobs)(X_B)
        outside = np.abs(d_B - f_B) - epsilon > tol
        outside[S] = False
        if not outside.any():
            break
        carried = S[(sol.mu + sol.nu) > _ZERO_DUAL]
        if unchanged >= t_max:
            # Stalled on a degenerate optimal face: the violated rows stay in
            # every later block LP, so the row set grows and the loop ends.
            extra = np.union1d(extra, np.flatnonzero(outside))
    else:
        warnings.warn(
            f"Constraint decomposition stopped after {max_solves} block solves without "
            "satisfying every working-set row; the working-set solution is approximate.",
            ConvergenceWarning,
            stacklevel=3,
        )
    if sol is None:
        return None, objectives
    mu = np.zeros(n_B)
    nu = np.zeros(n_B)
    mu[S] = sol.mu
    nu[S] = sol.nu
    result = SubLPSolution(sol.alpha, sol.b, mu, nu, sol.fun, n_iter)
    return result, objectives


def _solve_block(lp, S, time_limit=None):
    """The block LP over the rows of samples ``S`` (both rows each) in the live model ``lp``.

    Rows of samples outside ``S`` are deleted and those of new samples added, then
    HiGHS re-solves warm; the result is laid out as :func:`solve_svr_lp`'s over ``S``.
    """
    lp.delete_rows(np.flatnonzero(~np.isin(lp.row_sample, S)))
    new = np.setdiff1d(S, lp.row_sample)
    lp.add_rows(np.r_[new, new], np.r_[-np.ones(new.size), np.ones(new.size)])
    alpha, b, pi, fun, n_iter = lp.solve(time_limit=time_limit)
    mu, nu = _sample_multipliers(lp, pi, lp.X.shape[0])
    return SubLPSolution(alpha, b, mu[S], nu[S], fun, n_iter)
