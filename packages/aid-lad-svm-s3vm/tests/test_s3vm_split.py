"""Lemma 1 labels, Prop 5's key and the Step 2/3 declustering vs plain reimplementations."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aid_models._s3vm_split import (
    UNLABELED_CODES,
    lemma1_labels,
    prop5_violated,
    s3vm_decluster_key,
)


def _scores(rng, n):
    # Draw some scores exactly on the boundaries 0 and +-1, where the strict and non-strict
    # inequalities of the paper's sets matter.
    s = rng.normal(scale=1.5, size=n)
    s[rng.random(n) < 0.2] = rng.choice([-1.0, 0.0, 1.0])
    return s


def _group_direct(s, d):
    """The paper's sets I^{++}, I^{+-}, I^{-+}, I^{--} written out for one sample."""
    if 1 - d * s > 0 and s > 0:
        return "++"
    if 1 - d * s > 0 and s <= 0:
        return "+-"
    if 1 - d * s <= 0 and s > 0:
        return "-+"
    return "--"


@pytest.mark.parametrize("seed", range(3))
def test_lemma1_labels_minimize_the_unlabeled_loss(seed):
    s = _scores(np.random.default_rng(seed), 200)
    d = lemma1_labels(s)
    loss = np.maximum(0.0, 1.0 - d * s)
    other = np.maximum(0.0, 1.0 - (-d) * s)
    assert np.all(loss <= other)
    # Where exactly one label has zero error (Lemma 1's second statement), d is its sign.
    one_zero = (np.maximum(0, 1 - s) == 0) ^ (np.maximum(0, 1 + s) == 0)
    assert np.all(d[one_zero] == np.where(s[one_zero] >= 0, 1, -1))


@pytest.mark.parametrize("seed", range(3))
def test_four_way_split_matches_the_paper_sets(seed):
    rng = np.random.default_rng(seed)
    n, K = 300, 12
    s = _scores(rng, n)
    y = rng.choice([-1, 0, 1], size=n)
    # Clusters never mix labeled and unlabeled samples (nor the two classes).
    labels = rng.integers(0, K, size=n) * 3 + (y + 1)
    d_k = rng.choice([-1, 1], size=3 * K)
    key = s3vm_decluster_key(s, y, labels, d_k)
    for i in range(n):
        if y[i] == 0:
            assert UNLABELED_CODES[key[i]] == _group_direct(s[i], d_k[labels[i]])
        else:
            assert key[i] == (0 if 1 - y[i] * s[i] > 0 else 1)


@pytest.mark.parametrize("seed", range(3))
def test_prop5_condition_matches_a_direct_check(seed):
    rng = np.random.default_rng(seed)
    n, K = 120, 30
    s = _scores(rng, n)
    y = rng.choice([-1, 0, 1], size=n)
    labels = rng.integers(0, K, size=n) * 3 + (y + 1)
    n_clusters = 3 * K
    bad = set(prop5_violated(s, y, labels, n_clusters).tolist())
    for k in range(n_clusters):
        members = np.flatnonzero(labels == k)
        if members.size == 0:
            assert k not in bad
            continue
        if y[members[0]] != 0:
            h = 1 - y[members] * s[members]
            ok = np.all(h <= 0) or np.all(h >= 0)
        else:
            # Prop 5 (i)-(iv) with the Lemma 1 labels d_i.
            d = np.where(s[members] > 0, 1, -1)
            h, sm = 1 - d * s[members], s[members]
            ok = (
                (np.all(h <= 0) and np.all(sm <= 0))
                or (np.all(h <= 0) and np.all(sm > 0))
                or (np.all(h >= 0) and np.all(sm > 0))
                or (np.all(h >= 0) and np.all(sm <= 0))
            )
        assert (k not in bad) == ok, k


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0]), min_size=2, max_size=12))
def test_a_violating_unlabeled_cluster_is_always_split(scores):
    # One unlabeled cluster; d_k from Lemma 1 on the mean score, as the estimator does.
    s = np.array(scores)
    y = np.zeros(s.size, dtype=np.int8)
    labels = np.zeros(s.size, dtype=np.int64)
    d_k = lemma1_labels(np.array([s.mean()]))
    split_key = s3vm_decluster_key(s, y, labels, d_k)
    if prop5_violated(s, y, labels, 1).size > 0:
        assert np.unique(split_key).size > 1
