"""AID for least absolute deviation regression (Park & Klabjan 2016, sec. 3.1)."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, RegressorMixin

from aid_core import AggregatedSolution, AIDProblem, Evaluation, as_data_source, cluster_sums
from svmcore.clustering import Clusters, kmeans_one_iteration
from svmcore.solvers import InfeasibleError, LPBasis, solve_lp
from svmcore.validation import (
    Interval,
    StrOptions,
    check_is_fitted,
    check_sample_weight,
    check_seed,
    fit_context,
    validate_data,
)

from ._common import initial_cluster_count, run_estimator_aid, sample_rows, store_run
from ._lad_ipm import lad_interior_point

__all__ = ["AIDLADRegressor", "lad_lp"]

# Residuals this small relative to |y_i| + |x_i beta| are zero up to round-off: such a
# sample lies on the hyperplane and fits Prop 1 on either side.
_ZERO_RTOL = 1e-9


def _with_intercept(X, fit_intercept):
    if not fit_intercept:
        return X
    ones = np.ones((X.shape[0], 1), dtype=X.dtype)
    return sp.hstack([X, ones], format="csr") if sp.issparse(X) else np.hstack([X, ones])


def lad_lp(X, y, weights=None, *, method="ipm", tol=None, time_limit=None, warm_start=None):
    """Solve weighted LAD ``min_beta sum_k w_k |y_k - x_k beta|`` exactly through its dual LP.

    .. math::

        \\max_{e} \\; y^T e \\quad \\text{s.t.} \\quad X^T e = 0, \\;
        -w_k \\le e_k \\le w_k ,

    whose equality-row duals are ``-beta``. The dual has ``K`` bounded columns and only
    ``m`` rows, against ``m + 2K`` columns and ``K`` rows for the primal, and HiGHS
    solves it faster (figures in the package README).

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (K, m)
        Design matrix (with a column of ones for an intercept).
    y : ndarray of shape (K,)
        Targets.
    weights : ndarray of shape (K,) or None
        Non-negative weights (unit if None).
    method : {"ipm", "simplex", "choose"}, default="ipm"
        HiGHS method (IPM is followed by crossover, so the duals are a vertex's).
    tol : float or None
        HiGHS feasibility/optimality tolerance.
    time_limit : float or None
        Seconds; a limit raises :class:`svmcore.solvers.SolverError`.
    warm_start : svmcore.solvers.LPBasis or None
        A basis of this LP to start the simplex method from (see
        ``split_basis``); the method is then "simplex".

    Returns
    -------
    beta : ndarray of shape (m,)
        The LAD coefficients (minus the equality-row duals).
    primal : float
        ``sum_k w_k |y_k - x_k beta|`` at the returned ``beta``.
    dual : float
        ``y^T e``, the dual objective (a lower bound of the optimum).
    result : svmcore.solvers.LPResult
        HiGHS's result for the dual LP (``x`` is ``e``; its basis can warm-start the next).
    """
    K = X.shape[0]
    w = np.ones(K) if weights is None else np.asarray(weights, dtype=np.float64)
    A = X.T.tocsc() if sp.issparse(X) else np.ascontiguousarray(X.T, dtype=np.float64)
    res = solve_lp(
        -np.asarray(y, dtype=np.float64),
        A_eq=A,
        b_eq=np.zeros(X.shape[1]),
        bounds=np.column_stack([-w, w]),  # (K, 2) pairs: unambiguous even for K == 2
        method=method,
        tol=tol,
        time_limit=time_limit,
        warm_start=warm_start,
        presolve=warm_start is None,  # presolve would discard the warm basis
    )
    beta = -np.asarray(res.row_duals_eq, dtype=np.float64)
    primal = float(w @ np.abs(y - X @ beta))
    return beta, primal, float(-res.fun), res


def lad_lp_sifting(X, y, weights, beta0, *, method="ipm", min_size=None):
    """Solve the weighted LAD dual LP exactly by sifting (a working set of columns).

    Columns far from the hyperplane ``beta0`` are fixed at the bound their residual sign
    says (e_k = w_k sign(r_k), optimal for any nearby beta); the LP is solved on the
    rest with the fixed columns moved to the right-hand side, and every fixed column
    whose residual sign disagrees with the new beta joins the working set, until none
    does. Then beta and the full e satisfy the KKT conditions of the whole LP, so the
    result is exactly :func:`lad_lp`'s optimum.

    Parameters
    ----------
    X : ndarray of shape (K, m)
        Dense design matrix, as in :func:`lad_lp`.
    y : ndarray of shape (K,)
        Targets.
    weights : ndarray of shape (K,) or None
        Non-negative weights (unit if None).
    beta0 : ndarray of shape (m,)
        A guess of the solution (the previous AID iterate).
    method : {"ipm", "simplex", "choose"}, default="ipm"
        HiGHS method for the working-set LPs.
    min_size : int or None
        Initial working-set size; None is max(4 m, 1000).

    Returns
    -------
    beta : ndarray of shape (m,)
        The LAD coefficients, as in :func:`lad_lp`.
    primal : float
        ``sum_k w_k |y_k - x_k beta|`` at the returned ``beta``.
    dual : float
        The dual objective of the full LP (a lower bound of the optimum).
    info : dict
        ``rounds`` (LPs solved), ``size`` (final working set), ``n_iter``, ``status``.
    """
    K, m = X.shape
    w = np.ones(K) if weights is None else np.asarray(weights, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    r = y - X @ beta0
    size = min(K, max(4 * m, 1000) if min_size is None else int(min_size))
    order = np.argsort(np.abs(r), kind="stable")
    in_set = np.zeros(K, dtype=bool)
    in_set[order[:size]] = True
    rounds = n_iter = 0
    while True:
        rounds += 1
        S, F = np.flatnonzero(in_set), np.flatnonzero(~in_set)
        e_F = w[F] * np.where(r[F] > 0, 1.0, -1.0)
        try:
            res = solve_lp(
                -y[S],
                A_eq=np.ascontiguousarray(X[S].T),
                b_eq=-(X[F].T @ e_F),
                bounds=np.column_stack([-w[S], w[S]]),
                method=method,
            )
        except InfeasibleError:
            # Too few free columns to balance the fixed ones: grow by residual order.
            in_set[order[: min(K, 2 * S.size)]] = True
            continue
        n_iter += res.n_iter
        beta = -np.asarray(res.row_duals_eq, dtype=np.float64)
        r = y - X @ beta
        wrong = F[r[F] * e_F < 0]
        if wrong.size == 0:
            e = np.empty(K)
            e[S], e[F] = res.x, e_F
            info = {"rounds": rounds, "size": S.size, "n_iter": n_iter, "status": res.status}
            return beta, float(w @ np.abs(r)), float(y @ e), info
        in_set[wrong] = True


def _certified_bound(dual, primal):
    """Lower bound on the aggregated LAD optimum from the LP's dual and primal values.

    The objective is a sum of absolute values, so 0 is a bound too: it absorbs rounding
    such as a dual value of -3.6e-15 on data fitted exactly, which the AID loop would
    otherwise report as a bound that decreased below the previous one.
    """
    return max(min(dual, primal), 0.0)


class _LADProblem(AIDProblem):
    """LAD as an :class:`aid_core.AIDProblem` (aggregation by weighted centroids)."""

    def __init__(self, est, n_features):
        self.est = est
        self.p = n_features + bool(est.fit_intercept)
        self.lp_method = est.lp_method
        if self.lp_method == "auto":
            self.lp_method = "fn"

    def initial_clusters(self, data, random_state):
        est, n = self.est, data.n_samples
        rng = np.random.default_rng(random_state)
        # Sec. 4: beta from a small sample, residuals r on all rows, one k-means on (r, y).
        size = max(20 * self.p, 1000) if est.init_sample_size == "auto" else est.init_sample_size
        sample = data.take(sample_rows(n, size, rng))
        X0 = _with_intercept(sample.X, est.fit_intercept)
        beta = None
        if self.lp_method == "fn" and not sp.issparse(X0):
            beta, _, _, info = lad_interior_point(X0, sample.y, sample.sample_weight)
            if info["status"] != "optimal":
                beta = None
        if beta is None:
            method = "ipm" if self.lp_method in ("warm", "sift", "fn") else self.lp_method
            beta, *_ = lad_lp(X0, sample.y, sample.sample_weight, method=method)
        self._beta0 = beta
        Z = data.map_rows(lambda b: np.column_stack([b.y - self._predict(b.X, beta), b.y]))
        rate = est.initial_aggregation_rate
        if rate == "auto":
            rate = auto_lad_rate(n, self.p)
        k0 = initial_cluster_count(rate, n, self.p + 1)
        return Clusters(kmeans_one_iteration(Z, k0, random_state=rng))

    def _predict(self, X, beta):
        if self.est.fit_intercept:
            return X @ beta[:-1] + beta[-1]
        return X @ beta

    def aggregate(self, data, clusters):
        # Zero-weight samples are dropped in fit, so every cluster has w_sum > 0.
        X_sum, y_sum, w_sum = cluster_sums(data, clusters.labels, clusters.n_clusters)
        inv = sp.diags(1.0 / w_sum)
        X_mean = (inv @ X_sum).tocsr() if sp.issparse(X_sum) else X_sum / w_sum[:, None]
        X = _with_intercept(X_mean, self.est.fit_intercept)
        return X, y_sum / w_sum, w_sum, clusters.labels

    def solve(self, aggregated, context):
        X, y, w, labels = aggregated
        attempt, previous = context.attempt, context.previous
        basis = None
        if self.lp_method == "warm" and previous is not None and previous.warm_start:
            old_labels, old_result = previous.warm_start
            basis = split_basis(old_result, old_labels, labels, y.size)
        method = self.lp_method
        if method == "fn" and not sp.issparse(X) and attempt == 0:
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
            # Sparse aggregated data, an IPM that did not converge, or a retry after a
            # failed certificate: HiGHS's exact LP (by sifting when dense).
            method = "sift"
        if method == "sift" and not sp.issparse(X):
            beta0 = self._beta0 if previous is None else previous.params
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
            warm_start=None if res.basis is None else (labels, res),
        )

    def evaluate(self, data, clusters, solution):
        beta = solution.params

        def residual(block):
            pred = self._predict(block.X, beta)
            r = block.y - pred
            tol = _ZERO_RTOL * (np.abs(block.y) + np.abs(pred))
            return np.column_stack([r, tol])

        r, tol = data.map_rows(residual).T
        w = data.weights()
        return Evaluation(
            objective=float(w @ np.abs(r)),
            key=(r > 0).astype(np.int8),
            free=np.abs(r) <= tol,
        )


def split_basis(result, old_labels, new_labels, n_new):
    """Map an optimal basis of the previous aggregated dual LP to the split clusters.

    A child cluster inherits its parent's column status; a basic parent keeps its basis
    slot in the child that kept its id and its other children become nonbasic at the
    bound the parent's value leaned to. With e_child = e_parent W_child / W_parent the
    old point stays feasible (X^T e is unchanged), so the simplex method restarts next
    to the previous optimum instead of from scratch.
    """
    parent = np.empty(n_new, dtype=np.int64)
    parent[new_labels] = old_labels
    status = result.basis.col_status[parent].copy()
    x = result.x[parent]
    is_new = np.arange(n_new) != parent
    moved = is_new & (status == 1)
    status[moved] = np.where(x[moved] > 0, 2, 0)
    return LPBasis(col_status=status, row_status=result.basis.row_status.copy())


def auto_lad_rate(n_samples, n_params):
    """The paper's r^0 for LAD (sec. 4): max(3m/n, 5e-4) if m n > 5e8, else max(2m/n, 5e-3)."""
    if n_params * n_samples > 5e8:
        return min(1.0, max(3 * n_params / n_samples, 5e-4))
    return min(1.0, max(2 * n_params / n_samples, 5e-3))


class AIDLADRegressor(RegressorMixin, BaseEstimator):
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
        Wall-clock seconds for the AID loop, checked between iterations.
    lp_method : {"auto", "fn", "sift", "warm", "ipm", "simplex", "choose"}, default="auto"
        Solver of the aggregated dual LP. "fn" (= "auto"): the paper's choice, a
        Frisch-Newton primal-dual interior point (:func:`lad_interior_point`, NumPy and
        BLAS) on dense aggregated data; HiGHS by sifting when the data are
        sparse, the interior point does not converge, or a certificate check fails.
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
        "optimal", "gap", "max_iter", "time_limit", "callback" or "stalled" (see
        :data:`aid_core.STOP_REASONS`).
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
        fit_intercept=True,
        initial_aggregation_rate="auto",
        init_sample_size="auto",
        gap_tol=1e-3,
        max_iter=100,
        time_limit=None,
        lp_method="auto",
        block_size=None,
        verbose=0,
        progress=False,
        callback=None,
        random_state=None,
    ):
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
    def fit(self, X, y, sample_weight=None):
        """Fit the LAD regression by AID.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Target values.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights; zero-weight samples are dropped.

        Returns
        -------
        self : AIDLADRegressor
            The fitted estimator.
        """
        X, y = validate_data(
            self, X, y, accept_sparse="csr", dtype=[np.float64, np.float32], y_numeric=True
        )
        y = np.asarray(y, dtype=np.float64)
        sw = check_sample_weight(sample_weight, X, dtype=np.float64)
        keep = sw > 0
        if not keep.all():
            X, y, sw = X[keep], y[keep], sw[keep]
        n, m = X.shape
        p = m + bool(self.fit_intercept)
        if n < p:
            raise ValueError(
                f"LAD needs at least n_features + fit_intercept = {p} samples with positive "
                f"weight; got n_samples = {n}."
            )
        seed = check_seed(self.random_state)
        data = as_data_source(X, y, None if (sw == 1).all() else sw, block_size=self.block_size)
        result = run_estimator_aid(self, _LADProblem(self, m), data, seed)
        beta = result.solution.params
        self.coef_ = beta[:m].copy()
        self.intercept_ = float(beta[m]) if self.fit_intercept else 0.0
        store_run(self, result, n)
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def predict(self, X):
        """Predict ``X @ coef_ + intercept_``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            Predicted values (the fitted conditional median).
        """
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", dtype=[np.float64, np.float32], reset=False)
        return np.asarray(X @ self.coef_ + self.intercept_, dtype=np.float64).ravel()
