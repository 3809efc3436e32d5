"""Linear L1-SVM: AIDSVC (libsvm and liblinear backends) against libsvm's SVC on one data set."""

import numpy as np
import pytest
from _data import linear_classification, signed
from sklearn.svm import SVC

from aid_models import AIDSVC
from svmcore.solvers import hinge_objective

C = 0.1


@pytest.fixture(scope="module")
def reference():
    X, y = linear_classification()
    svc = SVC(kernel="linear", C=C, tol=1e-6).fit(X, y)
    objective = hinge_objective(
        svc.coef_[0], svc.intercept_[0], X, signed(y, svc.classes_), None, C
    )
    return X, y, svc, objective


@pytest.mark.parametrize("solver", ["libsvm", "liblinear"])
def test_aid_svc_reaches_the_libsvm_optimum(reference, solver):
    X, y, svc, ref = reference
    # gap_tol=1e-6: at the paper's 1e-4 the objective already agrees within 1e-4, but w can
    # still move enough to flip a sample lying within ~1e-2 of the boundary.
    est = AIDSVC(C=C, solver=solver, gap_tol=1e-6, random_state=0).fit(X, y)
    # The paper's (7) evaluated independently at the returned (w, b).
    obj = hinge_objective(est.coef_[0], est.intercept_[0], X, signed(y, est.classes_), None, C)
    assert obj == pytest.approx(ref, rel=1e-4)
    assert est.objective_ == pytest.approx(obj, rel=1e-12)
    # The certificate is a true lower bound on libsvm's optimum.
    assert est.lower_bound_ <= ref * (1 + 1e-6)
    assert est.score(X, y) == svc.score(X, y)
    # Aggregation happened: the last aggregated problem is smaller than the data.
    assert est.n_clusters_ < X.shape[0]


def test_backends_agree_at_the_paper_tolerance(reference):
    X, y, _, ref = reference
    objectives = [
        AIDSVC(C=C, solver=solver, random_state=0).fit(X, y).objective_
        for solver in ("libsvm", "liblinear")
    ]
    # gap_tol=1e-4 (the paper's default) certifies each within 1e-4 of the optimum.
    np.testing.assert_allclose(objectives, ref, rtol=1e-4)
