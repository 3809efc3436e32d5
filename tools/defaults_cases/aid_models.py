"""AID estimators at their defaults against what their users would pick instead.

``AIDSVC()`` (linear, C = 1) against ``LinearSVC(loss="hinge")`` (liblinear's dual CD on
the same hinge-loss problem, C = 1, scikit-learn's default iteration cap) and, where it
ends in minutes, ``SVC(kernel="linear")`` (libsvm); value: our objective's relative gap
to the baseline's (negative: ours is lower) and AID's certified optimality gap. Every
classification set of the suite.

``AIDLADRegressor()`` against statsmodels' ``QuantReg`` at the median (its defaults) and,
on the low-dimensional and the sparse sets, scikit-learn's
``QuantileRegressor(alpha=0, solver="highs")`` (the only baseline of the sparse text:
QuantReg takes dense arrays, and on the densified 20k x 1,000 text it ran past 10
minutes); value:
relative gap of the sum of absolute residuals, accuracy column: test MAE ours / base.
"""

import warnings

import numpy as np
import scipy.sparse as sp
from _benchkit import QuantRegMedian, Row
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import QuantileRegressor
from sklearn.svm import SVC, LinearSVC

from aid_models import AIDSVC, AIDLADRegressor
from svmcore.solvers import hinge_objective

from . import REGISTRY
from ._suite import classification_suite, lad_suite
from ._timing import label, timed_fit

#: SVC(kernel="linear") is O(n^2)-O(n^3): run only up to this many training rows.
SVC_MAX_N = {"quick": 6_000, "full": 40_000}


def _hinge(est, split):
    y = np.where(split.y == est.classes_[1], 1.0, -1.0)
    return hinge_objective(est.coef_[0], est.intercept_[0], split.X, y, None, 1.0)


def _rel(ours, base):
    return (ours - base) / abs(base)


@REGISTRY.register("aid_svc")
def aid_svc(size):
    rows = []
    for split in classification_suite(size):
        ours_t, ours = timed_fit(lambda: AIDSVC(random_state=0), split.X, split.y)
        obj = _hinge(ours, split)
        acc = ours.score(split.X_test, split.y_test)
        baselines = [("LinearSVC(hinge)", lambda: LinearSVC(loss="hinge", random_state=0))]
        if split.X.shape[0] <= SVC_MAX_N[size]:
            baselines.append(("SVC(linear)", lambda: SVC(kernel="linear")))
        for name, make in baselines:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", ConvergenceWarning)
                base_t, base = timed_fit(make, split.X, split.y, warm_rows=0)
            capped = any(issubclass(w.category, ConvergenceWarning) for w in caught)
            rows.append(
                Row(
                    component=label(f"AIDSVC() solver_={ours.solver_}", split),
                    ours_time=ours_t,
                    baseline=name + (" (hit max_iter)" if capped else ""),
                    baseline_time=base_t,
                    check="obj gap, cert",
                    value=f"{_rel(obj, _hinge(base, split)):+.1e} cert={ours.optimality_gap_:.0e}",
                    accuracy=f"{acc:.4f} / {base.score(split.X_test, split.y_test):.4f}",
                )
            )
    return rows


def _sad(model, split):
    return np.abs(split.y - model.predict(split.X)).sum()


def _mae(model, split):
    return np.abs(split.y_test - model.predict(split.X_test)).mean()


@REGISTRY.register("aid_lad")
def aid_lad(size):
    rows = []
    for split in lad_suite(size):
        ours_t, ours = timed_fit(lambda: AIDLADRegressor(random_state=0), split.X, split.y)
        # QuantReg is dense only: on the sparse text its IRLS (a 20k x 1,001 least squares
        # per iteration) ran past 10 minutes; a user with sparse data takes HiGHS
        baselines = [] if sp.issparse(split.X) else [("statsmodels QuantReg", QuantRegMedian)]
        # HiGHS's LP takes 10 minutes at 50k x 100 dense; it keeps sparse X sparse
        if split.X.shape[1] <= 10 or sp.issparse(split.X):
            baselines.append(
                (
                    "QuantileRegressor(highs)",
                    lambda: QuantileRegressor(quantile=0.5, alpha=0.0, solver="highs"),
                )
            )

        for name, make in baselines:
            base_t, base = timed_fit(make, split.X, split.y, warm_rows=0)
            rows.append(
                Row(
                    component=label("AIDLADRegressor()", split),
                    ours_time=ours_t,
                    baseline=name,
                    baseline_time=base_t,
                    check="SAD gap, cert",
                    value=(
                        f"{_rel(_sad(ours, split), _sad(base, split)):+.1e} "
                        f"cert={ours.optimality_gap_:.0e}"
                    ),
                    accuracy=f"MAE {_mae(ours, split):.4f} / {_mae(base, split):.4f}",
                )
            )
    return rows
