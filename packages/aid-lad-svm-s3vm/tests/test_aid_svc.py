import contextlib
import io
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC

from aid_models import AIDSVC, aggregated_dual_bound
from aid_models._svc_auto import NEWTON_MAX_FEATURES
from svmcore.datasets import make_blob_mixture
from svmcore.kernels import gram
from svmcore.solvers import hinge_objective, solve_qp


def _signed(y, classes):
    return np.where(y == classes[1], 1.0, -1.0)


def _svc_reference(X, y, C, sample_weight=None, **kw):
    svc = SVC(C=C, tol=1e-6, **kw).fit(X, y, sample_weight=sample_weight)
    ys = _signed(y, svc.classes_)
    if kw.get("kernel", "linear") == "linear":
        obj = hinge_objective(svc.coef_[0], svc.intercept_[0], X, ys, sample_weight, C)
    else:
        a = svc.dual_coef_[0]
        G = gram(
            X[svc.support_],
            kernel=kw["kernel"],
            gamma=kw["gamma"],
            degree=kw.get("degree", 3),
            coef0=kw.get("coef0", 0.0),
        )
        obj = float(np.abs(a).sum() - 0.5 * a @ G @ a)  # dual objective
    return svc, float(obj)


@pytest.mark.parametrize("solver", ["libsvm", "liblinear", "highs", "dcd", "newton"])
@pytest.mark.parametrize("seed", [0, 1])
def test_linear_optimum_equals_libsvm(solver, seed):
    X, y = make_blob_mixture(1500, 4, random_state=seed)
    C = 0.1
    svc, ref = _svc_reference(X, y, C, kernel="linear")
    # At the default gap_tol=1e-4 the objective already matches within 1e-4, but w may
    # still move enough to flip a few samples within ~0.01 of the boundary; the
    # training-accuracy comparison needs the tighter certificate.
    est = AIDSVC(C=C, solver=solver, gap_tol=1e-6, random_state=seed).fit(X, y)
    obj = hinge_objective(est.coef_[0], est.intercept_[0], X, _signed(y, est.classes_), None, C)
    assert obj == pytest.approx(ref, rel=1e-4)
    assert est.objective_ == pytest.approx(obj, rel=1e-12)
    assert est.optimality_gap_ <= 1e-4
    assert est.lower_bound_ <= ref * (1 + 1e-6)
    assert est.score(X, y) == svc.score(X, y)


@pytest.mark.parametrize("solver", ["highs", "libsvm"])
def test_propositions_3_and_4_at_every_iteration(solver):
    X, y = make_blob_mixture(2000, 5, random_state=3)
    C = 0.1
    _, e_star = _svc_reference(X, y, C, kernel="linear")
    est = AIDSVC(C=C, solver=solver, gap_tol=0.0, random_state=0).fit(X, y)
    h = est.history_
    F, E, E_best = h.column("F"), h.column("E"), h.column("E_best")
    assert len(h) >= 3
    tol = 1e-6 * e_star  # libsvm at tol=1e-6 as the reference is accurate to about this
    assert np.all(np.diff(F) >= -tol)  # Prop 4: F^t non-decreasing
    assert np.all(F <= e_star + tol)  # F^t <= E^*
    assert np.all(h.column("lower_bound") <= e_star + tol)
    assert np.all(E_best >= e_star - tol) and np.all(E >= E_best - 1e-12 * e_star)
    # Prop 3: the optimality condition stopped the run with E^T = F^T.
    assert est.stop_reason_ == "optimal" and h[-1]["n_split"] == 0
    assert E[-1] == pytest.approx(F[-1], rel=1e-9)
    assert E[-1] == pytest.approx(e_star, rel=1e-5)
    assert np.all((h.column("train_rate") >= 0) & (h.column("train_rate") <= 1))


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("solver", ["newton", "dcd"])
def test_iterative_bounds_are_monotone_and_certified(solver, sparse):
    # solver="dcd" solves early aggregated problems loosely and "newton" (what "auto"
    # picks for 5 features beyond DIRECT_MAX_SAMPLES) too (F^t is then an upper value,
    # not the aggregated optimum), so Prop 4 is checked on the certified bounds.
    X, y = make_blob_mixture(2000, 5, random_state=3)
    C = 0.1
    _, e_star = _svc_reference(X, y, C, kernel="linear")
    Xin = sp.csr_matrix(X) if sparse else X
    est = AIDSVC(C=C, solver=solver, gap_tol=1e-6, random_state=0).fit(Xin, y)
    backend = solver
    assert est.solver_ == backend
    h = est.history_
    bound, E_best = h.column("lower_bound"), h.column("E_best")
    tol = 1e-6 * e_star
    assert len(h) >= 3
    assert np.all(np.diff(bound) >= 0.0) and np.all(bound <= e_star + tol)
    assert np.all(E_best >= e_star - tol)
    assert est.optimality_gap_ <= 1e-6 and est.stop_reason_ in ("optimal", "gap")
    assert est.objective_ == pytest.approx(e_star, rel=2e-6)
    notes = h.column("note")
    assert all(backend in note for note in notes)
    # Each iteration's own bound passed the loop's checks (<= E^t, >= the previous bound):
    # the warm start carries the previous certified dual value.
    assert not any("certificate" in note for note in notes)
    # The paper's setting stays one parameter away and reaches the same optimum.
    paper = AIDSVC(C=C, solver="libsvm", gap_tol=1e-6, random_state=0).fit(Xin, y)
    assert paper.solver_ == "libsvm"
    assert paper.objective_ == pytest.approx(est.objective_, rel=2e-6)


