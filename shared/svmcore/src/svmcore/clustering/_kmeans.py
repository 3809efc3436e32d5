"""One k-means iteration on a low-dimensional projection (the AID paper's initial clustering)."""

from __future__ import annotations

import numpy as np
from numba import prange
from scipy.spatial import cKDTree

from ..numba_config import jit, jit_parallel
from ..typing import ArrayLike, RandomStateLike
from ..validation import check_float_array, check_positive_int
from ._strips import CentreStrips

__all__ = [
    "CentreIndex",
    "centre_sums",
    "kmeans_centres",
    "kmeans_one_iteration",
    "kmeans_seed_rows",
    "moved_centres",
    "nearest_centre",
    "quantile_centres",
]

# Above this many centres (in at most _TREE_MAX_DIMS dimensions) the assignment uses a
# k-d tree: at 200k points and 1,000 centres in 2-d, 0.76 s brute force vs ~0.1 s.
_TREE_MIN_CENTRES = 256
_TREE_MAX_DIMS = 8


@jit_parallel
def _nearest_centre(Z, centres, labels):
    """Index of the nearest centre of every row (first one on ties); one row per iteration."""
    n, p = Z.shape
    for i in prange(n):
        best = np.inf
        arg = 0
        for k in range(centres.shape[0]):
            dist = 0.0
            for j in range(p):
                diff = Z[i, j] - centres[k, j]
                dist += diff * diff
            if dist < best:
                best = dist
                arg = k
        labels[i] = arg


@jit
def _count_below(edges, z, lo, scale, guess, out):
    """``out[t] = #{edges < z[t]}`` (np.searchsorted(edges, z, "left")) for sorted ``edges``.

    ``guess[b]`` is the count at the left end of the uniform bucket ``b`` of ``z``'s
    range; the walk from it to the exact count is a step or two for quantile-spaced
    edges, so each point costs O(1) instead of a binary search.
    """
    m = edges.shape[0]
    top = guess.shape[0] - 1
    for t in range(z.shape[0]):
        v = z[t]
        if v != v:  # NaN sorts last, as in numpy
            out[t] = m
            continue
        b = (v - lo) * scale
        i = guess[0] if b < 0 else (guess[top] if b >= top else guess[int(b)])
        while i < m and edges[i] < v:
            i += 1
        while i > 0 and edges[i - 1] >= v:
            i -= 1
        out[t] = i


def _search_left(edges, z):
    """``np.searchsorted(edges, z, side="left")`` for many points and sorted ``edges``."""
    if edges.size < 16 or z.size < 64 * edges.size:
        return np.searchsorted(edges, z, side="left")
    lo, hi = float(edges[0]), float(edges[-1])
    n_buckets = 4 * edges.size
    if not hi > lo or not np.isfinite(hi - lo):
        return np.searchsorted(edges, z, side="left")
    scale = n_buckets / (hi - lo)
    guess = np.searchsorted(edges, lo + np.arange(n_buckets + 1) / scale, side="left")
    out = np.empty(z.shape[0], dtype=np.int64)
    _count_below(edges, z, lo, scale, guess.astype(np.int64), out)
    return out


