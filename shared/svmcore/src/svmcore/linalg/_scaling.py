"""Power-of-two rescaling of a data matrix whose scale would overflow the solvers' products."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..typing import MatrixLike

__all__ = ["column_power_of_two_scaling", "power_of_two_scaling"]


def power_of_two_scaling(
    X: MatrixLike, *, high: float = 2.0**32, low: float = 0.0
) -> tuple[Any, int]:
    """``(X_scaled, k)`` with ``X = X_scaled * 2**k`` and ``max |X_scaled|`` in ``[1, 2)``.

    A squared-hinge or least-squares solver forms ``||X p||^2``, which overflows once
    the entries of ``X`` pass about 1e77, and a constant bias column next to features
    of size ``s`` makes ``X^T X`` as ill-conditioned as ``s^2``. Dividing ``X`` by a power
    of two is exact in floating point: a linear model fitted on ``X_scaled`` gives
    ``w = w_scaled * 2**-k`` and ``lambda_scaled = lambda * 2**(-2k)`` (the bias column
    is not scaled). Data whose largest entry magnitude lies in ``[low, high]`` are
    returned as they are (the same object, ``k = 0``), so ordinary data see no change.

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n_samples, n_features)
        Data (float); CSR is scaled on a copy of its values.
    high : float, default=2.0**32
        Largest entry magnitude left unscaled.
    low : float, default=0.0
        Smallest largest-entry magnitude left unscaled (tiny data are scaled up when
        positive); all-zero data are never scaled.

    Returns
    -------
    X_scaled : {ndarray, sparse matrix}
        ``X`` itself when ``k == 0``, else a scaled copy.
    k : int
        The exponent.
    """
    values = X.data if sp.issparse(X) else X
    # max |x| from the extremes: no |X| temporary (exact)
    top = max(abs(float(values.max())), abs(float(values.min()))) if values.size else 0.0
    if not math.isfinite(top) or top == 0.0 or low <= top <= high:
        return X, 0
    k = math.frexp(top)[1] - 1  # top = m 2^e with m in [0.5, 1): 2^(e-1) <= top < 2^e
    factor = np.ldexp(1.0, -k)
    if sp.issparse(X):
        scaled = X.copy()
        scaled.data *= scaled.data.dtype.type(factor)
        return scaled, k
    return X * X.dtype.type(factor), k


def column_power_of_two_scaling(
    X: MatrixLike, *, low: float = 2.0**-32, high: float = 2.0**32
) -> tuple[Any, np.ndarray]:
    """``(X_scaled, k)`` with column ``j`` of ``X`` equal to ``X_scaled[:, j] * 2**k[j]``.

    For unregularized linear models (least absolute deviations): their optimum does not
    depend on the scale of a feature, ``beta_j = beta_scaled_j * 2**-k[j]`` gives the
    same residuals, and dividing by a power of two is exact. Columns whose largest
    magnitude lies outside ``[low, high]`` are brought into ``[1, 2)`` (``k[j]`` their
    binary exponent), so no LP or interior-point solver sees entries that its data
    checks reject (HiGHS refuses matrix values beyond 1e15) or that its tolerances
    cannot tell from zero. Data with every column in range are returned as they are
    (the same object, ``k`` all zeros).

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n_samples, n_features)
        Finite data (float); CSR is scaled on a copy.
    low, high : float, default=2**-32, 2**32
        Column magnitudes left unscaled.

    Returns
    -------
    X_scaled : {ndarray, sparse matrix}
        ``X`` itself when no column is out of range, else a scaled copy.
    k : ndarray of shape (n_features,), dtype int
        The exponent of every column (0 for those left alone and all-zero columns).

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.linalg import column_power_of_two_scaling
    >>> X = np.array([[1.0, 3e100], [2.0, -1e100]])
    >>> Xs, k = column_power_of_two_scaling(X)
    >>> k.tolist(), bool(np.all(np.ldexp(Xs, k) == X))
    ([0, 333], True)
    """
    if sp.issparse(X):
        top = np.asarray(abs(X).max(axis=0).todense(), dtype=np.float64).ravel()
    else:
        top = np.max(np.abs(np.asarray(X, dtype=np.float64)), axis=0, initial=0.0)
    k = np.zeros(X.shape[1], dtype=np.int64)
    out = (top > 0) & ((top > high) | (top < low))
    if not out.any():
        return X, k
    k[out] = np.frexp(top[out])[1] - 1
    factor = np.ldexp(1.0, -k).astype(X.dtype)
    if sp.issparse(X):
        scaled = sp.csr_matrix(X, copy=True)
        scaled.data *= factor[scaled.indices]
        return scaled, k
    return X * factor, k
