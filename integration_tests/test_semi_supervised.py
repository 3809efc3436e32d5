"""Semi-supervised SVMs on one shared split against an SVM trained on the labels only."""

import numpy as np
import pytest
from _data import semi_supervised_split
from sklearn.svm import SVC

from aid_models import AIDS3VMClassifier
from l2svm_mfn import MFAClassifier, TSVMClassifier

METHODS = {
    # The paper's fixed setting (M_l = 5, M_u = 1, balance constraint), AID1.
    "AIDS3VM": lambda: AIDS3VMClassifier(unlabeled_value=-1, random_state=0),
    # SVMlin's defaults (lambda = 1e-3, lambda' = 1).
    "TSVM": lambda: TSVMClassifier(unlabeled_value=-1),
    "MFA": lambda: MFAClassifier(unlabeled_value=-1),
}


def _unlabeled_accuracy(labels, y, y_true):
    unlabeled = y == -1
    return float(np.mean(labels[unlabeled] == y_true[unlabeled]))


def _labeled_only(X, y, y_true):
    labeled = y != -1
    # C = M_l, the labeled penalty of the AID S3VM objective (12).
    svc = SVC(kernel="linear", C=5.0).fit(X[labeled], y[labeled])
    return _unlabeled_accuracy(svc.predict(X), y, y_true)


@pytest.fixture(scope="module")
def split():
    X, y, y_true = semi_supervised_split()
    baseline = _labeled_only(X, y, y_true)
    # Meaningful comparison: ten labels leave the SVM clearly short of what the two
    # clusters allow (Bayes accuracy about 97.7 %); the unlabeled data can help.
    assert baseline < 0.95
    return X, y, y_true, baseline


@pytest.mark.parametrize("name", sorted(METHODS))
def test_at_least_as_accurate_as_labeled_only_svm(split, name):
    X, y, y_true, baseline = split
    est = METHODS[name]().fit(X, y)
    accuracy = _unlabeled_accuracy(est.transduction_, y, y_true)
    assert accuracy >= baseline
    # Labeled samples keep their labels; transduction_ is what predict gives on the data.
    labeled = y != -1
    np.testing.assert_array_equal(est.transduction_[labeled], y[labeled])
    assert _unlabeled_accuracy(est.predict(X), y, y_true) == pytest.approx(accuracy, abs=0.01)


@pytest.mark.xfail(
    strict=True,
    reason=(
        "MFA falls below the labeled-only SVM on 20-d g241c-style data (0.62 vs 0.88 here; "
        "TSVM 0.96 and AID1 0.96 on the same split); its best objective (18) is 0.0114 where "
        "TSVM's solution has at most 0.0020 (its (7)), i.e. MFA ends in a poorer local minimum. "
        "Not a bug (OPTIMIZE-W/P checked against L-BFGS/brentq along the path): with l < d the "
        "convex high-temperature solution points away from the high-variance cluster direction "
        "(cosine 0.21 vs 0.65 for labeled-only SVC) and annealing breaks symmetry along it."
    ),
)
def test_mfa_on_twenty_dimensional_clusters():
    X, y, y_true = semi_supervised_split(n_features=20, seed=1)
    baseline = _labeled_only(X, y, y_true)
    tsvm = METHODS["TSVM"]().fit(X, y)
    assert _unlabeled_accuracy(tsvm.transduction_, y, y_true) > baseline  # the set is fair
    mfa = METHODS["MFA"]().fit(X, y)
    assert _unlabeled_accuracy(mfa.transduction_, y, y_true) >= baseline
