"""Rows held at their upper bound folded out of the row/column LP: same optimum, smaller LP."""

import numpy as np
import pytest

import lpsvr._row_column
from lpsvr._folding import FoldedRowColumnLP
from lpsvr._lp import RowColumnLP, solve_svr_lp
from lpsvr._result import _sample_multipliers
from lpsvr._row_column import fit_row_column
from svmcore.datasets import make_noisy_sinc
from svmcore.kernels import gram
from svmcore.solvers import SolverLimitError

PARAMS = dict(kernel="rbf", gamma=0.5, degree=3, coef0=0.0)
EPS = 0.05


def noisy(n, seed=0):
    """Noise well above epsilon: most samples outside the tube, their pi_r at the bound."""
    X, y = make_noisy_sinc(n, noise=0.3, random_state=seed)
    X = X / 5.0
    cost = np.linspace(1.0, 3.0, n)  # per-sample bounds u_r
    return X, y, cost


def both_sides(S):
    return np.r_[S, S], np.r_[-np.ones(S.size), np.ones(S.size)]


def full_lp_optimum(X, d, cost, P, rows):
    K = gram(X[rows[0]], X[P], **PARAMS)
    # both rows of a sample with one xi equal two rows with their own xi (epsilon >= 0)
    S = np.unique(rows[0])
    return solve_svr_lp(gram(X[S], X[P], **PARAMS), d[S], cost[S], EPS, method="simplex").fun, K


def test_folding_rows_at_their_bound_keeps_the_optimum_and_shrinks_the_lp():
    X, d, cost = noisy(300)
    rng = np.random.default_rng(0)
    P = rng.choice(300, size=40, replace=False)
    rows = both_sides(np.arange(300))
    lp = FoldedRowColumnLP(X, d, cost, EPS, PARAMS, n_jobs=1, lp_tol=None)
    lp.add_columns(P[:30])
    lp.add_rows(*rows)
    alpha, b, pi, fun, _ = lp.solve()
    mu, nu = _sample_multipliers(lp, pi, 300)
    up = lp.foldable(pi, 1e-9)
    assert up.size > 100  # most samples outside the tube
    lp.fold(up)
    assert lp.row_sample.size == 600 - up.size and lp.fold_sample.size == up.size
    alpha2, b2, pi2, fun2, _ = lp.solve()
    # the same vertex: optimum, alpha, b and the multipliers per sample
    assert fun2 == pytest.approx(fun, rel=1e-10)
    np.testing.assert_allclose(alpha2, alpha, atol=1e-9)
    assert b2 == pytest.approx(b, abs=1e-9)
    mu2, nu2 = _sample_multipliers(lp, pi2, 300)
    np.testing.assert_allclose(mu2, mu, atol=1e-9)
    np.testing.assert_allclose(nu2, nu, atol=1e-9)
    # new columns: their dual rows carry the folded rows' share in their bounds; the
    # optimum is that of the LP holding every row (a plain RowColumnLP)
    ref = RowColumnLP(X, d, cost, EPS, PARAMS, n_jobs=1, lp_tol=None)
    ref.add_columns(P)
    ref.add_rows(*rows)
    lp.add_columns(P[30:])
    _, _, pi3, fun3, _ = lp.solve()
    ref_fun = ref.solve()[3]
    assert fun3 == pytest.approx(ref_fun, rel=1e-9)
    assert fun3 == pytest.approx(full_lp_optimum(X, d, cost, P, rows)[0], rel=1e-9)
    # every folded row still at its bound, and beta = mu - nu satisfies the dual rows
    samples, signs = lp.rows
    assert np.array_equal(pi3[lp.row_sample.size :], cost[lp.fold_sample])
    beta = np.bincount(samples, weights=signs * pi3, minlength=300)
    assert abs(beta.sum()) < 1e-7
    assert np.abs(gram(X[P], X, **PARAMS) @ beta).max() <= 1.0 + 1e-7


def test_unfolded_rows_return_to_the_lp_for_good():
    X, d, cost = noisy(200, seed=1)
    P = np.arange(0, 200, 8)
    rows = both_sides(np.arange(200))
    lp = FoldedRowColumnLP(X, d, cost, EPS, PARAMS, n_jobs=1, lp_tol=None)
    lp.add_columns(P)
    lp.add_rows(*rows)
    _, _, pi, fun, _ = lp.solve()
    up = lp.foldable(pi, 1e-9)
    back = (lp.row_sample[up[:5]], lp.row_sign[up[:5]])
    lp.fold(up)
    lp.unfold(*back)
    assert lp.fold_sample.size == up.size - 5
    _, _, pi2, fun2, _ = lp.solve()
    assert fun2 == pytest.approx(fun, rel=1e-10)
    # pinned: at their bound again, but never folded a second time
    again = lp.foldable(pi2, 1e-9)
    keys = set(zip(lp.row_sample[again].tolist(), lp.row_sign[again].tolist(), strict=True))
    assert keys.isdisjoint(zip(back[0].tolist(), back[1].tolist(), strict=True))


