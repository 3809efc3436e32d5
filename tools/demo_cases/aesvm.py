"""AESVM (Nandan et al. 2014): an SVM on approximate extreme points against SVC on all data."""

import numpy as np
from _benchkit import Row, measure
from sklearn.svm import SVC

from aesvm import AESVC, derive_rs

from . import REGISTRY

C, GAMMA = 1.0, 0.1


@REGISTRY.register("aesvc")
def aesvc(data, size):
    # The paper's method (no fallback: at the quick size the default would train SVC on
    # all rows, below AESVC()'s 10 000-row floor) on data of low intrinsic dimension.
    split = data["moons"]
    X, y = split.X_train, split.y_train
    ours_t, ours = measure(
        lambda: AESVC(C=C, gamma=GAMMA, fallback_fraction=None, reuse_representatives=False).fit(
            X, y
        ),
        repeat=1,
    )
    base_t, base = measure(lambda: SVC(kernel="rbf", C=C, gamma=GAMMA).fit(X, y), repeat=1)
    acc = f"{ours.score(split.X_test, split.y_test):.3f} / "
    acc += f"{base.score(split.X_test, split.y_test):.3f}"
    return [
        Row(
            "AESVC rbf, fallback_fraction=None [moons]",
            ours_t,
            "SVC(rbf), all data",
            base_t,
            "M/N",
            f"{ours.n_representatives_ / len(y):.2f}",
            acc,
        )
    ]


def figures(data, size, report_dir):
    """Representative-set fraction M/N of DeriveRS against the RBF gamma on the moons."""
    from ._report import new_figure, save

    split = data["moons"]
    gammas = np.array([0.001, 0.003, 0.01, 0.03, 0.1, 1.0])
    ratios = [
        len(derive_rs(split.X_train, split.y_train, gamma=g).indices) / len(split.y_train)
        for g in gammas
    ]
    fig, (ax,) = new_figure()
    ax.plot(gammas, ratios, "o-")
    ax.set_xscale("log")
    ax.set(xlabel="RBF gamma", ylabel="M / N", ylim=(0, 1.05))
    ax.set_title(f"DeriveRS [moons, N={len(split.y_train)}]")
    return [("DeriveRS [moons]: M/N vs gamma", save(fig, report_dir, "aesvm_m_over_n.png"))]
