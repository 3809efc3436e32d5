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
    ours_t, ours = measure(
        lambda: LPSVR(C=C, epsilon=EPSILON, gamma=GAMMA, random_state=0).fit(X, y), repeat=1
    )
    base_t, base = measure(lambda: SVR(C=C, epsilon=EPSILON, gamma=GAMMA).fit(X, y), repeat=1)
    mae = [np.abs(est.predict(split.X_test) - split.y_test).mean() for est in (ours, base)]
    n_sv = [len(est.support_) for est in (ours, base)]
    return [
        Row(
            "LPSVR rbf [sinc]",
            ours_t,
            "SVR(rbf)",
            base_t,
            "test MAE; n SV",
            f"{mae[0]:.3f} / {mae[1]:.3f}; {n_sv[0]} / {n_sv[1]}",
        )
    ]


def figures(data, size, report_dir):
    """Fit time of LP-SVR (variable decomposition) against the training size on the sinc."""
    import time

    from ._report import new_figure, save

    split = data["sinc"]
    sizes = [100, 200, 400]

    def fit(n):
        model = LPSVR(C=C, epsilon=EPSILON, gamma=GAMMA, decomposition="variables", random_state=0)
        return model.fit(split.X_train[:n], split.y_train[:n])

    fit(sizes[0])  # warm-up: imports and compilation are not part of the curve
    times = []
    for n in sizes:
        start = time.perf_counter()
        fit(n)
        times.append(time.perf_counter() - start)
    fig, (ax,) = new_figure()
    ax.plot(sizes, times, "o-")
    ax.set(xlabel="training size N", ylabel="fit time (s)", title="LP-SVR, variable decomposition")
    return [("LPSVR rbf [sinc]: fit time vs N", save(fig, report_dir, "lpsvr_time_vs_n.png"))]
