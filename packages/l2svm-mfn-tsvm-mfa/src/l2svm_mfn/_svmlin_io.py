"""SVMlin v1.0's files: examples (sparse rows, no label), labels, weights and outputs."""

import os

import numpy as np
import scipy.sparse as sp

from svmcore.cli import CLIError

__all__ = ["read_examples", "read_labels", "read_weights", "write_vector"]


def _open(path, what):
    try:
        return open(path, encoding="utf-8")
    except OSError as exc:
        raise CLIError(f"cannot read {what} file {os.fspath(path)!r}: {exc.strerror}") from None


def _parse_row(line, path, lineno):
    row = {}
    for token in line.split("#", 1)[0].split():
        idx, sep, val = token.partition(":")
        try:
            if not sep:
                raise ValueError
            j, v = int(idx), float(val)
        except ValueError:
            raise CLIError(
                f"{path}, line {lineno}: token {token!r} is not of the form index:value "
                "(SVMlin example files have no label column)"
            ) from None
        if j < 1:
            raise CLIError(f"{path}, line {lineno}: feature index {j} < 1")
        if not np.isfinite(v):
            raise CLIError(f"{path}, line {lineno}: value {val!r} is not finite")
        if j in row:
            raise CLIError(f"{path}, line {lineno}: feature {j} appears twice")
        row[j] = v
    return row


def read_examples(path):
    """Read SVMlin's example file: one row per line of ``idx:val`` pairs, 1-based, no label.

    Parameters
    ----------
    path : str or path-like
        File name.

    Returns
    -------
    X : csr_matrix of shape (n_rows, n_features), float64
        ``n_features`` is the largest feature index in the file (at least 1).

    Raises
    ------
    svmcore.cli.CLIError
        On a missing, empty or malformed file (the message names the file and line).
    """
    data, indices, indptr = [], [], [0]
    with _open(path, "examples") as handle:
        for lineno, line in enumerate(handle, start=1):
            row = _parse_row(line, path, lineno)
            cols = sorted(row)
            indices.extend(c - 1 for c in cols)
            data.extend(row[c] for c in cols)
            indptr.append(len(indices))
    if len(indptr) == 1:
        raise CLIError(f"examples file {os.fspath(path)!r} is empty")
    n_features = max(max(indices) + 1 if indices else 0, 1)
    return sp.csr_matrix(
        (np.array(data, dtype=np.float64), np.array(indices, dtype=np.int32), np.array(indptr)),
        shape=(len(indptr) - 1, n_features),
    )


def read_labels(path, n_rows):
    """Read one label per line, each +1, -1 or 0 (0: unlabeled); ``n_rows`` of them.

    Parameters
    ----------
    path : str or path-like
        File name (blank lines are skipped).
    n_rows : int
        Number of examples the labels belong to.

    Returns
    -------
    y : ndarray of shape (n_rows,)
        The labels as floats.

    Raises
    ------
    svmcore.cli.CLIError
        On a missing file, a value other than +1/-1/0, or a count other than ``n_rows``.
    """
    labels = []
    with _open(path, "labels") as handle:
        for lineno, line in enumerate(handle, start=1):
            text = line.strip()
            if not text:
                continue
            try:
                value = float(text)
            except ValueError:
                raise CLIError(f"{path}, line {lineno}: {text!r} is not a number") from None
            if value not in (-1.0, 0.0, 1.0):
                raise CLIError(f"{path}, line {lineno}: label {text!r} is not +1, -1 or 0")
            labels.append(value)
    if len(labels) != n_rows:
        raise CLIError(f"{path} has {len(labels)} labels for {n_rows} examples")
    return np.array(labels)


def read_weights(path):
    """Read a weights file: ``d`` feature weights, then the bias, one per line.

    Parameters
    ----------
    path : str or path-like
        File name.

    Returns
    -------
    w : ndarray of shape (d + 1,)
        Weights, bias last.

    Raises
    ------
    svmcore.cli.CLIError
        On a missing or malformed file, or fewer than two finite values.
    """
    with _open(path, "weights") as handle:
        try:
            w = np.loadtxt(handle, dtype=np.float64, ndmin=1)
        except ValueError as exc:
            raise CLIError(f"{path}: not a weights file ({' '.join(str(exc).split())})") from None
    if w.ndim != 1 or w.size < 2 or not np.isfinite(w).all():
        raise CLIError(f"{path}: expected d weights and a bias, one finite number per line")
    return w


def write_vector(path, values):
    """Write one value per line with 17 significant digits (SVMlin writes 6).

    Parameters
    ----------
    path : str or path-like
        Output file (overwritten).
    values : array-like of shape (n,)
        The values.
    """
    np.savetxt(path, np.asarray(values, dtype=np.float64), fmt="%.17g")
