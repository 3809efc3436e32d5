"""ChunkedClusters: the partition of Clusters, with labels and keys kept in Dask chunks."""

import dask.array as da
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from svmcore.chunked import RowBlocks, kept_rows, map_chunks
from svmcore.clustering import (
    ChunkedClusters,
    Clusters,
    kmeans_centres,
    kmeans_one_iteration,
    mixed_groups,
    nearest_centre,
    quantile_centres,
)
from svmcore.clustering._label_passes import key_tally, relabel, split_by_key, split_lookup


def _chunked(clusters, chunk):
    rows = da.from_array(clusters.labels.astype(np.int32), chunks=chunk).persist()
    return ChunkedClusters(rows, clusters.sizes)


def _case(n, n_clusters, n_keys, seed):
    """Labels, keys in ``[-1, n_keys - 2]`` and free rows, drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, n_clusters, n), rng.integers(-1, n_keys - 1, n), rng.random(n) < 0.3


#: Draws of (rows, clusters, key values, rows per chunk, seed).
CASES = st.tuples(
    st.integers(1, 200),
    st.integers(1, 15),
    st.integers(1, 5),
    st.integers(1, 60),
    st.integers(0, 2**16),
)


@settings(max_examples=40, deadline=None)
@given(case=CASES)
def test_split_violated_equals_mixed_groups_then_split(case):
    n, K, n_keys, chunk, seed = case
    labels, key, free = _case(n, K, n_keys, seed)
    ref = Clusters(labels)
    chunked = _chunked(ref, chunk)
    dkey, dfree = da.from_array(key, chunks=chunk), da.from_array(free, chunks=chunk)
    new, violated = chunked.split_violated(dkey, dfree)
    want = mixed_groups(ref.labels, key, ref.n_clusters, free)
    np.testing.assert_array_equal(violated, want)
    # the in-memory declustering is the same method
    mem_new, mem_violated = ref.split_violated(key, free)
    np.testing.assert_array_equal(mem_violated, want)
    if want.size == 0:
        assert new is chunked and mem_new is ref
        return
    ref_new, ref_split = ref.split(key, clusters=want)
    np.testing.assert_array_equal(mem_new.labels, ref_new.labels)
    assert isinstance(new, ChunkedClusters) and new.label_rows.dtype == np.int32
    np.testing.assert_array_equal(new.labels, ref_new.labels)
    np.testing.assert_array_equal(new.sizes, ref_new.sizes)
    np.testing.assert_array_equal(new.changed, ref_new.changed)
    np.testing.assert_array_equal(new.parent, ref_new.parent)
    assert new.parent_token == chunked.token != new.token


@settings(max_examples=30, deadline=None)
@given(case=CASES, select=st.booleans())
def test_split_equals_clusters_split(case, select):
    n, K, n_keys, chunk, seed = case
    labels, key, _ = _case(n, K, n_keys, seed)
    ref = Clusters(labels)
    allowed = None
    if select:
        allowed = np.flatnonzero(np.random.default_rng(seed).random(ref.n_clusters) < 0.5)
    ref_new, ref_split = ref.split(key, clusters=allowed)
    new, split = _chunked(ref, chunk).split(da.from_array(key, chunks=chunk), clusters=allowed)
    np.testing.assert_array_equal(new.labels, ref_new.labels)
    np.testing.assert_array_equal(split, ref_split)
    np.testing.assert_array_equal(new.parent, ref_new.parent)
    # The lineage maps every new cluster to the one it came from.
    np.testing.assert_array_equal(new.parent[ref_new.labels], ref.labels)


def test_boolean_keys_and_a_chain_of_splits():
    rng = np.random.default_rng(0)
    ref = Clusters(rng.integers(0, 5, 500))
    chunked = _chunked(ref, 70)
    for _ in range(3):
        key = rng.random(500) < 0.5
        ref, _ = ref.split(key.astype(np.int64))
        chunked, _ = chunked.split(da.from_array(key, chunks=70))
        np.testing.assert_array_equal(chunked.labels, ref.labels)
        np.testing.assert_array_equal(chunked.sizes, ref.sizes)


def test_a_split_hands_the_labels_to_the_new_partition():
    """Only the newest partition keeps labels; the older ones read theirs through it."""
    rng = np.random.default_rng(3)
    refs = [Clusters(rng.integers(0, 6, 400))]
    chain = [_chunked(refs[0], 64)]
    for _ in range(3):
        key = rng.integers(0, 2, 400)
        refs.append(refs[-1].split(key)[0])
        chain.append(chain[-1].split(da.from_array(key, chunks=64))[0])
    newest = set(chain[-1].label_rows.__dask_keys__())
    for ref, old in zip(refs, chain, strict=True):
        np.testing.assert_array_equal(old.labels, ref.labels)
        # mapped from the newest labels: no persisted copy of their own
        assert newest <= set(dict(old.label_rows.__dask_graph__()))
    # an older partition splits again from the labels it reads through its heir
    key = rng.integers(0, 2, 400)
    again, _ = chain[1].split(da.from_array(key, chunks=64))
    np.testing.assert_array_equal(again.labels, refs[1].split(key)[0].labels)
    np.testing.assert_array_equal(chain[1].labels, refs[1].labels)
    np.testing.assert_array_equal(chain[2].labels, refs[2].labels)


def test_compacted_drops_unused_ids_in_order():
    raw = np.array([4, 0, 4, 7, 0, 7, 7], dtype=np.int32)
    rows = da.from_array(raw, chunks=3).persist()
    c = ChunkedClusters.compacted(rows, np.bincount(raw, minlength=9))
    np.testing.assert_array_equal(c.labels, Clusters(raw).labels)
    np.testing.assert_array_equal(c.sizes, [2, 2, 3])
    # All ids used: the labels are taken as they are.
    same = ChunkedClusters.compacted(c.label_rows, c.sizes)
    assert same.label_rows is c.label_rows


def test_chunked_clusters_bad_input():
    rows = da.from_array(np.array([0, 1, 1], dtype=np.int32), chunks=2)
    with pytest.raises(ValueError, match="must count the 3 labels"):
        ChunkedClusters(rows, np.array([1, 1]))
    with pytest.raises(ValueError, match="at least one member"):
        ChunkedClusters(rows, np.array([3, 0]))
    c = ChunkedClusters(rows, np.array([1, 2]))
    with pytest.raises(ValueError, match="key must be 3 integers"):
        c.split_violated(da.from_array(np.zeros(3), chunks=2))
    with pytest.raises(ValueError, match="at most 256"):
        c.split_violated(da.from_array(np.array([0, 1000, 0]), chunks=2))
    assert "n_clusters=2" in repr(c)


def test_label_passes_compose_to_split_by_key():
    rng = np.random.default_rng(1)
    labels, key = rng.integers(0, 6, 300), rng.integers(0, 3, 300)
    free = rng.random(300) < 0.2
    allowed = rng.random(6) < 0.6
    ref, ref_split, ref_parent = split_by_key(labels, key, allowed, 6, 3)
    counts, seen = key_tally(labels, key, 6, 3, free)
    np.testing.assert_array_equal(counts, np.bincount(labels * 3 + key, minlength=18))
    np.testing.assert_array_equal(seen, np.bincount((labels * 3 + key)[~free], minlength=18) > 0)
    present = np.zeros(18, dtype=bool)
    present[np.where(allowed[labels], labels * 3 + key, labels * 3)] = True
    lookup, split, parent = split_lookup(present, 6, 3)
    np.testing.assert_array_equal(relabel(labels, key, allowed, 3, lookup, np.int32), ref)
    np.testing.assert_array_equal(split, ref_split)
    np.testing.assert_array_equal(parent, ref_parent)


@pytest.mark.parametrize("p", [1, 2])
def test_kmeans_centres_and_nearest_centre_recompose_one_iteration(p):
    rng = np.random.default_rng(p)
    Z = rng.normal(size=(3000, p))
    centres = kmeans_centres(Z, 40, random_state=3)
    raw = np.concatenate([nearest_centre(Z[lo : lo + 700], centres) for lo in range(0, 3000, 700)])
    present = np.bincount(raw, minlength=centres.shape[0]) > 0
    np.testing.assert_array_equal(
        (np.cumsum(present) - 1)[raw], kmeans_one_iteration(Z, 40, random_state=3)
    )


def test_quantile_centres_are_the_one_dimensional_initial_centres():
    z = np.random.default_rng(0).standard_t(2, size=2001)
    np.testing.assert_array_equal(
        quantile_centres(z, 7).ravel(), np.quantile(z, (np.arange(7) + 0.5) / 7)
    )
    np.testing.assert_array_equal(
        kmeans_centres(z, 7), kmeans_centres(z, 7, init=quantile_centres(z, 7))
    )
    assert quantile_centres([4.0], 3).ravel().tolist() == [4.0, 4.0, 4.0]
    with pytest.raises(ValueError, match="values"):
        quantile_centres(np.array([]), 2)
    with pytest.raises(ValueError, match="n_clusters"):
        quantile_centres(z, 0)


def test_kept_rows_and_row_blocks_read_kept_arrays_where_they_live():
    X = np.arange(20.0).reshape(10, 2)
    rows = RowBlocks(da.from_array(X, chunks=(4, 2)))
    calls = []

    def scaled(start, Xi, yi, wi, scale):
        calls.append(start)
        return (Xi[:, 0] * scale).astype(np.int64), start

    kept, parts = rows.map_kept(scaled, dtype=np.int64, shared=(3,))
    np.testing.assert_array_equal(kept.compute(), X[:, 0] * 3)
    assert parts == [0, 4, 8]
    assert sorted(calls) == [0, 4, 8]  # each task once, for the rows and the parts
    # A kept array passes chunk by chunk, the shared lookup once.
    lookup = np.arange(100) * 2
    total = rows.reduce(lambda start, Xi, yi, wi, k, t: t[k].sum(), kept, shared=(lookup,))
    assert total == (X[:, 0] * 3 * 2).sum()
    # Realigned when its chunks differ from the data's.
    other = da.from_array(np.arange(10), chunks=3)
    got = rows.map(lambda start, Xi, yi, wi, v: v.copy(), other)
    np.testing.assert_array_equal(np.concatenate(got), np.arange(10))
    tasks = map_chunks(lambda a, b: a + b, kept, kept, row_chunks=(4, 4, 2))
    np.testing.assert_array_equal(kept_rows(tasks, (4, 4, 2), np.int64).compute(), X[:, 0] * 6)
    # A total per task (a K-sized table) is added on the workers, alone or with parts.
    calls.clear()

    def with_table(start, Xi, yi, wi):
        calls.append(start)
        return (
            Xi[:, 1].astype(np.int64),
            start,
            np.bincount(Xi[:, 0].astype(np.int64), minlength=20),
        )

    kept, parts, table = rows.map_kept(with_table, dtype=np.int64, with_total=True)
    np.testing.assert_array_equal(kept.compute(), X[:, 1])
    assert parts == [0, 4, 8] and sorted(calls) == [0, 4, 8]
    np.testing.assert_array_equal(table, np.bincount(X[:, 0].astype(np.int64), minlength=20))
    tasks = map_chunks(lambda a: (a, np.ones(3, dtype=np.int64)), kept, row_chunks=(4, 4, 2))
    kept, total = kept_rows(tasks, (4, 4, 2), np.int64, with_total=True)
    np.testing.assert_array_equal(kept.compute(), X[:, 1])
    np.testing.assert_array_equal(total, [3, 3, 3])


def test_key_tally_adds_chunks_into_one_table():
    rng = np.random.default_rng(3)
    labels, key = rng.integers(0, 7, 90), rng.integers(0, 3, 90)
    free = rng.random(90) < 0.3
    table = (np.zeros(21, dtype=np.int64), np.zeros(21, dtype=bool))
    for lo in range(0, 90, 40):  # chunks of 40, 40, 10 into the same table
        sl = slice(lo, lo + 40)
        key_tally(labels[sl], key[sl], 7, 3, free[sl], out=table)
    whole = key_tally(labels, key, 7, 3, free)
    np.testing.assert_array_equal(table[0], whole[0])
    np.testing.assert_array_equal(table[1], whole[1])
    # int32 counts (a chunk's table in ChunkedClusters.map_codes): the same counts.
    narrow = key_tally(labels, key, 7, 3, free, out=(np.zeros(21, np.int32), np.zeros(21, bool)))
    assert narrow[0].dtype == np.int32
    np.testing.assert_array_equal(narrow[0], whole[0])
    np.testing.assert_array_equal(narrow[1], whole[1])
    with pytest.raises(ValueError, match="out must be"):
        key_tally(labels, key, 7, 3, out=(np.zeros(20, dtype=np.int64), np.zeros(20, bool)))


def test_split_violated_folds_many_chunks_per_task(monkeypatch):
    """K-sized tables larger than their chunks: each task tallies several chunks, whose
    key ranges differ (a chunk of one key, one of negative keys)."""
    from svmcore.chunked import _blocks, fold_count

    # Two threads (the bench's cluster) whatever this machine has: folding allowed.
    monkeypatch.setattr(_blocks, "_cluster_threads", lambda: 2)
    rng = np.random.default_rng(5)
    n, chunk = 2000, 50
    labels = rng.integers(0, 300, n)
    key = rng.integers(0, 2, n)
    key[:chunk] = 1
    key[chunk : 2 * chunk] = -1
    free = rng.random(n) < 0.2
    ref = Clusters(labels)
    assert fold_count(n // chunk, 18.0 * ref.n_clusters, 13.0 * chunk) > 1
    new, violated = _chunked(ref, chunk).split_violated(
        da.from_array(key, chunks=chunk), da.from_array(free, chunks=chunk)
    )
    mem_new, mem_violated = ref.split_violated(key, free)
    np.testing.assert_array_equal(violated, mem_violated)
    np.testing.assert_array_equal(new.labels, mem_new.labels)
    np.testing.assert_array_equal(new.sizes, mem_new.sizes)


@settings(max_examples=30, deadline=None)
@given(case=CASES, with_free=st.booleans())
def test_map_codes_counts_the_split_in_the_pass_that_makes_the_keys(case, with_free):
    """map_codes' tally, made in the codes' own tasks, splits as a separate tally does."""
    n, K, n_keys, chunk, seed = case
    labels, key, free = _case(n, K, n_keys, seed)
    code = ((key - key.min()) * 2 + free).astype(np.int8)
    ref = Clusters(labels)
    chunked = _chunked(ref, chunk)
    X = np.column_stack([code.astype(np.float64), np.arange(n, dtype=np.float64)])
    rows = RowBlocks(da.from_array(X, chunks=(chunk, 2)))
    calls = []

    def codes(start, Xi, yi, wi, offset):
        calls.append(start)
        return Xi[:, 0].astype(np.int8), float(Xi[:, 1].sum()) + offset

    def split_key(c):
        return c // 2, (c % 2 == 1) if with_free else None

    kept, parts, dkey, dfree = chunked.map_codes(
        rows, codes, split_key=split_key, dtype=np.int8, shared=(0.5,)
    )
    assert sorted(calls) == list(range(0, n, chunk))  # each task once
    np.testing.assert_array_equal(kept.compute(), code)
    assert parts == [
        float(np.arange(lo, min(lo + chunk, n)).sum()) + 0.5 for lo in range(0, n, chunk)
    ]
    mem_key, mem_free = code // 2, (code % 2 == 1) if with_free else None
    chunked._tally = None  # the recorded tally is used: no map of its own
    new, violated = chunked.split_violated(dkey, dfree)
    mem_new, mem_violated = ref.split_violated(mem_key, mem_free)
    np.testing.assert_array_equal(violated, mem_violated)
    np.testing.assert_array_equal(new.labels, mem_new.labels)
    np.testing.assert_array_equal(new.sizes, mem_new.sizes)


def test_map_codes_needs_the_labels_chunks():
    chunked = _chunked(Clusters(np.arange(10) % 3), 5)
    rows = RowBlocks(da.from_array(np.zeros((10, 1)), chunks=(4, 1)))
    with pytest.raises(ValueError, match="chunked like the labels"):
        chunked.map_codes(rows, None, split_key=None, dtype=np.int8)
