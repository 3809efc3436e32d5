"""Squared hinge: L2-SVM-MFN against liblinear's primal solver on dense and sparse data."""

import numpy as np
import pytest
import scipy.sparse as sp
from _data import linear_classification, signed, text_classification
from sklearn.svm import LinearSVC

from l2svm_mfn import MFNClassifier, squared_hinge_objective

DATA = {"blobs": linear_classification, "text": text_classification}


def _objective(est, X, y, alpha):
    """SVMlin's objective, bias as a regularized constant feature, at ``est``'s hyperplane."""
    w = np.r_[est.coef_.ravel(), est.intercept_]
    outputs = np.asarray(X @ w[:-1]).ravel() + w[-1]
    return squared_hinge_objective(w, outputs, signed(y, est.classes_), np.ones(y.size), alpha)


@pytest.mark.parametrize("data", sorted(DATA))
@pytest.mark.parametrize("alpha", [1e-3, 1e-1])
def test_mfn_objective_equals_liblinear_primal(data, alpha):
    X, y = DATA[data]()
    assert sp.issparse(X) == (data == "text")
    mfn = MFNClassifier(alpha=alpha).fit(X, y)
    # README mapping: lambda -> C = 1/(2 lambda), bias a regularized feature (-B 1).
    ref = LinearSVC(
        loss="squared_hinge",
        dual=False,
        C=1.0 / (2.0 * alpha),
        intercept_scaling=1.0,
        tol=1e-12,
        max_iter=100_000,
    ).fit(X, y)
    ours, theirs = _objective(mfn, X, y, alpha), _objective(ref, X, y, alpha)
    assert ours == pytest.approx(theirs, rel=1e-6)
    assert mfn.objective_ == pytest.approx(ours, rel=1e-12)
    agree = np.mean(mfn.predict(X) == ref.predict(X))
    assert agree >= 1.0 - 2.0 / y.size
