"""Command line: ``python -m aid_models fit|predict``.

``fit`` trains AID-LAD or AID-SVM on a svmlight/libsvm or CSV file, prints the iteration
table (the paper's Table 10) and the final certificate, and pickles the model;
``predict`` loads a pickled model and writes one prediction per line.
"""

from __future__ import annotations

import argparse
import pathlib
import pickle
import sys

import numpy as np

from svmcore.datasets import load_svmlight

from ._lad import AIDLADRegressor
from ._svc import AIDSVC

__all__ = ["load_data", "main"]


def load_data(path, *, fmt="auto", target_column=-1):
    """Read ``(X, y)`` from a svmlight/libsvm file or a CSV file (target in one column).

    Parameters
    ----------
    path : str or path-like
    fmt : {"auto", "svmlight", "csv"}, default="auto"
        "auto" reads ``.csv`` (and ``.csv.gz``) files as CSV, anything else as svmlight.
    target_column : int, default=-1
        CSV only: the column holding y. A first line that is not numeric is a header.

    Returns
    -------
    X : ndarray or csr_matrix of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    """
    path = pathlib.Path(path)
    if not path.exists():
        raise FileNotFoundError(f"Data file {str(path)!r} does not exist.")
    if fmt == "auto":
        fmt = "csv" if ".csv" in path.suffixes else "svmlight"
    if fmt == "svmlight":
        return load_svmlight(path)
    if fmt != "csv":
        raise ValueError(f"fmt must be 'auto', 'svmlight' or 'csv'; got {fmt!r}.")
    with open(path) as fh:
        first = fh.readline()
    try:
        [float(v) for v in first.strip().split(",")]
        skip = 0
    except ValueError:
        skip = 1
    data = np.loadtxt(path, delimiter=",", skiprows=skip, ndmin=2)
    if data.shape[1] < 2:
        raise ValueError(f"{str(path)!r} needs at least two columns (features and target).")
    y = data[:, target_column]
    X = np.delete(data, target_column % data.shape[1], axis=1)
    return X, y


def _build(args):
    common = {
        "gap_tol": args.gap_tol,
        "max_iter": args.max_iter,
        "time_limit": args.time_limit,
        "random_state": args.random_state,
        "verbose": 1,
    }
    if args.initial_aggregation_rate is not None:
        common["initial_aggregation_rate"] = args.initial_aggregation_rate
    if args.model == "lad":
        if common["gap_tol"] is None:
            common["gap_tol"] = 1e-3
        return AIDLADRegressor(fit_intercept=not args.no_intercept, **common)
    if common["gap_tol"] is None:
        common["gap_tol"] = 1e-4
    return AIDSVC(
        C=args.C, kernel=args.kernel, gamma=args.gamma, solver=args.solver, tol=args.tol, **common
    )


def _fit(args):
    X, y = load_data(args.data, fmt=args.format)
    est = _build(args)
    if args.model == "svm" and args.kernel != "linear" and hasattr(X, "toarray"):
        X = X.toarray()  # kernel AID works on dense rows
    est.fit(X, y)
    print(
        f"certificate: stop={est.stop_reason_} iterations={est.n_iter_} "
        f"objective={est.objective_:.10g} lower_bound={est.lower_bound_:.10g} "
        f"gap={est.optimality_gap_:.3e} r^T={est.aggregation_rate_:.4%}"
    )
    if args.output:
        with open(args.output, "wb") as fh:
            pickle.dump(est, fh)
        print(f"model saved to {args.output}")
    return 0


def _predict(args):
    with open(args.model_file, "rb") as fh:
        est = pickle.load(fh)
    if not isinstance(est, AIDLADRegressor | AIDSVC):
        raise TypeError(f"{args.model_file!r} does not hold an AID model.")
    X, _ = load_data(args.data, fmt=args.format)
    if isinstance(est, AIDSVC) and est.kernel != "linear" and hasattr(X, "toarray"):
        X = X.toarray()
    if X.shape[1] < est.n_features_in_ and hasattr(X, "tocsr"):
        # svmlight files infer the width from the largest feature id present.
        X = X.tocsr()
        X.resize((X.shape[0], est.n_features_in_))
    pred = est.predict(X)
    out = open(args.output, "w") if args.output else sys.stdout
    try:
        for value in pred:
            print(value, file=out)
    finally:
        if args.output:
            out.close()
    return 0


def _gamma(value):
    return value if value in ("scale", "auto") else float(value)


def _parser():
    p = argparse.ArgumentParser(prog="python -m aid_models", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fit", help="train an AID model and print its certificate")
    f.add_argument("data", help="svmlight/libsvm or CSV file")
    f.add_argument("--model", choices=["lad", "svm"], required=True)
    f.add_argument("--format", choices=["auto", "svmlight", "csv"], default="auto")
    f.add_argument("--output", "-o", help="pickle the fitted model here")
    f.add_argument("--gap-tol", type=float, default=None, help="default 1e-3 LAD, 1e-4 SVM")
    f.add_argument("--max-iter", type=int, default=100)
    f.add_argument("--time-limit", type=float, default=None)
    f.add_argument("--initial-aggregation-rate", type=float, default=None)
    f.add_argument("--random-state", type=int, default=0)
    f.add_argument("--no-intercept", action="store_true", help="LAD without intercept")
    f.add_argument("--C", type=float, default=1.0, help="SVM penalty")
    f.add_argument("--kernel", choices=["linear", "rbf", "poly"], default="linear")
    f.add_argument(
        "--gamma", default="scale", type=lambda v: v if v in ("scale", "auto") else float(v)
    )
    f.add_argument(
        "--solver",
        choices=["auto", "libsvm", "liblinear", "highs", "dcd", "newton", "dcd-full"],
        default="auto",
    )
    f.add_argument("--tol", type=float, default=1e-3, help="aggregated SVM solver tolerance")
    f.set_defaults(run=_fit)
    q = sub.add_parser("predict", help="predict with a pickled AID model")
    q.add_argument("model_file")
    q.add_argument("data")
    q.add_argument("--format", choices=["auto", "svmlight", "csv"], default="auto")
    q.add_argument("--output", "-o", help="write predictions here (default: stdout)")
    q.set_defaults(run=_predict)
    return p


def main(argv=None):
    """Entry point; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except (ValueError, TypeError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
