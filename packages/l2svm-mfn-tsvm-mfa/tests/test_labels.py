"""TSVM and MFA: the stated label convention (issue 21) and model selection on labels only."""

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV

from l2svm_mfn import MFAClassifier, TSVMClassifier
from svmcore.model_selection import SemiSupervisedKFold
from svmcore.validation import from_svmlin_labels

SEMI = [TSVMClassifier, MFAClassifier]


def _gaussians(seed, n=1000, n_labels=30):
    """Two well separated Gaussian clusters of n/2 points each in 2-d (the class balance the
    labels suggest is the true one): y (0/1, -1 unlabeled) and the true labels."""
    rng = np.random.default_rng(seed)
    y_true = rng.permutation(np.repeat([0, 1], n // 2))
    X = rng.normal(size=(n, 2)) + np.where(y_true == 1, 3.0, -3.0)[:, None]
    labeled = np.r_[
        rng.choice(np.flatnonzero(y_true == 0), n_labels // 2, replace=False),
        rng.choice(np.flatnonzero(y_true == 1), n_labels // 2, replace=False),
    ]
    y = np.full(n, -1)
    y[labeled] = y_true[labeled]
    return X, y, y_true


@pytest.mark.parametrize("make", SEMI)
def test_svmlin_style_labels_raise_unless_the_convention_is_stated(make):
    X, y, y_true = _gaussians(0, n=200, n_labels=20)
    y_svmlin = np.where(y == -1, 0, np.where(y == 1, 1, -1))  # the silent misread
    with pytest.raises(ValueError, match="two conventions") as info:
        make().fit(X, y_svmlin)
    assert "unlabeled_value=0" in str(info.value) and "SVMlin" in str(info.value)
    with pytest.raises(ValueError, match="two conventions"):
        make().fit(X, y)  # scikit-learn's own 0/1 classes: the same label set
    svmlin = make(unlabeled_value=0).fit(X, y_svmlin)
    assert svmlin.classes_.tolist() == [-1, 1]
    converted = make(unlabeled_value=-1).fit(X, from_svmlin_labels(y_svmlin))
    assert converted.classes_.tolist() == [0, 1]
    np.testing.assert_array_equal(svmlin.coef_, converted.coef_)
    np.testing.assert_array_equal(svmlin.intercept_, converted.intercept_)
    np.testing.assert_array_equal(svmlin.transduction_, 2 * converted.transduction_ - 1)
    assert np.mean(converted.transduction_ == y_true) > 0.95


@pytest.mark.parametrize("make", SEMI)
def test_score_counts_labeled_rows_only(make):
    X, y, y_true = _gaussians(1, n=200, n_labels=20)
    clf = make(unlabeled_value=-1).fit(X, y)
    labeled = y != -1
    assert clf.score(X, y) == np.mean(clf.predict(X[labeled]) == y[labeled])
    assert clf.score(X, y_true) == np.mean(clf.predict(X) == y_true)
    with pytest.raises(ValueError, match="no labeled sample"):
        clf.score(X, np.full(200, -1))
    y_svmlin = np.where(y == -1, 0, 2 * y - 1)
    svmlin = make(unlabeled_value=0).fit(X, y_svmlin)
    assert svmlin.score(X, y_svmlin) == clf.score(X, y)


def test_grid_search_best_score_is_the_held_out_labeled_accuracy():
    # issue 21: with cv=3 and the former score, best_score_ was 0.02 for a perfect model
    X, y, _ = _gaussians(2, n=1000, n_labels=30)
    X_test, _, y_test = _gaussians(3, n=500)
    search = GridSearchCV(
        TSVMClassifier(unlabeled_value=-1),
        {"alpha": [1e-3, 1e-1], "alpha_unlabeled": [0.1, 1.0]},
        cv=SemiSupervisedKFold(3, shuffle=True, random_state=0, unlabeled_value=-1),
    ).fit(X, y)
    held_out = search.score(X_test, y_test)
    assert held_out > 0.95
    assert abs(search.best_score_ - held_out) <= 0.02
    for _, test in search.cv.split(X, y):
        assert np.all(y[test] != -1)
