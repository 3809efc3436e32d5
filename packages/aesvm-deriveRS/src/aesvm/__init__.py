"""AESVM: SVM training on approximate extreme points computed by DeriveRS (Nandan et al. 2014)."""

from typing import TYPE_CHECKING

from svmcore.lazy import lazy_exports

if TYPE_CHECKING:
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

# Imported on first use: Dask workers import this package to run the per-chunk DeriveRS
# tasks of _chunks, which need neither the estimator nor scikit-learn (and pandas with
# it, about 68 MB per worker) that it imports.
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "AESVC": "._classes",
        "RepresentativeSet": "._derive",
        "clear_representative_cache": "._cache",
        "comparison_metrics": "._metrics",
        "derive_rs": "._derive",
        "representative_cache_info": "._cache",
    },
)