class CentreIndex:
    """Centres prepared for nearest-centre queries, built once and reused for many chunks.

    :func:`nearest_centre` and :func:`centre_sums` build one from their centres on every
    call (sorting them); a caller that assigns many chunks of points to the same centres
    (a Dask map, 128 chunks per pass) builds it once and passes it in their place. The
    assignment is the same: brute force's nearest centre (first one on exact ties) by
    sorted midpoints in 1-d and sorted strips in 2-d; a k-d tree for more than 256
    centres in 3 to 8 dimensions (an exact tie may then go to either centre).

    Parameters
    ----------
    centres : array-like of shape (n_centres,) or (n_centres, n_dims)
        The centres.

    Attributes
    ----------
    centres : ndarray of shape (n_centres, n_dims), float64
        The centres, C-contiguous.

    Examples
    --------
    >>> index = CentreIndex([[0.0], [5.0], [10.0]])
    >>> nearest_centre([1.0, 6.0, 9.0], index).tolist()
    [0, 1, 2]
    """

    def __init__(self, centres: ArrayLike) -> None:
        centres = np.asarray(centres, dtype=np.float64)
        self.centres = np.ascontiguousarray(centres.reshape(centres.shape[0], -1))
        K, p = self.centres.shape
        self._line = self._strips = self._tree = None
        if p == 1:
            # 1-d: sorted centres split the line at their midpoints, O(n) after an O(K) table.
            order = np.argsort(self.centres[:, 0], kind="stable")
            c = self.centres[order, 0]
            self._line = (order, 0.5 * (c[1:] + c[:-1]))
        elif K > _TREE_MIN_CENTRES and p == 2:
            # Many centres in the plane (AID-LAD's (r, y)): sorted strips, exact and
            # brute force's tie rule, 3-5x faster than the k-d tree below.
            self._strips = CentreStrips(self.centres)
        elif K > _TREE_MIN_CENTRES and p <= _TREE_MAX_DIMS:
            # Many centres in few dimensions: a k-d tree over the centres, O(n log K)
            # instead of O(n K) (exact nearest; an exact distance tie may pick either centre).
            self._tree = cKDTree(self.centres)

    def nearest(self, Z: np.ndarray) -> np.ndarray:
        """Index of the nearest centre of every row of the float64 points ``Z`` (n, n_dims)."""
        if Z.shape[1] != self.centres.shape[1]:
            raise ValueError(
                f"Points have {Z.shape[1]} coordinate(s), the centres {self.centres.shape[1]}."
            )
        if self._line is not None:
            order, mids = self._line
            return order[_search_left(mids, np.ascontiguousarray(Z[:, 0]))]
        if self._strips is not None:
            return self._strips.nearest(Z)
        if self._tree is not None:
            _, labels = self._tree.query(Z, k=1, workers=-1)
            return labels.astype(np.int64, copy=False)
        labels = np.empty(Z.shape[0], dtype=np.int64)
        _nearest_centre(Z, self.centres, labels)
        return labels


def _index(centres):
    return centres if isinstance(centres, CentreIndex) else CentreIndex(centres)


def _assign(Z, centres):
    return _index(centres).nearest(Z)


def _label_sums(Z, labels, n_centres):
    """Per-centre coordinate sums and counts of labelled points (one bincount per column)."""
    counts = np.bincount(labels, minlength=n_centres)
    sums = np.stack(
        [np.bincount(labels, weights=Z[:, j], minlength=n_centres) for j in range(Z.shape[1])],
        axis=1,
    )
    return sums, counts


def _initial_centres(Z, n_clusters, random_state):
    if Z.shape[1] == 1:
        return quantile_centres(Z[:, 0], n_clusters)
    return Z[kmeans_seed_rows(Z.shape[0], n_clusters, random_state)]


def quantile_centres(values: ArrayLike, n_clusters: int) -> np.ndarray:
    """The ``(k + 1/2) / K`` quantiles of 1-d values: :func:`kmeans_centres`' initial centres.

    A caller whose values are too many to gather passes those of a uniform sample and
    hands the result to :func:`kmeans_centres` (or :func:`centre_sums`) as ``init``.

    Parameters
    ----------
    values : array-like of shape (n_values,)
        The 1-d points (or a sample of them); at least one.
    n_clusters : int
        Number of centres K.

    Returns
    -------
    ndarray of shape (n_clusters, 1)
        Nondecreasing centres (linear interpolation between order statistics, as
        ``numpy.quantile``).

    Examples
    --------
    >>> quantile_centres([0.0, 1.0, 2.0, 3.0], 2).ravel().tolist()
    [0.75, 2.25]
    """
    values = check_float_array(values, "values", ndim=1, dtype=np.float64)
    n_clusters = check_positive_int(n_clusters, "n_clusters")
    q = (np.arange(n_clusters) + 0.5) / n_clusters
    return np.quantile(values, q)[:, None]


