"""Numba compilation settings shared by every jitted kernel of the monorepo (public:
the method packages compile their own kernels through these decorators).

All kernels are compiled through :func:`jit`, :func:`jit_parallel`, :func:`jit_scalar`
or :func:`jit_strict` so that the fastmath flags live in one place. ``nnan`` and ``ninf``
are deliberately absent: NaN and infinity must propagate so that input validation and
solver checks see them.

The decorators cache the compiled code on disk (``cache=True``) where Numba finds a
writable cache directory and compile in memory where it finds none. Numba has
supported caching ``parallel=True`` functions since 0.49; parfor compilation is the
dominant start-up cost of the test suites, so we cache those too (a deviation from
the stumpy/pynndescent habit of not caching parallel kernels, which predates it).

Literal arguments: when a kernel calls another with a constant (``f(a, 0)``) or with a
counter that starts at one (``m = 0`` ... ``m += 1``; type inference resolves the call
while ``m`` is still typed as the constant), Numba compiles the callee for the literal
type (``Literal[int](0)``) as well as for ``int64``, each a full compilation (0.1-0.6 s
in a new environment). Kernels pass ``np.intp(0)`` or an ``array.shape[0]`` instead.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

import numba

__all__ = [
    "FASTMATH",
    "FASTMATH_SCALAR",
    "jit",
    "jit_parallel",
    "jit_scalar",
    "jit_strict",
    "launch_threads_waiting_passively",
]

#: LLVM fast-math flags: reassociation and contraction only; no NaN/inf assumptions.
FASTMATH = frozenset({"nsz", "arcp", "contract", "afn", "reassoc"})

#: The flags without ``reassoc``, for kernels whose reductions must stay scalar (see
#: :data:`jit_scalar`).
FASTMATH_SCALAR = FASTMATH - {"reassoc"}


def _cached_njit(**defaults: Any) -> Callable[..., Any]:
    """``numba.njit`` with ``cache=True``, falling back to an in-memory compile.

    Numba looks for a writable cache directory (``NUMBA_CACHE_DIR``, then
    ``__pycache__`` beside the source, then the user-wide cache) and raises
    ``RuntimeError`` at decoration, that is at import, when there is none: a wheel in a
    read-only site-packages with no writable home. Such an install then compiles in
    memory each process instead of failing to import.
    """

    def decorate(func: Callable[..., Any] | None = None, **options: Any) -> Any:
        if func is None:  # used as @jit(inline="always")
            return functools.partial(decorate, **options)
        options = {**defaults, **options}
        try:
            return numba.njit(func, cache=True, **options)
        except RuntimeError:
            return numba.njit(func, cache=False, **options)

    return decorate


#: Serial kernels: cached, fast-math without NaN/inf assumptions.
jit = _cached_njit(fastmath=set(FASTMATH), nogil=True)

#: Parallel kernels (``prange``): write to per-thread or per-row slices only.
jit_parallel = _cached_njit(fastmath=set(FASTMATH), nogil=True, parallel=True)

#: Serial kernels with an indexed reduction, such as a CSR row's dot product: with
#: ``reassoc`` LLVM vectorizes it into gather instructions, slower on short rows than
#: the scalar loop (figures in the package README).
jit_scalar = _cached_njit(fastmath=set(FASTMATH_SCALAR), nogil=True)

#: Kernels that must reproduce numpy's arithmetic bit for bit (the scalar steps of a
#: solver loop moved out of Python, numpy's pairwise sum): no fast-math flag at all, so
#: LLVM neither reorders sums nor fuses a multiply and an add. The fast-math kernels
#: such a kernel calls keep their own flags.
jit_strict = _cached_njit(nogil=True)


def launch_threads_waiting_passively() -> None:
    """Start Numba's thread pool with OpenMP's idle threads sleeping instead of spinning.

    GNU OpenMP (Numba's "omp" threading layer) lets a thread that reaches the end of a
    parallel region spin for a while before it sleeps (``OMP_WAIT_POLICY`` unset). With
    more runnable threads than cores - a shared machine - the spinning threads take the
    cores the working ones need, and every parallel region then waits for the scheduler:
    ``MFNClassifier()`` on 30,000 x 10 blobs took 300-800 ms with 2 threads against 17 ms
    with one at load 11 on 2 cores, and 12-20 ms with passive waiting (figures in the
    l2svm-mfn-tsvm-mfa README). libgomp reads the variable once, when Numba loads it, so
    it is set only around that load (other OpenMP runtimes of the process, such as
    scikit-learn's own copy, are not affected) and never over a value the user has set.
    Called by :func:`svmcore.numba_threads` before every fit's first parallel call, as
    Numba itself would start the threads then; afterwards it does nothing. Not at
    import: GNU OpenMP aborts a forked child that uses a pool its parent started
    ("fork() called from a process already using GNU OpenMP"), so a process that only
    imported svmcore must stay fork-safe (``multiprocessing``'s default start method).
    """
    if "OMP_WAIT_POLICY" in os.environ:
        return
    from numba.np.ufunc import parallel

    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    try:
        parallel._launch_threads()
    except Exception:  # no threading layer: Numba raises its own error at the first use
        pass
    finally:
        os.environ.pop("OMP_WAIT_POLICY", None)
