"""l2svm_mfn on sparse text-like data: MFN vs liblinear primal/dual; TSVM (S = 1, 10, max), MFA.

``track_objective_gap`` compares MFN's objective with liblinear's primal solver at a
tight tolerance (same objective up to the factor lambda), so a speed-up cannot silently
change the answer; ``track_transductive_error`` does the same for TSVM/MFA.
"""

import numpy as np
from sklearn.svm import LinearSVC

from l2svm_mfn import MFAClassifier, MFNClassifier, TSVMClassifier, squared_hinge_objective
from svmcore.datasets import make_sparse_text

from .common import Benchmark, reference_gap

LAMBDA = 1e-3


def _objective(clf, X, ys):
    w = np.r_[clf.coef_.ravel(), clf.intercept_]
    return squared_hinge_objective(w, X @ w[:-1] + w[-1], ys, np.ones(X.shape[0]), LAMBDA)


def _liblinear(dual, tol):
    return LinearSVC(
        loss="squared_hinge", dual=dual, C=1 / (2 * LAMBDA), tol=tol, max_iter=1_000_000
    )


class MFNTextSuite(Benchmark):
    """MFNClassifier (paper CGLS or Jacobi-preconditioned) vs LinearSVC primal/dual."""

    param_names = ["preconditioner"]
    params = (["none", "jacobi"],)

    def setup(self, preconditioner):
        n, d = self.sized((5000, 3000), (20000, 10000), (100000, 50000))
        self.X, y = make_sparse_text(n, d, nnz_per_row=50, random_state=0)
        self.y = y
        self.ys = np.where(y > 0, 1.0, -1.0)
        self.pre = None if preconditioner == "none" else preconditioner
        MFNClassifier(alpha=LAMBDA, preconditioner=self.pre).fit(self.X[:200], y[:200])

    def time_mfn(self, preconditioner):
        MFNClassifier(alpha=LAMBDA, preconditioner=self.pre).fit(self.X, self.y)

    def peakmem_mfn(self, preconditioner):
        MFNClassifier(alpha=LAMBDA, preconditioner=self.pre).fit(self.X, self.y)

    def time_liblinear_primal(self, preconditioner):
        _liblinear(False, 1e-6).fit(self.X, self.y)

    def time_liblinear_dual(self, preconditioner):
        _liblinear(True, 1e-6).fit(self.X, self.y)

    def track_objective_gap(self, preconditioner):
        ours = MFNClassifier(alpha=LAMBDA, preconditioner=self.pre).fit(self.X, self.y)
        ref = _liblinear(False, 1e-9).fit(self.X, self.y)
        return reference_gap(_objective(ours, self.X, self.ys), _objective(ref, self.X, self.ys))

    track_objective_gap.unit = "relative gap"


class SemiSupervisedTextSuite(Benchmark):
    """TSVM with S = 1, 10, max and MFA on text-like data with 2% labels."""

    param_names = ["method"]
    params = (["tsvm_s1", "tsvm_s10", "tsvm_smax", "mfa"],)

    def setup(self, method):
        n, d = self.sized((3000, 2000), (20000, 5000), (100000, 5000))
        self.X, y_signed = make_sparse_text(n, d, nnz_per_row=50, random_state=1)
        self.y_true = (y_signed > 0).astype(int)  # classes 0/1: -1 marks unlabeled
        rng = np.random.default_rng(0)
        self.y = np.full(n, -1)
        lab = rng.choice(n, max(10, n // 50), replace=False)
        self.y[lab] = self.y_true[lab]
        self.method = method
        self.make().fit(self.X[:300], np.where(np.arange(300) < 10, self.y_true[:300], -1))

    def make(self):
        n = self.X.shape[0]
        return {
            "tsvm_s1": lambda: TSVMClassifier(alpha=LAMBDA, max_switch=1, unlabeled_value=-1),
            "tsvm_s10": lambda: TSVMClassifier(alpha=LAMBDA, max_switch=10, unlabeled_value=-1),
            "tsvm_smax": lambda: TSVMClassifier(alpha=LAMBDA, max_switch=n, unlabeled_value=-1),
            "mfa": lambda: MFAClassifier(alpha=LAMBDA, unlabeled_value=-1),
        }[self.method]()

    def time_fit(self, method):
        self.make().fit(self.X, self.y)

    def track_transductive_error(self, method):
        clf = self.make().fit(self.X, self.y)
        unl = self.y == -1
        return float((clf.transduction_[unl] != self.y_true[unl]).mean())

    track_transductive_error.unit = "error rate"
