"""Row-block access to the original data, so AID never needs all of it in memory at once.

AID touches the original data in three places only: the initial clustering, the
re-aggregation after a split, and the evaluation of E^t. All three are sums or maps over
rows, so a source that yields row blocks in a fixed order is enough.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import scipy.sparse as sp

from svmcore.chunked import add_parts, is_dask_collection
from svmcore.typing import ArrayLike, MatrixLike

__all__ = [
    "ArraySource",
    "Block",
    "ChunkSource",
    "DataSource",
    "as_data_source",
    "split_codes",
]

#: Rows per block when the caller gives none: about 8 MB of float64 at 128 features.
DEFAULT_BLOCK_ROWS = 8192


@dataclass(frozen=True)
class Block:
    """One block of consecutive rows.

    Parameters
    ----------
    start : int
        Index of the block's first row in the whole data set.
    X : ndarray or sparse matrix of shape (n_rows, n_features)
        The block's rows of the data.
    y : ndarray of shape (n_rows,) or None
        Their targets, or None when the source has none.
    sample_weight : ndarray of shape (n_rows,) or None
        Their weights; ``None`` means unit weights.
    """

    start: int
    X: Any  # ndarray or CSR rows
    y: np.ndarray | None
    sample_weight: np.ndarray | None

    @property
    def stop(self) -> int:
        """Index one past the block's last row."""
        return self.start + self.X.shape[0]

    @property
    def weights(self) -> np.ndarray:
        """The rows' weights, ones when the source has none."""
        if self.sample_weight is None:
            return np.ones(self.X.shape[0])
        return np.asarray(self.sample_weight, dtype=np.float64)

    def rows(self, positions: ArrayLike) -> Block:
        """The block's rows at ``positions`` (0-based within the block), as a block of their own.

        The result starts at row 0: its rows need not be consecutive in the data.
        """
        return Block(
            0,
            self.X[positions],
            None if self.y is None else self.y[positions],
            None if self.sample_weight is None else np.asarray(self.sample_weight)[positions],
        )


def split_codes(code: Any) -> tuple[Any, Any]:
    """``(code & 1, code >= 2)``: the key and the free rows of :meth:`DataSource.map_codes`' codes.

    Parameters
    ----------
    code : ndarray or dask.array.Array of int8
        Per-row codes.

    Returns
    -------
    key, free : ndarray or dask.array.Array
        Bit 0 of each code, and whether bit 1 is set.
    """
    return code & 1, code >= 2


