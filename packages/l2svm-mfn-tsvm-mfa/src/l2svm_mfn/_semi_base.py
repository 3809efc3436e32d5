"""What TSVMClassifier and MFAClassifier share: input handling for unlabeled samples
(``y == unlabeled_value``, -1 by default), the class balance r, the fitted attributes of
the transductive fit, a ``score`` on the labeled samples only."""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Self

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from svmcore import numba_threads
from svmcore.model_selection import SemiSupervisedScoreMixin
from svmcore.reporting import History, TablePrinter
from svmcore.typing import ArrayLike, MatrixLike
from svmcore.validation import (
    Interval,
    check_sample_weight,
    fit_context,
    split_semi_supervised,
)

from ._base import LinearSVMLinMixin
from ._mfn import l2svm_mfn
from ._report import MFN_TABLE
from ._tsvm import tsvm_objective

__all__: list[str] = []


class _SemiSupervisedMixin(SemiSupervisedScoreMixin, LinearSVMLinMixin):
    """Validation, bookkeeping and ``score`` shared by TSVM and MFA."""

    _parameter_constraints: dict = {
        **LinearSVMLinMixin._parameter_constraints,
        "unlabeled_value": [None, Integral],
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
    def fit(self, X: MatrixLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> Self:
        """Fit on labeled and unlabeled samples.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Labeled and unlabeled samples; CSR is used as is, float32 is kept.
        y : array-like of shape (n_samples,)
            Two class labels, and ``unlabeled_value`` (-1 unless stated) for unlabeled
            samples; a y of exactly {-1, 0, 1} needs ``unlabeled_value``.
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
        classes, y_signed, unlabeled = split_semi_supervised(
            y, unlabeled_value=self.unlabeled_value, require_unlabeled=False
        )
        weight = check_sample_weight(sample_weight, X, dtype=np.float64)
        if sp.issparse(X):
            X.sum_duplicates()
        labeled = ~unlabeled
        ys = y_signed.astype(np.float64)
        del y_signed  # ys carries the labels from here (one n-sized array less)
        n_features = X.shape[1]
        X, lam, scale_exp = self._scaled(X)
        r = self.positive_fraction
        if r is None:
            r = float((ys[labeled] > 0).mean())
        self.positive_fraction_ = r
        budget = self._budget()
        # Without unlabeled samples the fit is one L2-SVM-MFN: MFN's table.
        table = self._history_table if unlabeled.any() else MFN_TABLE
        show = TablePrinter(table, enabled=bool(self.verbose))
        with numba_threads(self.n_jobs):
            if not unlabeled.any():
                # Nothing to transduce: the supervised problem with costs 1/l.
                res = l2svm_mfn(
                    X,
                    ys,
                    weight / weight[labeled].sum(),
                    lam,
                    intercept=self.fit_intercept,
                    budget=budget,
                    report=show,
                    **self._mfn_params(),
                )
                w, labels, history, n_iter = res.w, ys, res.history, res.n_iter
                objective = tsvm_objective(w, res.outputs, ys, labeled, lam, 0.0, weight)
                self._set_supervised_extras()
                converged = res.converged
                if not converged and not budget.exhausted:
                    warnings.warn(
                        f"L2-SVM-MFN did not meet its optimality conditions within "
                        f"max_iter={self.max_iter} Newton iterations; increase max_iter or "
                        "cg_max_iter.",
                        ConvergenceWarning,
                        stacklevel=3,
                    )
            else:
                w, labels, objective, history, n_iter, converged = self._solve(
                    X, ys, labeled, lam, r, weight, budget, show
                )
        self.classes_ = classes
        self.coef_ = np.ascontiguousarray(np.ldexp(w[:n_features], -scale_exp)).reshape(1, -1)
        self.intercept_ = np.array([w[n_features] if self.fit_intercept else 0.0])
        self.transduction_ = classes[(labels > 0).astype(int)]
        self.objective_ = objective
        self.history_ = History(history, table=table)
        self.n_iter_ = n_iter
        self._warn_if_stopped(budget, converged)
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags
