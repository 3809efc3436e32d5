"""Synthetic generators, svmlight I/O and bundled data: shapes, seeds, rates, round trips."""

import gzip

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.svm import LinearSVC

from svmcore.datasets import (
    BUNDLED_DATASETS,
    dump_svmlight,
    load_bundled,
    load_svmlight,
    make_blob_mixture,
    make_g241c,
    make_lad_set_a,
    make_noisy_sinc,
    make_sparse_text,
)

GENERATORS = [
    (make_lad_set_a, dict(n_samples=300, n_features=4)),
    (make_blob_mixture, dict(n_samples=300, n_features=4)),
    (make_noisy_sinc, dict(n_samples=300)),
    (make_g241c, dict(n_samples=300, n_features=20)),
    (make_sparse_text, dict(n_samples=300, n_features=500)),
]


def _dense(X):
    return X.toarray() if sp.issparse(X) else X


@pytest.mark.parametrize("make,kw", GENERATORS)
def test_shapes_dtypes_and_seed_reproducibility(make, kw):
    X, y = make(**kw, random_state=3)
    n = kw["n_samples"]
    d = kw.get("n_features", 1)
    assert X.shape == (n, d) and y.shape == (n,)
    assert X.dtype == np.float64 and y.dtype == np.float64
    X2, y2 = make(**kw, random_state=3)
    np.testing.assert_array_equal(_dense(X), _dense(X2))
    np.testing.assert_array_equal(y, y2)
    X3, _ = make(**kw, random_state=4)
    assert not np.array_equal(_dense(X), _dense(X3))
    X32, y32 = make(**kw, random_state=3, dtype=np.float32)
    assert X32.dtype == np.float32 and y32.dtype == np.float32
    np.testing.assert_allclose(_dense(X32), _dense(X), rtol=1e-6, atol=1e-6)
    assert np.isfinite(_dense(X)).all() and np.isfinite(y).all()
    gen = np.random.default_rng(3)
    Xg, _ = make(**kw, random_state=gen)
    np.testing.assert_array_equal(_dense(Xg), _dense(X))


def test_lad_set_a_model_and_laplace_noise():
    X, y, (b0, beta) = make_lad_set_a(20000, 5, noise=2.0, return_coef=True, random_state=0)
    resid = y - b0 - X @ beta
    # Laplace(scale s): mean |e| = s, median 0, variance 2 s^2.
    assert np.mean(np.abs(resid)) == pytest.approx(2.0, rel=0.03)
    assert abs(np.median(resid)) < 0.05
    assert np.var(resid) == pytest.approx(8.0, rel=0.06)
    _, y0, (c0, w0) = make_lad_set_a(50, 3, noise=0.0, return_coef=True, random_state=1)
    X0, _ = make_lad_set_a(50, 3, noise=0.0, random_state=1)
    np.testing.assert_allclose(y0, c0 + X0 @ w0, rtol=1e-12)


@pytest.mark.parametrize("noise", [0.0, 0.1, 0.25])
def test_blob_mixture_balance_and_exact_noise_rate(noise):
    n = 1001
    X, y = make_blob_mixture(
        n, 3, label_noise=noise, n_blobs_per_class=1, center_scale=50.0, random_state=2
    )
    assert set(np.unique(y)) <= {-1.0, 1.0}
    Xc, yc = make_blob_mixture(
        n, 3, label_noise=0.0, n_blobs_per_class=1, center_scale=50.0, random_state=2
    )
    # Clean labels are balanced; the noisy set flips exactly round(noise * n) of them.
    assert (yc < 0).sum() == n // 2
    np.testing.assert_array_equal(X, Xc)
    assert (y != yc).sum() == round(noise * n)
    # With far-apart blobs each clean label is the side of its own class centre.
    centre_pos, centre_neg = Xc[yc > 0].mean(0), Xc[yc < 0].mean(0)
    closer_pos = np.linalg.norm(Xc - centre_pos, axis=1) < np.linalg.norm(Xc - centre_neg, axis=1)
    np.testing.assert_array_equal(closer_pos, yc > 0)


def test_blob_mixture_blob_count():
    X, y = make_blob_mixture(
        600,
        2,
        n_blobs_per_class=3,
        label_noise=0.0,
        cluster_std=0.01,
        center_scale=10.0,
        random_state=5,
    )
    for label in (-1.0, 1.0):
        Xc = X[y == label]
        # Tight blobs: points are either within 0.1 (same blob) or far apart; the
        # distinct neighbourhood patterns are the blobs.
        near = np.linalg.norm(Xc[:, None] - Xc[None], axis=2) < 0.1
        assert len(np.unique(near, axis=0)) == 3


