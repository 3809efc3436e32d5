"""Exact line search for the squared-hinge objective (SVMlin, Sindhwani & Keerthi 2006, Table 3)."""

from __future__ import annotations

import math

import numpy as np

from ..numba_config import jit_strict
from ..typing import ArrayLike
from ..validation import check_float_array
from ._cgls import _check_lam
from ._products import numpy_sum

__all__ = ["line_search"]


def _vector(v, name, size=None):
    v = check_float_array(v, name, ndim=1, dtype=np.float64, allow_empty=True)
    if size is not None and v.shape[0] != size:
        raise ValueError(f"{name} must have {size} entries, got {v.shape[0]}.")
    return v


@jit_strict
def _before(deltas, a, b):
    """Whether breakpoint ``a`` comes before ``b`` in ``np.argsort(deltas, kind="stable")``
    order: by value, ties by position, NaN last."""
    da, db = deltas[a], deltas[b]
    if da < db:
        return True
    if da > db:
        return False
    if da == db:
        return a < b
    a_nan, b_nan = math.isnan(da), math.isnan(db)
    if a_nan and b_nan:
        return a < b
    return b_nan


@jit_strict
def _sift_down(heap, size, deltas, pos):
    while True:
        child = 2 * pos + 1
        if child >= size:
            return
        if child + 1 < size and _before(deltas, heap[child + 1], heap[child]):
            child += 1
        if not _before(deltas, heap[child], heap[pos]):
            return
        heap[pos], heap[child] = heap[child], heap[pos]
        pos = child


