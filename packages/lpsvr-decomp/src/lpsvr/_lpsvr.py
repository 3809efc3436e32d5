"""LPSVR, the scikit-learn regressor of the corrected LP-SVR (Rivas-Perea & Cota-Ruiz 2013):
an epsilon-insensitive kernel regression with an L1 penalty on its coefficients, trained by
row and column generation or by the paper's decompositions (Algorithm 1 is
``LPSVR(decomposition="full")``), with its fitted attributes and prediction."""

from __future__ import annotations

from typing import Self

import numpy as np
from sklearn.base import RegressorMixin

from svmcore.chunked import is_dask_collection
from svmcore.docstrings import fill_doc
from svmcore.kernels import kernel_matvec
from svmcore.solvers import TimeBudget
from svmcore.typing import ArrayLike, DaskArray, MatrixLike
from svmcore.validation import (
    check_is_fitted,
    check_magnitude,
    check_sample_weight,
    fit_context,
    validate_data,
)

from ._base import _LPSVRParams
from ._docs import DOCS

__all__ = ["LPSVR"]


@fill_doc(DOCS)
class LPSVR(RegressorMixin, _LPSVRParams):
    """Linear-programming support vector regression with decomposition training.

    An epsilon-insensitive kernel regression whose coefficients are found by a
    linear program with an L1 penalty on them (Rivas-Perea & Cota-Ruiz 2013),
    which makes the model sparser than scikit-learn's quadratic-programming
    :class:`~sklearn.svm.SVR`. By default the LP is solved exactly by row and
    column generation in one warm-started HiGHS model (``"row_column"``, not
    in the paper); the paper's variable decomposition (Algorithm 2) and
    constraint decomposition (Algorithm 3) are ``decomposition="variables"``
    and ``"full"``.

    Parameters
    ----------
    C : float, default=1.0
        Cost of the epsilon-insensitive error (> 0).
    epsilon : float, default=0.1
        Half-width of the insensitive tube (>= 0).
    kernel : {"rbf", "linear", "poly"}, default="rbf"
        Kernel, with scikit-learn's definitions.
    gamma : {"scale", "auto"} or float, default="scale"
        Coefficient of "rbf" and "poly", as in :class:`~sklearn.svm.SVR`.
    %(sigma_degree_coef0)s
    decomposition : {"row_column", "full", "variables", "none"}, default="row_column"
        "row_column" (the default; not in the paper, far faster than the
        paper's algorithms on the noisy sinc, same optimum): separate
        column (coefficient) and row (tube constraint) sets, each grown by
        the same KKT check on all samples, one HiGHS model re-solved by warm
        simplex, started from the exact solution on a random quarter of the
        samples (recursively); see the package README. "full": the paper's
        Algorithm 1, i.e. Algorithm 2 with each working-set LP solved by
        Algorithm 3 (the default before 2026-11-25). "variables": Algorithm 2.
        "none": the whole LP in one HiGHS call (the reference for small N;
        N x N kernel).
    method : {"simplex", "ipm", "choose"}, default="simplex"
        HiGHS LP method of "variables", "full" and "none". The paper uses an
        interior point method ("ipm", with crossover to the vertex solution
        the sparseness results refer to; the default before 2026-11-25). The
        simplex method restarts from the previous basis in "variables" (IPM
        cannot), which makes "variables" and "full" several times faster at the
        same objective (timings in the package README). "row_column" always
        uses the (warm) simplex method.
    B0 : int, default=None
        Initial working-set size (>= 2, <= n_samples); None means
        ``min(100, n_samples)`` (``min(50, n_samples)`` initial columns for
        "row_column").
    B_max : int, default=None
        Maximum working-set size of eq. (17); None means n_samples.
    n_add : int, default=None
        Violators moved into the working set per iteration of Algorithm 2;
        None is the paper's ``1 + ceil(ln |B|)`` (Step 4 / eq. 17).
    tau : int, default=4
        Number of constraint blocks of Algorithm 3 (capped at the working-set size).
    t_max : int, default=4
        Algorithm 3's stall count: block solves with an unchanged objective
        after which the violated rows join the block LP.
    loop_limit : int, default=10
        The paper's ``l``: an index moved into the working set this many times
        stays there for good (Step 5, loop prevention).
    max_iter : int, default=1000
        Maximum number of outer (working-set) iterations.
    tol : float, default=1e-6
        Tolerance of the KKT (complementarity and dual feasibility) checks.
    time_limit : float, default=None
        Wall-clock budget in seconds of the whole fit (> 0; None: no limit),
        counted from the start of :meth:`fit`: every HiGHS call is limited to
        the time left, and no outer iteration, Algorithm 3 block solve,
        "row_column" round or subsample level starts after it. On expiry the
        current solution is kept (alpha = 0 outside the working set, xi
        reconstructed: feasible, not proven optimal; the zero function if no
        sub-LP finished), with a ``ConvergenceWarning`` and
        ``converged_ = False``. For :class:`LPSVC`, one budget covers all
        classes.
    random_state : int, RandomState instance or None, default=None
        Seed of the random initial working set.
    %(n_jobs)s
    verbose : int, default=0
        When positive, print a table as the fit runs: a header, then one line per
        outer iteration (per round, for "row_column") with the columns of
        ``history_`` (``history_.to_table()`` gives the same text afterwards).

    Attributes
    ----------
    dual_coef_ : ndarray of shape (1, n_SV)
        Coefficients ``alpha_i = alpha_i^+ - alpha_i^-`` of the support vectors.
    support_ : ndarray of shape (n_SV,)
        Indices of the samples with nonzero coefficient.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        Those samples.
    intercept_ : ndarray of shape (1,)
        ``b = b^+ - b^-``.
    objective_ : float
        Optimal value of the LP, :math:`\\|\\alpha\\|_1 + 2C\\sum_j s_j \\xi_j`.
    kkt_residuals_ : dict
        Largest violations of primal feasibility, dual feasibility and
        complementarity (6a)-(6d) of the full corrected LP, on all samples.
    saturated_support_ : ndarray of int
        Indices of the saturated support vectors (outside the tube,
        :math:`|d - f| > \\epsilon`).
    exact_support_ : ndarray of int
        Indices of the exact support vectors (on the tube's edge).
    history_ : svmcore.reporting.History
        A list of dicts, one per outer iteration ("none": one): ``iteration``,
        ``working_set_size`` (|B|), ``sub_objective`` (working-set LP) and
        ``objective`` (full LP), ``n_violators`` (KKT violators), ``max_violation``,
        ``n_permanent`` (permanent indices), ``time`` (cumulative seconds). For
        "row_column": one per round (also of the subsample levels) with
        ``iteration``, ``n_samples`` (the level's size), ``working_set_size``
        (columns |P|), ``n_rows`` (|R|), ``sub_objective``, ``objective``, ``step``,
        ``n_added`` and ``time``.
    block_objectives_ : list of list of float
        For "full": the block-LP optima of Algorithm 3 per outer iteration.
    converged_ : bool
        Whether every KKT condition holds at the end (False when
        ``time_limit`` stopped the fit).
    n_iter_ : int
        Number of completed outer iterations (1 for "none"; 0 when
        ``time_limit`` ran out before the first working-set LP was solved).
    %(n_features_in_)s

    See Also
    --------
    LPSVC : The same LP used for classification.
    sklearn.svm.SVR : Quadratic-programming epsilon-SVR.

    Notes
    -----
    The LP, with the flaw of the printed problem (3) repaired (two surplus
    vectors instead of one shared ``u``; see the package README), is

    .. math::

        \\min_{\\alpha^\\pm, b^\\pm, \\xi \\ge 0}\\; \\sum_i (\\alpha_i^+ + \\alpha_i^-)
        + 2C \\sum_j s_j \\xi_j \\quad \\text{s.t.}\\quad
        |d_j - f(x_j)| \\le \\epsilon + \\xi_j,\\quad
        f(x) = \\sum_i (\\alpha_i^+ - \\alpha_i^-) k(x_i, x) + b^+ - b^- .

    ``sample_weight`` gives the per-sample costs :math:`C_j = C s_j` of the
    paper's eq. (10); zero-weight samples are dropped.

    Complexity of "row_column": one LP with :math:`|R|` rows (the tube
    constraints met so far, about the samples outside the tube) and
    :math:`2|P| + |R| + 1` columns (:math:`|P|` about the number of nonzero
    coefficients), an :math:`|R| \\times |P|` kernel block; each round's KKT
    check streams :math:`K(X, X_P)` and :math:`K(X, X_\\beta)` in row
    blocks. Of "variables"/"full": each working-set LP has :math:`2|B|` rows and
    :math:`3|B| + 2` columns with a dense :math:`|B| \\times |B|` kernel block;
    each KKT check streams :math:`K(X, X_{SV})` in row blocks (time
    :math:`O(N |B| m)`, memory :math:`O(\\text{block} \\cdot |B|)`). The working
    set must contain every sample outside the tube, so its size grows with
    the noise level relative to ``epsilon``. "none" needs the
    :math:`N \\times N` kernel.

    Beyond the paper: ``decomposition="row_column"`` (the default; the paper's
    Algorithm 1 is ``decomposition="full"``), the simplex method with warm restarts
    (``method="simplex"``; the paper uses an interior point), the corrected LP (the
    printed one forces interpolation, see the package README), ``time_limit``,
    sample weights, and Dask input.

    Dask (``pip install lpsvr-decomp[dask]``): ``fit`` accepts a row-chunked
    ``dask.array.Array`` X (with ``y`` and ``sample_weight`` as Dask or NumPy
    arrays) and runs on the current ``distributed.Client``, else on Dask's local
    scheduler. Every check on all samples (outputs, KKT violations, the best new
    rows and columns) is one task per chunk that receives the working set's nonzero
    coefficient rows and returns counts, sums and its best candidates, merged on
    the driver; the working-set LP stays on the driver with the rows of its
    samples (read by index). The driver also keeps per-sample bookkeeping
    (membership masks, ``alpha``/``mu``/``nu``, and for "row_column" the
    reduced-cost vector ``g``, sent to and returned by the full pricing). Same LP
    objective as in memory (same iterates; sums over chunks differ in round-off, as
    does gamma="scale"). "none" is not available. Fitted attributes are NumPy;
    ``predict`` on a Dask array returns a Dask array.

    References
    ----------
    P. Rivas-Perea and J. Cota-Ruiz, "An algorithm for training a large scale
    support vector machine for regression based on linear programming and
    decomposition methods", Pattern Recognition Letters 34 (2013) 439-451.

    Examples
    --------
    >>> import numpy as np
    >>> from lpsvr import LPSVR
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-3, 3, size=(80, 1))
    >>> y = np.sinc(X[:, 0])
    >>> reg = LPSVR(C=10.0, epsilon=0.05, gamma=1.0, random_state=0).fit(X, y)
    >>> bool(np.abs(reg.predict(X) - y).max() <= 0.05 + 1e-6)
    True
    >>> reg.converged_, reg.support_.size < 80
    (True, True)
    """

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: MatrixLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> Self:
        """Fit the LP-SVR (within ``time_limit`` seconds when given).

        Parameters
        ----------
        X : array-like or dask.array.Array of shape (n_samples, n_features)
            Training data (a Dask array: chunked by rows, see Notes).
        y : array-like or dask.array.Array of shape (n_samples,)
            Targets.
        sample_weight : array-like or dask.array.Array of shape (n_samples,), default=None
            Per-sample multipliers of C.

        Returns
        -------
        self : LPSVR
            Fitted estimator.
        """
        budget = TimeBudget(self.time_limit)
        if is_dask_collection(X):
            from ._dask import fit_dask

            return fit_dask(self, X, y, sample_weight, budget)
        X, y = validate_data(self, X, y, dtype=np.float64, order="C", y_numeric=True)
        check_magnitude(y, "y", "LPSVR")
        y = np.asarray(y, dtype=np.float64)
        sw = check_sample_weight(sample_weight, X, dtype=np.float64)
        B0 = self._check_sizes(X.shape[0])
        kernel_params = self._kernel_params(X)
        res, kept, samples = self._fit_one(X, y, sw, kernel_params, B0, budget)
        self._set_fitted(samples.X, res, kept, kernel_params)
        return self

    def _decision(self, X):
        if self.support_.size == 0:
            return np.full(X.shape[0], self.intercept_[0])
        out = kernel_matvec(
            X,
            self.support_vectors_,
            self.dual_coef_[0],
            **self._kernel_params_,
            n_jobs=self._threads(),
        )
        return np.asarray(out, dtype=np.float64) + self.intercept_[0]

    def predict(self, X: MatrixLike) -> np.ndarray | DaskArray:
        """Predict ``f(x) = sum_i alpha_i k(x_i, x) + b``.

        Parameters
        ----------
        X : array-like or dask.array.Array of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        y_pred : ndarray or dask.array.Array of shape (n_samples,)
            The regression function at each sample (lazy, chunked as X's rows, for a
            Dask X).
        """
        check_is_fitted(self)
        if is_dask_collection(X):
            from ._dask import predict_dask

            return predict_dask(self, X)
        X = self._validate_X(X, reset=False)
        return self._decision(X)
