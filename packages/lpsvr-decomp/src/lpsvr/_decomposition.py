"""Variable decomposition (Algorithm 2) and constraint decomposition (Algorithm 3).

Rivas-Perea & Cota-Ruiz (2013), sections 3 and 4, applied to the corrected
LP of :mod:`lpsvr._lp`. Kernel values are only formed for the working-set
sub-LPs (|S| x |B| blocks) and streamed in row blocks for the KKT check on
all N samples (:func:`svmcore.kernels.kernel_matvec`); never N x N unless
``decomposition="none"``.
"""

import math
import time
import warnings
from dataclasses import dataclass, field
from functools import partial

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from svmcore.kernels import gram, kernel_matvec

from ._budget import TimeBudget
from ._lp import RowColumnLP, SubLPSolution, WorkingSetLP, kkt_residuals, solve_svr_lp

__all__ = ["FitResult", "constraint_decomposition", "fit_lp_svr", "fit_row_column"]

# Zero tests on HiGHS vertex solutions (crossover gives exact zeros for
# nonbasic variables; these only absorb round-off).
_ZERO_ALPHA = 1e-12
_ZERO_DUAL = 1e-9


@dataclass
class FitResult:
    """Outcome of one LP-SVR fit on N samples."""

    alpha: np.ndarray  # (N,) alpha+ - alpha-
    b: float
    mu: np.ndarray  # (N,) row-1 multipliers (0 outside the final working set)
    nu: np.ndarray  # (N,)
    f: np.ndarray  # (N,) training outputs
    objective: float
    kkt: dict
    converged: bool
    n_iter: int
    history: list = field(default_factory=list)
    block_objectives: list = field(default_factory=list)
    columns: np.ndarray | None = None  # "row_column": the final column set P


def _outputs(rows_X, coef_X, alpha, beta, b, kernel_params, n_jobs):
    """f = K alpha + b and g = K beta on ``rows_X``; K streamed in row blocks.

    Only the coefficient samples with nonzero alpha or beta enter the kernel.
    """
    keep = (alpha != 0.0) | (beta != 0.0)
    n = rows_X.shape[0]
    if not keep.any():
        return np.full(n, b), np.zeros(n)
    V = np.column_stack([alpha[keep], beta[keep]])
    FG = kernel_matvec(rows_X, coef_X[keep], V, **kernel_params, n_jobs=n_jobs)
    return FG[:, 0] + b, FG[:, 1]


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
    (:class:`~lpsvr._budget.TimeBudget`); when the deadline passes, the last
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
        f_B, _ = _outputs(X_B, X_B, sol.alpha, np.zeros(n_B), sol.b, kernel_params, n_jobs)
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

    ``budget`` (:class:`~lpsvr._budget.TimeBudget`, None: no limit) bounds
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
    kkt = kkt_residuals(f, g, d, alpha, mu, nu, cost, epsilon)
    return FitResult(
        alpha,
        b,
        mu,
        nu,
        f,
        kkt["objective"],
        kkt,
        converged,
        n_done,
        history=history,
        block_objectives=block_objectives,
    )


def _result_at(
    X,
    d,
    cost,
    epsilon,
    alpha,
    b,
    mu,
    nu,
    kernel_params,
    n_jobs,
    *,
    converged=False,
    n_iter=0,
    **fields,
):
    """FitResult at (alpha, b, mu, nu): f, g = K (mu - nu) and the KKT residuals on all samples."""
    f, g = _outputs(X, X, alpha, mu - nu, b, kernel_params, n_jobs)
    kkt = kkt_residuals(f, g, d, alpha, mu, nu, cost, epsilon)
    return FitResult(alpha, b, mu, nu, f, kkt["objective"], kkt, converged, n_iter, **fields)


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


def _sample_multipliers(lp, pi, N):
    """Row multipliers per sample: mu (rows s = -1) and nu (rows s = +1), length N.

    With epsilon = 0 both rows of a sample can be tight; subtracting
    ``min(mu, nu)`` from both keeps ``beta = mu - nu`` (the only quantity in
    the dual constraints on alpha and b) and gives ``mu + nu <= 2 C s_j``.
    """
    lo = lp.row_sign < 0
    mu = np.bincount(lp.row_sample[lo], weights=pi[lo], minlength=N)
    nu = np.bincount(lp.row_sample[~lo], weights=pi[~lo], minlength=N)
    common = np.minimum(mu, nu)
    return mu - common, nu - common


def _price(X, rows_idx, beta, kernel_params, n_jobs):
    """``g = K(X[rows_idx], X_S) beta_S`` over the samples S with nonzero beta."""
    nz = np.flatnonzero(beta)
    if nz.size == 0 or rows_idx.size == 0:
        return np.zeros(rows_idx.size)
    return kernel_matvec(X[rows_idx], X[nz], beta[nz], **kernel_params, n_jobs=n_jobs)


