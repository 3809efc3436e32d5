"""LP-SVR: decompositions vs the full LP, KKT of the corrected LP, the paper's flaw, sparseness."""

import warnings
from functools import partial

import numpy as np
import pytest
import scipy.linalg as sla
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog
from sklearn.datasets import make_friedman1
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel
from sklearn.svm import SVC, SVR

import lpsvr._lpsvc
import lpsvr._lpsvr
import lpsvr._row_column
from lpsvr import LPSVC, LPSVR
from lpsvr._constraint_decomposition import constraint_decomposition
from lpsvr._interior import (
    _factor,
    _normal_product,
    _refined_solve,
    _scaled_syrk,
    constraint_rows,
    interior_point,
    interior_point_rows,
)
from lpsvr._lp import RowColumnLP, solve_svr_lp
from lpsvr._row_column import fit_row_column
from lpsvr._variable_decomposition import fit_lp_svr
from svmcore.datasets import load_bundled, make_noisy_sinc
from svmcore.solvers import InfeasibleError, LinearProgram, SolverError, TimeBudget, solve_lp
from svmcore.testing import ticking_clock

KERNELS = {
    "rbf": (dict(kernel="rbf", gamma=0.5, degree=3, coef0=0.0), lambda A: rbf_kernel(A, gamma=0.5)),
    "linear": (dict(kernel="linear", gamma=1.0, degree=3, coef0=0.0), linear_kernel),
    "poly": (
        dict(kernel="poly", gamma=0.5, degree=2, coef0=1.0),
        lambda A: polynomial_kernel(A, degree=2, gamma=0.5, coef0=1.0),
    ),
}


def sinc_data(n, seed, noise=0.1):
    X, y = make_noisy_sinc(n, noise=noise, random_state=seed)
    return X / 5.0, y  # x in [-2, 2]: keeps the poly kernel well scaled


def friedman_like(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, 3))
    y = np.sin(2 * X[:, 0]) + X[:, 1] ** 2 - 0.5 * X[:, 2] + 0.1 * rng.standard_normal(n)
    return X, y


def corrected_lp_reference(K, d, C, eps):
    """The corrected LP in the paper's layout with u and v as explicit variables, by linprog."""
    N = len(d)
    I = np.eye(N)
    Z = np.zeros((N, N))
    one = np.ones((N, 1))
    A_eq = np.block(
        [
            [-K, K, -one, one, -I, I, Z],  # row 1 with its own surplus u
            [K, -K, one, -one, -I, Z, I],  # row 2 with its own surplus v
        ]
    )
    b_eq = np.r_[eps - d, eps + d]
    c = np.r_[np.ones(2 * N), 0.0, 0.0, 2 * C * np.ones(N), np.zeros(2 * N)]
    return linprog(c, A_eq=A_eq, b_eq=b_eq, bounds=(0, None), method="highs")


def check_full_kkt(K, d, cost, eps, alpha, b, mu, nu, atol=1e-6):
    """KKT (6a)-(6d) of the corrected full LP, computed from the full kernel matrix."""
    f = K @ alpha + b
    r = d - f
    xi = np.maximum(np.abs(r) - eps, 0.0)
    u = eps - r + xi
    v = eps + r + xi
    # (6b)/(6d) primal: reconstructed xi, u, v >= 0 satisfy the rows exactly
    assert np.all(u >= -atol) and np.all(v >= -atol)
    # (6a)/(6d) dual: s = c - A^T lambda >= 0 with lambda = (-mu, -nu)
    g = K @ (mu - nu)
    s_plus, s_minus = 1 - g, 1 + g
    s_xi = cost - mu - nu
    assert np.all(s_plus >= -atol) and np.all(s_minus >= -atol)
    assert np.all(s_xi >= -atol) and np.all(mu >= -atol) and np.all(nu >= -atol)
    assert abs(np.sum(mu - nu)) <= atol  # columns b+ and b-
    # (6c) complementarity z_i s_i = 0
    a_plus, a_minus = np.maximum(alpha, 0), np.maximum(-alpha, 0)
    for z, s in ((a_plus, s_plus), (a_minus, s_minus), (xi, s_xi), (u, mu), (v, nu)):
        np.testing.assert_allclose(z * s, 0.0, atol=atol)


# --------------------------------------------------------------------------- the flaw


def test_literal_formulation_forces_interpolation():
    """Problem (3) as printed (one u_j in both rows) forces f(x_j) = d_j.

    A well-conditioned kernel (gamma=5 on [-10, 10]) keeps interpolation feasible;
    with a near-singular kernel the printed LP is even infeasible on noisy data.
    """
    X, d = make_noisy_sinc(40, noise=0.1, random_state=0)
    K = rbf_kernel(X, gamma=5.0)
    N, C, eps = len(d), 1.0, 0.1
    I, one = np.eye(N), np.ones((N, 1))
    A = np.block([[-K, K, -one, one, -I, I], [K, -K, one, -one, -I, I]])  # (4a) verbatim
    b = np.r_[eps - d, eps + d]  # (4b)
    c = np.r_[np.ones(2 * N), 0, 0, 2 * C * np.ones(N), np.zeros(N)]  # (4d)
    res = solve_lp(c, A_eq=A, b_eq=b, bounds=(0, None))
    a = res.x[:N] - res.x[N : 2 * N]
    f = K @ a + res.x[2 * N] - res.x[2 * N + 1]
    xi, u = res.x[2 * N + 2 : 3 * N + 2], res.x[3 * N + 2 :]
    np.testing.assert_allclose(f, d, atol=1e-6)  # interpolation
    np.testing.assert_allclose(u, eps + xi, atol=1e-6)
    # The corrected model tolerates errors up to epsilon and is cheaper and sparser.
    reg = LPSVR(C=C, epsilon=eps, gamma=5.0, decomposition="none").fit(X, d)
    assert reg.objective_ < res.fun - 1e-3
    resid = np.abs(reg.predict(X) - d)
    assert resid.max() > 0.05  # does not interpolate ...
    assert np.all(resid <= eps + 1e-6) or reg.saturated_support_.size > 0
    assert reg.support_.size < np.count_nonzero(np.abs(a) > 1e-9)


def test_literal_formulation_infeasible_with_near_singular_kernel():
    X, d = sinc_data(40, 0)
    K = rbf_kernel(X, gamma=0.5)  # condition number ~1e15
    N, eps = len(d), 0.1
    I, one = np.eye(N), np.ones((N, 1))
    A = np.block([[-K, K, -one, one, -I, I], [K, -K, one, -one, -I, I]])
    c = np.r_[np.ones(2 * N), 0, 0, 2 * np.ones(N), np.zeros(N)]
    with pytest.raises(InfeasibleError):
        solve_lp(c, A_eq=A, b_eq=np.r_[eps - d, eps + d], bounds=(0, None))
    assert LPSVR(epsilon=eps, gamma=0.5, decomposition="none").fit(X, d).converged_


def test_corrected_lp_matches_independent_linprog():
    X, d = sinc_data(60, 1)
    K = rbf_kernel(X, gamma=0.5)
    ref = corrected_lp_reference(K, d, C=2.0, eps=0.05)
    assert ref.status == 0
    reg = LPSVR(C=2.0, epsilon=0.05, gamma=0.5, decomposition="none").fit(X, d)
    assert reg.objective_ == pytest.approx(ref.fun, rel=1e-8)


# --------------------------------------------------------------------------- decompositions


@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
@pytest.mark.parametrize("seed", [0, 1])
def test_decompositions_reach_full_lp_objective_and_kkt(kernel, seed):
    params, full_kernel = KERNELS[kernel]
    X, d = (sinc_data if kernel == "rbf" else friedman_like)(100, seed)
    N = len(d)
    cost = np.full(N, 2.0 * 1.0)
    eps = 0.15
    ref = fit_lp_svr(X, d, cost, epsilon=eps, kernel_params=params, decomposition="none", n_jobs=1)
    K = full_kernel(X)
    check_full_kkt(K, d, cost, eps, ref.alpha, ref.b, ref.mu, ref.nu)
    for dec in ("variables", "full", "row_column"):
        res = fit_lp_svr(
            X,
            d,
            cost,
            epsilon=eps,
            kernel_params=params,
            decomposition=dec,
            B0=10,
            random_state=seed,
            n_jobs=1,
        )
        assert res.converged
        assert res.objective == pytest.approx(ref.objective, rel=1e-6)
        check_full_kkt(K, d, cost, eps, res.alpha, res.b, res.mu, res.nu)
        assert res.history[-1]["n_violators" if dec != "row_column" else "n_added"] == 0
        assert max(res.kkt["dual"], res.kkt["complementarity"]) < 1e-6


