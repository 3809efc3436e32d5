"""
===============================================
LP-SVR's few support vectors against SVR's many
===============================================

The linear-programming SVR of Rivas-Perea & Cota-Ruiz (2013) minimizes the 1-norm of
the expansion coefficients instead of the 2-norm of the weight vector. The 1-norm
drives most coefficients to exactly zero, so the model needs far fewer support vectors
than the quadratic-programming SVR of libsvm with the same kernel, ``C`` and
``epsilon``-tube.

This example fits :class:`lpsvr.LPSVR` and scikit-learn's ``SVR`` to 300 noisy samples
of ``sinc(x) = sin(x) / x`` (:func:`svmcore.datasets.make_noisy_sinc`, the paper's
synthetic set) and marks the support vectors of each.
"""

# %%
# The two fits
# ------------
import time

import matplotlib.pyplot as plt
import numpy as np
from sklearn.svm import SVR

from lpsvr import LPSVR
from svmcore.datasets import make_noisy_sinc

X, y = make_noisy_sinc(300, noise=0.1, random_state=0)
params = {"C": 10.0, "epsilon": 0.1, "kernel": "rbf", "gamma": 0.5}

start = time.perf_counter()
lpsvr = LPSVR(**params, random_state=0).fit(X, y)
lpsvr_time = time.perf_counter() - start

start = time.perf_counter()
svr = SVR(**params).fit(X, y)
svr_time = time.perf_counter() - start

x_plot = np.linspace(-10, 10, 500)[:, None]
clean = np.sinc(x_plot[:, 0] / np.pi)
for name, model, seconds in [("LP-SVR", lpsvr, lpsvr_time), ("SVR", svr, svr_time)]:
    rmse = np.sqrt(np.mean((model.predict(x_plot) - clean) ** 2))
    print(
        f"{name:>6}: {model.support_.size:3d} support vectors of {len(X)}, "
        f"RMSE to the noise-free sinc {rmse:.3f}, {seconds:.2f} s"
    )

# %%
# The fits and their support vectors
# ----------------------------------
# Both curves follow the sinc within the tube; SVR's support vectors are every sample
# on or outside the tube, LP-SVR's a small subset of them.
fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
for ax, (name, model) in zip(axes, [("LP-SVR", lpsvr), ("SVR", svr)], strict=True):
    ax.scatter(X[:, 0], y, s=6, c="lightgrey", label="samples")
    ax.plot(x_plot[:, 0], clean, "k:", label="sinc(x)")
    ax.plot(x_plot[:, 0], model.predict(x_plot), "tab:blue", label=name)
    sv = model.support_
    ax.scatter(
        X[sv, 0],
        y[sv],
        s=30,
        facecolors="none",
        edgecolors="tab:red",
        label=f"{sv.size} support vectors",
    )
    ax.set_title(f"{name}: {sv.size} support vectors of {len(X)} samples")
    ax.set_xlabel("x")
    ax.legend(loc="lower left", fontsize="small")
axes[0].set_ylabel("y")
fig.tight_layout()
plt.show()
