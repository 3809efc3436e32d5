"""Cluster bookkeeping: labels, sizes, per-cluster sums and means, O(n) splits."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..typing import ArrayLike, MatrixLike
from ..validation import check_float_array, check_indices
from ._label_passes import mixed_groups, split_by_key
from ._sums import group_sums

__all__ = ["Clusters"]


#: Identities of partitions, so that a cache of per-cluster results can tell its own.
_TOKENS = itertools.count()


def _as_labels(labels, name):
    labels = np.asarray(labels)
    if labels.ndim != 1:
        raise ValueError(f"{name} must be 1-d, got shape {labels.shape}.")
    if labels.size == 0:
        raise ValueError(f"{name} is empty: at least one sample is needed.")
    if labels.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, got dtype {labels.dtype}.")
    return labels.astype(np.int64, copy=False)


def _compact(values):
    """Map integers to 0..K-1 preserving order: ``(labels, K, sizes)``.

    O(n + range) by bincount (no copy when the values are already ``0..K-1``, all used:
    the labels every split produces), else by sorting.
    """
    lo = int(values.min())
    span = int(values.max()) - lo + 1
    if span <= 4 * values.size + 1024:
        counts = np.bincount(values if lo == 0 else values - lo, minlength=span)
        present = counts > 0
        if lo == 0 and present.all():
            return values, span, counts
        new_id = np.cumsum(present) - 1
        return new_id[values - lo], int(present.sum()), counts[present]
    uniq, inverse = np.unique(values, return_inverse=True)
    inverse = inverse.astype(np.int64)
    return inverse, int(uniq.size), np.bincount(inverse, minlength=uniq.size)


class Clusters:
    """A partition of ``n`` samples into ``K`` non-empty clusters.

    Parameters
    ----------
    labels : array-like of int, shape (n_samples,)
        Cluster of each sample. Any integers; they are compacted to
        ``0..K-1`` preserving their order (so ``0..K-1`` labels are kept as is).

    Attributes
    ----------
    labels : ndarray of shape (n_samples,), int64
        Compact cluster labels (read-only).
    n_clusters : int
        Number of clusters ``K``.
    n_samples : int
        Number of samples ``n``.
    sizes : ndarray of shape (n_clusters,), int64
        ``|C_k|`` (all positive).
    token : int
        This partition's identity (unique in the process).
    parent_token : int or None
        The ``token`` of the partition :meth:`split` made this one from, else None.
    changed : ndarray of int64 or None
        With ``parent_token``: the clusters whose members differ from the parent's
        cluster of the same id (the ids that split, and every new id); any other
        cluster has exactly its parent's members.
    parent : ndarray of shape (n_clusters,), int64, or None
        With ``parent_token``: the parent partition's cluster each cluster was split
        from (``parent[k] = k`` for the ids the parent had), so that per-cluster
        results of the parent map to this partition without a pass over the labels.

    Notes
    -----
    Construction, :meth:`sums`, :meth:`means` and :meth:`split` are O(n)
    (O(nnz) for CSR data) with vectorized numpy; :meth:`members` is O(|C_k|)
    after a one-off O(n log n) sort.

    Examples
    --------
    >>> import numpy as np
    >>> c = Clusters([0, 0, 1, 1, 1])
    >>> c.sizes.tolist(), c.means(np.arange(5.0)).tolist()
    ([2, 3], [0.5, 3.0])
    >>> new, split = c.split([1, -1, 0, 0, 1])
    >>> new.labels.tolist(), split.tolist()
    ([2, 0, 1, 1, 3], [0, 1])
    """

    def __init__(self, labels: ArrayLike) -> None:
        labels, n_clusters, sizes = _compact(_as_labels(labels, "labels"))
        labels.flags.writeable = False
        self.labels = labels
        self.n_clusters = n_clusters
        self.n_samples = labels.size
        self.sizes = sizes.astype(np.int64, copy=False)
        self.sizes.flags.writeable = False
        self.token = next(_TOKENS)
        self.parent_token: int | None = None
        self.changed: np.ndarray | None = None
        self.parent: np.ndarray | None = None
        self._order: np.ndarray | None = None
        self._starts = np.zeros(0, dtype=np.intp)

    def __repr__(self) -> str:
        return f"Clusters(n_samples={self.n_samples}, n_clusters={self.n_clusters})"

    def __len__(self) -> int:
        return self.n_clusters

    @property
    def label_rows(self) -> Any:
        """The labels where they live: ``labels`` here, a Dask array for ``ChunkedClusters``."""
        return self.labels

    def indicator(self) -> Any:
        """Membership matrix ``E`` (CSR, ``n x K``): ``E[i, k] = 1`` iff ``i`` in ``C_k``."""
        n = self.n_samples
        return sp.csr_matrix(
            (np.ones(n), self.labels, np.arange(n + 1)), shape=(n, self.n_clusters)
        )

    def _check_data(self, X):
        if sp.issparse(X):
            X = check_float_array(X, "X", accept_sparse=True)
        else:
            X = np.asarray(X)
            X = check_float_array(X, "X", ndim=X.ndim if X.ndim in (1, 2) else 2)
        if X.shape[0] != self.n_samples:
            raise ValueError(
                f"X has {X.shape[0]} rows but the clusters cover {self.n_samples} samples."
            )
        return X

    def sums(self, X: MatrixLike) -> Any:
        """Per-cluster sums ``sum_{i in C_k} x_i``.

        Parameters
        ----------
        X : {ndarray, sparse matrix} of shape (n_samples,) or (n_samples, n_features)
            Dense (1-d or 2-d) or CSR data.

        Returns
        -------
        sums : ndarray of shape (n_clusters,) or (n_clusters, n_features), or CSR
            Same kind as ``X`` (CSR stays CSR so wide sparse data stays small);
            float32 input gives float32 sums.
        """
        X = self._check_data(X)
        if X.ndim == 1:
            return np.bincount(self.labels, weights=X, minlength=self.n_clusters).astype(
                X.dtype, copy=False
            )
        if not sp.issparse(X):  # one Numba pass over the rows (group_sums)
            return group_sums(X, self.labels, self.n_clusters).astype(X.dtype, copy=False)
        return (self.indicator().astype(X.dtype).T.tocsr() @ X).tocsr()

    def means(self, X: MatrixLike) -> Any:
        """Per-cluster means (the AID paper's aggregated data ``x_k^t``); see :meth:`sums`."""
        S = self.sums(X)
        inv = (1.0 / self.sizes).astype(S.dtype)
        if sp.issparse(S):
            return sp.diags(inv).tocsr() @ S
        return S * (inv if S.ndim == 1 else inv[:, None])

    def members(self, k: int) -> np.ndarray:
        """Indices of the samples in cluster ``k`` (ascending)."""
        k = int(check_indices(np.array([k]), "k", self.n_clusters)[0])
        if self._order is None:
            self._order = np.argsort(self.labels, kind="stable")
            self._starts = np.concatenate([[0], np.cumsum(self.sizes)])
        return self._order[self._starts[k] : self._starts[k + 1]]

    def split(
        self, key: ArrayLike, clusters: ArrayLike | None = None
    ) -> tuple[Clusters, np.ndarray]:
        """Split clusters by an integer per-sample key (AID's declustering).

        Parameters
        ----------
        key : array-like of int, shape (n_samples,)
            E.g. the sign of the residual (LAD), the side of the margin (SVM),
            or a 4-way key (S3VM).
        clusters : array-like of int, default=None
            The clusters allowed to split (all if None); the others are kept
            whole whatever their keys.

        Returns
        -------
        new : Clusters
            Cluster ``k`` keeps its id for the members with its smallest key
            value; every further (cluster, key) group of a split cluster gets a
            new id ``K, K+1, ...`` in the order of (old cluster, key).
        split : ndarray of int
            Ids of the clusters that actually split (more than one key value
            among their members), ascending.

        Notes
        -----
        O(n + K * n_keys) in two Numba passes over the labels when the key range
        is small (the usual case), O(n log n) by sorting combined (cluster, key)
        codes otherwise.
        """
        key = _as_labels(key, "key")
        if key.size != self.n_samples:
            raise ValueError(f"key must have {self.n_samples} entries, got {key.size}.")
        n_keys = int(key.max()) - int(key.min()) + 1
        if n_keys > 4 * key.size + 1024:
            key, n_keys, _ = _compact(key)
        elif key.min() != 0:
            key = key - key.min()
        K = self.n_clusters
        allowed = np.ones(K, dtype=bool)
        if clusters is not None:
            clusters = check_indices(clusters, "clusters", K)
            allowed[:] = False
            allowed[clusters] = True
        if K * n_keys <= 4 * key.size + 1024:  # the usual case: one Numba pass each way
            labels, split, parent = split_by_key(self.labels, key, allowed, K, n_keys)
            return self._child(labels, split, parent), split
        key = np.where(allowed[self.labels], key, 0)
        code = self.labels * n_keys + key
        present, inverse = np.unique(code, return_inverse=True)
        row = present // n_keys
        first = np.r_[True, row[1:] != row[:-1]]
        new_id = np.where(first, row, K + np.cumsum(~first) - 1)
        labels = new_id[inverse]
        split = np.unique(row[~first])
        parent = np.empty(new_id.size, dtype=np.int64)
        parent[new_id] = row
        return self._child(labels, split, parent), split

    def split_violated(
        self, key: ArrayLike, free: ArrayLike | None = None
    ) -> tuple[Clusters, np.ndarray]:
        """AID's declustering: split every cluster whose non-free members carry more than one key.

        A cluster is mixed when its members other than the ``free`` ones carry more than
        one key (:func:`mixed_groups`); the mixed clusters are split by :meth:`split`
        (``free`` members go with their own key). :class:`ChunkedClusters` does the same
        where its labels live.

        Parameters
        ----------
        key : array-like of int, shape (n_samples,)
            Per-sample key.
        free : array-like of bool, shape (n_samples,), or None, default=None
            Samples that never make a cluster mixed.

        Returns
        -------
        new : Clusters
            The split partition (``self`` when nothing is mixed).
        violated : ndarray of int64
            The mixed clusters, ascending.
        """
        key = np.asarray(key)
        free = None if free is None else np.asarray(free, dtype=bool)
        violated = mixed_groups(self.labels, key, self.n_clusters, free)
        if violated.size == 0:
            return self, violated
        new, _ = self.split(key, clusters=violated)
        return new, violated

    def _child(self, labels, split, parent):
        """The partition split from this one, knowing which clusters changed."""
        return self._lineage(Clusters(labels), split, parent)

    def _lineage(self, new, split, parent):
        new.parent_token = self.token
        new.changed = np.concatenate([split, np.arange(self.n_clusters, new.n_clusters)])
        parent.flags.writeable = False
        new.parent = parent
        return new
