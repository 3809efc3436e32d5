"""``svmlin``, the SVMlin v1.0 compatible command line: files, objectives, errors.

The objectives are checked three ways: against an independent minimizer
(scipy.optimize) where the problem is convex (-A 0, -A 1, and TSVM's final
fixed-label problem), against the values SVMlin v1.0 itself reached on the data
generated here (recorded below), and, when ``SVMLIN_BIN`` names the SVMlin binary,
against the binary run live (also on SVMlin's own example data when
``SVMLIN_EXAMPLE_DIR`` names its ``example`` directory).
"""

import importlib.metadata
import os
import re
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize

from l2svm_mfn import MFAClassifier, MFNClassifier, TSVMClassifier, tsvm_objective
from l2svm_mfn._cli import main, svmlin_positive_count
from l2svm_mfn._svmlin_io import read_examples
from svmcore.cli.testing import rst_markup_in, run_with_closed_stdout

# ---------------------------------------------------------------------------- data


def _problem(n=400, d=80, nnz=8, n_labeled=100, seed=7):
    """Text-like SVMlin data: unit-norm sparse rows, a linear truth, row 5 empty."""
    rng = np.random.default_rng(seed)
    direction = rng.standard_normal(d)
    lines, y = [], []
    for i in range(n):
        cols = np.sort(rng.choice(d, nnz, replace=False))
        vals = rng.random(nnz)
        vals /= np.linalg.norm(vals)
        score = vals @ direction[cols] + 0.1 * rng.standard_normal()
        y.append(1 if score > 0 else -1)
        lines.append(
            " ".join(f"{c + 1}:{float(v)!r}" for c, v in zip(cols, vals, strict=True))
            if i != 5
            else ""
        )
    y = np.array(y)
    labels = np.zeros(n, dtype=int)
    lab = rng.choice(n, n_labeled, replace=False)
    labels[lab] = y[lab]
    return lines, y, labels


def _write(tmp_path, lines, labels, name="train"):
    ex, lab = tmp_path / f"{name}.ex", tmp_path / f"{name}.lab"
    ex.write_text("\n".join(lines) + "\n")
    lab.write_text("\n".join(f"{v:+d}" if v else "0" for v in labels) + "\n")
    return str(ex), str(lab)


@pytest.fixture
def problem(tmp_path):
    lines, y, labels = _problem()
    ex, lab = _write(tmp_path, lines, labels)
    X = read_examples(ex)
    return X, labels.astype(float), y, ex, lab


def _train(tmp_path, capsys, options, ex, lab):
    status = main([*options, "--output-dir", str(tmp_path), ex, lab])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    name = os.path.basename(ex)
    w = np.loadtxt(tmp_path / f"{name}.weights")
    outputs = np.loadtxt(tmp_path / f"{name}.outputs")
    printed = float(re.search(r"Objective Value = (\S+)", captured.out).group(1))
    return w, outputs, printed, captured


def _lbfgs(fun_grad, dim):
    """Independent minimizer of a smooth convex objective (scipy's L-BFGS-B)."""
    res = minimize(
        fun_grad,
        np.zeros(dim),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": 20000, "ftol": 1e-15, "gtol": 1e-11},
    )
    return res.x, res.fun


def _objective(X, w, A, lam, lam_u=1.0, cost=None, y=None, labels=None):
    """SVMlin's objective of weights ``w`` (bias last) recomputed from the data."""
    o = X @ w[:-1] + w[-1]
    reg = 0.5 * lam * float(w @ w)
    if A in (0, 1):
        r = y - o if A == 0 else np.maximum(0.0, 1.0 - y * o)
        return reg + 0.5 * float(np.sum(cost * r * r))
    lab = labels != 0
    hinge = np.maximum(0.0, 1.0 - labels[lab] * o[lab])
    sym = np.maximum(0.0, 1.0 - np.abs(o[~lab]))
    return reg + 0.5 * hinge @ hinge / lab.sum() + 0.5 * lam_u * sym @ sym / (~lab).sum()


