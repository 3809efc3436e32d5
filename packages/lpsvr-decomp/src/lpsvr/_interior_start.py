"""The interior-point start of "row_column" for dense LPs: grow P and R, guess a basis."""

from functools import partial

import numpy as np

from svmcore.kernels import gram, kernel_matvec

from ._interior import MIXED_ABOVE, basis_guess, constraint_rows, interior_point_rows
from ._passes import Outputs, full_pricing, primal_block, rounded_pricing
from ._result import row_multipliers

__all__ = ["float32_safe", "interior_sets"]

#: Largest magnitude of the data the interior rounds read in float32 (squared distances
#: over a million features stay below float32's 3.4e38).
FLOAT32_SAFE_MAX = 1e15


def _magnitude(start, X, d, cost):
    """The largest ``|x_ij|`` of a block (0 when empty)."""
    return float(abs(X).max()) if X.shape[0] else 0.0


def float32_safe(samples):
    """Whether the interior rounds may read ``samples`` in float32 (one pass over the data).

    The float32 candidates need data whose squared distances fit float32 (3.4e38): at
    1e150 the cast gave inf ("X contains NaN or infinity"); float64 there. A subset of
    safe samples is safe, so a fit decides once for all its levels.
    """
    return max(samples.map(_magnitude), default=0.0) <= FLOAT32_SAFE_MAX


