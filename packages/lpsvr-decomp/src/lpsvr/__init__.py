"""Linear-programming SVR trained by variable and constraint decomposition.

Rivas-Perea & Cota-Ruiz (2013), with the printed formulation's flaw repaired
(see the package README).
"""

from ._lpsvc import LPSVC
from ._lpsvr import LPSVR

__version__ = "0.1.0.dev0"

__all__ = ["LPSVC", "LPSVR", "__version__"]
