"""Helpers for the packages' tests: a deterministic clock and hostile data.

- :func:`ticking_clock`: a clock that advances a fixed step at every reading, so tests of
  ``time_limit`` stop fits at the same point on any machine (pass it where an estimator
  reads its clock, e.g. :class:`svmcore.solvers.TimeBudget`).
- :func:`worker_modules`: the same question asked of a running Dask cluster's workers.
- :func:`modules_imported_by`: the modules of given packages (scikit-learn, pandas) that
  importing some modules brings in, in a fresh interpreter: what a Dask worker imports
  to unpickle the tasks of those modules (issue 18).
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

import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["modules_imported_by", "ticking_clock", "worker_modules"]


def modules_imported_by(
    modules: Sequence[str], packages: Sequence[str] = ("sklearn", "pandas")
) -> list[str]:
    """The modules of ``packages`` that importing ``modules`` imports, in a fresh interpreter.

    A Dask worker unpickling a task imports the task function's module and the packages
    above it; a test that this imports no scikit-learn (and no pandas, which scikit-learn
    imports) must start from an interpreter that has imported nothing yet.

    Parameters
    ----------
    modules : sequence of str
        Module names, imported in this order.
    packages : sequence of str, default=("sklearn", "pandas")
        Top-level package names to look for.

    Returns
    -------
    imported : list of str
        The sorted names of the modules of ``packages`` in ``sys.modules`` afterwards.

    Raises
    ------
    RuntimeError
        If an import fails (the child's error output is in the message).

    Examples
    --------
    >>> modules_imported_by(["fractions"], packages=["fractions", "decimal"])
    ['decimal', 'fractions']
    """
    code = (
        "import importlib, json, sys\n"
        f"for name in {list(modules)!r}:\n"
        "    importlib.import_module(name)\n"
        f"top = {tuple(packages)!r}\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in top)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"importing {list(modules)} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout)


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


def _loaded(packages: Sequence[str]) -> list[str]:
    return sorted(m for m in sys.modules if m.split(".")[0] in packages)


def worker_modules(client: Any, packages: Sequence[str]) -> dict[str, list[str]]:
    """The modules of ``packages`` each worker of ``client``'s cluster has imported.

    Parameters
    ----------
    client : distributed.Client
        A client of the cluster (its workers are asked through ``client.run``).
    packages : sequence of str
        Top-level package names to look for.

    Returns
    -------
    dict
        Worker address to the sorted names of its modules of ``packages``.
    """
    return client.run(_loaded, tuple(packages))
