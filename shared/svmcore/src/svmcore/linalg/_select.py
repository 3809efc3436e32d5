"""k-th element selection: numpy's introselect from Python, a jitted quickselect in Numba."""

from __future__ import annotations

import numbers

import numpy as np

from ..numba_config import jit
from ..typing import ArrayLike
from ..validation import check_float_array

__all__ = ["kth_smallest", "kth_smallest_inplace", "select"]


def _check_k(k, n):
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise TypeError(f"k must be an int, got {type(k).__name__}.")
    if not 0 <= k < n:
        raise ValueError(f"k must be in [0, {n}) for an array of {n} entries, got {k}.")
    return int(k)


def kth_smallest(a: ArrayLike, k: int) -> float:
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
        The ``k``-th smallest entry of ``a``.

    Examples
    --------
    >>> from svmcore.linalg import kth_smallest
    >>> kth_smallest([3.0, 1.0, 2.0], 1)
    2.0
    """
    a = check_float_array(a, "a", ndim=1)
    k = _check_k(k, a.shape[0])
    return float(np.partition(a, k)[k])


def select(a: ArrayLike, k: int, *, largest: bool = False) -> np.ndarray:
    """Return the indices of the ``k`` smallest (or largest) entries of ``a``, in any order.

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
        Positions in ``a`` of the selected entries.

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


@jit
def kth_smallest_inplace(a: np.ndarray, k: int) -> float:
    """Return ``np.sort(a)[k]``, reordering ``a`` in place (Numba; callable from jitted code).

    Quickselect with a median-of-three pivot, expected linear time. It exists because
    ``np.partition`` inside Numba compiles ``np.unique``, sorts and string formatting for
    its argument checks (slow to compile on a cold first fit), while this compiles
    quickly (figures in the package README). ``a`` must be finite and
    ``0 <= k < len(a)`` (not checked: the callers own both).

    Parameters
    ----------
    a : ndarray of shape (n,)
        Scratch values; their order is destroyed.
    k : int
        Zero-based rank.

    Returns
    -------
    value : float
        The ``k``-th smallest entry; ``a`` is left partially reordered.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.linalg import kth_smallest_inplace
    >>> float(kth_smallest_inplace(np.array([3.0, 1.0, 2.0, 5.0]), 2))
    3.0
    """
    lo, hi = 0, a.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) // 2
        # Median of three into a[hi], the Lomuto pivot slot.
        if a[mid] < a[lo]:
            a[mid], a[lo] = a[lo], a[mid]
        if a[hi] < a[lo]:
            a[hi], a[lo] = a[lo], a[hi]
        if a[mid] < a[hi]:
            a[mid], a[hi] = a[hi], a[mid]
        pivot = a[hi]
        store = lo
        for j in range(lo, hi):
            if a[j] < pivot:
                a[j], a[store] = a[store], a[j]
                store += 1
        a[store], a[hi] = a[hi], a[store]
        if store == k:
            return a[k]
        if store < k:
            lo = store + 1
        else:
            hi = store - 1
    return a[k]
