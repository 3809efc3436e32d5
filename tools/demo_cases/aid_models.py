"""AID for LAD regression and the linear SVM (Park & Klabjan 2016) against the full solvers."""

import numpy as np
from _benchkit import Row, measure, relative_gap
from sklearn.linear_model import QuantileRegressor
from sklearn.svm import SVC

from aid_models import AIDSVC, AIDLADRegressor
from svmcore.solvers import hinge_objective

from . import REGISTRY

C = 1.0


@REGISTRY.register("aid_lad")
def aid_lad(data, size):
    split = data["lad_set_a"]
    X, y = split.X_train, split.y_train
    ours_t, ours = measure(lambda: AIDLADRegressor(random_state=0).fit(X, y), repeat=1)
    base_t, base = measure(
        lambda: QuantileRegressor(quantile=0.5, alpha=0.0, solver="highs").fit(X, y), repeat=1
    )
    gap = relative_gap(np.abs(y - ours.predict(X)).sum(), np.abs(y - base.predict(X)).sum())
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
            f"{relative_gap(*objectives):.1e}",
            acc,
        )
    ]
