from sklearn.utils.estimator_checks import parametrize_with_checks

from aid_models import AIDSVC, AIDLADRegressor

ESTIMATORS = [
    AIDLADRegressor(random_state=0),
    AIDSVC(random_state=0),
    AIDSVC(kernel="rbf", random_state=0),
    AIDSVC(solver="libsvm", random_state=0),  # the paper's backend (not the default)
]


def _expected_failed_checks(estimator):
    return getattr(estimator, "_xfail_checks", {})


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=_expected_failed_checks)
def test_sklearn_compatible(estimator, check):
    check(estimator)
