"""Small argument checks for svmcore's public functions (clear messages naming the argument)."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..typing import ArrayLike, IntArray, MatrixLike

__all__ = [
    "check_float_array",
    "check_indices",
    "check_positive_int",
    "check_real",
]


def check_real(
    value: Any,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_closed: bool = True,
    high_closed: bool = True,
) -> float:
    """Return ``value`` as a float after checking its type, finiteness and range.

    Parameters
    ----------
    value : object
        The value to check.
    name : str
        Argument name used in error messages.
    low : float, default=None
        Lower end of the interval; None means no lower bound.
    high : float, default=None
        Upper end of the interval; None means no upper bound.
    low_closed : bool, default=True
        Whether ``value == low`` is accepted.
    high_closed : bool, default=True
        Whether ``value == high`` is accepted.

    Returns
    -------
    value : float
        ``value`` converted to float.

    Raises
    ------
    TypeError
        If ``value`` is not a real number.
    ValueError
        If it is not finite or falls outside the interval.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}.")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}.")
    if low is not None and (value < low or (not low_closed and value == low)):
        op = ">=" if low_closed else ">"
        raise ValueError(f"{name} must be {op} {low}, got {value}.")
    if high is not None and (value > high or (not high_closed and value == high)):
        op = "<=" if high_closed else "<"
        raise ValueError(f"{name} must be {op} {high}, got {value}.")
    return value


def check_positive_int(value: Any, name: str, *, minimum: int = 1) -> int:
    """Return ``value`` as an int after checking it is an integer ``>= minimum``.

    Parameters
    ----------
    value : object
        The value to check (``bool`` is rejected).
    name : str
        Argument name used in error messages.
    minimum : int, default=1
        Smallest accepted value.

    Returns
    -------
    value : int
        ``value`` converted to int.

    Raises
    ------
    TypeError
        If ``value`` is not an integer.
    ValueError
        If it is below ``minimum``.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}.")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}.")
    return int(value)


def check_float_array(
    X: MatrixLike,
    name: str,
    *,
    ndim: int = 2,
    accept_sparse: bool = False,
    dtype: Any = None,
    allow_empty: bool = False,
) -> Any:
    """Validate a float array (or CSR matrix) without upcasting float32.

    Parameters
    ----------
    X : array-like or sparse matrix
        Input to check.
    name : str
        Argument name used in error messages.
    ndim : int, default=2
        Required number of dimensions.
    accept_sparse : bool, default=False
        Whether a scipy sparse matrix is accepted (converted to CSR).
    dtype : dtype, default=None
        Required dtype; by default float32 stays float32 and anything else
        becomes float64.
    allow_empty : bool, default=False
        Whether zero rows are accepted.

    Returns
    -------
    X : ndarray (C-contiguous) or csr_matrix
        The validated input, finite, in the dtype described above.
    """
    if sp.issparse(X):
        if not accept_sparse:
            raise TypeError(f"{name} must be a dense array; sparse input is not supported here.")
        if ndim != 2:
            raise ValueError(f"{name} must be {ndim}-dimensional, got a sparse matrix.")
        X = sp.csr_matrix(X)
        target = dtype or (X.dtype if X.dtype in (np.float32, np.float64) else np.float64)
        X = X.astype(target, copy=False)
        data = X.data
    else:
        try:
            X = np.asarray(X)
        except Exception as exc:  # ragged lists and the like
            raise TypeError(f"{name} could not be converted to an array: {exc}") from exc
        if X.dtype.kind not in "biuf":
            raise TypeError(f"{name} must hold real numbers, got dtype {X.dtype}.")
        if X.ndim != ndim:
            raise ValueError(f"{name} must be {ndim}-dimensional, got shape {X.shape}.")
        target = dtype or (X.dtype if X.dtype in (np.float32, np.float64) else np.float64)
        X = np.ascontiguousarray(X, dtype=target)
        data = X
    if not allow_empty and X.shape[0] == 0:
        raise ValueError(f"{name} is empty: it needs at least one row.")
    if not np.isfinite(data).all():
        raise ValueError(f"{name} contains NaN or infinity.")
    return X


def check_indices(idx: ArrayLike, name: str, n: int) -> IntArray:
    """Validate an integer index array into ``range(n)``; return it as intp.

    Parameters
    ----------
    idx : array-like of shape (n_indices,)
        Integer indices (an empty array of any dtype is accepted).
    name : str
        Argument name used in error messages.
    n : int
        Length of the indexed axis; every index must lie in ``[0, n)``.

    Returns
    -------
    idx : ndarray of shape (n_indices,) of intp
        The indices as intp.

    Raises
    ------
    TypeError
        If ``idx`` holds non-integers.
    ValueError
        If ``idx`` is not 1-d or holds an index outside ``[0, n)``.
    """
    idx = np.asarray(idx)
    if idx.ndim != 1:
        raise ValueError(f"{name} must be a 1-d index array, got shape {idx.shape}.")
    if idx.size and idx.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, got dtype {idx.dtype}.")
    idx = idx.astype(np.intp, copy=False)
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise ValueError(f"{name} holds indices outside [0, {n}).")
    return idx
