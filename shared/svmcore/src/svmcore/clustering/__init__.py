"""Cheap initial clusterings (one k-means iteration, AID sec. 4) and cluster bookkeeping."""

from ._clusters import Clusters
from ._kmeans import kmeans_one_iteration

__all__ = ["Clusters", "kmeans_one_iteration"]
