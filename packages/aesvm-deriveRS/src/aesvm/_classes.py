"""The AESVC classifier: a weighted SVM on DeriveRS's representative set."""

from __future__ import annotations

import itertools
import time
from numbers import Integral, Real
from typing import Self

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from svmcore.chunked import is_dask_collection
from svmcore.docstrings import fill_doc
from svmcore.kernels import kernel_diag, kernel_matvec, resolve_gamma, working_dtype
from svmcore.solvers import TimeBudget
from svmcore.typing import ArrayLike, DaskArray, MatrixLike, RandomStateLike
from svmcore.validation import (
    CachedParamNames,
    Interval,
    StrOptions,
    check_classification_targets,
    check_is_fitted,
    check_magnitude,
    check_sample_weight,
    fit_context,
    validate_data,
)

from ._cache import cached_representatives
from ._dask import fit_dask, lazy_on_dask
from ._derive import _check_derive_params
from ._docs import DOCS
from ._representative_svm import fit_on_representatives

__all__ = ["AESVC"]

#: Seconds as a float for ``time_limit``; tests replace it with a deterministic clock.
_clock = time.perf_counter

#: ``epsilon="auto"``: epsilon relative to the mean k(x, x): the paper's 1e-3 for ``rbf``
#: (larger values cost accuracy on data of low intrinsic dimension; README "Defaults").
AUTO_EPSILON = 1e-3

#: Below this many training rows (with ``fallback_fraction`` set) DeriveRS is not run: SVC
#: fits them in well under a second and DeriveRS's probe alone costs more (defaults suite).
MIN_REDUCE_SAMPLES = 10_000


