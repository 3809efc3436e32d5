"""Jitted element-wise kernel passes (parallel over output rows, in place).

Every function writes only the rows ``out[i]`` of its own ``prange`` iteration, so
there are no races. Constants are built from ``out.dtype`` so that float32 input is
computed in float32 (no silent promotion by float64 literals).

The exponential of the RBF kernel is deliberately *not* taken here: without Intel's SVML
Numba calls the scalar libm ``exp``, and numpy's SIMD ``np.exp(out, out=out)`` after the
parallel pass is faster (figures in the package README).
"""

from numba import prange

from ..numba_config import jit, jit_parallel

__all__ = ["poly_from_dot", "scaled_sqdist_direct", "scaled_sqdist_from_dot"]


@jit(inline="always")
def _ipow(x, degree, one):
    # Repeated squaring keeps the dtype of x (x ** int64 would promote float32).
    result = one
    base = x
    while degree > 0:
        if degree & 1:
            result *= base
        base *= base
        degree >>= 1
    return result


@jit_parallel
def scaled_sqdist_from_dot(out, sq_a, sq_b, scale):
    """``out[i, j] <- scale * max(sq_a[i] + sq_b[j] - 2 out[i, j], 0)``.

    With squared norms this is the expansion of ``scale * ||a - b||^2`` (clipped against
    rounding); with kernel diagonals and ``scale = 1`` it is the kernel-space distance.
    """
    zero = out.dtype.type(0)
    two = out.dtype.type(2)
    for i in prange(out.shape[0]):
        for j in range(out.shape[1]):
            d = sq_a[i] + sq_b[j] - two * out[i, j]
            if d < zero:
                d = zero
            out[i, j] = scale * d


@jit_parallel
def scaled_sqdist_direct(A, B, scale, out):
    """``out[i, j] <- scale * ||A[i] - B[j]||^2`` by direct differences (exact, few features)."""
    zero = out.dtype.type(0)
    for i in prange(A.shape[0]):
        for j in range(B.shape[0]):
            s = zero
            for k in range(A.shape[1]):
                t = A[i, k] - B[j, k]
                s += t * t
            out[i, j] = scale * s


@jit_parallel
def poly_from_dot(out, gamma, coef0, degree):
    """``out[i, j] <- (gamma out[i, j] + coef0) ** degree``."""
    one = out.dtype.type(1)
    for i in prange(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = _ipow(gamma * out[i, j] + coef0, degree, one)
