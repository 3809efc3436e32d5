"""The aggregated MIQP (15) against brute force over all labelings (exact QP per labeling)."""

import numpy as np
import pytest
from _s3vm_brute import brute_force, svm_qp
from scipy.optimize import minimize

from aid_models._s3vm_miqp import (
    aggregated_objective,
    big_m_bound,
    solve_aggregated_miqp,
    weighted_svm_qp,
)
from svmcore.datasets import make_g241c


def _instance(seed, n_l=6, n_u=8, m=2):
    rng = np.random.default_rng(seed)
    X_l = rng.normal(size=(n_l, m))
    y_l = np.tile([1.0, -1.0], n_l // 2)
    X_l[y_l > 0] += 1.5
    X_u = rng.normal(size=(n_u, m))
    X_u[: n_u // 2] += 1.5
    # Cluster sizes as weights, the penalties M_l = 5, M_u = 1 of the paper.
    cost_l = 5.0 * rng.integers(1, 5, n_l)
    cost_u = 1.0 * rng.integers(1, 8, n_u)
    return X_l, y_l, cost_l, X_u, cost_u


def _incumbents(X_l, y_l, cost_l, balance):
    w, b, _ = weighted_svm_qp(X_l, y_l, cost_l, balance=balance)
    return [(w, b), (np.zeros(X_l.shape[1]), 0.0 if balance is None else balance[1])]


@pytest.mark.parametrize(("seed", "use_balance"), [(0, False), (1, True), (2, False)])
def test_miqp_optimum_equals_brute_force(seed, use_balance):
    X_l, y_l, cost_l, X_u, cost_u = _instance(seed)
    balance = (X_u.mean(axis=0), y_l.mean()) if use_balance else None
    res = solve_aggregated_miqp(
        X_l,
        y_l,
        cost_l,
        X_u,
        cost_u,
        balance=balance,
        incumbents=_incumbents(X_l, y_l, cost_l, balance),
    )
    ref, w_ref, b_ref, d_ref = brute_force(X_l, y_l, cost_l, X_u, cost_u, balance)
    assert res.proven_optimal
    assert res.objective == pytest.approx(ref, rel=1e-7)
    # SCIP's own primal value and proven bound bracket the optimum within its gap limit.
    assert res.dual_bound <= ref * (1 + 1e-6)
    assert res.scip_objective == pytest.approx(ref, rel=1e-5)
    # The reported F^t is (15) evaluated at the returned (w, b, d).
    X = np.vstack([X_l, X_u])
    y = np.concatenate([y_l, res.d])
    cost = np.concatenate([cost_l, cost_u])
    assert res.objective == pytest.approx(aggregated_objective(res.w, res.b, X, y, cost), rel=1e-12)
    if balance is not None:
        assert balance[0] @ res.w + res.b == pytest.approx(balance[1], abs=1e-7)


def test_weighted_svm_qp_equals_an_independent_formulation():
    X_l, y_l, cost_l, X_u, cost_u = _instance(3, n_l=10, n_u=0, m=3)
    w, b, value = weighted_svm_qp(X_l, y_l, cost_l)
    ref, *_ = svm_qp(X_l, y_l, cost_l)
    assert value == pytest.approx(ref, rel=1e-8)


def test_balanced_svm_qp_equals_an_independent_dual_solve():
    # The instance on which the free-bias primal QP made HiGHS report kUnbounded.
    X, y = make_g241c(300, 20, random_state=0)
    lab = np.r_[np.flatnonzero(y < 0)[:10], np.flatnonzero(y > 0)[:10]]
    unl = np.setdiff1d(np.arange(300), lab)
    y_l, cost = y[lab].astype(float), np.full(20, 5.0)
    x_bar, target = X[unl].mean(axis=0), y_l.mean()
    w, b, value = weighted_svm_qp(X[lab], y_l, cost, balance=(x_bar, target))
    assert x_bar @ w + b == pytest.approx(target, abs=1e-12)
    # Independent: L-BFGS-B on the same dual; strong duality makes the values meet.
    Z = y_l[:, None] * (X[lab] - x_bar)
    G, lin = Z @ Z.T, 1.0 - y_l * target
    ref = minimize(
        lambda a: 0.5 * a @ G @ a - lin @ a,
        np.zeros(20),
        jac=lambda a: G @ a - lin,
        bounds=[(0.0, 5.0)] * 20,
        method="L-BFGS-B",
        options={"ftol": 1e-15, "gtol": 1e-12},
    )
    assert value == pytest.approx(-ref.fun, rel=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_big_m_bounds_hold_at_the_brute_force_optimum(seed):
    X_l, y_l, cost_l, X_u, cost_u = _instance(seed + 10, n_u=6)
    ref, w, b, d = brute_force(X_l, y_l, cost_l, X_u, cost_u)
    X = np.vstack([X_l, X_u])
    y0 = np.concatenate([y_l, np.zeros(X_u.shape[0])])
    cost = np.concatenate([cost_l, cost_u])
    # The bound from the zero hyperplane (the loosest incumbent), as the solver may use it.
    upper = aggregated_objective(np.zeros(X.shape[1]), 0.0, X, y0, cost)
    R, B, M = big_m_bound(X_l, y_l, cost_l, X_u, upper)
    assert np.linalg.norm(w) <= R
    assert abs(b) <= B
    assert np.all(1.0 + np.abs(X_u @ w + b) <= M)


@pytest.mark.parametrize(
    ("n_u", "limit", "status"),
    [
        # Below SCIP's floor of 1 ms: the root node alone takes seconds with 150 binaries,
        # so the solve stops on its time limit however fast the machine (possibly before
        # SCIP has a dual bound: -1e20, its -infinity).
        (150, {"time_limit": 1e-9}, "timelimit"),
        # A node limit stops at the same point on every machine, after the root node has
        # given SCIP a finite dual bound.
        (40, {"scip_params": {"limits/nodes": 1}}, "nodelimit"),
    ],
)
def test_time_limited_solve_returns_its_best_solution_and_gap(n_u, limit, status):
    rng = np.random.default_rng(0)
    X_l = rng.normal(size=(20, 10))
    y_l = np.tile([1.0, -1.0], 10)
    X_u = rng.normal(size=(n_u, 10))
    cost_l, cost_u = np.full(20, 5.0), np.ones(n_u)
    incumbents = _incumbents(X_l, y_l, cost_l, None)
    res = solve_aggregated_miqp(X_l, y_l, cost_l, X_u, cost_u, incumbents=incumbents, **limit)
    assert res.status == status
    assert not res.proven_optimal
    assert res.mip_gap > 0.0
    assert res.dual_bound <= res.objective
    if status == "nodelimit":
        assert res.dual_bound > -1e20 and 0.0 < res.mip_gap < 1.0
    # The best solution found is kept: no worse than the incumbents SCIP started from.
    X, y = np.vstack([X_l, X_u]), np.r_[y_l, np.zeros(n_u)]
    start = min(aggregated_objective(w, b, X, y, np.r_[cost_l, cost_u]) for w, b in incumbents)
    assert res.objective <= start * (1 + 1e-9)
    assert res.objective == aggregated_objective(res.w, res.b, X, y, np.r_[cost_l, cost_u])
