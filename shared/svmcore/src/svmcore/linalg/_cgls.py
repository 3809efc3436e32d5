"""CGLS for weighted regularized least squares (SVMlin, Sindhwani & Keerthi 2006, Table 2)."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from ..numba_config import jit, jit_strict
from ..typing import ArrayLike, MatrixLike
from ..validation import check_float_array, check_indices, check_positive_int, check_real
from ._products import (
    RowProducts,
    _csr_matvec_range,
    _csr_rmatvec_range,
    _dense_fused_range,
    _unsigned,
    numpy_sum,
)

__all__ = ["CGLSResult", "cgls", "jacobi_preconditioner"]

#: SVMlin's ``cgitermax`` for a converging solve (Table 1's second stage).
DEFAULT_MAX_ITER = 10000


class CGLSResult(NamedTuple):
    """Result of :func:`cgls`.

    Parameters
    ----------
    beta : ndarray of shape (n_features,) or (n_features + 1,)
        The solution; with ``intercept=True`` the last entry is the bias.
    n_iter : int
        Number of CG iterations performed.
    converged : bool
        Whether Table 2's stopping rule was met (``optimality = 1``).
    outputs : ndarray of shape (n_samples,)
        ``X beta`` (bias included) on every row, active or not.
    """

    beta: np.ndarray
    n_iter: int
    converged: bool
    outputs: np.ndarray


# The vector work of a CG iteration runs in these serial kernels rather than numpy:
# ``a @ b`` goes to the BLAS, whose threaded dot products cost more than the sparse
# products on a loaded machine (measured: 31 s of 50 s in CGLS at 20k x 10k, load 4),
# and each numpy expression allocates a temporary.


@jit
def _curvature(p, lam, q, c):
    """``p' diag(lam) p + q' diag(c) q``."""
    acc = 0.0
    for j in range(p.shape[0]):
        acc += lam[j] * p[j] * p[j]
    for i in range(q.shape[0]):
        acc += c[i] * q[i] * q[i]
    return acc


@jit
def _step(gamma, p, q, c, beta, o, z):
    """``beta += gamma p``, ``o += gamma q``, ``z -= gamma c q``; returns ``z' z``."""
    for j in range(p.shape[0]):
        beta[j] += gamma * p[j]
    zz = 0.0
    for i in range(q.shape[0]):
        gq = gamma * q[i]
        o[i] += gq
        z[i] -= c[i] * gq
        zz += z[i] * z[i]
    return zz


@jit
def _residual(r, lam, beta, m_inv, h):
    """``r -= lam beta`` in place, ``h = m_inv r`` (if given); returns ``(r'r, r'h)``."""
    rr = 0.0
    rh = 0.0
    for j in range(r.shape[0]):
        r[j] -= lam[j] * beta[j]
        rr += r[j] * r[j]
        if m_inv.shape[0]:
            h[j] = m_inv[j] * r[j]
            rh += r[j] * h[j]
    if not m_inv.shape[0]:
        rh = rr
    return rr, rh


@jit
def _subtract_scaled(r, gamma, v):
    """``r -= gamma v`` in place."""
    for j in range(r.shape[0]):
        r[j] -= gamma * v[j]


@jit
def _direction(p, h, ratio):
    """``p = h + ratio p`` in place."""
    for j in range(p.shape[0]):
        p[j] = h[j] + ratio * p[j]


# A CGLS solve over few stored entries takes microseconds per iteration, less than the
# Python that strings the kernels above together: the serial loops below run a whole solve
# in one call. They make the same kernel calls in the same order on the same types as the
# Python loop of ``cgls`` (which keeps the parallel, large products), and their own
# scalar steps are strict IEEE arithmetic with numpy's pairwise sums for the bias
# entries, so the iterates are bit for bit those of the Python loop.
#
# They are ``inline="always"``: called from a kernel (svmcore.linalg.mfn_step's), Numba
# types their code inside it instead of compiling each on its own and then optimizing and
# emitting it again as part of the caller's module (Numba links callees into every
# caller), which a first fit paid in compile time. Strict code inlined into strict code:
# same flags, same arithmetic. The fast-math kernels they call stay separate functions.


