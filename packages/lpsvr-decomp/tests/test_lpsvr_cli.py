"""lpsvr-train / lpsvr-predict: round trips equal LPSVR and LPSVC in Python, one-line errors."""

import importlib.metadata
import subprocess
import sys

import numpy as np
import pytest

from lpsvr import LPSVC, LPSVR
from lpsvr._cli import main, predict_main, train_main
from svmcore.cli import load_model, read_data
from svmcore.cli.testing import rst_markup_in, run_with_closed_stdout
from svmcore.datasets import dump_svmlight, make_noisy_sinc


def test_lpsvr_round_trip_equals_lpsvr(tmp_path, capsys):
    X, y = make_noisy_sinc(200, random_state=0)
    train = tmp_path / "sinc.svm"
    dump_svmlight(X, y, train, zero_based=False)
    model = tmp_path / "sinc.model"
    argv = ["-c", "10", "-p", "0.05", "--sigma", "0.5", "--random-state", "0"]
    assert train_main([*argv, str(train), str(model)]) == 0
    out = capsys.readouterr().out
    assert "LPSVR trained on 200 samples x 1 features" in out and "support vectors" in out
    Xs, ys = read_data(train)
    ref = LPSVR(C=10.0, epsilon=0.05, sigma=0.5, random_state=0).fit(Xs.toarray(), ys)
    assert predict_main([str(train), str(model), str(tmp_path / "pred")]) == 0
    pred = np.loadtxt(tmp_path / "pred")
    np.testing.assert_allclose(pred, ref.predict(Xs.toarray()), rtol=1e-12, atol=1e-12)
    mse = float(np.mean((pred - ys) ** 2))
    out = capsys.readouterr().out
    assert f"Mean squared error = {mse:.6g} (regression)" in out
    assert "Squared correlation coefficient" in out
    back = load_model(model, [LPSVR])
    assert back.objective_ == pytest.approx(ref.objective_, rel=1e-12)
    np.testing.assert_array_equal(back.support_, ref.support_)


def test_lpsvc_round_trip_from_csv(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(1)
    X = rng.normal(size=(90, 2))
    y = np.digitize(X[:, 0], [-0.4, 0.4])  # three classes
    np.savetxt("c.csv", np.column_stack([y, X]), delimiter=",")
    # seeded: unseeded fits start from other random columns, whose vertices can differ
    # in the last bits (2e-12 relative on a near-zero decision value in the full suite)
    argv = ["-s", "0", "-t", "linear", "-c", "1", "--random-state", "0"]
    assert train_main([*argv, "--target-column", "0", "c.csv"]) == 0
    ref = LPSVC(C=1.0, kernel="linear", random_state=0).fit(X, y)
    assert predict_main(["--target-column", "0", "c.csv", "c.csv.model", "pred"]) == 0
    pred = np.loadtxt("pred")
    np.testing.assert_array_equal(pred, ref.predict(X))
    correct = int((pred == y).sum())
    assert f"({correct}/90) (classification)" in capsys.readouterr().out
    back = load_model("c.csv.model", [LPSVC, LPSVR])
    assert len(back.estimators_) == 3
    np.testing.assert_allclose(back.decision_function(X), ref.decision_function(X), rtol=1e-12)


def test_bad_input_is_one_line(tmp_path, capsys):
    X, y = make_noisy_sinc(30, random_state=1)
    train = tmp_path / "t.svm"
    dump_svmlight(X, y, train, zero_based=False)
    cases = [
        (train_main, ["-s", "1", str(train)], "must be 3 (epsilon-SVR: LP-SVR) or 0"),
        (train_main, ["-p", "-1", str(train)], "argument -p: must be a number >= 0"),
        (train_main, ["--decomposition", "magic", str(train)], "invalid choice: 'magic'"),
        (train_main, [str(tmp_path / "nope.svm")], "no such file"),
        (predict_main, [str(train), str(train), "-"], "not a model file"),
    ]
    for tool, argv, message in cases:
        assert tool(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err, err
    wide = tmp_path / "wide.svm"
    wide.write_text("1.0 1:0.5 2:0.1\n")
    assert train_main(["-q", str(train), str(tmp_path / "m")]) == 0
    assert predict_main([str(wide), str(tmp_path / "m"), "-"]) == 2
    assert "beyond the model's 1 features" in capsys.readouterr().err


def test_scripts_help_and_closed_pipe(tmp_path):
    scripts = {e.name: e.value for e in importlib.metadata.entry_points(group="console_scripts")}
    assert scripts["lpsvr-train"] == "lpsvr._cli:train_main"
    assert scripts["lpsvr-predict"] == "lpsvr._cli:predict_main"
    for command in ("train", "predict"):
        proc = subprocess.run(
            [sys.executable, "-m", "lpsvr", command, "--help"], capture_output=True, text=True
        )
        assert proc.returncode == 0 and proc.stdout.startswith(f"usage: lpsvr-{command}")
        assert not rst_markup_in(proc.stdout)
    X, y = make_noisy_sinc(100, random_state=2)
    dump_svmlight(X, y, tmp_path / "t.svm", zero_based=False)
    assert main(["train", "-q", str(tmp_path / "t.svm"), str(tmp_path / "m")]) == 0
    # a reader that is gone: stdout is a pipe whose read end is closed (EPIPE at once)
    proc = run_with_closed_stdout(["-m", "lpsvr", "predict", "t.svm", "m", "-"], cwd=tmp_path)
    assert proc.returncode == 1 and proc.stderr == ""
