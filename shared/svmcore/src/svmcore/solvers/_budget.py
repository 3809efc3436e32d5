"""The time budget of one fit: a deadline shared by every loop and solver call of the fit."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TypeVar

from ._errors import SolverLimitError

_T = TypeVar("_T")

__all__ = ["TimeBudget"]


class TimeBudget:
    """Seconds left of a whole fit, from a deadline fixed when the fit starts.

    Every HiGHS call runs through :meth:`run`, which gives it the time left as
    its limit; a fit's loops stop when :meth:`run` returns None or :meth:`expired`
    is True and keep their current solution (LP-SVR's decompositions, the
    SVMlin family's Newton, switching and annealing loops).

    Parameters
    ----------
    time_limit : float or None, default=None
        Seconds for the whole fit (> 0); None or infinity means no limit.
    clock : callable, default=time.perf_counter
        Seconds as a float; tests pass a deterministic clock.

    Attributes
    ----------
    exhausted : bool
        Whether the deadline has stopped a loop or a HiGHS call (sticky).
    """

    def __init__(
        self, time_limit: float | None = None, *, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.time_limit = time_limit
        self._clock = clock
        self.deadline: float | None = None
        if time_limit is not None and math.isfinite(time_limit):
            self.deadline = clock() + time_limit
        self.exhausted = False

    def expired(self) -> bool:
        """Whether the deadline has passed (or already stopped a HiGHS call)."""
        if not self.exhausted and self.deadline is not None:
            self.exhausted = self._clock() >= self.deadline
        return self.exhausted

    def run(self, solve: Callable[..., _T]) -> _T | None:
        """``solve(time_limit)`` with the seconds left, or None when the deadline stops it.

        Parameters
        ----------
        solve : callable
            Called as ``solve(time_limit=seconds)`` (None: no limit) for its
            HiGHS call; returns the solution.

        Returns
        -------
        object or None
            What ``solve`` returned; None when the deadline had passed before
            the call or HiGHS stopped on its time limit (the interrupted
            point is discarded: it need not be optimal for anything).
        """
        if self.expired():
            return None
        limit = None if self.deadline is None else self.deadline - self._clock()
        if limit is not None and limit <= 0.0:
            self.exhausted = True
            return None
        try:
            return solve(time_limit=limit)
        except SolverLimitError as exc:
            if limit is None or exc.status != "kTimeLimit":
                raise
            self.exhausted = True
            return None
