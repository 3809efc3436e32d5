"""The passes over all N samples: outputs, the primal check, the pricing of "row_column",
and the KKT check of "variables" (Algorithm 2, step 3).

Each is a function of one block of samples (:mod:`lpsvr._samples`) returning small results
the caller merges: the violated tube constraints by side, the folded rows f no longer
justifies (:mod:`lpsvr._folding`), the best-priced columns and ``g = K beta``, the KKT
violators outside the working set. On a Dask array they run as tasks on the workers,
so this module imports neither the LP (HiGHS) nor scikit-learn.
"""

from functools import partial

import numpy as np

from svmcore.kernels import KernelSum, kernel_matvec

from ._samples import merge_top, top_of_block

__all__ = ["Outputs", "check_block", "full_pricing", "price", "primal_block", "rounded_pricing"]

_EPS = float(np.finfo(np.float64).eps)  # twice the unit round-off: a generous half ulp


class Outputs:
    """A round's ``f = K(., X_P) alpha_P + b`` on any rows (P: the nonzero coefficients).

    ``rounded``: the kernel sum in float32 (``b`` added in float64), for the interior
    rounds' checks, which only choose the rows the next point holds (as
    :func:`rounded_pricing` the columns); the exact rounds check in float64.
    """

    def __init__(self, rows, coef, b, kernel_params, n_jobs, rounded=False):
        dtype = np.float32 if rounded else None
        self.rows = rows.astype(dtype or rows.dtype, copy=False)
        self.coef, self.b = coef.astype(dtype or coef.dtype, copy=False), b
        self.kernel_params, self.n_jobs, self.dtype = kernel_params, n_jobs, dtype

    def f(self, X):
        """The outputs on the rows ``X``."""
        f = np.full(X.shape[0], self.b)
        if self.coef.size:
            X = X.astype(self.dtype or X.dtype, copy=False)
            f += kernel_matvec(X, self.rows, self.coef, **self.kernel_params, n_jobs=self.n_jobs)
        return f

    def __call__(self, X, g):
        """``(f, g)`` on a block whose ``g = K beta`` the pricing already holds."""
        return self.f(X), g


def primal_block(outputs, epsilon, tol, keep, start, X, d, cost, in_rows, *folded, near=None):
    """Primal check on one block: the constraints outside R that f violates, by side.

    With ``folded`` (the rows held at their upper bound, :mod:`lpsvr._folding`) also the
    folded rows whose side f no longer reaches (``s (f - d) - epsilon < -tol``). The rows
    returned are those with ``s (f - d) - epsilon > tol`` (violated), or ``> near`` when
    ``near`` (< 0) is given, and ``over`` says by how much (the caller tells violated
    from near ones).
    """
    f = outputs.f(X)
    over = np.stack([d - f - epsilon, f - d - epsilon])  # s (f - d) - epsilon, s = -1, +1
    back_side, back = np.nonzero(folded[0].T & (over < -tol)) if folded else ((), ())
    over[in_rows.T] = -np.inf
    side, rows = np.nonzero(over > (tol if near is None else min(tol, near)))
    xi = np.maximum(np.abs(d - f) - epsilon, 0.0)
    return {
        "side": side,
        "rows": start + rows,
        "over": over[side, rows],
        "back_side": np.asarray(back_side, dtype=np.intp),
        "back_rows": start + np.asarray(back, dtype=np.intp),
        "xi_cost": cost @ xi,
        "f": f if keep else None,
    }


def _exact_g(X, rows_idx, beta, kernel_params, n_jobs):
    """``g = K(X[rows_idx], X_S) beta_S`` over the samples S with nonzero beta, exactly."""
    nz = np.flatnonzero(beta)
    if nz.size == 0 or rows_idx.size == 0:
        return np.zeros(rows_idx.size)
    return kernel_matvec(X[rows_idx], X[nz], beta[nz], **kernel_params, n_jobs=n_jobs)


def _kernel_sum(X, beta, tol, kernel_params, n_jobs, n_targets):
    """``K(., X_S) beta_S`` as a :class:`~svmcore.kernels.KernelSum` (error <= tol / 10)."""
    nz = np.flatnonzero(beta)
    return KernelSum(
        X[nz], beta[nz], atol=0.1 * tol, **kernel_params, n_targets=n_targets, n_jobs=n_jobs
    )


def price(X, rows_idx, beta, tol, kernel_params, n_jobs):
    """``g = K beta`` on the rows ``rows_idx``, exact on every row where ``|g| - 1 > tol``.

    Summed by :func:`_kernel_sum`; the rows whose bound cannot prove ``|g| - 1 <= tol``
    are summed again exactly, so the violating rows and their order are the exact ones.
    """
    if rows_idx.size == 0 or not beta.any():
        return np.zeros(rows_idx.size)
    g, err = _kernel_sum(X, beta, tol, kernel_params, n_jobs, rows_idx.size)(X[rows_idx])
    unsure = np.flatnonzero((err > 0.0) & (np.abs(g) + err - 1.0 > tol))
    g[unsure] = _exact_g(X, rows_idx[unsure], beta, kernel_params, n_jobs)
    return g


