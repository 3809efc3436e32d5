"""The ratio test of interior-point methods: the longest step that stays nonnegative."""

from __future__ import annotations

import numpy as np

from ..numba_config import jit

__all__ = ["boundary_step"]


@jit
def _boundary_step(v, dv):
    step = 1.0
    for i in range(v.shape[0]):
        if dv[i] < 0.0:
            ratio = -v[i] / dv[i]
            if ratio < step:
                step = ratio
    return step


def boundary_step(v: np.ndarray, dv: np.ndarray) -> float:
    """Return the largest ``alpha`` in ``(0, 1]`` with ``v + alpha dv >= 0`` (``v >= 0``).

    ``min(1, min_{i: dv_i < 0} -v_i / dv_i)`` in one pass over the two vectors, where the
    NumPy form (``np.min(-v[neg] / dv[neg])``) makes a mask and three temporaries of the
    vectors' size: interior points take this step twice or four times an iteration
    (the LAD interior point's 720 calls over K = 88,649 entries took 0.30 s of a 2.8 s
    AID fit that way). The same quotients, so the same value to the bit.

    Parameters
    ----------
    v : ndarray of shape (n,)
        Nonnegative iterate (float64).
    dv : ndarray of shape (n,)
        Direction (float64).

    Returns
    -------
    float
        The step; 1.0 when no entry of ``dv`` is negative. Entries with a NaN quotient
        are passed over.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.linalg import boundary_step
    >>> boundary_step(np.array([1.0, 2.0, 3.0]), np.array([-4.0, 1.0, -2.0]))
    0.25
    """
    return float(_boundary_step(v, dv))
