"""The full pricing with certified kernel sums decides as the exact pricing does."""

from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lpsvr._passes
from lpsvr._passes import Outputs, full_pricing, price, rounded_pricing
from lpsvr._row_column import fit_row_column
from lpsvr._samples import ArraySamples
from lpsvr._variable_decomposition import fit_lp_svr
from svmcore.datasets import make_noisy_sinc
from svmcore.kernels import KernelSum


def exact_g(X, beta, gamma):
    """``K beta`` for the RBF kernel in extended precision (x87 long double)."""
    Xl, bl = np.asarray(X, dtype=np.longdouble), np.asarray(beta, dtype=np.longdouble)
    sq = ((Xl[:, None, :] - Xl[None, :, :]) ** 2).sum(axis=2)
    return np.exp(-np.longdouble(gamma) * sq) @ bl


def pricing(method, samples, state, beta, in_cols, tol, params):
    """full_pricing with every kernel sum forced to ``method``."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(lpsvr._passes, "KernelSum", partial(KernelSum, method=method))
        return full_pricing(samples, state, beta, in_cols, tol, samples.n, params, 1)


def partial_pricing(method, X, rows, beta, tol, params):
    """The violating ``rows`` by :func:`price` (as the partial pricing ranks them)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(lpsvr._passes, "KernelSum", partial(KernelSum, method=method))
        viol = np.abs(price(X, rows, beta, tol, params, 1)) - 1.0
    hit = np.flatnonzero(viol > tol)
    return rows[hit[np.argsort(-viol[hit], kind="stable")]]


@st.composite
def pricing_cases(draw):
    n = draw(st.integers(20, 250))
    d = draw(st.integers(1, 2))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    X = rng.uniform(-3, 3, (n, d))
    gamma = 10.0 ** draw(st.floats(-1.5, 1.0))
    beta = rng.normal(size=n) * (rng.random(n) < draw(st.floats(0.1, 1.0)))
    g = exact_g(X, beta, gamma).astype(np.float64)
    # scale beta so that |g| crosses 1 on part of the samples (mixed decisions)
    beta *= draw(st.floats(0.6, 1.6)) / max(np.abs(g).max(), 1e-300)
    in_cols = rng.random(n) < 0.1
    change = beta * (rng.random(n) < 0.05) * rng.normal(size=n)
    tol = 10.0 ** draw(st.sampled_from([-8, -6, -3, -1]))
    return X, gamma, beta, change, in_cols, tol


@settings(max_examples=60, deadline=None)
@given(case=pricing_cases())
def test_bounded_pricing_decides_as_the_exact_pricing(case):
    X, gamma, beta, change, in_cols, tol = case
    n = X.shape[0]
    samples = ArraySamples(X, np.zeros(n), np.ones(n))
    params = dict(kernel="rbf", gamma=gamma, degree=3, coef0=0.0)
    state = None
    for b in (beta, beta + change):  # the first pricing, then an update by the change
        state, top = pricing("taylor", samples, state, b, in_cols, tol, params)
        _, top_exact = pricing("exact", samples, None, b, in_cols, tol, params)
        np.testing.assert_array_equal(top, top_exact)  # same columns, same order
        g, err, beta_g = state
        assert beta_g is b
        ref = exact_g(X, b, gamma)
        viol = np.abs(ref) - 1.0
        cleared = err > 0.0  # settled by the bound alone: proven not violating
        assert np.all(viol[cleared] <= tol)
        assert np.all(np.abs(g - ref)[cleared] <= err[cleared])
        assert not np.any(cleared & in_cols)  # P's g is exact (the final KKT check reads it)
        # what the bound says violating is violating: every returned column is
        assert np.all(viol[top] > tol) and not np.any(in_cols[top])
        # the partial pricing's candidates: same violating rows, same order
        rows = np.flatnonzero(~in_cols)
        hits = partial_pricing("taylor", X, rows, b, tol, params)
        np.testing.assert_array_equal(hits, partial_pricing("exact", X, rows, b, tol, params))
        assert np.all(viol[hits] > tol)


def test_updated_bound_covers_the_update_rounding():
    # g + K delta rounds once more, and delta = beta - beta_g is itself rounded: a bound
    # that only added the two sums' bounds was 1.6e-17 short on a hypothesis case.
    g_old = np.array([0.1, 0.7, -0.3, 0.5])
    g_delta = np.array([0.2, 1e-9, 0.1, 0.0])
    exact = np.asarray(g_old, np.longdouble) + np.asarray(g_delta, np.longdouble)

    def update(bound):  # bound: of both sums (positive: certified, 0: exact)
        def delta_sum(X):
            return g_delta.copy(), np.full(4, bound)

        block = np.zeros((4, 1)), None, None, np.zeros(4, bool)
        pricing_block = lpsvr._passes._pricing_block
        return pricing_block(delta_sum, 1.0, 1e-6, 4, 0, *block, g_old, np.full(4, bound))

    out = update(1e-30)  # certified sums, bounds far below a rounding
    assert np.any(out["g"] != exact)  # the case does round
    assert np.all(np.abs(out["g"] - exact) <= out["err"])
    assert np.all(update(0.0)["err"] == 0.0)  # exact rows stay exact


