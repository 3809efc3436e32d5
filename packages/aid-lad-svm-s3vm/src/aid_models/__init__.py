"""AID for least absolute deviation regression, SVM (linear and kernel) and semi-supervised SVM."""

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
