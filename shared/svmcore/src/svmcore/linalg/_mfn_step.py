"""One Newton iteration of L2-SVM-MFN (Sindhwani & Keerthi 2006, Table 1) in one Numba call.

On a small problem (every product serial: few stored entries, or one thread) an iteration
of Table 1 takes tens of microseconds of arithmetic, while the Python that strings its
steps together (the active set, the CGLS set-up, the outputs of the inactive rows, the
optimality check, the line search, the objective) cost several times that: on a
426 x 30 fit the Python was most of the time. :func:`mfn_step` runs the whole iteration
in one call. It makes the same kernel calls in the same order on the same types as
``cgls(check_input=False)`` followed by ``line_search(check_input=False)`` and the numpy
objective, with strict IEEE arithmetic and numpy's pairwise sums for its own steps, so
its results are those of the Python version bit for bit (tested).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from .._threads import effective_n_threads
from ..numba_config import jit_strict
from ..typing import MatrixLike
from . import _products
from ._cgls import _cg_csr_serial, _cg_dense_serial, _residual
from ._line_search import _ray_pieces, _scan_breakpoints
from ._products import (
    _csr_matvec_range,
    _csr_rmatvec_range,
    _dense_matvec_range,
    _dense_rmatvec_range,
    _unsigned,
    numpy_sum,
)

__all__ = ["MFNStep", "mfn_step", "mfn_step_is_serial", "squared_hinge_value"]


class MFNStep(NamedTuple):
    """Result of :func:`mfn_step`.

    Parameters
    ----------
    w_bar, outputs_bar : ndarray
        The Newton point (CGLS on the active rows) and its outputs on every row.
    n_cg_iter : int
        CGLS iterations.
    cg_converged : bool
        Whether CGLS met Table 2's stopping rule.
    n_active : int
        Size of the active set the step solved on.
    optimal : bool
        Table 1's optimality conditions at the Newton point (tolerance ``check``).
    delta : float
        The exact line-search step (0 when ``optimal``: no line search then).
    w, outputs : ndarray
        ``w + delta (w_bar - w)`` and its outputs (copies of the input when ``optimal``).
    objective : float
        The squared-hinge objective at ``(w, outputs)`` after the step; when ``optimal``,
        at the Newton point ``(w_bar, outputs_bar)``.
    """

    w_bar: np.ndarray
    outputs_bar: np.ndarray
    n_cg_iter: int
    cg_converged: bool
    n_active: int
    optimal: bool
    delta: float
    w: np.ndarray
    outputs: np.ndarray
    objective: float


@jit_strict(inline="always")
def _objective(w, o, y, cost, lam):
    """``0.5 sum(lam w w) + 0.5 sum(c max(0, 1 - y o)^2)``, numpy's arithmetic and sums."""
    head = np.empty(w.shape[0])
    for j in range(w.shape[0]):
        head[j] = lam[j] * w[j] * w[j]
    loss = np.empty(o.shape[0])
    for i in range(o.shape[0]):
        margin = 1.0 - y[i] * o[i]
        if not margin > 0.0:
            margin = 0.0
        loss[i] = cost[i] * margin * margin
    return 0.5 * numpy_sum(head) + 0.5 * numpy_sum(loss)


