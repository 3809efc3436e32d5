"""AIDS3VMClassifier: Prop 5 against brute force on the original data, limits, input checks."""

import warnings

import numpy as np
import pytest
from _s3vm_brute import brute_force, s3vm_objective_loops
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.svm import SVC

from aid_models import AIDS3VMClassifier
from svmcore.solvers import SolverLimitWarning
from svmcore.testing import ticking_clock


def _tiny(seed, n_l=12, n_u=8):
    """Two labeled classes and u <= 12 unlabeled points in m = 2 dimensions."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_l + n_u, 2))
    ys = np.r_[np.tile([1, -1], n_l // 2), np.zeros(n_u, dtype=int)]
    X[ys > 0] += 1.0
    X[n_l:][rng.random(n_u) < 0.5] += 1.0
    y = np.where(ys == 0, -1, (ys > 0).astype(int))
    return X, y, ys


def _global_optimum(X, ys, M_l, M_u, balance):
    lab, unl = ys != 0, ys == 0
    bal = (X[unl].mean(axis=0), ys[lab].mean()) if balance == "constraint" else None
    value, w, b, _ = brute_force(
        X[lab], ys[lab].astype(float), np.full(lab.sum(), M_l), X[unl], np.full(unl.sum(), M_u), bal
    )
    return value


def _fit_to_the_end(X, y, seed, balance):
    clf = AIDS3VMClassifier(
        unlabeled_value=-1,
        M_l=1.0,
        M_u=0.5,
        balance=balance,
        max_iter=50,
        min_initial_clusters=2,
        random_state=seed,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", SolverLimitWarning)
        return clf.fit(X, y)


@pytest.mark.parametrize(("seed", "balance"), [(0, None), (2, None), (3, None), (0, "constraint")])
def test_stop_by_prop5_reaches_the_brute_force_optimum(seed, balance):
    X, y, ys = _tiny(seed)
    clf = _fit_to_the_end(X, y, seed, balance)
    assert clf.stop_reason_ == "optimal"
    assert clf.n_iter_ > 1  # the run really aggregated and declustered
    last = clf.history_[-1]
    # Lemma 2: at a stop by Prop 5 the aggregated and original objectives coincide.
    assert last["E"] == pytest.approx(last["F"], rel=1e-9)
    assert clf.objective_ == pytest.approx(_global_optimum(X, ys, 1.0, 0.5, balance), rel=1e-7)


def test_prop5_is_not_sufficient_counterexample():
    # Every aggregated MIQP is solved to proven optimality and Prop 5 holds at the end,
    # E^T = F^T, yet E^T exceeds the brute-force optimum of (12): an unlabeled cluster of
    # the final partition straddles the optimal hyperplane (see the package README).
    X, y, ys = _tiny(1)
    clf = _fit_to_the_end(X, y, 1, None)
    assert clf.stop_reason_ == "optimal"
    assert all(rec["mip_status"] in ("optimal", "gaplimit") for rec in clf.history_)
    assert clf.history_[-1]["E"] == pytest.approx(clf.history_[-1]["F"], rel=1e-9)
    e_star = _global_optimum(X, ys, 1.0, 0.5, None)
    assert clf.objective_ > e_star * (1 + 1e-3)
    # The certified gap stays honest: it is measured against a true lower bound.
    assert clf.lower_bound_ <= e_star <= clf.objective_
    assert clf.optimality_gap_ >= (clf.objective_ - e_star) / clf.objective_


@pytest.mark.parametrize("balance", [None, "constraint", "cost"])
def test_fitted_attributes_are_consistent(balance):
    X, y, ys = _tiny(4, n_l=10, n_u=40)
    clf = AIDS3VMClassifier(unlabeled_value=-1, balance=balance, max_iter=3, random_state=0).fit(
        X, y
    )
    w, b = clf.coef_[0], clf.intercept_[0]
    n_neg, n_pos = np.sum(ys < 0), np.sum(ys > 0)
    c_neg = c_pos = clf.M_l
    if balance == "cost":
        c_neg, c_pos = clf.M_l * max(1, n_pos / n_neg), clf.M_l * max(1, n_neg / n_pos)
    ref = s3vm_objective_loops(X, ys, w, b, c_neg, c_pos, clf.M_u)
    assert clf.objective_ == pytest.approx(ref, rel=1e-12)
    assert clf.objective_ == min(rec["E"] for rec in clf.history_)
    assert clf.lower_bound_ <= clf.objective_
    assert clf.n_iter_ == len(clf.history_) == len(clf.mip_gaps_) <= 3
    assert all("mip_gap" in rec and "mip_status" in rec for rec in clf.history_)
    assert all(rec["backend"] == "scip" for rec in clf.history_)
    # the fitted attributes every AID estimator has (aid_models._common.store_run)
    assert clf.aggregation_rate_ == clf.n_clusters_ / X.shape[0]
    assert 0.0 <= clf.init_time_ and np.isfinite(clf.init_time_)
    labeled = ys != 0
    assert np.array_equal(clf.transduction_[labeled], y[labeled])
    assert np.array_equal(clf.transduction_[~labeled], clf.predict(X[~labeled]))
    if balance == "constraint":
        mean_score = np.mean(X[~labeled] @ w + b)
        assert mean_score == pytest.approx(np.mean(ys[labeled]), abs=1e-7)


def test_lower_bound_is_the_labeled_only_svm():
    X, y, ys = _tiny(5, n_l=10, n_u=30)
    clf = AIDS3VMClassifier(unlabeled_value=-1, balance=None, random_state=0).fit(X, y)
    lab = ys != 0
    svc = SVC(kernel="linear", C=clf.M_l, tol=1e-10).fit(X[lab], ys[lab])
    w, b = svc.coef_[0], svc.intercept_[0]
    ref = 0.5 * w @ w + clf.M_l * np.maximum(0, 1 - ys[lab] * (X[lab] @ w + b)).sum()
    assert clf.lower_bound_ == pytest.approx(ref, rel=1e-6)


def test_unaggregated_labeled_samples_keep_the_aggregated_problem_above_the_bound():
    # With every labeled sample its own cluster, the aggregated labeled hinge terms are
    # the original ones, so F^0 >= the labeled-only SVM optimum (the unlabeled terms are
    # >= 0). Aggregated labeled means underestimate the hinge losses (Jensen): on this
    # overlapping data the paper's clustering drops F^0 below that bound.
    X, y, ys = _tiny(8, n_l=60, n_u=30)
    n_l = int(np.sum(ys != 0))
    kw = dict(balance=None, min_initial_clusters=3, random_state=0)
    own = AIDS3VMClassifier(unlabeled_value=-1, aggregate_labeled=False, **kw).fit(X, y)
    first = own.history_[0]
    assert first["n_clusters"] == n_l + 3
    assert first["F"] >= own.lower_bound_ * (1 - 1e-7)
    paper = AIDS3VMClassifier(unlabeled_value=-1, **kw).fit(X, y)
    assert paper.history_[0]["n_clusters"] == 3 + 3 + 3
    assert paper.history_[0]["F"] < paper.lower_bound_
    assert own.lower_bound_ == pytest.approx(paper.lower_bound_, rel=1e-12)


def test_fully_labeled_data_gives_the_supervised_svm_optimum():
    # Without unlabeled samples (12) is the SVM (7), for which the condition is Prop 3's.
    X, y, ys = _tiny(6, n_l=40, n_u=0)
    clf = AIDS3VMClassifier(
        M_l=1.0, max_iter=50, min_initial_clusters=3, balance=None, random_state=0
    ).fit(X, y)
    assert clf.stop_reason_ == "optimal"
    svc = SVC(kernel="linear", C=1.0, tol=1e-10).fit(X, ys)
    w, b = svc.coef_[0], svc.intercept_[0]
    ref = 0.5 * w @ w + np.maximum(0, 1 - ys * (X @ w + b)).sum()
    assert clf.objective_ == pytest.approx(ref, rel=1e-6)


def test_reproducible_with_random_state():
    X, y, _ = _tiny(7, n_l=10, n_u=40)
    a = AIDS3VMClassifier(unlabeled_value=-1, random_state=3).fit(X, y)
    b = AIDS3VMClassifier(unlabeled_value=-1, random_state=3).fit(X, y)
    assert np.array_equal(a.coef_, b.coef_) and np.array_equal(a.intercept_, b.intercept_)


def test_callback_sees_aid1_inside_aid5_and_can_stop():
    # The benchmark reads AID1 from an AID5 run's first iteration: it must be the same fit.
    X, y, _ = _tiny(7, n_l=10, n_u=40)
    records = []
    aid5 = AIDS3VMClassifier(
        unlabeled_value=-1, max_iter=5, random_state=3, callback=records.append
    ).fit(X, y)
    aid1 = AIDS3VMClassifier(unlabeled_value=-1, max_iter=1, random_state=3).fit(X, y)
    assert records and records[0]["t"] == 0
    first = records[0]["solution"].params
    assert np.array_equal(first["w"], aid1.coef_[0]) and first["b"] == aid1.intercept_[0]
    assert records[0]["E"] == aid1.objective_ and len(records) <= aid5.n_iter_
    stopped = AIDS3VMClassifier(
        unlabeled_value=-1, max_iter=5, random_state=3, callback=lambda rec: True
    )
    stopped.fit(X, y)
    assert stopped.n_iter_ == 1 and stopped.stop_reason_ in ("callback", "optimal")
    with pytest.raises(ValueError, match="callback"):
        AIDS3VMClassifier(callback=3).fit(X, y)


def _hard_instance():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(320, 10))
    y = np.full(320, -1)
    y[:20] = np.tile([0, 1], 10)
    return X, y


def test_time_limit_per_solve_returns_best_solution_with_gap_and_warning():
    # A limit below SCIP's floor of 1 ms: the root node of these MIQPs alone takes seconds
    # (150 binaries), so every solve stops on its time limit, however fast the machine.
    X, y = _hard_instance()
    clf = AIDS3VMClassifier(
        unlabeled_value=-1,
        max_iter=2,
        min_initial_clusters=150,
        time_limit_per_solve=1e-9,
        random_state=0,
    )
    with pytest.warns(SolverLimitWarning, match=r"2 of 2 aggregated solves were not proven"):
        clf.fit(X, y)
    assert [rec["mip_status"] for rec in clf.history_] == ["timelimit", "timelimit"]
    assert clf.stop_reason_ == "max_iter" and clf.n_iter_ == 2  # a solve's limit ends no run
    assert 0.0 < clf.optimality_gap_ <= 1.0
    assert np.all(np.isfinite(clf.mip_gaps_)) and clf.mip_gaps_.min() > 0
    assert clf.objective_ == min(rec["E"] for rec in clf.history_)


def test_total_time_limit_stops_the_loop(monkeypatch):
    """The fit, the solves and the AID loop read one clock, here one second per reading.

    The fit reads 0 (deadline 4.5), the loop 1 (the run's start), 2 and 3; each
    iteration then reads its start, the solve's remaining time (negative from the first
    solve on, so SCIP gets its 1 ms floor and stops on its time limit) and its end. The
    limit counts the whole run (issue 19; it used to count from the loop's start, 2 s
    later, so a second iteration ran after the deadline): the first iteration ends 5 s
    after the run's start and the run stops there.
    """
    monkeypatch.setattr("aid_models._s3vm._clock", ticking_clock())
    X, y = _hard_instance()
    clf = AIDS3VMClassifier(
        unlabeled_value=-1, max_iter=50, min_initial_clusters=150, time_limit=4.5, random_state=0
    )
    with pytest.warns(SolverLimitWarning, match="stopped on its time_limit=4.5 s"):
        clf.fit(X, y)
    assert clf.stop_reason_ == "time_limit" and not clf.converged_
    assert clf.n_iter_ == 1 < clf.max_iter
    assert [rec["cum_time"] for rec in clf.history_] == [3.0]
    assert [rec["mip_status"] for rec in clf.history_] == ["timelimit"]
    assert 0.0 < clf.optimality_gap_ <= 1.0
    assert clf.objective_ == min(rec["E"] for rec in clf.history_)


def test_total_time_limit_on_the_real_clock_stops_after_one_iteration():
    # 1e-9 s has passed before the first solve on any machine: SCIP gets its 1 ms floor and
    # the loop stops after its first iteration with that solve's solution.
    X, y = _hard_instance()
    clf = AIDS3VMClassifier(
        unlabeled_value=-1, max_iter=50, min_initial_clusters=150, time_limit=1e-9, random_state=0
    )
    with pytest.warns(SolverLimitWarning, match="stopped on its time_limit=1e-09 s"):
        clf.fit(X, y)
    assert clf.stop_reason_ == "time_limit" and clf.n_iter_ == 1 and not clf.converged_
    assert clf.history_[0]["mip_status"] == "timelimit"
    assert 0.0 < clf.optimality_gap_ <= 1.0


def test_input_errors_name_the_problem():
    X, y, _ = _tiny(0)
    with pytest.raises(ValueError, match="both classes"):
        AIDS3VMClassifier().fit(X, np.where(y == 0, -1, y))
    with pytest.raises(ValueError, match="Only binary"):
        AIDS3VMClassifier().fit(X, np.where(y == -1, -1, np.arange(y.size) % 3))
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        AIDS3VMClassifier().fit(X_nan, y)
    with pytest.raises(ValueError, match="balance"):
        AIDS3VMClassifier(balance="both").fit(X, y)


_NON_POSITIVE = st.floats(max_value=0.0, allow_nan=False)
#: invalid values per parameter: only these are drawn, so every example asserts
_BAD_VALUES = {
    "M_l": _NON_POSITIVE,
    "M_u": _NON_POSITIVE,
    "time_limit": _NON_POSITIVE,
    "mip_gap": st.floats(max_value=-np.finfo(float).tiny, allow_nan=False),
    "initial_aggregation_rate": _NON_POSITIVE
    | st.floats(min_value=1.0, exclude_min=True, max_value=1e9),
}


@settings(max_examples=15, deadline=None)
@given(name=st.sampled_from(sorted(_BAD_VALUES)), data=st.data())
def test_bad_parameters_raise_naming_the_parameter(name, data):
    X, y, _ = _tiny(0)
    value = data.draw(_BAD_VALUES[name], label=name)
    with pytest.raises(ValueError, match=name):
        AIDS3VMClassifier(**{name: value}).fit(X, y)