def kmeans_seed_rows(n_samples: int, n_clusters: int, random_state: RandomStateLike) -> np.ndarray:
    """The rows whose points are the initial centres of :func:`kmeans_centres` (2-d and up).

    A seeded uniform sample without replacement, in draw order (the centres' order); a
    caller whose points live in chunks fetches these rows and passes their points as
    ``init``, or builds the centres from :func:`centre_sums` itself, with the draws of
    the in-memory path.

    Parameters
    ----------
    n_samples : int
        Number of points.
    n_clusters : int
        Target number of clusters; values above ``n_samples`` are clipped.
    random_state : int, Generator or None
        Seed (``numpy.random.default_rng``; a Generator is drawn from as is).

    Returns
    -------
    ndarray of shape (min(n_clusters, n_samples),), int64
        Distinct row indices.
    """
    n_clusters = min(check_positive_int(n_clusters, "n_clusters"), int(n_samples))
    rng = np.random.default_rng(random_state)
    return rng.choice(int(n_samples), size=n_clusters, replace=False)


def kmeans_one_iteration(
    Z: ArrayLike,
    n_clusters: int,
    *,
    init: ArrayLike | None = None,
    random_state: RandomStateLike = None,
) -> np.ndarray:
    """Cluster a low-dimensional projection with a single k-means (Lloyd) iteration.

    Steps: initial centres; assign every point to its nearest centre; move each
    centre to the mean of its points; reassign. Empty clusters are dropped and
    the labels compacted to ``0..K'-1`` (``K' <= n_clusters``).

    Parameters
    ----------
    Z : array-like of shape (n_samples,) or (n_samples, n_dims)
        The projected data, e.g. distances to a hyperplane (AID-SVM, 1-d) or
        residuals and targets ``(r, y)`` (AID-LAD, 2-d). No scaling is applied.
    n_clusters : int
        Target number of clusters; values above ``n_samples`` are clipped.
    init : array-like of shape (n_clusters, n_dims), default=None
        Initial centres. By default: the ``(k + 1/2) / K`` quantiles for 1-d
        ``Z``, a seeded uniform sample of distinct rows otherwise.
    random_state : int, Generator or None, default=None
        Seed of the row sample (``numpy.random.default_rng``); unused for 1-d.

    Returns
    -------
    labels : ndarray of shape (n_samples,), int64
        Compact cluster labels.

    See Also
    --------
    Clusters : Bookkeeping of the resulting partition.

    Notes
    -----
    The AID paper (sec. 4, sec. 5.2) uses one k-means iteration on the
    residuals (LAD, 2-d) or on the distances to a hyperplane fitted on a small
    sample (SVM, 1-d) because only speed matters for the initial clustering;
    it does not say how the centres are initialised, so the choice above (no
    k-means++, which would cost ``O(n K)`` passes) is this implementation's.
    Time O(n K p) for few centres, O(n log K) for 1-d (sorted midpoints), about
    O(n sqrt(K)) in the worst case and a few dozen distances per point in practice
    for more than 256 centres in 2-d (sorted strips of centres, exact, ties to the
    first centre), O(n log K) for more than 256 centres in 3 to 8 dimensions (k-d
    tree over the centres; an exact distance tie may then go to either centre),
    memory O(n + K p): no ``n x K`` distance matrix.

    Examples
    --------
    >>> kmeans_one_iteration([0.0, 0.1, 5.0, 5.2, 9.9, 10.0], 3).tolist()
    [0, 0, 1, 1, 2, 2]
    """
    Z = _as_points(Z)
    labels = _assign(Z, kmeans_centres(Z, n_clusters, init=init, random_state=random_state))
    present = np.bincount(labels, minlength=int(labels.max()) + 1) > 0
    return (np.cumsum(present) - 1)[labels]


def _as_points(Z):
    Z = np.asarray(Z) if not hasattr(Z, "toarray") else Z
    Z = check_float_array(Z, "Z", ndim=np.ndim(Z) if np.ndim(Z) in (1, 2) else 2)
    return np.ascontiguousarray(Z.reshape(Z.shape[0], -1), dtype=np.float64)


