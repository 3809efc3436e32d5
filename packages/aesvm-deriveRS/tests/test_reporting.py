"""AESVC's verbose table and history_: one DeriveRS record, then one per pairwise SVM."""

import numpy as np
import pytest
from sklearn.datasets import make_moons

from aesvm import AESVC, clear_representative_cache
from svmcore.reporting import History, parse_table

PAPER = {"epsilon": 1e-3, "fallback_fraction": None, "group_size": 50, "subset_size": 200}
DERIVE_KEYS = {
    "phase",
    "n_samples",
    "n_groups",
    "n_representatives",
    "fallback",
    "reused",
    "time",
}
SVM_KEYS = {"phase", "pair", "n_samples", "n_iter", "n_support", "objective", "time"}


def three_classes(n=600, seed=0):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 3, size=n)
    X = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]])[labels] + rng.normal(size=(n, 2))
    return X, np.array(["a", "b", "c"])[labels]


def _check(clf, text, n_samples):
    h = clf.history_
    assert isinstance(h, History)
    n_pairs = clf.classes_.size * (clf.classes_.size - 1) // 2
    assert len(h) == 1 + n_pairs
    assert set(h[0]) == DERIVE_KEYS and h[0]["phase"] == "derive"
    assert all(set(rec) == SVM_KEYS and rec["phase"] == "svm" for rec in h[1:])
    # the table printed as the fit ran is history_'s, one parseable line per record
    assert text.rstrip("\n") == h.to_table()
    rows = parse_table(text)
    assert [row["phase"] for row in rows] == ["derive"] + ["svm"] * n_pairs
    # the records agree with the fitted attributes
    assert h[0]["n_samples"] == n_samples
    assert h[0]["n_representatives"] == clf.n_representatives_ == int(rows[0]["reps"])
    assert h[0]["fallback"] == clf.fallback_ and h[0]["time"] == clf.derive_time_
    np.testing.assert_array_equal(h.column("n_iter")[1:], clf.n_iter_)
    np.testing.assert_array_equal(h.column("objective")[1:], clf.objective_)
    np.testing.assert_array_equal(h.column("n_support")[1:], (clf.dual_coef_ != 0).sum(axis=1))
    return h, rows


def test_binary_derive_then_one_svm(capsys):
    X, y = make_moons(800, noise=0.2, random_state=0)
    clear_representative_cache()
    clf = AESVC(C=10.0, gamma=1.0, compute_objective=True, verbose=1, **PAPER).fit(X, y)
    h, rows = _check(clf, capsys.readouterr().out, X.shape[0])
    assert h[0]["n_groups"] >= 2 and not h[0]["reused"] and not h[0]["fallback"]
    assert h[1]["pair"] == (0, 1) and rows[1]["pair"] == "0|1"
    assert h[1]["n_samples"] == clf.n_representatives_
    assert np.isfinite(h[1]["objective"])
    # a second fit differing only in C takes the set from the cache, and says so
    again = AESVC(C=1.0, gamma=1.0, verbose=1, **PAPER).fit(X, y)
    h2, rows2 = _check(again, capsys.readouterr().out, X.shape[0])
    assert h2[0]["reused"] and rows2[0]["reused"] == "True" and h2[0]["time"] == 0.0
    assert h2[0]["n_groups"] == h[0]["n_groups"]


def test_multiclass_one_row_per_pair(capsys):
    X, y = three_classes()
    clf = AESVC(C=10.0, gamma=0.5, verbose=1, reuse_representatives=False, **PAPER).fit(X, y)
    h, rows = _check(clf, capsys.readouterr().out, X.shape[0])
    assert [rec["pair"] for rec in h[1:]] == [("a", "b"), ("a", "c"), ("b", "c")]
    assert [row["pair"] for row in rows[1:]] == ["a|b", "a|c", "b|c"]
    assert np.isnan(h.column("objective")[1:]).all()  # compute_objective=False


def test_fallback_is_recorded_without_groups(capsys):
    X, y = make_moons(300, noise=0.2, random_state=0)
    clf = AESVC(C=10.0, gamma=1.0, verbose=1).fit(X, y)  # below 10,000 rows: no DeriveRS
    h, rows = _check(clf, capsys.readouterr().out, X.shape[0])
    assert h[0]["fallback"] and h[0]["n_groups"] is None and rows[0]["groups"] is None
    assert h[0]["n_representatives"] == X.shape[0]


def test_dask_input_records_its_phases(capsys):
    da = pytest.importorskip("dask.array")
    X, y = make_moons(800, noise=0.2, random_state=0)
    clf = AESVC(C=10.0, gamma=1.0, verbose=1, **PAPER).fit(da.from_array(X, chunks=(400, 2)), y)
    h, _ = _check(clf, capsys.readouterr().out, X.shape[0])
    assert h[0]["n_groups"] is None  # per chunk, not gathered


def test_silent_by_default(capsys):
    X, y = make_moons(300, noise=0.2, random_state=0)
    AESVC(C=10.0, gamma=1.0).fit(X, y)
    assert capsys.readouterr().out == ""
