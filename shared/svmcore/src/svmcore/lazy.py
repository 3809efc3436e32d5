"""Names of a package imported from their modules when first used (PEP 562).

Dask pickles a task function by reference, so a worker that runs one imports the
function's module and, before it, every package ``__init__`` above it. A package whose
``__init__`` imports its estimators at once would thus import scikit-learn (and pandas,
which scikit-learn imports) into every worker, about 68 MB per worker, although no task
needs them. A package that exports its estimators through :func:`lazy_exports` keeps its
public names (``from pkg import Name``, ``pkg.Name``, ``dir(pkg)``) and imports a
name's module only when the name is first looked up.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of a package with lazily imported names.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    exports : mapping of str to str
        Each public name and the module, relative to ``package`` (``"._classes"``), that
        defines it under the same name.

    Returns
    -------
    getattr : callable
        The package's ``__getattr__``: imports the name's module on first use and stores
        the value in the package, so later look-ups do not come back here.
    dir : callable
        The package's ``__dir__``: its own globals and the lazily exported names.

    Examples
    --------
    In a package's ``__init__.py``::

        __getattr__, __dir__ = lazy_exports(__name__, {"Estimator": "._classes"})
    """
    exports = dict(exports)
    for name, module in exports.items():
        if not module.startswith("."):
            raise ValueError(
                f"lazy_exports: the module of {name!r} must be relative to {package!r} "
                f"(start with '.'), got {module!r}"
            )

    def __getattr__(name: str) -> Any:
        try:
            module = exports[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(module, package), name)
        setattr(importlib.import_module(package), name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(importlib.import_module(package))) | set(exports))

    return __getattr__, __dir__
