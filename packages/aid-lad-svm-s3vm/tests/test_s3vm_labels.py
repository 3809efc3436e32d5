"""AIDS3VMClassifier: the stated label convention (issue 21) and a score on labels only."""

import numpy as np
import pytest
from sklearn.model_selection import cross_val_score

from aid_models import AIDS3VMClassifier
from svmcore.model_selection import SemiSupervisedKFold
from svmcore.validation import from_svmlin_labels


def _svmlin_clusters(seed, n=120, n_labels=12):
    """Two separated Gaussian clusters, SVMlin's labels: +1/-1 classes, 0 unlabeled."""
    rng = np.random.default_rng(seed)
    y_true = np.repeat([-1, 1], n // 2)
    X = rng.normal(size=(n, 2)) + 2.5 * y_true[:, None]
    labeled = np.r_[
        rng.choice(n // 2, n_labels // 2, replace=False),
        n // 2 + rng.choice(n // 2, n_labels // 2, replace=False),
    ]
    y = np.zeros(n, dtype=int)
    y[labeled] = y_true[labeled]
    return X, y, y_true


def test_svmlin_style_labels_raise_unless_the_convention_is_stated():
    X, y, y_true = _svmlin_clusters(0)
    with pytest.raises(ValueError, match="two conventions") as info:
        AIDS3VMClassifier(random_state=0).fit(X, y)
    assert "unlabeled_value=0" in str(info.value) and "SVMlin" in str(info.value)
    svmlin = AIDS3VMClassifier(unlabeled_value=0, random_state=0).fit(X, y)
    assert svmlin.classes_.tolist() == [-1, 1]
    converted = AIDS3VMClassifier(unlabeled_value=-1, random_state=0)
    converted.fit(X, from_svmlin_labels(y))
    assert converted.classes_.tolist() == [0, 1]
    np.testing.assert_array_equal(svmlin.coef_, converted.coef_)
    np.testing.assert_array_equal(svmlin.intercept_, converted.intercept_)
    np.testing.assert_array_equal(svmlin.transduction_, 2 * converted.transduction_ - 1)
    assert np.mean(svmlin.transduction_ == y_true) > 0.95


def test_score_counts_labeled_rows_only_and_cross_validates_on_labels():
    X, y, y_true = _svmlin_clusters(1)
    clf = AIDS3VMClassifier(unlabeled_value=0, random_state=0).fit(X, y)
    labeled = y != 0
    assert clf.score(X, y) == np.mean(clf.predict(X[labeled]) == y[labeled])
    assert clf.score(X, y_true) == np.mean(clf.predict(X) == y_true)
    with pytest.raises(ValueError, match="no labeled sample"):
        clf.score(X, np.zeros(len(y)))
    cv = SemiSupervisedKFold(3, unlabeled_value=0)
    scores = cross_val_score(AIDS3VMClassifier(unlabeled_value=0, random_state=0), X, y, cv=cv)
    assert scores.shape == (3,) and scores.min() == 1.0