@jit_strict(inline="always")
def _step_length(omega1, p, lam, q, c):
    """``(True, gamma)``, or ``(False, 0)`` when the curvature is not positive and finite."""
    curvature = _curvature(p, lam, q, c)
    if not curvature > 0.0 or not math.isfinite(curvature):
        return False, 0.0
    return True, omega1 / curvature


@jit_strict(inline="always")
def _stop_or_turn(r, lam, beta, m_inv, h, p, omega1, eps2, zz):
    """Table 2's stopping rule on the new residual, else the next direction in ``p``;
    returns ``(converged, omega1)``."""
    rr, rh = _residual(r, lam, beta, m_inv, h)
    if rr < eps2 * zz or rr == 0.0:
        return True, omega1
    _direction(p, h, rh / omega1)
    return False, rh


@jit_strict(inline="always")
def _cg_dense_serial(X, rows, intercept, c, lam, m_inv, beta, o, z, r, h, p, omega1, eps2, cap):
    """Table 2's loop on dense rows (one fused pass each, as ``RowProducts.fused``).

    ``r`` is the residual buffer and ``h`` is ``r`` itself without a preconditioner.
    Updates ``beta``, ``o``, ``z``, ``p`` in place; returns ``(n_iter, converged)``.
    """
    nf = X.shape[1]
    m = rows.shape[0]
    q = np.empty(m)
    xcq = np.empty(r.shape[0])
    cq = np.empty(m)
    head_z, head_cq = r[:nf], xcq[:nf]
    n_iter = 0
    while n_iter < cap:
        n_iter += 1
        bias = p[nf] if intercept else 0.0
        head_z[:] = 0.0
        head_cq[:] = 0.0
        _dense_fused_range(X, rows, p[:nf], bias, z, c, q, head_z, head_cq, 0, m)
        if intercept:
            r[nf] = numpy_sum(z)
            for k in range(m):
                cq[k] = c[k] * q[k]
            xcq[nf] = numpy_sum(cq)
        ok, gamma = _step_length(omega1, p, lam, q, c)
        if not ok:
            return n_iter, False
        zz = _step(gamma, p, q, c, beta, o, z)
        _subtract_scaled(r, gamma, xcq)
        done, omega1 = _stop_or_turn(r, lam, beta, m_inv, h, p, omega1, eps2, zz)
        if done:
            return n_iter, True
    return n_iter, False


@jit_strict(inline="always")
def _cg_csr_serial(
    data, indices, indptr, rows, intercept, c, lam, m_inv, beta, o, z, r, h, p, omega1, eps2, cap
):
    """Table 2's loop on CSR rows (two products, as ``RowProducts.matvec``/``rmatvec``).

    Same arguments and in-place updates as :func:`_cg_dense_serial`.
    """
    nf = r.shape[0] - 1 if intercept else r.shape[0]
    m = rows.shape[0]
    q = np.empty(m)
    head = r[:nf]
    n_iter = 0
    while n_iter < cap:
        n_iter += 1
        _csr_matvec_range(data, indices, indptr, rows, p[:nf], q, 0, m)
        if intercept:
            bias = p[nf]
            for k in range(m):
                q[k] += bias
        ok, gamma = _step_length(omega1, p, lam, q, c)
        if not ok:
            return n_iter, False
        zz = _step(gamma, p, q, c, beta, o, z)
        head[:] = 0.0
        _csr_rmatvec_range(data, indices, indptr, rows, z, False, 0, m, head)
        if intercept:
            r[nf] = numpy_sum(z)
        done, omega1 = _stop_or_turn(r, lam, beta, m_inv, h, p, omega1, eps2, zz)
        if done:
            return n_iter, True
    return n_iter, False


def _check_lam(lam, dim):
    """Return ``lam`` as a float or a float64 vector of length ``dim``, all >= 0."""
    if np.ndim(lam) == 0:
        return check_real(lam, "lam", low=0.0)
    lam = check_float_array(lam, "lam", ndim=1, dtype=np.float64)
    if lam.shape[0] != dim:
        raise ValueError(f"lam must be a scalar or have {dim} entries, got {lam.shape[0]}.")
    if (lam < 0).any():
        raise ValueError("lam must be >= 0 in every entry.")
    return lam


