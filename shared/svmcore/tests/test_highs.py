"""HiGHS LP/QP wrapper against independent references (scipy linprog / minimize)."""

import warnings
from dataclasses import replace

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import Bounds, LinearConstraint, linprog, minimize

from svmcore.solvers import (
    InfeasibleError,
    LinearProgram,
    LPBasis,
    SolverError,
    SolverLimitError,
    SolverLimitWarning,
    UnboundedError,
    raise_for_status,
    solve_lp,
    solve_qp,
)

pytest.importorskip("highspy")


def random_feasible_lp(seed, n=12, m_ub=8, m_eq=3, sparse=False):
    """A bounded feasible LP: constraints satisfied by a known interior point."""
    rng = np.random.default_rng(seed)
    x0 = rng.uniform(0.5, 1.5, n)
    A_ub = rng.standard_normal((m_ub, n))
    b_ub = A_ub @ x0 + rng.uniform(0.1, 1.0, m_ub)
    A_eq = rng.standard_normal((m_eq, n))
    b_eq = A_eq @ x0
    c = rng.standard_normal(n)
    # free below only where the cost pushes upwards, against a finite upper bound,
    # so the LP stays bounded
    lb = np.where((rng.random(n) < 0.5) & (c < 0), -np.inf, -rng.uniform(0, 1, n))
    ub = rng.uniform(2, 4, n)
    if sparse:
        A_ub[np.abs(A_ub) < 0.7] = 0.0
        A_eq[np.abs(A_eq) < 0.7] = 0.0
        A_ub, A_eq = sp.csr_array(A_ub), sp.coo_array(A_eq)
        b_ub = A_ub @ x0 + rng.uniform(0.1, 1.0, m_ub)
        b_eq = A_eq @ x0
    return c, A_ub, b_ub, A_eq, b_eq, list(zip(lb, ub, strict=True))


def check_kkt(res, c, A_ub, b_ub, A_eq, b_eq, bounds, Q=None, atol=1e-6):
    """Primal feasibility, dual feasibility, stationarity and complementary slackness."""
    A_ub = sp.csr_array(A_ub).toarray()
    A_eq = sp.csr_array(A_eq).toarray()
    lb = np.array([b[0] for b in bounds], dtype=float)
    ub = np.array([b[1] for b in bounds], dtype=float)
    x, y_ub, y_eq, r = res.x, res.row_duals_ub, res.row_duals_eq, res.col_duals
    # primal feasibility
    assert np.all(A_ub @ x <= b_ub + atol)
    np.testing.assert_allclose(A_eq @ x, b_eq, atol=atol)
    assert np.all(x >= lb - atol) and np.all(x <= ub + atol)
    # stationarity: reduced costs are c + Qx - A^T y
    grad = c + (0 if Q is None else Q @ x)
    np.testing.assert_allclose(r, grad - A_ub.T @ y_ub - A_eq.T @ y_eq, atol=atol)
    # dual feasibility: y_ub <= 0 (minimization, <= rows); r >= 0 only at lower, <= 0 at upper
    assert np.all(y_ub <= atol)
    at_lb = np.isfinite(lb) & (np.abs(x - lb) <= atol)
    at_ub = np.isfinite(ub) & (np.abs(x - ub) <= atol)
    assert np.all(np.abs(r[~at_lb & ~at_ub]) <= atol)
    assert np.all(r[at_lb & ~at_ub] >= -atol)
    assert np.all(r[at_ub & ~at_lb] <= atol)
    # complementary slackness on the inequality rows
    np.testing.assert_allclose(y_ub * (A_ub @ x - b_ub), 0.0, atol=atol)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("method", ["ipm", "simplex", "choose"])
