"""The embedded default data of the main job: generated sets plus one bundled real set.

Nothing is downloaded: the generators are svmcore's seeded versions of the papers' data
and scikit-learn's two moons, and the real set ships with scikit-learn (Wisconsin breast
cancer, 569 x 30).
"""

from dataclasses import dataclass

import numpy as np
from sklearn.datasets import make_moons
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from svmcore.datasets import (
    load_bundled,
    make_blob_mixture,
    make_g241c,
    make_lad_set_a,
    make_noisy_sinc,
    make_sparse_text,
)


@dataclass(frozen=True)
class Split:
    """Train/test split; classification labels are in {-1, +1}."""

    name: str
    X_train: object
    X_test: object
    y_train: np.ndarray
    y_test: np.ndarray


def _split(name, X, y, *, scale):
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0)
    if scale:
        scaler = StandardScaler().fit(X_train)
        X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
    return Split(name, X_train, X_test, y_train, y_test)


def default_data(size):
    """Named splits for ``size`` ``"quick"`` (seconds per method) or ``"full"``."""
    n = {"quick": 2000, "full": 20000}[size]
    X, y = load_bundled("breast_cancer")
    splits = [_split("breast_cancer", X, np.where(y == 1, 1, -1), scale=True)]
    X, y = make_blob_mixture(n, 10, label_noise=0.05, random_state=0)
    splits.append(_split("blobs", X, y, scale=True))
    # two noisy moons: data of low intrinsic dimension, where AESVM reduces at the paper's
    # epsilon (on the 10-d blobs it keeps nearly every sample)
    X, y = make_moons(n, noise=0.3, random_state=0)
    splits.append(_split("moons", X, np.where(y == 1, 1, -1), scale=True))
    X, y = make_sparse_text(n, 1000, nnz_per_row=30, label_noise=0.02, random_state=0)
    splits.append(_split("sparse_text", X, y, scale=False))
    X, y = make_lad_set_a(n, 10, random_state=0)
    splits.append(_split("lad_set_a", X, y, scale=False))
    X, y = make_noisy_sinc({"quick": 600, "full": 4000}[size], noise=0.1, random_state=0)
    splits.append(_split("sinc", X, y, scale=False))
    # the semi-supervised set: classes {0, 1}, so that -1 can mark unlabeled samples
    X, y = make_g241c({"quick": 600, "full": 1500}[size], 241, random_state=0)
    splits.append(_split("g241c", X, (y + 1) // 2, scale=False))
    return {s.name: s for s in splits}


#: Fitted estimators the cases keep for their module's ``figures``: (id(split), key) -> fit.
_FITTED: dict = {}


def keep_fit(split, key, estimator):
    """Remember ``estimator`` (fitted on ``split`` by a case) under ``key``; return it.

    ``figures`` then draws from the table's own fit instead of fitting again.
    """
    _FITTED[(id(split), key)] = (split, estimator)  # holding the split keeps its id unique
    return estimator


def fitted(split, key, fit):
    """The estimator a case kept for ``(split, key)``, else ``fit()`` (figures run alone)."""
    entry = _FITTED.get((id(split), key))
    return fit() if entry is None else entry[1]


def hide_labels(y, n_labeled, random_state=0):
    """A copy of ``y`` with all but ``n_labeled`` (stratified) labels set to -1."""
    rng = np.random.default_rng(random_state)
    keep = np.concatenate(
        [rng.choice(np.flatnonzero(y == c), n_labeled // 2, replace=False) for c in (0, 1)]
    )
    y_semi = np.full_like(y, -1)
    y_semi[keep] = y[keep]
    return y_semi