def _check_vector(v, name, size, *, nonnegative=False):
    v = check_float_array(v, name, ndim=1, dtype=np.float64, allow_empty=True)
    if v.shape[0] != size:
        raise ValueError(f"{name} must have {size} entries, got {v.shape[0]}.")
    if nonnegative and (v < 0).any():
        raise ValueError(f"{name} must be >= 0 in every entry.")
    return v


def _check_system(X, y, cost, lam, rows, intercept):
    X = check_float_array(X, "X", accept_sparse=True, allow_empty=True)
    if sp.issparse(X):
        X.sum_duplicates()
    ops = RowProducts(X, intercept)
    n = ops.n_samples
    if y is not None:
        y = _check_vector(y, "y", n)
    cost = _check_vector(cost, "cost", n, nonnegative=True)
    lam = _check_lam(lam, ops.dim)
    rows = np.arange(n, dtype=np.intp) if rows is None else check_indices(rows, "rows", n)
    return ops, y, cost, lam, rows


def cgls(
    X: MatrixLike,
    y: ArrayLike,
    cost: ArrayLike,
    lam: float | ArrayLike,
    beta0: ArrayLike | None = None,
    *,
    rows: ArrayLike | None = None,
    intercept: bool = False,
    epsilon: float = 1e-6,
    max_iter: int | None = None,
    preconditioner: ArrayLike | None = None,
    outputs0: ArrayLike | None = None,
    check_input: bool = True,
) -> CGLSResult:
    r"""Solve :math:`[\Lambda + X_J^T C_J X_J]\,\beta = X_J^T C_J y_J` by CGLS (SVMlin Table 2).

    Conjugate gradient on the normal equations of the weighted regularized least
    squares problem over the active rows :math:`J`, touching :math:`X` only through
    products :math:`X_J p` and :math:`X_J^T z` (dense or CSR; :math:`X^T X` is never
    formed and sparse input is never densified).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features) or sparse matrix
        Data; float32 stays float32 (CSR for sparse input).
    y : array-like of shape (n_samples,)
        Targets (any reals; the SVM methods pass labels in {-1, +1}).
    cost : array-like of shape (n_samples,)
        Non-negative per-row costs :math:`c_i` (the diagonal of :math:`C`).
    lam : float or array-like of shape (dim,)
        Regularization :math:`\lambda \ge 0`; a vector gives one value per coordinate
        (``dim = n_features + intercept``), e.g. 0 for an unregularized bias.
    beta0 : array-like of shape (dim,), default=None
        Seed (warm start); zeros when None.
    rows : array-like of int, default=None
        Active row indices :math:`J`; all rows when None.
    intercept : bool, default=False
        Append a virtual constant-1 column (``X`` is not copied); ``beta[-1]`` is the bias.
    epsilon : float, default=1e-6
        Relative tolerance :math:`\epsilon` of the stopping rule.
    max_iter : int, default=None
        ``cgitermax``; None means 10000 (SVMlin's value).
    preconditioner : array-like of shape (dim,), default=None
        Positive diagonal of :math:`M^{-1}` for Jacobi-preconditioned CG (see
        :func:`jacobi_preconditioner`). Not in the paper; None gives Table 2 exactly.
    outputs0 : array-like of shape (n_samples,), default=None
        :math:`X\beta_0` if the caller already has it (Table 2's input ``o``); only the
        active entries are read. Computed when None.
    check_input : bool, default=True
        Validate the arguments. ``False`` is for solvers calling CGLS in a loop on
        already validated data: ``X`` a C-contiguous float32/float64 array or a CSR
        matrix, float64 vectors of the right lengths, ``rows`` an intp array, ``lam``
        a float or float64 vector, ``epsilon`` and ``max_iter`` valid numbers.

    Returns
    -------
    result : CGLSResult
        ``(beta, n_iter, converged, outputs)``; ``outputs`` is :math:`X\beta` on all rows.

    Notes
    -----
    Iterations of Table 2 with :math:`z = C_J(y_J - X_J\beta)` and
    :math:`r = X_J^T z - \Lambda\beta` (the negative gradient of the quadratic):

    .. math::

        q = X_J p,\quad \gamma = \frac{\omega_1}{p^T\Lambda p + q^T C_J q},\quad
        \beta \mathrel{+}= \gamma p,\quad z \mathrel{-}= \gamma C_J q,\quad
        p = r + \frac{\|r_{new}\|^2}{\|r_{old}\|^2}\, p.

    **Stopping rule (Table 2, exactly):** after each update, stop with
    ``converged=True`` when :math:`\|r\|^2 < \epsilon^2 \|z\|^2`, i.e. the gradient
    norm is small relative to the weighted residual vector :math:`z`; otherwise stop
    after ``max_iter`` iterations with ``converged=False``. Two guards the table
    lacks: a residual :math:`r` that is exactly zero (at the seed or after an
    update) counts as converged even when :math:`z = 0` makes the strict inequality
    impossible (a zero seed residual returns with ``n_iter=0``), and a non-positive
    curvature :math:`p^T\Lambda p + q^TC_Jq` (only possible when ``lam`` has zeros
    and :math:`X_J` is rank deficient) stops with ``converged=False`` instead of
    dividing by zero.

    With a preconditioner :math:`M^{-1}` the directions use :math:`h = M^{-1}r`
    (:math:`\omega_1 = r^T h`, :math:`p = h + \omega p`); the stopping rule is unchanged.

    Each iteration costs one product with :math:`X_J` and one with :math:`X_J^T`,
    :math:`O(\mathrm{nnz}(X_J))`. For dense ``X`` both come from one pass over the
    active rows (:meth:`RowProducts.fused`): :math:`r` is formed as
    :math:`X_J^T z_{old} - \gamma X_J^T C_J q - \Lambda\beta`, which is Table 2's
    :math:`X_J^T z_{new} - \Lambda\beta` up to rounding (both products are fresh each
    iteration, so there is no recurrence to drift), and streams :math:`X_J` once per
    iteration instead of twice (dense products are memory-bound once :math:`X_J` leaves
    the cache, so the single pass saves time on large dense data, same iterates; see the
    package README). CSR keeps Table 2's two products (its scatters, not the reads,
    dominate).
    Memory is :math:`O(n + d)` beyond :math:`X` (plus two length-:math:`d`
    buffers per thread). The matrix keeps its dtype; vectors are float64.

    References
    ----------
    V. Sindhwani and S. S. Keerthi, "Large scale semi-supervised linear SVMs",
    SIGIR 2006, section 2.1 and Table 2.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.linalg import cgls
    >>> X = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    >>> res = cgls(X, [1.0, -1.0, 1.0], np.ones(3), 0.5)
    >>> bool(res.converged), np.round(res.beta, 6)
    (True, array([ 0.941176, -0.352941]))
    """
    if check_input:
        ops, y, cost, lam, rows = _check_system(X, y, cost, lam, rows, intercept)
        epsilon = check_real(epsilon, "epsilon", low=0.0, low_closed=False)
        if max_iter is not None:
            max_iter = check_positive_int(max_iter, "max_iter")
        if beta0 is not None:
            beta0 = _check_vector(beta0, "beta0", ops.dim)
        if preconditioner is not None:
            preconditioner = _check_vector(preconditioner, "preconditioner", ops.dim)
            if not (preconditioner > 0).all():
                raise ValueError("preconditioner must be > 0 in every entry.")
        if outputs0 is not None:
            outputs0 = _check_vector(outputs0, "outputs0", ops.n_samples)
    else:
        ops = RowProducts(X, intercept)
        # Validated by the caller: these are views of its arrays, never copies.
        y, cost = np.asarray(y), np.asarray(cost)
        rows = np.arange(ops.n_samples, dtype=np.intp) if rows is None else np.asarray(rows)
        if outputs0 is not None:
            outputs0 = np.asarray(outputs0)
    max_iter = DEFAULT_MAX_ITER if max_iter is None else max_iter
    dim, n = ops.dim, ops.n_samples
    beta = np.zeros(dim) if beta0 is None else np.array(beta0, dtype=np.float64)

    y_J, c_J = y[rows], cost[rows]
    if outputs0 is not None:
        o_J = outputs0[rows]
    elif beta0 is None:
        o_J = np.zeros(rows.shape[0])
    else:
        o_J = ops.matvec(beta, rows)

    lam_vec = np.full(dim, lam) if np.ndim(lam) == 0 else np.asarray(lam, dtype=np.float64)
    m_inv = np.empty(0) if preconditioner is None else np.asarray(preconditioner, np.float64)
    z = c_J * (y_J - o_J)
    r = ops.rmatvec(z, rows)
    h = r if preconditioner is None else np.empty(dim)
    _, omega1 = _residual(r, lam_vec, beta, m_inv, h)
    p = h.copy()
    eps2 = epsilon * epsilon
    n_iter = 0
    converged = not np.any(r)
    # Dense rows: one memory-bound pass per iteration instead of two. CSR: the two
    # scatters of the one-pass product cost more than re-reading the row (Table 2's
    # two products measured 5-10 % faster on 10k x 5000 text), so it keeps them.
    one_pass = not ops.sparse
    if not converged and not ops._parallel(rows):
        # Serial products: the whole loop in one kernel call (same iterates, see above).
        urows = _unsigned(rows)
        state = (c_J, lam_vec, m_inv, beta, o_J, z, r, h, p, omega1, eps2, max_iter)
        if ops.sparse:
            n_iter, converged = _cg_csr_serial(*ops._csr, urows, ops.intercept, *state)
        else:
            n_iter, converged = _cg_dense_serial(ops.X, urows, ops.intercept, *state)
    else:
        while not converged and n_iter < max_iter:
            n_iter += 1
            if one_pass:
                # One pass over X_J gives q = X_J p, X_J^T z (z before the update) and
                # X_J^T C_J q, so that X_J^T z_new = X_J^T z - gamma X_J^T C_J q is formed
                # without a second pass; both terms are fresh products (no recurrence).
                q, r, xcq = ops.fused(p, z, c_J, rows)
            else:
                q = ops.matvec(p, rows)
            curvature = _curvature(p, lam_vec, q, c_J)
            if not curvature > 0.0 or not math.isfinite(curvature):
                break
            gamma = omega1 / curvature
            zz = _step(gamma, p, q, c_J, beta, o_J, z)
            if one_pass:
                _subtract_scaled(r, gamma, xcq)
            else:
                r = ops.rmatvec(z, rows)
            if preconditioner is None:
                h = r
            rr, rh = _residual(r, lam_vec, beta, m_inv, h)
            if rr < eps2 * zz or rr == 0.0:
                converged = True
                break
            omega2, omega1 = omega1, rh
            _direction(p, h, omega1 / omega2)

    outputs = np.empty(n)
    outputs[rows] = o_J
    if rows.shape[0] < n:
        inactive = np.ones(n, dtype=bool)
        inactive[rows] = False
        inactive = np.flatnonzero(inactive)
        outputs[inactive] = ops.matvec(beta, inactive)
    return CGLSResult(beta, n_iter, bool(converged), outputs)