def test_lp_matches_linprog(seed, sparse, method):
    c, A_ub, b_ub, A_eq, b_eq, bounds = random_feasible_lp(seed, sparse=sparse)
    ref = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds, method="highs")
    assert ref.status == 0
    res = solve_lp(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds, method=method)
    assert res.success and res.status == "kOptimal"
    assert res.fun == pytest.approx(ref.fun, rel=1e-8, abs=1e-8)
    # random continuous data: the optimal vertex is unique
    np.testing.assert_allclose(res.x, ref.x, atol=1e-6)
    np.testing.assert_allclose(res.row_duals_ub, ref.ineqlin.marginals, atol=1e-6)
    np.testing.assert_allclose(res.row_duals_eq, ref.eqlin.marginals, atol=1e-6)
    np.testing.assert_allclose(res.col_duals, ref.lower.marginals + ref.upper.marginals, atol=1e-6)
    check_kkt(res, c, A_ub, b_ub, A_eq, b_eq, bounds)
    assert res.basis is not None and res.n_iter > 0


def test_ipm_and_simplex_agree_on_larger_sparse_lp():
    c, A_ub, b_ub, A_eq, b_eq, bounds = random_feasible_lp(7, n=80, m_ub=60, m_eq=10)
    results = [
        solve_lp(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds, method=m)
        for m in ("ipm", "simplex")
    ]
    assert results[0].fun == pytest.approx(results[1].fun, rel=1e-9)
    np.testing.assert_allclose(results[0].x, results[1].x, atol=1e-6)


def test_ipm_without_crossover_has_no_basis_but_is_optimal():
    c, A_ub, b_ub, A_eq, b_eq, bounds = random_feasible_lp(3)
    ref = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds, method="highs")
    res = solve_lp(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds, crossover=False)
    assert res.basis is None
    assert res.fun == pytest.approx(ref.fun, rel=1e-6)


@pytest.mark.parametrize(
    "bounds",
    [
        None,
        (0, 2),
        (None, 2),
        [(0, 2)] * 5,
        (np.zeros(5), np.full(5, 2.0)),
        Bounds(np.zeros(5), np.full(5, 2.0)),
    ],
)
def test_bounds_formats_match_linprog(bounds):
    rng = np.random.default_rng(0)
    c = rng.standard_normal(5)
    A_ub = np.vstack([np.ones(5), -np.ones(5)])
    b_ub = np.array([4.0, 3.0])
    ref_bounds = bounds
    if isinstance(bounds, Bounds):
        ref_bounds = list(zip(bounds.lb, bounds.ub, strict=True))
    elif isinstance(bounds, tuple) and np.ndim(bounds[0]) == 1:
        ref_bounds = list(zip(*bounds, strict=True))
    ref = linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=ref_bounds, method="highs")
    res = solve_lp(c, A_ub=A_ub, b_ub=b_ub, bounds=bounds)
    assert res.fun == pytest.approx(ref.fun, rel=1e-9, abs=1e-12)


def test_array_pair_bounds_with_two_variables():
    # With n == 2 a (lb_array, ub_array) tuple has the shape of two (lb, ub) pairs; it must
    # still be read as lower and upper arrays (the pairs reading gave x0 in [0, -1]).
    lb, ub = np.array([0.0, -1.0]), np.array([1.0, 5.0])
    res = solve_lp([1.0, -1.0], bounds=(lb, ub))
    np.testing.assert_allclose(res.x, [0.0, 5.0])
    pairs = solve_lp([1.0, -1.0], bounds=[(0.0, 1.0), (-1.0, 5.0)])
    np.testing.assert_allclose(pairs.x, [0.0, 5.0])
    with pytest.raises(ValueError, match="bounds: lower/upper arrays must have 2 entries"):
        solve_lp([1.0, -1.0], bounds=(np.zeros(3), np.ones(3)))


@pytest.mark.parametrize("method", ["simplex", "ipm"])
def test_warm_start_same_optimum_fewer_iterations(method):
    c, A_ub, b_ub, A_eq, b_eq, bounds = random_feasible_lp(11, n=120, m_ub=90, m_eq=5)
    kw = dict(A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds)
    first = solve_lp(c, method="simplex", **kw)
    c2 = c + 1e-3 * np.random.default_rng(1).standard_normal(c.shape)
    cold = solve_lp(c2, method="simplex", **kw)
    warm = solve_lp(c2, method=method, warm_start=first, **kw)
    assert warm.fun == pytest.approx(cold.fun, rel=1e-9)
    assert warm.n_iter < cold.n_iter
    # a bare basis, and a solution without basis, are accepted too
    from_basis = solve_lp(c2, method="simplex", warm_start=first.basis, **kw)
    assert isinstance(first.basis, LPBasis)
    assert from_basis.fun == pytest.approx(cold.fun, rel=1e-9)
    assert from_basis.n_iter < cold.n_iter
    from_x = solve_lp(c2, method="simplex", warm_start=replace(first, basis=None), **kw)
    assert from_x.fun == pytest.approx(cold.fun, rel=1e-9)


