"""Primal smoothed Newton with an exact bias against libsvm, HiGHS's dual QP and DCD."""

import warnings

import numpy as np
import pytest
from _svm_problems import dual_qp_optimum, weighted_svm_data
from sklearn.exceptions import ConvergenceWarning

from svmcore.solvers import fit_weighted_svm, hinge_objective
from svmcore.solvers._dcd import dcd_weighted_svm
from svmcore.solvers._newton import newton_weighted_svm
from svmcore.testing.reference import (
    fixed_bias_svm_objective,
    free_bias_svm_objective,
    weighted_two_blobs,
)

_data = weighted_svm_data
_qp_optimum = dual_qp_optimum


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_optimum_equals_libsvm_and_highs(seed):
    X, y, w = _data(120, 4, seed)
    C = 0.3
    ref = fit_weighted_svm(X, y, w, C=C, tol=1e-8)
    qp = _qp_optimum(X, y, C * w)
    res = newton_weighted_svm(X, y, w, C=C, gap_tol=1e-9)
    assert res.converged and res.gap <= 1e-9
    # The certificate brackets the independent optima.
    assert res.dual_objective <= ref.objective * (1 + 1e-9)
    assert res.dual_objective <= qp * (1 + 1e-7)
    assert res.objective == pytest.approx(qp, rel=1e-6)
    assert res.objective == pytest.approx(ref.objective, rel=1e-4)
    # objective is the exact primal at the returned (coef, intercept).
    assert res.objective == pytest.approx(
        hinge_objective(res.coef, res.intercept, X, y, w, C), rel=1e-12
    )
    a = res.feasible_dual_coef
    assert np.all((a >= 0) & (a <= C * w)) and abs(a @ y) <= 1e-9 * a.sum()
    # The bound is the dual objective of those duals (weak duality, recomputed here).
    u = X.T @ (a * y)
    assert res.dual_objective == pytest.approx(a.sum() - 0.5 * u @ u, rel=1e-12)


def test_heavy_weights_match_dcd():
    # AID's aggregated problems: few rows, weights in the thousands (dual CD's hard case).
    X, y, w = _data(60, 3, 4)
    C = 1.0
    res = newton_weighted_svm(X, y, w * 200, C=C, gap_tol=1e-8)
    ref = dcd_weighted_svm(X, y, w * 200, C=C, gap_tol=1e-8)
    assert res.converged
    assert res.objective == pytest.approx(ref.objective, rel=2e-8)
    assert res.dual_objective <= ref.objective * (1 + 1e-12)


def test_warm_start_matches_cold_start():
    X, y, w = _data(200, 3, 5)
    cold = newton_weighted_svm(X, y, w, C=0.1, gap_tol=1e-9)
    warm = newton_weighted_svm(
        X, y, w, C=0.1, gap_tol=1e-9, w0=cold.coef, b0=cold.intercept, mu0=cold.mu
    )
    assert warm.converged and warm.objective == pytest.approx(cold.objective, rel=1e-9)
    assert warm.n_epochs <= cold.n_epochs


def test_rough_target_and_step_budget():
    X, y, w = _data(300, 4, 6)
    rough = newton_weighted_svm(X, y, w, C=1.0, gap_tol=1e-2)
    assert rough.converged and rough.gap <= 1e-2
    capped = newton_weighted_svm(X, y, w, C=1.0, gap_tol=0.0, max_steps=2)
    assert not capped.converged and capped.n_epochs <= 2
    assert capped.dual_objective <= rough.objective * (1 + 1e-12)


def test_bad_mu0():
    # The arguments it shares with dcd_weighted_svm are checked in test_dcd.test_bad_input.
    X, y, _ = _data(10, 2, 0)
    with pytest.raises(ValueError, match="mu0"):
        newton_weighted_svm(X, y, mu0=0.0)


@pytest.mark.parametrize("C", [1e6, 1e8])
def test_huge_C_on_separable_data_is_solved_not_a_singular_matrix(C):
    # issue 19 (found by svmcore.testing.hostile): C s / mu swamped the unit curvature of
    # ||w||^2 / 2 and np.linalg.solve raised "Matrix is singular to machine precision"
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 3))
    X[:, 0] += np.where(X[:, 0] >= 0, 0.5, -0.5)  # a margin of 1 on the first feature
    y = np.where(X[:, 0] > 0, 1, -1)
    res = newton_weighted_svm(X, y, C=C, gap_tol=1e-6)
    # The bound is the dual objective of a feasible dual point (weak duality), and the
    # value is no lower than HiGHS's dual QP at its point made feasible (a lower bound
    # independent of ours).
    a = res.feasible_dual_coef
    assert np.all((a >= 0) & (a <= C)) and abs(a @ y) <= 1e-9 * a.sum()
    u = X.T @ (a * y)
    assert res.dual_objective == pytest.approx(a.sum() - 0.5 * u @ u, rel=1e-12)
    assert res.dual_objective <= res.objective
    ref = dual_qp_optimum(X, y, np.full(80, C))
    assert res.objective >= ref * (1 - 1e-12)
    assert res.objective <= ref * 1.05
    assert np.all(np.sign(X @ res.coef + res.intercept) == y)


