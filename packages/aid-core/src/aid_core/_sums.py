"""Weighted per-cluster sums of the original data: AID's aggregation (one pass), and the
re-aggregation after a split that sums only the clusters it changed.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import scipy.sparse as sp

from svmcore.clustering import Clusters, group_totals

from ._data import Block, DataSource

__all__ = ["ClusterSums", "cluster_sums"]


def cluster_sums(
    source: DataSource, labels: np.ndarray, n_clusters: int, *, targets: bool = True
) -> tuple[Any, np.ndarray | None, np.ndarray]:
    """Weighted per-cluster sums in one pass: ``(sum s_i x_i, sum s_i y_i, sum s_i)``.

    Parameters
    ----------
    source : DataSource
        The original data, read in one pass over its blocks.
    labels : ndarray of shape (n_samples,) of int in ``[0, n_clusters)``
        Cluster of each sample.
    n_clusters : int
        Number of clusters K.
    targets : bool, default=True
        Whether to sum ``y`` too (``None`` is returned in its place otherwise).

    Returns
    -------
    X_sum : ndarray of shape (n_clusters, n_features), or CSR for sparse ``X``
        ``sum s_i x_i`` over each cluster's members.
    y_sum : ndarray of shape (n_clusters,) or None
        ``sum s_i y_i`` over each cluster's members; None when ``targets=False``.
    weight_sum : ndarray of shape (n_clusters,)
        ``sum s_i``, the total weight of each cluster (its size for unit weights).
    """
    total = source.reduce_blocks(
        functools.partial(_block_sums, n_clusters=n_clusters, targets=targets),
        labels,
        part_bytes=_part_bytes(source, n_clusters),
    )
    return _unpacked(total, targets)


class ClusterSums:
    """:func:`cluster_sums` of successive partitions, re-summing only what a split changed.

    AID splits a few clusters per iteration; every other cluster keeps exactly its
    members, so its sums are the previous ones. Called with a partition that
    :meth:`svmcore.clustering.Clusters.split` made from the one it summed last, it sums
    only the rows of the changed clusters (one pass that returns ``|changed|``-row
    partial sums instead of ``K``-row ones: at 64M rows and 10^5 clusters, megabytes per
    chunk instead of tens) and copies the rest. The results are bit for bit those of
    :func:`cluster_sums`: each cluster's rows are added in the same order, per block and
    across blocks.

    The one cache an :class:`AIDProblem` may keep between steps (the sums of the last
    partition it aggregated); a fresh instance per run.

    Parameters
    ----------
    targets : bool, default=True
        Whether to sum ``y`` too, as in :func:`cluster_sums`.
    """

    def __init__(self, *, targets: bool = True) -> None:
        self.targets = targets
        self._token: int | None = None
        self._sums: tuple[Any, np.ndarray | None, np.ndarray] | None = None

    def __call__(
        self, source: DataSource, clusters: Clusters
    ) -> tuple[Any, np.ndarray | None, np.ndarray]:
        """``(X_sum, y_sum, weight_sum)`` of ``clusters`` over ``source``."""
        if self._sums is not None and clusters.token == self._token:
            return self._sums
        # Re-summing the changed clusters pays when they are a minority (later
        # iterations); early splits touch most clusters, and a full pass is cheaper.
        changed = clusters.changed
        if (
            self._sums is None
            or clusters.parent_token != self._token
            or changed is None
            or 2 * changed.size > clusters.n_clusters
        ):
            sums = cluster_sums(
                source, clusters.label_rows, clusters.n_clusters, targets=self.targets
            )
        else:
            sums = self._update(source, clusters)
        for part in sums:  # kept for the next partition: callers must not write into them
            if isinstance(part, np.ndarray):
                part.flags.writeable = False
        self._token, self._sums = clusters.token, sums
        return sums

    def _update(self, source, clusters):
        assert self._sums is not None and clusters.changed is not None
        changed = clusters.changed
        # Per row: its cluster's position in `changed`, -1 for rows of unchanged clusters.
        position = np.full(clusters.n_clusters, -1, dtype=np.int64)
        position[changed] = np.arange(changed.size)
        part = _unpacked(
            source.reduce_blocks(
                functools.partial(_changed_sums, n_changed=changed.size, targets=self.targets),
                clusters.label_rows,
                shared=(position,),
                part_bytes=_part_bytes(source, changed.size),
            ),
            self.targets,
        )
        X_old, y_old, w_old = self._sums
        K = clusters.n_clusters
        if sp.issparse(X_old):  # stays sparse: wide text data would not fit densely
            kept = np.setdiff1d(np.arange(X_old.shape[0]), changed)
            take = sp.csr_matrix((np.ones(kept.size), (kept, kept)), (K, X_old.shape[0]))
            place = sp.csr_matrix(
                (np.ones(changed.size), (changed, np.arange(changed.size))), (K, changed.size)
            )
            X_new = (take @ X_old + place @ sp.csr_matrix(part[0])).tocsr()
        else:
            X_new = _grow(X_old, K)
            X_new[changed] = part[0]
        y_new = None
        if self.targets:
            y_new = _grow(y_old, K)
            y_new[changed] = part[1]
        w_new = _grow(w_old, K)
        w_new[changed] = part[2]
        return X_new, y_new, w_new


def _part_bytes(source, n_clusters):
    """Bytes of one block's dense sums: K x (d + 2) float64 (the sums of X, y and s)."""
    return 8.0 * n_clusters * (source.n_features + 2)


