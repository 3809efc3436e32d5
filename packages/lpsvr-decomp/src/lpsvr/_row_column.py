"""Exact LP-SVR by separate row and column generation (not in the paper).

The column set P (coefficients that may be nonzero) and the row set R (single tube
constraints) grow separately in one HiGHS model (:class:`lpsvr._lp.RowColumnLP`), from
the solution on a random subsample; see :func:`fit_row_column`. The checks on all N
samples are passes over blocks of samples (:mod:`lpsvr._samples`): each block returns
its violated constraints, or its best-priced columns, and the caller merges them.
"""

import time
import warnings
from functools import partial

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from svmcore.kernels import gram, kernel_matvec
from svmcore.solvers import TimeBudget

from ._interior import basis_guess, interior_point
from ._lp import RowColumnLP
from ._result import _result, _result_at, _sample_multipliers
from ._samples import as_samples, merge_top, top_of_block, total

__all__ = ["fit_row_column"]


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
    K = gram(X[top], **kernel_params)
    diag = np.sqrt(np.maximum(np.diag(K), 1e-300))
    S = K / diag[:, None] / diag[None, :]
    taken = []
    for t in range(top.size):
        if all(S[t, a] <= max_similarity for a in taken):
            taken.append(t)
            if len(taken) == k:
                break
    return top[taken]


class _Outputs:
    """A round's ``f = K(., X_P) alpha_P + b`` on any rows (P: the nonzero coefficients)."""

    def __init__(self, rows, coef, b, kernel_params, n_jobs):
        self.rows, self.coef, self.b = rows, coef, b
        self.kernel_params, self.n_jobs = kernel_params, n_jobs

    def f(self, X):
        """The outputs on the rows ``X``."""
        f = np.full(X.shape[0], self.b)
        if self.coef.size:
            f += kernel_matvec(X, self.rows, self.coef, **self.kernel_params, n_jobs=self.n_jobs)
        return f

    def __call__(self, X, g):
        """``(f, g)`` on a block whose ``g = K beta`` the pricing already holds."""
        return self.f(X), g


def _primal_block(outputs, epsilon, tol, keep, start, X, d, cost, in_rows):
    """Primal check on one block: the constraints outside R that f violates, by side."""
    f = outputs.f(X)
    over = np.stack([d - f - epsilon, f - d - epsilon])
    over[in_rows.T] = 0.0
    side, rows = np.nonzero(over > tol)
    xi = np.maximum(np.abs(d - f) - epsilon, 0.0)
    return {"side": side, "rows": start + rows, "xi_cost": cost @ xi, "f": f if keep else None}


def _pricing_block(delta_rows, delta, tol, k, kernel_params, n_jobs, start, X, d, cost, *state):
    """Full pricing on one block: ``g += K(X, X_S) delta_S`` and its ``k`` best columns.

    ``state`` is ``(in_cols,)`` for the first pricing (g = K delta) and ``(in_cols, g)``
    after it; the block returns its new g and the columns outside P with
    ``|g_i| - 1 > tol``, best first.
    """
    g = np.zeros(X.shape[0])
    if delta.size:
        g = kernel_matvec(X, delta_rows, delta, **kernel_params, n_jobs=n_jobs)
    if len(state) > 1:
        g = state[1] + g
    viol = np.abs(g) - 1.0
    hit = np.flatnonzero(~state[0] & (viol > tol))
    return {"g": g, "top": top_of_block(start, hit, viol, k)}


def _full_pricing(samples, g_all, beta, beta_g, in_cols, tol, k, kernel_params, n_jobs):
    """g = K beta on all samples (from g_all = K beta_g when given) and the k best columns."""
    delta = beta if g_all is None else beta - beta_g
    nz = np.flatnonzero(delta)
    price = partial(_pricing_block, samples.X[nz], delta[nz], tol, k, kernel_params, n_jobs)
    parts = samples.map(price, in_cols) if g_all is None else samples.map(price, in_cols, g_all)
    g_all = np.concatenate([p["g"] for p in parts])
    return g_all, merge_top([p["top"] for p in parts], k)[0]


