"""LP-SVR (Rivas-Perea & Cota-Ruiz 2013): decompositions vs the full LP; LP-SVR vs SVR.

Noisy sinc (additive Gaussian noise 0.1, x uniform on [-10, 10]), RBF gamma=0.5,
C=1, epsilon=0.1. "decomp": Algorithm 2 ("variables") and Algorithms 2+3 ("full")
against the single HiGHS LP ("none") on the same data: time ratio and relative
objective gap. "vs_svr": LPSVR("variables", warm simplex - the fastest configuration)
against scikit-learn's SVR: time, test MAE on the clean sinc and number of support
vectors (nonzero alphas). Larger N is out of reach: the working set must hold every
sample outside the tube (about a third here), see the package README.
"""

import numpy as np
from _benchkit import Row, measure, relative_gap
from sklearn.svm import SVR

from lpsvr import LPSVR
from svmcore.datasets import make_noisy_sinc

from . import REGISTRY

C, EPSILON, GAMMA = 1.0, 0.1, 0.5
DECOMP_N = {"quick": 500, "full": 2000}
SVR_N = {"quick": 1000, "full": 5000}


def _lpsvr(decomposition, method="ipm"):
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
    rows = []
    for method in ("ipm", "simplex"):
        base_t, base = measure(lambda m=method: _lpsvr("none", m).fit(X, y), repeat=1)
        for dec in ("variables", "full"):
            t, est = measure(lambda d=dec, m=method: _lpsvr(d, m).fit(X, y), repeat=1)
            rows.append(
                Row(
                    f"LPSVR {dec} {method} N={n}",
                    t,
                    f"LPSVR none {method}",
                    base_t,
                    "objective gap; |B| end; nSV",
                    f"{relative_gap(est.objective_, base.objective_):.1e}; "
                    f"{est.history_[-1]['working_set_size']}; {est.support_.size}",
                )
            )
    return rows


@REGISTRY.register("lpsvr_vs_svr")
def lpsvr_vs_svr(size):
    n = SVR_N[size]
    X, y = make_noisy_sinc(n, noise=0.1, random_state=0)
    X_test, y_test = make_noisy_sinc(2000, noise=0.0, random_state=1)
    ours_t, ours = measure(lambda: _lpsvr("variables", "simplex").fit(X, y), repeat=1)
    base_t, base = measure(lambda: SVR(C=C, epsilon=EPSILON, gamma=GAMMA).fit(X, y), repeat=1)
    mae = [np.abs(est.predict(X_test) - y_test).mean() for est in (ours, base)]
    n_sv = [len(est.support_) for est in (ours, base)]
    return [
        Row(
            f"LPSVR variables simplex N={n}",
            ours_t,
            "SVR(rbf)",
            base_t,
            "test MAE (clean sinc); nSV",
            f"{mae[0]:.4f} / {mae[1]:.4f}; {n_sv[0]} / {n_sv[1]}",
        )
    ]