def _costed_loss(Xb, target, cost, lam, squared_hinge):
    def fun_grad(w):
        o = Xb @ w
        if squared_hinge:
            r = np.maximum(0.0, 1.0 - target * o)
            grad = lam * w - Xb.T @ (cost * r * target)
        else:
            r = target - o
            grad = lam * w - Xb.T @ (cost * r)
        return 0.5 * lam * w @ w + 0.5 * np.sum(cost * r * r), grad

    return fun_grad


# ---------------------------------------------------------------------------- -A 0, -A 1


@pytest.mark.parametrize("A", [0, 1])
def test_supervised_objective_is_the_minimum(tmp_path, capsys, problem, A):
    X, labels, _, ex, lab = problem
    lab_rows = labels != 0
    Xl, yl = X[lab_rows].toarray(), labels[lab_rows]
    opts = ["-A", str(A), "-W", "0.05", "-Cp", "2", "-Cn", "0.5"]
    w, outputs, printed, captured = _train(tmp_path, capsys, opts, ex, lab)
    assert "ignoring 300 unlabeled examples" in captured.out
    cost = np.where(yl > 0, 2.0, 0.5)
    d = w.size - 1
    # the weights cover the features of the labeled rows (SVMlin reads only those)
    assert d == X[lab_rows].indices.max() + 1
    Xb = np.column_stack([Xl[:, :d], np.ones(len(yl))])
    ref_w, ref_value = _lbfgs(_costed_loss(Xb, yl, cost, 0.05, A == 1), d + 1)
    mine = _objective(Xl[:, :d], w, A, 0.05, cost=cost, y=yl)
    assert printed == pytest.approx(mine, rel=1e-9)
    assert mine == pytest.approx(ref_value, rel=1e-7)
    np.testing.assert_allclose(w, ref_w, atol=1e-5)
    # the outputs file holds the labeled rows SVMlin trains on, in file order
    np.testing.assert_allclose(outputs, Xb @ w, rtol=1e-12, atol=1e-12)


def test_rlsc_and_mfn_differ_and_mfn_equals_the_estimator(tmp_path, capsys, problem):
    X, labels, _, ex, lab = problem
    w0, *_ = _train(tmp_path, capsys, ["-A", "0", "-W", "0.1"], ex, lab)
    w1, *_ = _train(tmp_path, capsys, ["-A", "1", "-W", "0.1"], ex, lab)
    assert np.abs(w0 - w1).max() > 1e-2
    lab_rows = labels != 0
    Xl = X[lab_rows][:, : w1.size - 1]
    ref = MFNClassifier(alpha=0.1).fit(Xl, labels[lab_rows])
    np.testing.assert_allclose(w1, np.r_[ref.coef_.ravel(), ref.intercept_], rtol=1e-12)


# ---------------------------------------------------------------------------- -A 2, -A 3


def test_tsvm_is_svmlins_tsvm_at_a_fixed_point(tmp_path, capsys, problem):
    X, labels, _, ex, lab = problem
    opts = ["-A", "2", "-W", "0.01", "-U", "0.5", "-R", "0.4", "-S", "5", "-Cp", "3"]
    w, outputs, printed, captured = _train(tmp_path, capsys, opts, ex, lab)
    # -Cp/-Cn do not apply to the transductive methods (SVMlin ignores them)
    assert "-Cp/-Cn apply to -A 0 and -A 1 only" in captured.err
    u = int((labels == 0).sum())
    ref = TSVMClassifier(
        alpha=0.01,
        alpha_unlabeled=0.5,
        positive_fraction=svmlin_positive_count(0.4, u) / u,
        max_switch=5,
        unlabeled_value=0,
    ).fit(X, labels)
    np.testing.assert_allclose(w, np.r_[ref.coef_.ravel(), ref.intercept_], rtol=1e-10)
    np.testing.assert_allclose(outputs, ref.decision_function(X), rtol=1e-10, atol=1e-12)
    assert outputs.shape == (X.shape[0],)
    # printed: objective (18) of the weights file, as SVMlin prints it
    assert printed == pytest.approx(_objective(X, w, 2, 0.01, 0.5, labels=labels), rel=1e-9)
    # w minimizes the convex problem (7) with the final labels (independent minimizer)
    final = np.where(ref.transduction_ == 1, 1.0, -1.0)
    lab_rows = labels != 0
    cost = np.where(lab_rows, 1.0 / lab_rows.sum(), 0.5 / u)
    Xb = np.column_stack([X.toarray(), np.ones(X.shape[0])])
    _, ref_value = _lbfgs(_costed_loss(Xb, final, cost, 0.01, True), Xb.shape[1])
    o = Xb @ w
    mine = 0.5 * 0.01 * w @ w + 0.5 * np.sum(cost * np.maximum(0.0, 1.0 - final * o) ** 2)
    assert mine == pytest.approx(ref_value, rel=1e-7)


