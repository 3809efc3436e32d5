"""
===========================================================
DeriveRS representatives and AESVM's boundary against SVC's
===========================================================

AESVM (Nandan, Khargonekar & Talathi, JMLR 2014) trains a kernel SVM on a weighted
subset of the data, the *representative set* that DeriveRS selects: every sample is
approximately a convex combination of representatives in the kernel's feature space (to
within ``epsilon``), and each representative carries the weight ``beta`` of the samples
it stands for.

This example fits :class:`aesvm.AESVC` on 3,000 two-dimensional samples (two
interleaving half moons with noise), shows which samples DeriveRS kept, with marker size
proportional to their weight, and compares its decision boundary with the one of
scikit-learn's ``SVC`` trained on all samples with the same ``C`` and ``gamma``.
"""

# %%
# The two fits
# ------------
import time

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_moons
from sklearn.svm import SVC

from aesvm import AESVC

X, y = make_moons(n_samples=3000, noise=0.2, random_state=0)
params = {"C": 10.0, "kernel": "rbf", "gamma": 1.0}

start = time.perf_counter()
# fallback_fraction=None: always train on the representatives (the default falls back to
# all samples when DeriveRS would keep too many of them, which it does not here).
aesvc = AESVC(**params, group_size=500, fallback_fraction=None, random_state=0).fit(X, y)
aesvc_time = time.perf_counter() - start

start = time.perf_counter()
svc = SVC(**params).fit(X, y)
svc_time = time.perf_counter() - start

agree = np.mean(aesvc.predict(X) == svc.predict(X))
print(
    f"AESVC: {aesvc.n_representatives_} representatives of {len(X)} samples "
    f"(epsilon {aesvc.epsilon_:g}), {aesvc.support_.size} support vectors, "
    f"{aesvc_time:.2f} s (DeriveRS {aesvc.derive_time_:.2f} s)"
)
print(f"SVC: {svc.support_.size} support vectors, {svc_time:.2f} s")
print(f"predictions agree on {agree:.1%} of the training samples")

# %%
# Representatives and boundaries
# ------------------------------
# Left: the representatives over the data, sized by ``beta_``: about a tenth of the
# samples, spread over both classes, each weighted by the samples it stands for.
# Right: the zero level set of both decision functions.
xx, yy = np.meshgrid(np.linspace(-1.6, 2.6, 200), np.linspace(-1.2, 1.7, 200))
grid = np.c_[xx.ravel(), yy.ravel()]

fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), sharex=True, sharey=True)

ax = axes[0]
ax.scatter(X[:, 0], X[:, 1], c=y, cmap="coolwarm", s=3, alpha=0.25)
rep = aesvc.representative_indices_
sizes = 4 + 60 * aesvc.beta_ / aesvc.beta_.max()
ax.scatter(X[rep, 0], X[rep, 1], c=y[rep], cmap="coolwarm", s=sizes, edgecolors="k")
ax.set_title(f"{rep.size} representatives (size: weight beta)")

ax = axes[1]
ax.scatter(X[:, 0], X[:, 1], c=y, cmap="coolwarm", s=3, alpha=0.25)
for model, color, name in [(svc, "k", "SVC (all samples)"), (aesvc, "tab:green", "AESVC")]:
    z = model.decision_function(grid).reshape(xx.shape)
    ax.contour(xx, yy, z, levels=[0.0], colors=color, linewidths=2)
    ax.plot([], [], color=color, label=name)
ax.set_title("decision boundaries")
ax.legend(loc="lower left")

fig.tight_layout()
plt.show()
