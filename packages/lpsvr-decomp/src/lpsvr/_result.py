"""What every LP-SVR training method returns, and the helpers that build it.

Kernel values are streamed in row blocks (:func:`svmcore.kernels.kernel_matvec`) for the
outputs and the KKT check on all N samples; never N x N. The check runs block by block
(:func:`_summary`), so the same code serves samples in memory (one block) and the row
chunks of a Dask array (:mod:`lpsvr._samples`).
"""

from dataclasses import dataclass, field
from functools import partial

import numpy as np

from ._samples import Expansion

# The KKT helpers live here, not with the LP (lpsvr._lp): the checks run in tasks on
# Dask workers, and the LP's module imports svmcore's HiGHS wrapper and scikit-learn
# (and pandas with it) with it.
__all__ = ["FitResult", "combine_kkt", "kkt_parts"]

# Zero tests on HiGHS vertex solutions (crossover gives exact zeros for
# nonbasic variables; these only absorb round-off).
_ZERO_ALPHA = 1e-12
_ZERO_DUAL = 1e-9


def kkt_parts(f, g, d, alpha, mu, nu, cost, epsilon):
    """The maxima and sums behind the KKT residuals (6a)-(6d) on one block of samples.

    :func:`combine_kkt` joins the parts of the blocks (row chunks of a Dask array, or one
    block holding every sample) into the residuals of the corrected full LP.

    Parameters
    ----------
    f : ndarray of shape (N,)
        Model outputs ``f(x_j) = sum_i alpha_i k(x_j, x_i) + b``.
    g : ndarray of shape (N,)
        ``sum_i k(x_j, x_i) (mu_i - nu_i)``.
    d : ndarray of shape (N,)
        Targets.
    alpha, mu, nu : ndarray of shape (N,)
        Coefficients and row multipliers (zero where not in the working set).
    cost : ndarray of shape (N,)
        ``2 C s_j``.
    epsilon : float
    """
    r = d - f
    xi = np.maximum(np.abs(r) - epsilon, 0.0)
    u = epsilon - r + xi  # surplus of row 1
    v = epsilon + r + xi  # surplus of row 2
    s_plus = 1.0 - g  # dual slack of alpha+
    s_minus = 1.0 + g  # dual slack of alpha-
    s_xi = cost - mu - nu
    dual = max(
        float(np.max(-s_plus, initial=0.0)),
        float(np.max(-s_minus, initial=0.0)),
        float(np.max(-s_xi, initial=0.0)),
        float(np.max(-mu, initial=0.0)),
        float(np.max(-nu, initial=0.0)),
    )
    a_plus = np.maximum(alpha, 0.0)
    a_minus = np.maximum(-alpha, 0.0)
    comp = max(
        float(np.max(np.abs(a_plus * s_plus), initial=0.0)),
        float(np.max(np.abs(a_minus * s_minus), initial=0.0)),
        float(np.max(np.abs(xi * s_xi), initial=0.0)),
        float(np.max(np.abs(u * mu), initial=0.0)),
        float(np.max(np.abs(v * nu), initial=0.0)),
    )
    primal = float(max(np.max(-u, initial=0.0), np.max(-v, initial=0.0)))
    return {
        "primal": primal,
        "dual": dual,
        "complementarity": comp,
        "beta_sum": float(np.sum(mu - nu)),
        "alpha_l1": np.abs(alpha).sum(),
        "xi_cost": cost @ xi,
    }


def combine_kkt(parts):
    """KKT residuals (6a)-(6d) from the :func:`kkt_parts` of blocks covering every sample.

    Returns
    -------
    dict
        ``primal`` (row infeasibility, 0 here since xi is reconstructed), ``dual``
        (largest violation of dual feasibility), ``complementarity`` (largest
        ``z_i s_i``) and ``objective``.
    """
    beta_sum = sum(p["beta_sum"] for p in parts)
    return {
        "primal": max(p["primal"] for p in parts),
        "dual": max(max(p["dual"] for p in parts), abs(beta_sum)),
        "complementarity": max(p["complementarity"] for p in parts),
        "objective": float(sum(p["alpha_l1"] for p in parts) + sum(p["xi_cost"] for p in parts)),
    }


