"""derive_rs: partitions, reconstruction (9), beta (10), Theorems 1-2, bad input."""

import numpy as np
import pytest
import scipy.sparse as sp
from _reference import kernel_matrix
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from aesvm import derive_rs
from aesvm._derive import fls1, fls2, sls

KP = {"kernel": "rbf", "gamma": 0.5, "degree": 3, "coef0": 0.0}


def two_class_data(n=300, n_features=2, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, n_features)).astype(dtype)
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 0, 1, -1)
    return X, y


def assert_partition(parts, members):
    flat = np.concatenate(parts)
    assert flat.size == members.size
    np.testing.assert_array_equal(np.sort(flat), np.sort(members))


@pytest.mark.parametrize("size", [1, 2, 7, 100, 101])
def test_fls1_chunks_by_position(size):
    idx = np.arange(3, 3 + 257)
    parts = fls1(idx, size)
    assert_partition(parts, idx)
    assert all(p.size == size for p in parts[:-1]) and parts[-1].size <= size
    np.testing.assert_array_equal(np.concatenate(parts), idx)


@pytest.mark.parametrize("subset_size", [2, 10, 64, 1000])
def test_fls2_is_a_median_split_partition(subset_size):
    X, _ = two_class_data(203)
    idx = np.arange(203)
    parts = fls2(X, idx, subset_size, KP)
    assert_partition(parts, idx)
    assert max(p.size for p in parts) <= max(subset_size, 203 // 2 + 1)
    # The first split: the nearer half to x_0 (in kernel space) is entirely nearer.
    d = 2 - 2 * kernel_matrix(X, X[:1], "rbf", gamma=0.5)[:, 0]
    if subset_size >= 203 / 2:
        near, far = parts
        assert near.size == 101 and d[near].max() <= d[far].min()


@pytest.mark.parametrize("group_size", [2, 5, 50, 300])
def test_sls_groups_nearest_to_anchor(group_size):
    X, _ = two_class_data(150)
    idx = np.arange(150)
    sq = (X**2).sum(axis=1)
    groups = sls(X, idx, group_size, sq, KP)
    assert_partition(groups, idx)
    assert all(g.size == group_size for g in groups[:-1]) and groups[-1].size <= group_size
    first = groups[0]
    anchor = np.argmax(sq)
    assert anchor in first
    if len(groups) > 1:
        d = 2 - 2 * kernel_matrix(X, X[[anchor]], "rbf", gamma=0.5)[:, 0]
        assert d[first].max() <= d[np.setdiff1d(idx, first)].min()


def reconstruction_errors(X, rs, kp):
    """||phi(x_i) - sum_t gamma_t^i phi(x_t)||^2 from sklearn's kernel, independently."""
    reps = X[rs.indices]
    Gam = rs.gamma.toarray()
    K_xr = kernel_matrix(X, reps, **kp)
    K_rr = kernel_matrix(reps, reps, **kp)
    k_xx = np.diag(kernel_matrix(X, X, **kp))
    return k_xx - 2 * np.einsum("it,it->i", Gam, K_xr) + np.einsum("it,ts,is->i", Gam, K_rr, Gam)


@pytest.mark.parametrize("segregation", ["fls1", "fls2"])
@pytest.mark.parametrize(
    "kp",
    [
        {"kernel": "rbf", "gamma": 0.5},
        {"kernel": "rbf", "gamma": 4.0},
        {"kernel": "poly", "gamma": 0.5, "degree": 2, "coef0": 1.0},
        {"kernel": "linear"},
    ],
)
def test_every_point_reconstructed_within_epsilon(segregation, kp):
    X, y = two_class_data(400, seed=1)
    eps = 1e-3
    rs = derive_rs(X, y, subset_size=150, group_size=40, tol=eps, segregation=segregation, **kp)
    Gam = rs.gamma.toarray()
    # Gamma rows on the simplex, only within the sample's own class and group.
    assert Gam.min() >= 0
    np.testing.assert_allclose(Gam.sum(axis=1), 1.0, atol=1e-12)
    rows, cols = np.nonzero(Gam)
    assert (y[rows] == rs.labels[cols]).all()
    assert (rs.groups[rows] == rs.groups[rs.indices[cols]]).all()
    # Representatives represent themselves.
    np.testing.assert_array_equal(Gam[rs.indices, np.arange(rs.n_representatives)], 1.0)
    tau2 = reconstruction_errors(X, rs, kp)
    assert tau2.max() <= eps + 1e-9
    np.testing.assert_allclose(rs.residuals, np.maximum(tau2, 0), atol=1e-8)
    # beta = column sums; class betas sum to class sizes.
    np.testing.assert_allclose(rs.beta, Gam.sum(axis=0), atol=1e-12)
    for cls in (-1, 1):
        assert rs.beta[rs.labels == cls].sum() == pytest.approx((y == cls).sum(), abs=1e-9)
    np.testing.assert_array_equal(rs.labels, y[rs.indices])
    assert np.unique(rs.indices).size == rs.n_representatives
    # Groups partition the data: every index in exactly one group of at most V samples.
    assert np.bincount(rs.groups).max() <= 40
    assert rs.n_representatives < X.shape[0]


def test_sample_weight_scales_beta():
    X, y = two_class_data(200, seed=2)
    w = np.random.default_rng(0).uniform(0.5, 2.0, size=200)
    rs = derive_rs(X, y, gamma=0.5, subset_size=100, group_size=50)
    rs_w = derive_rs(X, y, gamma=0.5, subset_size=100, group_size=50, sample_weight=w)
    np.testing.assert_array_equal(rs.indices, rs_w.indices)
    np.testing.assert_allclose(rs_w.beta, rs.gamma.T @ w, rtol=1e-12)


def test_float32_sparse_and_deterministic():
    X, y = two_class_data(200, seed=3)
    base = derive_rs(X, y, gamma=0.5, subset_size=100, group_size=50)
    again = derive_rs(X, y, gamma=0.5, subset_size=100, group_size=50)
    np.testing.assert_array_equal(base.indices, again.indices)
    np.testing.assert_array_equal(base.beta, again.beta)
    csr = derive_rs(sp.csr_matrix(X), y, gamma=0.5, subset_size=100, group_size=50)
    np.testing.assert_array_equal(np.sort(csr.indices), np.sort(base.indices))
    f32 = derive_rs(X.astype(np.float32), y, gamma=0.5, subset_size=100, group_size=50)
    assert reconstruction_errors(X, f32, {"kernel": "rbf", "gamma": 0.5}).max() <= 1e-3 + 1e-5
    shuffled = derive_rs(X, y, gamma=0.5, subset_size=100, group_size=50, random_state=0)
    assert shuffled.beta.sum() == pytest.approx(200)


def test_probe_that_does_not_abort_changes_nothing():
    """abort_fraction reorders the groups' solves, never the representative set."""
    X, y = two_class_data(600, seed=11)
    kw = {"gamma": 0.5, "subset_size": 150, "group_size": 30, "tol": 1e-2}
    plain = derive_rs(X, y, **kw)
    probed = derive_rs(X, y, abort_fraction=1.0, **kw)
    assert plain.n_representatives < 0.5 * X.shape[0]
    np.testing.assert_array_equal(probed.indices, plain.indices)
    np.testing.assert_array_equal(probed.groups, plain.groups)
    np.testing.assert_allclose(probed.beta, plain.beta, rtol=0, atol=0)
    assert (probed.gamma != plain.gamma).nnz == 0


def test_probe_stops_on_unreducible_data():
    """A probe keeping more than abort_fraction of its samples returns None."""
    X, y = two_class_data(600, n_features=30, seed=12)
    kw = {"gamma": 0.05, "subset_size": 150, "group_size": 30, "tol": 1e-3}
    full = derive_rs(X, y, **kw)
    assert full.n_representatives > 0.9 * X.shape[0]
    assert derive_rs(X, y, abort_fraction=0.6, **kw) is None
    # The probe never aborts when the groups fit in it (nothing would be saved): with
    # FLS1, 40 rows make one group per class, and the probe takes at least two groups.
    few = derive_rs(X[:40], y[:40], abort_fraction=0.6, segregation="fls1", **kw)
    assert few is not None and few.n_groups == 2


def test_epsilon_zero_keeps_every_point():
    X, y = two_class_data(80, seed=4)
    rs = derive_rs(X, y, gamma=0.5, subset_size=40, group_size=20, tol=0.0)
    assert rs.n_representatives == 80
    np.testing.assert_array_equal(rs.beta, 1.0)


def test_duplicates_are_represented_by_their_twin():
    X, y = two_class_data(60, seed=5)
    X2 = np.vstack([X, X[:10]])
    y2 = np.concatenate([y, y[:10]])
    rs = derive_rs(X2, y2, gamma=0.5, subset_size=70, group_size=70, tol=1e-6)
    assert rs.n_representatives <= 60 + 10
    assert rs.beta.sum() == pytest.approx(70)
    assert reconstruction_errors(X2, rs, {"kernel": "rbf", "gamma": 0.5}).max() <= 1e-6 + 1e-9


# ------------------------------------------------------------------ Theorems 1 and 2


def objectives(X, y, rs, kp, C, a, anchors, b):
    """F1, F2, F3 of (1), (2), (11) and Theorem 2's bounds for w = sum_j a_j phi(x_anchor_j)."""
    n = X.shape[0]
    K_xa = kernel_matrix(X, X[anchors], **kp)
    w_z = K_xa @ a  # w^T z_i
    w_u = rs.gamma @ w_z[rs.indices]  # w^T u_i, u_i = sum_t gamma_t^i z_t
    w_sq = a @ kernel_matrix(X[anchors], X[anchors], **kp) @ a
    hinge = lambda s, lab: np.maximum(0.0, 1.0 - lab * (s + b))  # noqa: E731
    F1 = 0.5 * w_sq + C / n * hinge(w_z, y).sum()
    F2 = 0.5 * w_sq + C / n * (rs.beta * hinge(w_z[rs.indices], rs.labels)).sum()
    F3 = 0.5 * w_sq + C / n * hinge(w_u, y).sum()
    w_tau = w_z - w_u  # w^T tau_i
    upper = C / n * np.maximum(0.0, -y * w_tau).sum()
    lower = C / n * np.maximum(0.0, y * w_tau).sum()
    return F1, F2, F3, upper, lower


@pytest.mark.parametrize("kp", [{"kernel": "rbf", "gamma": 1.0}, {"kernel": "linear"}])
def test_theorem_1_and_2_on_random_w(kp):
    X, y = two_class_data(300, seed=6)
    rs = derive_rs(X, y, subset_size=150, group_size=60, tol=1e-2, **kp)
    rng = np.random.default_rng(7)
    for _ in range(25):
        anchors = rng.choice(300, size=8, replace=False)
        a = rng.normal(scale=rng.uniform(0.1, 5.0), size=8)
        b = rng.normal(scale=2.0)
        C = 10 ** rng.uniform(-1, 3)
        F1, F2, F3, upper, lower = objectives(X, y, rs, kp, C, a, anchors, b)
        assert F3 <= F2 + 1e-9 * max(1.0, abs(F2))  # Theorem 1
        assert -lower - 1e-9 <= F1 - F3 <= upper + 1e-9  # Theorem 2


# ------------------------------------------------------------ bad and degenerate input


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"subset_size": 10, "group_size": 20}, ValueError, "subset_size"),
        ({"group_size": 1}, ValueError, "group_size"),
        ({"group_size": 2.5}, TypeError, "group_size"),
        ({"tol": -1e-3}, ValueError, "tol"),
        ({"tol": np.nan}, ValueError, "tol"),
        ({"segregation": "fls3"}, ValueError, "segregation"),
        ({"kernel": "sigmoid"}, ValueError, "kernel"),
        ({"gamma": -1.0}, ValueError, "gamma"),
        ({"gamma": "median"}, ValueError, "gamma"),
        ({"kernel": "poly", "degree": 0}, ValueError, "degree"),
        ({"random_state": "seed"}, TypeError, "random_state"),
        ({"abort_fraction": 0.0}, ValueError, "abort_fraction"),
        ({"abort_fraction": 1.5}, ValueError, "abort_fraction"),
    ],
)
def test_bad_parameters(kwargs, error, match):
    X, y = two_class_data(30)
    with pytest.raises(error, match=match):
        derive_rs(X, y, **kwargs)


