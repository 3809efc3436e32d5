"""svmcore.cli: one-line errors and exit statuses, a closed pipe, data files, model files,
and the LIBSVM-style train/predict pair (on scikit-learn estimators, so no sibling
package is imported)."""

import json
import os
import shlex
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge

from svmcore.cli import (
    MODEL_FORMAT_VERSION,
    ArgumentParser,
    CLIError,
    add_kernel_options,
    dispatch,
    fraction,
    gamma_value,
    kernel_params,
    load_model,
    predict_tool,
    read_data,
    read_model_header,
    run,
    save_model,
    tool_pair,
    train_tool,
    write_values,
)
from svmcore.cli.testing import rst_markup_in, run_with_closed_stdout

# ---------------------------------------------------------------------------- run


def _raiser(exc):
    def command(argv):
        raise exc

    return command


@pytest.mark.parametrize(
    ("exc", "status", "text"),
    [
        (CLIError("data.svm: no such file"), 2, "tool: error: data.svm: no such file"),
        (ValueError("C must be\n  > 0"), 2, "tool: error: C must be > 0"),
        (FileNotFoundError(2, "No such file or directory", "x.txt"), 2, "x.txt: No such file"),
        (RuntimeError("solver failed"), 1, "tool: internal error: RuntimeError: solver failed"),
        (KeyboardInterrupt(), 130, "tool: interrupted"),
    ],
)
def test_run_turns_exceptions_into_one_line(capsys, exc, status, text):
    assert run(_raiser(exc), [], prog="tool") == status
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and text in captured.err


def test_run_returns_the_commands_status(capsys):
    assert run(lambda argv: None, [], prog="tool") == 0
    assert run(lambda argv: 3, [], prog="tool") == 3
    assert capsys.readouterr().err == ""


def test_run_prints_the_traceback_on_request(capsys, monkeypatch):
    monkeypatch.setenv("SVMCORE_CLI_TRACEBACK", "1")
    assert run(_raiser(RuntimeError("boom")), [], prog="tool") == 1
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: boom" in err and "Traceback" in err


