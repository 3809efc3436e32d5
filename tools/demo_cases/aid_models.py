"""AID for LAD regression and the SVM, linear and RBF (Park & Klabjan 2016), vs full solvers."""

import numpy as np
from _benchkit import Row, measure, reference_gap
from sklearn.linear_model import QuantileRegressor
from sklearn.svm import SVC

from aid_models import AIDSVC, AIDLADRegressor
from svmcore.kernels import gram
from svmcore.solvers import hinge_objective

from . import REGISTRY
from ._data import fitted, keep_fit

C, GAMMA = 1.0, 0.1


@REGISTRY.register("aid_lad")
def aid_lad(data, size):
    split = data["lad_set_a"]
    X, y = split.X_train, split.y_train
    ours_t, ours = measure(lambda: AIDLADRegressor(random_state=0).fit(X, y), repeat=1)
    keep_fit(split, "AIDLADRegressor", ours)
    base_t, base = measure(
        lambda: QuantileRegressor(quantile=0.5, alpha=0.0, solver="highs").fit(X, y), repeat=1
    )
    gap = reference_gap(np.abs(y - ours.predict(X)).sum(), np.abs(y - base.predict(X)).sum())
    return [
        Row(
            "AIDLADRegressor [lad_set_a]",
            ours_t,
            "QuantileRegressor(0.5)",
            base_t,
            "objective gap",
            f"{gap:.1e}",
        )
    ]


@REGISTRY.register("aid_svc")
def aid_svc(data, size):
    split = data["blobs"]
    X, y = split.X_train, split.y_train
    ours_t, ours = measure(lambda: AIDSVC(C=C, random_state=0).fit(X, y), repeat=1)
    keep_fit(split, "AIDSVC", ours)
    base_t, base = measure(lambda: SVC(kernel="linear", C=C).fit(X, y), repeat=1)
    objectives = [
        hinge_objective(est.coef_.ravel(), est.intercept_[0], X, y, None, C) for est in (ours, base)
    ]
    acc = f"{ours.score(split.X_test, split.y_test):.3f} / "
    acc += f"{base.score(split.X_test, split.y_test):.3f}"
    return [
        Row(
            "AIDSVC linear [blobs]",
            ours_t,
            "SVC(linear)",
            base_t,
            "objective gap",
            f"{reference_gap(*objectives):.1e}",
            acc,
        )
    ]


def _kernel_objective(estimator, X, y):
    """``1/2 a^T K a + C sum hinge`` with ``a = y alpha`` on the support vectors."""
    a, sv = estimator.dual_coef_[0], estimator.support_vectors_
    quad = a @ gram(sv, kernel="rbf", gamma=GAMMA) @ a
    return 0.5 * quad + C * np.maximum(0.0, 1.0 - y * estimator.decision_function(X)).sum()


@REGISTRY.register("aid_svc_rbf")
def aid_svc_rbf(data, size):
    """Kernel AID (the paper's Appendix B) against libsvm on all rows."""
    split = data["blobs"]
    n = {"quick": 1500, "full": 5000}[size]  # the kernel path costs O(n^2 m) per iteration
    X, y = split.X_train[:n], split.y_train[:n]
    ours_t, ours = measure(
        lambda: AIDSVC(C=C, kernel="rbf", gamma=GAMMA, random_state=0).fit(X, y), repeat=1
    )
    base_t, base = measure(lambda: SVC(kernel="rbf", C=C, gamma=GAMMA).fit(X, y), repeat=1)
    gap = reference_gap(_kernel_objective(ours, X, y), _kernel_objective(base, X, y))
    acc = f"{ours.score(split.X_test, split.y_test):.3f} / "
    acc += f"{base.score(split.X_test, split.y_test):.3f}"
    return [
        Row(
            f"AIDSVC rbf [blobs, n={len(y)}]",
            ours_t,
            "SVC(rbf)",
            base_t,
            "objective gap",
            f"{gap:.1e}",
            acc,
        )
    ]


def _aid_figure(estimator, label, report_dir, filename):
    from ._report import new_figure, save

    history = estimator.history_
    t = history.column("t")
    fig, (objective, rate) = new_figure(2)
    objective.plot(t, history.column("F"), "o-", label="$F^t$ (aggregated)")
    objective.plot(t, history.column("E_best"), "s--", label="$E_{best}$ (original)")
    objective.set(xlabel="iteration t", ylabel="objective", title=f"{label}: convergence")
    objective.legend()
    rate.plot(t, 100 * history.column("r"), "o-")
    rate.set(xlabel="iteration t", ylabel="$r^t = |K^t| / n$ (%)", title="aggregation rate")
    return save(fig, report_dir, filename)


def figures(data, size, report_dir):
    """AID's per-iteration F^t, E_best and r^t (paper's Table 10 columns) for both models."""
    lad_split, svc_split = data["lad_set_a"], data["blobs"]
    lad = fitted(
        lad_split,
        "AIDLADRegressor",
        lambda: AIDLADRegressor(random_state=0).fit(lad_split.X_train, lad_split.y_train),
    )
    svc = fitted(
        svc_split,
        "AIDSVC newton",
        # solver="newton": AID's loop (at the quick size "auto" solves the problem directly)
        lambda: AIDSVC(C=C, solver="newton", random_state=0).fit(
            svc_split.X_train, svc_split.y_train
        ),
    )
    return [
        (
            "AIDLADRegressor [lad_set_a]: F^t, E_best and r^t per iteration",
            _aid_figure(lad, "AID LAD", report_dir, "aid_lad_convergence.png"),
        ),
        (
            "AIDSVC linear [blobs]: F^t, E_best and r^t per iteration",
            _aid_figure(svc, "AID SVM", report_dir, "aid_svc_convergence.png"),
        ),
    ]
