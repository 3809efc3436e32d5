"""Where the training samples live, and the passes over all of them.

Every decomposition touches all N samples only through passes: a function of a block of
rows ``(start, X, d, cost, *per_row)`` mapped over the blocks, whose small results the
caller merges; the working-set LP needs the rows of its own samples only, read by index
(``samples.X[idx]``). :class:`ArraySamples` holds the samples in memory as one block;
:class:`lpsvr._dask.DaskSamples` maps the same functions over the row chunks of a Dask
array. The algorithms are written once against this interface.
"""

import numpy as np

from svmcore.kernels import kernel_matvec

__all__ = ["ArraySamples", "Samples", "as_samples", "merge_top"]


class Samples:
    """The interface of the sample stores (not public).

    Attributes ``n`` (number of samples) and ``X``, ``d``, ``cost`` (indexable by integer
    arrays: rows, targets and xi costs ``2 C s_j`` of those samples); ``local`` is True
    when the per-row outputs of a pass may be kept (the samples are in this process).
    """

    local = False

    def map(self, fn, *per_row):
        """``[fn(start, X_b, d_b, cost_b, *(a[rows of b] for a in per_row)) for each block b]``.

        Blocks are in row order, ``start`` is the index of a block's first sample, and
        ``per_row`` are arrays of length ``n`` held by the caller; empty blocks are skipped.
        """
        raise NotImplementedError

    def subset(self, indices):
        """The samples ``indices`` (sorted) as a store of their own, numbered from 0."""
        raise NotImplementedError


class ArraySamples(Samples):
    """All samples in this process's memory: one block."""

    local = True

    def __init__(self, X, d, cost):
        self.X, self.d, self.cost = X, d, cost
        self.n = X.shape[0]

    def map(self, fn, *per_row):  # noqa: D102 - see Samples.map
        return [fn(0, self.X, self.d, self.cost, *per_row)]

    def subset(self, indices):  # noqa: D102 - see Samples.subset
        return ArraySamples(self.X[indices], self.d[indices], self.cost[indices])


def as_samples(X, d, cost):
    """``X`` when it is already a sample store, else the arrays ``(X, d, cost)`` in memory."""
    return X if isinstance(X, Samples) else ArraySamples(X, d, cost)


def top_of_block(start, candidates, score, k):
    """The ``k`` best ``candidates`` (ascending block positions) by ``score``, best first.

    Ties keep the lower index first (a stable sort), so that :func:`merge_top` of the blocks'
    lists is the top ``k`` of all samples, whatever the blocks.
    """
    top = candidates[np.argsort(-score[candidates], kind="stable")[:k]]
    return start + top, score[top]


def merge_top(parts, k=None):
    """Merge the blocks' ``(indices, scores)`` of :func:`top_of_block`: the ``k`` best overall."""
    idx = np.concatenate([p[0] for p in parts])
    score = np.concatenate([p[1] for p in parts])
    order = np.lexsort((idx, -score))[:k]
    return idx[order], score[order]


def total(parts, key):
    """Sum of ``part[key]`` over the blocks (one block: that value itself)."""
    return sum(p[key] for p in parts)


class Expansion:
    """``f = K(., X_S) alpha_S + b`` and ``g = K(., X_S) beta_S`` on any rows.

    Holds only the coefficient samples S with nonzero alpha or beta: what a pass over the
    blocks ships to each of them.
    """

    def __init__(self, coef_X, alpha, beta, b, kernel_params, n_jobs):
        keep = (alpha != 0.0) | (beta != 0.0)
        self.rows = coef_X[np.flatnonzero(keep)]
        self.V = np.column_stack([alpha[keep], beta[keep]])
        self.b, self.kernel_params, self.n_jobs = b, kernel_params, n_jobs

    def __call__(self, X):
        """``(f, g)`` on the rows ``X``; K streamed in row blocks."""
        n = X.shape[0]
        if self.V.shape[0] == 0:
            return np.full(n, self.b), np.zeros(n)
        FG = kernel_matvec(X, self.rows, self.V, **self.kernel_params, n_jobs=self.n_jobs)
        return FG[:, 0] + self.b, FG[:, 1]
