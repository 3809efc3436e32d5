"""Matrix-vector products over an active row subset, for dense and CSR matrices.

CGLS and the methods built on it touch the data matrix only through ``X_J v`` and
``X_J^T u`` for an index set ``J`` of rows. The kernels below compute both without
copying ``X_J`` (no fancy indexing of ``X``) and without densifying CSR input.

``X_J v`` runs in parallel over rows (each row writes its own output entry).
``X_J^T u`` scatters into the feature dimension, so each thread accumulates a
contiguous chunk of rows into its own buffer and a serial loop sums the buffers.

On dense data CGLS uses :meth:`RowProducts.fused`, which reads each active row once for
``X_J p``, ``X_J^T z`` and ``X_J^T (c * X_J p)``: the products are memory-bound, so one
pass instead of two nearly halves an iteration on data that does not fit in cache. CSR
input keeps the two separate products (the one-pass kernel's two scatters per stored
entry cost more than re-reading a sparse row).

Each product is written once as a serial kernel over a range of active rows; the
parallel kernels run it on one chunk of rows per thread. Products over few stored
entries call the serial kernel directly: a parallel launch costs more than the work.

The matrix keeps its dtype (float32 is never upcast); the vectors and the
accumulators are float64, which the iterative solvers need for their stopping rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from numba import prange

from .._threads import effective_n_threads
from ..numba_config import jit, jit_parallel, jit_scalar, jit_strict
from ..typing import ArrayLike, MatrixLike
from ..validation import check_float_array, check_indices

__all__ = ["RowProducts", "matvec_rows", "rmatvec_rows"]


@jit(inline="always")
def _csr_row_dot(data, indices, indptr, i, v, out, k, start_value):
    """``out[k] = start_value + x_i . v`` for CSR row ``i``.

    Callers are compiled with ``jit_scalar`` (no ``reassoc``): with it LLVM turns the
    local reduction into gather instructions, slower on short sparse rows (figures in
    the package README).
    """
    acc = start_value
    for jj in range(indptr[i], indptr[i + 1]):
        acc += data[jj] * v[indices[jj]]
    out[k] = acc


@jit(inline="always")
def _dense_row_dot(X, i, v):
    acc = 0.0
    for j in range(X.shape[1]):
        acc += X[i, j] * v[j]
    return acc


@jit_scalar
def _csr_matvec_range(data, indices, indptr, rows, v, out, start, stop):
    for k in range(start, stop):
        _csr_row_dot(data, indices, indptr, rows[k], v, out, k, 0.0)


@jit
def _dense_matvec_range(X, rows, v, out, start, stop):
    for k in range(start, stop):
        out[k] = _dense_row_dot(X, rows[k], v)


@jit
def _csr_rmatvec_range(data, indices, indptr, rows, u, square, start, stop, acc):
    # ``square`` turns the product into sum_k u_k x_{J_k}^2 (elementwise square),
    # the diagonal of X_J^T diag(u) X_J used by the Jacobi preconditioner.
    for k in range(start, stop):
        uk = u[k]
        if uk == 0.0:
            continue
        i = rows[k]
        for jj in range(indptr[i], indptr[i + 1]):
            val = data[jj]
            if square:
                val = val * val
            acc[indices[jj]] += val * uk


@jit
def _dense_rmatvec_range(X, rows, u, square, start, stop, acc):
    n_features = X.shape[1]
    for k in range(start, stop):
        uk = u[k]
        if uk == 0.0:
            continue
        i = rows[k]
        for j in range(n_features):
            val = X[i, j]
            if square:
                val = val * val
            acc[j] += val * uk


@jit
def _dense_fused_range(X, rows, p, bias, z, c, q, xz, xcq, start, stop):
    for k in range(start, stop):
        i = rows[k]
        acc = _dense_row_dot(X, i, p) + bias
        q[k] = acc
        zk = z[k]
        cq = c[k] * acc
        for j in range(X.shape[1]):
            val = X[i, j]
            xz[j] += val * zk
            xcq[j] += val * cq


@jit_parallel
def _csr_matvec_rows(data, indices, indptr, rows, v, out, n_chunks):
    m = rows.shape[0]
    for t in prange(n_chunks):
        _csr_matvec_range(
            data, indices, indptr, rows, v, out, t * m // n_chunks, (t + 1) * m // n_chunks
        )


@jit_parallel
def _dense_matvec_rows(X, rows, v, out, n_chunks):
    m = rows.shape[0]
    for t in prange(n_chunks):
        _dense_matvec_range(X, rows, v, out, t * m // n_chunks, (t + 1) * m // n_chunks)


@jit_parallel
def _csr_rmatvec_rows(data, indices, indptr, rows, u, square, buffers, out):
    n_chunks = buffers.shape[0]
    m = rows.shape[0]
    for t in prange(n_chunks):
        buf = buffers[t]
        buf[:] = 0.0
        _csr_rmatvec_range(
            data, indices, indptr, rows, u, square, t * m // n_chunks, (t + 1) * m // n_chunks, buf
        )
    out[:] = 0.0
    for t in range(n_chunks):
        for j in range(out.shape[0]):
            out[j] += buffers[t, j]


@jit_parallel
def _dense_rmatvec_rows(X, rows, u, square, buffers, out):
    n_chunks = buffers.shape[0]
    m = rows.shape[0]
    for t in prange(n_chunks):
        buf = buffers[t]
        buf[:] = 0.0
        _dense_rmatvec_range(X, rows, u, square, t * m // n_chunks, (t + 1) * m // n_chunks, buf)
    out[:] = 0.0
    for t in range(n_chunks):
        for j in range(out.shape[0]):
            out[j] += buffers[t, j]


@jit_parallel
def _dense_fused_rows(X, rows, p, bias, z, c, q, buffers, xz, xcq):
    n_chunks = buffers.shape[0]
    m = rows.shape[0]
    for t in prange(n_chunks):
        buf = buffers[t]
        buf[:] = 0.0
        _dense_fused_range(
            X, rows, p, bias, z, c, q, buf[0], buf[1], t * m // n_chunks, (t + 1) * m // n_chunks
        )
    _sum_pairs(buffers, xz, xcq)


@jit
def _sum_pairs(buffers, xz, xcq):
    xz[:] = 0.0
    xcq[:] = 0.0
    for t in range(buffers.shape[0]):
        for j in range(xz.shape[0]):
            xz[j] += buffers[t, 0, j]
            xcq[j] += buffers[t, 1, j]


@jit_strict
def _pairwise_block(a, lo, n):
    """numpy's ``pairwise_sum`` (``loops_utils.h``) of ``a[lo:lo + n]`` for ``n <= 128``:
    a plain loop below 8 entries, else eight accumulators."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = lo + 8
    stop = lo + n - n % 8
    while i < stop:
        r0 += a[i]
        r1 += a[i + 1]
        r2 += a[i + 2]
        r3 += a[i + 3]
        r4 += a[i + 4]
        r5 += a[i + 5]
        r6 += a[i + 6]
        r7 += a[i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < lo + n:
        res += a[i]
        i += 1
    return res


#: numpy before 2.3 reduces a contiguous vector in buffers of 8192 entries, adding each
#: buffer's pairwise sum to the running total (0: one pairwise tree over the whole vector,
#: numpy >= 2.3). Read when the kernels compile: a Numba cache written under one numpy
#: and loaded under another keeps the value it was compiled with.
NUMPY_REDUCE_BUFFER = 8192 if tuple(int(v) for v in np.__version__.split(".")[:2]) < (2, 3) else 0


@jit_strict
def numpy_sum(a):
    """``a.sum()`` of a contiguous float64 vector, bit for bit as numpy computes it.

    For kernels that take over a loop numpy used to run: the same rounding keeps their
    iterates identical to the numpy version's (tested against ``np.sum``). numpy halves
    a run longer than 128 entries (the first half a multiple of 8 long) and adds the
    halves' sums; this walks the same tree with an explicit stack (a recursive kernel
    cannot be loaded from Numba's on-disk cache). numpy < 2.3 sums buffers of 8192
    entries that way and adds them in order (``NUMPY_REDUCE_BUFFER``).
    """
    n = a.shape[0]
    if NUMPY_REDUCE_BUFFER and n > NUMPY_REDUCE_BUFFER:
        total = 0.0
        for lo in range(0, n, NUMPY_REDUCE_BUFFER):
            total += _pairwise_sum(a, lo, min(NUMPY_REDUCE_BUFFER, n - lo))
        return total
    # np.intp(0), not 0: see numba_config on literal arguments
    return 0.0 + _pairwise_sum(a, np.intp(0), n)


@jit_strict
def _pairwise_sum(a, start, n):
    """numpy's ``pairwise_sum`` of ``a[start:start + n]`` (see :func:`numpy_sum`)."""
    if n <= 128:
        return _pairwise_block(a, start, n)
    # tasks: (lo, n) to sum, or (0, -1): replace the top two sums by their sum
    task_lo = np.empty(192, dtype=np.int64)
    task_n = np.empty(192, dtype=np.int64)
    sums = np.empty(64)
    task_lo[0], task_n[0] = start, n
    n_tasks, n_sums = 1, 0
    while n_tasks:
        n_tasks -= 1
        lo, size = task_lo[n_tasks], task_n[n_tasks]
        if size < 0:
            n_sums -= 1
            sums[n_sums - 1] = sums[n_sums - 1] + sums[n_sums]
        elif size <= 128:
            sums[n_sums] = _pairwise_block(a, lo, size)
            n_sums += 1
        else:
            half = size // 2
            half -= half % 8
            task_lo[n_tasks], task_n[n_tasks] = 0, -1
            task_lo[n_tasks + 1], task_n[n_tasks + 1] = lo + half, size - half
            task_lo[n_tasks + 2], task_n[n_tasks + 2] = lo, half
            n_tasks += 3
    return sums[0]


def _unsigned(index):
    """``index`` viewed as unsigned integers of the same width (no copy).

    Numba must allow for negative (wrap-around) indices when an array is indexed by a
    signed integer; with unsigned row numbers, column indices and row pointers the
    sparse kernels skip that check and run faster (figures in the package README).
    """
    return index.view(np.dtype(f"u{index.dtype.itemsize}"))


#: Dense products touching fewer entries than this run serially. svmcore starts OpenMP's
#: threads waiting passively (``numba_config``), so each parallel region first wakes the
#: sleeping worker: 41-76 us a launch on the 2-core reference machine (TSVM/MFA fits,
#: passive against spinning, divided by their launch counts), more than a second thread
#: saves on a dense product of a few hundred thousand entries (g241c-like's 1,480 x 241
#: one-pass product: 90 us serial, 100 us on two threads). Was 200,000 while the threads
#: spun; figures in docs/benchmarks.rst (TSVM/MFA paragraph).
PARALLEL_MIN_WORK = 500_000

#: CSR products with fewer stored entries than this run serially. Kept at 200,000: on
#: the idle machine svmcore text's 10,000-row CSR products (393,000 entries) paid for
#: the wake-up (TSVM / MFA 0.97 / 5.4-5.6 s on two passive threads, 1.19-1.22 /
#: 6.7-7.0 s serial), unlike the dense one-pass product above.
PARALLEL_MIN_NNZ = 200_000


def parallel_threshold(sparse: bool) -> int:
    """The stored entries from which a product over rows runs on several threads."""
    return PARALLEL_MIN_NNZ if sparse else PARALLEL_MIN_WORK


class RowProducts:
    """Products with the rows of a validated dense or CSR matrix, plus an optional bias column.

    Built once per solve; the per-thread buffers of the transposed product are
    reused across calls. ``intercept=True`` appends a virtual constant-1 column,
    so vectors in feature space have ``n_features + 1`` entries (the last is the
    bias) while ``X`` itself is never copied.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features) or csr_matrix
        Already validated (C-contiguous float array or canonical CSR).
    intercept : bool
        Whether to append the virtual constant column.
    """

    def __init__(self, X: MatrixLike, intercept: bool = False) -> None:
        self.X = X
        self.intercept = bool(intercept)
        self.sparse = sp.issparse(X)
        # CSR arrays as unsigned views (no copy): see _unsigned
        self._csr: tuple[Any, ...] = (
            (X.data, _unsigned(X.indices), _unsigned(X.indptr)) if self.sparse else ()
        )
        self.n_samples, self.n_features = X.shape
        self.dim = self.n_features + int(self.intercept)
        n_chunks = max(1, effective_n_threads(None))
        self._buffers = np.empty((n_chunks, self.n_features), dtype=np.float64)
        # (n_chunks, 2, n_features), made by the first fused()
        self._pair_buffers: np.ndarray | None = None

    def _parallel(self, rows):
        """Whether a product over ``rows`` is large enough to run on several threads."""
        if self._buffers.shape[0] == 1:
            return False
        per_row = self.X.nnz / max(1, self.n_samples) if self.sparse else self.n_features
        return rows.shape[0] * per_row >= parallel_threshold(self.sparse)

    def matvec(self, v: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Return ``X[rows] @ v`` (bias included) as a float64 vector of length ``len(rows)``."""
        rows = _unsigned(rows)
        out = np.empty(rows.shape[0], dtype=np.float64)
        w = v[: self.n_features]
        m = rows.shape[0]
        if self.sparse:
            if self._parallel(rows):
                n_chunks = self._buffers.shape[0]
                _csr_matvec_rows(*self._csr, rows, w, out, n_chunks)
            else:
                _csr_matvec_range(*self._csr, rows, w, out, 0, m)
        elif self._parallel(rows):
            _dense_matvec_rows(self.X, rows, w, out, self._buffers.shape[0])
        else:
            _dense_matvec_range(self.X, rows, w, out, 0, m)
        if self.intercept:
            out += v[self.n_features]
        return out

    def rmatvec(self, u: np.ndarray, rows: np.ndarray, *, square: bool = False) -> np.ndarray:
        """Return ``X[rows].T @ u`` (bias entry ``sum(u)`` last); ``square`` squares X first."""
        rows = _unsigned(rows)
        out = np.empty(self.dim, dtype=np.float64)
        head = out[: self.n_features]
        m = rows.shape[0]
        X = self.X
        if self._parallel(rows):
            if self.sparse:
                _csr_rmatvec_rows(*self._csr, rows, u, square, self._buffers, head)
            else:
                _dense_rmatvec_rows(X, rows, u, square, self._buffers, head)
        else:
            head[:] = 0.0
            if self.sparse:
                _csr_rmatvec_range(*self._csr, rows, u, square, 0, m, head)
            else:
                _dense_rmatvec_range(X, rows, u, square, 0, m, head)
        if self.intercept:
            out[self.n_features] = u.sum()
        return out

    def fused(
        self, p: np.ndarray, z: np.ndarray, c: np.ndarray, rows: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One pass over ``X[rows]`` for a CG iteration: ``(X_J p, X_J^T z, X_J^T (c * X_J p))``.

        Each active row is read once and serves the product with ``p`` and both
        transposed products (the row is still in cache), so a CGLS iteration streams
        ``X_J`` once instead of twice. ``z`` and ``c`` have one entry per active row; the
        bias entry (``intercept=True``) is included in every result. Dense ``X`` only.
        """
        if self.sparse:
            raise TypeError("RowProducts.fused is for dense X; use matvec and rmatvec.")
        rows = _unsigned(rows)
        m = rows.shape[0]
        q = np.empty(m, dtype=np.float64)
        xz = np.empty(self.dim, dtype=np.float64)
        xcq = np.empty(self.dim, dtype=np.float64)
        head_z, head_cq = xz[: self.n_features], xcq[: self.n_features]
        w = p[: self.n_features]
        bias = float(p[self.n_features]) if self.intercept else 0.0
        X = self.X
        if self._parallel(rows):
            if self._pair_buffers is None:
                n_chunks = self._buffers.shape[0]
                self._pair_buffers = np.empty((n_chunks, 2, self.n_features), dtype=np.float64)
            _dense_fused_rows(X, rows, w, bias, z, c, q, self._pair_buffers, head_z, head_cq)
        else:
            head_z[:] = 0.0
            head_cq[:] = 0.0
            _dense_fused_range(X, rows, w, bias, z, c, q, head_z, head_cq, 0, m)
        if self.intercept:
            xz[self.n_features] = z.sum()
            xcq[self.n_features] = float((c * q).sum())
        return q, xz, xcq


def _prepare(X, vec, vec_name, rows, intercept, axis):
    X = check_float_array(X, "X", accept_sparse=True, allow_empty=True)
    if sp.issparse(X):
        X.sum_duplicates()
    ops = RowProducts(X, intercept)
    rows = (
        np.arange(ops.n_samples, dtype=np.intp)
        if rows is None
        else check_indices(rows, "rows", ops.n_samples)
    )
    vec = check_float_array(vec, vec_name, ndim=1, dtype=np.float64, allow_empty=True)
    expected = ops.dim if axis == 1 else rows.shape[0]
    if vec.shape[0] != expected:
        raise ValueError(f"{vec_name} must have {expected} entries, got {vec.shape[0]}.")
    return ops, vec, rows


def matvec_rows(
    X: MatrixLike, v: ArrayLike, rows: ArrayLike | None = None, *, intercept: bool = False
) -> np.ndarray:
    """Compute ``X[rows] @ v`` without copying ``X[rows]``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features) or sparse matrix
        Dense (float32 kept) or CSR data; other sparse formats are converted to CSR.
    v : array-like of shape (n_features,) or (n_features + 1,)
        Vector in feature space; with ``intercept=True`` its last entry is the bias.
    rows : array-like of int, default=None
        Active row indices; all rows when None.
    intercept : bool, default=False
        Whether ``X`` is extended by a virtual constant-1 column.

    Returns
    -------
    out : ndarray of shape (len(rows),), float64
        ``X[rows] @ v``, plus the bias ``v[-1]`` with ``intercept=True``.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.linalg import matvec_rows
    >>> X = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> matvec_rows(X, [1.0, 1.0, 0.5], rows=[0, 2], intercept=True)
    array([ 3.5, 11.5])
    """
    ops, v, rows = _prepare(X, v, "v", rows, intercept, axis=1)
    return ops.matvec(v, rows)


def rmatvec_rows(
    X: MatrixLike, u: ArrayLike, rows: ArrayLike | None = None, *, intercept: bool = False
) -> np.ndarray:
    """Compute ``X[rows].T @ u`` without copying ``X[rows]`` (per-thread buffers, serial sum).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features) or sparse matrix
        Dense (float32 kept) or CSR data.
    u : array-like of shape (len(rows),)
        One value per active row.
    rows : array-like of int, default=None
        Active row indices; all rows when None.
    intercept : bool, default=False
        Whether ``X`` is extended by a virtual constant-1 column (adds ``sum(u)`` last).

    Returns
    -------
    out : ndarray of shape (n_features,) or (n_features + 1,), float64
        ``X[rows].T @ u``, followed by ``sum(u)`` with ``intercept=True``.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.linalg import rmatvec_rows
    >>> X = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> rmatvec_rows(X, [1.0, -1.0], rows=[0, 2], intercept=True)
    array([-4., -4.,  0.])
    """
    ops, u, rows = _prepare(X, u, "u", rows, intercept, axis=0)
    return ops.rmatvec(u, rows)
