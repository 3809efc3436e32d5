"""Per-row arrays kept on the workers: maps over aligned row chunks, persisted results.

The large-data loops keep per-row bookkeeping (cluster labels, one-byte optimality
codes) next to the rows instead of on the caller: each is a persisted Dask array chunked
like the data, computed by tasks from the data's chunks (so a lost worker's share is
recomputed from its lineage) and read by the next map where it lives. Only K-sized
results (counts, per-cluster decisions) cross to the caller.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..typing import DaskArray
from ._detect import require_dask

__all__ = ["DeferredRows", "chunk_parts", "kept_rows", "map_chunks", "shared_values"]


class DeferredRows:
    """A per-row array that the next map over the data's row chunks computes and keeps.

    AID re-labels every row after a split; as a map of its own that would be one more
    round trip per iteration and, with the per-row keys it reads, a second per-row array
    on the workers. Deferred, the labels are computed inside the task of the next map
    that reads them (the aggregation pass), from that task's chunk of the data, and
    persisted from there (:class:`RowBlocks` does this for any ``per_row`` argument that
    is a ``DeferredRows``). Anything else that reads it (:func:`chunk_parts`) first
    computes it by a map of its own (:meth:`materialize`).

    Parameters
    ----------
    make : callable
        ``make(start, X_i, y_i, w_i, *(a[chunk i] for a in per_row), *shared)`` returns
        the rows of chunk ``i`` (a 1-D array of its length). Runs on a worker; it must
        be deterministic, since a lost chunk is recomputed from its lineage.
    *per_row : dask.array.Array
        Per-row arrays chunked like the data, e.g. the previous labels.
    blocks : RowBlocks
        The data whose chunks ``make`` reads.
    dtype : dtype
        Of the rows.
    shared : sequence, default=()
        Values every task receives (K-sized lookups), sent once per worker.

    Attributes
    ----------
    kept : dask.array.Array or None
        The persisted rows once a map has computed them.
    """

    ndim = 1

    def __init__(
        self, make: Callable, *per_row: DaskArray, blocks: Any, dtype: Any, shared: Sequence = ()
    ) -> None:
        self.make = make
        self.per_row = per_row
        self.blocks = blocks
        self.dtype = np.dtype(dtype)
        self.shared = tuple(shared)
        self.kept: DaskArray | None = None

    @property
    def shape(self) -> tuple[int]:
        return (self.blocks.n_samples,)

    @property
    def chunks(self) -> tuple[tuple[int, ...]]:
        return (self.blocks.row_chunks,)

    def materialize(self) -> DaskArray:
        """The rows as a persisted Dask array, computed by a map of their own if needed."""
        if self.kept is None:
            self.blocks.reduce(_nothing, self)
        assert self.kept is not None
        return self.kept


def _nothing(*args):
    return 0


def chunk_parts(arr: DaskArray | None, row_chunks: Sequence[int]) -> list:
    """The row chunks of a 1-D or 2-D Dask array as delayed values, rechunked to ``row_chunks``.

    Parameters
    ----------
    arr : dask.array.Array of shape (n, ...), DeferredRows or None
        A per-row array (a :class:`DeferredRows` is computed first); None gives one
        None per chunk.
    row_chunks : sequence of int
        The rows of each chunk (the data's).

    Returns
    -------
    list
        One delayed value (or None) per chunk.
    """
    if arr is None:
        return [None] * len(row_chunks)
    if isinstance(arr, DeferredRows):
        arr = arr.materialize()
    if tuple(int(c) for c in arr.chunks[0]) != tuple(row_chunks):
        arr = arr.rechunk((tuple(row_chunks),) + arr.chunks[1:])
    if arr.ndim > 1 and arr.numblocks[1] != 1:
        arr = arr.rechunk({1: -1})
    parts = arr.to_delayed()
    return list(parts.ravel())


def shared_values(values: Sequence[Any]) -> list:
    """Each value as one delayed key, so that every task of a map reads the same copy.

    A K-sized array closed over by a function would travel inside every task (128 tasks
    of a 3 MB lookup table are 400 MB of task messages); as a key of its own it goes to
    each worker once.

    Parameters
    ----------
    values : sequence
        Arrays, numbers or tuples to pass to every task of a map.

    Returns
    -------
    list of dask.delayed.Delayed
        One delayed key per value.
    """
    import dask

    return [dask.delayed(v, pure=True) for v in values]


def map_chunks(
    fn: Callable, *arrays: DaskArray | None, row_chunks: Sequence[int], shared: Sequence = ()
) -> list:
    """``[fn(a[chunk i] for a in arrays, *shared) for each chunk i]`` as delayed tasks.

    Parameters
    ----------
    fn : callable
        Runs on a worker; gets the chunk's part of every array (None for a None array)
        and the ``shared`` values.
    *arrays : dask.array.Array or None
        Per-row arrays chunked like the data.
    row_chunks : sequence of int
        The rows of each chunk.
    shared : sequence, default=()
        Values every task receives (K-sized lookups), sent once per worker.

    Returns
    -------
    list of dask.delayed.Delayed
        One task per chunk, not yet computed.
    """
    import dask

    parts = [chunk_parts(a, row_chunks) for a in arrays]
    extra = shared_values(shared)
    call = dask.delayed(fn, pure=False)
    return [call(*(p[i] for p in parts), *extra) for i in range(len(row_chunks))]


def kept_rows(
    tasks: Sequence,
    row_chunks: Sequence[int],
    dtype: Any,
    *,
    with_parts: bool = False,
    lazy: bool = False,
) -> Any:
    """Persist per-chunk per-row results as one Dask array chunked like the data.

    Parameters
    ----------
    tasks : sequence of dask.delayed.Delayed
        One per chunk, each returning a 1-D array of the chunk's rows, or, with
        ``with_parts``, a pair ``(rows, part)`` with a small per-chunk result.
    row_chunks : sequence of int
        The rows of each chunk.
    dtype : dtype
        Of the per-row results.
    with_parts : bool, default=False
        Whether the tasks return ``(rows, part)``; then the parts are computed in the
        same run (each task runs once) and returned in chunk order.
    lazy : bool, default=False
        Return the Dask array without persisting it (for the caller to persist together
        with other results of the same tasks); not with ``with_parts``.

    Returns
    -------
    rows : dask.array.Array of shape (sum(row_chunks),)
        Persisted: on a ``distributed`` cluster its chunks stay in the workers' memory
        (recomputed from their lineage if a worker is lost).
    parts : list
        With ``with_parts`` only: the per-chunk parts, on the caller.
    """
    import dask

    da = require_dask("kept_rows")
    get = dask.delayed(operator.getitem, pure=True)
    row_tasks = [get(t, 0) for t in tasks] if with_parts else list(tasks)
    rows = da.concatenate(
        [
            da.from_delayed(t, shape=(int(r),), dtype=dtype)
            for t, r in zip(row_tasks, row_chunks, strict=True)
        ]
    )
    if lazy:
        return rows
    if not with_parts:
        return rows.persist()
    # Unoptimized: fusing the array's graph would copy the tasks into it, and they would
    # run twice (once for the rows, once for the parts).
    rows, *held = dask.persist(rows, *[get(t, 1) for t in tasks], optimize_graph=False)
    return rows, list(dask.compute(*held))
