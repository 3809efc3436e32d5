"""The ``svmlin`` command (also ``python -m l2svm_mfn``), compatible with SVMlin v1.0."""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Sequence

import numpy as np

from svmcore.cli import ArgumentParser, CLIError, fraction, positive_float, positive_int, run

from ._mfa_classifier import MFAClassifier
from ._mfn_classifier import MFNClassifier
from ._rlsc import least_squares_objective, rlsc
from ._svmlin_io import read_examples, read_labels, read_weights, write_vector
from ._tsvm import tsvm_objective
from ._tsvm_classifier import TSVMClassifier

__all__ = ["main", "svmlin_positive_count"]

PROG = "svmlin"

USAGE = """\
svmlin [options] training_examples training_labels       (train)
       svmlin -f weights_file test_examples [test_labels]   (test, evaluate)"""

DESCRIPTION = """\
Linear SVMs for supervised and semi-supervised learning, compatible with SVMlin v1.0
(V. Sindhwani and S. S. Keerthi) option by option.

training_examples holds one example per line as index:value pairs (indices from 1, no
label column); training_labels one label per line: +1, -1, or 0 for an unlabeled example.
Training writes <training_examples>.weights (one weight per feature, then the bias, one
per line) and <training_examples>.outputs (the output w.x + b of every training example
the algorithm used: the labeled ones for -A 0 and -A 1, all of them for -A 2 and -A 3)
into the output directory, and prints the objective. -f applies a weights file and
writes <test_examples>.outputs; with test labels it also prints the accuracy."""

EPILOG = """\
Objectives (lambda = -W, lambda_u = -U, l labeled and u unlabeled examples, the bias is
a regularized constant feature):
  -A 0, 1: lambda/2 |w|^2 + 1/2 sum_i c_i loss_i, c_i = Cp (label +1) or Cn (label -1),
           loss_i = (y_i - o_i)^2 (RLSC) or max(0, 1 - y_i o_i)^2 (L2-SVM-MFN)
  -A 2, 3: lambda/2 |w|^2 + 1/(2l) sum_labeled max(0, 1 - y_i o_i)^2
           + lambda_u/(2u) sum_unlabeled max(0, 1 - |o_j|)^2

Differences from SVMlin v1.0 are listed in the user guide's command-line page.

References:
  [1] V. Sindhwani and S. S. Keerthi. Large Scale Semi-supervised Linear SVMs.
      Proceedings of ACM SIGIR, 2006.
  [2] V. Sindhwani and S. S. Keerthi. Newton Methods for Fast Solution of
      Semi-supervised Linear SVMs. Large Scale Kernel Machines, MIT Press, 2006."""

#: SVMlin's TSVM starts lambda_u at this value and multiplies it by ANNEAL_FACTOR.
ANNEAL_START = 1e-5
ANNEAL_FACTOR = 1.5
#: SVMlin's DA (MFA) starts at temperature INIT_TEMPERATURE * lambda_u, and its
#: optimize_w stops when a Newton step changes the objective by less than this (absolute).
INIT_TEMPERATURE = 10.0
SVMLIN_OPTIMIZE_W_TOL = 1e-6


