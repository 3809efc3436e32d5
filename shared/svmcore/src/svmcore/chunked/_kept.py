"""Per-row arrays kept on the workers: maps over aligned row chunks, persisted results.

The large-data loops keep per-row bookkeeping (cluster labels, one-byte optimality
codes) next to the rows instead of on the caller: each is a persisted Dask array chunked
like the data, computed by tasks from the data's chunks (so a lost worker's share is
recomputed from its lineage) and read by the next map where it lives. Only K-sized
results (counts, per-cluster decisions) cross to the caller.
"""

from __future__ import annotations

import operator
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from ..typing import DaskArray
from ._detect import require_dask

__all__ = ["chunk_parts", "chunk_task", "kept_rows", "map_chunks", "shared_values"]

#: Largest task (its arguments' ``dask.sizeof``) read inside the task that uses its chunk.
INLINE_READ_MAX_BYTES = 64 * 2**10


class InlineRead:
    """A chunk's own task (a read from storage), run inside the task that uses the chunk.

    A chunk read such as ``np.load(path, mmap_mode="r")`` (``dask.array.from_npy_stack``)
    is a task without dependencies. Kept as a key of its own, its result sits in a
    worker's memory until the task that uses it runs; a memory map counts at its full
    size there (``dask.sizeof``, and its touched pages in the worker's RSS), so a worker
    near its target spills chunk reads to disk (a full copy) and reads them back. Inside
    the task that uses it, the read exists only while that task runs, as Dask's own
    linear fusion does for ``X.sum()``; a lost worker's task reads its chunk again.

    Parameters
    ----------
    key : hashable
        The chunk's key.
    task : object
        Its task in the array's graph, without dependencies.
    """

    __slots__ = ("key", "task")

    def __init__(self, key: Any, task: Any) -> None:
        self.key, self.task = key, task

    def __call__(self) -> Any:
        """The chunk."""
        from dask.core import get

        return get({self.key: self.task}, [self.key])[0]  # a list: keys can be tuples


def _payload_bytes(x: Any) -> int:
    """Bytes of the literals in a task (arrays embedded in it count in full)."""
    from dask.sizeof import sizeof

    if isinstance(x, (tuple, list)):
        return sum(_payload_bytes(v) for v in x)
    if isinstance(x, dict):
        return sum(_payload_bytes(v) for v in x.values())
    if hasattr(x, "func") and hasattr(x, "args"):  # a task object (dask >= 2024.12)
        return _payload_bytes(x.args) + _payload_bytes(getattr(x, "kwargs", {}))
    if hasattr(x, "value") and type(x).__name__ == "DataNode":
        return _payload_bytes(x.value)
    return int(sizeof(x))


def _inline_reads(parts: list) -> list:
    """``parts`` with each small chunk task without dependencies as an :class:`InlineRead`."""
    from dask.core import get_dependencies, istask

    graph = parts[0].__dask_graph__() if parts else {}
    out = []
    for part in parts:
        task = graph.get(part.key)
        # A task object names its dependencies even when they are not in this graph
        # (the chunks of a persisted array); a legacy tuple task refers to keys in it.
        deps = getattr(task, "dependencies", None)
        if deps is None and istask(task):
            deps = get_dependencies(graph, part.key)
        if istask(task) and not deps and _payload_bytes(task) <= INLINE_READ_MAX_BYTES:
            out.append(InlineRead(part.key, task))
        else:  # persisted chunks, derived arrays, chunks embedded in the graph
            out.append(part)
    return out


def _run_reading(fn, *args):
    """``fn(*args)`` with every :class:`InlineRead` argument replaced by its chunk."""
    return fn(*(a() if isinstance(a, InlineRead) else a for a in args))


