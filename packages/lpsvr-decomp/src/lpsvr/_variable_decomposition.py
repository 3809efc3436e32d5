"""Variable decomposition: Algorithm 2 of Rivas-Perea & Cota-Ruiz (2013), section 3.

The working set B holds the coefficients and both rows of its samples; each outer
iteration solves the working-set LP (by HiGHS, or by Algorithm 3 with
``decomposition="full"``), checks the KKT conditions of the corrected LP on all N samples
and exchanges inactive samples for the worst violators. :func:`fit_lp_svr` is also the
entry point of every decomposition (``"none"``: one LP; ``"row_column"``:
:func:`lpsvr._row_column.fit_row_column`).
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
from ._result import _ZERO_ALPHA, _ZERO_DUAL, _outputs, _result, _result_at
from ._row_column import fit_row_column

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
    verbose=0,
):
    """Train the corrected LP-SVR on (X, d) with per-sample xi costs ``cost = 2 C s``.

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
    """
    budget = TimeBudget() if budget is None else budget
    N = X.shape[0]
    if decomposition == "row_column":
        return fit_row_column(
            X,
            d,
            cost,
            epsilon=epsilon,
            kernel_params=kernel_params,
            B0=B0,
            max_iter=max_iter,
            tol=tol,
            lp_tol=lp_tol,
            budget=budget,
            random_state=random_state,
            n_jobs=n_jobs,
            verbose=verbose,
        )
    rng = np.random.default_rng(random_state)
    sub_kw = dict(method=method, lp_tol=lp_tol)
    zero = np.zeros(N)
    if decomposition == "none":
        K = gram(X, **kernel_params, n_jobs=n_jobs)
        sol = budget.run(partial(solve_svr_lp, K, d, cost, epsilon, **sub_kw))
        if sol is None:  # deadline: the zero function
            return _result_at(X, d, cost, epsilon, zero, 0.0, zero, zero, kernel_params, n_jobs)
        res = _result_at(
            X,
            d,
            cost,
            epsilon,
            sol.alpha,
            sol.b,
            sol.mu,
            sol.nu,
            kernel_params,
            n_jobs,
            converged=True,
            n_iter=1,
        )
        res.history = [_record(0, N, sol.fun, res.objective, 0, 0.0, 0, 0.0)]
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
    alpha, mu, nu, f, g, b, n_done = zero, zero, zero, zero, zero, 0.0, 0
    working_lp = None
    if decomposition == "variables":
        # one HiGHS model updated in place: warm simplex restarts between iterations
        working_lp = WorkingSetLP(X, d, cost, epsilon, kernel_params, n_jobs=n_jobs, **sub_kw)
        working_lp.add(np.flatnonzero(in_B))
    t0 = time.perf_counter()
    for it in range(1, max_iter + 1):
        B = np.flatnonzero(in_B) if working_lp is None else working_lp.members
        X_B = X[B]
        if working_lp is not None:
            sol = budget.run(working_lp.solve)
        elif decomposition == "full":
            sol, objs = constraint_decomposition(
                X_B,
                d[B],
                cost[B],
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
        f, g = _outputs(X, X_B, sol.alpha, sol.mu - sol.nu, sol.b, kernel_params, n_jobs)
        xi = np.maximum(np.abs(d - f) - epsilon, 0.0)
        violation = np.maximum(cost * xi, np.abs(g) - 1.0)
        violation[in_B] = 0.0
        violators = np.flatnonzero((violation > tol) & ((xi > tol) | (np.abs(g) - 1.0 > tol)))
        full_objective = float(np.abs(alpha).sum() + cost @ xi)
        history.append(
            _record(
                it,
                B.size,
                sol.fun,
                full_objective,
                violators.size,
                float(violation.max(initial=0.0)),
                int(permanent.sum()),
                time.perf_counter() - t0,
            )
        )
        if verbose:
            print(  # noqa: T201 - verbose progress, as scikit-learn's estimators do
                f"[LPSVR] iter {it}: |B|={B.size} sub-LP={sol.fun:.6g} "
                f"full={full_objective:.6g} violators={violators.size}"
            )
        if budget.exhausted:
            break  # Algorithm 3 stopped by the deadline: sol is not optimal on B
        if violators.size == 0:
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
        k = min(_log_size(B.size) if n_add is None else n_add, room, violators.size)
        if k <= 0:
            warnings.warn(
                f"LP-SVR variable decomposition stopped: the working set reached "
                f"B_max={B_max} with {violators.size} KKT violators left; the solution "
                "is suboptimal.",
                ConvergenceWarning,
                stacklevel=3,
            )
            break
        worst = violators[np.argsort(-violation[violators], kind="stable")[:k]]
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
    return _result(
        f,
        g,
        d,
        cost,
        epsilon,
        alpha,
        b,
        mu,
        nu,
        converged,
        n_done,
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