def kmeans_centres(
    Z: ArrayLike,
    n_clusters: int,
    *,
    init: ArrayLike | None = None,
    random_state: RandomStateLike = None,
) -> np.ndarray:
    """The centres of :func:`kmeans_one_iteration` after its move step.

    :func:`kmeans_one_iteration` assigns every point to the nearest of these
    (:func:`nearest_centre`) and compacts the labels; a caller whose points live in
    chunks assigns them chunk by chunk with the same result.

    Parameters
    ----------
    Z : array-like of shape (n_samples,) or (n_samples, n_dims)
        The projected data, as for :func:`kmeans_one_iteration`.
    n_clusters : int
        Target number of clusters; values above ``n_samples`` are clipped.
    init : array-like of shape (n_clusters, n_dims), default=None
        Initial centres (default: quantiles in 1-d, a seeded sample of rows otherwise).
    random_state : int, Generator or None, default=None
        Seed of the row sample; unused for 1-d.

    Returns
    -------
    centres : ndarray of shape (K', n_dims)
        The means of the non-empty clusters of the first assignment (``K' <= n_clusters``).

    Examples
    --------
    >>> kmeans_centres([0.0, 0.1, 5.0, 5.2, 9.9, 10.0], 3).ravel().tolist()
    [0.05, 5.1, 9.95]
    """
    Z = _as_points(Z)
    n_clusters = min(check_positive_int(n_clusters, "n_clusters"), Z.shape[0])
    if init is None:
        centres = _initial_centres(Z, n_clusters, random_state)
    else:
        centres = check_float_array(init, "init", ndim=np.ndim(init), dtype=np.float64)
        centres = np.ascontiguousarray(centres.reshape(centres.shape[0], -1))
        if centres.shape[1] != Z.shape[1]:
            raise ValueError(
                f"init must have {Z.shape[1]} column(s) like Z, got shape {centres.shape}."
            )
    return moved_centres(*_label_sums(Z, _assign(Z, centres), centres.shape[0]))


def centre_sums(Z: ArrayLike, centres: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Assign points to their nearest centre and sum them per centre (k-means' move step).

    The sums and counts of row chunks add up to those of all the points, so a caller
    whose points live in chunks gets :func:`kmeans_centres` by adding the chunks'
    results and calling :func:`moved_centres` (the sums then add up in another order).

    Parameters
    ----------
    Z : array-like of shape (n_samples,) or (n_samples, n_dims)
        Points.
    centres : ndarray of shape (K, n_dims) or CentreIndex
        Current centres, or a :class:`CentreIndex` of them (built once for many calls).

    Returns
    -------
    sums : ndarray of shape (K, n_dims)
        Coordinate sums of each centre's points.
    counts : ndarray of shape (K,), int64
        Number of points of each centre.

    Examples
    --------
    Two chunks of points give :func:`kmeans_centres`' centres from the same seed rows
    (to the bit here, where every sum is exact):

    >>> import numpy as np
    >>> Z = np.array([[0.0, 0.0], [0.25, 0.0], [5.0, 5.0], [5.5, 5.0], [9.0, 0.0]])
    >>> seeds = Z[kmeans_seed_rows(5, 2, random_state=0)]
    >>> parts = [centre_sums(Z[:2], seeds), centre_sums(Z[2:], seeds)]
    >>> moved = moved_centres(parts[0][0] + parts[1][0], parts[0][1] + parts[1][1])
    >>> np.array_equal(moved, kmeans_centres(Z, 2, random_state=0))
    True
    """
    Z = _as_points(Z)
    index = _index(centres)
    return _label_sums(Z, index.nearest(Z), index.centres.shape[0])


def moved_centres(sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Compute the means of the centres with points (empty ones dropped) from :func:`centre_sums`.

    Parameters
    ----------
    sums : ndarray of shape (K, n_dims)
        Coordinate sums per centre.
    counts : ndarray of shape (K,)
        Points per centre.

    Returns
    -------
    ndarray of shape (K', n_dims)
        The moved centres, ``K' <= K``.
    """
    keep = np.asarray(counts) > 0
    return np.asarray(sums)[keep] / np.asarray(counts)[keep, None]


def nearest_centre(Z: ArrayLike, centres: ArrayLike) -> np.ndarray:
    """Index of the nearest centre of every point, as :func:`kmeans_one_iteration` assigns.

    Parameters
    ----------
    Z : array-like of shape (n_samples,) or (n_samples, n_dims)
        Points.
    centres : ndarray of shape (K, n_dims) or CentreIndex
        Centres, e.g. from :func:`kmeans_centres`, or a :class:`CentreIndex` of them.

    Returns
    -------
    ndarray of shape (n_samples,), int64
        Indices into ``centres`` (not compacted: a centre may get no point).
    """
    return _index(centres).nearest(_as_points(Z))