@fill_doc(DOCS)
class AESVC(ClassifierMixin, CachedParamNames, BaseEstimator):
    """Approximate extreme points SVM classifier (AESVM, Nandan et al. 2014).

    Trains a kernel SVM on the representative set computed by :func:`derive_rs`, each
    representative weighted by its :math:`\\beta_t`, instead of on all samples. Unlike
    :class:`sklearn.svm.SVC` the solver sees only :math:`M \\ll N` samples, which also
    gives fewer support vectors (faster prediction).

    Parameters
    ----------
    C : float, default=1.0
        Penalty in scikit-learn's convention (the paper's :math:`C' = C/N`); each
        representative gets penalty ``C * beta_t``.
    kernel : {"rbf", "linear", "poly"}, default="rbf"
        Kernel (scikit-learn's definitions; the paper's Gaussian kernel with ``g`` is
        ``rbf`` with ``gamma=g``).
    degree : int, default=3
        Degree of ``poly``.
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel coefficient, as in ``SVC``.
    coef0 : float, default=0.0
        Independent term of ``poly``.
    epsilon : "auto" or float, default="auto"
        DeriveRS's epsilon: samples within squared kernel distance ``epsilon`` of the
        convex hull of their group's representatives are not representatives. ``"auto"``
        is ``AUTO_EPSILON`` (1e-3) times the mean of :math:`k(x, x)` over the training
        data: the paper's 1e-3 for ``rbf``, where :math:`k(x, x) = 1`, and the same
        relative threshold for the linear and polynomial kernels, whose scale follows the
        data; the value used is ``epsilon_``.
    subset_size : int, default=100_000
        P, the largest first-level subset.
    group_size : int, default=1_000
        V, the largest group whose approximate extreme points are computed.
    segregation : {"fls2", "fls1"}, default="fls2"
        First level of segregation.
    tol : float, default=1e-3
        Stopping tolerance of the SVM solver (libsvm's).
    max_iter : int, default=None
        Iteration cap of the SVM solver (None: libsvm's own cap). A pairwise SVM
        stopped by it gives ``converged_ = False`` and libsvm's ``ConvergenceWarning``
        naming ``max_iter``.
    time_limit : float, default=None
        Not in the paper. Wall-clock seconds for the whole fit, honoured where the fit
        can stop: DeriveRS checks the deadline before each batch of groups (a batch in
        progress finishes). Once it has passed, the groups not yet processed are not
        reduced: their samples join the representatives derived so far as they are,
        each with its sample weight (1 without weights) as beta, and the SVM is trained
        on that set - a valid, feasible AESVM model of every sample, only less reduced
        (the betas still sum to the class sizes). ``converged_`` is then False and a
        ``ConvergenceWarning`` names the time limit. libsvm's final solve cannot be
        interrupted, so the fit may end after the deadline by the time of that SVM
        (bounded by ``max_iter``); a fit whose DeriveRS finished in time is the full
        model whatever the SVM takes. Without DeriveRS (``fallback_``, a cached
        representative set) it bounds nothing. Not applied on Dask input (DeriveRS runs
        on the workers there).
    cache_size : float, default=200.0
        Kernel cache of libsvm in MB.
    compute_objective : bool, default=False
        Also compute ``objective_`` (a decision-function pass over the representatives
        after each SVM fit, about doubling the SVM time when most of them are support
        vectors) and replace libsvm's bias by the exact minimizer of (2) for the
        returned ``w``. False keeps libsvm's own bias (as ``SVC``) and sets
        ``objective_`` to NaN.
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        Multi-class ``decision_function``: one-vs-rest scores built from the pairwise
        votes (as ``SVC``), whose argmax is the prediction, or the raw pairwise values.
    reuse_representatives : bool, default=True
        Look the representative set up in a process-wide cache keyed on the data and the
        DeriveRS parameters, so fits differing only in ``C`` (a grid search) compute it
        once per fold and kernel parameter.
    fallback_fraction : float in (0, 1] or None, default=0.6
        Not in the paper. When DeriveRS's first batch of groups (one per thread, at least
        two, spread over the data) keeps more than this fraction of its samples as
        representatives, the data are not reducible at this epsilon: DeriveRS stops there
        and the SVM is trained on all samples (``fallback_ = True``), so the fit costs
        about what ``SVC`` costs.
        With a fraction set, data of fewer than ``MIN_REDUCE_SAMPLES`` (10 000) rows are
        not reduced either (``fallback_ = True`` at once). ``None`` always trains on the
        representative set (the paper).
    random_state : int, RandomState instance or None, default=None
        None keeps the data order for segregation; otherwise each class is shuffled
        first (the paper's "Random+FLS").
    n_jobs : int, default=None
        Numba threads of DeriveRS and of the kernel products in prediction.
    verbose : int, default=0
        When positive, print a table as the fit runs: a header, a line when DeriveRS
        ends, then one line per pairwise SVM, with the columns of ``history_``
        (``history_.to_table()`` gives the same text afterwards).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    representative_indices_ : ndarray of shape (n_representatives_,)
        Training rows forming the representative set.
    beta_ : ndarray of shape (n_representatives_,)
        Their weights (the paper's (10)); they sum to the (weighted) class sizes.
    n_representatives_ : int
        M (all samples with ``fallback_``).
    epsilon_ : float
        The epsilon DeriveRS used (``epsilon`` itself unless ``"auto"``).
    fallback_ : bool
        Whether DeriveRS was stopped (or not run) by ``fallback_fraction`` and the SVM was
        trained on all samples (``representative_indices_`` all rows, ``beta_`` the sample weights).
    support_ : ndarray of shape (n_SV,)
        Training rows that are support vectors of some pairwise problem.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        ``X[support_]``.
    dual_coef_ : ndarray of shape (n_classes * (n_classes - 1) / 2, n_SV)
        Row ``k`` holds :math:`y_t \\alpha_t` of pairwise problem ``k`` (zero for vectors
        it does not use); for two classes this is ``SVC``'s ``dual_coef_``.
    intercept_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
        Biases of the pairwise problems.
    objective_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
        Primal objective (2) of each pairwise problem at the returned solution,
        :math:`\\frac{1}{2}\\|w\\|^2 + C\\sum_t \\beta_t \\max(0, 1 - y_t f(x_t))`, which is
        :math:`F_2` since ``C`` is the paper's :math:`C/N`. NaN unless
        ``compute_objective=True``.
    n_iter_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
        libsvm iterations per pairwise problem.
    converged_ : bool
        False when ``time_limit`` left DeriveRS groups unprocessed or a pairwise SVM
        stopped at ``max_iter``.
    n_unprocessed_groups_ : int
        DeriveRS groups the time limit left unreduced (0 when DeriveRS finished).
    representatives_reused_ : bool
        Whether the representative set came from the cache.
    derive_time_ : float
        Seconds spent in DeriveRS (0 when reused).
    svm_time_ : float
        Seconds spent training the weighted SVMs.
    history_ : svmcore.reporting.History
        A list of dicts, one per phase. First DeriveRS: ``phase="derive"``,
        ``n_samples`` (training rows), ``n_groups`` (DeriveRS's groups; None when it did
        not run or was stopped by its probe, and on Dask input), ``n_representatives``
        (M), ``fallback``, ``reused`` (from the cache) and ``time`` (``derive_time_``).
        Then one per pairwise SVM: ``phase="svm"``, ``pair`` (its two classes,
        positive second), ``n_samples`` (its representatives), ``n_iter`` (libsvm's
        iterations), ``n_support`` (its support vectors), ``objective`` (NaN unless
        ``compute_objective``) and ``time`` (seconds).
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen during fit, when ``X`` has string column names.

    See Also
    --------
    derive_rs : The representative set alone.
    sklearn.svm.SVC : The exact SVM (the paper's LIBSVM baseline).

    Notes
    -----
    AESVM solves (2):

    .. math::

        \\min_{w, b} \\frac{1}{2}\\|w\\|^2 + \\frac{C_{paper}}{N}\\sum_{t=1}^M \\beta_t
        \\max(0, 1 - y_t(w^T\\phi(x_t) + b)),

    with scikit-learn's ``C = C_paper / N`` (the paper's grids are in this :math:`C'`).
    Multi-class problems are solved one-vs-one: the representatives of each class are
    derived once (DeriveRS segregates classes separately) and each pair of classes is
    trained on its two classes' representatives; prediction is by vote, ties broken
    by summed confidences as in scikit-learn.

    Complexity: DeriveRS :math:`O(N(\\log_2 \\frac{N}{P} + \\frac{P}{V}) + \\sum V S(A))`
    plus an SVM on :math:`M` samples; memory :math:`O(N + V^2)` per thread; no
    :math:`N \\times N` matrix. Prediction costs :math:`O(n_{SV})` kernel evaluations
    per sample.

    Beyond the paper (each one parameter away from the paper's method): the
    ``fallback_fraction`` probe and the 10 000-row floor (``fallback_fraction=None`` is
    the paper), ``epsilon="auto"`` relative to the mean :math:`k(x, x)` (the paper's
    1e-3 for ``rbf``), the representative-set cache of a grid search
    (``reuse_representatives``), ``compute_objective`` with the exact bias, sample
    weights (:math:`\\beta = \\Gamma^T s`), the linear and polynomial kernels and the
    multi-class one-vs-one scheme, and Dask input.

    Dask (``pip install aesvm-deriveRS[dask]``): a row-chunked ``dask.array.Array`` ``X``
    (dense or CSR chunks; ``y``, ``sample_weight`` Dask or NumPy) is fitted on the current
    ``distributed.Client``, else Dask's local scheduler. Each row chunk is a partition
    that DeriveRS segregates on its own on a worker (with one chunk, the in-memory
    representative set exactly; with several, the chunks are the first level of
    segregation), and only its representatives' rows and betas come back for the SVMs;
    a union of at least 10 000 of them is reduced by one more, weighted DeriveRS on the
    driver (a deviation: two levels of approximation). A chunk stopped by the
    ``fallback_fraction`` probe sends all its rows (``fallback_`` when every chunk is);
    the 10 000-row floor applies to the whole data; every chunk's shuffle starts from
    ``random_state``'s state; the cache is not used. The fitted attributes are NumPy;
    ``predict`` and ``decision_function`` of a Dask array are lazy.

    %(references)s

    Examples
    --------
    >>> import numpy as np
    >>> from aesvm import AESVC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 2)); y = (X[:, 0] + X[:, 1] > 0).astype(int)
    >>> clf = AESVC(
    ...     C=10.0, gamma=0.5, epsilon=1e-3, fallback_fraction=None, group_size=100, subset_size=150
    ... ).fit(X, y)
    >>> clf.n_representatives_ < 300, clf.score(X, y) > 0.95
    (True, True)
    >>> AESVC(C=10.0, gamma=0.5).fit(X, y).fallback_  # below 10,000 rows: every sample
    True
    """

    _parameter_constraints: dict = {
        "C": [Interval(Real, 0.0, None, closed="neither")],
        "kernel": [StrOptions({"linear", "rbf", "poly"})],
        "degree": [Interval(Integral, 1, None, closed="left")],
        "gamma": [StrOptions({"scale", "auto"}), Interval(Real, 0.0, None, closed="neither")],
        "coef0": [Interval(Real, None, None, closed="neither")],
        "epsilon": [StrOptions({"auto"}), Interval(Real, 0.0, None, closed="left")],
        "subset_size": [Interval(Integral, 2, None, closed="left")],
        "group_size": [Interval(Integral, 2, None, closed="left")],
        "segregation": [StrOptions({"fls1", "fls2"})],
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "max_iter": [None, Interval(Integral, 1, None, closed="left")],
        "time_limit": [None, Interval(Real, 0.0, None, closed="neither")],
        "cache_size": [Interval(Real, 0.0, None, closed="neither")],
        "compute_objective": ["boolean"],
        "decision_function_shape": [StrOptions({"ovr", "ovo"})],
        "reuse_representatives": ["boolean"],
        "fallback_fraction": [None, Interval(Real, 0.0, 1.0, closed="right")],
        "random_state": ["random_state"],
        "n_jobs": [None, Integral],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        *,
        C: float = 1.0,
        kernel: str = "rbf",
        degree: int = 3,
        gamma: str | float = "scale",
        coef0: float = 0.0,
        epsilon: str | float = "auto",
        subset_size: int = 100_000,
        group_size: int = 1_000,
        segregation: str = "fls2",
        tol: float = 1e-3,
        max_iter: int | None = None,
        time_limit: float | None = None,
        cache_size: float = 200.0,
        compute_objective: bool = False,
        decision_function_shape: str = "ovr",
        reuse_representatives: bool = True,
        fallback_fraction: float | None = 0.6,
        random_state: RandomStateLike = None,
        n_jobs: int | None = None,
        verbose: int = 0,
    ) -> None:
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.epsilon = epsilon
        self.subset_size = subset_size
        self.group_size = group_size
        self.segregation = segregation
        self.tol = tol
        self.max_iter = max_iter
        self.time_limit = time_limit
        self.cache_size = cache_size
        self.compute_objective = compute_objective
        self.decision_function_shape = decision_function_shape
        self.reuse_representatives = reuse_representatives
        self.fallback_fraction = fallback_fraction
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _kernel_params(self):
        return {
            "kernel": self.kernel,
            "gamma": self._gamma,
            "degree": self.degree,
            "coef0": float(self.coef0),
        }

    def _epsilon(self, mean_diag):
        """``epsilon_``: ``epsilon``, or for "auto" AUTO_EPSILON x ``mean_diag()`` (1 for rbf)."""
        if self.epsilon != "auto":
            return float(self.epsilon)
        return AUTO_EPSILON * (1.0 if self.kernel == "rbf" else float(mean_diag()))

    def _derive_params(self):
        """The keywords of :func:`derive_rs` (after ``_gamma`` and ``epsilon_`` are set)."""
        # Bad DeriveRS parameters are reported even when DeriveRS is not run.
        _check_derive_params(self.subset_size, self.group_size, self.epsilon_, self.segregation)
        return {
            **self._kernel_params(),
            "subset_size": self.subset_size,
            "group_size": self.group_size,
            "tol": self.epsilon_,
            "segregation": self.segregation,
            "random_state": self.random_state,
            "abort_fraction": self.fallback_fraction,
        }

    def _skips_derive(self, n_samples):
        """Whether DeriveRS is not run at all (``fallback_fraction`` and few rows)."""
        return self.fallback_fraction is not None and n_samples < MIN_REDUCE_SAMPLES

    def _check_classes(self, weighted_classes):
        """Two classes at least in ``classes_`` and among the rows of positive weight."""
        if self.classes_.size < 2:
            raise ValueError(
                f"AESVC needs samples of at least 2 classes, got one class: {self.classes_[0]!r}."
            )
        if np.size(weighted_classes) < 2:
            raise ValueError(
                "AESVC needs samples of at least 2 classes with positive sample_weight."
            )

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: MatrixLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> Self:
        """Derive the representative set and train the weighted SVM(s) on it.

        Parameters
        ----------
        X : {array-like, sparse matrix, dask.array.Array} of shape (n_samples, n_features)
            Training data (float32 is kept for the kernel evaluations); a Dask array is
            fitted chunk by chunk (see Notes).
        y : array-like or dask.array.Array of shape (n_samples,)
            Class labels.
        sample_weight : array-like or dask.array.Array of shape (n_samples,), default=None
            Per-sample weights; the betas become :math:`\\Gamma^T s`.

        Returns
        -------
        self : object
            Fitted estimator.
        """
        if is_dask_collection(X):
            return fit_dask(self, X, y, sample_weight)
        budget = TimeBudget(self.time_limit, clock=_clock)
        X, y = validate_data(
            self, X, y, accept_sparse="csr", dtype=[np.float64, np.float32], order="C"
        )
        check_classification_targets(y)
        self.classes_, y_enc = np.unique(y, return_inverse=True)
        sw = None  # unit weights stay None: DeriveRS takes each group's ones, no N-sized array
        if sample_weight is not None:
            sw = check_sample_weight(sample_weight, X, dtype=np.float64)
        self._check_classes(self.classes_ if sw is None else np.unique(y_enc[sw > 0]))
        if self.kernel != "rbf":  # k(x, x) = ||x||^2 (or its power) must stay finite
            check_magnitude(X, "X", "AESVC")
        self._gamma = 1.0 if self.kernel == "linear" else resolve_gamma(self.gamma, X)
        # float32 is kept only where it carries the kernel: gamma="scale" of data near
        # float32's overflow is about 1e-73, zero in float32 (every kernel value 1).
        X = X.astype(working_dtype(X, **self._kernel_params()), copy=False)
        self.epsilon_ = self._epsilon(lambda: np.mean(kernel_diag(X, **self._kernel_params())))
        result, self.representatives_reused_, self.derive_time_ = cached_representatives(
            X,
            y_enc,
            sw,
            self._derive_params(),
            reuse=self.reuse_representatives,
            skip=self._skips_derive(X.shape[0]),
            n_jobs=self.n_jobs,
            budget=budget,
        )
        rep, beta, fallback = result.indices, result.beta, result.fallback
        X_rep = X if fallback else X[rep]
        derive = {"n_samples": X.shape[0], "n_groups": result.n_groups}
        return fit_on_representatives(
            self, X_rep, rep, y_enc[rep], beta, fallback, derive, result.n_unprocessed
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _pairwise_decision(self, X):
        check_is_fitted(self)
        X = validate_data(
            self, X, accept_sparse="csr", dtype=[np.float64, np.float32], order="C", reset=False
        )
        if self.support_.size == 0:
            scores = np.zeros((X.shape[0], self.intercept_.size))
        else:
            scores = kernel_matvec(
                X,
                self.support_vectors_,
                self.dual_coef_.T,
                **self._kernel_params(),
                n_jobs=self.n_jobs,
            )
        return np.asarray(scores, dtype=np.float64) + self.intercept_

    def _ovr_scores(self, pairwise):
        n_classes = self.classes_.size
        votes = np.zeros((pairwise.shape[0], n_classes))
        confidence = np.zeros_like(votes)
        for k, (i, j) in enumerate(itertools.combinations(range(n_classes), 2)):
            positive = pairwise[:, k] > 0
            votes[:, j] += positive
            votes[:, i] += ~positive
            confidence[:, j] += pairwise[:, k]
            confidence[:, i] -= pairwise[:, k]
        # Confidences only break ties: scaled into (-1/3, 1/3) as scikit-learn does.
        return votes + confidence / (3.0 * (np.abs(confidence) + 1.0))

    @lazy_on_dask
    def decision_function(self, X: MatrixLike) -> np.ndarray | DaskArray:
        """Decision values: ``sum_t y_t alpha_t k(x_t, x) + b`` per pairwise problem.

        Parameters
        ----------
        X : {array-like, sparse matrix, dask.array.Array} of shape (n_samples, n_features)
            Samples; a Dask array gives a Dask array, computed chunk by chunk.

        Returns
        -------
        scores : ndarray of shape (n_samples,) or (n_samples, n_scores)
            Two classes: positive means ``classes_[1]``. More classes: one-vs-rest scores
            (``n_scores = n_classes``, argmax = prediction) with
            ``decision_function_shape="ovr"``, else one column per pair ``(i, j)``,
            ``i < j``, positive meaning class ``j``.
        """
        pairwise = self._pairwise_decision(X)
        if self.classes_.size == 2:
            return pairwise[:, 0]
        if self.decision_function_shape == "ovo":
            return pairwise
        return self._ovr_scores(pairwise)

    @lazy_on_dask
    def predict(self, X: MatrixLike) -> np.ndarray | DaskArray:
        """Predict class labels (one-vs-one vote for more than two classes).

        Parameters
        ----------
        X : {array-like, sparse matrix, dask.array.Array} of shape (n_samples, n_features)
            Samples; a Dask array gives a Dask array, computed chunk by chunk.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            Predicted class labels.
        """
        pairwise = self._pairwise_decision(X)
        if self.classes_.size == 2:
            return self.classes_[(pairwise[:, 0] > 0).astype(np.intp)]
        return self.classes_[np.argmax(self._ovr_scores(pairwise), axis=1)]
