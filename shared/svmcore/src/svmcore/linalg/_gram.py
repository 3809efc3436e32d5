"""Weighted Gram matrices and row-scaled copies without temporaries the size of ``X``.

Interior-point methods on a tall design ``X`` (K x p, K >> p) factor the normal matrix
``X^T diag(w) X`` at every step. Written with SciPy, ``X.T @ sp.diags(w) @ X`` first
makes a scaled copy of ``X`` and then a sparse p x p product, and the dense
``(X * sqrt(w)[:, None]).T @ ...`` a scaled copy of all of ``X``: one more ``X`` at the
peak of every step. :func:`weighted_gram` accumulates the dense p x p result directly
(Numba over CSR rows; BLAS over row chunks of dense ``X``). :func:`scaled_rows` makes
``diag(s) X`` (with a column of ones appended, the intercept) in one allocation, where
``sp.diags(s) @ X`` followed by ``sp.hstack`` makes three.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..numba_config import jit
from ..typing import ArrayLike, MatrixLike

__all__ = ["scaled_rows", "weighted_gram"]

#: Rows per BLAS call for dense ``X``: the scaled chunk is 16 MB at p = 512.
_DENSE_CHUNK_ROWS = 4096


@jit
def _csr_weighted_gram(data, indices, indptr, weights, out):
    # The upper triangle, from every pair of a row's stored entries once (a pair of
    # duplicate entries of one column, in non-canonical CSR, counts twice, as in
    # (a + b)^2), then mirrored.
    for k in range(indptr.size - 1):
        wk = weights[k]
        if wk == 0.0:
            continue
        for a in range(indptr[k], indptr[k + 1]):
            i = indices[a]
            va = wk * data[a]
            out[i, i] += va * data[a]
            for b in range(a + 1, indptr[k + 1]):
                j = indices[b]
                v = va * data[b]
                if i < j:
                    out[i, j] += v
                elif j < i:
                    out[j, i] += v
                else:
                    out[i, i] += 2.0 * v
    for i in range(out.shape[0]):  # the lower triangle, in place
        for j in range(i):
            out[i, j] = out[j, i]


@jit
def _csr_scaled_rows(data, indices, indptr, scale, append, out_data, out_indices):
    shift = 0
    for k in range(indptr.size - 1):
        s = scale[k]
        for a in range(indptr[k], indptr[k + 1]):
            out_data[a + shift] = s * data[a]
            out_indices[a + shift] = indices[a]
        if append >= 0:
            shift += 1
            out_data[indptr[k + 1] + shift - 1] = 1.0
            out_indices[indptr[k + 1] + shift - 1] = append


def _check_rows(X, vector, name):
    v = np.asarray(vector, dtype=np.float64)
    if v.ndim != 1 or v.shape[0] != X.shape[0]:
        raise ValueError(f"{name} must have shape ({X.shape[0]},); got {v.shape}.")
    return v


def weighted_gram(X: MatrixLike, weights: ArrayLike) -> np.ndarray:
    """``X^T diag(weights) X`` as a dense array, without a scaled copy of ``X``.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        The design; sparse input is read as CSR (converted if in another format).
    weights : array-like of shape (n_samples,)
        Nonnegative row weights. NaN is let through (NaN entries in the result), as
        in NumPy's products: an interior point's factorization then fails and says so.

    Returns
    -------
    gram : ndarray of shape (n_features, n_features)
        The symmetric weighted Gram matrix, float64.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.linalg import weighted_gram
    >>> X = np.array([[1.0, 2.0], [3.0, 0.0]])
    >>> weighted_gram(X, [1.0, 2.0])
    array([[19.,  2.],
           [ 2.,  4.]])
    """
    w = _check_rows(X, weights, "weights")
    if np.any(w < 0):
        raise ValueError("weights must be nonnegative.")
    p = X.shape[1]
    if sp.issparse(X):
        X = sp.csr_matrix(X)
        out = np.zeros((p, p))
        _csr_weighted_gram(X.data, X.indices, X.indptr, w, out)
        return out
    X = np.asarray(X)
    root = np.sqrt(w)
    out = np.zeros((p, p))
    for start in range(0, X.shape[0], _DENSE_CHUNK_ROWS):
        stop = start + _DENSE_CHUNK_ROWS
        chunk = X[start:stop] * root[start:stop, None]
        out += chunk.T @ chunk  # one BLAS syrk: exactly symmetric
    return out


def scaled_rows(X: MatrixLike, scale: ArrayLike, *, append_ones: bool = False) -> MatrixLike:
    """``diag(scale) X``, with a last column of ones if asked, in one new array.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        The rows; sparse input is read as CSR.
    scale : array-like of shape (n_samples,)
        The factor of each row.
    append_ones : bool, default=False
        Whether to append a column of ones (an intercept), not scaled.

    Returns
    -------
    scaled : ndarray or scipy.sparse.csr_matrix of shape (n_samples, n_features + append_ones)
        The rows in float64; CSR when ``X`` is sparse (the ones after each row's entries).

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.linalg import scaled_rows
    >>> scaled_rows(np.array([[1.0, 2.0], [3.0, 4.0]]), [0.5, 2.0], append_ones=True)
    array([[0.5, 1. , 1. ],
           [6. , 8. , 1. ]])
    """
    s = _check_rows(X, scale, "scale")
    n, p = X.shape
    if not sp.issparse(X):
        out = np.empty((n, p + append_ones))
        np.multiply(X, s[:, None], out=out[:, :p])
        if append_ones:
            out[:, p] = 1.0
        return out
    X = sp.csr_matrix(X)
    nnz = X.indptr[-1] + (n if append_ones else 0)
    index_dtype = np.int64 if nnz > np.iinfo(np.int32).max else np.int32
    data = np.empty(nnz)
    indices = np.empty(nnz, dtype=index_dtype)
    indptr = X.indptr.astype(index_dtype)
    if append_ones:
        indptr += np.arange(n + 1, dtype=index_dtype)
    _csr_scaled_rows(X.data, X.indices, X.indptr, s, p if append_ones else -1, data, indices)
    return sp.csr_matrix((data, indices, indptr), shape=(n, p + append_ones), copy=False)
