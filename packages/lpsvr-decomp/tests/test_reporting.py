"""verbose prints a table (header, one parseable line per iteration) equal to history_'s."""

import numpy as np
import pytest
from sklearn.datasets import make_classification

from lpsvr import LPSVC, LPSVR
from svmcore.datasets import make_noisy_sinc
from svmcore.reporting import History, parse_table

#: The documented record keys of history_ (LPSVR's Attributes), per decomposition.
WORKING_SET_KEYS = {
    "iteration",
    "working_set_size",
    "sub_objective",
    "objective",
    "n_violators",
    "max_violation",
    "n_permanent",
    "time",
}
ROW_COLUMN_KEYS = {
    "iteration",
    "n_samples",
    "working_set_size",
    "n_rows",
    "sub_objective",
    "objective",
    "step",
    "n_added",
    "time",
}
KEYS = {
    "none": WORKING_SET_KEYS,
    "variables": WORKING_SET_KEYS,
    "full": WORKING_SET_KEYS,
    "row_column": ROW_COLUMN_KEYS,
}


def _check_table(text, history, keys):
    assert isinstance(history, History) and len(history) >= 1
    for record in history:
        assert set(record) == keys
    assert text.rstrip("\n") == history.to_table()
    lines = text.splitlines()
    rows = parse_table(text)
    assert len(rows) == len(history) == len(lines) - 1
    assert all(len(line.split()) == len(lines[0].split()) for line in lines)
    np.testing.assert_allclose(
        [float(row["objective"]) for row in rows], history.column("objective"), rtol=1e-9
    )
    return rows


@pytest.mark.parametrize("decomposition", list(KEYS))
def test_lpsvr_verbose_prints_its_history(decomposition, capsys):
    X, y = make_noisy_sinc(300, random_state=0)
    # a small first working set and level, so the decompositions iterate
    reg = LPSVR(decomposition=decomposition, B0=20, verbose=1, random_state=0).fit(X, y)
    rows = _check_table(capsys.readouterr().out, reg.history_, KEYS[decomposition])
    if decomposition != "none":
        assert len(rows) >= 2
        assert [int(r["iter"]) for r in rows][-1] == reg.history_[-1]["iteration"]


def test_lpsvc_reports_every_regressor_with_its_class(capsys):
    X, y = make_classification(
        n_samples=120, n_features=4, n_classes=3, n_informative=3, n_redundant=1, random_state=0
    )
    clf = LPSVC(decomposition="variables", B0=20, verbose=1, random_state=0).fit(X, y)
    rows = _check_table(capsys.readouterr().out, clf.history_, WORKING_SET_KEYS | {"class"})
    assert [r["class"] for r in rows] == [str(rec["class"]) for rec in clf.history_]
    assert {r["class"] for r in rows} == {str(c) for c in clf.classes_}
    # the per-class records are the regressors' own
    for k, reg in enumerate(clf.estimators_):
        mine = [rec for rec in clf.history_ if rec["class"] == clf.classes_[k]]
        assert [{**r, "class": clf.classes_[k]} for r in reg.history_] == mine


def test_silent_by_default(capsys):
    X, y = make_noisy_sinc(100, random_state=0)
    LPSVR(random_state=0).fit(X, y)
    assert capsys.readouterr().out == ""
