"""Data files of the command-line tools: svmlight/libsvm and CSV in, one value per line out."""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..datasets import load_svmlight
from ._run import CLIError

__all__ = ["FORMATS", "add_data_options", "data_options", "read_data", "write_values"]

#: File formats :func:`read_data` reads (``auto``: by the file name).
FORMATS = ("auto", "svmlight", "csv")


def _format(path, fmt):
    if fmt not in FORMATS:
        raise CLIError(f"format must be one of {', '.join(FORMATS)}; got {fmt!r}")
    if fmt != "auto":
        return fmt
    name = os.path.basename(path).lower()
    return "csv" if name.endswith((".csv", ".csv.gz", ".csv.bz2")) else "svmlight"


def _read_csv(path, target_column, n_features):
    try:
        with open(path, encoding="utf-8") as fh:
            first = fh.readline()
    except UnicodeDecodeError:
        raise CLIError(f"{path}: not a text (CSV) file") from None
    if not first.strip():
        raise CLIError(f"{path}: the CSV file is empty")
    try:
        [float(v) for v in first.split(",")]
        header = 0
    except ValueError:
        header = 1
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "input contained no data": reported below
            data = np.loadtxt(path, delimiter=",", skiprows=header, ndmin=2, dtype=np.float64)
    except ValueError as exc:
        raise CLIError(f"{path}: not a numeric CSV file ({' '.join(str(exc).split())})") from None
    if data.shape[0] == 0:
        raise CLIError(f"{path}: the CSV file has no data rows")
    if not np.isfinite(data).all():
        raise CLIError(f"{path}: the CSV file holds nan or inf values")
    n_cols = data.shape[1]
    if n_features is not None and n_cols == n_features:
        return data, None  # prediction input without a target column
    if n_cols < 2:
        raise CLIError(f"{path}: a CSV file needs at least two columns (features and target)")
    if not -n_cols <= target_column < n_cols:
        raise CLIError(f"{path}: target column {target_column} does not exist ({n_cols} columns)")
    y = data[:, target_column]
    X = np.delete(data, target_column % n_cols, axis=1)
    if n_features is not None and X.shape[1] != n_features:
        raise CLIError(
            f"{path}: {n_cols} columns, but the model needs {n_features} features "
            f"(plus an optional target column)"
        )
    return X, y


def read_data(
    path: str | os.PathLike[str],
    *,
    fmt: str = "auto",
    zero_based: bool = False,
    target_column: int = -1,
    n_features: int | None = None,
) -> tuple[Any, np.ndarray | None]:
    """Read ``(X, y)`` from a svmlight/libsvm or CSV file, with one-line errors.

    Parameters
    ----------
    path : str or path-like
        The file.
    fmt : {"auto", "svmlight", "csv"}, default="auto"
        ``auto`` reads names ending in ``.csv`` (``.csv.gz``, ``.csv.bz2``) as CSV and
        anything else as svmlight.
    zero_based : bool, default=False
        For svmlight files, whether feature indices start at 0 (False: at 1, LIBSVM's
        convention; an index 0 is then an error).
    target_column : int, default=-1
        For CSV files, the column holding ``y``. A first line that is not all numbers is a
        header and is skipped.
    n_features : int, default=None
        The width ``X`` must have (a fitted model's ``n_features_in_``). svmlight
        rows are padded with zero columns; a larger feature index is an error. A CSV
        file then has either exactly ``n_features`` columns (no target, ``y`` is
        None) or one more.

    Returns
    -------
    X : csr_matrix or ndarray of shape (n_samples, n_features)
        CSR for svmlight files, dense for CSV files.
    y : ndarray of shape (n_samples,) or None
        Targets or labels (None for a CSV file without a target column).

    Raises
    ------
    svmcore.cli.CLIError
        On a missing, unreadable or malformed file (the message names it).

    Examples
    --------
    >>> import os, tempfile
    >>> from svmcore.cli import read_data
    >>> path = os.path.join(tempfile.mkdtemp(), "toy.svm")
    >>> with open(path, "w") as fh:
    ...     _ = fh.write("+1 1:0.5 3:2\\n-1 2:1\\n")
    >>> X, y = read_data(path)
    >>> X.toarray().tolist(), y.tolist()
    ([[0.5, 0.0, 2.0], [0.0, 1.0, 0.0]], [1.0, -1.0])
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        raise CLIError(f"{path}: no such file")
    if os.path.isdir(path):
        raise CLIError(f"{path}: is a directory, not a data file")
    if _format(path, fmt) == "csv":
        return _read_csv(path, target_column, n_features)
    try:
        X, y = load_svmlight(path, n_features=n_features, zero_based=zero_based)
    except (ValueError, UnicodeDecodeError) as exc:
        text = " ".join(str(exc).split())
        if n_features is not None and "n_features" in text:
            text = f"{path}: the file has a feature index beyond the model's {n_features} features"
        raise CLIError(text) from None
    if X.shape[0] == 0:
        raise CLIError(f"{path}: the file has no data rows")
    if X.nnz and not np.isfinite(X.data).all():
        raise CLIError(f"{path}: the file holds nan or inf feature values")
    if not np.isfinite(y).all():
        raise CLIError(f"{path}: the file holds nan or inf labels")
    return sp.csr_matrix(X), y


def add_data_options(parser: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    """Add the data-file options ``--format``, ``--zero-based`` and ``--target-column``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The parser to extend (dests ``format``, ``zero_based``, ``target_column``),
        read by :func:`read_data` through :func:`data_options`.

    Returns
    -------
    group : argparse._ArgumentGroup
        The group holding the options.
    """
    group = parser.add_argument_group("data files")
    group.add_argument(
        "--format",
        choices=FORMATS,
        default="auto",
        help="auto (default): .csv files are CSV, anything else svmlight/libsvm",
    )
    group.add_argument(
        "--zero-based",
        action="store_true",
        help="svmlight feature indices start at 0 (default: at 1, as LIBSVM's)",
    )
    group.add_argument(
        "--target-column",
        type=int,
        default=-1,
        metavar="J",
        help="CSV: the column holding the label or target (default -1, the last)",
    )
    return group


def data_options(args: argparse.Namespace) -> dict[str, Any]:
    """The :func:`read_data` keywords of the options added by :func:`add_data_options`.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    options : dict
        ``fmt``, ``zero_based`` and ``target_column``.
    """
    return {"fmt": args.format, "zero_based": args.zero_based, "target_column": args.target_column}


def _format_value(value):
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.17g}"
    if isinstance(value, (np.integer, int, np.bool_)):
        return str(int(value))
    return str(value)


def write_values(values: Any, path: str | os.PathLike[str] | None = None) -> None:
    """Write one value per line (floats with 17 significant digits, round-trip exact).

    Parameters
    ----------
    values : array-like of shape (n,)
        Labels or numbers.
    path : str or path-like, default=None
        Output file; None or ``"-"`` writes to stdout (a reader that stops early,
        ``| head``, ends the write with ``BrokenPipeError``, which
        :func:`svmcore.cli.run` handles).

    Examples
    --------
    >>> from svmcore.cli import write_values
    >>> write_values([1.0, 0.1, -2])
    1
    0.10000000000000001
    -2
    """
    lines = (_format_value(v) + "\n" for v in np.asarray(values).ravel().tolist())
    if path is None or os.fspath(path) == "-":
        for line in lines:
            sys.stdout.write(line)
        return
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(lines)
