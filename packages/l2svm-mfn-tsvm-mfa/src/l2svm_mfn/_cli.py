"""Command line compatible with SVMlin v1.0: ``python -m l2svm_mfn [options] EXAMPLES LABELS``."""

import argparse
import os
import sys

import numpy as np
import scipy.sparse as sp

from ._mfa_classifier import MFAClassifier
from ._mfn import squared_hinge_objective
from ._mfn_classifier import MFNClassifier
from ._tsvm import tsvm_objective
from ._tsvm_classifier import TSVMClassifier

__all__ = ["main", "read_examples", "read_labels"]


class InputFileError(ValueError):
    """A malformed input file (the message names the file and line)."""


def read_examples(path, n_features=None):
    """Read SVMlin's example file: one row per line of ``idx:val`` pairs, 1-based, no label.

    Parameters
    ----------
    path : str
        File name.
    n_features : int, default=None
        Number of columns; the largest index when None. Larger indices are an error.

    Returns
    -------
    X : csr_matrix of shape (n_rows, n_features), float64
    """
    data, indices, indptr = [], [], [0]
    try:
        handle = open(path, encoding="utf-8")
    except OSError as exc:
        raise InputFileError(f"cannot read examples file {path!r}: {exc.strerror}") from exc
    with handle:
        for lineno, line in enumerate(handle, start=1):
            line = line.split("#", 1)[0]
            row = {}
            for token in line.split():
                idx, sep, val = token.partition(":")
                try:
                    if not sep:
                        raise ValueError
                    j, v = int(idx), float(val)
                except ValueError:
                    raise InputFileError(
                        f"{path}, line {lineno}: token {token!r} is not of the form "
                        "index:value (SVMlin example files have no label column)"
                    ) from None
                if j < 1:
                    raise InputFileError(f"{path}, line {lineno}: feature index {j} < 1")
                if not np.isfinite(v):
                    raise InputFileError(f"{path}, line {lineno}: value {val!r} is not finite")
                if j in row:
                    raise InputFileError(f"{path}, line {lineno}: feature {j} appears twice")
                row[j] = v
            cols = sorted(row)
            indices.extend(c - 1 for c in cols)
            data.extend(row[c] for c in cols)
            indptr.append(len(indices))
    if len(indptr) == 1:
        raise InputFileError(f"examples file {path!r} is empty")
    max_col = max(indices) + 1 if indices else 0
    if n_features is None:
        n_features = max(max_col, 1)
    elif max_col > n_features:
        raise InputFileError(
            f"{path}: feature index {max_col} exceeds the {n_features} features of the model"
        )
    return sp.csr_matrix(
        (np.array(data, dtype=np.float64), np.array(indices, dtype=np.int32), np.array(indptr)),
        shape=(len(indptr) - 1, n_features),
    )


def read_labels(path, n_rows):
    """Read one label per line, each +1, -1 or 0 (0 = unlabeled); ``n_rows`` lines."""
    labels = []
    try:
        handle = open(path, encoding="utf-8")
    except OSError as exc:
        raise InputFileError(f"cannot read labels file {path!r}: {exc.strerror}") from exc
    with handle:
        for lineno, line in enumerate(handle, start=1):
            text = line.strip()
            if not text:
                continue
            try:
                value = float(text)
            except ValueError:
                raise InputFileError(f"{path}, line {lineno}: {text!r} is not a number") from None
            if value not in (-1.0, 0.0, 1.0):
                raise InputFileError(f"{path}, line {lineno}: label {text!r} is not +1, -1 or 0")
            labels.append(value)
    if len(labels) != n_rows:
        raise InputFileError(f"{path} has {len(labels)} labels for {n_rows} examples")
    return np.array(labels)


def _parser():
    p = argparse.ArgumentParser(
        prog="python -m l2svm_mfn",
        description=(
            "Train or apply a linear L2-SVM (SVMlin v1.0 compatible). Training writes "
            "<EXAMPLES>.weights (d weights, then the bias) and <EXAMPLES>.outputs."
        ),
    )
    p.add_argument(
        "-A",
        type=int,
        choices=(1, 2, 3),
        default=1,
        help="1: L2-SVM-MFN (default), 2: TSVM with multiple switching, 3: MFA",
    )
    p.add_argument("-W", type=float, default=1.0, help="lambda, regularization (default 1)")
    p.add_argument("-U", type=float, default=1.0, help="lambda_u, unlabeled weight (default 1)")
    p.add_argument("-S", type=int, default=10000, help="max label pairs switched (default 10000)")
    p.add_argument("-R", type=float, default=0.5, help="positive fraction of unlabeled (0.5)")
    p.add_argument("-Cp", type=float, default=1.0, help="cost of positive labeled examples (1)")
    p.add_argument("-Cn", type=float, default=1.0, help="cost of negative labeled examples (1)")
    p.add_argument(
        "-f",
        dest="weights",
        metavar="WEIGHTS",
        help="predict with WEIGHTS: then the arguments are TEST [TEST_LABELS]",
    )
    p.add_argument("--quiet", action="store_true", help="print nothing but errors")
    p.add_argument("--output-dir", default=".", help="where output files go (default: .)")
    p.add_argument("files", nargs="+", metavar="FILE")
    return p


