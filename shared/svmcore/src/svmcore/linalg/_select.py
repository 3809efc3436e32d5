"""k-th element selection (linear time through numpy's introselect)."""

import numbers

import numpy as np

from ..validation import check_float_array

__all__ = ["kth_smallest", "select"]


def _check_k(k, n):
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise TypeError(f"k must be an int, got {type(k).__name__}.")
    if not 0 <= k < n:
        raise ValueError(f"k must be in [0, {n}) for an array of {n} entries, got {k}.")
    return int(k)


def kth_smallest(a, k):
    """Return ``np.sort(a)[k]`` in expected linear time.

    Parameters
    ----------
    a : array-like of shape (n,)
        Finite real values.
    k : int
        Zero-based rank, ``0 <= k < n`` (``k=0`` is the minimum).

    Returns
    -------
    value : float

    Examples
    --------
    >>> from svmcore.linalg import kth_smallest
    >>> kth_smallest([3.0, 1.0, 2.0], 1)
    2.0
    """
    a = check_float_array(a, "a", ndim=1)
    k = _check_k(k, a.shape[0])
    return float(np.partition(a, k)[k])


def select(a, k, *, largest=False):
    """Indices of the ``k`` smallest (or largest) entries of ``a``, in no particular order.

    Parameters
    ----------
    a : array-like of shape (n,)
        Finite real values.
    k : int
        How many indices, ``0 <= k <= n``.
    largest : bool, default=False
        Select the largest entries instead.

    Returns
    -------
    indices : ndarray of shape (k,) of intp

    Examples
    --------
    >>> from svmcore.linalg import select
    >>> sorted(select([3.0, 1.0, 2.0, 0.5], 2).tolist())
    [1, 3]
    """
    a = check_float_array(a, "a", ndim=1, allow_empty=True)
    n = a.shape[0]
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise TypeError(f"k must be an int, got {type(k).__name__}.")
    if not 0 <= k <= n:
        raise ValueError(f"k must be in [0, {n}] for an array of {n} entries, got {k}.")
    if k == 0:
        return np.empty(0, dtype=np.intp)
    if k == n:
        return np.arange(n, dtype=np.intp)
    keys = -a if largest else a
    return np.argpartition(keys, k - 1)[:k].astype(np.intp, copy=False)