def _specialized_step(sparse):
    """Table 1's iteration, compiled for CSR ``(data, indices, indptr)`` (``sparse``) or
    for dense ``X``; the other format's arguments are None.

    ``sparse`` is a closure constant, not an argument: Numba prunes the branches on a
    constant before typing, so each variant compiles only its own kernels (with a
    runtime flag, a dense fit's first call compiled the CSR loop and products too). The
    on-disk cache keys each variant by the closure's value. The serial CGLS loop and
    the line search are inlined (see ``_cgls.py``), so they are called with explicit
    arguments (Numba does not inline a call with ``*args``).
    """

    @jit_strict
    def step(X, data, indices, indptr, intercept, y, cost, lam, w, o, eps, cap, check):
        """The tuple of :class:`MFNStep`; ``lam`` a float64 vector of length ``w.size``."""
        n = y.shape[0]
        nf = w.shape[0] - 1 if intercept else w.shape[0]
        # the active set: positive cost and y o < 1 (zero-cost rows never enter)
        index = np.empty(n, dtype=np.uint64)
        m = 0
        for i in range(n):
            if cost[i] > 0.0 and y[i] * o[i] < 1.0:
                index[m] = i
                m += 1
        rows = index[:m]
        # cgls's set-up: z = c_J (y_J - o_J), r = X_J^T z - lam beta, p = r
        c_J = np.empty(m)
        o_J = np.empty(m)
        z = np.empty(m)
        for k in range(m):
            i = rows[k]
            c_J[k] = cost[i]
            o_J[k] = o[i]
            z[k] = cost[i] * (y[i] - o[i])
        beta = w.copy()
        r = np.empty(w.shape[0])
        head = r[:nf]
        head[:] = 0.0
        # rows.shape[0], not the counter m: see numba_config on literal arguments
        if sparse:
            _csr_rmatvec_range(data, indices, indptr, rows, z, False, 0, rows.shape[0], head)
        else:
            _dense_rmatvec_range(X, rows, z, False, 0, rows.shape[0], head)
        if intercept:
            r[nf] = numpy_sum(z)
        m_inv = np.empty(0)
        _, omega1 = _residual(r, lam, beta, m_inv, r)
        p = r.copy()
        converged = True
        for j in range(r.shape[0]):
            if r[j] != 0.0:
                converged = False
        n_cg = 0
        if not converged:
            eps2 = eps * eps
            if sparse:
                n_cg, converged = _cg_csr_serial(
                    data, indices, indptr, rows, intercept,
                    c_J, lam, m_inv, beta, o_J, z, r, r, p, omega1, eps2, cap,
                )  # fmt: skip
            else:
                n_cg, converged = _cg_dense_serial(
                    X, rows, intercept, c_J, lam, m_inv, beta, o_J, z, r, r, p, omega1, eps2, cap
                )
        # outputs on every row: the active ones from CGLS, the others by a product
        o_bar = np.empty(n)
        for k in range(m):
            o_bar[rows[k]] = o_J[k]
        if m < n:
            inactive = np.empty(n - m, dtype=np.uint64)
            k = 0
            j = 0
            for i in range(n):
                if k < m and rows[k] == i:
                    k += 1
                else:
                    inactive[j] = i
                    j += 1
            out = np.empty(n - m)
            if sparse:
                _csr_matvec_range(data, indices, indptr, inactive, beta[:nf], out, 0, n - m)
            else:
                _dense_matvec_range(X, inactive, beta[:nf], out, 0, n - m)
            for j in range(n - m):
                o_bar[inactive[j]] = out[j] + beta[nf] if intercept else out[j]
        # Table 1's optimality conditions at the Newton point
        optimal = converged
        if optimal:
            for i in range(n):
                if cost[i] > 0.0:
                    margin = y[i] * o_bar[i]
                    if y[i] * o[i] < 1.0:
                        if not margin <= 1.0 + check:
                            optimal = False
                            break
                    elif not margin >= 1.0 - check:
                        optimal = False
                        break
        if optimal:
            value = _objective(beta, o_bar, y, cost, lam)
            return beta, o_bar, n_cg, converged, m, True, 0.0, w.copy(), o.copy(), value
        # Table 3's exact line search, then the step and the new objective
        left, right, deltas, t_left, t_right = _ray_pieces(w, beta, lam, o, o_bar, y, cost)
        if deltas.shape[0]:
            left, right = _scan_breakpoints(deltas, t_left, t_right, left, right)
        curvature = right - left
        delta = 0.0
        if curvature > 0.0:
            ratio = -left / curvature
            if ratio > 0.0:
                delta = ratio
        w_new = np.empty(w.shape[0])
        for j in range(w.shape[0]):
            w_new[j] = w[j] + delta * (beta[j] - w[j])
        o_new = np.empty(n)
        for i in range(n):
            o_new[i] = o[i] + delta * (o_bar[i] - o[i])
        value = _objective(w_new, o_new, y, cost, lam)
        return beta, o_bar, n_cg, converged, m, False, delta, w_new, o_new, value

    return step


_step_dense = _specialized_step(False)
_step_csr = _specialized_step(True)


def _lam_vector(lam, dim):
    return np.full(dim, float(lam)) if np.ndim(lam) == 0 else np.asarray(lam, dtype=np.float64)


def mfn_step_is_serial(X: MatrixLike) -> bool:
    """Whether every product over a subset of the rows of ``X`` runs serially.

    :func:`mfn_step` is meant for those problems: with more stored entries than
    ``RowProducts``'s threshold (and more than one Numba thread) CGLS's products run in
    parallel, and one serial call would be slower.

    Parameters
    ----------
    X : ndarray or csr_matrix
        Validated data.

    Returns
    -------
    serial : bool
        True when all products over ``X``'s rows are below the parallel threshold (or
        Numba has one thread).
    """
    sparse = sp.issparse(X)
    work = X.nnz if sparse else X.shape[0] * X.shape[1]
    # read at call time: the products' thresholds, one value per format for both dispatches
    return work < _products.parallel_threshold(sparse) or effective_n_threads(None) == 1


