"""Linear-programming SVR trained by variable and constraint decomposition.

Rivas-Perea & Cota-Ruiz (2013), with the printed formulation's flaw repaired
(see the package README).
"""

from typing import TYPE_CHECKING

from svmcore.lazy import lazy_exports

if TYPE_CHECKING:
    from ._lpsvc import LPSVC
    from ._lpsvr import LPSVR

__version__ = "0.1.0.dev0"

__all__ = ["LPSVC", "LPSVR", "__version__"]

# Imported on first use: Dask workers import this package to run the per-chunk passes
# of _dask, _passes, _result and _interior_start, which need neither the estimators
# nor scikit-learn (and pandas with it, about 68 MB per worker) that they import.
__getattr__, __dir__ = lazy_exports(__name__, {"LPSVC": "._lpsvc", "LPSVR": "._lpsvr"})
