"""Map scikit-learn's ``n_jobs`` convention onto Numba's thread count."""

import contextlib
import numbers

import numba


def effective_n_threads(n_jobs):
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
def numba_threads(n_jobs):
    """Run the body with Numba's thread count set from ``n_jobs``, then restore it.

    Parameters
    ----------
    n_jobs : int or None
        See :func:`effective_n_threads`.

    Examples
    --------
    >>> from svmcore import numba_threads
    >>> with numba_threads(1):
    ...     pass
    """
    previous = numba.get_num_threads()
    numba.set_num_threads(effective_n_threads(n_jobs))
    try:
        yield
    finally:
        numba.set_num_threads(previous)