def _exact_candidates(samples, state, beta, in_cols, tol, k, kernel_params, n_jobs):
    """:func:`~lpsvr._passes.rounded_pricing`'s candidates by the float64 pricing."""
    return full_pricing(samples, state, beta, in_cols, tol, k, kernel_params, n_jobs)[1][:k]


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
    fold=1.0,
    fold_after=0.1,
    fold_share=0.5,
    fold_early=5.0,
    fold_early_rows=4096,
    mixed=True,
    early_tol=1e-2,
    single=None,
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

    With ``fold`` (None: never), once a round adds at most ``fold_after |P|`` columns
    (from then on the point's f moves little), the rows a point holds at their upper
    bound ``u_r`` more than ``fold * epsilon`` outside their side of the tube are folded:
    they leave R and enter the next points as one variable ``t`` in ``[0, 1]`` with
    ``pi_r = t u_r`` for all of them (:class:`_Folded`), so a Newton step costs
    ``|P|^2 |R|`` over the rows left (Friedman #1 N = 10,000: 2,300 of 9,400; about 90 %
    of its samples lie outside the tube). ``t`` keeps the LP feasible whatever columns
    join: fixing ``pi_r = u_r`` instead made new columns' dual rows infeasible and the
    points stall (tried 2026-11-26). A folded row that a point's f puts inside the tube
    by more than ``screen`` returns to R and never folds again, so the rounds stay
    finite. The first fold waits for a round where at least ``fold_share`` of R can
    fold: on digits 0-4/5-9 (LPSVC) 330 of 1,141 rows could, and the points it saved
    cost 3 more rounds (interior work 1.47e10 -> 1.68e10, HiGHS 0 -> 78 pivots).
    Folded from the first round, the rows came back by the hundreds (f still moves by
    more than the margin between rounds) and ``t`` fell below 1; folded from
    ``fold_after`` 0.25 or 0.4, digits and Friedman #1 N = 2,000 took more interior
    work than without folding.

    With ``fold_early`` (None: never), rounds before that fold when R holds at least
    ``fold_early_rows`` rows (the top level of a large LP: the coarse level's f makes
    ~90 % of Friedman #1's rows at N = 10,000 violated at once, and until the columns
    settle each point costs ``|P|^2 |R|`` over all of them), but only the rows more than
    ``fold_early * epsilon`` (5) outside the tube, which the still moving f rarely brings
    back; one it does bring back may fold again in a later round (it is pinned only once
    the rounds have settled; ``max_rounds`` keeps them finite). Friedman #1 N = 10,000,
    raw y: interior work (Newton steps x ``|P|^2 |R|``) 6.6e11 -> 4.5e11, the same
    HiGHS optimum. With the returned rows pinned (early folding at 1 or 5 epsilon), R
    kept 3,900-4,100 rows to the last point instead of ~1,500; ``fold_early`` 8 and 12:
    work 5.1e11 and 5.0e11 (2026-11-26). Below ``fold_early_rows`` nothing changes: on
    every level, Friedman #1 N = 2,000 (2,300 rows) took 3.3e10 instead of 2.3e10.

    ``early_tol`` (None: ``tol``): the relative gap of the points before the rounds settle
    (before a round adds at most ``fold_after |P|`` columns, as for ``fold``): their f
    only decides which of hundreds of new columns and rows join, and the next round
    changes the sets again. Ten seeds each, old (1e-3 throughout) and new alternating in
    one process (load ~2): Friedman #1 N = 2,000 (suite) median fit 1.08 -> 0.96 s, interior
    work 2.19e10 -> 1.88e10; digits 0-4/5-9 (LPSVC) 0.96 -> 0.81 s, 1.48e10 -> 1.33e10
    (HiGHS 83 -> 105 pivots on average); Friedman #1 N = 10,000 (raw y, one seed) work
    4.53e11 -> 3.92e11. 5e-3: 1.04 s and 0.85 s; 2e-2 moved more to HiGHS (2 solves on
    Friedman 2,000).

    ``mixed``: the rounds' points form their normal matrices in float32 and refine each
    direction against the float64 one (``interior_point(mixed=True)``); the final point,
    whose basis HiGHS starts from, is float64 throughout.

    ``single`` (None: :func:`float32_safe` of ``samples``, one pass over them): whether
    the rounds price columns and check rows in float32 (only candidates; the exact rounds
    decide in float64).

    Returns ``(cols, row_samples, row_signs, basis, outside)``: ``basis`` the
    :func:`~lpsvr._interior.basis_guess` of the last point, extended by the rows and
    columns added after it (new ``pi_r`` nonbasic at 0, new ranged rows basic), or None
    when no point was computed; ``outside`` per row, by how much that point's f violates
    it (``s (f - d) - epsilon``; 0 for the rows added after it). The folded rows come last,
    nonbasic at the bound ``t`` is nearer. Only a start: the exact rounds decide.
    """
    N = samples.n
    X, d, cost = samples.X, samples.d, samples.cost
    in_cols = np.zeros(N, dtype=bool)
    in_cols[cols] = True
    in_rows = np.zeros((N, 2), dtype=bool)  # the rows in R or folded
    in_rows[row_samples, (row_signs > 0).astype(np.intp)] = True
    folded = _Folded(N, samples, kernel_params, n_jobs)
    margin = np.inf if fold is None else fold * max(epsilon, 1e-3)
    early_margin = np.inf if fold is None or fold_early is None else fold_early * max(epsilon, 1e-3)
    basis = outside = warm = last_f = None
    t, settled = 1.0, False
    single = float32_safe(samples) if single is None else single
    for _ in range(max_rounds):
        # no start to guess from an empty set (a single positive in 2002 rows left the
        # initial rows empty and gram failed with "Y is empty"; issue 19)
        if budget.expired() or cols.size == 0 or row_samples.size == 0:
            break
        u = cost[row_samples]
        args = (samples, cols, row_samples, row_signs, folded, epsilon, kernel_params, n_jobs)
        point = _point(*args, tol if settled or early_tol is None else early_tol, warm, mixed)
        if point is None:
            break
        basis, t = _guess(point, u, folded)
        alpha, b = point["y"][1:], float(point["y"][0])
        outputs = last_f = Outputs(X[cols], alpha, b, kernel_params, n_jobs, rounded=single)
        check = partial(primal_block, outputs, epsilon, screen, False)
        parts = samples.map(check, in_rows, folded.mask)
        side = np.concatenate([p["side"] for p in parts])
        new_rows = np.concatenate([p["rows"] for p in parts])
        back_rows = np.concatenate([p["back_rows"] for p in parts])
        back_signs = 2.0 * np.concatenate([p["back_side"] for p in parts]) - 1.0
        pi = point["pi"][: u.size]
        pi = np.where(pi > 1e-9 * u, pi, 0.0)
        mu, nu = row_multipliers(
            np.r_[row_samples, folded.samples],
            np.r_[row_signs, folded.signs],
            np.r_[pi, t * cost[folded.samples]],
            N,
        )
        beta = mu - nu
        # at most max_add columns a round: doubling P instead (max(max_add, |P|), before
        # 2026-11-26) brought in hundreds that the next point found inactive, and the
        # interior point's cost grows as |P|^2 |R| (so did |P| of a coarse level's seed,
        # fit_row_column's max_add before 2026-11-27)
        # in float32: the candidates only (rounded_pricing); the exact rounds decide
        pricing = rounded_pricing if single else _exact_candidates
        new_cols = pricing(
            samples, folded.pricing_state(t), beta, in_cols, screen, max_add, kernel_params, n_jobs
        )
        # drop what the point shows inactive: columns with |g_i| well inside 1 (their
        # ranged row basic) and rows well inside the tube (pi_r nonbasic at 0); the
        # point stays optimal for the smaller LP and the basis keeps its size
        g = point["w"] - 1.0
        keep_c = (basis[1][1:] != 1) | (np.abs(g) >= 1.0 - drop_columns)
        slack = epsilon - row_signs * (outputs.f(X[row_samples]) - d[row_samples])
        keep_r = (basis[0] != 0) | (slack <= drop * max(epsilon, 1e-3))
        keep_c[np.argmax(np.abs(g))] = keep_r[np.argmin(slack)] = True  # never empty
        n_dropped = keep_c.size - keep_c.sum() + keep_r.size - keep_r.sum()
        in_rows[row_samples[~keep_r], (row_signs[~keep_r] > 0).astype(np.intp)] = False
        # fold the rows the point holds at u_r well outside the tube (pi_r = t u_r is then
        # the same point: t is at 1 unless the folded rows' f moved inside)
        sides = (row_signs > 0).astype(np.intp)
        settled |= new_cols.size <= fold_after * cols.size
        # before that, on a large R, only the rows far outside the tube (fold_early)
        early = not settled and keep_r.sum() >= fold_early_rows
        outside_by = margin if settled else early_margin
        to_fold = keep_r & (basis[0] == 2) & (slack < -outside_by)
        to_fold &= ~folded.pinned[row_samples, sides]
        # the first fold after settling only when it takes at least fold_share of R (a
        # small share saves less than the extra rounds its returns cost: digits, 330 of
        # 1,141 rows)
        share = folded.samples.size > 0 or to_fold.sum() >= fold_share * keep_r.sum()
        to_fold &= (settled & share) | early
        to_fold[np.argmin(slack)] &= to_fold.sum() < keep_r.sum()  # R never empty
        folded.add(row_samples[to_fold], row_signs[to_fold])
        keep_r &= ~to_fold
        cols, row_samples, row_signs = cols[keep_c], row_samples[keep_r], row_signs[keep_r]
        in_cols[:] = False
        in_cols[cols] = True
        basis = (basis[0][keep_r], np.r_[basis[1][:1], basis[1][1:][keep_c]])
        outside = -slack[keep_r]
        warm_pi = point["pi"][: u.size][keep_r]
        warm_y = np.r_[point["y"][:1], point["y"][1:][keep_c]]
        # folded rows f puts inside the tube return to R, at pi_r = t u_r; for good once
        # settled (before, f still moves: an early-folded row may fold again later)
        back_rows, back_signs = folded.remove(back_rows, back_signs, pin=settled)
        in_rows[new_rows, side] = True
        add_rows = np.r_[back_rows, new_rows]
        row_samples = np.r_[row_samples, add_rows]
        row_signs = np.r_[row_signs, back_signs, 2.0 * side - 1.0]
        cols = np.r_[cols, new_cols]
        in_cols[new_cols] = True
        basis = (
            np.r_[basis[0], np.zeros(add_rows.size, np.int8)],
            np.r_[basis[1], np.ones(new_cols.size, np.int8)],
        )
        outside = np.r_[outside, np.zeros(add_rows.size)]
        # new rows start in the middle of their box, returned ones where t held them,
        # new columns at alpha_i = 0
        warm_pi = np.r_[warm_pi, t * cost[back_rows], 0.5 * cost[new_rows]]
        warm_pi = np.r_[warm_pi, np.full(min(folded.samples.size, 1), t)]
        warm = (warm_pi, np.r_[warm_y, np.zeros(new_cols.size)])
        n_added = new_rows.size + new_cols.size + back_rows.size
        if n_added == 0:
            break
        if n_dropped + new_rows.size + new_cols.size > warm_change * (cols.size + row_samples.size):
            warm = None
        # the tail: rounds adding a row or column or two each cost a whole interior
        # point (15 steps); past that the warm simplex from the guessed basis is cheaper
        if n_added <= tail * cols.size:
            break
    if final_tol is not None and basis is not None and not budget.expired():
        # the basis is guessed from a point of the final sets at the tighter final_tol
        u = cost[row_samples]
        args = (samples, cols, row_samples, row_signs, folded, epsilon, kernel_params, n_jobs)
        point = _point(*args, final_tol, warm, False)
        if point is not None:
            basis, t = _guess(point, u, folded)
            last_f = Outputs(X[cols], point["y"][1:], float(point["y"][0]), kernel_params, n_jobs)
            outside = row_signs * (last_f.f(X[row_samples]) - d[row_samples]) - epsilon
    if basis is not None and folded.samples.size:
        # the folded rows are handed over nonbasic at t's nearer bound
        f_out = folded.signs * (last_f.f(X[folded.samples]) - d[folded.samples]) - epsilon
        status = np.full(folded.samples.size, 2 if t > 0.5 else 0, dtype=np.int8)
        row_samples = np.r_[row_samples, folded.samples]
        row_signs = np.r_[row_signs, folded.signs]
        basis = (np.r_[basis[0], status], basis[1])
        outside = np.r_[outside, f_out]
    if hand_over_drop is not None and basis is not None:
        keep = (basis[0] != 0) | (outside >= -hand_over_drop * max(epsilon, 1e-3))
        keep[np.argmax(outside)] = True
        row_samples, row_signs, outside = row_samples[keep], row_signs[keep], outside[keep]
        basis = (basis[0][keep], basis[1])
    return cols, row_samples, row_signs, basis, outside


def _point(
    samples, cols, row_samples, row_signs, folded, epsilon, kernel_params, n_jobs, tol, warm, mixed
):
    """:func:`~lpsvr._interior.interior_point` of the LP over (P, R) to relative gap ``tol``.

    The folded rows enter as one more variable ``t`` (last), see :class:`_Folded`.
    ``warm``: None or the start ``(pi, y)`` on these sets; ``mixed``: see
    :func:`~lpsvr._interior.interior_point`.
    """
    X, d, cost = samples.X, samples.d, samples.cost
    R, n_folded = row_samples.size, min(folded.samples.size, 1)
    s, q, u = row_signs, epsilon + row_signs * d[row_samples], cost[row_samples]
    # the rows of the LP, [s_r, G_1r .. G_Pr], written once (float32 for loose points)
    H = constraint_rows(R + n_folded, cols.size, rounded=mixed and tol >= MIXED_ABOVE)
    np.multiply(
        gram(X[row_samples], X[cols], **kernel_params, n_jobs=n_jobs),
        s[:, None],
        out=H[:R, 1:],
        casting="same_kind",
    )
    H[:R, 0] = s
    if n_folded:
        g_t, s_t, q_t = folded.column(cols, epsilon)
        H[R, 0], H[R, 1:] = s_t, g_t
        q, u = np.r_[q, q_t], np.r_[u, 1.0]
    return interior_point_rows(H, q, u, tol=tol, start=warm, mixed=mixed)


def _guess(point, u, folded):
    """``(basis, t)``: :func:`~lpsvr._interior.basis_guess` of ``point`` on the rows of R
    (``t`` kept nonbasic, so that the folded rows can take its bound) and the value of
    ``t`` (1.0 when no row is folded)."""
    if folded.samples.size == 0:
        return basis_guess(point, u), 1.0
    col_status, row_status = basis_guess(point, np.r_[u, 1.0], nonbasic=[u.size])
    return (col_status[:-1], row_status), float(point["pi"][-1])


class _Folded:
    """The rows folded in the interior rounds: ``pi_r = t u_r`` for all, one variable ``t``.

    In the dual LP (:mod:`lpsvr._interior`) ``t`` in ``[0, 1]`` has the column
    ``sum_r u_r G_r`` (``G_r``: the column of row r), ``s``-coefficient ``sum_r s_r u_r``
    and cost ``sum_r q_r u_r``: its Newton steps cost one column however many rows are
    folded, and ``t = 0`` keeps the LP feasible whatever columns join.

    The folded rows' share of ``K w`` on all N samples (``w_j``: the sum of ``s_r u_r``
    over the folded rows of sample j) is kept as one vector, updated by the rows folded
    and returned since the last use (:meth:`sums`): t's column is its entries on P, and
    every round's pricing ``g = K beta`` adds it instead of summing over the folded rows
    again. Friedman #1 N = 10,000, raw y (4,000-8,000 rows folded in the top level's
    rounds), cProfile, one thread: the pricings 2.55 s -> 1.44 s plus 0.25 s for the
    kept sums, t's columns included (the fit 19.4 s -> 17.3 s, load ~1).
    """

    def __init__(self, n, samples, kernel_params, n_jobs):
        self.samples = np.zeros(0, dtype=np.intp)
        self.signs = np.zeros(0)
        self.mask = np.zeros((n, 2), dtype=bool)  # [:, 0]: rows s = -1, [:, 1]: s = +1
        self.pinned = np.zeros((n, 2), dtype=bool)  # returned once: never folded again
        self.store, self.kernel_params, self.n_jobs = samples, kernel_params, n_jobs
        self.w = np.zeros(n)  # per sample: sum of s_r u_r over its folded rows
        self.g = np.zeros(n)  # K w, up to the changes below
        self.changes = ([], [])  # (samples, signed weights) folded (+) or returned (-) since

    def add(self, samples, signs):
        """Fold the rows ``(samples, signs)``."""
        self.samples = np.r_[self.samples, samples]
        self.signs = np.r_[self.signs, signs]
        self.mask[samples, (signs > 0).astype(np.intp)] = True
        self.changes[0].append(samples)
        self.changes[1].append(signs * self.store.cost[samples])

    def remove(self, samples, signs, pin=True):
        """Return the folded ones of the rows ``(samples, signs)`` to the LP; those rows.

        With ``pin`` they never fold again.
        """
        sides = (signs > 0).astype(np.intp)
        hit = self.mask[samples, sides]
        samples, signs, sides = samples[hit], signs[hit], sides[hit]
        self.mask[samples, sides] = False
        if pin:
            self.pinned[samples, sides] = True
        keep = self.mask[self.samples, (self.signs > 0).astype(np.intp)]
        self.samples, self.signs = self.samples[keep], self.signs[keep]
        self.changes[0].append(samples)
        self.changes[1].append(-signs * self.store.cost[samples])
        return samples, signs

    def sums(self):
        """``(K w, w)`` on all N samples, after one kernel pass over the changed rows."""
        if self.changes[0]:
            changed, dw = np.concatenate(self.changes[0]), np.concatenate(self.changes[1])
            self.changes = ([], [])
            # a row folded and returned since the last pass changes nothing
            changed, inverse = np.unique(changed, return_inverse=True)
            dw = np.bincount(inverse, weights=dw, minlength=changed.size)
            changed, dw = changed[dw != 0.0], dw[dw != 0.0]
            if changed.size:
                block = partial(
                    _kernel_block, self.store.X[changed], dw, self.kernel_params, self.n_jobs
                )
                self.g += np.concatenate(self.store.map(block))
                self.w[changed] += dw
        return self.g, self.w

    def pricing_state(self, t):
        """The folded rows' share of the pricing at ``pi_r = t u_r``, as a
        :func:`~lpsvr._passes.rounded_pricing` state ``(g, err, beta)``; None if none is folded.

        Their multipliers enter ``beta = mu - nu`` as ``-s_r t u_r`` (``mu``: rows
        ``s = -1``), hence ``-t`` times the kept sums.
        """
        if self.samples.size == 0:
            return None
        g, w = self.sums()
        return -t * g, np.zeros(g.size), -t * w

    def column(self, cols, epsilon):
        """``(G_t, s_t, q_t)``: t's column over the columns ``cols``, its s and its cost."""
        u = self.store.cost[self.samples]
        q = float((epsilon + self.signs * self.store.d[self.samples]) @ u)
        return self.sums()[0][cols], float(self.signs @ u), q


def _kernel_block(Y, w, kernel_params, n_jobs, start, X, d, cost):
    """``K(X, Y) w`` on one block of samples (:meth:`lpsvr._samples.Samples.map`)."""
    return kernel_matvec(X, Y, w, **kernel_params, n_jobs=n_jobs)
