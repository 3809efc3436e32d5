"""TSVMClassifier: the transductive SVM with multiple label switching (Table 4, sec. 3.1.2)."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

from sklearn.exceptions import ConvergenceWarning

from svmcore.docstrings import fill_doc
from svmcore.validation import (
    Interval,
)

from ._docs import DOCS
from ._report import TSVM_TABLE
from ._semi_base import _SemiSupervisedMixin
from ._tsvm import transductive_mfn

__all__ = ["TSVMClassifier"]


@fill_doc(DOCS)
class TSVMClassifier(_SemiSupervisedMixin):
    r"""Transductive linear L2-SVM (TSVM) trained by L2-SVM-MFN, with multiple switching.

    Joachims-style TSVM for large sparse data: an L2-SVM-MFN fit on the labeled
    samples labels the unlabeled ones in the ratio :math:`r : 1-r`; then, as the
    unlabeled weight grows from ``anneal_start`` to ``alpha_unlabeled``, pairs of
    temporary labels are switched (up to ``max_switch`` per pass) while that
    decreases the objective, and the model is retrained with seeding.

    %(labels_convention)s

    Parameters
    ----------
    alpha : float, default=1e-3
        :math:`\lambda`, regularization (the paper's experiments use 0.001).
    alpha_unlabeled : float, default=1.0
        :math:`\lambda'`, final weight of the unlabeled loss (SVMlin ``-U``).
    positive_fraction : float or None, default=None
        :math:`r`, fraction of unlabeled samples put in ``classes_[1]``; None
        estimates it from the labeled class ratio (SVMlin ``-R``).
    %(unlabeled_value)s
    max_switch : int, default=10000
        :math:`S`, maximum pairs switched per pass: the paper's multiple switching
        (section 3.1.2), default SVMlin v1.0's ``-S 10000``. 1 is Joachims' TSVM
        (Table 4's listed default), an order of magnitude slower for nearly the same
        error (the paper's section 4).
    anneal_start : float, default=1e-5
        First value of :math:`\hat\lambda'`.
    anneal_factor : float, default=1.5
        Growth factor :math:`R` of :math:`\hat\lambda'`: SVMlin v1.0's rate (the
        paper's text says 2, which ended at a higher objective (7) on dense data).
    %(intercept)s
    tol, tau : float, default=1e-6
        Tolerances of every L2-SVM-MFN retraining (Table 1).
    max_iter : int, default=50
        Newton iterations per retraining.
    %(cg_preconditioner)s
    time_limit : float, default=None
        Wall-clock seconds for the whole fit (> 0; None: no limit). When it runs
        out, no further Newton iteration, retraining or switching pass starts, the
        last iterate is kept, ``converged_`` is False and a ``ConvergenceWarning``
        names the limit.
    %(n_jobs)s
    verbose : int, default=0
        When positive, print a table as the fit runs: a header, then one line per
        L2-SVM-MFN retraining with the columns of ``history_``
        (``history_.to_table()`` gives the same text afterwards).

    Attributes
    ----------
    %(converged_)s
    %(binary_classes_)s
    coef_ : ndarray of shape (1, n_features)
        Weights.
    intercept_ : ndarray of shape (1,)
        Bias.
    transduction_ : ndarray of shape (n_samples,)
        Labels of the training samples: the given ones and the final temporary
        labels of the unlabeled ones.
    %(positive_fraction_)s
    objective_ : float
        Objective (7) at ``alpha_unlabeled`` with ``transduction_``.
    n_iter_ : int
        Number of L2-SVM-MFN calls.
    n_switched_ : int
        Label pairs switched in total.
    history_ : svmcore.reporting.History
        A list of dicts, one per L2-SVM-MFN retraining: ``lam_u`` (the current
        :math:`\hat\lambda'`), ``switched`` (label pairs switched before it; 0 for a
        Loop-1 retraining), ``objective_before`` and ``objective_switched`` (the
        objective at the previous ``w`` before and after switching), ``objective``
        (after retraining), ``mfn_iter``, ``converged``, ``time`` (seconds since the
        transductive loop started). Without unlabeled samples: the records of
        :class:`MFNClassifier`'s ``history_`` (one per Newton iteration).
    %(n_features_in_)s

    See Also
    --------
    MFNClassifier : The supervised solver used inside.
    MFAClassifier : Mean field annealing for the same objective.

    Notes
    -----
    With :math:`l` labeled and :math:`u` unlabeled samples, TSVM solves (7):

    .. math::

        \min_{w,\; y'\in\{-1,1\}^u} \frac{\lambda}{2}\|w\|^2
        + \frac{1}{2l}\sum_{i=1}^l \max(0, 1 - y_i w^T x_i)^2
        + \frac{\lambda'}{2u}\sum_{j=1}^u \max(0, 1 - y'_j w^T x'_j)^2
        \quad\text{s.t.}\quad \frac1u\sum_j [y'_j = 1] = r.

    Each switch pass strictly decreases the objective (the paper's Proposition),
    so the loops terminate. Cost: :math:`O(n_{switches}\,\bar t_{mfn}\,\bar t_{cgls}\,
    \mathrm{nnz}(X))` time, :math:`O(\mathrm{nnz}(X) + n + d)` memory.

    Deviations: Table 4 stops once :math:`\hat\lambda' \ge \lambda'` without a
    round at :math:`\lambda'` itself; like SVMlin v1.0 we cap the last value at
    :math:`\lambda'` and run that round, so the result optimizes (7) at the
    requested :math:`\lambda'`. The number of positive temporary labels is
    ``round(r * u)``. Every retraining after the first transductive one (which starts
    from :math:`w = 0`, as in Table 4) is seeded. Defaults are SVMlin v1.0's where the
    paper's differ: ``max_switch=10000`` (Table 4 lists S = 1) and ``anneal_factor=1.5``
    (section 3.1.1 says 2).

    %(semi_beyond_paper)s

    References
    ----------
    V. Sindhwani and S. S. Keerthi, "Large scale semi-supervised linear SVMs",
    SIGIR 2006, section 3.1 and Table 4. T. Joachims, "Transductive inference for
    text classification using support vector machines", ICML 1999.

    Examples
    --------
    >>> import numpy as np
    >>> from l2svm_mfn import TSVMClassifier
    %(semi_example_data)s
    >>> clf = TSVMClassifier(unlabeled_value=-1).fit(X, y)
    %(semi_example_check)s
    """

    _parameter_constraints: dict = {
        **_SemiSupervisedMixin._parameter_constraints,
        "max_switch": [Interval(Integral, 1, None, closed="left")],
        "anneal_start": [Interval(Real, 0.0, None, closed="neither")],
        "anneal_factor": [Interval(Real, 1.0, None, closed="neither")],
    }

    def __init__(
        self,
        *,
        alpha: float = 1e-3,
        alpha_unlabeled: float = 1.0,
        positive_fraction: float | None = None,
        unlabeled_value: int | None = None,
        max_switch: int = 10000,
        anneal_start: float = 1e-5,
        anneal_factor: float = 1.5,
        fit_intercept: bool = True,
        regularize_intercept: bool = True,
        tol: float = 1e-6,
        tau: float = 1e-6,
        max_iter: int = 50,
        cg_max_iter: int = 10000,
        preconditioner: str | None = None,
        time_limit: float | None = None,
        n_jobs: int | None = None,
        verbose: int = 0,
    ) -> None:
        self.alpha = alpha
        self.alpha_unlabeled = alpha_unlabeled
        self.positive_fraction = positive_fraction
        self.unlabeled_value = unlabeled_value
        self.max_switch = max_switch
        self.anneal_start = anneal_start
        self.anneal_factor = anneal_factor
        self.fit_intercept = fit_intercept
        self.regularize_intercept = regularize_intercept
        self.tol = tol
        self.tau = tau
        self.max_iter = max_iter
        self.cg_max_iter = cg_max_iter
        self.preconditioner = preconditioner
        self.time_limit = time_limit
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _set_supervised_extras(self):
        self.n_switched_ = 0

    _history_table = TSVM_TABLE

    def _solve(self, X, ys, labeled, lam, r, weight, budget, report):
        res = transductive_mfn(
            X,
            ys,
            labeled,
            lam,
            self.alpha_unlabeled,
            positive_fraction=r,
            max_switch=self.max_switch,
            anneal_start=self.anneal_start,
            anneal_factor=self.anneal_factor,
            sample_weight=weight,
            intercept=self.fit_intercept,
            mfn_params=self._mfn_params(),
            budget=budget,
            report=report,
        )
        converged = all(rec["converged"] for rec in res.history)
        if not budget.exhausted and not converged:
            warnings.warn(
                f"Some L2-SVM-MFN retrainings hit max_iter={self.max_iter} before meeting "
                "their optimality conditions; increase max_iter or cg_max_iter.",
                ConvergenceWarning,
                stacklevel=3,
            )
        self.n_switched_ = res.n_switched
        return res.w, res.labels, res.objective, res.history, res.n_mfn, converged
