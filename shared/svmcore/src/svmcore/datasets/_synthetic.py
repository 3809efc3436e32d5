"""Seeded synthetic data sets of the papers (AID, AESVM, LP-SVR, SVMlin benchmarks).

Every generator draws from ``numpy.random.default_rng(random_state)``, returns float64
data by default (float32 with ``dtype=np.float32``; drawn in float64 then cast, so
both dtypes hold the same values up to rounding) and labels ``y`` in ``{-1, +1}``
for classification.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..docstrings import fill_doc
from ..typing import RandomStateLike
from ..validation import check_positive_int, check_real

__all__ = [
    "make_blob_mixture",
    "make_g241c",
    "make_lad_set_a",
    "make_noisy_sinc",
    "make_sparse_text",
]


#: Docstring fragments every generator shares (see svmcore.docstrings.fill_doc).
_DOCS = {
    "random_state_dtype": """\
        random_state : int, Generator or None, default=None
            Seed.
        dtype : {np.float64, np.float32}, default=np.float64
            Output dtype.""",
}


def _check_dtype(dtype):
    dtype = np.dtype(dtype)
    if dtype not in (np.float32, np.float64):
        raise ValueError(f"dtype must be float32 or float64, got {dtype}.")
    return dtype


def _check_seed(random_state):
    if random_state is not None and not isinstance(
        random_state, (numbers.Integral, np.random.Generator, np.random.SeedSequence)
    ):
        raise TypeError(
            "random_state must be None, an int, a SeedSequence or a numpy Generator, "
            f"got {type(random_state).__name__}."
        )
    return np.random.default_rng(random_state)


def _balanced_labels(n, rng):
    """``n // 2`` labels -1 and the rest +1, shuffled."""
    y = np.ones(n)
    y[: n // 2] = -1.0
    rng.shuffle(y)
    return y


def _flip_labels(y, label_noise, rng):
    """Flip exactly ``round(label_noise * n)`` labels chosen uniformly at random."""
    n_flip = int(round(label_noise * y.size))
    if n_flip:
        y[rng.choice(y.size, size=n_flip, replace=False)] *= -1
    return y


@fill_doc(_DOCS)
def make_lad_set_a(
    n_samples: int,
    n_features: int,
    *,
    noise: float = 1.0,
    return_coef: bool = False,
    random_state: RandomStateLike = None,
    dtype: Any = np.float64,
) -> tuple[np.ndarray, np.ndarray] | tuple[np.ndarray, np.ndarray, tuple[float, np.ndarray]]:
    """LAD regression data in the spirit of the AID paper's Set A.

    ``x_ij ~ N(0, 1)``, ``beta_j ~ N(0, 1)``, intercept ``beta_0 ~ N(0, 1)`` and
    ``y_i = beta_0 + x_i^T beta + eps_i`` with Laplace errors ``eps_i`` of scale
    ``noise`` (the distribution for which LAD is the maximum-likelihood fit).

    Parameters
    ----------
    n_samples : int
        ``n`` (the paper's Set A: 2e5 to 1.6e6).
    n_features : int
        ``m`` (Set A: 10 to 800).
    noise : float, default=1.0
        Laplace scale of the errors, >= 0.
    return_coef : bool, default=False
        Also return ``(beta_0, beta)``.
    %(random_state_dtype)s

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        Gaussian design.
    y : ndarray of shape (n_samples,)
        Responses with Laplace errors.
    coef : tuple (float, ndarray of shape (n_features,))
        The true ``(beta_0, beta)``; only with ``return_coef=True``.

    Notes
    -----
    The paper (sec. 4) only says its LAD instances were "randomly generated"
    with the sizes above; the distributions here are this implementation's
    choice.

    Examples
    --------
    >>> X, y = make_lad_set_a(100, 3, random_state=0)
    >>> X.shape, y.shape
    ((100, 3), (100,))
    """
    n = check_positive_int(n_samples, "n_samples")
    m = check_positive_int(n_features, "n_features")
    noise = check_real(noise, "noise", low=0.0)
    dtype = _check_dtype(dtype)
    rng = _check_seed(random_state)
    beta = rng.normal(size=m)
    beta0 = float(rng.normal())
    X = rng.normal(size=(n, m))
    y = beta0 + X @ beta + rng.laplace(scale=noise, size=n) if noise > 0 else beta0 + X @ beta
    X, y = X.astype(dtype, copy=False), y.astype(dtype, copy=False)
    return (X, y, (beta0, beta)) if return_coef else (X, y)


@fill_doc(_DOCS)
def make_blob_mixture(
    n_samples: int,
    n_features: int,
    *,
    n_blobs_per_class: int = 5,
    label_noise: float = 0.05,
    cluster_std: float = 1.0,
    center_scale: float = 2.0,
    random_state: RandomStateLike = None,
    dtype: Any = np.float64,
) -> tuple[np.ndarray, np.ndarray]:
    """Generate a two-class mixture of Gaussian blobs with label noise (SVM benchmarks).

    Each class owns ``n_blobs_per_class`` isotropic Gaussian blobs (standard
    deviation ``cluster_std``) whose centres are drawn from
    ``N(0, center_scale^2 I)``; the classes are balanced (``n // 2`` and
    ``n - n // 2`` samples), every sample picks one of its class's blobs
    uniformly, and then exactly ``round(label_noise * n)`` labels are flipped.
    Rows are shuffled.

    Parameters
    ----------
    n_samples : int
        Number of samples, >= 2.
    n_features : int
        Dimension.
    n_blobs_per_class : int, default=5
        Blobs per class.
    label_noise : float, default=0.05
        Fraction of flipped labels, in [0, 0.5].
    cluster_std : float, default=1.0
        Blob standard deviation, > 0.
    center_scale : float, default=2.0
        Standard deviation of the blob centres, >= 0.
    %(random_state_dtype)s

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        Samples.
    y : ndarray of shape (n_samples,), values in {-1, +1}
        Class labels after the flips.

    Notes
    -----
    The AID (sec. 4) and AESVM (sec. 5) papers use real data (IBM, rcv1, D1-D9);
    this generator stands in for them at controllable size, overlapping classes
    and a known noise rate.

    Examples
    --------
    >>> X, y = make_blob_mixture(10, 2, random_state=0)
    >>> X.shape, sorted(set(y.tolist()))
    ((10, 2), [-1.0, 1.0])
    """
    n = check_positive_int(n_samples, "n_samples", minimum=2)
    d = check_positive_int(n_features, "n_features")
    n_blobs = check_positive_int(n_blobs_per_class, "n_blobs_per_class")
    label_noise = check_real(label_noise, "label_noise", low=0.0, high=0.5)
    cluster_std = check_real(cluster_std, "cluster_std", low=0.0, low_closed=False)
    center_scale = check_real(center_scale, "center_scale", low=0.0)
    dtype = _check_dtype(dtype)
    rng = _check_seed(random_state)
    centres = rng.normal(scale=center_scale, size=(2, n_blobs, d))
    y = _balanced_labels(n, rng)
    blob = rng.integers(0, n_blobs, size=n)
    X = centres[(y > 0).astype(np.intp), blob] + rng.normal(scale=cluster_std, size=(n, d))
    y = _flip_labels(y, label_noise, rng)
    return X.astype(dtype, copy=False), y.astype(dtype, copy=False)


@fill_doc(_DOCS)
def make_noisy_sinc(
    n_samples: int,
    *,
    noise: float = 0.1,
    multiplicative: bool = False,
    x_range: tuple[float, float] = (-10.0, 10.0),
    random_state: RandomStateLike = None,
    dtype: Any = np.float64,
) -> tuple[np.ndarray, np.ndarray]:
    """Unevenly sampled ``sinc(x) = sin(x) / x`` with Gaussian noise (LP-SVR, sec. 5).

    ``x`` is drawn uniformly from ``x_range`` (so unevenly spaced), sorted
    output is not imposed; ``y = sinc(x) + noise * e`` or, with
    ``multiplicative=True``, ``y = sinc(x) * (1 + noise * e)``, ``e ~ N(0, 1)``.

    Parameters
    ----------
    n_samples : int
        Number of points (the paper: 200 and 1e6).
    noise : float, default=0.1
        Noise standard deviation, >= 0.
    multiplicative : bool, default=False
        Multiplicative white Gaussian noise (the paper's harder
        "sinc(x) x pi" set) instead of additive.
    x_range : tuple of float, default=(-10.0, 10.0)
        Sampling interval ``(low, high)``, ``low < high``.
    %(random_state_dtype)s

    Returns
    -------
    X : ndarray of shape (n_samples, 1)
        Sample points ``x``.
    y : ndarray of shape (n_samples,)
        Noisy targets.

    Notes
    -----
    The paper (Table 1) cites Peng (2010) for the set but gives neither the
    interval nor the noise level; the unnormalized ``sin(x)/x`` on
    ``[-10, 10]`` is the usual convention of that literature.

    Examples
    --------
    >>> X, y = make_noisy_sinc(5, noise=0.0, random_state=0)
    >>> bool(np.allclose(y, np.sin(X[:, 0]) / X[:, 0]))
    True
    """
    n = check_positive_int(n_samples, "n_samples")
    noise = check_real(noise, "noise", low=0.0)
    try:
        low, high = (float(v) for v in x_range)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"x_range must be a pair of numbers, got {x_range!r}.") from exc
    if not (np.isfinite(low) and np.isfinite(high) and low < high):
        raise ValueError(f"x_range must be finite with low < high, got {x_range!r}.")
    dtype = _check_dtype(dtype)
    rng = _check_seed(random_state)
    x = rng.uniform(low, high, size=n)
    clean = np.sinc(x / np.pi)  # numpy's sinc is sin(pi t) / (pi t)
    e = rng.normal(size=n)
    y = clean * (1.0 + noise * e) if multiplicative else clean + noise * e
    return x[:, None].astype(dtype, copy=False), y.astype(dtype, copy=False)


