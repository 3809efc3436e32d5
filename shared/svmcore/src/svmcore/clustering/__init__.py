"""Cheap initial clusterings (one k-means iteration, AID sec. 4) and cluster bookkeeping."""

from ._clusters import Clusters
from ._kmeans import kmeans_one_iteration
from ._label_passes import mixed_groups
from ._sums import group_sums

__all__ = ["Clusters", "group_sums", "kmeans_one_iteration", "mixed_groups"]
