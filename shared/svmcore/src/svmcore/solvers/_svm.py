"""Weighted L1-hinge SVM (per-sample C) through scikit-learn's libsvm and liblinear.

The problem solved is the AID paper's (7) with per-sample weights, i.e. its
aggregated problem (9) when the weights are the cluster sizes:

.. math::

    \\min_{w, b} \\frac{1}{2}\\|w\\|^2 + C \\sum_i s_i \\max(0, 1 - y_i(w^T x_i + b)),

with the bias ``b`` unregularized, and its dual

.. math::

    \\max_\\alpha \\sum_i \\alpha_i - \\frac{1}{2}\\sum_{i,j} \\alpha_i\\alpha_j y_i y_j K(x_i, x_j)
    \\quad \\text{s.t.} \\quad \\sum_i \\alpha_i y_i = 0, \\; 0 \\le \\alpha_i \\le C s_i .
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.optimize import lsq_linear
from sklearn.svm import SVC, LinearSVC

from ..typing import ArrayLike, MatrixLike, RandomStateLike
from ..validation import check_float_array, check_magnitude, check_real, check_sample_weight
from ._hinge import _check_labels, optimal_intercept

__all__ = ["WeightedSVMResult", "fit_weighted_svm"]

_KERNELS = ("linear", "rbf", "poly")
_SOLVERS = ("libsvm", "liblinear")
# liblinear's iteration cap used by the AID paper (sec. 4: the default 1,000 stopped early).
_LIBLINEAR_MAX_ITER = 100_000


@dataclass(frozen=True)
class WeightedSVMResult:
    """Solution of a weighted SVM returned by :func:`fit_weighted_svm`.

    Parameters
    ----------
    coef : ndarray of shape (n_features,) or None
        Primal weight vector ``w`` (linear kernel only; ``None`` otherwise).
    intercept : float
        Bias ``b``; the decision function is ``w^T x + b``.
    dual_coef : ndarray of shape (n_samples,)
        ``alpha_i`` in ``[0, C s_i]`` for every input sample (zero for
        non-support vectors and zero-weight samples).
    support : ndarray of shape (n_support,)
        Indices (into the input) of the samples with ``alpha_i > 0``.
    objective : float
        Primal objective (paper's (7)) at the returned solution, evaluated on
        the input data and weights.
    dual_objective : float
        Dual objective ``sum(alpha) - ||w(alpha)||^2 / 2`` of ``dual_coef``,
        where ``w(alpha) = sum_i alpha_i y_i phi(x_i)``.
    n_iter : int
        Solver iterations.
    converged : bool
        False when the solver stopped at ``max_iter`` (a ``ConvergenceWarning``
        is emitted too).
    solver : str
        ``"libsvm"`` or ``"liblinear"``.
    """

    coef: np.ndarray | None
    intercept: float
    dual_coef: np.ndarray
    support: np.ndarray
    objective: float
    dual_objective: float
    n_iter: int
    converged: bool
    solver: str

    @property
    def duality_gap(self) -> float:
        """``objective - dual_objective`` (non-negative up to solver accuracy)."""
        return self.objective - self.dual_objective


def _liblinear_duals(X, y, C_i, w, b, margin_tol):
    """Dual variables consistent with the KKT conditions at a liblinear ``(w, b)``.

    liblinear (through scikit-learn) does not return its dual variables. At a
    primal optimum, ``alpha_i = C_i`` where ``y_i f_i < 1``, ``alpha_i = 0``
    where ``y_i f_i > 1`` and, on the margin, ``alpha_i`` in ``[0, C_i]`` is
    whatever makes ``w = sum alpha_i y_i x_i`` and ``sum alpha_i y_i = 0``. The
    margin values are found by bounded least squares over the samples with
    ``|1 - y_i f_i| <= margin_tol``; the rest are set from their side of the margin.
    """
    margin = 1.0 - y * (np.asarray(X @ w, dtype=np.float64) + b)
    alpha = np.where(margin > margin_tol, C_i, 0.0)
    free = np.flatnonzero(np.abs(margin) <= margin_tol)
    if free.size == 0:
        return alpha
    rhs_w = w - np.asarray(X.T @ (alpha * y), dtype=np.float64).ravel()
    rhs_eq = -float(alpha @ y)
    Xf = X[free]
    yf = y[free]
    if sp.issparse(Xf):
        row_norm = np.sqrt(np.asarray(Xf.multiply(Xf).sum(axis=1)).ravel())
        A = sp.vstack([sp.csr_matrix(Xf.multiply(yf[:, None])).T, sp.csr_matrix(yf)]).tocsr()
    else:
        row_norm = np.linalg.norm(Xf, axis=1)
        A = np.vstack([(Xf * yf[:, None]).T, yf[None, :]])
    # Weight the equality row so it is enforced far more tightly than the w rows.
    eq_scale = 1e3 * (1.0 + float(row_norm.max()))
    if sp.issparse(A):
        A = sp.diags(np.r_[np.ones(A.shape[0] - 1), eq_scale]) @ A
    else:
        A[-1] *= eq_scale
    rhs = np.concatenate([rhs_w, [eq_scale * rhs_eq]])
    method = "trf" if sp.issparse(A) else "bvls"
    sol = lsq_linear(A, rhs, bounds=(np.zeros(free.size), C_i[free]), method=method, tol=1e-12)
    alpha[free] = np.clip(sol.x, 0.0, C_i[free])
    return alpha


def _check_options(kernel, solver, gamma, degree, coef0, tol, max_iter, intercept_scaling):
    if kernel not in _KERNELS:
        raise ValueError(f"kernel must be one of {_KERNELS}, got {kernel!r}.")
    if solver not in _SOLVERS:
        raise ValueError(f"solver must be one of {_SOLVERS}, got {solver!r}.")
    if solver == "liblinear" and kernel != "linear":
        raise ValueError(f"solver='liblinear' supports only kernel='linear', got {kernel!r}.")
    check_real(gamma, "gamma", low=0.0, low_closed=False)
    if isinstance(degree, bool) or not isinstance(degree, numbers.Integral) or degree < 0:
        raise ValueError(f"degree must be a non-negative int, got {degree!r}.")
    check_real(coef0, "coef0")
    check_real(tol, "tol", low=0.0, low_closed=False)
    if max_iter is not None and (
        isinstance(max_iter, bool) or not isinstance(max_iter, numbers.Integral) or max_iter < 1
    ):
        raise ValueError(f"max_iter must be None or an int >= 1, got {max_iter!r}.")
    check_real(intercept_scaling, "intercept_scaling", low=0.0, low_closed=False)


def _int32_indices(X):
    """CSR with int32 indices (libsvm and liblinear refuse int64 ones, which scipy and
    svmlight readers produce) when they fit; other input unchanged."""
    if not sp.issparse(X) or X.indices.dtype == np.int32 or X.nnz >= np.iinfo(np.int32).max:
        return X
    X = sp.csr_matrix(X)
    return sp.csr_matrix(
        (X.data, X.indices.astype(np.int32), X.indptr.astype(np.int32)), shape=X.shape
    )


def fit_weighted_svm(
    X: MatrixLike,
    y: ArrayLike,
    sample_weight: ArrayLike | None = None,
    *,
    C: float = 1.0,
    kernel: str = "linear",
    gamma: float = 1.0,
    degree: int = 3,
    coef0: float = 0.0,
    solver: str = "libsvm",
    tol: float = 1e-3,
    max_iter: int | None = None,
    intercept_scaling: float = 1.0,
    refit_intercept: bool = True,
    margin_tol: float = 1e-2,
    cache_size: float = 200.0,
    random_state: RandomStateLike = None,
    compute_objective: bool = True,
    check_input: bool = True,
) -> WeightedSVMResult:
    """Solve the weighted L1-hinge SVM (per-sample C) with libsvm or liblinear.

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n_samples, n_features)
        Training data, dense or CSR (float32 is accepted; the solvers work in
        float64).
    y : array-like of shape (n_samples,)
        Labels in ``{-1, +1}``; both must occur among positive-weight samples.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights ``s_i``; sample ``i`` gets penalty ``C * s_i``.
        Zero-weight samples are dropped before the solver (their ``alpha_i = 0``).
    C : float, default=1.0
        Penalty (the paper's ``M``), > 0.
    kernel : {"linear", "rbf", "poly"}, default="linear"
        Kernel, with scikit-learn's definitions.
    gamma : float, default=1.0
        Kernel coefficient for "rbf" and "poly", > 0.
    degree : int, default=3
        Degree of "poly".
    coef0 : float, default=0.0
        Constant of "poly".
    solver : {"libsvm", "liblinear"}, default="libsvm"
        ``SVC`` (SMO; any kernel) or ``LinearSVC(loss="hinge", dual=True)``
        (dual coordinate descent; linear kernel only).
    tol : float, default=1e-3
        Solver tolerance (each package's own definition).
    max_iter : int, default=None
        Iteration cap. None means ``max(10_000_000, 100 n)`` for libsvm (the
        cap libsvm applies itself) and 100,000 for liblinear (the AID paper's
        setting: liblinear's default of 1,000 stopped early).
    intercept_scaling : float, default=1.0
        Only for liblinear: the constant feature that carries the bias (liblinear
        regularizes ``(b / intercept_scaling)^2``). Large values slow its
        coordinate descent badly; ``b`` is re-optimized exactly afterwards.
    refit_intercept : bool, default=True
        Replace the solver's ``b`` by the exact minimizer of the primal for
        the returned ``w`` (:func:`optimal_intercept`; ties broken towards the
        solver's ``b``). Always done for liblinear, whose ``b`` is regularized.
    margin_tol : float, default=1e-2
        Only for liblinear: samples with ``|1 - y_i f(x_i)| <= margin_tol`` are
        treated as on the margin when the duals are reconstructed.
    cache_size : float, default=200.0
        Kernel cache of libsvm in MB.
    random_state : int, RandomState instance or None, default=None
        Seed of liblinear's coordinate order.
    compute_objective : bool, default=True
        Only for libsvm with a nonlinear kernel: False skips the decision-function
        pass over all samples that the primal objective and ``refit_intercept`` need
        (about as costly as training itself when most samples are support vectors); then
        ``objective`` and ``dual_objective`` are NaN and the intercept is libsvm's own
        (as ``SVC``'s). Ignored for the linear kernel and liblinear, whose pass is
        cheap (O(nnz)).
    check_input : bool, default=True
        False skips the checks of the inputs and options, as scikit-learn's
        ``check_input``: for a caller that has validated them (finite float ``X``,
        labels in ``{-1, +1}``, finite non-negative weights, both labels among the
        positive-weight samples, valid options). The solvers' own validation still
        runs; on small data the checks are a tenth of the fit.

    Returns
    -------
    result : WeightedSVMResult
        ``coef`` (linear kernel), ``intercept``, ``dual_coef`` (one ``alpha_i``
        per input sample), ``support``, ``objective`` (primal, evaluated on
        the input), ``dual_objective``, ``n_iter``, ``converged``, ``solver``.

    See Also
    --------
    hinge_objective : The primal objective at a given ``(w, b)``.
    optimal_intercept : Exact bias for a fixed ``w``.

    Notes
    -----
    Objective (the AID paper's (7); its (9) when ``s_i`` are cluster sizes):

    .. math::

        \\min_{w, b} \\frac{1}{2}\\|w\\|^2 + C \\sum_i s_i \\max(0, 1 - y_i(w^T\\phi(x_i) + b)).

    libsvm solves exactly this problem (its dual with ``0 <= alpha_i <= C s_i``
    and ``sum alpha_i y_i = 0``); ``dual_coef`` is ``|dual_coef_|`` of ``SVC``.

    liblinear instead regularizes the bias: it solves the problem on
    ``[x_i, intercept_scaling]`` with ``b`` inside ``w``. Two exact
    reformulations keep that from distorting ``w``: dense ``X`` is centred by
    its weighted mean before liblinear sees it (with ``b`` unregularized,
    (7) is invariant to translating ``X``; CSR input is not centred, to stay
    sparse), and ``b`` is then replaced by the exact minimizer of (7) for the
    returned ``w`` (:func:`optimal_intercept`), so ``objective`` is exactly (7)
    at the returned ``(w, b)`` (an upper bound of the optimum, equal to it up
    to the solver's accuracy). With ``refit_intercept=True`` (default) the
    same exact bias is used for libsvm, whose own ``b`` is only accurate to
    its tolerance. liblinear's duals are not exposed by scikit-learn, so
    ``dual_coef`` is reconstructed from the KKT conditions at ``(w, b)``:
    ``C s_i`` inside the margin, 0 outside, and bounded least squares for the
    samples within ``margin_tol`` of it; ``dual_objective`` measures how good
    that reconstruction is (``duality_gap`` near 0).

    For nonlinear kernels ``coef`` is None; the objective uses
    ``||w||^2 = sum_j alpha_j y_j (f(x_j) - b)`` over the support vectors and
    the decision values from libsvm, so no Gram matrix is formed.

    Time and memory are the backend's (libsvm: O(n^2)-O(n^3) time, cache-bound
    memory; liblinear: O(nnz) per epoch, plus one centred copy of dense ``X``),
    plus O(nnz) for the objective and, for liblinear, a bounded least-squares
    solve over the margin samples only.

    References
    ----------
    .. [1] Y. W. Park and D. Klabjan, "An Aggregate and Iterative Disaggregate
       Algorithm with Proven Optimality in Machine Learning", 2016, sec. 3.2.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1, -1, 1, 1])
    >>> res = fit_weighted_svm(X, y, C=10.0, tol=1e-6)
    >>> round(float(res.coef[0]), 4), round(res.intercept, 4), round(res.objective, 4)
    (1.0, -2.0, 0.5)
    """
    if check_input:
        X = check_float_array(X, "X", accept_sparse=True)
        n = X.shape[0]
        y = _check_labels(y, n)
        C = check_real(C, "C", low=0.0, low_closed=False)
        _check_options(kernel, solver, gamma, degree, coef0, tol, max_iter, intercept_scaling)
        if kernel != "rbf":  # the linear and polynomial kernels square the data unscaled
            check_magnitude(X, "X", f"libsvm/liblinear ({kernel} kernel)")
        check_real(margin_tol, "margin_tol", low=0.0)
        if not isinstance(compute_objective, (bool, np.bool_)):
            raise TypeError(f"compute_objective must be a bool, got {compute_objective!r}.")
        sw = check_sample_weight(sample_weight, X, dtype=np.float64)
    else:
        n = X.shape[0]
        y = np.asarray(y, dtype=np.float64)
        sw = np.ones(n) if sample_weight is None else np.asarray(sample_weight, np.float64)
    keep = np.flatnonzero(sw > 0)
    if check_input and np.unique(y[keep]).size < 2:
        raise ValueError("y must contain both -1 and +1 among the samples with positive weight.")
    Xk = _int32_indices(X[keep] if keep.size < n else X)
    yk, swk = y[keep], sw[keep]

    if solver == "libsvm":
        cap = max(10_000_000, 100 * keep.size) if max_iter is None else max_iter
        model = SVC(
            C=C,
            kernel=kernel,
            gamma=float(gamma),
            degree=int(degree),
            coef0=float(coef0),
            tol=tol,
            max_iter=cap,
            cache_size=cache_size,
        )
        model.fit(Xk, yk, sample_weight=swk)
        alpha_k = np.zeros(keep.size)
        dual = model.dual_coef_  # y_i alpha_i of the support vectors; sparse for CSR input
        dual = dual.toarray() if sp.issparse(dual) else dual
        alpha_k[model.support_] = np.abs(np.asarray(dual, dtype=np.float64).ravel())
        b = float(model.intercept_[0])
        n_iter = int(np.asarray(model.n_iter_).max())
        converged = model.fit_status_ == 0
        if kernel == "linear":
            coef = model.coef_
            coef = np.asarray(coef.toarray() if sp.issparse(coef) else coef).ravel()
            coef = coef.astype(np.float64)
            decision = np.asarray(Xk @ coef, dtype=np.float64) + b
            w_sq = float(coef @ coef)
        elif compute_objective:
            coef = None
            decision = np.asarray(model.decision_function(Xk), dtype=np.float64)
            ya = yk * alpha_k
            w_sq = float(ya[model.support_] @ (decision[model.support_] - b))
        else:
            coef = decision = None  # no objectives asked of a kernel fit
    else:
        cap = _LIBLINEAR_MAX_ITER if max_iter is None else max_iter
        # Centring is exact for (7) and keeps liblinear's bias penalty from bending w.
        shift = None if sp.issparse(Xk) else (swk @ Xk) / swk.sum()
        model = LinearSVC(
            C=C,
            loss="hinge",
            dual=True,
            tol=tol,
            max_iter=cap,
            intercept_scaling=float(intercept_scaling),
            random_state=random_state,
        )
        model.fit(Xk if shift is None else Xk - shift, yk, sample_weight=swk)  # warns at cap
        n_iter = int(model.n_iter_)
        converged = n_iter < cap
        coef = np.asarray(model.coef_, dtype=np.float64).ravel()
        scores = np.asarray(Xk @ coef, dtype=np.float64)
        b0 = float(model.intercept_[0]) - (0.0 if shift is None else float(shift @ coef))
        b = optimal_intercept(scores, yk, swk, b0=b0)
        decision = scores + b
        w_sq = float(coef @ coef)
        alpha_k = _liblinear_duals(Xk, yk, C * swk, coef, b, margin_tol)

    if decision is None:
        objective = dual_objective = np.nan
    else:
        if solver == "libsvm" and refit_intercept:
            scores = decision - b
            b = optimal_intercept(scores, yk, swk, b0=b)
            decision = scores + b
        objective = 0.5 * w_sq + C * float(swk @ np.maximum(0.0, 1.0 - yk * decision))
        if coef is not None:
            w_alpha = np.asarray(Xk.T @ (alpha_k * yk), dtype=np.float64).ravel()
            dual_objective = float(alpha_k.sum()) - 0.5 * float(w_alpha @ w_alpha)
        else:
            dual_objective = float(alpha_k.sum()) - 0.5 * w_sq
    dual_coef = np.zeros(n)
    dual_coef[keep] = alpha_k
    return WeightedSVMResult(
        coef=coef,
        intercept=b,
        dual_coef=dual_coef,
        support=np.flatnonzero(dual_coef > 0),
        objective=objective,
        dual_objective=dual_objective,
        n_iter=n_iter,
        converged=bool(converged),
        solver=solver,
    )
