"""aesvm-train / aesvm-predict: round trips equal AESVC in Python, one-line errors."""

import importlib.metadata
import subprocess
import sys

import numpy as np
import pytest

from aesvm import AESVC
from aesvm._cli import main, predict_main, train_main
from svmcore.cli import load_model, read_data, read_model_header
from svmcore.cli.testing import rst_markup_in, run_with_closed_stdout
from svmcore.datasets import dump_svmlight

PAPER = ["-c", "10", "-g", "0.5", "--epsilon", "0.001", "--fallback-fraction", "none"]
PAPER_KW = {"C": 10.0, "gamma": 0.5, "epsilon": 1e-3, "fallback_fraction": None}


def _data(n=300, n_classes=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    if n_classes == 2:
        y = np.where(X[:, 0] + X[:, 1] > 0, 1, -1)
    else:
        y = np.digitize(X[:, 0] + 0.5 * X[:, 1], [-0.5, 0.5])
    return X, y


@pytest.mark.parametrize("n_classes", [2, 3])
def test_round_trip_equals_aesvc(tmp_path, capsys, n_classes):
    X, y = _data(n_classes=n_classes)
    train = tmp_path / "train.svm"
    dump_svmlight(X, y, train, zero_based=False)
    model = tmp_path / "m.model"
    opts = [*PAPER, "-V", "100", "-P", "150", "--random-state", "3"]
    assert train_main([*opts, str(train), str(model)]) == 0
    out = capsys.readouterr().out
    assert "AESVC trained on 300 samples x 2 features" in out and "representatives" in out
    Xs, _ = read_data(train)  # the CSR matrix the tool fits (libsvm's sparse path)
    ref = AESVC(**PAPER_KW, group_size=100, subset_size=150, random_state=3).fit(Xs, y)
    assert ref.n_representatives_ < 300  # DeriveRS reduced the data
    assert predict_main([str(train), str(model), str(tmp_path / "pred")]) == 0
    pred = np.loadtxt(tmp_path / "pred")
    np.testing.assert_array_equal(pred, ref.predict(X))
    correct = int((pred == y).sum())
    assert f"({correct}/300) (classification)" in capsys.readouterr().out
    back = load_model(model, [AESVC])
    np.testing.assert_allclose(back.decision_function(X), ref.decision_function(X), rtol=1e-12)
    header = read_model_header(model)
    assert header["estimator"] == "aesvm.AESVC" and header["params"]["C"] == 10.0


def test_csv_and_sparse_input_and_linear_kernel(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    X, y = _data(n=200, seed=1)
    np.savetxt("train.csv", np.column_stack([X, y]), delimiter=",", header="a,b,y", comments="")
    assert train_main(["-t", "0", "-c", "0.5", "-q", "train.csv"]) == 0
    assert capsys.readouterr().out == ""
    ref = AESVC(kernel="linear", C=0.5).fit(X, y)  # fewer than 10000 rows: every sample
    # a CSV test file without the label column: predictions only, no accuracy line
    np.savetxt("test.csv", X, delimiter=",")
    assert predict_main(["test.csv", "train.csv.model", "-"]) == 0
    captured = capsys.readouterr()
    np.testing.assert_array_equal(np.array(captured.out.split(), dtype=float), ref.predict(X))
    assert captured.err == ""


def test_bad_input_is_one_line(tmp_path, capsys):
    X, y = _data(n=50)
    train = tmp_path / "t.svm"
    dump_svmlight(X, y, train, zero_based=False)
    cases = [
        (train_main, ["-c", "0", str(train)], "argument -c: must be a number > 0"),
        (train_main, ["-t", "3", str(train)], "sigmoid"),
        (train_main, ["--fallback-fraction", "2", str(train)], "'none' or a number in (0, 1]"),
        (train_main, [str(tmp_path / "nope.svm")], "no such file"),
        (predict_main, [str(train), str(tmp_path / "nope.model"), "-"], "no such model file"),
        (predict_main, [str(train), str(train), "-"], "not a model file"),
    ]
    for tool, argv, message in cases:
        assert tool(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err, err
    one_class = tmp_path / "one.svm"
    dump_svmlight(X, np.ones(50), one_class, zero_based=False)
    assert train_main([str(one_class), str(tmp_path / "m")]) == 2
    assert "at least 2 classes" in capsys.readouterr().err


def test_scripts_help_and_closed_pipe(tmp_path):
    scripts = {e.name: e.value for e in importlib.metadata.entry_points(group="console_scripts")}
    assert scripts["aesvm-train"] == "aesvm._cli:train_main"
    assert scripts["aesvm-predict"] == "aesvm._cli:predict_main"
    for command in ("train", "predict"):
        proc = subprocess.run(
            [sys.executable, "-m", "aesvm", command, "--help"], capture_output=True, text=True
        )
        assert proc.returncode == 0 and proc.stdout.startswith(f"usage: aesvm-{command}")
        assert not rst_markup_in(proc.stdout)
    X, y = _data(n=200, seed=2)
    dump_svmlight(X, y, tmp_path / "t.svm", zero_based=False)
    assert main(["train", "-q", "-t", "0", str(tmp_path / "t.svm"), str(tmp_path / "m")]) == 0
    # a reader that is gone: stdout is a pipe whose read end is closed (EPIPE at once)
    proc = run_with_closed_stdout(["-m", "aesvm", "predict", "t.svm", "m", "-"], cwd=tmp_path)
    assert proc.returncode == 1 and proc.stderr == ""
