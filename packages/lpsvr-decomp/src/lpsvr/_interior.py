"""A dense interior-point solve of the row/column LP, to start HiGHS near its optimum.

``"row_column"`` solves the dual of the LP over a column set P and a row set R in HiGHS
(:class:`lpsvr._lp.RowColumnLP`): variables ``pi_r`` in ``[0, u_r]``, one ranged row
``-1 <= (G pi)_i <= 1`` per column ``i in P`` (``G = K(X_P, X_R) diag(s)``) and the row
``s^T pi = 0``. With d > 1 (hundreds of nonzero coefficients) its simplex needs
thousands of pivots on dense rows. A few Mehrotra predictor-corrector steps with a dense
``(|P| + 1) x (|P| + 1)`` Cholesky factor solve the same LP to a small gap at
``O(|P|^2 |R|)`` per step, and the interior point shows which variables are strictly
between their bounds: those make a starting basis from which HiGHS reaches the exact
vertex in a few pivots (:func:`basis_guess`). Exactness never depends on this: HiGHS
and the KKT check on all samples decide.
"""

from functools import partial

import numpy as np
import scipy.linalg as sla
from scipy.linalg.blas import dsyrk, ssyrk

from svmcore import blas_threads
from svmcore.linalg import RowProducts, boundary_step

__all__ = ["basis_guess", "constraint_rows", "interior_point", "interior_point_rows"]

#: with ``mixed``, steps from points whose error (gap, residuals) is above this use the
#: float32 normal matrix; the steps below it are float64 throughout
MIXED_ABOVE = 1e-4


def interior_point(G, s, q, u, *, tol=1e-6, max_iter=40, start=None, mixed=False):
    """Approximately solve ``min q pi`` s.t. ``s pi = 0``, ``-1 <= G pi <= 1``, ``0 <= pi <= u``.

    Mehrotra's predictor-corrector on the bounded form with ``w = G pi + 1`` in
    ``[0, 2]`` (every variable boxed, so the LP is feasible and bounded). ``start``
    (None: the centre of the box) is ``(pi, y)`` of an earlier point on nearly the same
    sets; the iterations then start from it, moved into the box's interior
    (:func:`_warm_start`). Infeasible starts are allowed either way: the residuals are
    recomputed every step. :func:`interior_point_rows` with ``H = [s, G^T]``
    (:func:`constraint_rows`).

    Returns
    -------
    dict or None
        ``pi``, ``w``, ``y`` (``y[0]``: the dual of ``s pi = 0``, i.e. ``b``;
        ``y[1:]``: of the ranged rows, i.e. ``alpha``), the bound duals ``z``
        (lower) and ``v`` (upper) of ``(pi, w)``, ``gap`` and ``n_iter``;
        None if the normal equations break down before any progress.
    """
    H = constraint_rows(G.shape[1], G.shape[0], rounded=mixed and tol >= MIXED_ABOVE)
    H[:, 0], H[:, 1:] = s, G.T
    return interior_point_rows(H, q, u, tol=tol, max_iter=max_iter, start=start, mixed=mixed)


def constraint_rows(n_rows, n_cols, rounded=False):
    """An empty ``H`` for :func:`interior_point_rows`: ``(n_rows, n_cols + 1)``, C order.

    ``rounded``: float32, for points that stop above :data:`MIXED_ABOVE` (all their steps
    take the float32 normal matrix): the point is then one of the LP with the kernel
    values rounded to float32 (relative change <= 6e-8, far below the rounds' gaps of
    1e-3 and 1e-2), every product with H reads half the bytes and the matrix takes half
    the memory.
    """
    return np.empty((n_rows, n_cols + 1), dtype=np.float32 if rounded else np.float64)