@fill_doc(_DOCS)
def make_g241c(
    n_samples: int = 1500,
    n_features: int = 241,
    *,
    distance: float = 2.5,
    random_state: RandomStateLike = None,
    dtype: Any = np.float64,
) -> tuple[np.ndarray, np.ndarray]:
    """Two-Gaussian set in the style of Chapelle's g241c (cluster assumption holds).

    Each class is an isotropic unit-variance Gaussian; the two means are
    ``distance`` apart along a random direction; classes are balanced
    (``n // 2`` negatives) and rows shuffled. The AID paper (sec. 4.3) uses
    g241c (n = 1500, m = 241) for S3VM.

    Parameters
    ----------
    n_samples : int, default=1500
        Number of samples, >= 2.
    n_features : int, default=241
        Dimension.
    distance : float, default=2.5
        Distance between the class means (Chapelle et al.: 2.5), > 0.
    %(random_state_dtype)s

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        Samples.
    y : ndarray of shape (n_samples,), values in {-1, +1}
        Class labels (the Gaussian each sample was drawn from).

    Notes
    -----
    The original g241c is a fixed file of the SSL benchmark (Chapelle,
    Schölkopf and Zien, 2006), which cannot be downloaded here; this
    generator follows its description. The Bayes error for ``distance`` 2.5
    is ``Phi(-1.25)``, about 10.6 %.

    Examples
    --------
    >>> X, y = make_g241c(random_state=0)
    >>> X.shape, int((y > 0).sum())
    ((1500, 241), 750)
    """
    n = check_positive_int(n_samples, "n_samples", minimum=2)
    d = check_positive_int(n_features, "n_features")
    distance = check_real(distance, "distance", low=0.0, low_closed=False)
    dtype = _check_dtype(dtype)
    rng = _check_seed(random_state)
    u = rng.normal(size=d)
    u /= np.linalg.norm(u)
    y = _balanced_labels(n, rng)
    X = rng.normal(size=(n, d)) + (0.5 * distance) * y[:, None] * u
    return X.astype(dtype, copy=False), y.astype(dtype, copy=False)


