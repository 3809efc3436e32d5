"""Jitted cores of DeriveRS: the simplex-constrained QP (CheckPoint, minimum enclosing
ball) and DeriveAE (the paper's sec. 4.3, steps 1-7) on one group's Gram block.

The QP is :math:`\\min_{\\mu \\in \\Delta} \\mu^T G_S \\mu - 2 c^T \\mu + k` over the simplex
:math:`\\Delta`, solved by SMO-style pair updates (move mass from the positive coordinate with
the largest gradient to the coordinate chosen by libsvm's second-order rule), which keeps
every iterate feasible. The Frank-Wolfe gap :math:`g^T\\mu - \\min_s g_s` bounds
:math:`f(\\mu) - f^*` from above, so CheckPoint can stop as soon as its answer is certain:
TRUE once :math:`f(\\mu) \\le \\epsilon` (a feasible point already reaches the threshold) and
FALSE once the hyperplane through the current point normal to :math:`\\phi(x) - p(\\mu)`
separates :math:`\\phi(x)` from the hull by more than :math:`\\sqrt\\epsilon`, i.e.
:math:`(f - \\text{gap}/2)^2 / f > \\epsilon` (even the optimum is above it; this bound is
at least the Frank-Wolfe bound :math:`f - \\text{gap}`). The
decision is therefore the same as comparing the exact optimum with epsilon. Step 6, which
needs the weights themselves, finishes a loose solve with an exact active-set step
(:func:`_polish`: the KKT system on the found support).
"""

import numpy as np

from svmcore.linalg import kth_smallest_inplace
from svmcore.numba_config import jit

__all__ = [
    "STATUS_ACCEPTED",
    "STATUS_CONVERGED",
    "STATUS_MAX_ITER",
    "STATUS_REJECTED",
    "derive_ae",
    "minimum_enclosing_ball",
    "solve_simplex_qp",
]

STATUS_CONVERGED = 0
STATUS_ACCEPTED = 1  # stopped early: f(mu) <= accept_below
STATUS_REJECTED = 2  # stopped early: certified optimum > reject_above (see the loop)
STATUS_MAX_ITER = 3

# Curvature floor along a pair direction (duplicate points have zero curvature).
_TAU = 1e-12

# Counters start at ``np.int64(0)`` and flags passed to jitted callees are these
# ``np.bool_`` values, not the literals 0 / True / False: Numba compiles a separate
# specialization of the callee for every literal argument (``Literal[int](0)``,
# ``Literal[bool](True)``), which doubled CheckPoint's compile time in a new
# environment's first fit.
_FALSE = np.bool_(False)
_TRUE = np.bool_(True)


