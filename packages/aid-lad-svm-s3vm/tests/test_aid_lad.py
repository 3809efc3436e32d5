import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import QuantileRegressor

from aid_models import AIDLADRegressor, lad_interior_point, lad_lp, lad_lp_sifting
from aid_models import _lad as lad_module
from svmcore.datasets import make_lad_set_a


def _qr_objective(X, y, fit_intercept, sample_weight=None):
    qr = QuantileRegressor(quantile=0.5, alpha=0.0, solver="highs", fit_intercept=fit_intercept)
    qr.fit(X, y, sample_weight=sample_weight)
    w = np.ones_like(y) if sample_weight is None else sample_weight
    return float(w @ np.abs(y - qr.predict(X)))


def _objective(est, X, y, w=None):
    w = np.ones_like(y) if w is None else w
    return float(w @ np.abs(y - est.predict(X)))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_optimum_equals_quantile_regressor(seed, fit_intercept):
    X, y = make_lad_set_a(1500, 4 + seed, random_state=seed)
    est = AIDLADRegressor(fit_intercept=fit_intercept, gap_tol=0.0, random_state=seed).fit(X, y)
    ref = _qr_objective(X, y, fit_intercept)
    assert _objective(est, X, y) == pytest.approx(ref, rel=1e-6)
    assert est.objective_ == pytest.approx(ref, rel=1e-6)
    assert est.stop_reason_ == "optimal"
    if not fit_intercept:
        assert est.intercept_ == 0.0


@pytest.mark.parametrize("lp_method", ["sift", "ipm", "simplex", "warm"])
def test_lp_methods_agree_with_interior_point_default(lp_method):
    X, y = make_lad_set_a(3000, 5, random_state=11)
    # A small initial sample and rate make later LPs large enough for sifting to fix columns.
    kw = {"gap_tol": 0.0, "random_state": 0, "init_sample_size": 50}
    default = AIDLADRegressor(**kw).fit(X, y)
    other = AIDLADRegressor(lp_method=lp_method, **kw).fit(X, y)
    assert all("Frisch-Newton" in rec["note"] for rec in default.history_)
    if lp_method == "sift":
        assert all("sifting" in rec["note"] for rec in other.history_)
    if lp_method == "warm":
        assert "(warm)" in other.history_[1]["note"]
    assert default.objective_ == pytest.approx(other.objective_, rel=1e-9)
    assert default.stop_reason_ == other.stop_reason_ == "optimal"
    assert default.optimality_gap_ <= 1e-9


def test_sifting_lp_equals_full_lp():
    rng = np.random.default_rng(3)
    K, m = 3000, 8
    X = np.hstack([rng.normal(size=(K, m - 1)), np.ones((K, 1))])
    y = X @ rng.normal(size=m) + rng.laplace(size=K)
    w = rng.integers(1, 20, K).astype(float)
    beta, primal, dual, _ = lad_lp(X, y, w)
    # Start far from the optimum and from a tiny working set: several rounds, growth.
    for beta0, size in [(beta + 0.05 * rng.normal(size=m), 50), (np.zeros(m), 10)]:
        b, p, d, info = lad_lp_sifting(X, y, w, beta0, min_size=size)
        assert p == pytest.approx(primal, rel=1e-9) and d == pytest.approx(primal, rel=1e-9)
        assert info["rounds"] >= 2 and info["size"] < K


