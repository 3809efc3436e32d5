"""Pieces shared by the AID models: aggregation rates, samples, run bookkeeping."""

from __future__ import annotations

import math
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from aid_core import run_aid
from svmcore.chunked import check_dask_data, gather_vector, map_predict, select_rows
from svmcore.validation import check_real

__all__ = [
    "dask_input",
    "initial_cluster_count",
    "lazy_predict",
    "run_estimator_aid",
    "sample_rows",
    "store_run",
]


def dask_input(estimator, X, y, sample_weight, *, classes=False, accept_sparse=True):
    """Validate Dask input in one pass (:func:`svmcore.chunked.check_dask_data`).

    Zero-weight rows are dropped, as on the in-memory path (a NumPy mask keeps the chunk
    sizes known). Returns ``(X, y, sample_weight, classes, keep)``: the Dask arrays for a
    :class:`aid_core.DaskSource`, the distinct targets when ``classes`` is set, and the
    mask of kept rows (None when every row is kept).
    """
    data = check_dask_data(
        X,
        y,
        sample_weight,
        estimator=type(estimator).__name__,
        accept_sparse=accept_sparse,
        classes=classes,
    )
    estimator.n_features_in_ = int(data.X.shape[1])
    X, y, w, keep = data.X, data.y, data.sample_weight, None
    if data.any_zero_weight:
        keep = gather_vector(w > 0)
        X, y, w = (select_rows(a, keep) for a in (X, y, w))
    return X, y, w, data.classes, keep


def lazy_predict(method, X, *, dtype=np.float64):
    """``method`` (a fitted estimator's predict/decision_function) on Dask ``X``, lazily."""
    return map_predict(method, X, dtype=dtype)


def run_estimator_aid(estimator, problem, data, seed):
    """:func:`aid_core.run_aid` with the estimator's stopping and reporting parameters."""
    return run_aid(
        problem,
        data,
        gap_tol=estimator.gap_tol,
        max_iter=estimator.max_iter,
        time_limit=estimator.time_limit,
        verbose=estimator.verbose,
        progress=estimator.progress,
        callback=estimator.callback,
        random_state=seed,
    )


def initial_cluster_count(rate, n_samples, minimum):
    """|K^0| = ceil(r^0 n), raised to ``minimum`` and capped at ``n_samples``."""
    check_real(rate, "initial_aggregation_rate", low=0.0, high=1.0, low_closed=False)
    return int(min(n_samples, max(minimum, math.ceil(rate * n_samples))))


def sample_rows(n_samples, size, rng):
    """Sorted indices of a uniform sample without replacement (all rows if size >= n)."""
    if size >= n_samples:
        return np.arange(n_samples)
    return np.sort(rng.choice(n_samples, size=size, replace=False))


#: The stop reasons at which AID has converged (the optimality condition or gap_tol).
CONVERGED = ("optimal", "gap")


#: What a run that the aggregated solves let down could not do, by stop reason.
_UNPROVEN = {
    "stalled": "no cluster violates the optimality condition, but the aggregated problem "
    "was not solved accurately enough to prove optimality within gap_tol (its solver "
    "stopped short, e.g. at a huge C)",
    "unsolved": "the aggregated problems could not be solved on several iterations in a "
    "row (certificate violated after every retry, or the solver gave up), so AID stopped "
    "early",
}


def store_run(estimator, result, n_samples, *, warn_budget=True, cause=None):
    """Copy an :class:`aid_core.AIDResult` into the estimator's fitted attributes.

    ``converged_`` is whether the run ended by the optimality condition or ``gap_tol``.
    A run ended by ``max_iter`` or ``time_limit`` warns (ConvergenceWarning naming the
    budget) unless ``warn_budget`` is False (the caller warns itself); a ``"stalled"``
    or ``"unsolved"`` run always warns, with ``cause()`` appended when given (a
    sentence naming the likely cause and its remedy, or "").
    """
    reason = result.stop_reason
    if reason in _UNPROVEN:
        gap_tol = getattr(estimator, "gap_tol", None)  # AIDS3VMClassifier has none
        above = "" if gap_tol is None else f" above gap_tol={gap_tol:g}"
        warnings.warn(
            f"{type(estimator).__name__}: {_UNPROVEN[reason]}; the model is the best "
            f"solution found, with certified gap {result.gap:.3g}{above} (converged_ = "
            f"False).{'' if cause is None else cause()}",
            ConvergenceWarning,
            stacklevel=3,
        )
    if warn_budget and reason in ("max_iter", "time_limit"):
        budget = (
            f"max_iter={estimator.max_iter} iterations"
            if reason == "max_iter"
            else f"time_limit={estimator.time_limit} s"
        )
        warnings.warn(
            f"{type(estimator).__name__} stopped on its {budget} before the optimality "
            f"condition or gap_tol held (certified gap {result.gap:.3g}); the model is "
            "the best solution found (converged_ = False, stop_reason_ = "
            f"{reason!r}).",
            ConvergenceWarning,
            stacklevel=3,
        )
    estimator.converged_ = reason in CONVERGED
    estimator.history_ = result.history
    estimator.n_iter_ = result.n_iter
    estimator.stop_reason_ = reason
    estimator.objective_ = float(result.evaluation.objective)
    estimator.lower_bound_ = float(result.lower_bound)
    estimator.optimality_gap_ = float(result.gap)
    estimator.n_clusters_ = int(result.clusters.n_clusters)
    estimator.aggregation_rate_ = result.clusters.n_clusters / n_samples
    estimator.init_time_ = float(result.init_time)
