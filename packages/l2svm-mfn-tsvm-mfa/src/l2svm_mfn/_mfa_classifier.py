"""MFAClassifier: mean field annealing for the transductive SVM (Tables 5-7)."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from svmcore.docstrings import fill_doc
from svmcore.validation import (
    Interval,
)

from ._docs import DOCS
from ._mfa import mean_field_annealing
from ._report import MFA_TABLE
from ._semi_base import _SemiSupervisedMixin

__all__ = ["MFAClassifier"]


@fill_doc(DOCS)
class MFAClassifier(_SemiSupervisedMixin):
    r"""Semi-supervised linear L2-SVM by mean field annealing (MFA) with L2-SVM-MFN.

    Relaxes the unknown labels of the transductive SVM to beliefs :math:`p_j`,
    adds an entropy term at temperature :math:`T`, and tracks the minimizer while
    :math:`T` decreases, alternating an exact update of :math:`p` (under the class
    balance constraint) with a seeded L2-SVM-MFN fit of :math:`w`. Less prone to
    the local minima of :class:`TSVMClassifier`.

    %(labels_convention)s

    Parameters
    ----------
    alpha : float, default=1e-3
        :math:`\lambda`, regularization.
    alpha_unlabeled : float, default=1.0
        :math:`\lambda'`, weight of the unlabeled loss.
    positive_fraction : float or None, default=None
        :math:`r` in the balance constraint (9); None estimates it from the
        labeled class ratio.
    %(unlabeled_value)s
    temperature : float, default=10.0
        Initial temperature :math:`T_0` (Table 5).
    temperature_factor : float, default=1.5
        :math:`R`; the temperature is divided by it after each inner loop.
    anneal_tol : float, default=1e-6
        :math:`\epsilon` of the KL (16) and entropy (17) stopping rules.
    max_outer : int, default=30
        ``itermax1``, maximum temperatures.
    max_inner : int, default=100
        ``itermax2``, maximum alternations per temperature.
    %(intercept)s
    tol : float, default=1e-6
        CGLS tolerance of OPTIMIZE-W.
    tau : float, default=1e-8
        Optimality tolerance of OPTIMIZE-W (Table 7).
    max_iter : int, default=50
        Newton iterations per OPTIMIZE-W.
    %(cg_preconditioner)s
    objective_tol : float or None, default=None
        OPTIMIZE-W also stops when a Newton step changes its objective by less than
        this absolute amount, as SVMlin v1.0's ``optimize_w`` does with 1e-6 (the
        ``svmlin`` command passes 1e-6); None stops on a relative change below 1e-9,
        as L2-SVM-MFN (a more exact OPTIMIZE-W, which can take another annealing path).
    time_limit : float, default=None
        Wall-clock seconds for the whole fit (> 0; None: no limit). When it runs
        out, no further Newton iteration or OPTIMIZE-W starts, the last iterate is kept,
        ``converged_`` is False and a ``ConvergenceWarning`` names the limit.
    %(n_jobs)s
    verbose : int, default=0
        When positive, print a table as the fit runs: a header, then one line per
        inner annealing iteration with the columns of ``history_``
        (``history_.to_table()`` gives the same text afterwards).

    Attributes
    ----------
    %(converged_)s
    %(binary_classes_)s
    coef_ : ndarray of shape (1, n_features)
        Weights of the path point with the smallest objective (18).
    intercept_ : ndarray of shape (1,)
        Bias of that point.
    transduction_ : ndarray of shape (n_samples,)
        Given labels, and for unlabeled samples the sign of the returned model's output.
    beliefs_ : ndarray of shape (n_unlabeled,)
        Final :math:`p_j` (probability of ``classes_[1]``) of the unlabeled samples.
    %(positive_fraction_)s
    objective_ : float
        Smallest objective (18) on the path (that of ``coef_``).
    n_iter_ : int
        Number of OPTIMIZE-W calls in the annealing loops.
    history_ : svmcore.reporting.History
        A list of dicts, one per inner iteration: ``T`` (temperature), ``outer``,
        ``inner``, ``kl`` (mean KL divergence (16) between successive beliefs),
        ``objective`` (18), ``mfn_iter`` (OPTIMIZE-W's Newton iterations),
        ``p_newton``, ``p_bisect`` and ``p_residual`` (OPTIMIZE-P's root finding),
        ``time`` (seconds since the annealing started). Without unlabeled samples: the
        records of :class:`MFNClassifier`'s ``history_``.
    %(n_features_in_)s

    See Also
    --------
    TSVMClassifier : Label switching for the same objective.
    MFNClassifier : Supervised solver.

    Notes
    -----
    For fixed :math:`T`, minimizes (8) subject to (9):

    .. math::

        \frac{\lambda}{2}\|w\|^2 + \frac{1}{2l}\sum_i \max(0, 1 - y_i w^Tx_i)^2
        + \frac{\lambda'}{2u}\sum_j \big(p_j \max(0, 1 - w^Tx'_j)^2
        + (1-p_j)\max(0, 1 + w^Tx'_j)^2\big)
        + \frac{T}{2u}\sum_j \big(p_j\log p_j + (1-p_j)\log(1-p_j)\big),
        \quad \frac1u\sum_j p_j = r,

    and returns the iterate with the smallest objective (18),
    :math:`\frac{\lambda}{2}\|w\|^2 + \frac{1}{2l}\sum_i\max(0,1-y_iw^Tx_i)^2 +
    \frac{\lambda'}{2u}\sum_j\max(0, 1-|w^Tx'_j|)^2`. OPTIMIZE-W sees each
    unlabeled example once (eq. 13-14), so a call costs about one L2-SVM-MFN on
    :math:`l + u` rows; memory :math:`O(\mathrm{nnz}(X) + n + d)`.

    Deviations: the stopping rules are read as (16)-(17), mean KL and entropy per
    unlabeled example below ``anneal_tol`` (Table 5 prints ``kl > eps`` and
    ``h > eps``), both in bits as SVMlin v1.0 computes them, with beliefs clipped to
    :math:`[10^{-8}, 1 - 10^{-8}]` in the KL so that one underflowed belief does not
    make it infinite (the paper's "log" has no base; natural logarithms end every loop
    earlier and take another annealing path, 3.7 % above SVMlin's objective on a
    g241c-like set); Table 6 is read as its text defines :math:`B` and :math:`B'`
    (see :func:`l2svm_mfn._mfa.optimize_p`), with a genuine Newton branch.

    %(semi_beyond_paper)s

    References
    ----------
    V. Sindhwani and S. S. Keerthi, "Large scale semi-supervised linear SVMs",
    SIGIR 2006, section 3.2 and Tables 5-7.

    Examples
    --------
    >>> import numpy as np
    >>> from l2svm_mfn import MFAClassifier
    %(semi_example_data)s
    >>> clf = MFAClassifier(unlabeled_value=-1).fit(X, y)
    %(semi_example_check)s
    """

    _parameter_constraints: dict = {
        **_SemiSupervisedMixin._parameter_constraints,
        "temperature": [Interval(Real, 0.0, None, closed="neither")],
        "temperature_factor": [Interval(Real, 1.0, None, closed="neither")],
        "anneal_tol": [Interval(Real, 0.0, None, closed="neither")],
        "max_outer": [Interval(Integral, 0, None, closed="left")],
        "max_inner": [Interval(Integral, 1, None, closed="left")],
        "objective_tol": [None, Interval(Real, 0.0, None, closed="neither")],
    }

    def __init__(
        self,
        *,
        alpha: float = 1e-3,
        alpha_unlabeled: float = 1.0,
        positive_fraction: float | None = None,
        unlabeled_value: int | None = None,
        temperature: float = 10.0,
        temperature_factor: float = 1.5,
        anneal_tol: float = 1e-6,
        max_outer: int = 30,
        max_inner: int = 100,
        fit_intercept: bool = True,
        regularize_intercept: bool = True,
        tol: float = 1e-6,
        tau: float = 1e-8,
        max_iter: int = 50,
        cg_max_iter: int = 10000,
        preconditioner: str | None = None,
        objective_tol: float | None = None,
        time_limit: float | None = None,
        n_jobs: int | None = None,
        verbose: int = 0,
    ) -> None:
        self.alpha = alpha
        self.alpha_unlabeled = alpha_unlabeled
        self.positive_fraction = positive_fraction
        self.unlabeled_value = unlabeled_value
        self.temperature = temperature
        self.temperature_factor = temperature_factor
        self.anneal_tol = anneal_tol
        self.max_outer = max_outer
        self.max_inner = max_inner
        self.fit_intercept = fit_intercept
        self.regularize_intercept = regularize_intercept
        self.tol = tol
        self.tau = tau
        self.max_iter = max_iter
        self.cg_max_iter = cg_max_iter
        self.preconditioner = preconditioner
        self.objective_tol = objective_tol
        self.time_limit = time_limit
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _set_supervised_extras(self):
        self.beliefs_ = np.empty(0)

    _history_table = MFA_TABLE

    def _solve(self, X, ys, labeled, lam, r, weight, budget, report):
        res = mean_field_annealing(
            X,
            ys,
            labeled,
            lam,
            self.alpha_unlabeled,
            positive_fraction=r,
            T0=self.temperature,
            temperature_factor=self.temperature_factor,
            epsilon=self.anneal_tol,
            max_outer=self.max_outer,
            max_inner=self.max_inner,
            sample_weight=weight,
            intercept=self.fit_intercept,
            mfn_params={**self._mfn_params(), "objective_tol": self.objective_tol},
            budget=budget,
            report=report,
        )
        self.beliefs_ = res.p
        labels = np.where(labeled, ys, np.where(res.outputs > 0, 1.0, -1.0))
        if not res.converged and not budget.exhausted:
            warnings.warn(
                f"Some OPTIMIZE-W solves hit max_iter={self.max_iter} Newton iterations "
                "before meeting their optimality conditions; the model is the best iterate "
                "on the path (converged_ = False). Increase max_iter or cg_max_iter.",
                ConvergenceWarning,
                stacklevel=3,
            )
        return res.w, labels, res.objective, res.history, res.n_iter, res.converged
