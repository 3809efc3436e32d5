"""Cheap initial clusterings (one k-means iteration, AID sec. 4) and cluster bookkeeping."""

from ._chunked import ChunkedClusters
from ._clusters import Clusters
from ._kmeans import (
    CentreIndex,
    centre_sums,
    kmeans_centres,
    kmeans_one_iteration,
    kmeans_seed_rows,
    moved_centres,
    nearest_centre,
    quantile_centres,
)
from ._label_passes import mixed_groups
from ._sums import group_sums, group_totals

__all__ = [
    "CentreIndex",
    "ChunkedClusters",
    "Clusters",
    "centre_sums",
    "group_sums",
    "group_totals",
    "kmeans_centres",
    "kmeans_one_iteration",
    "kmeans_seed_rows",
    "moved_centres",
    "mixed_groups",
    "nearest_centre",
    "quantile_centres",
]