def _output_path(args, source, suffix):
    return os.path.join(args.output_dir, os.path.basename(source) + suffix)


def _write_vector(path, values):
    np.savetxt(path, values, fmt="%.17g")


def _check_options(args):
    if args.W <= 0:
        raise InputFileError(f"-W (lambda) must be > 0, got {args.W}")
    if args.U < 0:
        raise InputFileError(f"-U (lambda_u) must be >= 0, got {args.U}")
    if args.S < 1:
        raise InputFileError(f"-S must be >= 1, got {args.S}")
    if not 0 < args.R < 1:
        raise InputFileError(f"-R must be in (0, 1), got {args.R}")
    if args.Cp <= 0 or args.Cn <= 0:
        raise InputFileError("-Cp and -Cn must be > 0")


def _train(args, say):
    if len(args.files) != 2:
        raise InputFileError("training needs exactly two files: EXAMPLES LABELS")
    examples, labels_path = args.files
    X = read_examples(examples)
    y = read_labels(labels_path, X.shape[0])
    cost = np.where(y > 0, args.Cp, args.Cn)
    labeled = y != 0
    if labeled.sum() == 0:
        raise InputFileError(f"{labels_path} has no labeled example (+1 or -1)")
    if np.unique(y[labeled]).size < 2:
        raise InputFileError(f"{labels_path}: the labeled examples must include both +1 and -1")
    if args.A == 1:
        if (~labeled).any():
            say(f"L2-SVM-MFN: skipping {(~labeled).sum()} unlabeled examples (label 0)")
        clf = MFNClassifier(alpha=args.W)
        clf.fit(X[labeled], y[labeled], sample_weight=cost[labeled])
        w = np.r_[clf.coef_.ravel(), clf.intercept_]
        objective = squared_hinge_objective(
            w, clf.decision_function(X[labeled]), y[labeled], cost[labeled], args.W
        )
    else:
        # SVMlin's convention on its files: classes -1 / +1 (classes_[1]), 0 unlabeled.
        common = {
            "alpha": args.W,
            "alpha_unlabeled": args.U,
            "positive_fraction": args.R,
            "unlabeled_value": 0,
        }
        if args.A == 2:
            # anneal_factor: the estimator's default, SVMlin v1.0's 1.5 (the paper says 2).
            clf = TSVMClassifier(max_switch=args.S, **common)
        else:
            clf = MFAClassifier(**common)
        clf.fit(X, y, sample_weight=np.where(labeled, cost, 1.0))
        w = np.r_[clf.coef_.ravel(), clf.intercept_]
        ys = np.where(y > 0, 1.0, -1.0)
        objective = tsvm_objective(
            w, clf.decision_function(X), ys, labeled, args.W, args.U, np.where(labeled, cost, 1.0)
        )
    outputs = clf.decision_function(X)
    _write_vector(_output_path(args, examples, ".weights"), w)
    _write_vector(_output_path(args, examples, ".outputs"), outputs)
    say(f"objective = {objective:.10g}")
    if labeled.any():
        acc = float((np.where(outputs[labeled] > 0, 1.0, -1.0) == y[labeled]).mean())
        say(f"training accuracy on labeled examples = {100 * acc:.4f}%")
    say(
        f"wrote {_output_path(args, examples, '.weights')} and "
        f"{_output_path(args, examples, '.outputs')}"
    )


def _predict(args, say):
    if len(args.files) not in (1, 2):
        raise InputFileError("-f WEIGHTS needs TEST [TEST_LABELS]")
    try:
        w = np.loadtxt(args.weights, dtype=np.float64, ndmin=1)
    except (OSError, ValueError) as exc:
        raise InputFileError(f"cannot read weights file {args.weights!r}: {exc}") from exc
    if w.size < 2 or not np.isfinite(w).all():
        raise InputFileError(f"{args.weights}: expected d weights and a bias, all finite")
    X = read_examples(args.files[0], n_features=w.size - 1)
    outputs = X @ w[:-1] + w[-1]
    path = _output_path(args, args.files[0], ".outputs")
    _write_vector(path, outputs)
    if len(args.files) == 2:
        y = read_labels(args.files[1], X.shape[0])
        mask = y != 0
        if mask.any():
            acc = float((np.where(outputs[mask] > 0, 1.0, -1.0) == y[mask]).mean())
            say(f"accuracy = {100 * acc:.4f}% on {mask.sum()} labeled test examples")
    say(f"wrote {path}")


def main(argv=None):
    """Run the command line; return the exit status (0 success, 2 bad input)."""
    args = _parser().parse_args(argv)

    def say(message):
        if not args.quiet:
            print(message)

    try:
        if args.weights is not None:
            _predict(args, say)
        else:
            _check_options(args)
            _train(args, say)
    except InputFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
