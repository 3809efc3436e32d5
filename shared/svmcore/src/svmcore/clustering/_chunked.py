"""A partition whose per-row labels live on Dask workers, next to the rows they label."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from ..chunked._detect import require_dask
from ..chunked._kept import InlineRead, kept_rows, map_chunks
from ..typing import DaskArray
from ..validation import check_indices
from ._clusters import _TOKENS, Clusters
from ._label_passes import key_tally, relabel, split_lookup

__all__ = ["ChunkedClusters"]

#: Widest range of key values a split by a Dask array of keys accepts.
_MAX_KEYS = 256


class ChunkedClusters(Clusters):
    """:class:`Clusters` with the labels kept as a persisted Dask array on the workers.

    The same partition as ``Clusters(labels)`` for the same labels, but a split reads
    the keys where they live (one map over the row chunks returning K-sized counts, or
    none when :meth:`map_codes` counted them in the pass that made the keys; one map
    writing the new labels next to the old ones) and only K-sized arrays reach the
    caller. ``labels`` still works: it gathers the labels (O(n) on the caller), for code
    that needs them all.

    A split hands the labels over to the new partition: every new cluster lies inside
    one old one (``parent``), so the old labels are ``parent[new labels]``, and the old
    partition drops its persisted copy and reads them through the new one from then on
    (a map over the new labels, when asked). Only the newest partition of a lineage
    keeps labels on the workers: AID holds its best iterate's partition beside the
    current one, which at 64M rows would otherwise take another 4 bytes a row (128 MB
    per worker of two) during the next aggregation pass.

    Parameters
    ----------
    label_rows : dask.array.Array of shape (n_samples,), int32
        Compact labels (``0..K-1``, all used), persisted and chunked like the data.
    sizes : ndarray of shape (n_clusters,), int64
        ``|C_k|`` (all positive), e.g. counted by the map that made the labels.

    Attributes
    ----------
    label_rows : dask.array.Array
        The labels where they live.
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
        self._rows: DaskArray | None = label_rows
        self._heir: tuple[ChunkedClusters, np.ndarray] | None = None
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
        # What map_codes counted, for the next split_violated of its key and free.
        self._tallied: _Tallied | None = None

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
    def label_rows(self) -> DaskArray:
        """The labels where they live (a persisted Dask array chunked like the data).

        After a split, a Dask array mapped from the new partition's labels (the same
        values, computed when read).
        """
        if self._rows is not None:
            return self._rows
        assert self._heir is not None
        heir, parent = self._heir
        da = require_dask("ChunkedClusters.label_rows")
        tasks = map_chunks(
            _chunk_lookup, heir.label_rows, row_chunks=self.row_chunks, shared=(parent,)
        )
        return da.concatenate(
            [
                da.from_delayed(t, shape=(r,), dtype=np.int32)
                for t, r in zip(tasks, self.row_chunks, strict=True)
            ]
        )

    @property
    def labels(self) -> np.ndarray:
        """All labels on the caller (int64, read-only): a gather of O(n) numbers."""
        from ..chunked import gather_vector

        labels = gather_vector(self.label_rows).astype(np.int64)
        labels.flags.writeable = False
        return labels

    def split_violated(
        self, key: DaskArray, free: DaskArray | None = None
    ) -> tuple[Clusters, np.ndarray]:
        """AID's declustering where the rows live: split every mixed cluster by ``key``.

        A cluster is mixed when its members other than the ``free`` ones carry more than
        one key (:func:`svmcore.clustering.mixed_groups`); the mixed clusters are split as
        :meth:`Clusters.split` does (``free`` members go with their own key).

        Parameters
        ----------
        key : dask.array.Array of shape (n_samples,) of int
            Per-row key, chunked like the labels.
        free : dask.array.Array of shape (n_samples,) of bool or None, default=None
            Rows that never make a cluster mixed.

        Returns
        -------
        new : ChunkedClusters
            The split partition (``self`` when nothing is mixed).
        violated : ndarray of int64
            The mixed clusters, ascending.
        """
        tallied, codes = self._tallied, None
        if tallied is not None and tallied.key is key and tallied.free is free:
            tally = tallied.tally  # counted by map_codes in the pass that made the keys
            codes = (tallied.codes, tallied.split_key)
            self._tallied = None  # used once: a K-sized table AID would otherwise keep
            counts, seen, low, n_keys = (
                tally.counts.ravel(),
                tally.seen.ravel(),
                tally.low,
                tally.counts.shape[1],
            )
        else:
            counts, seen, low, n_keys = self._tally(key, free)
        violated = np.flatnonzero(seen.reshape(-1, n_keys).sum(axis=1) > 1).astype(np.int64)
        if violated.size == 0:
            return self, violated
        return self._split_counted(key, counts, violated, low, n_keys, codes), violated

    def map_codes(
        self,
        blocks: Any,
        fn: Callable,
        *,
        split_key: Callable,
        dtype: Any,
        shared: Sequence = (),
    ) -> tuple[DaskArray, list, DaskArray, DaskArray | None]:
        """Map the row chunks to kept per-row codes and count the split by their key at once.

        One task per chunk runs ``fn`` and, on the codes it returns, the (cluster, key)
        tally that :meth:`split_violated` needs (what it would otherwise read in a map
        of its own over the labels and keys); the K-sized tallies are added on the
        workers and kept here for a :meth:`split_violated` of the returned ``key`` and
        ``free``.

        Parameters
        ----------
        blocks : svmcore.chunked.RowBlocks
            The rows, chunked like the labels.
        fn : callable
            ``fn(start, X_i, y_i, w_i, *shared) -> (codes, part)`` per chunk
            (:meth:`svmcore.chunked.RowBlocks.map`'s arguments).
        split_key : callable
            ``split_key(codes) -> (key, free)``: integer keys and a boolean ``free``
            (or None) of a chunk's codes; applied to the kept codes (a Dask array) too.
        dtype : dtype
            Of the codes.
        shared : sequence, default=()
            Values every task receives after the chunk's arrays.

        Returns
        -------
        codes : dask.array.Array
            The per-row codes, persisted on the workers.
        parts : list
            ``fn``'s parts, in chunk order.
        key, free : dask.array.Array
            ``split_key(codes)``, to pass to :meth:`split_violated`.
        """
        if tuple(blocks.row_chunks) != self.row_chunks:
            raise ValueError("blocks must be chunked like the labels.")
        task = functools.partial(_coded_chunk, fn, split_key, self.n_clusters)
        codes, parts, tally = blocks.map_kept(
            task, self.label_rows, dtype=dtype, shared=shared, with_total=True
        )
        key, free = split_key(codes)
        self._tallied = _Tallied(key, free, tally, codes, split_key)
        return codes, parts, key, free

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
        from ..chunked import chunk_parts, chunk_task, fold_count, shared_values, tree_sum

        if key.shape != (self.n_samples,) or np.dtype(key.dtype).kind not in "iub":
            raise ValueError(f"key must be {self.n_samples} integers, got {key.dtype} {key.shape}.")
        arrays = (self.label_rows, key, free)
        # The (cluster, key) table of AID's two-valued keys (9 bytes a pair) is larger
        # than the labels and keys a chunk holds once K is a sizeable share of a
        # chunk's rows: a task tallies several chunks into one table, so fewer tables
        # are made, moved and added (integers: the sum does not depend on the grouping).
        row_bytes = sum(np.dtype(a.dtype).itemsize for a in arrays if a is not None)
        n_chunks = len(self.row_chunks)
        fold = fold_count(
            n_chunks, 2 * 9.0 * self.n_clusters, row_bytes * self.n_samples / n_chunks
        )
        parts = [chunk_parts(a, self.row_chunks) for a in arrays]
        (n_clusters,) = shared_values((self.n_clusters,))
        tasks = [
            chunk_task(_chunks_tally, n_clusters, *(p[lo : lo + fold] for p in parts))
            for lo in range(0, n_chunks, fold)
        ]
        tally = tree_sum(tasks).compute()
        return tally.counts.ravel(), tally.seen.ravel(), tally.low, tally.counts.shape[1]

    def _split_counted(self, key, counts, allowed_ids, low, n_keys, codes=None):
        """Split the clusters ``allowed_ids`` given the (cluster, key) counts of all rows.

        ``codes``: ``(codes, split_key)`` of :meth:`map_codes` when ``key`` was made from
        them; the relabelling then reads the key from the codes in its own task (the
        key's elementwise tasks would be one more task and result per chunk).
        """
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
        relabel_chunk = _chunk_relabel
        if codes is not None:
            key, split_key = codes
            relabel_chunk = functools.partial(_chunk_relabel_codes, split_key)
        tasks = map_chunks(
            relabel_chunk,
            self.label_rows,
            key,
            row_chunks=self.row_chunks,
            shared=(allowed, lookup, (low, n_keys)),
        )
        new = ChunkedClusters(kept_rows(tasks, self.row_chunks, np.int32), sizes.astype(np.int64))
        new = self._lineage(new, split, parent)
        # The new labels are computed from these (their tasks keep them on the workers
        # until then); from now on these are read through the new ones.
        self._rows, self._heir = None, (new, parent.astype(np.int32))
        return new


