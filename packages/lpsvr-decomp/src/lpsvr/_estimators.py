"""LPSVR and LPSVC: scikit-learn estimators for the corrected LP-SVR."""

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import ConvergenceWarning

from svmcore.kernels import kernel_matvec, resolve_gamma
from svmcore.validation import (
    Interval,
    StrOptions,
    check_classification_targets,
    check_is_fitted,
    check_sample_weight,
    fit_context,
    validate_data,
)

from ._budget import TimeBudget
from ._variable_decomposition import fit_lp_svr

__all__ = ["LPSVC", "LPSVR"]

_PARAMETER_CONSTRAINTS = {
    "C": [Interval(Real, 0.0, None, closed="neither")],
    "epsilon": [Interval(Real, 0.0, None, closed="left")],
    "kernel": [StrOptions({"linear", "rbf", "poly"})],
    "gamma": [StrOptions({"scale", "auto"}), Interval(Real, 0.0, None, closed="neither")],
    "sigma": [None, Interval(Real, 0.0, None, closed="neither")],
    "degree": [Interval(Integral, 1, None, closed="left")],
    "coef0": [Interval(Real, None, None, closed="neither")],
    "decomposition": [StrOptions({"none", "variables", "full", "row_column"})],
    "method": [StrOptions({"ipm", "simplex", "choose"})],
    "B0": [None, Interval(Integral, 2, None, closed="left")],
    "B_max": [None, Interval(Integral, 2, None, closed="left")],
    "n_add": [None, Interval(Integral, 1, None, closed="left")],
    "tau": [Interval(Integral, 1, None, closed="left")],
    "t_max": [Interval(Integral, 1, None, closed="left")],
    "loop_limit": [Interval(Integral, 1, None, closed="left")],
    "max_iter": [Interval(Integral, 1, None, closed="left")],
    "tol": [Interval(Real, 0.0, None, closed="neither")],
    "time_limit": [None, Interval(Real, 0.0, None, closed="neither")],
    "random_state": ["random_state"],
    "n_jobs": [None, Integral],
    "verbose": ["verbose"],
}

_DEFAULT_B0 = 100
_DEFAULT_B0_ROW_COLUMN = 50  # initial columns (and their rows) of "row_column"


class _LPSVRParams(BaseEstimator):
    """Constructor and shared helpers of LPSVR and LPSVC (not public)."""

    _parameter_constraints: dict = dict(_PARAMETER_CONSTRAINTS)

    def __init__(
        self,
        *,
        C=1.0,
        epsilon=0.1,
        kernel="rbf",
        gamma="scale",
        sigma=None,
        degree=3,
        coef0=0.0,
        decomposition="row_column",
        method="simplex",
        B0=None,
        B_max=None,
        n_add=None,
        tau=4,
        t_max=4,
        loop_limit=10,
        max_iter=1000,
        tol=1e-6,
        time_limit=None,
        random_state=None,
        n_jobs=None,
        verbose=0,
    ):
        self.C = C
        self.epsilon = epsilon
        self.kernel = kernel
        self.gamma = gamma
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.decomposition = decomposition
        self.method = method
        self.B0 = B0
        self.B_max = B_max
        self.n_add = n_add
        self.tau = tau
        self.t_max = t_max
        self.loop_limit = loop_limit
        self.max_iter = max_iter
        self.tol = tol
        self.time_limit = time_limit
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _kernel_params(self, X):
        if self.sigma is not None:
            gamma = 1.0 / (2.0 * float(self.sigma) ** 2)  # the paper's exp(-|a-b|^2 / 2 sigma^2)
        else:
            gamma = resolve_gamma(self.gamma, X)
        return {
            "kernel": self.kernel,
            "gamma": float(gamma),
            "degree": int(self.degree),
            "coef0": float(self.coef0),
        }

    def _threads(self):
        # The monorepo's convention (docs/design.rst): None keeps Numba's thread count
        return self.n_jobs

    def _check_sizes(self, n_samples):
        default = _DEFAULT_B0_ROW_COLUMN if self.decomposition == "row_column" else _DEFAULT_B0
        B0 = min(default, n_samples) if self.B0 is None else self.B0
        if B0 > n_samples:
            raise ValueError(f"B0 must be <= n_samples={n_samples}, got {B0}.")
        if self.B_max is not None and self.B_max < B0:
            raise ValueError(f"B_max must be >= B0 ({B0}), got {self.B_max}.")
        return B0

    def _fit_one(self, X, d, sample_weight, kernel_params, B0, budget):
        """Fit one LP-SVR on (X, d) within ``budget``; returns the decomposition's FitResult."""
        keep = sample_weight > 0  # zero-weight samples have no cost and no role
        Xk, dk = X[keep], d[keep]
        cost = 2.0 * float(self.C) * sample_weight[keep]
        res = fit_lp_svr(
            Xk,
            dk,
            cost,
            epsilon=float(self.epsilon),
            kernel_params=kernel_params,
            decomposition=self.decomposition,
            method=self.method,
            B0=min(B0, Xk.shape[0]),
            B_max=self.B_max,
            n_add=self.n_add,
            tau=self.tau,
            t_max=self.t_max,
            loop_limit=self.loop_limit,
            max_iter=self.max_iter,
            tol=float(self.tol),
            budget=budget,
            random_state=self.random_state,
            n_jobs=self._threads(),
            verbose=self.verbose,
        )
        if budget.exhausted and not res.converged:
            warnings.warn(
                f"LP-SVR ({self.decomposition!r}) stopped at time_limit={self.time_limit} s "
                "before convergence; the model is feasible (xi reconstructed) but not "
                "proven optimal.",
                ConvergenceWarning,
                stacklevel=3,
            )
        return res, np.flatnonzero(keep)

    # float64 throughout: the LP is solved in double precision, and kernel values
    # computed in float32 would make the KKT check disagree with the LP by round-off.
    def _validate_X(self, X, *, reset):
        return validate_data(self, X, reset=reset, dtype=np.float64, order="C")


