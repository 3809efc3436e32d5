"""Power-of-two rescaling of a data matrix whose scale would overflow the solvers' products."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..typing import MatrixLike

__all__ = ["power_of_two_scaling"]


def power_of_two_scaling(X: MatrixLike, *, high: float = 2.0**32) -> tuple[Any, int]:
    """``(X_scaled, k)`` with ``X = X_scaled * 2**k`` and ``max |X_scaled|`` in ``[1, 2)``.

    A squared-hinge or least-squares solver forms ``||X p||^2``, which overflows once
    the entries of ``X`` pass about 1e77, and a constant bias column next to features
    of size ``s`` makes ``X^T X`` as ill-conditioned as ``s^2``. Dividing ``X`` by a power
    of two is exact in floating point: a linear model fitted on ``X_scaled`` gives
    ``w = w_scaled * 2**-k`` and ``lambda_scaled = lambda * 2**(-2k)`` (the bias column
    is not scaled). Data whose entries are at most ``high`` in absolute value are
    returned as they are (the same object, ``k = 0``), so ordinary data see no change.

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n_samples, n_features)
        Data (float); CSR is scaled on a copy of its values.
    high : float, default=2.0**32
        Largest entry magnitude left unscaled.

    Returns
    -------
    X_scaled : {ndarray, sparse matrix}
        ``X`` itself when ``k == 0``, else a scaled copy.
    k : int
        The exponent.
    """
    values = X.data if sp.issparse(X) else X
    top = float(np.max(np.abs(values), initial=0.0)) if values.size else 0.0
    if not math.isfinite(top) or top <= high:
        return X, 0
    k = math.frexp(top)[1] - 1  # top = m 2^e with m in [0.5, 1): 2^(e-1) <= top < 2^e
    factor = np.ldexp(1.0, -k)
    if sp.issparse(X):
        scaled = X.copy()
        scaled.data *= scaled.data.dtype.type(factor)
        return scaled, k
    return X * X.dtype.type(factor), k
