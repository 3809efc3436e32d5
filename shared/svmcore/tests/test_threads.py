"""svmcore._threads: n_jobs -> Numba threads, restored on every exit path."""

import numba
import pytest

from svmcore import effective_n_threads, numba_threads


def test_effective_n_threads():
    max_threads = numba.config.NUMBA_NUM_THREADS
    assert effective_n_threads(None) == numba.get_num_threads()
    assert effective_n_threads(-1) == max_threads
    assert effective_n_threads(1) == 1
    assert effective_n_threads(10**6) == max_threads
    assert effective_n_threads(-(max_threads + 5)) == 1
    with pytest.raises(ValueError, match="n_jobs"):
        effective_n_threads(0)
    with pytest.raises(TypeError, match="n_jobs"):
        effective_n_threads(True)
    with pytest.raises(TypeError, match="n_jobs"):
        effective_n_threads(1.5)


def test_numba_threads_restores_after_exception():
    before = numba.get_num_threads()
    with pytest.raises(RuntimeError, match="boom"), numba_threads(1):
        assert numba.get_num_threads() == 1
        raise RuntimeError("boom")
    assert numba.get_num_threads() == before
    with numba_threads(None):
        assert numba.get_num_threads() == before
    assert numba.get_num_threads() == before


def test_numba_threads_rejects_bad_n_jobs_without_changing_state():
    before = numba.get_num_threads()
    with pytest.raises(ValueError, match="n_jobs"), numba_threads(0):
        pass
    assert numba.get_num_threads() == before


def test_blas_threads_limits_blas_inside_and_restores_after():
    from threadpoolctl import threadpool_info

    from svmcore import blas_threads

    def blas_counts():
        return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]

    before = blas_counts()
    assert before  # numpy's BLAS is loaded
    with blas_threads(1):
        assert blas_counts() == [1] * len(before)
        with blas_threads(1):  # nested: still one, and the outer limit survives
            pass
        assert blas_counts() == [1] * len(before)
    assert blas_counts() == before
