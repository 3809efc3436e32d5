"""The interior-point start of "row_column" for dense LPs: grow P and R, guess a basis."""

from functools import partial

import numpy as np

from svmcore.kernels import gram

from ._interior import basis_guess, interior_point
from ._passes import Outputs, full_pricing, primal_block

__all__ = ["interior_sets"]


def interior_sets(
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
    drop=1.0,
    drop_columns=0.3,
    tail=0.01,
    final_tol=None,
    warm_change=0.1,
    hand_over_drop=0.1,
):
    """Grow P and R by the KKT check at interior-point solutions; a starting basis for HiGHS.

    Each round solves the LP over (P, R) approximately
    (:func:`lpsvr._interior.interior_point`, relative gap ``tol``), then adds the rows
    outside R that its f violates by more than ``screen`` and the ``max_add`` columns
    outside P with the largest ``|g_i| - 1 > screen`` (at most ``max_rounds`` rounds).
    A column leaves P only when the point shows it far from entering
    (``|g_i| < 1 - drop_columns``): dropped near the edge (0.1 before 2026-11-26),
    columns came back a round later, P oscillated (digits 0-4/5-9: 406, 391, 566, 360,
    495, 374 columns) and the 10 rounds ended short of the sets, leaving the exact rounds
    thousands of dense simplex pivots. A row leaves R only when the point holds its
    ``pi_r`` at 0 and the sample lies more than ``drop * epsilon`` inside that side of the
    tube (``drop`` was 0.1: rows just inside the edge left and the next
    point's f, moved by the new columns, violated them again; on Friedman #1 N = 10,000
    the top level dropped and re-added 800-2,000 rows a round for 16 rounds). The rounds
    stop early once a round adds at most ``tail |P|`` rows and columns. With
    ``final_tol`` (None: the last round's point) the basis is read off one more point, of
    the final sets, at that gap.

    A round whose rows and columns changed (dropped plus added) by at most
    ``warm_change`` of ``|P| + |R|`` starts its point from the previous one
    (:func:`~lpsvr._interior._warm_start`), as does the final point; after larger changes
    the cold start took fewer Newton steps.

    With ``hand_over_drop`` (None: all rows), the rows the last point holds at
    ``pi_r = 0`` more than ``hand_over_drop * epsilon`` inside the tube are left out of
    the sets returned, so HiGHS's LP stays about the size it had when every round dropped
    rows at 0.1 epsilon (``LPSVC()`` on overlapping blobs at n = 20,000: 432 MB of fit
    growth without, 269 MB with). They are nonbasic at 0, so the basis stays valid; the
    KKT check returns any that the exact rounds' f violates.

    Returns ``(cols, row_samples, row_signs, basis, outside)``: ``basis`` the
    :func:`~lpsvr._interior.basis_guess` of the last point, extended by the rows and
    columns added after it (new ``pi_r`` nonbasic at 0, new ranged rows basic), or None
    when no point was computed; ``outside`` per row, by how much that point's f violates
    it (``s (f - d) - epsilon``; 0 for the rows added after it). Only a start: the exact
    rounds decide.
    """
    N = samples.n
    X, d, cost = samples.X, samples.d, samples.cost
    in_cols = np.zeros(N, dtype=bool)
    in_cols[cols] = True
    in_rows = np.zeros((N, 2), dtype=bool)
    in_rows[row_samples, (row_signs > 0).astype(np.intp)] = True
    basis = outside = warm = None
    for _ in range(max_rounds):
        # no start to guess from an empty set (a single positive in 2002 rows left the
        # initial rows empty and gram failed with "Y is empty"; issue 19)
        if budget.expired() or cols.size == 0 or row_samples.size == 0:
            break
        u = cost[row_samples]
        point = _point(
            samples, cols, row_samples, row_signs, epsilon, kernel_params, n_jobs, tol, warm
        )
        if point is None:
            break
        basis = basis_guess(point, u)
        alpha, b = point["y"][1:], float(point["y"][0])
        outputs = Outputs(X[cols], alpha, b, kernel_params, n_jobs)
        parts = samples.map(partial(primal_block, outputs, epsilon, screen, False), in_rows)
        side = np.concatenate([p["side"] for p in parts])
        new_rows = np.concatenate([p["rows"] for p in parts])
        pi = np.where(point["pi"] > 1e-9 * u, point["pi"], 0.0)
        lo = row_signs < 0
        beta = np.bincount(row_samples[lo], weights=pi[lo], minlength=N) - np.bincount(
            row_samples[~lo], weights=pi[~lo], minlength=N
        )
        # at most max_add columns a round: doubling P instead (max(max_add, |P|), before
        # 2026-11-26) brought in hundreds that the next point found inactive, and the
        # interior point's cost grows as |P|^2 |R|
        _, new_cols = full_pricing(
            samples, None, beta, in_cols, screen, max_add, kernel_params, n_jobs
        )
        new_cols = new_cols[:max_add]
        # drop what the point shows inactive: columns with |g_i| well inside 1 (their
        # ranged row basic) and rows well inside the tube (pi_r nonbasic at 0); the
        # point stays optimal for the smaller LP and the basis keeps its size
        g = point["w"] - 1.0
        keep_c = (basis[1][1:] != 1) | (np.abs(g) >= 1.0 - drop_columns)
        slack = epsilon - row_signs * (outputs.f(X[row_samples]) - d[row_samples])
        keep_r = (basis[0] != 0) | (slack <= drop * max(epsilon, 1e-3))
        keep_c[np.argmax(np.abs(g))] = keep_r[np.argmin(slack)] = True  # never empty
        n_dropped = keep_c.size - keep_c.sum() + keep_r.size - keep_r.sum()
        cols, row_samples, row_signs = cols[keep_c], row_samples[keep_r], row_signs[keep_r]
        in_cols[:] = False
        in_cols[cols] = True
        in_rows[:] = False
        in_rows[row_samples, (row_signs > 0).astype(np.intp)] = True
        basis = (basis[0][keep_r], np.r_[basis[1][:1], basis[1][1:][keep_c]])
        outside = -slack[keep_r]
        warm = (point["pi"][keep_r], np.r_[point["y"][:1], point["y"][1:][keep_c]])
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
        outside = np.r_[outside, np.zeros(new_rows.size)]
        # new rows start in the middle of their box, new columns at alpha_i = 0
        warm = (np.r_[warm[0], 0.5 * cost[new_rows]], np.r_[warm[1], np.zeros(new_cols.size)])
        if n_dropped + new_rows.size + new_cols.size > warm_change * (cols.size + row_samples.size):
            warm = None
        # the tail: rounds adding a row or column or two each cost a whole interior
        # point (15 steps); past that the warm simplex from the guessed basis is cheaper
        if new_rows.size + new_cols.size <= tail * cols.size:
            break
    if final_tol is not None and basis is not None and not budget.expired():
        # the basis is guessed from a point of the final sets at the tighter final_tol
        u = cost[row_samples]
        args = (samples, cols, row_samples, row_signs, epsilon, kernel_params, n_jobs)
        point = _point(*args, final_tol, warm)
        if point is not None:
            basis = basis_guess(point, u)
            f = Outputs(X[cols], point["y"][1:], float(point["y"][0]), kernel_params, n_jobs)
            outside = row_signs * (f.f(X[row_samples]) - d[row_samples]) - epsilon
    if hand_over_drop is not None and basis is not None:
        keep = (basis[0] != 0) | (outside >= -hand_over_drop * max(epsilon, 1e-3))
        keep[np.argmax(outside)] = True
        row_samples, row_signs, outside = row_samples[keep], row_signs[keep], outside[keep]
        basis = (basis[0][keep], basis[1])
    return cols, row_samples, row_signs, basis, outside


def _point(samples, cols, row_samples, row_signs, epsilon, kernel_params, n_jobs, tol, warm):
    """:func:`~lpsvr._interior.interior_point` of the LP over (P, R) to relative gap ``tol``.

    ``warm``: None or the start ``(pi, y)`` on these sets.
    """
    X, d, cost = samples.X, samples.d, samples.cost
    G = gram(X[cols], X[row_samples], **kernel_params, n_jobs=n_jobs)
    G *= row_signs  # in place: G (|P| x |R|) is the largest array of a round
    q = epsilon + row_signs * d[row_samples]
    return interior_point(G, row_signs, q, cost[row_samples], tol=tol, start=warm)