def _diverse(X, ranked, k, kernel_params, max_similarity=0.9):
    """Up to ``k`` of ``ranked`` (best first), skipping near-copies of those already taken.

    Neighbouring samples have nearly the same reduced cost, so the k most
    violating columns are often k copies of one direction; a candidate is
    skipped when its normalized kernel value ``k(a, b) / sqrt(k(a, a) k(b, b))``
    with a taken one exceeds ``max_similarity``. Skipped columns are priced
    again in the next round, so exactness is unaffected.
    """
    top = ranked[: 20 * k]
    if top.size <= 1:
        return top
    K = gram(X, rows=top, cols=top, **kernel_params)
    diag = np.sqrt(np.maximum(np.diag(K), 1e-300))
    S = K / diag[:, None] / diag[None, :]
    taken = []
    for t in range(top.size):
        if all(S[t, a] <= max_similarity for a in taken):
            taken.append(t)
            if len(taken) == k:
                break
    return top[taken]


def fit_row_column(
    X,
    d,
    cost,
    *,
    epsilon,
    kernel_params,
    B0=100,
    max_iter=1000,
    tol=1e-6,
    lp_tol=None,
    budget=None,
    random_state=None,
    n_jobs=None,
    verbose=0,
    price_size=1000,
    max_add_columns=100,
    coarsen=4,
    min_level=500,
):
    """Exact LP-SVR by separate row and column generation (not in the paper).

    Algorithm 2 couples variables and constraints: the working set B holds
    both the coefficients alpha_i and the two rows of every i in B, so every
    sample outside the tube must enter B and the sub-LP is a dense
    |B| x |B| block. Here the column set P (coefficients that may be
    nonzero, about the number of support vectors) and the row set R (single
    tube constraints) are separate. Each round solves the LP over (P, R)
    warm, then runs the same KKT check as Algorithm 2 step 3 on all N
    samples: a constraint not in R that the current f violates joins R
    (primal infeasibility); when none does, the reduced costs
    ``1 -+ g_i``, ``g = K beta`` (dual infeasibility of alpha_i, Algorithm 2's
    ``|g_j| <= 1``) are priced - first on ``price_size`` random samples, then
    on all N (``g`` kept up to date by the change of beta only) - and the
    ``max_add_columns`` most violating columns join P. Rows and columns are
    only added, so the loop is finite; when nothing violates, the point
    satisfies the KKT conditions (6a)-(6d) of the full corrected LP.

    Start: when ``N >= coarsen * min_level`` the same method first solves
    a random ``1/coarsen`` subsample exactly (recursively); its nonzero
    coefficients and its rows with positive multipliers seed P and R.
    Otherwise P and R start from ``B0`` random samples (both rows each).

    Every round (and every subsample level) solves within the time left of
    ``budget`` (:class:`~lpsvr._budget.TimeBudget`, None: no limit); when the
    deadline passes, the last round's solution is returned with
    ``converged=False`` (before the first round: the subsample solution,
    alpha = 0 on the other samples, or the zero function). The caller warns.
    """
    N = X.shape[0]
    rng = np.random.default_rng(random_state)
    budget = TimeBudget() if budget is None else budget
    kw = dict(
        epsilon=epsilon,
        kernel_params=kernel_params,
        B0=B0,
        max_iter=max_iter,
        tol=tol,
        lp_tol=lp_tol,
        budget=budget,
        n_jobs=n_jobs,
        verbose=verbose,
        price_size=price_size,
        max_add_columns=max_add_columns,
        coarsen=coarsen,
        min_level=min_level,
    )
    history = []
    # the current solution: the subsample's (alpha = 0 elsewhere) or the zero function
    alpha, b, mu, nu = np.zeros(N), 0.0, np.zeros(N), np.zeros(N)
    if coarsen > 1 and N >= coarsen * min_level:
        sub = np.sort(rng.choice(N, size=N // coarsen, replace=False))
        coarse = fit_row_column(X[sub], d[sub], cost[sub], random_state=rng, **kw)
        history = coarse.history
        alpha[sub], b, mu[sub], nu[sub] = coarse.alpha, coarse.b, coarse.mu, coarse.nu
        if budget.expired():
            return _result_at(
                X, d, cost, epsilon, alpha, b, mu, nu, kernel_params, n_jobs, history=history
            )
        start = sub[coarse.alpha != 0.0]
        if start.size == 0:
            start = sub[:1]
        lo, hi = sub[coarse.mu > 0.0], sub[coarse.nu > 0.0]
        row_samples = np.r_[lo, hi]
        row_signs = np.r_[-np.ones(lo.size), np.ones(hi.size)]
    else:
        start = np.sort(rng.choice(N, size=min(B0, N), replace=False))
        row_samples = np.r_[start, start]
        row_signs = np.r_[-np.ones(start.size), np.ones(start.size)]
    lp = RowColumnLP(X, d, cost, epsilon, kernel_params, n_jobs=n_jobs, lp_tol=lp_tol)
    in_cols = np.zeros(N, dtype=bool)
    in_rows = np.zeros((2, N), dtype=bool)  # [0]: rows s = -1, [1]: rows s = +1
    lp.add_columns(start)
    in_cols[start] = True
    lp.add_rows(row_samples, row_signs)
    in_rows[(row_signs > 0).astype(np.intp), row_samples] = True
    converged = False
    g_all = None  # g = K beta_g on all N samples, updated by changes of beta
    beta_g = np.zeros(N)
    t0 = time.perf_counter()
    n_price = min(price_size, N)
    n_done = 0
    for it in range(1, max_iter + 1):
        solved = budget.run(lp.solve)
        if solved is None:
            break  # deadline: keep the last round's solution
        alpha_P, b, pi, fun, _ = solved
        n_done = it
        alpha = np.zeros(N)
        alpha[lp.cols] = alpha_P
        keep = np.flatnonzero(alpha_P)
        f = np.full(N, b)
        if keep.size:
            f += kernel_matvec(X, X[lp.cols[keep]], alpha_P[keep], **kernel_params, n_jobs=n_jobs)
        mu, nu = _sample_multipliers(lp, pi, N)
        beta = mu - nu
        # primal check: constraints outside R violated by the current f
        over = np.stack([d - f - epsilon, f - d - epsilon])
        over[in_rows] = 0.0
        side, new_rows = np.nonzero(over > tol)
        step = "rows"
        added = new_rows.size
        if added:
            lp.add_rows(new_rows, 2.0 * side - 1.0)
            in_rows[side, new_rows] = True
        else:
            # dual check: reduced costs 1 -+ g_i of the columns outside P
            out = np.flatnonzero(~in_cols)
            viol = np.zeros(0)
            if g_all is None:
                step = "partial pricing"
                cand = rng.choice(out, size=min(n_price, out.size), replace=False)
                viol = np.abs(_price(X, cand, beta, kernel_params, n_jobs)) - 1.0
            if not (viol > tol).any():
                step = "full pricing"
                if g_all is None:
                    g_all = _price(X, np.arange(N), beta, kernel_params, n_jobs)
                else:
                    g_all += _price(X, np.arange(N), beta - beta_g, kernel_params, n_jobs)
                beta_g = beta
                cand = out
                viol = np.abs(g_all[out]) - 1.0
            hit = np.flatnonzero(viol > tol)
            order = cand[hit[np.argsort(-viol[hit], kind="stable")]]
            new_cols = _diverse(X, order, max_add_columns, kernel_params)
            added = new_cols.size
            lp.add_columns(new_cols)
            in_cols[new_cols] = True
        xi = np.maximum(np.abs(d - f) - epsilon, 0.0)
        objective = float(np.abs(alpha).sum() + cost @ xi)
        history.append(
            {
                "iteration": it,
                "n_samples": N,
                "working_set_size": int(lp.cols.size),
                "n_rows": int(lp.row_sample.size),
                "sub_objective": fun,
                "objective": objective,
                "step": step,
                "n_added": int(added),
                "time": time.perf_counter() - t0,
            }
        )
        if verbose:
            print(  # noqa: T201 - verbose progress, as scikit-learn's estimators do
                f"[LPSVR] N={N} round {it}: |P|={lp.cols.size} |R|={lp.row_sample.size} "
                f"LP={fun:.8g} full={objective:.8g} {step}: +{added}"
            )
        if added == 0:
            converged = True
            break
    else:
        warnings.warn(
            f"LP-SVR row/column generation did not converge in max_iter={max_iter} "
            "rounds; the solution is suboptimal.",
            ConvergenceWarning,
            stacklevel=3,
        )
    if n_done == 0:  # deadline before the first round
        return _result_at(
            X, d, cost, epsilon, alpha, b, mu, nu, kernel_params, n_jobs, history=history
        )
    if g_all is None or not np.array_equal(beta_g, beta):
        g_all = _price(X, np.arange(N), beta, kernel_params, n_jobs)
    kkt = kkt_residuals(f, g_all, d, alpha, mu, nu, cost, epsilon)
    return FitResult(
        alpha,
        b,
        mu,
        nu,
        f,
        kkt["objective"],
        kkt,
        converged,
        n_done,
        history=history,
        columns=lp.cols,
    )
