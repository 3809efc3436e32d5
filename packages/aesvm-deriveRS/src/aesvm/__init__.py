"""AESVM: SVM training on approximate extreme points computed by DeriveRS (Nandan et al. 2014)."""

from ._cache import clear_representative_cache, representative_cache_info
from ._classes import AESVC
from ._derive import RepresentativeSet, derive_rs
from ._metrics import comparison_metrics

__version__ = "0.1.0.dev0"

__all__ = [
    "AESVC",
    "RepresentativeSet",
    "__version__",
    "clear_representative_cache",
    "comparison_metrics",
    "derive_rs",
    "representative_cache_info",
]