def test_mfa_uses_svmlins_temperature(tmp_path, capsys, problem):
    X, labels, _, ex, lab = problem
    w, outputs, printed, _ = _train(tmp_path, capsys, ["-A", "3", "-W", "0.01", "-U", "4"], ex, lab)
    ref = MFAClassifier(
        alpha=0.01,
        alpha_unlabeled=4.0,
        positive_fraction=0.5,
        temperature=40.0,  # SVMlin's 10 lambda_u
        tau=1e-6,
        objective_tol=1e-6,  # SVMlin's optimize_w stopping rule
        unlabeled_value=0,
    ).fit(X, labels)
    np.testing.assert_allclose(w, np.r_[ref.coef_.ravel(), ref.intercept_], rtol=1e-10)
    assert printed == pytest.approx(ref.objective_, rel=1e-9)
    assert printed == pytest.approx(_objective(X, w, 3, 0.01, 4.0, labels=labels), rel=1e-9)


#: SVMlin v1.0's objectives on ``_problem()``, recomputed from the weights files it wrote
#: (the SVMlin binary built from the authors' release, -A 0/1 given the labeled rows
#: only, see test_against_the_svmlin_binary).
SVMLIN_OBJECTIVES = [
    (["-A", "0", "-W", "0.1"], 8.52994713),
    (["-A", "1", "-W", "0.1"], 6.24807743),
    (["-A", "0", "-W", "0.01", "-Cp", "2", "-Cn", "0.5"], 2.9920962),
    (["-A", "1", "-W", "0.01", "-Cp", "2", "-Cn", "0.5"], 0.8311311),
    (["-A", "2", "-W", "0.001"], 0.155490627),
    (["-A", "3", "-W", "0.001"], 0.135820697),
    (["-A", "2", "-W", "0.01", "-U", "0.5", "-R", "0.4", "-S", "5"], 0.32889965),
    (["-A", "3", "-W", "0.01", "-U", "4", "-R", "0.4"], 0.659839617),
]


def _option(options, flag, default):
    return float(options[options.index(flag) + 1]) if flag in options else default


def _objective_of_run(X, labels, options, w):
    A = int(_option(options, "-A", 1))
    lam, lam_u = _option(options, "-W", 1.0), _option(options, "-U", 1.0)
    cp, cn = _option(options, "-Cp", 1.0), _option(options, "-Cn", 1.0)
    w_full = np.zeros(X.shape[1] + 1)
    k = min(X.shape[1], w.size - 1)
    w_full[:k], w_full[-1] = w[:k], w[-1]
    if A in (0, 1):
        rows = labels != 0
        cost = np.where(labels[rows] > 0, cp, cn)
        return _objective(X[rows], w_full, A, lam, cost=cost, y=labels[rows])
    return _objective(X, w_full, A, lam, lam_u, labels=labels)


@pytest.mark.parametrize(("options", "svmlin_value"), SVMLIN_OBJECTIVES)
def test_objective_equals_svmlins(tmp_path, capsys, problem, options, svmlin_value):
    X, labels, _, ex, lab = problem
    w, _, printed, _ = _train(tmp_path, capsys, options, ex, lab)
    assert _objective_of_run(X, labels, options, w) == pytest.approx(printed, rel=1e-9)
    assert printed == pytest.approx(svmlin_value, rel=1e-3)


def _run_binary(binary, options, ex, lab, cwd):
    proc = subprocess.run([binary, *options, ex, lab], cwd=cwd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-500:] + proc.stderr[-500:]
    name = os.path.basename(ex)
    return np.loadtxt(cwd / f"{name}.weights"), np.loadtxt(cwd / f"{name}.outputs")


