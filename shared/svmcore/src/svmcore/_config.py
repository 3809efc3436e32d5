"""Numba compilation settings shared by every jitted kernel of the monorepo.

All kernels are compiled through :func:`jit` or :func:`jit_parallel` so that the
fastmath flags live in one place. ``nnan`` and ``ninf`` are deliberately absent:
NaN and infinity must propagate so that input validation and solver checks see them.

Both decorators cache the compiled code on disk (``cache=True``). Numba has
supported caching ``parallel=True`` functions since 0.49; parfor compilation is the
dominant start-up cost of the test suites, so we cache those too (a deviation from
the stumpy/pynndescent habit of not caching parallel kernels, which predates it).
"""

import functools

import numba

#: LLVM fast-math flags: reassociation and contraction only; no NaN/inf assumptions.
FASTMATH = frozenset({"nsz", "arcp", "contract", "afn", "reassoc"})

#: Serial kernels: cached, fast-math without NaN/inf assumptions.
jit = functools.partial(numba.njit, cache=True, fastmath=set(FASTMATH), nogil=True)

#: Parallel kernels (``prange``): write to per-thread or per-row slices only.
jit_parallel = functools.partial(
    numba.njit, cache=True, fastmath=set(FASTMATH), nogil=True, parallel=True
)