class _Tallied(NamedTuple):
    """What :meth:`ChunkedClusters.map_codes` counted: its ``key``/``free``, their
    (cluster, key) :class:`_Tally`, and the kept ``codes`` with the ``split_key`` that
    reads them."""

    key: Any
    free: Any
    tally: _Tally
    codes: DaskArray
    split_key: Callable


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
            # The usual case (every chunk has both keys): no widened copies. A chunk's
            # counts are int32 (half the bytes to move); their sums int64.
            counts = np.add(self.counts, other.counts, dtype=np.int64)
            return _Tally(counts, self.seen | other.seen, self.low)
        low = min(self.low, other.low)
        high = max(self.low + self.counts.shape[1], other.low + other.counts.shape[1])
        (c1, s1), (c2, s2) = self._widened(low, high - low), other._widened(low, high - low)
        return _Tally(c1 + c2, s1 | s2, low)


def _chunks_tally(n_clusters, labels, keys, frees):
    """One :class:`_Tally` of consecutive chunks (lists of their labels, keys and frees)."""
    reads = [a() if isinstance(a, InlineRead) else a for a in (*labels, *keys, *frees)]
    n = len(labels)
    labels, keys, frees = reads[:n], [np.asarray(k) for k in reads[n : 2 * n]], reads[2 * n :]
    used = [k for k in keys if k.size]
    if not used:
        return _Tally(np.zeros((n_clusters, 0), np.int64), np.zeros((n_clusters, 0), bool), 0)
    low = min(int(k.min()) for k in used)
    n_keys = max(int(k.max()) for k in used) - low + 1
    # AID's keys (signs, sides, 4-way codes) span a few values; a wide range would need
    # a dense (cluster, key) table far larger than the data.
    if n_keys > _MAX_KEYS:
        raise ValueError(f"key spans {n_keys} values; at most {_MAX_KEYS} are supported.")
    # int32 counts while they fit: a chunk's table is moved and added once per chunk
    # (K x n_keys of them: 4.2 MB instead of 7.6 MB per 500,000-row chunk at K = 424,126).
    wide = sum(len(k) for k in keys) >= 2**31
    table = (
        np.zeros(n_clusters * n_keys, dtype=np.int64 if wide else np.int32),
        np.zeros(n_clusters * n_keys, dtype=np.bool_),
    )
    for chunk_labels, key, free in zip(labels, keys, frees, strict=True):
        key_tally(np.asarray(chunk_labels), _shifted(key, low), n_clusters, n_keys, free, out=table)
    counts, seen = table
    return _Tally(counts.reshape(n_clusters, n_keys), seen.reshape(n_clusters, n_keys), low)


def _coded_chunk(fn, split_key, n_clusters, start, X, y, w, labels, *shared):
    """``fn``'s codes and part of one chunk with the (cluster, key) tally of its codes."""
    codes, part = fn(start, X, y, w, *shared)
    key, free = split_key(np.asarray(codes))
    return codes, part, _chunks_tally(n_clusters, [labels], [key], [free])


def _chunk_relabel(labels, key, allowed, lookup, sizes):
    low, n_keys = sizes
    return relabel(np.asarray(labels), _shifted(key, low), allowed, n_keys, lookup, np.int32)


def _chunk_relabel_codes(split_key, labels, codes, allowed, lookup, sizes):
    return _chunk_relabel(labels, split_key(np.asarray(codes))[0], allowed, lookup, sizes)


def _shifted(key, low):
    """``key - low`` as integers; the keys themselves when ``low`` is 0 (AID's 0/1 keys)."""
    key = np.asarray(key)
    return key if low == 0 else key.astype(np.int64) - low


def _chunk_lookup(labels, lookup):
    return lookup[np.asarray(labels)]
