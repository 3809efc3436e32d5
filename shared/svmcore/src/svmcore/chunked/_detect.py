"""Recognise Dask collections without importing Dask."""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any

__all__ = ["is_dask_collection", "require_dask"]


def is_dask_collection(obj: Any) -> bool:
    """Whether ``obj`` is a Dask collection (array, dataframe, delayed ...).

    Parameters
    ----------
    obj : object
        Anything an estimator was given as data.

    Returns
    -------
    bool
        True for a Dask collection. Dask is never imported here: an object can only be a
        Dask collection if Dask is already loaded.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.chunked import is_dask_collection
    >>> is_dask_collection(np.zeros(3))
    False
    """
    if "dask" not in sys.modules:
        return False
    from dask.base import is_dask_collection as _is

    return bool(_is(obj))


def require_dask(feature: str) -> ModuleType:
    """Import ``dask.array`` or raise an ImportError that names the extra to install.

    Parameters
    ----------
    feature : str
        What needs Dask, for the message.

    Returns
    -------
    module
        ``dask.array``.
    """
    try:
        return importlib.import_module("dask.array")
    except ImportError as exc:  # pragma: no cover - exercised without the extra only
        raise ImportError(
            f"{feature} needs Dask: pip install 'svmcore[dask]' (dask[array] and distributed)."
        ) from exc
