"""A clear error for data whose magnitude the float range cannot carry through a solver."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..typing import MatrixLike

__all__ = ["check_magnitude"]

#: Entries up to this magnitude are accepted: their squares summed over a million rows and
#: features stay finite in float64 (2^64 squared is 2^128, far below 2^1024), and so do the
#: solvers' normal equations and kernel values.
MAX_MAGNITUDE = 2.0**64


def check_magnitude(
    values: MatrixLike, name: str, estimator: str, *, limit: float = MAX_MAGNITUDE
) -> None:
    """Raise a ``ValueError`` naming the cause when ``|values|`` exceeds ``limit``.

    For estimators whose solvers square the data (kernel values, normal equations, LP
    right-hand sides) without rescaling it: past about 1e19 the squares overflow or the
    solvers' tolerances lose their meaning, and the failure would surface deep inside a
    solver with a message about infinities or singular matrices.

    Parameters
    ----------
    values : {ndarray, sparse matrix}
        Validated (finite) data: ``X``, or the targets ``y``.
    name : str
        Its name in the message (``"X"``, ``"y"``).
    estimator : str
        The estimator's name in the message.
    limit : float, default=2.0**64
        Largest magnitude accepted.

    Raises
    ------
    ValueError
        When an entry's magnitude exceeds ``limit``.
    """
    data = values.data if sp.issparse(values) else np.asarray(values)
    top = float(np.max(np.abs(data), initial=0.0)) if data.size else 0.0
    if top > limit:
        raise ValueError(
            f"{name} has entries of magnitude up to {top:.3g}, beyond the {limit:.3g} that "
            f"{estimator}'s solvers carry through the float range (they square the data). "
            f"Rescale {name}, e.g. with sklearn.preprocessing.StandardScaler (for y: divide "
            "it by a constant and multiply the predictions back)."
        )
