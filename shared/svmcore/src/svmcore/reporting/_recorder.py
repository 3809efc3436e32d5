"""Collecting a fit's records as they arrive: time-stamped, kept, passed on."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

__all__ = ["Recorder"]


class Recorder:
    """Collects per-iteration records: stamps each with the time, keeps it, reports it.

    A solver loop calls the recorder with each iteration's dict; the recorder adds the
    seconds since it was created under ``time_key``, appends the record to
    :attr:`records` and passes it to ``report`` (an estimator's
    :class:`TablePrinter`, or None).

    Parameters
    ----------
    report : callable or None, default=None
        Called with each record once stamped (None: nothing is called).
    time_key : str or None, default="time"
        Key of the elapsed seconds (None: no time stamp).
    clock : callable, default=time.perf_counter
        Seconds as a float (tests pass a deterministic clock).

    Attributes
    ----------
    records : list of dict
        The records so far, in order.

    Examples
    --------
    >>> from svmcore.reporting import Recorder
    >>> ticks = iter([0.0, 1.5, 4.0])
    >>> log = Recorder(print, clock=lambda: next(ticks))
    >>> log({"iter": 1})
    {'iter': 1, 'time': 1.5}
    >>> log({"iter": 2}); log.records
    {'iter': 2, 'time': 4.0}
    [{'iter': 1, 'time': 1.5}, {'iter': 2, 'time': 4.0}]
    """

    def __init__(
        self,
        report: Callable[[dict[str, Any]], object] | None = None,
        *,
        time_key: str | None = "time",
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.report = report
        self.time_key = time_key
        self.clock = clock
        self.records: list[dict[str, Any]] = []
        self._start = clock()

    def __call__(self, record: dict[str, Any]) -> None:
        """Stamp, keep and report one record.

        Parameters
        ----------
        record : dict
            One iteration's record (stamped in place).
        """
        if self.time_key is not None:
            record[self.time_key] = self.clock() - self._start
        self.records.append(record)
        if self.report is not None:
            self.report(record)
