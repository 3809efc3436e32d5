"""Pieces shared by the three linear classifiers: parameters, bias handling, prediction."""

from __future__ import annotations

import time
import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning

from svmcore import numba_threads
from svmcore.linalg import matvec_rows, power_of_two_scaling
from svmcore.solvers import TimeBudget
from svmcore.typing import MatrixLike
from svmcore.validation import (
    CachedParamNames,
    Interval,
    StrOptions,
    check_is_fitted,
    validate_data,
)

__all__ = ["LinearSVMLinMixin"]

#: The clock of every fit's time limit (seconds as a float); tests replace it.
_clock = time.perf_counter


class LinearSVMLinMixin(ClassifierMixin, CachedParamNames, BaseEstimator):
    """Common parameters and prediction of MFN, TSVM and MFA (not public)."""

    # Fitted attributes (declared for type checkers; set by fit).
    classes_: np.ndarray
    coef_: np.ndarray
    intercept_: np.ndarray

    _parameter_constraints: dict = {
        "alpha": [Interval(Real, 0.0, None, closed="neither")],
        "fit_intercept": ["boolean"],
        "regularize_intercept": ["boolean"],
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "tau": [Interval(Real, 0.0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "cg_max_iter": [Interval(Integral, 1, None, closed="left")],
        "preconditioner": [None, StrOptions({"jacobi"})],
        "time_limit": [None, Interval(Real, 0.0, None, closed="neither")],
        "n_jobs": [None, Integral],
        "verbose": ["verbose"],
    }

    def _lam(self, n_features):
        """lambda as a scalar, or a vector with 0 for an unregularized bias."""
        if self.fit_intercept and not self.regularize_intercept:
            lam = np.full(n_features + 1, float(self.alpha))
            lam[-1] = 0.0
            return lam
        return float(self.alpha)

    def _budget(self):
        """The fit's time budget (``time_limit`` seconds from now; None: no limit)."""
        return TimeBudget(self.time_limit, clock=_clock)

    def _warn_if_stopped(self, budget, converged=True):
        """``converged_`` and a ConvergenceWarning naming the time limit when it stopped the fit.

        ``converged``: whether the fit met its own stopping conditions (False when an
        iteration cap stopped it; the caller has warned about that cap).
        """
        self.converged_ = bool(converged) and not budget.exhausted
        if budget.exhausted:
            warnings.warn(
                f"{type(self).__name__} stopped on its time_limit={self.time_limit} s before "
                "converging; the model is the last feasible iterate (converged_ = False).",
                ConvergenceWarning,
                stacklevel=3,
            )

    def _scaled(self, X):
        """``(X', lambda', k)``: the same problem on data rescaled by ``2**-k`` when its
        entries are too large for the solvers' products (svmcore's power_of_two_scaling).

        ``w' = w 2**k`` on the features (the bias is not scaled), so ``lambda'`` is
        ``lambda 2**(-2k)`` on the features and the objective is unchanged; ``k = 0`` for
        ordinary data, which are then solved exactly as given.
        """
        n_features = X.shape[1]
        lam = self._lam(n_features)
        X_scaled, k = power_of_two_scaling(X)
        if k == 0:
            return X, lam, 0
        lam_vec = np.broadcast_to(np.asarray(lam, dtype=np.float64), (n_features + 1,)).copy()
        lam_vec[:n_features] = np.ldexp(lam_vec[:n_features], -2 * k)
        return X_scaled, (lam_vec if self.fit_intercept else lam_vec[:n_features]), k

    def _validate_X(self, X, *, reset):
        return validate_data(
            self,
            X,
            reset=reset,
            accept_sparse="csr",
            dtype=[np.float64, np.float32],
            order="C",
        )

    def _validate_Xy(self, X, y):
        return validate_data(
            self, X, y, accept_sparse="csr", dtype=[np.float64, np.float32], order="C"
        )

    def decision_function(self, X: MatrixLike) -> np.ndarray:
        """Signed distance-like score ``X @ coef_.T + intercept_``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Samples (CSR kept sparse, float32 kept).

        Returns
        -------
        scores : ndarray of shape (n_samples,) or (n_samples, n_classes)
            Positive values favour ``classes_[1]`` (binary case).
        """
        check_is_fitted(self)
        X = self._validate_X(X, reset=False)
        if X.shape[0] == 0:
            return np.zeros((0,) if self.coef_.shape[0] == 1 else (0, self.coef_.shape[0]))
        if sp.issparse(X):
            X.sum_duplicates()
        with numba_threads(self.n_jobs):
            scores = np.column_stack(
                [
                    matvec_rows(X, np.r_[coef, b], intercept=True)
                    for coef, b in zip(self.coef_, self.intercept_, strict=True)
                ]
            )
        return scores.ravel() if scores.shape[1] == 1 else scores

    def predict(self, X: MatrixLike) -> np.ndarray:
        """Predict class labels.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            Labels from ``classes_``.
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[scores.argmax(axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
