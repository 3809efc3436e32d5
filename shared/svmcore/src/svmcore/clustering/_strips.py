"""Exact nearest centre in the plane through strips of centres sorted by both axes.

AID-LAD's initial k-means iteration assigns every sample's ``(r, y)`` pair to one of up
to tens of thousands of centres. The centres are cut into about ``sqrt(K / 2)`` vertical
strips holding equally many of them (so the strips adapt to any distribution, unlike a
uniform grid: ``(r, y)`` lies in a narrow diagonal band with heavy tails), each sorted by
its second coordinate. A point binary-searches its strip, scans it outwards from its own
height while the vertical gap alone can still beat the best distance, then visits the
neighbouring strips while their horizontal gap can. The answer is the brute-force one
(nearest centre, smallest index among exact ties, the same distance expression), at a few
dozen distance evaluations per point: 3-5x faster than ``scipy.spatial.cKDTree``.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..numba_config import jit, jit_parallel

__all__ = ["CentreStrips", "nearest_centre_2d"]

#: Average number of centres per strip is sqrt(_PER_STRIP * K).
_PER_STRIP = 2.0
#: Buckets per entry of the tables where the searches of a strip and in a strip start.
BUCKETS_PER_ENTRY = 2


def nearest_centre_2d(Z: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Index of the nearest centre of every row of ``Z`` (2 columns), first one on ties.

    Parameters
    ----------
    Z : ndarray of shape (n_samples, 2), float64, C-contiguous
        The points.
    centres : ndarray of shape (n_centres, 2), float64, C-contiguous
        The centres (finite).

    Returns
    -------
    labels : ndarray of shape (n_samples,), int64
        ``argmin_k |Z_i - centres_k|^2`` with the smallest ``k`` among exact ties.
    """
    return CentreStrips(centres).nearest(Z)


class CentreStrips:
    """The strips of :func:`nearest_centre_2d` over some centres, built once for many queries.

    Building them sorts the centres (tens of milliseconds for 32,000 centres); a caller
    that assigns many chunks of points to the same centres (AID-LAD's initial k-means on
    Dask: 128 chunks per pass) builds them once and ships them with the tasks.

    Parameters
    ----------
    centres : ndarray of shape (n_centres, 2), float64, C-contiguous
        The centres (finite).
    """

    def __init__(self, centres: np.ndarray) -> None:
        K = centres.shape[0]
        n_strips = max(1, int(np.sqrt(K / _PER_STRIP)))
        by_x = np.argsort(centres[:, 0], kind="stable")
        bounds = np.linspace(0, K, n_strips + 1).astype(np.int64)
        # Strip s holds by_x[bounds[s]:bounds[s+1]], re-sorted by y (ties by index).
        order = np.empty(K, dtype=np.int64)
        for s in range(n_strips):
            members = by_x[bounds[s] : bounds[s + 1]]
            order[bounds[s] : bounds[s + 1]] = members[np.lexsort((members, centres[members, 1]))]
        x_lo = centres[by_x[bounds[:-1]], 0]  # smallest x of each strip
        x_hi = centres[by_x[bounds[1:] - 1], 0]  # largest x of each strip
        cx = np.ascontiguousarray(centres[order, 0])
        cy = np.ascontiguousarray(centres[order, 1])
        x_start = _Starts.of(x_lo, 0, n_strips, "right")
        y_starts = [_Starts.of(cy, bounds[s], bounds[s + 1], "left") for s in range(n_strips)]
        y_guess = np.concatenate([g.guess for g in y_starts])
        y_offset = np.cumsum([0] + [g.guess.size for g in y_starts[:-1]]).astype(np.int64)
        self._args = (
            cx,
            cy,
            order,
            bounds,
            x_lo,
            x_hi,
            (x_start.low, x_start.scale, x_start.guess),
            (
                np.array([g.low for g in y_starts]),
                np.array([g.scale for g in y_starts]),
                y_guess,
                y_offset,
                np.array([g.guess.size - 1 for g in y_starts], dtype=np.int64),
            ),
        )

    def nearest(self, Z: np.ndarray) -> np.ndarray:
        """Index of the nearest centre of every row of ``Z`` (2 columns), first one on ties.

        Parameters
        ----------
        Z : ndarray of shape (n_samples, 2), float64, C-contiguous
            The points.

        Returns
        -------
        labels : ndarray of shape (n_samples,), int64
            As :func:`nearest_centre_2d`.
        """
        labels = np.empty(Z.shape[0], dtype=np.int64)
        _strip_search(Z, *self._args, labels)
        return labels


