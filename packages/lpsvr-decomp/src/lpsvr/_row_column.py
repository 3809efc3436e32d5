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

from svmcore.kernels import gram
from svmcore.solvers import TimeBudget

from ._folding import FoldedRowColumnLP
from ._interior_start import float32_safe, interior_sets
from ._passes import Outputs, full_pricing, price, primal_block
from ._result import _result, _result_at, _sample_multipliers
from ._samples import as_samples, total

__all__ = ["fit_row_column"]

#: Fewest samples for which ``interior="auto"`` takes the interior-point start (d > 1).
#: 1,000 until 2026-11-26; since the start got cheaper (loose early points, HiGHS's warm
#: basis) it pays from about 250 samples: 19 small sets (7 KEEL sets, Friedman #1-#3)
#: of 250-900 rows fitted 1.05-10x faster with it, 22 of 99-202 rows from 2.6x slower
#: to 2.2x faster (package README, "Defaults").
INTERIOR_MIN_SAMPLES = 250
#: Fewest samples of a subsample level below a level that takes the interior start. Set
#: when a smaller level was solved by the simplex alone and cost more than the points it
#: saved; levels of 500 taking the interior start too gave 0.63-1.01x at 2,000-4,000
#: rows (mixed, report-type sets only), so it stays (package README, "Defaults").
INTERIOR_MIN_LEVEL = 1000
#: Columns (|P| + 1, the rows of HiGHS's dense dual LP) from which the exact rounds skip
#: the partial pricing: each re-solve then costs seconds (the factorization of a dense
#: basis of that size: ~1 s at 1,349 rows, ~3 s at 1,756), more than a full pricing
#: pass, and the random sample finds one or two of the violating columns a round.
#: Friedman #1 at 40,000 rows: 14 top-level solves and 212-237 s before, 5 and 166-182 s
#: after (package README, "Full pricing on large dense LPs").
FULL_PRICING_MIN_COLUMNS = 1000


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
    interior_tol=1e-3,
    interior_final_tol=1e-6,
    interior_rounds=30,
    fold_min=4096,
    interior_fold_margin=1.0,
    near_rows=None,
    float32_data=None,
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
    ``|g_j| <= 1``) are priced - first on ``price_size`` random samples (while
    ``|P| + 1 < FULL_PRICING_MIN_COLUMNS``), then on all N (``g`` kept up to date by
    the change of beta only) - and the
    ``max_add_columns`` most violating columns join P. For the RBF kernel on few
    features both pricings sum g by certified expansions and re-sum exactly the
    samples whose error bound cannot prove them non-violating
    (:func:`lpsvr._passes.full_pricing`): the same decisions as exact sums. Rows and columns are
    only added, so the loop is finite; when nothing violates, the point
    satisfies the KKT conditions (6a)-(6d) of the full corrected LP.

    Start: when ``N >= coarsen * min_level`` the same method first solves
    a random ``1/coarsen`` subsample exactly (recursively); its nonzero
    coefficients and its rows with positive multipliers seed P and R.
    Otherwise P and R start from ``B0`` random samples (both rows each). With
    ``interior="auto"``, a level that takes the interior-point start (below) does not
    recurse into a subsample under ``INTERIOR_MIN_LEVEL`` (1,000) samples: on Friedman #1
    N = 2,000 a 500-sample level solved by the simplex alone took 15 warm HiGHS solves
    (2,236 pivots, ~0.5 s of a 1.5 s fit) and saved the top level 3 cheap interior
    points of the 13 it takes from ``B0`` random columns (same objective to 2e-14).

    Every round (and every subsample level) solves within the time left of
    ``budget`` (:class:`~svmcore.solvers.TimeBudget`, None: no limit); when the
    deadline passes, the last round's solution is returned with
    ``converged=False`` (before the first round: the subsample solution,
    alpha = 0 on the other samples, or the zero function). The caller warns.
    ``report`` (callable or None) is called with each round's history record.

    Rows at their upper bound are folded out of the LP (:mod:`lpsvr._folding`) when at
    least ``fold_min`` of them can fold at once: for fewer, the rounds that folding can
    cost (a folded row f no longer justifies returns at the price of a round) outweigh
    HiGHS's memory (digits 0-4/5-9, 1797 x 64, folding every time: 32 s against 20 s).

    With ``interior`` (``"auto"``: d > 1 and N >= ``INTERIOR_MIN_SAMPLES``, 250; 1,000
    before 2026-11-26) interior-point rounds grow P and R first and guess HiGHS's
    starting basis (:func:`lpsvr._interior_start.interior_sets`),
    each point to a relative gap of ``interior_tol`` (1e-3; 1e-6 before 2026-11-26: about
    a third fewer Newton steps), the basis from one more point of the final sets at
    ``interior_final_tol`` (1e-6); only a start, the exact rounds decide. The rows that
    start folded are those its last point holds at their upper bound more than
    ``interior_fold_margin * epsilon`` outside the tube (0 before 2026-11-27: on Friedman #1
    N = 10,000, raw y, 22 rows just outside came back through the KKT check, a top-level
    HiGHS round of ~0.9 s each time; with 1.0, 23 HiGHS solves instead of 28, 5.2 s
    instead of 7.9-8.3 s, same optimum).

    The interior rounds add at most ``max_add_columns`` (100) columns a round; up to
    ``|P|`` of the coarse level's seed before 2026-11-27 (371 at Friedman #1 N = 10,000,
    raw y; 470 at 20,000): the next point dropped most of them (``|g| < 0.7``) and P
    grew by a few dozen a round at ``|P|^2 |R|`` per Newton step. With 100, interior
    work (Newton steps x ``|P|^2 |R|``) 3.92e11 -> 2.57e11 at 10,000, 1.30e12 -> 8.72e11
    at 20,000, and HiGHS holds 920 instead of 1,108 columns (1,348 instead of 1,537).
    Levels without a coarse seed (``B0`` random columns) used 100 already.

    ``near_rows`` (None: off; only after the interior start): a round whose check finds
    violated rows adds with them the rows outside R less than ``near_rows * epsilon``
    inside the tube. The interior start hands HiGHS only the rows within 0.1 epsilon of
    the tube's edge; the exact f then crossed the edge a row or two at a time, a HiGHS
    round each (Friedman #1 N = 10,000: 7 top-level solves; with 1.0, 5). They enter
    nonbasic at 0 (the dual's basis stays primal feasible) and the optimum is the same.
    At most as many join as there are violated rows, nearest the edge first. Off by
    default since 2026-11-27: on by default (1.0), all rows of a separable LPSVC joined
    (122 MB traced at 80,000 rows against 42 MB), and with the cap a HiGHS re-solve in
    a test ended 1e-9 relative above the optimum; off, Friedman #1 took 12.0 s at 10,000
    and 34.0 s at 20,000 (one thread, load 1) against 10.9-11.5 s and 34.7-37.8 s on.

    ``float32_data`` (None: decided here by one pass over the samples, when a level takes
    the interior start): whether the interior rounds may read the data in float32
    (:func:`lpsvr._interior_start.float32_safe`); the subsample levels take the top
    level's answer instead of a pass each.
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
        interior_final_tol=interior_final_tol,
        interior_rounds=interior_rounds,
        fold_min=fold_min,
        interior_fold_margin=interior_fold_margin,
        near_rows=near_rows,
    )
    at = partial(_result_at, samples, epsilon, kernel_params=kernel_params, n_jobs=n_jobs, tol=tol)
    history = []
    # the current solution: the subsample's (alpha = 0 elsewhere) or the zero function
    alpha, b, mu, nu = np.zeros(N), 0.0, np.zeros(N), np.zeros(N)
    recurse = coarsen > 1 and N >= coarsen * min_level
    if interior == "auto":  # dense LPs: d > 1 (hundreds of nonzero coefficients)
        d_features = samples.X[np.zeros(1, dtype=np.intp)].shape[1]
        interior = N >= INTERIOR_MIN_SAMPLES and d_features > 1
        # no subsample level under INTERIOR_MIN_LEVEL below an interior level
        recurse &= not interior or N // coarsen >= INTERIOR_MIN_LEVEL
    if interior and float32_data is None:
        float32_data = float32_safe(samples)
    kw["float32_data"] = float32_data
    if recurse:
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
    if interior:
        start, row_samples, row_signs, basis, outside = interior_sets(
            samples,
            start,
            row_samples,
            row_signs,
            epsilon=epsilon,
            kernel_params=kernel_params,
            n_jobs=n_jobs,
            budget=budget,
            tol=interior_tol,
            final_tol=interior_final_tol,
            screen=max(tol, 1e-4),
            max_rounds=interior_rounds,
            max_add=max_add_columns,
            single=float32_data,
        )
    lp = FoldedRowColumnLP(
        samples.X, samples.d, samples.cost, epsilon, kernel_params, n_jobs=n_jobs, lp_tol=lp_tol
    )
    in_cols = np.zeros(N, dtype=bool)
    in_rows = np.zeros((N, 2), dtype=bool)  # [:, 0]: rows s = -1, [:, 1]: rows s = +1
    folded = np.zeros((N, 2), dtype=bool)  # rows held at pi_r = u_r (lpsvr._folding)
    lp.add_columns(start)
    in_cols[start] = True
    in_rows[row_samples, (row_signs > 0).astype(np.intp)] = True
    if basis is not None:
        # rows the interior point puts at their upper bound well outside the tube start
        # folded when the LP is large (a guess: the KKT check unfolds any it gets wrong,
        # at the price of a round), so HiGHS never holds their kernel values
        up = (basis[0] == 2) & (outside > interior_fold_margin * max(epsilon, 1e-3))
        up &= ~up.all() & (up.sum() >= fold_min)  # the LP needs one variable
        lp.fold_rows(row_samples[up], row_signs[up])
        folded[row_samples[up], (row_signs[up] > 0).astype(np.intp)] = True
        row_samples, row_signs = row_samples[~up], row_signs[~up]
        basis = (basis[0][~up], basis[1])
    lp.add_rows(row_samples, row_signs)
    if basis is not None:
        lp.set_start_basis(*basis)
    converged = False
    priced = None  # (g, err, beta_g): g within err of K beta_g on all N samples
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
        outputs = Outputs(samples.X[lp.cols[keep]], alpha_P[keep], b, kernel_params, n_jobs)
        mu, nu = _sample_multipliers(lp, pi, N)
        beta = mu - nu
        # fold the rows this solution holds at their upper bound (same point, smaller LP)
        up = lp.foldable(pi, tol)
        if up.size < fold_min:  # few rows to fold: cheaper kept whole (see docstring)
            up = up[:0]
        folded[lp.row_sample[up], (lp.row_sign[up] > 0).astype(np.intp)] = True
        lp.fold(up)
        # primal check: constraints outside R violated by the current f, folded rows
        # whose bound f no longer justifies
        # after the interior start, rows within near_rows * epsilon inside the tube join
        # with the violated ones (see the docstring)
        near = None if basis is None or near_rows is None else -near_rows * max(epsilon, 1e-3)
        check = partial(primal_block, outputs, epsilon, tol, samples.local, near=near)
        parts = samples.map(check, in_rows, folded)
        f = parts[0]["f"] if samples.local else None
        side = np.concatenate([p["side"] for p in parts])
        new_rows = np.concatenate([p["rows"] for p in parts])
        if near is not None:
            sel = near_rows_kept(np.concatenate([p["over"] for p in parts]), tol)
            side, new_rows = side[sel], new_rows[sel]
        by_side = np.lexsort((new_rows, side))
        side, new_rows = side[by_side], new_rows[by_side]
        back_side = np.concatenate([p["back_side"] for p in parts])
        back_rows = np.concatenate([p["back_rows"] for p in parts])
        step = "rows"
        added = new_rows.size + back_rows.size
        if added:
            lp.add_rows(new_rows, 2.0 * side - 1.0)
            in_rows[new_rows, side] = True
            lp.unfold(back_rows, 2.0 * back_side - 1.0)
            folded[back_rows, back_side] = False
        else:
            # dual check: reduced costs 1 -+ g_i of the columns outside P
            viol = np.zeros(0)
            if priced is None and lp.cols.size + 1 < FULL_PRICING_MIN_COLUMNS:
                step = "partial pricing"
                out = np.flatnonzero(~in_cols)
                cand = rng.choice(out, size=min(n_price, out.size), replace=False)
                viol = np.abs(price(samples.X, cand, beta, tol, kernel_params, n_jobs)) - 1.0
                hit = np.flatnonzero(viol > tol)
                order = cand[hit[np.argsort(-viol[hit], kind="stable")]]
            if not (viol > tol).any():
                step = "full pricing"
                priced, order = full_pricing(
                    samples, priced, beta, in_cols, tol, 20 * max_add_columns, kernel_params, n_jobs
                )
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
                "n_rows": int(lp.row_sample.size + lp.fold_sample.size),
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
    if priced is None or not np.array_equal(priced[2], beta):
        priced, _ = full_pricing(samples, None, beta, in_cols, tol, 0, kernel_params, n_jobs)
    # the KKT report reads g at its worst within the bound: its dual residual is an
    # upper bound (exact on P and on every row the pricing had to settle exactly)
    g_all = priced[0] + np.sign(priced[0]) * priced[1]
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


def near_rows_kept(over, tol):
    """Positions of the check's rows that join R when near rows are on (sorted).

    ``over`` is ``s (f - d) - epsilon`` of each row the check returned: the violated ones
    (``> tol``) all join, and with them at most as many near ones, nearest the edge
    first; none when nothing is violated (see ``fit_row_column``'s ``near_rows``).
    """
    hit = over > tol
    near_only = np.flatnonzero(~hit)
    near_only = near_only[np.argsort(-over[near_only], kind="stable")[: hit.sum()]]
    return np.sort(np.r_[np.flatnonzero(hit), near_only])
