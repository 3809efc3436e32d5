"""AID for least absolute deviation regression (Park & Klabjan 2016, sec. 3.1).

The AID problem of LAD (initial clusters from a pilot fit, aggregation by weighted
centroids, the aggregated LP, Prop 1-2 on the full data) and the estimator
:class:`AIDLADRegressor`; the LPs are in ``_lad_lp.py`` and the interior point in
``_lad_ipm.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from numbers import Integral, Real
from typing import Any, Self

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, RegressorMixin

from aid_core import (
    AggregatedSolution,
    AIDProblem,
    ClusterSums,
    DaskSource,
    Evaluation,
    as_data_source,
)
from svmcore.chunked import is_dask_collection
from svmcore.clustering import Clusters, kmeans_one_iteration, kmeans_seed_rows
from svmcore.linalg import column_power_of_two_scaling, scaled_rows
from svmcore.typing import ArrayLike, DaskArray, MatrixLike, RandomStateLike
from svmcore.validation import (
    CachedParamNames,
    Interval,
    StrOptions,
    check_is_fitted,
    check_sample_weight,
    check_seed,
    fit_context,
    validate_data,
)

from ._common import (
    dask_input,
    initial_cluster_count,
    lazy_predict,
    run_estimator_aid,
    sample_rows,
    store_run,
)
from ._lad_chunked import chunked_initial_clusters, lad_points, residual_block
from ._lad_ipm import lad_interior_point
from ._lad_lp import _certified_bound, _with_intercept, lad_lp, lad_lp_sifting, split_basis

#: Widest sparse design (columns, intercept included) the Frisch-Newton interior point
#: takes: its p x p normal matrix is dense (32 MB at 2,048); wider sparse designs go to
#: HiGHS. On CSR text of 1,000 words (n = 100,000) the fit took 208 s with HiGHS's IPM
#: on every aggregated LP and 75 s with the interior point (package README, "How each
#: model is solved").
FN_SPARSE_MAX_COLUMNS = 2048

__all__ = ["AIDLADRegressor", "auto_lad_rate"]


def _fn_takes(X):
    """Whether the Frisch-Newton interior point solves an LP of design ``X``."""
    return not sp.issparse(X) or X.shape[1] <= FN_SPARSE_MAX_COLUMNS


class _LADProblem(AIDProblem):
    """LAD as an :class:`aid_core.AIDProblem` (aggregation by weighted centroids)."""

    def __init__(self, est, n_features):
        self.est = est
        self.p = n_features + bool(est.fit_intercept)
        self.lp_method = est.lp_method
        if self.lp_method == "auto":
            self.lp_method = "fn"
        self.sums = ClusterSums()  # the contract's one cache: the last partition's sums

    def initial_clusters(self, data, random_state):
        est, n = self.est, data.n_samples
        rng = np.random.default_rng(random_state)
        # Sec. 4: beta from a small sample, residuals r on all rows, one k-means on (r, y).
        size = max(20 * self.p, 1000) if est.init_sample_size == "auto" else est.init_sample_size
        idx = sample_rows(n, size, rng)
        rate = est.initial_aggregation_rate
        if rate == "auto":
            rate = auto_lad_rate(n, self.p)
        k0 = initial_cluster_count(rate, n, self.p + 1)
        if not isinstance(data, DaskSource):
            beta = self._pilot(data.take(idx))
            Z = data.map_rows(
                functools.partial(lad_points, beta=beta, fit_intercept=est.fit_intercept)
            )
            return Clusters(kmeans_one_iteration(Z, k0, random_state=rng))
        # Labels made and kept where the rows are. The k-means seed rows are drawn now,
        # the draws kmeans_one_iteration makes after the sample's, so that one read of
        # the chunks brings both the sample and the seeds.
        seeds = kmeans_seed_rows(n, k0, rng)
        rows = np.union1d(idx, seeds)
        both = data.take(rows)
        beta = self._pilot(both.rows(np.searchsorted(rows, idx)))
        points = lad_points(both.rows(np.searchsorted(rows, seeds)), beta, est.fit_intercept)
        return chunked_initial_clusters(data, beta, est.fit_intercept, points)

    def _pilot(self, sample):
        """Sec. 4's coefficients from the sample: the IPM on dense data, else HiGHS."""
        est = self.est
        X0 = _with_intercept(sample.X, est.fit_intercept)
        beta = None
        if self.lp_method == "fn" and _fn_takes(X0):
            beta, _, _, info = lad_interior_point(X0, sample.y, sample.sample_weight)
            if info["status"] != "optimal":
                beta = None
        if beta is None:
            method = "ipm" if self.lp_method in ("warm", "sift", "fn") else self.lp_method
            beta, *_ = lad_lp(X0, sample.y, sample.sample_weight, method=method)
        self.pilot = beta  # the contract's pilot solution: set once here, read-only after
        return beta

    def aggregate(self, data, clusters):
        # Zero-weight samples are dropped in fit, so every cluster has w_sum > 0.
        X_sum, y_sum, w_sum = self.sums(data, clusters)
        # The means with the intercept's column in one new array (X_sum is the cache's).
        X = scaled_rows(X_sum, 1.0 / w_sum, append_ones=self.est.fit_intercept)
        # The lineage maps a previous LP basis to this partition's clusters (K-sized,
        # where per-row labels would be n-sized and live on Dask workers).
        return X, y_sum / w_sum, w_sum, (clusters.token, clusters.parent_token, clusters.parent)

    def solve(self, aggregated, context):
        X, y, w, lineage = aggregated
        attempt, previous = context.attempt, context.previous
        basis = None
        if self.lp_method == "warm" and previous is not None and previous.warm_start:
            old_token, old_result = previous.warm_start
            parent = _parent_clusters(lineage, old_token, y.size)
            basis = None if parent is None else split_basis(old_result, parent)
        method = self.lp_method
        if method == "fn" and _fn_takes(X) and attempt == 0:
            beta, primal, dual, info = lad_interior_point(X, y, w)
            if info["status"] == "optimal":
                note = f"Frisch-Newton IPM {info['n_iter']} it, LP gap {info['gap']:.1e}"
                return AggregatedSolution(
                    beta,
                    primal,
                    lower_bound=_certified_bound(dual, primal),
                    note=note,
                    backend="frisch-newton",
                )
        if method == "fn":
            # Wide sparse aggregated data, an IPM that did not converge, or a retry
            # after a failed certificate: HiGHS's exact LP (by sifting when dense).
            method = "sift"
        if method == "sift" and not sp.issparse(X):
            beta0 = self.pilot if previous is None else previous.params
            beta, primal, dual, info = lad_lp_sifting(X, y, w, beta0)
            note = (
                f"HiGHS ipm sifting {info['status']}, {info['rounds']} LPs on "
                f"{info['size']}/{y.size} columns, {info['n_iter']} it"
            )
            return AggregatedSolution(
                beta,
                primal,
                lower_bound=_certified_bound(dual, primal),
                note=note,
                backend="highs-sifting",
            )
        if method == "sift":
            method = "ipm"  # sparse aggregated data: the full LP keeps X sparse
        if method == "warm":
            # First LP (no basis yet) and retries: IPM from scratch.
            method = "simplex" if basis is not None and attempt == 0 else "ipm"
        beta, primal, dual, res = lad_lp(
            X, y, w, method=method, warm_start=basis if method == "simplex" else None
        )
        note = f"HiGHS {method}{' (warm)' if basis is not None and method == 'simplex' else ''}"
        note += f" {res.status}, {res.n_iter} it"
        return AggregatedSolution(
            beta,
            primal,
            lower_bound=_certified_bound(dual, primal),
            note=note,
            backend=f"highs-{method}",
            warm_start=None if res.basis is None else (lineage[0], res),
        )

    def evaluate(self, data, clusters, solution):
        # Per row one byte (sign of r, and whether r is zero up to round-off), kept where
        # it is made (on a Dask worker, for the split that reads it there); per block
        # one partial sum of E travels back.
        key, free, parts = data.map_codes(
            functools.partial(
                residual_block, beta=solution.params, fit_intercept=self.est.fit_intercept
            ),
            clusters,
        )
        return Evaluation(objective=float(sum(parts)), key=key, free=free)


