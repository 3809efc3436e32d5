"""Solver adapters: weighted SVM (libsvm/liblinear) and LP/QP (HiGHS), with status checking."""

from ._errors import (
    InfeasibleError,
    SolverError,
    SolverLimitError,
    SolverLimitWarning,
    UnboundedError,
    raise_for_status,
)
from ._highs import LinearProgram, LPBasis, LPResult, solve_lp, solve_qp
from ._svm import WeightedSVMResult, fit_weighted_svm, hinge_objective, optimal_intercept

__all__: list[str] = [
    "InfeasibleError",
    "LPBasis",
    "LPResult",
    "LinearProgram",
    "SolverError",
    "SolverLimitError",
    "SolverLimitWarning",
    "UnboundedError",
    "WeightedSVMResult",
    "fit_weighted_svm",
    "hinge_objective",
    "optimal_intercept",
    "raise_for_status",
    "solve_lp",
    "solve_qp",
]
