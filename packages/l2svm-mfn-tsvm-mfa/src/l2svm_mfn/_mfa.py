"""Mean field annealing with L2-SVM-MFN (Sindhwani & Keerthi 2006, Tables 5-7)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.special import entr, expit, rel_entr

from svmcore.linalg import line_search
from svmcore.numba_config import jit_strict
from svmcore.reporting import Recorder

from ._mfn import (
    BIG_EPSILON,
    RELATIVE_STOP,
    SMALL_CG_MAX_ITER,
    newton_point,
    squared_hinge_objective,
)
from ._tsvm import tsvm_objective

#: (16) and (17) in bits, as SVMlin v1.0 (the authors' code) computes them: the paper's
#: "log" has no base, and natural logarithms stop every loop earlier by a factor ln 2,
#: which sends the annealing down a different path.
_LN2 = float(np.log(2.0))
_BELIEF_CLIP = 1e-8

__all__ = ["MFAResult", "mean_field_annealing", "optimize_p", "optimize_w"]


class MFAResult(NamedTuple):
    """Result of :func:`mean_field_annealing`.

    Attributes
    ----------
    w : ndarray of shape (dim,)
        The weights with the minimum objective (18) on the path.
    outputs : ndarray of shape (n_samples,)
        ``X w`` for that ``w``.
    p : ndarray of shape (u,)
        Final beliefs of the unlabeled rows (positive-class probabilities).
    objective : float
        The minimum of objective (18) seen.
    n_iter : int
        Total OPTIMIZE-W calls after the first.
    history : list of dict
        One record per inner iteration: ``T``, ``outer``, ``inner``, ``kl``,
        ``objective``, ``mfn_iter``, ``p_newton``, ``p_bisect``, ``p_residual``,
        ``time`` (seconds since the call started).
    converged : bool
        Whether every OPTIMIZE-W met its optimality conditions within ``max_iter``
        Newton iterations and the budget did not end the annealing (``max_outer``,
        SVMlin's ``itermax1``, is the end of the temperature schedule, not a failure).
    """

    w: np.ndarray
    outputs: np.ndarray
    p: np.ndarray
    objective: float
    n_iter: int
    history: list
    converged: bool = True


def optimize_p(outputs_u, lam_u, T, r, *, tol=1e-10, max_iter=500):
    r"""OPTIMIZE-P (Table 6): beliefs :math:`p` minimizing (8) for fixed :math:`w` under (9).

    Solves :math:`B(\nu) = \frac1u\sum_j \sigma(-(g_j - \nu)/T) - r = 0` for the
    multiplier :math:`\nu` (the paper's :math:`2\nu`) by Newton-Raphson safeguarded
    by bisection on the bracket :math:`[\nu_-, \nu_+]`, then
    :math:`p_j = 1/(1 + e^{(g_j - \nu)/T})` (15).

    Parameters
    ----------
    outputs_u : ndarray of shape (u,)
        Outputs :math:`o'` of the unlabeled rows.
    lam_u : float
        :math:`\lambda'`.
    T : float
        Temperature.
    r : float
        Positive fraction in (0, 1).
    tol : float, default=1e-10
        Stop when :math:`|B(\nu)| \le` ``tol`` (or the bracket is narrower than ``tol``).
    max_iter : int, default=500

    Returns
    -------
    p : ndarray of shape (u,)
    info : dict
        ``nu``, ``residual`` (:math:`B(\nu)`), ``n_newton``, ``n_bisect``.

    Notes
    -----
    Table 6 as printed loops while :math:`B(\nu) > \epsilon` and writes
    :math:`s_i = e^{-(g_i-\nu)/T}`; both are read here as the text defines them
    (:math:`|B(\nu)| > \epsilon`, :math:`s_i = e^{(g_i-\nu)/T}`, so that
    :math:`B' = \frac{1}{Tu}\sum_i s_i/(1+s_i)^2 > 0`), and bisection takes the
    midpoint of the current bracket. The logistic is evaluated stably (``expit``)
    so a huge :math:`s_i` contributes 0 to :math:`B'`, as the table asks.
    """
    lo_m = np.maximum(0.0, 1.0 - outputs_u)
    hi_m = np.maximum(0.0, 1.0 + outputs_u)
    g = lam_u * (lo_m * lo_m - hi_m * hi_m)
    shift = T * np.log((1.0 - r) / r)
    nu_lo, nu_hi = g.min() - shift, g.max() - shift
    nu = 0.5 * (nu_lo + nu_hi)

    def evaluate(nu):
        p = expit(-(g - nu) / T)
        return p, p.mean() - r, float((p * (1.0 - p)).mean() / T)

    p, B, dB = evaluate(nu)
    n_newton = n_bisect = 0
    it = 0
    while abs(B) > tol and it < max_iter:
        it += 1
        step_ok = dB > 0.0
        if step_ok:
            nu_new = nu - B / dB
            step_ok = nu_lo <= nu_new <= nu_hi
        if step_ok:
            nu = nu_new
            n_newton += 1
        else:
            nu = 0.5 * (nu_lo + nu_hi)
            n_bisect += 1
        p, B, dB = evaluate(nu)
        if B < 0:
            nu_lo = nu
        else:
            nu_hi = nu
        if abs(nu_hi - nu_lo) < tol:
            break
    return p, {"nu": nu, "residual": B, "n_newton": n_newton, "n_bisect": n_bisect}


@jit_strict
def _unlabeled_system_into(o, unl, p, lam_u, n_u, weight, target, cost):
    """Eq. (14) into rows ``unl`` of ``target`` and ``cost``: one row per unlabeled
    example with its effective target and cost.

    An output with :math:`|o_j| \\ge 1` keeps only the copy with the active loss: label
    +1 (cost :math:`p_j`) when :math:`o_j \\le -1`, label -1 (cost :math:`1 - p_j`) when
    :math:`o_j \\ge 1`; otherwise target :math:`2p_j - 1` at full cost. Costs are times
    :math:`s_j\\lambda'/u`. Written in place: numpy's ``where`` version (the tests'
    reference, equal to the bit) made half a dozen n-sized temporaries.
    """
    for j in range(unl.shape[0]):
        i = unl[j]
        o_i = o[i]
        base = weight[i] * lam_u / n_u
        if abs(o_i) >= 1.0:
            target[i] = -1.0 if o_i > 0.0 else 1.0
            cost[i] = (p[j] if o_i < 0.0 else 1.0 - p[j]) * base
        else:
            target[i] = 2.0 * p[j] - 1.0
            cost[i] = 1.0 * base


def _gather_dup(o, lab, unl, out):
    """``o`` on the duplicated problem's rows [labeled, unlabeled, unlabeled], into ``out``."""
    n_l, n_u = lab.size, unl.size
    np.take(o, lab, out=out[:n_l])
    np.take(o, unl, out=out[n_l : n_l + n_u])
    out[n_l + n_u :] = out[n_l : n_l + n_u]
    return out


def optimize_w(
    X,
    y,
    labeled,
    p,
    lam,
    lam_u,
    *,
    w0=None,
    outputs0=None,
    sample_weight=None,
    intercept=True,
    tol=1e-6,
    tau=1e-8,
    max_iter=50,
    cg_max_iter=10000,
    preconditioner=None,
    objective_tol=None,
):
    r"""OPTIMIZE-W (Table 7): L2-SVM-MFN for (8) at fixed beliefs ``p``.

    CGLS sees every unlabeled row once, with target and cost from eq. (14); the
    line search sees the duplicated problem (11): each unlabeled row as a +1 copy
    with cost :math:`\lambda' p_j/u` and a -1 copy with cost :math:`\lambda'(1-p_j)/u`.
    Stopping as in :func:`l2svm_mfn` (loose first-stage check at
    :math:`\max(\tau, \epsilon)`, SVMlin's relative objective criterion).
    ``objective_tol`` replaces that relative criterion by an absolute one: stop when a
    step changes the objective by less than ``objective_tol``, as SVMlin v1.0's
    ``optimize_w`` does with 1e-6 (its L2-SVM-MFN uses the relative 1e-9).

    Returns
    -------
    w : ndarray of shape (dim,)
    outputs : ndarray of shape (n_samples,)
    n_iter : int
    converged : bool
    """
    n = y.shape[0]
    weight = np.ones(n) if sample_weight is None else sample_weight
    lab = np.flatnonzero(labeled)
    unl = np.flatnonzero(~labeled)
    n_l, n_u = weight[lab].sum(), weight[unl].sum()
    c_lab = weight[lab] / n_l
    dim = X.shape[1] + int(intercept)
    if w0 is None:
        w, o = np.zeros(dim), np.zeros(n)
        epsilon, cg_cap = BIG_EPSILON, SMALL_CG_MAX_ITER
    else:
        w, o = np.array(w0, dtype=np.float64), outputs0.copy()
        epsilon, cg_cap = tol, cg_max_iter

    # The duplicated problem (11) for the line search: [labeled, unlabeled +1, unlabeled -1].
    n_dup = lab.size + 2 * unl.size
    y_dup = np.empty(n_dup)
    y_dup[: lab.size] = y[lab]
    y_dup[lab.size : lab.size + unl.size] = 1.0
    y_dup[lab.size + unl.size :] = -1.0
    c_dup = np.empty(n_dup)
    c_dup[: lab.size] = c_lab
    base = c_dup[lab.size : lab.size + unl.size]  # weight * lam_u / n_u, then * p in place
    np.take(weight, unl, out=base)
    base *= lam_u
    base /= n_u
    np.multiply(base, 1.0 - p, out=c_dup[lab.size + unl.size :])
    base *= p
    del base

    converged = False
    n_iter = 0

    def dup_objective(w_, o_):
        o_dup_ = _gather_dup(o_, lab, unl, np.empty(n_dup))
        return squared_hinge_objective(w_, o_dup_, y_dup, c_dup, lam)

    objective = dup_objective(w, o)
    while n_iter < max_iter:
        n_iter += 1
        lab_active = lab[y[lab] * o[lab] < 1.0]
        # CGLS's system (eq. 14) lives only for this Newton point: freed before the line
        # search, whose duplicated rows are the fit's largest working set.
        target = np.empty(n)
        cost = np.empty(n)
        target[lab] = y[lab]
        cost[lab] = c_lab
        _unlabeled_system_into(o, unl, p, lam_u, n_u, weight, target, cost)
        rows = np.concatenate([lab_active, unl])
        res = newton_point(
            X, target, cost, lam, w, o, rows, intercept, epsilon, cg_cap, preconditioner
        )
        del rows, target, cost
        w_bar, o_bar = res.beta, res.outputs
        if cg_cap == SMALL_CG_MAX_ITER:
            cg_cap = cg_max_iter
        check = max(tau, epsilon) if epsilon == BIG_EPSILON else tau
        optimal = res.converged and _optimal(y, lab, unl, o, o_bar, check)
        if optimal:
            if epsilon == BIG_EPSILON and tol < BIG_EPSILON:
                epsilon = tol
                continue
            w, o = w_bar, o_bar
            converged = True
            break
        # The outputs on the duplicated rows live only for the line search (not through
        # the next CGLS): gathered in place, no concatenated temporaries.
        o_dup = _gather_dup(o, lab, unl, np.empty(n_dup))
        o_bar_dup = _gather_dup(o_bar, lab, unl, np.empty(n_dup))
        delta = line_search(w, w_bar, lam, o_dup, o_bar_dup, y_dup, c_dup, check_input=False)
        del o_dup, o_bar_dup
        w = w + delta * (w_bar - w)
        # o + delta (o_bar - o) as before, in o_bar's buffer (o_bar is not used again)
        np.subtract(o_bar, o, out=o_bar)
        o_bar *= delta
        o = np.add(o, o_bar, out=o_bar)
        previous, objective = objective, dup_objective(w, o)
        stop = RELATIVE_STOP * abs(previous) if objective_tol is None else objective_tol
        if abs(objective - previous) < stop:
            converged = True
            break
    return w, o, n_iter, converged


def _optimal(y, lab, unl, o, o_bar, check):
    """Table 1's optimality check of OPTIMIZE-W's Newton point (labeled rows, then the
    unlabeled ones by whether their current output is outside [-1, 1])."""
    margin_l = y[lab] * o_bar[lab]
    lab_is_active = y[lab] * o[lab] < 1.0
    if not (
        np.all(margin_l[lab_is_active] <= 1.0 + check)
        and np.all(margin_l[~lab_is_active] >= 1.0 - check)
    ):
        return False
    far = np.abs(o[unl]) >= 1.0
    abs_bar = np.abs(o_bar[unl])
    return bool(np.all(abs_bar[far] >= 1.0 - check) and np.all(abs_bar[~far] < 1.0 + check))


def _entropy(p):
    return float((entr(p) + entr(1.0 - p)).sum()) / _LN2


def _kl(p, q):
    # Beliefs underflow to exactly 0 or 1 at low T; clipped as SVMlin does, so one
    # such row does not make the divergence infinite and force max_inner iterations.
    p = np.clip(p, _BELIEF_CLIP, 1.0 - _BELIEF_CLIP)
    q = np.clip(q, _BELIEF_CLIP, 1.0 - _BELIEF_CLIP)
    return float((rel_entr(p, q) + rel_entr(1.0 - p, 1.0 - q)).sum()) / _LN2


def mean_field_annealing(
    X,
    y,
    labeled,
    lam,
    lam_u,
    *,
    positive_fraction,
    T0=10.0,
    temperature_factor=1.5,
    epsilon=1e-6,
    max_outer=30,
    max_inner=100,
    sample_weight=None,
    intercept=True,
    mfn_params=None,
    budget=None,
    report=None,
):
    r"""Mean field annealing for the transductive objective (Table 5).

    For decreasing temperatures :math:`T`, alternate OPTIMIZE-P and OPTIMIZE-W
    until the mean KL divergence (16) between successive beliefs is below
    ``epsilon``; stop lowering :math:`T` when the mean entropy (17) is below
    ``epsilon`` or after ``max_outer`` temperatures. Return the ``w`` with the
    smallest objective (18) seen on the path. With ``budget`` (a
    :class:`svmcore.solvers.TimeBudget`) no OPTIMIZE-W starts after its deadline;
    ``report`` (callable or None) is called with each history record as its inner
    iteration ends (``verbose``).

    Returns
    -------
    result : MFAResult
    """
    mfn_params = dict(mfn_params or {})
    unl = np.flatnonzero(~labeled)
    n_u = unl.size
    r = positive_fraction
    p = np.full(n_u, r)
    h = _entropy(p)
    w, o, _, converged = optimize_w(
        X, y, labeled, p, lam, lam_u, sample_weight=sample_weight, intercept=intercept, **mfn_params
    )
    best_F = tsvm_objective(w, o, y, labeled, lam, lam_u, sample_weight)
    best_w, best_o = w, o
    log = Recorder(report)
    T = T0
    n_iter = 0
    outer = 0
    expired = lambda: budget is not None and budget.expired()  # noqa: E731
    while outer < max_outer and h > n_u * epsilon and not expired():
        outer += 1
        inner = 0
        kl = np.inf
        while inner < max_inner and kl > n_u * epsilon and not expired():
            inner += 1
            q = p
            p, info = optimize_p(o[unl], lam_u, T, r)
            w, o, mfn_iter, solved = optimize_w(
                X,
                y,
                labeled,
                p,
                lam,
                lam_u,
                w0=w,
                outputs0=o,
                sample_weight=sample_weight,
                intercept=intercept,
                **mfn_params,
            )
            n_iter += 1
            converged = converged and solved
            kl = _kl(p, q)
            F = tsvm_objective(w, o, y, labeled, lam, lam_u, sample_weight)
            if F < best_F:
                best_F, best_w, best_o = F, w, o
            log(
                {
                    "T": T,
                    "outer": outer,
                    "inner": inner,
                    "kl": kl,
                    "objective": F,
                    "mfn_iter": mfn_iter,
                    "p_newton": info["n_newton"],
                    "p_bisect": info["n_bisect"],
                    "p_residual": info["residual"],
                }
            )
        h = _entropy(p)
        T = T / temperature_factor
    converged = converged and not expired()
    return MFAResult(best_w, best_o, p, best_F, n_iter, log.records, converged)
