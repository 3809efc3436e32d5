"""AID for least absolute deviation regression, SVM (linear and kernel) and semi-supervised SVM."""

from ._lad import AIDLADRegressor, lad_lp

__version__ = "0.1.0.dev0"

__all__ = ["AIDLADRegressor", "__version__", "lad_lp"]
