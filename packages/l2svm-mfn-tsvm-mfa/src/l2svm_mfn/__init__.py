"""L2-SVM-MFN, transductive SVM with multiple switching and mean field annealing.

Implements Sindhwani & Keerthi, "Large scale semi-supervised linear SVMs" (SIGIR 2006)
for large sparse data, with ``svmlin``, a command line compatible with SVMlin v1.0
(also ``python -m l2svm_mfn``), and SVMlin's regularized least squares (:func:`rlsc`).
"""

from ._mfa_classifier import MFAClassifier
from ._mfn import MFNResult, l2svm_mfn, squared_hinge_objective
from ._mfn_classifier import MFNClassifier
from ._rlsc import RLSCResult, least_squares_objective, rlsc
from ._tsvm import assign_by_ratio, tsvm_objective
from ._tsvm_classifier import TSVMClassifier

__version__ = "0.1.0.dev0"

__all__ = [
    "MFAClassifier",
    "MFNClassifier",
    "MFNResult",
    "RLSCResult",
    "TSVMClassifier",
    "__version__",
    "assign_by_ratio",
    "l2svm_mfn",
    "least_squares_objective",
    "rlsc",
    "squared_hinge_objective",
    "tsvm_objective",
]