def _interior_sets(
    samples,
    cols,
    row_samples,
    row_signs,
    *,
    epsilon,
    kernel_params,
    n_jobs,
    budget,
    tol,
    screen,
    max_rounds,
    max_add,
    drop=0.1,
):
    """Grow P and R by the KKT check at interior-point solutions; a starting basis for HiGHS.

    Each round solves the LP over (P, R) approximately (:func:`lpsvr._interior.interior_point`,
    relative gap ``tol``), then adds the rows outside R that its f violates by more than
    ``screen`` and the ``max_add`` columns outside P with the largest ``|g_i| - 1 > screen``
    (at most ``max_rounds`` rounds). Returns ``(cols, row_samples, row_signs, basis)``:
    ``basis`` the :func:`~lpsvr._interior.basis_guess` of the last point, extended by the
    rows and columns added after it (new ``pi_r`` nonbasic at 0, new ranged rows basic),
    or None when no point was computed. Only a start: the exact rounds decide.
    """
    N = samples.n
    X, d, cost = samples.X, samples.d, samples.cost
    in_cols = np.zeros(N, dtype=bool)
    in_cols[cols] = True
    in_rows = np.zeros((N, 2), dtype=bool)
    in_rows[row_samples, (row_signs > 0).astype(np.intp)] = True
    basis = None
    for _ in range(max_rounds):
        # no start to guess from an empty set (a single positive in 2002 rows left the
        # initial rows empty and gram failed with "Y is empty"; issue 19)
        if budget.expired() or cols.size == 0 or row_samples.size == 0:
            break
        u = cost[row_samples]
        G = gram(X[cols], X[row_samples], **kernel_params, n_jobs=n_jobs) * row_signs
        point = interior_point(G, row_signs, epsilon + row_signs * d[row_samples], u, tol=tol)
        if point is None:
            break
        basis = basis_guess(point, u)
        alpha, b = point["y"][1:], float(point["y"][0])
        outputs = _Outputs(X[cols], alpha, b, kernel_params, n_jobs)
        parts = samples.map(partial(_primal_block, outputs, epsilon, screen, False), in_rows)
        side = np.concatenate([p["side"] for p in parts])
        new_rows = np.concatenate([p["rows"] for p in parts])
        pi = np.where(point["pi"] > 1e-9 * u, point["pi"], 0.0)
        lo = row_signs < 0
        beta = np.bincount(row_samples[lo], weights=pi[lo], minlength=N) - np.bincount(
            row_samples[~lo], weights=pi[~lo], minlength=N
        )
        k = max(max_add, cols.size)
        _, new_cols = _full_pricing(
            samples, None, beta, None, in_cols, screen, k, kernel_params, n_jobs
        )
        new_cols = new_cols[:k]
        # drop what the point shows inactive: columns with |g_i| well inside 1 (their
        # ranged row basic) and rows well inside the tube (pi_r nonbasic at 0); the
        # point stays optimal for the smaller LP and the basis keeps its size
        g = point["w"] - 1.0
        keep_c = (basis[1][1:] != 1) | (np.abs(g) >= 1.0 - drop)
        slack = epsilon - row_signs * (outputs.f(X[row_samples]) - d[row_samples])
        keep_r = (basis[0] != 0) | (slack <= drop * max(epsilon, 1e-3))
        keep_c[np.argmax(np.abs(g))] = keep_r[np.argmin(slack)] = True  # never empty
        cols, row_samples, row_signs = cols[keep_c], row_samples[keep_r], row_signs[keep_r]
        in_cols[:] = False
        in_cols[cols] = True
        in_rows[:] = False
        in_rows[row_samples, (row_signs > 0).astype(np.intp)] = True
        basis = (basis[0][keep_r], np.r_[basis[1][:1], basis[1][1:][keep_c]])
        if new_rows.size == 0 and new_cols.size == 0:
            break
        row_samples = np.r_[row_samples, new_rows]
        row_signs = np.r_[row_signs, 2.0 * side - 1.0]
        in_rows[new_rows, side] = True
        cols = np.r_[cols, new_cols]
        in_cols[new_cols] = True
        basis = (
            np.r_[basis[0], np.zeros(new_rows.size, np.int8)],
            np.r_[basis[1], np.ones(new_cols.size, np.int8)],
        )
    return cols, row_samples, row_signs, basis


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
    report=None,
    price_size=1000,
    max_add_columns=100,
    coarsen=4,
    min_level=500,
    interior="auto",
    interior_tol=1e-6,
    interior_rounds=10,
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
    ``budget`` (:class:`~svmcore.solvers.TimeBudget`, None: no limit); when the
    deadline passes, the last round's solution is returned with
    ``converged=False`` (before the first round: the subsample solution,
    alpha = 0 on the other samples, or the zero function). The caller warns.
    ``report`` (callable or None) is called with each round's history record.
    """
    samples = as_samples(X, d, cost)
    N = samples.n
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
        report=report,
        price_size=price_size,
        max_add_columns=max_add_columns,
        coarsen=coarsen,
        min_level=min_level,
        interior=interior,
        interior_tol=interior_tol,
        interior_rounds=interior_rounds,
    )
    at = partial(_result_at, samples, epsilon, kernel_params=kernel_params, n_jobs=n_jobs, tol=tol)
    history = []
    # the current solution: the subsample's (alpha = 0 elsewhere) or the zero function
    alpha, b, mu, nu = np.zeros(N), 0.0, np.zeros(N), np.zeros(N)
    if coarsen > 1 and N >= coarsen * min_level:
        sub = np.sort(rng.choice(N, size=N // coarsen, replace=False))
        coarse = fit_row_column(samples.subset(sub), None, None, random_state=rng, **kw)
        history = coarse.history
        alpha[sub], b, mu[sub], nu[sub] = coarse.alpha, coarse.b, coarse.mu, coarse.nu
        if budget.expired():
            return at(alpha, b, mu, nu, history=history)
        start = sub[coarse.alpha != 0.0]
        if start.size == 0:
            start = sub[:1]
        lo, hi = sub[coarse.mu > 0.0], sub[coarse.nu > 0.0]
        if lo.size + hi.size == 0:  # no active row at the coarse level (one positive
            lo = hi = start  # in 2002 rows, issue 19): start from the columns' rows
        row_samples = np.r_[lo, hi]
        row_signs = np.r_[-np.ones(lo.size), np.ones(hi.size)]
    else:
        start = np.sort(rng.choice(N, size=min(B0, N), replace=False))
        row_samples = np.r_[start, start]
        row_signs = np.r_[-np.ones(start.size), np.ones(start.size)]
    basis = None
    if interior == "auto":  # dense LPs: d > 1 (hundreds of nonzero coefficients), N >= 1000
        interior = N >= 1000 and samples.X[np.zeros(1, dtype=np.intp)].shape[1] > 1
    kw["interior"] = interior
    if interior:
        start, row_samples, row_signs, basis = _interior_sets(
            samples,
            start,
            row_samples,
            row_signs,
            epsilon=epsilon,
            kernel_params=kernel_params,
            n_jobs=n_jobs,
            budget=budget,
            tol=interior_tol,
            screen=max(tol, 1e-4),
            max_rounds=interior_rounds,
            max_add=max(max_add_columns, start.size),
        )
    lp = RowColumnLP(
        samples.X, samples.d, samples.cost, epsilon, kernel_params, n_jobs=n_jobs, lp_tol=lp_tol
    )
    in_cols = np.zeros(N, dtype=bool)
    in_rows = np.zeros((N, 2), dtype=bool)  # [:, 0]: rows s = -1, [:, 1]: rows s = +1
    lp.add_columns(start)
    in_cols[start] = True
    lp.add_rows(row_samples, row_signs)
    in_rows[row_samples, (row_signs > 0).astype(np.intp)] = True
    if basis is not None:
        lp.set_start_basis(*basis)
    converged = False
    g_all = None  # g = K beta_g on all N samples, updated by changes of beta
    beta_g = np.zeros(N)
    t0 = time.perf_counter()
    n_price = min(price_size, N)
    n_done = 0
    f = outputs = None
    for it in range(1, max_iter + 1):
        solved = budget.run(lp.solve)
        if solved is None:
            break  # deadline: keep the last round's solution
        alpha_P, b, pi, fun, _ = solved
        n_done = it
        alpha = np.zeros(N)
        alpha[lp.cols] = alpha_P
        keep = np.flatnonzero(alpha_P)
        outputs = _Outputs(samples.X[lp.cols[keep]], alpha_P[keep], b, kernel_params, n_jobs)
        mu, nu = _sample_multipliers(lp, pi, N)
        beta = mu - nu
        # primal check: constraints outside R violated by the current f
        parts = samples.map(partial(_primal_block, outputs, epsilon, tol, samples.local), in_rows)
        f = parts[0]["f"] if samples.local else None
        side = np.concatenate([p["side"] for p in parts])
        new_rows = np.concatenate([p["rows"] for p in parts])
        by_side = np.lexsort((new_rows, side))
        side, new_rows = side[by_side], new_rows[by_side]
        step = "rows"
        added = new_rows.size
        if added:
            lp.add_rows(new_rows, 2.0 * side - 1.0)
            in_rows[new_rows, side] = True
        else:
            # dual check: reduced costs 1 -+ g_i of the columns outside P
            viol = np.zeros(0)
            if g_all is None:
                step = "partial pricing"
                out = np.flatnonzero(~in_cols)
                cand = rng.choice(out, size=min(n_price, out.size), replace=False)
                viol = np.abs(_price(samples.X, cand, beta, kernel_params, n_jobs)) - 1.0
                hit = np.flatnonzero(viol > tol)
                order = cand[hit[np.argsort(-viol[hit], kind="stable")]]
            if not (viol > tol).any():
                step = "full pricing"
                g_all, order = _full_pricing(
                    samples,
                    g_all,
                    beta,
                    beta_g,
                    in_cols,
                    tol,
                    20 * max_add_columns,
                    kernel_params,
                    n_jobs,
                )
                beta_g = beta
            new_cols = _diverse(samples.X, order, max_add_columns, kernel_params)
            added = new_cols.size
            lp.add_columns(new_cols)
            in_cols[new_cols] = True
        objective = float(np.abs(alpha).sum() + total(parts, "xi_cost"))
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
        if report is not None:
            report(history[-1])
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
        return at(alpha, b, mu, nu, history=history)
    if g_all is None or not np.array_equal(beta_g, beta):
        fresh = (samples, None, beta, beta_g, in_cols, tol, 0, kernel_params, n_jobs)
        g_all, _ = _full_pricing(*fresh)
    return _result(
        f,
        g_all,
        samples,
        epsilon,
        (alpha, b, mu, nu),
        tol,
        converged=converged,
        n_iter=n_done,
        outputs=outputs,
        extra=(g_all,),
        history=history,
        columns=lp.cols,
    )