def _pricing_block(delta_sum, delta_l1, tol, k, start, X, d, cost, in_cols, *state):
    """Full pricing on one block: ``g += K(X, X_S) delta_S`` and its ``k`` best columns.

    ``delta_sum`` (:class:`svmcore.kernels.KernelSum`) gives the change of g with a bound
    ``err`` on its error. ``state`` is ``()`` for the first pricing (g = K delta) and
    ``(g, err)`` after it; an update's bound also covers its own rounding: the addition
    (at most ``eps |g|``) and the rounded change of beta (``delta_l1``, the 1-norm of
    the change: ``eps delta_l1`` bounds ``K`` times its rounding, as ``|k| <= 1`` where a
    bound is positive, the RBF kernel). Without them a hypothesis case ended 1.6e-17
    outside its bound. The block returns its new g and err, the rows whose g must be
    computed exactly (``unsure``: the bound cannot prove ``|g_i| - 1 <= tol``, or i is in
    P, whose g the final KKT check reads) and, among the other rows, the columns outside
    P with ``|g_i| - 1 > tol``, best first (all exact: a row with err > 0 that is not
    unsure is proven not violating).
    """
    g, err = delta_sum(X)
    if state:
        g, err = state[0] + g, state[1] + err
        err = np.where(err > 0.0, err + _EPS * (np.abs(g) + delta_l1), 0.0)
    viol = np.abs(g) - 1.0
    unsure = (err > 0.0) & (in_cols | (viol + err > tol))
    hit = np.flatnonzero(~in_cols & ~unsure & (viol > tol))
    return {
        "g": g,
        "err": err,
        "unsure": start + np.flatnonzero(unsure),
        "top": top_of_block(start, hit, viol, k),
    }


def full_pricing(samples, state, beta, in_cols, tol, k, kernel_params, n_jobs):
    """g = K beta on all samples, with its error bound, and the k best columns.

    ``state`` is None or ``(g_all, err_all, beta_g)`` of the previous pricing (g_all
    within err_all of ``K beta_g``), which is then updated by the change of beta. For the
    RBF kernel on few features the change is summed by certified Taylor expansions
    (:class:`svmcore.kernels.KernelSum`, error at most ``tol / 10``); the rows the bound
    cannot clear are priced exactly, so the columns returned and the rows declared not
    violating are those of the exact pricing. Returns ``((g_all, err_all, beta), top)``.
    """
    delta = beta if state is None else beta - state[2]
    delta_sum = _kernel_sum(samples.X, delta, tol, kernel_params, n_jobs, samples.n)
    fn = partial(_pricing_block, delta_sum, float(np.abs(delta).sum()), tol, k)
    parts = samples.map(fn, in_cols) if state is None else samples.map(fn, in_cols, *state[:2])
    g_all = np.concatenate([p["g"] for p in parts])
    err_all = np.concatenate([p["err"] for p in parts])
    unsure = np.concatenate([p["unsure"] for p in parts])
    tops = [p["top"] for p in parts]
    if unsure.size:
        g_all[unsure] = _exact_g(samples.X, unsure, beta, kernel_params, n_jobs)
        err_all[unsure] = 0.0
        viol = np.abs(g_all[unsure]) - 1.0
        sel = ~in_cols[unsure] & (viol > tol)
        tops.append((unsure[sel], viol[sel]))
    return (g_all, err_all, beta), merge_top(tops, k)[0]


def rounded_pricing(samples, state, beta, in_cols, tol, k, kernel_params, n_jobs):
    """The ``k`` best columns outside P by ``|g_i| - 1 > tol``, ``g = K beta`` summed in float32.

    For the interior rounds (:func:`lpsvr._interior_start.interior_sets`), whose columns
    are only candidates: the exact rounds price again with :func:`full_pricing` and decide.
    The kernel values and products are single precision (relative error ~1e-6, below the
    interior points' own gaps of 1e-3 to 1e-2), which takes ~40 % of the float64 time
    (10,000 x 4,000 x 10 RBF products, one thread: 0.039 s against 0.097 s): the pricing
    over all N was ~2.5 s of a Friedman #1 fit at N = 10,000. ``state`` is None or
    ``(g, err, beta_g)`` with ``g`` (float64) = ``K beta_g`` known, a part of ``beta``
    (the folded rows, :meth:`lpsvr._interior_start._Folded.pricing_state`; ``err`` is not
    read); only ``beta - beta_g`` is summed. Returns the indices, best first.
    """
    delta = beta if state is None else beta - state[2]
    nz = np.flatnonzero(delta)
    fn = partial(
        _rounded_block,
        samples.X[nz].astype(np.float32),
        delta[nz].astype(np.float32),
        tol,
        k,
        kernel_params,
        n_jobs,
    )
    parts = samples.map(fn, in_cols) if state is None else samples.map(fn, in_cols, state[0])
    return merge_top(parts, k)[0]


def _rounded_block(Y, v, tol, k, kernel_params, n_jobs, start, X, d, cost, in_cols, *base):
    """:func:`rounded_pricing` on one block: its best ``k`` columns and their ``|g| - 1``."""
    g = np.zeros(X.shape[0], dtype=np.float32)
    if v.size:
        g = kernel_matvec(X.astype(np.float32), Y, v, **kernel_params, n_jobs=n_jobs)
    if base:
        g = base[0] + g
    viol = np.abs(g) - 1.0
    return top_of_block(start, np.flatnonzero(~in_cols & (viol > tol)), viol, k)


def check_block(outputs, epsilon, tol, k, keep, start, X, d, cost, in_B):
    """Step 3 of Algorithm 2 on one block: the KKT violators outside B and the block's worst ``k``.

    ``outputs`` gives f and g from the working set's coefficients; ``keep``: return f and
    g too (samples in memory, where they make the final result without another pass).
    """
    f, g = outputs(X)
    xi = np.maximum(np.abs(d - f) - epsilon, 0.0)
    violation = np.maximum(cost * xi, np.abs(g) - 1.0)
    violation[in_B] = 0.0
    violators = np.flatnonzero((violation > tol) & ((xi > tol) | (np.abs(g) - 1.0 > tol)))
    return {
        "n": violators.size,
        "max": float(violation.max(initial=0.0)),
        "xi_cost": cost @ xi,
        "top": top_of_block(start, violators, violation, k),
        "f": f if keep else None,
        "g": g if keep else None,
    }
