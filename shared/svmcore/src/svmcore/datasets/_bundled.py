"""Real data that ships inside scikit-learn (never downloaded)."""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn import datasets as _skd

__all__ = ["BUNDLED_DATASETS", "load_bundled"]

#: Names accepted by :func:`load_bundled` and the scikit-learn loader behind each.
BUNDLED_DATASETS = {
    "breast_cancer": _skd.load_breast_cancer,
    "diabetes": _skd.load_diabetes,
    "digits": _skd.load_digits,
    "iris": _skd.load_iris,
    "wine": _skd.load_wine,
}


def load_bundled(name: str, *, dtype: Any = np.float64) -> tuple[np.ndarray, np.ndarray]:
    """Load one of scikit-learn's bundled data sets as ``(X, y)``.

    Parameters
    ----------
    name : {"breast_cancer", "diabetes", "digits", "iris", "wine"}
        Data set.
    dtype : {np.float64, np.float32}, default=np.float64
        Dtype of ``X``.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        Features.
    y : ndarray of shape (n_samples,)
        Class labels as scikit-learn gives them (ints), or float targets for
        "diabetes".

    Examples
    --------
    >>> X, y = load_bundled("iris")
    >>> X.shape, sorted(set(y.tolist()))
    ((150, 4), [0, 1, 2])
    """
    if name not in BUNDLED_DATASETS:
        raise ValueError(f"name must be one of {sorted(BUNDLED_DATASETS)}, got {name!r}.")
    dtype = np.dtype(dtype)
    if dtype not in (np.float32, np.float64):
        raise ValueError(f"dtype must be float32 or float64, got {dtype}.")
    X, y = BUNDLED_DATASETS[name](return_X_y=True)
    return np.ascontiguousarray(X, dtype=dtype), np.asarray(y)
