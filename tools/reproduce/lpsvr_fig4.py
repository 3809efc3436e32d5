"""LP-SVR's Fig. 4 at this machine's scale: training time against the training size N.

The paper plots the training time of its large-scale LP-SVR (and other methods) as the
number of samples grows, drawing from the sinc and other sets up to 130 million samples
on a cluster. Here LPSVR with variable decomposition (the paper's Algorithm 2, warm
simplex) and scikit-learn's SVR (libsvm, the "LS SVR" stand-in) are timed side by side on
the noisy sinc (noise 0.1, RBF gamma 0.5, C 1, epsilon 0.1) for each N, with the test
MAE on the clean sinc (the paper's Table 6 metric) and the number of support vectors.

Usage: ``python tools/reproduce/lpsvr_fig4.py [--size quick|full]``
(quick: N = 250 ... 2000; full: N = 500 ... 8000).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.svm import SVR

from lpsvr import LPSVR
from svmcore.datasets import make_noisy_sinc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _benchkit import format_table  # noqa: E402

C, EPSILON, GAMMA = 1.0, 0.1, 0.5
SIZES = {"quick": (250, 500, 1000, 2000), "full": (500, 1000, 2000, 4000, 8000)}


def _timed(make, X, y):
    start = time.perf_counter()
    model = make().fit(X, y)
    return time.perf_counter() - start, model


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", choices=sorted(SIZES), default="quick")
    args = parser.parse_args(argv)

    def lpsvr():
        return LPSVR(
            C=C,
            epsilon=EPSILON,
            gamma=GAMMA,
            decomposition="variables",
            method="simplex",
            random_state=0,
        )

    def svr():
        return SVR(C=C, epsilon=EPSILON, gamma=GAMMA)

    X_test, y_test = make_noisy_sinc(2000, noise=0.0, random_state=1)
    X, y = make_noisy_sinc(200, noise=0.1, random_state=0)
    lpsvr().fit(X, y)  # compile and import outside the timings
    rows = []
    for n in SIZES[args.size]:
        X, y = make_noisy_sinc(n, noise=0.1, random_state=0)
        ours_t, ours = _timed(lpsvr, X, y)
        base_t, base = _timed(svr, X, y)
        mae = [np.abs(model.predict(X_test) - y_test).mean() for model in (ours, base)]
        rows.append(
            [
                str(n),
                f"{ours_t:.3f}",
                f"{base_t:.3f}",
                f"{ours_t / base_t:.1f}",
                f"{mae[0]:.4f}",
                f"{mae[1]:.4f}",
                str(len(ours.support_)),
                str(len(base.support_)),
            ]
        )
        print(f"N={n} done", file=sys.stderr)
    headers = ["N", "LPSVR s", "SVR s", "ratio", "LPSVR MAE", "SVR MAE", "LPSVR SV", "SVR SV"]
    print("LP-SVR Fig. 4 layout (noisy sinc, clean-sinc test MAE), ratio = LPSVR / SVR")
    print(format_table(headers, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
