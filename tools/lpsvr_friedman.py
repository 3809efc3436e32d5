"""``LPSVR()`` against ``SVR()`` on Friedman #1 with raw targets, the lpsvr README's recipe.

The data: ``make_friedman1(1.25 N, noise=1, random_state=0)``, x standardized, the first N
rows to train and the rest to test, y as generated (not scaled: about 90 % of the samples
lie outside the 0.1 tube, the hard case for LP-SVR's decomposition). Both estimators at
their defaults (``LPSVR(random_state=0)``), after one warm-up fit each on 500 rows, timed
in the same process; printed per fit: times and ratio, LP-SVR's objective and nonzero
coefficients, the test MAE of both and SVR's support vectors.

    python tools/lpsvr_friedman.py [--repeat R] [--no-svr] N [N ...]

Set ``OMP_NUM_THREADS=1 NUMBA_NUM_THREADS=1`` to time one thread, as the README's A/B
figures do (threads competing for a loaded machine's cores vary the times).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from sklearn.datasets import make_friedman1
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR

from lpsvr import LPSVR


def friedman_raw(n):
    """Train and test split of the recipe above: ``(X_train, y_train, X_test, y_test)``."""
    X, y = make_friedman1(int(n * 1.25), noise=1.0, random_state=0)
    X = StandardScaler().fit_transform(X)
    return X[:n], y[:n], X[n:], y[n:]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", type=int, nargs="+", help="training rows N")
    parser.add_argument("--repeat", type=int, default=1, help="timed fits per size")
    parser.add_argument("--no-svr", action="store_true", help="time LPSVR only")
    args = parser.parse_args(argv)
    X, y, _, _ = friedman_raw(625)
    LPSVR(random_state=0).fit(X[:500], y[:500])
    SVR().fit(X[:500], y[:500])
    for n in args.sizes:
        X, y, X_test, y_test = friedman_raw(n)
        for _ in range(args.repeat):
            start = time.perf_counter()
            ours = LPSVR(random_state=0).fit(X, y)
            t_ours = time.perf_counter() - start
            mae = np.abs(ours.predict(X_test) - y_test).mean()
            line = (
                f"N={n} LPSVR {t_ours:.3f} s, objective {ours.objective_!r}, "
                f"{ours.support_.size} nonzero, MAE {mae:.4f}"
            )
            if not args.no_svr:
                start = time.perf_counter()
                base = SVR().fit(X, y)
                t_base = time.perf_counter() - start
                mae = np.abs(base.predict(X_test) - y_test).mean()
                line += (
                    f"; SVR {t_base:.3f} s ({t_ours / t_base:.2f}x), MAE {mae:.4f}, "
                    f"{base.support_.size} SVs"
                )
            print(f"{line}; load {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