def jacobi_preconditioner(
    X: MatrixLike,
    cost: ArrayLike,
    lam: float | ArrayLike,
    *,
    rows: ArrayLike | None = None,
    intercept: bool = False,
) -> np.ndarray:
    r"""Inverse diagonal of :math:`\Lambda + X_J^T C_J X_J`, for :func:`cgls`.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features) or sparse matrix
        Data, dense or CSR.
    cost : array-like of shape (n_samples,)
        Non-negative per-row costs.
    lam : float or array-like of shape (dim,)
        Regularization, as in :func:`cgls`.
    rows : array-like of int, default=None
        Active rows; all when None.
    intercept : bool, default=False
        Include the virtual constant-1 column.

    Returns
    -------
    m_inv : ndarray of shape (dim,)
        :math:`1 / (\lambda_k + \sum_{i\in J} c_i x_{ik}^2)`; coordinates whose diagonal
        is zero (empty column and no regularization) get 1.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.linalg import jacobi_preconditioner
    >>> jacobi_preconditioner(np.array([[1.0, 0.0], [2.0, 0.0]]), np.ones(2), 1.0)
    array([0.16666667, 1.        ])
    """
    ops, _, cost, lam, rows = _check_system(X, None, cost, lam, rows, intercept)
    diag = ops.rmatvec(cost[rows], rows, square=True) + lam
    out = np.ones_like(diag)
    np.divide(1.0, diag, out=out, where=diag > 0)
    return out