def _parser():
    p = ArgumentParser(prog=PROG, usage=USAGE, description=DESCRIPTION, epilog=EPILOG)
    p.add_argument(
        "-A",
        type=int,
        choices=(0, 1, 2, 3),
        default=1,
        metavar="ALGORITHM",
        help="0: regularized least squares classification (RLSC); 1: SVM (L2-SVM-MFN, "
        "the default); 2: multi-switch transductive SVM (TSVM); 3: deterministic "
        "annealing semi-supervised SVM (DA, mean field annealing)",
    )
    p.add_argument(
        "-W", type=positive_float, metavar="LAMBDA", default=1.0, help="lambda, regularization (1)"
    )
    p.add_argument(
        "-U",
        type=positive_float,
        metavar="LAMBDA_U",
        default=1.0,
        help="lambda_u, weight of the unlabeled loss (1)",
    )
    p.add_argument(
        "-S", type=positive_int, default=10000, help="maximum switches per TSVM pass (10000)"
    )
    p.add_argument(
        "-R", type=fraction, default=0.5, help="positive class fraction of unlabeled data (0.5)"
    )
    p.add_argument(
        "-Cp",
        type=positive_float,
        metavar="COST",
        default=1.0,
        help="cost of positive examples, -A 0 and 1 (1)",
    )
    p.add_argument(
        "-Cn",
        type=positive_float,
        metavar="COST",
        default=1.0,
        help="cost of negative examples, -A 0 and 1 (1)",
    )
    p.add_argument(
        "-f", dest="weights", metavar="WEIGHTS_FILE", help="test mode: apply this weights file"
    )
    p.add_argument(
        "--output-dir", default=".", help="where the .weights/.outputs files go (default: .)"
    )
    p.add_argument("--quiet", action="store_true", help="print nothing but errors")
    p.add_argument("--verbose", action="store_true", help="print the solvers' iteration tables")
    p.add_argument("files", nargs="+", metavar="FILE", help="examples file, then labels file")
    return p


def svmlin_positive_count(r: float, u: int) -> int:
    """Number of unlabeled examples SVMlin's TSVM first labels +1: ``u - int((1 - r) u)``.

    SVMlin v1.0 thresholds the outputs at the ``int((1 - r) u)``-th smallest one; this
    count differs from ``round(r u)`` by one for some ``r`` and ``u``.

    Parameters
    ----------
    r : float
        Positive class fraction, in (0, 1).
    u : int
        Number of unlabeled examples.

    Returns
    -------
    n_positive : int
        The count.
    """
    return u - int((1.0 - r) * u)


def _output_path(args, source, suffix):
    return os.path.join(args.output_dir, os.path.basename(source) + suffix)


def _check_labels(y, labels_path):
    labeled = y != 0
    if not labeled.any():
        raise CLIError(f"{labels_path} has no labeled example (+1 or -1)")
    if np.unique(y[labeled]).size < 2:
        raise CLIError(f"{labels_path}: the labeled examples must include both +1 and -1")
    return labeled


def _supervised(args, X, y, labeled, say):
    """-A 0 and -A 1: the labeled rows only, costs Cp/Cn, width of those rows (SVMlin)."""
    if (~labeled).any():
        say(f"ignoring {(~labeled).sum()} unlabeled examples (label 0), as SVMlin does")
    X = X[labeled]
    X = X[:, : max(int(X.indices.max()) + 1 if X.nnz else 1, 1)]
    y = y[labeled]
    cost = np.where(y > 0, args.Cp, args.Cn)
    if args.A == 0:
        res = rlsc(X, y, cost, args.W)
        if args.verbose:
            say(f"CGLS: {res.n_iter} iterations, converged = {res.converged}")
        if not res.converged:
            say.warn("CGLS stopped at its iteration cap before converging")
        return res.w, res.outputs, least_squares_objective(res.w, res.outputs, y, cost, args.W)
    clf = MFNClassifier(alpha=args.W, verbose=int(args.verbose)).fit(X, y, sample_weight=cost)
    return np.r_[clf.coef_.ravel(), clf.intercept_], clf.decision_function(X), clf.objective_


