"""AID for the semi-supervised SVM (Park & Klabjan 2016, sec. 3.3 and 4.3)."""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable
from numbers import Integral, Real
from typing import Any, Self

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from aid_core import as_data_source
from aid_core import run_aid as _run_aid
from svmcore.docstrings import SEMI_SUPERVISED, fill_doc
from svmcore.model_selection import SemiSupervisedScoreMixin
from svmcore.solvers import SolverLimitWarning
from svmcore.typing import ArrayLike, RandomStateLike
from svmcore.validation import (
    CachedParamNames,
    Interval,
    StrOptions,
    check_is_fitted,
    check_magnitude,
    check_seed,
    fit_context,
    split_semi_supervised,
    validate_data,
)

from ._common import store_run
from ._s3vm_problem import _S3VMProblem
from ._s3vm_split import lemma1_labels

__all__ = ["AIDS3VMClassifier"]

#: The one clock of a fit: its deadline, what each solve has left of it, and the AID loop's
#: The window of M max|X|^2 in which the S3VM's solvers work (see ``fit``).
_MAX_PENALTY = 1e18
_MIN_PENALTY = 1e-12
#: Largest |X| whatever M (svmcore.validation.check_magnitude's default).
MAX_MAGNITUDE = 2.0**64

#: ``time_limit`` and history times (seconds as a float). Tests replace it.
_clock = time.perf_counter


