"""L2-SVM-MFN against independent minimizers of the same objective (liblinear, L-BFGS)."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC

from l2svm_mfn import MFNClassifier, l2svm_mfn, squared_hinge_objective

RTOL = 1e-6


def _problem(n=300, d=40, density=0.2, seed=0, noise=0.7):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, random_state=rng, format="csr")
    X.data = rng.standard_normal(X.nnz)
    w = rng.standard_normal(d)
    y = np.where(X @ w + noise * rng.standard_normal(n) + 0.3 > 0, 1, 0)
    cost = rng.uniform(0.2, 3.0, n)
    return X, y, cost


def _objective(clf, X, y, cost, lam_vec=None):
    w = np.r_[clf.coef_.ravel(), clf.intercept_]
    ys = np.where(y == clf.classes_[1], 1.0, -1.0)
    o = X @ w[:-1] + w[-1]
    lam = clf.alpha if lam_vec is None else lam_vec
    return squared_hinge_objective(w, o, ys, cost, lam)


def _lbfgs(X, y, cost, lam_vec):
    A = np.hstack([X.toarray() if sp.issparse(X) else X, np.ones((X.shape[0], 1))])
    ys = np.where(y == y.max(), 1.0, -1.0)

    def fun(w):
        m = np.maximum(0.0, 1.0 - ys * (A @ w))
        grad = lam_vec * w - A.T @ (cost * m * ys)
        return 0.5 * w @ (lam_vec * w) + 0.5 * cost @ (m * m), grad

    res = minimize(
        fun,
        np.zeros(A.shape[1]),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": 20000, "gtol": 1e-12, "ftol": 1e-16, "maxcor": 50},
    )
    return res.fun


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("alpha", [1e-2, 1.0])
def test_objective_equals_liblinear_and_lbfgs(sparse, weighted, alpha):
    X, y, cost = _problem()
    if not weighted:
        cost = np.ones_like(cost)
    Xin = X if sparse else X.toarray()
    clf = MFNClassifier(alpha=alpha).fit(Xin, y, sample_weight=cost if weighted else None)
    ours = _objective(clf, X, y, cost)
    # SVMlin's algorithm 1 is liblinear -s 2 with C = 1/(2 lambda) and the bias as a
    # regularized constant feature (-B 1): liblinear's primal is exactly ours / lambda.
    ref = LinearSVC(
        loss="squared_hinge",
        dual=False,
        C=1 / (2 * alpha),
        fit_intercept=True,
        intercept_scaling=1,
        tol=1e-12,
        max_iter=100000,
    )
    ref.fit(Xin, y, sample_weight=cost if weighted else None)
    theirs = _objective(ref, X, y, cost, lam_vec=alpha)
    lbfgs = _lbfgs(X, y, cost, np.full(X.shape[1] + 1, alpha))
    assert abs(ours - theirs) <= RTOL * theirs
    assert abs(ours - lbfgs) <= RTOL * lbfgs
    assert clf.objective_ == pytest.approx(ours, rel=1e-12)


def test_unregularized_bias_matches_lbfgs():
    X, y, cost = _problem(seed=1)
    y = np.where(np.arange(y.size) % 5 == 0, 1, 0)  # imbalanced: the bias matters
    lam = 0.1
    clf = MFNClassifier(alpha=lam, regularize_intercept=False).fit(X, y, sample_weight=cost)
    lam_vec = np.full(X.shape[1] + 1, lam)
    lam_vec[-1] = 0.0
    ours = _objective(clf, X, y, cost, lam_vec)
    ref = _lbfgs(X, y, cost, lam_vec)
    assert abs(ours - ref) <= RTOL * ref
    regularized = MFNClassifier(alpha=lam).fit(X, y, sample_weight=cost)
    assert abs(regularized.intercept_[0]) < abs(clf.intercept_[0])


def test_no_intercept_matches_liblinear():
    X, y, _ = _problem(seed=2)
    clf = MFNClassifier(alpha=0.05, fit_intercept=False).fit(X, y)
    ref = LinearSVC(
        loss="squared_hinge", dual=False, C=10.0, fit_intercept=False, tol=1e-12, max_iter=100000
    ).fit(X, y)
    np.testing.assert_allclose(clf.coef_, ref.coef_, rtol=1e-4, atol=1e-6)
    assert clf.intercept_[0] == 0.0


def test_active_set_changes_and_line_search_is_used():
    X, y, cost = _problem(n=400, seed=3)
    clf = MFNClassifier(alpha=1e-2).fit(X, y, sample_weight=cost)
    sizes = [rec["n_active"] for rec in clf.history_]
    deltas = [rec["delta"] for rec in clf.history_ if rec["delta"] is not None]
    assert len(set(sizes)) > 2  # the active set j(w) changes across Newton steps
    assert len(deltas) >= 2 and any(abs(d - 1.0) > 1e-3 for d in deltas)
    objectives = [rec["objective"] for rec in clf.history_]
    assert all(b <= a + 1e-12 * abs(a) for a, b in zip(objectives, objectives[1:], strict=False))


def test_float32_input_kept_and_same_objective():
    X, y, cost = _problem(seed=4)
    X32 = X.astype(np.float32)
    a = MFNClassifier(alpha=0.1).fit(X32, y)
    b = MFNClassifier(alpha=0.1).fit(X32.astype(np.float64), y)
    assert a.objective_ == pytest.approx(b.objective_, rel=1e-9)


def test_integer_weights_equal_duplicated_rows():
    X, y, _ = _problem(n=120, seed=5)
    weights = np.random.default_rng(5).integers(0, 4, X.shape[0])
    a = MFNClassifier(alpha=0.3).fit(X, y, sample_weight=weights)
    rep = np.repeat(np.arange(X.shape[0]), weights)
    b = MFNClassifier(alpha=0.3).fit(X[rep], y[rep])
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(a.intercept_, b.intercept_, rtol=1e-6, atol=1e-8)


def test_warm_start_reuses_solution():
    X, y, cost = _problem(n=600, d=80, seed=6)
    clf = MFNClassifier(alpha=0.1, warm_start=True).fit(X, y, sample_weight=cost)
    cold = MFNClassifier(alpha=0.11).fit(X, y, sample_weight=cost)
    clf.set_params(alpha=0.11).fit(X, y, sample_weight=cost)
    assert clf.n_cg_iter_ < cold.n_cg_iter_
    assert clf.objective_ == pytest.approx(cold.objective_, rel=RTOL)


def test_jacobi_preconditioner_same_objective():
    X, y, cost = _problem(seed=7)
    X = sp.csr_matrix(X @ sp.diags(np.geomspace(0.01, 100.0, X.shape[1])))
    a = MFNClassifier(alpha=0.1).fit(X, y, sample_weight=cost)
    b = MFNClassifier(alpha=0.1, preconditioner="jacobi").fit(X, y, sample_weight=cost)
    assert b.objective_ == pytest.approx(a.objective_, rel=RTOL)


def test_multiclass_one_vs_rest_matches_liblinear():
    rng = np.random.default_rng(8)
    X = rng.standard_normal((150, 5))
    y = np.argmax(X[:, :3] + 0.3 * rng.standard_normal((150, 3)), axis=1)
    clf = MFNClassifier(alpha=0.5).fit(X, y)
    ref = LinearSVC(loss="squared_hinge", dual=False, C=1.0, tol=1e-12, max_iter=100000)
    ref.fit(X, y)
    np.testing.assert_allclose(clf.coef_, ref.coef_, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(clf.intercept_, ref.intercept_, rtol=1e-4, atol=1e-6)
    # one objective per problem, their sum as objective_, every problem in history_
    assert clf.objectives_.shape == (3,)
    assert clf.objective_ == pytest.approx(clf.objectives_.sum(), rel=1e-15)
    assert isinstance(clf.objective_, float)
    assert {rec["class"] for rec in clf.history_} == {0, 1, 2}
    last = {c: [r for r in clf.history_ if r["class"] == c][-1]["objective"] for c in range(3)}
    np.testing.assert_allclose([last[c] for c in range(3)], clf.objectives_, rtol=1e-9)


def test_sparse_never_densified():
    # 100k features: X^T X would need 80 GB, so the fit only passes through products.
    rng = np.random.default_rng(9)
    n, d = 200, 100_000
    cols = rng.integers(0, d, (n, 5))
    X = sp.csr_matrix((rng.random(n * 5), cols.ravel(), np.arange(0, n * 5 + 1, 5)), shape=(n, d))
    y = rng.integers(0, 2, n)
    clf = MFNClassifier(alpha=1e-3).fit(X, y)
    assert clf.coef_.shape == (1, d)
    assert clf.score(X, y) > 0.95


def test_convergence_warning_when_capped():
    X, y, cost = _problem(seed=10)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        clf = MFNClassifier(alpha=1e-3, max_iter=1).fit(X, y, sample_weight=cost)
    assert clf.n_iter_ == 1


def test_functional_api_seeded_start_skips_loose_stage():
    X, y, cost = _problem(seed=11)
    ys = np.where(y == 1, 1.0, -1.0)
    first = l2svm_mfn(X, ys, cost, 0.1)
    again = l2svm_mfn(X, ys, cost, 0.1, w0=first.w, outputs0=first.outputs)
    assert again.converged and again.n_iter == 1
    np.testing.assert_allclose(again.w, first.w, rtol=1e-4, atol=1e-6)
    assert squared_hinge_objective(again.w, again.outputs, ys, cost, 0.1) == pytest.approx(
        squared_hinge_objective(first.w, first.outputs, ys, cost, 0.1), rel=RTOL
    )


@settings(max_examples=15, deadline=None)
@given(alpha=st.sampled_from([0.0, -1.0, np.inf, "a"]))
def test_bad_alpha(alpha):
    X, y, _ = _problem(n=20, d=3)
    with pytest.raises((ValueError, TypeError), match="alpha"):
        MFNClassifier(alpha=alpha).fit(X, y)


@settings(max_examples=10, deadline=None)
@given(value=st.sampled_from([np.nan, np.inf]), row=st.integers(0, 19))
def test_nonfinite_input_rejected(value, row):
    X, y, _ = _problem(n=20, d=3)
    X = X.toarray()
    X[row, 0] = value
    with pytest.raises(ValueError, match="NaN|infinity"):
        MFNClassifier().fit(X, y)


def test_degenerate_inputs():
    X, y, _ = _problem(n=20, d=3)
    with pytest.raises(ValueError, match="2 classes"):
        MFNClassifier().fit(X, np.zeros(20))
    with pytest.raises(ValueError, match="sample_weight"):
        MFNClassifier().fit(X, y, sample_weight=-np.ones(20))
    with pytest.raises(ValueError, match="preconditioner"):
        MFNClassifier(preconditioner="ilu").fit(X, y)
    # All-zero features: the solution is the bias alone, no failure.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = MFNClassifier().fit(np.zeros((10, 2)), np.r_[np.zeros(3), np.ones(7)])
    np.testing.assert_array_equal(clf.coef_, 0.0)
    assert clf.intercept_[0] > 0


def _separable_enough(seed, n=120):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    return X, (X[:, 0] + 0.3 * rng.normal(size=n) > 0).astype(int)


@settings(max_examples=12, deadline=None)
@given(exponent=st.integers(20, 150), sparse=st.booleans())
def test_huge_feature_scales_give_the_same_model(exponent, sparse):
    """X * s: the fit equals the fit on X with alpha / s^2 (issue 19).

    Without rescaling, ``||X p||^2`` overflowed in CGLS from s ~ 1e77 and the fit silently
    returned w = 0 (chance level on separable data).
    """
    s = 10.0**exponent
    X, y = _separable_enough(exponent)
    alpha = 1e-2
    Xs = sp.csr_matrix(X * s) if sparse else X * s
    clf = MFNClassifier(alpha=alpha, regularize_intercept=False).fit(Xs, y)
    ref = MFNClassifier(alpha=alpha / s**2, regularize_intercept=False).fit(X, y)
    np.testing.assert_allclose(clf.coef_ * s, ref.coef_, rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(clf.intercept_, ref.intercept_, rtol=1e-5, atol=1e-8)
    assert clf.score(Xs, y) == ref.score(X, y) > 0.7  # not the chance-level model (0.5)


@pytest.mark.parametrize("scale", [1e200, 1e300])
def test_scales_beyond_the_alpha_range_still_fit(scale):
    X, y = _separable_enough(3)
    clf = MFNClassifier().fit(X * scale, y)
    assert clf.score(X * scale, y) > 0.9
    assert np.all(np.isfinite(clf.coef_)) and np.abs(clf.coef_).max() > 0
