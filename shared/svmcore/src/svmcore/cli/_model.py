"""Portable model files: a fitted estimator's parameters and attributes in a ``.npz`` archive.

No pickle anywhere: the archive holds ``.npy`` arrays (read with ``allow_pickle=False``)
and one JSON header, so any NumPy (or any zip and ``.npy`` reader) can open it and
loading a file never runs code from it.
"""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from ._run import CLIError

__all__ = ["MODEL_FORMAT", "MODEL_FORMAT_VERSION", "load_model", "read_model_header", "save_model"]

#: The ``format`` entry of every model file's header.
MODEL_FORMAT = "svmcore-model"
#: The version of the layout described in :func:`save_model`; readers refuse newer ones.
MODEL_FORMAT_VERSION = 1

_HEADER = "header"
_PREFIX = "attr."


def _estimator_name(cls):
    """``"<top-level package>.<class name>"``, e.g. ``"aesvm.AESVC"``."""
    return f"{cls.__module__.split('.')[0]}.{cls.__qualname__}"


def _json_value(value, what):
    """``value`` as plain JSON data (numpy scalars and tuples converted)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [_json_value(v, what) for v in value]
    if isinstance(value, dict):
        return {str(k): _json_value(v, what) for k, v in value.items()}
    raise TypeError(f"{what}: a {type(value).__name__} cannot be stored in a model file")


def _package_version(cls):
    module = __import__(cls.__module__.split(".")[0])
    return getattr(module, "__version__", None)


def _is_estimator(value):
    return hasattr(value, "get_params") and hasattr(value, "fit")


def _names_for(attributes, estimator):
    """The attribute names to store for ``estimator``."""
    if isinstance(attributes, Mapping):
        cls = type(estimator)
        if cls not in attributes:
            raise TypeError(f"no attribute list for {cls.__name__} in the model's description")
        names = attributes[cls]
        return names(estimator) if callable(names) else names
    return attributes


def _encode(estimator, attributes, prefix, arrays):
    """The header entry of ``estimator``; its arrays go into ``arrays`` under ``prefix``."""
    cls = type(estimator)
    described = {}
    for name in _names_for(attributes, estimator):
        if not hasattr(estimator, name):
            raise ValueError(f"{cls.__name__} has no attribute {name!r} to save")
        value = getattr(estimator, name)
        key = f"{prefix}{name}"
        if sp.issparse(value):
            value = sp.csr_matrix(value)
            for part in ("data", "indices", "indptr"):
                arrays[f"{key}.{part}"] = getattr(value, part)
            described[name] = {"kind": "csr", "shape": list(value.shape)}
        elif isinstance(value, np.ndarray):
            if value.dtype.hasobject:
                raise TypeError(f"{name}: arrays of Python objects cannot be stored")
            arrays[key] = value
            described[name] = {"kind": "array"}
        elif isinstance(value, (list, tuple)) and value and all(map(_is_estimator, value)):
            items = [
                _encode(item, attributes, f"{key}.{i}.", arrays) for i, item in enumerate(value)
            ]
            described[name] = {"kind": "estimators", "items": items}
        else:
            described[name] = {"kind": "value", "value": _json_value(value, name)}
    return {
        "estimator": _estimator_name(cls),
        "params": _json_value(estimator.get_params(deep=False), "params"),
        "attributes": described,
    }


def save_model(
    path: str | os.PathLike[str],
    estimator: Any,
    attributes: Sequence[str] | Mapping[Any, Sequence[str] | Callable[[Any], Sequence[str]]],
    *,
    info: dict[str, Any] | None = None,
) -> None:
    """Write a fitted estimator to a portable model file (``.npz``, no pickle).

    Parameters
    ----------
    path : str or path-like
        Output file, written as named (no ``.npz`` suffix is added) and replaced
        atomically.
    estimator : estimator
        A fitted scikit-learn style estimator.
    attributes : sequence of str or dict
        The fitted attributes to store: what ``predict``/``decision_function``
        read, plus any worth keeping (e.g. ``objective_``); a dict maps estimator
        classes to their names (or to a function of the fitted estimator returning
        them, when they depend on its parameters), for estimators holding others (a
        list of fitted estimators, e.g. one per class, is stored item by item). Each value must be a
        NumPy array (not of object dtype), a SciPy sparse matrix (stored as CSR), a
        non-empty list of estimators, or a JSON-able value (None, bool, int, float,
        str, and lists/dicts of these).
    info : dict, default=None
        Free JSON-able details kept in the header (e.g. the command line).

    Notes
    -----
    The file is a NumPy ``.npz`` archive holding:

    - ``header``: a 0-d string array with one JSON object: ``format``
      (``"svmcore-model"``), ``format_version`` (1), ``estimator`` (e.g.
      ``"aesvm.AESVC"``), ``package_version`` and ``svmcore_version``, ``params``
      (``get_params(deep=False)``), ``attributes`` (per name: ``{"kind": "value",
      "value": ...}``, ``{"kind": "array"}``, ``{"kind": "csr", "shape": [n, d]}`` or
      ``{"kind": "estimators", "items": [...]}``, each item an object with its own
      ``estimator``, ``params`` and ``attributes``) and ``info``;
    - ``attr.<name>`` for each array attribute, ``attr.<name>.data``,
      ``attr.<name>.indices``, ``attr.<name>.indptr`` for each sparse one, and
      ``attr.<name>.<i>.<attribute>`` for the arrays of item ``i`` of a list of
      estimators.

    Read it back with :func:`load_model`, or by hand with
    ``np.load(path, allow_pickle=False)`` and ``json.loads(str(f["header"]))``.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from svmcore.cli import load_model, save_model
    >>> est = LinearRegression().fit([[0.0], [1.0], [2.0]], [1.0, 3.0, 5.0])
    >>> path = os.path.join(tempfile.mkdtemp(), "lr.model")
    >>> save_model(path, est, ["coef_", "intercept_", "n_features_in_"])
    >>> load_model(path, [LinearRegression]).predict([[3.0]]).round(6)
    array([7.])
    """
    import svmcore

    arrays: dict[str, Any] = {}
    entry = _encode(estimator, attributes, _PREFIX, arrays)
    header = {
        "format": MODEL_FORMAT,
        "format_version": MODEL_FORMAT_VERSION,
        "estimator": entry["estimator"],
        "package_version": _package_version(type(estimator)),
        "svmcore_version": svmcore.__version__,
        "params": entry["params"],
        "attributes": entry["attributes"],
        "info": _json_value(info or {}, "info"),
    }
    arrays[_HEADER] = np.array(json.dumps(header, indent=1))
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".model-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, **arrays)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def _open(path):
    path = os.fspath(path)
    if not os.path.exists(path):
        raise CLIError(f"{path}: no such model file")
    try:
        archive = np.load(path, allow_pickle=False)
    except (OSError, ValueError, zipfile.BadZipFile, EOFError):
        raise CLIError(f"{path}: not a model file (expected a .npz model archive)") from None
    if not isinstance(archive, np.lib.npyio.NpzFile) or _HEADER not in archive.files:
        raise CLIError(f"{path}: not a model file (no header)")
    try:
        header = json.loads(str(archive[_HEADER]))
    except (ValueError, TypeError):
        raise CLIError(f"{path}: the model file's header is not valid JSON") from None
    if not isinstance(header, dict) or header.get("format") != MODEL_FORMAT:
        raise CLIError(f"{path}: not a {MODEL_FORMAT} file")
    version = header.get("format_version")
    if not isinstance(version, int) or version > MODEL_FORMAT_VERSION:
        raise CLIError(
            f"{path}: model format version {version!r} is newer than this reader's "
            f"({MODEL_FORMAT_VERSION}); upgrade svmcore"
        )
    return archive, header


def read_model_header(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The JSON header of a model file written by :func:`save_model`.

    Parameters
    ----------
    path : str or path-like
        The model file.

    Returns
    -------
    header : dict
        ``format``, ``format_version``, ``estimator``, versions, ``params``,
        ``attributes`` and ``info``.

    Raises
    ------
    svmcore.cli.CLIError
        If the file is missing or not a model file of a supported version.
    """
    archive, header = _open(path)
    archive.close()
    return header