class _Starts:
    """A table of where a search in ``v[lo:hi]`` (sorted) starts, by uniform buckets.

    ``guess[b]`` is ``np.searchsorted(v[lo:hi], left end of bucket b, side) + lo`` for
    ``BUCKETS_PER_ENTRY`` buckets per entry over ``v``'s range: a point walks from its
    bucket's guess to the exact position in a step or two, where a binary search takes
    ``log2(hi - lo)`` unpredictable branches. The walk ends where the binary search
    does, so the answer is the same.
    """

    def __init__(self, low, scale, guess):
        self.low, self.scale, self.guess = low, scale, guess

    @classmethod
    def of(cls, v, lo, hi, side):
        part = v[lo:hi]
        low, span = float(part[0]), float(part[-1]) - float(part[0])
        n_buckets = BUCKETS_PER_ENTRY * part.size
        if not (span > 0 and np.isfinite(span)):
            return cls(low, 0.0, np.array([lo], dtype=np.int64))  # one bucket: walk all
        scale = n_buckets / span
        edges = low + np.arange(n_buckets + 1) / scale
        return cls(low, scale, np.searchsorted(part, edges, side=side).astype(np.int64) + lo)


@jit
def _consider(z0, z1, cx, cy, order, t, best, arg):
    """The better of the current best and centre ``order[t]`` (ties: smaller index)."""
    d0 = z0 - cx[t]
    d1 = z1 - cy[t]
    dist = d0 * d0 + d1 * d1
    k = order[t]
    if dist < best or (dist == best and k < arg):
        return dist, k
    return best, arg


@jit
def _start(v, low, scale, guess, top, offset, lo, hi, z, right):
    """``lo + np.searchsorted(v[lo:hi], z, side)`` from the bucket table of :class:`_Starts`.

    ``side`` is "right" when ``right``, else "left".
    """
    b = (z - low) * scale
    if b >= top:
        i = guess[offset + top]
    elif b >= 0:
        i = guess[offset + int(b)]
    else:  # below the range (or NaN)
        i = guess[offset]
    if right:
        while i < hi and v[i] <= z:
            i += 1
        while i > lo and v[i - 1] > z:
            i -= 1
    else:
        while i < hi and v[i] < z:
            i += 1
        while i > lo and v[i - 1] >= z:
            i -= 1
    return i


@jit
def _scan_strip(z0, z1, cx, cy, order, lo, hi, best, arg, s, y_tables):
    """Visit strip ``s``'s rows ``lo..hi-1`` outwards from height ``z1`` while they can win."""
    y_low, y_scale, y_guess, y_offset, y_top = y_tables
    # First row with cy >= z1.
    a = _start(cy, y_low[s], y_scale[s], y_guess, y_top[s], y_offset[s], lo, hi, z1, False)
    up, down = a, a - 1
    while up < hi or down >= lo:
        if up < hi:
            dy = cy[up] - z1
            if dy * dy > best:
                up = hi
            else:
                best, arg = _consider(z0, z1, cx, cy, order, up, best, arg)
                up += 1
        if down >= lo:
            dy = z1 - cy[down]
            if dy * dy > best:
                down = lo - 1
            else:
                best, arg = _consider(z0, z1, cx, cy, order, down, best, arg)
                down -= 1
    return best, arg


@jit_parallel
def _strip_search(Z, cx, cy, order, bounds, x_lo, x_hi, x_table, y_tables, labels):
    n_strips = x_lo.shape[0]
    x_low, x_scale, x_guess = x_table
    x_top = x_guess.shape[0] - 1
    for i in prange(Z.shape[0]):
        z0, z1 = Z[i, 0], Z[i, 1]
        # The strip whose x range holds z0, or the nearest one: #{x_lo <= z0} - 1.
        a = _start(x_lo, x_low, x_scale, x_guess, x_top, 0, 0, n_strips, z0, True)
        home = max(a - 1, 0)
        best, arg = _scan_strip(
            z0, z1, cx, cy, order, bounds[home], bounds[home + 1], np.inf, -1, home, y_tables
        )
        left, right = home - 1, home + 1
        while left >= 0 or right < n_strips:
            if left >= 0:
                gap = z0 - x_hi[left]
                if gap > 0 and gap * gap > best:
                    left = -1
                else:
                    best, arg = _scan_strip(
                        z0,
                        z1,
                        cx,
                        cy,
                        order,
                        bounds[left],
                        bounds[left + 1],
                        best,
                        arg,
                        left,
                        y_tables,
                    )
                    left -= 1
            if right < n_strips:
                gap = x_lo[right] - z0
                if gap > 0 and gap * gap > best:
                    right = n_strips
                else:
                    best, arg = _scan_strip(
                        z0,
                        z1,
                        cx,
                        cy,
                        order,
                        bounds[right],
                        bounds[right + 1],
                        best,
                        arg,
                        right,
                        y_tables,
                    )
                    right += 1
        labels[i] = arg
