"""Step 6 of the paper: the weighted SVMs on the representative set, one per pair of classes.

Both of AESVC's paths end here: in memory after DeriveRS (or its fallback) and on Dask
after the chunks' representatives came back.
"""

from __future__ import annotations

import itertools
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from svmcore.reporting import History, TablePrinter
from svmcore.solvers import fit_weighted_svm

from ._report import AESVC_TABLE

__all__ = ["fit_on_representatives"]


def fit_on_representatives(
    est, X_rep, rep, rep_labels, beta, fallback, derive=None, n_unprocessed=0
):
    """Train the pairwise weighted SVMs on the representatives and set ``est``'s model.

    ``X_rep`` holds the rows ``rep`` of the training data (in that order), with labels
    ``rep_labels`` (indices into ``est.classes_``) and weights ``beta``; the caller has
    set ``derive_time_`` and ``representatives_reused_``. ``derive``: ``n_samples`` and
    ``n_groups`` of the DeriveRS record of ``history_`` (None: unknown).
    ``n_unprocessed``: the DeriveRS groups ``time_limit`` left unreduced. Returns ``est``.
    """
    if n_unprocessed:
        warnings.warn(
            f"AESVC: DeriveRS stopped on time_limit={est.time_limit} s with "
            f"{n_unprocessed} groups unprocessed; their samples are kept as they are "
            f"({rep.size} representatives), so the SVM solves a less reduced problem "
            "(a valid model; converged_ = False).",
            ConvergenceWarning,
            stacklevel=3,
        )
    show = TablePrinter(AESVC_TABLE, enabled=bool(est.verbose))
    est.history_ = History(table=AESVC_TABLE)
    record = {
        "phase": "derive",
        "n_samples": None,
        "n_groups": None,
        **(derive or {}),
        "n_representatives": int(rep.size),
        "fallback": bool(fallback),
        "reused": bool(est.representatives_reused_),
        "time": est.derive_time_,
    }
    est.history_.append(record)
    show(record)
    est.fallback_ = fallback
    est.representative_indices_ = rep
    est.beta_ = beta
    est.n_representatives_ = int(rep.size)
    start = time.perf_counter()
    pairs = list(itertools.combinations(range(est.classes_.size), 2))
    coefs = np.zeros((len(pairs), rep.size))
    intercepts, objectives, n_iters, converged = [], [], [], []
    for k, (i, j) in enumerate(pairs):
        pair_start = time.perf_counter()
        mask = (rep_labels == i) | (rep_labels == j)
        pos = np.flatnonzero(mask)
        y_pair = np.where(rep_labels[pos] == j, 1.0, -1.0)
        res = fit_weighted_svm(
            X_rep if pos.size == rep.size else X_rep[pos],
            y_pair,
            beta[pos],
            C=est.C,
            **est._kernel_params(),
            solver="libsvm",
            tol=est.tol,
            max_iter=est.max_iter,
            cache_size=est.cache_size,
            compute_objective=est.compute_objective,
            check_input=False,  # validated by AESVC.fit; betas are DeriveRS's
        )
        coefs[k, pos] = y_pair * res.dual_coef
        intercepts.append(res.intercept)
        objectives.append(res.objective)
        n_iters.append(res.n_iter)
        converged.append(res.converged)
        record = {
            "phase": "svm",
            "pair": tuple(est.classes_[[i, j]].tolist()),
            "n_samples": int(pos.size),
            "n_iter": int(res.n_iter),
            "n_support": int(np.count_nonzero(res.dual_coef)),
            "objective": float(res.objective),
            "time": time.perf_counter() - pair_start,
        }
        est.history_.append(record)
        show(record)
    est.svm_time_ = time.perf_counter() - start
    used = np.flatnonzero((coefs != 0).any(axis=0))
    used = used[np.argsort(rep[used], kind="stable")]  # support_ in row order
    est.support_ = rep[used]
    est.support_vectors_ = X_rep[used]
    est.dual_coef_ = coefs[:, used]
    est.intercept_ = np.asarray(intercepts)
    est.objective_ = np.asarray(objectives)
    est.n_iter_ = np.asarray(n_iters, dtype=np.int64)
    est.n_unprocessed_groups_ = int(n_unprocessed)
    est.converged_ = n_unprocessed == 0 and all(converged)
    return est
