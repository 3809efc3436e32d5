"""Helpers for the packages' tests: a deterministic clock and hostile data.

- :func:`ticking_clock`: a clock that advances a fixed step at every reading, so tests of
  ``time_limit`` stop fits at the same point on any machine (pass it where an estimator
  reads its clock, e.g. :class:`svmcore.solvers.TimeBudget`).
- :mod:`svmcore.testing.hostile`: hypothesis strategies for valid but hostile training
  data (issue 19): extreme and mixed feature scales, constant and duplicated columns,
  duplicated rows, separable data with a huge ``C``, heavy imbalance, a single positive,
  near-singular ``X^T X``, float32 near overflow, CSR with explicit zeros and unsorted
  indices. It needs ``hypothesis`` (every package's ``test`` extra); importing
  :mod:`svmcore.testing` itself does not.
- :mod:`svmcore.testing.reference`: independent reference optima (scipy's SLSQP) for the
  certified SVM solvers' tests, and tiny weighted SVM problems (``weighted_two_blobs``).
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["ticking_clock"]


def ticking_clock(step: float = 1.0, start: float = 0.0) -> Callable[[], float]:
    """A clock that reads ``start``, ``start + step``, ... (one step per reading).

    Parameters
    ----------
    step : float, default=1.0
        Seconds added at every reading.
    start : float, default=0.0
        The first reading.

    Returns
    -------
    clock : callable
        Seconds as a float, like :func:`time.perf_counter`, independent of the machine's
        speed.

    Examples
    --------
    >>> from svmcore.testing import ticking_clock
    >>> clock = ticking_clock()
    >>> clock(), clock(), clock()
    (0.0, 1.0, 2.0)
    """
    count = [0]

    def clock() -> float:
        value = start + step * count[0]
        count[0] += 1
        return float(value)

    return clock
