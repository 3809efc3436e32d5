"""Variable decomposition: Algorithm 2 of Rivas-Perea & Cota-Ruiz (2013), section 3.

The working set B holds the coefficients and both rows of its samples; each outer
iteration solves the working-set LP (by HiGHS, or by Algorithm 3 with
``decomposition="full"``), checks the KKT conditions of the corrected LP on all N samples
and exchanges inactive samples for the worst violators. :func:`fit_lp_svr` is also the
entry point of every decomposition (``"none"``: one LP; ``"row_column"``:
:func:`lpsvr._row_column.fit_row_column`).

The KKT check is a pass over the blocks of samples (:mod:`lpsvr._samples`): each block
gets the working set's nonzero coefficient rows and returns its count of violators, its
largest violation, its part of the objective and its own worst violators; the worst of
all are merged from those. In memory that is one block.
"""

import math
import time
import warnings
from functools import partial

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from svmcore.kernels import gram
from svmcore.solvers import TimeBudget

from ._constraint_decomposition import constraint_decomposition
from ._lp import WorkingSetLP, solve_svr_lp
from ._passes import check_block
from ._result import _ZERO_ALPHA, _ZERO_DUAL, _result, _result_at
from ._row_column import fit_row_column
from ._samples import Expansion, as_samples, merge_top, total

__all__ = ["fit_lp_svr"]


def _log_size(n):
    # 1 + ceil(log |B|) of Algorithm 2, step 4 / eq. (17) (natural logarithm)
    return 1 + math.ceil(math.log(max(n, 1)))


