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
    fold_chunks,
    fold_slots,
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


def _add_into(acc, values, labels, n_groups):
    """A fold step: running per-group sums of one chunk's values, updated in place."""
    if acc is None:
        acc = np.zeros(n_groups)
    np.add.at(acc, np.asarray(labels), np.asarray(values))
    return acc


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(1, 60),
    chunk=st.integers(1, 20),
    chains=st.integers(1, 8),
    seed=st.integers(0, 999),
    scheduler=st.sampled_from(["sync", "threads"]),
)
def test_fold_chunks_adds_every_chunk_once_along_any_number_of_chains(
    n, chunk, chains, seed, scheduler
):
    rng = np.random.default_rng(seed)
    values, labels = rng.normal(size=n), rng.integers(0, 4, n)
    parts = [da.from_array(a, chunks=chunk).to_delayed().ravel() for a in (values, labels)]
    args = list(zip(*parts, strict=True))
    with dask.config.set(scheduler=scheduler):
        total = fold_chunks(_add_into, args, shared=(4,), n_chains=chains)
        default = fold_chunks(_add_into, args, shared=(4,))
    want = np.bincount(labels, weights=values, minlength=4)
    np.testing.assert_allclose(total, want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(default, want, rtol=1e-12, atol=1e-12)
    # One chain adds the chunks in row order: the sums of a sequential loop, bit for bit.
    if chains == 1:
        seq = np.zeros(4)
        for lab, val in zip(labels, values, strict=True):
            seq[lab] += val
        np.testing.assert_array_equal(total, seq)


def test_fold_slots_and_bad_chains():
    with dask.config.set(scheduler="sync"):
        assert fold_slots() == 1
    with dask.config.set(scheduler="threads", num_workers=3):
        assert fold_slots() == 3
    with pytest.raises(ValueError, match="at least one"):
        fold_chunks(_add_into, [], shared=(2,))
    with pytest.raises(ValueError, match="n_chains"):
        fold_chunks(_add_into, [(np.ones(1), np.zeros(1, int))], shared=(2,), n_chains=0)


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
