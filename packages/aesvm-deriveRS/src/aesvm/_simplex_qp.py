"""The simplex-constrained QP of DeriveRS, in Numba: CheckPoint's QP and the minimum
enclosing ball (hard-margin SVDD), with an exact active-set finish.
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

from svmcore.numba_config import jit

__all__ = [
    "STATUS_ACCEPTED",
    "STATUS_CONVERGED",
    "STATUS_MAX_ITER",
    "STATUS_REJECTED",
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


#: Coordinates the exact step may add to the support before giving up.
_POLISH_ADDS = 8
#: Relative pivot below which the support's KKT system counts as singular.
_PIVOT_RTOL = 1e-12


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
