"""Regression: AID LAD against HiGHS's quantile regression; LP-SVR against libsvm's SVR."""

import numpy as np
import pytest
from _data import lad_regression
from sklearn.linear_model import QuantileRegressor

from aid_models import AIDLADRegressor


def _lad_objective(predict, X, y):
    return float(np.abs(y - predict(X)).sum())


@pytest.fixture(scope="module")
def lad_reference():
    X, y = lad_regression()
    qr = QuantileRegressor(quantile=0.5, alpha=0.0, solver="highs").fit(X, y)
    return X, y, _lad_objective(qr.predict, X, y)


def test_aid_lad_is_certified_within_the_paper_tolerance(lad_reference):
    X, y, ref = lad_reference
    est = AIDLADRegressor(random_state=0).fit(X, y)  # the paper's gap_tol = 1e-3
    ours = _lad_objective(est.predict, X, y)
    assert ours == pytest.approx(est.objective_, rel=1e-12)
    assert ref * (1 - 1e-9) <= ours <= ref * (1 + est.gap_tol)
    assert est.lower_bound_ <= ref * (1 + 1e-9)
    assert est.n_clusters_ < X.shape[0]


def test_aid_lad_optimum_equals_quantile_regressor(lad_reference):
    X, y, ref = lad_reference
    est = AIDLADRegressor(gap_tol=0.0, random_state=0).fit(X, y)
    assert _lad_objective(est.predict, X, y) == pytest.approx(ref, rel=1e-6)
    assert est.stop_reason_ == "optimal"
