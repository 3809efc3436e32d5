"""Validation of Dask inputs in one pass, and predictions that stay lazy."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..typing import DaskArray
from ._detect import is_dask_collection, require_dask

__all__ = ["DaskData", "check_dask_data", "map_predict"]


@dataclass
class DaskData:
    """What :func:`check_dask_data` returns.

    Parameters
    ----------
    X : dask.array.Array of shape (n_samples, n_features)
        Float rows with known chunk sizes and one column chunk.
    y : dask.array.Array of shape (n_samples,) or None
        Targets chunked as ``X``'s rows.
    sample_weight : dask.array.Array of shape (n_samples,) or None
        Weights chunked as ``X``'s rows (None: unit weights).
    classes : ndarray or None
        Sorted distinct values of ``y`` when asked for.
    any_zero_weight : bool
        Whether some weight is exactly 0.
    """

    X: DaskArray
    y: DaskArray | None
    sample_weight: DaskArray | None
    classes: np.ndarray | None
    any_zero_weight: bool

    @property
    def sparse(self) -> bool:
        """Whether the chunks of ``X`` are sparse matrices."""
        return sp.issparse(self.X._meta)


def _as_vector(v: Any, name: str, X: DaskArray, da: Any) -> Any:
    if v is None:
        return None
    if not is_dask_collection(v):
        v = np.asarray(v)
        if v.ndim != 1 or v.shape[0] != X.shape[0]:
            raise ValueError(f"{name} must be 1-D with {X.shape[0]} entries; got shape {v.shape}.")
        return da.from_array(v, chunks=(X.chunks[0],))
    if not hasattr(v, "chunks"):
        raise TypeError(f"{name} must be a dask.array.Array; got {type(v).__name__}.")
    if v.ndim == 2 and v.shape[1] == 1:
        v = v[:, 0]
    if v.ndim != 1:
        raise ValueError(f"{name} must be 1-D; got {v.ndim} dimensions.")
    if np.isnan(v.shape[0]):
        v = v.compute_chunk_sizes()
    if v.shape[0] != X.shape[0]:
        raise ValueError(f"{name} has {v.shape[0]} entries; X has {X.shape[0]} rows.")
    return v.rechunk((X.chunks[0],))


def check_dask_data(
    X: DaskArray,
    y: DaskArray | None = None,
    sample_weight: DaskArray | None = None,
    *,
    estimator: str,
    accept_sparse: bool = False,
    classes: bool = False,
) -> DaskData:
    """Validate a Dask ``X`` (and ``y``, ``sample_weight``) with one pass over the chunks.

    The pass checks that every value is finite and every weight non-negative, and finds
    the classes of ``y`` when asked; nothing else is computed.

    Parameters
    ----------
    X : dask.array.Array of shape (n_samples, n_features)
        Float or integer data, chunked by rows (columns are merged into one chunk).
    y, sample_weight : dask.array.Array, array-like or None
        One entry per row; NumPy input is chunked as ``X``'s rows.
    estimator : str
        Name used in error messages.
    accept_sparse : bool, default=False
        Whether chunks may be scipy sparse matrices (turned into CSR).
    classes : bool, default=False
        Whether to return the distinct values of ``y``.

    Returns
    -------
    DaskData
        The arrays, ready for :class:`RowBlocks`, and what the pass found.
    """
    da = require_dask(estimator)
    import dask

    if not isinstance(X, da.Array):
        raise TypeError(
            f"{estimator} accepts Dask input as a dask.array.Array; got {type(X).__name__} "
            "(a Dask DataFrame converts with .to_dask_array(lengths=True))."
        )
    if X.ndim != 2:
        raise ValueError(f"{estimator}: X must be 2-D; got {X.ndim} dimensions.")
    if any(np.isnan(c) for c in X.shape):
        X = X.compute_chunk_sizes()
    sparse = sp.issparse(X._meta)
    if sparse and not accept_sparse:
        raise TypeError(f"{estimator}: sparse Dask chunks are not supported; use dense chunks.")
    if X.dtype not in (np.float32, np.float64):
        if not (np.issubdtype(X.dtype, np.number) or X.dtype == bool):
            raise TypeError(f"{estimator}: X must be numeric; got dtype {X.dtype}.")
        X = X.astype(np.float64)
    if sparse:
        X = X.map_blocks(sp.csr_matrix, dtype=X.dtype)
    X = X.rechunk({1: -1})
    y = _as_vector(y, "y", X, da)
    w = _as_vector(sample_weight, "sample_weight", X, da)
    checks = {"X": _finite(X)}
    if y is not None and np.issubdtype(y.dtype, np.number):
        checks["y"] = da.isfinite(y).all()
    if w is not None:
        w = w.astype(np.float64)
        checks["sample_weight"] = da.isfinite(w).all()
        checks["min_weight"] = w.min()
        checks["zero"] = (w == 0).any()
    if classes:
        checks["classes"] = da.unique(y)
    found = dict(zip(checks, dask.compute(*checks.values()), strict=True))
    for name in ("X", "y", "sample_weight"):
        if name in found and not found[name]:
            raise ValueError(f"{estimator}: {name} contains NaN or infinity.")
    if w is not None and found["min_weight"] < 0:
        raise ValueError(f"{estimator}: sample_weight must be non-negative.")
    return DaskData(
        X=X,
        y=y,
        sample_weight=w,
        classes=np.asarray(found["classes"]) if classes else None,
        any_zero_weight=bool(found.get("zero", False)),
    )


def _finite(X):
    if sp.issparse(X._meta):
        ones = ((1,) * X.numblocks[0], (1,))
        meta = np.empty((0, 0), dtype=bool)
        return X.map_blocks(_chunk_finite, chunks=ones, dtype=bool, meta=meta).all()
    import dask.array as da

    return da.isfinite(X).all()


def _chunk_finite(block):
    return np.array([[np.isfinite(block.data).all()]])


def map_predict(
    fn: Callable[[Any], Any],
    X: DaskArray,
    *,
    dtype: Any = np.float64,
    n_outputs: int | None = None,
) -> DaskArray:
    """Apply a fitted model's row-wise ``fn`` to every row chunk of a Dask array, lazily.

    Parameters
    ----------
    fn : callable
        ``fn(X_chunk)`` -> ndarray of shape (rows,) or (rows, n_outputs).
    X : dask.array.Array of shape (n_samples, n_features)
        Row-chunked samples (columns are merged into one chunk).
    dtype : dtype, default=float64
        The output's dtype.
    n_outputs : int or None, default=None
        Columns of the output; None for a 1-D output.

    Returns
    -------
    dask.array.Array
        ``fn`` on every chunk, not computed.
    """
    X = X.rechunk({1: -1})
    meta = np.empty((0,) if n_outputs is None else (0, n_outputs), dtype=dtype)
    if n_outputs is None:
        return X.map_blocks(fn, drop_axis=1, dtype=dtype, meta=meta)
    return X.map_blocks(fn, chunks=(X.chunks[0], (n_outputs,)), dtype=dtype, meta=meta)
