"""Transductive L2-SVM-MFN (Table 4): the Proposition, the balance constraint, switching."""

import numpy as np
import pytest
import scipy.sparse as sp
from _data import two_clusters
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning

from l2svm_mfn import MFAClassifier, MFNClassifier, TSVMClassifier
from l2svm_mfn._tsvm import switch_labels
from svmcore.testing import ticking_clock


def test_objective_strictly_decreases_at_every_switch_pass():
    X, y, _ = two_clusters(0, n=300, gap=0.8)
    clf = TSVMClassifier(unlabeled_value=-1, max_switch=3).fit(X, y)
    passes = [rec for rec in clf.history_ if rec["switched"] > 0]
    assert len(passes) >= 3
    for rec in passes:
        # J(w(Y'), Y') > J(w(Y'), Y'') >= J(w(Y''), Y'')
        assert rec["objective_switched"] < rec["objective_before"]
        assert rec["objective"] <= rec["objective_switched"] * (1 + 1e-9)
        assert rec["objective"] < rec["objective_before"]


@pytest.mark.parametrize("r", [None, 0.33])
def test_balance_constraint_holds_at_the_end(r):
    X, y, _ = two_clusters(1, n=300)
    clf = TSVMClassifier(unlabeled_value=-1, max_switch=10, positive_fraction=r).fit(X, y)
    unl = y == -1
    expected_r = r if r is not None else (y[~unl] == 1).mean()
    assert clf.positive_fraction_ == expected_r
    n_pos = (clf.transduction_[unl] == 1).sum()
    assert n_pos == round(expected_r * unl.sum())
    np.testing.assert_array_equal(clf.transduction_[~unl], y[~unl])


def test_single_and_max_switching_reach_close_objectives():
    X, y, _ = two_clusters(2, n=300)
    one = TSVMClassifier(unlabeled_value=-1, max_switch=1).fit(X, y)
    many = TSVMClassifier(unlabeled_value=-1, max_switch=10**6).fit(X, y)
    assert abs(one.objective_ - many.objective_) <= 0.01 * min(one.objective_, many.objective_)
    assert many.n_iter_ <= one.n_iter_


def test_better_than_supervised_on_two_clusters():
    errors = []
    for seed in range(6):
        X, y, y_true = two_clusters(seed)
        unl = y == -1
        mfn = MFNClassifier(alpha=1e-3).fit(X[~unl], y[~unl])
        tsvm = TSVMClassifier(unlabeled_value=-1, max_switch=1000).fit(X, y)
        errors.append(
            [
                (mfn.predict(X[unl]) != y_true[unl]).mean(),
                (tsvm.transduction_[unl] != y_true[unl]).mean(),
            ]
        )
    mean_mfn, mean_tsvm = np.mean(errors, axis=0)
    assert mean_tsvm < mean_mfn


def test_sparse_equals_dense():
    X, y, _ = two_clusters(3, n=200, d=4)
    a = TSVMClassifier(unlabeled_value=-1, max_switch=5).fit(X, y)
    b = TSVMClassifier(unlabeled_value=-1, max_switch=5).fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(a.transduction_, b.transduction_)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("make", [TSVMClassifier, MFAClassifier])