@jit
def solve_simplex_qp(G, idx, m, c, k, mu, g, tol, max_iter, accept_below, reject_above, warm):
    """Minimize ``mu^T G[idx][:, idx] mu - 2 c^T mu + k`` over the simplex (first ``m`` of idx).

    ``mu`` and ``g`` are work arrays of length >= m; on return ``mu[:m]`` is the solution
    and ``g[:m]`` its gradient ``2 (G_S mu - c)``. With ``warm`` the search starts from the
    point already in ``mu[:m]`` (on the simplex), otherwise from the best vertex.

    Returns
    -------
    value : float
        Objective at the returned ``mu`` (recomputed exactly on convergence).
    gap : float
        Frank-Wolfe gap, an upper bound of ``value - optimum``.
    n_iter : int
    status : int
        One of the ``STATUS_*`` constants.
    """
    # Diagonal of G_S in contiguous memory (the pair choice reads it every iteration).
    diag = np.empty(m)
    for s in range(m):
        diag[s] = G[idx[s], idx[s]]
    if warm:
        _gradient(G, idx, m, c, mu, g)
        best = 0.0
    else:
        # Start at the best vertex: its value is the squared distance to the nearest point.
        best = np.inf
        t0 = 0
        for s in range(m):
            v = diag[s] - 2.0 * c[s]
            if v < best:
                best = v
                t0 = s
        for s in range(m):
            mu[s] = 0.0
            g[s] = 2.0 * (G[idx[t0], idx[s]] - c[s])
        mu[t0] = 1.0
    value = np.inf
    gap = np.inf
    n_iter = 0
    status = STATUS_MAX_ITER
    value = best + k
    gap = 0.0
    while True:
        # One pass: objective, gap and the first index of the pair.
        mug = 0.0
        cmu = 0.0
        gmin = np.inf
        gmax = -np.inf
        j = -1
        for s in range(m):
            if mu[s] > 0.0:
                mug += mu[s] * g[s]
                cmu += c[s] * mu[s]
                if g[s] > gmax:
                    gmax = g[s]
                    j = s
            if g[s] < gmin:
                gmin = g[s]
        value = 0.5 * mug - cmu + k
        gap = mug - gmin
        if value <= accept_below:
            status = STATUS_ACCEPTED
            break
        # Separating hyperplane through the current point (normal phi_x - p(mu)): the
        # distance to the hull is at least (f - gap/2) / sqrt(f), a tighter certificate
        # than the Frank-Wolfe bound f - gap (it exceeds it by gap^2 / 4f).
        half = value - 0.5 * gap
        if half > 0.0 and half * half > reject_above * value:
            status = STATUS_REJECTED
            break
        if gap <= tol:
            status = STATUS_CONVERGED
            break
        if n_iter >= max_iter:
            break
        n_iter += 1
        # Second-order choice of the coordinate that receives the mass.
        gj = idx[j]
        best = -1.0
        i = -1
        a_best = 1.0
        for s in range(m):
            diff = gmax - g[s]
            if diff > 0.0:
                gs = idx[s]
                a = diag[s] + diag[j] - 2.0 * G[gj, gs]
                if a < _TAU:
                    a = _TAU
                score = diff * diff / a
                if score > best:
                    best = score
                    i = s
                    a_best = a
        if i < 0:
            status = STATUS_CONVERGED
            break
        d = (gmax - g[i]) / (2.0 * a_best)
        if d > mu[j]:
            d = mu[j]
        mu[i] += d
        mu[j] -= d
        if mu[j] < 0.0:
            mu[j] = 0.0
        gi = idx[i]
        two_d = 2.0 * d
        for s in range(m):
            gs = idx[s]
            # G is symmetric: read rows gi and gj contiguously.
            g[s] += two_d * (G[gi, gs] - G[gj, gs])
    if status == STATUS_CONVERGED or status == STATUS_MAX_ITER:
        # Refresh gradient and value from scratch to shed drift from the updates.
        _gradient(G, idx, m, c, mu, g)
        mug = 0.0
        cmu = 0.0
        gmin = np.inf
        for s in range(m):
            mug += mu[s] * g[s]
            cmu += c[s] * mu[s]
            if g[s] < gmin:
                gmin = g[s]
        value = 0.5 * mug - cmu + k
        gap = mug - gmin
    return value, gap, n_iter, status


@jit
def _gradient(G, idx, m, c, mu, g):
    """``g <- 2 (G_S mu - c)``, touching only the rows of the nonzero ``mu``."""
    for s in range(m):
        g[s] = -2.0 * c[s]
    for t in range(m):
        if mu[t] > 0.0:
            two_mu = 2.0 * mu[t]
            gt = idx[t]
            for s in range(m):
                g[s] += two_mu * G[gt, idx[s]]


@jit
def minimum_enclosing_ball(G, tol, max_iter):
    """Hard-margin SVDD (minimum enclosing ball) in kernel space of the points of ``G``.

    Dual: :math:`\\min_{\\alpha \\in \\Delta} \\alpha^T G \\alpha - \\operatorname{diag}(G)^T
    \\alpha`; the centre is :math:`\\sum_i \\alpha_i \\phi(x_i)` and the squared radius
    minus the optimal value.

    Returns
    -------
    alpha : ndarray of shape (n,)
    radius2 : float
    dist2 : ndarray of shape (n,)
        Squared kernel distances of every point from the centre.
    gap : float
    n_iter : int
    status : int
    """
    n = G.shape[0]
    idx = np.arange(n)
    c = np.empty(n)
    for s in range(n):
        c[s] = 0.5 * G[s, s]
    alpha = np.empty(n)
    g = np.empty(n)
    value, gap, n_iter, status = solve_simplex_qp(
        G, idx, n, c, 0.0, alpha, g, tol, max_iter, -np.inf, np.inf, _FALSE
    )
    radius2 = -value
    # g = 2 (G alpha - diag/2), so ||phi_s - centre||^2 = G_ss - 2 (G alpha)_s + alpha^T G alpha.
    aga = 0.0
    for s in range(n):
        aga += alpha[s] * (0.5 * g[s] + c[s])
    dist2 = np.empty(n)
    for s in range(n):
        dist2[s] = G[s, s] - (g[s] + 2.0 * c[s]) + aga
    return alpha, radius2, dist2, gap, n_iter, status


