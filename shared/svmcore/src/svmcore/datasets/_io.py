"""svmlight / libsvm files through scikit-learn's reader and writer, with clear errors."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file, load_svmlight_file

from ..typing import ArrayLike, MatrixLike

__all__ = ["dump_svmlight", "load_svmlight"]


def load_svmlight(
    path: str | os.PathLike[str],
    *,
    n_features: int | None = None,
    dtype: Any = np.float64,
    zero_based: bool | str = "auto",
) -> tuple[Any, np.ndarray]:
    """Read a svmlight/libsvm file.

    Parameters
    ----------
    path : str or path-like
        File to read (``.gz`` and ``.bz2`` are decompressed by scikit-learn).
    n_features : int, default=None
        Number of columns (inferred from the file if None).
    dtype : {np.float64, np.float32}, default=np.float64
        Dtype of ``X``.
    zero_based : bool or "auto", default="auto"
        Whether feature ids start at 0 (scikit-learn's detection if "auto").

    Returns
    -------
    X : csr_matrix of shape (n_samples, n_features)
        Features.
    y : ndarray of shape (n_samples,)
        Labels or targets, as stored in the file (float).

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        If the file is not valid svmlight (the message names the file).

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "toy.svm")
    >>> dump_svmlight(np.eye(2), np.array([-1, 1]), path)
    >>> X, y = load_svmlight(path)
    >>> X.toarray().tolist(), y.tolist()
    ([[1.0, 0.0], [0.0, 1.0]], [-1.0, 1.0])
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"path: no svmlight file at {path!r}.")
    dtype = np.dtype(dtype)
    if dtype not in (np.float32, np.float64):
        raise ValueError(f"dtype must be float32 or float64, got {dtype}.")
    try:
        X, y = load_svmlight_file(path, n_features=n_features, dtype=dtype, zero_based=zero_based)
    except ValueError as exc:
        raise ValueError(f"could not read svmlight file {path!r}: {exc}") from exc
    return sp.csr_matrix(X), np.asarray(y, dtype=np.float64)


def dump_svmlight(
    X: MatrixLike,
    y: ArrayLike,
    path: str | os.PathLike[str],
    *,
    zero_based: bool = True,
    comment: str | None = None,
) -> None:
    """Write ``(X, y)`` as a svmlight/libsvm file.

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n_samples, n_features)
        Data (zeros are not written).
    y : array-like of shape (n_samples,)
        Targets or labels.
    path : str or path-like
        Output file (overwritten).
    zero_based : bool, default=True
        Write feature ids from 0 (False: from 1, as libsvm's own tools do).
    comment : str, default=None
        Header comment.
    """
    X = X if sp.issparse(X) else np.asarray(X)
    y = np.asarray(y)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-dimensional, got shape {X.shape}.")
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"y must be 1-d with one entry per row of X, got shape {y.shape}.")
    dump_svmlight_file(X, y, os.fspath(path), zero_based=zero_based, comment=comment)
