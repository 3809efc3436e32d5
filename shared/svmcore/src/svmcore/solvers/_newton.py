"""Weighted L1-hinge linear SVM in the primal by Newton's method on a smoothed hinge.

For few features (``m`` up to a few dozen) the primal of the AID paper's (7)/(9) has
only ``m + 1`` unknowns ``(w, b)`` however many (weighted) rows there are. The hinge
``h(z) = max(0, z)``, ``z_i = 1 - y_i (w^T x_i + b)``, is replaced by its Huber
smoothing of width ``mu``

.. math::

    h_\\mu(z) = 0 \\; (z \\le 0), \\quad z^2 / (2\\mu) \\; (0 < z < \\mu), \\quad
    z - \\mu / 2 \\; (z \\ge \\mu),

a C^1 piecewise quadratic, minimized by Newton steps with an exact line search
(an ``(m + 1) x (m + 1)`` system per step, ``O(n m^2)``), and ``mu`` is shrunk until the
certificate holds, by at most a factor 0.03 per stage (each stage starts from the last
one's minimizer). The smoothed minimizer's duals ``alpha_i = C s_i h_mu'(z_i)`` lie in
the box ``[0, C s_i]`` and satisfy ``sum alpha_i y_i = 0`` at the exact minimizer, so
(made exactly feasible) they give a dual objective that is a certified lower bound, and
the smoothing costs at most ``mu / 2 C sum_{z_i > 0} s_i`` of gap. The stopping rule
is the same certificate as :func:`svmcore.solvers._dcd.dcd_weighted_svm`'s: exact
primal at ``(w, b*(w))`` against that dual bound.

Dual coordinate descent needs thousands of epochs on AID's aggregated problems (few
heavily weighted centroids: a huge effective ``C``); Newton's method does not care
about the weights' scale.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ..numba_config import jit
from ..typing import ArrayLike, MatrixLike
from ..validation import check_float_array, check_real, hard_margin_scale
from ._dcd import DCDResult, _check_weights, _feasible_dual, _result
from ._hinge import _check_labels, optimal_intercept
from ._newton_direction import newton_direction

__all__ = ["newton_weighted_svm"]

# Each mu stage stops when the gradient's share of the certificate is below this fraction
# of the gap target (times the objective), or after _MAX_STEPS steps.
_DECREMENT_FRACTION = 1e-2
_MAX_STEPS = 50
# mu shrinks by at least _MU_DECAY per stage, and to what the smoothing bound needs, but
# by at most _MU_MAX_CUT: the next stage starts from this stage's minimizer, within
# about mu of the next one, and a band far narrower than that distance turns the
# smoothed problem into the hinge's kinks, across which Newton's steps zigzag (issue 19:
# from mu = 2 straight to the ~1e-9 a gap target of 1e-9 asks for, 10 of 243 S3VM
# problems stalled at certified gaps of 2e-4..0.4 after 157-254 steps). A cut of 1e-3
# was still too deep at gap 1e-4 (issue 16: the band kept a handful of rows, which Newton
# grew one per step in 50-step stages ending at the cap: twonorm 5550 x 20 145 steps,
# digits 1347 x 64 455, spambase 3447 x 57 358, uncertified at C = 10); 0.03 certifies
# them in 45, 91 and 122 steps (figures in the aid-lad-svm-s3vm README).
_MU_DECAY = 0.1
_MU_MAX_CUT = 0.03
_MIN_MU = 1e-12
# A candidate's rows within this many units of round-off of the margin are moved just
# outside it (see _widen_margin).
_ROUNDOFF_ROWS = 2.0**10
_ROUNDOFF_PUSH = 2.0**6
# Exact line search: at most this many safeguarded Newton steps on phi'(t), stopping at
# |phi'(t)| <= this fraction of |phi'(0)|.
_LINE_STEPS = 60
_LINE_RTOL = 1e-10
# The KKT polish (an exact dual from the band's partition) solves a system of the band's
# size: skipped above this many rows, and above _POLISH_BAND_PER_FEATURE (m + 1) rows (in
# general position at most m + 1 rows lie on the optimum's margin, so a wider band is
# not its partition, and the O(k^3) least squares was most of a stage at larger mu).
_POLISH_MAX_BAND = 500
_POLISH_BAND_PER_FEATURE = 1


@jit
def _smoothed_objective(w, f, y, cs, mu):
    """Smoothed primal objective at scores ``f``; ``cs = C s``."""
    P = 0.0
    for k in range(w.size):
        P += 0.5 * w[k] * w[k]
    for i in range(f.size):
        z = 1.0 - y[i] * f[i]
        if z >= mu:
            P += cs[i] * (z - 0.5 * mu)
        elif z > 0.0:
            P += cs[i] * 0.5 * z * z / mu
    return P


@jit
def _line_search(a0, a1, z, q, cs, mu, slope0):
    """Exact minimizer over ``t >= 0`` of the smoothed objective along a direction.

    ``phi(t) = 0.5 ||w + t dw||^2 + sum cs h_mu(z - t q)`` (``a0 = dw.w``, ``a1 =
    dw.dw``) is convex and piecewise quadratic: safeguarded Newton on ``phi'``
    (bracketed, bisection when a step leaves the bracket), from ``t = 1``.
    """
    lo, hi, t = 0.0, np.inf, 1.0
    for _ in range(_LINE_STEPS):
        der = a0 + t * a1
        curv = a1
        for i in range(z.size):
            u = z[i] - t * q[i]
            if u >= mu:
                der -= cs[i] * q[i]
            elif u > 0.0:
                der -= cs[i] * q[i] * u / mu
                curv += cs[i] * q[i] * q[i] / mu
        if abs(der) <= _LINE_RTOL * abs(slope0):
            return t
        if der > 0.0:
            hi = t
        else:
            lo = t
        t_new = t - der / curv if curv > 0.0 else np.inf
        if not lo < t_new < hi:
            t_new = 2.0 * t if hi == np.inf else 0.5 * (lo + hi)
        t = t_new
    return lo if hi == np.inf else 0.5 * (lo + hi)


@jit
def _gradient_hessian(Z, y, cs, mu, theta, f, z, g, H, ridge):
    """The smoothed problem's gradient ``g`` and Hessian ``H`` at ``theta`` (scores
    ``f``; margins ``z`` filled in), in place; returns the gradient's share of the
    certificate, ``0.5 ||g_w||^2 + |g_b|``."""
    n, p = Z.shape
    m = p - 1
    for k in range(m):
        g[k] = theta[k]
    g[m] = 0.0
    H[:, :] = 0.0
    for i in range(n):
        z[i] = 1.0 - y[i] * f[i]
        if z[i] <= 0.0:
            continue
        c = cs[i] * y[i] * min(z[i] / mu, 1.0)
        for k in range(p):
            g[k] -= c * Z[i, k]
        if z[i] < mu:
            h = cs[i] / mu
            for k in range(p):
                hk = h * Z[i, k]
                for j in range(k + 1):
                    H[k, j] += hk * Z[i, j]
    for k in range(p):
        for j in range(k):
            H[j, k] = H[k, j]
    for k in range(m):
        H[k, k] += 1.0
    # The bias has no curvature when no row is in the band: a small one keeps the step
    # finite (the exact line search keeps it a descent step).
    H[m, m] += ridge / mu
    err = abs(g[m])
    for k in range(m):
        err += 0.5 * g[k] * g[k]
    return err


@jit
def _step(Z, y, cs, mu, theta, f, z, d, slope0):
    """Move ``theta`` (and its scores ``f``) along ``d`` by the exact line search."""
    n, p = Z.shape
    m = p - 1
    fd = np.empty(n)
    q = np.empty(n)
    for i in range(n):
        acc = 0.0
        for k in range(p):
            acc += Z[i, k] * d[k]
        fd[i] = acc
        q[i] = y[i] * acc
    a0 = 0.0
    a1 = 0.0
    for k in range(m):
        a0 += d[k] * theta[k]
        a1 += d[k] * d[k]
    t = _line_search(a0, a1, z, q, cs, mu, slope0)
    for k in range(p):
        theta[k] += t * d[k]
    for i in range(n):
        f[i] += t * fd[i]


def _newton_stage(Z, y, cs, mu, theta, target, max_steps, ridge, free_bias=True):
    """Newton steps with exact line search on the width-``mu`` problem; steps used.

    ``Z = [X_c, 1]``, ``theta = [w, b]`` (updated in place). Stops when the gradient's
    share of the certificate, ``0.5 ||g_w||^2 + |g_b|``, is <= ``target``. With
    ``free_bias=False`` the bias stays at ``theta[-1]``: the steps are in ``w`` only.
    """
    n, p = Z.shape
    f = Z @ theta
    z = np.empty(n)
    g = np.empty(p)
    H = np.empty((p, p))
    steps = 0
    while steps < max_steps:
        err = _gradient_hessian(Z, y, cs, mu, theta, f, z, g, H, ridge)
        if not free_bias:
            g[-1] = 0.0  # the bias's gradient is no part of a fixed-bias problem
            err = 0.5 * float(g @ g)
        if err <= target:
            break
        steps += 1
        d = newton_direction(H, g, free_bias)
        slope0 = float(g @ d)
        if slope0 >= 0.0:
            break
        _step(Z, y, cs, mu, theta, f, z, d, slope0)
    return steps


def _polish(Xc, y, cs, z, mu, intercept=None):
    """Duals from the KKT system of the unsmoothed problem on the band's partition.

    Rows with ``z >= mu`` get ``alpha = C s`` and rows with ``z <= 0`` zero; the band's
    rows are taken to lie on the margin, ``y_k (w(alpha)^T x_k + b) = 1``, which with
    ``sum alpha_i y_i = 0`` is a square linear system in ``(alpha_band, b)`` (least
    squares; with a fixed ``intercept`` there is no such row and ``b`` is known). Exact
    when the partition is the optimum's; else just another candidate (clipped into the
    box, made feasible and certified like any other). ``None`` when the band is empty or
    too large.
    """
    band = np.flatnonzero((z > 0.0) & (z < mu))
    limit = min(_POLISH_MAX_BAND, _POLISH_BAND_PER_FEATURE * (Xc.shape[1] + 1))
    if band.size == 0 or band.size > limit:
        return None
    a = np.where(z >= mu, cs, 0.0)
    v = Xc.T @ (a * y)
    Xs, ys = Xc[band], y[band]
    k = band.size
    if intercept is not None:
        G = (Xs @ Xs.T) * np.outer(ys, ys)
        rhs = 1.0 - ys * intercept - ys * (Xs @ v)
        a[band] = np.clip(np.linalg.lstsq(G, rhs, rcond=None)[0], 0.0, cs[band])
        return a
    A = np.empty((k + 1, k + 1))
    A[:k, :k] = (Xs @ Xs.T) * np.outer(ys, ys)
    A[:k, k] = ys
    A[k, :k] = ys
    A[k, k] = 0.0
    rhs = np.append(1.0 - ys * (Xs @ v), -float(a @ y))
    sol = np.linalg.lstsq(A, rhs, rcond=None)[0]
    a[band] = np.clip(sol[:k], 0.0, cs[band])
    return a


def _primal_at(X, y, cs, w, b, f=None):
    """``(primal, w, b)``: the exact primal objective at ``(w, b)`` on ``X`` (``f = X w``
    if known)."""
    z = 1.0 - y * ((X @ w if f is None else f) + b)
    return 0.5 * float(w @ w) + float(cs @ np.maximum(0.0, z)), w, b


def _widen_margin(X, y, cs, w, b, free, x_max, cs_sum, excess):
    """The point ``(w, b)`` scaled so that its rows within round-off of the margin leave it.

    With huge weights ``C s`` (5e6..1e9 on AID's S3VM problems) an exact solution whose
    margin rows sit a rounding error ``z ~ 1e-16`` inside the margin pays ``C s z`` of
    hinge, a gap of 1e-9..1e-7 however exact the point. Scaling ``(w, b)`` by ``t`` (only
    ``w`` with a fixed bias) multiplies every margin ``y f`` by ``t`` where the bias is
    free: the smallest ``t > 1`` that puts those rows ``_ROUNDOFF_PUSH`` units of
    round-off outside costs ``(t^2 - 1) ||w||^2 / 2``, about 1e-13 relative. ``x_max``
    bounds ``|X|``, ``cs_sum`` is ``sum C s``; ``excess`` is the point's primal minus what
    the gap target allows. Returns :func:`_primal_at`'s triple, or ``None`` when the rows
    within round-off cannot remove that excess; the caller keeps it only if its primal is
    lower.
    """
    eps = np.finfo(np.float64).eps
    # The round-off scale of row i's score is 1 + |x_i| . |w| + |b|: bounded by x_max for
    # an O(1) test (the hinge of all rows within round-off cannot remove the excess: the
    # usual case before the last stage) and an O(n) sift, then computed on the rows left.
    loose = _ROUNDOFF_ROWS * eps * (1.0 + x_max * float(np.abs(w).sum()) + abs(b))
    if loose * cs_sum < excess:
        return None
    f = X @ w
    if free:
        q, r = y * (f + b), 1.0
    else:
        q, r = y * f, 1.0 - y * b
    z = r - q
    rows = np.flatnonzero((np.abs(z) <= loose) & (cs > 0.0) & (q > 0.0))
    # Nothing to gain unless these rows' hinge could close the gap (the exact bias puts
    # one row on the margin at every certificate: no widening for that alone).
    if rows.size == 0 or float(cs[rows] @ np.maximum(z[rows], 0.0)) < excess:
        return None
    size = 1.0 + np.abs(X[rows]) @ np.abs(w) + abs(b)
    near = np.abs(z[rows]) <= _ROUNDOFF_ROWS * eps * size
    if not near.any():
        return None
    r_rows = r if free else r[rows]
    t = float(np.max(((r_rows + _ROUNDOFF_PUSH * eps * size) / q[rows])[near]))
    if not t > 1.0:
        return None
    return _primal_at(X, y, cs, t * w, t * b if free else b)


def _bound(scores, y, sw, a, b, Xc, free):
    """The certificate's bias and bound: with a free bias the exact ``b*(w)`` for the
    centred ``scores`` and the duals ``a`` made feasible (as
    :func:`svmcore.solvers._dcd._certify`); with a fixed ``b`` the duals as they are (no
    equality). Returns ``(b, feasible duals, dual objective)``."""
    if free:
        b = optimal_intercept(scores, y, sw, b0=b, check_input=False)
        return (b, *_feasible_dual(a, y, Xc))
    u = Xc.T @ (a * y)
    return b, a, float(a @ (1.0 - y * b) - 0.5 * (u @ u))


def _warn_uncertified(res, gap_tol, cs, Xc):
    """The ConvergenceWarning of a solve whose smoothing width reached its floor uncertified.

    The cause measured (issue 19): ``C s_i ||x_i||^2`` (rows centred with a free bias) far
    above 1 makes the problem a nearly hard-margin one (on random data at gap_tol 1e-9:
    failures from about 1e9, none certified from 1e14). Scaling ``X`` exactly does not
    help: ``X t`` at ``C`` is the problem on ``X`` at ``C t^2`` (Newton's steps are the same
    to round-off), and with features of 1e20 at C = 1 even the dual bound's
    ``||X^T (alpha y)||^2`` is lost to cancellation in float64 (gaps of 1e8 and beyond).
    """
    kappa = hard_margin_scale(Xc, cs) if Xc.size else 0.0  # cs = C s: C is in the weights
    warnings.warn(
        f"newton_weighted_svm stopped uncertified: relative gap {res.gap:.3g} above gap_tol="
        f"{gap_tol:.3g} with the smoothing width at its floor. max C s_i ||x_i||^2 is "
        f"{kappa:.3g} on this data (rows centred with a free bias); from about 1e9 (gap_tol "
        "1e-9) or 1e14 (1e-4) the problem is nearly a hard-margin one, which the smoothed "
        "Newton steps do not certify: rescale X (e.g. sklearn.preprocessing.StandardScaler) "
        "or lower C. The result is returned with converged=False.",
        ConvergenceWarning,
        stacklevel=3,
    )


def newton_weighted_svm(
    X: MatrixLike,
    y: ArrayLike,
    sample_weight: ArrayLike | None = None,
    *,
    C: float = 1.0,
    gap_tol: float = 1e-6,
    w0: ArrayLike | None = None,
    b0: float = 0.0,
    mu0: float = 2.0,
    max_steps: int = 1000,
    intercept: float | None = None,
    warn: bool = True,
) -> DCDResult:
    """Weighted linear L1-hinge SVM with unregularized bias, to a certified relative gap.

    Solves the AID paper's (7) (its (9) with cluster sizes as weights) in the primal by
    Newton's method on a Huber-smoothed hinge of width ``mu``, shrinking ``mu`` until
    ``(primal - certified dual) / |primal| <= gap_tol`` (see the module docstring).
    Meant for dense data with few features (an ``(m + 1)``-square system per step).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Dense data; centred by its weighted mean internally (exact for a free bias).
    y : array-like of shape (n_samples,)
        Labels in ``{-1, +1}``, both present among positive-weight samples.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights ``s_i``.
    C : float, default=1.0
        Penalty, > 0.
    gap_tol : float, default=1e-6
        Target relative certified gap.
    w0 : array-like of shape (n_features,), default=None
        Starting weights (zeros if None).
    b0 : float, default=0.0
        Starting bias, in the coordinates of ``X``.
    mu0 : float, default=2.0
        First smoothing width (in units of the margin, 1); a warm start can begin
        smaller.
    max_steps : int, default=1000
        Total Newton steps over all stages.
    intercept : float or None, default=None
        A fixed bias ``b`` instead of a free one: ``(w, intercept)`` minimizes the
        objective over ``w`` alone (``b0`` is ignored, ``X`` is not centred). The dual
        then has no equality constraint: any ``alpha`` in the box is feasible, with the
        dual objective ``sum alpha_i (1 - y_i b) - 0.5 ||sum alpha_i y_i x_i||^2``.
    warn : bool, default=True
        Warn when the solve stops uncertified (below); False for callers that check
        ``converged`` and handle it themselves (a fallback, a loop with its own bound).

    Returns
    -------
    result : DCDResult
        As :func:`svmcore.solvers._dcd.dcd_weighted_svm`'s (``n_epochs``: Newton steps,
        ``n_rounds``: smoothing stages), plus ``mu``: the last smoothing width.

    Warns
    -----
    ConvergenceWarning
        With ``warn``, when the smoothing width reaches its floor (1e-12) before the
        certificate holds: the result has ``converged=False``, and the message gives
        ``max C s_i ||x_i||^2``, the data's scale that makes such problems nearly
        hard-margin ones (rescale ``X`` or lower ``C``). Running out of ``max_steps``
        does not warn.

    Notes
    -----
    Time O(n m^2 + m^3) per Newton step plus O(n log n) per stage for the exact bias of
    the certificate; memory O(n m).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1, -1, 1, 1])
    >>> res = newton_weighted_svm(X, y, C=10.0, gap_tol=1e-9)
    >>> round(float(res.coef[0]), 4), round(res.intercept, 4), round(res.objective, 4)
    (1.0, -2.0, 0.5)
    """
    X = check_float_array(X, "X")
    n, m = X.shape
    y = _check_labels(y, n)
    C = check_real(C, "C", low=0.0, low_closed=False)
    gap_tol = check_real(gap_tol, "gap_tol", low=0.0)
    mu = check_real(mu0, "mu0", low=0.0, low_closed=False)
    sw = _check_weights(sample_weight, y)
    free = intercept is None
    # Centring is exact only when the bias is free to absorb the shift.
    shift = (sw @ X) / sw.sum() if free else np.zeros(m)
    Xc = np.ascontiguousarray(X - shift, dtype=np.float64)
    w = np.zeros(m) if w0 is None else np.array(w0, dtype=np.float64).reshape(m)
    if free:
        b = check_real(b0, "b0") + float(w @ shift)  # bias in centred coordinates
    else:
        b = check_real(intercept, "intercept")
    Z = np.empty((n, m + 1))
    Z[:, :m] = Xc
    Z[:, m] = 1.0
    ridge = 1e-6 * C * float(sw.mean())
    steps = stages = 0
    best = None
    dual, feasible = -np.inf, np.zeros(n)
    cs = C * sw
    theta = np.append(w, b)
    zero_shift = np.zeros(m)  # the points kept are in X's own coordinates
    x_max = max(float(X.max()), -float(X.min())) if X.size else 0.0
    cs_sum = float(cs.sum())
    while True:
        stages += 1
        P = _smoothed_objective(theta[:m], Z @ theta, y, cs, mu)
        target = _DECREMENT_FRACTION * gap_tol * max(abs(P), 1e-300)
        budget = min(_MAX_STEPS, max_steps - steps)
        steps += _newton_stage(Z, y, cs, mu, theta, target, budget, ridge, free)
        z = 1.0 - y * (Z @ theta)
        slope = np.clip(z / mu, 0.0, 1.0)
        w, b = theta[:m].copy(), float(theta[m])
        candidates = [(w, cs * slope)]
        polished = _polish(Xc, y, cs, z, mu, None if free else b)
        if polished is not None:
            candidates.append((Xc.T @ (polished * y), polished))
        points = []
        for w_c, a_c in candidates:
            f_c = X @ w_c
            w_shift = float(w_c @ shift)
            b_exact, a, d_obj = _bound(f_c - w_shift, y, sw, a_c, b, Xc, free)
            if d_obj > dual:
                dual, feasible = d_obj, a
            # The primal where the caller evaluates it: the returned (coef, intercept) on
            # the uncentred X (centring moves the round-off of each score, which at huge
            # weights C s is the whole gap).
            points.append(_primal_at(X, y, cs, w_c, b_exact - w_shift, f_c))
        for point in points:
            if best is None or point[0] < best[0]:
                best = point
        assert best is not None  # every round has a candidate
        if best[0] - dual > gap_tol * abs(best[0]):
            for primal, w_c, b_c in points:
                excess = primal - dual - gap_tol * abs(primal)
                wide = _widen_margin(X, y, cs, w_c, b_c, free, x_max, cs_sum, excess)
                if wide is not None and wide[0] < best[0]:
                    best = wide
        res = _result(best, zero_shift, cs * slope, dual, feasible, steps, stages)
        res.mu = mu
        if res.gap <= gap_tol:
            res.converged = True
            return res
        if steps >= max_steps:
            return res  # the caller's budget: converged=False, no warning
        if mu <= _MIN_MU:
            if warn:
                _warn_uncertified(res, gap_tol, cs, Xc)
            return res
        # At the smoothed optimum the gap is C sum_band s z (1 - z / mu) <= mu / 4 C
        # sum_band s: shrink mu by _MU_DECAY, or further if that bound asks for it.
        band_w = C * float(sw @ ((z > 0.0) & (z < mu)))
        need = 4.0 * gap_tol * max(abs(best[0]), 1e-300) / max(band_w, 1e-300)
        mu = max(min(_MU_DECAY * mu, need), _MU_MAX_CUT * mu, _MIN_MU)
