"""AID (aid_models) against the full-data solvers: LAD vs QuantReg / HiGHS, SVM vs libsvm/liblinear.

The value column carries the relative objective gap to the baseline (ours minus
baseline, over the baseline), AID's iteration count T, final aggregation rate r^T and
certified optimality gap. Sizes: quick (seconds) and full (the issue's n = 200k LAD and
n = 50k SVM; minutes).
"""

import numpy as np
from _benchkit import Row, measure

from aid_models import AIDSVC, AIDLADRegressor, lad_lp
from svmcore.datasets import make_blob_mixture, make_lad_set_a
from svmcore.solvers import hinge_objective

from . import REGISTRY

SVM_C = 0.1  # the paper's M for every SVM experiment


def _rel(ours, ref):
    return (float(ours) - float(ref)) / abs(float(ref))


def _aid_value(est, ref):
    return (
        f"{_rel(est.objective_, ref):+.1e} T={est.n_iter_} r^T={est.aggregation_rate_:.2%} "
        f"cert={est.optimality_gap_:.0e}"
    )


@REGISTRY.register("aid_lad")
def aid_lad(size):
    try:
        import statsmodels.api as smapi
    except ImportError:  # statsmodels is a reference tool, not a dependency
        smapi = None
    cases = {"quick": [(20000, 10)], "full": [(200000, 10), (200000, 100)]}[size]
    rows = []
    for n, m in cases:
        X, y = make_lad_set_a(n, m, random_state=0)
        Xc = np.hstack([X, np.ones((n, 1))])
        ours_t, est = measure(lambda X=X, y=y: AIDLADRegressor(random_state=0).fit(X, y), repeat=1)
        highs_t, (_, ref, _, _) = measure(lambda Xc=Xc, y=y: lad_lp(Xc, y), repeat=1)
        label = f"AID-LAD n={n} m={m} (objective gap, T, r^T, cert)"
        rows.append(
            Row(label, ours_t, "HiGHS full dual LP", highs_t, "objective gap", _aid_value(est, ref))
        )
        if smapi is not None:
            qr_t, qr = measure(lambda Xc=Xc, y=y: smapi.QuantReg(y, Xc).fit(q=0.5), repeat=1)
            qr_obj = float(np.abs(y - Xc @ qr.params).sum())
            rows.append(
                Row(
                    label,
                    ours_t,
                    "statsmodels QuantReg",
                    qr_t,
                    "objective gap",
                    _aid_value(est, qr_obj),
                )
            )
    return rows


@REGISTRY.register("aid_svm")
def aid_svm(size):
    from sklearn.svm import SVC, LinearSVC

    n, m = {"quick": (10000, 10), "full": (50000, 10)}[size]
    X, y = make_blob_mixture(n, m, random_state=0)
    ys = np.where(y == np.unique(y)[1], 1.0, -1.0)
    rows = []

    def objective(w, b):
        return hinge_objective(w, b, X, ys, None, SVM_C)

    lin_t, lin = measure(
        lambda: LinearSVC(C=SVM_C, loss="hinge", dual=True, max_iter=100000, tol=1e-3).fit(X, y),
        repeat=1,
    )
    lin_obj = objective(lin.coef_[0], lin.intercept_[0])
    aid_ll_t, aid_ll = measure(
        lambda: AIDSVC(C=SVM_C, solver="liblinear", random_state=0).fit(X, y), repeat=1
    )
    rows.append(
        Row(
            f"AID-SVM liblinear n={n} m={m}",
            aid_ll_t,
            "LinearSVC(hinge)",
            lin_t,
            "objective gap",
            _aid_value(aid_ll, lin_obj),
        )
    )
    svc_t, svc = measure(lambda: SVC(C=SVM_C, kernel="linear").fit(X, y), repeat=1)
    svc_obj = objective(svc.coef_[0], svc.intercept_[0])
    aid_t, aid = measure(
        lambda: AIDSVC(C=SVM_C, solver="libsvm", random_state=0).fit(X, y), repeat=1
    )
    rows.append(
        Row(
            f"AID-SVM libsvm n={n} m={m}",
            aid_t,
            "SVC(linear)",
            svc_t,
            "objective gap",
            _aid_value(aid, svc_obj),
        )
    )
    return rows
