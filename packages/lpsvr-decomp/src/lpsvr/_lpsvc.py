"""LPSVC, the scikit-learn classifier of the paper's classification experiments: LP-SVR
regression on -1/+1 targets, one fitted :class:`~lpsvr.LPSVR` per class against the rest
(one in total for two classes), all within one time budget, classifying by the sign or the
largest regression output."""

from __future__ import annotations

from typing import Self

import numpy as np
from sklearn.base import ClassifierMixin

from svmcore.docstrings import fill_doc
from svmcore.reporting import History, TablePrinter
from svmcore.solvers import TimeBudget
from svmcore.typing import ArrayLike
from svmcore.validation import (
    check_classification_targets,
    check_is_fitted,
    check_sample_weight,
    fit_context,
    validate_data,
)

from ._base import _LPSVRParams
from ._docs import DOCS
from ._lpsvr import LPSVR
from ._report import history_table

__all__ = ["LPSVC"]


@fill_doc(DOCS)
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
    %(sigma_degree_coef0)s
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
    %(n_jobs)s
    verbose : int, default=0
        When positive, print a table as the fit runs: a header, then one line per
        outer iteration (round, for "row_column") of every regressor, with the columns
        of ``history_`` (``history_.to_table()`` gives the same text afterwards).

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
    history_ : svmcore.reporting.History
        The regressors' ``history_`` records in order, each with ``class`` (the class
        that regressor separates from the rest; ``classes_[1]`` for two classes).
    %(n_features_in_)s

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

    Beyond the paper (which is about regression): classification as LP-SVR on -1/+1
    targets, one-vs-rest for more classes, with the options of :class:`LPSVR`.

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
    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> Self:
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
        table = history_table(self.decomposition, per_class=True)
        show = TablePrinter(table, enabled=bool(self.verbose))
        self.history_ = History(table=table)
        for k in positives:
            target = np.where(y_idx == k, 1.0, -1.0)
            reg = LPSVR(**self.get_params())

            def report(record, c=self.classes_[k]):
                show({"class": c, **record})

            res, kept, samples = reg._fit_one(X, target, sw, kernel_params, B0, budget, report)
            reg._set_fitted(samples.X, res, kept, kernel_params)
            reg.n_features_in_ = X.shape[1]
            self.estimators_.append(reg)
            self.history_.extend({"class": self.classes_[k], **r} for r in reg.history_)
        self.n_iter_ = max(reg.n_iter_ for reg in self.estimators_)
        self.converged_ = all(reg.converged_ for reg in self.estimators_)
        return self

    def decision_function(self, X: ArrayLike) -> np.ndarray:
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

    def predict(self, X: ArrayLike) -> np.ndarray:
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
