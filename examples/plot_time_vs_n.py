"""
==================================================
Fit time against the number of samples, per method
==================================================

One panel per method family: the monorepo's estimator and the baseline its users would
pick instead (the baselines of the benchmark suite), fitted on growing synthetic sets.

These are small-n illustrations, sized so that the whole example runs in well under a
minute while the documentation builds, on a machine that may be busy with other work.
At these sizes fixed costs (input validation, Numba dispatch, Python loops around the
solvers) dominate, and the compiled baselines usually win; the methods were designed for
data sets orders of magnitude larger. The measured tables, on large data with the
machine otherwise idle, are in :doc:`/benchmarks`.
"""

# %%
# Timing helper and data
# ----------------------
# Every estimator is fitted once on a small set before the timings, so the Numba
# compilation of its kernels is not counted; each point is the best of two fits
# (AESVC's cache of representative sets is off, so the second fit runs DeriveRS again).
import time

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_blobs, make_moons
from sklearn.svm import SVC, SVR, LinearSVC

from aesvm import AESVC
from aid_models import AIDSVC
from l2svm_mfn import MFNClassifier
from lpsvr import LPSVR
from svmcore.datasets import make_noisy_sinc


def fit_time(make_model, X, y, repeats=2):
    best = np.inf
    for _ in range(repeats):
        model = make_model()
        start = time.perf_counter()
        model.fit(X, y)
        best = min(best, time.perf_counter() - start)
    return best


def linear_data(n):
    return make_blobs(n, centers=[[-1.0, -1.0], [1.0, 1.0]], n_features=2, random_state=0)


def moons(n):
    return make_moons(n, noise=0.2, random_state=0)


def sinc(n):
    return make_noisy_sinc(n, noise=0.1, random_state=0)


#: family -> (data, sizes, (our name, our estimator), (baseline name, baseline))
FAMILIES = {
    "AID (linear SVM)": (
        linear_data,
        [2000, 8000, 32000, 128000],
        ("AIDSVC", lambda: AIDSVC(random_state=0)),
        ('LinearSVC(loss="hinge")', lambda: LinearSVC(loss="hinge", max_iter=100_000)),
    ),
    "AESVM (RBF SVM)": (
        moons,
        [1000, 2000, 4000, 8000, 16000],
        (
            "AESVC",
            lambda: AESVC(
                C=10.0,
                gamma=1.0,
                fallback_fraction=None,
                reuse_representatives=False,
                random_state=0,
            ),
        ),
        ("SVC", lambda: SVC(C=10.0, gamma=1.0)),
    ),
    "L2-SVM-MFN (linear L2-SVM)": (
        linear_data,
        [2000, 8000, 32000, 128000],
        ("MFNClassifier", lambda: MFNClassifier()),
        ("LinearSVC", lambda: LinearSVC()),
    ),
    "LP-SVR (RBF regression)": (
        sinc,
        [200, 400, 800, 1600],
        ("LPSVR", lambda: LPSVR(C=10.0, gamma=0.5, random_state=0)),
        ("SVR", lambda: SVR(C=10.0, gamma=0.5)),
    ),
}

# %%
# The timings
# -----------
results = {}
for family, (data, sizes, ours, baseline) in FAMILIES.items():
    X, y = data(sizes[0])
    ours[1]().fit(X, y)  # warm-up: compiles the Numba code
    results[family] = {
        name: [fit_time(make, *data(n)) for n in sizes] for name, make in (ours, baseline)
    }
    for name, times in results[family].items():
        print(f"{family:>27} {name:>24}: " + "  ".join(f"{t:.3f}" for t in times) + " s")

# %%
# The plot
# --------
fig, axes = plt.subplots(2, 2, figsize=(11, 8))
for ax, (family, (_, sizes, ours, baseline)) in zip(axes.flat, FAMILIES.items(), strict=True):
    for (name, _), style in [(ours, "o-"), (baseline, "s--")]:
        ax.loglog(sizes, results[family][name], style, label=name)
    ax.set_title(family)
    ax.set_xlabel("training samples n")
    ax.set_ylabel("fit time (s)")
    ax.legend()
fig.suptitle("fit time against n (small-n illustration; see the benchmarks page)")
fig.tight_layout()
plt.show()