def test_warm_start_basis_passed_as_highs_own_only_when_complete(monkeypatch):
    """A basis with one basic entry per row skips HiGHS's alien-basis check (a second
    LU factorization); a singular one is still completed by HiGHS's own solve, and an
    incomplete one still goes through the check. Every start reaches linprog's optimum."""
    import highspy

    passed = []
    set_basis = highspy.Highs.setBasis

    def spy(h, basis, *args):
        passed.append(basis.alien)
        return set_basis(h, basis, *args)

    monkeypatch.setattr(highspy.Highs, "setBasis", spy)
    rng = np.random.default_rng(3)
    A_ub = rng.standard_normal((4, 6))
    A_ub[:, 1] = A_ub[:, 0]  # columns 0 and 1 equal: a basis holding both is singular
    b_ub = np.abs(A_ub).sum(axis=1)
    c = rng.standard_normal(6)
    kw = dict(A_ub=A_ub, b_ub=b_ub, bounds=(0, 2))
    ref = linprog(c, **kw)
    first = solve_lp(c + 0.1, method="simplex", **kw)
    rows_basic = np.ones(4, np.int8)
    starts = {
        "previous optimum": (first.basis, False),
        "singular, complete": (
            LPBasis(np.array([1, 1, 0, 0, 0, 0], np.int8), rows_basic.copy()),
            False,
        ),
        "incomplete": (LPBasis(np.zeros(6, np.int8), np.array([1, 1, 0, 0], np.int8)), True),
    }
    starts["singular, complete"][0].row_status[:2] = 0
    for name, (basis, alien) in starts.items():
        passed.clear()
        res = solve_lp(c, method="simplex", warm_start=basis, **kw)
        assert passed == [alien], name
        assert res.fun == pytest.approx(ref.fun, rel=1e-9, abs=1e-12), name


def test_linear_program_set_options_between_solves():
    """Options set on a live model apply to its next solves (here the simplex strategy:
    primal, then dual, after a cost change), each at linprog's optimum; bad ones raise."""
    c, A_ub, b_ub, A_eq, b_eq, bounds = random_feasible_lp(7, n=40, m_ub=30, m_eq=2)
    kw = dict(A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds)
    lp = LinearProgram(c, method="simplex", **kw)
    lp.set_options({"simplex_strategy": 4})
    assert lp._highs.getOptionValue("simplex_strategy")[1] == 4
    assert lp.solve().fun == pytest.approx(linprog(c, **kw).fun, rel=1e-9)
    c2 = c + 0.1 * np.random.default_rng(8).standard_normal(c.shape)
    lp.set_costs(c2)
    lp.set_options({"simplex_strategy": 1, "simplex_dual_edge_weight_strategy": 1})
    assert lp._highs.getOptionValue("simplex_strategy")[1] == 1
    assert lp.solve().fun == pytest.approx(linprog(c2, **kw).fun, rel=1e-9)
    with pytest.raises(ValueError, match="options: HiGHS rejected option"):
        lp.set_options({"no_such_option": 1})
    with pytest.raises(TypeError, match="options must be a dict"):
        lp.set_options([("simplex_strategy", 1)])


