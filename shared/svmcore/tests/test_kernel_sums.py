"""svmcore.kernels.KernelSum: the certified bound holds, against an extended-precision sum."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from svmcore.kernels import KernelSum, kernel_matvec


def reference_sum(X, Y, w, gamma):
    """``K(X, Y) w`` for the RBF kernel in extended precision (x87 long double)."""
    X, Y, w = (np.asarray(a, dtype=np.longdouble) for a in (X, Y, w))
    sq = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(axis=2)
    return np.exp(-np.longdouble(gamma) * sq) @ w


@st.composite
def sums(draw):
    d = draw(st.integers(1, 3))
    m = draw(st.integers(1, 120))
    n = draw(st.integers(1, 40))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    spread = draw(st.sampled_from([0.0, 0.5, 5.0, 30.0]))  # 0: every point the same
    Y = rng.uniform(-spread, spread, (m, d))
    if draw(st.booleans()):  # duplicated points
        Y[m // 2 :] = Y[: m - m // 2]
    X = np.r_[rng.uniform(-1.5 * spread, 1.5 * spread, (n, d)), Y[: min(m, 5)]]
    w = rng.normal(size=m) * 10.0 ** draw(st.integers(-2, 3))
    w[rng.random(m) < 0.2] = 0.0
    gamma = 10.0 ** draw(st.floats(-3.0, 1.0))
    atol = 10.0 ** draw(st.sampled_from([-2, -6, -10, -13]))
    return X, Y, w, gamma, atol


@settings(max_examples=60, deadline=None)
@given(case=sums())
def test_taylor_error_within_bound(case):
    X, Y, w, gamma, atol = case
    ks = KernelSum(Y, w, atol=atol, gamma=gamma, method="taylor")
    g, err = ks(X)
    exact = reference_sum(X, Y, w, gamma)
    assert np.all(np.abs(g - exact) <= err), (ks.order, ks.n_clusters)
    # the order is chosen for atol: truncation and skipped clusters within atol, plus
    # the rounding allowance of 64 eps per unit of |w|
    allowance = 64 * np.finfo(np.float64).eps * np.abs(w).sum()
    assert np.all(err <= (atol + allowance) * (1 + 1e-9))


def test_taylor_tracks_exact_sum_at_scale():
    """1-D noisy-sinc-like pricing: 20,000 points, wide kernel, a bound far below 1e-7."""
    rng = np.random.default_rng(1)
    Y = rng.uniform(-10, 10, (20_000, 1))
    w = rng.choice([-2.0, 2.0], 20_000) * rng.random(20_000)
    X = rng.uniform(-10, 10, (3_000, 1))
    ks = KernelSum(Y, w, atol=1e-7, gamma=0.03, n_targets=10**6)
    assert ks.method == "taylor" and ks.n_clusters < 20
    g, err = ks(X)
    exact = kernel_matvec(X, Y, w, gamma=0.03)
    # the direct float64 sum has rounding of its own (about 1e-11 here)
    assert np.all(np.abs(g - exact) <= err + 1e-10)
    assert err.max() < 1e-7


def test_auto_keeps_the_exact_product_where_it_is_cheaper():
    rng = np.random.default_rng(2)
    Y, w = rng.normal(size=(300, 2)), rng.normal(size=300)
    X = rng.normal(size=(7, 2))
    small = KernelSum(Y[:5], w[:5], atol=1e-8, gamma=1.0)  # few points
    many_features = KernelSum(rng.normal(size=(300, 12)), w, atol=1e-8, gamma=0.1)
    poly = KernelSum(Y, w, atol=1e-8, kernel="poly", gamma=0.5, degree=2, coef0=1.0)
    csr = KernelSum(sp.csr_matrix(Y), w, atol=1e-8, gamma=1.0, n_targets=10**6)
    for ks in (small, many_features, poly, csr):
        assert ks.method == "exact" and ks.order == 0
    g, err = poly(X)
    np.testing.assert_array_equal(
        g, kernel_matvec(X, Y, w, kernel="poly", gamma=0.5, degree=2, coef0=1.0)
    )
    np.testing.assert_array_equal(err, 0.0)
    g, err = KernelSum(Y, np.zeros(300), atol=1e-8, method="taylor")(X)
    np.testing.assert_array_equal(g, 0.0)
    np.testing.assert_array_equal(err, 0.0)


def test_bad_input_names_the_parameter():
    Y, w = np.zeros((4, 2)), np.ones(4)
    with pytest.raises(ValueError, match="atol"):
        KernelSum(Y, w, atol=0.0)
    with pytest.raises(ValueError, match="w must have shape"):
        KernelSum(Y, np.ones(3), atol=1e-8)
    with pytest.raises(ValueError, match="w contains NaN"):
        KernelSum(Y, np.array([1.0, np.nan, 0.0, 0.0]), atol=1e-8)
    with pytest.raises(ValueError, match="method"):
        KernelSum(Y, w, atol=1e-8, method="fgt")
    with pytest.raises(ValueError, match="method='taylor' needs"):
        KernelSum(Y, w, atol=1e-8, kernel="linear", method="taylor")
    with pytest.raises(ValueError, match="features"):
        KernelSum(Y, w, atol=1e-8)(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="gamma"):
        KernelSum(Y, w, atol=1e-8, gamma=-1.0)
