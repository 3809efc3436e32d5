"""Small seeded data sets shared by the cross-package tests (svmcore's generators only)."""

import numpy as np

from svmcore.datasets import (
    make_blob_mixture,
    make_g241c,
    make_lad_set_a,
    make_noisy_sinc,
    make_sparse_text,
)


def signed(y, classes):
    """Labels in {-1, +1}, +1 for ``classes[1]`` (every estimator's convention here)."""
    return np.where(y == classes[1], 1.0, -1.0)


def linear_classification():
    """Overlapping blobs with 5 % label noise: the linear SVM comparisons' data."""
    return make_blob_mixture(1200, 5, random_state=0)


def text_classification():
    """Sparse tf-idf-like documents (CSR), the setting SVMlin targets."""
    return make_sparse_text(600, 300, nnz_per_row=20, label_noise=0.05, random_state=0)


def rbf_classification():
    """2-d blobs split in halves: kernel-SVM train and test sets.

    Two dimensions keep the approximate extreme points few (AESVM reduces 2000 training
    points to about a quarter), so the AESVC comparison is not SVC against itself.
    """
    X, y = make_blob_mixture(4000, 2, random_state=0)
    return X[:2000], y[:2000], X[2000:], y[2000:]


def lad_regression():
    """Set A-style LAD data with Laplace errors."""
    return make_lad_set_a(2000, 5, random_state=0)


def sinc_regression():
    """Unevenly sampled sinc with noise 0.1 (LP-SVR sec. 5), halves for training and test."""
    X, y = make_noisy_sinc(600, noise=0.1, random_state=0)
    return X[:300], y[:300], X[300:], y[300:]


def semi_supervised_split(n=300, n_features=5, distance=4.0, n_labels_per_class=5, seed=5):
    """One g241c-style split: two Gaussians 4 apart (Bayes error about 2.3 %), 10 labels.

    Returns ``X``, ``y`` with -1 for the unlabeled samples (classes 0 and 1) and the true
    labels. The seed is one where ten labels leave a labeled-only SVM clearly worse than
    the clusters allow (checked by the test itself).
    """
    X, y_signed = make_g241c(n, n_features, distance=distance, random_state=seed)
    y_true = (y_signed > 0).astype(int)
    rng = np.random.default_rng(seed)
    labeled = np.r_[
        rng.choice(np.flatnonzero(y_true == 0), n_labels_per_class, replace=False),
        rng.choice(np.flatnonzero(y_true == 1), n_labels_per_class, replace=False),
    ]
    y = np.full(n, -1)
    y[labeled] = y_true[labeled]
    return X, y, y_true


def small_binary():
    """600 4-d blobs with 0/1 labels: one small set every estimator fits in a second."""
    X, y = make_blob_mixture(600, 4, random_state=3)
    return X, (y > 0).astype(int)


def small_semi_supervised():
    """``small_binary`` with the labels of all but the first 40 rows removed (-1)."""
    X, y = small_binary()
    y = y.copy()
    y[40:] = -1
    return X, y
