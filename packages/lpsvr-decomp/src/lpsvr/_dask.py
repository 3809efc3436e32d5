"""LPSVR on a row-chunked Dask array (``pip install lpsvr-decomp[dask]``).

The decompositions touch all N samples only through passes over blocks of samples
(:mod:`lpsvr._samples`); here a pass is one task per row chunk
(:class:`svmcore.chunked.RowBlocks`), run where the chunk lives, on the current
``distributed.Client`` or else on Dask's local scheduler. A task receives the working
set's nonzero coefficient rows and returns its counts, sums and best candidates; the
working-set LP stays on the driver, which reads the rows of its samples by index
(:meth:`RowBlocks.take`, kept in a cache). Nothing here imports Dask: the input does.
"""

import math
from functools import partial

import numpy as np

from svmcore.chunked import RowBlocks, check_dask_data, map_predict
from svmcore.validation import check_magnitude

from ._samples import ArraySamples, Samples

__all__ = ["DaskSamples", "fit_dask", "predict_dask"]

#: A subsample level of "row_column" with at most this many entries (rows x features) is
#: gathered and solved on the driver (8 MB of float64): its passes would cost more in
#: tasks than in memory.
_LOCAL_ENTRIES = 1 << 20


class _RowCache:
    """Rows, targets and xi costs read from the chunks by original index, kept on the driver."""

    def __init__(self, blocks, scale):
        self.blocks, self.scale = blocks, scale
        self.keys = np.zeros(0, dtype=np.int64)  # sorted original indices held
        self.slot = np.zeros(0, dtype=np.intp)  # their place in the arrays below
        self.X = np.empty((0, blocks.n_features))
        self.d = np.empty(0)
        self.cost = np.empty(0)

    def slots(self, orig):
        """Places of the rows ``orig`` (any order, repeats allowed), reading missing ones."""
        orig = np.asarray(orig, dtype=np.int64)
        pos = np.searchsorted(self.keys, orig)
        held = np.zeros(orig.shape, dtype=bool)
        if self.keys.size:
            held = self.keys[np.minimum(pos, self.keys.size - 1)] == orig
        if not held.all():
            self._read(np.unique(orig[~held]))
            pos = np.searchsorted(self.keys, orig)
        return self.slot[pos]

    def _read(self, missing):
        X, y, w = self.blocks.take(missing)
        n = self.d.size
        self.X = np.concatenate([self.X, np.asarray(X, dtype=np.float64)])
        self.d = np.concatenate([self.d, np.asarray(y, dtype=np.float64)])
        cost = np.full(missing.size, self.scale) if w is None else self.scale * w
        self.cost = np.concatenate([self.cost, cost])
        keys = np.concatenate([self.keys, missing])
        order = np.argsort(keys, kind="stable")
        self.keys = keys[order]
        self.slot = np.concatenate([self.slot, n + np.arange(missing.size)])[order]


class _Rows:
    """``store[idx]``: one field (X, d or cost) of a sample store's samples ``idx``."""

    def __init__(self, samples, field):
        self.samples, self.field = samples, field

    def __getitem__(self, idx):
        cache = self.samples.cache
        slots = cache.slots(self.samples.original(idx))  # may read rows: before the field
        return getattr(cache, self.field)[slots]


class DaskSamples(Samples):
    """Samples in the row chunks of Dask arrays: passes are tasks, one per chunk.

    ``index`` (sorted original row indices) restricts the samples to those rows, numbered
    from 0 in that order: the samples of nonzero weight, or a subsample level of
    "row_column". Per-sample arrays of a pass are spread over the chunks' rows.
    """

    def __init__(self, blocks, scale, index=None, cache=None):
        self.blocks, self.scale, self.index = blocks, scale, index
        self.cache = _RowCache(blocks, scale) if cache is None else cache
        self.n = blocks.n_samples if index is None else index.size
        self.X, self.d, self.cost = (_Rows(self, field) for field in ("X", "d", "cost"))

    def original(self, idx):
        """Original row indices of the samples ``idx``."""
        idx = np.asarray(idx, dtype=np.int64)
        return idx if self.index is None else self.index[idx]

    def map(self, fn, *per_row):  # noqa: D102 - see Samples.map
        starts = self.blocks.starts
        if self.index is None:
            task = partial(_on_chunk, fn, self.scale, starts, starts, False)
            parts = self.blocks.map(task, *per_row)
        else:
            N = self.blocks.n_samples
            member = np.zeros(N, dtype=bool)
            member[self.index] = True
            spread = []
            for a in per_row:
                full = np.zeros((N,) + a.shape[1:], dtype=a.dtype)
                full[self.index] = a
                spread.append(full)
            first = np.searchsorted(self.index, starts)  # each chunk's first sample
            task = partial(_on_chunk, fn, self.scale, starts, first, True)
            parts = self.blocks.map(task, member, *spread)
        return [p for p in parts if p is not None]

    def subset(self, indices):  # noqa: D102 - see Samples.subset
        orig = self.original(indices)
        if orig.size * self.blocks.n_features <= _LOCAL_ENTRIES:
            slots = self.cache.slots(orig)
            return ArraySamples(self.cache.X[slots], self.cache.d[slots], self.cache.cost[slots])
        return DaskSamples(self.blocks, self.scale, orig, self.cache)