@pytest.mark.parametrize(("seed", "b"), [(0, 0.0), (1, 0.4), (2, -0.7)])
@pytest.mark.parametrize("near_singular", [False, True])
def test_fixed_intercept_equals_an_independent_primal_solve(seed, b, near_singular):
    X, y, w = _data(25, 3, seed)
    if near_singular:  # a column equal to another up to 1e-9 (the hostile-data case)
        rng = np.random.default_rng(seed)
        X = np.c_[X, X[:, 0] * (1.0 + 1e-9 * rng.normal(size=25))]
    cost = 2.0 * w
    res = newton_weighted_svm(X, y, cost, C=1.0, gap_tol=1e-10, intercept=b)
    ref = fixed_bias_svm_objective(X, y, cost, b)
    assert res.converged and res.intercept == b
    assert res.objective == pytest.approx(ref, rel=1e-9)
    assert res.objective <= ref * (1 + 1e-12)
    assert res.objective == pytest.approx(hinge_objective(res.coef, b, X, y, cost), rel=1e-12)
    # Any duals in the box are feasible without a bias: the bound is their dual objective.
    a = res.feasible_dual_coef
    assert np.all((a >= 0) & (a <= cost))
    u = X.T @ (a * y)
    assert res.dual_objective == pytest.approx(a @ (1.0 - y * b) - 0.5 * u @ u, rel=1e-12)
    assert res.dual_objective <= ref * (1 + 1e-12)


@pytest.mark.parametrize(("seed", "n", "m"), [(91, 6, 2), (14, 8, 2), (20, 8, 3), (55, 10, 3)])
def test_free_bias_instances_that_stalled_are_certified(seed, n, m):
    # issue 19: mu went from 2 to ~1e-9 in one stage and Newton's steps zigzagged across
    # the kinks of that width: 204-253 steps, certified gaps 6.1e-2, 4.1e-1, 3.9e-1, 3.0e-4.
    X, y, cost = weighted_two_blobs(seed, n, m, 5.0)
    res = newton_weighted_svm(X, y, cost, gap_tol=1e-9)
    assert res.converged and res.gap <= 1e-9
    assert res.n_epochs <= 40  # 8-15 measured
    ref = free_bias_svm_objective(X, y, cost)  # SLSQP on the primal, bias free
    assert res.objective == pytest.approx(ref, rel=1e-9)
    assert res.dual_objective <= ref * (1 + 1e-12)
    assert res.objective == pytest.approx(
        hinge_objective(res.coef, res.intercept, X, y, cost), rel=1e-14
    )


@pytest.mark.parametrize("seed", [1, 9, 12])
def test_huge_weights_certify_through_the_round_off_of_the_margin(seed):
    # Costs 5e7..2e8: an exact solution whose margin rows sit 1e-16 inside the margin
    # paid C s * 1e-16 of hinge, gaps 3e-9..1.1e-7 (issue 19); scaled just outside, the
    # gap closes. SLSQP does not move at these costs: the reference is HiGHS's dual QP.
    X, y, cost = weighted_two_blobs(seed, 10, 2, 5e7)
    res = newton_weighted_svm(X, y, cost, gap_tol=1e-9)
    assert res.converged and res.gap <= 1e-9
    ref = dual_qp_optimum(X, y, cost)
    assert res.objective == pytest.approx(ref, rel=1e-9)
    # The objective is the one the caller computes at the returned point.
    assert res.objective == pytest.approx(
        hinge_objective(res.coef, res.intercept, X, y, cost), rel=1e-14
    )


def test_fixed_intercept_is_checked():
    X, y, _ = _data(10, 2, 0)
    with pytest.raises(ValueError, match="intercept"):
        newton_weighted_svm(X, y, intercept=float("nan"))


def _scaled_problem(exponent, mixed):
    rng = np.random.default_rng(3)
    y = np.where(rng.random(60) < 0.5, 1.0, -1.0)
    X = rng.normal(size=(60, 3)) + 0.8 * y[:, None]
    scale = 10.0**exponent
    return X * (np.array([scale, 1.0, 1.0]) if mixed else scale), y


@pytest.mark.parametrize("mixed", [False, True])
@pytest.mark.parametrize("exponent", [-150, -100, -20, -5, 0, 2, 5, 10, 20, 50, 100, 150])
def test_unscaled_data_is_certified_or_warned_about(exponent, mixed):
    # issue 19: on unscaled data (features 1e5..1e150, all or one column) Newton returned
    # an uncertified answer (relative gaps 2e-8 to 1e269) with no word. Now each solve is
    # certified (the bound recomputed here) or warns naming the data's scale.
    X, y = _scaled_problem(exponent, mixed)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = newton_weighted_svm(X, y, C=1.0, gap_tol=1e-9)
    scale_warnings = [w for w in caught if issubclass(w.category, ConvergenceWarning)]
    if res.converged:
        assert res.gap <= 1e-9 and not scale_warnings
        a = res.feasible_dual_coef
        assert np.all((a >= 0) & (a <= 1.0)) and abs(a @ y) <= 1e-9 * max(a.sum(), 1e-300)
        u = X.T @ (a * y)
        assert res.dual_objective == pytest.approx(a.sum() - 0.5 * u @ u, rel=1e-12)
        assert res.objective == pytest.approx(
            hinge_objective(res.coef, res.intercept, X, y, C=1.0), rel=1e-12
        )
    else:
        assert len(scale_warnings) == 1
        message = str(scale_warnings[0].message)
        assert "C s_i ||x_i||^2" in message and "rescale X" in message
        assert f"{res.gap:.3g}" in message
    if exponent <= 2:  # ordinary and tiny scales certify
        assert res.converged
    if exponent >= 10:  # 1e10 and beyond: uncertified
        assert not res.converged


def test_step_budget_and_warn_false_do_not_warn():
    X, y = _scaled_problem(20, False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = newton_weighted_svm(X, y, C=1.0, gap_tol=1e-9, max_steps=3)
        quiet = newton_weighted_svm(X, y, C=1.0, gap_tol=1e-9, warn=False)
    assert not res.converged and res.n_epochs <= 3
    assert not quiet.converged and quiet.mu <= 1e-12  # stopped at the width floor
