"""Cached synthetic data for the benchmarks (``joblib.Memory`` in ``cache/``).

Every generator is seeded and returns float64 or float32 data without upcasting, as
scikit-learn's ``asv_benchmarks/benchmarks/datasets.py`` does; the cache keeps the
generation cost out of repeated ``setup`` calls.
"""

from pathlib import Path

import numpy as np
import scipy.sparse as sp
from joblib import Memory
from sklearn.model_selection import train_test_split

M = Memory(location=str(Path(__file__).resolve().parent / "cache"), mmap_mode="r", verbose=0)


@M.cache
def dense_points(n_samples, n_features, dtype="float64", random_state=0):
    """Standardized Gaussian points of shape (n_samples, n_features)."""
    rng = np.random.default_rng(random_state)
    return rng.standard_normal((n_samples, n_features)).astype(dtype) / np.sqrt(n_features)


@M.cache
def weighted_regression(n_samples, n_features, sparse=False, density=0.05, random_state=0):
    """``(X, y, cost)``: a planted linear model with noise and positive per-row costs.

    ``sparse=True`` gives a CSR matrix with ``density`` non-zeros per row on average.
    """
    rng = np.random.default_rng(random_state)
    if sparse:
        X = sp.random(n_samples, n_features, density=density, format="csr", random_state=rng)
    else:
        X = rng.standard_normal((n_samples, n_features))
    w = rng.standard_normal(n_features)
    y = X @ w + 0.1 * rng.standard_normal(n_samples)
    cost = rng.uniform(0.5, 2.0, n_samples)
    return X, y, cost


@M.cache
def classification(n_samples, n_features, dtype="float64", random_state=0):
    """``(X, X_val, y, y_val)``: two noisy Gaussian classes with labels in {-1, +1}."""
    rng = np.random.default_rng(random_state)
    y = np.where(rng.random(n_samples) < 0.5, -1, 1)
    # centres about 2 apart whatever the dimension: overlapping classes (accuracy ~0.85)
    centres = rng.standard_normal((2, n_features)) * (1.5 / np.sqrt(n_features))
    X = centres[(y + 1) // 2] + rng.standard_normal((n_samples, n_features))
    X = X.astype(dtype)
    return tuple(train_test_split(X, y, test_size=0.2, random_state=0))