def test_noisy_sinc_values_and_noise():
    X, y = make_noisy_sinc(20000, noise=0.2, random_state=0)
    x = X[:, 0]
    assert x.min() >= -10 and x.max() <= 10
    clean = np.sin(x) / x
    assert np.std(y - clean) == pytest.approx(0.2, rel=0.03)
    Xm, ym = make_noisy_sinc(20000, noise=0.2, multiplicative=True, random_state=0)
    ratio = (ym / (np.sin(Xm[:, 0]) / Xm[:, 0])) - 1.0
    assert np.std(ratio) == pytest.approx(0.2, rel=0.03)
    Xr, _ = make_noisy_sinc(100, x_range=(0.5, 2.0), random_state=0)
    assert Xr.min() >= 0.5 and Xr.max() <= 2.0


def test_g241c_two_gaussians_at_given_distance():
    X, y = make_g241c(random_state=0)
    assert X.shape == (1500, 241)
    assert (y > 0).sum() == 750 and (y < 0).sum() == 750
    gap = X[y > 0].mean(0) - X[y < 0].mean(0)
    # Mean difference: 2.5 along one direction plus sampling noise of variance 2/750 per coord.
    expected = np.sqrt(2.5**2 + 241 * 2 / 750)
    assert np.linalg.norm(gap) == pytest.approx(expected, rel=0.05)
    assert np.std(X[y > 0] - X[y > 0].mean(0)) == pytest.approx(1.0, rel=0.02)
    X2, y2 = make_g241c(400, 5, distance=6.0, random_state=1)
    assert X2.shape == (400, 5)
    u = X2[y2 > 0].mean(0) - X2[y2 < 0].mean(0)
    accuracy = np.mean(np.sign((X2 - X2.mean(0)) @ u) == y2)
    assert accuracy > 0.97  # Bayes accuracy Phi(3) = 0.9987


def test_sparse_text_structure_balance_and_noise():
    X, y = make_sparse_text(2000, 3000, nnz_per_row=30, random_state=0)
    assert sp.isspmatrix_csr(X)
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    np.testing.assert_allclose(norms, 1.0, rtol=1e-12)
    assert (X.data > 0).all()
    nnz = np.diff(X.indptr)
    assert nnz.min() >= 1 and 15 < nnz.mean() <= 30
    assert abs((y > 0).sum() - 1000) <= 1
    # Zipf: the most frequent features appear in far more documents than the median one.
    df = np.sort(np.bincount(X.indices, minlength=3000))[::-1]
    assert df[0] > 20 * max(df[1500], 1)
    Xn, yn = make_sparse_text(2000, 3000, nnz_per_row=30, label_noise=0.1, random_state=0)
    assert (X != Xn).nnz == 0
    assert (yn != y).sum() == 200


def test_sparse_text_labels_come_from_a_hyperplane():
    X, y = make_sparse_text(600, 200, nnz_per_row=20, random_state=4)
    # Planted hyperplane: a hard-margin-ish linear SVM separates the clean labels.
    clf = LinearSVC(C=1e4, max_iter=200000, tol=1e-6).fit(X, y)
    assert np.mean(clf.predict(X) == y) > 0.99


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("zero_based", [True, False])
def test_svmlight_round_trip(tmp_path, sparse, zero_based):
    X, y = make_blob_mixture(50, 6, random_state=0)
    X[np.abs(X) < 1.0] = 0.0
    Xin = sp.csr_matrix(X) if sparse else X
    path = tmp_path / "data.svm"
    dump_svmlight(Xin, y, path, zero_based=zero_based, comment="test")
    X2, y2 = load_svmlight(path, n_features=6, zero_based=zero_based)
    assert sp.isspmatrix_csr(X2)
    np.testing.assert_allclose(X2.toarray(), X, rtol=1e-15)
    np.testing.assert_array_equal(y2, y)
    X3, _ = load_svmlight(str(path), n_features=6, zero_based=zero_based, dtype=np.float32)
    assert X3.dtype == np.float32


