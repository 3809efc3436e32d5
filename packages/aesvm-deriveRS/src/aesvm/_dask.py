"""AESVC on Dask arrays: DeriveRS per row chunk on the workers, the SVM on the driver.

Nothing here imports Dask: :mod:`svmcore.chunked` does, lazily, once a Dask collection
has actually been passed.
"""

from __future__ import annotations

import copy
import functools
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import scipy.sparse as sp

from svmcore.chunked import (
    RowBlocks,
    check_dask_data,
    distinct,
    is_dask_collection,
    map_predict,
)
from svmcore.validation import check_classification_targets, check_is_fitted

from ._chunks import chunk_diag_sum, chunk_representatives, chunk_sums
from ._derive import derive_rs
from ._representative_svm import fit_on_representatives

__all__ = ["MERGE_MIN_REPRESENTATIVES", "fit_dask", "lazy_on_dask"]

#: With several chunks, a union of their representatives of at least this many rows is
#: reduced once more by DeriveRS (AESVC's own floor for running DeriveRS at all).
MERGE_MIN_REPRESENTATIVES = 10_000

_Method = TypeVar("_Method", bound=Callable[..., Any])


def fit_dask(est, X, y, sample_weight):
    """``est.fit`` on a row-chunked ``dask.array.Array`` ``X`` (see AESVC's Notes).

    Passes over the data: the validation of :func:`check_dask_data`, ``X.var()`` for
    ``gamma="scale"``, the mean kernel diagonal for ``epsilon="auto"`` (not for
    ``rbf``, whose diagonal is 1) and DeriveRS, each chunk on its own, returning its
    representatives' rows, labels and betas; the SVMs are then trained on the driver.
    """
    if y is None:
        raise ValueError("AESVC requires y to be passed, but the target y is None.")
    data = check_dask_data(X, y, sample_weight, estimator="AESVC", accept_sparse=True, classes=True)
    check_classification_targets(data.classes)
    est.classes_ = data.classes
    weighted = data.classes
    if data.any_zero_weight:
        weighted = distinct(data.y[data.sample_weight > 0])
    est._check_classes(weighted)
    est.n_features_in_ = int(data.X.shape[1])
    vars(est).pop("feature_names_in_", None)
    blocks = RowBlocks(data.X, data.y, data.sample_weight)
    est._gamma = _gamma(est, data.X, blocks)
    est.epsilon_ = est._epsilon(functools.partial(_mean_diag, est, blocks))
    params = est._derive_params()
    start = time.perf_counter()
    task = functools.partial(
        chunk_representatives,
        est.classes_,
        params,
        est.n_jobs,
        not est._skips_derive(blocks.n_samples),
    )
    parts = blocks.map(task)
    rows, rep_parts, label_parts, beta_parts, kept_all = zip(*parts, strict=True)
    X_rep = sp.vstack(rows, format="csr") if data.sparse else np.concatenate(rows)
    rep, labels, beta = (np.concatenate(p) for p in (rep_parts, label_parts, beta_parts))
    if len(parts) > 1 and not all(kept_all) and rep.size >= MERGE_MIN_REPRESENTATIVES:
        X_rep, rep, labels, beta = _merge_level(est, params, X_rep, rep, labels, beta)
    est.derive_time_ = time.perf_counter() - start
    est.representatives_reused_ = False
    return fit_on_representatives(
        est, X_rep, rep, labels, beta, all(kept_all), derive={"n_samples": blocks.n_samples}
    )


def _merge_level(est, params, X_rep, rep, labels, beta):
    """DeriveRS once more over the union of the chunks' weighted representatives.

    Neighbouring chunks of one distribution each keep their own extreme points of the same
    regions, so the union grows with the number of chunks (two moons: ~0.6 % of the rows
    at any n). A second DeriveRS on the union, weighted by the first level's betas
    (``beta = Gamma^T beta_1``), keeps it near one chunk's size; a union it cannot reduce
    (stopped by the ``fallback_fraction`` probe) is kept as it is.
    """
    mine = {**params, "random_state": copy.deepcopy(params["random_state"])}
    rs = derive_rs(X_rep, labels, sample_weight=beta, n_jobs=est.n_jobs, bookkeeping=False, **mine)
    if rs is None:
        return X_rep, rep, labels, beta
    return X_rep[rs.indices], rep[rs.indices], rs.labels, rs.beta


def _gamma(est, X, blocks):
    """The numeric kernel coefficient; ``"scale"`` costs one pass (``X.var()``)."""
    if est.kernel == "linear":
        return 1.0
    if est.gamma == "auto":
        return 1.0 / X.shape[1]
    if est.gamma != "scale":
        return float(est.gamma)
    if sp.issparse(X._meta):  # E[x^2] - E[x]^2, as svmcore.kernels.resolve_gamma does
        total, squares = blocks.reduce(chunk_sums)
        size = X.shape[0] * X.shape[1]
        var = squares / size - (total / size) ** 2
    else:
        var = float(X.var(dtype=np.float64).compute())
    if not np.isfinite(var):
        raise ValueError("gamma='scale': X.var() overflows; scale X or pass a numeric gamma.")
    return 1.0 / (X.shape[1] * var) if var > 0.0 else 1.0


def _mean_diag(est, blocks):
    """Mean of k(x, x) over the rows: one pass, none for ``rbf`` (k(x, x) = 1)."""
    if est.kernel == "rbf":
        return 1.0
    task = functools.partial(chunk_diag_sum, est._kernel_params())
    return blocks.reduce(task) / blocks.n_samples


def lazy_on_dask(method: _Method) -> _Method:
    """Make a prediction method return a lazy Dask array when given a Dask array.

    The fitted model (small, plain NumPy) is sent with each task; every row chunk is
    predicted by ``method`` itself on NumPy (or CSR) rows.
    """

    @functools.wraps(method)
    def wrapper(est, X):
        if not is_dask_collection(X):
            return method(est, X)
        check_is_fitted(est)
        if X.ndim != 2 or X.shape[1] != est.n_features_in_:
            raise ValueError(
                f"X has shape {X.shape}; AESVC is fitted on {est.n_features_in_} features."
            )
        n_classes = est.classes_.size
        n_pairs = n_classes * (n_classes - 1) // 2
        if method.__name__ == "predict":
            dtype, n_outputs = est.classes_.dtype, None
        else:
            dtype = np.float64
            n_outputs = {"ovo": n_pairs, "ovr": n_classes}[est.decision_function_shape]
            n_outputs = None if n_classes == 2 else n_outputs
        return map_predict(functools.partial(method, est), X, dtype=dtype, n_outputs=n_outputs)

    return cast(_Method, wrapper)
