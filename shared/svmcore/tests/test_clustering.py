"""Clusters bookkeeping and one-iteration k-means against naive loops and scikit-learn."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.cluster import KMeans

from svmcore.clustering import Clusters, group_sums, group_totals, kmeans_one_iteration

# ---------------------------------------------------------------- naive references


def naive_sums(labels, X):
    K = max(labels) + 1
    out = np.zeros((K, X.shape[1]))
    for i, k in enumerate(labels):
        for j in range(X.shape[1]):
            out[k, j] += X[i, j]
    return out


def naive_split(labels, key, allowed):
    """Per-cluster loop: the group with the smallest key keeps the id, others appended."""
    labels, key = list(labels), list(key)
    K = max(labels) + 1
    new = list(labels)
    next_id = K
    split = []
    for k in range(K):
        members = [i for i in range(len(labels)) if labels[i] == k]
        keys = sorted({key[i] for i in members})
        if k not in allowed or len(keys) == 1:
            continue
        split.append(k)
        for kv in keys[1:]:
            for i in members:
                if key[i] == kv:
                    new[i] = next_id
            next_id += 1
    return np.array(new), np.array(split, dtype=int)


def naive_kmeans_one_iteration(Z, centres):
    def assign(cs):
        return np.array([min(range(len(cs)), key=lambda k: sum((z - cs[k]) ** 2)) for z in Z])

    labels = assign(centres)
    new_centres = [Z[labels == k].mean(axis=0) for k in range(len(centres)) if (labels == k).any()]
    labels = assign(new_centres)
    used = sorted(set(labels.tolist()))
    return np.array([used.index(v) for v in labels])


# ---------------------------------------------------------------- Clusters


def test_sizes_sums_means_match_naive_dense_and_csr():
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 7, size=200)
    labels[:7] = np.arange(7)
    X = rng.normal(size=(200, 5))
    X[X < 0.5] = 0.0
    c = Clusters(labels)
    assert c.n_clusters == 7 and c.n_samples == 200
    np.testing.assert_array_equal(c.sizes, [np.sum(labels == k) for k in range(7)])
    ref = naive_sums(labels, X)
    np.testing.assert_allclose(c.sums(X), ref, rtol=1e-12)
    np.testing.assert_allclose(c.sums(sp.csr_matrix(X)).toarray(), ref, rtol=1e-12)
    assert sp.issparse(c.sums(sp.csr_matrix(X)))
    np.testing.assert_allclose(c.means(X), ref / c.sizes[:, None], rtol=1e-12)
    np.testing.assert_allclose(
        c.means(sp.csr_matrix(X)).toarray(), ref / c.sizes[:, None], rtol=1e-12
    )
    np.testing.assert_allclose(c.sums(X[:, 0]), ref[:, 0], rtol=1e-12)
    assert c.sums(X.astype(np.float32)).dtype == np.float32
    E = c.indicator()
    assert sp.isspmatrix_csr(E) and E.shape == (200, 7)
    np.testing.assert_array_equal(E.toarray(), labels[:, None] == np.arange(7))
    for k in range(7):
        np.testing.assert_array_equal(c.members(k), np.flatnonzero(labels == k))


def test_labels_are_compacted_in_order():
    c = Clusters([10, 3, 10, 7])
    assert c.labels.tolist() == [2, 0, 2, 1]
    assert c.sizes.tolist() == [1, 1, 2]
    c = Clusters([10**12, -5, 10**12])  # wide range: sorting path
    assert c.labels.tolist() == [1, 0, 1]


@pytest.mark.parametrize("key_span", [2, 4, 10**9])
@pytest.mark.parametrize("select", [False, True])
def test_split_matches_naive_loop(key_span, select):
    rng = np.random.default_rng(key_span + select)
    n, K = 300, 25
    labels = np.r_[np.arange(K), rng.integers(0, K, size=n - K)]
    key = rng.integers(0, 4, size=n) * (key_span // 4 if key_span > 4 else 1) - 1
    if key_span == 2:
        key = np.where(rng.random(n) < 0.8, 1, -1)
    allowed = np.sort(rng.choice(K, size=10, replace=False)) if select else np.arange(K)
    c = Clusters(labels)
    new, split = c.split(key, clusters=allowed if select else None)
    ref_labels, ref_split = naive_split(labels, key, set(allowed.tolist()))
    np.testing.assert_array_equal(new.labels, ref_labels)
    np.testing.assert_array_equal(split, ref_split)
    assert new.n_clusters == np.unique(ref_labels).size


def test_split_with_many_clusters_uses_sorting_path():
    # K * n_keys exceeds the bincount budget; the sorting path must agree with the loop.
    rng = np.random.default_rng(3)
    n = 400
    labels = np.arange(n)
    labels[200:] = rng.integers(0, 200, size=200)
    key = rng.integers(0, 20, size=n)
    new, split = Clusters(labels).split(key)
    ref_labels, ref_split = naive_split(Clusters(labels).labels, key, set(range(n)))
    np.testing.assert_array_equal(new.labels, ref_labels)
    np.testing.assert_array_equal(split, ref_split)


def test_no_split_when_keys_agree():
    c = Clusters([0, 0, 1, 1])
    new, split = c.split([5, 5, -2, -2])
    np.testing.assert_array_equal(new.labels, c.labels)
    assert split.size == 0


@settings(max_examples=30, deadline=None)
@given(
    st.integers(1, 30).flatmap(
        lambda n: st.tuples(
            arrays(np.int64, n, elements=st.integers(0, 5)),
            arrays(np.int64, n, elements=st.integers(-2, 2)),
        )
    )
)
def test_split_property_refines_partition(data):
    labels, key = data
    c = Clusters(labels)
    new, split = c.split(key)
    # The new partition refines the old one and separates exactly the (cluster, key) groups.
    pairs = {(a, b) for a, b in zip(c.labels.tolist(), key.tolist(), strict=True)}
    assert new.n_clusters == len(pairs)
    for k in range(new.n_clusters):
        m = new.members(k)
        assert np.unique(c.labels[m]).size == 1 and np.unique(key[m]).size == 1
    assert new.sizes.sum() == c.n_samples
    np.testing.assert_array_equal(new.labels[new.labels < c.n_clusters] >= 0, True)
    assert set(split.tolist()) == {
        k for k in range(c.n_clusters) if np.unique(key[c.labels == k]).size > 1
    }


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 40).flatmap(
        lambda n: st.tuples(
            arrays(np.int64, n, elements=st.integers(0, 5)),
            arrays(np.int8, n, elements=st.integers(-2, 2)),
            arrays(np.bool_, n),
        )
    ),
    st.booleans(),
)
def test_mixed_groups_matches_naive_loop(data, use_ignore):
    from svmcore.clustering import mixed_groups

    labels, key, ignore = data
    ignore = ignore if use_ignore else None
    keep = np.ones(labels.size, bool) if ignore is None else ~ignore
    ref = [k for k in range(6) if np.unique(key[keep & (labels == k)]).size > 1]
    assert mixed_groups(labels, key, 6, ignore).tolist() == ref


def test_clusters_bad_input():
    with pytest.raises(ValueError, match="labels must be 1-d"):
        Clusters(np.zeros((2, 2), dtype=int))
    with pytest.raises(TypeError, match="labels must hold integers"):
        Clusters([0.5, 1.0])
    with pytest.raises(ValueError, match="labels is empty"):
        Clusters(np.array([], dtype=int))
    c = Clusters([0, 1, 1])
    with pytest.raises(ValueError, match="key must have 3"):
        c.split([0, 1])
    with pytest.raises(ValueError, match="clusters holds indices"):
        c.split([0, 1, 0], clusters=[5])
    with pytest.raises(ValueError, match="X has 2 rows"):
        c.sums(np.ones((2, 3)))
    with pytest.raises(ValueError, match="NaN"):
        c.sums(np.array([1.0, np.nan, 2.0]))
    with pytest.raises(ValueError, match="k holds indices"):
        c.members(2)


# ---------------------------------------------------------------- k-means


@pytest.mark.parametrize("p", [1, 2, 3])
def test_kmeans_one_iteration_matches_naive_and_sklearn(p):
    rng = np.random.default_rng(p)
    Z = rng.normal(size=(400, p)) + rng.integers(0, 4, size=(400, 1)) * 3.0
    K = 6
    centres = Z[rng.choice(400, size=K, replace=False)]
    labels = kmeans_one_iteration(Z if p > 1 else Z[:, 0], K, init=centres)
    np.testing.assert_array_equal(labels, naive_kmeans_one_iteration(Z, centres))
    km = KMeans(n_clusters=K, init=centres, n_init=1, max_iter=1, algorithm="lloyd").fit(Z)
    # Same partition (sklearn keeps its label numbering; ours is compacted).
    assert np.unique(km.labels_).size == K
    _, ours = np.unique(labels, return_inverse=True)
    _, theirs = np.unique(km.labels_, return_inverse=True)
    np.testing.assert_array_equal(ours, theirs)


def test_kmeans_default_initialisation():
    rng = np.random.default_rng(5)
    z = rng.normal(size=500)
    # 1-d: quantile centres, deterministic.
    K = 8
    q = np.quantile(z, (np.arange(K) + 0.5) / K)[:, None]
    np.testing.assert_array_equal(
        kmeans_one_iteration(z, K), naive_kmeans_one_iteration(z[:, None], q)
    )
    # p > 1: seeded sample of rows; same seed, same labels; equals the naive with those centres.
    Z = rng.normal(size=(300, 2))
    a = kmeans_one_iteration(Z, 5, random_state=11)
    np.testing.assert_array_equal(a, kmeans_one_iteration(Z, 5, random_state=11))
    centres = Z[np.random.default_rng(11).choice(300, size=5, replace=False)]
    np.testing.assert_array_equal(a, naive_kmeans_one_iteration(Z, centres))


def test_kmeans_float32_and_empty_clusters_dropped():
    z = np.array([0.0, 0.0, 0.0, 10.0], dtype=np.float32)
    # Centres 0 and 1 attract nothing after the first update: dropped and compacted.
    labels = kmeans_one_iteration(z, 3, init=[[0.0], [4.0], [10.0]])
    assert labels.tolist() == [0, 0, 0, 1]


@settings(max_examples=25, deadline=None)
@given(
    st.integers(1, 12),
    st.integers(1, 20),
    st.integers(1, 3),
    st.booleans(),
)
def test_kmeans_degenerate_inputs(n, n_clusters, p, all_equal):
    rng = np.random.default_rng(n * 100 + n_clusters)
    Z = np.full((n, p), 2.5) if all_equal else rng.normal(size=(n, p))
    labels = kmeans_one_iteration(Z, n_clusters, random_state=0)
    assert labels.shape == (n,)
    K = labels.max() + 1
    assert K <= min(n, n_clusters)
    np.testing.assert_array_equal(np.unique(labels), np.arange(K))  # compact
    if all_equal:
        assert K == 1


def test_kmeans_bad_input():
    with pytest.raises(ValueError, match="n_clusters must be >= 1"):
        kmeans_one_iteration([1.0, 2.0], 0)
    with pytest.raises(TypeError, match="n_clusters must be an int"):
        kmeans_one_iteration([1.0, 2.0], 2.0)
    with pytest.raises(ValueError, match="NaN"):
        kmeans_one_iteration([1.0, np.nan], 1)
    with pytest.raises(ValueError, match="Z is empty"):
        kmeans_one_iteration(np.zeros((0, 2)), 1)
    with pytest.raises(ValueError, match="init must have 2 column"):
        kmeans_one_iteration(np.zeros((3, 2)), 1, init=[[0.0]])
    with pytest.raises(ValueError, match="Z must be 2-dimensional"):
        kmeans_one_iteration(np.zeros((3, 2, 2)), 1)


@pytest.mark.parametrize("p", [2, 3])
def test_kmeans_many_centres_tree_path_matches_brute_force(p):
    from sklearn.metrics import pairwise_distances_argmin

    from svmcore.clustering._kmeans import _TREE_MIN_CENTRES

    rng = np.random.default_rng(p)
    Z = rng.normal(size=(3000, p))
    K = _TREE_MIN_CENTRES + 50
    centres = Z[rng.choice(3000, size=K, replace=False)]
    labels = kmeans_one_iteration(Z, K, init=centres)
    first = pairwise_distances_argmin(Z, centres)
    moved = np.stack([Z[first == k].mean(axis=0) for k in range(K) if (first == k).any()])
    second = pairwise_distances_argmin(Z, moved)
    _, ref = np.unique(second, return_inverse=True)
    np.testing.assert_array_equal(labels, ref)


def _brute_nearest(Z, centres):
    """argmin of |z - c|^2 with the first centre on exact ties, by the same expression."""
    d = (Z[:, None, 0] - centres[None, :, 0]) ** 2 + (Z[:, None, 1] - centres[None, :, 1]) ** 2
    return d.argmin(axis=1)


@pytest.mark.parametrize(
    "shape", ["gaussian", "diagonal band, heavy tails", "far outliers", "integer ties"]
)
def test_nearest_centre_2d_equals_brute_force(shape):
    from svmcore.clustering._strips import nearest_centre_2d

    rng = np.random.default_rng(7)
    n, K = 4000, 600
    Z = rng.normal(size=(n, 2))
    if shape == "diagonal band, heavy tails":  # AID-LAD's (r, y) pairs
        Z[:, 1] = 3 * Z[:, 0] + rng.standard_t(1.5, size=n)
    elif shape == "far outliers":
        Z[:20] *= 1e4
    elif shape == "integer ties":  # many exact ties: equal distances to several centres
        Z = rng.integers(-2, 8, size=(n, 2)) + 0.5 * rng.integers(0, 2, size=(n, 2))
        Z = Z.astype(np.float64)
    centres = np.ascontiguousarray(Z[rng.choice(n, size=K, replace=False)])
    if shape == "integer ties":
        centres = rng.integers(0, 6, size=(K, 2)).astype(np.float64)  # duplicates too
    np.testing.assert_array_equal(nearest_centre_2d(Z, centres), _brute_nearest(Z, centres))


def test_nearest_centre_2d_degenerate_centres():
    from svmcore.clustering._strips import nearest_centre_2d

    Z = np.array([[0.0, 0.0], [0.5, 0.0], [2.0, 0.0], [-3.0, 9.0]])
    same = np.zeros((5, 2))  # all centres equal: the first one
    np.testing.assert_array_equal(nearest_centre_2d(Z, same), [0, 0, 0, 0])
    line = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 0.0]])  # one x, ties at 0.5
    np.testing.assert_array_equal(nearest_centre_2d(Z, line), _brute_nearest(Z, line))
    one = np.array([[4.0, 4.0]])
    np.testing.assert_array_equal(nearest_centre_2d(Z, one), [0, 0, 0, 0])


@pytest.mark.parametrize(("dims", "K"), [(1, 40), (2, 20), (2, 600), (3, 600)])
def test_centre_index_assigns_as_the_centres_do(dims, K):
    """A CentreIndex built once (and pickled to a worker) assigns as its raw centres."""
    import pickle

    from svmcore.clustering import CentreIndex, centre_sums, nearest_centre

    rng = np.random.default_rng(dims * K)
    Z = rng.normal(size=(3000, dims))
    centres = Z[rng.choice(3000, size=K, replace=False)]
    want = nearest_centre(Z, centres)
    if dims == 2:
        np.testing.assert_array_equal(want, _brute_nearest(Z, centres))
    index = pickle.loads(pickle.dumps(CentreIndex(centres)))
    for chunk in (slice(0, 1000), slice(1000, 3000)):
        np.testing.assert_array_equal(nearest_centre(Z[chunk], index), want[chunk])
        sums, counts = centre_sums(Z[chunk], index)
        ref_sums, ref_counts = centre_sums(Z[chunk], centres)
        np.testing.assert_array_equal(sums, ref_sums)
        np.testing.assert_array_equal(counts, ref_counts)
    with pytest.raises(ValueError, match="coordinate"):
        nearest_centre(np.zeros((3, dims + 1)), index)


# ---------------------------------------------------------------- group_sums


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("weighted", [False, True])
def test_group_sums_equal_naive_weighted_sums(dtype, order, weighted):
    rng = np.random.default_rng(4)
    X = np.asarray(rng.normal(size=(300, 7)), dtype=dtype, order=order)
    labels = rng.integers(0, 40, 300).astype(np.int32)  # some groups stay empty
    w = rng.uniform(0.5, 3.0, 300) if weighted else None
    out = group_sums(X, labels, 45, w)
    ref = np.zeros((45, 7))
    for i, k in enumerate(labels):
        ref[k] += (1.0 if w is None else w[i]) * X[i].astype(np.float64)
    assert out.dtype == np.float64 and out.shape == (45, 7)
    np.testing.assert_allclose(out, ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    ("labels", "weights", "match"),
    [
        (np.array([0, 1, 3]), None, r"\[0, 3\)"),
        (np.array([0, -1, 1]), None, r"\[0, 3\)"),
        (np.array([0.0, 1.0, 2.0]), None, "integers"),
        (np.array([0, 1]), None, "integers"),
        (np.array([0, 1, 2]), np.ones(2), "weights"),
    ],
)
def test_group_sums_rejects_bad_labels_and_weights(labels, weights, match):
    with pytest.raises(ValueError, match=match):
        group_sums(np.ones((3, 2)), labels, 3, weights)


def test_group_sums_skip_negative_equals_the_subset_bit_for_bit():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(500, 6))
    labels = rng.integers(-1, 9, 500)
    w = rng.uniform(0.5, 2.0, 500)
    keep = labels >= 0
    got = group_sums(X, labels, 9, w, skip_negative=True)
    np.testing.assert_array_equal(got, group_sums(X[keep], labels[keep], 9, w[keep]))
    with pytest.raises(ValueError, match=r"\[0, 9\)"):
        group_sums(X, labels, 9, w)  # -1 is an error unless skip_negative


def test_group_sums_with_a_table_beyond_the_caches_adds_in_row_order():
    """K = 300,000 (a 24 MB table, prefetched rows ahead): each group's rows are added in
    row order, as numpy's unbuffered ``np.add.at`` adds them, bit for bit; rows left out
    (labels -1, also among the rows prefetched ahead) change nothing."""
    rng = np.random.default_rng(12)
    X = rng.normal(size=(400_000, 10))
    labels = rng.integers(-1, 300_000, 400_000)
    keep = labels >= 0
    ref = np.zeros((300_000, 10))
    np.add.at(ref, labels[keep], X[keep])
    np.testing.assert_array_equal(group_sums(X, labels, 300_000, skip_negative=True), ref)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n_groups", [5, 300_000])
def test_group_totals_are_group_sums_and_bincounts_bit_for_bit(dtype, n_groups):
    rng = np.random.default_rng(13)
    n = 50_000
    X = rng.normal(size=(n, 10)).astype(dtype)
    y = rng.normal(size=n).astype(dtype)
    w = rng.uniform(0.5, 3.0, n)
    labels = rng.integers(-1, n_groups, n)
    keep = labels >= 0
    got = group_totals(X, labels, n_groups, w, y, skip_negative=True)
    assert got.shape == (n_groups, 12) and got.dtype == np.float64
    np.testing.assert_array_equal(
        got[:, :10], group_sums(X, labels, n_groups, w, skip_negative=True)
    )
    wy = w[keep] * y[keep].astype(np.float64)
    np.testing.assert_array_equal(got[:, 10], np.bincount(labels[keep], wy, n_groups))
    np.testing.assert_array_equal(got[:, 11], np.bincount(labels[keep], w[keep], n_groups))
    # without y: the weights' column only; unit weights count the rows
    no_y = group_totals(X, labels, n_groups, skip_negative=True)
    np.testing.assert_array_equal(no_y[:, :10], group_sums(X, labels, n_groups, skip_negative=True))
    np.testing.assert_array_equal(no_y[:, 10], np.bincount(labels[keep], minlength=n_groups))
    with pytest.raises(ValueError, match="y must have shape"):
        group_totals(X, labels, n_groups, w, y[:-1], skip_negative=True)


@settings(max_examples=40, deadline=None)
@given(
    edges=arrays(np.float64, st.integers(16, 200), elements=st.integers(-50, 50).map(float)),
    scale=st.sampled_from([1e-3, 1.0, 1e6]),
    seed=st.integers(0, 2**16),
)
def test_bucketed_search_equals_searchsorted(edges, scale, seed):
    """The 1-D assignment's bucket walk returns np.searchsorted's count exactly, with
    repeated edges, points on the edges, outside their range, infinite and NaN."""
    from svmcore.clustering._kmeans import _search_left

    edges = np.sort(edges) * scale
    rng = np.random.default_rng(seed)
    z = np.concatenate(
        [
            rng.normal(scale=30 * scale, size=64 * edges.size),
            rng.choice(edges, size=50),
            [np.inf, -np.inf, np.nan, edges[0], edges[-1], np.nextafter(edges[0], -np.inf)],
        ]
    )
    np.testing.assert_array_equal(_search_left(edges, z), np.searchsorted(edges, z, side="left"))
