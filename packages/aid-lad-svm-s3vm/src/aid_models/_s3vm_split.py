"""Lemma 1 labels, Prop 5's optimality condition and the S3VM declustering (Steps 2-3).

All functions work on the scores ``s_i = w x_i + b`` of the original samples, so they are
O(n) vectorized numpy and independent of how the scores were computed.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "UNLABELED_CODES",
    "labeled_key",
    "lemma1_labels",
    "optimality_key",
    "prop5_violated",
    "s3vm_decluster_key",
    "unlabeled_key",
]

#: The four unlabeled groups of Step 3(a), in this order: ``++`` (inside the margin of its
#: label, positive score), ``+-`` (inside, non-positive score), ``-+`` (zero error,
#: positive score), ``--`` (zero error, non-positive score).
UNLABELED_CODES = ("++", "+-", "-+", "--")


def lemma1_labels(scores) -> np.ndarray:
    """Labels ``d_i`` in {-1, +1} minimizing ``max(0, 1 - d_i s_i)`` (Lemma 1).

    ``+1`` iff ``s_i > 0``. At ``s_i = 0`` both labels have error 1; the paper's sets
    ``I^{++}``/``I^{+-}`` put ``s = 0`` on the non-positive side, and so does this choice.
    """
    return np.where(np.asarray(scores) > 0.0, 1, -1).astype(np.int8)


def unlabeled_key(scores, labels) -> np.ndarray:
    """Step 3(a) group of each unlabeled sample: index into :data:`UNLABELED_CODES`.

    Parameters
    ----------
    scores : ndarray of shape (n,)
        ``w x_i + b``.
    labels : ndarray of shape (n,) in {-1, +1}
        The label the sample is counted with: its cluster's ``d_k`` for the declustering
        of Step 3, or its own Lemma 1 label ``d_i`` for the condition of Prop 5.
    """
    scores = np.asarray(scores, dtype=np.float64)
    inside = 1.0 - labels * scores > 0.0
    positive = scores > 0.0
    return (2 * (~inside) + (~positive)).astype(np.int8)


def labeled_key(scores, y) -> np.ndarray:
    """Step 2 side of each labeled sample: 0 if ``1 - y_i s_i > 0`` (error), else 1."""
    return (1.0 - np.asarray(y) * np.asarray(scores, dtype=np.float64) <= 0.0).astype(np.int8)


def optimality_key(scores, y_signed) -> np.ndarray:
    """Per-sample group of Prop 5 with strict sides (an informative key for ``history_``).

    Labeled samples (``y_signed = +-1``) get :func:`labeled_key` (0/1); unlabeled ones
    (``y_signed = 0``) get :func:`unlabeled_key` with their Lemma 1 labels (0..3). Clusters
    never mix labeled and unlabeled samples, so the two ranges never meet in one cluster.
    """
    y_signed = np.asarray(y_signed)
    unl = y_signed == 0
    key = labeled_key(scores, y_signed)
    key[unl] = unlabeled_key(scores[unl], lemma1_labels(scores[unl]))
    return key


def prop5_violated(scores, y_signed, cluster_labels, n_clusters) -> np.ndarray:
    """Ids of the clusters violating the condition of Prop 5, ascending.

    A labeled cluster must not hold both a sample with ``1 - y_i s_i > 0`` and one with
    ``1 - y_i s_i < 0`` (a sample exactly on its margin fits either side: Prop 5's "<= 0"
    or ">= 0"). An unlabeled cluster must in addition have all scores ``> 0`` or all
    ``<= 0`` (so one Lemma 1 label ``d_i``), with ``1 - d_i s_i`` likewise of one sign.
    """
    scores = np.asarray(scores, dtype=np.float64)
    y_signed = np.asarray(y_signed)
    cluster_labels = np.asarray(cluster_labels)
    unl = y_signed == 0
    d = np.where(unl, lemma1_labels(scores), y_signed)
    h = 1.0 - d * scores
    inside = np.bincount(cluster_labels, weights=h > 0.0, minlength=n_clusters) > 0
    outside = np.bincount(cluster_labels, weights=h < 0.0, minlength=n_clusters) > 0
    positive = np.bincount(cluster_labels, weights=unl & (scores > 0.0), minlength=n_clusters)
    nonpos = np.bincount(cluster_labels, weights=unl & (scores <= 0.0), minlength=n_clusters)
    return np.flatnonzero((inside & outside) | ((positive > 0) & (nonpos > 0)))


def s3vm_decluster_key(scores, y_signed, cluster_labels, cluster_d) -> np.ndarray:
    """Per-sample key of the declustering: Step 2(b) (labeled) and Step 3(a) (unlabeled).

    Parameters
    ----------
    scores : ndarray of shape (n,)
    y_signed : ndarray of shape (n,) in {-1, 0, +1}
        0 marks an unlabeled sample.
    cluster_labels : ndarray of shape (n,) of int
        Cluster of each sample.
    cluster_d : ndarray of shape (n_clusters,) in {-1, +1}
        The aggregated label ``d_k`` of every cluster (entries of labeled clusters unused).
    """
    y_signed = np.asarray(y_signed)
    unl = y_signed == 0
    key = labeled_key(scores, y_signed)
    d = np.asarray(cluster_d)[np.asarray(cluster_labels)[unl]]
    key[unl] = unlabeled_key(scores[unl], d)
    return key
