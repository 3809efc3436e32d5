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
