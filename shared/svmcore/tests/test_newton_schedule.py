"""The Newton solver's smoothing schedule, polish limit and step direction (issue 16)."""

import numpy as np
import pytest
from _svm_problems import dual_qp_optimum

from svmcore.datasets import make_blob_mixture
from svmcore.solvers import _newton
from svmcore.solvers._newton import newton_weighted_svm
from svmcore.solvers._newton_direction import newton_direction


def _standardized_blobs(n, m, seed):
    X, y = make_blob_mixture(n, m, random_state=seed)
    return (X - X.mean(axis=0)) / X.std(axis=0), y.astype(np.float64)


@pytest.mark.parametrize("C", [1.0, 100.0])
def test_the_width_shrinks_gradually_and_certifies_in_few_steps(C):
    # 800 x 30: straight from mu = 2 to the ~1e-4 the smoothing bound asked for (or a
    # 1000x cut), the band emptied and Newton re-found the margin rows one per step:
    # 50-step stages ending at the cap, 193-292 steps. Cutting mu by at most 1 /
    # _MU_MAX_CUT per stage it certifies in 57-61.
    X, y = _standardized_blobs(800, 30, 7)
    res = newton_weighted_svm(X, y, C=C, gap_tol=1e-4)
    assert res.converged and res.gap <= 1e-4
    assert res.n_epochs <= 100
    qp = dual_qp_optimum(X, y, C * np.ones(y.size))  # HiGHS's dual QP, independent
    assert res.dual_objective <= qp * (1 + 1e-7)
    assert res.objective <= qp * (1 + 1e-4)


def test_the_polish_skips_a_band_wider_than_m_plus_one():
    # In general position at most m + 1 rows lie on the margin at the optimum: a wider
    # band is not its partition and its O(k^3) least squares is not tried.
    rng = np.random.default_rng(0)
    m = 3
    limit = m + 1
    assert _newton._POLISH_BAND_PER_FEATURE * (m + 1) == limit
    X = rng.normal(size=(40, m))
    y = np.where(np.arange(40) % 2 == 0, 1.0, -1.0)
    cs = np.ones(40)
    mu = 1.0
    z = np.full(40, -1.0)  # every row outside the band ...
    z[: limit + 1] = 0.5  # ... but one more than the limit inside it
    assert _newton._polish(X, y, cs, z, mu) is None
    z[limit] = -1.0  # exactly the limit: polished
    assert _newton._polish(X, y, cs, z, mu) is not None


def test_the_direction_is_the_newton_system_solution_or_the_lapack_fallback():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(6, 6))
    H = A @ A.T + np.eye(6)  # positive definite: Cholesky in Numba
    g = rng.normal(size=6)
    np.testing.assert_allclose(newton_direction(H, g), np.linalg.solve(H, -g), rtol=1e-10)
    fixed = newton_direction(H, g, free_bias=False)  # the bias's row and column left out
    assert fixed[-1] == 0.0
    np.testing.assert_allclose(fixed[:-1], np.linalg.solve(H[:-1, :-1], -g[:-1]), rtol=1e-10)
    # Not positive definite (a zero pivot): LAPACK's least squares, the minimum-norm step.
    S = np.diag([2.0, 0.0, 1.0])
    np.testing.assert_allclose(newton_direction(S, np.array([2.0, 1.0, 1.0])), [-1.0, 0.0, -1.0])