def _transductive(args, X, y, labeled, say):
    """-A 2 and -A 3: all rows, costs 1/l and lambda_u/u (SVMlin ignores -Cp/-Cn here)."""
    if args.Cp != 1.0 or args.Cn != 1.0:
        say.warn("-Cp/-Cn apply to -A 0 and -A 1 only (as in SVMlin); ignored")
    common = {
        "alpha": args.W,
        "alpha_unlabeled": args.U,
        "unlabeled_value": 0,
        "tau": 1e-6,
        "verbose": int(args.verbose),
    }
    u = int((~labeled).sum())
    if args.A == 2:
        r = svmlin_positive_count(args.R, u) / u if u else args.R
        clf = TSVMClassifier(
            positive_fraction=r,
            max_switch=args.S,
            anneal_start=ANNEAL_START,
            anneal_factor=ANNEAL_FACTOR,
            **common,
        )
    else:
        clf = MFAClassifier(
            positive_fraction=args.R,
            temperature=INIT_TEMPERATURE * args.U,
            temperature_factor=1.5,
            anneal_tol=1e-6,
            max_outer=30,
            max_inner=100,
            objective_tol=SVMLIN_OPTIMIZE_W_TOL,
            **common,
        )
    clf.fit(X, y)
    w = np.r_[clf.coef_.ravel(), clf.intercept_]
    outputs = clf.decision_function(X)
    ys = np.where(y > 0, 1.0, -1.0)
    return w, outputs, tsvm_objective(w, outputs, ys, labeled, args.W, args.U)


def _train(args, say):
    if len(args.files) != 2:
        raise CLIError("training needs two files: training_examples training_labels")
    examples, labels_path = args.files
    X = read_examples(examples)
    y = read_labels(labels_path, X.shape[0])
    labeled = _check_labels(y, labels_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if args.A in (0, 1):
            w, outputs, objective = _supervised(args, X, y, labeled, say)
        else:
            w, outputs, objective = _transductive(args, X, y, labeled, say)
    for warning in caught:
        say.warn(" ".join(str(warning.message).split()))
    weights_path = _output_path(args, examples, ".weights")
    outputs_path = _output_path(args, examples, ".outputs")
    write_vector(weights_path, w)
    write_vector(outputs_path, outputs)
    say(f"Objective Value = {objective:.10g}")
    sign = np.where((outputs if args.A in (0, 1) else outputs[labeled]) > 0, 1.0, -1.0)
    say(f"Training accuracy on labeled examples = {100 * np.mean(sign == y[labeled]):.6g} %")
    say(f"Writing Weights to file: {weights_path}")
    say(f"Writing Outputs to file: {outputs_path}")


def _predict(args, say):
    if len(args.files) not in (1, 2):
        raise CLIError("-f needs test_examples and optionally test_labels")
    w = read_weights(args.weights)
    X = read_examples(args.files[0])
    d = min(X.shape[1], w.size - 1)  # features beyond the weights have weight 0
    outputs = X[:, :d] @ w[:d] + w[-1]
    path = _output_path(args, args.files[0], ".outputs")
    if len(args.files) == 2:
        y = read_labels(args.files[1], X.shape[0])
        labeled = y != 0
        if labeled.any():
            correct = np.mean(np.where(outputs[labeled] > 0, 1.0, -1.0) == y[labeled])
            skipped = f" ({(~labeled).sum()} unlabeled skipped)" if (~labeled).any() else ""
            say(f"Accuracy = {100 * correct:.6g} %{skipped}")
    write_vector(path, outputs)
    say(f"Writing Outputs to file: {path}")


class _Reporter:
    """``say(line)`` prints to stdout, ``say.warn(line)`` to stderr; neither when quiet."""

    def __init__(self, quiet):
        self.quiet = quiet

    def __call__(self, message):
        if not self.quiet:
            print(message)

    def warn(self, message):
        if not self.quiet:
            print(f"{PROG}: warning: {message}", file=sys.stderr)


def _command(argv):
    args = _parser().parse_args(argv)
    say = _Reporter(args.quiet)
    if args.weights is not None:
        _predict(args, say)
    else:
        _train(args, say)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``svmlin``; return the exit status (0 success, 2 bad input, 1 failure).

    Parameters
    ----------
    argv : list of str, default=None
        Arguments without the program name (None: ``sys.argv[1:]``).

    Returns
    -------
    status : int
        The exit status.
    """
    return run(_command, argv, prog=PROG)