def _labeled_only(tmp_path, ex, lab):
    """SVMlin v1.0 aborts (heap corruption in its reader) on -A 0/1 with unlabeled rows;
    the labeled rows alone are the problem it solves there."""
    rows = open(ex).read().splitlines()
    labels = open(lab).read().split()
    keep = [i for i, t in enumerate(labels) if float(t) != 0]
    return _write(tmp_path, [rows[i] for i in keep], [int(float(labels[i])) for i in keep], "lab")


def _example_cases():
    cases = [(options, "generated") for options, _ in SVMLIN_OBJECTIVES]
    for A in ("0", "1", "2", "3"):
        cases.append((["-A", A], "example"))
        cases.append((["-A", A, "-W", "0.001", "-U", "2", "-R", "0.4"], "example"))
    return cases


@pytest.mark.skipif(
    not os.environ.get("SVMLIN_BIN"), reason="SVMLIN_BIN does not name the SVMlin v1.0 binary"
)
@pytest.mark.parametrize(("options", "data"), _example_cases())
def test_against_the_svmlin_binary(tmp_path, capsys, options, data):
    if data == "example":
        directory = os.environ.get("SVMLIN_EXAMPLE_DIR", "")
        ex = os.path.join(directory, "training_examples")
        lab = os.path.join(directory, "training_labels")
        if not os.path.exists(ex):
            pytest.skip("SVMLIN_EXAMPLE_DIR does not name SVMlin's example directory")
    else:
        lines, _, labels = _problem()
        ex, lab = _write(tmp_path, lines, labels)
    X = read_examples(ex)
    labels = np.loadtxt(lab)
    ours = tmp_path / "ours"
    ours.mkdir()
    w, outputs, printed, _ = _train(ours, capsys, options, ex, lab)
    theirs = tmp_path / "svmlin"
    theirs.mkdir()
    A = int(_option(options, "-A", 1))
    bin_ex, bin_lab = _labeled_only(theirs, ex, lab) if A in (0, 1) else (ex, lab)
    w_svmlin, outputs_svmlin = _run_binary(
        os.environ["SVMLIN_BIN"], options, bin_ex, bin_lab, theirs
    )
    # the same files: as many weights (features of the rows used, then the bias) and outputs
    assert w.shape == w_svmlin.shape and outputs.shape == outputs_svmlin.shape
    value = _objective_of_run(X, labels, options, w_svmlin)
    assert printed == pytest.approx(value, rel=1e-3)


# ---------------------------------------------------------------------------- -f, files


def test_test_mode_applies_the_weights(tmp_path, capsys, problem):
    X, labels, y, ex, lab = problem
    w, outputs, _, _ = _train(tmp_path, capsys, ["-A", "2", "-W", "0.001"], ex, lab)
    truth = tmp_path / "truth.lab"
    truth.write_text("\n".join(f"{v:+d}" for v in y) + "\n")
    out = tmp_path / "test"
    out.mkdir()
    weights = str(tmp_path / "train.ex.weights")
    assert main(["-f", weights, "--output-dir", str(out), ex]) == 0
    assert capsys.readouterr().out.startswith("Writing Outputs to file:")
    np.testing.assert_allclose(np.loadtxt(out / "train.ex.outputs"), outputs, rtol=1e-12)
    assert main(["-f", weights, "--output-dir", str(out), "--quiet", ex, str(truth)]) == 0
    assert capsys.readouterr().out == ""
    assert main(["-f", weights, "--output-dir", str(out), ex, lab]) == 0
    acc = float(re.search(r"Accuracy = (\S+) %", capsys.readouterr().out).group(1))
    lab_rows = labels != 0
    expected = np.mean(np.where(outputs[lab_rows] > 0, 1, -1) == labels[lab_rows])
    assert acc == pytest.approx(100 * expected, rel=1e-5)