def _parent_clusters(lineage, old_token, n_clusters):
    """Each cluster's cluster in the partition ``old_token`` (None if it is no ancestor).

    The partition itself (a retry) maps to itself; a partition split from it maps
    through ``Clusters.parent``.
    """
    token, parent_token, parent = lineage
    if token == old_token:
        return np.arange(n_clusters)
    if parent_token == old_token and parent is not None:
        return parent
    return None


def auto_lad_rate(n_samples: int, n_params: int) -> float:
    """The paper's r^0 for LAD (sec. 4): max(3m/n, 5e-4) if m n > 5e8, else max(2m/n, 5e-3)."""
    if n_params * n_samples > 5e8:
        return min(1.0, max(3 * n_params / n_samples, 5e-4))
    return min(1.0, max(2 * n_params / n_samples, 5e-3))


class AIDLADRegressor(RegressorMixin, CachedParamNames, BaseEstimator):
    """Least absolute deviation regression solved exactly by AID (interior-point LPs).

    Minimizes the sum of absolute residuals (median regression) by Aggregate and
    Iterative Disaggregate: the data are clustered, each cluster is replaced by its
    (weighted) centroid with weight |C_k|, the small weighted LAD problem is solved as an
    LP, and clusters whose samples lie on both sides of the fitted hyperplane are split,
    until no cluster straddles it, which proves optimality on the full data (Prop 1).

    Parameters
    ----------
    fit_intercept : bool, default=True
        Whether to fit an (unpenalized) intercept.
    initial_aggregation_rate : "auto" or float in (0, 1], default="auto"
        The rate r^0 = |K^0| / n. "auto" is the paper's rule: max(3p/n, 5e-4) if p n > 5e8,
        else max(2p/n, 5e-3), with p the number of coefficients; at least p + 1
        clusters are always used.
    init_sample_size : "auto" or int, default="auto"
        Rows sampled for the initial coefficients (sec. 4); "auto" is max(20 p, 1000).
    gap_tol : float, default=1e-3
        Stop when (E_best - F^t) / E_best <= gap_tol (the paper's 1e-3); the optimality
        condition normally stops the run earlier. 0 runs to the optimality condition.
    max_iter : int, default=100
        Maximum number of aggregated LPs.
    time_limit : float or None, default=None
        Wall-clock seconds for the whole run (from the initial clustering), checked
        between iterations (an aggregated solve in progress finishes). On expiry the best
        solution is kept with a ``ConvergenceWarning`` and ``converged_ = False``.
    lp_method : {"auto", "fn", "sift", "warm", "ipm", "simplex", "choose"}, default="auto"
        Solver of the aggregated dual LP. "fn" (= "auto"): the paper's choice, a
        Frisch-Newton primal-dual interior point (:func:`lad_interior_point`, NumPy and
        BLAS) on dense aggregated data and on sparse data of at most 2,048 columns
        (``FN_SPARSE_MAX_COLUMNS``; the normal matrix is dense p x p); HiGHS by
        sifting when the data are wider and sparse, the interior point does not
        converge, or a certificate check fails.
        HiGHS methods: "sift": exact sifting (:func:`lad_lp_sifting`) from the previous
        iterate, IPM on the working set; "warm": IPM for the first LP, then the simplex
        method started from the previous optimal basis mapped to the split clusters
        (``split_basis``); "ipm", "simplex", "choose" solve every LP in full. "fn" is
        the fastest on large dense data (timings in the package README).
    block_size : int or None, default=None
        Evaluate and re-aggregate over row blocks of this size (bounded memory); None
        processes the data in one block.
    verbose : int, default=0
        Print one line per AID iteration.
    progress : bool, default=False
        Show a tqdm progress bar.
    callback : callable or None, default=None
        Called with each iteration's record; returning True stops the run.
    random_state : int, RandomState instance or None, default=None
        Seed of the initial sample and k-means.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    intercept_ : float
    objective_ : float
        Sum of weighted absolute residuals of the returned fit (E_best).
    lower_bound_ : float
        Certified lower bound on the optimal objective (the aggregated dual LP value).
    optimality_gap_ : float
        (objective_ - lower_bound_) / objective_.
    stop_reason_ : str
        "optimal", "gap", "max_iter", "time_limit", "callback", "stalled" or
        "unsolved" (see :data:`aid_core.STOP_REASONS`).
    converged_ : bool
        Whether the run stopped by the optimality condition or ``gap_tol``
        (``stop_reason_`` "optimal" or "gap"). A stop at ``max_iter`` or ``time_limit``
        keeps the best solution found, sets False and warns (``ConvergenceWarning``
        naming the budget), as do "stalled" and "unsolved".
    history_ : aid_core.AIDHistory
        Per-iteration records (t, r^t, F^t, E^t, E_best, gap, times, ...).
    n_iter_ : int
        Number of aggregated LPs solved.
    n_clusters_ : int
        |K^T|.
    aggregation_rate_ : float
        r^T = |K^T| / n.
    init_time_ : float
        Seconds spent on the initial clustering.
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Only when X has string feature names.

    See Also
    --------
    sklearn.linear_model.QuantileRegressor : The full LP at quantile=0.5, alpha=0.
    AIDSVC : AID for support vector classification.

    Notes
    -----
    Objective (the paper's (2)) and aggregated problem (3):

    .. math::

        E^* = \\min_\\beta \\sum_i s_i |y_i - x_i \\beta|, \\qquad
        F^t = \\min_\\beta \\sum_{k \\in K^t} |C_k^t| \\, |\\bar y_k - \\bar x_k \\beta| .

    F^t is non-decreasing and F^t <= E^* <= E^t (Prop 2), so every iteration certifies a
    gap. Per iteration: two passes over the data (O(nnz)) and one LP with |K^t| bounded
    columns and p rows. Memory: O(n) for labels plus one block of rows.

    Beyond the paper: the HiGHS solvers of the aggregated LP (``lp_method="sift"``,
    ``"warm"`` from the previous optimal basis, ``"ipm"``, ``"simplex"``; the paper's
    choice is the Frisch-Newton interior point of quantreg's ``rq(method="fn")``, our
    ``"fn"``), the certified gap and ``gap_tol``, ``initial_aggregation_rate="auto"``,
    sample weights, ``block_size`` (data in row blocks) and ``time_limit``.

    References
    ----------
    Y. W. Park and D. Klabjan, "Iterative and Aggregate Disaggregate algorithm with
    proven optimality in machine learning", Machine Learning 105 (2016), sec. 3.1.

    Examples
    --------
    >>> import numpy as np
    >>> from aid_models import AIDLADRegressor
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(2000, 3))
    >>> y = X @ [1.0, -2.0, 0.5] + 3.0 + rng.laplace(size=2000)
    >>> reg = AIDLADRegressor(gap_tol=0.0, random_state=0).fit(X, y)
    >>> reg.stop_reason_, bool(reg.optimality_gap_ < 1e-9)
    ('optimal', True)
    >>> np.round(reg.coef_, 1)
    array([ 1. , -2. ,  0.5])
    """

    _parameter_constraints: dict = {
        "fit_intercept": ["boolean"],
        "initial_aggregation_rate": [
            StrOptions({"auto"}),
            Interval(Real, 0.0, 1.0, closed="right"),
        ],
        "init_sample_size": [StrOptions({"auto"}), Interval(Integral, 1, None, closed="left")],
        "gap_tol": [Interval(Real, 0.0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "time_limit": [None, Interval(Real, 0.0, None, closed="neither")],
        "lp_method": [StrOptions({"auto", "fn", "sift", "ipm", "simplex", "choose", "warm"})],
        "block_size": [None, Interval(Integral, 1, None, closed="left")],
        "verbose": ["verbose"],
        "progress": ["boolean"],
        "callback": [None, callable],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        fit_intercept: bool = True,
        initial_aggregation_rate: float | str = "auto",
        init_sample_size: int | str = "auto",
        gap_tol: float = 1e-3,
        max_iter: int = 100,
        time_limit: float | None = None,
        lp_method: str = "auto",
        block_size: int | None = None,
        verbose: int = 0,
        progress: bool = False,
        callback: Callable[[dict[str, Any]], bool | None] | None = None,
        random_state: RandomStateLike = None,
    ) -> None:
        self.fit_intercept = fit_intercept
        self.initial_aggregation_rate = initial_aggregation_rate
        self.init_sample_size = init_sample_size
        self.gap_tol = gap_tol
        self.max_iter = max_iter
        self.time_limit = time_limit
        self.lp_method = lp_method
        self.block_size = block_size
        self.verbose = verbose
        self.progress = progress
        self.callback = callback
        self.random_state = random_state

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: MatrixLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> Self:
        """Fit the LAD regression by AID.

        Parameters
        ----------
        X : {array-like, sparse matrix, dask.array.Array} of shape (n_samples, n_features)
            Training data. A row-chunked Dask array (with ``y`` and ``sample_weight`` as
            Dask or NumPy arrays) is fitted where its chunks live, on the current
            ``distributed.Client`` if there is one; see "Running on a cluster" in the
            user guide.
        y : array-like of shape (n_samples,)
            Target values.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights; zero-weight samples are dropped.

        Returns
        -------
        self : AIDLADRegressor
            The fitted estimator.
        """
        exponents = None
        if is_dask_collection(X):
            X, y, sw, _, _ = dask_input(self, X, y, sample_weight)
            data = DaskSource(X, y, sw)
        else:
            # LAD has no penalty: its optimum does not depend on the features' scales
            X, y = validate_data(
                self,
                X,
                y,
                accept_sparse="csr",
                dtype=[np.float64, np.float32],
                y_numeric=True,
                check_scales=False,
            )
            y = np.asarray(y, dtype=np.float64)
            sw = check_sample_weight(sample_weight, X, dtype=np.float64)
            keep = sw > 0
            if not keep.all():
                X, y, sw = X[keep], y[keep], sw[keep]
            # and exact power-of-two column scaling leaves the residuals unchanged: the
            # LP solvers then never see entries beyond 2^+-32 (HiGHS rejects 1e15)
            X, exponents = column_power_of_two_scaling(X)
            unit = (sw == 1).all()
            data = as_data_source(X, y, None if unit else sw, block_size=self.block_size)
        n, m = data.n_samples, data.n_features
        p = m + bool(self.fit_intercept)
        if n < p:
            raise ValueError(
                f"LAD needs at least n_features + fit_intercept = {p} samples with positive "
                f"weight; got n_samples = {n}."
            )
        seed = check_seed(self.random_state)
        result = run_estimator_aid(self, _LADProblem(self, m), data, seed)
        beta = result.solution.params
        self.coef_ = beta[:m].copy() if exponents is None else np.ldexp(beta[:m], -exponents)
        self.intercept_ = float(beta[m]) if self.fit_intercept else 0.0
        store_run(self, result, n)
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def predict(self, X: MatrixLike) -> np.ndarray | DaskArray:
        """Predict ``X @ coef_ + intercept_``.

        Parameters
        ----------
        X : {array-like, sparse matrix, dask.array.Array} of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        y_pred : ndarray or dask.array.Array of shape (n_samples,)
            Predicted values (the fitted conditional median).
        """
        check_is_fitted(self)
        if is_dask_collection(X):
            return lazy_predict(self.predict, X)
        X = validate_data(self, X, accept_sparse="csr", dtype=[np.float64, np.float32], reset=False)
        return np.asarray(X @ self.coef_ + self.intercept_, dtype=np.float64).ravel()
