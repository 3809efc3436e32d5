"""The LIBSVM-style train/predict pair every package's tools are built from.

``<prog>-train [options] training_set_file [model_file]`` fits an estimator and saves it
with :func:`save_model`; ``<prog>-predict [options] test_file model_file output_file``
loads it, writes one prediction per line and reports accuracy (classifiers) or the
mean squared error (regressors), as LIBSVM's ``svm-train``/``svm-predict`` do.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.base import is_classifier
from sklearn.utils import get_tags

from ..docstrings import fill_doc
from ._data import add_data_options, data_options, read_data, write_values
from ._model import load_model, save_model
from ._parser import ArgumentParser
from ._run import CLIError, run

__all__ = ["dispatch", "predict_tool", "train_tool"]

#: Parameter docs train_tool and predict_tool share (see svmcore.docstrings.fill_doc).
_DOCS = {
    "argv_prog_description": """\
        argv : list of str or None
            Arguments without the program name (None: ``sys.argv[1:]``).
        prog : str
            Program name.
        description : str
            Plain-text description shown by ``--help``.""",
    "epilog_status": """\
        epilog : str, default=None
            Plain text shown at the end of ``--help``.

        Returns
        -------
        status : int
            0 on success, else as documented in :func:`run`.""",
}


def _accepts_sparse(estimator):
    return bool(get_tags(estimator).input_tags.sparse)


def _fit_input(estimator, X):
    """``X`` as the estimator takes it: densified when it does not accept sparse input."""
    if sp.issparse(X) and not _accepts_sparse(estimator):
        return X.toarray()
    return X


def _fit_reporting_warnings(prog, estimator, X, y, quiet):
    """Fit, printing each warning as one ``prog: warning:`` line (none with ``quiet``)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        estimator.fit(X, y)
    if not quiet:
        for w in caught:
            print(f"{prog}: warning: {' '.join(str(w.message).split())}", file=sys.stderr)


def _default_model_file(training_file):
    return os.path.basename(os.fspath(training_file)) + ".model"


@fill_doc(_DOCS)
def train_tool(
    argv: Sequence[str] | None,
    *,
    prog: str,
    description: str,
    add_options: Callable[[argparse.ArgumentParser], object],
    build: Callable[[argparse.Namespace], Any],
    attributes: Mapping[Any, Sequence[str] | Callable[[Any], Sequence[str]]],
    summary: Callable[[Any], str] | None = None,
    epilog: str | None = None,
) -> int:
    """Run a LIBSVM-style training tool: parse, read, fit, save; return the exit status.

    Usage: ``prog [options] training_set_file [model_file]``; ``model_file`` defaults
    to ``<basename of training_set_file>.model`` in the current directory (LIBSVM's
    rule). Adds ``-q`` and the data options of :func:`add_data_options`; errors are
    reported by :func:`run`.

    Parameters
    ----------
    %(argv_prog_description)s
    add_options : callable
        ``add_options(parser)`` adds the tool's own options.
    build : callable
        ``build(args) -> estimator``, the unfitted estimator for the parsed options.
    attributes : dict
        Estimator class -> names of the fitted attributes to save (or a function of
        the fitted estimator returning them), for the built estimator's class and those
        of estimators it holds (see :func:`save_model`).
    summary : callable, default=None
        ``summary(estimator) -> str``, one line printed after fitting.
    %(epilog_status)s
    """

    def command(argv):
        parser = ArgumentParser(prog=prog, description=description, epilog=epilog)
        add_options(parser)
        add_data_options(parser)
        parser.add_argument("-q", dest="quiet", action="store_true", help="quiet mode")
        parser.add_argument("training_set_file", help="svmlight/libsvm or CSV training data")
        parser.add_argument(
            "model_file",
            nargs="?",
            help="where the model goes (default: <training_set_file>.model here)",
        )
        args = parser.parse_args(argv)
        X, y = read_data(args.training_set_file, **data_options(args))
        estimator = build(args)
        if type(estimator) not in attributes:
            raise TypeError(f"no attribute list for {type(estimator).__name__}")
        X = _fit_input(estimator, X)
        _fit_reporting_warnings(prog, estimator, X, y, args.quiet)
        model_file = args.model_file or _default_model_file(args.training_set_file)
        save_model(
            model_file,
            estimator,
            attributes,
            info={
                "tool": prog,
                "arguments": list(sys.argv[1:] if argv is None else argv),
                "training_set_file": os.fspath(args.training_set_file),
                "n_samples": int(X.shape[0]),
            },
        )
        if not args.quiet:
            n, d = X.shape
            line = f"{type(estimator).__name__} trained on {n} samples x {d} features"
            if summary is not None:
                line += f"; {summary(estimator)}"
            print(line)
            print(f"model written to {model_file}")
        return 0

    return run(command, argv, prog=prog)