@pytest.mark.parametrize("sparse", [False, True])
def test_dcd_full_is_certified_and_optimal(sparse):
    # solver="dcd-full" ("auto" beyond NEWTON_MAX_FEATURES features): no aggregation, one
    # certified dual CD solve on every row, reported like a one-iteration AID run.
    X, y = make_blob_mixture(1500, 4, random_state=2)
    C = 0.1
    svc, ref = _svc_reference(X, y, C, kernel="linear")
    Xin = sp.csr_matrix(X) if sparse else X
    est = AIDSVC(C=C, solver="dcd-full", gap_tol=1e-7, random_state=0).fit(Xin, y)
    assert est.solver_ == "dcd-full" and est.n_iter_ == 1 and est.stop_reason_ == "gap"
    assert est.n_clusters_ == X.shape[0] and len(est.history_) == 1
    assert "dcd-full" in est.history_[0]["note"]
    obj = hinge_objective(est.coef_[0], est.intercept_[0], X, _signed(y, est.classes_), None, C)
    assert est.objective_ == pytest.approx(obj, rel=1e-12)
    assert obj == pytest.approx(ref, rel=1e-6)
    assert est.optimality_gap_ <= 1e-7 and est.lower_bound_ <= ref * (1 + 1e-7)
    # The duals are the full problem's: w = sum_i alpha_i y_i x_i, alpha_i in [0, C].
    assert est.dual_coef_.shape[1] == est.support_.size
    assert np.abs(est.dual_coef_).max() <= C * (1 + 1e-12)
    assert est.dual_objective_ <= obj * (1 + 1e-12)
    assert est.score(X, y) == pytest.approx(svc.score(X, y), abs=2 / X.shape[0])


@pytest.mark.parametrize("solver, last", [("libsvm", 0.1), ("liblinear", 1.0)])
def test_inner_gap_target_follows_the_outer_gap(solver, last):
    # Far from the optimum one rough solve suffices; the last aggregated problem must
    # still meet 0.1 gap_tol (liblinear: gap_tol, then libsvm takes over), or the
    # certified gap could not reach gap_tol.
    X, y = make_blob_mixture(2000, 5, random_state=3)
    gap_tol = 1e-6
    est = AIDSVC(C=0.1, solver=solver, gap_tol=gap_tol, random_state=0).fit(X, y)
    gaps = est.history_.column("solver_gap")  # the aggregated solve's own gap
    assert 0.0 < gaps[0] <= 1e-2  # rough, not solved to 0.1 gap_tol at once
    assert gaps[-1] <= last * gap_tol
    assert est.optimality_gap_ <= gap_tol
    backends = set(est.history_.column("backend"))
    assert backends <= {solver, "libsvm"} and solver in backends


