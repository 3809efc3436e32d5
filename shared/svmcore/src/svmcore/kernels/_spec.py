"""Kernel parameters: validation, the :class:`KernelSpec` record and gamma heuristics."""

from __future__ import annotations

import dataclasses
import math
import numbers
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..typing import MatrixLike
from ..validation import check_float_array, check_positive_int, check_real

__all__ = ["KERNELS", "KernelSpec", "check_kernel_params", "resolve_gamma"]

#: Kernels every svmcore routine understands, with scikit-learn's definitions.
KERNELS = ("linear", "rbf", "poly")


def check_kernel_params(
    kernel: str, gamma: Any, degree: Any, coef0: Any
) -> tuple[str, float, int, float]:
    """Validate the four kernel keywords; return them normalized.

    Only the parameters the kernel uses are checked, as in scikit-learn
    (``linear`` ignores ``gamma``, ``degree`` and ``coef0``; ``rbf`` ignores
    ``degree`` and ``coef0``).

    Parameters
    ----------
    kernel : {"linear", "rbf", "poly"}
        Kernel name.
    gamma : float
        Coefficient of ``rbf`` and ``poly`` (> 0).
    degree : int
        Degree of ``poly`` (>= 1).
    coef0 : float
        Independent term of ``poly``.

    Returns
    -------
    kernel : str
        The kernel name.
    gamma : float
        ``gamma`` as a float (1.0 for ``linear``).
    degree : int
        ``degree`` as an int (1 unless ``poly``).
    coef0 : float
        ``coef0`` as a float (0.0 unless ``poly``).

    Raises
    ------
    ValueError, TypeError
        Naming the offending parameter.

    See Also
    --------
    KernelSpec : The same four parameters as a record.

    Examples
    --------
    >>> from svmcore.kernels import check_kernel_params
    >>> check_kernel_params("rbf", 2, 3, 1.0)
    ('rbf', 2.0, 1, 0.0)
    """
    if not isinstance(kernel, str) or kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}, got {kernel!r}.")
    if kernel == "linear":
        return kernel, 1.0, 1, 0.0
    if isinstance(gamma, str):
        raise TypeError(
            f"gamma must be a positive real number here, got {gamma!r}; "
            "turn 'scale'/'auto' into a number with svmcore.kernels.resolve_gamma."
        )
    gamma = check_real(gamma, "gamma", low=0.0, low_closed=False)
    if kernel == "rbf":
        return kernel, gamma, 1, 0.0
    degree = check_positive_int(degree, "degree", minimum=1)
    coef0 = check_real(coef0, "coef0")
    return kernel, gamma, degree, coef0


@dataclasses.dataclass(frozen=True)
class KernelSpec:
    """The four kernel keywords of svmcore's kernel functions, as one record.

    Parameters
    ----------
    kernel : {"linear", "rbf", "poly"}, default="rbf"
        ``linear``: :math:`\\langle a, b\\rangle`; ``rbf``:
        :math:`\\exp(-\\gamma\\|a - b\\|^2)`; ``poly``:
        :math:`(\\gamma\\langle a, b\\rangle + c_0)^d` (scikit-learn's definitions).
    gamma : float, default=1.0
        Kernel coefficient of ``rbf`` and ``poly`` (must be > 0).
    degree : int, default=3
        Degree of ``poly`` (>= 1).
    coef0 : float, default=1.0
        Independent term of ``poly``.

    See Also
    --------
    resolve_gamma : Numeric gamma from ``"scale"``/``"auto"``.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.kernels import KernelSpec, gram
    >>> spec = KernelSpec("poly", gamma=0.5, degree=2, coef0=1.0).validate()
    >>> gram(np.eye(2), **spec.params())
    array([[2.25, 1.  ],
           [1.  , 2.25]])
    """

    kernel: str = "rbf"
    gamma: float = 1.0
    degree: int = 3
    coef0: float = 1.0

    def validate(self) -> KernelSpec:
        """Check the parameters; return ``self`` so calls can be chained.

        Returns
        -------
        self : KernelSpec
            This record, unchanged.

        Raises
        ------
        ValueError, TypeError
            With the name of the offending parameter.
        """
        check_kernel_params(self.kernel, self.gamma, self.degree, self.coef0)
        return self

    def params(self) -> dict[str, Any]:
        """The four keywords as a dict, for ``**`` passing to the kernel functions.

        Returns
        -------
        params : dict
            ``{"kernel": ..., "gamma": ..., "degree": ..., "coef0": ...}``.
        """
        return {
            "kernel": self.kernel,
            "gamma": self.gamma,
            "degree": self.degree,
            "coef0": self.coef0,
        }