def test_test_mode_ignores_features_beyond_the_weights(tmp_path, capsys):
    weights = tmp_path / "w"
    np.savetxt(weights, [1.0, 2.0, 0.5])  # two features and the bias
    test = tmp_path / "t"
    test.write_text("1:1 3:7\n2:1\n\n")
    assert main(["-f", str(weights), "--output-dir", str(tmp_path), "--quiet", str(test)]) == 0
    np.testing.assert_allclose(np.loadtxt(tmp_path / "t.outputs"), [1.5, 2.5, 0.5])


def test_python_m_and_the_console_script():
    scripts = importlib.metadata.entry_points(group="console_scripts")
    assert [e.value for e in scripts if e.name == "svmlin"] == ["l2svm_mfn._cli:main"]
    proc = subprocess.run(
        [sys.executable, "-m", "l2svm_mfn", "--help"], capture_output=True, text=True
    )
    assert proc.returncode == 0 and proc.stdout.startswith("usage: svmlin")
    assert not rst_markup_in(proc.stdout)
    assert "-A ALGORITHM" in proc.stdout and "-Cp COST" in proc.stdout


def test_closed_pipe_leaves_no_traceback(tmp_path, problem):
    _, _, _, ex, lab = problem
    # a reader that is gone: stdout is a pipe whose read end is closed (EPIPE at once)
    proc = run_with_closed_stdout(
        ["-m", "l2svm_mfn", "--verbose", "-A", "2", "-W", "0.001", ex, lab], cwd=tmp_path
    )
    assert proc.returncode == 1 and proc.stderr == ""


# ---------------------------------------------------------------------------- errors


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
def test_malformed_files_give_one_line(tmp_path, capsys, examples, labels, message):
    ex, lab = tmp_path / "e", tmp_path / "l"
    ex.write_text(examples)
    lab.write_text(labels)
    assert main(["--output-dir", str(tmp_path), str(ex), str(lab)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("svmlin: error:") and message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-A", "5", "e", "l"], "argument -A: invalid choice: 5"),
        (["-W", "0", "e", "l"], "argument -W: must be a number > 0, got '0'"),
        (["-U", "-1", "e", "l"], "argument -U: must be a number > 0"),
        (["-R", "1.5", "e", "l"], "argument -R: must be a number in (0, 1)"),
        (["-S", "x", "e", "l"], "argument -S: must be an integer >= 1"),
        (["missing.ex", "missing.lab"], "cannot read examples file 'missing.ex'"),
        (["only_one_file"], "training needs two files"),
        (["-f", "missing.w", "t"], "cannot read weights file 'missing.w'"),
    ],
)
def test_bad_input_gives_one_line(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("svmlin: error: ") and captured.err.count("\n") == 1
    assert message in captured.err


def test_weights_file_errors(tmp_path, capsys):
    ex = tmp_path / "t"
    ex.write_text("1:1\n")
    weights = tmp_path / "w"
    for text, message in [("1\n", "expected d weights and a bias"), ("1\nx\n", "not a weights")]:
        weights.write_text(text)
        assert main(["-f", str(weights), str(ex)]) == 2
        assert message in capsys.readouterr().err


def test_read_examples_matches_matrix(tmp_path):
    lines, _, _ = _problem(n=30, d=10, nnz=3, n_labeled=4)
    ex, _ = _write(tmp_path, lines, np.zeros(30, dtype=int))
    X = read_examples(ex)
    assert sp.issparse(X) and X.shape[0] == 30 and X[5].nnz == 0
    for i, line in enumerate(lines):
        row = dict((int(t.split(":")[0]) - 1, float(t.split(":")[1])) for t in line.split())
        dense = np.zeros(X.shape[1])
        dense[list(row)] = list(row.values())
        np.testing.assert_array_equal(X[i].toarray().ravel(), dense)


def test_tsvm_objective_helper_matches_recomputation(problem):
    X, labels, _, _, _ = problem
    rng = np.random.default_rng(0)
    w = rng.standard_normal(X.shape[1] + 1)
    o = X @ w[:-1] + w[-1]
    ys = np.where(labels > 0, 1.0, -1.0)
    value = tsvm_objective(w, o, ys, labels != 0, 0.1, 2.0)
    assert value == pytest.approx(_objective(X, w, 2, 0.1, 2.0, labels=labels), rel=1e-12)
