"""TSVMClassifier and MFAClassifier: semi-supervised linear SVMs (y == -1 is unlabeled)."""

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from svmcore import numba_threads
from svmcore.validation import (
    UNLABELED,
    Interval,
    check_classification_targets,
    check_sample_weight,
    fit_context,
    split_semi_supervised,
)

from ._base import LinearSVMLinMixin
from ._mfa import mean_field_annealing
from ._mfn import l2svm_mfn
from ._tsvm import transductive_mfn, tsvm_objective

__all__ = ["MFAClassifier", "TSVMClassifier"]


class _SemiSupervisedMixin(LinearSVMLinMixin):
    """Validation and bookkeeping shared by TSVM and MFA."""

    _parameter_constraints: dict = {
        **LinearSVMLinMixin._parameter_constraints,
        "alpha_unlabeled": [Interval(Real, 0.0, None, closed="left")],
        "positive_fraction": [None, Interval(Real, 0.0, 1.0, closed="neither")],
    }

    def _mfn_params(self):
        return {
            "tol": self.tol,
            "tau": self.tau,
            "max_iter": self.max_iter,
            "cg_max_iter": self.cg_max_iter,
            "preconditioner": self.preconditioner,
        }

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit on labeled and unlabeled samples.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Labeled and unlabeled samples; CSR is used as is, float32 is kept.
        y : array-like of shape (n_samples,)
            Two class labels, and -1 for unlabeled samples.
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample cost factors; :math:`l` and :math:`u` in the costs
            :math:`1/l` and :math:`\\lambda'/u` become the total labeled and
            unlabeled weights, so integer weights act like repeated samples in the
            objective (the balance constraint still counts samples).

        Returns
        -------
        self : object
            Fitted estimator.
        """
        X, y = self._validate_Xy(X, y)
        check_classification_targets(y)
        labeled_classes = np.unique(y[y != UNLABELED])
        if labeled_classes.size > 2:
            raise ValueError(
                "Only binary classification is supported: y must hold two classes besides "
                f"the unlabeled marker -1, got {labeled_classes.size}."
            )
        if labeled_classes.size < 2:
            raise ValueError(
                f"{type(self).__name__} needs labeled samples of 2 classes; got "
                f"{labeled_classes.size} class (y == -1 marks unlabeled samples)."
            )
        classes, y_signed, unlabeled = split_semi_supervised(y, require_unlabeled=False)
        weight = check_sample_weight(sample_weight, X, dtype=np.float64)
        if sp.issparse(X):
            X.sum_duplicates()
        labeled = ~unlabeled
        ys = y_signed.astype(np.float64)
        lam = self._lam(X.shape[1])
        r = self.positive_fraction
        if r is None:
            r = float((ys[labeled] > 0).mean())
        self.positive_fraction_ = r
        with numba_threads(self.n_jobs):
            if not unlabeled.any():
                # Nothing to transduce: the supervised problem with costs 1/l.
                res = l2svm_mfn(
                    X,
                    ys,
                    weight / weight[labeled].sum(),
                    lam,
                    intercept=self.fit_intercept,
                    **self._mfn_params(),
                )
                w, labels, history, n_iter = res.w, ys, res.history, res.n_iter
                objective = tsvm_objective(w, res.outputs, ys, labeled, lam, 0.0, weight)
                self._set_supervised_extras()
            else:
                w, labels, objective, history, n_iter = self._solve(X, ys, labeled, lam, r, weight)
        n_features = X.shape[1]
        self.classes_ = classes
        self.coef_ = np.ascontiguousarray(w[:n_features]).reshape(1, -1)
        self.intercept_ = np.array([w[n_features] if self.fit_intercept else 0.0])
        self.transduction_ = classes[(labels > 0).astype(int)]
        self.objective_ = objective
        self.history_ = history
        self.n_iter_ = n_iter
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


class TSVMClassifier(_SemiSupervisedMixin):
    r"""Transductive linear L2-SVM (TSVM) trained by L2-SVM-MFN, with multiple switching.

    Joachims-style TSVM for large sparse data: an L2-SVM-MFN fit on the labeled
    samples labels the unlabeled ones in the ratio :math:`r : 1-r`; then, as the
    unlabeled weight grows from ``anneal_start`` to ``alpha_unlabeled``, pairs of
    temporary labels are switched (up to ``max_switch`` per pass) while that
    decreases the objective, and the model is retrained with seeding.

    Parameters
    ----------
    alpha : float, default=1e-3
        :math:`\lambda`, regularization (the paper's experiments use 0.001).
    alpha_unlabeled : float, default=1.0
        :math:`\lambda'`, final weight of the unlabeled loss (SVMlin ``-U``).
    positive_fraction : float or None, default=None
        :math:`r`, fraction of unlabeled samples put in ``classes_[1]``; None
        estimates it from the labeled class ratio (SVMlin ``-R``).
    max_switch : int, default=10000
        :math:`S`, maximum pairs switched per pass: the paper's multiple switching
        (section 3.1.2), default SVMlin v1.0's ``-S 10000``. 1 is Joachims' TSVM
        (Table 4's listed default), an order of magnitude slower for nearly the same
        error (the paper's section 4).
    anneal_start : float, default=1e-5
        First value of :math:`\hat\lambda'`.
    anneal_factor : float, default=1.5
        Growth factor :math:`R` of :math:`\hat\lambda'`: SVMlin v1.0's rate (the
        paper's text says 2, which ended at a higher objective (7) on dense data).
    fit_intercept, regularize_intercept : bool, default=True
        Bias as a constant feature, regularized like SVMlin unless disabled.
    tol, tau : float, default=1e-6
        Tolerances of every L2-SVM-MFN retraining (Table 1).
    max_iter : int, default=50
        Newton iterations per retraining.
    cg_max_iter : int, default=10000
        CGLS iterations per Newton step.
    preconditioner : {None, "jacobi"}, default=None
        Jacobi-preconditioned CGLS (beyond the paper).
    n_jobs : int, default=None
        Numba threads.
    verbose : int, default=0
        Print the retraining history when positive.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two class labels.
    coef_ : ndarray of shape (1, n_features)
        Weights.
    intercept_ : ndarray of shape (1,)
        Bias.
    transduction_ : ndarray of shape (n_samples,)
        Labels of the training samples: the given ones and the final temporary
        labels of the unlabeled ones.
    positive_fraction_ : float
        The :math:`r` used.
    objective_ : float
        Objective (7) at ``alpha_unlabeled`` with ``transduction_``.
    n_iter_ : int
        Number of L2-SVM-MFN calls.
    n_switched_ : int
        Label pairs switched in total.
    history_ : list of dict
        One record per retraining (see :func:`l2svm_mfn._tsvm.transductive_mfn`).
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen during fit, when X has string column names.

    See Also
    --------
    MFNClassifier : The supervised solver used inside.
    MFAClassifier : Mean field annealing for the same objective.

    Notes
    -----
    With :math:`l` labeled and :math:`u` unlabeled samples, TSVM solves (7):

    .. math::

        \min_{w,\; y'\in\{-1,1\}^u} \frac{\lambda}{2}\|w\|^2
        + \frac{1}{2l}\sum_{i=1}^l \max(0, 1 - y_i w^T x_i)^2
        + \frac{\lambda'}{2u}\sum_{j=1}^u \max(0, 1 - y'_j w^T x'_j)^2
        \quad\text{s.t.}\quad \frac1u\sum_j [y'_j = 1] = r.

    Each switch pass strictly decreases the objective (the paper's Proposition),
    so the loops terminate. Cost: :math:`O(n_{switches}\,\bar t_{mfn}\,\bar t_{cgls}\,
    \mathrm{nnz}(X))` time, :math:`O(\mathrm{nnz}(X) + n + d)` memory.

    Deviations: Table 4 stops once :math:`\hat\lambda' \ge \lambda'` without a
    round at :math:`\lambda'` itself; like SVMlin v1.0 we cap the last value at
    :math:`\lambda'` and run that round, so the result optimizes (7) at the
    requested :math:`\lambda'`. The number of positive temporary labels is
    ``round(r * u)``. Every retraining after the first transductive one (which starts
    from :math:`w = 0`, as in Table 4) is seeded. Defaults are SVMlin v1.0's where the
    paper's differ: ``max_switch=10000`` (Table 4 lists S = 1) and ``anneal_factor=1.5``
    (section 3.1.1 says 2).

    References
    ----------
    V. Sindhwani and S. S. Keerthi, "Large scale semi-supervised linear SVMs",
    SIGIR 2006, section 3.1 and Table 4. T. Joachims, "Transductive inference for
    text classification using support vector machines", ICML 1999.

    Examples
    --------
    >>> import numpy as np
    >>> from l2svm_mfn import TSVMClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(-2, 1, (50, 2)), rng.normal(2, 1, (50, 2))]
    >>> y = np.full(100, -1)
    >>> y[:3], y[50:53] = 0, 1
    >>> clf = TSVMClassifier().fit(X, y)
    >>> float((clf.transduction_ == np.repeat([0, 1], 50)).mean()) > 0.9
    True
    """

    _parameter_constraints: dict = {
        **_SemiSupervisedMixin._parameter_constraints,
        "max_switch": [Interval(Integral, 1, None, closed="left")],
        "anneal_start": [Interval(Real, 0.0, None, closed="neither")],
        "anneal_factor": [Interval(Real, 1.0, None, closed="neither")],
    }

    def __init__(
        self,
        *,
        alpha=1e-3,
        alpha_unlabeled=1.0,
        positive_fraction=None,
        max_switch=10000,
        anneal_start=1e-5,
        anneal_factor=1.5,
        fit_intercept=True,
        regularize_intercept=True,
        tol=1e-6,
        tau=1e-6,
        max_iter=50,
        cg_max_iter=10000,
        preconditioner=None,
        n_jobs=None,
        verbose=0,
    ):
        self.alpha = alpha
        self.alpha_unlabeled = alpha_unlabeled
        self.positive_fraction = positive_fraction
        self.max_switch = max_switch
        self.anneal_start = anneal_start
        self.anneal_factor = anneal_factor
        self.fit_intercept = fit_intercept
        self.regularize_intercept = regularize_intercept
        self.tol = tol
        self.tau = tau
        self.max_iter = max_iter
        self.cg_max_iter = cg_max_iter
        self.preconditioner = preconditioner
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _set_supervised_extras(self):
        self.n_switched_ = 0

    def _solve(self, X, ys, labeled, lam, r, weight):
        res = transductive_mfn(
            X,
            ys,
            labeled,
            lam,
            self.alpha_unlabeled,
            positive_fraction=r,
            max_switch=self.max_switch,
            anneal_start=self.anneal_start,
            anneal_factor=self.anneal_factor,
            sample_weight=weight,
            intercept=self.fit_intercept,
            mfn_params=self._mfn_params(),
        )
        if self.verbose:
            for rec in res.history:
                print(f"[TSVM] {rec}")
        if not all(rec["converged"] for rec in res.history):
            warnings.warn(
                "Some L2-SVM-MFN retrainings hit max_iter before meeting their optimality "
                "conditions; increase max_iter or cg_max_iter.",
                ConvergenceWarning,
                stacklevel=3,
            )
        self.n_switched_ = res.n_switched
        return res.w, res.labels, res.objective, res.history, res.n_mfn


class MFAClassifier(_SemiSupervisedMixin):
    r"""Semi-supervised linear L2-SVM by mean field annealing (MFA) with L2-SVM-MFN.

    Relaxes the unknown labels of the transductive SVM to beliefs :math:`p_j`,
    adds an entropy term at temperature :math:`T`, and tracks the minimizer while
    :math:`T` decreases, alternating an exact update of :math:`p` (under the class
    balance constraint) with a seeded L2-SVM-MFN fit of :math:`w`. Less prone to
    the local minima of :class:`TSVMClassifier`.

    Parameters
    ----------
    alpha : float, default=1e-3
        :math:`\lambda`, regularization.
    alpha_unlabeled : float, default=1.0
        :math:`\lambda'`, weight of the unlabeled loss.
    positive_fraction : float or None, default=None
        :math:`r` in the balance constraint (9); None estimates it from the
        labeled class ratio.
    temperature : float, default=10.0
        Initial temperature :math:`T_0` (Table 5).
    temperature_factor : float, default=1.5
        :math:`R`; the temperature is divided by it after each inner loop.
    anneal_tol : float, default=1e-6
        :math:`\epsilon` of the KL (16) and entropy (17) stopping rules.
    max_outer : int, default=30
        ``itermax1``, maximum temperatures.
    max_inner : int, default=100
        ``itermax2``, maximum alternations per temperature.
    fit_intercept, regularize_intercept : bool, default=True
        Bias as a constant feature, regularized like SVMlin unless disabled.
    tol : float, default=1e-6
        CGLS tolerance of OPTIMIZE-W.
    tau : float, default=1e-8
        Optimality tolerance of OPTIMIZE-W (Table 7).
    max_iter : int, default=50
        Newton iterations per OPTIMIZE-W.
    cg_max_iter : int, default=10000
        CGLS iterations per Newton step.
    preconditioner : {None, "jacobi"}, default=None
        Jacobi-preconditioned CGLS (beyond the paper).
    n_jobs : int, default=None
        Numba threads.
    verbose : int, default=0
        Print the annealing history when positive.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two class labels.
    coef_ : ndarray of shape (1, n_features)
        Weights of the path point with the smallest objective (18).
    intercept_ : ndarray of shape (1,)
        Bias of that point.
    transduction_ : ndarray of shape (n_samples,)
        Given labels, and for unlabeled samples the sign of the returned model's output.
    beliefs_ : ndarray of shape (n_unlabeled,)
        Final :math:`p_j` (probability of ``classes_[1]``) of the unlabeled samples.
    positive_fraction_ : float
        The :math:`r` used.
    objective_ : float
        Smallest objective (18) on the path (that of ``coef_``).
    n_iter_ : int
        Number of OPTIMIZE-W calls in the annealing loops.
    history_ : list of dict
        One record per inner iteration (``T``, ``kl``, ``objective``, root-finding stats).
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen during fit, when X has string column names.

    See Also
    --------
    TSVMClassifier : Label switching for the same objective.
    MFNClassifier : Supervised solver.

    Notes
    -----
    For fixed :math:`T`, minimizes (8) subject to (9):

    .. math::

        \frac{\lambda}{2}\|w\|^2 + \frac{1}{2l}\sum_i \max(0, 1 - y_i w^Tx_i)^2
        + \frac{\lambda'}{2u}\sum_j \big(p_j \max(0, 1 - w^Tx'_j)^2
        + (1-p_j)\max(0, 1 + w^Tx'_j)^2\big)
        + \frac{T}{2u}\sum_j \big(p_j\log p_j + (1-p_j)\log(1-p_j)\big),
        \quad \frac1u\sum_j p_j = r,

    and returns the iterate with the smallest objective (18),
    :math:`\frac{\lambda}{2}\|w\|^2 + \frac{1}{2l}\sum_i\max(0,1-y_iw^Tx_i)^2 +
    \frac{\lambda'}{2u}\sum_j\max(0, 1-|w^Tx'_j|)^2`. OPTIMIZE-W sees each
    unlabeled example once (eq. 13-14), so a call costs about one L2-SVM-MFN on
    :math:`l + u` rows; memory :math:`O(\mathrm{nnz}(X) + n + d)`.

    Deviations: the stopping rules are read as (16)-(17), mean KL and entropy per
    unlabeled example below ``anneal_tol`` (Table 5 prints ``kl > eps`` and
    ``h > eps``), both in bits as SVMlin v1.0 computes them, with beliefs clipped to
    :math:`[10^{-8}, 1 - 10^{-8}]` in the KL so that one underflowed belief does not
    make it infinite (the paper's "log" has no base; natural logarithms end every loop
    earlier and take another annealing path, 3.7 % above SVMlin's objective on a
    g241c-like set); Table 6 is read as its text defines :math:`B` and :math:`B'`
    (see :func:`l2svm_mfn._mfa.optimize_p`), with a genuine Newton branch.

    References
    ----------
    V. Sindhwani and S. S. Keerthi, "Large scale semi-supervised linear SVMs",
    SIGIR 2006, section 3.2 and Tables 5-7.

    Examples
    --------
    >>> import numpy as np
    >>> from l2svm_mfn import MFAClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(-2, 1, (50, 2)), rng.normal(2, 1, (50, 2))]
    >>> y = np.full(100, -1)
    >>> y[:3], y[50:53] = 0, 1
    >>> clf = MFAClassifier().fit(X, y)
    >>> float((clf.transduction_ == np.repeat([0, 1], 50)).mean()) > 0.9
    True
    """

    _parameter_constraints: dict = {
        **_SemiSupervisedMixin._parameter_constraints,
        "temperature": [Interval(Real, 0.0, None, closed="neither")],
        "temperature_factor": [Interval(Real, 1.0, None, closed="neither")],
        "anneal_tol": [Interval(Real, 0.0, None, closed="neither")],
        "max_outer": [Interval(Integral, 0, None, closed="left")],
        "max_inner": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        *,
        alpha=1e-3,
        alpha_unlabeled=1.0,
        positive_fraction=None,
        temperature=10.0,
        temperature_factor=1.5,
        anneal_tol=1e-6,
        max_outer=30,
        max_inner=100,
        fit_intercept=True,
        regularize_intercept=True,
        tol=1e-6,
        tau=1e-8,
        max_iter=50,
        cg_max_iter=10000,
        preconditioner=None,
        n_jobs=None,
        verbose=0,
    ):
        self.alpha = alpha
        self.alpha_unlabeled = alpha_unlabeled
        self.positive_fraction = positive_fraction
        self.temperature = temperature
        self.temperature_factor = temperature_factor
        self.anneal_tol = anneal_tol
        self.max_outer = max_outer
        self.max_inner = max_inner
        self.fit_intercept = fit_intercept
        self.regularize_intercept = regularize_intercept
        self.tol = tol
        self.tau = tau
        self.max_iter = max_iter
        self.cg_max_iter = cg_max_iter
        self.preconditioner = preconditioner
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _set_supervised_extras(self):
        self.beliefs_ = np.empty(0)

    def _solve(self, X, ys, labeled, lam, r, weight):
        res = mean_field_annealing(
            X,
            ys,
            labeled,
            lam,
            self.alpha_unlabeled,
            positive_fraction=r,
            T0=self.temperature,
            temperature_factor=self.temperature_factor,
            epsilon=self.anneal_tol,
            max_outer=self.max_outer,
            max_inner=self.max_inner,
            sample_weight=weight,
            intercept=self.fit_intercept,
            mfn_params=self._mfn_params(),
        )
        if self.verbose:
            for rec in res.history:
                print(f"[MFA] {rec}")
        self.beliefs_ = res.p
        labels = np.where(labeled, ys, np.where(res.outputs > 0, 1.0, -1.0))
        return res.w, labels, res.objective, res.history, res.n_iter
