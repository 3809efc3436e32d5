"""Type aliases of the monorepo's public signatures (what the type hints are made of).

numpy's own aliases cover dense input (:data:`numpy.typing.ArrayLike`); the ones here
add SciPy's sparse matrices and scikit-learn's ``random_state``. They are for static
checkers and readers; nothing checks them at run time.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

__all__ = ["ArrayLike", "DaskArray", "FloatArray", "IntArray", "MatrixLike", "RandomStateLike"]

#: Anything :func:`numpy.asarray` accepts.
ArrayLike: TypeAlias = npt.ArrayLike

#: Dense array-like data or a SciPy sparse matrix/array (``X`` of the estimators; a
#: method whose docstring says so also takes a row-chunked Dask array). SciPy ships no
#: type information, so a sparse matrix is ``Any`` to a static checker whatever the
#: alias says: it is ``Any`` here, and names the intent for readers and the docs.
MatrixLike: TypeAlias = Any

#: A ``dask.array.Array`` (Dask is an optional extra, unknown to the checker): what
#: prediction methods return, lazily, for Dask input.
DaskArray: TypeAlias = Any

#: A float array (float64, or float32 where the data's precision is kept).
FloatArray: TypeAlias = npt.NDArray[np.floating[Any]]

#: An integer array (indices, labels, counts).
IntArray: TypeAlias = npt.NDArray[np.integer[Any]]

#: scikit-learn's ``random_state``: None, a seed, a legacy ``RandomState`` or a
#: ``Generator``.
RandomStateLike: TypeAlias = (
    int | np.integer[Any] | np.random.RandomState | np.random.Generator | None
)
