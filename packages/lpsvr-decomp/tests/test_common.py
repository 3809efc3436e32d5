"""scikit-learn conformance of LPSVR and LPSVC (documented expected failures only)."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from lpsvr import LPSVC, LPSVR


def _expected_failed_checks(estimator):
    reason = (
        "LP solutions are not unique: a duplicated row duplicates its kernel column, and "
        "HiGHS may split a coefficient between the copies or pick another optimal vertex; "
        "the optimal objective is equal (tested in test_lpsvr.py), predictions may differ."
    )
    return {
        "check_sample_weight_equivalence_on_dense_data": reason,
        "check_sample_weight_equivalence_on_sparse_data": reason,
    }


# The class is the same for every decomposition; "full" is left out of the suite because
# on the suite's unscaled regression data (|y| ~ 100 against epsilon) its working set
# grows to every sample and the checks take minutes. Its correctness is tested against
# the full LP in test_lpsvr.py.
@parametrize_with_checks(
    [
        LPSVR(decomposition="none"),
        LPSVC(decomposition="none"),
        LPSVR(decomposition="variables", epsilon=0.5, B0=5, method="simplex", random_state=0),
        LPSVR(decomposition="row_column", random_state=0),
        LPSVC(decomposition="row_column", random_state=0),
    ],
    expected_failed_checks=_expected_failed_checks,
)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)
