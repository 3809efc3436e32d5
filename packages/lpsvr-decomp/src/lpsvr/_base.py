"""What LPSVR and LPSVC share: the hyperparameters and their constraints (one constructor
for both), the kernel parameters (the paper's ``sigma`` or scikit-learn's ``gamma``), the
working-set size defaults and checks, the fit of one LP-SVR on given targets within a
time budget, which LPSVC runs once per class, and the fitted attributes it gives."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning

from svmcore.kernels import resolve_gamma
from svmcore.reporting import History, TablePrinter
from svmcore.typing import RandomStateLike
from svmcore.validation import CachedParamNames, Interval, StrOptions, validate_data

from ._report import history_table
from ._samples import ArraySamples
from ._variable_decomposition import fit_lp_svr

__all__: list[str] = []

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


class _LPSVRParams(CachedParamNames, BaseEstimator):
    """Constructor and shared helpers of LPSVR and LPSVC (not public)."""

    _parameter_constraints: dict = dict(_PARAMETER_CONSTRAINTS)

    def __init__(
        self,
        *,
        C: float = 1.0,
        epsilon: float = 0.1,
        kernel: str = "rbf",
        gamma: str | float = "scale",
        sigma: float | None = None,
        degree: int = 3,
        coef0: float = 0.0,
        decomposition: str = "row_column",
        method: str = "simplex",
        B0: int | None = None,
        B_max: int | None = None,
        n_add: int | None = None,
        tau: int = 4,
        t_max: int = 4,
        loop_limit: int = 10,
        max_iter: int = 1000,
        tol: float = 1e-6,
        time_limit: float | None = None,
        random_state: RandomStateLike = None,
        n_jobs: int | None = None,
        verbose: int = 0,
    ) -> None:
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

    def _kernel_params(self, X, gamma=None):
        """The kernel's parameters; ``gamma``: ``self.gamma`` already resolved on ``X``."""
        if self.sigma is not None:
            gamma = 1.0 / (2.0 * float(self.sigma) ** 2)  # the paper's exp(-|a-b|^2 / 2 sigma^2)
        elif gamma is None:
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

    def _fit_one(self, X, d, sample_weight, kernel_params, B0, budget, report=None):
        """Fit one LP-SVR on (X, d) within ``budget``; ``report`` as in ``_fit_samples``.

        Returns the decomposition's FitResult, the indices of the samples it was fitted
        on (nonzero weight; zero-weight samples have no cost and no role) and their store.
        """
        keep = sample_weight > 0
        cost = 2.0 * float(self.C) * sample_weight[keep]
        if keep.all():  # no copy of X (a boolean index copies even when it keeps every row)
            samples = ArraySamples(X, d, cost)
        else:
            samples = ArraySamples(X[keep], d[keep], cost)
        res = self._fit_samples(samples, kernel_params, B0, budget, report)
        return res, np.flatnonzero(keep), samples

    def _fit_samples(self, samples, kernel_params, B0, budget, report=None):
        """Fit one LP-SVR on a sample store (:mod:`lpsvr._samples`); returns the FitResult.

        ``report`` receives each history record; None: ``verbose``'s table of this
        estimator's decomposition.
        """
        if report is None:
            report = TablePrinter(history_table(self.decomposition), enabled=bool(self.verbose))
        res = fit_lp_svr(
            samples,
            None,
            None,
            epsilon=float(self.epsilon),
            kernel_params=kernel_params,
            decomposition=self.decomposition,
            method=self.method,
            B0=min(B0, samples.n),
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
            report=report,
        )
        if budget.exhausted and not res.converged:
            warnings.warn(
                f"LP-SVR ({self.decomposition!r}) stopped at time_limit={self.time_limit} s "
                "before convergence; the model is feasible (xi reconstructed) but not "
                "proven optimal.",
                ConvergenceWarning,
                stacklevel=4,
            )
        return res

    def _set_fitted(self, X_fit, res, kept, kernel_params):
        """Fitted attributes of one LP-SVR from its FitResult.

        ``X_fit``: the rows of the samples fitted (indexable by their indices), ``kept``:
        their indices in the training set (None: the same).
        """
        original = (lambda idx: idx) if kept is None else kept.__getitem__
        nz = np.flatnonzero(res.alpha)
        self.support_ = original(nz)
        self.support_vectors_ = X_fit[nz]
        self.dual_coef_ = res.alpha[nz][None, :]
        self.intercept_ = np.array([res.b])
        self.objective_ = res.objective
        self.kkt_residuals_ = res.kkt
        self.saturated_support_ = original(res.saturated)
        self.exact_support_ = original(res.exact)
        self.history_ = History(res.history, table=history_table(self.decomposition))
        self.block_objectives_ = res.block_objectives
        self.converged_ = res.converged
        self.n_iter_ = res.n_iter
        self._kernel_params_ = kernel_params

    # float64 throughout: the LP is solved in double precision, and kernel values
    # computed in float32 would make the KKT check disagree with the LP by round-off.
    def _validate_X(self, X, *, reset):
        return validate_data(self, X, reset=reset, dtype=np.float64, order="C")