def test_recovered_duals_are_feasible_and_give_the_hyperplane():
    X, y = make_blob_mixture(1200, 3, random_state=4)
    C = 0.5
    est = AIDSVC(C=C, solver="highs", gap_tol=0.0, random_state=0).fit(X, y)
    ya = est.dual_coef_[0]
    alpha = np.abs(ya)
    assert np.all(alpha <= C * (1 + 1e-9)) and np.all(alpha > 0)
    assert abs(ya.sum()) <= 1e-6 * alpha.sum()
    # w = sum_i alpha_i y_i x_i with alpha_i = alpha_k / |C_k| (sec. 3.2).
    np.testing.assert_allclose(ya @ X[est.support_], est.coef_[0], rtol=1e-6, atol=1e-8)
    assert est.dual_objective_ <= est.objective_ * (1 + 1e-9)
    assert est.dual_objective_ == pytest.approx(est.objective_, rel=1e-6)


def test_sparse_input_and_sample_weight():
    X, y = make_blob_mixture(900, 6, random_state=5)
    X[np.abs(X) < 1.0] = 0.0
    C = 0.2
    _, ref = _svc_reference(X, y, C, kernel="linear")
    est = AIDSVC(C=C, random_state=0).fit(sp.csr_matrix(X), y)
    obj = hinge_objective(est.coef_[0], est.intercept_[0], X, _signed(y, est.classes_), None, C)
    assert obj == pytest.approx(ref, rel=1e-4)
    np.testing.assert_allclose(est.decision_function(sp.csr_matrix(X)), est.decision_function(X))

    w = np.random.default_rng(0).integers(0, 3, size=len(y)).astype(float)
    est_w = AIDSVC(C=C, random_state=0).fit(X, y, sample_weight=w)
    rep = np.repeat(np.arange(len(y)), w.astype(int))
    _, ref_rep = _svc_reference(X[rep], y[rep], C, kernel="linear")
    assert est_w.objective_ == pytest.approx(ref_rep, rel=1e-4)


def test_block_streaming_equals_in_memory():
    X, y = make_blob_mixture(1000, 4, random_state=6)
    a = AIDSVC(C=0.1, solver="highs", random_state=2).fit(X, y)
    b = AIDSVC(C=0.1, solver="highs", random_state=2, block_size=77).fit(X, y)
    assert a.n_iter_ == b.n_iter_
    np.testing.assert_allclose(a.history_.column("E"), b.history_.column("E"), rtol=1e-9)


@pytest.mark.parametrize(
    ("kernel", "params"), [("rbf", {"gamma": 0.5}), ("poly", {"gamma": 0.3, "coef0": 1.0})]
)
def test_kernel_dual_objective_equals_libsvm(kernel, params):
    X, y = make_blob_mixture(600, 3, random_state=7)
    C = 1.0
    svc, ref = _svc_reference(X, y, C, kernel=kernel, degree=2, **params)
    est = AIDSVC(C=C, kernel=kernel, degree=2, random_state=0, **params).fit(X, y)
    assert est.dual_objective_ == pytest.approx(ref, rel=1e-4)
    assert est.objective_ == pytest.approx(ref, rel=1e-4)
    assert est.score(X, y) == pytest.approx(svc.score(X, y), abs=2.0 / len(y))
    assert est.stop_reason_ in ("optimal", "gap")


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), C=st.sampled_from([0.1, 1.0, 10.0]))
def test_dual_bound_is_a_lower_bound(seed, C):
    """Weak duality for any duals in the box, and tight at the exact optimal duals."""
    rng = np.random.default_rng(seed)
    V = rng.normal(size=(20, 3))
    y = np.where(np.arange(20) % 2 == 0, -1.0, 1.0)

    def quad(v):
        u = V.T @ v
        return float(u @ u)

    # The exact dual optimum by HiGHS's QP (libsvm stops at a 1e-6 relative gap here).
    H = (V @ V.T) * np.outer(y, y)
    qp = solve_qp(
        H,
        -np.ones(20),
        A_eq=y[None, :],
        b_eq=[0.0],
        bounds=np.column_stack([np.zeros(20), np.full(20, C)]),
    )
    optimum = -qp.fun
    # any duals in the box, feasible or not: the bound never exceeds the optimum, nor
    # libsvm's primal objective (an upper bound on it)
    svc = SVC(kernel="linear", C=C, tol=1e-12).fit(V, y)
    primal = hinge_objective(svc.coef_[0], svc.intercept_[0], V, y, C=C)
    assert optimum <= primal * (1 + 1e-9)
    for _ in range(5):
        alpha = C * rng.random(20)
        assert aggregated_dual_bound(alpha, y, quad) <= optimum * (1 + 1e-9)
    # at the optimal duals (feasible up to round-off) it is the optimum itself
    alpha_opt = np.clip(qp.x, 0.0, C)
    assert aggregated_dual_bound(alpha_opt, y, quad) == pytest.approx(optimum, rel=1e-8)


