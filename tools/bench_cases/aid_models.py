"""AID (aid_models) against the full-data solvers: LAD vs QuantReg / HiGHS, SVM vs libsvm/liblinear.

The value column carries the relative objective gap to the baseline (ours minus
baseline, over the baseline; the paper's Delta), AID's iteration count T, final
aggregation rate r^T, certified optimality gap and stop reason: the columns of the
paper's Tables 2-5. Sizes: quick (seconds) and full (the paper's scale; about 30-40
minutes on 2 cores): LAD n = 200k with m = 10, 100 and n = 1.6M, m = 100 (QuantReg
only up to 200k: it took 331 s at 200k x 100); SVM (C = 0.1) at n = 50k, m = 10 with
SVC(linear) and n = 150k, m = 90 with LinearSVC(hinge, dual) only.

SVM data: svmcore's blob mixture with its default 5% label noise (training accuracy
about 95%), and the paper-like setting with 0.5% label noise: the paper's IBM data is
nearly separable (training rate 99.5% in its Table 10, final r^T of 1-4%).

The full runs take minutes each, so every component is timed once (the baselines are
compiled C; AID's Numba kernels are compiled on a small problem first). Each row is
also printed to stderr as soon as it is measured.
"""

import sys
import time

import numpy as np
from _benchkit import Row

from aid_models import AIDSVC, AIDLADRegressor, lad_lp
from svmcore.datasets import make_blob_mixture, make_lad_set_a
from svmcore.solvers import hinge_objective

from . import REGISTRY

SVM_C = 0.1  # the paper's M for every SVM experiment
QUANTREG_MAX_N = 200_000  # statsmodels' QuantReg takes 331 s at 200k x 100 already
# AID with scikit-learn's liblinear or libsvm on the aggregated problems takes minutes
# at n = 150k (liblinear hits its iteration cap on the heavily weighted aggregated
# problems, the paper's observation, and libsvm then takes over): those runs are capped
# and the stop reason shown.
AID_SKLEARN_TIME_LIMIT = 200.0


def _rel(ours, ref):
    return (float(ours) - float(ref)) / abs(float(ref))


def _aid_value(est, ref):
    return (
        f"{_rel(est.objective_, ref):+.1e} T={est.n_iter_} r^T={est.aggregation_rate_:.2%} "
        f"cert={est.optimality_gap_:.0e} {est.stop_reason_}"
    )


def _once(func):
    start = time.perf_counter()
    result = func()
    return time.perf_counter() - start, result


def _emit(rows, row):
    rows.append(row)
    print(
        f"[aid bench] {row.component} | {row.ours_time:.2f} s vs {row.baseline} "
        f"{row.baseline_time:.2f} s (ratio {row.ratio:.2f}) | {row.value}",
        file=sys.stderr,
        flush=True,
    )


def _warm_up():
    X, y = make_blob_mixture(3000, 5, random_state=1)
    for solver in ("dcd", "libsvm", "liblinear"):
        AIDSVC(C=SVM_C, solver=solver, random_state=0).fit(X, y)
    X, y = make_lad_set_a(3000, 5, random_state=1)
    AIDLADRegressor(random_state=0).fit(X, y)


@REGISTRY.register("aid_lad")
def aid_lad(size):
    try:
        import statsmodels.api as smapi
    except ImportError:  # statsmodels is a reference tool, not a dependency
        smapi = None
    _warm_up()
    cases = {
        "quick": [(20000, 10)],
        "full": [(200000, 10), (200000, 100), (1600000, 100)],
    }[size]
    rows = []
    for n, m in cases:
        X, y = make_lad_set_a(n, m, random_state=0)
        ours_t, est = _once(lambda X=X, y=y: AIDLADRegressor(random_state=0).fit(X, y))
        Xc = np.hstack([X, np.ones((n, 1))])
        highs_t, (_, ref, _, _) = _once(lambda Xc=Xc, y=y: lad_lp(Xc, y))
        label = f"AID-LAD n={n} m={m} (Delta, T, r^T, cert)"
        _emit(
            rows,
            Row(
                label, ours_t, "HiGHS full dual LP", highs_t, "objective gap", _aid_value(est, ref)
            ),
        )
        if smapi is not None and n <= QUANTREG_MAX_N:
            qr_t, qr = _once(lambda Xc=Xc, y=y: smapi.QuantReg(y, Xc).fit(q=0.5))
            qr_obj = float(np.abs(y - Xc @ qr.params).sum())
            _emit(
                rows,
                Row(
                    label,
                    ours_t,
                    "statsmodels QuantReg",
                    qr_t,
                    "objective gap",
                    _aid_value(est, qr_obj),
                ),
            )
        del X, Xc
    return rows


