"""The aggregated S3VM problem (15) as a mixed-integer convex QP, solved to proven optimality.

SCIP (through ``pyscipopt``) solves the big-M form (14) of Bennett and Demiriz on the
aggregated entries, with ``w`` written in an orthonormal basis of the entries' span and
the convex term ``0.5 ||w||^2`` moved to separable quadratic constraints
``t_j >= 0.5 c_j^2`` (SCIP's objective is linear). Big-M and the variable bounds are derived
from the data (:func:`big_m_bound`). With the labels fixed, (15) is a weighted SVM, solved to
a certified gap by svmcore's Newton solver (:func:`weighted_svm_qp`, ``_s3vm_qp.py``): the
incumbents of the local search and the polish of SCIP's answer.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from svmcore.solvers import SolverError

from ._s3vm_qp import aggregated_objective, weighted_svm_qp
from ._s3vm_split import lemma1_labels
from ._scip_model import new_scip_model

__all__ = [
    "MIQPResult",
    "aggregated_objective",
    "big_m_bound",
    "solve_aggregated_miqp",
    "weighted_svm_qp",
]


def big_m_bound(X_l, y_l, cost_l, X_u, upper, *, balance=None):
    """Bounds ``R >= ||w||``, ``B >= |b|`` and ``M >= 1 + |w x_k + b|`` at every optimum.

    Any optimum of (15) has objective <= ``upper`` (the value of a feasible point), so
    ``0.5 ||w||^2 <= upper`` gives ``||w|| <= R = sqrt(2 upper)``. Every labeled term is
    <= ``upper`` too: for a cluster of the negative class, ``c_k (1 + w x_k + b) <= upper``
    gives ``b <= upper / c_k - 1 + R ||x_k||``; the positive class bounds ``-b`` alike, so
    ``|b| <= B`` = the larger of the two minima. Then ``|w x_k + b| <= R ||x_k|| + B`` on
    every unlabeled entry and ``M_k = 1 + R ||x_k|| + B`` makes the big-M rows of (14)
    exact on the region that holds all optima. With the balance constraint
    ``x_bar w + b = target`` also ``|b| <= |target| + R ||x_bar||``; the smaller bound
    is used.

    Returns
    -------
    R, B : float
    M : ndarray of shape (K_u,)
        One big-M per unlabeled entry (``1 + R ||x_k|| + B``; the tighter, the stronger
        the relaxation).
    """
    R = math.sqrt(2.0 * max(upper, 0.0))
    norms_l = np.linalg.norm(X_l, axis=1)
    slack = upper / cost_l - 1.0 + R * norms_l
    b_hi = slack[y_l < 0].min()
    b_lo = slack[y_l > 0].min()
    B = max(b_hi, b_lo, 0.0)
    if balance is not None:
        B = min(B, abs(float(balance[1])) + R * float(np.linalg.norm(balance[0])))
    # Round-off margin so that the incumbent attaining ``upper`` stays inside the box.
    pad = 1e-7 * (1.0 + R + B)
    R, B = R + pad, B + pad
    M = 1.0 + R * np.linalg.norm(X_u, axis=1) + B
    return R, B, M


@dataclass
class MIQPResult:
    """Outcome of :func:`solve_aggregated_miqp`.

    Attributes
    ----------
    w, b : ndarray of shape (m,), float
        The solution, polished: the exact weighted-SVM optimum for SCIP's labels.
    d : ndarray of shape (K_u,) in {-1, +1}
        Lemma 1 labels of the unlabeled aggregated entries at ``(w, b)``.
    objective : float
        F^t: (15) evaluated at ``(w, b, d)``.
    scip_objective, dual_bound : float
        SCIP's primal value and its proven lower bound on (15).
    mip_gap : float
        ``(objective - dual_bound) / |objective|`` (0 when proven optimal).
    status : str
        SCIP's status (``optimal``, ``gaplimit``, ``timelimit``, ...).
    n_nodes : int
    solve_time : float
    big_M, R, B : float
        The largest big-M constant and the bounds on ``||w||`` and ``|b|`` used.
    polished : bool
        False if the polishing QP failed, so SCIP's own point is returned.
    """

    w: np.ndarray
    b: float
    d: np.ndarray
    objective: float
    scip_objective: float
    dual_bound: float
    mip_gap: float
    status: str
    n_nodes: int
    solve_time: float
    big_M: float
    R: float
    B: float
    polished: bool = True

    @property
    def proven_optimal(self) -> bool:
        """Whether SCIP closed the gap (to its ``mip_gap`` tolerance)."""
        return self.status in ("optimal", "gaplimit")


def solve_aggregated_miqp(
    X_l,
    y_l,
    cost_l,
    X_u,
    cost_u,
    *,
    balance=None,
    incumbents=(),
    time_limit=None,
    mip_gap=1e-6,
    scip_params=None,
):
    """Solve (15): labeled entries with known labels, unlabeled ones with binary labels.

    .. math::

        \\min \\tfrac12 \\|w\\|^2 + \\sum_{k \\in K_l} c_k \\xi_k
        + \\sum_{k \\in K_u} c_k (\\eta^+_k + \\eta^-_k) \\quad \\text{s.t.} \\quad
        y_k (w x_k + b) \\ge 1 - \\xi_k, \\;
        w x_k + b + \\eta^+_k + M (1 - d_k) \\ge 1, \\; 0 \\le \\eta^+_k \\le M d_k, \\;
        -(w x_k + b) + \\eta^-_k + M d_k \\ge 1, \\; 0 \\le \\eta^-_k \\le M (1 - d_k),

    with ``d_k`` binary (1 = class +1), ``c_k`` = penalty x cluster size.

    Parameters
    ----------
    X_l, y_l, cost_l : labeled aggregated entries, labels in {-1, +1}, weights.
    X_u, cost_u : unlabeled aggregated entries and weights.
    balance : tuple (x_bar, target) or None
        ``x_bar @ w + b = target`` (sec. 4.3 balance constraint).
    incumbents : sequence of (w, b)
        Feasible hyperplanes; the best one bounds M and is given to SCIP as a start.
    time_limit : float or None
        Seconds for SCIP; on expiry the best solution found is returned with its gap.
    mip_gap : float
        SCIP's relative gap limit (``limits/gap``).
    scip_params : dict or None
        Further SCIP parameters (name -> value), e.g. ``{"limits/nodes": 1000}``.

    Returns
    -------
    MIQPResult
    """
    try:
        import pyscipopt
    except ImportError as exc:
        raise ImportError(
            "The S3VM aggregated problem is solved by SCIP: install pyscipopt "
            "(pip install 'aid-lad-svm-s3vm[s3vm]')."
        ) from exc

    start = time.perf_counter()
    K_l, m = X_l.shape
    K_u = X_u.shape[0]
    X_all = np.vstack([X_l, X_u])
    y_all = np.r_[np.asarray(y_l, dtype=np.float64), np.zeros(K_u)]
    cost_all = np.r_[cost_l, cost_u]
    if not incumbents:
        raise ValueError("solve_aggregated_miqp needs at least one feasible incumbent (w, b).")
    values = [aggregated_objective(w, b, X_all, y_all, cost_all) for w, b in incumbents]
    best = int(np.argmin(values))
    # A good incumbent is what makes big-M small (M grows like sqrt(upper bound)).
    w0, b0, upper = _local_search(
        *incumbents[best], values[best], X_all, y_l, X_u, cost_all, y_all, balance
    )
    R, B, M = big_m_bound(X_l, y_l, cost_l, X_u, upper, balance=balance)

    # An optimal w lies in the span of the aggregated entries (and of x_bar): any other
    # component raises ||w|| without changing a score. Solving for the coordinates c of
    # w = V c in an orthonormal basis V of that span (thin SVD) is exact, shrinks the
    # continuous part from m to rank <= |K^t| variables, and lets 0.5 ||w||^2 = 0.5 ||c||^2
    # split into one epigraph t_j >= 0.5 c_j^2 per coordinate, which SCIP's outer
    # approximation handles far better than one m-dimensional quadratic.
    V = _span_basis(X_all if balance is None else np.vstack([X_all, balance[0]]))
    P_l, P_u = X_l @ V, X_u @ V
    r = V.shape[1]

    model = new_scip_model(pyscipopt, "aggregated_s3vm")
    model.setParam("limits/gap", float(mip_gap))
    if time_limit is not None:
        model.setParam("limits/time", max(float(time_limit), 1e-3))
    for name, value in (scip_params or {}).items():
        model.setParam(name, value)
    c = [model.addVar(lb=-R, ub=R, name=f"c{j}") for j in range(r)]
    b = model.addVar(lb=-B, ub=B, name="b")
    t = [model.addVar(lb=0.0, name=f"t{j}") for j in range(r)]
    xi = [model.addVar(lb=0.0, name=f"xi{k}") for k in range(K_l)]
    d = [model.addVar(vtype="B", name=f"d{k}") for k in range(K_u)]
    ep = [model.addVar(lb=0.0, name=f"ep{k}") for k in range(K_u)]
    en = [model.addVar(lb=0.0, name=f"en{k}") for k in range(K_u)]
    for j in range(r):
        model.addCons(t[j] >= 0.5 * c[j] * c[j])

    def score(p):
        return pyscipopt.quicksum(float(p[j]) * c[j] for j in np.flatnonzero(p)) + b

    for k in range(K_l):
        model.addCons(float(y_l[k]) * score(P_l[k]) + xi[k] >= 1.0)
    for k in range(K_u):
        s = score(P_u[k])
        Mk = float(M[k])
        model.addCons(s + ep[k] + Mk * (1 - d[k]) >= 1.0)
        model.addCons(ep[k] <= Mk * d[k])
        model.addCons(-s + en[k] + Mk * d[k] >= 1.0)
        model.addCons(en[k] <= Mk * (1 - d[k]))
    if balance is not None:
        x_bar, target = balance
        model.addCons(score(x_bar @ V) == float(target))
    model.setObjective(
        pyscipopt.quicksum(t)
        + pyscipopt.quicksum(float(cost_l[k]) * xi[k] for k in range(K_l))
        + pyscipopt.quicksum(float(cost_u[k]) * (ep[k] + en[k]) for k in range(K_u))
    )
    _add_start(model, V.T @ w0, b0, P_l, y_l, P_u, (c, b, t, xi, d, ep, en))

    model.optimize()
    status = model.getStatus()
    if model.getNSols() == 0:
        raise SolverError(f"SCIP found no solution of the aggregated S3VM problem ({status}).")
    sol = model.getBestSol()
    w_val = V @ np.array([model.getSolVal(sol, cj) for cj in c])
    b_val = float(model.getSolVal(sol, b))
    scip_obj = float(model.getSolObjVal(sol))
    dual = float(model.getDualbound())
    n_nodes = int(model.getNNodes())

    # Polish: with SCIP's labels fixed, (15) is a weighted SVM whose optimum (certified to
    # a relative gap of 1e-9, at worst 1e-6) removes SCIP's feasibility-tolerance noise. It
    # is a convex problem of the aggregated size, so it is not time-limited.
    d_lab = lemma1_labels(X_u @ w_val + b_val)
    obj_s = aggregated_objective(w_val, b_val, X_all, y_all, cost_all)
    try:
        w_p, b_p, _ = weighted_svm_qp(X_all, np.r_[y_l, d_lab], cost_all, balance=balance)
        obj_p = aggregated_objective(w_p, b_p, X_all, y_all, cost_all)
    except SolverError:
        obj_p = math.inf
    # The polished point is exactly feasible and optimal for SCIP's labels (to its
    # certified gap); SCIP's own point can only look better by violating a constraint
    # within SCIP's tolerance.
    polished = math.isfinite(obj_p)
    if not polished:
        w_p, b_p, obj_p = w_val, b_val, obj_s
    d_final = lemma1_labels(X_u @ w_p + b_p)
    gap = max(obj_p - dual, 0.0) / max(abs(obj_p), 1e-300)
    return MIQPResult(
        w=w_p,
        b=b_p,
        d=d_final,
        objective=obj_p,
        scip_objective=scip_obj,
        dual_bound=dual,
        mip_gap=gap,
        status=status,
        n_nodes=n_nodes,
        solve_time=time.perf_counter() - start,
        big_M=float(M.max(initial=0.0)),
        polished=polished,
        R=R,
        B=B,
    )


def _local_search(w, b, value, X, y_l, X_u, cost, y_all, balance, max_rounds=10):
    """Improve a feasible ``(w, b)``: relabel by Lemma 1, refit the weighted SVM, repeat.

    Each round cannot increase (15) (the QP is optimal for its labels, Lemma 1 optimal
    for its hyperplane); stops when the labels repeat. Returns ``(w, b, value)``.
    """
    labels = None
    for _ in range(max_rounds):
        new = lemma1_labels(X_u @ w + b)
        if labels is not None and np.array_equal(new, labels):
            break
        labels = new
        try:
            w1, b1, _ = weighted_svm_qp(X, np.r_[y_l, labels], cost, balance=balance)
        except SolverError:
            break
        v1 = aggregated_objective(w1, b1, X, y_all, cost)
        if v1 >= value:
            break
        w, b, value = w1, b1, v1
    return w, b, value


def _span_basis(Z):
    """Orthonormal basis (m x rank) of the row space of ``Z`` by a thin SVD."""
    _, S, Vt = np.linalg.svd(Z, full_matrices=False)
    if S.size == 0 or S[0] == 0.0:
        return np.zeros((Z.shape[1], 0))
    keep = S > S[0] * max(Z.shape) * np.finfo(np.float64).eps
    return Vt[keep].T


def _add_start(model, c0, b0, P_l, y_l, P_u, variables):
    """Give SCIP the incumbent ``(V c0, b0)`` with its Lemma 1 labels as a start solution."""
    c, b, t, xi, d, ep, en = variables
    s_l = P_l @ c0 + b0
    s_u = P_u @ c0 + b0
    sol = model.createSol()
    for j, cj in enumerate(c):
        model.setSolVal(sol, cj, float(c0[j]))
        # A relative pad keeps t_j above 0.5 c_j^2 after SCIP's own round-off.
        model.setSolVal(sol, t[j], 0.5 * float(c0[j]) ** 2 * (1.0 + 1e-9) + 1e-12)
    model.setSolVal(sol, b, float(b0))
    for k in range(len(xi)):
        model.setSolVal(sol, xi[k], float(max(0.0, 1.0 - y_l[k] * s_l[k])))
    for k in range(len(d)):
        pos = s_u[k] > 0.0
        model.setSolVal(sol, d[k], 1.0 if pos else 0.0)
        model.setSolVal(sol, ep[k], float(max(0.0, 1.0 - s_u[k])) if pos else 0.0)
        model.setSolVal(sol, en[k], 0.0 if pos else float(max(0.0, 1.0 + s_u[k])))
    model.addSol(sol, free=True)