class DataSource(ABC):
    """Sequential access to the rows of ``(X, y, sample_weight)`` in blocks.

    Every pass yields the same rows in the same order; blocks are consecutive and cover
    rows ``0 .. n_samples - 1`` exactly once.
    """

    @property
    @abstractmethod
    def n_samples(self) -> int:
        """Number of rows."""

    @property
    @abstractmethod
    def n_features(self) -> int:
        """Number of columns."""

    @abstractmethod
    def blocks(self) -> Iterator[Block]:
        """Yield the data as consecutive row blocks."""

    def take(self, indices: ArrayLike) -> Block:
        """Gather the rows ``indices`` (sorted ascending in the output) in one pass.

        Used for the small random samples of the initial clustering.
        """
        indices = np.unique(np.asarray(indices, dtype=np.intp))
        parts_X: list[Any] = []
        parts_y: list[Any] = []
        parts_w: list[Any] = []
        for block in self.blocks():
            lo, hi = np.searchsorted(indices, [block.start, block.stop])
            if lo == hi:
                continue
            part = block.rows(indices[lo:hi] - block.start)
            parts_X.append(part.X)
            parts_y.append(part.y)
            parts_w.append(part.sample_weight)
        if not parts_X:
            raise ValueError("take() needs at least one index inside the data.")
        X = sp.vstack(parts_X, format="csr") if sp.issparse(parts_X[0]) else np.vstack(parts_X)
        y = None if parts_y[0] is None else np.concatenate(parts_y)
        w = None if parts_w[0] is None else np.concatenate(parts_w)
        return Block(0, X, y, w)

    def map_rows(self, fn: Callable[[Block], np.ndarray]) -> np.ndarray:
        """Concatenate ``fn(block)`` over all blocks: a per-row quantity for the whole data.

        ``fn`` may run in another process (:class:`DaskSource`): it should close over
        small objects only (the model), never over per-row arrays.
        """
        return np.concatenate([np.asarray(fn(block)) for block in self.blocks()])

    def map_blocks(self, fn: Callable, *per_row: Any, shared: Sequence = ()) -> list:
        """``[fn(block, *(a[block rows] for a in per_row), *shared) for block in blocks()]``.

        For per-block results that are neither one per row nor summed: a compact per-row
        code together with a partial sum, so that only those travel (:class:`DaskSource`).
        The same rules as :meth:`map_rows` apply to ``fn``; see :meth:`reduce_blocks` for
        ``per_row`` and ``shared``.
        """
        return [
            fn(block, *(a[block.start : block.stop] for a in per_row), *shared)
            for block in self.blocks()
        ]

    def map_kept(
        self, fn: Callable, *per_row: Any, dtype: Any, shared: Sequence = ()
    ) -> tuple[Any, list]:
        """:meth:`map_blocks` of a ``fn`` returning ``(per-row array, small part)``.

        Returns the per-row arrays joined where they are kept (one ndarray here, a
        persisted Dask array on the workers for :class:`DaskSource`) and the parts in
        block order; ``dtype`` is the per-row arrays'.
        """
        parts = self.map_blocks(fn, *per_row, shared=shared)
        rows = [np.asarray(r, dtype=dtype) for r, _ in parts]
        return np.concatenate(rows), [p for _, p in parts]

    def map_codes(self, fn: Callable, clusters: Any, *, shared: Sequence = ()) -> tuple:
        """AID's evaluation pass: per-row one-byte codes kept, per-block parts back.

        ``fn(block, *shared)`` returns ``(code, part)`` with ``code`` an int8 per row
        whose bit 0 is the row's key for the declustering and bit 1 marks a row free
        to go with either key (:class:`Evaluation`'s ``key`` and ``free``).

        Parameters
        ----------
        fn : callable
            The block's codes and part (the same rules as :meth:`map_rows`).
        clusters : svmcore.clustering.Clusters
            The partition the codes will split; :class:`DaskSource` counts the split
            of :class:`svmcore.clustering.ChunkedClusters` in the same pass.
        shared : sequence, default=()
            As for :meth:`reduce_blocks`.

        Returns
        -------
        key, free : ndarray or dask.array.Array
            ``code & 1`` and ``code >= 2``, where the codes are kept.
        parts : list
            ``fn``'s parts in block order.
        """
        code, parts = self.map_kept(fn, dtype=np.int8, shared=shared)
        return (*split_codes(code), parts)

    def reduce_blocks(
        self,
        fn: Callable,
        *per_row: Any,
        shared: Sequence = (),
        part_bytes: float | None = None,
    ) -> Any:
        """Sum ``fn(block, *(a[block rows] for a in per_row), *shared)`` over all blocks.

        Parameters
        ----------
        fn : callable
            Returns an array, sparse matrix, number or tuple of them (``None`` entries
            stay ``None``) for one block; the same rules as :meth:`map_rows` apply.
        *per_row : ndarray of shape (n_samples, ...)
            Per-row arrays (cluster labels), sliced to each block's rows; a
            :class:`DaskSource` also takes Dask arrays kept on its workers.
        shared : sequence, default=()
            Further arguments of every call (K-sized lookups): a :class:`DaskSource`
            sends each once per worker rather than inside every task.
        part_bytes : float or None, default=None
            Bytes of ``fn``'s result, a hint: a :class:`DaskSource` lets one task add
            several chunks' results when they are large next to the chunks
            (:meth:`svmcore.chunked.RowBlocks.fold_size`). Blocks are added in order
            either way.

        Returns
        -------
        object
            The sum over blocks.
        """
        total = None
        for block in self.blocks():
            part = fn(block, *(a[block.start : block.stop] for a in per_row), *shared)
            total = part if total is None else add_parts(total, part)
        return total

    def weights(self) -> np.ndarray:
        """Every row's weight in one pass (ones where the source has no weights)."""
        return self.map_rows(lambda block: block.weights)

    def targets(self) -> np.ndarray | None:
        """Every row's target in one pass (None when the source has none)."""
        parts: list[Any] = [block.y for block in self.blocks()]
        return None if parts[0] is None else np.concatenate(parts).astype(np.float64, copy=False)


