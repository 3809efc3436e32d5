"""svmcore.chunked: maps, reductions and validation over Dask row chunks."""

import subprocess
import sys

import dask
import dask.array as da
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from svmcore.chunked import (
    RowBlocks,
    add_parts,
    check_dask_data,
    is_dask_collection,
    map_predict,
    tree_sum,
)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 9), seed=st.integers(0, 1000))
def test_tree_sum_adds_every_task_once(n, seed):
    values = np.random.default_rng(seed).normal(size=(n, 3))
    tasks = [dask.delayed((v, None, float(i))) for i, v in enumerate(values)]
    total, none, count = tree_sum(tasks).compute()
    np.testing.assert_allclose(total, values.sum(axis=0), rtol=1e-12, atol=1e-12)
    assert none is None and count == sum(range(n))


def test_add_parts_and_empty_tree():
    a = add_parts((np.ones(2), None, sp.eye(2, format="csr")), (np.ones(2), None, sp.eye(2)))
    assert a[1] is None and a[0].tolist() == [2.0, 2.0] and a[2].toarray()[0, 0] == 2.0
    with pytest.raises(ValueError, match="at least one"):
        tree_sum([])


@settings(max_examples=20, deadline=None)
@given(
    n=st.integers(1, 40), chunk=st.integers(1, 15), sparse=st.booleans(), seed=st.integers(0, 99)
)
def test_row_blocks_map_reduce_take(n, chunk, sparse, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = rng.normal(size=n)
    Xd = sp.csr_matrix(X) if sparse else X
    data = check_dask_data(
        da.from_array(Xd, chunks=(chunk, 2), asarray=not sparse),
        y,
        estimator="t",
        accept_sparse=True,
    )
    rows = RowBlocks(data.X, data.y)
    assert rows.n_samples == n and rows.n_features == 3
    starts = rows.map(lambda start, X, y, w: start)
    assert starts == list(range(0, n, chunk))
    labels = np.arange(n) % 2
    total = rows.reduce(lambda s, X, y, w, lab: np.bincount(lab, weights=y, minlength=2), labels)
    np.testing.assert_allclose(total, np.bincount(labels, weights=y, minlength=2), atol=1e-12)
    idx = rng.choice(n, size=min(3, n), replace=False)
    Xt, yt, wt = rows.take(idx)
    Xt = Xt.toarray() if sp.issparse(Xt) else Xt
    np.testing.assert_array_equal(Xt, X[np.sort(idx)])
    np.testing.assert_array_equal(yt, y[np.sort(idx)])
    assert wt is None
    seen = [start for start, *_ in rows.iter_chunks()]
    assert seen == starts
    with pytest.raises(ValueError, match="inside"):
        rows.take([n])
    # map_rows_at: each chunk holding some indices sees its own positions of them
    # (duplicates once), with the shared values after them; other chunks are not read
    dup = np.r_[idx, idx[:1]]
    parts = rows.map_rows_at(dup, lambda s, X, y, w, r, k: (s, s + r, k * y[r]), shared=(2.0,))
    want = np.sort(idx)
    assert [p[0] for p in parts] == sorted({int(i) // chunk * chunk for i in idx})
    np.testing.assert_array_equal(np.concatenate([p[1] for p in parts]), want)
    np.testing.assert_array_equal(np.concatenate([p[2] for p in parts]), 2.0 * y[want])
    with pytest.raises(ValueError, match="indices must be row numbers"):
        rows.map_rows_at([], lambda *a: None)


def test_map_predict_is_lazy_with_the_right_shapes():
    X = da.from_array(np.arange(20.0).reshape(10, 2), chunks=(3, 1))
    one = map_predict(lambda b: b.sum(axis=1), X)
    two = map_predict(lambda b: np.column_stack([b[:, 0], b[:, 1], b[:, 0]]), X, n_outputs=3)
    assert isinstance(one, da.Array) and one.shape == (10,)
    assert two.shape == (10, 3)
    np.testing.assert_array_equal(one.compute(), np.arange(20.0).reshape(10, 2).sum(axis=1))
    assert two.compute().shape == (10, 3)


def test_check_dask_data_casts_and_finds_classes():
    X = da.from_array(np.arange(12).reshape(6, 2), chunks=(4, 1))
    y = np.array(["a", "b", "a", "b", "b", "a"])
    data = check_dask_data(X, y, np.array([1, 0, 1, 1, 1, 1]), estimator="t", classes=True)
    assert data.X.dtype == np.float64 and data.X.numblocks == (2, 1)
    assert data.classes.tolist() == ["a", "b"] and data.any_zero_weight and not data.sparse
    unknown = X[X[:, 0] > 2]  # boolean indexing by a Dask mask: unknown chunk sizes
    assert check_dask_data(unknown, estimator="t").X.shape == (4, 2)
    Xs = sp.csr_matrix(np.array([[np.nan, 1.0], [0.0, 0.0]]))
    with pytest.raises(ValueError, match="NaN"):
        check_dask_data(da.from_array(Xs, asarray=False), estimator="t", accept_sparse=True)
    with pytest.raises(TypeError, match="sparse"):
        check_dask_data(da.from_array(Xs, asarray=False), estimator="t")


def test_detection_never_imports_dask():
    code = (
        "import sys, numpy as np; from svmcore.chunked import is_dask_collection as f; "
        "assert not f(np.ones(2)); assert 'dask' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    assert is_dask_collection(da.ones(2)) and not is_dask_collection(np.ones(2))