#: CheckPoint first solves the QP over this many nearest members, then warm-starts the
#: full QP from that solution (the optimum is supported on near neighbours).
_N_NEAR = 24
#: Accuracy (relative to epsilon) of the nearest-members warm start in decision mode.
_NEAR_RTOL = 1e-1
#: Coordinates the exact step may add to the support before giving up.
_POLISH_ADDS = 8
#: Relative pivot below which the support's KKT system counts as singular.
_PIVOT_RTOL = 1e-12
#: Frank-Wolfe gap (relative to k(x, x)) at which a polished solution counts as exact.
_EXACT_GAP = 1e-12


@jit
def _solve_dense(A, b):
    """Solve ``A x = b`` in place by Gaussian elimination with partial pivoting.

    Returns False (leaving ``b`` undefined) when a pivot is negligible: the support's
    Gram block is singular (duplicate or affinely dependent points) and the caller keeps
    the iterative solution.
    """
    n = A.shape[0]
    scale = 0.0
    for i in range(n):
        for j in range(n):
            scale = max(scale, abs(A[i, j]))
    for col in range(n):
        piv = col
        for r in range(col + 1, n):
            if abs(A[r, col]) > abs(A[piv, col]):
                piv = r
        if abs(A[piv, col]) <= _PIVOT_RTOL * scale:
            return False
        if piv != col:
            for j in range(n):
                A[col, j], A[piv, j] = A[piv, j], A[col, j]
            b[col], b[piv] = b[piv], b[col]
        for r in range(col + 1, n):
            f = A[r, col] / A[col, col]
            if f != 0.0:
                for j in range(col, n):
                    A[r, j] -= f * A[col, j]
                b[r] -= f * b[col]
    for col in range(n - 1, -1, -1):
        acc = b[col]
        for j in range(col + 1, n):
            acc -= A[col, j] * b[j]
        b[col] = acc / A[col, col]
    return True


@jit
def _polish(G, idx, m, c, k, mu, g, tol):
    """Exact optimum from the support of an approximate one (active-set steps).

    Solves the KKT system of the QP restricted to ``{t : mu_t > 0}`` with the simplex
    equality and drops coordinates that come out non-positive; when the result is not
    optimal on the whole set, the coordinate with the smallest gradient (the most
    violated KKT condition) joins the support and the system is solved again, at most
    ``_POLISH_ADDS`` times. The result is kept only if it is feasible and its
    Frank-Wolfe gap is at most ``tol`` (so it is optimal to round-off). Returns
    ``(value, gap, polished)``; on failure ``mu`` and ``g`` are unchanged.
    """
    support = np.empty(m, dtype=np.int64)
    in_sup = np.zeros(m, dtype=np.bool_)
    n_sup = 0
    for t in range(m):
        if mu[t] > 0.0:
            support[n_sup] = t
            in_sup[t] = True
            n_sup += 1
    old_mu = mu[:m].copy()
    n_adds = 0
    while n_sup > 0:
        A = np.empty((n_sup + 1, n_sup + 1))
        b = np.empty(n_sup + 1)
        for a in range(n_sup):
            ia = idx[support[a]]
            for e in range(n_sup):
                A[a, e] = 2.0 * G[ia, idx[support[e]]]
            A[a, n_sup] = -1.0
            A[n_sup, a] = 1.0
            b[a] = 2.0 * c[support[a]]
        A[n_sup, n_sup] = 0.0
        b[n_sup] = 1.0
        if not _solve_dense(A, b):
            break
        n_keep = 0
        for a in range(n_sup):
            if b[a] > 0.0:
                support[n_keep] = support[a]
                n_keep += 1
            else:
                in_sup[support[a]] = False
        if n_keep < n_sup:
            n_sup = n_keep
            continue
        for t in range(m):
            mu[t] = 0.0
        for a in range(n_sup):
            mu[support[a]] = b[a]
        _gradient(G, idx, m, c, mu, g)
        mug = 0.0
        cmu = 0.0
        gmin = np.inf
        t_min = -1
        for t in range(m):
            mug += mu[t] * g[t]
            cmu += c[t] * mu[t]
            if g[t] < gmin:
                gmin = g[t]
                t_min = t
        value = 0.5 * mug - cmu + k
        gap = mug - gmin
        if gap <= tol:
            return value, gap, True
        if n_adds >= _POLISH_ADDS or in_sup[t_min]:
            break
        support[n_sup] = t_min
        in_sup[t_min] = True
        n_sup += 1
        n_adds += 1
    for t in range(m):
        mu[t] = old_mu[t]
    _gradient(G, idx, m, c, mu, g)
    return np.inf, np.inf, False