def _on_chunk(fn, scale, starts, first, selected, start, X, y, w, *per_row):
    """One chunk's block of samples: float64 rows, targets, xi costs ``scale * w``."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    d = np.asarray(y, dtype=np.float64)
    cost = np.full(X.shape[0], scale) if w is None else scale * np.asarray(w, dtype=np.float64)
    if selected:
        member, *per_row = per_row
        X, d, cost = X[member], d[member], cost[member]
        per_row = [a[member] for a in per_row]
    if X.shape[0] == 0:
        return None
    block = int(np.searchsorted(starts, start))
    return fn(int(first[block]), X, d, cost, *per_row)


def _chunk_stats(zero_weights, start, X, y, w):
    """What the fit needs of one chunk besides validation: for gamma="scale" (the variance
    of ``X / 2^k``, k from the chunk's largest entry, as :func:`svmcore.kernels.resolve_gamma`),
    the largest ``|y|``, and the rows of nonzero weight when some weight is zero."""
    X = np.asarray(X, dtype=np.float64)
    top = float(np.max(np.abs(X), initial=0.0))
    k = math.frexp(top)[1] if top > 0.0 else 0
    Xs = X * np.ldexp(1.0, -k)
    mean = float(Xs.mean()) if X.size else 0.0
    m2 = float(((Xs - mean) ** 2).sum())
    kept = start + np.flatnonzero(np.asarray(w) > 0) if zero_weights else None
    return X.size, top, k, mean, m2, float(np.max(np.abs(y), initial=0.0)), kept


def _gamma_scale(stats, n_features):
    """``1 / (n_features X.var())`` from the chunks' statistics (Chan et al.'s pairwise merge)."""
    top = max(s[1] for s in stats)
    if top == 0.0:
        return 1.0
    k = math.frexp(top)[1]
    n, mean, m2 = 0, 0.0, 0.0
    for n_b, _, k_b, mean_b, m2_b, *_ in stats:
        if n_b == 0:
            continue
        mean_b, m2_b = math.ldexp(mean_b, k_b - k), math.ldexp(m2_b, 2 * (k_b - k))
        delta = mean_b - mean
        total = n + n_b
        mean += delta * n_b / total
        m2 += m2_b + delta * delta * n * n_b / total
        n = total
    var = m2 / n
    if var <= 0.0:
        return 1.0
    gamma = math.ldexp(1.0 / (n_features * var), -2 * k)
    if not np.isfinite(gamma) or gamma < np.finfo(np.float64).tiny:
        raise ValueError(
            "gamma='scale' is outside the float range for this X: rescale X (e.g. "
            "dask_ml.preprocessing.StandardScaler) or pass a numeric gamma."
        )
    return gamma


def fit_dask(estimator, X, y, sample_weight, budget):
    """Fit ``estimator`` (an LPSVR) on Dask input; sets its fitted attributes.

    One pass validates the data (:func:`svmcore.chunked.check_dask_data`), one more
    gathers gamma's statistics, ``max |y|`` and the rows of nonzero weight; then the
    decomposition runs with its all-sample checks as chunk tasks.
    """
    name = type(estimator).__name__
    if y is None:
        raise ValueError(f"{name} requires y to be passed, but the target y is None.")
    if estimator.decomposition == "none":
        raise ValueError(
            "decomposition='none' needs the N x N kernel in memory; with a Dask X use "
            "'row_column' (the default), 'variables' or 'full'."
        )
    data = check_dask_data(X, y, sample_weight, estimator=name)
    if not np.issubdtype(data.y.dtype, np.number):
        raise ValueError(f"{name}: y must be numeric; got dtype {data.y.dtype}.")
    X = data.X if data.X.dtype == np.float64 else data.X.astype(np.float64)
    blocks = RowBlocks(X, data.y, data.sample_weight)
    stats = blocks.map(partial(_chunk_stats, data.any_zero_weight))
    check_magnitude(np.array([max(s[5] for s in stats)]), "y", name)
    kept = np.concatenate([s[6] for s in stats]) if data.any_zero_weight else None
    if kept is not None and kept.size == 0:
        raise ValueError("Sample weights must contain at least one non-zero number.")
    n_samples, n_features = blocks.n_samples, blocks.n_features
    estimator.n_features_in_ = n_features
    if hasattr(estimator, "feature_names_in_"):
        del estimator.feature_names_in_
    gamma = None
    if estimator.sigma is None and isinstance(estimator.gamma, str):
        gamma = 1.0 / n_features if estimator.gamma == "auto" else _gamma_scale(stats, n_features)
    kernel_params = estimator._kernel_params(None, gamma=gamma)
    B0 = estimator._check_sizes(n_samples)
    samples = DaskSamples(blocks, 2.0 * float(estimator.C), kept)
    res = estimator._fit_samples(samples, kernel_params, B0, budget)
    estimator._set_fitted(samples.X, res, kept, kernel_params)
    return estimator


def predict_dask(estimator, X):
    """``estimator.predict`` on every row chunk of a Dask array, lazily (a Dask array)."""
    if getattr(X, "ndim", None) != 2 or not hasattr(X, "map_blocks"):
        raise ValueError("X must be a 2-D dask.array.Array of shape (n_samples, n_features).")
    if X.shape[1] != estimator.n_features_in_:
        raise ValueError(
            f"X has {X.shape[1]} features, but {type(estimator).__name__} is expecting "
            f"{estimator.n_features_in_} features as input."
        )
    return map_predict(partial(_predict_chunk, estimator), X, dtype=np.float64)


def _predict_chunk(estimator, X):
    return estimator._decision(np.ascontiguousarray(X, dtype=np.float64))
