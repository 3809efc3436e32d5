"""Solver adapters: weighted SVM (libsvm/liblinear, and certified dual coordinate descent
and Newton solvers of the linear problem with an unregularized bias) and LP/QP (HiGHS),
with status checking."""

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:
    from ._budget import TimeBudget
    from ._dcd import DCDResult, dcd_weighted_svm
    from ._errors import InfeasibleError, SolverError, SolverLimitError, UnboundedError
    from ._hinge import hinge_objective, optimal_intercept
    from ._linear_program import LinearProgram
    from ._lp_result import LPBasis, LPResult
    from ._lp_solve import solve_lp, solve_qp
    from ._newton import newton_weighted_svm
    from ._status import SolverLimitWarning, raise_for_status
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

# Imported on first use: TimeBudget and the solver exceptions are used in tasks on Dask
# workers (AESVC's DeriveRS per chunk), while the solvers and SolverLimitWarning (a
# scikit-learn ConvergenceWarning) import scikit-learn and pandas (svmcore.lazy).
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "DCDResult": "._dcd",
        "InfeasibleError": "._errors",
        "LPBasis": "._lp_result",
        "LPResult": "._lp_result",
        "LinearProgram": "._linear_program",
        "SolverError": "._errors",
        "SolverLimitError": "._errors",
        "SolverLimitWarning": "._status",
        "TimeBudget": "._budget",
        "UnboundedError": "._errors",
        "WeightedSVMResult": "._svm",
        "dcd_weighted_svm": "._dcd",
        "fit_weighted_svm": "._svm",
        "hinge_objective": "._hinge",
        "newton_weighted_svm": "._newton",
        "optimal_intercept": "._hinge",
        "raise_for_status": "._status",
        "solve_lp": "._lp_solve",
        "solve_qp": "._lp_solve",
    },
)
