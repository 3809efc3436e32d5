"""Large per-chunk results added in place along a few chains instead of a tree.

A reduction whose per-chunk result is as large as the chunk itself (AID's per-cluster
sums and tallies once the clusters number in the hundreds of thousands) costs more as a
tree than the pass that makes it: every chunk allocates and zeroes a ``K``-sized result,
every addition allocates another, and half of them travel between workers. A fold keeps
one running total per chain: chunk ``i`` of a chain adds its rows into the total the
previous chunk of the chain returned, so a pass allocates ``n_chains`` totals whatever
the number of chunks, and only those travel. The chains run in parallel (one per thread
of the cluster) and their totals are added at the end.

The steps mutate the running total they receive. That is safe in Dask here because each
total has exactly one consumer, the next step of its chain: a step that ran on another
worker received a copy, and a worker lost mid-chain loses the totals it held, which the
scheduler recomputes from the start of their chain (the lineage), never from a
half-updated total.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._detect import current_client, require_dask, scheduler_overridden
from ._kept import shared_values

__all__ = ["fold_chunks", "fold_slots"]


def fold_slots() -> int:
    """How many chains run at once: the threads that can run Dask tasks.

    Those of the current ``distributed`` cluster, else the local scheduler's
    (``num_workers`` in ``dask.config``, or the CPU count).

    Returns
    -------
    int
        At least 1.
    """
    import dask

    if current_client() is not None and not scheduler_overridden():
        return max(1, sum(current_client().nthreads().values()))
    if dask.config.get("scheduler", None) in ("sync", "synchronous", "single-threaded"):
        return 1
    return max(1, int(dask.config.get("num_workers", None) or os.cpu_count() or 1))


def fold_chunks(
    step: Callable,
    chunk_args: Sequence[tuple],
    *,
    shared: Sequence = (),
    n_chains: int | None = None,
) -> Any:
    """``sum_i`` of what ``step`` adds for chunk ``i``, folded along chains, computed.

    The chunks are cut into ``n_chains`` runs of consecutive chunks; along each run
    ``acc = step(acc, *chunk_args[i], *shared)`` starting from ``acc = None`` (the step
    allocates the total at the first chunk of its chain and adds into it in place
    after), and the chains' totals are added with
    :func:`~svmcore.chunked.add_parts`. Within a chain the rows are added in row order,
    so a result depends only on the chunks and ``n_chains``.

    Parameters
    ----------
    step : callable
        ``step(acc, *args, *shared) -> acc``; runs on a worker and may write into
        ``acc`` (see the module's note on why that is safe).
    chunk_args : sequence of tuple
        Per chunk, in row order, the arguments after ``acc`` (delayed chunk parts or
        small values).
    shared : sequence, default=()
        Values every step receives last, sent once per worker.
    n_chains : int or None, default=None
        Number of chains; None uses :func:`fold_slots`. At most one per chunk.

    Returns
    -------
    object
        The total over all chunks (on the caller).
    """
    require_dask("fold_chunks")
    import dask

    from ._blocks import tree_sum

    n = len(chunk_args)
    if n == 0:
        raise ValueError("fold_chunks needs at least one chunk.")
    chains = min(n, fold_slots() if n_chains is None else int(n_chains))
    if chains < 1:
        raise ValueError(f"n_chains must be at least 1, got {n_chains}.")
    bounds = np.linspace(0, n, chains + 1).round().astype(int)
    extra = shared_values(shared)
    call = dask.delayed(step, pure=False)
    totals = []
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        acc = None
        for i in range(lo, hi):
            acc = call(acc, *chunk_args[i], *extra)
        totals.append(acc)
    return tree_sum(totals).compute()
