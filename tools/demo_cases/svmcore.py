"""svmcore's solver adapters on the default data against scikit-learn."""

import numpy as np
from _benchkit import Row, measure, reference_gap
from sklearn.linear_model import QuantileRegressor
from sklearn.svm import SVC

from svmcore.kernels import gram
from svmcore.solvers import fit_weighted_svm, hinge_objective, solve_lp

from . import REGISTRY

C = 1.0


def _accuracy(scores, y):
    return float(np.mean(np.where(scores >= 0, 1, -1) == y))


@REGISTRY.register("weighted_svm_linear")
def weighted_svm_linear(data, size):
    split = data["breast_cancer"]
    X, y = split.X_train, split.y_train
    ours_t, ours = measure(lambda: fit_weighted_svm(X, y, C=C, kernel="linear"), repeat=1)
    base_t, base = measure(lambda: SVC(kernel="linear", C=C).fit(X, y), repeat=1)
    reference = hinge_objective(base.coef_.ravel(), base.intercept_[0], X, y, None, C)
    acc = _accuracy(split.X_test @ ours.coef + ours.intercept, split.y_test)
    base_acc = base.score(split.X_test, split.y_test)
    return [
        Row(
            "svmcore.fit_weighted_svm linear [breast_cancer]",
            ours_t,
            "SVC(linear)",
            base_t,
            "objective gap",
            f"{reference_gap(ours.objective, reference):.1e}",
            f"{acc:.3f} / {base_acc:.3f}",
        )
    ]


@REGISTRY.register("weighted_svm_rbf")
def weighted_svm_rbf(data, size):
    split = data["blobs"]
    X, y = split.X_train, split.y_train
    gamma = 0.1
    ours_t, ours = measure(lambda: fit_weighted_svm(X, y, C=C, kernel="rbf", gamma=gamma), repeat=1)
    base_t, base = measure(lambda: SVC(kernel="rbf", C=C, gamma=gamma).fit(X, y), repeat=1)
    # SVC's primal: 0.5 a^T Q a + C sum hinge, with a = y_i alpha_i on the support vectors
    sv, coef = base.support_, base.dual_coef_.ravel()
    quad = coef @ gram(X, rows=sv, cols=sv, kernel="rbf", gamma=gamma) @ coef
    hinge = np.maximum(0.0, 1.0 - y * base.decision_function(X)).sum()
    reference = 0.5 * quad + C * hinge
    scores = gram(split.X_test, X, cols=ours.support, kernel="rbf", gamma=gamma)
    scores = scores @ (y[ours.support] * ours.dual_coef[ours.support]) + ours.intercept
    return [
        Row(
            "svmcore.fit_weighted_svm rbf [blobs]",
            ours_t,
            "SVC(rbf)",
            base_t,
            "objective gap",
            f"{reference_gap(ours.objective, reference):.1e}",
            f"{_accuracy(scores, split.y_test):.3f} / {base.score(split.X_test, split.y_test):.3f}",
        )
    ]


@REGISTRY.register("lad_lp")
def lad_lp(data, size):
    """LAD regression as an LP through ``solve_lp`` vs scikit-learn's QuantileRegressor."""
    import scipy.sparse as sp

    split = data["lad_set_a"]
    X, y = split.X_train, split.y_train
    n, d = X.shape
    eye = sp.eye(n, format="csc")
    A_eq = sp.hstack([sp.csc_matrix(X), sp.csc_matrix(np.ones((n, 1))), eye, -eye], "csc")
    c = np.concatenate([np.zeros(d + 1), np.ones(2 * n)])
    bounds = [(None, None)] * (d + 1) + [(0, None)] * (2 * n)
    ours_t, ours = measure(lambda: solve_lp(c, A_eq=A_eq, b_eq=y, bounds=bounds), repeat=1)
    base_t, base = measure(
        lambda: QuantileRegressor(quantile=0.5, alpha=0.0, solver="highs").fit(X, y), repeat=1
    )
    reference = np.abs(y - base.predict(X)).sum()
    return [
        Row(
            "svmcore.solve_lp LAD LP [lad_set_a]",
            ours_t,
            "QuantileRegressor(0.5)",
            base_t,
            "objective gap",
            f"{reference_gap(ours.fun, reference):.1e}",
        )
    ]