@pytest.mark.parametrize("case", ["weighted", "collinear", "exact fit", "sparse"])
def test_interior_point_equals_highs_lp(case):
    rng = np.random.default_rng(7)
    K, m = 2500, 12
    X = np.hstack([rng.normal(size=(K, m - 1)), np.ones((K, 1))])
    beta_true = rng.normal(size=m)
    y = X @ beta_true + rng.standard_t(2, size=K)
    w = rng.integers(1, 50, K).astype(float) if case == "weighted" else None
    if case == "collinear":  # a singular normal matrix: the ridge fallback
        X = np.hstack([X, X[:, :1]])
    if case == "exact fit":
        y = X @ beta_true
    Xs = sp.csr_matrix(X) if case == "sparse" else X
    beta, primal, dual, info = lad_interior_point(Xs, y, w)
    ref_beta, ref_primal, ref_dual, _ = lad_lp(X, y, w)
    assert info["status"] == "optimal"
    scale = 1.0 + abs(ref_primal)
    unit = np.ones(K) if w is None else w
    assert primal == pytest.approx(float(unit @ np.abs(y - X @ beta)))
    assert abs(primal - ref_primal) <= 1e-8 * scale
    assert dual <= ref_primal + 1e-9 * scale  # a lower bound
    assert primal - dual <= 1e-8 * scale  # and a tight one
    if case == "exact fit":
        assert primal <= 1e-8 * np.abs(y).sum()
        np.testing.assert_allclose(beta, beta_true, atol=1e-8)


def test_interior_point_iteration_limit_reported():
    X, y = make_lad_set_a(500, 3, random_state=2)
    _, primal, dual, info = lad_interior_point(np.hstack([X, np.ones((500, 1))]), y, max_iter=2)
    assert info["status"] == "max_iter" and info["n_iter"] == 2
    assert primal > dual


def test_interior_point_feasibility_check():
    from aid_models._lad_ipm import _balanced

    X = np.array([[1.0, 2.0], [1.0, -1.0], [-2.0, -1.0]])
    e = np.array([1.0, 1.0, 1.0])  # X^T e = 0
    assert _balanced(X, e) and _balanced(sp.csr_matrix(X), e)
    assert not _balanced(X, e + np.array([0.0, 0.0, 1e-6]))


def test_unconverged_interior_point_falls_back_to_highs(monkeypatch):
    X, y = make_lad_set_a(3000, 4, random_state=1)
    calls = []

    def stalled(*args, **kwargs):
        beta, primal, dual, info = lad_interior_point(*args, **kwargs, max_iter=1)
        calls.append(info["status"])
        return beta, primal, dual, info

    monkeypatch.setattr(lad_module, "lad_interior_point", stalled)
    est = AIDLADRegressor(gap_tol=0.0, random_state=0).fit(X, y)
    assert calls and set(calls) == {"max_iter"}
    assert all("sifting" in rec["note"] for rec in est.history_)
    assert est.stop_reason_ == "optimal"
    Xi = np.hstack([X, np.ones((len(y), 1))])
    assert est.objective_ == pytest.approx(lad_lp(Xi, y)[1], rel=1e-9)


def test_full_data_lp_agrees():
    X, y = make_lad_set_a(800, 3, random_state=5)
    Xi = np.hstack([X, np.ones((len(y), 1))])
    beta, primal, dual, res = lad_lp(Xi, y)
    assert res.success
    assert primal == pytest.approx(dual, rel=1e-9)
    assert primal == pytest.approx(_qr_objective(X, y, True), rel=1e-9)
    est = AIDLADRegressor(gap_tol=0.0, random_state=0).fit(X, y)
    assert est.objective_ == pytest.approx(primal, rel=1e-6)


@pytest.mark.parametrize("seed", [3, 4])
def test_propositions_1_and_2_at_every_iteration(seed):
    X, y = make_lad_set_a(3000, 6, random_state=seed)
    est = AIDLADRegressor(gap_tol=0.0, initial_aggregation_rate=0.002, random_state=seed)
    est.fit(X, y)
    e_star = _qr_objective(X, y, True)
    h = est.history_
    F, E, E_best = h.column("F"), h.column("E"), h.column("E_best")
    assert len(h) >= 3  # the run really iterated
    tol = 1e-9 * e_star
    assert np.all(np.diff(F) >= -tol)  # Prop 2: F^t non-decreasing
    assert np.all(F <= e_star + tol)  # F^t <= E^*
    assert np.all(E_best >= e_star - tol) and np.all(E >= E_best - tol)
    assert np.all(np.diff(h.column("gap")) <= 1e-12)
    # Prop 1: the optimality condition stopped the run and E^T = F^T = E^*.
    assert est.stop_reason_ == "optimal" and h[-1]["n_split"] == 0
    assert E[-1] == pytest.approx(F[-1], rel=1e-9)
    assert E[-1] == pytest.approx(e_star, rel=1e-6)
    # Clusters only grow: each violating cluster splits in two.
    K = h.column("n_clusters")
    np.testing.assert_array_equal(K[1:], K[:-1] + h.column("n_split")[:-1])