def test_one_class():
    """One class is derived on its own (a row chunk of AESVC's Dask path may hold one)."""
    X, y = two_class_data(60)
    both = derive_rs(X, y, gamma=0.5, group_size=10, subset_size=20)
    first = y == y[0]
    alone = derive_rs(X[first], y[first], gamma=0.5, group_size=10, subset_size=20)
    assert float(alone.beta.sum()) == pytest.approx(first.sum())
    np.testing.assert_array_equal(np.unique(alone.labels), [y[0]])
    mine = both.labels == y[0]
    np.testing.assert_array_equal(np.flatnonzero(first)[alone.indices], both.indices[mine])


def test_bad_data():
    X, y = two_class_data(30)
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        derive_rs(bad, y)
    with pytest.raises(ValueError, match="y must be 1-d"):
        derive_rs(X, y[:-1])
    with pytest.raises(ValueError, match="sample_weight|negative"):
        derive_rs(X, y, sample_weight=-np.ones(30))


@settings(max_examples=20, deadline=None)
@given(
    X=st.integers(1, 5).flatmap(
        lambda d: arrays(
            np.float64, st.tuples(st.integers(2, 30), st.just(d)), elements=st.integers(-2, 2)
        )
    ),
    group_size=st.integers(2, 8),
    data=st.data(),
)
def test_degenerate_data(X, group_size, data):
    """Duplicates, zero vectors, tiny classes: still a valid representative set."""
    n = X.shape[0]
    y = data.draw(arrays(np.int64, n, elements=st.integers(0, 1)))
    if np.unique(y).size < 2:
        y[0], y[-1] = 0, 1
    rs = derive_rs(X, y, gamma=0.5, subset_size=2 * group_size, group_size=group_size, tol=1e-3)
    assert 1 <= rs.n_representatives <= n
    assert np.unique(rs.indices).size == rs.n_representatives
    for cls in (0, 1):
        assert rs.beta[rs.labels == cls].sum() == pytest.approx((y == cls).sum())
    tau2 = reconstruction_errors(X, rs, {"kernel": "rbf", "gamma": 0.5})
    assert tau2.max() <= 1e-3 + 1e-9


