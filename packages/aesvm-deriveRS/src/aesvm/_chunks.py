"""The functions AESVC's Dask fit runs as tasks on the workers, one row chunk each.

Apart from :mod:`._dask` and the estimator, which import scikit-learn (and pandas with it,
about 68 MB): a worker imports a task's module to unpickle it, and nothing here needs them.
"""

from __future__ import annotations

import copy

import numpy as np

from svmcore.kernels import kernel_diag, working_dtype

from ._derive import derive_rs, every_row

__all__ = ["chunk_diag_sum", "chunk_representatives", "chunk_sums"]


def chunk_representatives(classes, params, n_jobs, derive, start, X, y, w):
    """DeriveRS on one row chunk (on a worker).

    Returns the representatives' rows of ``X``, their global row numbers, labels (indices
    into ``classes``) and betas, and whether every row of the chunk was kept (DeriveRS
    not run, or stopped by its ``abort_fraction`` probe).
    """
    y = np.searchsorted(classes, np.asarray(y))
    kernel = {key: params[key] for key in ("kernel", "gamma", "degree", "coef0")}
    X = X.astype(working_dtype(X, **kernel), copy=False)  # as AESVC.fit does
    rs = None
    if derive and X.shape[0]:
        # Every chunk starts from random_state's own state (a private copy: the threads
        # of one worker must not share a generator).
        mine = {**params, "random_state": copy.deepcopy(params["random_state"])}
        rs = derive_rs(X, y, sample_weight=w, n_jobs=n_jobs, bookkeeping=False, **mine)
    if rs is None:
        rep, beta = every_row(X.shape[0], w)
        return X, start + rep, y, beta, True
    return X[rs.indices], start + rs.indices, rs.labels, rs.beta, False


def chunk_sums(start, X, y, w):
    """``X.sum()`` and ``(X * X).sum()`` of one CSR row chunk, for ``gamma="scale"``."""
    return np.array([X.sum(), X.multiply(X).sum()], dtype=np.float64)


def chunk_diag_sum(kernel_params, start, X, y, w):
    """The sum of ``k(x, x)`` over one row chunk, for ``epsilon="auto"``."""
    return float(np.sum(kernel_diag(X, **kernel_params)))
