"""The certified lower bound of a weighted SVM from approximate duals (weak duality).

Every aggregated SVM solve of AIDSVC reports this bound, which is also a lower bound on
the original problem's optimum (Prop 4), so the AID gap it gives is certified.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from svmcore.typing import ArrayLike

__all__ = ["aggregated_dual_bound"]


def aggregated_dual_bound(
    alpha: ArrayLike, y: ArrayLike, quad: Callable[[np.ndarray], float]
) -> float:
    """A certified lower bound on a weighted SVM optimum from approximate duals.

    ``alpha`` is made exactly feasible for ``sum_k alpha_k y_k = 0`` by scaling down the
    heavier class (the box ``0 <= alpha_k <= C W_k`` is kept), then the dual objective
    ``sum alpha - 0.5 ||sum alpha_k y_k phi_k||^2`` is a lower bound by weak duality.

    Parameters
    ----------
    alpha : ndarray of shape (K,)
        Non-negative duals within their boxes.
    y : ndarray of shape (K,)
        Labels in {-1, +1}.
    quad : callable
        ``quad(v)`` returns ``||sum_k v_k phi_k||^2`` for ``v = alpha * y``.

    Returns
    -------
    bound : float
        The dual objective of the feasible duals, <= the optimum.
    """
    alpha = np.clip(np.asarray(alpha, dtype=np.float64), 0.0, None)
    y = np.asarray(y)
    pos, neg = alpha[y > 0].sum(), alpha[y < 0].sum()
    alpha = alpha.copy()
    if pos > neg:
        alpha[y > 0] *= neg / pos
    elif neg > pos:
        alpha[y < 0] *= pos / neg
    return float(alpha.sum() - 0.5 * quad(alpha * y))
