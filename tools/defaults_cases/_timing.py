"""Timing of one defaults-suite row: warm-up fit untimed, then the timed fits."""

from __future__ import annotations

import time


def timed_fit(make, X, y, *, repeat=1, warm_rows=None, **fit_params):
    """``(best seconds, fitted estimator)`` of ``make().fit(X, y)``.

    An untimed warm-up fit comes first: it compiles the Numba code (the baselines are
    compiled C and have no compile step), as a user's second fit would find it. By
    default it fits the same data, because the estimators choose their path by size
    ("auto" solvers, serial or parallel kernels): a warm-up on a 2,000-row head left the
    full fit compiling the other path (1-3 s on fits of 0.01-0.4 s). ``warm_rows``
    limits it to the first rows (AESVC's 12,000: a warm-up on everything would double the
    suite's time), 0 skips it (the baselines). Large fits are timed once (``repeat=1``);
    the machine has two cores, so a best-of-many would take hours.
    """
    if warm_rows != 0:
        head = slice(0, X.shape[0] if warm_rows is None else min(warm_rows, X.shape[0]))
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