@jit
def _check_point(G, i, idx, m, mu, g, c, work, eps, tol, max_iter, full):
    """CheckPoint(x_i, idx[:m]): (value <= eps, value); ``mu[:m]`` holds the weights.

    Decision mode (``full=False``) stops as soon as the answer is certain; ``full=True``
    solves to ``tol`` unless the optimum is certified above ``eps``. ``work`` is scratch
    space of shape (4, n).
    """
    for s in range(m):
        c[s] = G[i, idx[s]]
    k = G[i, i]
    accept = -np.inf if full else eps
    warm = _FALSE
    if m > 2 * _N_NEAR:
        # The _N_NEAR members nearest to x_i, found in O(m) through one partition.
        dist = work[0, :m]
        for s in range(m):
            dist[s] = G[idx[s], idx[s]] - 2.0 * c[s]
        scratch = work[3, :m]  # free until near_g below
        for s in range(m):
            scratch[s] = dist[s]
        cut = kth_smallest_inplace(scratch, _N_NEAR - 1)
        near = np.empty(_N_NEAR, dtype=np.int64)
        n_near = np.int64(0)
        for s in range(m):
            if dist[s] <= cut and n_near < _N_NEAR:
                near[n_near] = s
                n_near += 1
        near_idx = np.empty(n_near, dtype=np.int64)  # a loop: fancy indexing compiles slowly
        for s in range(n_near):
            near_idx[s] = idx[near[s]]
        near_c = work[1, :n_near]
        for s in range(n_near):
            near_c[s] = c[near[s]]
        near_mu = work[2, :n_near]
        near_g = work[3, :n_near]
        # Only a warm start (or an early TRUE): a loose solve suffices.
        near_tol = max(tol, _NEAR_RTOL * eps)
        value, _, _, _ = solve_simplex_qp(
            G,
            near_idx,
            n_near,
            near_c,
            k,
            near_mu,
            near_g,
            near_tol,
            max_iter,
            accept,
            np.inf,
            _FALSE,
        )
        if not full and value <= eps:
            return True, value
        for s in range(m):
            mu[s] = 0.0
        for s in range(n_near):
            mu[near[s]] = near_mu[s]
        warm = _TRUE
    exact_tol = _EXACT_GAP * (1.0 + abs(k))
    if full:
        # A loose solve usually finds (nearly) the optimal support and the exact
        # active-set step finishes it; otherwise solve to ``tol`` and try again.
        loose = max(tol, _NEAR_RTOL * eps)
        if loose > tol:
            value, gap, n_iter, status = solve_simplex_qp(
                G, idx, m, c, k, mu, g, loose, max_iter, accept, eps, warm
            )
            if status == STATUS_REJECTED:
                return False, value
            exact, exact_gap, polished = _polish(G, idx, m, c, k, mu, g, exact_tol)
            if polished and exact <= value:
                return exact <= eps, exact
            warm = _TRUE
    value, gap, n_iter, status = solve_simplex_qp(
        G, idx, m, c, k, mu, g, tol, max_iter, accept, eps, warm
    )
    if full and status != STATUS_REJECTED:
        # Finish exactly: the solve has (almost always) found the optimal support.
        exact, exact_gap, polished = _polish(G, idx, m, c, k, mu, g, exact_tol)
        if polished and exact <= value:
            value = exact
            status = STATUS_CONVERGED
    # Unresolved at max_iter: only a certified value <= eps counts as TRUE (conservative).
    return value <= eps and status != STATUS_REJECTED, value


@jit
def _sort_by_descending(order, m, key):
    """Stable in-place sort of ``order[:m]`` by descending ``key[order]`` (insertion sort).

    O(m^2) in the worst case, a millisecond for a group of 1,000 points, and it compiles
    in a fraction of the second that Numba's ``argsort(kind="mergesort")`` takes, which
    counts in every new environment's first fit.
    """
    for a in range(1, m):
        item = order[a]
        value = key[item]
        b = a - 1
        while b >= 0 and key[order[b]] < value:
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = item


