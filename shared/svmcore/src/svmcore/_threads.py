"""Map scikit-learn's ``n_jobs`` convention onto Numba's thread count and thread pools."""

from __future__ import annotations

import contextlib
import numbers
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import numba

from .numba_config import launch_threads_waiting_passively

_T = TypeVar("_T")


def effective_n_threads(n_jobs: int | None) -> int:
    """Number of Numba threads that ``n_jobs`` asks for.

    Parameters
    ----------
    n_jobs : int or None
        ``None`` keeps Numba's current setting, a positive value caps the count,
        ``-1`` uses every available thread and ``-k`` all but ``k - 1``
        (scikit-learn's convention).

    Returns
    -------
    n_threads : int
        A count in ``[1, numba.config.NUMBA_NUM_THREADS]``.
    """
    max_threads = numba.config.NUMBA_NUM_THREADS
    launch_threads_waiting_passively()  # before get_num_threads would start the pool
    if n_jobs is None:
        return numba.get_num_threads()
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral):
        raise TypeError(f"n_jobs must be an int or None, got {type(n_jobs).__name__}.")
    if n_jobs == 0:
        raise ValueError("n_jobs == 0 has no meaning; use None, a positive int or -1.")
    if n_jobs < 0:
        return max(1, max_threads + 1 + int(n_jobs))
    return min(int(n_jobs), max_threads)


@contextlib.contextmanager
def numba_threads(n_jobs: int | None) -> Iterator[None]:
    """Run the body with Numba's thread count set from ``n_jobs``, then restore it.

    Parameters
    ----------
    n_jobs : int or None
        See :func:`effective_n_threads`.

    Yields
    ------
    None
        Control returns to the body of the ``with`` statement.

    Examples
    --------
    >>> from svmcore import numba_threads
    >>> with numba_threads(1):
    ...     pass
    """
    launch_threads_waiting_passively()  # before get_num_threads would start the pool
    previous = numba.get_num_threads()
    numba.set_num_threads(effective_n_threads(n_jobs))
    try:
        yield
    finally:
        numba.set_num_threads(previous)


_CONTROLLER = None


@contextlib.contextmanager
def blas_threads(n_threads: int) -> Iterator[None]:
    """Run the body with the BLAS libraries (OpenBLAS, MKL) limited to ``n_threads``.

    For solvers whose BLAS calls are small (``(m + 1)``-square systems, gemv on a few
    dozen columns): there a second BLAS thread gains nothing, and on a machine with more
    runnable threads than cores OpenBLAS's idle threads, which spin after every threaded
    call, take the core the working thread needs (AIDSVC on 30,000 x 10 blobs at load 6:
    0.3-1.1 s with OpenBLAS's 2 threads against 38-67 ms with one; figures in the
    aid-lad-svm-s3vm README). The ``threadpoolctl`` controller is made once (first use),
    so entering costs microseconds.

    Parameters
    ----------
    n_threads : int
        The BLAS thread count inside the body.

    Yields
    ------
    None
        The body runs with the limit in force; the previous counts come back on exit.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore import blas_threads
    >>> with blas_threads(1):
    ...     x = np.linalg.solve(np.eye(2), np.ones(2))
    >>> x.tolist()
    [1.0, 1.0]
    """
    global _CONTROLLER
    if _CONTROLLER is None:
        from threadpoolctl import ThreadpoolController

        _CONTROLLER = ThreadpoolController()
    with _CONTROLLER.limit(limits=n_threads, user_api="blas"):
        yield


def thread_map(func: Callable[[int], _T], n_items: int, n_jobs: int | None) -> list[_T]:
    """``[func(0), ..., func(n_items - 1)]``, on ``effective_n_threads(n_jobs)`` threads.

    For calls into serial ``nogil`` Numba kernels on independent pieces of work (one
    group, one block): the threads run without the GIL, so this parallelizes like a
    ``prange`` loop, without compiling a ``parallel=True`` kernel (parfor compilation
    is slow on a cold first fit; see the package README). Results keep the item order.

    Parameters
    ----------
    func : callable
        Called with the item index.
    n_items : int
        Number of items; ``func`` is called with ``0, ..., n_items - 1``.
    n_jobs : int or None
        See :func:`effective_n_threads`.

    Returns
    -------
    results : list
        ``func(i)`` for every item, in item order.

    Examples
    --------
    >>> from svmcore import thread_map
    >>> thread_map(lambda i: i * i, 4, n_jobs=2)
    [0, 1, 4, 9]
    """
    n_threads = min(effective_n_threads(n_jobs), n_items)
    if n_threads <= 1:
        return [func(i) for i in range(n_items)]
    with ThreadPoolExecutor(max_workers=n_threads) as pool:
        return list(pool.map(func, range(n_items)))