def test_linear_program_incremental_changes_match_fresh_solves():
    c, A_ub, b_ub, A_eq, b_eq, bounds = random_feasible_lp(5, n=30, m_ub=20, m_eq=2)
    lp = LinearProgram(
        c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds, method="simplex"
    )
    first = lp.solve()
    rng = np.random.default_rng(2)

    # change costs and a right-hand side, warm re-solve (internal basis)
    c2 = c + 0.05 * rng.standard_normal(c.shape)
    b_ub2 = b_ub + 0.1
    lp.set_costs(c2)
    lp.set_b_ub(b_ub2[:3], idx=np.arange(3))
    b_ub_now = b_ub.copy()
    b_ub_now[:3] = b_ub2[:3]
    res = lp.solve()
    ref = linprog(c2, A_ub=A_ub, b_ub=b_ub_now, A_eq=A_eq, b_eq=b_eq, bounds=bounds)
    assert res.fun == pytest.approx(ref.fun, rel=1e-9)
    assert res.n_iter <= first.n_iter

    # add an inequality row and two variables, delete a variable and a row
    row = rng.standard_normal((1, 30))
    lp.add_rows(row, [row @ res.x + 0.5])
    lp.add_variables([-1.0, 0.5], bounds=(0, 1), A_ub=rng.standard_normal((21, 2)))
    lp.delete_variables([4])
    lp.delete_rows([0])
    lp.set_bounds([0.0], [0.5], idx=[0])
    got = lp.solve()
    assert lp.n_variables == 31 and lp.n_ub == 20 and lp.n_eq == 2

    # the same problem, read back from HiGHS, solved from scratch by linprog
    lp_dense = lp._highs.getLp()
    assert lp_dense.num_col_ == 31
    A_now = sp.csc_array(
        (
            np.array(lp_dense.a_matrix_.value_),
            np.array(lp_dense.a_matrix_.index_),
            np.array(lp_dense.a_matrix_.start_),
        ),
        shape=(lp_dense.num_row_, lp_dense.num_col_),
    ).toarray()
    is_eq = lp._row_is_eq
    ref = linprog(
        np.array(lp_dense.col_cost_),
        A_ub=A_now[~is_eq],
        b_ub=np.array(lp_dense.row_upper_)[~is_eq],
        A_eq=A_now[is_eq],
        b_eq=np.array(lp_dense.row_upper_)[is_eq],
        bounds=list(zip(lp_dense.col_lower_, lp_dense.col_upper_, strict=True)),
    )
    assert got.fun == pytest.approx(ref.fun, rel=1e-9)
    # the kept rows/cols are the ones we expect (first ub row deleted, variable 4 gone)
    np.testing.assert_allclose(A_now[~is_eq][:19, :4], A_ub[1:, :4])
    np.testing.assert_allclose(A_now[~is_eq][:19, 4:29], A_ub[1:, 5:])
    np.testing.assert_allclose(A_now[~is_eq][19, 4:29], row[0, 5:])
    assert lp_dense.col_upper_[0] == 0.5


def test_add_variables_places_columns_in_model_row_order():
    # rows in the model: inequality, equality, inequality (added later)
    lp = LinearProgram([1.0], A_ub=[[1.0]], b_ub=[1.0], A_eq=[[1.0]], b_eq=[0.5])
    lp.add_rows([[2.0]], [3.0])
    lp.add_variables([1.0, 2.0], A_ub=[[3.0, 4.0], [5.0, 6.0]], A_eq=[[7.0, 8.0]])
    m = lp._highs.getLp().a_matrix_
    A = sp.csc_array(
        (np.array(m.value_), np.array(m.index_), np.array(m.start_)), shape=(3, 3)
    ).toarray()
    np.testing.assert_array_equal(A, [[1, 3, 4], [1, 7, 8], [2, 5, 6]])