@pytest.mark.parametrize(
    ("kwargs", "case", "exc", "match"),
    [
        ({}, "nan", ValueError, "NaN"),
        ({}, "one_class", ValueError, "exactly 2 classes"),
        ({}, "three_classes", ValueError, "Only binary classification"),
        ({}, "empty", ValueError, "0 sample"),
        ({"C": 0.0}, None, ValueError, "'C'"),
        ({"C": -1.0}, None, ValueError, "'C'"),
        ({"kernel": "poly", "degree": 0}, None, ValueError, "'degree'"),
        ({"initial_aggregation_rate": 0.0}, None, ValueError, "initial_aggregation_rate"),
        ({"initial_aggregation_rate": 2.0}, None, ValueError, "initial_aggregation_rate"),
        ({"kernel": "rbf", "solver": "liblinear"}, None, ValueError, "kernel='linear'"),
    ],
)
def test_bad_input(kwargs, case, exc, match):
    X, y = make_blob_mixture(60, 3, random_state=0)
    if case == "nan":
        X[0, 0] = np.nan
    elif case == "one_class":
        y = np.ones_like(y)
    elif case == "three_classes":
        y = np.arange(len(y)) % 3
    elif case == "empty":
        X, y = X[:0], y[:0]
    with pytest.raises(exc, match=match):
        AIDSVC(**kwargs).fit(X, y)


