"""The passes of "row_column" over all N samples: outputs, the primal check, the pricing.

Each is a function of one block of samples (:mod:`lpsvr._samples`) returning small results
the caller merges: the violated tube constraints by side, the folded rows f no longer
justifies (:mod:`lpsvr._folding`), the best-priced columns and ``g = K beta``.
"""

from functools import partial

import numpy as np

from svmcore.kernels import kernel_matvec

from ._samples import merge_top, top_of_block

__all__ = ["Outputs", "full_pricing", "primal_block"]


class Outputs:
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


def primal_block(outputs, epsilon, tol, keep, start, X, d, cost, in_rows, *folded):
    """Primal check on one block: the constraints outside R that f violates, by side.

    With ``folded`` (the rows held at their upper bound, :mod:`lpsvr._folding`) also the
    folded rows whose side f no longer reaches (``s (f - d) - epsilon < -tol``).
    """
    f = outputs.f(X)
    over = np.stack([d - f - epsilon, f - d - epsilon])  # s (f - d) - epsilon, s = -1, +1
    back_side, back = np.nonzero(folded[0].T & (over < -tol)) if folded else ((), ())
    over[in_rows.T] = 0.0
    side, rows = np.nonzero(over > tol)
    xi = np.maximum(np.abs(d - f) - epsilon, 0.0)
    return {
        "side": side,
        "rows": start + rows,
        "back_side": np.asarray(back_side, dtype=np.intp),
        "back_rows": start + np.asarray(back, dtype=np.intp),
        "xi_cost": cost @ xi,
        "f": f if keep else None,
    }


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


def full_pricing(samples, g_all, beta, beta_g, in_cols, tol, k, kernel_params, n_jobs):
    """g = K beta on all samples (from g_all = K beta_g when given) and the k best columns."""
    delta = beta if g_all is None else beta - beta_g
    nz = np.flatnonzero(delta)
    price = partial(_pricing_block, samples.X[nz], delta[nz], tol, k, kernel_params, n_jobs)
    parts = samples.map(price, in_cols) if g_all is None else samples.map(price, in_cols, g_all)
    g_all = np.concatenate([p["g"] for p in parts])
    return g_all, merge_top([p["top"] for p in parts], k)[0]
