"""Row blocks of a memory-mapped chunk whose pages are let go once they are read."""

from __future__ import annotations

import mmap
from collections.abc import Iterator

import numpy as np

__all__ = ["released_row_blocks"]

#: Rows per block of :func:`released_row_blocks` (5 MB of a 10-column float64 chunk).
RELEASE_BLOCK_ROWS = 65_536


def _read_only_mapping(X: np.ndarray) -> mmap.mmap | None:
    """The ``mmap`` behind ``X`` when ``X`` views a read-only ``np.memmap``, else None."""
    a = X
    while isinstance(a, np.ndarray):
        if isinstance(a, np.memmap) and getattr(a, "_mmap", None) is not None:
            # Only mode "r": MADV_DONTNEED would discard the writes of a "c" (private)
            # map, and "r+"/"w+" maps are the caller's to manage.
            return a._mmap if a.mode == "r" else None
        a = a.base
    return None


def released_row_blocks(X: np.ndarray, block_rows: int = RELEASE_BLOCK_ROWS) -> Iterator[slice]:
    """Yield slices of consecutive rows of ``X``, letting a memory map's pages go once read.

    A chunk that Dask reads with ``np.load(path, mmap_mode="r")``
    (``dask.array.from_npy_stack``, or ``from_array`` of a ``np.memmap``) counts in the worker's
    resident memory page by page as a task reads it, and the pages stay mapped until
    the task drops the chunk: a 500,000 x 10 float64 chunk adds 40 MB to the task's
    peak. Read block by block, with each block's pages handed back
    (``madvise(MADV_DONTNEED)``: the file's pages stay in the OS cache, a later read of
    them faults them in again) once the loop asks for the next block, a sequential
    pass over the chunk holds about one block. Other arrays come as one slice, so a
    caller's loop is the plain call for them.

    Parameters
    ----------
    X : ndarray of shape (n_rows, ...)
        The rows to read, in order.
    block_rows : int, default=65536
        Rows per block of a read-only memory map.

    Yields
    ------
    slice
        ``slice(lo, hi)``: rows to read now. The pages of rows before ``hi`` may be
        released when the next slice is requested, so read each block within its turn.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.chunked import released_row_blocks
    >>> [(s.start, s.stop) for s in released_row_blocks(np.zeros((5, 2)))]
    [(0, 5)]
    """
    n = X.shape[0]
    mapping = _read_only_mapping(X) if X.ndim >= 1 and n > block_rows else None
    if mapping is None or not hasattr(mapping, "madvise") or not X.flags.c_contiguous:
        yield slice(0, n)
        return
    start = np.frombuffer(mapping, dtype=np.uint8).ctypes.data  # the map's first byte
    row_bytes = X.strides[0]
    for lo in range(0, n, block_rows):
        hi = min(lo + block_rows, n)
        yield slice(lo, hi)
        first = X.ctypes.data + lo * row_bytes - start
        aligned = first - first % mmap.PAGESIZE
        mapping.madvise(mmap.MADV_DONTNEED, aligned, first + (hi - lo) * row_bytes - aligned)