def chunk_task(fn: Callable, *args: Any) -> Any:
    """``dask.delayed(fn, pure=False)(*args)``, running :class:`InlineRead` arguments first.

    Parameters
    ----------
    fn : callable
        Runs on a worker with the chunks in place of the :class:`InlineRead` arguments.
    *args
        Delayed values, :class:`InlineRead` chunks (from :func:`chunk_parts`) or literals.

    Returns
    -------
    dask.delayed.Delayed
        One task, keyed by ``fn``'s name (as ``dask.delayed(fn)`` keys it).
    """
    import dask
    from dask.utils import funcname

    # Not pure: a pure key would hash every argument (per-row slices) for a task that
    # is computed once.
    name = f"{funcname(fn)}-{uuid.uuid4().hex}"
    return dask.delayed(_run_reading, pure=False)(fn, *args, dask_key_name=name)


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
        One value per chunk: a delayed value, an :class:`InlineRead` for a chunk whose
        task has no dependencies (run it with :func:`chunk_task`), or None.
    """
    if arr is None:
        return [None] * len(row_chunks)
    if tuple(int(c) for c in arr.chunks[0]) != tuple(row_chunks):
        arr = arr.rechunk((tuple(row_chunks),) + arr.chunks[1:])
    if arr.ndim > 1 and arr.numblocks[1] != 1:
        arr = arr.rechunk({1: -1})
    parts = arr.to_delayed()
    return _inline_reads(list(parts.ravel()))


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
    parts = [chunk_parts(a, row_chunks) for a in arrays]
    extra = shared_values(shared)
    return [chunk_task(fn, *(p[i] for p in parts), *extra) for i in range(len(row_chunks))]


def kept_rows(
    tasks: Sequence,
    row_chunks: Sequence[int],
    dtype: Any,
    *,
    with_parts: bool = False,
    with_total: bool = False,
) -> Any:
    """Persist per-chunk per-row results as one Dask array chunked like the data.

    Parameters
    ----------
    tasks : sequence of dask.delayed.Delayed
        One per chunk, each returning a 1-D array of the chunk's rows, or, with
        ``with_parts`` and/or ``with_total``, a tuple ``(rows, part)``, ``(rows, total)``
        or ``(rows, part, total)``.
    row_chunks : sequence of int
        The rows of each chunk.
    dtype : dtype
        Of the per-row results.
    with_parts : bool, default=False
        Whether the tasks return a small per-chunk ``part``; the parts are computed in
        the same run (each task runs once) and returned in chunk order.
    with_total : bool, default=False
        Whether the tasks return a ``total`` share (K-sized tables, say); the shares are
        added on the workers (:func:`svmcore.chunked.tree_sum`) in the same run and only
        their sum is returned.

    Returns
    -------
    rows : dask.array.Array of shape (sum(row_chunks),)
        Persisted: on a ``distributed`` cluster its chunks stay in the workers' memory
        (recomputed from their lineage if a worker is lost).
    parts : list
        With ``with_parts`` only: the per-chunk parts, on the caller.
    total : object
        With ``with_total`` only: the sum of the tasks' totals, on the caller.
    """
    import dask

    from ._blocks import tree_sum

    da = require_dask("kept_rows")
    get = dask.delayed(operator.getitem, pure=True)
    row_tasks = [get(t, 0) for t in tasks] if with_parts or with_total else list(tasks)
    rows = da.concatenate(
        [
            da.from_delayed(t, shape=(int(r),), dtype=dtype)
            for t, r in zip(row_tasks, row_chunks, strict=True)
        ]
    )
    if not (with_parts or with_total):
        return rows.persist()
    held = [get(t, 1) for t in tasks] if with_parts else []
    if with_total:
        held.append(tree_sum([get(t, 1 + with_parts) for t in tasks]))
    # Unoptimized: fusing the array's graph apart from the parts' would copy the tasks
    # into it, and they would run twice (once for the rows, once for the parts).
    rows, *held = dask.persist(rows, *held, optimize_graph=False)
    computed = list(dask.compute(*held))
    out = [rows]
    if with_parts:
        out.append(computed[: len(tasks)])
    if with_total:
        out.append(computed[-1])
    return tuple(out)
