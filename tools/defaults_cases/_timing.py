"""Timing of one defaults-suite row: warm-up fit untimed, then the timed fits."""

from __future__ import annotations

import time

#: A fit shorter than this is timed again (the best kept, as ``timeit`` advises): one
#: timing of a millisecond fit mostly measures the machine (a thread start, a cache miss).
SHORT_FIT = 0.25
#: ... until the timed fits of a short row add up to this many seconds, or MAX_REPEAT.
SHORT_BUDGET = 1.0
MAX_REPEAT = 25


def timed_fit(make, X, y, *, warm_rows=None, **fit_params):
    """``(best seconds, fitted estimator)`` of ``make().fit(X, y)``.

    An untimed warm-up fit comes first: it compiles the Numba code (the baselines are
    compiled C and have no compile step), as a user's second fit would find it. By
    default it fits the same data, because the estimators choose their path by size
    ("auto" solvers, serial or parallel kernels): a warm-up on a 2,000-row head left the
    full fit compiling the other path (1-3 s on fits of 0.01-0.4 s). ``warm_rows``
    limits it to the first rows (AESVC's 12,000: a warm-up on everything would double the
    suite's time), 0 skips it (the baselines). Fits of ``SHORT_FIT`` seconds or more are
    timed once (the machine has two cores, so a best-of-many would take hours); shorter
    ones are repeated up to ``SHORT_BUDGET`` seconds or ``MAX_REPEAT`` fits, the best kept.
    """
    if warm_rows != 0:
        head = slice(0, X.shape[0] if warm_rows is None else min(warm_rows, X.shape[0]))
        warm_params = {k: v[head] for k, v in fit_params.items()}
        make().fit(X[head], y[head], **warm_params)

    def run():
        start = time.perf_counter()
        est = make().fit(X, y, **fit_params)
        return time.perf_counter() - start, est

    return best_of(run)


def best_of(run):
    """The result of ``run()`` (a tuple, seconds first) with the fewest seconds.

    One call when it takes ``SHORT_FIT`` seconds or more; otherwise more, until their
    seconds add up to ``SHORT_BUDGET`` or ``MAX_REPEAT`` calls.
    """
    best, total, count = None, 0.0, 0
    while best is None or (best[0] < SHORT_FIT and total < SHORT_BUDGET and count < MAX_REPEAT):
        result = run()
        if best is None or result[0] < best[0]:
            best = result
        total, count = total + result[0], count + 1
    return best


def label(estimator, split):
    """The component column of a row: estimator, data set, shape and suite part."""
    return f"{estimator} | {split.name} {split.shape} [{split.part}]"
