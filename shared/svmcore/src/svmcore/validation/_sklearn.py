"""The one boundary to scikit-learn's validation utilities.

Packages import these names from :mod:`svmcore.validation`, never from
scikit-learn's private modules, so a scikit-learn API change is absorbed here.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils._param_validation import Hidden, Interval, Options, StrOptions
from sklearn.utils.multiclass import (
    check_classification_targets as _check_classification_targets,
)
from sklearn.utils.validation import _check_sample_weight, check_is_fitted
from sklearn.utils.validation import validate_data as _validate_data

from ..typing import ArrayLike, MatrixLike
from ._magnitude import warn_feature_scales

__all__ = [
    "CachedParamNames",
    "Hidden",
    "Interval",
    "Options",
    "StrOptions",
    "check_classification_targets",
    "class_labels",
    "check_is_fitted",
    "check_sample_weight",
    "fit_context",
    "validate_data",
]

_Fit = TypeVar("_Fit", bound=Callable[..., Any])

#: class -> its constructor's parameter names (weak keys: classes made in tests go away)
_PARAM_NAMES: weakref.WeakKeyDictionary[type, tuple[str, ...]] = weakref.WeakKeyDictionary()


class CachedParamNames:
    """Mixin: the constructor's parameter names read once per class, not at every call.

    scikit-learn's ``BaseEstimator._get_param_names`` inspects ``__init__``'s signature
    at every ``get_params``, which the parameter validation of every ``fit`` calls (about
    0.05 ms: a fortieth of libsvm's fit of 400 samples). A class's signature does not
    change, so it is read on first use and kept. Put it before ``BaseEstimator`` among
    the bases.

    Examples
    --------
    >>> from sklearn.base import BaseEstimator
    >>> from svmcore.validation import CachedParamNames
    >>> class Model(CachedParamNames, BaseEstimator):
    ...     def __init__(self, *, alpha=1.0, beta=2):
    ...         self.alpha, self.beta = alpha, beta
    >>> Model(alpha=3.0).get_params()
    {'alpha': 3.0, 'beta': 2}
    """

    @classmethod
    def _get_param_names(cls) -> list[str]:
        names = _PARAM_NAMES.get(cls)
        if names is None:
            names = _PARAM_NAMES[cls] = tuple(super()._get_param_names())  # type: ignore[misc]
        return list(names)


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
    out = _plain_arrays(_estimator, X, y, reset, check_params)
    if out is None:
        out = _validate_data(_estimator, X, y, reset, **check_params)
    no_X = isinstance(X, str) and X == "no_validation"
    if reset and check_scales and not no_X and not check_params.get("skip_check_array"):
        no_y = y is None or (isinstance(y, str) and y == "no_validation")
        X_valid = out if no_y else out[0]
        if hasattr(X_valid, "shape") and len(X_valid.shape) == 2:
            warn_feature_scales(X_valid, type(_estimator).__name__)
    return out


#: check_params the shortcut of validate_data understands (anything else: scikit-learn's)
_PLAIN_PARAMS = frozenset({"accept_sparse", "accept_large_sparse", "dtype", "order"})
_FLOATS = (np.dtype(np.float64), np.dtype(np.float32))


def _finite_sum(a: np.ndarray) -> bool:
    """Whether ``a``'s sum is finite (then every entry is: scikit-learn's first pass)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.isfinite(a.sum()))


def _plain_arrays(estimator: Any, X: Any, y: Any, reset: bool, params: dict) -> Any:
    """What scikit-learn's ``validate_data`` returns for plain NumPy input, or None.

    The common case of a fit costs far less than scikit-learn's generic route (its
    dataframe probes, ``check_X_y``'s conversions): a C-contiguous float32/float64
    ``X`` of the accepted dtypes, finite, with at least one row and one column, and
    (if given) a 1-d integer, boolean or finite float ``y`` of the same length; no
    feature names on either side. Then the result is what scikit-learn gives (``X`` and
    ``y`` themselves, ``n_features_in_`` set or checked) and this returns it; for any
    other input (and any other check parameter) it returns None and scikit-learn
    validates, raising its own errors.
    """
    if type(X) is not np.ndarray or y is None or not set(params) <= _PLAIN_PARAMS:
        return None  # (y=None: scikit-learn's check that the estimator needs no y)
    dtype = params.get("dtype", "numeric")
    allowed = _FLOATS if isinstance(dtype, str) and dtype == "numeric" else dtype
    if not isinstance(allowed, list | tuple):
        allowed = (allowed,)
    if (
        X.ndim != 2
        or X.dtype not in _FLOATS
        # map, not a generator: a KeyboardInterrupt while a generator closes is lost
        or not any(map(X.dtype.__eq__, allowed))
        or not X.flags.c_contiguous
        or X.shape[0] < 1
        or X.shape[1] < 1
        or hasattr(estimator, "feature_names_in_")
    ):
        return None
    no_y = isinstance(y, str) and y == "no_validation"
    if not no_y and (
        type(y) is not np.ndarray
        or y.ndim != 1
        or y.shape[0] != X.shape[0]
        or y.dtype.kind not in "biuf"
        or not y.flags.c_contiguous
        or (y.dtype.kind == "f" and not _finite_sum(y))
    ):
        return None
    if not _finite_sum(X):
        return None
    if reset:
        estimator.n_features_in_ = X.shape[1]
    elif getattr(estimator, "n_features_in_", X.shape[1]) != X.shape[1]:
        return None  # scikit-learn raises its message
    return X if no_y else (X, y)


def check_classification_targets(y: Any) -> None:
    """scikit-learn's ``check_classification_targets``, with a shortcut for integer labels.

    A 1-d array of integers or booleans is always a binary or multiclass target (its
    ``type_of_target``), and when its labels span at most half as many values as it has
    entries scikit-learn's warning about "more unique classes than 50% of the samples"
    cannot apply: such ``y`` returns at once. Any other ``y`` goes to scikit-learn,
    which raises for continuous and multilabel-indicator targets (and warns) as before.

    Parameters
    ----------
    y : array-like
        Target values.

    Raises
    ------
    ValueError
        When ``y`` is not a classification target.
    """
    if type(y) is np.ndarray and y.ndim == 1 and y.dtype.kind in "biu" and y.size:
        span = int(y.max()) - int(y.min()) + 1  # at least the number of distinct labels
        if y.size <= 20 or span <= round(0.5 * y.size):
            return
    _check_classification_targets(y)


def class_labels(y: np.ndarray) -> np.ndarray:
    """``np.unique(y)``: the sorted distinct labels, in ``y``'s dtype.

    For integer labels spanning few values the distinct ones are read off a count
    (``np.bincount``, one pass) instead of numpy's hash table or sort: 0.3 ms at 30 000
    labels, more than a small fit.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Validated labels.

    Returns
    -------
    classes : ndarray
        Exactly ``np.unique(y)``.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.validation import class_labels
    >>> class_labels(np.array([3, -1, 3, 7]))
    array([-1,  3,  7])
    """
    y = np.asarray(y)
    if y.ndim == 1 and y.dtype.kind in "iu" and y.size:
        low, high = int(y.min()), int(y.max())
        if high - low <= y.size:
            present = np.bincount((y - low).astype(np.intp), minlength=high - low + 1) > 0
            return (np.flatnonzero(present) + low).astype(y.dtype)
    return np.unique(y)


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
