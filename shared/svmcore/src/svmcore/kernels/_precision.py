"""The precision a kernel computation needs: float32 input is kept only where it carries it."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..typing import MatrixLike

__all__ = ["working_dtype"]

#: Largest ``max|x|^2 * n_features`` kept in float32 (its maximum is about 2^128): a
#: row's squared norm, a dot product and a squared distance then stay finite.
_F32_TOP = 2.0**120
#: Smallest nonzero ``max|x|^2`` kept in float32 (normal numbers start at 2^-126): below
#: it every squared distance underflows to zero and the RBF kernel is 1 everywhere.
_F32_BOTTOM = 2.0**-100


def working_dtype(
    X: MatrixLike,
    kernel: str = "linear",
    gamma: float = 1.0,
    degree: int = 3,
    coef0: float = 0.0,
) -> np.dtype:
    """The dtype in which the kernels of ``X`` are computed correctly: X's or float64.

    svmcore's kernels keep float32 input in float32 (half the memory and bandwidth).
    Where float32 cannot carry the arithmetic, that would give a silently wrong kernel:
    entries beyond about 1e18 make squared norms overflow, entries all below about 1e-15
    make every squared distance zero, and a ``gamma`` (or ``coef0``) outside float32's
    normal range rounds to zero or infinity (``gamma="scale"`` on data of 1e36 is 1e-73).
    Such data are then worked on in float64, which carries them.

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n_samples, n_features)
        Validated (finite) data.
    kernel : {"linear", "rbf", "poly"}, default="linear"
    gamma, degree, coef0 : float, int, float, default=1.0, 3, 0.0
        The kernel's numeric parameters as they will be applied (``gamma`` matters for
        ``rbf`` and ``poly``, ``coef0`` for ``poly``; ``degree`` is accepted so that a
        kernel's keyword dict can be passed whole).

    Returns
    -------
    dtype : numpy.dtype
        ``X.dtype`` when it is not float32 or float32 carries the kernel, else float64.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.kernels import working_dtype
    >>> working_dtype(np.ones((2, 3), dtype=np.float32))
    dtype('float32')
    >>> working_dtype(np.full((2, 3), 1e30, dtype=np.float32))
    dtype('float64')
    >>> working_dtype(np.ones((2, 3), dtype=np.float32), kernel="rbf", gamma=1e-73)
    dtype('float64')
    """
    dtype = np.dtype(X.dtype)
    if dtype != np.float32:
        return dtype
    data = X.data if sp.issparse(X) else np.asarray(X)
    top = float(np.max(np.abs(data), initial=0.0)) if data.size else 0.0
    square = top * top * max(X.shape[1], 1)
    fits = top == 0.0 or (_F32_BOTTOM <= top * top and square <= _F32_TOP)
    info = np.finfo(np.float32)
    used = {"linear": (), "rbf": (gamma,), "poly": (gamma, coef0)}[kernel]
    for value in used:
        value = abs(float(value))
        fits = fits and (value == 0.0 or float(info.tiny) <= value <= float(info.max))
    return dtype if fits else np.dtype(np.float64)