@pytest.mark.parametrize(
    ("budget", "match"), [({"max_iter": 1}, "max_iter=1 "), ({"time_limit": 1e-9}, "time_limit=")]
)
def test_budgets_stop_with_converged_false_and_a_warning(budget, match):
    # issue 19: a budget stop is a ConvergenceWarning naming it, converged_ False, and
    # the best solution found, with its certified bound (after one aggregated LP on 6
    # clusters that solution can be far from the optimum: budgets bound time, not quality)
    X, y = make_lad_set_a(3000, 6, random_state=3)
    with pytest.warns(ConvergenceWarning, match=match):
        est = AIDLADRegressor(gap_tol=0.0, initial_aggregation_rate=0.002, random_state=3, **budget)
        est.fit(X, y)
    assert not est.converged_ and est.n_iter_ == 1
    assert est.stop_reason_ == next(iter(budget))
    assert est.objective_ == pytest.approx(_objective(est, X, y), rel=1e-9)
    assert est.lower_bound_ <= est.objective_ and 0 < est.optimality_gap_ <= 1
    full = AIDLADRegressor(random_state=3).fit(X, y)
    assert full.converged_ and full.objective_ <= est.objective_


def test_sparse_and_float32_input():
    X, y = make_lad_set_a(1200, 5, random_state=6)
    X[np.abs(X) < 0.8] = 0.0
    ref = _qr_objective(X, y, True)
    dense = AIDLADRegressor(gap_tol=0.0, random_state=1).fit(X, y)
    csr = AIDLADRegressor(gap_tol=0.0, random_state=1).fit(sp.csr_matrix(X), y)
    assert _objective(dense, X, y) == pytest.approx(ref, rel=1e-6)
    assert _objective(csr, X, y) == pytest.approx(ref, rel=1e-6)
    X32 = X.astype(np.float32)
    f32 = AIDLADRegressor(gap_tol=0.0, random_state=1).fit(X32, y)
    ref32 = _qr_objective(X32.astype(np.float64), y, True)
    assert _objective(f32, X32.astype(np.float64), y) == pytest.approx(ref32, rel=1e-6)


@pytest.mark.parametrize("max_columns", [2048, 3])
def test_sparse_aggregated_lps_go_to_the_interior_point_up_to_its_width(monkeypatch, max_columns):
    # CSR designs up to FN_SPARSE_MAX_COLUMNS columns (intercept included) take the
    # Frisch-Newton interior point, wider ones HiGHS; both reach the optimum.
    monkeypatch.setattr(lad_module, "FN_SPARSE_MAX_COLUMNS", max_columns)
    X, y = make_lad_set_a(1500, 5, random_state=8)
    X[np.abs(X) < 0.8] = 0.0
    est = AIDLADRegressor(gap_tol=0.0, random_state=2).fit(sp.csr_matrix(X), y)
    backends = {record["backend"] for record in est.history_}
    assert backends == ({"frisch-newton"} if max_columns > 5 else {"highs-ipm"})
    assert _objective(est, X, y) == pytest.approx(_qr_objective(X, y, True), rel=1e-6)


def test_integer_sample_weight_equals_repeated_rows():
    X, y = make_lad_set_a(600, 3, random_state=7)
    w = np.random.default_rng(0).integers(0, 4, size=len(y)).astype(float)
    est = AIDLADRegressor(gap_tol=0.0, random_state=0).fit(X, y, sample_weight=w)
    rep = np.repeat(np.arange(len(y)), w.astype(int))
    ref = _qr_objective(X[rep], y[rep], True)
    assert _objective(est, X, y, w) == pytest.approx(ref, rel=1e-6)
    assert est.objective_ == pytest.approx(ref, rel=1e-6)