def test_row_column_on_sinc_sums_by_expansion_and_reaches_the_full_lp():
    """The default pricing on 1-D data takes the certified expansion, and the fit still
    ends at the single LP's optimum with the full KKT check passing."""
    X, d = make_noisy_sinc(600, random_state=3)
    X = X / 5.0
    cost = np.full(d.size, 2.0)
    params = dict(kernel="rbf", gamma=0.5, degree=3, coef0=0.0)
    methods = []

    def spy(*args, **kw):
        ks = KernelSum(*args, **kw)
        methods.append(ks.method)
        return ks

    ref = fit_lp_svr(X, d, cost, epsilon=0.1, kernel_params=params, decomposition="none", n_jobs=1)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(lpsvr._passes, "KernelSum", spy)
        res = fit_row_column(
            X, d, cost, epsilon=0.1, kernel_params=params, random_state=0, n_jobs=1,
            coarsen=3, min_level=100, interior=False,
        )  # fmt: skip
    assert "taylor" in methods
    assert res.converged and res.history[-1]["n_added"] == 0
    assert res.objective == pytest.approx(ref.objective, rel=1e-6)
    g = exact_g(X, res.mu - res.nu, 0.5)
    assert np.all(np.abs(g) - 1.0 <= 1e-6)  # dual feasible on every column (long double)
    assert max(res.kkt["dual"], res.kkt["complementarity"]) < 1e-6


@pytest.mark.parametrize("folded", [False, True])
def test_rounded_pricing_takes_the_exact_best_columns(folded):
    """The interior rounds' pricing in float32 (``rounded_pricing``): the columns outside
    P whose exact ``|g_i| - 1`` is largest, best first, as many as the exact pricing finds
    (up to ``k``), each within float32 rounding of the exact ranking; from a known part
    of beta (the folded rows' state) it sums only the rest and finds the same."""
    from lpsvr._interior_start import _Folded

    n, k, tol, t = 400, 6, 1e-4, 0.7
    rng = np.random.default_rng(5)
    X = rng.uniform(-2.0, 2.0, (n, 6))
    params = dict(kernel="rbf", gamma=0.2, degree=3, coef0=0.0)
    cost = rng.uniform(0.5, 2.0, n)
    beta = rng.normal(size=n) * (rng.random(n) < 0.4)
    part = np.flatnonzero(beta == 0.0)[:60] if folded else np.zeros(0, dtype=np.intp)
    signs = rng.choice([-1.0, 1.0], part.size)
    beta[part] = -t * signs * cost[part]  # the folded rows' multipliers, pi_r = t u_r
    scale = 2.0 / np.abs(exact_g(X, beta, 0.2).astype(np.float64)).max()
    beta, cost = beta * scale, cost * scale  # |g| crosses 1 on part of the samples
    samples = ArraySamples(X, np.zeros(n), cost)
    state = None
    if folded:
        store = _Folded(n, samples, params, 1)
        store.add(part, signs)
        state = store.pricing_state(t)
        np.testing.assert_allclose(state[2], np.where(np.isin(np.arange(n), part), beta, 0.0))
    viol = np.abs(exact_g(X, beta, 0.2).astype(np.float64)) - 1.0
    in_cols = rng.random(n) < 0.1
    cand = np.flatnonzero(~in_cols & (viol > tol))
    assert np.abs(viol[cand] - tol).min() > 1e-4  # no candidate at float32's edge
    assert cand.size > k  # more violating columns than taken
    expected = cand[np.argsort(-viol[cand])][:k]
    got = rounded_pricing(samples, state, beta, in_cols, tol, k, params, 1)
    assert got.size == k and not in_cols[got].any()
    np.testing.assert_allclose(viol[got], viol[expected], rtol=0, atol=1e-5)
    np.testing.assert_array_equal(np.sort(got), np.sort(expected))  # no near ties here
    # the exact pricing takes the same columns
    _, top = full_pricing(samples, state, beta, in_cols, tol, k, params, 1)
    np.testing.assert_array_equal(got, top)


def test_rounded_outputs_match_the_float64_outputs():
    """``Outputs(rounded=True)``, the interior rounds' check: f in float64 (b added in
    float64) within float32 rounding of the exact outputs; the default stays float64."""
    rng = np.random.default_rng(2)
    X = rng.uniform(-2.0, 2.0, (300, 5))
    rows, coef, b = X[:40], rng.normal(size=40), 1234.5
    params = dict(kernel="rbf", gamma=0.3, degree=3, coef0=0.0)
    exact = exact_g(np.r_[X, rows], np.r_[np.zeros(300), coef], 0.3)[:300].astype(np.float64) + b
    plain = Outputs(rows, coef, b, params, 1).f(X)
    rounded = Outputs(rows, coef, b, params, 1, rounded=True).f(X)
    assert plain.dtype == rounded.dtype == np.float64
    np.testing.assert_allclose(plain, exact, rtol=0, atol=1e-9)
    err = np.abs(rounded - exact)
    assert err.max() <= 1e-5 * np.abs(coef).sum()
    assert err.max() > 1e-9  # rounded: not the float64 sum