# _scan_breakpoints and _ray_pieces are inlined into the kernels that call them (mfn_step's),
# for the compile time, as the serial CGLS loops are (see _cgls.py).
@jit_strict(inline="always")
def _scan_breakpoints(deltas, t_left, t_right, left, right):
    r"""Table 3's walk over the breakpoints in non-decreasing order: ``(L, R)`` of the piece
    where :math:`\phi'` changes sign.

    ``t_left[j]`` and ``t_right[j]`` are what breakpoint ``j`` adds to ``L`` and ``R``.
    The breakpoints are taken from a heap, so a walk that stops after ``k`` of ``m``
    costs :math:`O(m + k\log m)` instead of a full sort; the order (ties by position)
    and the running sums (sequential, as ``np.cumsum``) are those of the sorted version.
    """
    m = deltas.shape[0]
    heap = np.empty(m, dtype=np.int64)  # not np.arange: one overload fewer to compile
    for j in range(m):
        heap[j] = j
    for pos in range(m // 2 - 1, -1, -1):
        _sift_down(heap, m, deltas, pos)
    d_left = 0.0
    d_right = 0.0
    size = m
    for k in range(m):
        j = heap[0]
        lk = left + d_left
        rk = right + d_right
        if lk + deltas[j] * (rk - lk) >= 0.0:
            return lk, rk
        if k == 0:
            d_left, d_right = t_left[j], t_right[j]
        else:
            d_left = d_left + t_left[j]
            d_right = d_right + t_right[j]
        size -= 1
        heap[0] = heap[size]
        _sift_down(heap, size, deltas, np.intp(0))  # not 0: see numba_config
    return left + d_left, right + d_right


@jit_strict(inline="always")
def _ray_pieces(w, w_bar, lam, o, o_bar, y, cost):
    """Table 3's start on the ray from ``w`` to ``w_bar``: ``(L, R)`` of the first piece
    and the breakpoints ``(deltas, t_left, t_right)`` in row order.

    One pass over the rows with the arithmetic numpy's vector version did, element by
    element in the same order (``lc (o - y) d``, ``sign (o - y) d``), and its sums by
    :func:`numpy_sum`, so the values are the same to the bit.
    """
    dim = w.shape[0]
    n = o.shape[0]
    lam_w = np.empty(dim)
    lam_w_bar = np.empty(dim)
    for j in range(dim):
        lam_step = lam[j] * (w_bar[j] - w[j])
        lam_w[j] = w[j] * lam_step
        lam_w_bar[j] = w_bar[j] * lam_step
    loss_left = np.empty(n)
    loss_right = np.empty(n)
    kind = np.empty(n, dtype=np.int8)  # 1 entering, -1 leaving, 0 no breakpoint
    m = 0
    for i in range(n):
        diff = o_bar[i] - o[i]
        active = y[i] * o[i] < 1.0
        lc = cost[i] * (1.0 if active else 0.0)
        loss_left[i] = lc * (o[i] - y[i]) * diff
        loss_right[i] = lc * (o_bar[i] - y[i]) * diff
        slope_sign = y[i] * diff
        kind[i] = 0
        if active and slope_sign > 0:
            kind[i] = -1
            m += 1
        elif not active and slope_sign < 0:
            kind[i] = 1
            m += 1
    left = numpy_sum(lam_w) + numpy_sum(loss_left)
    right = numpy_sum(lam_w_bar) + numpy_sum(loss_right)
    deltas = np.empty(m)
    t_left = np.empty(m)
    t_right = np.empty(m)
    k = 0
    for i in range(n):
        if kind[i] != 0:
            diff = o_bar[i] - o[i]
            deltas[k] = (y[i] - o[i]) / diff
            sign = (1.0 if kind[i] > 0 else -1.0) * cost[i]
            t_left[k] = sign * (o[i] - y[i]) * diff
            t_right[k] = sign * (o_bar[i] - y[i]) * diff
            k += 1
    return left, right, deltas, t_left, t_right


def line_search(
    w: ArrayLike,
    w_bar: ArrayLike,
    lam: float | ArrayLike,
    outputs: ArrayLike,
    outputs_bar: ArrayLike,
    y: ArrayLike,
    cost: ArrayLike,
    *,
    check_input: bool = True,
) -> float:
    r"""Exact minimizer over :math:`\delta \ge 0` of :math:`f(w + \delta(\bar w - w))` (Table 3).

    For :math:`f(w) = \tfrac12 w^T\Lambda w + \tfrac12\sum_i c_i \max(0, 1 - y_i o_i)^2`
    with :math:`o = Xw`, the restriction :math:`\phi(\delta)` to the ray from
    :math:`w` through :math:`\bar w` is a convex piecewise quadratic whose derivative
    :math:`\phi'` is piecewise linear; its root is found by sorting the breakpoints
    where a row enters or leaves the active set :math:`\{i : y_i o_i < 1\}`.

    Parameters
    ----------
    w, w_bar : array-like of shape (dim,)
        Current point and the point the ray passes through (SVMlin: the CGLS solution).
    lam : float or array-like of shape (dim,)
        Regularization :math:`\lambda \ge 0`, scalar or per coordinate.
    outputs, outputs_bar : array-like of shape (n_samples,)
        :math:`o = Xw` and :math:`\bar o = X\bar w`.
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    cost : array-like of shape (n_samples,)
        Non-negative per-sample costs :math:`c_i`.
    check_input : bool, default=True
        Validate the arguments. ``False`` is for solvers calling it in a loop on
        validated data: float64 vectors of matching lengths, ``y`` in {-1, +1},
        ``cost >= 0``, ``lam`` a float or a float64 vector.

    Returns
    -------
    delta : float
        The minimizing step :math:`\delta^\star \ge 0`.

    Notes
    -----
    Table 3 keeps :math:`L = \phi'_k(0)` and :math:`R = \phi'_k(1)` of the current
    linear piece, starting from

    .. math::

        L = w^T\Lambda(\bar w - w) + \sum_{i\in j} c_i(o_i - y_i)(\bar o_i - o_i),\qquad
        R = \bar w^T\Lambda(\bar w - w) + \sum_{i\in j} c_i(\bar o_i - y_i)(\bar o_i - o_i),

    visits the breakpoints :math:`\delta_i = (y_i - o_i)/(\bar o_i - o_i)` of rows
    leaving (:math:`\Delta_1`) or entering (:math:`\Delta_2`) the active set in
    non-decreasing order, stops at the first one where
    :math:`L + \delta_i(R - L) \ge 0`, and returns :math:`-L/(R - L)`. Here the
    breakpoints come off a heap (ties in index order), so the walk sorts only the
    :math:`k` breakpoints it visits: cost :math:`O(n + m + k\log m)` for :math:`m`
    breakpoints, the same arithmetic as a full sort and running sums (both in Numba,
    one pass over the rows, three temporaries of length :math:`n`).

    Guards the table lacks: the result is clipped at 0 (the problem is over
    :math:`\delta \ge 0`; a negative value only arises when :math:`\bar w - w` is not a
    descent direction), and a direction along which :math:`\phi` is constant
    (:math:`\bar w = w`, or zeros in ``lam`` and no output change) gives 0.

    References
    ----------
    V. Sindhwani and S. S. Keerthi, "Large scale semi-supervised linear SVMs",
    SIGIR 2006, section 2.2 and Table 3.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.linalg import line_search
    >>> X = np.array([[1.0], [-1.0], [3.0]])
    >>> y = np.array([1.0, -1.0, -1.0])
    >>> w, w_bar = np.array([0.0]), np.array([1.0])
    >>> line_search(w, w_bar, 0.1, X @ w, X @ w_bar, y, np.ones(3))
    0.1...
    """
    if check_input:
        w = _vector(w, "w")
        dim = w.shape[0]
        w_bar = _vector(w_bar, "w_bar", dim)
        lam = _check_lam(lam, dim)
        o = _vector(outputs, "outputs")
        n = o.shape[0]
        o_bar = _vector(outputs_bar, "outputs_bar", n)
        y = _vector(y, "y", n)
        if not np.isin(y, (-1.0, 1.0)).all():
            raise ValueError("y must hold only -1 and +1.")
        cost = _vector(cost, "cost", n)
        if (cost < 0).any():
            raise ValueError("cost must be >= 0 in every entry.")
    else:  # the caller's arrays as they are (np.asarray: no copy)
        w, w_bar, y, cost = np.asarray(w), np.asarray(w_bar), np.asarray(y), np.asarray(cost)
        o, o_bar = np.asarray(outputs), np.asarray(outputs_bar)

    lam_vec = np.full(w.shape[0], lam) if np.ndim(lam) == 0 else lam
    left, right, deltas, t_left, t_right = _ray_pieces(w, w_bar, lam_vec, o, o_bar, y, cost)
    if deltas.size:
        left, right = _scan_breakpoints(deltas, t_left, t_right, left, right)

    curvature = right - left
    if curvature <= 0.0:
        # phi is bounded below by 0, so a flat final piece means phi is constant there.
        return 0.0
    return max(0.0, float(-left / curvature))
