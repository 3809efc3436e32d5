"""svmcore.testing: the ticking clock, the hostile-data strategies and their property."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import Phase, given, settings
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.linear_model import LogisticRegression

from svmcore.testing import ticking_clock
from svmcore.testing.hostile import CASES, HostileData, check_hostile_fit, hostile_data


def test_ticking_clock_steps_from_its_start():
    clock = ticking_clock(0.5, start=2.0)
    assert [clock() for _ in range(3)] == [2.0, 2.5, 3.0]


@pytest.mark.parametrize("case", CASES)
def test_every_case_is_what_it_says(case):
    @settings(derandomize=True, max_examples=3, deadline=None, database=None)
    @given(hostile_data(cases=[case]))
    def check(data):
        X, y = data.X, data.y
        assert data.case == case and X.shape[0] == y.shape[0]
        assert set(np.unique(y)) <= {0, 1}
        dense = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
        assert np.all(np.isfinite(dense))
        top = np.abs(dense).max(axis=0)
        if case == "mixed scales":
            assert top.max() / top.min() > 1e200
        elif case == "constant column":
            assert np.ptp(dense, axis=0).min() == 0.0
        elif case == "duplicated columns":
            assert np.unique(dense, axis=1).shape[1] < dense.shape[1]
        elif case == "duplicated rows":
            assert np.unique(dense, axis=0).shape[0] < dense.shape[0]
        elif case == "separable, huge C":
            assert data.penalty_scale >= 1e6
            assert np.all((dense[:, 0] > 0) == (y == 1)) and np.abs(dense[:, 0]).min() >= 0.5
        elif case == "imbalance 1:1000":
            assert y.size in (1001, 2002) and y.sum() == y.size // 1001
        elif case == "single positive":
            assert y.sum() == 1
        elif case == "near-singular X^T X":
            assert np.linalg.cond(dense.T @ dense) > 1e12
        elif case == "float32 near overflow":
            assert X.dtype == np.float32 and 1e36 <= top.max() <= np.finfo(np.float32).max
        elif case == "CSR, explicit zeros, unsorted indices":
            assert sp.isspmatrix_csr(X) and not X.has_sorted_indices
            assert np.any(X.data == 0.0)

    check()


def test_semi_supervised_draws_keep_labels_of_both_classes():
    @settings(derandomize=True, max_examples=5, deadline=None, database=None)
    @given(hostile_data(labeled_fraction=0.2))
    def check(data):
        assert {0, 1} <= set(np.unique(data.y)) and np.any(data.y == -1)

    check()


def _data(y, case="duplicated rows"):
    X = np.random.default_rng(0).normal(size=(y.size, 2))
    return HostileData(case, X, y, 1.0)


def test_check_hostile_fit_outcomes():
    y = (np.random.default_rng(1).random(60) < 0.3).astype(int)
    assert check_hostile_fit(DummyClassifier(), _data(y)) == "ok"  # the trivial model
    flipped = DummyClassifier(strategy="constant", constant=1)
    with pytest.raises(AssertionError, match="majority"):
        check_hostile_fit(flipped, _data(y))
    assert check_hostile_fit(flipped, _data(y), certificate=lambda est: True) == "verified"
    # a ConvergenceWarning explains a poor model
    assert check_hostile_fit(LogisticRegression(max_iter=1), _data(y)) in ("ok", "warning")
    r = np.random.default_rng(2).normal(size=60)
    assert check_hostile_fit(DummyRegressor(strategy="median"), _data(r), task="regression") == "ok"


class _Unclear(DummyClassifier):
    def fit(self, X, y):
        raise ValueError("Matrix is singular to machine precision.")


class _Clear(DummyClassifier):
    def fit(self, X, y):
        raise ValueError("X has entries of magnitude up to 1e300. Rescale X.")


def test_errors_must_name_the_cause():
    y = np.r_[np.zeros(30, int), np.ones(30, int)]
    assert check_hostile_fit(_Clear(), _data(y)) == "error"
    with pytest.raises(AssertionError, match="unclear"):
        check_hostile_fit(_Unclear(), _data(y))
    with pytest.raises(AssertionError, match="inside a solver"):

        class _Lin(DummyClassifier):
            def fit(self, X, y):
                raise np.linalg.LinAlgError("Rescale: singular")

        check_hostile_fit(_Lin(), _data(y))


def test_longer_profile_sets_the_draws_per_case(monkeypatch):
    from svmcore.testing.hostile import EXAMPLES_ENV, suite_settings

    monkeypatch.delenv(EXAMPLES_ENV, raising=False)
    assert suite_settings().max_examples == 2
    assert Phase.shrink in suite_settings().phases
    monkeypatch.setenv(EXAMPLES_ENV, "9")
    assert suite_settings().max_examples == 9
    assert Phase.shrink not in suite_settings().phases
    monkeypatch.setenv(EXAMPLES_ENV, "0")
    with pytest.raises(ValueError, match=EXAMPLES_ENV):
        suite_settings()


def test_report_records_every_outcome_and_failure(monkeypatch, tmp_path):
    import json

    from sklearn.svm import SVC

    from svmcore.testing.hostile import REPORT_ENV, estimator_label

    report = tmp_path / "hostile.jsonl"
    monkeypatch.setenv(REPORT_ENV, str(report))
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    data = HostileData("duplicated rows", X, y, 1.0)
    assert check_hostile_fit(LogisticRegression(), data) == "ok"
    with pytest.raises(AssertionError):
        check_hostile_fit(
            DummyClassifier(strategy="constant", constant=1),
            data._replace(y=np.r_[np.zeros(50, int), np.ones(10, int)]),
        )
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    assert [(r["estimator"], r["case"], r["outcome"]) for r in lines] == [
        ("LogisticRegression", "duplicated rows", "ok"),
        ("DummyClassifier", "duplicated rows", "failed"),
    ]
    assert lines[0]["shape"] == [60, 3]
    # the kernel joins the name only when it is not the class's default
    assert estimator_label(SVC()) == "SVC"
    assert estimator_label(SVC(kernel="linear")) == "SVC linear"