def test_no_reads_of_uninitialized_memory(monkeypatch):
    """Groups of unequal size share a batch; garbage in unused block parts changes nothing."""
    X, y = two_class_data(250, seed=3)
    kw = dict(gamma=0.5, subset_size=150, group_size=100, tol=1e-3)
    ref = derive_rs(X, y, **kw)
    real_empty = np.empty

    def garbage_empty(*args, **kwargs):
        out = real_empty(*args, **kwargs)
        if out.dtype.kind == "f":
            out.fill(1e300)
        return out

    monkeypatch.setattr(np, "empty", garbage_empty)
    rs = derive_rs(X, y, **kw)
    np.testing.assert_array_equal(rs.indices, ref.indices)
    np.testing.assert_allclose(rs.beta, ref.beta, rtol=0, atol=1e-12)
    assert rs.n_representatives < X.shape[0]


def test_expired_budget_keeps_every_unprocessed_sample():
    # issue 19: no DeriveAE batch starts after the deadline; a group not processed keeps
    # its samples as their own representatives (unit Gamma rows, beta = sample weight)
    from svmcore.solvers import TimeBudget

    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    w = rng.uniform(0.5, 2.0, size=300)
    kw = dict(gamma=0.5, subset_size=100, group_size=50, tol=1e-3, sample_weight=w, n_jobs=1)
    budget = TimeBudget(1.0, clock=lambda: 0.0)
    budget.exhausted = True  # expired before the first batch
    rs = derive_rs(X, y, budget=budget, **kw)
    assert rs.n_unprocessed == rs.n_groups
    np.testing.assert_array_equal(np.sort(rs.indices), np.arange(300))
    np.testing.assert_allclose(rs.beta, w[rs.indices])
    np.testing.assert_array_equal(rs.gamma[rs.indices].toarray(), np.eye(300))
    assert np.all(rs.residuals == 0)
    full = derive_rs(X, y, **kw)
    assert full.n_unprocessed == 0 and full.n_representatives < 300