@dataclass
class FitResult:
    """Outcome of one LP-SVR fit on N samples."""

    alpha: np.ndarray  # (N,) alpha+ - alpha-
    b: float
    mu: np.ndarray  # (N,) row-1 multipliers (0 outside the final working set)
    nu: np.ndarray  # (N,)
    f: np.ndarray | None  # (N,) training outputs (None when the samples are not local)
    objective: float
    kkt: dict
    converged: bool
    n_iter: int
    history: list = field(default_factory=list)
    block_objectives: list = field(default_factory=list)
    columns: np.ndarray | None = None  # "row_column": the final column set P
    saturated: np.ndarray | None = None  # samples outside the tube (Definition 1)
    exact: np.ndarray | None = None  # samples on the tube's edge


def _summary(start, f, g, d, cost, epsilon, alpha, mu, nu, tol, keep_f):
    """KKT parts and Definition-1 sets of one block of samples, from its outputs f and g."""
    r = np.abs(d - f) - epsilon
    edge = max(tol, 1e-9)
    return {
        "kkt": kkt_parts(f, g, d, alpha, mu, nu, cost, epsilon),
        "saturated": start + np.flatnonzero(r > edge),
        "exact": start + np.flatnonzero(np.abs(r) <= edge),
        "f": f if keep_f else None,
    }


def _summary_of_block(outputs, epsilon, tol, keep_f, start, X, d, cost, alpha, mu, nu, *extra):
    f, g = outputs(X, *extra)
    return _summary(start, f, g, d, cost, epsilon, alpha, mu, nu, tol, keep_f)


def _result(
    f,
    g,
    samples,
    epsilon,
    point,
    tol,
    *,
    converged=False,
    n_iter=0,
    outputs=None,
    extra=(),
    **fields,
):
    """FitResult at ``point = (alpha, b, mu, nu)`` from the outputs f and ``g = K (mu - nu)``.

    With ``f`` None (the samples are not in this process, or f is not at hand), one pass
    computes them block by block: ``outputs(X_block, *extra_block) -> (f, g)``, with
    ``extra`` per-sample arrays.
    """
    alpha, b, mu, nu = point
    if f is not None:
        parts = [_summary(0, f, g, samples.d, samples.cost, epsilon, alpha, mu, nu, tol, True)]
    else:
        keep_f = samples.local
        run = partial(_summary_of_block, outputs, epsilon, tol, keep_f)
        parts = samples.map(run, alpha, mu, nu, *extra)
        f = np.concatenate([p["f"] for p in parts]) if keep_f else None
    kkt = combine_kkt([p["kkt"] for p in parts])
    return FitResult(
        alpha,
        b,
        mu,
        nu,
        f,
        kkt["objective"],
        kkt,
        converged,
        n_iter,
        saturated=np.concatenate([p["saturated"] for p in parts]),
        exact=np.concatenate([p["exact"] for p in parts]),
        **fields,
    )


def _result_at(samples, epsilon, alpha, b, mu, nu, kernel_params, n_jobs, tol, **fields):
    """FitResult at (alpha, b, mu, nu): f, g = K (mu - nu) and the KKT residuals on all samples."""
    beta = mu - nu
    used = np.flatnonzero((alpha != 0.0) | (beta != 0.0))
    outputs = Expansion(samples.X[used], alpha[used], beta[used], b, kernel_params, n_jobs)
    return _result(None, None, samples, epsilon, (alpha, b, mu, nu), tol, outputs=outputs, **fields)


def _sample_multipliers(lp, pi, N):
    """Row multipliers per sample: mu (rows s = -1) and nu (rows s = +1), length N.

    With epsilon = 0 both rows of a sample can be tight; subtracting
    ``min(mu, nu)`` from both keeps ``beta = mu - nu`` (the only quantity in
    the dual constraints on alpha and b) and gives ``mu + nu <= 2 C s_j``.
    """
    mu, nu = row_multipliers(*lp.rows, pi, N)
    common = np.minimum(mu, nu)
    return mu - common, nu - common


def row_multipliers(row_sample, row_sign, pi, N):
    """``(mu, nu)``, length N: the multipliers ``pi`` of the rows ``s = -1`` and ``s = +1``
    summed per sample (rows ``(row_sample, row_sign)``)."""
    lo = row_sign < 0
    mu = np.bincount(row_sample[lo], weights=pi[lo], minlength=N)
    nu = np.bincount(row_sample[~lo], weights=pi[~lo], minlength=N)
    return mu, nu
