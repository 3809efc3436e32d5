"""Mean field annealing (Tables 5-7): OPTIMIZE-P, OPTIMIZE-W and the returned minimum."""

import numpy as np
import pytest
import scipy.sparse as sp
from _data import two_clusters
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq, minimize
from scipy.special import expit

from l2svm_mfn import MFAClassifier, MFNClassifier, squared_hinge_objective
from l2svm_mfn._mfa import (
    _entropy,
    _gather_dup,
    _kl,
    _unlabeled_system_into,
    mean_field_annealing,
    optimize_p,
    optimize_w,
)
from l2svm_mfn._tsvm import tsvm_objective


@settings(max_examples=40, deadline=None)
@given(
    outputs=st.lists(st.floats(-3, 3), min_size=1, max_size=200),
    lam_u=st.floats(0.01, 10.0),
    T=st.sampled_from([10.0, 1.0, 0.1, 1e-2, 1e-3]),
    r=st.floats(0.05, 0.95),
)
def test_optimize_p_meets_balance_constraint(outputs, lam_u, T, r):
    o = np.array(outputs)
    p, info = optimize_p(o, lam_u, T, r)
    assert abs(p.mean() - r) <= 1e-10
    assert np.all((p >= 0) & (p <= 1))


def test_optimize_p_matches_brentq_and_uses_newton():
    rng = np.random.default_rng(0)
    o = rng.uniform(-2, 2, 500)
    lam_u, T, r = 1.0, 0.5, 0.3
    p, info = optimize_p(o, lam_u, T, r)
    g = lam_u * (np.maximum(0, 1 - o) ** 2 - np.maximum(0, 1 + o) ** 2)
    nu = brentq(lambda v: expit(-(g - v) / T).mean() - r, g.min() - 50, g.max() + 50, xtol=1e-14)
    np.testing.assert_allclose(p, expit(-(g - nu) / T), atol=1e-9)
    # The Newton branch does the work (quadratic convergence: a handful of steps).
    assert info["n_newton"] >= 1 and info["n_newton"] + info["n_bisect"] <= 20
    # p minimizes the Lagrangian: p_j = 1 / (1 + exp((g_j - nu) / T)) (eq. 15).
    np.testing.assert_allclose(np.log(p / (1 - p)), (info["nu"] - g) / T, atol=1e-6)


def _w_objective(X, y, labeled, p, lam, lam_u):
    A = np.hstack([X.toarray() if sp.issparse(X) else X, np.ones((X.shape[0], 1))])
    L, U = np.flatnonzero(labeled), np.flatnonzero(~labeled)

    def f(w):
        o = A @ w
        ml = np.maximum(0, 1 - y[L] * o[L])
        mp, mn = np.maximum(0, 1 - o[U]), np.maximum(0, 1 + o[U])
        val = 0.5 * lam * w @ w + 0.5 * ml @ ml / L.size
        val += 0.5 * lam_u / U.size * (p @ (mp * mp) + (1 - p) @ (mn * mn))
        grad = lam * w - A[L].T @ (ml * y[L]) / L.size
        grad += A[U].T @ (lam_u / U.size * (-p * mp + (1 - p) * mn))
        return val, grad

    return f


@pytest.mark.parametrize("sparse", [False, True])
def test_optimize_w_minimizes_objective_8_at_fixed_p(sparse):
    X, y, _ = two_clusters(0, n=200, d=6)
    labeled = y != -1
    ys = np.where(y == 1, 1.0, -1.0)
    p = np.random.default_rng(1).random((~labeled).sum())
    Xin = sp.csr_matrix(X) if sparse else X
    w, o, n_iter, converged = optimize_w(Xin, ys, labeled, p, 1e-2, 1.0)
    f = _w_objective(X, ys, labeled, p, 1e-2, 1.0)
    ref = minimize(
        f,
        np.zeros(X.shape[1] + 1),
        jac=True,
        method="L-BFGS-B",
        options={"gtol": 1e-12, "ftol": 1e-16, "maxiter": 10000},
    ).fun
    assert converged and n_iter > 1
    assert abs(f(w)[0] - ref) <= 1e-6 * ref
    np.testing.assert_allclose(o, X @ w[:-1] + w[-1], rtol=1e-10, atol=1e-12)


