"""One-pass Numba kernels over per-sample cluster labels (AID's declustering at large n).

The numpy formulations of these steps build several n-long temporaries (combined codes,
masked copies, gathers); at n = 64M they took tens of seconds per AID iteration. Each
kernel here reads the labels once and writes at most one n-long result.
"""

from __future__ import annotations

import numpy as np

from ..numba_config import jit

__all__ = ["mixed_groups", "split_by_key"]


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
    for i in range(labels.shape[0]):
        k = labels[i]
        out[i] = lookup[k * n_keys + (key[i] if allowed[k] else 0)]


def split_by_key(
    labels: np.ndarray, key: np.ndarray, allowed: np.ndarray, n_groups: int, n_keys: int
) -> tuple[np.ndarray, np.ndarray]:
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
    """
    present = np.zeros(n_groups * n_keys, dtype=np.bool_)
    _present_codes(labels, key, allowed, n_keys, present)
    codes = np.flatnonzero(present)
    row = codes // n_keys
    first = np.r_[True, row[1:] != row[:-1]]
    new_id = np.where(first, row, n_groups + np.cumsum(~first) - 1)
    lookup = np.empty(n_groups * n_keys, dtype=np.int64)
    lookup[codes] = new_id
    out = np.empty(labels.shape[0], dtype=np.int64)
    _relabel(labels, key, allowed, n_keys, lookup, out)
    return out, np.unique(row[~first])