def interior_point_rows(H, q, u, *, tol=1e-6, max_iter=40, start=None, mixed=False):
    """:func:`interior_point` on the LP's constraint rows ``H`` (one row per ``pi_r``).

    ``H[r] = [s_r, G_1r, ..., G_Pr]``: the row ``s pi = 0`` and the ranged rows are
    ``H^T pi`` (``G`` is ``|P| x |R|``). Held this way (C order) the normal matrix
    ``H^T diag(D) H`` is a ``syrk`` over contiguous row blocks, and the products
    ``H y`` and ``H^T pi`` are Numba passes that read float32 ``H`` as it is
    (:class:`svmcore.linalg.RowProducts`, float64 sums): at |P| = 1,000, |R| = 6,000,
    1.8 and 2.2 ms against numpy's 4.3 and 4.8 ms on float64 ``G`` (one thread).

    ``mixed`` forms the normal matrix in float32 (``ssyrk``: 0.14 s against 0.26 s for
    ``dsyrk`` at 1,100 x 9,600, one thread) and solves each Newton system to relative
    residual 1e-6 by conjugate gradients on the exact operator ``A D A^T`` (of H as
    stored), preconditioned by the float32 matrix's Cholesky factor
    (:func:`_refined_solve`; 1,064 products for 410 solves on Friedman #1 N = 10,000). The float32
    factor alone gave other loose points and other sets (digits 0-4/5-9: 404 HiGHS pivots
    instead of 0; tried 2026-11-26). A step whose float32 matrix does not factor is
    formed in float64, and so is every step once the error is at most
    :data:`MIXED_ABOVE` (1e-4): directions at residual 1e-6 slow the last steps, and on
    a test LP a point asked for 1e-8 had reached only 7e-8 after 14 steps, then diverged
    (float64: 4e-10 after 12).
    """
    # one BLAS thread: the blocks are small (|P| ~ hundreds), and threaded BLAS on a
    # loaded machine made each factorization 50x slower (measured: 0.7 s vs 0.01 s).
    # svmcore's controller is made once: threadpoolctl's threadpool_limits scanned the
    # loaded libraries at every call (5 ms, 0.05 s of a 10-round start)
    with blas_threads(1):
        return _interior_point(H, q, u, tol, max_iter, start, mixed)


def _interior_point(H, q, u, tol, max_iter, start, mixed):
    R, P = H.shape[0], H.shape[1] - 1
    n = R + P
    U = np.r_[u, np.full(P, 2.0)]
    c = np.r_[q, np.zeros(P)]
    rhs = np.r_[0.0, -np.ones(P)]
    ops, every_row = RowProducts(H), np.arange(R, dtype=np.intp)

    def A(x):
        out = ops.rmatvec(x[:R], every_row)
        out[1:] -= x[R:]
        return out

    def AT(y):
        return np.r_[ops.matvec(y, every_row), -y[1:]]

    if start is None:
        x = U / 2.0
        t = U - x
        z, v, y = np.ones(n), np.ones(n), np.zeros(P + 1)
    else:
        x, t, z, v, y = _warm_start(start, A, U, c - AT(start[1]))
    scale_p, scale_d = 1.0 + np.linalg.norm(rhs), 1.0 + np.linalg.norm(c)
    out = None
    for it in range(max_iter):
        rp = rhs - A(x)
        rd = c - AT(y) - z + v
        mu = (x @ z + t @ v) / (2 * n)
        primal, dual = c @ x, rhs @ y - U @ v
        gap = abs(primal - dual) / (1.0 + abs(primal))
        err = max(np.linalg.norm(rp) / scale_p, np.linalg.norm(rd) / scale_d, gap)
        if not np.isfinite(err):
            break
        out = {"pi": x[:R], "w": x[R:], "y": y, "z": z, "v": v, "gap": err, "n_iter": it}
        if err < tol:
            break
        D = 1.0 / (z / x + v / t)
        factored = _factor(H, D, np.float32) if mixed and err > MIXED_ABOVE else None
        if factored is None:
            factored = _factor(H, D, np.float64)
            if factored is None:
                break
            solve = partial(sla.cho_solve, factored[0], check_finite=False)
        else:
            factor, reg = factored
            solve = partial(_refined_solve, partial(_normal_product, A, AT, D, reg), factor)

        it_state = (A, AT, solve, D, rp, rd, x, t, z, v)
        dx, dy, dz, dv = _direction(it_state, -x * z, -t * v)
        ap, ad = _step_lengths(x, t, z, v, dx, dz, dv)
        mu_aff = ((x + ap * dx) @ (z + ad * dz) + (t - ap * dx) @ (v + ad * dv)) / (2 * n)
        sigma = (mu_aff / mu) ** 3
        dx, dy, dz, dv = _direction(
            it_state, sigma * mu - x * z - dx * dz, sigma * mu - t * v + dx * dv
        )
        ap, ad = _step_lengths(x, t, z, v, dx, dz, dv)
        ap, ad = min(1.0, 0.995 * ap), min(1.0, 0.995 * ad)
        x = np.clip(x + ap * dx, 1e-300, None)
        t = np.clip(U - x, 1e-300, None)
        y, z, v = y + ad * dy, z + ad * dz, v + ad * dv
    return out


