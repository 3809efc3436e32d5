"""SemiSupervisedKFold: stratified folds of the labeled samples, every unlabeled sample in
every training fold (the transductive setting)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from sklearn.model_selection import BaseCrossValidator, StratifiedKFold

from ..typing import ArrayLike, MatrixLike, RandomStateLike
from ..validation import unlabeled_mask

__all__ = ["SemiSupervisedKFold"]


class SemiSupervisedKFold(BaseCrossValidator):
    """Stratified K-fold over the labeled samples; the unlabeled ones always train.

    Splits the labeled samples (``y != unlabeled_value``) into ``n_splits`` stratified
    folds, as :class:`~sklearn.model_selection.StratifiedKFold` does, and adds every
    unlabeled sample to every training set: each model is fitted transductively on all
    the unlabeled data, as in the semi-supervised papers, and tested on held-out labels
    only. Pass it as ``cv`` to :class:`~sklearn.model_selection.GridSearchCV` or
    :func:`~sklearn.model_selection.cross_val_score` with an estimator whose ``score``
    ignores unlabeled rows (:class:`SemiSupervisedScoreMixin`). A test fold then never
    holds an unlabeled sample.

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds of the labeled samples (at least 2, at most the number of
        labeled samples of each class for an exact stratification).
    unlabeled_value : int or None, default=None
        The value of ``y`` that marks an unlabeled sample; None is scikit-learn's ``-1``
        and refuses a ``y`` whose values are exactly {-1, 0, 1}, which SVMlin's
        convention (0 unlabeled) reads differently; see
        :func:`svmcore.validation.unlabeled_mask`. Use the estimator's value.
    shuffle : bool, default=False
        Whether to shuffle each class's labeled samples before splitting.
    random_state : int, RandomState instance or None, default=None
        Seeds the shuffling (only with ``shuffle=True``).

    See Also
    --------
    sklearn.model_selection.StratifiedKFold : The split of the labeled samples.
    SemiSupervisedScoreMixin : A ``score`` on the labeled samples only.

    Notes
    -----
    ``groups`` is accepted and ignored, as by ``StratifiedKFold``.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.model_selection import SemiSupervisedKFold
    >>> y = np.array([2, 2, 5, 5, -1, -1])
    >>> for train, test in SemiSupervisedKFold(n_splits=2).split(np.zeros((6, 1)), y):
    ...     print(train.tolist(), test.tolist())
    [1, 3, 4, 5] [0, 2]
    [0, 2, 4, 5] [1, 3]
    """

    def __init__(
        self,
        n_splits: int = 5,
        *,
        unlabeled_value: int | None = None,
        shuffle: bool = False,
        random_state: RandomStateLike = None,
    ) -> None:
        self.n_splits = n_splits
        self.unlabeled_value = unlabeled_value
        self.shuffle = shuffle
        self.random_state = random_state

    def split(
        self, X: MatrixLike, y: ArrayLike, groups: object = None
    ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Generate indices to split data into training and test set.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data (only its number of rows is used).
        y : array-like of shape (n_samples,)
            Labels, ``unlabeled_value`` for an unlabeled sample.
        groups : object, default=None
            Ignored; present for API consistency.

        Yields
        ------
        train : ndarray
            The training set indices of the split: the labeled samples of the other
            folds and every unlabeled sample.
        test : ndarray
            The test set indices of the split: labeled samples of one fold.
        """
        if y is None:
            raise ValueError("SemiSupervisedKFold.split needs y to find the labeled samples.")
        return super().split(X, y, groups)

    def _iter_test_indices(self, X=None, y=None, groups=None):
        y = np.asarray(y)
        labeled = np.flatnonzero(~unlabeled_mask(y, self.unlabeled_value))
        folds = StratifiedKFold(self.n_splits, shuffle=self.shuffle, random_state=self.random_state)
        for _, test in folds.split(labeled, y[labeled]):
            yield labeled[test]

    def get_n_splits(self, X: object = None, y: object = None, groups: object = None) -> int:
        """Return the number of splitting iterations, ``n_splits``.

        Parameters
        ----------
        X, y, groups : object, default=None
            Ignored; present for API consistency.

        Returns
        -------
        n_splits : int
            The number of folds.
        """
        return self.n_splits
