"""One-pass Numba kernels over per-sample cluster labels (AID's declustering at large n).

The numpy formulations of these steps build several n-long temporaries (combined codes,
masked copies, gathers); at n = 64M they took tens of seconds per AID iteration. Each
kernel here reads the labels once and writes at most one n-long result.
"""

from __future__ import annotations

import numpy as np

from ..numba_config import jit
from ._prefetch import PREFETCH_AHEAD, prefetch_row

__all__ = ["key_tally", "mixed_groups", "relabel", "split_by_key", "split_lookup"]


@jit
def _mixed(labels, key, ignore, n_groups, use_ignore):
    seen = np.zeros(n_groups, dtype=np.bool_)
    ref = np.zeros(n_groups, dtype=np.int64)
    mixed = np.zeros(n_groups, dtype=np.bool_)
    for i in range(labels.shape[0]):
        if use_ignore and ignore[i]:
            continue
        k = labels[i]
        if not seen[k]:
            seen[k] = True
            ref[k] = key[i]
        elif key[i] != ref[k]:
            mixed[k] = True
    return mixed


def mixed_groups(
    labels: np.ndarray, key: np.ndarray, n_groups: int, ignore: np.ndarray | None = None
) -> np.ndarray:
    """Find the groups whose members (except the ignored ones) carry more than one key.

    Parameters
    ----------
    labels : ndarray of shape (n_samples,) of int in ``[0, n_groups)``
        Group of each sample.
    key : ndarray of shape (n_samples,) of int
        Per-sample key.
    n_groups : int
        Number of groups.
    ignore : ndarray of shape (n_samples,) of bool or None, default=None
        Samples left out of the comparison.

    Returns
    -------
    ndarray of int64
        Sorted ids of the mixed groups.

    Examples
    --------
    >>> import numpy as np
    >>> mixed_groups(np.array([0, 0, 1, 1]), np.array([1, 0, 1, 1]), 2).tolist()
    [0]
    """
    use_ignore = ignore is not None
    ignore = np.zeros(1, dtype=np.bool_) if ignore is None else np.asarray(ignore, dtype=np.bool_)
    mixed = _mixed(np.asarray(labels), np.asarray(key), ignore, int(n_groups), use_ignore)
    return np.flatnonzero(mixed).astype(np.int64)


@jit
def _present_codes(labels, key, allowed, n_keys, present):
    for i in range(labels.shape[0]):
        k = labels[i]
        present[k * n_keys + (key[i] if allowed[k] else 0)] = True


@jit
def _relabel(labels, key, allowed, n_keys, lookup, out):
    n = labels.shape[0]
    for i in range(n):
        # K-sized lookups beyond the caches at large K: the entries of rows ahead are
        # fetched while this row waits for its own (as in group_sums).
        if i + PREFETCH_AHEAD < n:
            ahead = labels[i + PREFETCH_AHEAD]
            prefetch_row(allowed, ahead)
            prefetch_row(lookup, ahead * n_keys)
        k = labels[i]
        out[i] = lookup[k * n_keys + (key[i] if allowed[k] else 0)]