def _decode(entry, accepted, archive, prefix, path):
    """Rebuild the estimator of header ``entry`` (arrays under ``prefix``)."""
    name = entry.get("estimator")
    if name not in accepted:
        raise CLIError(f"{path}: holds a {name} model; expected {' or '.join(sorted(accepted))}")
    try:
        estimator = accepted[name](**entry.get("params", {}))
    except TypeError as exc:
        raise CLIError(f"{path}: parameters this version of {name} does not know: {exc}") from None
    for attr, spec in entry.get("attributes", {}).items():
        key = f"{prefix}{attr}"
        kind = spec["kind"]
        if kind == "value":
            value = spec["value"]
        elif kind == "array":
            value = archive[key]
        elif kind == "csr":
            parts = tuple(archive[f"{key}.{part}"] for part in ("data", "indices", "indptr"))
            value = sp.csr_matrix(parts, shape=tuple(spec["shape"]))
        elif kind == "estimators":
            value = [
                _decode(item, accepted, archive, f"{key}.{i}.", path)
                for i, item in enumerate(spec["items"])
            ]
        else:
            raise KeyError(kind)
        setattr(estimator, attr, value)
    return estimator


def load_model(path: str | os.PathLike[str], estimators: Sequence[type]) -> Any:
    """Rebuild a fitted estimator from a model file written by :func:`save_model`.

    Parameters
    ----------
    path : str or path-like
        The model file.
    estimators : sequence of type
        The estimator classes the caller accepts, those of estimators nested in the
        model included; the file's ``estimator`` entries must name them (nothing
        else is imported or constructed).

    Returns
    -------
    estimator : estimator
        ``cls(**params)`` with the stored attributes set.

    Raises
    ------
    svmcore.cli.CLIError
        If the file is missing, not a model file, holds another estimator, or was
        written with parameters this version does not know.
    """
    archive, header = _open(path)
    path = os.fspath(path)
    accepted = {_estimator_name(cls): cls for cls in estimators}
    with archive:
        try:
            return _decode(header, accepted, archive, _PREFIX, path)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, CLIError):
                raise
            raise CLIError(f"{path}: damaged model file ({type(exc).__name__}: {exc})") from None
