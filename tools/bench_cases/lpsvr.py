"""LP-SVR (Rivas-Perea & Cota-Ruiz 2013): decompositions vs the full LP; LP-SVR vs SVR / SVC.

Noisy sinc (additive Gaussian noise 0.1, x uniform on [-10, 10]), RBF gamma=0.5, C=1,
epsilon=0.1 (the paper's section 5 states no values: they were tuned per data set).
"lpsvr_decomp": "row_column" (separate row and column generation, not in the paper),
Algorithm 2 ("variables", warm simplex) and, at the quick size, Algorithms 2+3 ("full")
against the single HiGHS LP ("none") on the same data: time ratio and relative objective
gap. "lpsvr_vs_svr": LPSVR("row_column") against scikit-learn's SVR with the same C,
epsilon and kernel: time, test MAE on the clean sinc and number of support vectors
(nonzero alphas); "none" needs the N x N kernel and is only run in "lpsvr_decomp".
"lpsvc_vs_svc": LPSVC("row_column", +-1 regression, one-vs-rest) against SVC on two
bundled real data sets (breast_cancer: binary; wine: 3 classes; standardized, stratified
70/30 split): test accuracy. (digits, 10 classes x 1257 samples, takes ~250 s here: ten
LPs whose ~170 nonzero alphas each need ~60 column-generation rounds.)
"""

import numpy as np
from _benchkit import Row, measure, reference_gap
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC, SVR

from lpsvr import LPSVC, LPSVR
from svmcore.datasets import load_bundled, make_noisy_sinc

from . import REGISTRY

C, EPSILON, GAMMA = 1.0, 0.1, 0.5
DECOMP_N = {"quick": 500, "full": 2000}
# (decomposition, method) compared with "none" (same method) per size
DECOMP_RUNS = {
    "quick": [
        ("row_column", "simplex"),
        ("variables", "simplex"),
        ("full", "simplex"),
        ("variables", "ipm"),
    ],
    "full": [("row_column", "simplex"), ("variables", "simplex")],
}
SVR_N = {"quick": [2000], "full": [20000, 100000]}


def _lpsvr(decomposition, method="simplex"):
    return LPSVR(
        C=C,
        epsilon=EPSILON,
        gamma=GAMMA,
        decomposition=decomposition,
        method=method,
        random_state=0,
    )


@REGISTRY.register("lpsvr_decomp")
def decompositions_vs_full_lp(size):
    n = DECOMP_N[size]
    X, y = make_noisy_sinc(n, noise=0.1, random_state=0)
    _lpsvr("row_column").fit(X[:200], y[:200])  # load the JIT-compiled kernels once
    rows = []
    base = {}
    for dec, method in DECOMP_RUNS[size]:
        if method not in base:
            base[method] = measure(lambda m=method: _lpsvr("none", m).fit(X, y), repeat=1)
        base_t, ref = base[method]
        t, est = measure(lambda d=dec, m=method: _lpsvr(d, m).fit(X, y), repeat=1)
        rows.append(
            Row(
                f"LPSVR {dec} {method} N={n}",
                t,
                f"LPSVR none {method}",
                base_t,
                "objective gap; rounds; nSV",
                f"{reference_gap(est.objective_, ref.objective_):.1e}; "
                f"{est.n_iter_}; {est.support_.size}",
            )
        )
    return rows


@REGISTRY.register("lpsvr_vs_svr")
def lpsvr_vs_svr(size):
    X_test, y_test = make_noisy_sinc(2000, noise=0.0, random_state=1)
    rows = []
    for n in SVR_N[size]:
        X, y = make_noisy_sinc(n, noise=0.1, random_state=0)
        ours_t, ours = measure(lambda X=X, y=y: _lpsvr("row_column").fit(X, y), repeat=1)
        base_t, base = measure(
            lambda X=X, y=y: SVR(C=C, epsilon=EPSILON, gamma=GAMMA).fit(X, y), repeat=1
        )
        mae = [np.abs(est.predict(X_test) - y_test).mean() for est in (ours, base)]
        n_sv = [len(est.support_) for est in (ours, base)]
        rows.append(
            Row(
                f"LPSVR row_column N={n}",
                ours_t,
                "SVR(rbf)",
                base_t,
                "test MAE (clean sinc); nSV",
                f"{mae[0]:.4f} / {mae[1]:.4f}; {n_sv[0]} / {n_sv[1]}",
            )
        )
    return rows


@REGISTRY.register("lpsvc_vs_svc")
def lpsvc_vs_svc(size):
    rows = []
    for name in ("breast_cancer", "wine"):
        X, y = load_bundled(name)
        X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
        mean, std = X_tr.mean(0), X_tr.std(0)
        std[std == 0] = 1.0
        X_tr, X_te = (X_tr - mean) / std, (X_te - mean) / std
        ours_t, ours = measure(
            lambda X=X_tr, y=y_tr: LPSVC(
                C=C, epsilon=EPSILON, decomposition="row_column", random_state=0
            ).fit(X, y),
            repeat=1,
        )
        base_t, base = measure(lambda X=X_tr, y=y_tr: SVC(C=C).fit(X, y), repeat=1)
        acc = [est.score(X_te, y_te) for est in (ours, base)]
        n_sv = [sum(r.support_.size for r in ours.estimators_), base.support_.size]
        rows.append(
            Row(
                f"LPSVC row_column {name} ({X.shape[0]}x{X.shape[1]})",
                ours_t,
                "SVC(rbf)",
                base_t,
                "test accuracy; nonzero alphas (all models) / nSV",
                f"{acc[0]:.3f} / {acc[1]:.3f}; {n_sv[0]} / {n_sv[1]}",
                accuracy=f"{acc[0]:.3f} / {acc[1]:.3f}",
            )
        )
    return rows
