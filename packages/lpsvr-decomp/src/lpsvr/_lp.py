"""The corrected LP-SVR linear program on a subset of samples, solved by HiGHS.

Rivas-Perea & Cota-Ruiz (2013), eq. (3)-(4), with the flaw of the printed
formulation repaired. As printed, sample j has ONE slack u_j in both equality
rows; adding and subtracting the rows gives ``u_j = epsilon + xi_j`` and
``f(x_j) = d_j``: interpolation is forced. The intended epsilon-insensitive
model gives each row its own surplus (u_j and v_j), i.e. the two rows are
inequalities:

    -f(x_j) - xi_j <= epsilon - d_j        (row 1, surplus u_j)
     f(x_j) - xi_j <= epsilon + d_j        (row 2, surplus v_j)

so that ``xi_j = max(0, |d_j - f(x_j)| - epsilon)`` at the optimum. The
variables keep the paper's layout ``z = (alpha+, alpha-, b+, b-, xi)`` with
costs ``c = (1, 1, 0, 0, 2 C s_j)``; the surpluses are HiGHS's row slacks.

Row duals: HiGHS returns ``lambda_1, lambda_2 <= 0`` for the two "<=" rows
(derivatives of the optimum in the right-hand sides). We store
``mu = -lambda_1 >= 0`` and ``nu = -lambda_2 >= 0``; the dual of (5) then reads

    |sum_i K_ji (mu_i - nu_i)| <= 1     (columns alpha+_j, alpha-_j)
    sum_i (mu_i - nu_i) = 0             (columns b+, b-)
    0 <= mu_j, nu_j,  mu_j + nu_j <= 2 C s_j   (columns xi_j, u_j, v_j)
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from svmcore.solvers import solve_lp

__all__ = ["SubLPSolution", "kkt_residuals", "solve_svr_lp"]


@dataclass
class SubLPSolution:
    """Solution of the LP over row samples S and coefficient samples P."""

    alpha: np.ndarray  # (|P|,) alpha+ - alpha-
    b: float
    xi: np.ndarray  # (|S|,)
    mu: np.ndarray  # (|S|,) multipliers of row 1 (>= 0)
    nu: np.ndarray  # (|S|,) multipliers of row 2 (>= 0)
    fun: float
    n_iter: int


def solve_svr_lp(K, d, cost, epsilon, *, method="ipm", time_limit=None, lp_tol=None):
    """Solve the corrected LP-SVR over row samples S and coefficient samples P.

    Parameters
    ----------
    K : ndarray of shape (|S|, |P|)
        Kernel block ``k(x_j, x_i)``, j in S (rows), i in P (coefficients).
    d : ndarray of shape (|S|,)
        Targets of the row samples.
    cost : ndarray of shape (|S|,)
        ``2 C s_j``: the cost of ``xi_j``.
    epsilon : float
        Tube half-width.
    method, time_limit, lp_tol
        Passed to :func:`svmcore.solvers.solve_lp`.

    Returns
    -------
    SubLPSolution
    """
    n_rows, n_coef = K.shape
    Kc = sp.csc_array(np.asarray(K, dtype=np.float64))
    ones = sp.csc_array(np.ones((n_rows, 1)))
    eye = sp.eye_array(n_rows, format="csc")
    top = sp.hstack([-Kc, Kc, -ones, ones, -eye], format="csc")
    bottom = sp.hstack([Kc, -Kc, ones, -ones, -eye], format="csc")
    A_ub = sp.vstack([top, bottom], format="csc")
    b_ub = np.r_[epsilon - d, epsilon + d]
    c = np.r_[np.ones(2 * n_coef), 0.0, 0.0, cost]
    res = solve_lp(
        c,
        A_ub=A_ub,
        b_ub=b_ub,
        bounds=(0, None),
        method=method,
        time_limit=time_limit,
        tol=lp_tol,
    )
    x = res.x
    alpha = x[:n_coef] - x[n_coef : 2 * n_coef]
    b = x[2 * n_coef] - x[2 * n_coef + 1]
    xi = x[2 * n_coef + 2 :]
    mu = np.maximum(-res.row_duals_ub[:n_rows], 0.0)
    nu = np.maximum(-res.row_duals_ub[n_rows:], 0.0)
    return SubLPSolution(alpha, float(b), xi, mu, nu, float(res.fun), res.n_iter)


def kkt_residuals(f, g, d, alpha, mu, nu, cost, epsilon):
    """KKT residuals (6a)-(6d) of the corrected full LP at a candidate solution.

    Parameters
    ----------
    f : ndarray of shape (N,)
        Model outputs ``f(x_j) = sum_i alpha_i k(x_j, x_i) + b``.
    g : ndarray of shape (N,)
        ``sum_i k(x_j, x_i) (mu_i - nu_i)``.
    d : ndarray of shape (N,)
        Targets.
    alpha, mu, nu : ndarray of shape (N,)
        Coefficients and row multipliers (zero where not in the working set).
    cost : ndarray of shape (N,)
        ``2 C s_j``.
    epsilon : float

    Returns
    -------
    dict
        ``primal`` (row infeasibility, 0 here since xi is reconstructed),
        ``dual`` (largest violation of dual feasibility), ``complementarity``
        (largest ``z_i s_i``) and ``objective``.
    """
    r = d - f
    xi = np.maximum(np.abs(r) - epsilon, 0.0)
    u = epsilon - r + xi  # surplus of row 1
    v = epsilon + r + xi  # surplus of row 2
    s_plus = 1.0 - g  # dual slack of alpha+
    s_minus = 1.0 + g  # dual slack of alpha-
    s_xi = cost - mu - nu
    beta_sum = float(np.sum(mu - nu))
    dual = max(
        float(np.max(-s_plus, initial=0.0)),
        float(np.max(-s_minus, initial=0.0)),
        float(np.max(-s_xi, initial=0.0)),
        float(np.max(-mu, initial=0.0)),
        float(np.max(-nu, initial=0.0)),
        abs(beta_sum),
    )
    a_plus = np.maximum(alpha, 0.0)
    a_minus = np.maximum(-alpha, 0.0)
    comp = max(
        float(np.max(np.abs(a_plus * s_plus), initial=0.0)),
        float(np.max(np.abs(a_minus * s_minus), initial=0.0)),
        float(np.max(np.abs(xi * s_xi), initial=0.0)),
        float(np.max(np.abs(u * mu), initial=0.0)),
        float(np.max(np.abs(v * nu), initial=0.0)),
    )
    primal = float(max(np.max(-u, initial=0.0), np.max(-v, initial=0.0)))
    objective = float(np.abs(alpha).sum() + cost @ xi)
    return {"primal": primal, "dual": dual, "complementarity": comp, "objective": objective}
