"""Valid but hostile training data, as hypothesis strategies, and the property they test.

Issue 19: a fit on data that pass validation but are numerically hard must either raise
a clear error or warn naming the cause (scaling, overflow, non-convergence), or return a
model at least as good as the trivial one - never a silently wrong model. Every package's
tests draw from :func:`hostile_data` and check each fit with :func:`check_hostile_fit`.

Two environment variables turn the CI suites into the longer local profile
(``python tools/hostile_table.py``): ``SVMCORE_HOSTILE_EXAMPLES`` sets the draws per case
of :func:`suite_settings`, and ``SVMCORE_HOSTILE_REPORT`` names a file to which
:func:`check_hostile_fit` appends one JSON line per fit (estimator, case, outcome).

Needs ``hypothesis`` (in every package's ``test`` extra).
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
import scipy.sparse as sp
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning

__all__ = [
    "CASES",
    "ERROR_WORDS",
    "EXAMPLES_ENV",
    "HostileData",
    "REPORT_ENV",
    "WARNING_WORDS",
    "check_hostile_fit",
    "estimator_label",
    "hostile_data",
    "suite_settings",
]

#: The hostile cases :func:`hostile_data` draws from (issue 19, part 1).
CASES = (
    "scale",  # every feature times 10**k, k in [-150, 150]
    "mixed scales",  # column j times 10**k_j, the k_j spread over [-150, 150] (both ends)
    "constant column",
    "duplicated columns",
    "duplicated rows",
    "separable, huge C",  # a margin between the classes; penalty_scale 1e6..1e8
    "imbalance 1:1000",  # 1 positive per 1000 negatives (1001 or 2002 rows)
    "single positive",
    "near-singular X^T X",  # a column equal to another up to 1e-9 relative noise
    "float32 near overflow",  # float32 entries around 1e37 (the largest is 3.4e38)
    "CSR, explicit zeros, unsorted indices",
)

#: Words of which a clear error about hostile input contains at least one.
ERROR_WORDS = ("magnitude", "scale", "Rescale", "overflow", "sparse", "Sparse", "class")

#: Words of which a warning that explains a poor model contains at least one (any
#: ``ConvergenceWarning`` counts too).
WARNING_WORDS = ("scale", "overflow", "converge", "singular", "ill-conditioned", "precision")


#: Environment variables of the longer local profile (see the module docstring).
EXAMPLES_ENV = "SVMCORE_HOSTILE_EXAMPLES"
REPORT_ENV = "SVMCORE_HOSTILE_REPORT"


def suite_settings(max_examples: int = 2) -> settings:
    """The hypothesis settings of the packages' hostile-data suites: derandomized (the
    same draws in CI and locally), ``max_examples`` draws per case (the environment
    variable ``SVMCORE_HOSTILE_EXAMPLES`` overrides it: the longer local profile, which
    does not shrink a failing draw), no deadline (fits vary in time), no example
    database."""
    phases = tuple(Phase)
    override = os.environ.get(EXAMPLES_ENV)
    if override is not None:
        if not override.isdigit() or int(override) < 1:
            raise ValueError(f"{EXAMPLES_ENV} must be a positive integer; got {override!r}.")
        max_examples = int(override)
        # a table of outcomes: report a failing draw as drawn (shrinking one MIQP fit at
        # a time took longer than the whole profile)
        phases = tuple(p for p in Phase if p is not Phase.shrink)
    return settings(
        derandomize=True,
        max_examples=max_examples,
        phases=phases,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


class HostileData(NamedTuple):
    """One draw of :func:`hostile_data`.

    Attributes
    ----------
    case : str
        Which of :data:`CASES`.
    X : ndarray or scipy.sparse.csr_matrix of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
        Classes 0 and 1 (-1: unlabeled when drawn ``semi_supervised``), or real targets.
    penalty_scale : float
        Multiply the estimator's penalty (``C``; divide a regularization ``alpha``) by
        this: 1.0 except ``"separable, huge C"``.
    """

    case: str
    X: Any
    y: np.ndarray
    penalty_scale: float


def _unsorted_csr(X, rng):
    """``X`` as CSR with about a fifth of its stored entries explicit zeros and the
    column indices of every row in reverse order (``has_sorted_indices`` False)."""
    C = sp.csr_matrix(X)
    zero = rng.random(C.data.size) < 0.2
    C.data[zero] = 0.0
    for i in range(C.shape[0]):
        a, b = C.indptr[i], C.indptr[i + 1]
        C.indices[a:b] = C.indices[a:b][::-1].copy()
        C.data[a:b] = C.data[a:b][::-1].copy()
    C.has_sorted_indices = False
    return C


@st.composite
def hostile_data(
    draw: Callable[[Any], Any],
    *,
    task: str = "classification",
    cases: Sequence[str] = CASES,
    n_samples: tuple[int, int] = (40, 120),
    n_features: tuple[int, int] = (2, 5),
    labeled_fraction: float | None = None,
) -> HostileData:
    """A hypothesis strategy for valid but hostile training data.

    The base data are ``n`` standard normal rows; classes follow the first feature (with
    a little label noise, so the trivial model is beaten by a real fit but not by
    chance), regression targets a linear function of the unscaled rows plus noise (the
    relation survives any rescaling of ``X``). Then one of ``cases`` is applied.

    Parameters
    ----------
    draw
        Supplied by hypothesis (``@st.composite``).
    task : {"classification", "regression"}, default="classification"
    cases : sequence of str, default=CASES
        The cases to draw from (a package leaves out what its estimators cannot take in
        a test's time, e.g. the 1001-row imbalance for an MIQP).
    n_samples, n_features : (int, int)
        Ranges of the base data's shape.
    labeled_fraction : float or None, default=None
        Semi-supervised classification: keep about this fraction of the labels (at
        least two per class where the class has them, every positive of the
        single-positive and imbalance cases) and set the others to -1.

    Returns
    -------
    strategy
        Draws :class:`HostileData`.
    """
    if task not in ("classification", "regression"):
        raise ValueError(f"task must be 'classification' or 'regression'; got {task!r}.")
    case = draw(st.sampled_from(list(cases)))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n = draw(st.integers(*n_samples))
    d = draw(st.integers(*n_features))
    if case == "imbalance 1:1000":
        n = 1001 * draw(st.integers(1, 2))
    X = rng.normal(size=(n, d))
    w = rng.normal(size=d)
    w[0] = 2.0 + abs(w[0])
    noise = 0.3 * rng.normal(size=n)
    penalty = 1.0
    if case == "separable, huge C":
        score = X[:, 0]
        X[:, 0] += np.where(score >= 0, 0.5, -0.5)  # a margin of 1 on the first feature
        noise[:] = 0.0
        penalty = float(10.0 ** draw(st.integers(6, 8)))
    if task == "regression":
        y = X @ w + (0.0 if case == "separable, huge C" else 0.1) * rng.normal(size=n)
    else:
        y = (X[:, 0] + noise > 0).astype(int)
        if case in ("imbalance 1:1000", "single positive"):
            y = np.zeros(n, dtype=int)
            n_pos = 1 if case == "single positive" else n // 1001
            y[np.argsort(-X[:, 0])[:n_pos]] = 1  # the positives lie furthest out
    if case == "scale":
        X = X * 10.0 ** draw(st.integers(-150, 150))
    elif case == "mixed scales":
        X = X * 10.0 ** rng.permutation(np.linspace(-150, 150, d).round())
    elif case == "constant column":
        X = np.c_[X, np.full(n, 10.0 ** draw(st.integers(-3, 3)))]
    elif case == "duplicated columns":
        X = np.c_[X, X[:, rng.integers(0, d, size=draw(st.integers(1, 3)))]]
    elif case == "duplicated rows":
        rows = rng.integers(0, n, size=draw(st.integers(1, n)))
        X, y = np.r_[X, X[rows]], np.r_[y, y[rows]]
    elif case == "near-singular X^T X":
        X = np.c_[X, X[:, 0] * (1.0 + 1e-9 * rng.normal(size=n))]
    elif case == "float32 near overflow":
        X = (X / np.abs(X).max() * 10.0 ** draw(st.floats(36.5, 38.5))).astype(np.float32)
    elif case == "CSR, explicit zeros, unsorted indices":
        X = _unsorted_csr(X, rng)
    if labeled_fraction is not None and task == "classification":
        y = _hide_labels(y, labeled_fraction, rng)
    return HostileData(case, X, y, penalty)


def _hide_labels(y, fraction, rng):
    """Set all but about ``fraction`` of the labels to -1, keeping at least two of each
    class (every one of a class with fewer)."""
    keep = rng.random(y.size) < fraction
    for c in (0, 1):
        members = np.flatnonzero(y == c)
        keep[members[:2]] = True
    out = y.copy()
    out[~keep] = -1
    return out


def _named_warnings(caught):
    return [
        w
        for w in caught
        if issubclass(w.category, ConvergenceWarning)
        or any(word in str(w.message).lower() for word in WARNING_WORDS)
    ]


def check_hostile_fit(
    estimator: Any,
    data: HostileData,
    *,
    task: str = "classification",
    balance_decides: bool = False,
    certificate: Callable[[Any], bool] | None = None,
) -> str:
    """Fit ``estimator`` on ``data`` and check the issue-19 property; return the outcome.

    Parameters
    ----------
    estimator : estimator
        Unfitted; its penalty already multiplied by ``data.penalty_scale``.
    data : HostileData
    task : {"classification", "regression"}, default="classification"
    balance_decides : bool, default=False
        Semi-supervised estimators whose class-balance constraint, not the data, decides
        the transduction in this case (a wrong labeled positive fraction, features that
        cannot move the objective): only a finite model with valid labels is required.
    certificate : callable or None, default=None
        ``certificate(estimator) -> bool``: whether the fitted model carries a proof that
        it solves its problem (KKT residuals, a certified gap). A certified silent fit
        that is no better than the trivial model is ``"verified"`` (the optimum of the
        objective itself is that good, e.g. an RBF width that the data's scale set).

    Returns
    -------
    outcome : {"error", "warning", "ok", "verified", "fit"}
        ``"error"``: a ``ValueError``/``TypeError`` naming the cause (one of
        :data:`ERROR_WORDS`); ``"warning"``: a fit with a ``ConvergenceWarning`` or a
        warning naming the cause (:data:`WARNING_WORDS`), its model finite; ``"ok"``:
        a silent fit at least as good on its training data as the trivial model (the
        majority class of the labeled samples, 2 % slack; the median, mean absolute
        error) and, on separable data, at least 90 % accurate; ``"fit"``: a silent fit
        with ``balance_decides``.

    Raises
    ------
    AssertionError
        An unclear error, a non-finite prediction, or a silent model worse than trivial.
    """
    outcome = "failed"
    try:
        outcome = _checked_outcome(estimator, data, task, balance_decides, certificate)
        return outcome
    finally:
        _report(estimator, data, outcome)


def estimator_label(estimator: Any) -> str:
    """The estimator's class name, with its kernel when that is not the class's default
    (``"AIDSVC rbf"``, ``"AESVC linear"``): the column of the hostile-data table."""
    name = type(estimator).__name__
    kernel = estimator.get_params().get("kernel")
    if kernel is not None and kernel != type(estimator)().get_params().get("kernel"):
        return f"{name} {kernel}"
    return name


def _report(estimator, data, outcome):
    """Append the fit's outcome to the ``SVMCORE_HOSTILE_REPORT`` file, when it is set."""
    path = os.environ.get(REPORT_ENV)
    if not path:
        return
    line = {
        "estimator": estimator_label(estimator),
        "case": data.case,
        "outcome": outcome,
        "shape": list(data.X.shape),
    }
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(line) + "\n")


def _checked_outcome(estimator, data, task, balance_decides, certificate):
    X, y = data.X, data.y
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            estimator.fit(X, y)
        except (ValueError, TypeError) as exc:
            # a solver's own failure (LinAlgError is a ValueError) names no cause
            assert not isinstance(exc, np.linalg.LinAlgError), (
                f"{type(estimator).__name__} on {data.case!r}: {exc!r} from inside a solver"
            )
            message = str(exc)
            assert any(word in message for word in ERROR_WORDS), (
                f"{type(estimator).__name__} on {data.case!r}: unclear error {exc!r}"
            )
            return "error"
        pred = np.asarray(estimator.predict(X))
    name = f"{type(estimator).__name__} on {data.case!r}"
    if task == "regression":
        assert np.all(np.isfinite(pred.astype(np.float64))), f"{name}: non-finite prediction"
    else:
        assert set(np.unique(pred)) <= set(np.unique(y[y != -1])), f"{name}: invalid labels"
    if _named_warnings(caught):
        return "warning"
    if balance_decides:
        return "fit"
    problem = _below_trivial(pred, data, task)
    if problem is None:
        return "ok"
    assert certificate is not None and certificate(estimator), f"{name}: {problem}"
    return "verified"


def _below_trivial(pred, data, task):
    """Why ``pred`` is worse than the trivial model on ``data`` (None if it is not)."""
    y = data.y
    if task == "regression":
        trivial = np.abs(y - np.median(y)).mean()
        error = np.abs(pred - y).mean()
        if error > trivial * (1 + 1e-6):
            return f"MAE {error:.4g} > the median's {trivial:.4g}"
        return None
    labeled = y != -1
    accuracy = float(np.mean(pred[labeled] == y[labeled]))
    majority = max(np.mean(y[labeled] == 1), np.mean(y[labeled] == 0))
    if accuracy < majority - 0.02:
        return f"accuracy {accuracy:.3f} < the majority class's {majority:.3f}"
    if data.case == "separable, huge C" and accuracy < 0.9:
        return f"separable data fitted at accuracy {accuracy:.3f}"
    return None
