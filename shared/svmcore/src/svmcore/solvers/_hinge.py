"""The weighted L1-hinge SVM primal objective (the AID paper's (7), (9)) and its exact
optimal intercept for a fixed ``w``, with the labels check (``y`` in {-1, +1}) they share:
the functions every weighted-SVM solver here uses to evaluate and polish a solution (the
libsvm/liblinear adapter, the certified dual coordinate descent and Newton solvers)."""

from __future__ import annotations

import numpy as np

from ..typing import ArrayLike, MatrixLike
from ..validation import check_float_array, check_real, check_sample_weight

__all__ = ["hinge_objective", "optimal_intercept"]


def _check_labels(y, n):
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"y must be 1-d with {n} entries (one per row of X), got shape {y.shape}.")
    if y.dtype.kind not in "biuf":
        raise TypeError(f"y must hold the numbers -1 and +1, got dtype {y.dtype}.")
    # two comparisons, not np.isin: this runs on every certificate of the AID solvers
    if not ((y == 1) | (y == -1)).all():
        raise ValueError("y must contain only -1 and +1.")
    return y.astype(np.float64)


def hinge_objective(
    w: ArrayLike,
    b: float,
    X: MatrixLike,
    y: ArrayLike,
    sample_weight: ArrayLike | None = None,
    C: float = 1.0,
) -> float:
    """Weighted L1-hinge SVM primal objective (the AID paper's (7), (9)).

    Parameters
    ----------
    w : array-like of shape (n_features,)
        Weight vector.
    b : float
        Bias (not regularized).
    X : {ndarray, sparse matrix} of shape (n_samples, n_features)
        Data, dense or CSR.
    y : array-like of shape (n_samples,)
        Labels in ``{-1, +1}``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights ``s_i`` (unit weights if None).
    C : float, default=1.0
        Penalty, > 0.

    Returns
    -------
    objective : float
        ``0.5 ||w||^2 + C sum_i s_i max(0, 1 - y_i (w^T x_i + b))``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [2.0]]); y = np.array([-1, 1])
    >>> float(hinge_objective(np.array([1.0]), -1.0, X, y, C=1.0))
    0.5
    """
    X = check_float_array(X, "X", accept_sparse=True)
    y = _check_labels(y, X.shape[0])
    w = np.asarray(w, dtype=np.float64)
    if w.shape != (X.shape[1],):
        raise ValueError(f"w must have shape ({X.shape[1]},), got {w.shape}.")
    b = check_real(b, "b")
    C = check_real(C, "C", low=0.0, low_closed=False)
    sw = check_sample_weight(sample_weight, X, dtype=np.float64)
    scores = np.asarray(X @ w, dtype=np.float64)
    loss = np.maximum(0.0, 1.0 - y * (scores + b))
    return 0.5 * float(w @ w) + C * float(sw @ loss)


def optimal_intercept(
    scores: ArrayLike,
    y: ArrayLike,
    weights: ArrayLike | None = None,
    *,
    b0: float | None = None,
    check_input: bool = True,
) -> float:
    """Exact minimizer over ``b`` of ``sum_i s_i max(0, 1 - y_i (score_i + b))``.

    The objective is convex and piecewise linear in ``b`` with one breakpoint
    ``y_i - score_i`` per sample; its right derivative rises by ``s_i`` at each
    breakpoint, so the minimizer is the first sorted breakpoint where the
    cumulative weight reaches the total weight of the positive class.

    Parameters
    ----------
    scores : array-like of shape (n_samples,)
        ``w^T x_i`` (or ``f(x_i)`` without bias for a kernel machine).
    y : array-like of shape (n_samples,)
        Labels in ``{-1, +1}``.
    weights : array-like of shape (n_samples,), default=None
        Non-negative weights (unit if None); zero weights are ignored.
    b0 : float, default=None
        Tie-break: when the minimizers form an interval, the point of it
        closest to ``b0`` is returned (the smallest minimizer if None).
    check_input : bool, default=True
        Validate ``y`` and ``weights`` (``scores`` are always checked). ``False`` is for
        solvers that call it on every certificate with validated data: ``y`` in
        {-1, +1} as float64, finite non-negative float64 ``weights`` (not None).

    Returns
    -------
    b : float
        An exact minimizer.

    Notes
    -----
    Time O(n log n) (one sort), memory O(n).

    Examples
    --------
    >>> optimal_intercept([0.0, 0.0, 3.0], [1, -1, 1])
    -1.0
    """
    scores = check_float_array(scores, "scores", ndim=1, dtype=np.float64)
    if check_input:
        y = _check_labels(y, scores.shape[0])
        sw = np.ones_like(scores) if weights is None else np.asarray(weights, dtype=np.float64)
        if sw.shape != scores.shape:
            raise ValueError(f"weights must have shape {scores.shape}, got {sw.shape}.")
        if not np.isfinite(sw).all() or (sw < 0).any():
            raise ValueError("weights must be finite and non-negative.")
    else:  # the caller's arrays as they are (np.asarray: no copy)
        y, sw = np.asarray(y), np.asarray(weights)
    if b0 is not None:
        b0 = check_real(b0, "b0")
    keep = sw > 0
    if not keep.any():
        return 0.0 if b0 is None else b0
    breaks = (y - scores)[keep]
    sw = sw[keep]
    # Equal breakpoints may come in any order: each order gives the same minimizer (the
    # slope after a tie group is the same sum, up to rounding), and NumPy's default sort
    # took 42 us against the stable sort's 162 us at n = 5,550 (a third of a certificate;
    # issue 16).
    order = np.argsort(breaks)
    breaks, sw = breaks[order], sw[order]
    total_pos = float(sw[(y[keep] > 0)[order]].sum())
    # Right derivative just after breakpoint k: cumsum(sw)[k] - total_pos.
    slope = np.cumsum(sw) - total_pos
    k = int(np.searchsorted(slope, 0.0, side="left"))
    k = min(k, breaks.size - 1)
    lo = hi = breaks[k]
    if slope[k] == 0.0 and k + 1 < breaks.size:
        hi = breaks[k + 1]  # zero slope between two breakpoints: all of [lo, hi] is optimal
    if b0 is None:
        return float(lo)
    return float(min(max(b0, lo), hi))
