"""Jitted passes of :class:`svmcore.kernels.RBFSum`: clustering, moments, evaluation.

The expansion (Yang, Duraiswami & Gumerov's improved fast Gauss transform) about a
centre ``c``, with ``s = sqrt(2 gamma)``, ``u = s (x - c)``, ``v = s (y - c)``::

    exp(-gamma |x - y|^2) = exp(-gamma |x - c|^2) exp(-gamma |y - c|^2) exp(u . v)
    exp(u . v) = sum_{|a| < p} u^a v^a / a!  +  R_p,   |R_p| <= |u.v|^p / p! exp(|u.v|)

Monomials ``u^a`` of degree < p are built in graded order, each as its parent's times one
coordinate (tables ``parent``, ``var``), so a target costs one multiplication per term.
"""

import math

import numpy as np
from numba import prange

from ..numba_config import jit, jit_parallel, jit_strict

__all__ = ["farthest_point_clusters", "taylor_evaluate", "taylor_moments"]


@jit(inline="always")
def _offset(A, i, B, j, scale, out):
    """``out <- scale (A[i] - B[j])``; returns ``|A[i] - B[j]|^2``."""
    total = 0.0
    for t in range(A.shape[1]):
        e = A[i, t] - B[j, t]
        total += e * e
        out[t] = scale * e
    return total


@jit
def farthest_point_clusters(Y, radius, max_clusters):
    """Gonzalez's farthest-point clustering until every point is within ``radius``.

    Returns ``(centres, labels, radii)``: at most ``max_clusters`` centres (sample rows),
    each point's centre, and each cluster's largest distance to its centre (exact, not
    the target ``radius``: the caller bounds with these).
    """
    m, d = Y.shape
    labels = np.zeros(m, dtype=np.intp)
    dist = np.empty(m)
    picks = np.empty(max_clusters, dtype=np.intp)
    picks[0] = 0
    k = 1
    far = 0
    scratch = np.empty(d)
    for j in range(m):
        dist[j] = _offset(Y, j, Y, 0, 1.0, scratch)
        if dist[j] > dist[far]:
            far = j
    r2 = radius * radius
    while k < max_clusters and dist[far] > r2:
        picks[k] = far
        c = far
        far = 0
        for j in range(m):
            s = _offset(Y, j, Y, c, 1.0, scratch)
            if s < dist[j]:
                dist[j] = s
                labels[j] = k
            if dist[j] > dist[far]:
                far = j
        k += 1
    centres = np.empty((k, d))
    for c in range(k):
        centres[c] = Y[picks[c]]
    radii = np.zeros(k)
    for j in range(m):
        radii[labels[j]] = max(radii[labels[j]], math.sqrt(dist[j]))
    return centres, labels, radii


@jit_strict
def taylor_moments(Y, w, order, starts, centres, parent, var, inv_fact, gamma):
    """Moments ``M[c, a] = sum_j w_j exp(-gamma |y_j - c|^2) v_j^a / a!`` per cluster.

    ``order[starts[c]:starts[c + 1]]`` are cluster c's points. Compensated (Neumaier)
    sums, and no fast-math (it would let LLVM cancel the compensation): the rounding of
    a moment stays about one unit in the last place of the sum of its terms' magnitudes,
    whatever the cluster size. Also returns ``W[c] = sum_j |w_j|`` per cluster.
    """
    k, d = centres.shape
    n_terms = parent.size
    s = math.sqrt(2.0 * gamma)
    moments = np.zeros((k, n_terms))
    comp = np.zeros(n_terms)
    mono = np.empty(n_terms)
    v = np.empty(d)
    weight = np.zeros(k)
    for c in range(k):
        comp[:] = 0.0
        for jj in range(starts[c], starts[c + 1]):
            j = order[jj]
            b2 = _offset(Y, j, centres, c, s, v)
            f = w[j] * math.exp(-gamma * b2)
            weight[c] += abs(w[j])
            mono[0] = 1.0
            for a in range(1, n_terms):
                mono[a] = mono[parent[a]] * v[var[a]]
            for a in range(n_terms):
                term = f * mono[a] * inv_fact[a]
                total = moments[c, a] + term
                if abs(moments[c, a]) >= abs(term):
                    comp[a] += (moments[c, a] - total) + term
                else:
                    comp[a] += (term - total) + moments[c, a]
                moments[c, a] = total
        for a in range(n_terms):
            moments[c, a] += comp[a]
    return moments, weight


@jit_parallel
def taylor_evaluate(X, centres, radii, weight, moments, parent, var, gamma, order, log_skip,
                    rounding, g, err):  # fmt: skip
    """``g[i]`` = the expansion at ``X[i]``, ``err[i]`` a bound on ``|K(x_i, Y) w - g[i]|``.

    Per cluster c with ``a = |x - c|``, ``R = radii[c]``, ``W = weight[c]``:

    * far (``gamma (a - R)^2 >= log_skip[c]``): not summed; every kernel value of the
      cluster is at most ``exp(-gamma (a - R)^2)``, so the error is at most ``W`` times it
      (plus the rounding allowance: at R = 0 the bound is the value itself);
    * near: the truncated series; since ``|u.v| <= 2 gamma a b`` (Cauchy-Schwarz) and
      ``-gamma a^2 - gamma b^2 + 2 gamma a b = -gamma (a - b)^2``, a point at ``b <= R``
      contributes at most ``|w| (2 gamma a R)^p / p! exp(-gamma max(a - R, 0)^2)``;
      ``rounding * W`` covers the rounding of the evaluation (the terms' magnitudes sum
      to at most ``W``, by the same two inequalities).
    """
    n, d = X.shape
    k = centres.shape[0]
    n_terms = parent.size
    s = math.sqrt(2.0 * gamma)
    log_fact = math.lgamma(order + 1.0)
    n_chunks = min(n, 256)
    for chunk in prange(n_chunks):
        mono = np.empty(n_terms)
        u = np.empty(d)
        for i in range(chunk * n // n_chunks, (chunk + 1) * n // n_chunks):
            gi = 0.0
            ei = 0.0
            for c in range(k):
                a2 = _offset(X, i, centres, c, s, u)
                a = math.sqrt(a2)
                gap = max(a - radii[c], 0.0)
                if gamma * gap * gap >= log_skip[c]:
                    ei += weight[c] * (math.exp(-gamma * gap * gap) + rounding)
                    continue
                mono[0] = 1.0
                acc = moments[c, 0]
                for q in range(1, n_terms):
                    mono[q] = mono[parent[q]] * u[var[q]]
                    acc += moments[c, q] * mono[q]
                gi += math.exp(-gamma * a2) * acc
                tail = 0.0
                x = 2.0 * gamma * a * radii[c]
                if x > 0.0:
                    tail = math.exp(order * math.log(x) - log_fact - gamma * gap * gap)
                ei += weight[c] * (tail + rounding)
            g[i] = gi
            err[i] = ei