class ArraySource(DataSource):
    """Blocks of an in-memory or memory-mapped array (dense ``ndarray``/``np.memmap`` or CSR).

    Parameters
    ----------
    X : ndarray, np.memmap or scipy.sparse CSR matrix of shape (n_samples, n_features)
        The data (other sparse formats are converted to CSR).
    y : ndarray of shape (n_samples,), default=None
        Targets, if any.
    sample_weight : ndarray of shape (n_samples,), default=None
        Sample weights; None means unit weights.
    block_size : int or None, default=None
        Rows per block; ``None`` yields the whole array as one block (no copy), the fast
        path for in-memory data.
    """

    def __init__(
        self,
        X: MatrixLike,
        y: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        *,
        block_size: int | None = None,
    ) -> None:
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D; got {X.ndim} dimensions.")
        n = X.shape[0]
        for name, arr in (("y", y), ("sample_weight", sample_weight)):
            if arr is not None and np.shape(arr)[0] != n:
                raise ValueError(f"{name} has {np.shape(arr)[0]} rows; X has {n}.")
        if block_size is not None and (int(block_size) != block_size or block_size < 1):
            raise ValueError(f"block_size must be a positive integer or None; got {block_size!r}.")
        self.X = X.tocsr() if sp.issparse(X) else X
        # Kept as given (a memory map is sliced block by block, never read whole).
        self.y: Any = y
        self.sample_weight: Any = sample_weight
        self.block_size = None if block_size is None else int(block_size)

    @property
    def n_samples(self) -> int:
        return self.X.shape[0]

    @property
    def n_features(self) -> int:
        return self.X.shape[1]

    def blocks(self) -> Iterator[Block]:
        n = self.n_samples
        step = n if self.block_size is None else self.block_size
        for start in range(0, max(n, 1), max(step, 1)):
            stop = min(start + step, n)
            if not sp.issparse(self.X):
                # np.asarray turns a memmap slice into a plain in-memory block.
                X = np.asarray(self.X[start:stop])
            else:
                # SciPy's row slice copies: not all of X for the one-block source.
                X = self.X if stop - start == n else self.X[start:stop]
            y = None if self.y is None else np.asarray(self.y[start:stop])
            w = None if self.sample_weight is None else np.asarray(self.sample_weight[start:stop])
            yield Block(start, X, y, w)


class ChunkSource(DataSource):
    """Blocks produced by a factory of chunk iterators (files read piece by piece, databases).

    Parameters
    ----------
    factory : callable
        ``factory()`` returns a fresh iterable of chunks ``(X, y)`` or ``(X, y, sample_weight)``
        (``y`` may be ``None``); it is called once per pass and must yield the same rows in
        the same order every time.
    n_samples, n_features : int or None, default=None
        Sizes when known; otherwise one counting pass computes them on first use.
    """

    def __init__(
        self,
        factory: Callable[[], Iterable[tuple]],
        *,
        n_samples: int | None = None,
        n_features: int | None = None,
    ) -> None:
        if not callable(factory):
            raise TypeError(f"factory must be callable; got {type(factory).__name__}.")
        self.factory = factory
        self._n_samples = n_samples
        self._n_features = n_features

    def _count(self):
        n, m = 0, None
        for block in self.blocks():
            n = block.stop
            m = block.X.shape[1]
        if m is None:
            raise ValueError("The chunk factory yielded no rows.")
        self._n_samples, self._n_features = n, m

    @property
    def n_samples(self) -> int:
        if self._n_samples is None:
            self._count()
        return cast(int, self._n_samples)

    @property
    def n_features(self) -> int:
        if self._n_features is None:
            self._count()
        return cast(int, self._n_features)

    def blocks(self) -> Iterator[Block]:
        start = 0
        for chunk in self.factory():
            if not isinstance(chunk, tuple) or len(chunk) not in (2, 3):
                raise TypeError("Each chunk must be a tuple (X, y) or (X, y, sample_weight).")
            X, y, w = (*chunk, None) if len(chunk) == 2 else chunk
            X = X.tocsr() if sp.issparse(X) else np.asarray(X)
            rows = X.shape[0]
            for name, arr in (("y", y), ("sample_weight", w)):
                if arr is not None and np.shape(arr)[0] != rows:
                    raise ValueError(f"A chunk's {name} has {np.shape(arr)[0]} rows; X has {rows}.")
            yield Block(
                start, X, None if y is None else np.asarray(y), None if w is None else np.asarray(w)
            )
            start += rows


def as_data_source(
    X: MatrixLike | DataSource,
    y: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    *,
    block_size: int | None = None,
) -> DataSource:
    """Wrap ``X`` as a :class:`DataSource`; a source passes through unchanged.

    Parameters
    ----------
    X : DataSource, ndarray, np.memmap, sparse matrix or dask.array.Array
        The data, or a source returned as is; Dask arrays (validated by
        :func:`svmcore.chunked.check_dask_data`) become a :class:`DaskSource`.
    y, sample_weight : ndarray or None
        Only used when ``X`` is an array.
    block_size : int or None, default=None
        Rows per block for array input; ``None`` is one block for in-memory arrays and
        :data:`DEFAULT_BLOCK_ROWS` for memory maps, so a memmap is never loaded whole.

    Returns
    -------
    source : DataSource
        ``X`` itself if it is a source, a :class:`DaskSource` over Dask arrays, else an
        :class:`ArraySource`.
    """
    if isinstance(X, DataSource):
        return X
    if is_dask_collection(X):
        from ._dask_source import DaskSource

        return DaskSource(X, y, sample_weight)
    if block_size is None and isinstance(X, np.memmap):
        block_size = DEFAULT_BLOCK_ROWS
    return ArraySource(X, y, sample_weight, block_size=block_size)