def _svm_rows(rows, n, m, noise, with_svc, sklearn_time_limit=AID_SKLEARN_TIME_LIMIT):
    from sklearn.svm import SVC, LinearSVC

    X, y = make_blob_mixture(n, m, random_state=0, label_noise=noise)
    ys = np.where(y == np.unique(y)[1], 1.0, -1.0)
    tag = f"n={n} m={m} noise={noise:.1%}"

    def objective(w, b):
        return hinge_objective(w, b, X, ys, None, SVM_C)

    lin_t, lin = _once(
        lambda: LinearSVC(C=SVM_C, loss="hinge", dual=True, max_iter=100000, tol=1e-3).fit(X, y)
    )
    lin_obj = objective(lin.coef_[0], lin.intercept_[0])
    lin_name = f"LinearSVC(hinge) n_iter={lin.n_iter_}"
    for solver in ("dcd", "liblinear", "libsvm"):
        limit = sklearn_time_limit if solver != "dcd" and n > 100_000 else None
        aid_t, aid = _once(
            lambda solver=solver, limit=limit: AIDSVC(
                C=SVM_C, solver=solver, time_limit=limit, random_state=0
            ).fit(X, y)
        )
        _emit(
            rows,
            Row(
                f"AID-SVM {solver} {tag}",
                aid_t,
                lin_name,
                lin_t,
                "objective gap",
                _aid_value(aid, lin_obj),
            ),
        )
        if solver == "libsvm" and with_svc:
            svc_t, svc = _once(lambda: SVC(C=SVM_C, kernel="linear").fit(X, y))
            svc_obj = objective(svc.coef_[0], svc.intercept_[0])
            _emit(
                rows,
                Row(
                    f"AID-SVM libsvm {tag}",
                    aid_t,
                    "SVC(linear)",
                    svc_t,
                    "objective gap",
                    _aid_value(aid, svc_obj),
                ),
            )


@REGISTRY.register("aid_svm")
def aid_svm(size):
    _warm_up()
    rows = []
    if size == "quick":
        _svm_rows(rows, 10000, 10, 0.05, with_svc=True)
        return rows
    _svm_rows(rows, 150000, 90, 0.05, with_svc=False)
    _svm_rows(rows, 150000, 90, 0.005, with_svc=False)
    _svm_rows(rows, 50000, 10, 0.05, with_svc=True)
    return rows


@REGISTRY.register("aid_svm_grid")
def aid_svm_grid(size):
    """The issue's grid: n in {50k, 150k} x m in {10, 50, 90}, C = 0.1, 5% label noise.

    Every backend runs uncapped; SVC(linear) only where it ends within the hour on this
    machine (n = 50k, and 150k x 10: 1,432 s). Several hours at full size; quick: 10k x
    {10, 50}.
    """
    _warm_up()
    rows = []
    grid = {"quick": [(10000, 10, True), (10000, 50, True)]}.get(
        size,
        [(50000, m, True) for m in (10, 50, 90)]
        + [(150000, 10, True), (150000, 50, False), (150000, 90, False)],
    )
    for n, m, with_svc in grid:
        _svm_rows(rows, n, m, 0.05, with_svc, sklearn_time_limit=None)
    return rows