def fit_lp_svr(
    X,
    d,
    cost,
    *,
    epsilon,
    kernel_params,
    decomposition,
    method="ipm",
    B0=100,
    B_max=None,
    n_add=None,
    tau=4,
    t_max=4,
    loop_limit=10,
    max_iter=1000,
    tol=1e-6,
    lp_tol=None,
    budget=None,
    random_state=None,
    n_jobs=None,
    report=None,
):
    """Train the corrected LP-SVR on (X, d) with per-sample xi costs ``cost = 2 C s``.

    ``X`` may instead be a sample store of :mod:`lpsvr._samples` (then ``d`` and ``cost``
    are None), such as the row chunks of a Dask array; "none" needs the samples in memory.

    ``decomposition``: "none" (one LP over all samples), "variables"
    (Algorithm 2, each working-set LP solved by HiGHS), "full" (Algorithm 2
    with each working-set LP solved by Algorithm 3) or "row_column"
    (:func:`fit_row_column`, not in the paper). ``n_add``: violators moved
    into B per iteration of Algorithm 2 (None: the paper's ``1 + ceil(ln|B|)``).

    ``budget`` (:class:`~svmcore.solvers.TimeBudget`, None: no limit) bounds
    the whole fit: every HiGHS call gets the time left, and when the deadline
    passes the fit stops with its current solution (alpha = 0 outside the
    working set, xi reconstructed: feasible, not proven optimal; the zero
    function if no sub-LP finished) and ``converged=False``; the caller warns.

    ``report`` (callable or None) is called with each history record as it is made
    (the estimators' ``verbose`` table).
    """
    budget = TimeBudget() if budget is None else budget
    samples = as_samples(X, d, cost)
    N = samples.n
    if decomposition == "row_column":
        return fit_row_column(
            samples,
            None,
            None,
            epsilon=epsilon,
            kernel_params=kernel_params,
            B0=B0,
            max_iter=max_iter,
            tol=tol,
            lp_tol=lp_tol,
            budget=budget,
            random_state=random_state,
            n_jobs=n_jobs,
            report=report,
        )
    rng = np.random.default_rng(random_state)
    sub_kw = dict(method=method, lp_tol=lp_tol)
    zero = np.zeros(N)
    at = partial(_result_at, samples, epsilon, kernel_params=kernel_params, n_jobs=n_jobs, tol=tol)
    if decomposition == "none":
        if not samples.local:
            raise ValueError("decomposition='none' needs the samples in memory (N x N kernel).")
        K = gram(samples.X, **kernel_params, n_jobs=n_jobs)
        sol = budget.run(partial(solve_svr_lp, K, samples.d, samples.cost, epsilon, **sub_kw))
        if sol is None:  # deadline: the zero function
            return at(zero, 0.0, zero, zero)
        res = at(sol.alpha, sol.b, sol.mu, sol.nu, converged=True, n_iter=1)
        res.history = [_record(0, N, sol.fun, res.objective, 0, 0.0, 0, 0.0)]
        if report is not None:
            report(res.history[0])
        return res

    B_max = N if B_max is None else min(B_max, N)
    in_B = np.zeros(N, dtype=bool)
    in_B[rng.choice(N, size=min(B0, N), replace=False)] = True
    moves = np.zeros(N, dtype=np.int64)
    permanent = np.zeros(N, dtype=bool)
    history = []
    block_objectives = []
    active = np.zeros(N, dtype=bool)  # rows with positive multipliers at the last solve
    converged = False
    # the current solution: the zero function until a working-set LP is solved
    alpha, mu, nu, b, n_done = zero, zero, zero, 0.0, 0
    none = np.zeros(0, dtype=np.intp)
    outputs = Expansion(samples.X[none], zero[none], zero[none], 0.0, kernel_params, n_jobs)
    f, g = (zero, zero) if samples.local else (None, None)  # outputs on all samples, when kept
    working_lp = None
    if decomposition == "variables":
        # one HiGHS model updated in place: warm simplex restarts between iterations
        working_lp = WorkingSetLP(
            samples.X, samples.d, samples.cost, epsilon, kernel_params, n_jobs=n_jobs, **sub_kw
        )
        working_lp.add(np.flatnonzero(in_B))
    t0 = time.perf_counter()
    for it in range(1, max_iter + 1):
        B = np.flatnonzero(in_B) if working_lp is None else working_lp.members
        X_B = samples.X[B]
        if working_lp is not None:
            sol = budget.run(working_lp.solve)
        elif decomposition == "full":
            sol, objs = constraint_decomposition(
                X_B,
                samples.d[B],
                samples.cost[B],
                epsilon,
                tau=tau,
                t_max=t_max,
                kernel_params=kernel_params,
                tol=tol,
                n_jobs=n_jobs,
                initial=np.flatnonzero(active[B]),
                budget=budget,
                **sub_kw,
            )
            block_objectives.append(objs)
        if sol is None:
            break  # deadline before this working-set LP was solved: keep the last one
        n_done, b = it, sol.b
        # Step 3: extend with alpha = 0 and lambda = 0 on M, reconstruct xi, u, v
        # and the dual slacks on every sample (corrected eq. 12-15), check (16).
        alpha = np.zeros(N)
        mu = np.zeros(N)
        nu = np.zeros(N)
        alpha[B], mu[B], nu[B] = sol.alpha, sol.mu, sol.nu
        active = (mu + nu) > _ZERO_DUAL
        outputs = Expansion(X_B, sol.alpha, sol.mu - sol.nu, sol.b, kernel_params, n_jobs)
        k_max = _log_size(B.size) if n_add is None else n_add
        parts = samples.map(partial(check_block, outputs, epsilon, tol, k_max, samples.local), in_B)
        if samples.local:
            f, g = parts[0]["f"], parts[0]["g"]
        n_violators = total(parts, "n")
        full_objective = float(np.abs(alpha).sum() + total(parts, "xi_cost"))
        history.append(
            _record(
                it,
                B.size,
                sol.fun,
                full_objective,
                n_violators,
                max(p["max"] for p in parts),
                int(permanent.sum()),
                time.perf_counter() - t0,
            )
        )
        if report is not None:
            report(history[-1])
        if budget.exhausted:
            break  # Algorithm 3 stopped by the deadline: sol is not optimal on B
        if n_violators == 0:
            converged = True
            break
        # Step 4: move inactive indices (alpha = 0 and zero multipliers: their
        # rows and column can leave without changing the sub-LP optimum) to M ...
        inactive = (
            (np.abs(sol.alpha) <= _ZERO_ALPHA) & (sol.mu + sol.nu <= _ZERO_DUAL) & ~permanent[B]
        )
        in_B[B[inactive]] = False
        # ... and the worst 1 + ceil(log |B|) violators into B, within B_max (eq. 17).
        room = B_max - int(in_B.sum())
        k = min(k_max, room, n_violators)
        if k <= 0:
            warnings.warn(
                f"LP-SVR variable decomposition stopped: the working set reached "
                f"B_max={B_max} with {n_violators} KKT violators left; the solution "
                "is suboptimal.",
                ConvergenceWarning,
                stacklevel=3,
            )
            break
        worst, _ = merge_top([p["top"] for p in parts], k)
        in_B[worst] = True
        if working_lp is not None:
            working_lp.remove(B[inactive])
            working_lp.add(worst)
        # Step 5: indices moved in l times stay in B for good (loop prevention).
        moves[worst] += 1
        permanent |= moves >= loop_limit
    else:
        warnings.warn(
            f"LP-SVR variable decomposition did not converge in max_iter={max_iter} "
            "outer iterations; the solution is suboptimal.",
            ConvergenceWarning,
            stacklevel=3,
        )
    point = (alpha, b, mu, nu)
    return _result(
        f,
        g,
        samples,
        epsilon,
        point,
        tol,
        converged=converged,
        n_iter=n_done,
        outputs=outputs,
        history=history,
        block_objectives=block_objectives,
    )


def _record(it, size, sub_objective, objective, n_violators, max_violation, n_permanent, t):
    return {
        "iteration": it,
        "working_set_size": size,
        "sub_objective": sub_objective,
        "objective": objective,
        "n_violators": n_violators,
        "max_violation": max_violation,
        "n_permanent": n_permanent,
        "time": t,
    }