def test_closed_pipe_ends_quietly(tmp_path):
    script = textwrap.dedent(
        """
        import sys
        from svmcore.cli import run, write_values
        status = run(lambda argv: write_values(range(200000)), [], prog="tool")
        print("status", status, file=sys.stderr)
        sys.exit(status)
        """
    )
    proc = subprocess.run(
        f"{sys.executable} -c {shlex.quote(script)} 2>err.txt | head -n 2",
        shell=True,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.stdout == "0\n1\n"
    err = (tmp_path / "err.txt").read_text()
    assert err == "status 1\n", err  # no traceback, no "Exception ignored" message


# ---------------------------------------------------------------------------- parser


def _parser():
    parser = ArgumentParser(prog="tool", description="Train a model.\n\nPlain text.")
    parser.add_argument("-n", type=fraction, default=0.5, help="a fraction")
    add_kernel_options(parser)
    return parser


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-n", "1.5"], "argument -n: must be a number in (0, 1), got '1.5'"),
        (["-n", "x"], "argument -n: must be a number in (0, 1), got 'x'"),
        (["-g", "-1"], "argument -g: must be 'scale', 'auto' or a number > 0, got '-1'"),
        (["-t", "3"], "LIBSVM's 3 (sigmoid) and 4 (precomputed) are not supported"),
        (["-d", "0"], "argument -d: must be an integer >= 1, got '0'"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_option_errors_are_one_line(capsys, argv, message):
    with pytest.raises(SystemExit) as info:
        _parser().parse_args(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tool: error: ") and message in err
    assert "(see tool --help)" in err


def test_kernel_options():
    args = _parser().parse_args(["-t", "1", "-d", "2", "-g", "0.25", "-r", "1"])
    assert kernel_params(args) == {"kernel": "poly", "gamma": 0.25, "degree": 2, "coef0": 1.0}
    args = _parser().parse_args(["-t", "linear", "-g", "auto"])
    assert kernel_params(args)["kernel"] == "linear" and args.gamma == "auto"
    assert gamma_value("scale") == "scale"


def test_help_is_plain_text(capsys):
    with pytest.raises(SystemExit) as info:
        _parser().parse_args(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "Train a model.\n\nPlain text." in out and "-t KERNEL" in out
    for markup in ("``", ":func:", ":class:", ".. "):
        assert markup not in out


# ---------------------------------------------------------------------------- data


def test_read_svmlight_one_based_by_default(tmp_path):
    path = tmp_path / "d.svm"
    path.write_text("+1 1:0.5 3:2\n-1 2:1\n")
    X, y = read_data(path)
    assert sp.issparse(X)
    np.testing.assert_array_equal(X.toarray(), [[0.5, 0, 2], [0, 1, 0]])
    np.testing.assert_array_equal(y, [1, -1])
    X, _ = read_data(path, n_features=5)  # padded to the model's width
    assert X.shape == (2, 5)
    X, _ = read_data(path, zero_based=True)
    np.testing.assert_array_equal(X.toarray(), [[0, 0.5, 0, 2], [0, 0, 1, 0]])


@pytest.mark.parametrize(
    ("text", "kwargs", "message"),
    [
        ("+1 0:1\n", {}, "d.svm"),  # index 0 in a one-based file
        ("+1 1:1 4:2\n", {"n_features": 3}, "beyond the model's 3 features"),
        ("+1 1:nan\n", {}, "nan or inf"),
        ("+1 a:b\n", {}, "d.svm"),
        ("", {}, "no data rows"),
    ],
)
def test_read_svmlight_errors(tmp_path, text, kwargs, message):
    path = tmp_path / "d.svm"
    path.write_text(text)
    with pytest.raises(CLIError, match=message):
        read_data(path, **kwargs)


def test_read_csv(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("a,b,y\n1,2,3\n4,5,6\n")
    X, y = read_data(path)
    np.testing.assert_array_equal(X, [[1, 2], [4, 5]])
    np.testing.assert_array_equal(y, [3, 6])
    X, y = read_data(path, target_column=0)
    np.testing.assert_array_equal(X, [[2, 3], [5, 6]])
    np.testing.assert_array_equal(y, [1, 4])
    X, y = read_data(path, n_features=3)  # as many columns as features: no target
    assert y is None and X.shape == (2, 3)
    X, y = read_data(path, n_features=2)
    np.testing.assert_array_equal(y, [3, 6])


@pytest.mark.parametrize(
    ("text", "kwargs", "message"),
    [
        ("", {}, "is empty"),
        ("1\n2\n", {}, "at least two columns"),
        ("1,2\n3,x\n", {}, "not a numeric CSV"),
        ("1,2\n3,nan\n", {}, "nan or inf"),
        ("1,2\n3,4\n", {"target_column": 5}, "target column 5 does not exist"),
        ("1,2,3,4\n", {"n_features": 2}, "the model needs 2 features"),
        ("a,b\n", {}, "no data rows"),
    ],
)
def test_read_csv_errors(tmp_path, text, kwargs, message):
    path = tmp_path / "d.csv"
    path.write_text(text)
    with pytest.raises(CLIError, match=message):
        read_data(path, **kwargs)


def test_read_missing_file_and_directory(tmp_path):
    with pytest.raises(CLIError, match="no such file"):
        read_data(tmp_path / "missing.svm")
    with pytest.raises(CLIError, match="is a directory"):
        read_data(tmp_path)
    with pytest.raises(CLIError, match="format must be"):
        (tmp_path / "x").write_text("1 1:1\n")
        read_data(tmp_path / "x", fmt="json")


def test_write_values_round_trips_floats(tmp_path, capsys):
    values = np.array([0.1, -2.0, 1e-300, 1 / 3])
    path = tmp_path / "out.txt"
    write_values(values, path)
    np.testing.assert_array_equal(np.loadtxt(path), values)
    write_values(np.array([1, 2]), "-")
    assert capsys.readouterr().out == "1\n2\n"


# ---------------------------------------------------------------------------- models


def test_model_round_trip_with_sparse_and_json_attributes(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 4))
    est = Ridge(alpha=0.5).fit(X, X @ [1.0, -2.0, 0.0, 0.5])
    est.extra_csr_ = sp.random(5, 4, density=0.4, format="csr", random_state=0)
    est.extra_info_ = {"kernel": "rbf", "gamma": np.float64(0.25), "sizes": (1, 2)}
    est.extra_nan_ = float("nan")
    path = tmp_path / "ridge.model"
    attrs = ["coef_", "intercept_", "n_features_in_", "extra_csr_", "extra_info_", "extra_nan_"]
    save_model(path, est, attrs, info={"note": "test"})
    assert os.listdir(tmp_path) == ["ridge.model"]  # no .npz appended, no temporary left
    back = load_model(path, [LinearRegression, Ridge])
    assert type(back) is Ridge and back.get_params() == est.get_params()
    np.testing.assert_array_equal(back.predict(X), est.predict(X))
    assert (back.extra_csr_ != est.extra_csr_).nnz == 0
    assert back.extra_info_ == {"kernel": "rbf", "gamma": 0.25, "sizes": [1, 2]}
    assert np.isnan(back.extra_nan_)
    header = read_model_header(path)
    assert header["format"] == "svmcore-model" and header["estimator"] == "sklearn.Ridge"
    assert header["info"] == {"note": "test"} and header["params"]["alpha"] == 0.5
    # portable: plain NumPy without pickle reads every entry
    with np.load(path, allow_pickle=False) as f:
        assert json.loads(str(f["header"]))["format_version"] == MODEL_FORMAT_VERSION
        np.testing.assert_array_equal(f["attr.coef_"], est.coef_)


class _Ensemble(RegressorMixin, BaseEstimator):
    """A regressor holding fitted estimators, as LPSVC holds one LPSVR per class."""

    def __init__(self, alphas=(0.1, 10.0)):
        self.alphas = alphas

    def fit(self, X, y):
        self.estimators_ = [Ridge(alpha=a).fit(X, y) for a in self.alphas]
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X):
        return np.mean([est.predict(X) for est in self.estimators_], axis=0)


def test_model_round_trip_of_nested_estimators(tmp_path):
    rng = np.random.default_rng(1)
    X = rng.standard_normal((20, 3))
    est = _Ensemble().fit(X, X[:, 0] - X[:, 2])
    attrs = {_Ensemble: ["estimators_", "n_features_in_"], Ridge: ["coef_", "intercept_"]}
    save_model(tmp_path / "m", est, attrs)
    back = load_model(tmp_path / "m", [_Ensemble, Ridge])
    assert [type(e) for e in back.estimators_] == [Ridge, Ridge]
    np.testing.assert_array_equal(back.predict(X), est.predict(X))
    with pytest.raises(CLIError, match="holds a .*Ridge model"):
        load_model(tmp_path / "m", [_Ensemble])  # the nested class must be accepted too
    with pytest.raises(TypeError, match="no attribute list for Ridge"):
        save_model(tmp_path / "n", est, {_Ensemble: ["estimators_"]})
    # names may depend on the fitted estimator (a function of it)
    save_model(tmp_path / "f", est, {**attrs, Ridge: lambda r: ["coef_", "intercept_"]})
    np.testing.assert_array_equal(
        load_model(tmp_path / "f", [_Ensemble, Ridge]).predict(X), est.predict(X)
    )


def test_save_model_refuses_what_it_cannot_store(tmp_path):
    est = LinearRegression().fit([[0.0], [1.0]], [0.0, 1.0])
    with pytest.raises(ValueError, match="no attribute 'missing_'"):
        save_model(tmp_path / "m", est, ["missing_"])
    est.objects_ = np.array([object()])
    with pytest.raises(TypeError, match="objects"):
        save_model(tmp_path / "m", est, ["objects_"])
    est.function_ = len
    with pytest.raises(TypeError, match="cannot be stored"):
        save_model(tmp_path / "m", est, ["function_"])
    assert os.listdir(tmp_path) == []


def test_load_model_errors(tmp_path):
    est = LinearRegression().fit([[0.0], [1.0]], [0.0, 1.0])
    good = tmp_path / "lr.model"
    save_model(good, est, ["coef_", "intercept_"])
    with pytest.raises(CLIError, match="no such model file"):
        load_model(tmp_path / "missing", [LinearRegression])
    with pytest.raises(CLIError, match="holds a sklearn.LinearRegression model; expected"):
        load_model(good, [Ridge])
    junk = tmp_path / "junk.model"
    junk.write_text("not a model")
    with pytest.raises(CLIError, match="not a model file"):
        load_model(junk, [LinearRegression])
    for name, header in [
        ("other.model", {"format": "other"}),
        ("newer.model", {"format": "svmcore-model", "format_version": 99}),
    ]:
        with open(tmp_path / name, "wb") as fh:
            np.savez(fh, header=np.array(json.dumps(header)))
    with pytest.raises(CLIError, match="not a svmcore-model file"):
        load_model(tmp_path / "other.model", [LinearRegression])
    with pytest.raises(CLIError, match="newer than this reader"):
        load_model(tmp_path / "newer.model", [LinearRegression])


# ---------------------------------------------------------------------------- tools


def _write_classification(path, n=80, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] > 0, 1, -1)
    with open(path, "w") as fh:
        for row, label in zip(X, y, strict=True):
            fh.write(
                f"{label:+d} " + " ".join(f"{j + 1}:{float(v)!r}" for j, v in enumerate(row)) + "\n"
            )
    return X, y


def _add_options(parser):
    parser.add_argument("-c", dest="C", type=float, default=1.0, help="inverse regularization")


ATTRS = {LogisticRegression: ["classes_", "coef_", "intercept_", "n_features_in_"]}


def _train(argv):
    return train_tool(
        argv,
        prog="lr-train",
        description="Train a logistic regression.",
        add_options=_add_options,
        build=lambda args: LogisticRegression(C=args.C),
        attributes=ATTRS,
        summary=lambda est: f"{est.n_iter_[0]} iterations",
    )


def _predict(argv):
    return predict_tool(
        argv, prog="lr-predict", description="Predict.", estimators=[LogisticRegression]
    )


def test_train_predict_round_trip(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    X, y = _write_classification(tmp_path / "train.svm")
    assert _train(["-c", "0.3", "train.svm"]) == 0
    out = capsys.readouterr().out
    assert "LogisticRegression trained on 80 samples x 3 features" in out
    assert "model written to train.svm.model" in out  # LIBSVM's default name, here
    ref = LogisticRegression(C=0.3).fit(X, y)
    assert _predict(["train.svm", "train.svm.model", "pred.txt"]) == 0
    pred = np.loadtxt(tmp_path / "pred.txt")
    np.testing.assert_array_equal(pred, ref.predict(X))
    correct = int((pred == y).sum())
    assert f"Accuracy = {100 * correct / 80:.6g}% ({correct}/80) (classification)" in (
        capsys.readouterr().out
    )
    # '-' writes the predictions to stdout and the accuracy to stderr
    assert _predict(["train.svm", "train.svm.model", "-"]) == 0
    captured = capsys.readouterr()
    np.testing.assert_array_equal(np.array(captured.out.split(), dtype=float), pred)
    assert "Accuracy" in captured.err


def test_train_reports_warnings_on_one_line(tmp_path, capsys):
    _write_classification(tmp_path / "train.svm")
    model = tmp_path / "m"

    def build(args):
        return LogisticRegression(max_iter=1)

    assert (
        train_tool(
            [str(tmp_path / "train.svm"), str(model)],
            prog="lr-train",
            description="d",
            add_options=lambda parser: None,
            build=build,
            attributes=ATTRS,
        )
        == 0
    )
    err = capsys.readouterr().err
    assert err.startswith("lr-train: warning: ") and err.count("\n") == 1


def test_tool_errors_are_one_line(tmp_path, capsys):
    assert _train([str(tmp_path / "missing.svm")]) == 2
    err = capsys.readouterr().err
    assert err == f"lr-train: error: {tmp_path / 'missing.svm'}: no such file\n"
    _write_classification(tmp_path / "train.svm")
    assert _train(["-c", "oops", str(tmp_path / "train.svm")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert _predict([str(tmp_path / "train.svm"), str(tmp_path / "train.svm"), "-"]) == 2
    assert "not a model file" in capsys.readouterr().err


def test_tool_pair_makes_the_three_entry_points(tmp_path, capsys):
    X, y = _write_classification(tmp_path / "train.svm")
    tools = tool_pair(
        "lr",
        module="mypackage._cli",
        train_description="Train.",
        predict_description="Predict.",
        add_options=_add_options,
        build=lambda args: LogisticRegression(C=args.C),
        attributes=ATTRS,
        aliases={"fit": "train"},
    )
    train, predict, main = tools
    assert [f.__name__ for f in tools] == ["train_main", "predict_main", "main"]
    assert train.__module__ == "mypackage._cli" and "lr-train [options]" in train.__doc__
    model, pred = str(tmp_path / "m"), str(tmp_path / "p")
    assert main(["fit", "-q", "-c", "0.3", str(tmp_path / "train.svm"), model]) == 0
    assert predict(["-q", str(tmp_path / "train.svm"), model, pred]) == 0
    np.testing.assert_array_equal(np.loadtxt(pred), LogisticRegression(C=0.3).fit(X, y).predict(X))
    assert train(["--help"]) == 0 and capsys.readouterr().out.startswith("usage: lr-train")
    assert main(["--help"]) == 0 and "train, predict, fit" in capsys.readouterr().out


def test_run_with_closed_stdout_is_deterministic(tmp_path):
    handled = (
        "import sys; from svmcore.cli import run, write_values; "
        "sys.exit(run(lambda a: write_values([1]), prog='t'))"
    )
    proc = run_with_closed_stdout(["-c", handled], cwd=tmp_path)
    assert proc.returncode == 1 and proc.stderr == ""
    # one short write, unhandled: the helper still makes it fail (no pipe buffer hides it)
    proc = run_with_closed_stdout(["-c", "print(1)"], cwd=tmp_path)
    assert "BrokenPipeError" in proc.stderr
    assert rst_markup_in("``x`` and .. note::") == ["``", ".. "]


def test_dispatch(capsys):
    calls = []
    commands = {"train": lambda argv: calls.append(argv) or 0}
    assert dispatch(["train", "-q", "x"], prog="python -m pkg", commands=commands) == 0
    assert calls == [["-q", "x"]]
    assert dispatch(["--help"], prog="python -m pkg", commands=commands) == 0
    assert "Commands: train" in capsys.readouterr().out
    assert dispatch(["fly"], prog="python -m pkg", commands=commands) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown command 'fly'" in err
