"""The comparison metrics of sec. 5.3 (RMSE, ETS, OTS, ECS, OCS) against a baseline SVM."""

from __future__ import annotations

import numpy as np

from svmcore.typing import ArrayLike

__all__ = ["comparison_metrics"]


def _grid(values, name, shape=None):
    a = np.asarray(values, dtype=np.float64)
    if a.ndim == 1:
        a = a[:, None]
    if a.ndim != 2 or a.size == 0:
        raise ValueError(
            f"{name} must be a non-empty array of shape (R,) or (R, S), got {a.shape}."
        )
    if shape is not None and a.shape != shape:
        raise ValueError(f"{name} must have shape {shape} like accuracy_ref, got {a.shape}.")
    if not np.isfinite(a).all():
        raise ValueError(f"{name} contains NaN or infinity.")
    return a


def comparison_metrics(
    accuracy_ref: ArrayLike,
    accuracy: ArrayLike,
    time_ref: ArrayLike,
    time: ArrayLike,
    n_sv_ref: ArrayLike,
    n_sv: ArrayLike,
    *,
    representative_time: float = 0.0,
) -> dict[str, float]:
    """Sec. 5.3's five metrics of a method F against the baseline (LIBSVM, i.e. ``SVC``).

    All arrays are indexed ``[r, s]``: hyper-parameter combination ``r`` of the grid,
    cross-validation fold ``s`` (1-d input means one fold).

    Parameters
    ----------
    accuracy_ref, accuracy : array-like of shape (R, S)
        Test accuracies (fractions) of the baseline and of F.
    time_ref, time : array-like of shape (R, S)
        Training times of the baseline and of F (F's without the representative set).
    n_sv_ref, n_sv : array-like of shape (R, S)
        Numbers of support vectors.
    representative_time : float, default=0.0
        :math:`T_{X^*}`, the total DeriveRS time over the grid (0 for other methods).

    Returns
    -------
    metrics : dict
        ``RMSE`` (in accuracy units; the paper's tables print it x 100), ``ETS``, ``OTS``,
        ``ECS``, ``OCS``.

    See Also
    --------
    AESVC : The method the paper compares with LIBSVM.

    Notes
    -----
    .. math::

        RMSE = \\Big(\\tfrac{1}{RS}\\sum_{r,s}(CL_s^r - CF_s^r)^2\\Big)^{1/2},\\quad
        ETS = \\tfrac{1}{RS}\\sum_{r,s}\\tfrac{TL_s^r}{TF_s^r},\\quad
        OTS = \\tfrac{\\sum TL_s^r}{\\sum TF_s^r + T_{X^*}},

    and ECS, OCS likewise with support-vector counts instead of times.

    Examples
    --------
    >>> from aesvm import comparison_metrics
    >>> m = comparison_metrics([0.9, 0.8], [0.9, 0.7], [4.0, 2.0], [1.0, 1.0], [100, 50],
    ...                        [50, 50], representative_time=1.0)
    >>> {k: round(v, 4) for k, v in m.items()}
    {'RMSE': 0.0707, 'ETS': 3.0, 'OTS': 2.0, 'ECS': 1.5, 'OCS': 1.5}
    """
    cl = _grid(accuracy_ref, "accuracy_ref")
    shape = cl.shape
    cf = _grid(accuracy, "accuracy", shape)
    tl = _grid(time_ref, "time_ref", shape)
    tf = _grid(time, "time", shape)
    nl = _grid(n_sv_ref, "n_sv_ref", shape)
    nf = _grid(n_sv, "n_sv", shape)
    if (tf <= 0).any() or (nf <= 0).any():
        raise ValueError("time and n_sv must be positive (they are divisors).")
    if not np.isfinite(representative_time) or representative_time < 0:
        raise ValueError(f"representative_time must be >= 0, got {representative_time}.")
    return {
        "RMSE": float(np.sqrt(np.mean((cl - cf) ** 2))),
        "ETS": float(np.mean(tl / tf)),
        "OTS": float(tl.sum() / (tf.sum() + representative_time)),
        "ECS": float(np.mean(nl / nf)),
        "OCS": float(nl.sum() / nf.sum()),
    }
