"""Kernel sums ``K(X, Y) w`` with a certified bound on their error.

:class:`KernelSum` evaluates ``g = K(X, Y) w`` on any rows ``X`` and returns, with ``g``, a
bound ``err`` such that the exact sum lies in ``[g - err, g + err]``. For the RBF kernel on
few features it sums Taylor expansions about cluster centres (:mod:`._taylor_numba`), in
time ``O((n_X + n_Y) k T)`` instead of ``O(n_X n_Y)`` (``k`` clusters, ``T`` terms); every
other case is the exact product (:func:`~svmcore.kernels.kernel_matvec`, ``err = 0``).

A caller that must decide a sign, such as the pricing of an LP's columns, decides from
``[g - err, g + err]`` where it can and computes the few undecided rows exactly.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._threads import numba_threads
from ..typing import ArrayLike, MatrixLike
from ..validation import check_float_array, check_real
from ._api import _n_jobs_for, kernel_matvec
from ._spec import check_kernel_params
from ._taylor_numba import farthest_point_clusters, taylor_evaluate, taylor_moments

__all__ = ["KernelSum"]

#: Cluster radius, in units of ``1 / sqrt(gamma)``: the series' ratio ``2 gamma a R / n``
#: then stays small up to the distance where a cluster is skipped (a few ``1/sqrt(gamma)``).
_RADIUS = 0.5

#: Most clusters and series orders tried; beyond them the exact product is cheaper.
_MAX_CLUSTERS = 256
_MAX_ORDER = 48
_MAX_TERMS = 20_000

#: "auto" tries the expansion on at most this many features: at 3 features, 20,000
#: points uniform on a cube of side 20 sqrt(0.3) already needed the exact product
_AUTO_MAX_FEATURES = 3

#: Rounding allowance per cluster, in units of ``eps * W``: the evaluation of T terms,
#: the moments' compensated sums and two exponentials each a few ulps off (``afn``).
_ROUNDING_ULPS = 64


def _monomial_tables(d, order):
    """Graded monomials of degree < order in d variables: parent, variable, 1 / a!.

    Monomial a (a multi-index) is ``parent[a]`` times variable ``var[a]``, where var is
    the last variable of a; so every multi-index is built once.
    """
    parent, var, last, inv_fact = [0], [0], [0], [1.0]
    exps = [np.zeros(d, dtype=np.intp)]
    level = [0]
    for _ in range(1, order):
        nxt = []
        for k in level:
            for i in range(last[k], d):
                e = exps[k].copy()
                e[i] += 1
                parent.append(k)
                var.append(i)
                last.append(i)
                inv_fact.append(inv_fact[k] / e[i])
                exps.append(e)
                nxt.append(len(exps) - 1)
        level = nxt
    return np.array(parent, np.intp), np.array(var, np.intp), np.array(inv_fact)


def _n_terms(d, order):
    return math.comb(order - 1 + d, d)


def _worst_tail(order, r):
    """``max_t (2 t r)^p / p! exp(-(t - r)^2)`` over ``t >= 0`` (scaled distances).

    The tail bound of :func:`._taylor_numba.taylor_evaluate` for a cluster of scaled
    radius ``r`` at scaled target distance ``t``; its maximum is at
    ``t = (r + sqrt(r^2 + 2 p)) / 2``.
    """
    if r == 0.0:
        return 0.0
    t = 0.5 * (r + math.sqrt(r * r + 2.0 * order))
    return math.exp(order * math.log(2.0 * t * r) - math.lgamma(order + 1.0) - (t - r) ** 2)


class KernelSum:
    """``g = K(X, Y) w`` on any rows, with a certified bound on the error of g.

    For ``kernel="rbf"`` on dense data whose expansion is cheaper than the direct sum
    (at most 3 features, points in few clusters of radius ``0.5 / sqrt(gamma)``), the sum
    is a truncated Taylor series per cluster (the improved fast Gauss transform of Yang,
    Duraiswami & Gumerov 2003) with the series order chosen so that the worst-case
    truncation error is at most ``atol``; the returned bound is the rigorous one of each
    evaluated row, usually far below ``atol``. Otherwise the sum is exact.

    Parameters
    ----------
    Y : {ndarray, csr_matrix} of shape (n_samples_Y, n_features)
        Columns of the kernel matrix (the points of the sum).
    w : array-like of shape (n_samples_Y,)
        Weights, of any signs.
    atol : float
        Target absolute error of the expansion (> 0): the order is chosen so that the
        bound on every row is at most about ``atol``.
    kernel, gamma, degree, coef0 : str, float, int, float
        As in :func:`~svmcore.kernels.gram`.
    n_targets : int, default=None
        Rows the sum will be evaluated on, for the choice between the expansion and the
        exact product; None means ``n_samples_Y``.
    method : {"auto", "taylor", "exact"}, default="auto"
        "auto": the expansion where it is estimated cheaper than the exact product;
        "taylor" forces it (RBF on dense data only; ValueError when ``atol`` is out of its
        reach); "exact" forces the exact product.
    n_jobs : int, default=None
        Numba threads.

    Attributes
    ----------
    method : {"taylor", "exact"}
        How :meth:`__call__` sums.
    order : int
        Terms per variable of the series (0 for "exact").
    n_clusters : int
        Expansion centres (0 for "exact").

    Notes
    -----
    With ``u = s (x - c)``, ``v = s (y - c)``, ``s = sqrt(2 gamma)``, each kernel value is
    ``exp(-gamma |x - c|^2) exp(-gamma |y - c|^2) exp(u . v)`` and ``exp(u . v)`` is
    summed to degree ``p - 1``; the Lagrange remainder and ``|u . v| <= 2 gamma a b``
    give a per-point error of at most ``|w| (2 gamma a R)^p / p! exp(-gamma (a - R)_+^2)``
    (``a = |x - c|``, ``R`` the cluster's radius). Clusters whose every kernel value is
    below ``atol / (2 k W_c)`` are not summed and count in the bound with that value.
    The bound includes a rounding allowance of ``64 eps W`` per cluster (``W``: the sum of
    ``|w|`` in it); the exact product, like any floating-point sum, has rounding of its
    own and reports ``err = 0``.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.kernels import KernelSum, kernel_matvec
    >>> rng = np.random.default_rng(0)
    >>> Y, w = rng.uniform(-3, 3, (500, 1)), rng.normal(size=500)
    >>> ks = KernelSum(Y, w, atol=1e-10, kernel="rbf", gamma=0.5, n_targets=10**6)
    >>> ks.method
    'taylor'
    >>> X = rng.uniform(-3, 3, (5, 1))
    >>> g, err = ks(X)
    >>> bool(np.all(np.abs(g - kernel_matvec(X, Y, w, gamma=0.5)) <= err))
    True
    """

    def __init__(
        self,
        Y: MatrixLike,
        w: ArrayLike,
        *,
        atol: float,
        kernel: str = "rbf",
        gamma: float = 1.0,
        degree: int = 3,
        coef0: float = 1.0,
        n_targets: int | None = None,
        method: str = "auto",
        n_jobs: int | None = None,
    ) -> None:
        Y = check_float_array(Y, "Y", accept_sparse=True, allow_empty=True)
        w = np.asarray(w, dtype=np.float64)
        if w.shape != (Y.shape[0],):
            raise ValueError(f"w must have shape ({Y.shape[0]},) to match Y, got {w.shape}.")
        if not np.isfinite(w).all():
            raise ValueError("w contains NaN or infinity.")
        self.atol = check_real(atol, "atol", low=0.0, low_closed=False)
        kernel, gamma, degree, coef0 = check_kernel_params(kernel, gamma, degree, coef0)
        self.params: dict[str, Any] = {
            "kernel": kernel,
            "gamma": gamma,
            "degree": degree,
            "coef0": coef0,
        }
        self.Y, self.w, self.n_jobs = Y, w, n_jobs
        self.method, self.order, self.n_clusters = "exact", 0, 0
        if method not in ("auto", "taylor", "exact"):
            raise ValueError(f"method must be 'auto', 'taylor' or 'exact', got {method!r}.")
        n_targets = Y.shape[0] if n_targets is None else int(n_targets)
        if method == "taylor" and (kernel != "rbf" or sp.issparse(Y)):
            raise ValueError("method='taylor' needs kernel='rbf' and dense Y.")
        if method == "exact" or kernel != "rbf" or sp.issparse(Y) or not np.any(w):
            return
        Y = np.asarray(Y, dtype=np.float64)
        # the direct sum of few points is cheaper than the terms of any expansion, and
        # beyond _AUTO_MAX_FEATURES the terms (C(p + d - 1, d)) and the clusters needed
        # outgrow it on spread data: not worth the clustering pass
        if method == "auto" and (
            Y.shape[1] > _AUTO_MAX_FEATURES or _n_terms(Y.shape[1], 4) * 4 > Y.shape[0]
        ):
            return
        if not self._plan(Y, gamma, n_targets, method == "taylor") and method == "taylor":
            raise ValueError(
                f"method='taylor' cannot reach atol={self.atol:g} within {_MAX_ORDER} terms "
                f"and {_MAX_CLUSTERS} clusters."
            )

    def _plan(self, Y, gamma, n_targets, force):
        """Cluster, pick the order, and switch to the expansion when it is cheaper."""
        m, d = Y.shape
        centres, labels, radii = farthest_point_clusters(
            Y, _RADIUS / math.sqrt(gamma), _MAX_CLUSTERS
        )
        k = centres.shape[0]
        total = float(np.abs(self.w).sum())
        r = float(radii.max()) * math.sqrt(gamma)
        order = next(
            (p for p in range(2, _MAX_ORDER + 1) if total * _worst_tail(p, r) <= 0.5 * self.atol),
            None,
        )
        if order is None:
            return False
        n_terms = _n_terms(d, order)
        if n_terms > _MAX_TERMS:
            return False
        # per target: k clusters of (n_terms + d) multiply-adds and 3 exponentials, against
        # m kernel values of d differences and an exponential; moments: m n_terms once
        expansion = n_targets * k * (n_terms + d + 30) + m * (n_terms + d + 10)
        if not force and 2 * expansion >= n_targets * m * (d + 10):
            return True
        order_idx = np.argsort(labels, kind="stable")
        starts = np.searchsorted(labels[order_idx], np.arange(k + 1))
        parent, var, inv_fact = _monomial_tables(d, order)
        moments, weight = taylor_moments(
            Y, self.w, order_idx, starts, centres, parent, var, inv_fact, gamma
        )
        with np.errstate(divide="ignore"):  # empty clusters: never summed
            log_skip = np.log(np.maximum(weight, 1e-300) * 2.0 * k / self.atol)
        self.method, self.order, self.n_clusters = "taylor", order, k
        self._tables = (centres, radii, weight, moments, parent, var, log_skip)
        return True

    def __call__(self, X: MatrixLike) -> tuple[np.ndarray, np.ndarray]:
        """``(g, err)`` on the rows ``X``: ``|K(X, Y) w - g| <= err`` row by row.

        Parameters
        ----------
        X : {ndarray, csr_matrix} of shape (n_samples_X, n_features)
            Rows to evaluate on.

        Returns
        -------
        g : ndarray of shape (n_samples_X,)
            The sum (float64).
        err : ndarray of shape (n_samples_X,)
            Its error bound (zeros when the sum is exact).
        """
        X = check_float_array(X, "X", accept_sparse=True, allow_empty=True)
        if X.shape[1] != self.Y.shape[1]:
            raise ValueError(
                f"X has {X.shape[1]} features, but the sum's points have {self.Y.shape[1]}."
            )
        n = X.shape[0]
        if self.method == "exact" or sp.issparse(X):
            if self.Y.shape[0] == 0 or n == 0:
                return np.zeros(n), np.zeros(n)
            g = kernel_matvec(X, self.Y, self.w, **self.params, n_jobs=self.n_jobs)
            return np.asarray(g, dtype=np.float64), np.zeros(n)
        centres, radii, weight, moments, parent, var, log_skip = self._tables
        g, err = np.empty(n), np.empty(n)
        rounding = _ROUNDING_ULPS * np.finfo(np.float64).eps
        entries = n * centres.shape[0] * parent.size
        with numba_threads(_n_jobs_for(entries, self.n_jobs)):
            taylor_evaluate(
                np.asarray(X, dtype=np.float64),
                centres,
                radii,
                weight,
                moments,
                parent,
                var,
                self.params["gamma"],
                float(self.order),
                log_skip,
                rounding,
                g,
                err,
            )
        return g, err
