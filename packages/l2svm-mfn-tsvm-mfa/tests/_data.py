"""Small seeded semi-supervised data sets for the tests."""

import numpy as np


def two_clusters(seed, n=400, d=2, gap=1.0, spread=3.0, n_labels_per_class=5):
    """Two elongated Gaussian clusters split along axis 0 (cluster assumption true).

    Axis 0 separates the clusters (centres at +-``gap``, std 0.5); axis 1 is long
    (std ``spread``) so a few labels can tilt a supervised boundary across them.
    Returns ``X``, ``y`` (-1 for unlabeled) and the true labels.
    """
    rng = np.random.default_rng(seed)
    y_true = np.repeat([0, 1], n // 2)
    X = 0.5 * rng.standard_normal((n, d))
    X[:, 0] += np.where(y_true == 1, gap, -gap)
    X[:, 1] = spread * rng.standard_normal(n)
    k = n_labels_per_class
    lab = np.r_[rng.choice(n // 2, k, replace=False), n // 2 + rng.choice(n // 2, k, replace=False)]
    y = np.full(n, -1)
    y[lab] = y_true[lab]
    return X, y, y_true
