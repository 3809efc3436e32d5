"""Maps and reductions over the row chunks of Dask arrays, run where the chunks live."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..typing import ArrayLike, DaskArray
from ._detect import is_dask_collection, require_dask
from ._kept import InlineRead, chunk_parts, chunk_task, kept_rows, shared_values

__all__ = [
    "RowBlocks",
    "add_parts",
    "compute_each",
    "distinct",
    "fold_count",
    "gather_vector",
    "select_rows",
    "tree_sum",
]

#: A reduction's task folds chunks until its result is at most 1/FOLD_RATIO of the bytes
#: it read (RowBlocks.fold_size).
FOLD_RATIO = 2.0


class RowBlocks:
    """The row chunks of ``(X, y, sample_weight)`` as Dask tasks.

    Each call of :meth:`map` or :meth:`reduce` builds one task per row chunk and computes
    them with :func:`dask.compute`, so they run on the current ``distributed.Client`` when
    there is one (else on Dask's local scheduler). Only what the function returns comes
    back; the rows stay on the workers.

    Parameters
    ----------
    X : dask.array.Array of shape (n_samples, n_features)
        Row-chunked data with known chunk sizes and one column chunk (see
        :func:`check_dask_data`); chunks are ndarrays or CSR matrices.
    y : dask.array.Array of shape (n_samples,) or None, default=None
        Targets chunked as the rows of ``X``.
    sample_weight : dask.array.Array of shape (n_samples,) or None, default=None
        Weights chunked as the rows of ``X``.
    """

    def __init__(
        self, X: DaskArray, y: DaskArray | None = None, sample_weight: DaskArray | None = None
    ) -> None:
        if X.numblocks[1] != 1:
            raise ValueError("X must have one chunk along its columns; rechunk({1: -1}).")
        self.X = X
        self.y = y
        self.sample_weight = sample_weight
        self.row_chunks = tuple(int(c) for c in X.chunks[0])
        self.starts = np.concatenate([[0], np.cumsum(self.row_chunks)]).astype(np.int64)
        self._parts = [chunk_parts(a, self.row_chunks) for a in (X, y, sample_weight)]

    @property
    def n_samples(self) -> int:
        """Number of rows."""
        return int(self.starts[-1])

    @property
    def n_features(self) -> int:
        """Number of columns."""
        return int(self.X.shape[1])

    def _chunk_args(self, per_row, shared=(), chunks=None):
        """Per chunk: the arguments ``(start, X_i, y_i, w_i, *slices, *shared)`` of its task."""
        # Per-row arrays kept on the workers (Dask arrays) pass chunk by chunk where they
        # live; the caller's own arrays are sliced into the tasks.
        kept = [chunk_parts(a, self.row_chunks) if is_dask_collection(a) else None for a in per_row]
        per_row = [a if k is not None else _compact(a) for a, k in zip(per_row, kept, strict=True)]
        extra = shared_values(shared)
        args = []
        for i in range(len(self.row_chunks)) if chunks is None else chunks:
            lo, hi = self.starts[i], self.starts[i + 1]
            slices = [
                np.ascontiguousarray(a[lo:hi]) if k is None else k[i]
                for a, k in zip(per_row, kept, strict=True)
            ]
            X_i, y_i, w_i = (parts[i] for parts in self._parts)
            args.append((int(lo), X_i, y_i, w_i, *slices, *extra))
        return args

    def _tasks(self, fn, per_row, chunks=None, shared=()):
        # Chunk reads without dependencies run inside the task (chunk_parts).
        return [chunk_task(fn, *a) for a in self._chunk_args(per_row, shared, chunks)]

    def fold_size(self, part_bytes: float | None) -> int:
        """Chunks per task of a reduction whose result per task takes ``part_bytes``.

        Every task's result is allocated, moved between workers and added once; when it
        is large next to the chunk it sums (AID's K-sized cluster sums: K x (d + 2)
        floats against a chunk's rows), a task folds several consecutive chunks, read
        one at a time, into one result, until the results take at most
        ``1 / FOLD_RATIO`` of the bytes read; at least two tasks per thread of the
        cluster stay (its load balance). A power of two, so that a task's sum is one node
        of :func:`tree_sum`'s tree over the chunks: the total is the same to the bit.

        Parameters
        ----------
        part_bytes : float or None
            Bytes of one result; None or 0 folds nothing.

        Returns
        -------
        int
            Chunks per task, a power of two (1: one task per chunk).
        """
        n_chunks = len(self.row_chunks)
        if not isinstance(self.X._meta, np.ndarray):
            return 1
        return fold_count(n_chunks, part_bytes, self.X.nbytes / max(n_chunks, 1))

    def map(self, fn: Callable, *per_row: np.ndarray, shared: Sequence = ()) -> list:
        """``[fn(start, X_i, y_i, w_i, *(a[rows of i] for a in per_row)) for each chunk i]``.

        Parameters
        ----------
        fn : callable
            Called on a worker with the chunk's first row index, its rows of ``X``, ``y``
            and ``sample_weight`` (None when absent) and the chunk's slices of ``per_row``.
            It is pickled with the model it closes over, so it should close over small
            objects only (coefficients, centroids), never over per-row arrays: pass those
            in ``per_row`` and each task receives its slice alone.
        *per_row : ndarray or dask.array.Array of shape (n_samples, ...)
            Per-row arrays: the caller's (sliced into each task) or Dask arrays kept on
            the workers (see :func:`kept_rows`), whose chunks are read where they live.
        shared : sequence, default=()
            Values passed after the slices to every task, sent once per worker (K-sized
            lookups; a closure would carry them in every task).

        Returns
        -------
        list
            One result per chunk, in row order. On a ``distributed`` cluster each result
        moves to the caller as soon as its task ends, so the workers never hold all of
        them at once (per-row results of every chunk can exceed their memory).
        """
        return compute_each(self._tasks(fn, per_row, shared=shared))

    def reduce(
        self,
        fn: Callable,
        *per_row: np.ndarray,
        shared: Sequence = (),
        part_bytes: float | None = None,
    ) -> Any:
        """Sum of ``fn`` over the chunks (as :meth:`map`), added pairwise on the workers.

        ``fn`` returns an array, a sparse matrix, a number or a tuple of those (``None``
        entries stay ``None``); only the total comes back. With ``part_bytes`` (the size
        of ``fn``'s result) a task may add the results of several consecutive chunks
        before its sum joins the tree (:meth:`fold_size`); it adds into the arrays
        ``fn`` returned, so ``fn`` must return new arrays, not shared ones.
        """
        args = self._chunk_args(per_row, shared)
        fold = self.fold_size(part_bytes)
        if fold == 1:
            tasks = [chunk_task(fn, *a) for a in args]
        else:
            folded = functools.partial(_fold, fn)
            tasks = [chunk_task(folded, *args[i : i + fold]) for i in range(0, len(args), fold)]
        return tree_sum(tasks).compute()

    def map_kept(
        self,
        fn: Callable,
        *per_row: np.ndarray,
        dtype: Any,
        shared: Sequence = (),
        with_total: bool = False,
    ) -> tuple:
        """:meth:`map` of a ``fn`` returning ``(per-row array, small part)`` per chunk.

        The per-row arrays stay on the workers as one persisted Dask array (see
        :func:`kept_rows`); only the parts come back, in chunk order. With
        ``with_total``, ``fn`` returns ``(per-row array, part, total)`` and the totals
        (K-sized tables) are added on the workers in the same run: ``(rows, parts,
        total)`` is returned.
        """
        tasks = self._tasks(fn, per_row, shared=shared)
        return kept_rows(tasks, self.row_chunks, dtype, with_parts=True, with_total=with_total)

    def take(self, indices: ArrayLike) -> tuple:
        """Gather the rows ``indices`` (sorted ascending): ``(X, y, sample_weight)``.

        Only the chunks that hold one of them are read, and only those rows come back.
        """
        parts = self.map_rows_at(indices, _select_rows)
        X_parts, y_parts, w_parts = zip(*parts, strict=True)
        X = sp.vstack(X_parts, format="csr") if sp.issparse(X_parts[0]) else np.vstack(X_parts)
        y = None if y_parts[0] is None else np.concatenate(y_parts)
        w = None if w_parts[0] is None else np.concatenate(w_parts)
        return X, y, w

    def map_rows_at(self, indices: ArrayLike, fn: Callable, shared: Sequence = ()) -> list:
        """``fn(start, X_i, y_i, w_i, rows_i, *shared)`` for each chunk i holding some ``indices``.

        ``rows_i`` are the chunk's positions of the (unique, ascending) ``indices``; only
        those chunks are read, and only ``fn``'s results come back (e.g. a model's scores
        of sampled rows, never the rows). Each task gets its own chunk's row numbers (a
        mask over all rows would travel in the graph: 64 MB at 64M rows).

        Parameters
        ----------
        indices : array-like of int
            Row indices in ``[0, n_samples)``; duplicates count once.
        fn : callable
            Called on a worker as above.
        shared : sequence, default=()
            Values passed after ``rows_i`` to every task (as for :meth:`map`).

        Returns
        -------
        list
            One result per chunk read, in row order.
        """
        indices = np.unique(np.asarray(indices, dtype=np.int64))
        if indices.size == 0 or indices[0] < 0 or indices[-1] >= self.n_samples:
            raise ValueError(
                "indices must be row numbers inside [0, n_samples), got none or others."
            )
        bounds = np.searchsorted(indices, self.starts)
        extra = shared_values(shared)
        tasks = []
        for i in range(len(self.row_chunks)):
            if bounds[i] == bounds[i + 1]:
                continue
            rows = indices[bounds[i] : bounds[i + 1]] - self.starts[i]
            X_i, y_i, w_i = (parts[i] for parts in self._parts)
            tasks.append(chunk_task(fn, int(self.starts[i]), X_i, y_i, w_i, rows, *extra))
        return compute_each(tasks)

    def iter_chunks(self) -> Iterator[tuple]:
        """Yield ``(start, X_i, y_i, w_i)`` computed one chunk at a time on the caller.

        The fallback for code that must see the rows itself; memory holds one chunk.
        """
        for i in range(len(self.row_chunks)):
            parts = self._tasks(_identity, (), [i])[0]
            yield parts.compute()


def fold_count(n_chunks: int, part_bytes: float | None, chunk_bytes: float) -> int:
    """Count the chunks per task of a reduction: the rule of :meth:`RowBlocks.fold_size`.

    Parameters
    ----------
    n_chunks : int
        Chunks reduced.
    part_bytes : float or None
        Bytes of one task's result; None or 0 folds nothing.
    chunk_bytes : float
        Bytes a task reads per chunk.

    Returns
    -------
    int
        The smallest power of two whose chunks read at least ``FOLD_RATIO`` times the
        result's bytes, capped so that each thread of the cluster keeps two tasks.

    Examples
    --------
    Results no larger than half a chunk, or one chunk alone, fold nothing:

    >>> fold_count(64, 5.0, 10.0), fold_count(64, None, 10.0), fold_count(1, 1e9, 10.0)
    (1, 1, 1)
    """
    if not part_bytes or n_chunks < 2:
        return 1
    wanted = FOLD_RATIO * part_bytes / max(chunk_bytes, 1.0)
    cap = n_chunks // (2 * _cluster_threads())
    fold = 1
    while fold < wanted and 2 * fold <= cap:
        fold *= 2
    return fold


def gather_vector(v: DaskArray) -> np.ndarray:
    """A 1-D Dask array as one NumPy array on the caller, chunk by chunk.

    ``v.compute()`` would concatenate every chunk on one worker first, which can exceed
    its memory for per-row vectors of large data; here each chunk travels on its own.

    Parameters
    ----------
    v : dask.array.Array of shape (n,)
        A per-row vector (targets, weights, a mask).

    Returns
    -------
    ndarray of shape (n,)
        Its values.
    """
    parts = compute_each(list(v.to_delayed().ravel()))
    return np.concatenate([np.asarray(p) for p in parts]) if parts else np.zeros(0, v.dtype)


def select_rows(arr: DaskArray, keep: np.ndarray) -> DaskArray:
    """The rows of a row-chunked Dask array where ``keep`` is True, chunk by chunk.

    Dask's own boolean indexing concatenates across chunks (and, in the lowest supported
    Dask, fails on chunks that are sparse matrices); here each chunk keeps its own rows,
    so the chunk sizes stay known and nothing moves between workers.

    Parameters
    ----------
    arr : dask.array.Array of shape (n, ...)
        Row-chunked array (dense or CSR chunks), 1-D or 2-D.
    keep : ndarray of shape (n,) of bool
        Rows to keep.

    Returns
    -------
    dask.array.Array
        ``arr[keep]``, with the same chunk boundaries.
    """
    da = require_dask("select_rows")
    keep = np.asarray(keep, dtype=bool)
    starts = np.concatenate([[0], np.cumsum(arr.chunks[0])]).astype(np.int64)
    sizes = tuple(int(keep[lo:hi].sum()) for lo, hi in zip(starts[:-1], starts[1:], strict=True))
    mask = da.from_array(keep, chunks=(arr.chunks[0],))
    if arr.ndim == 1:
        return da.map_blocks(_keep_rows, arr, mask, chunks=(sizes,), dtype=arr.dtype)
    return da.map_blocks(
        _keep_rows, arr, mask[:, None], chunks=(sizes, arr.chunks[1]), dtype=arr.dtype
    )


def _keep_rows(block, mask):
    return block[np.flatnonzero(np.asarray(mask).ravel())]


def distinct(v: DaskArray) -> np.ndarray:
    """Sorted distinct values of a Dask array, reduced on the workers.

    Parameters
    ----------
    v : dask.array.Array
        Any Dask array (class labels, for instance).

    Returns
    -------
    ndarray
        Its sorted distinct values; only these travel to the caller.
    """
    da = require_dask("distinct")
    return np.asarray(da.unique(v).compute())


def _compact(a):
    """int64 per-row arrays (cluster labels) travel as int32 when their values fit."""
    a = np.asarray(a)
    if a.dtype == np.int64 and a.size and -(2**31) <= a.min() and a.max() < 2**31:
        return a.astype(np.int32)
    return a


def _current_client():
    """The ``distributed.Client`` dask.compute would use, or None (never imports it)."""
    if "distributed" not in sys.modules:
        return None
    from distributed import default_client

    try:
        return default_client()
    except ValueError:
        return None


def compute_each(tasks: Sequence) -> list:
    """``list(dask.compute(*tasks))``, each result moved to the caller once it is ready.

    ``dask.compute`` returns when every task has ended, so a ``distributed`` cluster
    holds all the results until then: per-chunk results of every chunk can exceed the
    workers' memory (a few MB per chunk of AIDSVC's per-row duals: 183 MB on one worker
    at 64M rows). Here each result is gathered and released as soon as its task ends;
    without a cluster, or with another scheduler configured, it is ``dask.compute``.

    Parameters
    ----------
    tasks : sequence of dask.delayed.Delayed
        One task per chunk (e.g. :func:`map_chunks`').

    Returns
    -------
    list
        Their results, in the order of ``tasks``.
    """
    client = _current_client()
    if client is None or _scheduler_overridden():
        import dask

        return list(dask.compute(*tasks))
    from distributed import as_completed

    futures = client.compute(tasks)
    where = {f.key: i for i, f in enumerate(futures)}
    results = [None] * len(futures)
    for future, result in as_completed(futures, with_results=True):
        results[where[future.key]] = result
        future.release()
    return results


def _cluster_threads() -> int:
    """Threads of the current ``distributed`` cluster, else of this machine."""
    client = _current_client()
    if client is not None and not _scheduler_overridden():
        return max(1, sum(client.nthreads().values()))
    return os.cpu_count() or 1


def _fold(fn, *chunk_args):
    """Sum of ``fn`` over consecutive chunks in one task, reading each chunk just in time.

    Results are added in :func:`tree_sum`'s pairs (a stack of partial sums, each merged
    with its left neighbour of the same level), so a group of ``2**j`` chunks gives
    that tree's node bit for bit, and a shorter last group its carried remainder. The
    left operand is added into (results made inside this task), so a task holds at
    most ``log2(fold) + 1`` K-sized results at once (the stack's levels and the chunk
    being summed: three at a fold of 4).
    """
    stack = []  # (level, sum of 2**level chunks), levels decreasing
    for args in chunk_args:
        part, level = fn(*(a() if isinstance(a, InlineRead) else a for a in args)), 0
        while stack and stack[-1][0] == level:
            part, level = _add_into(stack.pop()[1], part), level + 1
        stack.append((level, part))
    total = stack.pop()[1]
    while stack:  # a short last group: the tree adds each remainder to its left
        total = _add_into(stack.pop()[1], total)
    return total


def _add_into(a, b):
    """``add_parts(a, b)``, written into ``a`` where it is a dense array (same bits)."""
    if isinstance(a, tuple):
        return tuple(None if u is None else _add_into(u, v) for u, v in zip(a, b, strict=True))
    if (
        isinstance(a, np.ndarray)
        and isinstance(b, np.ndarray)
        and a.flags.writeable
        and a.shape == b.shape
        and np.result_type(a, b) == a.dtype
    ):
        np.add(a, b, out=a)
        return a
    return a + b


def _scheduler_overridden() -> bool:
    """Whether ``dask.config`` names a scheduler other than the distributed client."""
    import dask

    return dask.config.get("scheduler", None) not in (None, "dask.distributed", "distributed")


def _identity(start, X, y, w):
    return start, X, y, w


def _select_rows(start, X, y, w, rows):
    return (
        X[rows],
        None if y is None else np.asarray(y)[rows],
        None if w is None else np.asarray(w)[rows],
    )


def add_parts(a: Any, b: Any) -> Any:
    """``a + b`` for arrays, sparse matrices and numbers; entrywise for tuples.

    Parameters
    ----------
    a, b : ndarray, sparse matrix, number or tuple of those
        Partial results of two blocks; ``None`` entries of tuples stay ``None``.

    Returns
    -------
    object
        The sum, of the same kind.
    """
    if isinstance(a, tuple):
        return tuple(None if u is None else u + v for u, v in zip(a, b, strict=True))
    return a + b


def tree_sum(tasks: Sequence) -> Any:
    """Add Dask delayed values pairwise (a binary tree), as one delayed value.

    Parameters
    ----------
    tasks : sequence of dask.delayed.Delayed
        Values that support ``+`` (or tuples of them, added entrywise; ``None`` entries
        stay ``None``).

    Returns
    -------
    dask.delayed.Delayed
        Their sum; a tree keeps each addition on a worker that holds one operand and
        the driver receives only the total.
    """
    require_dask("tree_sum")
    import dask

    level = list(tasks)
    if not level:
        raise ValueError("tree_sum needs at least one task.")
    add = dask.delayed(add_parts, pure=True)
    while len(level) > 1:
        paired = [add(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        level = paired + ([level[-1]] if len(level) % 2 else [])
    return level[0]