def test_ranged_rows_match_two_inequalities():
    c, A_ub, b_ub, A_eq, b_eq, bounds = random_feasible_lp(7, n=25, m_ub=10, m_eq=1)
    rng = np.random.default_rng(3)
    R = rng.standard_normal((6, 25))
    x0 = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds).x
    # a narrow band around the old optimum x0 (feasible), then new costs: the new optimum
    # runs into the band's sides
    lo, hi = R @ x0 - 0.01, R @ x0 + 0.02
    lp = LinearProgram(
        c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds, method="simplex"
    )
    lp.solve()
    c = c + rng.standard_normal(c.shape)
    lp.set_costs(c)
    lp.add_rows(R, hi, lower=lo)
    got = lp.solve()
    ref = linprog(
        c,
        A_ub=np.vstack([A_ub, R, -R]),
        b_ub=np.r_[b_ub, hi, -lo],
        A_eq=A_eq,
        b_eq=b_eq,
        bounds=bounds,
    )
    assert got.fun == pytest.approx(ref.fun, rel=1e-9)
    assert lp.n_ub == 16
    # one dual per ranged row: <= 0 at the upper side, >= 0 at the lower, the difference of
    # the two one-sided rows' duals
    y_ranged = got.row_duals_ub[10:]
    y_ref = ref.ineqlin.marginals[10:16] - ref.ineqlin.marginals[16:]
    np.testing.assert_allclose(y_ranged, y_ref, atol=1e-7)
    assert (y_ranged < -1e-9).any() and (y_ranged > 1e-9).any()  # both sides bind
    # set_b_ub keeps the lower side of a ranged row
    lp.set_b_ub(hi + 1.0, idx=np.arange(10, 16))
    got2 = lp.solve()
    ref2 = linprog(
        c,
        A_ub=np.vstack([A_ub, R, -R]),
        b_ub=np.r_[b_ub, hi + 1.0, -lo],
        A_eq=A_eq,
        b_eq=b_eq,
        bounds=bounds,
    )
    assert got2.fun == pytest.approx(ref2.fun, rel=1e-9)
    with pytest.raises(ValueError, match="lower side"):
        lp.set_b_ub(lo - 1.0, idx=np.arange(10, 16))
    # both sides at once: the band moves below its old lower side, and stays there
    lp.set_b_ub(hi - 0.5, idx=np.arange(10, 16), lower=lo - 0.5)
    got3 = lp.solve()
    ref3 = linprog(
        c,
        A_ub=np.vstack([A_ub, R, -R]),
        b_ub=np.r_[b_ub, hi - 0.5, -(lo - 0.5)],
        A_eq=A_eq,
        b_eq=b_eq,
        bounds=bounds,
    )
    assert got3.status == "kOptimal"
    assert got3.fun == pytest.approx(ref3.fun, rel=1e-9)
    lp.set_b_ub(hi - 0.4, idx=np.arange(10, 16))  # keeps the new lower side lo - 0.5
    assert lp.solve().fun == pytest.approx(
        linprog(
            c,
            A_ub=np.vstack([A_ub, R, -R]),
            b_ub=np.r_[b_ub, hi - 0.4, -(lo - 0.5)],
            A_eq=A_eq,
            b_eq=b_eq,
            bounds=bounds,
        ).fun,
        rel=1e-9,
    )
    with pytest.raises(ValueError, match="lower must not exceed b_ub"):
        lp.set_b_ub(lo, idx=np.arange(10, 16), lower=hi)
    with pytest.raises(ValueError, match="lower must not exceed"):
        lp.add_rows(R, lo, lower=hi + 1.0)
    with pytest.raises(ValueError, match="inequality rows"):
        lp.add_rows(R, hi, lower=lo, equality=True)


def test_infeasible_lp_raises():
    # x1 + x2 <= 1 and x1 + x2 >= 3
    A_ub = [[1.0, 1.0], [-1.0, -1.0]]
    for method in ("ipm", "simplex"):
        for presolve in (True, False):
            with pytest.raises(InfeasibleError, match="infeasible") as info:
                solve_lp([1.0, 1.0], A_ub=A_ub, b_ub=[1.0, -3.0], method=method, presolve=presolve)
            assert info.value.status == "kInfeasible"


def test_unbounded_lp_raises():
    for method in ("ipm", "simplex"):
        for presolve in (True, False):
            with pytest.raises(UnboundedError, match="unbounded") as info:
                solve_lp(
                    [-1.0, 0.0], A_ub=[[0.0, 1.0]], b_ub=[1.0], method=method, presolve=presolve
                )
            assert info.value.status == "kUnbounded"


AMBIGUOUS = {"allow_unbounded_or_infeasible": True}  # lets HiGHS stop at "one of the two"


