"""Timing of one defaults-suite row: warm-up fit untimed, then the timed fits."""

from __future__ import annotations

import time

WARM_ROWS = 2_000


def timed_fit(make, X, y, *, repeat=1, warm_rows=WARM_ROWS, **fit_params):
    """``(best seconds, fitted estimator)`` of ``make().fit(X, y)``.

    An untimed warm-up fit on the first ``warm_rows`` rows comes first: it compiles the
    Numba code for the same dtype and layout (the baselines are compiled C and have no
    compile step), as a user's second fit would find it. Large fits are timed once
    (``repeat=1``); the machine has two cores, so a best-of-many would take hours.
    """
    if warm_rows:
        head = slice(0, min(warm_rows, X.shape[0]))
        warm_params = {k: v[head] for k, v in fit_params.items()}
        make().fit(X[head], y[head], **warm_params)
    best, est = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        est = make().fit(X, y, **fit_params)
        best = min(best, time.perf_counter() - start)
    return best, est


def label(estimator, split):
    """The component column of a row: estimator, data set, shape and suite part."""
    return f"{estimator} | {split.name} {split.shape} [{split.part}]"