def _row_column_at_full_optimum(X, d, kernel, **options):
    """``fit_row_column`` on ``(X, d)`` (cost 2, epsilon 0.1, one thread), asserted
    converged at the full LP's optimum (one HiGHS solve of the whole LP) with its KKT
    conditions on every sample."""
    params, full_kernel = KERNELS[kernel]
    cost = np.full(d.size, 2.0)
    eps = 0.1
    ref = fit_lp_svr(X, d, cost, epsilon=eps, kernel_params=params, decomposition="none", n_jobs=1)
    res = fit_row_column(X, d, cost, epsilon=eps, kernel_params=params, n_jobs=1, **options)
    assert res.converged
    assert res.objective == pytest.approx(ref.objective, rel=1e-6)
    check_full_kkt(full_kernel(X), d, cost, eps, res.alpha, res.b, res.mu, res.nu)
    assert max(res.kkt["dual"], res.kkt["complementarity"]) < 1e-6
    return res


@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_row_column_with_coarse_start_reaches_full_lp(kernel, seed):
    """Row/column generation started from exact solutions on random subsamples (two levels)."""
    X, d = (sinc_data if kernel == "rbf" else friedman_like)(400, seed)
    res = _row_column_at_full_optimum(
        X,
        d,
        kernel,
        B0=8,
        random_state=seed,
        price_size=50,
        max_add_columns=3,
        coarsen=3,
        min_level=40,
        interior=False,  # the simplex rounds from the start (the interior start: below)
    )
    assert {h["n_samples"] for h in res.history} == {44, 133, 400}  # three levels
    assert {h["step"] for h in res.history} >= {"rows", "partial pricing", "full pricing"}


@pytest.mark.parametrize("kernel", ["rbf", "linear"])
def test_large_dense_lps_price_on_all_samples_at_once(kernel, monkeypatch):
    """From ``FULL_PRICING_MIN_COLUMNS`` columns the exact rounds skip the partial
    pricing (no "partial pricing" round) and still end at the full LP's optimum (one
    HiGHS solve of the whole LP, and the KKT conditions on every sample), as the rounds
    with partial pricing do."""
    import lpsvr._row_column as row_column

    X, d = (sinc_data if kernel == "rbf" else friedman_like)(400, 0)
    kw = dict(B0=8, random_state=0, price_size=50, max_add_columns=3, interior=False)
    kw.update(coarsen=3, min_level=40)
    partial = _row_column_at_full_optimum(X, d, kernel, **kw)
    assert "partial pricing" in {h["step"] for h in partial.history}
    monkeypatch.setattr(row_column, "FULL_PRICING_MIN_COLUMNS", 1)
    full = _row_column_at_full_optimum(X, d, kernel, **kw)
    steps = {h["step"] for h in full.history}
    assert "partial pricing" not in steps and "full pricing" in steps


@pytest.mark.parametrize("data", ["friedman5", "friedman10", "sinc"])
@pytest.mark.parametrize("seed", [0, 1])
def test_row_column_interior_point_start_reaches_full_lp(data, seed):
    """The interior-point start (default when d > 1) ends at the full LP's optimum."""
    if data == "sinc":
        X, d = sinc_data(500, seed)
    else:
        n_features = int(data[len("friedman") :])
        X, d = make_friedman1(500, n_features=n_features, noise=0.5, random_state=seed)
        X, d = (X - 0.5) * 2.0, d / 5.0
    kw = dict(random_state=seed, coarsen=3, min_level=100)
    res = _row_column_at_full_optimum(X, d, "rbf", interior=True, **kw)
    assert {h["n_samples"] for h in res.history} == {166, 500}  # a subsample level
    params = KERNELS["rbf"][0]
    cost = np.full(d.size, 2.0)
    simplex = fit_row_column(
        X, d, cost, epsilon=0.1, kernel_params=params, n_jobs=1, interior=False, **kw
    )
    assert simplex.objective == pytest.approx(res.objective, rel=1e-9)


def test_interior_rounds_add_at_most_max_add_columns(monkeypatch):
    """The interior rounds add at most ``max_add_columns`` columns a round, also on a
    level seeded by a coarse level with more nonzero coefficients than that (``|P|`` of
    the seed before 2026-11-27); the exact rounds still end at the full LP's optimum."""
    import lpsvr._interior_start as interior_start
    import lpsvr._row_column as row_column

    calls, pricing = [], interior_start.rounded_pricing

    def spy_sets(*args, **kwargs):
        calls.append((args[1].size, kwargs["max_add"]))
        return interior_sets(*args, **kwargs)

    added = []

    def spy_pricing(samples, state, beta, in_cols, tol, k, kernel_params, n_jobs):
        out = pricing(samples, state, beta, in_cols, tol, k, kernel_params, n_jobs)
        added.append(out.size)
        return out

    interior_sets = row_column.interior_sets
    monkeypatch.setattr(row_column, "interior_sets", spy_sets)
    monkeypatch.setattr(interior_start, "rounded_pricing", spy_pricing)
    X, d = make_friedman1(500, n_features=10, noise=0.5, random_state=0)
    X, d = (X - 0.5) * 2.0, d / 5.0
    kw = dict(random_state=0, coarsen=3, min_level=100, max_add_columns=7)
    _row_column_at_full_optimum(X, d, "rbf", interior=True, **kw)
    assert len(calls) == 2  # the 166-sample level, then the top level from its seed
    assert calls[1][0] > 7  # the seed is larger than max_add_columns ...
    assert all(max_add == 7 for _, max_add in calls)  # ... and the rounds add at most 7
    assert added and max(added) == 7


def test_primal_check_returns_near_rows_with_their_distance():
    """``primal_block(near=...)``: the rows outside R with ``s (f - d) - epsilon > near``
    and by how much (``over``); rows in R never; without ``near`` the violated ones only
    (``> tol``); the folded rows' returns are unchanged by ``near``."""
    from lpsvr._passes import Outputs, primal_block

    X = np.zeros((6, 1))
    # f = 0: s = -1 rows over by d - 0.1, s = +1 rows by -d - 0.1
    d = np.array([0.0, 0.04, 0.12, -0.3, 0.095, 1.0])
    cost = np.ones(6)
    f0 = Outputs(X[:0], np.zeros(0), 0.0, KERNELS["rbf"][0], 1)
    in_rows = np.zeros((6, 2), dtype=bool)
    in_rows[5, 0] = True  # sample 5's s = -1 row (over 0.9) is in R: never returned
    folded = np.zeros((6, 2), dtype=bool)
    folded[1, 0] = True  # sample 1's s = -1 row is folded, and 0.06 inside the tube
    plain = primal_block(f0, 0.1, 1e-6, True, 0, X, d, cost, in_rows, folded)
    near = primal_block(f0, 0.1, 1e-6, True, 0, X, d, cost, in_rows, folded, near=-0.05)
    assert sorted(zip(plain["side"], plain["rows"], strict=True)) == [(0, 2), (1, 3)]
    np.testing.assert_allclose(sorted(plain["over"]), [0.02, 0.2])
    # 0.005 inside the tube: sample 4's s = -1 row joins; 0.06 (sample 1) does not
    assert sorted(zip(near["side"], near["rows"], strict=True)) == [(0, 2), (0, 4), (1, 3)]
    np.testing.assert_allclose(sorted(near["over"]), [-0.005, 0.02, 0.2])
    for out in (plain, near):
        assert list(out["back_rows"]) == [1] and list(out["back_side"]) == [0]


@pytest.mark.parametrize("seed", [0, 1])
def test_near_rows_join_with_violated_ones_at_the_same_optimum(seed):
    """After the interior start (two rounds here, so that the exact rounds still find
    violated rows), a round whose check finds violated rows adds the rows within
    ``near_rows * epsilon`` inside the tube with them: the full LP's optimum either way,
    the same to 1e-9 with it off (None), in fewer rounds, and a larger margin hands HiGHS
    more rows."""
    X, d = make_friedman1(600, n_features=10, noise=2.0, random_state=seed)
    X, d = (X - 0.5) * 2.0, d / 5.0
    rounds, rows, objectives = [], [], []
    for near in (None, 1.0, 30.0):
        kw = dict(random_state=seed, near_rows=near, interior=True, interior_rounds=2)
        res = _row_column_at_full_optimum(X, d, "rbf", **kw)
        objectives.append(res.objective)
        rows.append(max(h["n_rows"] for h in res.history))
        rounds.append(len(res.history))
    assert objectives[1] == pytest.approx(objectives[0], rel=1e-9)
    assert objectives[2] == pytest.approx(objectives[0], rel=1e-9)
    assert rows[0] < rows[1] < rows[2]
    assert rounds[1] < rounds[0]