@pytest.mark.parametrize(
    ("b_ub", "error"), [([1.0, -2.0], InfeasibleError), ([2.0, -1.0], UnboundedError)]
)
def test_unbounded_or_infeasible_is_disambiguated(b_ub, error):
    # x0 >= 0 has cost -1 and appears in no row: dual infeasible. The rows on x1 are
    # infeasible (x1 <= 1 and x1 >= 2) or feasible (x1 <= 2 and x1 >= 1).
    kw = dict(
        A_ub=[[0.0, 1.0], [0.0, -1.0]],
        b_ub=b_ub,
        method="simplex",
        presolve=False,
        options=AMBIGUOUS,
    )
    raw = LinearProgram([-1.0, 0.0], **kw)
    raw._highs.run()
    # Whichever status this HiGHS release stops at, the feasibility probe settles it.
    assert raw._disambiguate() == ("kInfeasible" if error is InfeasibleError else "kUnbounded")
    with pytest.raises(error) as info:
        solve_lp([-1.0, 0.0], **kw)
    assert info.value.status == ("kInfeasible" if error is InfeasibleError else "kUnbounded")


def test_ipm_without_presolve_on_unbounded_lp_stops():
    # Without presolve, HiGHS's IPM either detects the unboundedness (1.16) or diverges
    # until the default IPM cap stops it (1.7-1.11): the contract is an error of the
    # unbounded-or-limit family, never a returned point and never "infeasible".
    with pytest.raises((UnboundedError, SolverLimitError)) as info:
        solve_lp([-1.0, 1.0], A_eq=[[0.0, 1.0]], b_eq=[1.0], bounds=(None, None), presolve=False)
    assert not isinstance(info.value, InfeasibleError)
    assert info.value.status in ("kUnbounded", "kIterationLimit")


def test_iteration_limit_warns_or_raises():
    c, A_ub, b_ub, A_eq, b_eq, bounds = random_feasible_lp(1, n=60, m_ub=40, m_eq=5)
    kw = dict(
        A_ub=A_ub,
        b_ub=b_ub,
        A_eq=A_eq,
        b_eq=b_eq,
        bounds=bounds,
        max_iter=1,
        method="simplex",
        presolve=False,
    )
    with pytest.raises(SolverLimitError, match="Iteration limit"):
        solve_lp(c, **kw)
    with pytest.warns(SolverLimitWarning, match="Iteration limit"):
        res = solve_lp(c, on_limit="warn", **kw)
    assert res.status == "kIterationLimit" and not res.success
    assert res.x.shape == (60,)


def test_time_limit_warns_or_raises():
    c, A_ub, b_ub, A_eq, b_eq, bounds = random_feasible_lp(2, n=300, m_ub=250, m_eq=5)
    kw = dict(
        A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds, time_limit=1e-9, presolve=False
    )
    with pytest.raises(SolverLimitError, match="Time limit"):
        solve_lp(c, **kw)
    with pytest.warns(SolverLimitWarning, match="Time limit"):
        res = solve_lp(c, on_limit="warn", **kw)
    assert res.status == "kTimeLimit"


def test_time_limit_counts_each_solve_not_the_models_lifetime():
    # HiGHS 1.x compares time_limit with the run time accumulated over all solves
    # of one Highs object; LinearProgram must restart the count at every solve.
    c, A_ub, b_ub, A_eq, b_eq, bounds = random_feasible_lp(3, n=120, m_ub=100, m_eq=5)
    lp = LinearProgram(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds, time_limit=0.2)
    rng = np.random.default_rng(0)
    while lp._highs.getRunTime() <= 0.3:  # well past one limit in total
        lp.set_costs(c + 0.1 * rng.standard_normal(c.size))
        assert lp.solve().success
    # a per-call limit overrides the constructor's for that solve only
    lp.set_costs(c)
    with pytest.raises(SolverLimitError, match="Time limit"):
        lp.solve(time_limit=1e-9)
    assert lp.solve().success
    with pytest.raises(ValueError, match="time_limit"):
        lp.solve(time_limit=0.0)


def test_limit_warning_is_a_convergence_warning():
    from sklearn.exceptions import ConvergenceWarning

    assert issubclass(SolverLimitWarning, ConvergenceWarning)
    assert issubclass(InfeasibleError, SolverError) and issubclass(SolverError, RuntimeError)


