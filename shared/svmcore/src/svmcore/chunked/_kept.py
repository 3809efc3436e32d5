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

from ..typing import DaskArray
from ._detect import require_dask

__all__ = ["chunk_parts", "kept_rows", "map_chunks", "shared_values"]


def chunk_parts(arr: DaskArray | None, row_chunks: Sequence[int]) -> list:
    """The row chunks of a 1-D or 2-D Dask array as delayed values, rechunked to ``row_chunks``.

    Parameters
    ----------
    arr : dask.array.Array of shape (n, ...) or None
        A per-row array; None gives one None per chunk.
    row_chunks : sequence of int
        The rows of each chunk (the data's).

    Returns
    -------
    list
        One delayed value (or None) per chunk.
    """
    if arr is None:
        return [None] * len(row_chunks)
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
    tasks: Sequence, row_chunks: Sequence[int], dtype: Any, *, with_parts: bool = False
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
    if not with_parts:
        return rows.persist()
    # Unoptimized: fusing the array's graph apart from the parts' would copy the tasks
    # into it, and they would run twice (once for the rows, once for the parts).
    rows, *held = dask.persist(rows, *[get(t, 1) for t in tasks], optimize_graph=False)
    return rows, list(dask.compute(*held))
