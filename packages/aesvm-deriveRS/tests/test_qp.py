"""The jitted simplex QP (CheckPoint), minimum enclosing ball and DeriveAE against HiGHS."""

import numpy as np
import pytest
from _reference import check_point_highs, derive_ae_naive, kernel_matrix, simplex_qp_highs
from hypothesis import given, settings
from hypothesis import strategies as st

from aesvm import _derive_ae, _simplex_qp

KERNELS = [
    ("rbf", {"gamma": 0.7}),
    ("linear", {}),
    ("poly", {"gamma": 0.5, "degree": 2, "coef0": 1.0}),
]


def instance(seed, m, kernel, params, n_features=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m + 1, n_features))
    G = kernel_matrix(X, X, kernel, **params)
    return G


def solve(G, members, i, *, tol=1e-12, accept=-np.inf, reject=np.inf):
    idx = np.asarray(members, dtype=np.int64)
    m = idx.size
    mu, g = np.empty(m), np.empty(m)
    c = G[i, idx].copy()
    value, gap, n_iter, status = _simplex_qp.solve_simplex_qp(
        G, idx, m, c, G[i, i], mu, g, tol, 100_000, accept, reject, False
    )
    return mu, value, gap, status


@pytest.mark.parametrize(("kernel", "params"), KERNELS)
@pytest.mark.parametrize("seed", range(6))
def test_simplex_qp_matches_highs(kernel, params, seed):
    m = [2, 5, 12, 30, 45, 60][seed]
    G = instance(seed, m, kernel, params)
    members = np.arange(1, m + 1)
    mu, value, gap, status = solve(G, members, 0)
    assert status == _simplex_qp.STATUS_CONVERGED
    assert mu.min() >= 0 and abs(mu.sum() - 1) < 1e-12
    assert gap <= 1e-12
    _, ref = check_point_highs(G, 0, members)
    assert value == pytest.approx(ref, abs=1e-9)
    # The reported value is the objective at the returned mu.
    sub = G[np.ix_(members, members)]
    assert value == pytest.approx(mu @ sub @ mu - 2 * G[0, members] @ mu + G[0, 0], abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), m=st.integers(1, 25), eps=st.floats(1e-4, 0.5))
def test_early_decisions_agree_with_exact_optimum(seed, m, eps):
    G = instance(seed, m, "rbf", {"gamma": 0.3})
    members = np.arange(1, m + 1)
    _, exact = check_point_highs(G, 0, members)
    _, value, gap, status = solve(G, members, 0, tol=1e-10, accept=eps, reject=eps)
    if abs(exact - eps) < 1e-7:
        return  # a tie within solver accuracy may go either way
    if status == _simplex_qp.STATUS_ACCEPTED:
        assert exact <= eps and value <= eps
    elif status == _simplex_qp.STATUS_REJECTED:
        # The separating-hyperplane certificate: dist^2 >= (f - gap/2)^2 / f > eps.
        bound = (value - 0.5 * gap) ** 2 / value
        assert value - 0.5 * gap > 0 and bound > eps
        assert exact > eps and exact >= bound - 1e-12
    else:
        assert (value <= eps) == (exact <= eps)


@pytest.mark.parametrize(("kernel", "params"), KERNELS)
@pytest.mark.parametrize("n", [1, 2, 7, 40])
def test_minimum_enclosing_ball_matches_highs(kernel, params, n):
    G = instance(n, n - 1, kernel, params)
    alpha, radius2, dist2, gap, _, status = _simplex_qp.minimum_enclosing_ball(G, 1e-12, 100_000)
    assert status == _simplex_qp.STATUS_CONVERGED
    _, value = simplex_qp_highs(G, 0.5 * np.diag(G))
    assert radius2 == pytest.approx(-value, abs=1e-9)
    # Every point inside the ball; the ball's support on its surface.
    assert dist2.max() <= radius2 + 1e-9
    np.testing.assert_allclose(dist2[alpha > 1e-9], radius2, atol=1e-8)
    expected = np.diag(G) - 2 * G @ alpha + alpha @ G @ alpha
    np.testing.assert_allclose(dist2, expected, atol=1e-10)