class LPSVR(RegressorMixin, _LPSVRParams):
    """Linear-programming support vector regression with decomposition training.

    An epsilon-insensitive kernel regression whose coefficients are found by a
    linear program with an L1 penalty on them (Rivas-Perea & Cota-Ruiz 2013),
    which makes the model sparser than scikit-learn's quadratic-programming
    :class:`~sklearn.svm.SVR`. By default the LP is solved exactly by row and
    column generation in one warm-started HiGHS model (``"row_column"``, not
    in the paper); the paper's variable decomposition (Algorithm 2) and
    constraint decomposition (Algorithm 3) are ``decomposition="variables"``
    and ``"full"``.

    Parameters
    ----------
    C : float, default=1.0
        Cost of the epsilon-insensitive error (> 0).
    epsilon : float, default=0.1
        Half-width of the insensitive tube (>= 0).
    kernel : {"rbf", "linear", "poly"}, default="rbf"
        Kernel, with scikit-learn's definitions.
    gamma : {"scale", "auto"} or float, default="scale"
        Coefficient of "rbf" and "poly", as in :class:`~sklearn.svm.SVR`.
    sigma : float, default=None
        The paper's RBF width: when given, ``gamma = 1 / (2 sigma^2)`` overrides
        ``gamma``.
    degree : int, default=3
        Degree of "poly".
    coef0 : float, default=0.0
        Independent term of "poly".
    decomposition : {"row_column", "full", "variables", "none"}, default="row_column"
        "row_column" (the default; not in the paper, far faster than the
        paper's algorithms on the noisy sinc, same optimum): separate
        column (coefficient) and row (tube constraint) sets, each grown by
        the same KKT check on all samples, one HiGHS model re-solved by warm
        simplex, started from the exact solution on a random quarter of the
        samples (recursively); see the package README. "full": the paper's
        Algorithm 1, i.e. Algorithm 2 with each working-set LP solved by
        Algorithm 3 (the default before 2026-11-25). "variables": Algorithm 2.
        "none": the whole LP in one HiGHS call (the reference for small N;
        N x N kernel).
    method : {"simplex", "ipm", "choose"}, default="simplex"
        HiGHS LP method of "variables", "full" and "none". The paper uses an
        interior point method ("ipm", with crossover to the vertex solution
        the sparseness results refer to; the default before 2026-11-25). The
        simplex method restarts from the previous basis in "variables" (IPM
        cannot), which makes "variables" and "full" several times faster at the
        same objective (timings in the package README). "row_column" always
        uses the (warm) simplex method.
    B0 : int, default=None
        Initial working-set size (>= 2, <= n_samples); None means
        ``min(100, n_samples)`` (``min(50, n_samples)`` initial columns for
        "row_column").
    B_max : int, default=None
        Maximum working-set size of eq. (17); None means n_samples.
    n_add : int, default=None
        Violators moved into the working set per iteration of Algorithm 2;
        None is the paper's ``1 + ceil(ln |B|)`` (Step 4 / eq. 17).
    tau : int, default=4
        Number of constraint blocks of Algorithm 3 (capped at the working-set size).
    t_max : int, default=4
        Algorithm 3's stall count: block solves with an unchanged objective
        after which the violated rows join the block LP.
    loop_limit : int, default=10
        The paper's ``l``: an index moved into the working set this many times
        stays there for good (Step 5, loop prevention).
    max_iter : int, default=1000
        Maximum number of outer (working-set) iterations.
    tol : float, default=1e-6
        Tolerance of the KKT (complementarity and dual feasibility) checks.
    time_limit : float, default=None
        Wall-clock budget in seconds of the whole fit (> 0; None: no limit),
        counted from the start of :meth:`fit`: every HiGHS call is limited to
        the time left, and no outer iteration, Algorithm 3 block solve,
        "row_column" round or subsample level starts after it. On expiry the
        current solution is kept (alpha = 0 outside the working set, xi
        reconstructed: feasible, not proven optimal; the zero function if no
        sub-LP finished), with a ``ConvergenceWarning`` and
        ``converged_ = False``. For :class:`LPSVC`, one budget covers all
        classes.
    random_state : int, RandomState instance or None, default=None
        Seed of the random initial working set.
    n_jobs : int, default=None
        Numba threads for kernel evaluations: None keeps Numba's current count (all
        cores unless set otherwise), a positive int caps it, -1 all.
    verbose : int, default=0
        Print one line per outer iteration.

    Attributes
    ----------
    dual_coef_ : ndarray of shape (1, n_SV)
        Coefficients ``alpha_i = alpha_i^+ - alpha_i^-`` of the support vectors.
    support_ : ndarray of shape (n_SV,)
        Indices of the samples with nonzero coefficient.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        Those samples.
    intercept_ : ndarray of shape (1,)
        ``b = b^+ - b^-``.
    objective_ : float
        Optimal value of the LP, :math:`\\|\\alpha\\|_1 + 2C\\sum_j s_j \\xi_j`.
    kkt_residuals_ : dict
        Largest violations of primal feasibility, dual feasibility and
        complementarity (6a)-(6d) of the full corrected LP, on all samples.
    saturated_support_ : ndarray of int
        Indices of the saturated support vectors (outside the tube,
        :math:`|d - f| > \\epsilon`).
    exact_support_ : ndarray of int
        Indices of the exact support vectors (on the tube's edge).
    history_ : list of dict
        One record per outer iteration: working-set size, sub-LP and full
        objectives, number of KKT violators, largest violation, number of
        permanent indices, cumulative time. For "row_column": one record per
        round (also of the subsample levels) with ``n_samples``,
        ``working_set_size`` (columns), ``n_rows``, ``sub_objective``,
        ``objective``, ``step`` and ``n_added``.
    block_objectives_ : list of list of float
        For "full": the block-LP optima of Algorithm 3 per outer iteration.
    converged_ : bool
        Whether every KKT condition holds at the end (False when
        ``time_limit`` stopped the fit).
    n_iter_ : int
        Number of completed outer iterations (1 for "none"; 0 when
        ``time_limit`` ran out before the first working-set LP was solved).
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen during fit (string feature names only).

    See Also
    --------
    LPSVC : The same LP used for classification.
    sklearn.svm.SVR : Quadratic-programming epsilon-SVR.

    Notes
    -----
    The LP, with the flaw of the printed problem (3) repaired (two surplus
    vectors instead of one shared ``u``; see the package README), is

    .. math::

        \\min_{\\alpha^\\pm, b^\\pm, \\xi \\ge 0}\\; \\sum_i (\\alpha_i^+ + \\alpha_i^-)
        + 2C \\sum_j s_j \\xi_j \\quad \\text{s.t.}\\quad
        |d_j - f(x_j)| \\le \\epsilon + \\xi_j,\\quad
        f(x) = \\sum_i (\\alpha_i^+ - \\alpha_i^-) k(x_i, x) + b^+ - b^- .

    ``sample_weight`` gives the per-sample costs :math:`C_j = C s_j` of the
    paper's eq. (10); zero-weight samples are dropped.

    Complexity of "row_column": one LP with :math:`|R|` rows (the tube
    constraints met so far, about the samples outside the tube) and
    :math:`2|P| + |R| + 1` columns (:math:`|P|` about the number of nonzero
    coefficients), an :math:`|R| \\times |P|` kernel block; each round's KKT
    check streams :math:`K(X, X_P)` and :math:`K(X, X_\\beta)` in row
    blocks. Of "variables"/"full": each working-set LP has :math:`2|B|` rows and
    :math:`3|B| + 2` columns with a dense :math:`|B| \\times |B|` kernel block;
    each KKT check streams :math:`K(X, X_{SV})` in row blocks (time
    :math:`O(N |B| m)`, memory :math:`O(\\text{block} \\cdot |B|)`). The working
    set must contain every sample outside the tube, so its size grows with
    the noise level relative to ``epsilon``. "none" needs the
    :math:`N \\times N` kernel.

    References
    ----------
    P. Rivas-Perea and J. Cota-Ruiz, "An algorithm for training a large scale
    support vector machine for regression based on linear programming and
    decomposition methods", Pattern Recognition Letters 34 (2013) 439-451.

    Examples
    --------
    >>> import numpy as np
    >>> from lpsvr import LPSVR
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-3, 3, size=(80, 1))
    >>> y = np.sinc(X[:, 0])
    >>> reg = LPSVR(C=10.0, epsilon=0.05, gamma=1.0, random_state=0).fit(X, y)
    >>> bool(np.abs(reg.predict(X) - y).max() <= 0.05 + 1e-6)
    True
    >>> reg.converged_, reg.support_.size < 80
    (True, True)
    """

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit the LP-SVR (within ``time_limit`` seconds when given).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample multipliers of C.

        Returns
        -------
        self : LPSVR
            Fitted estimator.
        """
        budget = TimeBudget(self.time_limit)
        X, y = validate_data(self, X, y, dtype=np.float64, order="C", y_numeric=True)
        y = np.asarray(y, dtype=np.float64)
        sw = check_sample_weight(sample_weight, X, dtype=np.float64)
        B0 = self._check_sizes(X.shape[0])
        kernel_params = self._kernel_params(X)
        res, kept = self._fit_one(X, y, sw, kernel_params, B0, budget)
        self._set_fitted(X, y, res, kept, kernel_params)
        return self

    def _set_fitted(self, X, y, res, kept, kernel_params):
        nz = np.flatnonzero(res.alpha)
        self.support_ = kept[nz]
        self.support_vectors_ = X[self.support_]
        self.dual_coef_ = res.alpha[nz][None, :]
        self.intercept_ = np.array([res.b])
        self.objective_ = res.objective
        self.kkt_residuals_ = res.kkt
        r = np.abs(y[kept] - res.f) - float(self.epsilon)
        edge = max(float(self.tol), 1e-9)
        self.saturated_support_ = kept[r > edge]
        self.exact_support_ = kept[np.abs(r) <= edge]
        self.history_ = res.history
        self.block_objectives_ = res.block_objectives
        self.converged_ = res.converged
        self.n_iter_ = res.n_iter
        self._kernel_params_ = kernel_params

    def _decision(self, X):
        if self.support_.size == 0:
            return np.full(X.shape[0], self.intercept_[0])
        out = kernel_matvec(
            X,
            self.support_vectors_,
            self.dual_coef_[0],
            **self._kernel_params_,
            n_jobs=self._threads(),
        )
        return np.asarray(out, dtype=np.float64) + self.intercept_[0]

    def predict(self, X):
        """Predict ``f(x) = sum_i alpha_i k(x_i, x) + b``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            The regression function at each sample.
        """
        check_is_fitted(self)
        X = self._validate_X(X, reset=False)
        return self._decision(X)


class LPSVC(ClassifierMixin, _LPSVRParams):
    """Classification by LP-SVR regression on +-1 targets (one-vs-rest for more classes).

    The paper's classification experiments train the LP-SVR on class labels
    coded as -1/+1 and classify by the sign of the regression output; with
    more than two classes one LP-SVR per class separates it from the rest and
    the largest output wins.

    Parameters
    ----------
    C : float, default=1.0
        Cost of the epsilon-insensitive error (> 0), as in :class:`LPSVR`.
    epsilon : float, default=0.1
        Half-width of the insensitive tube around the -1/+1 targets (>= 0).
    kernel : {"rbf", "linear", "poly"}, default="rbf"
        Kernel, with scikit-learn's definitions.
    gamma : {"scale", "auto"} or float, default="scale"
        Coefficient of "rbf" and "poly", as in :class:`~sklearn.svm.SVC`.
    sigma : float, default=None
        The paper's RBF width: when given, ``gamma = 1 / (2 sigma^2)`` overrides
        ``gamma``.
    degree : int, default=3
        Degree of "poly".
    coef0 : float, default=0.0
        Independent term of "poly".
    decomposition : {"row_column", "full", "variables", "none"}, default="row_column"
        Training algorithm of each regressor, as in :class:`LPSVR`.
    method : {"simplex", "ipm", "choose"}, default="simplex"
        HiGHS LP method of "variables", "full" and "none", as in :class:`LPSVR`.
    B0 : int, default=None
        Initial working-set size, as in :class:`LPSVR`.
    B_max : int, default=None
        Maximum working-set size of eq. (17); None means n_samples.
    n_add : int, default=None
        Violators moved into the working set per iteration of Algorithm 2; None is
        the paper's ``1 + ceil(ln |B|)``.
    tau : int, default=4
        Number of constraint blocks of Algorithm 3.
    t_max : int, default=4
        Algorithm 3's stall count, as in :class:`LPSVR`.
    loop_limit : int, default=10
        The paper's ``l`` (loop prevention), as in :class:`LPSVR`.
    max_iter : int, default=1000
        Maximum number of outer (working-set) iterations of each regressor.
    tol : float, default=1e-6
        Tolerance of the KKT (complementarity and dual feasibility) checks.
    time_limit : float, default=None
        Wall-clock budget in seconds of the whole fit, all classes together (> 0;
        None: no limit); see :class:`LPSVR` for what happens on expiry.
    random_state : int, RandomState instance or None, default=None
        Seed of the random initial working sets.
    n_jobs : int, default=None
        Numba threads for kernel evaluations: None keeps Numba's current count (all
        cores unless set otherwise), a positive int caps it, -1 all.
    verbose : int, default=0
        Print one line per outer iteration.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    estimators_ : list of LPSVR
        One fitted regressor (binary: one, for ``classes_[1]`` vs ``classes_[0]``).
    converged_ : bool
        Whether every regressor converged (False when ``time_limit`` stopped
        the fit; the regressors after that are then the zero function).
    n_iter_ : int
        Largest number of outer iterations among the regressors.
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen during fit (string feature names only).

    See Also
    --------
    LPSVR : The regressor.
    sklearn.svm.SVC : Quadratic-programming SVM classifier.

    Notes
    -----
    Each regressor solves

    .. math::

        \\min \\|\\alpha\\|_1 + 2C\\sum_j s_j \\max(0, |t_j - f(x_j)| - \\epsilon),
        \\quad t_j \\in \\{-1, +1\\},

    so the cost is that of :class:`LPSVR` once per class (once for two classes).

    References
    ----------
    P. Rivas-Perea and J. Cota-Ruiz, Pattern Recognition Letters 34 (2013) 439-451.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from lpsvr import LPSVC
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = LPSVC(C=10.0, decomposition="none").fit(X, y)
    >>> clf.score(X, y) > 0.9
    True
    """

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit one LP-SVR per class (one in total for two classes), within one ``time_limit``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample multipliers of C.

        Returns
        -------
        self : LPSVC
            Fitted estimator.
        """
        budget = TimeBudget(self.time_limit)
        X, y = validate_data(self, X, y, dtype=np.float64, order="C")
        check_classification_targets(y)
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        if self.classes_.size < 2:
            raise ValueError(
                f"LPSVC needs samples of at least 2 classes; got 1 class ({self.classes_[0]})."
            )
        sw = check_sample_weight(sample_weight, X, dtype=np.float64)
        B0 = self._check_sizes(X.shape[0])
        kernel_params = self._kernel_params(X)
        positives = [1] if self.classes_.size == 2 else range(self.classes_.size)
        self.estimators_ = []
        for k in positives:
            target = np.where(y_idx == k, 1.0, -1.0)
            reg = LPSVR(**self.get_params())
            res, kept = reg._fit_one(X, target, sw, kernel_params, B0, budget)
            reg._set_fitted(X, target, res, kept, kernel_params)
            reg.n_features_in_ = X.shape[1]
            self.estimators_.append(reg)
        self.n_iter_ = max(reg.n_iter_ for reg in self.estimators_)
        self.converged_ = all(reg.converged_ for reg in self.estimators_)
        return self

    def decision_function(self, X):
        """Regression outputs: positive favours ``classes_[1]`` (binary case).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        scores : ndarray of shape (n_samples,) or (n_samples, n_classes)
            The regression output of each regressor (one column per class for more
            than two classes).
        """
        check_is_fitted(self)
        X = self._validate_X(X, reset=False)
        scores = np.column_stack([reg._decision(X) for reg in self.estimators_])
        return scores[:, 0] if self.classes_.size == 2 else scores

    def predict(self, X):
        """Predict class labels.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            The class of the largest output (binary: ``classes_[1]`` where it is positive).
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]
