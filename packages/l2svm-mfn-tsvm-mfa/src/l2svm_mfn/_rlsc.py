"""Regularized least squares classification (SVMlin's ``-A 0``): one CGLS solve (Table 2)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmcore.docstrings import fill_doc
from svmcore.linalg import cgls
from svmcore.typing import ArrayLike, MatrixLike

from ._docs import DOCS

__all__ = ["RLSCResult", "least_squares_objective", "rlsc"]


@fill_doc(DOCS)
class RLSCResult(NamedTuple):
    """Result of :func:`rlsc`.

    Parameters
    ----------
    %(result_w_outputs)s
    n_iter : int
        CGLS iterations.
    converged : bool
        Whether CGLS met its stopping rule within ``max_iter`` iterations.
    """

    w: np.ndarray
    outputs: np.ndarray
    n_iter: int
    converged: bool


@fill_doc(DOCS)
def least_squares_objective(
    w: ArrayLike, outputs: ArrayLike, y: ArrayLike, cost: ArrayLike, lam: float | ArrayLike
) -> float:
    r"""Evaluate :math:`\tfrac12 w^T\Lambda w + \tfrac12\sum_i c_i (y_i - o_i)^2`.

    Parameters
    ----------
    %(objective_w_outputs)s
    y : ndarray of shape (n_samples,)
        Targets (labels in {-1, +1} for classification).
    %(objective_cost_lam)s
    """
    w, lam = np.asarray(w), np.asarray(lam)
    residual = np.asarray(y) - np.asarray(outputs)
    return 0.5 * float(np.sum(lam * w * w)) + 0.5 * float(
        np.sum(np.asarray(cost) * residual * residual)
    )


def rlsc(
    X: MatrixLike,
    y: ArrayLike,
    cost: ArrayLike,
    lam: float | ArrayLike,
    *,
    intercept: bool = True,
    tol: float = 1e-6,
    max_iter: int = 10000,
) -> RLSCResult:
    r"""Regularized least squares classification, as SVMlin v1.0's ``-A 0`` computes it.

    Minimizes :func:`least_squares_objective`,
    :math:`\tfrac12 \lambda \|w\|^2 + \tfrac12\sum_i c_i (y_i - w^T x_i)^2`, by one run of
    CGLS (:func:`svmcore.linalg.cgls`, the paper's Table 2) from :math:`w = 0` on all
    rows, the bias a regularized constant feature: SVMlin's RLS routine. The squared
    loss counts every row, also those classified right beyond the margin, which is what
    sets it apart from L2-SVM-MFN.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features) or csr_matrix
        Data (never copied or densified).
    y : array-like of shape (n_samples,)
        Labels in {-1, +1} (any real targets give regularized least squares regression).
    cost : array-like of shape (n_samples,)
        Non-negative costs :math:`c_i` (SVMlin's ``-Cp``/``-Cn`` per class).
    lam : float or array-like of shape (dim,)
        Regularization :math:`\lambda > 0` (a vector: one value per weight).
    intercept : bool, default=True
        Append the constant feature (SVMlin's bias).
    tol : float, default=1e-6
        CGLS tolerance (SVMlin's ``EPSILON``).
    max_iter : int, default=10000
        CGLS iteration cap (SVMlin's ``CGITERMAX``).

    Returns
    -------
    result : RLSCResult
        Weights, outputs, CGLS iterations and the convergence flag.

    Notes
    -----
    The minimizer solves :math:`(\Lambda + X^T C X) w = X^T C y`; CGLS touches
    :math:`X` only through products with :math:`X` and :math:`X^T`,
    :math:`O(\mathrm{nnz}(X))` per iteration, at most ``dim`` iterations in exact
    arithmetic.

    Examples
    --------
    >>> import numpy as np
    >>> from l2svm_mfn import rlsc
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, -1.0]])
    >>> res = rlsc(X, [1.0, -1.0, 1.0, -1.0], np.ones(4), 0.1)
    >>> bool(res.converged), np.sign(res.outputs).tolist()
    (True, [1.0, -1.0, 1.0, -1.0])
    """
    res = cgls(X, y, cost, lam, intercept=intercept, epsilon=tol, max_iter=max_iter)
    return RLSCResult(res.beta, res.outputs, res.n_iter, res.converged)
