"""AIDLADRegressor's per-row steps, written once for every data source.

The residual points of the initial clustering, the residual codes of the evaluation and
the chunked initial clustering on a :class:`aid_core.DaskSource`, where the cluster
labels stay next to the rows as a persisted Dask array
(:class:`svmcore.clustering.ChunkedClusters`) and only K-sized results reach the
caller. Every per-row value is computed by the same expression on the same row as in
memory (``_lad.py``), so the labels are the in-memory path's up to the order in which
the k-means centroid sums are added.
"""

from __future__ import annotations

import functools

import numpy as np

from svmcore.clustering import (
    CentreIndex,
    ChunkedClusters,
    centre_sums,
    moved_centres,
    nearest_centre,
)

from ._codes import residual_codes

__all__ = ["chunked_initial_clusters", "lad_points", "lad_predict", "residual_block"]


def lad_predict(X, beta, fit_intercept):
    """``X @ beta`` with the intercept as the last entry of ``beta`` when fitted."""
    if fit_intercept:
        return X @ beta[:-1] + beta[-1]
    return X @ beta


def lad_points(block, beta, fit_intercept):
    """The points ``(r, y)`` of a block's rows that sec. 4's k-means clusters (r = y - x beta)."""
    return np.column_stack([block.y - lad_predict(block.X, beta, fit_intercept), block.y])


def residual_block(block, beta, fit_intercept):
    """A block's one-byte residual codes and its share of ``E`` (``sum s_i |r_i|``).

    The codes are what the declustering reads (kept where they are made on a Dask
    worker); the partial sum is what travels back.
    """
    return residual_codes(block.y, lad_predict(block.X, beta, fit_intercept), block.weights)


def chunked_initial_clusters(data, beta, fit_intercept, seeds):
    """Sec. 4's initial clustering (one k-means iteration on ``(r, y)``), labels on the workers.

    ``kmeans_one_iteration`` split into row maps: one reduction sums the points of each
    seed centre (:func:`svmcore.clustering.centre_sums`: K-sized sums and counts come
    back), and one map assigns each chunk's rows to the moved centres and keeps the
    labels where the rows are. No per-row array reaches the caller and no task carries
    one.

    Parameters
    ----------
    data : aid_core.DaskSource
        The rows.
    beta : ndarray
        The pilot coefficients (intercept last when fitted).
    fit_intercept : bool
        Whether ``beta`` has an intercept.
    seeds : ndarray of shape (k, 2)
        The initial centres: the points of the rows
        :func:`svmcore.clustering.kmeans_seed_rows` drew, in draw order.

    Returns
    -------
    svmcore.clustering.ChunkedClusters
        The compact partition (centres that lost all their rows dropped, as in memory).
    """
    model = {"beta": beta, "fit_intercept": fit_intercept}
    # The centres' search structure (sorted strips) is built once here, not in each of
    # the chunks' tasks (128 times per pass at 64M rows, 14 ms each for 32,000 centres).
    sums, counts = data.reduce_blocks(
        functools.partial(_seed_sums, **model), shared=(CentreIndex(seeds),)
    )
    centres = moved_centres(sums, counts)
    raw, parts = data.map_kept(
        functools.partial(_assign, **model), dtype=np.int32, shared=(CentreIndex(centres),)
    )
    # Counts are integers: their sum does not depend on the order.
    return ChunkedClusters.compacted(raw, np.sum(parts, axis=0))


def _seed_sums(block, seeds, *, beta, fit_intercept):
    return centre_sums(lad_points(block, beta, fit_intercept), seeds)


def _assign(block, centres, *, beta, fit_intercept):
    raw = nearest_centre(lad_points(block, beta, fit_intercept), centres).astype(np.int32)
    return raw, np.bincount(raw, minlength=centres.centres.shape[0])
