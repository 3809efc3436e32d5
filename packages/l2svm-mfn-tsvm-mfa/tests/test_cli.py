"""The SVMlin-compatible command line: round trips on files written here, clear errors."""

import numpy as np
import pytest
import scipy.sparse as sp

from l2svm_mfn import MFNClassifier, TSVMClassifier
from l2svm_mfn._cli import main, read_examples
from svmcore.validation import from_svmlin_labels


def _write_problem(tmp_path, n=120, d=6, n_labeled=None, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    X[np.abs(X) < 0.4] = 0.0
    X[3] = 0.0  # an all-zero row is an empty line
    y = np.where(X[:, 0] - X[:, 1] + 0.3 * rng.standard_normal(n) > 0, 1, -1)
    labels = y.copy()
    if n_labeled is not None:
        labels[n_labeled:] = 0
    ex = tmp_path / "train.ex"
    with open(ex, "w") as f:
        for row in X:
            f.write(" ".join(f"{j + 1}:{float(v)!r}" for j, v in enumerate(row) if v != 0.0) + "\n")
    lab = tmp_path / "train.lab"
    np.savetxt(lab, labels, fmt="%+d")
    return X, y, labels, str(ex), str(lab)


def test_read_examples_matches_matrix(tmp_path):
    X, _, _, ex, _ = _write_problem(tmp_path)
    got = read_examples(ex)
    assert sp.issparse(got)
    np.testing.assert_array_equal(got.toarray(), X)


def test_train_mfn_round_trip(tmp_path, capsys):
    X, y, labels, ex, lab = _write_problem(tmp_path, n_labeled=100)
    out = str(tmp_path)
    assert main(["-A", "1", "-W", "0.1", "-Cp", "2", "--output-dir", out, ex, lab]) == 0
    printed = capsys.readouterr().out
    assert "objective =" in printed and "skipping 20 unlabeled" in printed
    w = np.loadtxt(tmp_path / "train.ex.weights")
    outputs = np.loadtxt(tmp_path / "train.ex.outputs")
    mask = labels != 0
    ref = MFNClassifier(alpha=0.1).fit(
        X[mask], labels[mask], sample_weight=np.where(labels[mask] > 0, 2.0, 1.0)
    )
    np.testing.assert_allclose(w, np.r_[ref.coef_.ravel(), ref.intercept_], rtol=1e-12)
    np.testing.assert_allclose(outputs, X @ w[:-1] + w[-1], rtol=1e-12, atol=1e-12)
    objective = float(printed.split("objective =")[1].split()[0])
    assert objective == pytest.approx(ref.objective_, rel=1e-9)

    # -f: predict from the weights file, with test labels (accuracy printed).
    test_lab = tmp_path / "test.lab"
    np.savetxt(test_lab, y, fmt="%+d")
    assert (
        main(["-f", str(tmp_path / "train.ex.weights"), "--output-dir", out, ex, str(test_lab)])
        == 0
    )
    assert "accuracy =" in capsys.readouterr().out
    np.testing.assert_allclose(np.loadtxt(tmp_path / "train.ex.outputs"), outputs, rtol=1e-12)


def test_train_tsvm_and_mfa(tmp_path, capsys):
    X, y, labels, ex, lab = _write_problem(tmp_path, n_labeled=20)
    out = str(tmp_path)
    assert (
        main(
            [
                "-A",
                "2",
                "-W",
                "0.01",
                "-U",
                "0.5",
                "-S",
                "5",
                "-R",
                "0.4",
                "--quiet",
                "--output-dir",
                out,
                ex,
                lab,
            ]
        )
        == 0
    )
    assert capsys.readouterr().out == ""
    w = np.loadtxt(tmp_path / "train.ex.weights")
    # the CLI fits SVMlin's labels as given (unlabeled_value=0); the converted ones agree
    ref = TSVMClassifier(
        alpha=0.01,
        alpha_unlabeled=0.5,
        max_switch=5,
        positive_fraction=0.4,
        anneal_factor=1.5,
        unlabeled_value=-1,
    ).fit(X, from_svmlin_labels(labels))
    np.testing.assert_allclose(w, np.r_[ref.coef_.ravel(), ref.intercept_], rtol=1e-10)
    assert main(["-A", "3", "-W", "0.01", "--output-dir", out, ex, lab]) == 0
    assert "objective =" in capsys.readouterr().out
    assert np.loadtxt(tmp_path / "train.ex.weights").shape == (X.shape[1] + 1,)


@pytest.mark.parametrize(
    ("examples", "labels", "message"),
    [
        ("1:0.5 2:x\n", "+1\n", "not of the form index:value"),
        ("+1 1:0.5\n", "+1\n", "no label column"),
        ("0:1.0\n", "+1\n", "index 0 < 1"),
        ("1:1 1:2\n", "+1\n", "appears twice"),
        ("1:nan\n", "+1\n", "not finite"),
        ("", "", "is empty"),
        ("1:1\n2:1\n", "+1\n", "1 labels for 2 examples"),
        ("1:1\n2:1\n", "+1\n2\n", "not +1, -1 or 0"),
        ("1:1\n2:1\n", "+1\nabc\n", "not a number"),
        ("1:1\n2:1\n", "0\n0\n", "no labeled example"),
        ("1:1\n2:1\n", "+1\n0\n", "both +1 and -1"),
    ],
)
def test_malformed_files_give_clear_errors(tmp_path, capsys, examples, labels, message):
    ex, lab = tmp_path / "e", tmp_path / "l"
    ex.write_text(examples)
    lab.write_text(labels)
    assert main(["--output-dir", str(tmp_path), str(ex), str(lab)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and message in err


def test_prediction_errors(tmp_path, capsys):
    weights = tmp_path / "w"
    np.savetxt(weights, [1.0, 2.0, 0.5])
    ex = tmp_path / "t"
    ex.write_text("1:1 3:2\n")
    assert main(["-f", str(weights), "--output-dir", str(tmp_path), str(ex)]) == 2
    assert "exceeds the 2 features" in capsys.readouterr().err
    assert main(["-f", str(tmp_path / "missing"), str(ex)]) == 2
    assert "cannot read weights file" in capsys.readouterr().err
    assert main(["-W", "0", str(ex), str(ex)]) == 2
    assert "-W" in capsys.readouterr().err
