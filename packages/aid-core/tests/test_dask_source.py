"""DaskSource reads the same rows as ArraySource, with its work done in Dask tasks."""

import subprocess
import sys

import dask.array as da
import numpy as np
import pytest
import scipy.sparse as sp
from _aid_toy import MedianProblem, weighted_median
from hypothesis import given, settings
from hypothesis import strategies as st

from aid_core import ArraySource, DaskSource, as_data_source, cluster_sums, run_aid
from svmcore.chunked import check_dask_data


def _sources(X, y, w, chunk):
    dX = da.from_array(X, chunks=(chunk, max(1, X.shape[1] // 2)), asarray=not sp.issparse(X))
    data = check_dask_data(dX, y, w, estimator="test", accept_sparse=True)
    return ArraySource(X, y, w), as_data_source(data.X, data.y, data.sample_weight)


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(1, 60),
    m=st.integers(1, 4),
    K=st.integers(1, 6),
    chunk=st.integers(1, 25),
    sparse=st.booleans(),
    weighted=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_dask_source_matches_array_source(n, m, K, chunk, sparse, weighted, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, m))
    if sparse:
        X = sp.csr_matrix(np.where(rng.random((n, m)) < 0.5, 0.0, X))
    y = rng.normal(size=n)
    w = rng.random(n) + 0.1 if weighted else None
    labels = rng.integers(0, K, n)
    ref, src = _sources(X, y, w, chunk)
    assert isinstance(src, DaskSource)
    assert (src.n_samples, src.n_features) == (n, m)
    for a, b in zip(cluster_sums(src, labels, K), cluster_sums(ref, labels, K), strict=True):
        a, b = (v.toarray() if sp.issparse(v) else v for v in (a, b))
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    coef = rng.normal(size=m)
    # BLAS may round a row's product differently in a smaller block: 1e-12, not equality.
    np.testing.assert_allclose(
        src.map_rows(lambda b: np.asarray(b.X @ coef).ravel()),
        ref.map_rows(lambda b: np.asarray(b.X @ coef).ravel()),
        rtol=1e-12,
        atol=1e-12,
    )
    np.testing.assert_array_equal(src.weights(), ref.weights())
    np.testing.assert_array_equal(src.targets(), ref.targets())
    idx = rng.choice(n, size=min(n, 5), replace=False)
    got, want = src.take(idx), ref.take(idx)
    Xg, Xw = (v.toarray() if sp.issparse(v) else v for v in (got.X, want.X))
    np.testing.assert_array_equal(Xg, Xw)
    np.testing.assert_array_equal(got.y, want.y)
    rows = [b.X.shape[0] for b in src.blocks()]
    assert sum(rows) == n and len(rows) == -(-n // chunk)


def test_run_aid_identical_iterates_on_dask():
    rng = np.random.default_rng(3)
    n = 3000
    y = rng.standard_t(3, size=n)
    w = rng.random(n) + 0.5
    X = np.zeros((n, 1))
    ref, src = _sources(X, y, w, 700)
    a = run_aid(MedianProblem(n_init=4), ref, gap_tol=0.0, random_state=5)
    b = run_aid(MedianProblem(n_init=4), src, gap_tol=0.0, random_state=5)
    assert a.stop_reason == b.stop_reason == "optimal"
    assert a.n_iter == b.n_iter
    for column in ("F", "E", "lower_bound", "n_clusters", "n_split"):
        np.testing.assert_allclose(a.history.column(column), b.history.column(column), rtol=1e-12)
    assert b.solution.params == weighted_median(y, w)


def test_check_dask_data_rejects_bad_input():
    X = np.ones((10, 2))
    with pytest.raises(ValueError, match="NaN or infinity"):
        check_dask_data(da.from_array(np.where(X > 0, np.nan, X)), estimator="t")
    with pytest.raises(ValueError, match="y has 9 entries"):
        check_dask_data(da.from_array(X), da.ones(9), estimator="t")
    with pytest.raises(ValueError, match="2-D"):
        check_dask_data(da.ones((2, 2, 2)), estimator="t")
    with pytest.raises(ValueError, match="non-negative"):
        check_dask_data(da.from_array(X), np.ones(10), -np.ones(10), estimator="t")
    with pytest.raises(TypeError, match="dask.array.Array"):
        check_dask_data(X, estimator="t")
    with pytest.raises(TypeError, match="numeric"):
        check_dask_data(da.from_array(X.astype(str)), estimator="t")


def test_numpy_path_never_imports_dask():
    code = (
        "import sys, numpy as np; import aid_core; "
        "s = aid_core.as_data_source(np.ones((4, 2)), np.ones(4)); "
        "aid_core.cluster_sums(s, np.zeros(4, int), 1); "
        "assert 'dask' not in sys.modules, 'dask imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@settings(max_examples=20, deadline=None)
@given(
    n=st.integers(2, 80),
    m=st.integers(1, 4),
    chunk=st.integers(1, 30),
    sparse=st.booleans(),
    weighted=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_cluster_sums_cache_equals_full_sums_bit_for_bit(n, m, chunk, sparse, weighted, seed):
    """ClusterSums after successive splits: the sums cluster_sums computes from scratch."""
    from aid_core import ClusterSums
    from svmcore.clustering import Clusters

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, m))
    if sparse:
        X = sp.csr_matrix(np.where(rng.random((n, m)) < 0.5, 0.0, X))
    y = rng.normal(size=n)
    w = rng.random(n) + 0.1 if weighted else None
    for src in _sources(X, y, w, chunk):
        cache = ClusterSums()
        clusters = Clusters(rng.integers(0, 8, n))
        updates = 0
        for _ in range(3):
            updates += clusters.changed is not None and 2 * clusters.changed.size <= len(clusters)
            got = cache(src, clusters)
            full = cluster_sums(src, clusters.labels, clusters.n_clusters)
            for a, b in zip(got, full, strict=True):
                assert sp.issparse(a) == sp.issparse(b)
                a, b = (v.toarray() if sp.issparse(v) else v for v in (a, b))
                np.testing.assert_array_equal(a, b)
            assert cache(src, clusters) is got  # the same partition is not summed again
            assert not got[2].flags.writeable  # the cache's own arrays cannot be overwritten
            one = [rng.integers(clusters.n_clusters)]  # one split: the incremental path
            clusters, _ = clusters.split(rng.integers(0, 2, n), clusters=one)
        assert updates >= 1 or n < 16


@settings(max_examples=15, deadline=None)
@given(
    n=st.integers(2, 80),
    chunk=st.integers(1, 30),
    sparse=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_labels_kept_on_the_workers_give_the_same_sums_and_splits(n, chunk, sparse, seed):
    """ChunkedClusters on a DaskSource: ClusterSums and the default declustering equal
    those of the same labels held by the caller, bit for bit (same chunks, same order)."""
    from aid_core import AIDProblem, ClusterSums, Evaluation
    from svmcore.clustering import ChunkedClusters, Clusters

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    if sparse:
        X = sp.csr_matrix(np.where(rng.random((n, 3)) < 0.5, 0.0, X))
    y = rng.normal(size=n)
    arr, src = _sources(X, y, rng.random(n) + 0.1, chunk)
    ref = Clusters(rng.integers(0, 6, n))
    kept = ChunkedClusters(
        da.from_array(ref.labels.astype(np.int32), chunks=(src.rows.row_chunks,)).persist(),
        ref.sizes,
    )
    cache_ref, cache_kept = ClusterSums(), ClusterSums()
    for _ in range(3):
        for a, b in zip(cache_kept(src, kept), cache_ref(src, ref), strict=True):
            a, b = (v.toarray() if sp.issparse(v) else v for v in (a, b))
            np.testing.assert_array_equal(a, b)

        # One evaluation's codes, kept where they are made (DaskSource.map_kept), and
        # the same by map_codes, which counts the split in the same tasks.
        def fn(blk):
            return (blk.y > 0).astype(np.int8) + 2 * (np.abs(blk.y) < 0.2), blk.stop

        code, parts = src.map_kept(fn, dtype=np.int8)
        assert parts == [int(s) for s in np.cumsum(src.rows.row_chunks)]
        key, free, parts = src.map_codes(fn, kept)
        assert parts == [int(s) for s in np.cumsum(src.rows.row_chunks)]
        codes = code.compute()
        mem_key, mem_free, mem_parts = arr.map_codes(fn, ref)  # the in-memory pass
        assert mem_parts == [n]
        for a, b in ((key, codes & 1), (free, codes >= 2), (mem_key, codes & 1)):
            np.testing.assert_array_equal(np.asarray(a), b)
        np.testing.assert_array_equal(mem_free, codes >= 2)
        new_ref, n_ref = AIDProblem.decluster(
            None, ref, Evaluation(0.0, key=mem_key, free=mem_free)
        )
        new_kept, n_kept = AIDProblem.decluster(None, kept, Evaluation(0.0, key=key, free=free))
        assert n_kept == n_ref
        np.testing.assert_array_equal(new_kept.labels, new_ref.labels)
        if n_ref == 0:
            break
        assert isinstance(new_kept, ChunkedClusters)
        ref, kept = new_ref, new_kept
