"""AIDSVC's per-row steps where the rows live: labels on the workers, K-sized results back.

On a :class:`aid_core.DaskSource` the cluster labels are a persisted Dask array next to
the rows (:class:`svmcore.clustering.ChunkedClusters`): the initial clustering assigns
each chunk's rows to the centres there, and the dual coefficients of the fitted model
are expanded per chunk. The results equal the in-memory path's (``_svc_problem.py``,
``_svc.py``): every per-row value is computed by the same expression on the same row.
"""

from __future__ import annotations

import functools

import numpy as np

from svmcore.chunked import add_parts, compute_each, map_chunks, tree_sum
from svmcore.clustering import ChunkedClusters, kmeans_centres, nearest_centre

from ._codes import margin_codes

__all__ = [
    "chunked_duals",
    "chunked_initial_clusters",
    "hyperplane_scores",
    "margin_block",
    "signed_targets",
]

#: The two classes in the order their clusters are numbered (class -1 first).
CLASSES = (-1.0, 1.0)


def hyperplane_scores(X, coef, intercept):
    """``X @ coef + intercept`` of a block (zeros without a hyperplane), as in memory."""
    if coef is None:
        return np.zeros(X.shape[0])
    return X @ coef + intercept


def signed_targets(y, positive, dtype=np.float64):
    """``+1`` where ``y`` is the positive class, ``-1`` elsewhere."""
    return np.where(y == positive, 1, -1).astype(dtype)


def margin_block(block, w, b):
    """A block's one-byte margin codes and its shares of the hinge loss and of the count
    of rows classified correctly (the codes are kept where they are made on a Dask worker)."""
    code, hinge, correct = margin_codes(np.asarray(block.X @ w).ravel() + b, block.y, block.weights)
    return code, (hinge, correct)


def chunked_initial_clusters(data, coef, intercept, k0):
    """The initial clustering of sec. 4 (1-D k-means per class) with labels on the workers.

    One map brings each chunk's scores to the caller split by class (what
    ``kmeans_one_iteration`` needs for its quantile centres and move step); a second map
    assigns each chunk's rows to the final centres where the rows are and keeps the
    labels there. The labels equal the in-memory path's: the same centres, and each
    row's nearest centre depends only on its own score.
    """
    n = data.n_samples
    parts = data.map_blocks(functools.partial(_class_scores, coef=coef, intercept=intercept))
    centres, offsets, offset = [], [], 0
    for c in range(len(CLASSES)):
        scores = np.concatenate([p[c] for p in parts])
        k_cls = max(1, round(k0 * scores.size / n))
        centres.append(kmeans_centres(scores, k_cls))
        offsets.append(offset)
        offset += centres[-1].shape[0]
    del parts, scores
    raw, counts = data.map_kept(
        functools.partial(_assign_classes, coef=coef, intercept=intercept, n_raw=offset),
        dtype=np.int32,
        shared=(tuple(centres), tuple(offsets)),
    )
    total = counts[0]
    for part in counts[1:]:
        total = add_parts(total, part)
    # A centre can lose all its rows in the second assignment: compacted as in memory.
    return ChunkedClusters.compacted(raw, total)


def _class_scores(block, coef, intercept):
    d = hyperplane_scores(block.X, coef, intercept)
    return tuple(d[block.y == cls] for cls in CLASSES)


def _assign_classes(block, centres, offsets, coef, intercept, n_raw):
    d = hyperplane_scores(block.X, coef, intercept)
    raw = np.empty(d.shape[0], dtype=np.int32)
    for cls, c, off in zip(CLASSES, centres, offsets, strict=True):
        rows = np.flatnonzero(block.y == cls)
        raw[rows] = nearest_centre(d[rows], c) + off
    return raw, np.bincount(raw, minlength=n_raw)


def chunked_duals(data, clusters, alpha_k):
    """AIDSVC's per-row dual coefficients, expanded per chunk on the workers.

    ``alpha_i = alpha_k s_i / W_k`` for row i of cluster k (``W_k = sum s_i``); only the
    rows with ``alpha_i > 0`` come back. Two maps over the labels, targets and weights
    (never the rows of ``X``).

    Returns
    -------
    support : ndarray of int64
        Rows with a positive coefficient, ascending.
    dual : ndarray
        ``alpha_i y_i`` of those rows.
    alpha_sum : float
        ``sum alpha_i``.
    """
    rows = data.rows
    chunks = rows.row_chunks
    tasks = map_chunks(
        _cluster_weights,
        clusters.label_rows,
        rows.sample_weight,
        row_chunks=chunks,
        shared=(clusters.n_clusters,),
    )
    W = tree_sum(tasks).compute()
    tasks = map_chunks(
        _chunk_duals,
        clusters.label_rows,
        rows.y,
        rows.sample_weight,
        row_chunks=chunks,
        shared=(alpha_k, W),
    )
    # Each chunk's support rows and duals leave its worker as soon as they are made.
    parts = compute_each(tasks)
    support = np.concatenate([p[0] + start for p, start in zip(parts, rows.starts, strict=False)])
    dual = np.concatenate([p[1] for p in parts])
    return support, dual, float(sum(p[2] for p in parts))


def _cluster_weights(labels, weights, n_clusters):
    return np.bincount(labels, weights=weights, minlength=n_clusters)


def _chunk_duals(labels, y, weights, alpha_k, W):
    w = np.ones(labels.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    alpha = alpha_k[labels] * w / W[labels]
    rows = np.flatnonzero(alpha > 0)
    return rows, alpha[rows] * y[rows], float(alpha.sum())