def test_svmlight_gzip(tmp_path):
    path = tmp_path / "data.svm.gz"
    with gzip.open(path, "wt") as fh:
        fh.write("1 1:0.5 3:2\n-1 2:1\n")
    X, y = load_svmlight(path, zero_based=False)
    np.testing.assert_array_equal(X.toarray(), [[0.5, 0, 2], [0, 1, 0]])
    np.testing.assert_array_equal(y, [1, -1])


def test_svmlight_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="path: no svmlight file"):
        load_svmlight(tmp_path / "missing.svm")
    bad = tmp_path / "bad.svm"
    bad.write_text("1 1:0.5 garbage\n")
    with pytest.raises(ValueError, match="could not read svmlight file"):
        load_svmlight(bad)
    with pytest.raises(ValueError, match="dtype must be"):
        load_svmlight(bad, dtype=np.int64)
    with pytest.raises(ValueError, match="y must be 1-d with one entry per row"):
        dump_svmlight(np.ones((3, 2)), np.ones(2), tmp_path / "o.svm")
    with pytest.raises(ValueError, match="X must be 2-dimensional"):
        dump_svmlight(np.ones(3), np.ones(3), tmp_path / "o.svm")


@pytest.mark.parametrize("name", sorted(BUNDLED_DATASETS))
def test_load_bundled(name):
    X, y = load_bundled(name)
    assert X.dtype == np.float64 and X.ndim == 2 and y.shape == (X.shape[0],)
    assert X.flags.c_contiguous and np.isfinite(X).all()
    assert load_bundled(name, dtype=np.float32)[0].dtype == np.float32


def test_load_bundled_errors():
    with pytest.raises(ValueError, match="name must be one of"):
        load_bundled("mnist")
    with pytest.raises(ValueError, match="dtype must be"):
        load_bundled("iris", dtype=np.int32)


@pytest.mark.parametrize(
    "make,kw,match",
    [
        (make_lad_set_a, dict(n_samples=0, n_features=2), "n_samples must be >= 1"),
        (make_lad_set_a, dict(n_samples=5, n_features=2.0), "n_features must be an int"),
        (make_lad_set_a, dict(n_samples=5, n_features=2, noise=-1.0), "noise must be >="),
        (make_blob_mixture, dict(n_samples=1, n_features=2), "n_samples must be >= 2"),
        (make_blob_mixture, dict(n_samples=9, n_features=2, label_noise=0.6), "label_noise"),
        (make_blob_mixture, dict(n_samples=9, n_features=2, cluster_std=0.0), "cluster_std"),
        (make_blob_mixture, dict(n_samples=9, n_features=2, n_blobs_per_class=0), "n_blobs"),
        (make_noisy_sinc, dict(n_samples=9, x_range=(1.0, 1.0)), "x_range"),
        (make_noisy_sinc, dict(n_samples=9, x_range=3.0), "x_range must be a pair"),
        (make_g241c, dict(n_samples=9, distance=0.0), "distance"),
        (make_sparse_text, dict(n_samples=9, n_features=5, nnz_per_row=0), "nnz_per_row"),
        (make_sparse_text, dict(n_samples=9, n_features=5, zipf_exponent=-1.0), "zipf"),
        (make_g241c, dict(n_samples=9, dtype=np.int32), "dtype must be float32"),
        (make_g241c, dict(n_samples=9, random_state="seed"), "random_state must be"),
    ],
)
def test_generators_reject_bad_input(make, kw, match):
    with pytest.raises((ValueError, TypeError), match=match):
        make(**kw)


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 40), st.integers(1, 8), st.floats(0.0, 0.5), st.integers(0, 2**31))
def test_blob_mixture_small_sizes(n, d, noise, seed):
    X, y = make_blob_mixture(n, d, label_noise=noise, random_state=seed)
    assert X.shape == (n, d) and np.isfinite(X).all()
    assert set(np.unique(y)) <= {-1.0, 1.0}


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 40), st.integers(1, 30), st.integers(1, 10), st.integers(0, 2**31))
def test_sparse_text_small_sizes(n, d, k, seed):
    X, y = make_sparse_text(n, d, nnz_per_row=k, random_state=seed)
    assert X.shape == (n, d) and np.diff(X.indptr).min() >= 1
    np.testing.assert_allclose(np.sqrt(np.asarray(X.multiply(X).sum(1)).ravel()), 1.0)
    assert set(np.unique(y)) <= {-1.0, 1.0}