def test_optimize_w_absolute_objective_tol_as_svmlin():
    # SVMlin's optimize_w stops once a step changes the objective by < 1e-6 (absolute)
    X, y, _ = two_clusters(0, n=200, d=6)
    labeled = y != -1
    ys = np.where(y == 1, 1.0, -1.0)
    p = np.random.default_rng(1).random((~labeled).sum())
    f = _w_objective(X, ys, labeled, p, 1e-2, 1.0)
    exact = optimize_w(X, ys, labeled, p, 1e-2, 1.0)
    # a huge tolerance stops after the first line-search step: not yet the minimum
    w, o, n_iter, converged = optimize_w(X, ys, labeled, p, 1e-2, 1.0, objective_tol=1e3)
    assert n_iter == 1 and converged and f(w)[0] > f(exact[0])[0] + 1e-9
    w, o, n_iter, _ = optimize_w(X, ys, labeled, p, 1e-2, 1.0, objective_tol=1e-6)
    assert n_iter <= exact[2] and abs(f(w)[0] - f(exact[0])[0]) < 1e-6
    np.testing.assert_allclose(o, X @ w[:-1] + w[-1], rtol=1e-10, atol=1e-12)


def test_returned_w_has_minimum_recorded_objective():
    X, y, _ = two_clusters(1, n=200)
    labeled = y != -1
    ys = np.where(y == 1, 1.0, -1.0)
    res = mean_field_annealing(X, ys, labeled, 1e-3, 1.0, positive_fraction=0.5)
    recorded = [rec["objective"] for rec in res.history]
    assert res.objective <= min(recorded)
    assert res.objective == pytest.approx(
        tsvm_objective(res.w, res.outputs, ys, labeled, 1e-3, 1.0)
    )
    # The path is not monotone in general, so returning the minimum matters.
    assert len(recorded) > 5
    # Every inner step met the balance constraint.
    assert max(abs(rec["p_residual"]) for rec in res.history) <= 1e-10


def test_stopping_rules_and_caps():
    X, y, _ = two_clusters(2, n=150)
    clf = MFAClassifier(unlabeled_value=-1, max_outer=2, max_inner=3).fit(X, y)
    outers = {rec["outer"] for rec in clf.history_}
    assert outers <= {1, 2}
    assert all(rec["inner"] <= 3 for rec in clf.history_)
    temps = sorted({rec["T"] for rec in clf.history_}, reverse=True)
    np.testing.assert_allclose(temps, [10.0, 10.0 / 1.5][: len(temps)])
    none = MFAClassifier(unlabeled_value=-1, max_outer=0).fit(X, y)
    assert none.n_iter_ == 0 and none.history_ == []


def test_entropy_and_divergence_in_bits_as_svmlin():
    # SVMlin v1.0 (the authors' code) measures (16) and (17) in bits; natural logarithms
    # would stop every loop a factor ln 2 earlier and take another annealing path.
    assert _entropy(np.full(8, 0.5)) == pytest.approx(8.0)
    p, q = np.array([0.9, 0.2]), np.array([0.5, 0.4])
    bits = p * np.log2(p / q) + (1 - p) * np.log2((1 - p) / (1 - q))
    assert _kl(p, q) == pytest.approx(bits.sum())
    # A belief that underflowed to exactly 0 or 1 keeps the divergence finite.
    assert np.isfinite(_kl(np.array([0.3, 1.0]), np.array([0.0, 0.2])))


def test_inner_loop_stops_at_the_first_kl_below_u_epsilon():
    X, y, _ = two_clusters(3, n=200)
    clf = MFAClassifier(unlabeled_value=-1).fit(X, y)
    u, eps = int((y == -1).sum()), clf.anneal_tol
    for outer in {rec["outer"] for rec in clf.history_}:
        kls = [rec["kl"] for rec in clf.history_ if rec["outer"] == outer]
        assert all(kl > u * eps for kl in kls[:-1])
        assert kls[-1] <= u * eps or len(kls) == clf.max_inner


def test_better_than_supervised_on_two_clusters():
    errors = []
    for seed in range(6):
        X, y, y_true = two_clusters(seed)
        unl = y == -1
        mfn = MFNClassifier(alpha=1e-3).fit(X[~unl], y[~unl])
        mfa = MFAClassifier(unlabeled_value=-1).fit(X, y)
        errors.append(
            [
                (mfn.predict(X[unl]) != y_true[unl]).mean(),
                (mfa.transduction_[unl] != y_true[unl]).mean(),
            ]
        )
    mean_mfn, mean_mfa = np.mean(errors, axis=0)
    assert mean_mfa < mean_mfn


