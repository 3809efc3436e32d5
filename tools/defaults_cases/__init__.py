"""Defaults benchmark cases, one module per package (``<import name>.py``).

Every public estimator constructed with no options against the baseline its users would
pick, after an untimed warm-up fit, on the public suite of :mod:`defaults_cases._suite`
(data the defaults were chosen on, ``part="tune"``, and data they never saw,
``part="report"``). Run with ``python tools/bench.py --defaults`` (``nox -s bench --
--defaults``); a case takes the size (``"quick"`` or ``"full"``) and returns
:class:`_benchkit.Row` objects whose ``component`` names the estimator and the data set.
"""

from _benchkit import Registry

REGISTRY = Registry()
