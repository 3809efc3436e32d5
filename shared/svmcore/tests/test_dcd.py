"""Dual coordinate descent with an exact bias against libsvm and HiGHS's dual QP."""

import numpy as np
import pytest
import scipy.sparse as sp
from _svm_problems import dual_qp_optimum, weighted_svm_data

from svmcore.solvers import fit_weighted_svm, hinge_objective
from svmcore.solvers._dcd import dcd_weighted_svm
from svmcore.solvers._newton import newton_weighted_svm

_data = weighted_svm_data
_qp_optimum = dual_qp_optimum


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_optimum_equals_libsvm_and_highs(sparse, seed):
    X, y, w = _data(120, 4, seed)
    C = 0.3
    ref = fit_weighted_svm(X, y, w, C=C, tol=1e-8)
    qp = _qp_optimum(X, y, C * w)
    res = dcd_weighted_svm(sp.csr_matrix(X) if sparse else X, y, w, C=C, gap_tol=1e-9)
    assert res.converged and res.gap <= 1e-9
    # The certificate brackets the independent optima.
    assert res.dual_objective <= ref.objective * (1 + 1e-9)
    assert res.dual_objective <= qp * (1 + 1e-7)
    # libsvm at tol=1e-8 is accurate to ~1e-5 relative here; DCD's own gap is 1e-9.
    assert ref.dual_objective * (1 - 1e-9) <= res.objective <= ref.objective * (1 + 1e-9)
    assert res.objective == pytest.approx(ref.objective, rel=1e-4)
    assert res.objective == pytest.approx(qp, rel=1e-6)
    # objective is the exact primal at the returned (coef, intercept).
    assert res.objective == pytest.approx(
        hinge_objective(res.coef, res.intercept, X, y, w, C), rel=1e-12
    )
    a = res.feasible_dual_coef
    assert np.all((a >= 0) & (a <= C * w)) and abs(a @ y) <= 1e-9 * a.sum()


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_proximal_rounds_with_carried_shrinking_reach_the_qp_optimum(sparse, seed):
    # Each proximal round starts from the last one's shrunk rows (_carry_shrinking). On
    # data with zeros (CSR: centred implicitly) the solve takes a dozen rounds; it must
    # still end at HiGHS's optimum, every round having ended on a pass over every row.
    X, y, w = _data(150, 5, seed)
    X[np.abs(X - 3.0) < 0.8] = 0.0
    C = 0.3
    qp = _qp_optimum(X, y, C * w)
    res = dcd_weighted_svm(sp.csr_matrix(X) if sparse else X, y, w, C=C, gap_tol=1e-9)
    assert res.n_rounds >= 10
    assert res.converged and res.gap <= 1e-9
    assert res.dual_objective <= qp * (1 + 1e-9) and res.objective >= qp * (1 - 1e-9)
    assert res.objective == pytest.approx(qp, rel=1e-8)
    assert res.objective == pytest.approx(
        hinge_objective(res.coef, res.intercept, X, y, w, C), rel=1e-12
    )


def test_warm_start_from_split_duals_keeps_the_bound():
    X, y, w = _data(200, 3, 5)
    C = 0.1
    # Aggregate pairs of same-label rows, solve, then split them back (AID's warm start).
    order = np.argsort(y, kind="stable")
    X, y, w = X[order], y[order], w[order]
    pairs = np.arange(200) // 2
    W = np.bincount(pairs, weights=w)
    Xm = np.stack([np.bincount(pairs, weights=w * X[:, j]) for j in range(3)], 1) / W[:, None]
    agg = dcd_weighted_svm(Xm, y[::2], W, C=C, gap_tol=1e-9)
    alpha0 = agg.feasible_dual_coef[pairs] * w / W[pairs]
    cold = dcd_weighted_svm(X, y, w, C=C, gap_tol=1e-8)
    warm = dcd_weighted_svm(X, y, w, C=C, gap_tol=1e-8, alpha0=alpha0, b0=agg.intercept)
    # The split duals are feasible with the aggregated dual value: a valid start bound.
    assert warm.dual_objective >= agg.dual_objective * (1 - 1e-12)
    assert warm.objective == pytest.approx(cold.objective, rel=1e-7)
    assert warm.converged and cold.converged


def test_epoch_budget_reports_not_converged():
    X, y, w = _data(80, 3, 1)
    res = dcd_weighted_svm(X, y, w * 100, C=1.0, gap_tol=0.0, max_epochs=3)
    assert not res.converged and res.n_epochs <= 3
    assert res.dual_objective <= res.objective


_BAD_COMMON = [
    ({"C": 0.0}, "C"),
    ({"gap_tol": -1.0}, "gap_tol"),
    ({"sample_weight": -np.ones(10)}, "sample_weight"),
    ({"y": np.ones(10)}, "both -1 and \\+1"),
]
#: dual coordinate descent's own arguments
_BAD_DCD = [({"sigma": -1.0}, "sigma"), ({"alpha0": np.zeros(3)}, "alpha0")]


@pytest.mark.parametrize(
    ("kwargs", "match", "solve"),
    [(*case, dcd_weighted_svm) for case in _BAD_COMMON + _BAD_DCD]
    + [(*case, newton_weighted_svm) for case in _BAD_COMMON],
)
def test_bad_input(kwargs, match, solve):
    X, y, _ = _data(10, 2, 0)
    kwargs = dict(kwargs)  # shared by both parametrizations
    y = kwargs.pop("y", y)
    with pytest.raises(ValueError, match=match):
        solve(X, y, **kwargs)