def _unpacked(total, targets):
    """``(X_sum, y_sum, weight_sum)`` of a reduction's total.

    Dense blocks sum into one table (:func:`svmcore.clustering.group_totals`: the sums of
    ``w x``, then ``w y`` when ``targets``, then ``w``); sparse ones into a tuple.
    """
    if isinstance(total, tuple):
        return total
    total = np.asarray(total)
    m = total.shape[1] - 1 - targets
    # Contiguous copies (K-sized, on the caller): callers' kernels take plain arrays.
    y_sum = np.ascontiguousarray(total[:, m]) if targets else None
    return np.ascontiguousarray(total[:, :m]), y_sum, np.ascontiguousarray(total[:, -1])


def _grow(a, n_rows):
    """A copy of the dense ``a`` with zero rows appended up to ``n_rows``."""
    a = np.asarray(a)
    out = np.zeros((n_rows,) + a.shape[1:], dtype=a.dtype)
    out[: a.shape[0]] = a
    return out


def _changed_sums(
    block: Block, labels: np.ndarray, position: np.ndarray, n_changed: int, targets: bool
):
    """One block's sums over the rows of changed clusters, indexed by ``position[labels]``."""
    position = position[labels]
    rows = np.flatnonzero(position >= 0)
    if targets and block.y is None:
        raise ValueError("cluster_sums(targets=True) needs a source with targets y.")
    if rows.size == 0:  # a block with no row of a changed cluster adds zeros
        m = block.X.shape[1]
        if not sp.issparse(block.X):
            return np.zeros((n_changed, m + 1 + targets))
        zeros = sp.csr_matrix((n_changed, m))
        return zeros, np.zeros(n_changed) if targets else None, np.zeros(n_changed)
    if sp.issparse(block.X):
        return _block_sums(block.rows(rows), position[rows], n_changed, targets)
    # Dense rows are summed in place, skipping the others (no copy of the block). Each
    # cluster's rows add up in row order, as in _block_sums.
    return group_totals(
        block.X,
        position,
        n_changed,
        block.weights,
        block.y if targets else None,
        skip_negative=True,
        check_input=False,
    )


def _block_sums(block: Block, labels: np.ndarray, n_clusters: int, targets: bool = True):
    """One block's share of :func:`cluster_sums` (``labels`` are the block's rows').

    One ``(K, m + 2)`` table for dense ``X`` (:func:`svmcore.clustering.group_totals`),
    ``(X_sum, y_sum, w_sum)`` for CSR.
    """
    if targets and block.y is None:
        raise ValueError("cluster_sums(targets=True) needs a source with targets y.")
    rows = block.X.shape[0]
    w = block.weights
    if sp.issparse(block.X):
        # A (K x rows) weighted indicator turns the group-by into one sparse product.
        S = sp.csr_matrix((w, (labels, np.arange(rows))), shape=(n_clusters, rows))
        part = S @ block.X
    else:  # one pass of a Numba kernel, 3-5x faster than the sparse product
        return group_totals(
            block.X, labels, n_clusters, w, block.y if targets else None, check_input=False
        )
    y_part = None
    if targets:
        y_part = np.bincount(labels, weights=w * block.y.astype(np.float64), minlength=n_clusters)
    return part, y_part, np.bincount(labels, weights=w, minlength=n_clusters)
