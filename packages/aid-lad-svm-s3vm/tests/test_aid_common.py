"""scikit-learn conformance of AIDLADRegressor and AIDSVC (documented expected failures only)."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from aid_models import AIDSVC, AIDLADRegressor

ESTIMATORS = [
    AIDLADRegressor(random_state=0),
    AIDSVC(random_state=0),
    AIDSVC(kernel="rbf", random_state=0),
    AIDSVC(solver="libsvm", random_state=0),  # the paper's backend (not the default)
    AIDSVC(solver="liblinear", random_state=0),
]

_LAD_FEW_SAMPLES = (
    "the check fits 30 features on 27 samples; this estimator rejects n < p "
    "(the LAD optimum is then a non-unique interpolation, not a regression)."
)
_DCD_GAP = (
    "solver='dcd' stops each aggregated problem at its certified gap (1e-5 at "
    "gap_tol=1e-4), which bounds ||w - w*||^2 by 2 gap F, not w to rtol=1e-7; "
    "weighted and repeated data take different AID paths."
)
_KERNEL_GAP = (
    "the fit is certified to gap_tol (1e-4 relative in objective); weighted and "
    "repeated data take different AID paths, and the check compares decision "
    "functions at rtol=1e-7."
)
_WEIGHT_CHECKS = (
    "check_sample_weight_equivalence_on_dense_data",
    "check_sample_weight_equivalence_on_sparse_data",
)


def _expected_failed_checks(estimator):
    """The checks each estimator is expected to fail, with the reason."""
    if isinstance(estimator, AIDLADRegressor):
        return dict.fromkeys(_WEIGHT_CHECKS, _LAD_FEW_SAMPLES)
    if estimator.kernel != "linear":
        return {_WEIGHT_CHECKS[0]: _KERNEL_GAP}
    # solver="newton" (what "auto" picks for the checks' few features) ends each
    # aggregated solve with an exact KKT polish: the weighted and repeated fits agree.
    # So does "liblinear" since a partition whose optimality condition holds above
    # gap_tol is solved again (on CSR its answers near 2e-3 then switch to libsvm;
    # before, the fits stopped "optimal" there with decision values 2e-4 apart).
    if estimator.solver == "dcd":
        return dict.fromkeys(_WEIGHT_CHECKS, _DCD_GAP)
    return {}


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=_expected_failed_checks)
def test_sklearn_compatible(estimator, check):
    check(estimator)