@pytest.mark.parametrize("expire_after", [None, 2])
def test_without_bookkeeping_the_same_set_and_no_gamma(expire_after):
    # issue 19 (memory): AESVC asks for the set without Gamma; indices, labels and betas
    # must be those of the full output bit for bit, also when a deadline leaves groups
    # unprocessed (expire_after batches checked). Gamma, written straight into CSR, is in
    # canonical form with rows on the simplex and equals the dense rebuild.
    from svmcore.solvers import TimeBudget

    X, y = two_class_data(900, seed=21)
    w = np.random.default_rng(2).uniform(0.5, 2.0, size=900)
    kw = dict(gamma=0.5, subset_size=200, group_size=60, tol=1e-3, sample_weight=w, n_jobs=1)

    def budget():
        if expire_after is None:
            return None
        checks = iter(range(10**6))
        return TimeBudget(1.0, clock=lambda: 0.0 if next(checks) < expire_after + 1 else 2.0)

    full = derive_rs(X, y, budget=budget(), **kw)
    lean = derive_rs(X, y, budget=budget(), bookkeeping=False, **kw)
    assert (full.n_unprocessed > 0) == (expire_after is not None)
    assert lean.n_unprocessed == full.n_unprocessed
    for name in ("indices", "labels", "beta"):
        np.testing.assert_array_equal(getattr(lean, name), getattr(full, name))
        assert getattr(lean, name).dtype == getattr(full, name).dtype
    assert lean.gamma is None and lean.residuals is None and lean.groups is None
    G = full.gamma
    assert G.has_canonical_format and G.shape == (900, full.n_representatives)
    np.testing.assert_allclose(np.asarray(G.sum(axis=1)).ravel(), 1.0, atol=1e-9)
    np.testing.assert_allclose(full.beta, G.T @ w, rtol=1e-12)
    np.testing.assert_array_equal(G[full.indices].toarray(), np.eye(full.n_representatives))
