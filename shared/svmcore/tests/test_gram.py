"""svmcore.linalg.weighted_gram and scaled_rows against SciPy's products."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from svmcore.linalg import _gram, scaled_rows, weighted_gram


def _data(n, d, density, seed):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, format="csr", random_state=seed)
    return X, rng.random(n)


@pytest.mark.parametrize("sparse", [True, False])
@pytest.mark.parametrize("shape", [(1, 1), (7, 3), (300, 40), (50, 120)])
def test_weighted_gram_matches_scipy_and_is_symmetric(sparse, shape):
    X, w = _data(*shape, 0.3, 0)
    w[::5] = 0.0
    expected = (X.T @ sp.diags(w) @ X).toarray()
    G = weighted_gram(X if sparse else X.toarray(), w)
    np.testing.assert_allclose(G, expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(G, G.T)


def test_weighted_gram_dense_chunks_add_up(monkeypatch):
    X, w = _data(100, 6, 1.0, 1)
    whole = weighted_gram(X.toarray(), w)
    monkeypatch.setattr(_gram, "_DENSE_CHUNK_ROWS", 7)
    np.testing.assert_allclose(weighted_gram(X.toarray(), w), whole, rtol=1e-13)


def test_weighted_gram_counts_duplicate_entries_and_any_sparse_format():
    # Row 0 stores column 0 twice (1 + 2): its square is 9, with the cross term twice.
    X = sp.csr_matrix((np.array([1.0, 2.0, 3.0]), np.array([0, 0, 1]), np.array([0, 3])), (1, 2))
    np.testing.assert_array_equal(weighted_gram(X, [2.0]), 2.0 * (X.T @ X).toarray())
    Y, w = _data(40, 9, 0.4, 2)
    np.testing.assert_array_equal(weighted_gram(Y.tocoo(), w), weighted_gram(Y, w))


def test_weighted_gram_rejects_bad_weights():
    X = np.ones((3, 2))
    with pytest.raises(ValueError, match="weights must have shape"):
        weighted_gram(X, np.ones(4))
    with pytest.raises(ValueError, match="nonnegative"):
        weighted_gram(X, [1.0, -1.0, 1.0])
    # NaN propagates, as in NumPy's products (the caller's factorization reports it).
    assert np.isnan(weighted_gram(X, [1.0, np.nan, 1.0])).all()
    assert np.isnan(weighted_gram(sp.csr_matrix(X), [1.0, np.nan, 1.0])).all()


@pytest.mark.parametrize("append_ones", [False, True])
@pytest.mark.parametrize("sparse", [True, False])
def test_scaled_rows_matches_scipy(sparse, append_ones):
    X, s = _data(60, 8, 0.25, 3)
    X = sp.csr_matrix(sp.diags((np.arange(60) != 5).astype(float)) @ X)  # row 5: ones only
    X.eliminate_zeros()
    X.sort_indices()
    assert X[5].nnz == 0
    expected = (sp.diags(s) @ X).toarray()
    if append_ones:
        expected = np.hstack([expected, np.ones((60, 1))])
    out = scaled_rows(X if sparse else X.toarray(), s, append_ones=append_ones)
    assert sp.issparse(out) == sparse
    dense = out.toarray() if sparse else out
    np.testing.assert_array_equal(dense, expected)
    if sparse:
        assert out.has_sorted_indices  # X's sorted rows stay sorted, the ones last
        assert out.nnz == X.nnz + (60 if append_ones else 0)


def test_scaled_rows_leaves_x_alone_and_rejects_bad_scale():
    X, s = _data(20, 4, 0.5, 4)
    before = X.copy()
    scaled_rows(X, s, append_ones=True)
    assert (X != before).nnz == 0
    with pytest.raises(ValueError, match="scale must have shape"):
        scaled_rows(X, s[:-1])


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    n=st.integers(1, 30),
    d=st.integers(1, 12),
    density=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**16),
)
def test_gram_of_scaled_rows_is_the_weighted_gram(n, d, density, seed):
    # (diag(s) X)^T (diag(s) X) = X^T diag(s^2) X, on sparse and dense input alike.
    X, s = _data(n, d, density, seed)
    S = scaled_rows(X, s)
    np.testing.assert_allclose(
        weighted_gram(S, np.ones(n)), weighted_gram(X.toarray(), s**2), rtol=1e-10, atol=1e-14
    )
