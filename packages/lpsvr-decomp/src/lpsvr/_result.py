"""What every LP-SVR training method returns, and the helpers that build it.

Kernel values are streamed in row blocks (:func:`svmcore.kernels.kernel_matvec`) for the
outputs and the KKT check on all N samples; never N x N.
"""

from dataclasses import dataclass, field

import numpy as np

from svmcore.kernels import kernel_matvec

from ._lp import kkt_residuals

__all__ = ["FitResult"]

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
    return _result(f, g, d, cost, epsilon, alpha, b, mu, nu, converged, n_iter, **fields)


def _result(f, g, d, cost, epsilon, alpha, b, mu, nu, converged, n_iter, **fields):
    """FitResult from the outputs ``f`` and ``g = K (mu - nu)`` already on all samples."""
    kkt = kkt_residuals(f, g, d, alpha, mu, nu, cost, epsilon)
    return FitResult(alpha, b, mu, nu, f, kkt["objective"], kkt, converged, n_iter, **fields)


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
