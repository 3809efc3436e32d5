"""L2-SVM-MFN (Sindhwani & Keerthi 2006) against liblinear's squared-hinge primal solver."""

import numpy as np
import scipy.sparse as sp
from _benchkit import Row, measure, reference_gap
from sklearn.svm import LinearSVC

from l2svm_mfn import MFAClassifier, MFNClassifier, TSVMClassifier

from . import REGISTRY
from ._data import fitted, hide_labels, keep_fit

ALPHA = 1.0


def _objective(w, b, X, y):
    """``alpha/2 (||w||^2 + b^2) + 1/2 sum max(0, 1 - y (Xw + b))^2`` (bias regularized)."""
    margin = np.maximum(0.0, 1.0 - y * (X @ w + b))
    return 0.5 * ALPHA * (w @ w + b * b) + 0.5 * margin @ margin


@REGISTRY.register("mfn")
def mfn_vs_liblinear(data, size):
    rows = []
    for name in ("breast_cancer", "sparse_text"):
        split = data[name]
        X, y = split.X_train, split.y_train
        ours_t, ours = measure(lambda X=X, y=y: MFNClassifier(alpha=ALPHA).fit(X, y), repeat=1)
        # MFNClassifier(alpha) is LinearSVC(squared hinge, C=1/(2 alpha)) with the bias
        # regularized as liblinear does with intercept_scaling=1
        base_t, base = measure(
            lambda X=X, y=y: LinearSVC(
                C=1 / (2 * ALPHA),
                loss="squared_hinge",
                dual=not sp.issparse(X),
                tol=1e-8,
                max_iter=100000,
            ).fit(X, y),
            repeat=1,
        )
        gap = reference_gap(
            _objective(ours.coef_.ravel(), ours.intercept_[0], X, y),
            _objective(base.coef_.ravel(), base.intercept_[0], X, y),
        )
        acc = f"{ours.score(split.X_test, split.y_test):.3f} / "
        acc += f"{base.score(split.X_test, split.y_test):.3f}"
        rows.append(
            Row(
                f"MFNClassifier [{name}]",
                ours_t,
                "LinearSVC(sq. hinge)",
                base_t,
                "objective gap",
                f"{gap:.1e}",
                acc,
            )
        )
    return rows


@REGISTRY.register("semi_supervised")
def semi_supervised(data, size):
    """TSVM and MFA on a g241c-style set with few labels vs MFN on the labeled samples only."""
    split = data["g241c"]
    X, y_semi = split.X_train, hide_labels(split.y_train, 50)
    labeled = y_semi != -1
    base_t, base = measure(
        lambda: MFNClassifier(alpha=ALPHA).fit(X[labeled], y_semi[labeled]), repeat=1
    )
    base_acc = base.score(split.X_test, split.y_test)
    rows = []
    for estimator in (TSVMClassifier(unlabeled_value=-1), MFAClassifier(unlabeled_value=-1)):
        ours_t, ours = measure(lambda estimator=estimator: estimator.fit(X, y_semi), repeat=1)
        keep_fit(split, type(ours).__name__, ours)
        acc = f"{ours.score(split.X_test, split.y_test):.3f} / {base_acc:.3f}"
        rows.append(
            Row(
                f"{type(ours).__name__} [g241c, 50 labels]",
                ours_t,
                "MFN on labeled only",
                base_t,
                "-",
                "-",
                acc,
            )
        )
    return rows


def figures(data, size, report_dir):
    """MFA's objective (18) against the temperature T on the semi-supervised split."""
    from ._report import new_figure, save

    split = data["g241c"]
    mfa = fitted(
        split,
        "MFAClassifier",
        lambda: MFAClassifier(unlabeled_value=-1).fit(
            split.X_train, hide_labels(split.y_train, 50)
        ),
    )
    T = np.array([rec["T"] for rec in mfa.history_])
    objective = np.array([rec["objective"] for rec in mfa.history_])
    last = np.r_[T[1:] != T[:-1], True]  # the converged inner iteration of each T
    fig, (ax,) = new_figure()
    ax.plot(T, objective, ".", color="0.6", label="inner iterations")
    ax.plot(T[last], objective[last], "o-", label="end of each T")
    ax.set_xscale("log")
    ax.invert_xaxis()  # annealing runs from high to low temperature
    ax.set(xlabel="temperature T (decreasing)", ylabel="objective (18)")
    ax.set_title("MFA [g241c, 50 labels]")
    ax.legend()
    return [
        (
            "MFAClassifier [g241c, 50 labels]: objective vs temperature",
            save(fig, report_dir, "mfa_objective_vs_temperature.png"),
        )
    ]
