"""Validated public kernel functions: Gram blocks, rows, diagonals, distances, products.

The cross term :math:`\\langle a, b\\rangle` of a block comes from BLAS (``numpy.matmul``,
which keeps float32 as float32) or from scipy's sparse product; a parallel Numba pass
then turns it into the kernel in place. For RBF this is the expansion
:math:`-\\gamma(\\|a\\|^2 + \\|b\\|^2 - 2\\langle a, b\\rangle)`, clipped against rounding,
followed by numpy's SIMD ``exp`` in place. With very few features the direct difference
loop is as fast as BLAS and exact, so it is used there instead (``_DIRECT_MAX_FEATURES``).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._threads import effective_n_threads, numba_threads
from ..typing import ArrayLike, MatrixLike
from ..validation import check_float_array, check_indices, check_positive_int
from . import _numba
from ._spec import check_kernel_params

__all__ = ["gram", "kernel_diag", "kernel_distances", "kernel_matvec", "kernel_rows"]

#: Dense inputs with at most this many features use the direct difference loop for RBF
#: and linear distances: it beats matmul + expansion at a few features and loses from
#: about 10 on (figures in the package README).
_DIRECT_MAX_FEATURES = 8

#: Default number of entries of one block (32 MB in float64).
_BLOCK_ELEMENTS = 1 << 22

#: Below this many kernel entries in a call, run on one thread: waking Numba's pool costs
#: more than the serial work of small blocks (figures in the package README).
_PARALLEL_MIN_ENTRIES = 1 << 20


def _n_jobs_for(n_entries, n_jobs):
    n_threads = effective_n_threads(n_jobs)  # validates n_jobs even where one thread runs
    return n_threads if n_entries >= _PARALLEL_MIN_ENTRIES else 1


def _sqnorms(A):
    if sp.issparse(A):
        return np.asarray(A.multiply(A).sum(axis=1), dtype=A.dtype).ravel()
    return np.einsum("ij,ij->i", A, A)


def _dot_into(A, B, out):
    if sp.issparse(A) or sp.issparse(B):
        prod = A @ B.T
        out[...] = prod.toarray() if sp.issparse(prod) else prod
    else:
        np.matmul(A, B.T, out=out)


class _Kernel:
    """Validated kernel parameters, typed in the working dtype, applied block by block."""

    def __init__(self, kernel, gamma, degree, coef0, dtype, n_features, sparse, distance):
        self.kernel, gamma, self.degree, coef0 = check_kernel_params(kernel, gamma, degree, coef0)
        self.gamma = dtype.type(gamma)
        self.coef0 = dtype.type(coef0)
        self.dtype = dtype
        self.distance = distance
        self.direct = (
            not sparse and n_features <= _DIRECT_MAX_FEATURES and self.kernel in ("rbf", "linear")
        )

    def diag(self, A):
        """k(a, a) for every row of A."""
        if self.kernel == "rbf":
            return np.ones(A.shape[0], dtype=self.dtype)
        sq = _sqnorms(A)
        if self.kernel == "linear":
            return sq
        # Same jitted power as the blocks, so that k(a, a) agrees with K's diagonal.
        _numba.poly_from_dot(sq.reshape(-1, 1), self.gamma, self.coef0, self.degree)
        return sq

    def aux(self, A):
        """Per-row quantity the block transform needs (squared norms or diagonal)."""
        if self.direct:
            return None
        if self.kernel == "rbf":
            return _sqnorms(A)
        if self.distance:
            return self.diag(A)
        return None

    def block(self, A, B, aux_a, aux_b, out):
        """Write K(A, B) (or the kernel distance) into ``out``."""
        one = self.dtype.type(1)
        if self.kernel == "rbf":
            if self.direct:
                _numba.scaled_sqdist_direct(A, B, -self.gamma, out)
            else:
                _dot_into(A, B, out)
                _numba.scaled_sqdist_from_dot(out, aux_a, aux_b, -self.gamma)
            np.exp(out, out=out)
            if self.distance:
                # k(a, a) = 1, so the distance is 2 - 2 k(a, b).
                np.multiply(out, -2, out=out)
                np.add(out, 2, out=out)
                np.maximum(out, 0, out=out)
        elif self.kernel == "linear":
            if self.distance and self.direct:
                _numba.scaled_sqdist_direct(A, B, one, out)
            else:
                _dot_into(A, B, out)
                if self.distance:
                    _numba.scaled_sqdist_from_dot(out, aux_a, aux_b, one)
        else:
            _dot_into(A, B, out)
            _numba.poly_from_dot(out, self.gamma, self.coef0, self.degree)
            if self.distance:
                _numba.scaled_sqdist_from_dot(out, aux_a, aux_b, one)


def _check_pair(X, Y):
    X = check_float_array(X, "X", accept_sparse=True)
    if Y is not None:
        Y = check_float_array(Y, "Y", accept_sparse=True)
        if Y.shape[1] != X.shape[1]:
            raise ValueError(
                f"X and Y must have the same number of columns, got X with {X.shape[1]} "
                f"and Y with {Y.shape[1]}."
            )
        dtype = np.result_type(X.dtype, Y.dtype)
        X, Y = X.astype(dtype, copy=False), Y.astype(dtype, copy=False)
    return X, Y


def _take(A, idx):
    return A if idx is None else A[idx]


def _pairwise(X, Y, rows, cols, params, n_jobs, distance):
    X, Y = _check_pair(X, Y)
    Y_all = X if Y is None else Y
    kern = _Kernel(
        **params,
        dtype=X.dtype,
        n_features=X.shape[1],
        sparse=sp.issparse(X) or sp.issparse(Y_all),
        distance=distance,
    )
    rows = None if rows is None else check_indices(rows, "rows", X.shape[0])
    cols = None if cols is None else check_indices(cols, "cols", Y_all.shape[0])
    n_rows = X.shape[0] if rows is None else rows.size
    B = _take(Y_all, cols)
    out = np.empty((n_rows, B.shape[0]), dtype=X.dtype)
    if out.size == 0:
        return out
    aux_b = kern.aux(B)
    step = max(1, _BLOCK_ELEMENTS // B.shape[0])
    with numba_threads(_n_jobs_for(out.size, n_jobs)):
        for start in range(0, n_rows, step):
            block = slice(start, min(start + step, n_rows))
            A = X[block] if rows is None else X[rows[block]]
            kern.block(A, B, kern.aux(A), aux_b, out[block])
    return out


def gram(
    X: MatrixLike,
    Y: MatrixLike | None = None,
    *,
    kernel: str = "rbf",
    gamma: float = 1.0,
    degree: int = 3,
    coef0: float = 1.0,
    rows: ArrayLike | None = None,
    cols: ArrayLike | None = None,
    n_jobs: int | None = None,
) -> np.ndarray:
    """Kernel matrix ``K(X[rows], Y[cols])``, computed in row blocks.

    Parameters
    ----------
    X : {ndarray, csr_matrix} of shape (n_samples_X, n_features)
        float32 stays float32 (the result is then float32); anything else becomes float64.
    Y : {ndarray, csr_matrix} of shape (n_samples_Y, n_features), default=None
        Second set; ``None`` means ``X``.
    kernel : {"linear", "rbf", "poly"}, default="rbf"
        ``linear``: :math:`\\langle a, b\\rangle`; ``rbf``: :math:`\\exp(-\\gamma\\|a-b\\|^2)`;
        ``poly``: :math:`(\\gamma\\langle a, b\\rangle + c_0)^d` (scikit-learn's definitions).
    gamma : float, default=1.0
        Kernel coefficient (> 0) of ``rbf`` and ``poly``; see :func:`resolve_gamma`
        for scikit-learn's ``"scale"`` and ``"auto"``.
    degree : int, default=3
        Degree (>= 1) of ``poly``.
    coef0 : float, default=1.0
        Independent term of ``poly``.
    rows : array-like of int, default=None
        Row indices into ``X``; ``None`` means all rows.
    cols : array-like of int, default=None
        Row indices into ``Y``; ``None`` means all rows.
    n_jobs : int, default=None
        Numba threads (scikit-learn's convention; ``None`` keeps Numba's setting).

    Returns
    -------
    K : ndarray of shape (len(rows) or n_samples_X, len(cols) or n_samples_Y)
        The kernel values, in ``X``'s dtype (float32 stays float32).

    See Also
    --------
    kernel_matvec : ``K(X, Y) @ V`` without forming ``K``.

    Notes
    -----
    Time :math:`O(n_r n_c m)`; memory is the output plus one block of gathered rows.
    Sparse CSR input is accepted for every kernel (the cross term is a sparse product).

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.kernels import gram
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0]])
    >>> gram(X, kernel="rbf", gamma=1.0)
    array([[1.        , 0.36787944],
           [0.36787944, 1.        ]])
    """
    params = {"kernel": kernel, "gamma": gamma, "degree": degree, "coef0": coef0}
    return _pairwise(X, Y, rows, cols, params, n_jobs, distance=False)


def kernel_rows(
    X: MatrixLike,
    rows: ArrayLike,
    *,
    kernel: str = "rbf",
    gamma: float = 1.0,
    degree: int = 3,
    coef0: float = 1.0,
    n_jobs: int | None = None,
) -> np.ndarray:
    """Kernel rows ``K(X[rows], X)``.

    Parameters
    ----------
    X : {ndarray, csr_matrix} of shape (n_samples, n_features)
        The samples.
    rows : array-like of int
        Indices of the rows wanted.
    kernel, gamma, degree, coef0, n_jobs : str, float, int, float, int or None
        As in :func:`gram`.

    Returns
    -------
    K : ndarray of shape (len(rows), n_samples)
        ``K(X[rows], X)``.

    See Also
    --------
    gram : Any block ``K(X[rows], Y[cols])``.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.kernels import kernel_rows
    >>> kernel_rows(np.eye(3), [1], kernel="linear")
    array([[0., 1., 0.]])
    """
    if rows is None:
        raise TypeError("rows must be an index array; use gram(X) for the full matrix.")
    return gram(
        X, None, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, rows=rows, n_jobs=n_jobs
    )


def kernel_diag(
    X: MatrixLike,
    *,
    kernel: str = "rbf",
    gamma: float = 1.0,
    degree: int = 3,
    coef0: float = 1.0,
) -> np.ndarray:
    """Diagonal ``k(x_i, x_i)`` of the kernel matrix of ``X``.

    Parameters
    ----------
    X : {ndarray, csr_matrix} of shape (n_samples, n_features)
        Data.
    kernel, gamma, degree, coef0 : str, float, int, float
        As in :func:`gram`.

    Returns
    -------
    diag : ndarray of shape (n_samples,)
        ``k(x_i, x_i)``, in ``X``'s dtype.

    See Also
    --------
    kernel_distances : Uses the diagonal for kernel-space distances.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.kernels import kernel_diag
    >>> kernel_diag(np.array([[1.0, 2.0]]), kernel="poly", gamma=1.0, degree=2, coef0=1.0)
    array([36.])
    """
    X = check_float_array(X, "X", accept_sparse=True)
    kern = _Kernel(kernel, gamma, degree, coef0, X.dtype, X.shape[1], True, False)
    return kern.diag(X)


def kernel_distances(
    X: MatrixLike,
    Y: MatrixLike | None = None,
    *,
    rows: ArrayLike | None = None,
    cols: ArrayLike | None = None,
    kernel: str = "rbf",
    gamma: float = 1.0,
    degree: int = 3,
    coef0: float = 1.0,
    n_jobs: int | None = None,
) -> np.ndarray:
    """Squared kernel-space distances ``k(a, a) + k(b, b) - 2 k(a, b)``, clipped at 0.

    Parameters
    ----------
    X, Y : {ndarray, csr_matrix}
        As in :func:`gram`.
    rows, cols : array-like of int or None
        As in :func:`gram`.
    kernel, gamma, degree, coef0, n_jobs : str, float, int, float, int or None
        As in :func:`gram`.

    Returns
    -------
    D : ndarray of shape (len(rows) or n_samples_X, len(cols) or n_samples_Y)
        :math:`\\|\\phi(a) - \\phi(b)\\|^2` for every pair.

    See Also
    --------
    gram : The kernel values themselves.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.kernels import kernel_distances
    >>> kernel_distances(np.array([[0.0, 0.0], [3.0, 4.0]]), kernel="linear")
    array([[ 0., 25.],
           [25.,  0.]])
    """
    params = {"kernel": kernel, "gamma": gamma, "degree": degree, "coef0": coef0}
    return _pairwise(X, Y, rows, cols, params, n_jobs, distance=True)


def kernel_matvec(
    X: MatrixLike,
    Y: MatrixLike,
    V: ArrayLike,
    *,
    kernel: str = "rbf",
    gamma: float = 1.0,
    degree: int = 3,
    coef0: float = 1.0,
    block_size: int | None = None,
    n_jobs: int | None = None,
) -> np.ndarray:
    """Product ``K(X, Y) @ V`` computed block by block, never forming ``K``.

    Parameters
    ----------
    X : {ndarray, csr_matrix} of shape (n_samples_X, n_features)
        Rows of the kernel matrix.
    Y : {ndarray, csr_matrix} of shape (n_samples_Y, n_features) or None
        Columns of the kernel matrix; ``None`` means ``X``.
    V : array-like of shape (n_samples_Y,) or (n_samples_Y, k)
        Vector(s) to multiply.
    kernel, gamma, degree, coef0 : str, float, int, float
        As in :func:`gram`.
    block_size : int, default=None
        Rows of ``X`` per block; by default about 4M kernel entries per block.
    n_jobs : int, default=None
        Numba threads.

    Returns
    -------
    KV : ndarray of shape (n_samples_X,) or (n_samples_X, k)
        The product; its dtype is the promotion of the kernel's dtype and ``V``'s.

    Notes
    -----
    Memory :math:`O(\\text{block\\_size} \\cdot n_Y)`; time :math:`O(n_X n_Y (m + k))`.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.kernels import kernel_matvec
    >>> kernel_matvec(np.eye(2), None, np.array([1.0, 2.0]), kernel="linear")
    array([1., 2.])
    """
    X, Y = _check_pair(X, Y)
    Y_all = X if Y is None else Y
    V = np.asarray(V)
    if V.dtype.kind not in "biuf":
        raise TypeError(f"V must hold real numbers, got dtype {V.dtype}.")
    if V.ndim not in (1, 2) or V.shape[0] != Y_all.shape[0]:
        raise ValueError(
            f"V must have shape ({Y_all.shape[0]},) or ({Y_all.shape[0]}, k) to match Y, "
            f"got {V.shape}."
        )
    if V.dtype.kind != "f":
        V = V.astype(np.float64)
    if not np.isfinite(V).all():
        raise ValueError("V contains NaN or infinity.")
    kern = _Kernel(
        kernel,
        gamma,
        degree,
        coef0,
        X.dtype,
        X.shape[1],
        sp.issparse(X) or sp.issparse(Y_all),
        False,
    )
    n_X, n_Y = X.shape[0], Y_all.shape[0]
    if block_size is None:
        block_size = max(1, _BLOCK_ELEMENTS // n_Y)
    else:
        block_size = check_positive_int(block_size, "block_size")
    block_size = min(block_size, n_X)
    out = np.empty((n_X,) + V.shape[1:], dtype=np.result_type(X.dtype, V.dtype))
    buffer = np.empty((block_size, n_Y), dtype=X.dtype)
    aux_b = kern.aux(Y_all)
    with numba_threads(_n_jobs_for(n_X * n_Y, n_jobs)):
        for start in range(0, n_X, block_size):
            stop = min(start + block_size, n_X)
            A = X[start:stop]
            K = buffer[: stop - start]
            kern.block(A, Y_all, kern.aux(A), aux_b, K)
            np.matmul(K, V, out=out[start:stop])
    return out
