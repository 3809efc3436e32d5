"""Weighted per-group row sums of a dense matrix (the aggregation pass of AID)."""

from __future__ import annotations

import numpy as np

from ..numba_config import jit
from ..typing import ArrayLike
from ..validation import check_float_array
from ._prefetch import PREFETCH_AHEAD, prefetch_row

__all__ = ["group_sums"]


@jit
def _add_rows(X, labels, weights, out):
    """``out[labels[i]] += weights[i] * X[i]``, one sequential pass over the rows."""
    n, m = X.shape
    for i in range(n):
        # The rows of `out` that rows ahead will add to are fetched while this one adds.
        if i + PREFETCH_AHEAD < n and labels[i + PREFETCH_AHEAD] >= 0:
            prefetch_row(out, labels[i + PREFETCH_AHEAD])
        k = labels[i]
        if k < 0:  # a row left out (skip_negative)
            continue
        wi = weights[i]
        for j in range(m):
            out[k, j] += wi * X[i, j]


def group_sums(
    X: ArrayLike,
    labels: ArrayLike,
    n_groups: int,
    weights: ArrayLike | None = None,
    *,
    skip_negative: bool = False,
    check_input: bool = True,
) -> np.ndarray:
    """Per-group weighted sums ``out[k] = sum_{i: labels_i = k} w_i x_i`` (float64).

    One pass over the rows in a serial Numba kernel: scattered row writes into a
    ``K x m`` buffer instead of a CSR matrix-matrix product with a sparse indicator
    matrix, which it outruns on large data (figures in the package README). The rows
    of the buffer that the next rows add to are prefetched (a buffer far larger than
    the caches, AID's at 64M rows, otherwise waits for a miss per row).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Dense data, float32 or float64 (any memory layout).
    labels : ndarray of shape (n_samples,) of int in ``[0, n_groups)``
        Group of each row.
    n_groups : int
        Number of groups ``K`` (rows of the result); groups without rows sum to zero.
    weights : ndarray of shape (n_samples,) or None
        Row weights (unit if None).
    skip_negative : bool, default=False
        Whether a negative label leaves its row out (instead of being an error): sums
        over a subset of the rows without copying them.
    check_input : bool, default=True
        Whether to check ``X`` for NaN/infinity and the labels' range (callers that
        validated their data once skip a pass over it per call).

    Returns
    -------
    sums : ndarray of shape (n_groups, n_features), float64
        Row ``k`` is the weighted sum of the rows labelled ``k``.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.clustering import group_sums
    >>> group_sums(np.arange(6.0).reshape(3, 2), np.array([1, 0, 1]), 2).tolist()
    [[2.0, 3.0], [4.0, 6.0]]
    """
    X = check_float_array(np.asarray(X), "X", ndim=2) if check_input else np.asarray(X)
    labels = np.asarray(labels)
    if labels.shape != (X.shape[0],) or labels.dtype.kind not in "iu":
        raise ValueError(
            f"labels must be {X.shape[0]} integers, got {labels.dtype} of shape {labels.shape}."
        )
    low = -1 if skip_negative else 0
    if check_input and labels.size and (labels.min() < low or labels.max() >= n_groups):
        raise ValueError(f"labels must lie in [{low}, {n_groups}).")
    w = np.ones(X.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    if w.shape != (X.shape[0],):
        raise ValueError(f"weights must have shape ({X.shape[0]},), got {w.shape}.")
    out = np.zeros((int(n_groups), X.shape[1]))
    _add_rows(X, labels.astype(np.int64, copy=False), w, out)
    return out