@pytest.mark.parametrize("interior", [True, False])
def test_row_column_solves_cold_when_highs_does_not_run(monkeypatch, interior):
    """A warm solve that HiGHS does not run (status kNotset: a declined start basis, or a
    re-solve after an infeasible one) is solved again cold, to the same optimum
    (``RowColumnLP.solve`` for the start basis, ``FoldedRowColumnLP.solve`` for any)."""
    X, d = make_friedman1(500, noise=0.5, random_state=0)
    X, d = (X - 0.5) * 2.0, d / 5.0
    kw = dict(random_state=0, interior=interior)
    plain = _row_column_at_full_optimum(X, d, "rbf", **kw)
    solve, calls = LinearProgram.solve, []

    def flaky(self, warm_start=None, *, time_limit=None):
        calls.append(warm_start is not None)
        if len(calls) in (1, 3):  # the first solve (the start basis's) and a later one
            raise SolverError("LP failed with status kNotset", status="kNotset")
        return solve(self, warm_start, time_limit=time_limit)

    monkeypatch.setattr(LinearProgram, "solve", flaky)
    cost = np.full(d.size, 2.0)
    res = fit_row_column(X, d, cost, epsilon=0.1, kernel_params=KERNELS["rbf"][0], n_jobs=1, **kw)
    assert res.converged
    assert res.objective == pytest.approx(plain.objective, rel=1e-9)
    assert len(calls) >= 4  # two failed, each solved again
    assert calls[0] is interior  # the interior start hands its basis to the first solve
    assert not calls[1] and not calls[3]  # the retries start cold


@pytest.mark.parametrize(
    ("tail", "drop_columns", "final_tol", "drop", "warm_change", "early_tol"),
    [
        (0.0, 0.3, None, 1.0, 0.1, 1e-2),
        (0.01, 0.1, 1e-6, 1.0, 0.1, 1e-2),
        (1.0, 0.3, None, 1.0, 0.1, 1e-2),
        (1.0, 0.3, 1e-6, 1.0, 0.1, 1e-2),
        (0.0, 0.3, 1e-6, 0.1, 0.0, 1e-2),  # rows dropped near the edge, every point cold
        (0.0, 0.3, 1e-6, np.inf, 1.0, 1e-2),  # rows never dropped, every point warm
        (0.01, 0.3, None, 1.0, 1.0, 1e-2),
        (0.01, 0.3, 1e-6, 1.0, 0.1, None),  # every round's point at tol (1e-3)
        (0.0, 0.3, None, 1.0, 0.1, 0.5),  # the unsettled rounds' points barely started
    ],
)
@pytest.mark.parametrize("hand_over_drop", [None, 0.1, 0.0])
def test_interior_start_stopped_anywhere_still_reaches_full_lp(
    monkeypatch, tail, drop_columns, final_tol, drop, warm_change, early_tol, hand_over_drop
):
    """However early the interior rounds stop (``tail``: 1.0 stops after the first round,
    0.0 runs them until nothing is added), whatever they drop (also from the sets handed
    to HiGHS: ``hand_over_drop``), whichever points start warm (``warm_change``: 0 none,
    1 every point after the first), however loose the points before the rounds settle
    (``early_tol``) and whichever point the basis is guessed from (``final_tol``), the
    exact rounds end at the full LP's optimum and satisfy its KKT conditions on every
    sample."""
    import lpsvr._row_column as row_column

    options = dict(tail=tail, drop_columns=drop_columns, drop=drop, warm_change=warm_change)
    options.update(hand_over_drop=hand_over_drop, early_tol=early_tol)
    monkeypatch.setattr(row_column, "interior_sets", partial(row_column.interior_sets, **options))
    X, d = make_friedman1(400, n_features=10, noise=0.5, random_state=3)
    X, d = (X - 0.5) * 2.0, d / 5.0
    _row_column_at_full_optimum(
        X, d, "rbf", random_state=3, interior=True, interior_final_tol=final_tol
    )


@pytest.mark.parametrize(
    ("fold", "fold_after", "fold_share", "fold_early_rows"),
    [(1.0, 0.1, 0.5, 4096), (0.0, 1.0, 0.0, 4096), (None, 0.1, 0.5, 4096), (1.0, 0.0, 0.5, 0)],
)
def test_folded_interior_rounds_reach_full_lp(
    monkeypatch, fold, fold_after, fold_share, fold_early_rows
):
    """Rows folded in the interior rounds (one variable ``t`` for all) leave the exact
    rounds' optimum unchanged: the full LP's (one HiGHS solve) with its KKT conditions on
    every sample, and the unfolded start's to 1e-9. Folding from the first round at no
    margin, whatever share of R can fold (``(0.0, 1.0, 0.0)``), folds rows that a later
    point puts inside the tube: they must come back, and do. ``fold_early_rows=0`` with
    ``fold_after=0`` folds early (``fold_early`` epsilon outside, unpinned) from the first
    round on these 800 rows, as the top level of a large LP does."""
    import lpsvr._interior_start as interior_start
    import lpsvr._row_column as row_column

    moves = {"folded": 0, "returned": 0}
    add, remove = interior_start._Folded.add, interior_start._Folded.remove

    def spy_add(self, samples, signs):
        moves["folded"] += samples.size
        add(self, samples, signs)

    def spy_remove(self, samples, signs, pin=True):
        out = remove(self, samples, signs, pin)
        moves["returned"] += out[0].size
        return out

    monkeypatch.setattr(interior_start._Folded, "add", spy_add)
    monkeypatch.setattr(interior_start._Folded, "remove", spy_remove)
    options = dict(fold=fold, fold_after=fold_after, fold_share=fold_share)
    options["fold_early_rows"] = fold_early_rows
    monkeypatch.setattr(row_column, "interior_sets", partial(row_column.interior_sets, **options))
    X, d = make_friedman1(400, n_features=10, noise=4.0, random_state=5)
    X, d = (X - 0.5) * 2.0, d / 5.0  # noise 0.8 against epsilon 0.1: most rows outside
    res = _row_column_at_full_optimum(X, d, "rbf", random_state=5, interior=True)
    params, cost = KERNELS["rbf"][0], np.full(d.size, 2.0)
    plain = fit_row_column(
        X, d, cost, epsilon=0.1, kernel_params=params, n_jobs=1, random_state=5, interior=False
    )
    assert res.objective == pytest.approx(plain.objective, rel=1e-9)
    if fold is None:
        assert moves == {"folded": 0, "returned": 0}
    else:
        assert moves["folded"] > 100
    if fold == 0.0:
        assert moves["returned"] > 0


def test_folded_rows_enter_the_interior_point_as_one_variable():
    """The interior LP with rows folded into ``t`` (``pi_r = t u_r``): folding rows the
    LP's optimum holds at their upper bound leaves its optimum unchanged (t = 1); folding
    also a row the optimum holds below its bound is a restriction, so the optimum rises."""
    from lpsvr._interior_start import _Folded
    from lpsvr._samples import ArraySamples

    n, n_cols, seed = 300, 60, 0
    X, d = make_friedman1(n, n_features=10, noise=0.5, random_state=seed)
    X, d = (X - 0.5) * 2.0, d / 5.0
    cols = np.random.default_rng(seed).choice(n, n_cols, replace=False)
    rows, s = np.r_[np.arange(n), np.arange(n)], np.r_[-np.ones(n), np.ones(n)]
    params = dict(kernel="rbf", gamma=0.1, degree=3, coef0=0.0)
    G = rbf_kernel(X[cols], X[rows], gamma=0.1) * s
    q, u = 0.1 + s * d[rows], np.full(2 * n, 2.0)
    full = interior_point(G, s, q, u, tol=1e-9)
    at_upper = full["pi"] > u - 1e-6
    below = np.flatnonzero((full["pi"] > 1e-3) & (full["pi"] < u - 1e-3))
    assert at_upper.sum() > 50 and below.size > 0
    samples = ArraySamples(X, d, u[:n])

    def folded_optimum(fold):
        folded = _Folded(n, samples, params, 1)
        folded.add(rows[fold], s[fold])
        g_t, s_t, q_t = folded.column(cols, 0.1)
        keep = ~fold
        Gf, sf = np.c_[G[:, keep], g_t], np.r_[s[keep], s_t]
        point = interior_point(Gf, sf, np.r_[q[keep], q_t], np.r_[u[keep], 1.0], tol=1e-9)
        return np.r_[q[keep], q_t] @ point["pi"], point["pi"][-1]

    opt = q @ full["pi"]
    value, t = folded_optimum(at_upper)
    assert value == pytest.approx(opt, rel=1e-7) and t == pytest.approx(1.0, abs=1e-6)
    wrong = at_upper.copy()
    wrong[below[0]] = True
    assert folded_optimum(wrong)[0] > opt + 1e-6 * abs(opt)


