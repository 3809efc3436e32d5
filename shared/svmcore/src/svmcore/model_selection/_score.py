"""SemiSupervisedScoreMixin: accuracy on the labeled samples only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.metrics import accuracy_score
from sklearn.utils import _safe_indexing, check_consistent_length

from ..typing import ArrayLike, MatrixLike
from ..validation import UNLABELED, unlabeled_mask

__all__ = ["SemiSupervisedScoreMixin"]


class SemiSupervisedScoreMixin:
    """Mixin giving a semi-supervised classifier a ``score`` on its labeled samples only.

    scikit-learn's :meth:`sklearn.base.ClassifierMixin.score` counts every sample, so
    a row marked unlabeled (never a class) is always a miss and model selection on
    semi-supervised data measures the share of unlabeled rows. This ``score`` ignores
    them deliberately. Put the mixin before ``ClassifierMixin`` in the bases; the
    estimator must have an ``unlabeled_value`` parameter (None meaning ``-1``).

    See Also
    --------
    SemiSupervisedKFold : Cross-validation folds whose test sets are labeled.

    Examples
    --------
    >>> from sklearn.base import BaseEstimator, ClassifierMixin
    >>> from svmcore.model_selection import SemiSupervisedScoreMixin
    >>> class AlwaysOne(SemiSupervisedScoreMixin, ClassifierMixin, BaseEstimator):
    ...     def __init__(self, unlabeled_value=None):
    ...         self.unlabeled_value = unlabeled_value
    ...     def predict(self, X):
    ...         return [1] * len(X)
    >>> AlwaysOne().score([[0], [0], [0], [0]], [1, 2, -1, -1])
    0.5
    """

    # What the estimator provides (declared for type checkers; no value here).
    unlabeled_value: int | None
    predict: Callable[[Any], Any]

    def score(self, X: MatrixLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
        """Return the mean accuracy on the labeled samples of ``X``, ``y``.

        Unlike :meth:`sklearn.base.ClassifierMixin.score`, rows whose label is the
        estimator's ``unlabeled_value`` (``-1`` when None) are ignored: they have no
        class to predict. Cross-validation therefore scores held-out labels only.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Test samples.
        y : array-like of shape (n_samples,)
            True labels of ``X``; ``unlabeled_value`` marks a row to ignore.
        sample_weight : array-like of shape (n_samples,), default=None
            Sample weights.

        Returns
        -------
        score : float
            Mean accuracy of ``self.predict(X)`` on the labeled rows.

        Raises
        ------
        ValueError
            If ``y`` has no labeled row (e.g. a test fold of only unlabeled samples:
            split with :class:`SemiSupervisedKFold`).
        """
        marker = UNLABELED if self.unlabeled_value is None else self.unlabeled_value
        y = np.asarray(y)
        check_consistent_length(X, y, sample_weight)
        labeled = ~unlabeled_mask(y, marker)
        if not labeled.any():
            raise ValueError(
                f"{type(self).__name__}.score: y has no labeled sample (every label is the "
                f"unlabeled marker {marker}, unlabeled_value), so there is no accuracy to "
                "measure. Cross-validate with svmcore.model_selection.SemiSupervisedKFold, "
                "whose test folds hold labeled samples only."
            )
        if sample_weight is not None:
            sample_weight = np.asarray(sample_weight)[labeled]
        y_pred = self.predict(_safe_indexing(X, np.flatnonzero(labeled)))
        return float(accuracy_score(y[labeled], y_pred, sample_weight=sample_weight))
