"""AID for support vector classification (Park & Klabjan 2016, sec. 3.2 and Appendix B).

The estimator :class:`AIDSVC`; the AID problem it runs is in ``_svc_problem.py``, and
``solver="dcd-full"`` (no aggregation) in ``_svc_full_dcd.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from numbers import Integral, Real
from typing import Any, Self

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from aid_core import DaskSource, as_data_source
from svmcore import blas_threads
from svmcore.chunked import distinct, is_dask_collection
from svmcore.clustering import ChunkedClusters
from svmcore.kernels import kernel_matvec, resolve_gamma
from svmcore.typing import ArrayLike, DaskArray, MatrixLike, RandomStateLike
from svmcore.validation import (
    CachedParamNames,
    Interval,
    StrOptions,
    check_classification_targets,
    check_is_fitted,
    check_magnitude,
    check_sample_weight,
    check_seed,
    class_labels,
    fit_context,
    validate_data,
)

from ._common import dask_input, lazy_predict, run_estimator_aid, store_run
from ._svc_auto import auto_solver
from ._svc_chunked import chunked_duals, signed_targets
from ._svc_full_dcd import _fit_full
from ._svc_problem import _SVCProblem
from ._svc_scale import scale_cause

__all__ = ["AIDSVC"]


def _binary_classes(classes):
    """``classes`` if there are exactly two, else the ValueError AIDSVC raises."""
    if classes.size > 2:
        raise ValueError(
            "Only binary classification is supported. The type of the target is "
            f"multiclass ({classes.size} classes); AIDSVC is a binary classifier."
        )
    if classes.size < 2:
        raise ValueError(f"AIDSVC needs y with exactly 2 classes; got 1 class ({classes[0]!r}).")
    return classes


class AIDSVC(ClassifierMixin, CachedParamNames, BaseEstimator):
    """Binary soft-margin SVM solved to a certified optimum by AID.

    Aggregate and Iterative Disaggregate (Park & Klabjan 2016): the samples of each class
    are clustered, each cluster is replaced by its centroid with weight |C_k| (the paper's
    (9), a weighted SVM), and clusters whose samples lie on both sides of the
    margin-shifted hyperplane ``y f(x) = 1`` are split, until none does, which proves the
    aggregated solution optimal for the full problem (Prop 3). Linear and kernel (rbf,
    poly; Appendix B) machines.

    Parameters
    ----------
    C : float, default=1.0
        Penalty (the paper's M), > 0.
    kernel : {"linear", "rbf", "poly"}, default="linear"
        Kernel, with scikit-learn's definitions.
    gamma : "scale", "auto" or float, default="scale"
        Kernel coefficient for "rbf" and "poly" (as in :class:`sklearn.svm.SVC`).
    degree : int, default=3
        Degree of "poly".
    coef0 : float, default=0.0
        Constant of "poly".
    solver : {"auto", "libsvm", "liblinear", "highs", "dcd", "newton", "dcd-full"}, \
            default="auto"
        Aggregated-problem solver. "auto" is "newton" for the linear kernel with at most
        ``NEWTON_MAX_FEATURES`` (64) features, "dcd-full" for more (no aggregation: AID
        did not pay there; svmcore's dual CD on every row to the certified relative gap
        ``gap_tol``, reported as a one-iteration run with ``n_clusters_ = n``; there is no
        AID loop, so ``max_iter``, ``time_limit``, ``verbose``, ``progress`` and
        ``callback`` do not apply). On small dense data (at most ``DIRECT_MAX_SAMPLES``
        (20 000) rows, at most 64 features) "auto" is "newton-full": the same Newton
        solver on every row, no aggregation (AID's 7-11 aggregated solves and passes cost
        more than the one certified solve there; a deviation from the paper, which
        aggregates at every size), falling back to AID with "newton" if it does not
        certify; only when ``max_iter``, ``time_limit``, ``callback``, ``verbose``,
        ``progress``, ``block_size``, ``initial_aggregation_rate`` and
        ``init_sample_size`` are at their defaults (so none is ignored). It is "highs"
        (the aggregated dual QP with HiGHS) for the other kernels; the paper used
        libsvm, one parameter away as ``solver="libsvm"``. "liblinear" is linear only.
        ``solver_`` records the choice (timings in the package README).
        "newton" (linear only, beyond the paper) solves the aggregated primal, ``m + 1``
        unknowns whatever |K^t|, by Newton's method on a Huber-smoothed hinge whose width
        shrinks until the certificate holds, then an exact KKT polish of the duals
        (svmcore.solvers._newton); warm-started from the previous ``(w, b)``.
        "dcd" (linear only, beyond the paper) is liblinear's dual coordinate descent
        re-implemented in svmcore with an exact unregularized bias and a warm start
        from the previous iteration's duals (a split cluster's dual is divided among
        its children by weight).
        Every iterative backend (libsvm, liblinear, dcd, newton) solves each aggregated problem
        only to a relative duality gap of ``min(1e-2, 0.01 * current AID gap)`` (at
        least ``0.1 * gap_tol``), so early F^t are upper values of rough solves while
        the certified bound (the aggregated dual objective) stays valid and
        non-decreasing.
    tol : float, default=1e-3
        Aggregated solver tolerance (libsvm/liblinear's own definition, the paper's
        1e-3). It is tightened automatically (x 0.1) until the aggregated duality gap
        meets the target above.
    initial_aggregation_rate : "auto" or float in (0, 1], default="auto"
        The rate r^0 = |K^0| / n; "auto" is the paper's max(1.1 m / n, 1e-4). At least
        one cluster per class.
    init_sample_size : "auto" or int, default="auto"
        Rows sampled for the initial hyperplane; "auto" is max(20 (m + 1), 1000).
    gap_tol : float, default=1e-4
        Stop when (E_best - lower bound) / E_best <= gap_tol (the paper's 1e-4).
    max_iter : int, default=100
        Maximum number of aggregated problems.
    time_limit : float or None, default=None
        Wall-clock seconds for the whole run (from the initial clustering), checked
        between iterations (an aggregated solve in progress finishes). On expiry the best
        solution is kept with a ``ConvergenceWarning`` and ``converged_ = False``.
    block_size : int or None, default=None
        Linear kernel: evaluate and re-aggregate over row blocks of this size.
    verbose : int, default=0
        Print one line per AID iteration.
    progress : bool, default=False
        Show a tqdm progress bar.
    callback : callable or None, default=None
        Called with each iteration's record; returning True stops the run.
    random_state : int, RandomState instance or None, default=None
        Seed of the initial sample, k-means and liblinear.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    coef_ : ndarray of shape (1, n_features)
        Linear kernel only.
    intercept_ : ndarray of shape (1,)
    dual_coef_ : ndarray of shape (1, n_SV)
        ``y_i alpha_i`` of the support vectors, with the paper's recovered duals
        ``alpha_i = alpha_k s_i / W_k`` for ``i`` in cluster ``k``.
    support_ : ndarray of shape (n_SV,)
        Indices of the training samples with ``alpha_i > 0``.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        Kernel machines only (needed by ``decision_function``).
    objective_ : float
        Primal objective (7) of the returned solution on the training data (E_best).
    dual_objective_ : float
        Dual objective (6) of the recovered duals (certified lower bound).
    lower_bound_ : float
        Largest certified lower bound on the optimum seen.
    optimality_gap_ : float
        (objective_ - lower_bound_) / objective_.
    stop_reason_ : str
        "optimal", "gap", "max_iter", "time_limit", "callback", "stalled" or
        "unsolved" (see :data:`aid_core.STOP_REASONS`).
    converged_ : bool
        Whether the run stopped by the optimality condition or ``gap_tol``
        (``stop_reason_`` "optimal" or "gap"), either with the certified gap within
        ``gap_tol``. A stop at ``max_iter`` or ``time_limit`` keeps the best solution
        found, sets False and warns (``ConvergenceWarning`` naming the budget), as do
        "stalled" and "unsolved" (naming the data's scale when it is the likely cause).
    solver_ : str
        The aggregated-problem solver used (what "auto" chose); "newton-full" when
        "auto" solved a small dense problem directly (no aggregation).
    history_ : aid_core.AIDHistory
        Per-iteration records (Table 10: t, r^t, F^t, E^t, E_best, gap, times, training
        rate, solver notes).
    n_iter_ : int
    n_clusters_ : int
    aggregation_rate_ : float
        r^T.
    init_time_ : float
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (n_features_in_,)

    See Also
    --------
    sklearn.svm.SVC : The libsvm solver on the full data.
    sklearn.svm.LinearSVC : The liblinear solver on the full data.
    AIDLADRegressor : AID for LAD regression.

    Notes
    -----
    Problem (the paper's (7); ``s_i`` sample weights) and aggregated problem (9):

    .. math::

        E^* = \\min_{w, b} \\tfrac12 \\|w\\|^2 + C \\sum_i s_i \\max(0, 1 - y_i (w x_i + b)),
        \\quad
        F^t = \\min_{w, b} \\tfrac12 \\|w\\|^2 + C \\sum_k W_k \\max(0, 1 - y_k (w \\bar x_k + b)).

    F^t is non-decreasing and a lower bound on E^* (Prop 4). Because libsvm and liblinear
    are inexact, the gap uses the aggregated dual objective (made exactly feasible) as
    the certified lower bound. Linear kernel: per iteration two passes over the data
    (O(nnz)) plus a weighted SVM on |K^t| centroids; memory O(n) plus a block. Kernels:
    the aggregated Gram K M costs O(n^2 m) time and O(n |K^t|) memory per iteration.

    Sample weights: an integer ``sample_weight`` states the same problem (7) as
    repeated rows, but the two fits take different AID paths (other initial clusters)
    and each ends at an aggregated solution as accurate as its solver, so they agree to
    the certified gap, not to round-off. ``solver="newton"`` (an exact KKT polish) and
    ``"libsvm"`` (exact on small aggregated problems) pass scikit-learn's sample-weight
    equivalence check (decision values at rtol 1e-7); ``"dcd"`` and the kernel solvers
    do not. ``"liblinear"`` passes it too: where its gap plateaus above the target the
    solve switches to libsvm; on CSR (not centred, to stay sparse, so liblinear
    regularizes the bias) answers near 2e-3 met the first iterations' 1e-2, and the
    switch comes when the optimality condition holds above ``gap_tol`` and the
    partition is solved again (before that re-solve the fits ended 2e-4 apart).

    Beyond the paper: the certified gap and ``gap_tol`` (the paper stops on the
    optimality condition alone), the aggregated solvers ``"newton"``, ``"dcd"``,
    ``"highs"`` and ``"dcd-full"`` (no aggregation), ``solver="auto"``'s choice
    among them and its direct Newton solve of small dense problems ("newton-full"; the
    paper's backend is ``solver="libsvm"``), sample weights, ``time_limit`` and
    ``callback``.

    References
    ----------
    Y. W. Park and D. Klabjan, "Iterative and Aggregate Disaggregate algorithm with
    proven optimality in machine learning", Machine Learning 105 (2016), sec. 3.2, App. B.

    Examples
    --------
    >>> from svmcore.datasets import make_blob_mixture
    >>> from aid_models import AIDSVC
    >>> X, y = make_blob_mixture(3000, 5, random_state=0)
    >>> clf = AIDSVC(C=0.1, random_state=0).fit(X, y)
    >>> bool(clf.optimality_gap_ <= 1e-4), clf.stop_reason_ in ("optimal", "gap")
    (True, True)
    """

    _parameter_constraints: dict = {
        "C": [Interval(Real, 0.0, None, closed="neither")],
        "kernel": [StrOptions({"linear", "rbf", "poly"})],
        "gamma": [StrOptions({"scale", "auto"}), Interval(Real, 0.0, None, closed="neither")],
        "degree": [Interval(Integral, 1, None, closed="left")],
        "coef0": [Interval(Real, None, None, closed="neither")],
        "solver": [
            StrOptions({"auto", "libsvm", "liblinear", "highs", "dcd", "newton", "dcd-full"})
        ],
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "initial_aggregation_rate": [
            StrOptions({"auto"}),
            Interval(Real, 0.0, 1.0, closed="right"),
        ],
        "init_sample_size": [StrOptions({"auto"}), Interval(Integral, 1, None, closed="left")],
        "gap_tol": [Interval(Real, 0.0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "time_limit": [None, Interval(Real, 0.0, None, closed="neither")],
        "block_size": [None, Interval(Integral, 1, None, closed="left")],
        "verbose": ["verbose"],
        "progress": ["boolean"],
        "callback": [None, callable],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        C: float = 1.0,
        kernel: str = "linear",
        gamma: str | float = "scale",
        degree: int = 3,
        coef0: float = 0.0,
        solver: str = "auto",
        tol: float = 1e-3,
        initial_aggregation_rate: float | str = "auto",
        init_sample_size: int | str = "auto",
        gap_tol: float = 1e-4,
        max_iter: int = 100,
        time_limit: float | None = None,
        block_size: int | None = None,
        verbose: int = 0,
        progress: bool = False,
        callback: Callable[[dict[str, Any]], bool | None] | None = None,
        random_state: RandomStateLike = None,
    ) -> None:
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.solver = solver
        self.tol = tol
        self.initial_aggregation_rate = initial_aggregation_rate
        self.init_sample_size = init_sample_size
        self.gap_tol = gap_tol
        self.max_iter = max_iter
        self.time_limit = time_limit
        self.block_size = block_size
        self.verbose = verbose
        self.progress = progress
        self.callback = callback
        self.random_state = random_state

    def _validate(self, X, y, sample_weight):
        """In-memory input: ``(X, y in {-1, +1}, weights, kept rows or None)``."""
        X, y = validate_data(
            self,
            X,
            y,
            accept_sparse="csr" if self.kernel == "linear" else False,
            dtype=[np.float64, np.float32],
        )
        check_magnitude(X, "X", "AIDSVC")
        check_classification_targets(y)
        self.classes_ = _binary_classes(class_labels(y))
        y_signed = signed_targets(y, self.classes_[1])
        sw = check_sample_weight(sample_weight, X, dtype=np.float64)
        keep = sw > 0
        if keep.all():
            return X, y_signed, sw, None
        X, y_signed, sw = X[keep], y_signed[keep], sw[keep]
        if np.unique(y_signed).size != 2:
            raise ValueError("Both classes need samples with positive sample_weight.")
        return X, y_signed, sw, keep

    def _dask_data(self, X, y, sample_weight):
        """Dask input (linear kernel): ``(X, None, None, kept rows or None, DaskSource)``."""
        if self.kernel != "linear":
            raise ValueError(
                f"AIDSVC fits Dask input with kernel='linear' only (got {self.kernel!r}): "
                "the kernel path evaluates K(X, X) M over all row pairs."
            )
        X, y, sw, classes, keep = dask_input(self, X, y, sample_weight, classes=True)
        self.classes_ = _binary_classes(classes)
        # +-1 as one byte per row kept on the workers (lineage: y's chunks): every pass
        # reads the targets, which otherwise meant reading and mapping y's chunk again.
        y_signed = y.map_blocks(signed_targets, self.classes_[1], np.int8, dtype=np.int8).persist()
        if keep is not None and distinct(y_signed).size != 2:
            raise ValueError("Both classes need samples with positive sample_weight.")
        return X, None, None, keep, DaskSource(X, y_signed, sw)

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: MatrixLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> Self:
        """Fit the SVM by AID.

        Parameters
        ----------
        X : {array-like, sparse matrix, dask.array.Array} of shape (n_samples, n_features)
            Training data. A row-chunked Dask array (linear kernel; ``y`` and
            ``sample_weight`` as Dask or NumPy arrays) is fitted where its chunks live,
            on the current ``distributed.Client`` if there is one, with
            ``solver="dcd-full"`` replaced by AID's ``"dcd"``; see "Running on a
            cluster" in the user guide.
        y : array-like of shape (n_samples,)
            Two classes.
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample penalty multipliers ``s_i``; zero-weight samples are dropped.
            Integer weights state the same problem as repeated rows; the two fits
            agree to the certified gap (see "Sample weights" in the Notes).

        Returns
        -------
        self : AIDSVC
            The fitted estimator.
        """
        linear = self.kernel == "linear"
        if self.solver not in ("auto", "highs") and not linear:
            raise ValueError(
                f"solver={self.solver!r} supports only kernel='linear' here (the aggregated "
                "kernel is a precomputed Gram matrix); use solver='highs' or 'auto'."
            )
        if is_dask_collection(X):
            X, y_signed, sw, keep, data = self._dask_data(X, y, sample_weight)
            n = data.n_samples
        else:
            X, y_signed, sw, keep = self._validate(X, y, sample_weight)
            n, data = X.shape[0], None
        seed = check_seed(self.random_state)
        kernel_params = None
        gamma = None
        if not linear:
            gamma = float(resolve_gamma(self.gamma, X))
            kernel_params = {"kernel": self.kernel, "degree": self.degree, "coef0": self.coef0}
        solver = auto_solver(self, X, in_memory=data is None)
        result = None
        if solver in ("dcd-full", "newton-full") and data is None:
            result = _fit_full(X, y_signed, sw, self.C, self.gap_tol, seed, solver)
            if solver == "newton-full" and result.stop_reason != "gap":
                solver, result = "newton", None  # not certified on every row: AID's loop
        if result is None:
            if solver == "dcd-full":  # Dask data: every pass must be a map, so AID's dcd
                solver = "dcd"
            if data is None:
                unit = bool((sw == 1).all())
                data = as_data_source(
                    X,
                    y_signed,
                    None if unit else sw,
                    block_size=self.block_size if linear else None,
                )
            problem = _SVCProblem(self, X, kernel_params, gamma, seed, solver)
            with blas_threads(1) if linear else nullcontext():  # small BLAS calls (m + 1)
                result = run_estimator_aid(self, problem, data, seed)
        params = result.solution.params
        if isinstance(result.clusters, ChunkedClusters):  # Dask: expanded where labels are
            support, dual, alpha_sum = chunked_duals(data, result.clusters, params["alpha"])
        else:
            assert y_signed is not None
            labels = result.clusters.labels
            W = np.bincount(labels, weights=sw, minlength=result.clusters.n_clusters)
            alpha = params["alpha"][labels] * sw / W[labels]
            support = np.flatnonzero(alpha > 0)
            dual, alpha_sum = alpha[support] * y_signed[support], float(alpha.sum())
        if keep is not None:
            support_orig = np.flatnonzero(keep)[support]
        else:
            support_orig = support
        self.support_ = support_orig
        self.dual_coef_ = dual[None, :]
        self.intercept_ = np.array([params["b"]])
        if linear:
            self.coef_ = np.asarray(params["w"], dtype=np.float64)[None, :]
            norm2 = float(self.coef_[0] @ self.coef_[0])
        else:
            self.support_vectors_ = X[support]
            self.gamma_ = gamma
            norm2 = params["norm2"]
        self.dual_objective_ = alpha_sum - 0.5 * norm2
        store_run(self, result, n, cause=scale_cause(data, self.C, linear))
        self.solver_ = solver
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = self.kernel == "linear"
        tags.classifier_tags.multi_class = False
        return tags

    def decision_function(self, X: MatrixLike) -> np.ndarray | DaskArray:
        """Signed score ``f(x)``; positive means ``classes_[1]``.

        Parameters
        ----------
        X : {array-like, sparse matrix, dask.array.Array} of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        scores : ndarray or dask.array.Array of shape (n_samples,)
            ``f(x)`` for each sample.
        """
        check_is_fitted(self)
        if is_dask_collection(X):
            return lazy_predict(self.decision_function, X)
        X = validate_data(
            self,
            X,
            accept_sparse="csr" if self.kernel == "linear" else False,
            dtype=[np.float64, np.float32],
            reset=False,
        )
        if self.kernel == "linear":
            return np.asarray(X @ self.coef_[0]).ravel() + self.intercept_[0]
        assert self.gamma_ is not None  # a kernel machine's resolved gamma
        return (
            kernel_matvec(
                X,
                self.support_vectors_,
                self.dual_coef_[0],
                kernel=self.kernel,
                gamma=self.gamma_,
                degree=self.degree,
                coef0=self.coef0,
            )
            + self.intercept_[0]
        )

    def predict(self, X: MatrixLike) -> np.ndarray | DaskArray:
        """Predict class labels.

        Parameters
        ----------
        X : {array-like, sparse matrix, dask.array.Array} of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        y_pred : ndarray or dask.array.Array of shape (n_samples,)
            ``classes_[1]`` where ``f(x) > 0``, else ``classes_[0]``.
        """
        check_is_fitted(self)
        if is_dask_collection(X):
            return lazy_predict(self.predict, X, dtype=self.classes_.dtype)
        return self.classes_[(self.decision_function(X) > 0).astype(int)]