def test_duplicate_points_have_zero_distance():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    G = kernel_matrix(X, X, "rbf", gamma=1.0)
    _, value, _, status = solve(G, [1, 3], 2)
    assert value == pytest.approx(0.0, abs=1e-14)


@pytest.mark.parametrize(
    ("kernel", "params", "eps"),
    [
        ("rbf", {"gamma": 0.5}, 1e-3),
        ("rbf", {"gamma": 0.1}, 1e-2),
        ("poly", {"gamma": 0.3, "degree": 2, "coef0": 1.0}, 1e-3),
        ("linear", {}, 1e-2),
    ],
)
@pytest.mark.parametrize("seed", range(2))
def test_derive_ae_matches_naive_highs_version(kernel, params, eps, seed):
    rng = np.random.default_rng(seed)
    n = 35
    X = rng.normal(size=(n, 2))
    G = kernel_matrix(X, X, kernel, **params)
    expected = derive_ae_naive(G, eps)
    gamma_out = np.empty((n, n))
    residual = np.empty(n)
    rep = np.empty(n, dtype=bool)
    _derive_ae.derive_ae(G, n, eps, 1e-12, 1e-12, 100_000, 1e-7, gamma_out, residual, rep)
    np.testing.assert_array_equal(rep, expected)
    # Gamma rows on the simplex, supported on representatives, reconstructing within eps.
    np.testing.assert_allclose(gamma_out.sum(axis=1), 1.0, atol=1e-12)
    assert gamma_out.min() >= 0
    assert not gamma_out[:, ~rep].any()
    tau2 = (
        np.diag(G)
        - 2 * np.einsum("ij,ij->i", gamma_out, G)
        + np.einsum("ij,jk,ik->i", gamma_out, G, gamma_out)
    )
    assert tau2.max() <= eps + 1e-9
    np.testing.assert_allclose(residual, np.maximum(tau2, 0), atol=1e-9)


@pytest.mark.parametrize(("kernel", "params"), KERNELS[:1] + KERNELS[2:])
@pytest.mark.parametrize("seed", range(5))
def test_loose_solve_then_polish_is_exact(kernel, params, seed):
    """Step 6's CheckPoint: a loose SMO solve finished by the active-set polish."""
    m = [8, 20, 40, 60, 80][seed]
    G = instance(seed + 10, m, kernel, params)
    idx = np.arange(1, m + 1, dtype=np.int64)
    n = m + 1
    mu, g, c, work = np.empty(n), np.empty(n), np.empty(n), np.empty((4, n))
    eps = np.inf  # never rejected: the full solve runs to the end
    ok, value = _derive_ae._check_point(G, 0, idx, m, mu, g, c, work, eps, 1e-3, 100_000, True)
    _, ref = check_point_highs(G, 0, idx)
    assert ok
    assert value == pytest.approx(ref, abs=1e-9)
    assert mu[:m].min() >= 0 and mu[:m].sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_polish_adds_missing_support_coordinates(seed):
    """From a single vertex the active-set step adds the violated coordinates itself."""
    m = 10
    G = instance(seed + 30, m, "rbf", {"gamma": 0.7}, n_features=2)
    idx = np.arange(1, m + 1, dtype=np.int64)
    c = G[0, idx].copy()
    mu, g = np.zeros(m), np.empty(m)
    mu[np.argmax(c)] = 1.0  # the nearest member: a feasible point with support of size 1
    value, gap, polished = _simplex_qp._polish(G, idx, m, c, G[0, 0], mu, g, 1e-12)
    _, ref = check_point_highs(G, 0, idx)
    assert polished  # supports of 2-5 points reached from one vertex
    assert value == pytest.approx(ref, abs=1e-9)
    assert mu.min() >= 0 and mu.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.count_nonzero(mu) > 1
