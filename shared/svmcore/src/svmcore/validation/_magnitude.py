"""A clear error for data whose magnitude the float range cannot carry through a solver,
and a warning for features whose scales differ so much that a regularized model cannot
use the small ones."""

from __future__ import annotations

import warnings

import numpy as np
import scipy.sparse as sp

from ..numba_config import jit_strict
from ..typing import ArrayLike, MatrixLike

__all__ = ["FeatureScaleWarning", "check_magnitude", "hard_margin_scale", "warn_feature_scales"]

#: Columns whose largest magnitudes differ by more than this factor draw a
#: :class:`FeatureScaleWarning` (see :func:`warn_feature_scales`).
MAX_SCALE_RATIO = 1e12


class FeatureScaleWarning(UserWarning):
    """The features' scales differ so much that the model cannot use the small ones."""


#: Entries up to this magnitude are accepted: their squares summed over a million rows and
#: features stay finite in float64 (2^64 squared is 2^128, far below 2^1024), and so do the
#: solvers' normal equations and kernel values.
MAX_MAGNITUDE = 2.0**64


def check_magnitude(
    values: MatrixLike,
    name: str,
    estimator: str,
    *,
    limit: float = MAX_MAGNITUDE,
    low: float = 0.0,
) -> None:
    """Raise a ``ValueError`` naming the cause when ``|values|`` exceeds ``limit``.

    For estimators whose solvers square the data (kernel values, normal equations, LP
    right-hand sides) without rescaling it: past about 1e19 the squares overflow or the
    solvers' tolerances lose their meaning, and the failure would surface deep inside a
    solver with a message about infinities or singular matrices.

    Parameters
    ----------
    values : {ndarray, sparse matrix}
        Validated (finite) data: ``X``, or the targets ``y``.
    name : str
        Its name in the message (``"X"``, ``"y"``).
    estimator : str
        The estimator's name in the message.
    limit : float, default=2.0**64
        Largest magnitude accepted (for float32 data at most ``sqrt(float32 max /
        n_features)``, so that a row's squared norm stays finite in float32).
    low : float, default=0.0
        Smallest accepted value of the largest magnitude (nonzero data whose entries
        are all below it are rejected): for solvers whose absolute tolerances cannot
        tell such data from zero.

    Raises
    ------
    ValueError
        When an entry's magnitude exceeds ``limit``, or every entry is below ``low``.
    """
    data = values.data if sp.issparse(values) else np.asarray(values)
    top = float(np.max(np.abs(data), initial=0.0)) if data.size else 0.0
    if np.issubdtype(data.dtype, np.floating):
        # a row's squared norm must stay finite in the data's own dtype (float32: the
        # kernels keep it; entries of 1e37 gave an infinite mean k(x, x) in AESVC)
        width = values.shape[1] if len(values.shape) == 2 else 1
        limit = min(limit, float(np.sqrt(np.finfo(data.dtype).max / max(width, 1))))
    if top > limit:
        raise ValueError(
            f"{name} has entries of magnitude up to {top:.3g}, beyond the {limit:.3g} that "
            f"{estimator}'s solvers carry through the float range (they square the data). "
            f"Rescale {name}, e.g. with sklearn.preprocessing.StandardScaler (for y: divide "
            "it by a constant and multiply the predictions back)."
        )
    if 0.0 < top < low:
        raise ValueError(
            f"{name} has entries of magnitude at most {top:.3g}, below the {low:.3g} that "
            f"{estimator}'s solvers tell from zero (their tolerances are absolute). "
            f"Rescale {name}, e.g. with sklearn.preprocessing.StandardScaler."
        )


#: From about this ``max C s_i ||x_i||^2`` (rows centred) a weighted hinge SVM is nearly a
#: hard-margin problem that float64 solvers fail to certify: svmcore's Newton solver on
#: random data failed from about 1e9 at gap_tol 1e-9 and certified none from about 1e14
#: at 1e-4 (issue 19).
HARD_MARGIN_SCALE = 1e9


