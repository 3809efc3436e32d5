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
_LIBLINEAR_CSR = (
    "solver='liblinear' on CSR input: X is not centred (to stay sparse), so liblinear "
    "regularizes the bias and its aggregated answers are accepted at a relative gap "
    "near 2e-3 (the first iterations' target is 1e-2); weighted and repeated data take "
    "different AID paths and both stop on the optimality condition with decision values "
    "2e-4 apart, within the certified gap, not rtol=1e-7. On dense input liblinear's "
    "gap plateaus above the target, those solves switch to libsvm and the check passes."
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
    if estimator.solver == "dcd":
        return dict.fromkeys(_WEIGHT_CHECKS, _DCD_GAP)
    if estimator.solver == "liblinear":
        return {_WEIGHT_CHECKS[1]: _LIBLINEAR_CSR}
    return {}


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=_expected_failed_checks)
def test_sklearn_compatible(estimator, check):
    check(estimator)
