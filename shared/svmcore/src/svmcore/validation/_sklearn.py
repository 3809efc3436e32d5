"""The one boundary to scikit-learn's validation utilities.

Packages import these names from :mod:`svmcore.validation`, never from
scikit-learn's private modules, so a scikit-learn API change is absorbed here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils._param_validation import Hidden, Interval, Options, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted
from sklearn.utils.validation import validate_data as _validate_data

from ..typing import ArrayLike, MatrixLike
from ._magnitude import warn_feature_scales

__all__ = [
    "Hidden",
    "Interval",
    "Options",
    "StrOptions",
    "check_classification_targets",
    "check_is_fitted",
    "check_sample_weight",
    "fit_context",
    "validate_data",
]

_Fit = TypeVar("_Fit", bound=Callable[..., Any])


def fit_context(*, prefer_skip_nested_validation: bool) -> Callable[[_Fit], _Fit]:
    """Decorate an estimator's ``fit``: scikit-learn's parameter validation, and atomicity.

    scikit-learn's ``_fit_context`` validates the constructor parameters; on top of it,
    the estimator's attributes are restored to what they were before ``fit`` when the
    fit does not complete (an exception, or Ctrl-C: ``KeyboardInterrupt``), so a fitted
    estimator is never left half refitted.

    Parameters
    ----------
    prefer_skip_nested_validation : bool
        Passed to scikit-learn: skip the parameter validation of the estimators and
        functions ``fit`` calls.

    Returns
    -------
    decorator : callable
        The decorator for ``fit``.
    """
    validated = _fit_context(prefer_skip_nested_validation=prefer_skip_nested_validation)

    def decorator(fit: _Fit) -> _Fit:
        inner = validated(fit)

        @functools.wraps(fit)
        def atomic_fit(estimator, *args, **kwargs):
            before = dict(vars(estimator))
            try:
                return inner(estimator, *args, **kwargs)
            except BaseException:
                vars(estimator).clear()
                vars(estimator).update(before)
                raise

        return cast(_Fit, atomic_fit)

    return decorator


def validate_data(
    _estimator: Any,
    /,
    X: Any = "no_validation",
    y: Any = "no_validation",
    reset: bool = True,
    *,
    check_scales: bool = True,
    **check_params: Any,
) -> Any:
    """scikit-learn's ``validate_data``, plus the feature-scale guard at ``fit``.

    Everything is passed to :func:`sklearn.utils.validation.validate_data`; with
    ``reset=True`` (the call in ``fit``) and ``check_scales``, the validated ``X`` then
    goes through :func:`warn_feature_scales` (a :class:`FeatureScaleWarning` when its
    columns' scales differ by more than 1e12), once for every estimator of the monorepo.

    Parameters
    ----------
    _estimator : estimator
        The estimator (its ``n_features_in_`` and ``feature_names_in_``).
    X, y, reset, **check_params
        As scikit-learn's.
    check_scales : bool, default=True
        False for an estimator whose objective does not depend on the features' scales
        (an unregularized one, e.g. least absolute deviations).

    Returns
    -------
    object
        What scikit-learn's returns: ``X``, ``y`` or ``(X, y)``, validated.
    """
    out = _validate_data(_estimator, X, y, reset, **check_params)
    no_X = isinstance(X, str) and X == "no_validation"
    if reset and check_scales and not no_X and not check_params.get("skip_check_array"):
        no_y = y is None or (isinstance(y, str) and y == "no_validation")
        X_valid = out if no_y else out[0]
        if hasattr(X_valid, "shape") and len(X_valid.shape) == 2:
            warn_feature_scales(X_valid, type(_estimator).__name__)
    return out


def check_sample_weight(
    sample_weight: ArrayLike | float | None,
    X: MatrixLike,
    *,
    dtype: Any = None,
    allow_zero: bool = True,
) -> np.ndarray:
    """Validate ``sample_weight`` against ``X``: finite, non-negative, one per row.

    Parameters
    ----------
    sample_weight : array-like of shape (n_samples,), float or None
        ``None`` gives unit weights; a scalar is broadcast.
    X : array-like or sparse matrix of shape (n_samples, n_features)
        The data the weights belong to.
    dtype : dtype, default=None
        Output dtype; defaults to ``X.dtype`` when floating, else float64.
    allow_zero : bool, default=True
        Whether individual zero weights are accepted (solvers drop those samples).
        All-zero weights are always rejected.

    Returns
    -------
    sample_weight : ndarray of shape (n_samples,)
        The validated weights in ``dtype``.
    """
    if dtype is None:
        x_dtype = getattr(X, "dtype", None)
        dtype = x_dtype if x_dtype in (np.float32, np.float64) else np.float64
    sw = _check_sample_weight(sample_weight, X, dtype=dtype, ensure_non_negative=True)
    # Checked here, not left to scikit-learn: its own all-zero check arrived after 1.7.
    if not (sw > 0).any():
        raise ValueError(
            "sample_weight must contain at least one non-zero (positive) entry; got all zeros."
        )
    if not allow_zero and (sw == 0).any():
        raise ValueError("sample_weight must be strictly positive here; got zero entries.")
    return sw
