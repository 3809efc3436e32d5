"""Solver adapters: weighted SVM (libsvm/liblinear, and certified dual coordinate descent
and Newton solvers of the linear problem with an unregularized bias) and LP/QP (HiGHS),
with status checking."""

from ._budget import TimeBudget
from ._dcd import DCDResult, dcd_weighted_svm
from ._errors import (
    InfeasibleError,
    SolverError,
    SolverLimitError,
    SolverLimitWarning,
    UnboundedError,
    raise_for_status,
)
from ._hinge import hinge_objective, optimal_intercept
from ._linear_program import LinearProgram
from ._lp_result import LPBasis, LPResult
from ._lp_solve import solve_lp, solve_qp
from ._newton import newton_weighted_svm
from ._svm import WeightedSVMResult, fit_weighted_svm

__all__: list[str] = [
    "DCDResult",
    "InfeasibleError",
    "LPBasis",
    "LPResult",
    "LinearProgram",
    "SolverError",
    "SolverLimitError",
    "SolverLimitWarning",
    "TimeBudget",
    "UnboundedError",
    "WeightedSVMResult",
    "dcd_weighted_svm",
    "fit_weighted_svm",
    "hinge_objective",
    "newton_weighted_svm",
    "optimal_intercept",
    "raise_for_status",
    "solve_lp",
    "solve_qp",
]
