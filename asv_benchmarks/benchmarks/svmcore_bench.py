"""svmcore kernels and CGLS against scikit-learn and scipy on the same data.

``time_``/``peakmem_`` measure ours and the reference side by side (the reference
timings also expose machine drift between asv runs); ``track_`` reports how far our
result is from the reference, so that a speed-up cannot silently change the answer.
"""

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import lsqr
from sklearn.metrics.pairwise import pairwise_kernels

from svmcore.kernels import gram, kernel_matvec
from svmcore.linalg import cgls

from .common import Benchmark, max_abs_diff, reference_gap
from .datasets import dense_points, weighted_regression

KERNEL_PARAMS = {
    "linear": {},
    "rbf": {"gamma": 0.5},
    "poly": {"gamma": 0.5, "degree": 3, "coef0": 1.0},
}


def _ours(kernel):
    return {"kernel": kernel, **KERNEL_PARAMS[kernel]}


class GramSuite(Benchmark):
    """``svmcore.kernels.gram(X, Y)`` vs ``sklearn.metrics.pairwise.pairwise_kernels``."""

    param_names = ["kernel", "dtype", "n_jobs"]
    params = (["linear", "rbf", "poly"], ["float64", "float32"], Benchmark.n_jobs_vals)

    def setup(self, kernel, dtype, n_jobs):
        n, m, d = self.sized((500, 1000, 20), (2000, 3000, 50), (8000, 8000, 100))
        self.X = np.asarray(dense_points(n, d, dtype, random_state=0))
        self.Y = np.asarray(dense_points(m, d, dtype, random_state=1))
        self.kwargs = _ours(kernel)
        gram(self.X[:5], self.Y[:5], n_jobs=n_jobs, **self.kwargs)  # Numba warm-up

    def time_gram(self, kernel, dtype, n_jobs):
        gram(self.X, self.Y, n_jobs=n_jobs, **self.kwargs)

    def time_sklearn_pairwise_kernels(self, kernel, dtype, n_jobs):
        pairwise_kernels(self.X, self.Y, metric=kernel, **KERNEL_PARAMS[kernel])

    def peakmem_gram(self, kernel, dtype, n_jobs):
        gram(self.X, self.Y, n_jobs=n_jobs, **self.kwargs)

    def track_max_abs_diff(self, kernel, dtype, n_jobs):
        ours = gram(self.X, self.Y, n_jobs=n_jobs, **self.kwargs)
        reference = pairwise_kernels(self.X, self.Y, metric=kernel, **KERNEL_PARAMS[kernel])
        return max_abs_diff(ours, reference)

    track_max_abs_diff.unit = "abs diff"


class KernelMatvecSuite(Benchmark):
    """Blocked ``kernel_matvec(X, Y, V)`` vs forming ``pairwise_kernels(X, Y) @ V``."""

    param_names = ["kernel", "n_columns", "n_jobs"]
    params = (["rbf", "poly"], [1, 8], Benchmark.n_jobs_vals)

    def setup(self, kernel, n_columns, n_jobs):
        n, m, d = self.sized((1000, 2000, 20), (4000, 4000, 50), (10000, 10000, 100))
        self.X = np.asarray(dense_points(n, d, random_state=0))
        self.Y = np.asarray(dense_points(m, d, random_state=1))
        rng = np.random.default_rng(0)
        self.V = rng.standard_normal(m if n_columns == 1 else (m, n_columns))
        self.kwargs = _ours(kernel)
        kernel_matvec(self.X[:5], self.Y[:5], self.V[:5], n_jobs=n_jobs, **self.kwargs)

    def _reference(self, kernel):
        return pairwise_kernels(self.X, self.Y, metric=kernel, **KERNEL_PARAMS[kernel]) @ self.V

    def time_kernel_matvec(self, kernel, n_columns, n_jobs):
        kernel_matvec(self.X, self.Y, self.V, n_jobs=n_jobs, **self.kwargs)

    def time_sklearn_kernel_then_matmul(self, kernel, n_columns, n_jobs):
        self._reference(kernel)

    def peakmem_kernel_matvec(self, kernel, n_columns, n_jobs):
        kernel_matvec(self.X, self.Y, self.V, n_jobs=n_jobs, **self.kwargs)

    def peakmem_sklearn_kernel_then_matmul(self, kernel, n_columns, n_jobs):
        self._reference(kernel)

    def track_max_abs_diff(self, kernel, n_columns, n_jobs):
        ours = kernel_matvec(self.X, self.Y, self.V, n_jobs=n_jobs, **self.kwargs)
        return max_abs_diff(ours, self._reference(kernel))

    track_max_abs_diff.unit = "abs diff"


def _objective(beta, X, y, cost, lam):
    """``lam/2 ||beta||^2 + 1/2 sum_i c_i (y_i - x_i beta)^2``: what both solvers minimize."""
    residual = y - X @ beta
    return 0.5 * lam * beta @ beta + 0.5 * cost @ residual**2


class CGLSSuite(Benchmark):
    """Weighted ridge by ``svmcore.linalg.cgls`` vs ``scipy.sparse.linalg.lsqr``.

    lsqr solves the same problem on rows scaled by :math:`\\sqrt{c_i}` with
    ``damp = sqrt(lam)``; the scaling is done in ``setup`` (not timed for lsqr).
    """

    param_names = ["layout"]
    params = (["dense", "csr"],)
    lam = 1.0

    def setup(self, layout):
        if layout == "dense":
            n, d = self.sized((2000, 50), (20000, 200), (100000, 500))
        else:
            n, d = self.sized((5000, 500), (50000, 5000), (300000, 20000))
        X, y, cost = weighted_regression(n, d, sparse=layout == "csr", random_state=0)
        self.X, self.y, self.cost = (X, np.asarray(y), np.asarray(cost))
        root = np.sqrt(self.cost)
        self.X_scaled = sp.diags(root) @ X if sp.issparse(X) else X * root[:, None]
        self.y_scaled = self.y * root
        cgls(self.X[:10], self.y[:10], self.cost[:10], self.lam)  # Numba warm-up

    def _cgls(self):
        return cgls(self.X, self.y, self.cost, self.lam, epsilon=1e-6).beta

    def _lsqr(self):
        damp = np.sqrt(self.lam)
        return lsqr(self.X_scaled, self.y_scaled, damp=damp, atol=1e-10, btol=1e-10)[0]

    def time_cgls(self, layout):
        self._cgls()

    def time_scipy_lsqr(self, layout):
        self._lsqr()

    def peakmem_cgls(self, layout):
        self._cgls()

    def track_cgls_iterations(self, layout):
        return cgls(self.X, self.y, self.cost, self.lam).n_iter

    track_cgls_iterations.unit = "iterations"

    def track_objective_gap(self, layout):
        ours = _objective(self._cgls(), self.X, self.y, self.cost, self.lam)
        reference = _objective(self._lsqr(), self.X, self.y, self.cost, self.lam)
        return reference_gap(ours, reference)

    track_objective_gap.unit = "relative gap"