def _factor(H, D, dtype):
    """Cholesky factor of the normal matrix ``A diag(D) A^T`` (its ``H`` part in ``dtype``).

    Returns ``(factor, reg)``, ``reg`` the shift added to the diagonal, or None when the
    matrix does not factor.
    """
    R, P = H.shape[0], H.shape[1] - 1
    M = np.asarray(_scaled_syrk(H, np.sqrt(D[:R]), dtype=dtype), dtype=np.float64)
    M[1:, 1:][np.diag_indices(P)] += D[R:]
    reg = 1e-14 * np.abs(np.diag(M)).max()
    M[np.diag_indices(P + 1)] += reg
    try:
        return sla.cho_factor(M, lower=True, check_finite=False), reg
    except (np.linalg.LinAlgError, ValueError):
        return None


def _normal_product(A, AT, D, reg, y):
    """``(A diag(D) A^T + reg I) y`` by two products with H (float64 sums)."""
    return A(D * AT(y)) + reg * y


def _refined_solve(op, factor, b, rtol=1e-6, max_iter=10):
    """Solve ``op(x) = b`` by conjugate gradients preconditioned with ``factor``.

    ``op`` is the exact (float64) normal operator, ``factor`` the Cholesky factor of its
    float32 approximation: the first iterate is the factor's solution, and each
    iteration costs two products with H (``2 |P| |R|``) instead of a ``|P|^2 |R|``
    float64 matrix. Stops at residual ``rtol |b|`` or after ``max_iter`` iterations; a
    direction left inexact costs steps, not correctness (the residuals are recomputed
    every step).
    """
    x = sla.cho_solve(factor, b, check_finite=False)
    r = b - op(x)
    stop = rtol * np.linalg.norm(b)
    if np.linalg.norm(r) <= stop:
        return x
    z = sla.cho_solve(factor, r, check_finite=False)
    p, rz = z, r @ z
    for _ in range(max_iter):
        Ap = op(p)
        step = rz / (p @ Ap)
        x = x + step * p
        r = r - step * Ap
        if np.linalg.norm(r) <= stop:
            break
        z = sla.cho_solve(factor, r, check_finite=False)
        rz, rz_old = r @ z, rz
        p = z + (rz / rz_old) * p
    return x


def _warm_start(start, A, U, reduced_cost, shift=0.1, mu=0.1):
    """``(x, t, z, v, y)`` from an earlier point ``start = (pi, y)`` of nearly the same LP.

    The primal values are pulled a fraction ``shift`` of each box away from its bounds
    and the bound duals are the reduced costs' positive and negative parts plus
    ``mu / x`` and ``mu / t``: the complementarity products are then at least ``mu``, about
    a tenth of a cold start's. Started on the earlier point itself (``shift``, ``mu`` of
    1e-2 or 1e-3) Mehrotra's steps stalled near the bounds: 20-30 steps per point on
    Friedman #1 N = 2,000 against 10-12 cold; from this point the tail rounds of
    :func:`lpsvr._interior_start.interior_sets` take 4-9.
    """
    pi, y = start
    w = A(np.r_[pi, np.zeros(U.size - pi.size)])[1:] + 1.0  # G pi + 1 (A at w = 0)
    x = np.clip(np.r_[pi, w], shift * U, (1.0 - shift) * U)
    t = U - x
    z = mu / x + np.maximum(reduced_cost, 0.0)
    v = mu / t + np.maximum(-reduced_cost, 0.0)
    return x, t, z, v, np.array(y, dtype=np.float64)


