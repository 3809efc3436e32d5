"""The semi-supervised label conventions: scikit-learn's ``y == -1`` marks an unlabeled
sample; SVMlin's ``y == 0`` does (classes -1 and +1). A y holding exactly {-1, 0, 1} reads
differently under the two, so it is refused unless the caller states the convention."""

from __future__ import annotations

import numpy as np

from ..typing import ArrayLike

__all__ = ["UNLABELED", "from_svmlin_labels", "split_semi_supervised", "unlabeled_mask"]

#: scikit-learn's marker for unlabeled samples (``sklearn.semi_supervised``).
UNLABELED = -1

#: The label set that scikit-learn's and SVMlin's conventions read differently.
_AMBIGUOUS = frozenset({-1, 0, 1})

_AMBIGUOUS_MESSAGE = (
    "y holds exactly the values {-1, 0, 1}, which two conventions read differently: "
    "scikit-learn's (sklearn.semi_supervised) marks an unlabeled sample -1 (the classes "
    "are then 0 and 1), SVMlin's marks it 0 (the classes are -1 and +1). State which "
    "convention y follows: unlabeled_value=-1 for scikit-learn's, unlabeled_value=0 for "
    "SVMlin's (classes_ is then [-1, 1]); or convert SVMlin-style labels to scikit-learn's "
    "with svmcore.validation.from_svmlin_labels(y) (+1 -> 1, -1 -> 0, 0 -> -1) and pass "
    "unlabeled_value=-1."
)


def unlabeled_mask(y: ArrayLike, unlabeled_value: int | None = None) -> np.ndarray:
    """Mask of the unlabeled samples of ``y``, refusing a y that two conventions read apart.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Labels.
    unlabeled_value : int or None, default=None
        The value that marks an unlabeled sample. None is scikit-learn's ``-1``
        (:data:`UNLABELED`) but refuses a ``y`` whose values are exactly {-1, 0, 1}:
        under SVMlin's convention the same ``y`` means classes -1 and +1 with 0
        unlabeled. Pass ``-1`` or ``0`` to state the convention.

    Returns
    -------
    unlabeled : ndarray of shape (n_samples,) of bool
        True where ``y == unlabeled_value``.

    Raises
    ------
    ValueError
        If ``y`` is not 1-dimensional, or ``unlabeled_value`` is None and the values
        of ``y`` are exactly {-1, 0, 1} (the message explains both conventions).

    Examples
    --------
    >>> from svmcore.validation import unlabeled_mask
    >>> unlabeled_mask([2, 5, -1]).tolist()
    [False, False, True]
    >>> unlabeled_mask([1, -1, 0], unlabeled_value=0).tolist()
    [False, False, True]
    """
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-dimensional, got shape {y.shape}.")
    if unlabeled_value is None:
        if _values(y) == _AMBIGUOUS:
            raise ValueError(_AMBIGUOUS_MESSAGE)
        unlabeled_value = UNLABELED
    return y == unlabeled_value


def _values(y):
    """The set of values of a numeric (or object) ``y``; empty for other dtypes."""
    if y.dtype.kind not in "biufO":
        return set()
    try:
        return set(np.unique(y).tolist())
    except TypeError:  # an object array of values that do not compare
        return set()


