"""aid-train / aid-predict (python -m aid_models): round trips equal the estimators in
Python, LAD's certificate against an independent solver, one-line errors, plain help,
no traceback on a closed pipe, no pickle."""

import importlib.metadata
import subprocess
import sys

import numpy as np
import pytest
from sklearn.linear_model import QuantileRegressor

from aid_models import AIDSVC, AIDLADRegressor
from aid_models._cli import main, predict_main, train_main
from svmcore.cli import load_model, read_data, read_model_header
from svmcore.cli.testing import rst_markup_in, run_with_closed_stdout
from svmcore.datasets import dump_svmlight, make_blob_mixture, make_lad_set_a


def test_lad_from_csv_is_certified_and_round_trips(tmp_path, capsys):
    X, y = make_lad_set_a(400, 3, random_state=0)
    path = tmp_path / "lad.csv"
    np.savetxt(path, np.column_stack([X, y]), delimiter=",", header="a,b,c,y", comments="")
    model = tmp_path / "lad.model"
    assert train_main(["-s", "lad", "--gap-tol", "0", str(path), str(model)]) == 0
    out = capsys.readouterr().out
    assert "AIDLADRegressor trained on 400 samples x 3 features" in out
    assert "AID stopped: optimal" in out
    est = load_model(model, [AIDLADRegressor])
    qr = QuantileRegressor(quantile=0.5, alpha=0.0, solver="highs").fit(X, y)
    assert est.objective_ == pytest.approx(np.abs(y - qr.predict(X)).sum(), rel=1e-6)
    ref = AIDLADRegressor(gap_tol=0, random_state=0).fit(X, y)
    pred_file = tmp_path / "pred.txt"
    assert predict_main([str(path), str(model), str(pred_file)]) == 0
    np.testing.assert_allclose(np.loadtxt(pred_file), ref.predict(X), rtol=1e-12, atol=1e-12)
    assert "Mean squared error" in capsys.readouterr().out


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_svc_from_svmlight_round_trips(tmp_path, capsys, kernel):
    X, y = make_blob_mixture(300, 3, random_state=1)
    path = tmp_path / "svm.svm"
    dump_svmlight(X, y, path, zero_based=False)
    model = tmp_path / "svm.model"
    argv = ["-c", "0.1", "-t", kernel, "-g", "0.5", str(path), str(model)]
    assert train_main(argv) == 0
    capsys.readouterr()
    Xs, ys = read_data(path)
    Xfit = Xs if kernel == "linear" else Xs.toarray()  # kernel AID takes dense rows
    ref = AIDSVC(C=0.1, kernel=kernel, gamma=0.5, random_state=0).fit(Xfit, ys)
    assert predict_main([str(path), str(model), "-"]) == 0
    captured = capsys.readouterr()
    pred = np.array(captured.out.split(), dtype=float)
    np.testing.assert_array_equal(pred, ref.predict(Xfit))
    assert "(classification)" in captured.err  # the accuracy line, as stdout holds the values
    back = load_model(model, [AIDSVC])
    np.testing.assert_allclose(back.decision_function(Xfit), ref.decision_function(Xfit))
    header = read_model_header(model)
    assert ("coef_" in header["attributes"]) == (kernel == "linear")
    with np.load(model, allow_pickle=False) as archive:  # portable: no pickled object inside
        assert all(archive[name].dtype != object for name in archive.files)


def test_python_m_aid_models(tmp_path, capsys):
    X, y = make_lad_set_a(200, 2, random_state=3)
    path = tmp_path / "d.csv"
    np.savetxt(path, np.column_stack([X, y]), delimiter=",")
    # 'fit' is kept as another name of 'train'
    assert main(["fit", "-s", "lad", "-q", str(path), str(tmp_path / "m")]) == 0
    assert capsys.readouterr().out == ""
    assert main(["predict", "-q", str(path), str(tmp_path / "m"), str(tmp_path / "p")]) == 0
    assert np.loadtxt(tmp_path / "p").shape == (200,)
    assert main(["fly"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_bad_input_is_one_line(tmp_path, capsys):
    bad = tmp_path / "one.csv"
    bad.write_text("1\n2\n")
    cases = [
        (train_main, ["-s", "lad", str(tmp_path / "missing.svm")], "no such file"),
        (train_main, ["-s", "lad", str(bad)], "at least two columns"),
        (train_main, ["-s", "nope", str(bad)], "argument -s: must be svc or lad"),
        (train_main, ["--gap-tol", "-1", str(bad)], "argument --gap-tol: must be a number >= 0"),
        (train_main, ["--initial-aggregation-rate", "2", str(bad)], "in (0, 1)"),
        (predict_main, [str(bad), str(bad), "-"], "not a model file"),
    ]
    for tool, argv, message in cases:
        assert tool(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err, err
    three = tmp_path / "three.csv"
    rng = np.random.default_rng(0)
    np.savetxt(three, np.column_stack([rng.normal(size=(30, 2)), np.arange(30) % 3]), delimiter=",")
    assert train_main([str(three), str(tmp_path / "m")]) == 2  # AIDSVC is binary
    assert capsys.readouterr().err.count("\n") == 1


def test_scripts_help_and_closed_pipe(tmp_path):
    scripts = {e.name: e.value for e in importlib.metadata.entry_points(group="console_scripts")}
    assert scripts["aid-train"] == "aid_models._cli:train_main"
    assert scripts["aid-predict"] == "aid_models._cli:predict_main"
    for argv in (["--help"], ["train", "--help"], ["predict", "--help"]):
        proc = subprocess.run(
            [sys.executable, "-m", "aid_models", *argv], capture_output=True, text=True
        )
        assert proc.returncode == 0 and proc.stdout.startswith("usage: ")
        assert not rst_markup_in(proc.stdout)
    X, y = make_lad_set_a(300, 2, random_state=4)
    np.savetxt(tmp_path / "d.csv", np.column_stack([X, y]), delimiter=",")
    assert train_main(["-s", "lad", "-q", str(tmp_path / "d.csv"), str(tmp_path / "m")]) == 0
    # a reader that is gone: stdout is a pipe whose read end is closed (EPIPE at once);
    # --verbose prints the iteration table to stdout while fitting
    for argv in (["predict", "d.csv", "m", "-"], ["train", "-s", "lad", "--verbose", "d.csv"]):
        proc = run_with_closed_stdout(["-m", "aid_models", *argv], cwd=tmp_path)
        assert proc.returncode == 1 and proc.stderr == "", proc.stderr
