"""AESVM against LIBSVM (SVC) over a small (C, gamma) grid: sec. 5.3's metrics, Tables 2/4 style.

For each data set the representative set is derived once per gamma (timed as T_X*) and
reused for every C, as in the paper's grid search (OTS); ETS uses the SVM training times
alone. Features are min-max scaled to [0, 1] (libsvm's habit) so that the paper's gamma
grid means the same on every set. C is scikit-learn's, i.e. the paper's C' = C/N.
"""

import time

import numpy as np
from _benchkit import Row
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import SVC

from aesvm import AESVC, comparison_metrics, derive_rs
from svmcore.datasets import make_blob_mixture

from . import REGISTRY

C_GRID = (2.0**-2, 1.0, 2.0**2, 2.0**4)
GAMMA_GRID = (2.0**-2, 1.0, 2.0**2)


def _data(name, n, seed=0):
    """Blob mixtures: 10-d (the issue's blobs) and 3-d (low-dimensional like D2/D3)."""
    n_features = {"blobs10": 10, "blobs3": 3}[name]
    X, y = make_blob_mixture(2 * n, n_features, label_noise=0.05, random_state=seed)
    scaler = MinMaxScaler().fit(X[:n])
    return scaler.transform(X[:n]), y[:n], scaler.transform(X[n:]), y[n:]


def grid_comparison(name, n, c_grid=C_GRID, gamma_grid=GAMMA_GRID):
    """Rows of per-grid-point results and the metrics dict for one data set."""
    X, y, X_test, y_test = _data(name, n)
    acc_ref, acc, t_ref, t, nsv_ref, nsv, m_over_n = [], [], [], [], [], [], {}
    t_rep = 0.0
    for gamma in gamma_grid:
        start = time.perf_counter()
        rs = derive_rs(X, y, gamma=gamma)
        t_rep += time.perf_counter() - start
        m_over_n[gamma] = rs.n_representatives / n
        for C in c_grid:
            start = time.perf_counter()
            svc = SVC(C=C, gamma=gamma).fit(X, y)
            t_ref.append(time.perf_counter() - start)
            clf = AESVC(C=C, gamma=gamma).fit(X, y)  # representative set from the cache
            t.append(clf.svm_time_)
            acc_ref.append(svc.score(X_test, y_test))
            acc.append(clf.score(X_test, y_test))
            nsv_ref.append(svc.support_.size)
            nsv.append(max(clf.support_.size, 1))
    metrics = comparison_metrics(acc_ref, acc, t_ref, t, nsv_ref, nsv, representative_time=t_rep)
    totals = (sum(t) + t_rep, sum(t_ref))
    return metrics, m_over_n, totals, (np.mean(acc), np.mean(acc_ref))


@REGISTRY.register("aesvm_grid")
def aesvm_grid(size):
    n = {"quick": 3000, "full": 35000}[size]
    rows = []
    for name in ("blobs3", "blobs10"):
        # warm-up: Numba compilation is not part of the comparison
        X, y, _, _ = _data(name, 300)
        AESVC(group_size=50, subset_size=100, reuse_representatives=False).fit(X, y)
        metrics, m_over_n, (ours, base), (acc, acc_ref) = grid_comparison(name, n)
        mn = " ".join(f"g={g:g}:{v:.2f}" for g, v in m_over_n.items())
        value = " ".join(f"{k}={v:.3g}" for k, v in metrics.items())
        value += f" M/N {mn} mean acc {acc:.3f}/{acc_ref:.3f}"
        rows.append(
            Row(
                f"AESVC grid {len(C_GRID)}x{len(GAMMA_GRID)} [{name}, n={n}]",
                ours,
                "SVC same grid",
                base,
                "sec. 5.3 metrics",
                value,
                f"{acc:.3f} / {acc_ref:.3f}",
            )
        )
    return rows
