import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from aid_core import ArraySource, Block, ChunkSource, DataSource, as_data_source, cluster_sums


def _direct_sums(X, y, w, labels, K):
    Xd = X.toarray() if sp.issparse(X) else X
    Xs = np.zeros((K, Xd.shape[1]))
    ys = np.zeros(K)
    ws = np.zeros(K)
    for i, k in enumerate(labels):
        Xs[k] += w[i] * Xd[i]
        ys[k] += w[i] * y[i]
        ws[k] += w[i]
    return Xs, ys, ws


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(1, 40),
    m=st.integers(1, 4),
    K=st.integers(1, 6),
    block=st.one_of(st.none(), st.integers(1, 13)),
    sparse=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_cluster_sums_match_direct_loop(n, m, K, block, sparse, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, m))
    if sparse:
        X[rng.random((n, m)) < 0.5] = 0.0
        X = sp.csr_matrix(X)
    y = rng.normal(size=n)
    w = rng.random(n)
    labels = rng.integers(0, K, size=n)
    Xs, ys, ws = cluster_sums(ArraySource(X, y, w, block_size=block), labels, K)
    eXs, eys, ews = _direct_sums(X, y, w, labels, K)
    assert sp.issparse(Xs) == sparse
    np.testing.assert_allclose(Xs.toarray() if sparse else Xs, eXs, atol=1e-12)
    np.testing.assert_allclose(ys, eys, atol=1e-12)
    np.testing.assert_allclose(ws, ews, atol=1e-12)
    _, none_y, _ = cluster_sums(ArraySource(X, y), labels, K, targets=False)
    assert none_y is None


def test_blocks_cover_rows_in_order_and_take():
    X = np.arange(20.0).reshape(10, 2)
    y = np.arange(10.0)
    src = ArraySource(X, y, block_size=3)
    blocks = list(src.blocks())
    assert [b.start for b in blocks] == [0, 3, 6, 9]
    assert blocks[-1].stop == 10
    np.testing.assert_array_equal(src.map_rows(lambda b: b.y), y)
    got = src.take([7, 1, 7, 4])
    np.testing.assert_array_equal(got.y, [1.0, 4.0, 7.0])
    np.testing.assert_array_equal(got.X, X[[1, 4, 7]])
    assert got.sample_weight is None
    with pytest.raises(ValueError, match="at least one index"):
        src.take([])
    csr = ArraySource(sp.csr_matrix(X), y, block_size=4).take([0, 9])
    assert sp.issparse(csr.X)
    np.testing.assert_array_equal(csr.X.toarray(), X[[0, 9]])


def test_one_block_source_passes_sparse_x_itself():
    # SciPy's X[0:n] copies a CSR matrix: every pass of a fit held a second X.
    X = sp.random(50, 7, density=0.3, format="csr", random_state=0)
    (block,) = ArraySource(X, np.ones(50)).blocks()
    assert block.X is X
    parts = list(ArraySource(X, np.ones(50), block_size=20).blocks())
    assert [b.X.shape[0] for b in parts] == [20, 20, 10]
    assert (sp.vstack([b.X for b in parts]) != X).nnz == 0


def test_block_rows_gathers_positions_within_the_block():
    X = np.arange(12.0).reshape(6, 2)
    y, w = np.arange(6.0), np.linspace(0.5, 1.0, 6)
    block = Block(10, X, y, w)
    got = block.rows([4, 0, 4])
    assert got.start == 0 and got.stop == 3
    np.testing.assert_array_equal(got.X, X[[4, 0, 4]])
    np.testing.assert_array_equal(got.y, [4.0, 0.0, 4.0])
    np.testing.assert_array_equal(got.sample_weight, w[[4, 0, 4]])
    bare = Block(0, sp.csr_matrix(X), None, None).rows(np.array([5, 1]))
    assert sp.issparse(bare.X) and bare.y is None and bare.sample_weight is None
    np.testing.assert_array_equal(bare.X.toarray(), X[[5, 1]])


def test_chunk_source_counts_and_validates():
    X = np.ones((7, 3))

    def factory():
        yield X[:4], None
        yield X[4:], None

    src = ChunkSource(factory)
    assert (src.n_samples, src.n_features) == (7, 3)
    assert [b.start for b in src.blocks()] == [0, 4]
    assert isinstance(as_data_source(src), DataSource) and as_data_source(src) is src
    with pytest.raises(TypeError, match="factory must be callable"):
        ChunkSource(3)
    with pytest.raises(TypeError, match="tuple"):
        list(ChunkSource(lambda: [X]).blocks())
    with pytest.raises(ValueError, match="y has 2 rows"):
        list(ChunkSource(lambda: [(X, np.ones(2))]).blocks())
    with pytest.raises(ValueError, match="no rows"):
        ChunkSource(lambda: []).n_samples


def test_array_source_validates():
    with pytest.raises(ValueError, match="2-D"):
        ArraySource(np.ones(3))
    with pytest.raises(ValueError, match="y has 2 rows"):
        ArraySource(np.ones((3, 1)), np.ones(2))
    with pytest.raises(ValueError, match="block_size"):
        ArraySource(np.ones((3, 1)), block_size=0)
