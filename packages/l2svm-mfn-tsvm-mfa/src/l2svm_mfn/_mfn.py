"""L2-SVM-MFN, the modified finite Newton method (Sindhwani & Keerthi 2006, Table 1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from svmcore.docstrings import fill_doc
from svmcore.linalg import (
    MFNStep,
    RowProducts,
    cgls,
    jacobi_preconditioner,
    line_search,
    mfn_step,
    mfn_step_is_serial,
    squared_hinge_value,
)
from svmcore.reporting import Recorder
from svmcore.solvers import TimeBudget
from svmcore.typing import ArrayLike, MatrixLike

from ._docs import DOCS

__all__ = ["MFNResult", "l2svm_mfn", "squared_hinge_objective"]

#: Table 1's first-stage CGLS tolerance and iteration cap (unseeded start only).
BIG_EPSILON = 1e-2
SMALL_CG_MAX_ITER = 10
#: SVMlin v1.0's relative stopping criterion (RELATIVE_STOP_EPS): stop when a Newton
#: step changes the objective by less than this fraction. Not in the paper's Table 1.
RELATIVE_STOP = 1e-9


@fill_doc(DOCS)
class MFNResult(NamedTuple):
    """Result of :func:`l2svm_mfn`.

    Parameters
    ----------
    %(result_w_outputs)s
    n_iter : int
        Newton iterations (CGLS calls).
    n_cg_iter : int
        Total CGLS iterations.
    converged : bool
        Whether Table 1's optimality conditions held within ``max_iter``.
    history : list of dict
        One record per Newton iteration: ``iter``, ``cg_iter``, ``cg_converged``,
        ``n_active``, ``delta`` (None for the final or tolerance-switch iteration),
        ``objective`` (after the step), ``time`` (seconds since the call started).
    """

    w: np.ndarray
    outputs: np.ndarray
    n_iter: int
    n_cg_iter: int
    converged: bool
    history: list


@fill_doc(DOCS)
def squared_hinge_objective(
    w: np.ndarray,
    outputs: np.ndarray,
    y: np.ndarray,
    cost: np.ndarray,
    lam: float | np.ndarray,
) -> float:
    r"""Evaluate :math:`\tfrac12 w^T\Lambda w + \tfrac12\sum_i c_i\max(0, 1 - y_i o_i)^2`.

    Parameters
    ----------
    %(objective_w_outputs)s
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    %(objective_cost_lam)s
    """
    # max(0, 1 - y o) and c max(...)^2 in two buffers (MFA's duplicated problem has 2n
    # rows): the same operations in the same order as the one-line numpy expression.
    margin = y * outputs
    np.subtract(1.0, margin, out=margin)
    np.maximum(0.0, margin, out=margin)
    loss = cost * margin
    loss *= margin
    # Sums of products, not ``@``: the BLAS's threaded dot is slow on a loaded machine.
    return 0.5 * float(np.sum(lam * w * w)) + 0.5 * float(np.sum(loss))


def newton_point(X, target, cost, lam, w, o, rows, intercept, epsilon, cg_cap, preconditioner):
    """Table 1's Newton point: CGLS (Table 2) on the active ``rows``, seeded at ``w``.

    Shared by L2-SVM-MFN and MFA's OPTIMIZE-W, which differ only in the targets, costs
    and active rows they pass. ``preconditioner="jacobi"`` is the option beyond the paper.
    """
    m_inv = None
    if preconditioner == "jacobi":
        m_inv = jacobi_preconditioner(X, cost, lam, rows=rows, intercept=intercept)
    return cgls(
        X,
        target,
        cost,
        lam,
        w,
        rows=rows,
        intercept=intercept,
        epsilon=epsilon,
        max_iter=cg_cap,
        preconditioner=m_inv,
        outputs0=o,
        check_input=False,
    )


def _python_step(X, y, cost, lam, w, o, intercept, epsilon, cg_cap, check, preconditioner):
    """Table 1's iteration as Python over svmcore's kernels (parallel products, or the
    Jacobi option): what :func:`svmcore.linalg.mfn_step` computes in one call."""
    positive = cost > 0
    active = positive & (y * o < 1.0)
    rows = np.flatnonzero(active)
    res = newton_point(X, y, cost, lam, w, o, rows, intercept, epsilon, cg_cap, preconditioner)
    w_bar, o_bar = res.beta, res.outputs
    margins = y * o_bar
    optimal = bool(
        res.converged
        and np.all(margins[rows] <= 1.0 + check)
        and np.all(margins[positive & ~active] >= 1.0 - check)
    )
    if optimal:
        value = squared_hinge_objective(w_bar, o_bar, y, cost, lam)
        return MFNStep(w_bar, o_bar, res.n_iter, res.converged, rows.size, True, 0.0, w, o, value)
    delta = line_search(w, w_bar, lam, o, o_bar, y, cost, check_input=False)
    w_new = w + delta * (w_bar - w)
    o_new = o + delta * (o_bar - o)
    value = squared_hinge_objective(w_new, o_new, y, cost, lam)
    return MFNStep(w_bar, o_bar, res.n_iter, res.converged, rows.size, False, delta, w_new, o_new,
                   value)  # fmt: skip


def l2svm_mfn(
    X: MatrixLike,
    y: np.ndarray,
    cost: np.ndarray,
    lam: float | np.ndarray,
    *,
    intercept: bool = True,
    w0: ArrayLike | None = None,
    outputs0: np.ndarray | None = None,
    tol: float = 1e-6,
    tau: float = 1e-6,
    max_iter: int = 50,
    cg_max_iter: int = 10000,
    preconditioner: str | None = None,
    rel_tol: float = RELATIVE_STOP,
    budget: TimeBudget | None = None,
    report: Callable[[dict[str, Any]], object] | None = None,
) -> MFNResult:
    r"""Minimize the weighted squared-hinge objective by L2-SVM-MFN (Table 1).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features) or csr_matrix
        Validated data (float32 or float64; never copied or densified).
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1} as float64.
    cost : ndarray of shape (n_samples,)
        Non-negative costs :math:`c_i` (float64); zero-cost rows are ignored.
    lam : float or ndarray of shape (dim,)
        Regularization; a vector with a 0 last entry leaves the bias unregularized.
    intercept : bool, default=True
        Append the constant feature (SVMlin's bias).
    w0 : ndarray of shape (dim,), default=None
        Seed. With a seed Table 1 starts directly with the tight tolerance.
    outputs0 : ndarray of shape (n_samples,), default=None
        ``X w0`` if known.
    tol : float, default=1e-6
        CGLS tolerance :math:`\epsilon` of the second stage.
    tau : float, default=1e-6
        Tolerance :math:`\tau` of the optimality conditions.
    max_iter : int, default=50
        ``itermax``.
    cg_max_iter : int, default=10000
        ``cgitermax`` of the second stage.
    preconditioner : {None, "jacobi"}, default=None
        Jacobi-preconditioned CGLS (beyond the paper); None is Table 2 exactly.
    rel_tol : float, default=1e-9
        Also stop (converged) when a line-search step changes the objective by less
        than ``rel_tol`` relative, as SVMlin v1.0 does; 0 disables it.
    budget : svmcore.solvers.TimeBudget, default=None
        The fit's time limit: no Newton iteration starts after its deadline (the
        current ``w`` is returned with ``converged=False``).
    report : callable or None, default=None
        Called with each history record as the iteration ends (what ``verbose``
        prints through :class:`svmcore.reporting.TablePrinter`).

    Returns
    -------
    result : MFNResult
        Weights, outputs, iteration counts, convergence flag and history.

    Notes
    -----
    The optimality check after each CGLS call is Table 1's, with tolerance ``tau``
    in the final stage; during the loose first stage (:math:`\epsilon = 10^{-2}`) it
    uses :math:`\max(\tau, \epsilon)`, as SVMlin v1.0 does, since a loose CGLS
    solution cannot meet :math:`\tau = 10^{-6}` and the stage would not end.
    """
    n = y.shape[0]
    ops = RowProducts(X, intercept)
    dim = ops.dim
    if w0 is None:
        w = np.zeros(dim)
        o = np.zeros(n)
        epsilon, cg_cap = BIG_EPSILON, SMALL_CG_MAX_ITER
    else:
        w = np.array(w0, dtype=np.float64)
        o = ops.matvec(w, np.arange(n, dtype=np.intp)) if outputs0 is None else outputs0.copy()
        epsilon, cg_cap = tol, cg_max_iter

    log = Recorder(report)
    history = log.records
    n_cg_iter = 0
    converged = False
    n_iter = 0
    # Small problems (serial products): each iteration is one Numba call, same iterates.
    one_call = preconditioner is None and mfn_step_is_serial(X)
    if w0 is None and cost.flags.c_contiguous:
        # every margin is 1 at w = 0: sum(cost) / 2, the same bits as squared_hinge_value
        # (whose kernel a default first fit then does not compile on its own)
        objective = 0.5 * float(np.sum(cost))
    else:
        value = squared_hinge_value if one_call else squared_hinge_objective
        objective = value(w, o, y, cost, lam)
    while n_iter < max_iter:
        if budget is not None and budget.expired():
            break  # the time limit: keep the current (feasible) w, converged stays False
        n_iter += 1
        check = max(tau, epsilon) if epsilon == BIG_EPSILON else tau
        if one_call:
            step = mfn_step(
                X, y, cost, lam, w, o, intercept=intercept, epsilon=epsilon,
                cg_max_iter=cg_cap, check=check,
            )  # fmt: skip
        else:
            step = _python_step(X, y, cost, lam, w, o, intercept, epsilon, cg_cap, check,
                                preconditioner)  # fmt: skip
        n_cg_iter += step.n_cg_iter
        if cg_cap == SMALL_CG_MAX_ITER:
            cg_cap = cg_max_iter
        record = {
            "iter": n_iter,
            "cg_iter": step.n_cg_iter,
            "cg_converged": step.cg_converged,
            "n_active": step.n_active,
            "delta": None,
        }
        if step.optimal:
            if epsilon == BIG_EPSILON and tol < BIG_EPSILON:
                epsilon = tol
                record["objective"] = objective  # still at (w, o)
                log(record)
                continue
            w, o = step.w_bar, step.outputs_bar
            record["objective"] = step.objective  # at the Newton point
            log(record)
            converged = True
            break
        w, o = step.w, step.outputs
        record["delta"] = step.delta
        previous, objective = objective, step.objective
        record["objective"] = objective
        log(record)
        if abs(objective - previous) < rel_tol * abs(previous):
            converged = True
            break
    return MFNResult(w, o, n_iter, n_cg_iter, converged, history)
