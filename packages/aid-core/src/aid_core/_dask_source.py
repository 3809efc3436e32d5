"""A :class:`DataSource` over Dask arrays: AID's passes run where the chunks live."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from svmcore.chunked import RowBlocks, gather_vector
from svmcore.clustering import ChunkedClusters
from svmcore.typing import ArrayLike, MatrixLike

from ._data import Block, DataSource, split_codes

__all__ = ["DaskSource"]


class DaskSource(DataSource):
    """The rows of Dask arrays, read by tasks on the workers (``pip install aid-core[dask]``).

    :meth:`map_rows`, :meth:`map_blocks` and :meth:`reduce_blocks` run one task per row
    chunk on the current ``distributed.Client`` (or Dask's local scheduler): the function
    goes to the data and only its per-row result or its sum comes back. Per-row results
    that the next pass needs (cluster labels, one-byte optimality codes) can stay on the
    workers as persisted Dask arrays (:meth:`map_kept`, passed back as ``per_row``); the
    rows themselves never leave them.

    Parameters
    ----------
    X : dask.array.Array of shape (n_samples, n_features)
        Row-chunked data (dense or CSR chunks), one chunk along the columns; see
        :func:`svmcore.chunked.check_dask_data`.
    y : dask.array.Array of shape (n_samples,) or None, default=None
        Targets chunked as ``X``'s rows.
    sample_weight : dask.array.Array of shape (n_samples,) or None, default=None
        Weights chunked as ``X``'s rows; None means unit weights.
    """

    def __init__(
        self, X: MatrixLike, y: ArrayLike | None = None, sample_weight: ArrayLike | None = None
    ) -> None:
        self.rows = RowBlocks(X, y, sample_weight)
        self._weights: np.ndarray | None = None
        self._targets: np.ndarray | None = None

    @property
    def n_samples(self) -> int:
        return self.rows.n_samples

    @property
    def n_features(self) -> int:
        return self.rows.n_features

    def blocks(self) -> Iterator[Block]:
        """Yield the chunks through the caller, one at a time (the slow, generic path)."""
        for start, X, y, w in self.rows.iter_chunks():
            yield Block(start, X, y, w)

    def take(self, indices: ArrayLike) -> Block:
        X, y, w = self.rows.take(indices)
        return Block(0, X, y, w)

    def map_rows(self, fn: Callable[[Block], np.ndarray]) -> np.ndarray:
        parts = self.rows.map(functools.partial(_on_block, fn))
        return np.concatenate([np.asarray(p) for p in parts])

    def map_blocks(self, fn: Callable, *per_row: Any, shared: Sequence = ()) -> list:
        return self.rows.map(functools.partial(_on_block, fn), *per_row, shared=shared)

    def map_kept(
        self, fn: Callable, *per_row: Any, dtype: Any, shared: Sequence = ()
    ) -> tuple[Any, list]:
        """The per-row results stay on the workers: a persisted Dask array chunked as ``X``."""
        return self.rows.map_kept(
            functools.partial(_on_block, fn), *per_row, dtype=dtype, shared=shared
        )

    def map_codes(self, fn: Callable, clusters: Any, *, shared: Sequence = ()) -> tuple:
        """As :meth:`DataSource.map_codes`; the split's (cluster, key) tally of
        :class:`svmcore.clustering.ChunkedClusters` is counted in the same tasks
        (:meth:`svmcore.clustering.ChunkedClusters.map_codes`), not in a map of its own.
        """
        if not isinstance(clusters, ChunkedClusters):
            return super().map_codes(fn, clusters, shared=shared)
        _, parts, key, free = clusters.map_codes(
            self.rows,
            functools.partial(_on_block, fn),
            split_key=split_codes,
            dtype=np.int8,
            shared=shared,
        )
        return key, free, parts

    def reduce_blocks(self, fn: Callable, *per_row: Any, **options: Any) -> Any:
        """As :meth:`DataSource.reduce_blocks` (``shared``, ``part_bytes``) on the workers."""
        return self.rows.reduce(functools.partial(_on_block, fn), *per_row, **options)

    def weights(self) -> np.ndarray:
        """Every row's weight, read once from the weights' chunks (not ``X``'s) and kept."""
        if self._weights is None:
            w = self.rows.sample_weight
            self._weights = np.ones(self.n_samples) if w is None else gather_vector(w)
        return self._weights

    def targets(self) -> np.ndarray | None:
        """Every row's target, read once from the targets' chunks (not ``X``'s) and kept."""
        if self._targets is None and self.rows.y is not None:
            self._targets = gather_vector(self.rows.y).astype(np.float64, copy=False)
        return self._targets


def _on_block(fn, start, X, y, w, *per_row):
    return fn(Block(start, X, y, w), *per_row)
