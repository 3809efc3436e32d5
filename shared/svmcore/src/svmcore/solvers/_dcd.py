"""Weighted L1-hinge linear SVM by dual coordinate descent with an exact, unregularized bias.

liblinear's dual coordinate descent (Hsieh et al., ICML 2008, Algorithm 3 with
shrinking) solves the box-constrained dual of an SVM whose bias is a regularized
feature. Here the bias is kept unregularized (the AID paper's (7) and (9)) by a
proximal-point outer loop on ``b``: round ``r`` solves

.. math::

    \\min_{w, b} \\tfrac12 \\|w\\|^2 + \\tfrac{1}{2\\sigma}(b - b_r)^2
    + C \\sum_i s_i \\max(0, 1 - y_i (w^T x_i + b)),

whose dual is liblinear's with the constant feature ``sqrt(sigma)`` and the linear
term ``1 - y_i b_r``, and then moves the centre ``b_{r+1} = b`` (= ``b_r + sigma
sum_i alpha_i y_i``). The proximal-point method converges to a minimizer of the
original problem for any ``sigma > 0``; the box ``[0, C s_i]`` never changes, so each
round warm-starts from the last duals. Unlike scikit-learn's liblinear, a starting
point ``alpha0`` (and ``b0``) can be given: AID passes the previous aggregated
solution with each split cluster's dual divided among its children in proportion to
their weights, which is feasible and keeps ``w``.

The stopping rule is a certificate, not a solver tolerance: the primal objective at
``(w, b*(w))`` (exact bias, :func:`optimal_intercept`) against the dual objective of
the duals made exactly feasible for ``sum alpha_i y_i = 0`` (weak duality).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.utils.extmath import row_norms

from ..numba_config import jit, jit_scalar
from ..typing import ArrayLike, MatrixLike, RandomStateLike
from ..validation import check_float_array, check_generator, check_real
from ._hinge import _check_labels, optimal_intercept

__all__ = ["DCDResult", "dcd_weighted_svm"]

_EPS_DECAY = 0.3
_MIN_EPS = 1e-10


@jit
def _projected_gradient(G, a, upper_i, pg_max_old, pg_min_old):
    """liblinear's shrinking test and projected gradient of one dual: ``(shrink, pg)``.

    A dual at a bound whose gradient points outwards beyond last epoch's extreme
    projected gradients is shrunk (removed from the active set for this pass).
    """
    if a == 0.0:
        if G > pg_max_old:
            return True, 0.0
        return False, min(G, 0.0)
    if a == upper_i:
        if G < pg_min_old:
            return True, 0.0
        return False, max(G, 0.0)
    return False, G


@jit
def _carry_shrinking(shrinking, active, pg_max, pg_min):
    """Store the shrinking state a round ends with, for the next proximal round.

    The next round (the same duals, the bias centre moved) starts from this round's
    active set and last pass's projected-gradient extremes instead of every row with no
    bound, whose first two epochs were full passes over rows that stay at their bounds
    (a 15,000 x 10,000 text fit's second round: 50,600 row visits, 38,200 now; issue
    16). A heuristic only: a round still ends only after a pass over every row meets
    ``eps``.
    """
    shrinking[0] = active
    shrinking[1] = pg_max if pg_max > 0.0 else np.inf
    shrinking[2] = pg_min if pg_min < 0.0 else -np.inf


# twin of _dcd_csr: dense/CSR layouts kept apart for Numba speed
@jit
def _dcd_dense(X, y, upper, qd, alpha, w, state, eps, max_epochs, seed, index, shrinking):
    """Epochs of shrinking dual CD until the projected-gradient spread is <= eps.

    ``state = [b_centre, beta, sigma]`` with ``beta = sum alpha_i y_i``; the current
    bias is ``b_centre + sigma * beta``. ``index`` (a permutation of the rows, the
    first ``shrinking[0]`` active) and ``shrinking = [active, pg_max_old, pg_min_old]``
    are the shrinking state, read at the start and written back at the end (see
    :func:`_carry_shrinking`). Returns the epochs used.
    """
    n, m = X.shape
    np.random.seed(seed)  # noqa: NPY002 (numba's generator inside jit)
    active = int(shrinking[0])
    pg_max_old, pg_min_old = shrinking[1], shrinking[2]
    pg_max, pg_min = np.inf, -np.inf
    b_c, beta, sigma = state[0], state[1], state[2]
    epoch = 0
    while epoch < max_epochs:
        epoch += 1
        for i in range(active):
            j = i + np.random.randint(active - i)  # noqa: NPY002
            index[i], index[j] = index[j], index[i]
        pg_max, pg_min = -np.inf, np.inf
        s = 0
        while s < active:
            i = index[s]
            f = b_c + sigma * beta
            for k in range(m):
                f += w[k] * X[i, k]
            G = y[i] * f - 1.0
            a = alpha[i]
            shrink, pg = _projected_gradient(G, a, upper[i], pg_max_old, pg_min_old)
            if shrink:
                active -= 1
                index[s], index[active] = index[active], index[s]
                continue
            pg_max = max(pg_max, pg)
            pg_min = min(pg_min, pg)
            if abs(pg) > 1e-12:
                a_new = min(max(a - G / qd[i], 0.0), upper[i])
                d = (a_new - a) * y[i]
                alpha[i] = a_new
                for k in range(m):
                    w[k] += d * X[i, k]
                beta += d
            s += 1
        if pg_max - pg_min <= eps:
            if active == n:
                break
            active = n
            pg_max_old, pg_min_old = np.inf, -np.inf
            continue
        pg_max_old = pg_max if pg_max > 0.0 else np.inf
        pg_min_old = pg_min if pg_min < 0.0 else -np.inf
    state[1] = beta
    _carry_shrinking(shrinking, active, pg_max, pg_min)
    return epoch


# twin of _dcd_dense: dense/CSR layouts kept apart for Numba speed. jit_scalar: with
# reassoc, LLVM turned the row's indexed dot product into gather instructions, 1.2x the
# kernel's CPU time on 15,000 x 10,000 text (issue 16; as svmcore.linalg's CSR products).
@jit_scalar
def _dcd_csr(
    data, indices, indptr, xmu, mm, y, upper, qd, alpha, v, state, eps, max_epochs, seed, index,
    shrinking,
):  # fmt: skip
    """:func:`_dcd_dense` for CSR rows, centred implicitly by ``mu``.

    ``w = v - beta mu`` with ``v = sum alpha_i y_i x_i`` (sparse updates);
    ``xmu[i] = x_i . mu``, ``mm = mu . mu``, ``state[3] = v . mu``.
    """
    n = indptr.size - 1
    np.random.seed(seed)  # noqa: NPY002 (numba's generator inside jit)
    active = int(shrinking[0])
    pg_max_old, pg_min_old = shrinking[1], shrinking[2]
    pg_max, pg_min = np.inf, -np.inf
    b_c, beta, sigma, vmu = state[0], state[1], state[2], state[3]
    epoch = 0
    while epoch < max_epochs:
        epoch += 1
        for i in range(active):
            j = i + np.random.randint(active - i)  # noqa: NPY002
            index[i], index[j] = index[j], index[i]
        pg_max, pg_min = -np.inf, np.inf
        s = 0
        while s < active:
            i = index[s]
            f = b_c + sigma * beta - beta * xmu[i] - vmu + beta * mm
            for p in range(indptr[i], indptr[i + 1]):
                f += v[indices[p]] * data[p]
            G = y[i] * f - 1.0
            a = alpha[i]
            shrink, pg = _projected_gradient(G, a, upper[i], pg_max_old, pg_min_old)
            if shrink:
                active -= 1
                index[s], index[active] = index[active], index[s]
                continue
            pg_max = max(pg_max, pg)
            pg_min = min(pg_min, pg)
            if abs(pg) > 1e-12:
                a_new = min(max(a - G / qd[i], 0.0), upper[i])
                d = (a_new - a) * y[i]
                alpha[i] = a_new
                for p in range(indptr[i], indptr[i + 1]):
                    v[indices[p]] += d * data[p]
                vmu += d * xmu[i]
                beta += d
            s += 1
        if pg_max - pg_min <= eps:
            if active == n:
                break
            active = n
            pg_max_old, pg_min_old = np.inf, -np.inf
            continue
        pg_max_old = pg_max if pg_max > 0.0 else np.inf
        pg_min_old = pg_min if pg_min < 0.0 else -np.inf
    state[1] = beta
    state[3] = vmu
    _carry_shrinking(shrinking, active, pg_max, pg_min)
    return epoch


class DCDResult:
    """Solution of :func:`dcd_weighted_svm`.

    The parameters are kept as attributes of the same names (``rounds`` as
    ``n_rounds``); the solver sets ``feasible_dual_coef`` and ``converged``.

    Parameters
    ----------
    coef : ndarray of shape (n_features,)
        ``w = sum_i alpha_i y_i x_i``.
    intercept : float
        Exact minimizer of the primal over ``b`` for ``coef``.
    dual_coef : ndarray of shape (n_samples,)
        ``alpha_i`` in ``[0, C s_i]`` (the solver's duals, ``sum alpha_i y_i`` near 0).
    objective : float
        Primal objective at ``(coef, intercept)`` (an upper bound on the optimum).
    dual_objective : float
        Largest dual objective, over the iterates (and ``alpha0``), of the duals
        scaled so that ``sum alpha_i y_i = 0`` exactly: a certified lower bound on
        the optimum.
    n_epochs : int
        Coordinate-descent epochs over all proximal rounds.
    rounds : int
        Proximal rounds on the bias.

    Attributes
    ----------
    feasible_dual_coef : ndarray of shape (n_samples,)
        The exactly feasible duals whose objective is ``dual_objective``
        (a warm start that keeps the bound).
    n_rounds : int
        Proximal rounds on the bias (the ``rounds`` parameter).
    converged : bool
        ``(objective - dual_objective) / |objective| <= gap_tol`` was reached.
    """

    def __init__(
        self,
        coef: np.ndarray,
        intercept: float,
        dual_coef: np.ndarray,
        objective: float,
        dual_objective: float,
        n_epochs: int,
        rounds: int,
    ) -> None:
        self.coef = coef
        self.intercept = intercept
        self.dual_coef = dual_coef
        self.objective = objective
        self.dual_objective = dual_objective
        self.n_epochs = n_epochs
        self.n_rounds = rounds
        self.converged = False

    @property
    def gap(self) -> float:
        """Relative certified gap ``(objective - dual_objective) / |objective|``."""
        return (self.objective - self.dual_objective) / max(abs(self.objective), 1e-300)


def _check_weights(sample_weight, y):
    """Validated weights (unit if None), with both labels among the positive ones."""
    n = y.shape[0]
    sw = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if sw.shape != (n,) or not np.isfinite(sw).all() or (sw < 0).any():
        raise ValueError(f"sample_weight must be {n} finite non-negative numbers.")
    held = y[sw > 0]  # y is already checked to be in {-1, +1}
    if not ((held > 0).any() and (held < 0).any()):
        raise ValueError("y must contain both -1 and +1 among the samples with positive weight.")
    return sw


def _feasible_dual(alpha, y, X):
    """Scale the heavier class so ``sum a_i y_i = 0``; return ``(a, dual objective)``."""
    a = alpha.copy()
    pos, neg = a[y > 0].sum(), a[y < 0].sum()
    if pos > neg:
        a[y > 0] *= neg / pos
    elif neg > pos:
        a[y < 0] *= pos / neg
    u = np.asarray(X.T @ (a * y), dtype=np.float64).ravel()
    return a, float(a.sum() - 0.5 * (u @ u))


def _certify(scores, w, y, sw, C, a, b_now, Xc):
    """One certificate: the exact primal at ``(w, b*(w))`` from the scores ``X_c w``, the
    exact bias ``b*(w)``, the duals ``a`` made feasible and their dual objective."""
    b = optimal_intercept(scores, y, sw, b0=b_now, check_input=False)
    primal = 0.5 * float(w @ w) + C * float(sw @ np.maximum(0.0, 1.0 - y * (scores + b)))
    feasible, dual = _feasible_dual(a, y, Xc)
    return primal, b, feasible, dual


def _result(best, shift, dual_coef, dual, feasible, n_epochs, n_rounds):
    """The result from the best ``(primal, w, b_centred)`` seen and the best dual bound."""
    primal, w, b = best
    res = DCDResult(w, b - float(w @ shift), dual_coef, primal, dual, n_epochs, n_rounds)
    res.feasible_dual_coef = feasible
    return res


def dcd_weighted_svm(
    X: MatrixLike,
    y: ArrayLike,
    sample_weight: ArrayLike | None = None,
    *,
    C: float = 1.0,
    gap_tol: float = 1e-6,
    alpha0: ArrayLike | None = None,
    b0: float = 0.0,
    eps: float = 0.1,
    sigma: float | str = "auto",
    max_epochs: int = 100_000,
    random_state: RandomStateLike = 0,
) -> DCDResult:
    """Weighted linear L1-hinge SVM with unregularized bias, to a certified relative gap.

    Solves the AID paper's (7) (its (9) when the weights are cluster sizes) by
    liblinear's dual coordinate descent with shrinking inside a proximal-point loop on
    the bias (see the module docstring), warm-startable from ``alpha0``/``b0``.

    Parameters
    ----------
    X : {ndarray, CSR matrix} of shape (n_samples, n_features)
        Data. It is centred by its weighted mean internally (exact for an
        unregularized bias): dense input in a copy, CSR implicitly.
    y : array-like of shape (n_samples,)
        Labels in ``{-1, +1}``, both present among positive-weight samples.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights ``s_i`` (box ``0 <= alpha_i <= C s_i``).
    C : float, default=1.0
        Penalty, > 0.
    gap_tol : float, default=1e-6
        Stop when ``(primal - certified dual) / |primal| <= gap_tol``.
    alpha0 : array-like of shape (n_samples,), default=None
        Starting duals (clipped into the box); zeros if None.
    b0 : float, default=0.0
        Starting bias (the first proximal centre), in the coordinates of ``X``.
    eps : float, default=0.1
        Initial projected-gradient tolerance of each round (liblinear's
        ``tol``); divided by 10 whenever a round ends with the gap above
        ``gap_tol`` and ``sum alpha_i y_i`` already balanced.
    sigma : "auto" or float, default="auto"
        Proximal step on the bias (the squared constant feature); "auto" is the
        mean squared row norm of the (centred) data over the number of features
        (CSR: over the mean number of stored entries per row), a constant feature of
        the size of an average (stored) coordinate, at least 1e-12.
    max_epochs : int, default=100_000
        Total epoch budget over all rounds.
    random_state : int, default=0
        Seed of the coordinate order.

    Returns
    -------
    result : DCDResult
        Primal ``(coef, intercept)``, duals, the certified bound and the epochs used.

    Notes
    -----
    Time O(nnz) per epoch plus O(nnz + n log n) per proximal round for the
    certificate; memory O(n + m) beyond a centred copy of dense ``X``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1, -1, 1, 1])
    >>> res = dcd_weighted_svm(X, y, C=10.0, gap_tol=1e-9)
    >>> round(float(res.coef[0]), 4), round(res.intercept, 4), round(res.objective, 4)
    (1.0, -2.0, 0.5)
    """
    X = check_float_array(X, "X", accept_sparse=True)
    n, m = X.shape
    y = _check_labels(y, n)
    C = check_real(C, "C", low=0.0, low_closed=False)
    gap_tol = check_real(gap_tol, "gap_tol", low=0.0)
    eps = check_real(eps, "eps", low=0.0, low_closed=False)
    b0 = check_real(b0, "b0")
    sw = _check_weights(sample_weight, y)
    keep = sw > 0
    upper = C * sw
    sparse = sp.issparse(X)
    Xc: Any  # CSR, or the centred dense rows
    if sparse:
        # Centred implicitly (w = v - beta mu in the kernel) to stay sparse.
        Xc = sp.csr_matrix(X, dtype=np.float64)
        Xc.sort_indices()
        shift = np.asarray(Xc.T @ sw, dtype=np.float64).ravel() / sw.sum()
        xmu = np.asarray(Xc @ shift, dtype=np.float64).ravel()
        mm = float(shift @ shift)
        # scikit-learn's row_norms sums the squares row by row without a copy of X;
        # power(2).sum(axis=1) squared the stored values in a copy (1.1 vs 0.45 ms at
        # 15k x 10k text) and multiply(Xc) ran scipy's general elementwise product (8 ms).
        qd = row_norms(Xc, squared=True) - 2 * xmu + mm
        qd = np.maximum(qd, 0.0)
    else:
        shift = (sw @ X) / sw.sum()
        Xc = np.ascontiguousarray(X - shift, dtype=np.float64)
        qd = np.einsum("ij,ij->i", Xc, Xc)
    if sigma == "auto":
        # The constant feature sized like an average stored coordinate (liblinear appends
        # 1 to features that are usually scaled to about 1): over the stored entries per
        # row, not m, for CSR (L2-normalized text: 1 / m made the bias crawl, 12
        # proximal rounds and 162 epochs at 15k x 10k where 1 / nnz-per-row needs 4/21).
        per_row = X.nnz / max(n, 1) if sparse else m
        sigma = max(float(np.mean(qd[keep])) / max(per_row, 1), 1e-12)
    else:
        sigma = check_real(sigma, "sigma", low=0.0, low_closed=False)
    qd = qd + sigma
    if alpha0 is None:
        alpha = np.zeros(n)
    else:
        alpha = np.asarray(alpha0, dtype=np.float64)
        if alpha.shape != (n,):
            raise ValueError(f"alpha0 must have shape ({n},), got {alpha.shape}.")
        alpha = np.clip(alpha, 0.0, upper)
    alpha = np.ascontiguousarray(alpha)
    if alpha.any():  # v for CSR; a cold start skips the pass over X
        w = np.asarray(Xc.T @ (alpha * y), dtype=np.float64).ravel()
    else:
        w = np.zeros(m)
    beta0 = float(alpha @ y)
    w_true = w - beta0 * shift if sparse else w
    # Bias in centred coordinates: f = w (x - shift) + b_c, so b_c = b0 + w shift.
    state = np.array([b0 + float(w_true @ shift), beta0, sigma, float(w @ shift)])
    rng = check_generator(random_state)
    index = np.arange(n)  # the rows' order and shrinking state, carried across rounds
    shrinking = np.array([n, np.inf, -np.inf])
    epochs = rounds = 0
    best = None
    # Every iterate is dual feasible after scaling, so the best bound seen is kept
    # (including the starting point's: a warm start never loses its bound).
    feasible, dual = _feasible_dual(alpha, y, Xc) if alpha.any() else (alpha.copy(), 0.0)
    while True:
        rounds += 1
        seed = int(rng.integers(2**31 - 1))
        budget = max_epochs - epochs
        if sparse:
            used = _dcd_csr(
                Xc.data, Xc.indices, Xc.indptr, xmu, mm, y, upper, qd, alpha, w, state, eps,
                budget, seed, index, shrinking,
            )  # fmt: skip
            w_true = w - state[1] * shift
            scores = np.asarray(Xc @ w_true, dtype=np.float64).ravel() - float(w_true @ shift)
        else:
            used = _dcd_dense(
                Xc, y, upper, qd, alpha, w, state, eps, budget, seed, index, shrinking
            )
            w_true = w
            scores = np.asarray(Xc @ w, dtype=np.float64).ravel()
        epochs += int(used)
        b_now = state[0] + sigma * state[1]
        primal, b, a_feas, d = _certify(scores, w_true, y, sw, C, alpha, b_now, Xc)
        if d > dual:
            feasible, dual = a_feas, d
        if best is None or primal < best[0]:
            best = (primal, w_true.copy(), b)
        res = _result(best, shift, alpha.copy(), dual, feasible, epochs, rounds)
        if res.gap <= gap_tol:
            res.converged = True
            return res
        if epochs >= max_epochs:
            return res
        # Inexact proximal point: each round's tolerance shrinks so the errors vanish.
        eps = max(eps * _EPS_DECAY, _MIN_EPS)
        # Proximal step: the new centre is the current bias.
        state[0] = b_now
