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
from svmcore.clustering import (
    ChunkedClusters,
    centre_sums,
    moved_centres,
    nearest_centre,
    quantile_centres,
)

from ._codes import margin_codes

__all__ = [
    "chunked_duals",
    "chunked_initial_clusters",
    "class_cluster_count",
    "hyperplane_scores",
    "initial_centres",
    "margin_block",
    "score_sample_size",
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


#: Up to this many rows the initial centres are the exact quantiles of every row's score.
SCORE_SAMPLE_MIN = 100_000
#: Sampled scores per initial cluster above :data:`SCORE_SAMPLE_MIN` rows: adjacent
#: centres 64 sampled scores apart, so their spacing is off by about 1/8 (1/sqrt(64)).
SCORE_SAMPLE_PER_CLUSTER = 64


def score_sample_size(n_samples, k0):
    """Rows whose scores place the initial centres: all up to :data:`SCORE_SAMPLE_MIN`,
    else :data:`SCORE_SAMPLE_PER_CLUSTER` per initial cluster (at least the minimum)."""
    return min(n_samples, max(SCORE_SAMPLE_MIN, SCORE_SAMPLE_PER_CLUSTER * k0))


def class_cluster_count(k0, class_size, n_samples):
    """A class's share of the ``k0`` initial clusters (at least 1, at most its rows)."""
    return min(max(1, round(k0 * class_size / n_samples)), class_size)


def initial_centres(sampled, every, k):
    """1-D k-means' initial centres of a class: quantiles of its sampled scores.

    ``every`` (a callable) gives all the class's scores, asked only when the sample
    holds none of them (a class of a few rows in a large set).
    """
    return quantile_centres(sampled if sampled.size else every(), k)


def chunked_initial_clusters(data, coef, intercept, k0, score_rows):
    """The initial clustering of sec. 4 (1-D k-means per class) with labels on the workers.

    The in-memory path's steps as maps: the scores of the rows ``score_rows`` (a uniform
    sample, :func:`score_sample_size`) come to the caller split by class, and their
    quantiles are the initial centres (:func:`initial_centres`); one reduction sums each
    class's scores per nearest centre (K-sized, :func:`svmcore.clustering.centre_sums`),
    and one map assigns each chunk's rows to the moved centres and keeps the labels where
    the rows are. No per-row array of all rows reaches the caller (before 2026-11-27 all
    scores did: 8 bytes a row, +1.2 GB on the caller at 64M rows). The labels equal the
    in-memory path's up to the order in which the centres' sums are added.
    """
    import dask

    n, rows = data.n_samples, data.rows
    sizes = dask.compute(*[(rows.y == cls).sum() for cls in CLASSES])
    parts = rows.map_rows_at(score_rows, _sampled_scores, shared=(coef, intercept))
    inits = []
    for c, cls in enumerate(CLASSES):
        k = class_cluster_count(k0, int(sizes[c]), n)
        sampled = np.concatenate([p[c] for p in parts])
        every = functools.partial(_every_score, data, coef, intercept, cls)
        inits.append(initial_centres(sampled, every, k))
    del parts
    k_total = sum(c.shape[0] for c in inits)
    sums = data.reduce_blocks(
        _class_centre_sums, shared=(tuple(inits), coef, intercept), part_bytes=16.0 * k_total
    )
    centres = [moved_centres(sums[2 * c], sums[2 * c + 1]) for c in range(len(CLASSES))]
    offsets = np.cumsum([0] + [c.shape[0] for c in centres])
    raw, counts = data.map_kept(
        functools.partial(_assign_classes, coef=coef, intercept=intercept, n_raw=int(offsets[-1])),
        dtype=np.int32,
        shared=(tuple(centres), tuple(int(o) for o in offsets[:-1])),
    )
    total = counts[0]
    for part in counts[1:]:
        total = add_parts(total, part)
    # A centre can lose all its rows in the second assignment: compacted as in memory.
    return ChunkedClusters.compacted(raw, total)


def _sampled_scores(start, X, y, w, rows, coef, intercept):
    d = hyperplane_scores(X[rows], coef, intercept)
    y = np.asarray(y)[rows]
    return tuple(d[y == cls] for cls in CLASSES)


def _every_score(data, coef, intercept, cls):
    parts = data.map_blocks(
        functools.partial(_class_scores, coef=coef, intercept=intercept, cls=cls)
    )
    return np.concatenate(parts)


def _class_scores(block, coef, intercept, cls):
    return hyperplane_scores(block.X, coef, intercept)[block.y == cls]


def _class_centre_sums(block, inits, coef, intercept):
    """Per class: the sums and counts of its scores by nearest initial centre (k-means' move)."""
    d = hyperplane_scores(block.X, coef, intercept)
    out = []
    for cls, init in zip(CLASSES, inits, strict=True):
        z = d[block.y == cls]
        if z.size:
            out.extend(centre_sums(z, init))
        else:
            out.extend((np.zeros(init.shape), np.zeros(init.shape[0], dtype=np.int64)))
    return tuple(out)


def _assign_classes(block, centres, offsets, coef, intercept, n_raw):
    d = hyperplane_scores(block.X, coef, intercept)
    raw = np.empty(d.shape[0], dtype=np.int32)
    for cls, c, off in zip(CLASSES, centres, offsets, strict=True):
        rows = np.flatnonzero(block.y == cls)
        if rows.size:  # a chunk may hold no row of a class (nearest_centre needs one)
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
