"""AID for least absolute deviation regression, SVM (linear and kernel) and semi-supervised SVM."""

from typing import TYPE_CHECKING

from svmcore.lazy import lazy_exports

if TYPE_CHECKING:
    from ._lad import AIDLADRegressor
    from ._lad_ipm import lad_interior_point
    from ._lad_lp import lad_lp, lad_lp_sifting
    from ._s3vm import AIDS3VMClassifier
    from ._s3vm_qp import weighted_svm_qp
    from ._svc import AIDSVC
    from ._svc_bound import aggregated_dual_bound

__version__ = "0.1.0.dev0"

__all__ = [
    "AIDLADRegressor",
    "AIDS3VMClassifier",
    "AIDSVC",
    "__version__",
    "aggregated_dual_bound",
    "lad_interior_point",
    "lad_lp",
    "lad_lp_sifting",
    "weighted_svm_qp",
]

# Imported on first use: Dask workers import this package to run the per-chunk tasks of
# _lad_chunked, _svc_chunked and _codes, which need neither the estimators nor
# scikit-learn (and pandas with it, about 68 MB per worker) that they import.
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "AIDLADRegressor": "._lad",
        "AIDS3VMClassifier": "._s3vm",
        "AIDSVC": "._svc",
        "aggregated_dual_bound": "._svc_bound",
        "lad_interior_point": "._lad_ipm",
        "lad_lp": "._lad_lp",
        "lad_lp_sifting": "._lad_lp",
        "weighted_svm_qp": "._s3vm_qp",
    },
)
