"""Checking LP/QP input and converting it to the arrays HiGHS takes: costs, constraint
matrices, right-hand sides, bounds (every format ``scipy.optimize.linprog`` accepts) and
solver options are validated with ``TypeError``/``ValueError`` naming the argument, and
checked matrices and bounds become HiGHS's int32 compressed-column triplets and float64
arrays; shared by ``LinearProgram`` and the one-shot ``solve_lp``/``solve_qp``."""

import numbers

import numpy as np
import scipy.sparse as sp
from scipy.optimize import Bounds

from ..validation import check_real

__all__: list[str] = []

_METHODS = ("ipm", "simplex", "choose")

# --------------------------------------------------------------------------- validation


def _check_vector(v, name, n=None, *, allow_inf=False):
    if sp.issparse(v):
        v = v.toarray()
    try:
        v = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a 1-d array of real numbers: {exc}") from exc
    if v.ndim == 2 and 1 in v.shape:
        v = v.ravel()
    if v.ndim != 1:
        raise ValueError(f"{name} must be 1-dimensional, got shape {v.shape}.")
    if n is not None and v.shape[0] != n:
        raise ValueError(f"{name} must have length {n}, got {v.shape[0]}.")
    bad = np.isnan(v) if allow_inf else ~np.isfinite(v)
    if bad.any():
        raise ValueError(f"{name} contains NaN{'' if allow_inf else ' or infinity'}.")
    return v


def _check_matrix(A, name, n_cols):
    if sp.issparse(A):
        A = sp.csc_array(A, dtype=np.float64)
        data = A.data
    else:
        try:
            A = np.asarray(A, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} must be a 2-d array or sparse matrix: {exc}") from exc
        if A.ndim == 1 and n_cols is not None and A.shape[0] == n_cols:
            A = A[None, :]  # one constraint row given as a vector, as linprog accepts
        if A.ndim != 2:
            raise ValueError(f"{name} must be 2-dimensional, got shape {A.shape}.")
        data = A
    if n_cols is not None and A.shape[1] != n_cols:
        raise ValueError(f"{name} must have {n_cols} columns (len(c)), got shape {A.shape}.")
    if not np.isfinite(data).all():
        raise ValueError(f"{name} contains NaN or infinity.")
    return sp.csc_array(A)


def _check_rows(A, b, A_name, b_name, n):
    if (A is None) != (b is None):
        missing = b_name if b is None else A_name
        raise ValueError(f"{A_name} and {b_name} must be given together; {missing} is missing.")
    if A is None:
        return sp.csc_array((0, n)), np.zeros(0)
    A = _check_matrix(A, A_name, n)
    b = _check_vector(b, b_name, A.shape[0])
    return A, b


def _none_to_inf(v, sign):
    return sign * np.inf if v is None else v


def _is_array_pair(bounds):
    return (
        isinstance(bounds, tuple)
        and len(bounds) == 2
        and all(isinstance(b, np.ndarray) and b.ndim == 1 for b in bounds)
    )


def _check_bounds(bounds, n):
    """Bounds as ``linprog`` takes them -> (lower, upper) arrays with +-inf."""
    if bounds is None:
        return np.zeros(n), np.full(n, np.inf)
    if _is_array_pair(bounds):
        # (lb_array, ub_array) of 1-d ndarrays: read as such even when n == 2, where the
        # generic shape test below could not tell it from two (lb, ub) pairs.
        bounds = Bounds(bounds[0], bounds[1])
    if isinstance(bounds, Bounds):
        try:
            lb = np.broadcast_to(np.asarray(bounds.lb, dtype=np.float64), (n,)).copy()
            ub = np.broadcast_to(np.asarray(bounds.ub, dtype=np.float64), (n,)).copy()
        except ValueError as exc:
            raise ValueError(f"bounds: lower/upper arrays must have {n} entries: {exc}") from exc
    else:
        try:
            arr = np.asarray(bounds, dtype=object)
        except (TypeError, ValueError) as exc:  # ragged
            raise ValueError(f"bounds could not be interpreted: {exc}") from exc
        if arr.shape == (2,):  # one (lb, ub) pair for all variables
            pairs = np.array([[_none_to_inf(arr[0], -1), _none_to_inf(arr[1], 1)]] * n)
        elif arr.shape == (n, 2):  # linprog's sequence of pairs (wins over (2, n) for n == 2)
            pairs = [[_none_to_inf(lo, -1), _none_to_inf(hi, 1)] for lo, hi in arr]
        elif arr.shape == (2, n):  # (lower_array, upper_array)
            pairs = [
                [_none_to_inf(lo, -1), _none_to_inf(hi, 1)]
                for lo, hi in zip(arr[0], arr[1], strict=True)
            ]
        else:
            raise ValueError(
                f"bounds must be None, one (lb, ub) pair, a sequence of {n} pairs, a "
                f"(lb_array, ub_array) pair or scipy.optimize.Bounds; got shape {arr.shape}."
            )
        try:
            pairs = np.asarray(pairs, dtype=np.float64).reshape(n, 2)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"bounds must hold real numbers or None: {exc}") from exc
        lb, ub = pairs[:, 0].copy(), pairs[:, 1].copy()
    if np.isnan(lb).any() or np.isnan(ub).any():
        raise ValueError("bounds contain NaN.")
    if (lb == np.inf).any() or (ub == -np.inf).any():
        raise ValueError("bounds: a lower bound of +inf or an upper bound of -inf is invalid.")
    if (lb > ub).any():
        j = int(np.flatnonzero(lb > ub)[0])
        raise ValueError(f"bounds: lower bound exceeds upper bound for variable {j}.")
    return lb, ub


def _check_method(method):
    if method not in _METHODS:
        raise ValueError(f"method must be one of {_METHODS}, got {method!r}.")
    return method


def _check_options(time_limit, tol, max_iter, on_limit):
    if time_limit is not None:
        time_limit = check_real(time_limit, "time_limit", low=0.0, low_closed=False)
    if tol is not None:
        tol = check_real(tol, "tol", low=0.0, high=1.0, low_closed=False, high_closed=False)
    if max_iter is not None:
        if isinstance(max_iter, bool) or not isinstance(max_iter, numbers.Integral):
            raise TypeError(f"max_iter must be an int or None, got {type(max_iter).__name__}.")
        if max_iter < 0:
            raise ValueError(f"max_iter must be >= 0, got {max_iter}.")
    if on_limit not in ("raise", "warn"):
        raise ValueError(f"on_limit must be 'raise' or 'warn', got {on_limit!r}.")
    return time_limit


def _check_hessian(Q, n):
    Q = _check_matrix(Q, "Q", n)
    if Q.shape != (n, n):
        raise ValueError(f"Q must be square of shape ({n}, {n}) (len(c)), got {Q.shape}.")
    asym = abs(Q - Q.T)
    scale = max(abs(Q).max(), 1.0) if Q.nnz else 1.0
    if asym.nnz and asym.max() > 1e-10 * scale:
        raise ValueError("Q must be symmetric (the objective is 0.5 x^T Q x + c^T x).")
    return Q


# --------------------------------------------------------------------------- conversions


def _csc_parts(A):
    A = sp.csc_array(A)
    A.sum_duplicates()
    return (
        A.indptr.astype(np.int32),
        A.indices.astype(np.int32),
        A.data.astype(np.float64, copy=False),
    )


def _to_highs_inf(v):
    # highspy's infinity is float('inf'), but clip anyway so 1e300-style values stay infinite.
    return np.clip(v, -np.inf, np.inf).astype(np.float64)
