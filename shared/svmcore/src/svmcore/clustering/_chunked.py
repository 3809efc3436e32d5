"""A partition whose per-row labels live on Dask workers, next to the rows they label."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..typing import DaskArray
from ..validation import check_indices
from ._clusters import _TOKENS, Clusters
from ._label_passes import key_tally, relabel, split_lookup

__all__ = ["ChunkedClusters", "KeyTally"]

#: Widest range of key values a split by a Dask array of keys accepts.
_MAX_KEYS = 256


@dataclass(frozen=True)
class KeyTally:
    """A per-row key known on the caller by its (cluster, key) counts alone.

    Made by :meth:`ChunkedClusters.tally_map` in the pass that computes the keys, so the
    declustering needs no pass of its own; the rows' keys themselves are not kept but
    recomputed by ``make`` where the rows are, inside the next map over the data
    (:class:`svmcore.chunked.DeferredRows`).

    Parameters
    ----------
    tally : object
        The (cluster, key) counts and ``seen`` of all rows (an internal ``_Tally``).
    make : callable
        ``make(start, X_i, y_i, w_i)`` returns ``(key, free, part)`` of a chunk's rows,
        as given to :meth:`ChunkedClusters.tally_map`.
    blocks : svmcore.chunked.RowBlocks
        The data ``make`` reads.
    """

    tally: Any
    make: Callable
    blocks: Any


class ChunkedClusters(Clusters):
    """:class:`Clusters` with the labels kept as a persisted Dask array on the workers.

    The same partition as ``Clusters(labels)`` for the same labels, but a split reads
    the keys where they live (one map over the row chunks returning K-sized counts, one
    map writing the new labels next to the old ones) and only K-sized arrays reach the
    caller. ``labels`` still works: it gathers the labels (O(n) on the caller), for code
    that needs them all.

    Parameters
    ----------
    label_rows : dask.array.Array or svmcore.chunked.DeferredRows, shape (n_samples,), int32
        Compact labels (``0..K-1``, all used), persisted and chunked like the data, or
        deferred to the next map over the data that reads them (a split by a
        :class:`KeyTally` makes them so).
    sizes : ndarray of shape (n_clusters,), int64
        ``|C_k|`` (all positive), e.g. counted by the map that made the labels.

    Attributes
    ----------
    label_rows : dask.array.Array or svmcore.chunked.DeferredRows
        The labels where they live (or will be made).
    n_clusters, n_samples, sizes, token, parent_token, changed, parent
        As for :class:`Clusters`.
    """

    def __init__(self, label_rows: DaskArray, sizes: np.ndarray) -> None:
        sizes = np.asarray(sizes, dtype=np.int64)
        if label_rows.ndim != 1 or sizes.ndim != 1 or int(sizes.sum()) != label_rows.shape[0]:
            raise ValueError(
                f"sizes (sum {int(sizes.sum())}) must count the {label_rows.shape[0]} labels."
            )
        if sizes.size == 0 or sizes.min() < 1:
            raise ValueError("Every cluster needs at least one member.")
        sizes.flags.writeable = False
        self._rows = label_rows
        self.sizes = sizes
        self.n_clusters = int(sizes.size)
        self.n_samples = int(label_rows.shape[0])
        self.row_chunks = tuple(int(c) for c in label_rows.chunks[0])
        self.token = next(_TOKENS)
        self.parent_token = None
        self.changed = None
        self.parent = None
        self._order = None
        self._starts = np.zeros(0, dtype=np.intp)

    @classmethod
    def compacted(cls, label_rows: DaskArray, counts: np.ndarray) -> ChunkedClusters:
        """The partition of labels that may leave ids unused, compacted to ``0..K-1``.

        Parameters
        ----------
        label_rows : dask.array.Array of shape (n_samples,) of int
            Labels in ``[0, counts.size)``, persisted and chunked like the data.
        counts : ndarray of int
            Rows per label (zeros for the unused ones), e.g. summed by the map that
            made the labels.

        Returns
        -------
        ChunkedClusters
            Labels renumbered in order (one map over the labels when some are unused).
        """
        from ..chunked import kept_rows, map_chunks

        counts = np.asarray(counts, dtype=np.int64)
        present = counts > 0
        if present.all():
            return cls(label_rows, counts)
        lookup = (np.cumsum(present) - 1).astype(np.int32)
        row_chunks = tuple(int(c) for c in label_rows.chunks[0])
        tasks = map_chunks(_chunk_lookup, label_rows, row_chunks=row_chunks, shared=(lookup,))
        return cls(kept_rows(tasks, row_chunks, np.int32), counts[present])

    def __repr__(self) -> str:
        return f"ChunkedClusters(n_samples={self.n_samples}, n_clusters={self.n_clusters})"

    @property
    def label_rows(self) -> Any:
        """The labels where they live: a persisted Dask array chunked like the data, or a
        :class:`svmcore.chunked.DeferredRows` that the next map reading it computes."""
        return self._rows

    def _kept_rows(self):
        """The labels as a persisted Dask array (computing deferred ones first)."""
        from ..chunked import DeferredRows

        if isinstance(self._rows, DeferredRows):
            return self._rows.materialize()
        return self._rows

    def tally_map(self, blocks: Any, fn: Callable, shared: Sequence = ()) -> tuple[KeyTally, Any]:
        """One map over the data that computes per-row keys and tallies them by cluster.

        The declustering's counts are taken in the task that computes the keys (AID's
        evaluation pass), so a split needs no pass of its own and the keys are not kept:
        :meth:`split_violated` with the returned :class:`KeyTally` defers the new labels
        to the next map over the data, which recomputes the keys there.

        Parameters
        ----------
        blocks : svmcore.chunked.RowBlocks
            The data, chunked like the labels.
        fn : callable
            ``fn(start, X_i, y_i, w_i, *shared)`` returns ``(key, free, part)`` for a
            chunk: integer keys and free rows (bool or None) of its rows, and a small
            result (arrays, numbers or tuples, added up over the chunks). Runs on the
            workers; must be deterministic (the keys are recomputed later).
        shared : sequence, default=()
            Values every task receives, sent once per worker.

        Returns
        -------
        key : KeyTally
            The keys' (cluster, key) tally, for :meth:`split_violated`.
        part : object
            The sum of ``fn``'s parts.
        """
        tally, part = blocks.reduce(
            functools.partial(_tally_task, fn, len(shared)),
            self._rows,
            shared=(*shared, self.n_clusters),
        )
        make = functools.partial(_shared_last, fn, tuple(shared))
        return KeyTally(tally, make, blocks), part

    @property
    def labels(self) -> np.ndarray:
        """All labels on the caller (int64, read-only): a gather of O(n) numbers."""
        from ..chunked import gather_vector

        labels = gather_vector(self._kept_rows()).astype(np.int64)
        labels.flags.writeable = False
        return labels

    def split_violated(
        self, key: DaskArray | KeyTally, free: DaskArray | None = None
    ) -> tuple[Clusters, np.ndarray]:
        """AID's declustering where the rows live: split every mixed cluster by ``key``.

        A cluster is mixed when its members other than the ``free`` ones carry more than
        one key (:func:`svmcore.clustering.mixed_groups`); the mixed clusters are split as
        :meth:`Clusters.split` does (``free`` members go with their own key).

        Parameters
        ----------
        key : dask.array.Array of shape (n_samples,) of int, or KeyTally
            Per-row key, chunked like the labels; or the tally of keys that
            :meth:`tally_map` took (no pass here: the new labels are deferred to the
            next map over the data).
        free : dask.array.Array of shape (n_samples,) of bool or None, default=None
            Rows that never make a cluster mixed (with a ``KeyTally``: already
            counted, ignored).

        Returns
        -------
        new : ChunkedClusters
            The split partition (``self`` when nothing is mixed).
        violated : ndarray of int64
            The mixed clusters, ascending.
        """
        counts, seen, low, n_keys = self._tally(key, free)
        violated = np.flatnonzero(seen.reshape(-1, n_keys).sum(axis=1) > 1).astype(np.int64)
        if violated.size == 0:
            return self, violated
        return self._split_counted(key, counts, violated, low, n_keys), violated

    def split(self, key: Any, clusters: Any = None) -> tuple[Clusters, np.ndarray]:
        """As :meth:`Clusters.split`, with ``key`` a Dask array chunked like the labels."""
        counts, _, low, n_keys = self._tally(key, None)
        if clusters is None:
            allowed = np.arange(self.n_clusters)
        else:
            allowed = check_indices(clusters, "clusters", self.n_clusters)
        new = self._split_counted(key, counts, allowed, low, n_keys)
        return new, np.asarray(new.changed[new.changed < self.n_clusters])

    # -- passes over the label chunks ---------------------------------------------------
    def _tally(self, key, free):
        """(cluster, key) counts of all rows and ``seen`` of the non-free ones, one map."""
        from ..chunked import map_chunks, tree_sum

        if isinstance(key, KeyTally):
            tally = key.tally
            return tally.counts.ravel(), tally.seen.ravel(), tally.low, tally.counts.shape[1]
        if key.shape != (self.n_samples,) or np.dtype(key.dtype).kind not in "iub":
            raise ValueError(f"key must be {self.n_samples} integers, got {key.dtype} {key.shape}.")
        tasks = map_chunks(
            _chunk_tally,
            self._kept_rows(),
            key,
            free,
            row_chunks=self.row_chunks,
            shared=(self.n_clusters,),
        )
        tally = tree_sum(tasks).compute()
        return tally.counts.ravel(), tally.seen.ravel(), tally.low, tally.counts.shape[1]

    def _split_counted(self, key, counts, allowed_ids, low, n_keys):
        """Split the clusters ``allowed_ids`` given the (cluster, key) counts of all rows."""
        from ..chunked import kept_rows, map_chunks

        K = self.n_clusters
        allowed = np.zeros(K, dtype=bool)
        allowed[allowed_ids] = True
        folded = counts.reshape(K, n_keys).copy()
        # A cluster that may not split keeps its members under key 0 (Clusters.split).
        folded[~allowed, 0] = folded[~allowed].sum(axis=1)
        folded[~allowed, 1:] = 0
        folded = folded.ravel()
        lookup, split, parent = split_lookup(folded > 0, K, n_keys)
        present = np.flatnonzero(folded)
        sizes = np.bincount(lookup[present], weights=folded[present], minlength=parent.size)
        shared = (allowed, lookup, (low, n_keys))
        if isinstance(key, KeyTally):  # made in the next map over the data
            from ..chunked import DeferredRows

            rows = DeferredRows(
                _deferred_relabel,
                self._kept_rows(),
                blocks=key.blocks,
                dtype=np.int32,
                shared=(key.make, *shared),
            )
            new = ChunkedClusters(rows, sizes.astype(np.int64))
            return self._lineage(new, split, parent)
        tasks = map_chunks(
            _chunk_relabel,
            self._kept_rows(),
            key,
            row_chunks=self.row_chunks,
            shared=shared,
        )
        new = ChunkedClusters(kept_rows(tasks, self.row_chunks, np.int32), sizes.astype(np.int64))
        return self._lineage(new, split, parent)


class _Tally:
    """Per-(cluster, key) counts and ``seen`` over keys ``low .. low + n_keys - 1``.

    Chunks tally over their own key range; ``+`` widens both to the union (the key
    range of all rows, as :meth:`Clusters.split` shifts it) and adds them up.
    """

    def __init__(self, counts, seen, low):
        self.counts, self.seen, self.low = counts, seen, low

    def _widened(self, low, n_keys):
        K, k = self.counts.shape
        counts = np.zeros((K, n_keys), dtype=np.int64)
        seen = np.zeros((K, n_keys), dtype=bool)
        at = self.low - low
        counts[:, at : at + k] = self.counts
        seen[:, at : at + k] = self.seen
        return counts, seen

    def __add__(self, other):
        if self.counts.shape[1] == 0:
            return other
        if other.counts.shape[1] == 0:
            return self
        if self.low == other.low and self.counts.shape == other.counts.shape:
            # The usual case (every chunk has both keys): no widened copies.
            return _Tally(self.counts + other.counts, self.seen | other.seen, self.low)
        low = min(self.low, other.low)
        high = max(self.low + self.counts.shape[1], other.low + other.counts.shape[1])
        (c1, s1), (c2, s2) = self._widened(low, high - low), other._widened(low, high - low)
        return _Tally(c1 + c2, s1 | s2, low)


def _chunk_tally(labels, key, free, n_clusters):
    key = np.asarray(key).astype(np.int64)
    if key.size == 0:
        return _Tally(np.zeros((n_clusters, 0), np.int64), np.zeros((n_clusters, 0), bool), 0)
    low = int(key.min())
    n_keys = int(key.max()) - low + 1
    # AID's keys (signs, sides, 4-way codes) span a few values; a wide range would need
    # a dense (cluster, key) table far larger than the data.
    if n_keys > _MAX_KEYS:
        raise ValueError(f"key spans {n_keys} values; at most {_MAX_KEYS} are supported.")
    counts, seen = key_tally(np.asarray(labels), key - low, n_clusters, n_keys, free)
    return _Tally(counts.reshape(n_clusters, n_keys), seen.reshape(n_clusters, n_keys), low)


def _chunk_relabel(labels, key, allowed, lookup, sizes):
    low, n_keys = sizes
    key = np.asarray(key).astype(np.int64) - low
    return relabel(np.asarray(labels), key, allowed, n_keys, lookup, np.int32)


def _tally_task(fn, n_shared, start, X, y, w, labels, *shared):
    """A chunk's keys by ``fn``, tallied by cluster in the same task: ``(tally, part)``."""
    n_clusters = shared[n_shared]
    key, free, part = fn(start, X, y, w, *shared[:n_shared])
    return _chunk_tally(labels, key, free, n_clusters), part


def _shared_last(fn, shared, start, X, y, w):
    return fn(start, X, y, w, *shared)


def _deferred_relabel(start, X, y, w, labels, make, allowed, lookup, sizes):
    """The new labels of a chunk, its keys recomputed from the rows (``KeyTally.make``)."""
    key, _, _ = make(start, X, y, w)
    return _chunk_relabel(labels, key, allowed, lookup, sizes)


def _chunk_lookup(labels, lookup):
    return lookup[np.asarray(labels)]