def _scaled_syrk(H, scale, block_entries=1 << 20, dtype=np.float64):
    """Lower triangle of ``(diag(scale) H)^T (diag(scale) H)``, summed over row blocks.

    The scaled copy of H is made a block of about ``block_entries`` values (8 MB) at a
    time: a whole scaled copy was a second |R| x |P| array per step (68 MB at |P| = 800,
    |R| = 10,600, the largest allocation of LPSVC's start; issue 19). A C-ordered block
    goes to BLAS as its (Fortran-ordered) transpose with ``trans=0``, without a copy.
    ``dtype`` float32 uses ``ssyrk`` (the sum is returned in float32); the products are
    rounded into one reused buffer of that type (the same values as rounding a float64
    block, without making one).
    """
    R, P = H.shape
    step = max(1, block_entries // max(P, 1))
    syrk = ssyrk if dtype == np.float32 else dsyrk
    out = np.zeros((P, P)) if R == 0 else None
    buffer = np.empty(P * min(step, R), dtype=dtype)
    for start in range(0, R, step):
        width = min(step, R - start)
        block = buffer[: P * width].reshape(width, P)
        np.multiply(
            H[start : start + width],
            scale[start : start + width, None],
            out=block,
            casting="same_kind",
        )
        if out is None:
            out = syrk(1.0, block.T, lower=1, trans=0)
        else:
            out = syrk(1.0, block.T, beta=1.0, c=out, lower=1, overwrite_c=1, trans=0)
    return out


def _direction(state, r_xz, r_tv):
    """Newton direction of the perturbed KKT system (normal equations, ``solve``)."""
    A, AT, solve, D, rp, rd, x, t, z, v = state
    r = rd - r_xz / x + r_tv / t
    dy = solve(rp + A(D * r))
    dx = D * (AT(dy) - r)
    return dx, dy, (r_xz - z * dx) / x, (r_tv + v * dx) / t


def _step_lengths(x, t, z, v, dx, dz, dv):
    """Largest primal and dual steps (<= 1) keeping ``x, t = u - x, z, v`` nonnegative."""
    ap = min(boundary_step(x, dx), boundary_step(t, -dx))
    ad = min(boundary_step(z, dz), boundary_step(v, dv))
    return ap, ad


def basis_guess(point, u, nonbasic=None):
    """HiGHS basis statuses for the dual LP from an interior point.

    The ``|P| + 1`` variables of ``(pi, w)`` farthest (relative to their bound
    duals) from their nearer bound are basic, the others nonbasic at that bound:
    ``pi_r`` strictly inside ``(0, u_r)`` (a row on the tube's edge) and the
    rows ``|g_i| < 1`` (``alpha_i = 0``) are basic. ``nonbasic`` (positions in
    ``pi``, None: none) are never made basic. Returns ``(col_status,
    row_status)`` in HiGHS's coding (0 lower, 1 basic, 2 upper) for the
    columns ``pi`` and the rows ``[s pi = 0, ranged rows of P]``.
    """
    pi, w = point["pi"], point["w"]
    R, P = pi.size, w.size
    x = np.r_[pi, w]
    t = np.r_[u, np.full(P, 2.0)] - x
    near = np.minimum(x, t)
    score = near / (near + np.where(x < t, point["z"], point["v"]) + 1e-300)
    if nonbasic is not None:
        score[nonbasic] = -1.0  # below every other score (those are >= 0)
    basic = np.zeros(R + P, dtype=bool)
    basic[np.argsort(-score, kind="stable")[: P + 1]] = True
    status = np.where(x > t, 2, 0).astype(np.int8)
    status[basic] = 1
    return status[:R], np.r_[np.int8(0), status[R:]]