@settings(max_examples=8, deadline=None)
@given(
    n=st.integers(6, 40),
    dup=st.booleans(),
    seed=st.integers(0, 1000),
)
def test_degenerate_data_reaches_the_optimum(n, dup, seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(n, 2)).astype(float)
    if dup:
        X[: n // 2] = X[0]  # many identical rows, possibly with both labels
    y = np.where(rng.random(n) < 0.5, -1, 1)
    y[:2] = [-1, 1]
    C = 0.5
    _, ref = _svc_reference(X, y, C, kernel="linear")
    est = AIDSVC(C=C, solver="highs", gap_tol=0.0, random_state=seed).fit(X, y)
    obj = hinge_objective(est.coef_[0], est.intercept_[0], X, _signed(y, est.classes_), None, C)
    assert obj == pytest.approx(ref, rel=1e-5, abs=1e-8)


def test_budgets_and_callback_stop_early():
    X, y = make_blob_mixture(1500, 4, random_state=9)
    with pytest.warns(ConvergenceWarning, match="max_iter=1 iterations"):
        one = AIDSVC(C=0.1, gap_tol=0.0, max_iter=1, random_state=0).fit(X, y)
    assert one.stop_reason_ == "max_iter" and one.n_iter_ == 1 and not one.converged_
    assert one.optimality_gap_ > 0 and one.lower_bound_ <= one.objective_
    with pytest.warns(ConvergenceWarning, match="time_limit=1e-09 s"):
        timed = AIDSVC(C=0.1, gap_tol=0.0, time_limit=1e-9, random_state=0).fit(X, y)
    assert timed.stop_reason_ == "time_limit" and timed.n_iter_ == 1 and not timed.converged_
    assert timed.score(X, y) >= max(
        np.mean(y == timed.classes_[0]), np.mean(y == timed.classes_[1])
    )
    cb = AIDSVC(C=0.1, gap_tol=0.0, callback=lambda rec: rec["t"] >= 1, random_state=0)
    assert cb.fit(X, y).stop_reason_ == "callback" and cb.n_iter_ == 2
    full = AIDSVC(C=0.1, random_state=0).fit(X, y)
    assert full.converged_ and full.stop_reason_ in ("optimal", "gap")


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_highs_qp_failure_falls_back_to_libsvm(kernel, monkeypatch):
    import aid_models._svc_problem as svc_module
    from svmcore.solvers import SolverError

    def failing_qp(*args, **kwargs):
        raise SolverError("forced failure", status="kSolveError")

    monkeypatch.setattr(svc_module, "solve_qp", failing_qp)
    X, y = make_blob_mixture(400, 3, random_state=10)
    C = 1.0
    params = {"gamma": 0.5} if kernel == "rbf" else {}
    _, ref = _svc_reference(X, y, C, kernel=kernel, **params)
    est = AIDSVC(C=C, kernel=kernel, solver="highs", gap_tol=1e-6, random_state=0, **params)
    est.fit(X, y)
    assert all("highs-qp: kSolveError" in rec["note"] for rec in est.history_)
    objective = est.dual_objective_ if kernel == "rbf" else est.objective_
    assert objective == pytest.approx(ref, rel=1e-4)


def test_dcd_full_on_csr_starts_at_the_sparse_tolerance(monkeypatch):
    # issue 16: "dcd-full" on CSR input starts its first proximal round at
    # SPARSE_FIRST_EPS (fewer rounds on text), dense input at dcd_weighted_svm's 0.1;
    # both certified (the optimum itself is checked in test_dcd_full_is_certified...).
    import aid_models._svc_full_dcd as full
    from svmcore.solvers import dcd_weighted_svm

    seen = []

    def recording(*args, **kwargs):
        seen.append(kwargs["eps"])
        return dcd_weighted_svm(*args, **kwargs)

    monkeypatch.setattr(full, "dcd_weighted_svm", recording)
    X, y = make_blob_mixture(500, 3, random_state=2)
    for Xin in (sp.csr_matrix(X), X):
        est = AIDSVC(solver="dcd-full", random_state=0).fit(Xin, y)
        assert est.converged_ and est.optimality_gap_ <= 1e-4
    assert seen == [full.SPARSE_FIRST_EPS, 0.1] and full.SPARSE_FIRST_EPS < 0.1


def test_auto_direct_solve_is_newton_on_every_row_and_certified():
    # issue 16: on small dense problems "auto" solves (7) directly by the Newton solver,
    # one certified solve, checked against an independent reference (libsvm, tol 1e-6).
    X, y = make_blob_mixture(600, 4, random_state=2)
    for C in (1.0, 100.0):
        est = AIDSVC(C=C, random_state=0).fit(X, y)
        assert est.solver_ == "newton-full" and est.n_iter_ == 1 and est.n_clusters_ == 600
        _, e_star = _svc_reference(X, y, C, kernel="linear")
        assert est.converged_ and est.optimality_gap_ <= 1e-4
        assert est.lower_bound_ <= e_star * (1 + 1e-9)
        assert est.objective_ <= e_star * (1 + 1e-4)
        # the same problem through AID's loop: the same optimum (within both gaps)
        aid = AIDSVC(C=C, solver="newton", random_state=0).fit(X, y)
        assert aid.n_iter_ > 1
        assert est.objective_ == pytest.approx(aid.objective_, rel=2e-4)


def test_auto_direct_solve_is_chosen_by_rows_not_entries():
    # issue 16: the crossover is in rows (DIRECT_MAX_SAMPLES); 1,000 x 50 (50,000 entries,
    # above the former 40,000-entry limit) is solved directly and certified, checked
    # against libsvm (tol 1e-6) as the independent reference.
    X, y = make_blob_mixture(1000, 50, random_state=5)
    est = AIDSVC(random_state=0).fit(X, y)
    assert est.solver_ == "newton-full" and est.n_iter_ == 1 and est.n_clusters_ == 1000
    _, e_star = _svc_reference(X, y, 1.0, kernel="linear")
    assert est.converged_ and est.optimality_gap_ <= 1e-4
    assert est.lower_bound_ <= e_star * (1 + 1e-9)
    assert est.objective_ <= e_star * (1 + 1e-4)


def test_auto_direct_solve_falls_back_to_aid_when_not_certified(monkeypatch):
    import aid_models._svc_full_dcd as full
    from svmcore.solvers import newton_weighted_svm

    def capped(*args, **kwargs):
        return newton_weighted_svm(*args, **{**kwargs, "max_steps": 1})

    monkeypatch.setattr(full, "newton_weighted_svm", capped)
    X, y = make_blob_mixture(600, 4, random_state=2)
    est = AIDSVC(random_state=0).fit(X, y)
    assert est.solver_ == "newton" and est.n_iter_ > 1 and est.converged_


def test_unscaled_data_warn_once_through_the_fit_not_per_newton_solve():
    # issue 19: svmcore's Newton solver now warns when it stops uncertified; AIDSVC's
    # direct solve (falls back to AID) and AID's aggregated solves (the loop has its own
    # bound and warnings) silence it, so features of 1e18 give the fit's own warning
    # (a stall) and not one per Newton solve (29 of them before the callers passed
    # warn=False).
    rng = np.random.default_rng(0)
    y = np.where(rng.random(300) < 0.5, 1, 0)
    X = (rng.normal(size=(300, 4)) + 0.8 * (2 * y[:, None] - 1)) * 1e18
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = AIDSVC(random_state=0).fit(X, y)
    messages = [str(w.message) for w in caught if issubclass(w.category, ConvergenceWarning)]
    assert not est.converged_ and est.stop_reason_ == "unsolved"
    assert len(messages) == 1 and "newton_weighted_svm" not in messages[0]


def test_hopeless_scale_stops_early_and_names_the_scale_and_the_remedy():
    # issue 19: AIDSVC() on features of 1e10 (max C s_i ||x_i - mean||^2 ~ 5e21: a nearly
    # hard-margin problem) ran 8 iterations at 300 rows (12.5 s) and 25 at 2,000 rows
    # (650 s), every aggregated solve failing (Newton at its smoothing floor, its bound
    # lost to cancellation, the retries' libsvm at its 1e7-iteration cap), and its
    # warning did not say why. Now three failed iterations in a row stop the run
    # ("unsolved") and the warning names the scale and the remedy.
    X, y = make_classification(n_samples=300, random_state=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = AIDSVC(random_state=0).fit(X * 1e10, y)
    assert not est.converged_ and est.stop_reason_ == "unsolved" and est.n_iter_ == 3
    (message,) = [str(w.message) for w in caught if issubclass(w.category, ConvergenceWarning)]
    assert "max C s_i ||x_i - mean||^2 is 4.71e+21" in message
    assert "StandardScaler" in message and "lower C" in message
    # The same data at its own scale (unit variance): certified.
    est = AIDSVC(random_state=0).fit(X, y)
    assert est.converged_ and est.optimality_gap_ <= est.gap_tol


def test_optimality_condition_on_a_loose_solve_is_not_called_converged():
    # issue 19: dual CD stopped at its epoch cap at a gap of 1.18e-4 > gap_tol = 1e-4,
    # no cluster violated Prop 3, and the run ended converged_ = True, "optimal", at that
    # gap. Now the partition is solved again, tighter, and "optimal" means within gap_tol.
    X, y = make_blob_mixture(600, 10, random_state=0)
    est = AIDSVC(C=100.0, solver="dcd", random_state=0).fit(X, y)
    assert est.converged_ and est.stop_reason_ == "optimal"
    assert est.optimality_gap_ <= est.gap_tol
    assert "re-solved" in est.history_[-1]["note"]


def test_auto_solver_is_recorded(monkeypatch):
    import aid_models._svc_auto as auto

    X, y = make_blob_mixture(400, 3, random_state=1)
    # Small and dense, the loop's options at their defaults: one certified Newton solve.
    small = AIDSVC(random_state=0).fit(X, y)
    assert small.solver_ == "newton-full" and small.n_iter_ == 1 and small.n_clusters_ == 400
    # CSR, or any of the loop's options, keeps AID (Newton: m + 1 unknowns).
    assert AIDSVC(random_state=0).fit(sp.csr_matrix(X), y).solver_ == "newton"
    for params in ({"max_iter": 50}, {"callback": lambda rec: None}, {"verbose": 1},
                   {"time_limit": 60.0}, {"block_size": 100},
                   {"initial_aggregation_rate": 0.05}, {"init_sample_size": 200}):  # fmt: skip
        with contextlib.redirect_stdout(io.StringIO()):
            assert AIDSVC(random_state=0, **params).fit(X, y).solver_ == "newton", params
    # Beyond DIRECT_MAX_SAMPLES rows: dense with few features, the aggregated primal
    # has m + 1 unknowns (Newton).
    monkeypatch.setattr(auto, "DIRECT_MAX_SAMPLES", 399)
    assert AIDSVC(random_state=0).fit(X, y).solver_ == "newton"
    monkeypatch.setattr(auto, "DIRECT_MAX_SAMPLES", 400)
    assert AIDSVC(random_state=0).fit(X, y).solver_ == "newton-full"
    wide = np.hstack([X, np.zeros((X.shape[0], NEWTON_MAX_FEATURES))])
    # More features: AID's aggregated problems stop paying; DCD on every row instead.
    assert AIDSVC(random_state=0).fit(wide, y).solver_ == "dcd-full"
    assert AIDSVC(random_state=0).fit(sp.csr_matrix(wide), y).solver_ == "dcd-full"
    assert AIDSVC(kernel="rbf", random_state=0).fit(X, y).solver_ == "highs"
    assert AIDSVC(solver="libsvm", random_state=0).fit(X, y).solver_ == "libsvm"


@pytest.mark.parametrize("C", [1e6, 1e8])
def test_huge_C_never_claims_an_optimum_it_has_not_reached(C):
    # issue 19 (found by svmcore.testing.hostile): on separable data at a huge C the
    # aggregated solves stop short (gaps near 1), no cluster violates Prop 3, and the
    # run reported "optimal" at up to 3000 times the optimum (or, with Newton, raised
    # "Matrix is singular"). Now: a proven optimum, or "stalled" with a warning ("auto"
    # solves this small problem directly: certified to gap_tol, or AID's loop).
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 3))
    X[:, 0] += np.where(X[:, 0] >= 0, 0.5, -0.5)
    y = (X[:, 0] > 0).astype(int)
    for solver in ("auto", "libsvm", "highs"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            est = AIDSVC(C=C, solver=solver, random_state=0).fit(X, y)
        assert est.score(X, y) == 1.0
        if est.stop_reason_ == "optimal":
            assert est.optimality_gap_ <= 1e-2, solver
        elif est.stop_reason_ == "gap":
            assert est.converged_ and est.optimality_gap_ <= est.gap_tol, solver
        else:
            assert est.stop_reason_ in ("stalled", "unsolved") and not est.converged_, solver
            assert any(issubclass(w.category, ConvergenceWarning) for w in caught), solver


def test_highs_rejecting_the_aggregated_qp_hands_it_to_libsvm(monkeypatch):
    # issue 19: with features of 1e10 the aggregated Gram matrix has entries beyond
    # HiGHS's infinity (1e20) and HiGHS rejects it ("passHessian returned kError", a
    # ValueError), which ended AIDSVC(solver="highs") with that error; like its other
    # failures it now goes to libsvm (noted in the history).
    import aid_models._svc_problem as svc_problem

    def rejecting(*args, **kwargs):
        raise ValueError("HiGHS rejected the problem data (passHessian returned kError).")

    monkeypatch.setattr(svc_problem, "solve_qp", rejecting)
    X, y = make_blob_mixture(400, 3, random_state=1)
    est = AIDSVC(solver="highs", random_state=0).fit(X, y)
    assert est.converged_ and est.optimality_gap_ <= est.gap_tol
    assert "highs-qp: data rejected" in est.history_[0]["note"]
