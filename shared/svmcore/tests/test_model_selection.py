"""svmcore.model_selection: SemiSupervisedKFold and the labeled-only score."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import GridSearchCV, cross_val_score

from svmcore.model_selection import SemiSupervisedKFold, SemiSupervisedScoreMixin


@given(
    st.integers(2, 5),
    st.integers(0, 6),
    st.integers(0, 6),
    st.integers(0, 30),
    st.booleans(),
    st.integers(0, 2**16),
)
@settings(max_examples=80, deadline=None)
def test_folds_split_the_labels_and_keep_every_unlabeled_row_in_training(
    n_splits, extra_a, extra_b, n_unlabeled, shuffle, seed
):
    rng = np.random.default_rng(seed)
    y = np.r_[np.full(n_splits + extra_a, 3), np.full(n_splits + extra_b, 7), [-1] * n_unlabeled]
    y = y[rng.permutation(y.size)]
    X = rng.normal(size=(y.size, 2))
    cv = SemiSupervisedKFold(n_splits, shuffle=shuffle, random_state=seed if shuffle else None)
    folds = list(cv.split(X, y))
    assert len(folds) == cv.get_n_splits() == n_splits
    unlabeled = np.flatnonzero(y == -1)
    tested = np.concatenate([test for _, test in folds])
    # every labeled row is tested exactly once, no unlabeled row ever
    np.testing.assert_array_equal(np.sort(tested), np.flatnonzero(y != -1))
    for train, test in folds:
        assert np.intersect1d(train, test).size == 0
        np.testing.assert_array_equal(np.union1d(train, test), np.arange(y.size))
        assert np.isin(unlabeled, train).all()
        for label in (3, 7):  # stratified: each class spread evenly over the folds
            count = np.sum(y == label)
            assert count // n_splits <= np.sum(y[test] == label) <= -(-count // n_splits)


def test_svmlin_convention_and_ambiguous_labels():
    y = np.array([1, 1, -1, -1, 0, 0, 0])
    X = np.zeros((7, 1))
    with pytest.raises(ValueError, match="two conventions"):
        list(SemiSupervisedKFold(2).split(X, y))
    for train, test in SemiSupervisedKFold(2, unlabeled_value=0).split(X, y):
        assert set(y[test]) == {-1, 1} and {4, 5, 6} <= set(train)
    with pytest.raises(ValueError, match="needs y"):
        list(SemiSupervisedKFold(2).split(X, None))
    assert repr(SemiSupervisedKFold(3)).startswith("SemiSupervisedKFold(n_splits=3")


class _Threshold(SemiSupervisedScoreMixin, ClassifierMixin, BaseEstimator):
    """Predicts 1 where the feature exceeds ``threshold``; classes 0 and 1."""

    def __init__(self, threshold=0.0, unlabeled_value=None):
        self.threshold = threshold
        self.unlabeled_value = unlabeled_value

    def fit(self, X, y):
        self.classes_ = np.array([0, 1])
        return self

    def predict(self, X):
        return (np.asarray(X)[:, 0] > self.threshold).astype(int)


def test_score_ignores_unlabeled_rows_and_needs_a_labeled_one():
    X = np.array([[-1.0], [1.0], [1.0], [-1.0], [1.0]])
    est = _Threshold()
    assert est.score(X, [0, 1, 0, -1, -1]) == pytest.approx(2 / 3)
    assert est.score(X, [0, 1, 0, -1, -1], sample_weight=[1, 1, 2, 5, 5]) == pytest.approx(0.5)
    assert _Threshold(unlabeled_value=0).score(X, [-1, 1, 0, 0, 1]) == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="no labeled sample.*SemiSupervisedKFold"):
        est.score(X, [-1] * 5)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        est.score(X, [0, 1])


def test_grid_search_selects_on_held_out_labels():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 1))
    y = np.where(rng.random(400) < 0.9, -1, (X[:, 0] > 0.5).astype(int))
    cv = SemiSupervisedKFold(3, unlabeled_value=-1)
    search = GridSearchCV(_Threshold(unlabeled_value=-1), {"threshold": [-2.0, 0.5]}, cv=cv)
    search.fit(X, y)
    assert search.best_params_ == {"threshold": 0.5} and search.best_score_ == 1.0
    scores = cross_val_score(_Threshold(-2.0, unlabeled_value=-1), X, y, cv=cv)
    labeled = y != -1
    assert scores.mean() == pytest.approx(np.mean(y[labeled] == 1), abs=0.05)
