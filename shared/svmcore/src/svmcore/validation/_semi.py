"""The semi-supervised label convention: ``y == -1`` marks an unlabeled sample."""

import numpy as np

__all__ = ["UNLABELED", "split_semi_supervised"]

#: scikit-learn's marker for unlabeled samples (``sklearn.semi_supervised``).
UNLABELED = -1


def split_semi_supervised(y, *, require_unlabeled=True):
    """Split semi-supervised targets into labeled classes and an unlabeled mask.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Labels; ``-1`` marks an unlabeled sample, and exactly two other values
        must occur.
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

    Examples
    --------
    >>> from svmcore.validation import split_semi_supervised
    >>> classes, ys, unl = split_semi_supervised([0, 1, -1, 1])
    >>> classes.tolist(), ys.tolist(), unl.tolist()
    ([0, 1], [-1, 1, 0, 1], [False, False, True, False])
    """
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-dimensional, got shape {y.shape}.")
    unlabeled = y == UNLABELED
    classes = np.unique(y[~unlabeled])
    if classes.size != 2:
        raise ValueError(
            "y must hold exactly two classes besides the unlabeled marker -1; "
            f"found {classes.size} ({classes.tolist()[:5]})."
        )
    if require_unlabeled and not unlabeled.any():
        raise ValueError("y has no unlabeled sample (marked -1): use a supervised estimator.")
    y_signed = np.zeros(y.shape[0], dtype=np.int8)
    y_signed[y == classes[0]] = -1
    y_signed[y == classes[1]] = 1
    return classes, y_signed, unlabeled
