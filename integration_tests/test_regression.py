"""Regression: AID LAD against HiGHS's quantile regression; LP-SVR against libsvm's SVR."""

import numpy as np
import pytest
from _data import lad_regression, sinc_regression
from sklearn.linear_model import QuantileRegressor
from sklearn.svm import SVR

from aid_models import AIDLADRegressor
from lpsvr import LPSVR


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


def test_lpsvr_as_accurate_as_svr_with_fewer_support_vectors():
    X, y, X_test, y_test = sinc_regression()
    # Same kernel and tube; the two models differ in the regularizer (1-norm of the
    # expansion vs the RKHS norm), which is what makes LP-SVR sparse.
    svr = SVR(C=1.0, epsilon=0.1, gamma=0.5).fit(X, y)
    # The paper's Algorithm 1 (working set of min(100, N) samples, constraint blocks).
    lp = LPSVR(C=1.0, epsilon=0.1, gamma=0.5, decomposition="full", random_state=0).fit(X, y)
    assert lp.converged_
    mae_svr = float(np.abs(svr.predict(X_test) - y_test).mean())
    mae_lp = float(np.abs(lp.predict(X_test) - y_test).mean())
    assert mae_lp <= 1.1 * mae_svr
    assert lp.support_.size < svr.support_.size