def split_by_key(
    labels: np.ndarray, key: np.ndarray, allowed: np.ndarray, n_groups: int, n_keys: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Split the allowed groups by ``key`` (in ``[0, n_keys)``): the new labels.

    A group keeps its id for its members with the smallest key; every further (group,
    key) pair gets the next new id ``n_groups, n_groups + 1, ...`` in (group, key) order.
    Needs ``n_groups * n_keys`` booleans and int64s of scratch.

    Returns
    -------
    labels : ndarray of shape (n_samples,), int64
        The new labels (compact: ``0 .. K' - 1`` all used).
    split : ndarray of int64
        Ids of the groups that split, ascending.
    parent : ndarray of shape (K',), int64
        The group each new label was split from (``parent[k] = k`` for ``k < n_groups``).
    """
    present = np.zeros(n_groups * n_keys, dtype=np.bool_)
    _present_codes(labels, key, allowed, n_keys, present)
    lookup, split, parent = split_lookup(present, n_groups, n_keys)
    out = np.empty(labels.shape[0], dtype=np.int64)
    _relabel(labels, key, allowed, n_keys, lookup, out)
    return out, split, parent


def split_lookup(
    present: np.ndarray, n_groups: int, n_keys: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """New ids of the (group, key) pairs present: the K-sized half of :func:`split_by_key`.

    Parameters
    ----------
    present : ndarray of shape (n_groups * n_keys,) of bool
        Whether some member of group ``g`` has key ``k`` (entry ``g * n_keys + k``);
        every group has at least one entry.
    n_groups, n_keys : int
        Sizes.

    Returns
    -------
    lookup : ndarray of shape (n_groups * n_keys,), int64
        New label of each present pair (others undefined).
    split : ndarray of int64
        Groups with more than one pair, ascending.
    parent : ndarray of shape (K',), int64
        The group of each new label.
    """
    codes = np.flatnonzero(present)
    row = codes // n_keys
    first = np.r_[True, row[1:] != row[:-1]]
    new_id = np.where(first, row, n_groups + np.cumsum(~first) - 1)
    lookup = np.empty(n_groups * n_keys, dtype=np.int64)
    lookup[codes] = new_id
    parent = np.empty(new_id.size, dtype=np.int64)
    parent[new_id] = row
    return lookup, np.unique(row[~first]), parent


def relabel(
    labels: np.ndarray,
    key: np.ndarray,
    allowed: np.ndarray,
    n_keys: int,
    lookup: np.ndarray,
    dtype: type = np.int64,
) -> np.ndarray:
    """``lookup[labels * n_keys + key]`` (key read as 0 in groups not ``allowed``), one pass.

    The per-row half of :func:`split_by_key`, for labels that live in row chunks.
    """
    out: np.ndarray = np.empty(labels.shape[0], dtype=dtype)
    _relabel(labels, key, allowed, n_keys, lookup, out)
    return out


@jit
def _tally(labels, key, free, n_keys, use_free, counts, seen):
    n = labels.shape[0]
    for i in range(n):
        if i + PREFETCH_AHEAD < n:  # as in _relabel
            ahead = labels[i + PREFETCH_AHEAD] * n_keys
            prefetch_row(counts, ahead)
            prefetch_row(seen, ahead)
        c = labels[i] * n_keys + key[i]
        counts[c] += 1
        if not (use_free and free[i]):
            seen[c] = True


def key_tally(
    labels: np.ndarray,
    key: np.ndarray,
    n_groups: int,
    n_keys: int,
    free: np.ndarray | None = None,
    *,
    out: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Count the members of every (group, key) pair in one pass over the rows.

    What :func:`mixed_groups` and :func:`split_by_key` need of the rows, as K-sized
    arrays that add up over row chunks (counts by ``+``, ``seen`` by ``|``).

    Parameters
    ----------
    labels : ndarray of shape (n_rows,) of int in ``[0, n_groups)``
        Group of each row.
    key : ndarray of shape (n_rows,) of int in ``[0, n_keys)``
        Per-row key.
    n_groups, n_keys : int
        Sizes.
    free : ndarray of shape (n_rows,) of bool or None, default=None
        Rows left out of ``seen`` (they count in ``counts``).
    out : tuple of two ndarrays or None, default=None
        ``(counts, seen)`` of earlier rows (int64 or int32, and bool, ``n_groups *
        n_keys`` each) to add these rows into, in place: one table for several row
        chunks (int32 counts only for fewer than 2**31 rows in all).

    Returns
    -------
    counts : ndarray of shape (n_groups * n_keys,), int64 (``out``'s type when given)
        Rows of each (group, key) pair (entry ``g * n_keys + k``).
    seen : ndarray of shape (n_groups * n_keys,), bool
        Whether a row not ``free`` has that pair.

    Examples
    --------
    >>> import numpy as np
    >>> counts, seen = key_tally(np.array([0, 0, 1]), np.array([1, 0, 1]), 2, 2,
    ...                          free=np.array([False, True, False]))
    >>> counts.tolist(), seen.tolist()
    ([1, 1, 0, 1], [False, True, False, True])
    """
    if out is None:
        counts = np.zeros(int(n_groups) * int(n_keys), dtype=np.int64)
        seen = np.zeros(counts.size, dtype=np.bool_)
    else:
        counts, seen = out
        if (
            counts.shape != (int(n_groups) * int(n_keys),)
            or counts.dtype not in (np.int64, np.int32)
            or seen.shape != counts.shape
            or seen.dtype != np.bool_
        ):
            raise ValueError(
                "out must be (int64 or int32 counts, bool seen) of n_groups * n_keys entries."
            )
    use_free = free is not None
    free = np.zeros(1, dtype=np.bool_) if free is None else np.asarray(free, dtype=np.bool_)
    _tally(np.asarray(labels), np.asarray(key), free, int(n_keys), use_free, counts, seen)
    return counts, seen
