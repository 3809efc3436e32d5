"""verbose prints a table (header, one parseable line per iteration) equal to history_'s."""

import numpy as np
import pytest
from _data import two_clusters
from sklearn.datasets import make_classification

from l2svm_mfn import MFAClassifier, MFNClassifier, TSVMClassifier
from svmcore.reporting import History, parse_table

#: The documented record keys of each estimator's history_ (Attributes sections).
MFN_KEYS = {"class", "iter", "cg_iter", "cg_converged", "n_active", "delta", "objective", "time"}
TSVM_KEYS = {
    "lam_u",
    "switched",
    "objective_before",
    "objective_switched",
    "objective",
    "mfn_iter",
    "converged",
    "time",
}
MFA_KEYS = {
    "T",
    "outer",
    "inner",
    "kl",
    "objective",
    "mfn_iter",
    "p_newton",
    "p_bisect",
    "p_residual",
    "time",
}


def _semi():
    X, y, _ = two_clusters(0, n=200, gap=0.8)
    return X, y


def _multiclass():
    return make_classification(
        n_samples=150, n_features=6, n_informative=4, n_classes=3, random_state=0
    )


CASES = [
    ("mfn-binary", lambda v: MFNClassifier(alpha=0.1, verbose=v), _semi, MFN_KEYS),
    ("mfn-ovr", lambda v: MFNClassifier(alpha=0.1, verbose=v), _multiclass, MFN_KEYS),
    ("tsvm", lambda v: TSVMClassifier(unlabeled_value=-1, verbose=v), _semi, TSVM_KEYS),
    ("mfa", lambda v: MFAClassifier(unlabeled_value=-1, max_outer=4, verbose=v), _semi, MFA_KEYS),
]


@pytest.mark.parametrize(("name", "make", "data", "keys"), CASES, ids=[c[0] for c in CASES])
def test_verbose_prints_the_history_as_a_table(name, make, data, keys, capsys):
    X, y = data()
    if name == "mfn-binary":
        keep = y != -1  # the labeled rows only
        X, y = X[keep], y[keep]
    clf = make(1).fit(X, y)
    text = capsys.readouterr().out
    h = clf.history_
    assert isinstance(h, History) and len(h) >= 1
    for record in h:
        assert set(record) == keys, name
    # the same text as history_.to_table(): a header and one line per record
    assert text.rstrip("\n") == h.to_table()
    rows = parse_table(text)
    assert len(rows) == len(h) == len(text.splitlines()) - 1
    header = text.splitlines()[0].split()
    assert all(len(line.split()) == len(header) for line in text.splitlines())
    # the objective column reads back to the records' values
    printed = np.array([float(row["objective"]) for row in rows])
    np.testing.assert_allclose(printed, h.column("objective"), rtol=1e-9)


def test_mfn_one_vs_rest_rows_name_their_problem(capsys):
    X, y = _multiclass()
    clf = MFNClassifier(alpha=0.1, verbose=1).fit(X, y)
    rows = parse_table(capsys.readouterr().out)
    assert {row["class"] for row in rows} == {str(c) for c in clf.classes_}
    assert [int(row["iter"]) for row in rows] == list(clf.history_.column("iter").astype(int))
    assert sum(1 for row in rows if row["iter"] == "1") == 3  # one run per class


def test_semi_supervised_without_unlabeled_rows_reports_mfn_records(capsys):
    X, y = _semi()
    keep = y != -1
    clf = TSVMClassifier(unlabeled_value=-1, verbose=1).fit(X[keep], y[keep])
    assert set(clf.history_[0]) == MFN_KEYS - {"class"}
    assert len(parse_table(capsys.readouterr().out)) == len(clf.history_)


@pytest.mark.parametrize("make", [c[1] for c in CASES[::2]] + [CASES[3][1]])
def test_silent_by_default(make, capsys):
    X, y = _semi()
    make(0).fit(X, y)
    assert capsys.readouterr().out == ""
