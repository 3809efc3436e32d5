"""svmcore against scikit-learn and scipy: kernels, CGLS and the HiGHS LP wrapper."""

import numpy as np
import scipy.sparse as sp
from _benchkit import Row, max_abs_diff, max_rel_diff, measure, reference_gap
from scipy.optimize import linprog
from scipy.sparse.linalg import lsqr
from sklearn.metrics.pairwise import rbf_kernel

from svmcore.kernels import gram, kernel_matvec
from svmcore.linalg import cgls

from . import REGISTRY

GAMMA = 0.5


def _points(n, d, dtype, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((n, d)) / np.sqrt(d)).astype(dtype)


@REGISTRY.register("gram")
def gram_vs_sklearn(size):
    n, d = {"quick": (1500, 30), "full": (5000, 100)}[size]
    rows = []
    for dtype in ("float64", "float32"):
        X, Y = _points(n, d, dtype, 0), _points(n, d, dtype, 1)
        ours_t, ours = measure(lambda X=X, Y=Y: gram(X, Y, kernel="rbf", gamma=GAMMA))
        base_t, base = measure(lambda X=X, Y=Y: rbf_kernel(X, Y, gamma=GAMMA))
        rows.append(
            Row(
                f"gram rbf {dtype} ({n}x{n})",
                ours_t,
                "sklearn rbf_kernel",
                base_t,
                "max abs diff",
                f"{max_abs_diff(ours, base):.1e}",
            )
        )
    return rows


@REGISTRY.register("kernel_matvec")
def kernel_matvec_vs_sklearn(size):
    n, d = {"quick": (3000, 30), "full": (10000, 100)}[size]
    X, Y = _points(n, d, "float64", 0), _points(n, d, "float64", 1)
    v = np.random.default_rng(2).standard_normal(n)
    ours_t, ours = measure(lambda: kernel_matvec(X, Y, v, kernel="rbf", gamma=GAMMA))
    base_t, base = measure(lambda: rbf_kernel(X, Y, gamma=GAMMA) @ v)
    return [
        Row(
            f"kernel_matvec rbf ({n}x{n})",
            ours_t,
            "rbf_kernel(X, Y) @ v",
            base_t,
            "max rel diff",
            f"{max_rel_diff(ours, base):.1e}",
        )
    ]


def _ridge_objective(beta, X, y, cost, lam):
    residual = y - X @ beta
    return 0.5 * lam * beta @ beta + 0.5 * cost @ residual**2


@REGISTRY.register("cgls")
def cgls_vs_lsqr(size):
    """Weighted ridge: ``cgls`` vs ``lsqr`` on rows scaled by sqrt(cost), damp=sqrt(lam)."""
    lam = 1.0
    shapes = {
        "dense": {"quick": (5000, 100), "full": (50000, 300)}[size],
        "CSR": {"quick": (20000, 2000), "full": (200000, 20000)}[size],
    }
    rows = []
    rng = np.random.default_rng(0)
    for layout, (n, d) in shapes.items():
        if layout == "CSR":
            X = sp.random(n, d, density=0.01, format="csr", random_state=rng)
        else:
            X = rng.standard_normal((n, d))
        y = X @ rng.standard_normal(d) + 0.1 * rng.standard_normal(n)
        cost = rng.uniform(0.5, 2.0, n)
        root = np.sqrt(cost)
        X_scaled = sp.diags(root) @ X if sp.issparse(X) else X * root[:, None]
        ours_t, ours = measure(lambda X=X, y=y, cost=cost: cgls(X, y, cost, lam).beta)
        base_t, base = measure(
            lambda X_scaled=X_scaled, y=y, root=root: lsqr(
                X_scaled, y * root, damp=np.sqrt(lam), atol=1e-10, btol=1e-10
            )[0]
        )
        gap = reference_gap(
            _ridge_objective(ours, X, y, cost, lam), _ridge_objective(base, X, y, cost, lam)
        )
        rows.append(
            Row(
                f"cgls {layout} ({n}x{d})",
                ours_t,
                "scipy lsqr",
                base_t,
                "objective gap",
                f"{gap:.1e}",
            )
        )
    return rows


@REGISTRY.register("highs_lp")
def highs_lp_vs_linprog(size):
    """LAD regression as an LP (scikit-learn QuantileRegressor's formulation, sparse CSC).

    ``min 1^T (u + v)  s.t.  X b + u - v = y,  u, v >= 0``; both call HiGHS, so the
    ratio measures the wrappers (model building, status checks), not the solver.
    """
    from svmcore.solvers import solve_lp

    n, d = {"quick": (2000, 20), "full": (20000, 50)}[size]
    rng = np.random.default_rng(0)
    X = rng.standard_normal((n, d))
    y = X @ rng.standard_normal(d) + rng.laplace(size=n)
    eye = sp.eye(n, format="csc")
    A_eq = sp.hstack([sp.csc_matrix(X), eye, -eye], format="csc")
    c = np.concatenate([np.zeros(d), np.ones(2 * n)])
    bounds = [(None, None)] * d + [(0, None)] * (2 * n)
    rows = []
    for method in ("simplex", "ipm"):
        ours_t, ours = measure(
            lambda method=method: solve_lp(c, A_eq=A_eq, b_eq=y, bounds=bounds, method=method),
            repeat=1,
        )
        scipy_method = {"simplex": "highs-ds", "ipm": "highs-ipm"}[method]
        base_t, base = measure(
            lambda scipy_method=scipy_method: linprog(
                c, A_eq=A_eq, b_eq=y, bounds=bounds, method=scipy_method
            ),
            repeat=1,
        )
        rows.append(
            Row(
                f"solve_lp {method}, LAD LP ({n}x{d})",
                ours_t,
                f"linprog {scipy_method}",
                base_t,
                "objective gap",
                f"{reference_gap(ours.fun, base.fun):.1e}",
            )
        )
    return rows


@REGISTRY.register("weighted_svm")
def weighted_svm_vs_svc(size):
    """``fit_weighted_svm`` (libsvm) vs ``SVC(kernel="linear")`` with the same sample weights."""
    from sklearn.svm import SVC

    from svmcore.solvers import fit_weighted_svm, hinge_objective

    n, d = {"quick": (1000, 10), "full": (5000, 20)}[size]
    rng = np.random.default_rng(0)
    y = np.where(rng.random(n) < 0.5, -1, 1)
    X = rng.standard_normal((n, d)) + 0.7 * y[:, None]
    s = rng.integers(1, 4, n).astype(float)
    ours_t, ours = measure(lambda: fit_weighted_svm(X, y, s, C=1.0, solver="libsvm"), repeat=1)
    base_t, base = measure(lambda: SVC(kernel="linear", C=1.0).fit(X, y, sample_weight=s), repeat=1)
    reference = hinge_objective(base.coef_.ravel(), base.intercept_[0], X, y, s, 1.0)
    return [
        Row(
            f"fit_weighted_svm libsvm ({n}x{d})",
            ours_t,
            "SVC(linear)",
            base_t,
            "objective gap",
            f"{reference_gap(ours.objective, reference):.1e}",
        )
    ]