def test_folded_rows_kept_sums_match_direct_sums():
    """The interior rounds' folded rows keep ``K w`` over all samples (``w``: their
    ``s_r u_r`` summed per sample), updated by the rows folded and returned since the last
    use - also a row folded, returned and folded again, and both rows of one sample. The
    kept sums equal the direct ones, t's column is their entries on P, and the pricing
    started from them (``pricing_state``) finds the same ``g = K beta`` and the same
    columns, in the same order, as a pricing from scratch over every multiplier."""
    from lpsvr._interior_start import _Folded
    from lpsvr._passes import full_pricing
    from lpsvr._result import row_multipliers
    from lpsvr._samples import ArraySamples

    n, seed, t = 300, 1, 0.7
    rng = np.random.default_rng(seed)
    X, d = make_friedman1(n, n_features=10, noise=0.5, random_state=seed)
    X, d = (X - 0.5) * 2.0, d / 5.0
    cost = rng.uniform(0.5, 2.0, n)
    params = dict(kernel="rbf", gamma=0.1, degree=3, coef0=0.0)
    samples = ArraySamples(X, d, cost)
    folded = _Folded(n, samples, params, 1)
    rows = rng.choice(n, 200, replace=False)
    signs = rng.choice([-1.0, 1.0], rows.size)
    folded.add(rows[:80], signs[:80])
    folded.sums()
    folded.remove(rows[:20], signs[:20], pin=False)
    folded.add(rows[80:120], signs[80:120])
    folded.add(rows[:5], signs[:5])  # returned, then folded again
    folded.add(rows[100:101], -signs[100:101])  # the other row of a folded sample
    w = np.bincount(folded.samples, weights=folded.signs * cost[folded.samples], minlength=n)
    g, kept_w = folded.sums()
    K = rbf_kernel(X, gamma=0.1)
    np.testing.assert_array_equal(kept_w, w)
    np.testing.assert_allclose(g, K @ w, rtol=1e-12, atol=1e-12)
    cols = rng.choice(n, 30, replace=False)
    g_t, s_t, _ = folded.column(cols, 0.1)
    np.testing.assert_allclose(g_t, K[cols] @ w, rtol=1e-12, atol=1e-12)
    assert s_t == pytest.approx(w.sum(), rel=1e-12)
    # rows of R (not folded) with multipliers inside their box, the folded ones at t u_r
    lp_rows, lp_signs = rows[120:], signs[120:]
    pi = rng.uniform(0.0, 1.0, lp_rows.size) * cost[lp_rows]
    mu, nu = row_multipliers(
        np.r_[lp_rows, folded.samples],
        np.r_[lp_signs, folded.signs],
        np.r_[pi, t * cost[folded.samples]],
        n,
    )
    beta = mu - nu
    in_cols = np.zeros(n, dtype=bool)
    in_cols[cols] = True
    scratch, top = full_pricing(samples, None, beta, in_cols, 1e-4, 25, params, 1)
    kept, kept_top = full_pricing(
        samples, folded.pricing_state(t), beta, in_cols, 1e-4, 25, params, 1
    )
    np.testing.assert_allclose(scratch[0], K @ beta, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(kept[0], scratch[0], rtol=1e-12, atol=1e-12)
    assert top.size > 5
    np.testing.assert_array_equal(kept_top, top)


def test_interior_start_skips_a_simplex_only_subsample_level():
    """With ``interior="auto"`` a level that takes the interior-point start (N >= 1,000,
    d > 1) does not recurse into a subsample of fewer than 1,000 samples: it starts from
    ``B0`` random columns. Same optimum as the plain simplex rounds (which solve the
    250-sample level first) and as the interior start on both levels, with the KKT
    conditions of the full corrected LP on every sample (one HiGHS solve of this full
    LP takes ~12 s; the LP-level proofs against it are the tests above)."""
    X, d = make_friedman1(1000, n_features=10, noise=0.5, random_state=0)
    X, d = (X - 0.5) * 2.0, d / 5.0
    params = dict(kernel="rbf", gamma=0.1, degree=3, coef0=0.0)
    cost, eps = np.full(d.size, 2.0), 0.1
    fits = {
        interior: fit_row_column(
            X,
            d,
            cost,
            epsilon=eps,
            kernel_params=params,
            n_jobs=1,
            random_state=0,
            min_level=200,
            interior=interior,
        )
        for interior in ("auto", False, True)
    }
    levels = {key: sorted({h["n_samples"] for h in res.history}) for key, res in fits.items()}
    assert levels == {"auto": [1000], False: [250, 1000], True: [250, 1000]}
    auto = fits["auto"]
    assert all(res.converged for res in fits.values())
    check_full_kkt(rbf_kernel(X, gamma=0.1), d, cost, eps, auto.alpha, auto.b, auto.mu, auto.nu)
    assert max(auto.kkt["dual"], auto.kkt["complementarity"]) < 1e-6
    for key in (False, True):
        assert auto.objective == pytest.approx(fits[key].objective, rel=1e-9)


@pytest.mark.parametrize("scale", [1.0, 1e150])
def test_float32_guard_is_one_pass_per_fit(monkeypatch, scale):
    """Whether the interior rounds may read the data in float32 is decided once per fit
    (one pass over the samples) and handed to every subsample level: at scale 1 both
    levels' rounds read float32, at 1e150 (squared distances past float32) neither does."""
    X, d = make_friedman1(600, n_features=5, noise=0.5, random_state=0)
    X = (X - 0.5) * 2.0 * scale
    passes, seen = [], []
    real_safe, real_sets = lpsvr._row_column.float32_safe, lpsvr._row_column.interior_sets

    def counted_safe(samples):
        passes.append(samples.n)
        return real_safe(samples)

    def recorded_sets(samples, *args, **kwargs):
        seen.append((samples.n, kwargs["single"]))
        return real_sets(samples, *args, **kwargs)

    monkeypatch.setattr(lpsvr._row_column, "float32_safe", counted_safe)
    monkeypatch.setattr(lpsvr._row_column, "interior_sets", recorded_sets)
    params = dict(kernel="rbf", gamma=0.2 / scale**2, degree=3, coef0=0.0)
    res = fit_row_column(
        X, d, np.ones(d.size), epsilon=0.1, kernel_params=params, n_jobs=1,
        random_state=0, min_level=150, interior=True,
    )  # fmt: skip
    assert res.converged
    assert passes == [600]
    assert seen == [(150, scale == 1.0), (600, scale == 1.0)]


def _dual_row_column_lp(n, n_cols, seed):
    """The dual LP over all rows and ``n_cols`` random columns: ``(G, s, q, u)`` and the
    optimum of one HiGHS solve of it."""
    X, d = make_friedman1(n, n_features=10, noise=0.5, random_state=seed)
    X, d = (X - 0.5) * 2.0, d / 5.0
    cols = np.random.default_rng(seed).choice(n, n_cols, replace=False)
    s = np.r_[-np.ones(n), np.ones(n)]
    G = rbf_kernel(X[cols], np.r_[X, X], gamma=0.1) * s
    q, u = 0.1 + s * np.r_[d, d], np.full(2 * n, 2.0)
    A_ub, b_ub = np.r_[G, -G], np.ones(2 * n_cols)
    ref = linprog(q, A_ub=A_ub, b_ub=b_ub, A_eq=s[None], b_eq=[0.0], bounds=np.c_[0 * u, u])
    assert ref.status == 0
    return (G, s, q, u), ref.fun


@pytest.mark.parametrize("seed", [0, 1])
def test_warm_started_interior_point_reaches_the_lp_optimum(seed):
    """interior_point from a start (the interior rounds' warm start) ends at the LP's
    optimum as from the cold start: from a loose point on smaller sets (rows and columns
    missing, as after a round's additions), from an optimal point (in fewer steps than
    cold), and from a start that is no point of the LP at all."""
    lp, opt = _dual_row_column_lp(300, 60, seed)
    G, s, q, u = lp
    cold = interior_point(*lp, tol=1e-8)
    rng = np.random.default_rng(seed)
    keep_c = np.ones(G.shape[0], dtype=bool)
    keep_c[rng.choice(keep_c.size, 6, replace=False)] = False
    keep_r = np.ones(G.shape[1], dtype=bool)
    keep_r[rng.choice(keep_r.size, 40, replace=False)] = False
    sub = interior_point(G[keep_c][:, keep_r], s[keep_r], q[keep_r], u[keep_r], tol=1e-3)
    pi = 0.5 * u  # the rows missing from the smaller sets start mid-box, as new rows do
    pi[keep_r] = sub["pi"]
    y = np.zeros(G.shape[0] + 1)
    y[0], y[1:][keep_c] = sub["y"][0], sub["y"][1:]
    starts = {
        "smaller sets": (pi, y),
        "optimal": (cold["pi"], cold["y"]),
        "arbitrary": (rng.uniform(-1.0, 3.0, u.size), rng.standard_normal(y.size)),
    }
    for name, start in starts.items():
        warm = interior_point(*lp, tol=1e-8, start=start)
        assert warm["gap"] < 1e-8, name
        assert q @ warm["pi"] == pytest.approx(opt, rel=1e-7), name
        assert np.all((warm["pi"] >= 0.0) & (warm["pi"] <= u)), name
        assert np.abs(G @ warm["pi"]).max() <= 1.0 + 1e-6 and abs(s @ warm["pi"]) < 1e-6, name
    assert q @ cold["pi"] == pytest.approx(opt, rel=1e-7)
    assert interior_point(*lp, tol=1e-8, start=starts["optimal"])["n_iter"] < cold["n_iter"]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("tol", [1e-3, 1e-8])
def test_mixed_precision_interior_point_reaches_the_lp_optimum(seed, tol):
    """interior_point(mixed=True): normal matrices in float32, each Newton system refined
    against the float64 operator. Its points solve the LP as the float64 ones do: to the
    requested gap at the optimum of one HiGHS solve of the LP (``linprog``), feasible,
    in about as many steps (the rounds' loose points at 1e-3 decide the sets)."""
    lp, opt = _dual_row_column_lp(300, 60, seed)
    G, s, q, u = lp
    exact = interior_point(*lp, tol=tol)
    mixed = interior_point(*lp, tol=tol, mixed=True)
    assert mixed["gap"] < tol
    assert q @ mixed["pi"] == pytest.approx(opt, rel=10 * tol)
    assert q @ mixed["pi"] == pytest.approx(q @ exact["pi"], rel=10 * tol)
    assert np.all((mixed["pi"] >= 0.0) & (mixed["pi"] <= u))
    assert np.abs(G @ mixed["pi"]).max() <= 1.0 + 10 * tol and abs(s @ mixed["pi"]) < 10 * tol
    assert abs(mixed["n_iter"] - exact["n_iter"]) <= 2


@pytest.mark.parametrize("seed", [0, 1])
def test_rounded_constraint_rows_give_loose_points_of_the_lp(seed):
    """The interior rounds' loose points run on the LP's rows rounded to float32
    (``constraint_rows(rounded=True)``, products summed in float64): to the rounds' gap
    1e-3 they solve the LP as the float64 rows do, feasible to that gap, at the optimum of
    one HiGHS solve within it, in about as many steps."""
    (G, s, q, u), opt = _dual_row_column_lp(300, 60, seed)
    H = constraint_rows(s.size, G.shape[0], rounded=True)
    assert H.dtype == np.float32 and H.shape == (s.size, G.shape[0] + 1)
    assert constraint_rows(s.size, G.shape[0]).dtype == np.float64
    H[:, 0], H[:, 1:] = s, G.T
    rounded = interior_point_rows(H, q, u, tol=1e-3, mixed=True)
    exact = interior_point(G, s, q, u, tol=1e-3)
    assert rounded["gap"] < 1e-3
    assert q @ rounded["pi"] == pytest.approx(opt, rel=1e-2)
    assert np.all((rounded["pi"] >= 0.0) & (rounded["pi"] <= u))
    assert np.abs(G @ rounded["pi"]).max() <= 1.0 + 1e-2 and abs(s @ rounded["pi"]) < 1e-2
    assert abs(rounded["n_iter"] - exact["n_iter"]) <= 2


def test_refined_solve_reaches_the_float64_solution():
    """The float32 factor alone solves a normal system of an interior point's scaling to
    float32 accuracy only; refined by conjugate gradients on the float64 operator, the
    solution has the requested relative residual, as the float64 factor's has."""
    (G, s, q, u), _ = _dual_row_column_lp(300, 60, 0)
    P, R = G.shape
    rng = np.random.default_rng(0)
    # D of a late interior point: spread over 8 orders of magnitude
    D = 10.0 ** rng.uniform(-8.0, 0.0, R + P)
    A = lambda x: np.r_[s @ x[:R], G @ x[:R] - x[R:]]  # noqa: E731 - the LP's A, as in _interior
    AT = lambda y: np.r_[s * y[0] + G.T @ y[1:], -y[1:]]  # noqa: E731
    b = rng.standard_normal(P + 1)
    H = np.c_[s, G.T]  # the LP's rows, as interior_point_rows holds them
    factor32, reg32 = _factor(H, D, np.float32)
    factor64, reg64 = _factor(H, D, np.float64)
    op = partial(_normal_product, A, AT, D, reg32)
    x64 = partial(_normal_product, A, AT, D, reg64)
    plain = np.linalg.norm(op(sla.cho_solve(factor32, b)) - b) / np.linalg.norm(b)
    for rtol in (1e-6, 1e-10):
        x = _refined_solve(op, factor32, b, rtol=rtol, max_iter=50)
        assert np.linalg.norm(op(x) - b) <= rtol * np.linalg.norm(b) < plain
    ref = sla.cho_solve(factor64, b)
    assert np.linalg.norm(x64(ref) - b) <= 1e-10 * np.linalg.norm(b)
    x = _refined_solve(op, factor32, b, rtol=1e-10, max_iter=50)
    np.testing.assert_allclose(x, ref, rtol=0, atol=1e-6 * np.abs(ref).max())


@pytest.mark.parametrize("mixed", [True, False])
def test_rows_folded_at_hand_over_reach_full_lp(monkeypatch, mixed):
    """The rows the interior start's last point holds at their upper bound more than
    ``interior_fold_margin * epsilon`` outside the tube start folded in HiGHS
    (``fold_min=1``: at every size). At margins 0, 1 and 3, with float32 normal matrices
    in the rounds or not, the exact rounds end at the full LP's optimum (one HiGHS
    solve) with its KKT conditions on every sample, and at the plain simplex rounds'
    optimum to 1e-9; a larger margin folds fewer rows."""
    import lpsvr._folding as folding
    import lpsvr._row_column as row_column

    folded = []
    fold_rows = folding.FoldedRowColumnLP.fold_rows

    def spy(self, samples, signs, reduced_costs=None):
        if reduced_costs is None:  # the hand-over (the rounds' folds pass reduced costs)
            folded.append(np.asarray(samples).size)
        fold_rows(self, samples, signs, reduced_costs)

    X, d = make_friedman1(400, n_features=10, noise=4.0, random_state=5)
    X, d = (X - 0.5) * 2.0, d / 5.0  # noise 0.8 against epsilon 0.1: most rows outside
    params, cost = KERNELS["rbf"][0], np.full(d.size, 2.0)
    plain = fit_row_column(
        X, d, cost, epsilon=0.1, kernel_params=params, n_jobs=1, random_state=5, interior=False
    )
    monkeypatch.setattr(folding.FoldedRowColumnLP, "fold_rows", spy)
    monkeypatch.setattr(row_column, "interior_sets", partial(row_column.interior_sets, mixed=mixed))
    for margin in (0.0, 1.0, 3.0):
        res = _row_column_at_full_optimum(
            X, d, "rbf", random_state=5, interior=True, fold_min=1, interior_fold_margin=margin
        )
        assert res.objective == pytest.approx(plain.objective, rel=1e-9)
    assert len(folded) == 3
    assert folded[0] > 100 and folded[0] >= folded[1] >= folded[2] and folded[0] > folded[2]


@pytest.mark.parametrize("block_entries", [1, 37 * 10, 37 * 333, 1 << 20])
def test_interior_normal_matrix_in_row_blocks_equals_the_whole_product(block_entries):
    rng = np.random.default_rng(0)
    H, scale = rng.standard_normal((1000, 37)), rng.random(1000)
    ref = (H * scale[:, None]).T @ (H * scale[:, None])
    got = _scaled_syrk(H, scale, block_entries)
    np.testing.assert_allclose(np.tril(got), np.tril(ref), rtol=0, atol=1e-11)
    assert np.array_equal(_scaled_syrk(H[:0], scale[:0]), np.zeros((37, 37)))
    # float32: the products rounded once, summed in float32 (entries up to ~400)
    got32 = _scaled_syrk(H, scale, block_entries, dtype=np.float32)
    assert got32.dtype == np.float32
    np.testing.assert_allclose(np.tril(got32), np.tril(ref), rtol=0, atol=1e-3)


@pytest.mark.parametrize("columns_first", [True, False])
def test_row_column_lp_dual_form_matches_the_primal_sub_lp(columns_first):
    """RowColumnLP holds the dual; its alpha, b, multipliers and optimum are the primal's."""
    X, d = friedman_like(120, 3)
    params, full_kernel = KERNELS["rbf"]
    cost = np.linspace(1.0, 3.0, d.size)  # per-sample costs: the bounds of pi differ
    eps = 0.05
    rng = np.random.default_rng(0)
    P = rng.choice(120, size=30, replace=False)
    S = rng.choice(120, size=70, replace=False)
    lp = RowColumnLP(X, d, cost, eps, params, n_jobs=1, lp_tol=None)
    both = (np.r_[S[:40], S[:40]], np.r_[-np.ones(40), np.ones(40)])
    late = (np.r_[S[40:], S[40:]], np.r_[-np.ones(30), np.ones(30)])
    # built in pieces (warm re-solves in between), in either order
    steps = [lambda: lp.add_columns(P[:10]), lambda: lp.add_rows(*both)]
    for step in steps if columns_first else steps[::-1]:
        step()
    lp.solve()
    lp.add_columns(P[10:])
    lp.solve()
    lp.add_rows(*late)
    alpha, b, pi, fun, _ = lp.solve()
    assert lp.cols.tolist() == P.tolist()
    K = full_kernel(X)
    order = np.r_[S[:40], S[40:]]
    ref = solve_svr_lp(K[np.ix_(order, P)], d[order], cost[order], eps, method="simplex")
    assert fun == pytest.approx(ref.fun, rel=1e-9)
    # primal feasible with the optimum's objective (alpha, b are HiGHS's row duals)
    f = K[np.ix_(order, P)] @ alpha + b
    xi = np.maximum(np.abs(d[order] - f) - eps, 0.0)
    assert np.abs(alpha).sum() + cost[order] @ xi == pytest.approx(ref.fun, rel=1e-7)
    # multipliers: within [0, cost], sum beta = 0, |K beta| <= 1 on P, objective = dual's
    assert np.all(pi >= 0.0) and np.all(pi <= cost[lp.row_sample] + 1e-12)
    beta = pi * lp.row_sign
    assert abs(beta.sum()) < 1e-7
    assert np.abs(K[np.ix_(P, lp.row_sample)] @ beta).max() <= 1.0 + 1e-7
    dual_obj = -(eps + lp.row_sign * d[lp.row_sample]) @ pi
    assert dual_obj == pytest.approx(ref.fun, rel=1e-7)


def test_larger_problem_estimator_objectives_agree():
    X, y = sinc_data(250, 3)
    kw = dict(C=1.0, epsilon=0.2, gamma=0.5, random_state=3)
    objectives = {
        dec: LPSVR(decomposition=dec, B0=30, **kw).fit(X, y).objective_
        for dec in ("none", "variables", "full", "row_column")
    }
    assert objectives["variables"] == pytest.approx(objectives["none"], rel=1e-6)
    assert objectives["full"] == pytest.approx(objectives["none"], rel=1e-6)
    assert objectives["row_column"] == pytest.approx(objectives["none"], rel=1e-6)


def test_papers_interior_point_solver_reaches_the_same_optimum():
    """method="ipm" (the paper's solver, cold IPM + crossover per working-set or block LP)
    and the default warm simplex give the same optimum for Algorithms 1 and 2."""
    X, y = sinc_data(120, 8)
    kw = dict(C=1.0, epsilon=0.1, gamma=0.5, B0=20, random_state=0)
    ref = LPSVR(decomposition="none", method="ipm", **kw).fit(X, y)
    for dec in ("variables", "full"):
        ipm = LPSVR(decomposition=dec, method="ipm", **kw).fit(X, y)
        simplex = LPSVR(decomposition=dec, **kw).fit(X, y)
        assert ipm.converged_ and simplex.converged_ and ipm.n_iter_ > 1
        assert ipm.objective_ == pytest.approx(ref.objective_, rel=1e-6)
        assert simplex.objective_ == pytest.approx(ref.objective_, rel=1e-6)


@pytest.mark.parametrize("kernel", ["rbf", "linear"])
def test_warm_block_lps_of_algorithm_3_are_the_cold_block_lps(kernel):
    """method="simplex": Algorithm 3's block LPs live in one HiGHS model (rows of dropped
    samples deleted, new ones added); every block optimum equals the cold solve's."""
    params, full_kernel = KERNELS[kernel]
    X, d = (sinc_data if kernel == "rbf" else friedman_like)(90, 4)
    cost = np.full(d.size, 2.0)
    kw = dict(tau=4, t_max=4, kernel_params=params, tol=1e-6, lp_tol=None, n_jobs=1)
    runs = {
        m: constraint_decomposition(X, d, cost, 0.1, method=m, budget=TimeBudget(), **kw)
        for m in ("simplex", "ipm")
    }
    (warm, warm_objs), (cold, cold_objs) = runs["simplex"], runs["ipm"]
    assert len(warm_objs) == len(cold_objs) > 4  # blocks were swapped in and out
    np.testing.assert_allclose(warm_objs, cold_objs, rtol=1e-7)
    ref = solve_svr_lp(full_kernel(X), d, cost, 0.1, method="simplex")
    assert warm.fun == pytest.approx(ref.fun, rel=1e-7)
    assert cold.fun == pytest.approx(ref.fun, rel=1e-7)
    # the returned point is the working-set LP's optimum with multipliers over all of B
    f = full_kernel(X) @ warm.alpha + warm.b
    xi = np.maximum(np.abs(d - f) - 0.1, 0.0)
    assert np.abs(warm.alpha).sum() + cost @ xi == pytest.approx(ref.fun, rel=1e-7)
    check_full_kkt(full_kernel(X), d, cost, 0.1, warm.alpha, warm.b, warm.mu, warm.nu)


def test_warm_simplex_working_set_matches_full_lp():
    """ "variables" keeps one HiGHS model and edits it in place; simplex restarts warm."""
    X, y = sinc_data(150, 6)
    kw = dict(C=1.0, epsilon=0.1, gamma=0.5, method="simplex", random_state=0)
    ref = LPSVR(decomposition="none", **kw).fit(X, y)
    reg = LPSVR(decomposition="variables", B0=10, **kw).fit(X, y)
    assert reg.n_iter_ > 3  # several in-place edits happened
    assert reg.objective_ == pytest.approx(ref.objective_, rel=1e-6)
    assert max(reg.kkt_residuals_["dual"], reg.kkt_residuals_["complementarity"]) < 1e-6


def test_constraint_decomposition_block_objectives_are_monotone():
    """Each block LP is a relaxation holding the previous active set: never decreasing.

    (The paper states "non-increasing"; for the primal minimization that LPC solves the
    block optima rise monotonically to the working-set optimum - see the README.)
    """
    X, y = sinc_data(120, 4)
    reg = LPSVR(
        C=1.0, epsilon=0.15, gamma=0.5, decomposition="full", B0=40, tau=6, random_state=0
    ).fit(X, y)
    n_checked = 0
    for objs in reg.block_objectives_:
        diffs = np.diff(objs)
        assert np.all(diffs >= -1e-9 * np.maximum(1.0, np.abs(objs[1:])))
        n_checked += len(diffs)
    assert n_checked > 0  # several block solves happened
    # the last block optimum is the working-set optimum, hence the LP optimum
    assert reg.block_objectives_[-1][-1] == pytest.approx(reg.objective_, rel=1e-6)


def test_cycling_case_terminates_through_loop_prevention():
    """Seeded case where indices move in and out forever without Step 5."""
    X, y = make_noisy_sinc(200, noise=0.1, random_state=0)
    params = KERNELS["rbf"][0]
    cost = np.full(200, 2.0)
    kw = dict(
        epsilon=0.2, kernel_params=params, decomposition="variables", B0=5, random_state=0, n_jobs=1
    )
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        cycling = fit_lp_svr(X, y, cost, loop_limit=10**6, max_iter=80, **kw)
    assert not cycling.converged
    ref = fit_lp_svr(X, y, cost, epsilon=0.2, kernel_params=params, decomposition="none", n_jobs=1)
    fixed = fit_lp_svr(X, y, cost, loop_limit=10, max_iter=80, **kw)
    assert fixed.converged
    assert fixed.history[-1]["n_permanent"] > 0
    assert fixed.objective == pytest.approx(ref.objective, rel=1e-6)


def test_b_max_reached_warns():
    X, y = sinc_data(150, 0)
    with pytest.warns(ConvergenceWarning, match="B_max"):
        reg = LPSVR(
            C=1.0, epsilon=0.01, gamma=0.5, decomposition="variables", B0=5, B_max=8, random_state=0
        ).fit(X, y)
    assert not reg.converged_


# --------------------------------------------------------------------------- sparseness


@pytest.mark.parametrize("seed", [0, 1])
def test_sparseness_bounds_and_fewer_than_svr(seed):
    # sparseness is a property of the LP's (vertex) solution: the single LP suffices
    X, y = sinc_data(200, seed)
    C, eps = 1.0, 0.1
    reg = LPSVR(C=C, epsilon=eps, gamma=0.5, decomposition="none").fit(X, y)
    n_nonzero = reg.support_.size
    K = rbf_kernel(X, gamma=0.5)
    assert n_nonzero <= np.linalg.matrix_rank(K)  # (8)
    assert n_nonzero <= reg.exact_support_.size  # (7)
    svr = SVR(C=C, epsilon=eps, gamma=0.5).fit(X, y)
    assert n_nonzero < svr.support_.size


# --------------------------------------------------------------------------- estimator


def test_sigma_is_the_papers_rbf_width():
    X, y = sinc_data(80, 2)
    a = LPSVR(sigma=1.0, decomposition="none").fit(X, y)
    b = LPSVR(gamma=0.5, decomposition="none").fit(X, y)
    np.testing.assert_allclose(a.predict(X), b.predict(X))


def test_integer_weights_equal_duplicated_rows_in_objective():
    X, y = sinc_data(60, 5)
    w = np.random.default_rng(0).integers(0, 3, size=60)
    a = LPSVR(C=1.0, epsilon=0.05, gamma=0.5, decomposition="none").fit(X, y, sample_weight=w)
    b = LPSVR(C=1.0, epsilon=0.05, gamma=0.5, decomposition="none").fit(
        np.repeat(X, w, axis=0), np.repeat(y, w)
    )
    assert a.objective_ == pytest.approx(b.objective_, rel=1e-7)


def test_float32_input_is_solved_in_float64():
    X, y = sinc_data(80, 3)
    X32 = X.astype(np.float32)
    a = LPSVR(gamma=0.5, random_state=0).fit(X32, y)
    b = LPSVR(gamma=0.5, decomposition="none").fit(X32.astype(np.float64), y)
    assert a.converged_
    assert a.objective_ == pytest.approx(b.objective_, rel=1e-6)
    assert a.predict(X32).dtype == np.float64


def test_default_is_row_column_and_reaches_the_papers_optimum():
    """The default (row/column generation, not in the paper) and the paper's Algorithm 1
    ("full", one parameter away) reach the same optimum as the single LP, for LPSVR and
    for each one-vs-rest LP of LPSVC."""
    assert LPSVR().decomposition == LPSVC().decomposition == "row_column"
    assert LPSVR().method == "simplex"  # for the paper's algorithms; "ipm" one option away
    X, y = sinc_data(300, 7)
    ref = LPSVR(decomposition="none").fit(X, y)
    reg = LPSVR(random_state=0).fit(X, y)
    paper = LPSVR(decomposition="full", random_state=0).fit(X, y)
    assert reg.converged_ and paper.converged_
    assert reg.history_[-1]["step"] == "full pricing" and reg.history_[-1]["n_added"] == 0
    assert reg.objective_ == pytest.approx(ref.objective_, rel=1e-6)
    assert paper.objective_ == pytest.approx(ref.objective_, rel=1e-6)
    assert max(reg.kkt_residuals_["dual"], reg.kkt_residuals_["complementarity"]) < 1e-6
    Xc, yc = load_bundled("wine")
    Xc = (Xc - Xc.mean(0)) / Xc.std(0)
    clf = LPSVC(random_state=0).fit(Xc, yc)
    ref_clf = LPSVC(decomposition="none").fit(Xc, yc)
    assert clf.converged_
    for ours, full in zip(clf.estimators_, ref_clf.estimators_, strict=True):
        assert "step" in ours.history_[-1]  # row/column generation ran
        assert ours.objective_ == pytest.approx(full.objective_, rel=1e-6)


def test_history_and_attributes():
    X, y = sinc_data(120, 1)
    reg = LPSVR(C=1.0, epsilon=0.15, gamma=0.5, decomposition="full", B0=20, random_state=0)
    reg.fit(X, y)
    assert reg.n_iter_ == len(reg.history_) > 1
    sizes = [h["working_set_size"] for h in reg.history_]
    assert sizes[0] == 20
    assert reg.history_[-1]["n_violators"] == 0
    assert reg.dual_coef_.shape == (1, reg.support_.size)
    np.testing.assert_array_equal(reg.support_vectors_, X[reg.support_])
    # Definition 1: exact and saturated support vectors are disjoint
    assert np.intersect1d(reg.exact_support_, reg.saturated_support_).size == 0


def test_lpsvc_binary_is_sign_of_regression_on_pm1():
    X, y = load_bundled("breast_cancer")
    X = (X - X.mean(0)) / X.std(0)
    X, y = X[:150], y[:150]
    kw = dict(C=1.0, epsilon=0.1, decomposition="none")
    clf = LPSVC(**kw).fit(X, y)
    reg = LPSVR(**kw).fit(X, np.where(y == clf.classes_[1], 1, -1))
    np.testing.assert_allclose(clf.decision_function(X), reg.predict(X), atol=1e-6)
    svc = SVC(C=1.0).fit(X, y)
    assert clf.score(X, y) >= svc.score(X, y) - 0.05


def test_lpsvc_multiclass_one_vs_rest():
    X, y = load_bundled("wine")
    X = (X - X.mean(0)) / X.std(0)
    clf = LPSVC(C=1.0, decomposition="none").fit(X, y)
    assert len(clf.estimators_) == 3
    scores = clf.decision_function(X)
    assert scores.shape == (len(y), 3)
    np.testing.assert_array_equal(clf.predict(X), clf.classes_[scores.argmax(1)])
    assert clf.score(X, y) > 0.95


# --------------------------------------------------------------------------- time_limit

DECOMPOSITIONS = ["none", "variables", "full", "row_column"]
RBF = KERNELS["rbf"][0]


# svmcore.testing.ticking_clock: one second per reading, whatever the machine's speed.
# With ``TimeBudget(3.5)`` the deadline is at 3.5: the first HiGHS call reads 1 (not
# expired) and 2 (1.5 s left, ample for these LPs), the second reads 3 and 4 and finds no
# time left. So exactly one HiGHS call finishes.


def full_objective(X, d, cost, eps, alpha, b):
    """||alpha||_1 + cost @ xi with xi reconstructed from the full kernel."""
    f = rbf_kernel(X, gamma=RBF["gamma"]) @ alpha + b
    return np.abs(alpha).sum() + cost @ np.maximum(np.abs(d - f) - eps, 0.0)


def budget_fit(budget, decomposition, n=80):
    X, d = sinc_data(n, 0)
    cost = np.full(n, 2.0)
    res = fit_lp_svr(
        X,
        d,
        cost,
        epsilon=0.1,
        kernel_params=RBF,
        decomposition=decomposition,
        B0=20,
        random_state=0,
        n_jobs=1,
        budget=budget,
    )
    return X, d, cost, res


@pytest.mark.parametrize("decomposition", ["variables", "full", "row_column"])
def test_time_limit_stops_after_the_first_solve_with_a_feasible_point(decomposition):
    budget = TimeBudget(3.5, clock=ticking_clock())
    X, d, cost, res = budget_fit(budget, decomposition)
    assert budget.exhausted and not res.converged
    assert res.n_iter == 1 and len(res.history) == 1
    # alpha = 0 outside the first working set (columns), xi reconstructed on all samples
    assert 0 < np.count_nonzero(res.alpha) <= 20
    assert np.isfinite(res.f).all() and res.kkt["primal"] == 0.0
    assert res.objective == pytest.approx(full_objective(X, d, cost, 0.1, res.alpha, res.b))
    _, _, _, ref = budget_fit(None, "none")
    assert res.objective >= ref.objective * (1 - 1e-9)
    if decomposition == "full":
        assert len(res.block_objectives) == 1 and len(res.block_objectives[0]) == 1


@pytest.mark.parametrize("decomposition", DECOMPOSITIONS)
def test_time_limit_reached_inside_highs_discards_the_interrupted_point(decomposition):
    # a frozen clock never expires in the loops: each HiGHS call gets 1e-9 s and
    # stops with kTimeLimit, which must end the fit, not raise or use its point
    budget = TimeBudget(1e-9, clock=lambda: 0.0)
    X, d, cost, res = budget_fit(budget, decomposition)
    assert budget.exhausted and not res.converged and res.n_iter == 0
    assert not res.alpha.any() and res.b == 0.0  # the zero function
    assert res.objective == pytest.approx(full_objective(X, d, cost, 0.1, res.alpha, res.b))


def test_time_limit_in_a_coarse_level_returns_its_solution():
    X, d = sinc_data(100, 1)
    cost = np.full(100, 2.0)
    budget = TimeBudget(3.5, clock=ticking_clock())
    kw = dict(epsilon=0.1, kernel_params=RBF, B0=10, random_state=1, n_jobs=1)
    res = fit_row_column(X, d, cost, coarsen=4, min_level=25, budget=budget, **kw)
    assert budget.exhausted and not res.converged and res.n_iter == 0
    # one round on the 25-sample level, none on all 100: its alpha, zero elsewhere
    assert [h["n_samples"] for h in res.history] == [25]
    assert 0 < np.count_nonzero(res.alpha) <= 25
    assert np.isfinite(res.f).all()
    assert res.objective == pytest.approx(full_objective(X, d, cost, 0.1, res.alpha, res.b))


@pytest.mark.parametrize("decomposition", DECOMPOSITIONS)
def test_estimator_time_limit_warns_and_returns_a_finite_model(decomposition, monkeypatch):
    X, y = sinc_data(60, 2)
    kw = dict(decomposition=decomposition, B0=20, random_state=0)
    with pytest.warns(ConvergenceWarning, match="time_limit"):
        tiny = LPSVR(time_limit=1e-9, **kw).fit(X, y)  # expires before any HiGHS call
    assert not tiny.converged_ and tiny.n_iter_ == 0 and tiny.support_.size == 0
    np.testing.assert_array_equal(tiny.predict(X), 0.0)
    if decomposition != "none":  # one HiGHS call, then the deadline
        monkeypatch.setattr(lpsvr._lpsvr, "TimeBudget", partial(TimeBudget, clock=ticking_clock()))
        with pytest.warns(ConvergenceWarning, match="time_limit"):
            reg = LPSVR(time_limit=3.5, **kw).fit(X, y)
        assert not reg.converged_ and reg.n_iter_ == 1 and reg.support_.size > 0
        assert np.isfinite(reg.predict(X)).all()


def test_lpsvc_shares_one_time_limit_across_classes(monkeypatch):
    X, y = load_bundled("iris")
    monkeypatch.setattr(lpsvr._lpsvc, "TimeBudget", partial(TimeBudget, clock=ticking_clock()))
    with pytest.warns(ConvergenceWarning, match="time_limit"):
        clf = LPSVC(decomposition="none", time_limit=3.5).fit(X, y)
    # the first class's LP finishes; the budget is then spent for the other two
    assert [reg.converged_ for reg in clf.estimators_] == [True, False, False]
    assert not clf.converged_
    assert set(clf.predict(X)) <= set(clf.classes_)
    assert clf.estimators_[0].support_.size > 0 and clf.estimators_[2].support_.size == 0


@pytest.mark.parametrize("decomposition", DECOMPOSITIONS)
def test_generous_time_limit_changes_nothing(decomposition):
    X, y = sinc_data(60, 3)
    kw = dict(decomposition=decomposition, B0=20, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ref = LPSVR(**kw).fit(X, y)
        reg = LPSVR(time_limit=1e6, **kw).fit(X, y)
    np.testing.assert_array_equal(reg.support_, ref.support_)
    np.testing.assert_array_equal(reg.dual_coef_, ref.dual_coef_)
    assert reg.intercept_[0] == ref.intercept_[0]
    assert reg.converged_ and reg.n_iter_ == ref.n_iter_
    assert TimeBudget(np.inf).deadline is None  # direct callers: infinity is no limit


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("params", "match"),
    [
        (dict(C=0.0), "C"),
        (dict(C=-1.0), "C"),
        (dict(epsilon=-0.1), "epsilon"),
        (dict(B0=1), "B0"),
        (dict(tau=0), "tau"),
        (dict(kernel="sigmoid"), "kernel"),
        (dict(decomposition="rows"), "decomposition"),
        (dict(method="barrier"), "method"),
        (dict(time_limit=0), "time_limit"),
        (dict(time_limit=-1.0), "time_limit"),
        (dict(time_limit=np.nan), "time_limit"),
        (dict(time_limit="10"), "time_limit"),
    ],
)
def test_bad_parameters(params, match):
    X, y = sinc_data(20, 0)
    with pytest.raises(ValueError, match=match):
        LPSVR(**params).fit(X, y)


def test_b0_larger_than_n_and_nan():
    X, y = sinc_data(20, 0)
    with pytest.raises(ValueError, match="B0 must be <="):
        LPSVR(B0=21).fit(X, y)
    X[3, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        LPSVR().fit(X, y)
    with pytest.raises(ValueError, match="NaN"):
        LPSVR().fit(np.ones((5, 1)), [1.0, np.nan, 0.0, 1.0, 2.0])


def test_sparse_input_rejected_clearly():
    X, y = sinc_data(20, 0)
    with pytest.raises(TypeError, match="[Ss]parse"):
        LPSVR().fit(sp.csr_matrix(X), y)


@settings(max_examples=15, deadline=None)
@given(
    C=st.floats(-10, 10, allow_nan=False),
    epsilon=st.floats(-1, 1, allow_nan=False),
    B0=st.integers(-3, 40),
)
def test_parameter_validation_property(C, epsilon, B0):
    X, y = sinc_data(30, 0)
    reg = LPSVR(C=C, epsilon=epsilon, B0=B0, gamma=0.5, random_state=0)
    if C <= 0 or epsilon < 0 or B0 < 2 or B0 > 30:
        with pytest.raises(ValueError):
            reg.fit(X, y)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConvergenceWarning)
            reg.fit(X, y)
        assert reg.converged_


@settings(max_examples=8, deadline=None)
@given(n=st.integers(1, 6), value=st.floats(-5, 5, allow_nan=False))
def test_degenerate_data_property(n, value):
    """Identical points, constant targets: every decomposition reaches the full LP's optimum.

    The optimum is not unique (any intercept within epsilon of the target costs 0), so
    the predictions are compared with the tube, not with each other.
    """
    X = np.zeros((n, 2))
    y = np.full(n, value)
    ref = LPSVR(decomposition="none", gamma=1.0).fit(X, y)
    assert ref.objective_ == pytest.approx(0.0, abs=1e-9)
    for dec in ("variables", "full", "row_column"):
        reg = LPSVR(decomposition=dec, gamma=1.0, random_state=0).fit(X, y)
        assert reg.converged_
        assert reg.objective_ == pytest.approx(ref.objective_, abs=1e-9)
        assert np.all(np.abs(reg.predict(X) - y) <= 0.1 + 1e-6)


def test_near_rows_join_with_violated_ones_at_most_as_many_nearest_first():
    from lpsvr._row_column import near_rows_kept

    over = np.array([-0.05, 0.2, -0.01, -0.09, 0.3, -0.02])  # 2 violated (tol 1e-3)
    assert near_rows_kept(over, 1e-3).tolist() == [1, 2, 4, 5]  # + the 2 nearest
    assert near_rows_kept(np.array([-0.01, -0.02]), 1e-3).size == 0  # none violated
    many = np.r_[np.full(3, 0.5), np.full(10, -0.01)]
    assert near_rows_kept(many, 1e-3).tolist() == [0, 1, 2, 3, 4, 5]  # ties: row order
