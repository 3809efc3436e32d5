"""verbose of the AID estimators: the AID table as the fit runs, equal to history_'s."""

import numpy as np
import pytest

from aid_core import COLUMNS, AIDHistory
from aid_models import AIDSVC, AIDLADRegressor, AIDS3VMClassifier
from svmcore.datasets import make_blob_mixture, make_lad_set_a
from svmcore.reporting import parse_table


def _lad():
    return make_lad_set_a(400, 3, random_state=0)


def _svc():
    return make_blob_mixture(400, 3, random_state=0)


def _s3vm():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    y[10:] = -1  # 10 labeled rows, 30 unlabeled
    return X, y


CASES = [
    ("lad", lambda: AIDLADRegressor(verbose=1, random_state=0), _lad),
    ("svc-newton", lambda: AIDSVC(solver="newton", verbose=1, random_state=0), _svc),
    ("svc-liblinear", lambda: AIDSVC(solver="liblinear", verbose=1, random_state=0), _svc),
    (
        "s3vm",
        lambda: AIDS3VMClassifier(
            unlabeled_value=-1, max_iter=3, min_initial_clusters=2, verbose=1, random_state=0
        ),
        _s3vm,
    ),
]


@pytest.mark.parametrize(("name", "make", "data"), CASES, ids=[c[0] for c in CASES])
def test_verbose_prints_the_aid_table(name, make, data, capsys):
    X, y = data()
    est = make().fit(X, y)
    lines = capsys.readouterr().out.splitlines()
    h = est.history_
    assert isinstance(h, AIDHistory) and len(h) == est.n_iter_
    for record in h:
        assert set(COLUMNS) <= set(record), name
    # header, one line per iteration, then the stop remark
    assert lines[-1].startswith(f"# AID stopped: {est.stop_reason_}")
    assert "\n".join(lines[:-1]) == h.to_table()
    rows = parse_table("\n".join(lines))
    assert len(rows) == len(h)
    assert [int(row["t"]) for row in rows] == list(range(len(h)))
    np.testing.assert_allclose([float(r["E^t"]) for r in rows], h.column("E"), rtol=1e-7)
