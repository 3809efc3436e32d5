"""Slow, independent references for aesvm's tests: HiGHS QPs and a naive DeriveAE.

Nothing here shares code with the implementation: the kernel comes from
``sklearn.metrics.pairwise`` and every QP is solved by HiGHS (through svmcore's thin
wrapper) instead of aesvm's SMO.
"""

import numpy as np
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel

from svmcore.solvers import solve_qp


def kernel_matrix(X, Y, kernel, gamma=1.0, degree=3, coef0=0.0):
    if kernel == "linear":
        return linear_kernel(X, Y)
    if kernel == "rbf":
        return rbf_kernel(X, Y, gamma=gamma)
    return polynomial_kernel(X, Y, degree=degree, gamma=gamma, coef0=coef0)


def simplex_qp_highs(G, c, k=0.0):
    """min mu^T G mu - 2 c^T mu + k over the simplex, by HiGHS; (mu, value)."""
    m = G.shape[0]
    G = 0.5 * (G + G.T)
    res = solve_qp(
        2.0 * G,
        -2.0 * c,
        A_eq=np.ones((1, m)),
        b_eq=[1.0],
        bounds=[(0.0, 1.0)] * m,
    )
    mu = np.clip(res.x, 0.0, None)
    mu /= mu.sum()
    return mu, float(mu @ G @ mu - 2.0 * c @ mu + k)


def check_point_highs(G, i, members):
    members = np.asarray(members)
    return simplex_qp_highs(G[np.ix_(members, members)], G[i, members], G[i, i])


def derive_ae_naive(G, eps, sphere_tol=1e-7):
    """DeriveAE steps 1-7 (sequential step 4, step-6 repair) with HiGHS CheckPoints.

    Returns the boolean representative mask.
    """
    n = G.shape[0]
    diag = np.diag(G).copy()
    alpha, value = simplex_qp_highs(G, 0.5 * diag)
    radius2 = -value
    dist2 = diag - 2.0 * G @ alpha + alpha @ G @ alpha
    sphere = [s for s in range(n) if dist2[s] >= radius2 - sphere_tol]
    zeta = [s for s in np.argsort(-dist2, kind="mergesort") if s not in sphere]
    members = list(sphere)
    psi = []
    for i in zeta:
        if check_point_highs(G, i, members)[1] > eps:
            members.append(i)
            psi.append(i)
    rep = set(sphere)
    dropped = set()
    for i in psi:
        others = [s for s in members if s != i and s not in dropped]
        if check_point_highs(G, i, others)[1] > eps:
            rep.add(i)
        else:
            dropped.add(i)
    for i in zeta:
        if i in rep:
            continue
        if check_point_highs(G, i, sorted(rep))[1] > eps:
            rep.add(i)
    mask = np.zeros(n, dtype=bool)
    mask[sorted(rep)] = True
    return mask
