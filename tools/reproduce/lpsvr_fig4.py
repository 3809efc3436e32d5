"""LP-SVR's Fig. 4 at this machine's scale: training time against the training size N.

The paper plots the training time of its large-scale LP-SVR (and other methods) as the
number of samples grows, drawing from the sinc and other sets up to 130 million samples
on a cluster. Here LPSVR and scikit-learn's SVR (libsvm, the "LS SVR" stand-in) are
timed side by side on the noisy sinc (noise 0.1, RBF gamma 0.5, C 1, epsilon 0.1) for
each N, with the test MAE on the clean sinc (the paper's Table 6 metric) and the number
of support vectors. Two LPSVR decompositions: ``"variables"`` (the paper's Algorithm 2,
warm simplex; only up to the size's cap, its working set grows with N) and
``"row_column"`` (separate row and column generation, beyond the paper; the MAE and
support-vector columns are its).

Usage: ``python tools/reproduce/lpsvr_fig4.py [--size quick|full]``
(quick: N = 250 ... 4,000, Algorithm 2 up to 2,000; full: N = 1,000 ... 64,000,
Algorithm 2 up to 4,000).
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
#: (training sizes, largest N for the "variables" decomposition)
SIZES = {
    "quick": ((250, 500, 1000, 2000, 4000), 2000),
    "full": ((1000, 2000, 4000, 8000, 16000, 32000, 64000), 4000),
}


def _timed(make, X, y):
    start = time.perf_counter()
    model = make().fit(X, y)
    return time.perf_counter() - start, model


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", choices=sorted(SIZES), default="quick")
    args = parser.parse_args(argv)

    def lpsvr(decomposition):
        return lambda: LPSVR(
            C=C,
            epsilon=EPSILON,
            gamma=GAMMA,
            decomposition=decomposition,
            method="simplex",
            random_state=0,
        )

    def svr():
        return SVR(C=C, epsilon=EPSILON, gamma=GAMMA)

    sizes, variables_cap = SIZES[args.size]
    X_test, y_test = make_noisy_sinc(2000, noise=0.0, random_state=1)
    X, y = make_noisy_sinc(200, noise=0.1, random_state=0)
    for decomposition in ("row_column", "variables"):
        lpsvr(decomposition)().fit(X, y)  # compile and import outside the timings
    rows = []
    for n in sizes:
        X, y = make_noisy_sinc(n, noise=0.1, random_state=0)
        ours_t, ours = _timed(lpsvr("row_column"), X, y)
        paper_t = _timed(lpsvr("variables"), X, y)[0] if n <= variables_cap else None
        base_t, base = _timed(svr, X, y)
        mae = [np.abs(model.predict(X_test) - y_test).mean() for model in (ours, base)]
        rows.append(
            [
                str(n),
                "-" if paper_t is None else f"{paper_t:.3f}",
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
    headers = ["N", "Alg. 2 s", "row_column s", "SVR s", "ratio", "LPSVR MAE", "SVR MAE"]
    headers += ["LPSVR SV", "SVR SV"]
    print(
        "LP-SVR Fig. 4 layout (noisy sinc, clean-sinc test MAE); "
        "ratio = row_column / SVR; MAE and SV of row_column"
    )
    print(format_table(headers, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
