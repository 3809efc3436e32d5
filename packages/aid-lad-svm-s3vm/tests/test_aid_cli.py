import pickle

import numpy as np
import pytest
from sklearn.linear_model import QuantileRegressor

from aid_models._cli import load_data, main
from svmcore.datasets import dump_svmlight, make_blob_mixture, make_lad_set_a


def test_fit_and_predict_lad_from_csv(tmp_path, capsys):
    X, y = make_lad_set_a(400, 3, random_state=0)
    path = tmp_path / "lad.csv"
    np.savetxt(path, np.column_stack([X, y]), delimiter=",", header="a,b,c,y", comments="")
    model = tmp_path / "lad.pkl"
    assert main(["fit", str(path), "--model", "lad", "--gap-tol", "0", "-o", str(model)]) == 0
    out = capsys.readouterr().out
    assert "E_best" in out.splitlines()[0]  # the iteration table header
    assert "certificate: stop=optimal" in out
    with open(model, "rb") as fh:
        est = pickle.load(fh)
    qr = QuantileRegressor(quantile=0.5, alpha=0.0, solver="highs").fit(X, y)
    ref = np.abs(y - qr.predict(X)).sum()
    assert est.objective_ == pytest.approx(ref, rel=1e-6)
    pred_file = tmp_path / "pred.txt"
    assert main(["predict", str(model), str(path), "-o", str(pred_file)]) == 0
    np.testing.assert_allclose(np.loadtxt(pred_file), est.predict(X))


def test_fit_and_predict_svm_from_svmlight(tmp_path, capsys):
    X, y = make_blob_mixture(500, 3, random_state=1)
    path = tmp_path / "svm.svm"
    dump_svmlight(X, y, path)
    model = tmp_path / "svm.pkl"
    assert main(["fit", str(path), "--model", "svm", "--C", "0.1", "-o", str(model)]) == 0
    assert "certificate:" in capsys.readouterr().out
    assert main(["predict", str(model), str(path)]) == 0
    pred = np.array(capsys.readouterr().out.split(), dtype=float)
    Xs, ys = load_data(path)
    assert np.mean(pred == ys) > 0.6


def test_cli_errors(tmp_path, capsys):
    assert main(["fit", str(tmp_path / "missing.svm"), "--model", "lad"]) == 2
    assert "does not exist" in capsys.readouterr().err
    bad = tmp_path / "one.csv"
    bad.write_text("1\n2\n")
    assert main(["fit", str(bad), "--model", "lad"]) == 2
    assert "two columns" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["fit", str(bad), "--model", "nope"])