def hard_margin_scale(
    X: MatrixLike,
    sample_weight: ArrayLike | None = None,
    *,
    C: float = 1.0,
    center: ArrayLike | None = None,
) -> float:
    """``max_i C s_i ||x_i - center||^2``: how nearly hard-margin a hinge SVM on ``X`` is.

    ``X t`` at ``C`` is the problem on ``X`` at ``C t^2``, so rescaling cannot help a
    solver; far above 1 (see ``HARD_MARGIN_SCALE``) the hinge swamps the regularizer and
    the duality gap is lost to cancellation in float64. The remedy is the user's:
    standardize ``X`` or lower ``C``.

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n_samples, n_features)
        Rows (or one block of them).
    sample_weight : array-like of shape (n_samples,), default=None
        Weights ``s_i`` (ones if None).
    C : float, default=1.0
        Penalty.
    center : array-like of shape (n_features,), default=None
        Subtracted from every row (the weighted mean, with a free bias); None: none.

    Returns
    -------
    float
        The largest ``C s_i ||x_i - center||^2`` (0 for no rows).

    Examples
    --------
    >>> import numpy as np
    >>> from svmcore.validation import hard_margin_scale
    >>> X = np.array([[1e5, 0.0], [-1e5, 0.0]])
    >>> hard_margin_scale(X, C=10.0)
    100000000000.0
    """
    if X.shape[0] == 0:
        return 0.0
    # Imported here, not with the module: the module's checks run in tasks on Dask
    # workers, which should not import scikit-learn (and pandas with it) for them.
    from sklearn.utils.extmath import row_norms

    # scikit-learn's row_norms sums the squares row by row, without squaring X (or its
    # stored values) in a copy; CSR stays sparse, centred through ||x||^2 - 2 x.c + c.c
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)  # no copy for float64 CSR
        sq = row_norms(X, squared=True)
        if center is not None:
            c = np.asarray(center, dtype=np.float64)
            sq = sq - 2.0 * np.asarray(X @ c, dtype=np.float64).ravel() + float(c @ c)
    else:
        Xc = np.asarray(X, dtype=np.float64)
        if center is not None:
            Xc = Xc - np.asarray(center, dtype=np.float64)
        sq = row_norms(Xc, squared=True)
    s = np.ones(X.shape[0]) if sample_weight is None else np.asarray(sample_weight, np.float64)
    return float(C * np.max(s * np.maximum(sq, 0.0)))


@jit_strict
def _column_abs_max(X):
    """``np.max(np.abs(X), axis=0)`` as float64 in one pass over the rows: numpy's
    axis-0 reduction of a C-ordered array with few columns made one inner-loop call per
    row (0.7 ms at 30 000 x 6, more than the fit it guards)."""
    top = np.empty(X.shape[1])
    for j in range(X.shape[1]):
        top[j] = 0.0  # a loop, not np.zeros: one overload fewer to compile on a first fit
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            v = abs(X[i, j])
            if v > top[j]:
                top[j] = v
    return top


@jit_strict
def _csr_column_abs_max(data, indices, n_features):
    """The column maxima of ``|X|`` of a CSR matrix from its stored values (0 for a
    column with none), in one pass: ``abs(X).max(axis=0)`` copied X and converted it to
    CSC (8 ms of a 15,000 x 10,000 text fit, issue 16). Every entry stores its column's
    maximum, without a branch: the store only when larger mispredicted on text (0.97 vs
    0.47 ms for its 1.2 million entries)."""
    top = np.empty(n_features)
    for j in range(n_features):
        top[j] = 0.0
    for p in range(data.size):
        v = abs(data[p])
        j = indices[p]
        t = top[j]
        top[j] = v if v > t else t
    return top


def warn_feature_scales(X: MatrixLike, estimator: str, *, limit: float = MAX_SCALE_RATIO) -> None:
    """Warn naming the cause when the columns of ``X`` differ in scale by more than ``limit``.

    A regularized model (a penalty on ``||w||^2`` or ``||w||_1``, a kernel of distances)
    is not invariant to the scale of a feature: a feature 1e-12 times smaller than the
    others needs a weight 1e12 times larger, which the penalty forbids, so the fit
    ignores it (at 1e-150 exactly), and one 1e12 times larger dominates every distance.
    The fit is then the correct optimum of its objective and may still predict no better
    than the majority class, silently. This warns instead, recommending a scaler.

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n_samples, n_features)
        Validated (finite) data.
    estimator : str
        The estimator's name in the message.
    limit : float, default=1e12
        Largest accepted ratio of the largest to the smallest column scale (the largest
        magnitude in the column; all-zero columns are left out).

    Warns
    -----
    FeatureScaleWarning
        When the ratio exceeds ``limit``.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from svmcore.validation import FeatureScaleWarning, warn_feature_scales
    >>> X = np.c_[np.ones(3), np.full(3, 1e-150)]
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_feature_scales(X, "MyEstimator")
    >>> caught[0].category is FeatureScaleWarning
    True
    """
    if X.shape[0] == 0 or X.shape[1] < 2:
        return
    if sp.issparse(X):
        X = sp.csr_matrix(X)  # no copy for CSR
        top = _csr_column_abs_max(np.asarray(X.data, dtype=np.float64), X.indices, X.shape[1])
    else:
        top = _column_abs_max(np.ascontiguousarray(X))
    top = top[top > 0]
    if top.size < 2:
        return
    hi, lo = float(top.max()), float(top.min())
    if hi > limit * lo:
        warnings.warn(
            f"{estimator}: the features' scales (largest magnitude per column) range from "
            f"{lo:.3g} to {hi:.3g}, a ratio beyond {limit:.0e}; the regularized model "
            "cannot use the small-scale features, so it may predict no better than a "
            "constant. Rescale X, e.g. with sklearn.preprocessing.StandardScaler.",
            FeatureScaleWarning,
            stacklevel=3,
        )