@fill_doc(_DOCS)
def make_sparse_text(
    n_samples: int,
    n_features: int,
    *,
    nnz_per_row: int = 50,
    zipf_exponent: float = 1.0,
    label_noise: float = 0.0,
    random_state: RandomStateLike = None,
    dtype: Any = np.float64,
) -> tuple[Any, np.ndarray]:
    """Sparse tf-idf-like documents with labels from a planted hyperplane (SVMlin-style).

    Document ``i`` draws ``1 + Poisson(nnz_per_row - 1)`` tokens from a Zipf
    vocabulary (``P(j) ~ 1 / (j + 1)^zipf_exponent``, ids permuted); repeated
    tokens become counts; each entry is ``log(1 + count) * idf_j`` with
    ``idf_j = log(n / df_j)`` (plus 1, so no entry vanishes) and rows are
    L2-normalized. A hyperplane ``w ~ N(0, I)`` is planted; ``y_i`` is the sign
    of ``x_i^T w`` minus its median (balanced classes); then exactly
    ``round(label_noise * n)`` labels are flipped.

    Parameters
    ----------
    n_samples : int
        Number of documents, >= 2.
    n_features : int
        Vocabulary size.
    nnz_per_row : int, default=50
        Mean tokens per document; a row has at most that many distinct
        non-zeros on average (fewer when tokens repeat).
    zipf_exponent : float, default=1.0
        Exponent of the word-frequency law, >= 0 (0 is uniform).
    label_noise : float, default=0.0
        Fraction of flipped labels, in [0, 0.5].
    %(random_state_dtype)s

    Returns
    -------
    X : csr_matrix of shape (n_samples, n_features)
        Rows of unit L2 norm (empty rows impossible: every document has a token).
    y : ndarray of shape (n_samples,), values in {-1, +1}
        Class labels from the planted hyperplane, after the flips.

    Notes
    -----
    Stands in for the text sets of the SVMlin paper (rcv1, news20, aut-avn),
    which are not bundled. Time and memory O(n * nnz_per_row).

    Examples
    --------
    >>> X, y = make_sparse_text(20, 100, nnz_per_row=5, random_state=0)
    >>> X.format, X.shape, bool(np.allclose(np.sqrt(X.multiply(X).sum(1)), 1.0))
    ('csr', (20, 100), True)
    """
    n = check_positive_int(n_samples, "n_samples", minimum=2)
    d = check_positive_int(n_features, "n_features")
    k = check_positive_int(nnz_per_row, "nnz_per_row")
    zipf_exponent = check_real(zipf_exponent, "zipf_exponent", low=0.0)
    label_noise = check_real(label_noise, "label_noise", low=0.0, high=0.5)
    dtype = _check_dtype(dtype)
    rng = _check_seed(random_state)
    prob = 1.0 / np.arange(1, d + 1) ** zipf_exponent
    prob /= prob.sum()
    vocab = rng.permutation(d)
    lengths = 1 + rng.poisson(k - 1, size=n)
    rows = np.repeat(np.arange(n), lengths)
    cols = vocab[rng.choice(d, size=rows.size, p=prob)]
    counts = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(n, d))
    counts.sum_duplicates()
    df = np.bincount(counts.indices, minlength=d)
    idf = np.log(n / np.maximum(df, 1)) + 1.0
    X = counts.copy()
    X.data = np.log1p(X.data) * idf[X.indices]
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    X = sp.diags(1.0 / norms) @ X
    X = sp.csr_matrix(X)
    w = rng.normal(size=d)
    score = X @ w
    y = np.where(score > np.median(score), 1.0, -1.0)
    y = _flip_labels(y, label_noise, rng)
    return X.astype(dtype), y.astype(dtype, copy=False)