@fill_doc(SEMI_SUPERVISED)
class AIDS3VMClassifier(SemiSupervisedScoreMixin, ClassifierMixin, CachedParamNames, BaseEstimator):
    """Semi-supervised linear SVM (S3VM) by Aggregate and Iterative Disaggregate.

    Solves the transductive S3VM (12) of Park & Klabjan (2016, sec. 3.3): a hyperplane
    and labels for the unlabeled samples (``y == -1`` by default) minimizing the hinge
    losses of both.
    The samples are clustered (labeled positive, labeled negative and unlabeled apart),
    the aggregated problem (15) is solved to proven optimality as a mixed-integer convex
    QP by SCIP, and violating clusters are split (Steps 2-3) until the condition of
    Prop 5 holds or ``max_iter`` aggregated problems have been solved. ``max_iter=1``
    is the paper's AID1, ``max_iter=5`` its AID5.

    %(labels_convention)s

    Parameters
    ----------
    M_l : float, default=5.0
        Penalty of the labeled hinge losses (the paper's fixed setting is 5).
    M_u : float, default=1.0
        Penalty of the unlabeled hinge losses (the paper's fixed setting is 1).
    %(unlabeled_value)s
    balance : {"constraint", "cost"} or None, default="constraint"
        Sec. 4.3's technique for unbalanced data: ``"constraint"`` forces the mean
        unlabeled score to the mean labeled label, ``"cost"`` raises the minority class's
        ``M_l`` by the class-size ratio, ``None`` uses neither.
    initial_aggregation_rate : float in (0, 1], default=0.01
        The rate r^0: each group starts with ``max(10, ceil(r^0 n_group))`` clusters (at most
        its size). The paper uses 0.01/0.05 for n <= 10,000 and 0.0001/0.0005 above.
    min_initial_clusters : int, default=10
        Lower bound on the initial clusters per group; the paper's 10 avoids a
        meaningless aggregated problem.
    aggregate_labeled : bool, default=True
        True (the paper) clusters the labeled samples like the unlabeled ones. False
        keeps every labeled sample as its own cluster (an extension): labeled samples
        are few in semi-supervised learning, and AID1 cannot undo their aggregation, so
        a hyperplane fitted to a handful of labeled cluster means ignores most of the
        supervision. It adds only continuous variables to the MIQP (no binaries).
    max_iter : int, default=1
        Number of aggregated problems solved at most (1 = AID1, the paper's recommended
        setting; 5 = AID5; larger values run towards the optimality condition).
    time_limit : float or None, default=None
        Seconds for the whole run: every solve is limited to what remains, and no new
        iteration starts after it. On expiry the best solution is returned with a
        ``SolverLimitWarning`` (a ``ConvergenceWarning``) naming ``time_limit`` and
        ``converged_ = False``.
    time_limit_per_solve : float or None, default=None
        Seconds for each MIQP solve (SCIP returns its best solution and gap on expiry).
    mip_gap : float, default=1e-6
        Relative gap at which SCIP declares an aggregated problem solved.
    verbose : int, default=0
        > 0 prints one line per iteration.
    callback : callable or None, default=None
        Called after each iteration that does not end the run by Prop 5 with the
        iteration's record (plus ``"solution"``, whose ``params`` hold ``"w"`` and ``"b"``,
        and ``"evaluation"``); returning True stops the run. E.g. an AID5 run can record
        its first iteration, which is exactly AID1's solution.
    random_state : int, RandomState instance or None, default=None
        Seeds the initial k-means iterations.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
    transduction_ : ndarray of shape (n_samples,)
        Labels of the training samples: the given ones, and for unlabeled samples the
        Lemma 1 label (the sign of the decision function).
    objective_ : float
        E_best: objective (12) of the returned hyperplane.
    lower_bound_ : float
        A certified lower bound on the optimum of (12): the labeled-only SVM optimum.
    optimality_gap_ : float
        Certified relative gap ``(objective_ - lower_bound_) / objective_`` (also when
        Prop 5 holds: see Notes).
    mip_gaps_ : ndarray of shape (n_iter_,)
        The relative MIP gap of every aggregated solve (also in ``history_``).
    stop_reason_ : str
        ``"optimal"`` (the condition of Prop 5 holds), ``"gap"`` (``objective_`` equals
        the lower bound), ``"max_iter"``, ``"time_limit"`` or ``"callback"``.
    converged_ : bool
        Whether the run stopped by Prop 5 or a zero gap (``stop_reason_`` "optimal" or
        "gap"). A stop at ``max_iter`` is the paper's AID1/AID5 design, so it gives
        ``converged_ = False`` without a warning; a stop at ``time_limit`` warns.
    history_ : aid_core.AIDHistory
        One record per iteration (t, |K^t|, r^t, F^t, bound, E^t, E_best, gap, times,
        labeled training rate, MIP gap, status, nodes, time and big-M of the solve).
    n_iter_ : int
    n_clusters_ : int
        Number of clusters of the returned solution.
    aggregation_rate_ : float
        ``n_clusters_ / n_samples``.
    init_time_ : float
        Seconds of the initial clustering (not in ``history_``'s times).
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Defined only when ``X`` has string feature names.

    See Also
    --------
    sklearn.semi_supervised.SelfTrainingClassifier : A heuristic semi-supervised wrapper.

    Notes
    -----
    The problem solved is

    .. math::

        \\min_{w, b, d} \\tfrac12 \\|w\\|^2 + M_l \\sum_{i \\in I_l}
        \\max(0, 1 - y_i (w x_i + b)) + M_u \\sum_{i \\in I_u} \\max(0, 1 - d_i (w x_i + b)),
        \\quad d \\in \\{-1, 1\\}^{|I_u|},

    and each aggregated problem (15) is the big-M MIQP (14) on the cluster means with
    weights ``|C_k|``, one binary per unlabeled cluster; M is derived from the data (see
    the package README). An MIQP is NP-hard: time grows exponentially in the number of
    unlabeled clusters in the worst case, which is why the paper stops after one or five
    iterations. Per iteration the work outside the solver is O(n m) (scores, sums).

    The objective of (12) is not convex in ``(w, b)``, so F^t is not a lower bound and is
    not monotone (the paper says so); ``history_["lower_bound"]`` holds the labeled-only
    bound instead and the returned solution is the best E^t seen.

    Prop 5 is not a sufficient optimality condition: when it holds, E^T = F^T (Lemma 2),
    but an unlabeled cluster whose members lie on one side of the returned hyperplane
    may straddle the optimal one, where its aggregated loss overestimates the members'
    losses, so F^T can exceed E^*. The tests show an instance (AID stops by Prop 5 with
    every MIQP proven optimal, E^T 0.24% above the brute-force optimum). A stop by Prop
    5 is therefore reported as ``stop_reason_ = "optimal"`` as in the paper, but
    ``optimality_gap_`` stays the certified gap.

    Beyond the paper: the certified gap against the labeled-only SVM, the data-derived
    big-M, SCIP instead of CPLEX for the MIQP, a per-solve time limit next to the total
    one (the paper's 1,800 s) with the best incumbent kept, and ``callback``.

    References
    ----------
    Y. W. Park and D. Klabjan, "Iterative Aggregation and Disaggregation Algorithm for
    Machine Learning Problems", 2016, sec. 3.3 and 4.3.

    Examples
    --------
    >>> import numpy as np
    >>> from aid_models import AIDS3VMClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(-2, 1, (30, 2)), rng.normal(2, 1, (30, 2))]
    >>> y = np.full(60, -1)  # -1: unlabeled
    >>> y[[0, 1, 30, 31]] = [0, 0, 1, 1]  # y is {-1, 0, 1}: state the convention
    >>> clf = AIDS3VMClassifier(unlabeled_value=-1, random_state=0).fit(X, y)
    >>> float(np.mean(clf.transduction_ == np.repeat([0, 1], 30)))
    1.0
    >>> clf.score(X, y)  # the four labeled rows only
    1.0
    """

    _parameter_constraints: dict = {
        "M_l": [Interval(Real, 0.0, None, closed="neither")],
        "M_u": [Interval(Real, 0.0, None, closed="neither")],
        "unlabeled_value": [None, Integral],
        "balance": [None, StrOptions({"constraint", "cost"})],
        "initial_aggregation_rate": [Interval(Real, 0.0, 1.0, closed="right")],
        "min_initial_clusters": [Interval(Integral, 1, None, closed="left")],
        "aggregate_labeled": ["boolean"],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "time_limit": [None, Interval(Real, 0.0, None, closed="neither")],
        "time_limit_per_solve": [None, Interval(Real, 0.0, None, closed="neither")],
        "mip_gap": [Interval(Real, 0.0, None, closed="left")],
        "verbose": ["verbose"],
        "callback": [None, callable],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        M_l: float = 5.0,
        M_u: float = 1.0,
        unlabeled_value: int | None = None,
        balance: str | None = "constraint",
        initial_aggregation_rate: float = 0.01,
        min_initial_clusters: int = 10,
        aggregate_labeled: bool = True,
        max_iter: int = 1,
        time_limit: float | None = None,
        time_limit_per_solve: float | None = None,
        mip_gap: float = 1e-6,
        verbose: int = 0,
        callback: Callable[[dict[str, Any]], bool | None] | None = None,
        random_state: RandomStateLike = None,
    ) -> None:
        self.M_l = M_l
        self.M_u = M_u
        self.unlabeled_value = unlabeled_value
        self.balance = balance
        self.initial_aggregation_rate = initial_aggregation_rate
        self.min_initial_clusters = min_initial_clusters
        self.aggregate_labeled = aggregate_labeled
        self.max_iter = max_iter
        self.time_limit = time_limit
        self.time_limit_per_solve = time_limit_per_solve
        self.mip_gap = mip_gap
        self.verbose = verbose
        self.callback = callback
        self.random_state = random_state

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        """Fit the S3VM by AID.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, labeled and unlabeled.
        y : array-like of shape (n_samples,)
            Two class labels; ``unlabeled_value`` (-1 unless stated; a y of exactly
            {-1, 0, 1} needs it) marks an unlabeled sample. At least one labeled
            sample of each class is required. Without unlabeled samples the problem is
            the supervised SVM (7) (and ``balance="constraint"`` has nothing to act on).

        Returns
        -------
        self : AIDS3VMClassifier
            The fitted estimator.
        """
        X, y = validate_data(self, X, y, dtype=[np.float64, np.float32])
        # The QPs and MIQPs see penalties M max|X|^2 (weighted_svm_qp solves on unit-scale
        # X): HiGHS fails beyond about 1e18 (kSolveError at 5e20), and below 1e-12 the
        # solvers' absolute tolerances cannot tell the features from zero (at |X| = 1e-8,
        # M = 5 the fit was 10x the constant model's objective). Issue 19.
        check_magnitude(
            X,
            "X",
            "AIDS3VMClassifier",
            limit=min(MAX_MAGNITUDE, math.sqrt(_MAX_PENALTY / max(self.M_l, self.M_u))),
            low=math.sqrt(_MIN_PENALTY / min(self.M_l, self.M_u)),
        )
        classes, y_signed, unlabeled = split_semi_supervised(
            y, unlabeled_value=self.unlabeled_value, require_unlabeled=False
        )
        self.classes_ = classes
        seed = check_seed(self.random_state)
        clock = _clock
        start = clock()
        deadline = None if self.time_limit is None else start + self.time_limit
        problem = _S3VMProblem(self, y_signed, deadline, clock)
        result = _run_aid(
            problem,
            as_data_source(X, y_signed.astype(np.float64)),
            gap_tol=0.0,
            max_iter=self.max_iter,
            time_limit=self.time_limit,
            verbose=self.verbose,
            callback=self.callback,
            random_state=seed,
            clock=clock,
        )
        params = result.solution.params
        w, b = params["w"], params["b"]
        self.coef_ = w[None, :].copy()
        self.intercept_ = np.array([b])
        scores = np.asarray(X @ w, dtype=np.float64) + b
        d = lemma1_labels(scores)
        self.transduction_ = np.where(unlabeled, classes[(d > 0).astype(int)], y)
        # Prop 5 is not a certificate (see Notes): optimality_gap_ is the certified gap.
        store_run(self, result, X.shape[0], warn_budget=False)
        # one MIQP per iteration (max_attempts = 1): the history records each one
        self.mip_gaps_ = np.array([rec["mip_gap"] for rec in self.history_])
        unproven = [rec["mip_status"] for rec in self.history_ if not rec["mip_proven"]]
        if unproven or result.stop_reason == "time_limit":
            reasons = []
            if result.stop_reason == "time_limit":
                reasons.append(f"the run stopped on its time_limit={self.time_limit} s")
            if unproven:
                reasons.append(
                    f"{len(unproven)} of {len(self.history_)} aggregated solves were not "
                    f"proven optimal ({', '.join(sorted(set(unproven)))})"
                )
            warnings.warn(
                f"AIDS3VMClassifier: {' and '.join(reasons)}. Returning the best solution "
                f"found; optimality_gap_ = {self.optimality_gap_:.3g} against the "
                "labeled-only lower bound.",
                SolverLimitWarning,
                stacklevel=2,
            )
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """Signed score ``X @ coef_.T + intercept_``; positive means ``classes_[1]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        scores : ndarray of shape (n_samples,)
            The signed score of each sample.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=[np.float64, np.float32], reset=False)
        return np.asarray(X @ self.coef_[0], dtype=np.float64) + self.intercept_[0]

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Predict class labels by the sign of :meth:`decision_function` (Lemma 1).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            ``classes_[1]`` where the score is positive, else ``classes_[0]``.
        """
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(int)]
