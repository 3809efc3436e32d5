"""L2-SVM-MFN (``MFNClassifier``) against liblinear's primal squared-hinge solver.

The first per-package module; later issues add one per method package in the same
form (Estimator/Predictor/ObjectiveGap mixins from ``common.py``).
"""

import numpy as np
import scipy.sparse as sp
from sklearn.svm import LinearSVC

from l2svm_mfn import MFNClassifier

from .common import Benchmark, Estimator, ObjectiveGap, Predictor, reference_gap
from .datasets import classification

ALPHA = 1.0


def _objective(w, b, X, y):
    """``alpha/2 (||w||^2 + b^2) + 1/2 sum max(0, 1 - y (Xw + b))^2`` (bias regularized)."""
    margin = np.maximum(0.0, 1.0 - y * (X @ w + b))
    return 0.5 * ALPHA * (w @ w + b * b) + 0.5 * margin @ margin


class MFNClassifierBenchmark(Predictor, ObjectiveGap, Estimator, Benchmark):
    """``MFNClassifier(alpha)`` is ``LinearSVC(squared hinge, C=1/(2 alpha))`` with the bias
    regularized; the objective gap is measured against liblinear at a tight tolerance."""

    param_names = ["representation", "dtype"]
    params = (["dense", "sparse"], ["float64", "float32"])

    def make_data(self, params):
        representation, dtype = params
        n, d = self.sized((2000, 50), (20000, 200), (200000, 500))
        X, X_val, y, y_val = classification(n, d, dtype, random_state=0)
        if representation == "sparse":
            # keep about 10 % of the entries so that the CSR path does real work
            mask = np.random.default_rng(0).random(X.shape) < 0.1
            X, X_val = sp.csr_matrix(X * mask), sp.csr_matrix(X_val * mask[: len(X_val)])
        return X, X_val, y, y_val

    def make_estimator(self, params):
        return MFNClassifier(alpha=ALPHA)

    def objective_gap(self, estimator, params):
        X, y = self.X, self.y
        reference = LinearSVC(
            C=1 / (2 * ALPHA), loss="squared_hinge", dual=False, tol=1e-8, max_iter=10000
        ).fit(X, y)
        X = X.astype(np.float64)
        ours = _objective(estimator.coef_.ravel(), estimator.intercept_[0], X, y)
        theirs = _objective(reference.coef_.ravel(), reference.intercept_[0], X, y)
        return reference_gap(ours, theirs)