def test_serial_and_parallel_products_give_the_same_fit(make, sparse, monkeypatch):
    # svmcore runs a product on two threads from PARALLEL_MIN_WORK / _NNZ entries (raised
    # for OpenMP's passive wait, so g241c-like's fits became serial): the fit is the same
    # on either side of the threshold, up to the rounding of the per-thread sums.
    from svmcore.linalg import _products

    X, y, _ = two_clusters(5, n=400, d=30)
    X = sp.csr_matrix(X) if sparse else X
    launches = []
    for name in ("_dense_fused_rows", "_csr_matvec_rows"):
        kernel = getattr(_products, name)
        spy = lambda *a, _k=kernel: launches.append(1) or _k(*a)  # noqa: E731
        monkeypatch.setattr(_products, name, spy)
    for name in ("PARALLEL_MIN_WORK", "PARALLEL_MIN_NNZ"):  # dense, CSR
        monkeypatch.setattr(_products, name, 1)
    parallel = make(unlabeled_value=-1, n_jobs=2).fit(X, y)
    n_parallel = len(launches)
    for name in ("PARALLEL_MIN_WORK", "PARALLEL_MIN_NNZ"):
        monkeypatch.setattr(_products, name, X.shape[0] * X.shape[1] + 1)
    serial = make(unlabeled_value=-1, n_jobs=2).fit(X, y)
    assert len(launches) == n_parallel  # the serial fit launched no parallel product
    assert n_parallel > 0 or __import__("numba").config.NUMBA_NUM_THREADS == 1
    # the same path: every retraining or annealing step takes as many Newton iterations
    steps = [[rec["mfn_iter"] for rec in fit.history_] for fit in (serial, parallel)]
    assert steps[0] == steps[1] and serial.n_iter_ == parallel.n_iter_
    np.testing.assert_array_equal(serial.transduction_, parallel.transduction_)
    # MFA's OPTIMIZE-W stops on an absolute objective change (SVMlin's 1e-6), short of the
    # optimum, so the rounding is not damped: 2e-10 / 7e-10 apart here (dense / CSR), as
    # n_jobs=1 against 2 threads was before; TSVM's fits: 2e-16 / 2e-15.
    rtol = 1e-9 if make is MFAClassifier else 1e-12
    assert abs(serial.objective_ - parallel.objective_) <= rtol * parallel.objective_
    scale = np.abs(parallel.coef_).max()
    np.testing.assert_allclose(serial.coef_, parallel.coef_, rtol=1e-7, atol=1e-8 * scale)


def test_annealing_reaches_final_lambda():
    X, y, _ = two_clusters(4, n=200)
    clf = TSVMClassifier(unlabeled_value=-1, alpha_unlabeled=0.7, anneal_factor=1.5).fit(X, y)
    lams = [rec["lam_u"] for rec in clf.history_]
    assert lams[0] == 1e-5 and lams[-1] == 0.7
    assert all(b >= a for a, b in zip(lams, lams[1:], strict=False))


@settings(max_examples=30, deadline=None)
@given(
    outputs=st.lists(st.floats(-3, 3), min_size=2, max_size=30),
    seed=st.integers(0, 1000),
    max_switch=st.integers(1, 20),
)
def test_switch_labels_conditions(outputs, seed, max_switch):
    o = np.array(outputs)
    labels = np.random.default_rng(seed).choice([-1.0, 1.0], o.size)
    before = labels.copy()
    k = switch_labels(o, labels, max_switch)
    changed = np.flatnonzero(labels != before)
    assert changed.size == 2 * k and k <= max_switch
    assert (labels > 0).sum() == (before > 0).sum()
    i = changed[before[changed] > 0]
    j = changed[before[changed] < 0]
    # Table 4's conditions: y'_i = +1, y'_j = -1, o_i < 1, -o_j < 1, and every switched
    # positive output is below every switched negative output.
    assert np.all(o[i] < 1) and np.all(-o[j] < 1)
    if k:
        assert o[i].max() < o[j].min()
    # Greedy maximality: if fewer than max_switch pairs were switched, no valid pair remains
    # between the next candidates of the sorted lists.
    act = before * o < 1
    pos = np.sort(o[act & (before > 0)])
    neg = np.sort(o[act & (before < 0)])[::-1]
    if k < max_switch and k < min(pos.size, neg.size):
        assert pos[k] >= neg[k]


def test_bad_input():
    X, y, y_true = two_clusters(5, n=60)
    with pytest.raises(ValueError, match="Only binary"):
        TSVMClassifier().fit(X, np.where(y == -1, -1, np.arange(60) % 3))
    with pytest.raises(ValueError, match="positive_fraction"):
        TSVMClassifier(positive_fraction=1.0).fit(X, y)
    with pytest.raises(ValueError, match="max_switch"):
        TSVMClassifier(max_switch=0).fit(X, y)
    with pytest.raises(ValueError, match="anneal_factor"):
        TSVMClassifier(anneal_factor=1.0).fit(X, y)
    # No unlabeled sample: the supervised problem with costs 1/l.
    clf = TSVMClassifier().fit(X, y_true)
    ref = MFNClassifier(alpha=1e-3).fit(X, y_true, sample_weight=np.full(60, 1 / 60))
    assert clf.n_switched_ == 0
    np.testing.assert_allclose(clf.coef_, ref.coef_, rtol=1e-6)


