"""RBF kernel: kernel AIDSVC (objective) and AESVC (accuracy) against libsvm's SVC."""

import numpy as np
import pytest
from _data import rbf_classification, signed
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.svm import SVC

from aesvm import AESVC
from aid_models import AIDSVC

C, GAMMA = 1.0, 0.1  # gamma near "scale" (0.13 here)


def _primal_objective(est, X, y):
    """(7) in feature space: 0.5 a^T K a + C sum hinge, from the model's own expansion."""
    a = est.dual_coef_[0]
    K = rbf_kernel(est.support_vectors_, gamma=GAMMA)
    hinge = np.maximum(0.0, 1.0 - signed(y, est.classes_) * est.decision_function(X))
    return 0.5 * float(a @ K @ a) + C * float(hinge.sum())


def test_kernel_aid_svc_reaches_the_libsvm_optimum():
    X, y, _, _ = rbf_classification()
    # Kernel AID costs O(n^2 m) per iteration: a 600-sample slice of the training set.
    X, y = X[:600], y[:600]
    svc = SVC(kernel="rbf", C=C, gamma=GAMMA, tol=1e-6).fit(X, y)
    ref = _primal_objective(svc, X, y)
    est = AIDSVC(C=C, kernel="rbf", gamma=GAMMA, random_state=0).fit(X, y)
    ours = _primal_objective(est, X, y)
    assert ours == pytest.approx(ref, rel=1e-4)
    assert est.objective_ == pytest.approx(ours, rel=1e-9)
    assert est.lower_bound_ <= ref * (1 + 1e-6)
    assert est.score(X, y) == pytest.approx(svc.score(X, y), abs=2.0 / y.size)


def test_aesvc_accuracy_within_one_point_of_svc():
    X, y, X_test, y_test = rbf_classification()
    svc = SVC(kernel="rbf", C=C, gamma=GAMMA).fit(X, y)
    # The paper's method: its epsilon, the representative set at any size.
    ae = AESVC(C=C, kernel="rbf", gamma=GAMMA, epsilon=1e-3, fallback_fraction=None).fit(X, y)
    # A real reduction, so the comparison is not SVC against itself.
    assert ae.n_representatives_ < 0.5 * X.shape[0]
    assert ae.support_.size < svc.support_.size
    assert abs(ae.score(X_test, y_test) - svc.score(X_test, y_test)) <= 0.01
