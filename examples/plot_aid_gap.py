"""
===================================================
AID: clusters split while the optimality gap closes
===================================================

Aggregate and Iterative Disaggregate (AID, Park & Klabjan 2016) solves a linear SVM on
cluster centroids instead of the samples. After each aggregated solve it checks every
cluster: a cluster whose members lie on different sides of the margin is split by that
side. The aggregated optimum is a certified lower bound on the full optimum and the
aggregated solution, evaluated on all samples, an upper bound, so the relative gap
between them tells how far from optimal the current model can be.

This example fits :class:`aid_models.AIDSVC` on 4,000 two-dimensional samples, records
every iteration through ``history_`` (the columns the ``verbose`` table prints) and every
partition through ``callback``, draws the clusters at three iterations, and compares the
final boundary with the one of scikit-learn's ``SVC(kernel="linear")`` on all samples.
"""

# %%
# Data and the two fits
# ---------------------
# Two overlapping Gaussian classes: many samples sit inside the margin, so AID has to
# split clusters near the boundary while the clusters far from it stay whole.
import time

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_blobs
from sklearn.svm import SVC

from aid_models import AIDSVC

X, y = make_blobs(
    n_samples=4000, centers=[[-1.0, -1.0], [1.0, 1.0]], cluster_std=1.1, random_state=0
)

# The callback receives every iteration's partition: keep the cluster label of each
# sample (a copy, the run goes on with new clusters).
partitions = []


def keep_partition(record):
    partitions.append(record["clusters"].labels.copy())


start = time.perf_counter()
aid = AIDSVC(C=1.0, gap_tol=1e-4, random_state=0, callback=keep_partition).fit(X, y)
aid_time = time.perf_counter() - start

start = time.perf_counter()
svc = SVC(kernel="linear", C=1.0).fit(X, y)
svc_time = time.perf_counter() - start

print(f"AID: {aid.n_iter_} iterations, stop reason {aid.stop_reason_!r}, {aid_time:.2f} s")
print(f"SVC on all samples: {svc_time:.2f} s")
print(f"AID objective {aid.objective_:.4f}, certified lower bound {aid.lower_bound_:.4f}")

# %%
# The iterations
# --------------
# ``history_`` holds one record per aggregated problem; ``column`` reads one field of
# every record. The number of clusters grows only where the margin cuts through a
# cluster, and the gap falls by orders of magnitude in a few iterations.
history = aid.history_
iterations = history.column("t")
n_clusters = history.column("n_clusters")
gap = history.column("gap")
print(history.to_table())

fig, axes = plt.subplots(1, 3, figsize=(13, 4))

ax = axes[0]
ax.bar(iterations, n_clusters, color="tab:blue")
ax.set_xlabel("iteration t")
ax.set_ylabel("clusters |K^t|")
ax.set_title(f"clusters per iteration (of {len(X)} samples)")

ax = axes[1]
ax.semilogy(iterations, gap, "o-", color="tab:red")
ax.axhline(aid.gap_tol, color="grey", linestyle="--", label="gap_tol")
ax.set_xlabel("iteration t")
ax.set_ylabel("relative gap (E_best - F) / E_best")
ax.set_title("optimality gap")
ax.legend()

ax = axes[2]
ax.scatter(X[:, 0], X[:, 1], c=y, cmap="coolwarm", s=4, alpha=0.4)
xs = np.linspace(X[:, 0].min(), X[:, 0].max(), 2)
for model, style, name in [(svc, "k-", "SVC (all samples)"), (aid, "g--", "AIDSVC")]:
    (w0, w1), b = model.coef_[0], model.intercept_[0]
    ax.plot(xs, -(w0 * xs + b) / w1, style, linewidth=2, label=name)
ax.set_ylim(X[:, 1].min(), X[:, 1].max())
ax.set_title("decision boundaries")
ax.legend(loc="lower right")

fig.tight_layout()
plt.show()

# %%
# The clusters themselves
# -----------------------
# The partitions at three iterations: each colour is one cluster (colours repeat), each
# cross its centroid, the aggregated sample the solver sees. Clusters far from the
# boundary stay whole; the ones the margin cuts through are split again and again.
steps = sorted({0, len(partitions) // 2, len(partitions) - 1})
fig, axes = plt.subplots(1, len(steps), figsize=(4.3 * len(steps), 4), sharey=True)
for ax, t in zip(np.atleast_1d(axes), steps, strict=True):
    labels = partitions[t]
    k = labels.max() + 1
    counts = np.bincount(labels, minlength=k)
    centres = np.stack([np.bincount(labels, weights=X[:, j], minlength=k) for j in (0, 1)])
    centres = (centres / np.maximum(counts, 1)).T
    ax.scatter(X[:, 0], X[:, 1], c=labels % 20, cmap="tab20", s=3)
    ax.scatter(centres[:, 0], centres[:, 1], marker="x", c="k", s=25)
    (w0, w1), b = aid.coef_[0], aid.intercept_[0]
    ax.plot(xs, -(w0 * xs + b) / w1, "k-", linewidth=1)
    ax.set_ylim(X[:, 1].min(), X[:, 1].max())
    ax.set_title(f"iteration {t}: {k} clusters")
fig.tight_layout()
plt.show()
