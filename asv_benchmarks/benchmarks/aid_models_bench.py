"""AID for LAD regression and the SVM (Park & Klabjan 2016) against the full-data solvers.

``time_fit``/``peakmem_fit`` time the whole AID run; ``track_objective_gap`` is the
relative gap of AID's answer on the original data against an independent exact solver on
all of it, so a speed-up cannot silently change the answer:

- LAD: ``sum |y - X beta|`` at AID's ``beta`` against the HiGHS dual LP on all rows
  (:func:`aid_models.lad_lp`, the proven optimum);
- SVM (linear): the hinge primal (7) at AID's ``(w, b)`` against ``SVC(kernel="linear")``
  (both through :func:`svmcore.solvers.hinge_objective`);
- SVM (rbf): ``1/2 a^T K a + C sum hinge`` at both solutions (``a = y alpha`` on the
  support vectors) against ``SVC(kernel="rbf")``.

The reference SVCs run at libsvm's default ``tol=1e-3``, so a gap slightly below 0 means
AID found the lower objective. ``track_test_score`` is R^2 (LAD) or accuracy (SVM) on a
held-out quarter. C = 0.1 is the paper's M for every SVM experiment. Numba code is
compiled in ``setup`` by a fit on the first rows.
"""

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC

from aid_models import AIDSVC, AIDLADRegressor, lad_lp
from svmcore.datasets import make_blob_mixture, make_lad_set_a
from svmcore.kernels import gram
from svmcore.solvers import hinge_objective

from .common import Benchmark, Estimator, ObjectiveGap, Predictor, reference_gap

C, GAMMA = 0.1, 0.1


def _split(X, y):
    X, X_val, y, y_val = train_test_split(X, y, test_size=0.25, random_state=0)
    return X, X_val, y, y_val


class _WarmUpOnRows:
    """Compile in ``setup`` on enough rows to reach AID's aggregated solver and declustering."""

    warm_up_rows = 2000

    def warm_up(self, params):
        X, _, y, _ = self.make_data(params)
        n = min(len(y), self.warm_up_rows)
        self.make_estimator(params).fit(X[:n], y[:n])


class AIDLADBenchmark(_WarmUpOnRows, Predictor, ObjectiveGap, Estimator, Benchmark):
    """``AIDLADRegressor`` on the paper's data set A (Laplace noise) vs the HiGHS LAD LP."""

    param_names = ["n_features"]
    params = ([10],)

    def make_data(self, params):
        (m,) = params
        n = self.sized(20000, 100000, 200000)
        X, y = make_lad_set_a(n, m, random_state=0)
        return _split(X, y)

    def make_estimator(self, params):
        return AIDLADRegressor(random_state=0)

    def objective_gap(self, estimator, params):
        X, y = self.X, self.y
        Xc = np.hstack([X, np.ones((X.shape[0], 1))])
        reference = lad_lp(Xc, y)[1]
        ours = np.abs(y - estimator.predict(X)).sum()
        return reference_gap(ours, reference)


class AIDSVCBenchmark(_WarmUpOnRows, Predictor, ObjectiveGap, Estimator, Benchmark):
    """``AIDSVC(kernel)`` on a Gaussian blob mixture vs ``SVC(kernel)`` on all rows."""

    param_names = ["kernel"]
    params = (["linear", "rbf"],)

    def make_data(self, params):
        (kernel,) = params
        if kernel == "linear":
            n = self.sized(5000, 20000, 50000)
        else:  # the kernel path costs O(n^2 m) per iteration (the paper's Appendix B)
            n = self.sized(1000, 3000, 10000)
        X, y = make_blob_mixture(n, 10, random_state=0)
        return _split(X, y)

    def warm_up(self, params):
        self.warm_up_rows = 2000 if params[0] == "linear" else 300
        super().warm_up(params)

    def make_estimator(self, params):
        (kernel,) = params
        if kernel == "linear":
            return AIDSVC(C=C, random_state=0)
        return AIDSVC(C=C, kernel=kernel, gamma=GAMMA, random_state=0)

    def _kernel_objective(self, decision, dual_coef, support_vectors):
        quad = dual_coef @ gram(support_vectors, kernel="rbf", gamma=GAMMA) @ dual_coef
        return 0.5 * quad + C * np.maximum(0.0, 1.0 - self.y * decision).sum()

    def objective_gap(self, estimator, params):
        (kernel,) = params
        X, y = self.X, self.y
        if kernel == "linear":
            reference = SVC(kernel="linear", C=C).fit(X, y)
            ours, theirs = (
                hinge_objective(est.coef_.ravel(), est.intercept_[0], X, y, None, C)
                for est in (estimator, reference)
            )
        else:
            reference = SVC(kernel="rbf", C=C, gamma=GAMMA).fit(X, y)
            ours, theirs = (
                self._kernel_objective(
                    est.decision_function(X), est.dual_coef_[0], est.support_vectors_
                )
                for est in (estimator, reference)
            )
        return reference_gap(ours, theirs)