def test_block_streaming_equals_in_memory():
    X, y = make_lad_set_a(1000, 4, random_state=8)
    a = AIDLADRegressor(gap_tol=0.0, random_state=3).fit(X, y)
    b = AIDLADRegressor(gap_tol=0.0, random_state=3, block_size=97).fit(X, y)
    assert a.n_iter_ == b.n_iter_
    np.testing.assert_allclose(a.history_.column("E"), b.history_.column("E"), rtol=1e-9)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-7, atol=1e-9)


def test_reproducible_and_gap_stop():
    X, y = make_lad_set_a(2000, 5, random_state=9)
    a = AIDLADRegressor(random_state=4, gap_tol=0.0).fit(X, y)
    b = AIDLADRegressor(random_state=4, gap_tol=0.0).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    loose = AIDLADRegressor(random_state=4, gap_tol=0.2).fit(X, y)
    assert loose.optimality_gap_ <= 0.2 and loose.n_iter_ <= a.n_iter_
    assert loose.stop_reason_ in ("gap", "optimal")
    assert loose.lower_bound_ <= _qr_objective(X, y, True) * (1 + 1e-9)


@settings(max_examples=10, deadline=None)
@given(
    n=st.integers(4, 40),
    m=st.integers(1, 3),
    ties=st.booleans(),
    seed=st.integers(0, 1000),
)
def test_degenerate_data_reaches_the_optimum(n, m, ties, seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(n, m)).astype(float)
    y = rng.integers(-2, 3, size=n).astype(float) if ties else rng.normal(size=n)
    est = AIDLADRegressor(gap_tol=0.0, random_state=seed).fit(X, y)
    assert _objective(est, X, y) == pytest.approx(_qr_objective(X, y, True), rel=1e-6, abs=1e-9)


@pytest.mark.parametrize(
    ("kwargs", "fit_args", "exc", "match"),
    [
        ({}, "nan", ValueError, "NaN"),
        ({}, "inf", ValueError, "infinity"),
        ({}, "wide", ValueError, "n_samples = 3"),
        ({}, "empty", ValueError, "0 sample"),
        ({"initial_aggregation_rate": 0.0}, None, ValueError, "initial_aggregation_rate"),
        ({"initial_aggregation_rate": 1.5}, None, ValueError, "initial_aggregation_rate"),
        ({"gap_tol": -1.0}, None, ValueError, "gap_tol"),
        ({"max_iter": 0}, None, ValueError, "max_iter"),
        ({"lp_method": "magic"}, None, ValueError, "lp_method"),
    ],
)
def test_bad_input(kwargs, fit_args, exc, match):
    X, y = make_lad_set_a(50, 3, random_state=0)
    if fit_args == "nan":
        X[0, 0] = np.nan
    elif fit_args == "inf":
        y[0] = np.inf
    elif fit_args == "wide":
        X, y = X[:3], y[:3]
    elif fit_args == "empty":
        X, y = X[:0], y[:0]
    with pytest.raises(exc, match=match):
        AIDLADRegressor(**kwargs).fit(X, y)


def test_exact_fit_gives_no_certificate_warning():
    # scikit-learn's check_sample_weights_shape data: y is fitted exactly, the optimum is 0
    # and the LP's dual value is rounding noise around it (-3.6e-15), which must not read
    # as a bound that decreased below the previous one.
    import warnings

    X = np.repeat([[1.0, 3.0], [2.0, 1.0], [3.0, 3.0], [4.0, 1.0]], 4, axis=0)
    y = np.repeat([1.0, 2.0, 1.0, 2.0], 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = AIDLADRegressor(random_state=0).fit(X, y, sample_weight=np.ones(16))
    assert est.objective_ == pytest.approx(0.0, abs=1e-9)
    assert est.lower_bound_ >= 0.0
