"""LP-SVR (Rivas-Perea & Cota-Ruiz 2013) against epsilon-SVR on the noisy sinc."""

import numpy as np
from _benchkit import Row, measure
from sklearn.svm import SVR

from lpsvr import LPSVR

from . import REGISTRY

C, EPSILON, GAMMA = 10.0, 0.1, 0.5


@REGISTRY.register("lpsvr")
def lpsvr_vs_svr(data, size):
    split = data["sinc"]
    X, y = split.X_train, split.y_train
    base_t, base = measure(lambda: SVR(C=C, epsilon=EPSILON, gamma=GAMMA).fit(X, y), repeat=1)
    rows = []
    # The paper's Algorithm 1 and the package's default ("row_column", exact and fastest).
    for decomposition in ("full", "row_column"):
        ours_t, ours = measure(
            lambda d=decomposition: LPSVR(
                C=C, epsilon=EPSILON, gamma=GAMMA, decomposition=d, random_state=0
            ).fit(X, y),
            repeat=1,
        )
        mae = [np.abs(est.predict(split.X_test) - split.y_test).mean() for est in (ours, base)]
        n_sv = [len(est.support_) for est in (ours, base)]
        rows.append(
            Row(
                f"LPSVR rbf {decomposition} [sinc]",
                ours_t,
                "SVR(rbf)",
                base_t,
                "test MAE; n SV",
                f"{mae[0]:.3f} / {mae[1]:.3f}; {n_sv[0]} / {n_sv[1]}",
            )
        )
    return rows


def figures(data, size, report_dir):
    """Fit time of LP-SVR (Algorithm 2 and row_column) against the training size on the sinc."""
    import time

    from ._report import new_figure, save

    split = data["sinc"]
    sizes = [100, 200, 400]

    def fit(n, decomposition):
        model = LPSVR(
            C=C, epsilon=EPSILON, gamma=GAMMA, decomposition=decomposition, random_state=0
        )
        return model.fit(split.X_train[:n], split.y_train[:n])

    fig, (ax,) = new_figure()
    for decomposition in ("variables", "row_column"):
        fit(sizes[0], decomposition)  # warm-up: imports and compilation are not timed
        times = []
        for n in sizes:
            start = time.perf_counter()
            fit(n, decomposition)
            times.append(time.perf_counter() - start)
        ax.plot(sizes, times, "o-", label=decomposition)
    ax.legend()
    ax.set(xlabel="training size N", ylabel="fit time (s)", title="LP-SVR decompositions")
    return [("LPSVR rbf [sinc]: fit time vs N", save(fig, report_dir, "lpsvr_time_vs_n.png"))]
