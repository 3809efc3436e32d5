"""AESVC (AESVM, Nandan et al. 2014) against SVC: fit/predict time, scores, objective gap.

The objective gap is F1 (the SVM objective on all data, scikit-learn's scaling) at AESVC's
solution against SVC's optimum: the quantity Corollaries 3-4 bound. Representative sets
are recomputed on every fit (``reuse_representatives=False``) so that ``time_fit`` includes
DeriveRS.
"""

import numpy as np
from sklearn.svm import SVC

from aesvm import AESVC
from svmcore.kernels import gram

from .common import Benchmark, Estimator, ObjectiveGap, Predictor, reference_gap
from .datasets import classification

C, GAMMA = 1.0, 0.5


def _svm_objective(decision, dual_coef, support_vectors, y):
    w_sq = dual_coef @ gram(support_vectors, kernel="rbf", gamma=GAMMA) @ dual_coef
    return 0.5 * w_sq + C * np.maximum(0.0, 1.0 - y * decision).sum()


class AESVCBenchmark(Predictor, ObjectiveGap, Estimator, Benchmark):
    """``AESVC(C, gamma)`` vs ``SVC(C, gamma)`` on two Gaussian classes, 3 or 10 features."""

    param_names = ["n_features"]
    params = ([3, 10],)

    def make_data(self, params):
        (n_features,) = params
        n = self.sized(3000, 20000, 100000)
        return classification(n, n_features, random_state=0)

    def make_estimator(self, params):
        return AESVC(C=C, gamma=GAMMA, reuse_representatives=False)

    def objective_gap(self, estimator, params):
        X, y = self.X, self.y
        reference = SVC(C=C, gamma=GAMMA, tol=1e-6).fit(X, y)
        ours = _svm_objective(
            estimator.decision_function(X),
            estimator.dual_coef_[0],
            estimator.support_vectors_,
            y,
        )
        theirs = _svm_objective(
            reference.decision_function(X),
            reference.dual_coef_[0],
            reference.support_vectors_,
            y,
        )
        return reference_gap(ours, theirs)