@jit
def derive_ae(G, n, eps, tol, fit_tol, max_iter, sphere_tol, gamma_out, residual_out, rep_out):
    """DeriveAE (sec. 4.3) on the first ``n`` points of the Gram block ``G``.

    Writes ``rep_out[:n]`` (True for approximate extreme points), ``gamma_out[:n, :n]``
    (row i holds mu^i over the representatives, in local indices; unit rows for the
    representatives) and ``residual_out[:n]`` (the CheckPoint value of step 6, 0 for
    representatives). ``tol`` is the QP accuracy of SphereSet and ``fit_tol`` that of the
    step-6 solves (their value is within ``fit_tol`` of CheckPoint's optimum; steps 3-4 only
    need the certified decision). Returns the number of step-6 repairs (points whose
    CheckPoint against the final representatives exceeded ``eps`` and were therefore made
    representatives).
    """
    Gn = G[:n, :n]
    idx = np.empty(n, dtype=np.int64)
    mu = np.empty(n)
    g = np.empty(n)
    c = np.empty(n)
    work = np.empty((4, n))
    for s in range(n):
        rep_out[s] = False
        residual_out[s] = 0.0
        for t in range(n):
            gamma_out[s, t] = 0.0
    # Step 1: SphereSet = points on the surface of the minimum enclosing ball.
    _, radius2, dist2, gap, _, _ = minimum_enclosing_ball(Gn, tol, max_iter)
    # On the surface up to the solver's accuracy (the gap bounds R^2's error).
    threshold = radius2 - max(sphere_tol, 2.0 * gap)
    in_sphere = np.zeros(n, dtype=np.bool_)
    for s in range(n):
        if dist2[s] >= threshold:
            in_sphere[s] = True
    # Step 2: SphereSort = the others by descending distance from the centre.
    zeta = np.empty(n, dtype=np.int64)
    n_zeta = np.int64(0)
    for s in range(n):
        if not in_sphere[s]:
            zeta[n_zeta] = s
            n_zeta += 1
    _sort_by_descending(zeta, n_zeta, dist2)
    m = np.int64(0)
    for s in range(n):
        if in_sphere[s]:
            idx[m] = s
            m += 1
    n_sphere = m
    # Step 3: grow Psi with the points CheckPoint cannot reconstruct from X* u Psi.
    for z in range(n_zeta):
        i = zeta[z]
        ok, _ = _check_point(Gn, i, idx, m, mu, g, c, work, eps, tol, max_iter, _FALSE)
        if not ok:
            idx[m] = i
            m += 1
    # Step 4: keep the members of Psi that the rest of X* u Psi cannot reconstruct. A member
    # found redundant leaves Psi at once, so later members are not checked against it:
    # otherwise two members reconstructing only each other would both be dropped.
    for s in range(n_sphere):
        rep_out[idx[s]] = True
    others = np.empty(n, dtype=np.int64)
    dropped = np.zeros(n, dtype=np.bool_)
    for p in range(n_sphere, m):
        i = idx[p]
        m_other = np.int64(0)
        for s in range(m):
            if s != p and not dropped[idx[s]]:
                others[m_other] = idx[s]
                m_other += 1
        ok, _ = _check_point(Gn, i, others, m_other, mu, g, c, work, eps, tol, max_iter, _FALSE)
        if not ok:
            rep_out[i] = True
        else:
            dropped[i] = True
    # Steps 5-6: Gamma rows from CheckPoint against the final X*, in SphereSort order.
    m = np.int64(0)
    for s in range(n):
        if rep_out[s]:
            idx[m] = s
            m += 1
    n_repairs = 0
    for z in range(n_zeta):
        i = zeta[z]
        if rep_out[i]:
            continue
        ok, value = _check_point(Gn, i, idx, m, mu, g, c, work, eps, fit_tol, max_iter, _TRUE)
        if ok:
            residual_out[i] = max(value, 0.0)
            for s in range(m):
                gamma_out[i, idx[s]] = mu[s]
        else:
            # Step 4 may drop points that reconstructed each other; keeping (9) needs i back.
            rep_out[i] = True
            idx[m] = i
            m += 1
            n_repairs += 1
    for s in range(n):
        if rep_out[s]:
            gamma_out[s, s] = 1.0
    return n_repairs
