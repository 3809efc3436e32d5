"""Reuse of representative sets across fits that differ only in C (the paper's OTS setting).

DeriveRS depends on the data, the kernel and its own parameters, never on C. A grid
search over (C, gamma) with k folds therefore needs only k x n_gamma representative sets;
:class:`AESVC` looks them up here, keyed on a digest of the data and those parameters, so
``GridSearchCV`` reuses them without any special API. Only the indices, labels and betas
are kept (O(M) per entry), in a small LRU.
"""

from __future__ import annotations

import collections
import hashlib
import threading
import time
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from ._derive import derive_rs, every_row

__all__ = [
    "CacheInfo",
    "Derived",
    "RepresentativeCache",
    "cached_representatives",
    "clear_representative_cache",
    "representative_cache_info",
]

CacheInfo = collections.namedtuple("CacheInfo", ["hits", "misses", "size", "maxsize"])


class Derived(NamedTuple):
    """A representative set as AESVC keeps it (and the cache stores it): O(M) memory.

    ``indices`` and ``beta`` as in :class:`RepresentativeSet`; ``fallback`` when every row
    is kept (DeriveRS skipped or stopped by its probe); ``n_groups`` DeriveRS's groups
    (None when it did not finish); ``n_unprocessed`` the groups a time budget left
    unreduced (every sample kept; such a set is never cached).
    """

    indices: np.ndarray
    beta: np.ndarray
    fallback: bool
    n_groups: int | None
    n_unprocessed: int = 0


def _digest(*arrays):
    h = hashlib.blake2b(digest_size=20)
    for a in arrays:
        if a is None:
            h.update(b"None")
            continue
        if sp.issparse(a):
            parts = (a.data, a.indices, a.indptr)
            h.update(repr(("csr", a.shape, a.dtype.str)).encode())
        else:
            a = np.ascontiguousarray(a)
            parts = (a,)
            h.update(repr((a.shape, a.dtype.str)).encode())
        for p in parts:
            h.update(np.ascontiguousarray(p).view(np.uint8).data)
    return h.hexdigest()


class RepresentativeCache:
    """LRU of representative sets keyed on (data digest, DeriveRS parameters)."""

    def __init__(self, maxsize=64):
        self.maxsize = maxsize
        self._store = collections.OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(X, y, sample_weight, params):
        """Hashable key, or None when the parameters cannot be keyed (a live RNG)."""
        state = params.get("random_state")
        if state is not None and not isinstance(state, int | np.integer):
            return None
        return (_digest(X, y, sample_weight), tuple(sorted(params.items())))

    def get(self, key):
        with self._lock:
            if key is None or key not in self._store:
                self.misses += 1
                return None
            self.hits += 1
            self._store.move_to_end(key)
            return self._store[key]

    def put(self, key, value):
        if key is None:
            return
        with self._lock:
            self._store[key] = value
            self._store.move_to_end(key)
            while len(self._store) > self.maxsize:
                self._store.popitem(last=False)

    def clear(self):
        with self._lock:
            self._store.clear()
            self.hits = self.misses = 0

    def info(self):
        return CacheInfo(self.hits, self.misses, len(self._store), self.maxsize)


#: The process-wide cache used by :class:`AESVC`.
CACHE = RepresentativeCache()


def _every_row(X, sample_weight):
    """Every row with its weight, ``fallback=True`` (built only when it is the answer)."""
    return Derived(*every_row(X.shape[0], sample_weight), fallback=True, n_groups=None)


def cached_representatives(X, y, sample_weight, params, *, reuse, skip, n_jobs, budget=None):
    """The representative set of in-memory data, looked up in :data:`CACHE` first.

    Parameters
    ----------
    X, y, sample_weight
        Validated training data (``y`` encoded, ``sample_weight`` None for unit weights).
    params : dict
        Keywords of :func:`derive_rs` (``abort_fraction`` included).
    reuse : bool
        Whether to look the set up in (and store it into) the cache.
    skip : bool
        Not to run DeriveRS at all: every row is a representative.
    n_jobs : int or None
        DeriveRS's threads.
    budget : svmcore.solvers.TimeBudget or None, default=None
        The fit's deadline, checked by DeriveRS between batches of groups.

    Returns
    -------
    result : Derived
        The representatives' ``indices`` and ``beta``; every row with its weight and
        ``fallback=True`` when DeriveRS was skipped or stopped by its probe.
    reused : bool
        Whether the set came from the cache.
    seconds : float
        Time spent in DeriveRS.
    """
    if skip:
        # never cached (nothing to save): no digest of X, 0.12 ms of a 2 ms fit of
        # breast_cancer's 426 rows
        return _every_row(X, sample_weight), False, 0.0
    key = RepresentativeCache.key(X, y, sample_weight, params) if reuse else None
    cached = CACHE.get(key) if key is not None else None
    if cached is not None:
        return cached, True, 0.0
    start = time.perf_counter()
    # Only the indices and betas are kept: no Gamma (O(N) entries) to build and drop.
    rs = derive_rs(
        X,
        y,
        sample_weight=sample_weight,
        n_jobs=n_jobs,
        budget=budget,
        bookkeeping=False,
        **params,
    )
    elapsed = time.perf_counter() - start
    # Not reducible (rs None): every sample, weighted by its sample weight.
    if rs is None:
        result = _every_row(X, sample_weight)
    else:
        result = Derived(rs.indices, rs.beta, False, rs.n_groups, rs.n_unprocessed)
    if result.n_unprocessed == 0:  # a set cut short by a deadline is not the set
        CACHE.put(key, result)
    return result, False, elapsed


def clear_representative_cache() -> None:
    """Empty the representative-set cache of :class:`AESVC` and reset its counters.

    Examples
    --------
    >>> from aesvm import clear_representative_cache
    >>> clear_representative_cache()
    """
    CACHE.clear()


def representative_cache_info() -> CacheInfo:
    """``CacheInfo(hits, misses, size, maxsize)`` of the representative-set cache.

    Returns
    -------
    info : CacheInfo
        Named tuple: lookups that found a set, lookups that did not, entries held and
        the LRU's capacity.

    Examples
    --------
    >>> from aesvm import clear_representative_cache, representative_cache_info
    >>> clear_representative_cache()
    >>> representative_cache_info()
    CacheInfo(hits=0, misses=0, size=0, maxsize=64)
    """
    return CACHE.info()