#: Variances that ``X.var()`` computes as exactly as the scaled path of ``resolve_gamma``.
_PLAIN_VAR_RANGE = (1e-200, 1e200)


def resolve_gamma(gamma: str | float, X: MatrixLike) -> float:
    """Turn scikit-learn's ``"scale"``/``"auto"`` gamma into a number.

    Parameters
    ----------
    gamma : {"scale", "auto"} or float
        ``"scale"`` gives ``1 / (n_features * X.var())`` (``1.0`` when the
        variance is zero, as in scikit-learn's ``SVC``), ``"auto"`` gives
        ``1 / n_features``; a positive number is returned unchanged.
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        Training data.

    Returns
    -------
    gamma : float
        The numeric gamma.

    See Also
    --------
    KernelSpec : Kernel parameters as a record.

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.kernels import resolve_gamma
    >>> resolve_gamma("auto", np.zeros((3, 4)))
    0.25
    """
    if isinstance(gamma, str):
        if gamma not in ("scale", "auto"):
            raise ValueError(f"gamma must be 'scale', 'auto' or a float > 0, got {gamma!r}.")
        X = check_float_array(X, "X", accept_sparse=True)
        n_features = X.shape[1]
        if n_features == 0:
            raise ValueError("X has no features; gamma cannot be resolved.")
        if gamma == "auto":
            return 1.0 / n_features
        if not sp.issparse(X):
            with np.errstate(all="ignore"):
                var = float(X.var(dtype=np.float64))
            # Far from float64's limits no square under- or overflowed: the value the
            # scaled path below gives (scaling by 2^-k is exact), one pass fewer.
            if _PLAIN_VAR_RANGE[0] < var < _PLAIN_VAR_RANGE[1]:
                return 1.0 / (n_features * var)
        # The variance of X / 2^k (k from the largest entry) cannot overflow or underflow
        # where X.var() would; 1 / (n_features var) is then formed in exponent space.
        values = X.data if sp.issparse(X) else X
        top = float(np.max(np.abs(values), initial=0.0)) if values.size else 0.0
        if top == 0.0 or not np.isfinite(top):
            return 1.0  # constant data (as scikit-learn); NaN/inf are rejected earlier
        k = math.frexp(top)[1]
        Xs = X * np.ldexp(1.0, -k)
        if sp.issparse(Xs):
            mean = Xs.mean()
            var = float(Xs.multiply(Xs).mean() - mean**2)
        else:
            var = float(Xs.var(dtype=np.float64))
        if var <= 0.0:
            return 1.0
        with np.errstate(over="ignore", under="ignore"):
            gamma = np.ldexp(1.0 / (n_features * var), -2 * k)
        if not np.isfinite(gamma) or gamma < np.finfo(np.float64).tiny:
            raise ValueError(
                f"gamma='scale' is 1 / (n_features * X.var()) = 1 / ({n_features} * "
                f"{var:.3g} * 2**{2 * k}), outside the float range: the features' scale "
                f"(largest |x| = {top:.3g}) is too extreme for a kernel. Rescale X (e.g. "
                "sklearn.preprocessing.StandardScaler) or pass a numeric gamma."
            )
        return float(gamma)
    if isinstance(gamma, bool) or not isinstance(gamma, numbers.Real):
        raise TypeError(f"gamma must be 'scale', 'auto' or a float > 0, got {gamma!r}.")
    return check_real(gamma, "gamma", low=0.0, low_closed=False)