@pytest.mark.parametrize(
    ("status", "error"),
    [
        ("kInfeasible", InfeasibleError),
        ("kUnbounded", UnboundedError),
        ("kTimeLimit", SolverLimitError),
        ("kIterationLimit", SolverLimitError),
        ("kSolveError", SolverError),
        ("kUnknown", SolverError),
        ("kUnboundedOrInfeasible", SolverError),
        ("somethingNew", SolverError),
    ],
)
def test_raise_for_status_table(status, error):
    with pytest.raises(error, match=status) as info:
        raise_for_status(status, "msg")
    assert info.value.solver_message == "msg"
    if error is not SolverLimitError:
        # only limits may be downgraded to a warning
        with pytest.raises(error):
            raise_for_status(status, on_limit="warn")


def test_raise_for_status_accepts_highs_enum():
    highspy = pytest.importorskip("highspy")
    assert raise_for_status(highspy.HighsModelStatus.kOptimal) is True
    with pytest.raises(InfeasibleError):
        raise_for_status(highspy.HighsModelStatus.kInfeasible)
    with pytest.raises(ValueError, match="on_limit"):
        raise_for_status("kOptimal", on_limit="ignore")


# --------------------------------------------------------------------------- QP


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("sparse", [False, True])
def test_qp_matches_trust_constr(seed, sparse):
    rng = np.random.default_rng(seed)
    n = 6
    M = rng.standard_normal((n, n))
    Q = M @ M.T + 0.1 * np.eye(n)
    c = rng.standard_normal(n)
    A_ub = rng.standard_normal((3, n))
    b_ub = rng.uniform(0.1, 1.0, 3)
    A_eq = rng.standard_normal((1, n))
    b_eq = np.array([0.3])
    bounds = [(-1.0, 1.0)] * n
    res = solve_qp(
        sp.csr_array(Q) if sparse else Q,
        c,
        A_ub=sp.csr_array(A_ub) if sparse else A_ub,
        b_ub=b_ub,
        A_eq=A_eq,
        b_eq=b_eq,
        bounds=bounds,
    )
    ref = minimize(
        lambda x: 0.5 * x @ Q @ x + c @ x,
        np.zeros(n),
        jac=lambda x: Q @ x + c,
        hess=lambda x: Q,
        method="trust-constr",
        constraints=[LinearConstraint(A_ub, -np.inf, b_ub), LinearConstraint(A_eq, b_eq, b_eq)],
        bounds=Bounds(-np.ones(n), np.ones(n)),
        options={"gtol": 1e-12, "xtol": 1e-12, "maxiter": 5000},
    )
    assert res.success
    assert res.fun == pytest.approx(ref.fun, rel=1e-6, abs=1e-8)
    np.testing.assert_allclose(res.x, ref.x, atol=1e-5)  # strictly convex: unique minimizer
    check_kkt(res, c, A_ub, b_ub, A_eq, b_eq, bounds, Q=Q)


def test_qp_with_zero_hessian_is_the_lp():
    c, A_ub, b_ub, A_eq, b_eq, bounds = random_feasible_lp(0)
    n = len(c)
    lp = solve_lp(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds)
    qp = solve_qp(np.zeros((n, n)), c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds)
    assert qp.fun == pytest.approx(lp.fun, rel=1e-8)


def test_infeasible_qp_raises():
    with pytest.raises(InfeasibleError):
        solve_qp(np.eye(2), [0.0, 0.0], A_ub=[[1.0, 1.0], [-1.0, -1.0]], b_ub=[1.0, -3.0])


# --------------------------------------------------------------------------- bad input


