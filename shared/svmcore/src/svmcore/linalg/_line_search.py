"""Exact line search for the squared-hinge objective (SVMlin, Sindhwani & Keerthi 2006, Table 3)."""

from __future__ import annotations

import numpy as np

from ..typing import ArrayLike
from ..validation import check_float_array
from ._cgls import _check_lam

__all__ = ["line_search"]


def _vector(v, name, size=None):
    v = check_float_array(v, name, ndim=1, dtype=np.float64, allow_empty=True)
    if size is not None and v.shape[0] != size:
        raise ValueError(f"{name} must have {size} entries, got {v.shape[0]}.")
    return v


def line_search(
    w: ArrayLike,
    w_bar: ArrayLike,
    lam: float | ArrayLike,
    outputs: ArrayLike,
    outputs_bar: ArrayLike,
    y: ArrayLike,
    cost: ArrayLike,
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
    running sums are vectorized (prefix sums over the sorted breakpoints), which is
    the same arithmetic. Cost :math:`O(n + m\log m)` for :math:`m` breakpoints.

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

    step = w_bar - w
    diff = o_bar - o
    active = y * o < 1.0
    lc = cost * active
    # Sums of products, not ``@``: the BLAS's threaded dot is slow on a loaded machine.
    lam_step = lam * step
    left = float(np.sum(w * lam_step)) + float(np.sum(lc * (o - y) * diff))
    right = float(np.sum(w_bar * lam_step)) + float(np.sum(lc * (o_bar - y) * diff))

    slope_sign = y * diff
    leaving = active & (slope_sign > 0)
    entering = ~active & (slope_sign < 0)
    idx = np.flatnonzero(leaving | entering)
    if idx.size:
        deltas = (y[idx] - o[idx]) / diff[idx]
        order = np.argsort(deltas, kind="stable")
        idx, deltas = idx[order], deltas[order]
        sign = np.where(entering[idx], 1.0, -1.0) * cost[idx]
        d_left = np.concatenate(([0.0], np.cumsum(sign * (o[idx] - y[idx]) * diff[idx])))
        d_right = np.concatenate(([0.0], np.cumsum(sign * (o_bar[idx] - y[idx]) * diff[idx])))
        lefts = left + d_left[:-1]
        rights = right + d_right[:-1]
        stop = np.flatnonzero(lefts + deltas * (rights - lefts) >= 0.0)
        k = stop[0] if stop.size else idx.size
        left, right = left + d_left[k], right + d_right[k]

    curvature = right - left
    if curvature <= 0.0:
        # phi is bounded below by 0, so a flat final piece means phi is constant there.
        return 0.0
    return max(0.0, float(-left / curvature))