def mfn_step(
    X: MatrixLike,
    y: np.ndarray,
    cost: np.ndarray,
    lam: float | np.ndarray,
    w: np.ndarray,
    outputs: np.ndarray,
    *,
    intercept: bool,
    epsilon: float,
    cg_max_iter: int,
    check: float,
) -> MFNStep:
    r"""One iteration of L2-SVM-MFN (Table 1) from ``w``: Newton point, check, line search.

    CGLS (Table 2, seeded at ``w``) on the active rows :math:`\{i : c_i > 0,
    y_i o_i < 1\}` gives :math:`\bar w`; if it converged and Table 1's optimality
    conditions hold at :math:`\bar w` with tolerance ``check``, ``optimal`` is True and
    no step is taken; otherwise the exact line search (Table 3) gives
    :math:`\delta` and the step :math:`w + \delta(\bar w - w)` with its objective.

    For callers iterating on validated data (no checks here): ``X`` a C-contiguous
    float32/float64 array or a canonical CSR matrix, float64 vectors of matching lengths
    (``w`` and ``lam`` with ``n_features + intercept`` entries), ``y`` in {-1, +1},
    ``cost >= 0``. Results equal ``cgls(check_input=False)``, ``line_search`` and
    ``0.5 w^T lam w + 0.5 sum c max(0, 1 - y o)^2`` computed by numpy, bit for bit.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features) or csr_matrix
        Data.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    cost : ndarray of shape (n_samples,)
        Costs :math:`c_i \ge 0`.
    lam : float or ndarray of shape (dim,)
        Regularization.
    w : ndarray of shape (dim,)
        Current point (with the bias last when ``intercept``); not modified.
    outputs : ndarray of shape (n_samples,)
        ``X w`` (bias included); not modified.
    intercept : bool
        Whether the virtual constant column is appended.
    epsilon : float
        CGLS tolerance.
    cg_max_iter : int
        CGLS iteration cap.
    check : float
        Tolerance of the optimality conditions.

    Returns
    -------
    step : MFNStep
        The Newton point, the step and their statistics.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.linalg import mfn_step
    >>> X = np.array([[1.0], [-1.0], [2.0]]); y = np.array([1.0, -1.0, 1.0])
    >>> s = mfn_step(X, y, np.ones(3), 1.0, np.zeros(1), np.zeros(3), intercept=False,
    ...              epsilon=1e-10, cg_max_iter=100, check=1e-8)
    >>> bool(s.cg_converged), s.n_active, round(s.delta, 6)
    (True, 3, 1.166667)
    """
    lam_vec = _lam_vector(lam, w.shape[0])
    if sp.issparse(X):
        data, indices, indptr = X.data, _unsigned(X.indices), _unsigned(X.indptr)
        dense = None
    else:
        data = indices = indptr = None
        dense = X
    res = (_step_csr if dense is None else _step_dense)(
        dense,
        data,
        indices,
        indptr,
        bool(intercept),
        y,
        cost,
        lam_vec,
        w,
        outputs,
        float(epsilon),
        int(cg_max_iter),
        float(check),
    )
    w_bar, o_bar, n_cg, converged, m, optimal, delta, w_new, o_new, value = res
    return MFNStep(
        w_bar, o_bar, int(n_cg), bool(converged), int(m), bool(optimal), delta, w_new, o_new, value
    )


def squared_hinge_value(
    w: np.ndarray, outputs: np.ndarray, y: np.ndarray, cost: np.ndarray, lam: float | np.ndarray
) -> float:
    r""":math:`\tfrac12 w^T\Lambda w + \tfrac12\sum_i c_i\max(0, 1 - y_i o_i)^2` in one call.

    The same value, bit for bit, as the numpy expression
    ``0.5 * np.sum(lam * w * w) + 0.5 * np.sum(cost * np.maximum(0, 1 - y * o) ** 2)``
    (numpy's pairwise sums), without its temporaries. Float64 vectors, not checked.

    Parameters
    ----------
    w : ndarray of shape (dim,)
        Weights.
    outputs : ndarray of shape (n_samples,)
        ``X w``.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    cost : ndarray of shape (n_samples,)
        Costs.
    lam : float or ndarray of shape (dim,)
        Regularization.

    Returns
    -------
    value : float
        The objective.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.linalg import squared_hinge_value
    >>> squared_hinge_value(np.array([1.0]), np.array([0.5]), np.array([1.0]), np.ones(1), 2.0)
    1.125
    """
    return float(_objective(w, outputs, y, cost, _lam_vector(lam, w.shape[0])))