def from_svmlin_labels(y: ArrayLike) -> np.ndarray:
    """Convert SVMlin's labels (+1, -1; 0 unlabeled) to scikit-learn's convention.

    SVMlin marks the two classes +1 and -1 and an unlabeled sample 0; scikit-learn's
    semi-supervised estimators mark an unlabeled sample -1. The classes become 1 (from
    +1) and 0 (from -1), so the result's values are {-1, 0, 1} again: fit it with
    ``unlabeled_value=-1``. The semi-supervised estimators also take SVMlin-style labels
    directly with ``unlabeled_value=0`` (``classes_`` is then ``[-1, 1]``).

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        SVMlin labels: +1, -1, or 0 for an unlabeled sample (integers or floats).

    Returns
    -------
    y_sklearn : ndarray of shape (n_samples,) of int64
        1 where ``y == +1``, 0 where ``y == -1``, -1 where ``y == 0``.

    Raises
    ------
    ValueError
        If ``y`` is not 1-dimensional or holds a value other than +1, -1 and 0.

    Examples
    --------
    >>> from svmcore.validation import from_svmlin_labels
    >>> from_svmlin_labels([1, -1, 0, 0, 1]).tolist()
    [1, 0, -1, -1, 1]
    """
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-dimensional, got shape {y.shape}.")
    if y.dtype.kind not in "biufO":
        raise ValueError(f"from_svmlin_labels: y must hold numbers (+1, -1, 0), got {y.dtype}.")
    extra = _values(y) - _AMBIGUOUS
    if extra:
        raise ValueError(
            "from_svmlin_labels: y must hold only SVMlin's labels +1, -1 and 0 (unlabeled); "
            f"found {sorted(extra, key=str)[:5]}."
        )
    return np.where(y == 0, UNLABELED, (y > 0).astype(np.int64)).astype(np.int64)


def split_semi_supervised(
    y: ArrayLike, *, unlabeled_value: int | None = None, require_unlabeled: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Split semi-supervised targets into labeled classes and an unlabeled mask.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Labels; ``unlabeled_value`` marks an unlabeled sample, and exactly two other
        values must occur.
    unlabeled_value : int or None, default=None
        The value that marks an unlabeled sample; None is ``-1`` and refuses a ``y``
        whose values are exactly {-1, 0, 1} (see :func:`unlabeled_mask`).
    require_unlabeled : bool, default=True
        Whether to raise when no sample is unlabeled.

    Returns
    -------
    classes : ndarray of shape (2,)
        The two class labels, sorted.
    y_signed : ndarray of shape (n_samples,) of int8
        ``-1`` / ``+1`` for samples of ``classes[0]`` / ``classes[1]``, 0 if unlabeled.
    unlabeled : ndarray of shape (n_samples,) of bool
        Mask of unlabeled samples.

    Raises
    ------
    ValueError
        If ``y`` is not a 1-d classification target, is ambiguous (see
        :func:`unlabeled_mask`), does not hold exactly two classes besides the unlabeled
        marker, or (with ``require_unlabeled``) has no unlabeled sample.

    Examples
    --------
    >>> from svmcore.validation import split_semi_supervised
    >>> classes, ys, unl = split_semi_supervised([2, 5, -1, 5])
    >>> classes.tolist(), ys.tolist(), unl.tolist()
    ([2, 5], [-1, 1, 0, 1], [False, False, True, False])
    >>> classes, ys, unl = split_semi_supervised([1, -1, 0, 1], unlabeled_value=0)
    >>> classes.tolist(), ys.tolist(), unl.tolist()
    ([-1, 1], [1, -1, 0, 1], [False, False, True, False])
    """
    # Imported here: the package's other checks run in tasks on Dask workers, which should
    # not import scikit-learn (and pandas with it) for them (svmcore.lazy).
    from ._sklearn import check_classification_targets

    unlabeled = unlabeled_mask(y, unlabeled_value)
    y = np.asarray(y)
    check_classification_targets(y)
    marker = UNLABELED if unlabeled_value is None else unlabeled_value
    classes = np.unique(y[~unlabeled])
    if classes.size != 2:
        kind = (
            "Only binary classification is supported"
            if classes.size > 2
            else "y needs labeled samples of both classes"
        )
        raise ValueError(
            f"{kind}: y must hold exactly two classes besides the unlabeled marker "
            f"{marker} (unlabeled_value); found {classes.size} "
            f"class{'' if classes.size == 1 else 'es'} ({classes.tolist()[:5]})."
        )
    if require_unlabeled and not unlabeled.any():
        raise ValueError(
            f"y has no unlabeled sample (marked {marker}, unlabeled_value): use a "
            "supervised estimator."
        )
    y_signed = np.zeros(y.shape[0], dtype=np.int8)
    y_signed[y == classes[0]] = -1
    y_signed[y == classes[1]] = 1
    return classes, y_signed, unlabeled
