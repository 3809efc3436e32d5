"""DeriveAE (Nandan et al. 2014, sec. 4.3, steps 1-7) on one group's Gram block, in Numba.

CheckPoint decides whether a point is within squared kernel distance epsilon of the convex
hull of the current representatives, with the simplex QP of ``_simplex_qp.py`` (warm
started from its nearest members, stopped as soon as the answer is certain, finished
exactly where the weights are needed); DeriveAE grows and prunes the representatives and
writes the Gamma rows of step 6.
"""

import numpy as np

from svmcore.linalg import kth_smallest_inplace
from svmcore.numba_config import jit

from ._simplex_qp import (
    _FALSE,
    _TRUE,
    STATUS_CONVERGED,
    STATUS_REJECTED,
    _polish,
    minimum_enclosing_ball,
    solve_simplex_qp,
)

__all__ = ["derive_ae"]

#: CheckPoint first solves the QP over this many nearest members, then warm-starts the
#: full QP from that solution (the optimum is supported on near neighbours).
_N_NEAR = 24
#: Accuracy (relative to epsilon) of the nearest-members warm start in decision mode.
_NEAR_RTOL = 1e-1
#: Frank-Wolfe gap (relative to k(x, x)) at which a polished solution counts as exact.
_EXACT_GAP = 1e-12


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
