"""scikit-learn conformance of AIDS3VMClassifier (documented expected failures only)."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from aid_models import AIDS3VMClassifier


def _expected_failed_checks(estimator):
    return getattr(estimator, "_xfail_checks", {})


@parametrize_with_checks(
    [AIDS3VMClassifier(random_state=0)], expected_failed_checks=_expected_failed_checks
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