def test_bad_input_names_the_argument():
    c = np.ones(3)
    A = np.ones((2, 3))
    b = np.ones(2)
    with pytest.raises(ValueError, match="A_ub must have 3 columns"):
        solve_lp(c, A_ub=np.ones((2, 4)), b_ub=b)
    with pytest.raises(ValueError, match="b_ub must have length 2"):
        solve_lp(c, A_ub=A, b_ub=np.ones(3))
    with pytest.raises(ValueError, match="b_eq is missing"):
        solve_lp(c, A_eq=A)
    with pytest.raises(ValueError, match="c contains NaN"):
        solve_lp([1.0, np.nan, 0.0])
    with pytest.raises(ValueError, match="A_eq contains NaN"):
        solve_lp(c, A_eq=[[1.0, np.nan, 0.0]], b_eq=[1.0])
    with pytest.raises(ValueError, match="A_ub contains NaN"):
        solve_lp(c, A_ub=sp.csr_array(np.array([[1.0, np.nan, 0.0]])), b_ub=[1.0])
    with pytest.raises(ValueError, match="method must be one of"):
        solve_lp(c, method="barrier")
    with pytest.raises(ValueError, match="time_limit must be >"):
        solve_lp(c, time_limit=-1.0)
    with pytest.raises(ValueError, match="tol must be"):
        solve_lp(c, tol=0.0)
    with pytest.raises(ValueError, match="max_iter must be >= 0"):
        solve_lp(c, max_iter=-2)
    with pytest.raises(ValueError, match="on_limit"):
        solve_lp(c, on_limit="ignore")
    with pytest.raises(ValueError, match="bounds: lower bound exceeds upper"):
        solve_lp(c, bounds=(2, 1))
    with pytest.raises(ValueError, match="bounds must be None"):
        solve_lp(c, bounds=[(0, 1)] * 4)
    with pytest.raises(ValueError, match="c is empty"):
        solve_lp([])
    with pytest.raises(ValueError, match="c must be 1-dimensional"):
        solve_lp(np.ones((2, 2)))
    with pytest.raises(ValueError, match="Q must be square"):
        solve_qp(np.eye(3)[:2], c)
    with pytest.raises(ValueError, match="Q must be symmetric"):
        solve_qp(np.triu(np.ones((3, 3))), c)
    with pytest.raises(ValueError, match="options: HiGHS rejected option"):
        solve_lp(c, options={"no_such_option": 1})
    with pytest.raises(TypeError, match="warm_start"):
        solve_lp(c, warm_start="basis")
    with pytest.raises(ValueError, match="warm_start does not match"):
        solve_lp(c, warm_start=solve_lp(np.ones(2)))


@settings(max_examples=25, deadline=None)
@given(
    value=st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(-5, 5),
        st.text(max_size=3),
        st.none(),
    )
)
def test_time_limit_property(value):
    ok = value is None or (isinstance(value, int | float) and np.isfinite(value) and value > 0)
    if ok:
        # a valid but tiny limit may legitimately stop HiGHS before it starts
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SolverLimitWarning)
            res = solve_lp([1.0], time_limit=value, on_limit="warn")
        assert res.status in ("kOptimal", "kTimeLimit")
    else:
        with pytest.raises((TypeError, ValueError), match="time_limit"):
            solve_lp([1.0], time_limit=value)


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(2, 4),
    m=st.integers(2, 4),
    extra=st.sampled_from([-1, 1, 2]),
    where=st.sampled_from(["rows", "cols"]),
)
def test_shape_mismatch_property(n, m, extra, where):
    A = np.ones((m, n + extra if where == "cols" else n))
    b = np.ones(m + extra if where == "rows" else m)
    with pytest.raises(ValueError, match="A_ub|b_ub"):
        solve_lp(np.ones(n), A_ub=A, b_ub=b)


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    scale=st.floats(1e-3, 1e3),
)
def test_scaling_property(seed, scale):
    """Scaling the costs scales the optimum and the duals (a degenerate-data check)."""
    c, A_ub, b_ub, A_eq, b_eq, bounds = random_feasible_lp(seed, n=6, m_ub=4, m_eq=1)
    base = solve_lp(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds)
    scaled = solve_lp(scale * c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds)
    assert scaled.fun == pytest.approx(scale * base.fun, rel=1e-7, abs=1e-9 * scale)


def test_no_output_by_default(capfd):
    solve_lp([1.0, 2.0], A_ub=[[1.0, 1.0]], b_ub=[1.0])
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    solve_lp([1.0, 2.0], A_ub=[[1.0, 1.0]], b_ub=[1.0], verbose=True)
    out, _ = capfd.readouterr()
    assert "HiGHS" in out or "Highs" in out


def test_no_warning_on_success():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        solve_lp([1.0, 2.0], A_ub=[[1.0, 1.0]], b_ub=[1.0])
