"""MFNClassifier: the scikit-learn estimator around L2-SVM-MFN."""

from __future__ import annotations

import warnings
from typing import Any, Self

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.class_weight import compute_class_weight

from svmcore import numba_threads
from svmcore.docstrings import fill_doc
from svmcore.reporting import History, TablePrinter
from svmcore.typing import ArrayLike, MatrixLike
from svmcore.validation import (
    StrOptions,
    check_classification_targets,
    check_sample_weight,
    class_labels,
    fit_context,
)

from ._base import LinearSVMLinMixin
from ._docs import DOCS
from ._mfn import l2svm_mfn, squared_hinge_objective
from ._report import MFN_TABLE

__all__ = ["MFNClassifier"]


@fill_doc(DOCS)
class MFNClassifier(LinearSVMLinMixin):
    r"""Linear L2-SVM trained by the modified finite Newton method (L2-SVM-MFN).

    Primal Newton-type solver for the squared-hinge linear SVM of SVMlin: each
    Newton step solves a regularized least-squares system over the currently
    active samples by CGLS, followed by an exact line search. Suited to large
    sparse data (text); the data matrix is touched only through matrix-vector
    products over the active rows. Multiclass problems are handled one-vs-rest.

    Parameters
    ----------
    alpha : float, default=1.0
        Regularization :math:`\lambda` of the paper and SVMlin's ``-W`` (default 1).
        Equivalent to ``LinearSVC(loss="squared_hinge", C=1/(2*alpha))``.
    fit_intercept : bool, default=True
        Append a constant feature whose weight is the bias (SVMlin always does).
    regularize_intercept : bool, default=True
        Include the bias in :math:`\lambda\|w\|^2/2`, as the paper and SVMlin do (and
        liblinear with ``intercept_scaling=1``). ``False`` leaves it unregularized.
    tol : float, default=1e-6
        CGLS tolerance :math:`\epsilon` after the first, loose stage (Table 1).
    tau : float, default=1e-6
        Tolerance :math:`\tau` of the optimality conditions (Table 1).
    max_iter : int, default=50
        Maximum Newton iterations (``itermax``).
    cg_max_iter : int, default=10000
        Maximum CGLS iterations per Newton step (``cgitermax``).
    preconditioner : {None, "jacobi"}, default=None
        ``"jacobi"`` preconditions CGLS by the diagonal of its system, an option
        beyond the paper; None is the paper's CGLS.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the cost of each class (SVMlin's ``-Cp``/``-Cn``).
    warm_start : bool, default=False
        Seed the solver with the previous ``coef_`` / ``intercept_`` (and hence the
        previous active set), skipping Table 1's loose first stage.
    time_limit : float, default=None
        Wall-clock seconds for the whole fit (> 0; None: no limit). When it runs
        out, no further Newton iteration starts, the last iterate is kept,
        ``converged_`` is False and a ``ConvergenceWarning`` names the limit.
    n_jobs : int, default=None
        Numba threads for the matrix-vector products (None keeps the current setting).
    verbose : int, default=0
        When positive, print a table as the fit runs: a header, then one line per
        Newton iteration with the columns of ``history_`` (``history_.to_table()``
        gives the same text afterwards).

    Attributes
    ----------
    %(converged_)s
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        Weights (one row per class when n_classes > 2).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        Bias (0 when ``fit_intercept=False``).
    objective_ : float
        Final value of the objective below; with more than two classes the sum over
        the one-vs-rest problems (which are independent: their sum is the objective of
        the whole fit). A float whatever the number of classes.
    objectives_ : ndarray of shape (n_problems,)
        The objective of each problem: one for two classes, one per class (one-vs-rest)
        otherwise.
    n_iter_ : int
        Newton iterations (maximum over one-vs-rest problems).
    n_cg_iter_ : int
        Total CGLS iterations.
    history_ : svmcore.reporting.History
        A list of dicts, one per Newton iteration of every problem: ``class`` (the
        positive class of that problem), ``iter``, ``cg_iter``, ``cg_converged``,
        ``n_active``, ``delta``, ``objective``, ``time`` (seconds since that problem's
        solve started); ``history_.column(key)`` is one key as an array.
    %(n_features_in_)s

    See Also
    --------
    TSVMClassifier : Transductive version using unlabeled data.
    MFAClassifier : Mean field annealing for the same transductive objective.
    sklearn.svm.LinearSVC : The liblinear solver; same minimizer with ``C = 1/(2 alpha)``.

    Notes
    -----
    With labels :math:`y_i \in \{-1,+1\}`, costs :math:`c_i` (``sample_weight`` times
    ``class_weight``) and :math:`w` including the bias, the objective is a sum:

    .. math::

        \min_w \; \frac{\lambda}{2}\|w\|^2
        + \frac12\sum_i c_i \max(0, 1 - y_i\, w^T x_i)^2 .

    Algorithm (Table 1 of the reference): unseeded, the first CGLS call uses
    :math:`\epsilon = 10^{-2}` and 10 iterations, then ``tol`` and ``cg_max_iter``;
    each Newton step solves
    :math:`[\lambda I + X_j^T C_j X_j]\bar w = X_j^T C_j y_j` on the active set
    :math:`j = \{i : y_i w^T x_i < 1\}` and takes the exact line-search step.

    Complexity: :math:`O(t_{mfn}\, \bar t_{cgls}\, \mathrm{nnz}(X))` time, with few
    Newton iterations in practice; memory :math:`O(\mathrm{nnz}(X) + n + d)` (no copy
    of ``X``, no :math:`X^TX`; float32 input is kept).

    Deviations: in the loose first stage the optimality check uses
    :math:`\max(\tau, \epsilon)`, and a step changing the objective by less than
    :math:`10^{-9}` relative also stops, as in SVMlin v1.0 (Table 1 read literally
    rarely leaves its first stage on text-like data); the line search is clipped at
    :math:`\delta \ge 0` and CGLS stops on an exactly zero residual (guards only);
    zero-cost samples are left out of the active set; ``preconditioner="jacobi"``
    and ``regularize_intercept=False`` are options beyond the paper.

    Beyond the paper: ``preconditioner="jacobi"``, ``regularize_intercept=False``,
    sample and class weights, ``warm_start``, and more than two classes (one-vs-rest).

    References
    ----------
    V. Sindhwani and S. S. Keerthi, "Large scale semi-supervised linear SVMs",
    SIGIR 2006. S. S. Keerthi and D. DeCoste, "A modified finite Newton method for
    fast solution of large scale linear SVMs", JMLR 6, 2005.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from l2svm_mfn import MFNClassifier
    >>> X, y = make_classification(n_samples=200, n_features=10, random_state=0)
    >>> clf = MFNClassifier(alpha=0.1).fit(X, y)
    >>> clf.score(X, y) > 0.9
    True
    """

    _parameter_constraints: dict = {
        **LinearSVMLinMixin._parameter_constraints,
        "class_weight": [None, dict, StrOptions({"balanced"})],
        "warm_start": ["boolean"],
    }

    def __init__(
        self,
        *,
        alpha: float = 1.0,
        fit_intercept: bool = True,
        regularize_intercept: bool = True,
        tol: float = 1e-6,
        tau: float = 1e-6,
        max_iter: int = 50,
        cg_max_iter: int = 10000,
        preconditioner: str | None = None,
        class_weight: dict[Any, float] | str | None = None,
        warm_start: bool = False,
        time_limit: float | None = None,
        n_jobs: int | None = None,
        verbose: int = 0,
    ) -> None:
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.regularize_intercept = regularize_intercept
        self.tol = tol
        self.tau = tau
        self.max_iter = max_iter
        self.cg_max_iter = cg_max_iter
        self.preconditioner = preconditioner
        self.time_limit = time_limit
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.verbose = verbose

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: MatrixLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> Self:
        """Fit the model.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data; CSR is used as is, float32 is kept.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample costs :math:`c_i` (multiplied by ``class_weight``).

        Returns
        -------
        self : MFNClassifier
            Fitted estimator.
        """
        seed_shape = getattr(self, "coef_", None)
        X, y = self._validate_Xy(X, y)
        check_classification_targets(y)
        classes = class_labels(y)
        if classes.size < 2:
            raise ValueError(
                f"MFNClassifier needs samples of at least 2 classes; got 1 class ({classes[0]})."
            )
        cost = check_sample_weight(sample_weight, X, dtype=np.float64)
        if self.class_weight is not None:
            cw = compute_class_weight(self.class_weight, classes=classes, y=y)
            cost = cost * cw[np.searchsorted(classes, y)]
        if sp.issparse(X):
            X.sum_duplicates()
        n_features = X.shape[1]
        X, lam, scale_exp = self._scaled(X)
        problems = [classes[1]] if classes.size == 2 else list(classes)
        old = None
        if (
            self.warm_start
            and seed_shape is not None
            and seed_shape.shape == (len(problems), n_features)
            and np.array_equal(getattr(self, "classes_", np.empty(0)), classes)
        ):
            old = np.hstack([np.ldexp(self.coef_, scale_exp), self.intercept_[:, None]])
        coefs, objectives, n_iters, n_cg, converged = [], [], [], 0, True
        history = History(table=MFN_TABLE)
        show = TablePrinter(MFN_TABLE, enabled=bool(self.verbose))
        budget = self._budget()
        with numba_threads(self.n_jobs):
            for k, positive in enumerate(problems):
                y_signed = np.where(y == positive, 1.0, -1.0)

                def report(rec: dict[str, Any], c: Any = positive) -> None:
                    show({"class": c, **rec})

                w0 = None
                if old is not None:
                    w0 = old[k] if self.fit_intercept else old[k, :-1]
                res = l2svm_mfn(
                    X,
                    y_signed,
                    cost,
                    lam,
                    intercept=self.fit_intercept,
                    w0=w0,
                    tol=self.tol,
                    tau=self.tau,
                    max_iter=self.max_iter,
                    cg_max_iter=self.cg_max_iter,
                    preconditioner=self.preconditioner,
                    budget=budget,
                    report=report,
                )
                converged = converged and res.converged
                if not res.converged and not budget.exhausted:
                    warnings.warn(
                        f"L2-SVM-MFN did not meet its optimality conditions within "
                        f"max_iter={self.max_iter} Newton iterations (tau={self.tau}); "
                        "increase max_iter or cg_max_iter.",
                        ConvergenceWarning,
                        stacklevel=2,
                    )
                history.extend({"class": positive, **rec} for rec in res.history)
                coefs.append(res.w)
                # The last record's objective is the one at the returned (w, outputs).
                objectives.append(
                    res.history[-1]["objective"]
                    if res.history
                    else squared_hinge_objective(res.w, res.outputs, y_signed, cost, lam)
                )
                n_iters.append(res.n_iter)
                n_cg += res.n_cg_iter
        self.classes_ = classes
        W = np.vstack(coefs)
        self.coef_ = np.ascontiguousarray(np.ldexp(W[:, :n_features], -scale_exp))
        self.intercept_ = W[:, n_features].copy() if self.fit_intercept else np.zeros(len(W))
        self.objectives_ = np.array(objectives)
        self.objective_ = float(self.objectives_.sum())
        self.n_iter_ = max(n_iters)
        self.n_cg_iter_ = n_cg
        self.history_ = history
        self._warn_if_stopped(budget, converged)
        return self