def test_defaults_are_svmlin_multiple_switching_and_rate():
    # SVMlin v1.0's -S 10000 and annealing rate 1.5: one switch pass may move many pairs,
    # and lambda' runs 1e-5, 1.5e-5, ... up to alpha_unlabeled (the last value capped).
    X, y, _ = two_clusters(3, n=400, gap=0.5)
    clf = TSVMClassifier(unlabeled_value=-1).fit(X, y)
    assert max(rec["switched"] for rec in clf.history_) > 1
    rounds = sorted({rec["lam_u"] for rec in clf.history_})
    k = np.arange(len(rounds) - 1)
    np.testing.assert_allclose(rounds[:-1], 1e-5 * 1.5**k, rtol=1e-12)
    assert rounds[-1] == 1.0 and rounds[-2] * 1.5 >= 1.0
    assert (clf.max_switch, clf.anneal_factor) == (10000, 1.5)


@pytest.mark.parametrize("make", [TSVMClassifier, MFAClassifier])
def test_semi_supervised_fit_is_invariant_to_a_huge_feature_scale(make):
    # issue 19: at X * 1e150 CGLS overflowed and TSVM returned a chance-level model
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5))
    y_true = (X[:, 0] > 0).astype(int) + 1  # classes 1 and 2: -1 is unambiguous
    y = np.full(300, -1)
    y[:20] = y_true[:20]
    ordinary = make().fit(X, y)
    huge = make().fit(X * 1e150, y)
    assert (huge.transduction_ == y_true).mean() >= (ordinary.transduction_ == y_true).mean() - 0.02
    assert (huge.transduction_ == y_true).mean() > 0.9


@pytest.mark.parametrize("make", [MFNClassifier, TSVMClassifier, MFAClassifier])
def test_time_limit_stops_the_fit_with_a_warning_and_keeps_a_model(make, monkeypatch):
    # issue 19: every estimator with iterations honours a wall-clock time_limit
    rng = np.random.default_rng(4)
    X = rng.normal(size=(400, 6))
    y_true = (X[:, 0] + 0.3 * X[:, 1] > 0).astype(int) + 1  # classes 1, 2; -1 unlabeled
    y = y_true if make is MFNClassifier else np.where(np.arange(400) < 30, y_true, -1)
    full = make().fit(X, y)
    assert full.converged_
    monkeypatch.setattr("l2svm_mfn._base._clock", ticking_clock())
    # each reading of the clock is one second: the deadline passes after a few checks
    with pytest.warns(ConvergenceWarning, match="time_limit=3"):
        stopped = make(time_limit=3.0).fit(X, y)
    assert not stopped.converged_
    assert np.all(np.isfinite(stopped.coef_))
    assert stopped.n_iter_ < full.n_iter_ or len(stopped.history_) < len(full.history_)


@pytest.mark.parametrize(
    ("make", "budget", "match"),
    [
        (MFNClassifier, {"max_iter": 1}, "max_iter=1 "),
        (TSVMClassifier, {"max_iter": 1}, "max_iter=1 "),
        (MFAClassifier, {"max_iter": 1}, "max_iter=1 "),
    ],
)
def test_iteration_caps_give_converged_false_and_a_warning(make, budget, match):
    # issue 19: a cap that ends the fit before its stopping conditions is reported like
    # the time limit (converged_ False, a ConvergenceWarning naming it, a finite model)
    rng = np.random.default_rng(4)
    X = rng.normal(size=(400, 6))
    y_true = (X[:, 0] + 0.3 * X[:, 1] > 0).astype(int) + 1
    y = y_true if make is MFNClassifier else np.where(np.arange(400) < 30, y_true, -1)
    with pytest.warns(ConvergenceWarning, match=match):
        capped = make(**budget).fit(X, y)
    assert not capped.converged_
    assert np.all(np.isfinite(capped.coef_))
    assert make().fit(X, y).converged_