def test_sparse_equals_dense_and_beliefs():
    X, y, _ = two_clusters(3, n=150, d=3)
    a = MFAClassifier(unlabeled_value=-1, max_outer=5).fit(X, y)
    b = MFAClassifier(unlabeled_value=-1, max_outer=5).fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-7, atol=1e-9)
    assert a.beliefs_.shape == ((y == -1).sum(),)
    assert abs(a.beliefs_.mean() - a.positive_fraction_) <= 1e-10


def test_bad_input():
    X, y, _ = two_clusters(4, n=60)
    with pytest.raises(ValueError, match="temperature"):
        MFAClassifier(temperature=0.0).fit(X, y)
    with pytest.raises(ValueError, match="temperature_factor"):
        MFAClassifier(temperature_factor=0.5).fit(X, y)
    with pytest.raises(ValueError, match="both classes"):
        MFAClassifier().fit(X, np.where(y == -1, -1, 7))  # one labeled class
    with pytest.raises(ValueError, match="Only binary"):
        MFAClassifier().fit(X, np.where(y == -1, -1, np.arange(60) % 3))


def _unlabeled_system_numpy(o_u, p, lam_u, n_u, weight_u):
    """Eq. (14) as numpy expressions (the kernel's former form): the reference."""
    base = weight_u * lam_u / n_u
    far = np.abs(o_u) >= 1.0
    target = np.where(far, -np.sign(o_u), 2.0 * p - 1.0)
    cost = np.where(far, np.where(o_u < 0, p, 1.0 - p), 1.0) * base
    return target, cost


@settings(max_examples=60, deadline=None)
@given(
    outputs=st.lists(
        st.one_of(st.floats(-3, 3), st.sampled_from([-1.0, 1.0, 0.0, -0.0, 1e300, -1e300])),
        min_size=2,
        max_size=60,
    ),
    lam_u=st.floats(1e-3, 10.0),
    seed=st.integers(0, 2**16),
)
def test_in_place_unlabeled_system_and_duplicated_rows_equal_numpy_to_the_bit(outputs, lam_u, seed):
    # issue 19 (memory): OPTIMIZE-W's eq. (14) system and the duplicated problem's
    # outputs are written in place instead of through n-sized numpy temporaries; the
    # iterates stay the same only if every value is the same bit for bit.
    rng = np.random.default_rng(seed)
    o = np.array(outputs)
    n = o.size
    labeled = np.zeros(n, dtype=bool)
    labeled[rng.choice(n, size=max(1, n // 4), replace=False)] = True
    lab, unl = np.flatnonzero(labeled), np.flatnonzero(~labeled)
    p = rng.uniform(0, 1, size=unl.size)
    weight = rng.uniform(0.1, 3.0, size=n)
    n_u = weight[unl].sum()
    target = np.full(n, np.nan)
    cost = np.full(n, np.nan)
    _unlabeled_system_into(o, unl, p, lam_u, n_u, weight, target, cost)
    ref_target, ref_cost = _unlabeled_system_numpy(o[unl], p, lam_u, n_u, weight[unl])
    assert target[unl].tobytes() == ref_target.tobytes()
    assert cost[unl].tobytes() == ref_cost.tobytes()
    assert np.isnan(target[lab]).all() and np.isnan(cost[lab]).all()  # untouched
    dup = _gather_dup(o, lab, unl, np.empty(lab.size + 2 * unl.size))
    assert dup.tobytes() == np.concatenate([o[lab], o[unl], o[unl]]).tobytes()
    dup = np.clip(dup, -1e3, 1e3)  # the objective of finite outputs (1e300 overflows)
    y = np.where(rng.uniform(size=dup.size) < 0.5, -1.0, 1.0)
    c = rng.uniform(0, 2, size=dup.size)
    w = rng.normal(size=3)
    margin = np.maximum(0.0, 1.0 - y * dup)
    expected = 0.5 * float(np.sum(0.7 * w * w)) + 0.5 * float(np.sum(c * margin * margin))
    assert squared_hinge_objective(w, dup, y, c, 0.7) == expected