def _report(estimator, y, pred, out):
    if is_classifier(estimator):
        correct = int(np.sum(pred == y))
        print(
            f"Accuracy = {100.0 * correct / y.size:.6g}% ({correct}/{y.size}) (classification)",
            file=out,
        )
        return
    err = pred - y
    print(f"Mean squared error = {float(np.mean(err * err)):.6g} (regression)", file=out)
    if y.size > 1 and np.std(y) > 0 and np.std(pred) > 0:
        r = float(np.corrcoef(pred, y)[0, 1])
        print(f"Squared correlation coefficient = {r * r:.6g} (regression)", file=out)


@fill_doc(_DOCS)
def predict_tool(
    argv: Sequence[str] | None,
    *,
    prog: str,
    description: str,
    estimators: Sequence[type],
    epilog: str | None = None,
) -> int:
    """Run a LIBSVM-style prediction tool; return the exit status.

    Usage: ``prog [options] test_file model_file output_file``; ``output_file`` ``-``
    writes to stdout (then the accuracy line goes to stderr). Prints LIBSVM's
    ``Accuracy = ...% (correct/total) (classification)`` or ``Mean squared error =
    ... (regression)`` when the test file has labels (svmlight files always do; a CSV
    file with one column more than the model's features).

    Parameters
    ----------
    %(argv_prog_description)s
    estimators : sequence of type
        The estimator classes whose model files the tool accepts.
    %(epilog_status)s
    """

    def command(argv):
        parser = ArgumentParser(prog=prog, description=description, epilog=epilog)
        add_data_options(parser)
        parser.add_argument("-q", dest="quiet", action="store_true", help="quiet mode")
        parser.add_argument("test_file", help="svmlight/libsvm or CSV data")
        parser.add_argument("model_file", help="a model written by the training tool")
        parser.add_argument("output_file", help="one prediction per line ('-': stdout)")
        args = parser.parse_args(argv)
        estimator = load_model(args.model_file, estimators)
        n_features = getattr(estimator, "n_features_in_", None)
        if n_features is None:
            raise CLIError(f"{args.model_file}: the model does not record its feature count")
        X, y = read_data(args.test_file, n_features=n_features, **data_options(args))
        pred = estimator.predict(_fit_input(estimator, X))
        write_values(pred, args.output_file)
        if y is not None and not args.quiet:
            to_stdout = os.fspath(args.output_file) == "-"
            _report(estimator, y, pred, sys.stderr if to_stdout else sys.stdout)
        return 0

    return run(command, argv, prog=prog)


def dispatch(
    argv: Sequence[str] | None,
    *,
    prog: str,
    commands: Mapping[str, Callable[[Sequence[str] | None], int]],
) -> int:
    """``python -m <package> COMMAND ...``: run one of the package's tools.

    Parameters
    ----------
    argv : list of str or None
        Arguments without the program name (None: ``sys.argv[1:]``).
    prog : str
        Program name (``python -m <package>``).
    commands : dict
        Command name -> ``main(argv) -> int`` (the console scripts' functions).

    Returns
    -------
    status : int
        The command's exit status; 2 for a missing or unknown command.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    names = ", ".join(commands)
    if argv and argv[0] in commands:
        return commands[argv[0]](argv[1:])

    def usage(argv):
        if argv and argv[0] in ("-h", "--help"):
            print(f"usage: {prog} {{{'|'.join(commands)}}} [options] ...")
            print(f"\nCommands: {names}. '{prog} COMMAND --help' describes each.")
            return 0
        what = f"unknown command {argv[0]!r}" if argv else "a command is required"
        raise CLIError(f"{what}; choose one of {names} (see {prog} --help)")

    return run(usage, argv, prog=prog)