def test_infeasible_fold_is_relaxed_and_unfolding_reaches_the_whole_lp():
    """Rows folded at their bound that no point allows (a wrong guess): the LP relaxes."""
    X, d, cost = noisy(120, seed=2)
    P = np.arange(0, 120, 6)
    S = np.arange(120)
    lp = FoldedRowColumnLP(X, d, cost, EPS, PARAMS, n_jobs=1, lp_tol=None)
    lp.add_columns(P)
    # every upper row folded at u while only half the lower rows remain: s pi = 0 is
    # out of reach (sum of u over the folded rows > over the LP's), the LP is infeasible
    lp.fold_rows(S, np.ones(S.size))
    lp.add_rows(S[:60], -np.ones(60))
    alpha, b, pi, fun, _ = lp.solve()
    assert lp.n_relaxed >= 1 and lp.fold_sample.size > 0
    ref = RowColumnLP(X, d, cost, EPS, PARAMS, n_jobs=1, lp_tol=None)
    ref.add_columns(P)
    ref.add_rows(np.r_[S[:60], S], np.r_[-np.ones(60), np.ones(120)])
    ref_fun = ref.solve()[3]
    for _ in range(50):
        # a restriction of the dual: a dual-feasible point, the primal optimum not above
        samples, signs = lp.rows
        beta = np.bincount(samples, weights=signs * pi, minlength=120)
        assert abs(beta.sum()) < 1e-7
        assert np.abs(gram(X[P], X, **PARAMS) @ beta).max() <= 1.0 + 1e-7
        assert fun <= ref_fun * (1 + 1e-9)
        # the KKT check of fit_row_column: unfold the folded rows f does not reach
        f = gram(X[lp.fold_sample], X[lp.cols], **PARAMS) @ alpha + b
        wrong = lp.fold_sign * (f - d[lp.fold_sample]) - EPS < -1e-9
        if not wrong.any():
            break
        lp.unfold(lp.fold_sample[wrong], lp.fold_sign[wrong])
        alpha, b, pi, fun, _ = lp.solve()
    assert fun == pytest.approx(ref_fun, rel=1e-9)


def test_row_column_fit_folds_unfolds_and_reaches_the_full_lp(monkeypatch):
    """End to end: rows fold and some are unfolded by the KKT check; the optimum is exact."""
    calls = {"fold": 0, "unfold": 0}

    class Spy(FoldedRowColumnLP):
        def fold(self, positions):
            calls["fold"] += len(positions)
            super().fold(positions)

        def unfold(self, samples, signs):
            calls["unfold"] += len(samples)
            super().unfold(samples, signs)

    monkeypatch.setattr(lpsvr._row_column, "FoldedRowColumnLP", Spy)
    X, d, cost = noisy(400, seed=3)
    kw = dict(epsilon=EPS, kernel_params=PARAMS, B0=20, min_level=100, random_state=0)
    res = fit_row_column(X, d, cost, fold_min=0, **kw)  # fold at every solve
    assert res.converged and calls["fold"] > 100 and calls["unfold"] > 0
    ref = solve_svr_lp(gram(X, **PARAMS), d, cost, EPS, method="simplex")
    assert res.objective == pytest.approx(ref.fun, rel=1e-7)
    assert max(res.kkt["dual"], res.kkt["complementarity"]) < 1e-6


def test_relaxed_re_solves_share_one_time_limit(monkeypatch):
    """The re-solves after relaxing count against the same time_limit."""
    import lpsvr._folding

    X, d, cost = noisy(120, seed=2)
    lp = FoldedRowColumnLP(X, d, cost, EPS, PARAMS, n_jobs=1, lp_tol=None)
    lp.add_columns(np.arange(0, 120, 6))
    lp.fold_rows(np.arange(120), np.ones(120))  # infeasible, as above
    lp.add_rows(np.arange(60), -np.ones(60))
    clock = iter(np.arange(0.0, 100.0))  # one second per reading
    monkeypatch.setattr(lpsvr._folding.time, "perf_counter", lambda: next(clock))
    with pytest.raises(SolverLimitError, match="Time limit"):
        lp.solve(time_limit=1.5)  # attempt 1 at 1 s (infeasible), attempt 2 due at 2 s
    assert lp.n_relaxed == 1
